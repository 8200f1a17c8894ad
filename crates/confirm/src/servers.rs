//! The servers an entry talks to by name, and the program's functions that
//! start them. A client call made while its server is down only shows
//! `noproc`: a harness variant starts those servers first, as the running
//! system has them up (a client of `snmpa_target_cache` with the cache's
//! server running).

use racewit_static::catalog::{Shape, op_of};
use racewit_static::{Category, Suspect};
use racewit_syntax::ir::{Body, CallTarget, Expr, MFA, Name, Program};

use crate::prepare::{atom_at as atom, walk_reached};

/// Calls that reach a process by the name at argument 0.
const BY_NAME: &[(&str, &str, &[u32])] = &[
    ("gen_server", "call", &[2, 3]),
    ("gen_server", "cast", &[2]),
    ("gen_statem", "call", &[2, 3]),
    ("gen_statem", "cast", &[2]),
    ("gen_event", "notify", &[2]),
    ("gen_event", "sync_notify", &[2]),
    ("gen_event", "call", &[3, 4]),
    ("erlang", "send", &[2, 3]),
];

/// A function of the program that starts the server registered as `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Starter {
    pub name: String,
    pub module: String,
    pub function: String,
    pub arity: u32,
}

/// The servers the entry `(m, f, a)` reaches by a constant name, the ones
/// its own body names first, each with the program's function that starts
/// it. The names the suspect races on are left out: starting those first
/// is the very write of the race.
pub(crate) fn starters_for(
    program: &Program,
    suspect: &Suspect,
    (m, f, a): (&str, &str, u32),
) -> Vec<Starter> {
    let raced: Vec<String> = match (&suspect.category, &suspect.resource.name) {
        // A name not known precisely may be any server's.
        (_, Some(names)) if names.any => return Vec::new(),
        (Category::Registry | Category::SpawnRegister | Category::Global, Some(names)) => {
            names.values.clone()
        }
        _ => Vec::new(),
    };
    names_called(program, (m, f, a))
        .into_iter()
        .filter(|n| !raced.contains(n))
        .filter_map(|name| starter_of(program, &name))
        .collect()
}

/// The constant names the entry's code (and the program's functions it
/// calls, a bounded number, breadth first) sends to or calls a server by.
fn names_called(program: &Program, (m, f, a): (&str, &str, u32)) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    walk_reached(program, (m, f, a), |body, e, target| {
        let to = match (e, target) {
            (Expr::Send { to, .. }, _) => Some(*to),
            (Expr::Call { args, .. }, Some((tm, tf))) => {
                let arity = args.len() as u32;
                BY_NAME
                    .iter()
                    .any(|&(bm, bf, arities)| bm == tm && bf == tf && arities.contains(&arity))
                    .then(|| args.first().copied())
                    .flatten()
            }
            _ => None,
        };
        if let Some(n) = to.and_then(|to| atom(body, to))
            && !names.contains(&n)
        {
            names.push(n);
        }
        false
    });
    names
}

/// The exported function of the program (fewest arguments first, then in
/// module order) that starts a behaviour under `{local, name}`.
fn starter_of(program: &Program, name: &str) -> Option<Starter> {
    let mut best: Option<Starter> = None;
    for (module_name, module) in &program.modules {
        for func in module.functions.iter().filter(|x| x.exported) {
            if best.as_ref().is_some_and(|b| b.arity <= func.arity) {
                continue;
            }
            if starts_named(&func.body, name) {
                best = Some(Starter {
                    name: name.to_string(),
                    module: module_name.to_string(),
                    function: func.name.to_string(),
                    arity: func.arity,
                });
            }
        }
    }
    best
}

/// Whether `body` calls a behaviour start that registers the process it
/// starts as `{local, name}` (`gen_server:start_link({local, Name}, ...)`).
fn starts_named(body: &Body, name: &str) -> bool {
    body.exprs.iter().any(|e| {
        let Expr::Call { target, args, .. } = e else {
            return false;
        };
        let CallTarget::Remote { module, function } = &**target else {
            return false;
        };
        let (Some(tm), Some(tf)) = (atom(body, *module), atom(body, *function)) else {
            return false;
        };
        let mfa = MFA {
            module: Name::new(&tm),
            name: Name::new(&tf),
            arity: args.len() as u32,
        };
        let Some(Shape::ScopedName { arg, scope }) =
            op_of(&mfa, Category::Registry).map(|op| op.shape)
        else {
            return false;
        };
        let Some(&at) = args.get(arg) else {
            return false;
        };
        matches!(body.expr(at), Expr::Tuple(items)
            if items.len() == 2
                && atom(body, items[0]).as_deref() == Some(scope)
                && atom(body, items[1]).as_deref() == Some(name))
    })
}

/// The name of the server that runs callback module `module`, when every
/// start of it in the program registers it under one constant
/// `{local, Name}` (a singleton: its callbacks run one message at a time).
/// `None` when the program starts it without a name, under several names,
/// or not at all.
pub(crate) fn singleton_name(program: &Program, module: &str) -> Option<String> {
    let mut name: Option<String> = None;
    for m in program.modules.values() {
        for func in &m.functions {
            let body = &func.body;
            for e in &body.exprs {
                let Expr::Call { target, args, .. } = e else {
                    continue;
                };
                let CallTarget::Remote {
                    module: tm,
                    function: tf,
                } = &**target
                else {
                    continue;
                };
                let (Some(tm), Some(tf)) = (atom(body, *tm), atom(body, *tf)) else {
                    continue;
                };
                let behaviour = matches!(
                    tm.as_str(),
                    "gen_server" | "gen_statem" | "gen_fsm" | "supervisor"
                );
                if !behaviour || !tf.starts_with("start") {
                    continue;
                }
                // start(Mod, Args, Opts) or start({local, N}, Mod, Args, Opts)
                // (supervisor: start_link(Mod, Args) or ({local, N}, Mod, Args)).
                let named_arity = if tm == "supervisor" { 3 } else { 4 };
                let (callback, registered) = if args.len() == named_arity {
                    (args.get(1), args.first())
                } else {
                    (args.first(), None)
                };
                if callback.and_then(|&c| atom(body, c)).as_deref() != Some(module) {
                    continue;
                }
                let local = registered.and_then(|&r| match body.expr(r) {
                    Expr::Tuple(items) if items.len() == 2 => (atom(body, items[0]).as_deref()
                        == Some("local"))
                    .then(|| atom(body, items[1]))
                    .flatten(),
                    _ => None,
                });
                match (local, &name) {
                    (Some(n), None) => name = Some(n),
                    (Some(n), Some(known)) if n == *known => {}
                    _ => return None,
                }
            }
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::program;

    const CACHE: &str = "-module(cache).\n\
        -behaviour(gen_server).\n\
        -export([start_link/1, start_link/0, lock/0, init/1]).\n\
        start_link(Opts) -> gen_server:start_link({local, cache}, ?MODULE, Opts, []).\n\
        start_link() -> start_link([]).\n\
        lock() -> gen_server:call(cache, lock).\n\
        init(_) -> {ok, #{}}.\n";

    const CLIENT: &str = "-module(client).\n\
        -export([targets/0]).\n\
        targets() -> cache:lock(), other ! hello, ets:lookup(t, k).\n";

    #[test]
    fn the_servers_an_entry_calls_and_their_starters() {
        let p = program(&[("cache", CACHE), ("client", CLIENT)]);
        assert_eq!(
            names_called(&p, ("client", "targets", 0)),
            ["other", "cache"]
        );
        // start_link/0 only calls start_link/1: the start is in start_link/1.
        assert_eq!(
            starter_of(&p, "cache"),
            Some(Starter {
                name: "cache".into(),
                module: "cache".into(),
                function: "start_link".into(),
                arity: 1,
            })
        );
        assert_eq!(starter_of(&p, "other"), None);
        assert_eq!(singleton_name(&p, "cache").as_deref(), Some("cache"));
        assert_eq!(singleton_name(&p, "client"), None);
        // Started without a name somewhere: several may run.
        let unnamed = "-module(pool).\n-export([go/0]).\n\
            go() -> gen_server:start(cache, [], []).\n";
        let p = program(&[("cache", CACHE), ("pool", unnamed)]);
        assert_eq!(singleton_name(&p, "cache"), None);
    }
}
