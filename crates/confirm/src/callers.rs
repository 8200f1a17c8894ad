//! Who calls whom in the program, to tell concurrency a program can have
//! from concurrency a generated harness would invent. Calling an internal
//! function from several processes at once is only realistic if the
//! program could do so itself: when every caller of it runs in one
//! serialising context (a callback of a registered server, or code reached
//! only after its process registered a name), only one call can be under
//! way at a time, and a race "confirmed" through concurrent calls of it
//! would be a race the program cannot have.

use std::collections::{BTreeMap, BTreeSet};

use racewit_syntax::ir::{CallTarget, Expr, Literal, Program};

/// `(module, function, arity)`.
pub type Mfa = (String, String, u32);

/// One call of a known function.
#[derive(Clone, Debug)]
struct CallIn {
    caller: Mfa,
    /// The call expression in the caller's body.
    expr: racewit_syntax::ir::ExprId,
    /// Inside a `fun` (it may run in another process).
    in_fun: bool,
    /// The caller registered a name (`register(Name, self())`) earlier in
    /// its body.
    after_register: bool,
}

/// The program's static calls, by callee.
pub struct Callers {
    calls: BTreeMap<Mfa, Vec<CallIn>>,
    /// Modules started as a behaviour under a registered name
    /// (`gen_server:start_link({local, N}, M, ...)`, declared behaviour or
    /// not): one process runs their callbacks.
    registered_servers: BTreeSet<String>,
    /// Functions run as the body of a new process
    /// (`spawn(M, F, [A1, ..., An])`, `proc_lib:start_link(M, F, Args)`,
    /// with `M`, `F` atoms and `Args` a list of known length), each with the
    /// functions whose code makes such a spawn.
    spawned: BTreeMap<Mfa, Vec<Mfa>>,
    /// Functions named as a kernel process of a boot script
    /// (`{kernelProcess, Name, {M, F, Args}}` written in the program, as a
    /// release tool writes the script): the init process starts each once
    /// per boot, one after another. With where the term is written.
    kernel_processes: BTreeMap<Mfa, String>,
    /// Functions the program names as data to be run by whoever holds the
    /// term: `{M, F, Args}` written with `M`, `F` atoms and `Args` a list
    /// of known length (a supervisor's child start, an entry of boot or
    /// configuration data that is later applied), and `apply(M, F, Args)`
    /// written the same way. Each with the functions holding such a term
    /// (the function whose process may run it), and whether the term sits
    /// inside a fun (then another process may hold it).
    named: BTreeMap<Mfa, Vec<(Mfa, bool)>>,
    /// Modules whose `init/1` a synchronous start names
    /// (`gen_server:start_link(M, Args, Opts)`, `supervisor:start_link(M,
    /// Args)`, with or without a name), with the functions making each
    /// start and whether it sits inside a fun. Such a start returns only
    /// after `init/1` has, so `init/1` runs inside its starter's call.
    sync_started: BTreeMap<String, Vec<(Mfa, bool)>>,
}

/// The functions that start a new process running `M:F(Args...)`, given
/// as (module, function, arity, position of `M` among the arguments): the
/// function is at the next position and the argument list after it.
const SPAWNS: &[(&str, &str, u32, usize)] = &[
    ("erlang", "spawn", 3, 0),
    ("erlang", "spawn_link", 3, 0),
    ("erlang", "spawn_monitor", 3, 0),
    ("erlang", "spawn_opt", 4, 0),
    ("erlang", "spawn", 4, 1),
    ("erlang", "spawn_link", 4, 1),
    ("erlang", "spawn_opt", 5, 1),
    ("proc_lib", "spawn", 3, 0),
    ("proc_lib", "spawn_link", 3, 0),
    ("proc_lib", "spawn_opt", 4, 0),
    ("proc_lib", "start", 3, 0),
    ("proc_lib", "start", 4, 0),
    ("proc_lib", "start", 5, 0),
    ("proc_lib", "start_link", 3, 0),
    ("proc_lib", "start_link", 4, 0),
    ("proc_lib", "start_link", 5, 0),
    ("proc_lib", "start_monitor", 3, 0),
    ("proc_lib", "start_monitor", 4, 0),
    ("proc_lib", "start_monitor", 5, 0),
];

/// Callbacks an OTP behaviour calls from its own process, one request at a
/// time.
pub(crate) const CALLBACKS: &[(&str, u32)] = &[
    ("init", 1),
    ("handle_call", 3),
    ("handle_cast", 2),
    ("handle_info", 2),
    ("handle_continue", 2),
    ("handle_event", 2),
    ("handle_event", 3),
    ("handle_event", 4),
    ("handle_sync_event", 4),
    ("terminate", 2),
    ("terminate", 3),
    ("code_change", 3),
    ("code_change", 4),
    ("format_status", 1),
    ("format_status", 2),
    ("callback_mode", 0),
];

/// Behaviours whose start runs the callback module's `init/1` in the new
/// process and returns only once it has returned, with the arity of the
/// start without a name (the named start takes one more argument first).
const SYNC_STARTS: &[(&str, usize)] = &[
    ("gen_server", 3),
    ("gen_statem", 3),
    ("gen_fsm", 3),
    ("supervisor", 2),
    ("supervisor_bridge", 2),
];

impl Callers {
    pub fn new(program: &Program) -> Callers {
        let mut calls: BTreeMap<Mfa, Vec<CallIn>> = BTreeMap::new();
        let mut registered_servers = BTreeSet::new();
        let mut spawned: BTreeMap<Mfa, Vec<Mfa>> = BTreeMap::new();
        let mut kernel_processes: BTreeMap<Mfa, String> = BTreeMap::new();
        let mut named: BTreeMap<Mfa, Vec<(Mfa, bool)>> = BTreeMap::new();
        let mut sync_started: BTreeMap<String, Vec<(Mfa, bool)>> = BTreeMap::new();
        let mut behaviour_modules = BTreeSet::new();
        for (mname, module) in &program.modules {
            // An application's callbacks: its application master runs
            // start/2 once per start of the application, and stop/1 and
            // prep_stop/1 once per stop (the application controller
            // starts and stops one application at a time).
            if module
                .behaviours
                .iter()
                .any(|b| b.as_str() == "application")
            {
                for (f, a) in [("start", 2), ("prep_stop", 1), ("stop", 1)] {
                    if module.function(f, a).is_some() {
                        kernel_processes.insert(
                            (mname.to_string(), f.to_string(), a),
                            format!(
                                "from its application master, once per start or stop of the \
                                 application ({mname}:{f}/{a} is an application callback)"
                            ),
                        );
                    }
                }
            }
            if module.behaviours.iter().any(|b| {
                matches!(
                    b.as_str(),
                    "gen_server" | "gen_statem" | "gen_event" | "gen_fsm"
                )
            }) {
                behaviour_modules.insert(mname.to_string());
            }
            for func in &module.functions {
                let body = &func.body;
                let map = &func.source_map;
                let atom = |e| match body.expr(e) {
                    Expr::Lit(Literal::Atom(a)) => Some(a.as_str()),
                    _ => None,
                };
                // Where funs are: a call inside one may run elsewhere.
                let fun_spans: Vec<racewit_syntax::Span> = body
                    .exprs
                    .iter()
                    .filter_map(|e| match e {
                        Expr::Fun(f) => Some(f.clauses.iter().map(|&c| map.clause(c))),
                        _ => None,
                    })
                    .flatten()
                    .collect();
                let in_fun = |span: racewit_syntax::Span| {
                    fun_spans
                        .iter()
                        .any(|f| f.file == span.file && f.start <= span.start && span.end <= f.end)
                };
                // Boot script kernel processes written as terms.
                for (i, e) in body.exprs.iter().enumerate() {
                    if let Expr::Tuple(items) = e
                        && let [tag, name, start] = items.as_slice()
                        && atom(*tag) == Some("kernelProcess")
                        && let Expr::Tuple(mfa) = body.expr(*start)
                        && let [m, f, a] = mfa.as_slice()
                        && let (Some(m), Some(f), Some(n)) =
                            (atom(*m), atom(*f), body.written_list_len(*a))
                    {
                        let loc = program.sources.location(map.exprs[i]);
                        let file = std::path::Path::new(&loc.file)
                            .file_name()
                            .map(|x| x.to_string_lossy().into_owned())
                            .unwrap_or(loc.file.clone());
                        let name = atom(*name).map(|x| format!(" {x}")).unwrap_or_default();
                        kernel_processes
                            .entry((m.to_string(), f.to_string(), n))
                            .or_insert_with(|| {
                                format!(
                                    "from the init process, once at boot, as the kernel process{name} \
                                     of a boot script ({{kernelProcess, ...}} at {file}:{})",
                                    loc.line
                                )
                            });
                    }
                }
                let this = (mname.to_string(), func.name.to_string(), func.arity);
                let mut name_it = |m: &str, f: &str, n: u32, span| {
                    let list = named.entry((m.to_string(), f.to_string(), n)).or_default();
                    let holder = (this.clone(), in_fun(span));
                    if !list.contains(&holder) {
                        list.push(holder);
                    }
                };
                // `{M, F, Args}` terms: functions named to be run later.
                for (i, e) in body.exprs.iter().enumerate() {
                    if let Expr::Tuple(mfa) = e
                        && let [m, f, a] = mfa.as_slice()
                        && let (Some(m), Some(f), Some(n)) =
                            (atom(*m), atom(*f), body.written_list_len(*a))
                    {
                        name_it(m, f, n, map.exprs[i]);
                    }
                }
                let mut registers: Vec<u32> = Vec::new();
                for (i, e) in body.exprs.iter().enumerate() {
                    let Expr::Call { target, args, .. } = e else {
                        continue;
                    };
                    let (m, f) = match &**target {
                        CallTarget::Local { name, .. } => (mname.as_str(), name.as_str()),
                        CallTarget::Remote { module, function } => {
                            match (atom(*module), atom(*function)) {
                                (Some(m), Some(f)) => (m, f),
                                _ => continue,
                            }
                        }
                        CallTarget::Apply { .. } => continue,
                    };
                    let span = map.exprs[i];
                    if m == "erlang" && f == "register" && args.len() == 2 && !in_fun(span) {
                        registers.push(span.start);
                    }
                    // A behaviour started under a name.
                    if matches!(
                        m,
                        "gen_server"
                            | "gen_statem"
                            | "gen_event"
                            | "gen_fsm"
                            | "supervisor"
                            | "supervisor_bridge"
                    ) && matches!(f, "start" | "start_link" | "start_monitor")
                        && args.len() >= 3
                        && let Expr::Tuple(items) = body.expr(args[0])
                        && items.len() == 2
                        && matches!(atom(items[0]), Some("local" | "global"))
                        && let Some(server) = atom(args[1])
                    {
                        registered_servers.insert(server.to_string());
                    }
                    // `apply(M, F, Args)` written out: a call of `M:F/N`
                    // made in this function's process.
                    if m == "erlang"
                        && f == "apply"
                        && let [am, af, aa] = &args[..]
                        && let (Some(am), Some(af), Some(n)) =
                            (atom(*am), atom(*af), body.written_list_len(*aa))
                    {
                        name_it(am, af, n, span);
                    }
                    // A synchronous start of a behaviour: the module's
                    // `init/1` runs inside this call.
                    if let Some(&(_, unnamed)) = SYNC_STARTS.iter().find(|(b, _)| *b == m)
                        && matches!(f, "start" | "start_link" | "start_monitor")
                        && (args.len() == unnamed || args.len() == unnamed + 1)
                        && let Some(started) = atom(args[args.len() - unnamed])
                    {
                        let list = sync_started.entry(started.to_string()).or_default();
                        let starter = (this.clone(), in_fun(span));
                        if !list.contains(&starter) {
                            list.push(starter);
                        }
                    }
                    // A process started running a named function.
                    if let Some(&(_, _, _, at)) = SPAWNS
                        .iter()
                        .find(|&&(sm, sf, sa, _)| sm == m && sf == f && sa as usize == args.len())
                        && let (Some(bm), Some(bf)) = (atom(args[at]), atom(args[at + 1]))
                        && let Some(n) = body.written_list_len(args[at + 2])
                    {
                        let spawner = (mname.to_string(), func.name.to_string(), func.arity);
                        let list = spawned
                            .entry((bm.to_string(), bf.to_string(), n))
                            .or_default();
                        if !list.contains(&spawner) {
                            list.push(spawner);
                        }
                    }
                    calls
                        .entry((m.to_string(), f.to_string(), args.len() as u32))
                        .or_default()
                        .push(CallIn {
                            caller: (mname.to_string(), func.name.to_string(), func.arity),
                            expr: racewit_syntax::ir::ExprId(i as u32),
                            in_fun: in_fun(span),
                            // Set below, once the body's registers are known.
                            after_register: false,
                        });
                }
                // Calls after the body's first register of its own process.
                if let Some(&first) = registers.iter().min() {
                    for (i, e) in body.exprs.iter().enumerate() {
                        let Expr::Call { target, args, .. } = e else {
                            continue;
                        };
                        let span = map.exprs[i];
                        if span.start <= first || in_fun(span) {
                            continue;
                        }
                        let (m, f) = match &**target {
                            CallTarget::Local { name, .. } => (mname.as_str(), name.as_str()),
                            CallTarget::Remote { module, function } => {
                                match (atom(*module), atom(*function)) {
                                    (Some(m), Some(f)) => (m, f),
                                    _ => continue,
                                }
                            }
                            CallTarget::Apply { .. } => continue,
                        };
                        let key = (m.to_string(), f.to_string(), args.len() as u32);
                        let caller = (mname.to_string(), func.name.to_string(), func.arity);
                        if let Some(list) = calls.get_mut(&key) {
                            for c in list.iter_mut().filter(|c| c.caller == caller && !c.in_fun) {
                                c.after_register = true;
                            }
                        }
                    }
                }
            }
        }
        Callers {
            calls,
            registered_servers,
            spawned,
            kernel_processes,
            named,
            sync_started,
        }
    }

    /// The functions that start a process running `mfa`, when the program
    /// only ever runs it that way: it is spawned as a process's body
    /// somewhere and never called (but by itself, looping). Such a function
    /// runs once per process started, so how many run at once is for its
    /// spawners to say: calling it from several workers would invent
    /// processes the program does not start.
    pub fn only_spawners(&self, mfa: &Mfa) -> Option<&[Mfa]> {
        let spawners = self.spawned.get(mfa)?;
        let called = self
            .calls
            .get(mfa)
            .is_some_and(|calls| calls.iter().any(|c| &c.caller != mfa))
            || self
                .named
                .get(mfa)
                .is_some_and(|held| held.iter().any(|(h, _)| h != mfa));
        (!called).then_some(spawners.as_slice())
    }

    /// Every static call of `m:f/a` in the program: the calling function
    /// and the call expression in its body (in the order of the text).
    pub fn sites<'a>(
        &'a self,
        m: &str,
        f: &str,
        a: u32,
    ) -> impl Iterator<Item = (&'a Mfa, racewit_syntax::ir::ExprId)> + 'a {
        self.calls
            .get(&(m.to_string(), f.to_string(), a))
            .into_iter()
            .flatten()
            .map(|c| (&c.caller, c.expr))
    }

    /// Why every call of `mfa` in the program runs in one serialising
    /// context, if it does: then only one call of it can be under way at a
    /// time. `None` when it has no caller in the program (an API others
    /// call) or some caller can run in several processes at once.
    pub fn serialised(&self, mfa: &Mfa) -> Option<String> {
        self.serialised_at(mfa, 3, &mut Vec::new())
    }

    fn serialised_at(&self, mfa: &Mfa, depth: u32, seen: &mut Vec<Mfa>) -> Option<String> {
        // A kernel process of the boot script that nothing in the program
        // calls: init starts it once.
        if let Some(why) = self.kernel_processes.get(mfa)
            && self
                .calls
                .get(mfa)
                .is_none_or(|calls| calls.iter().all(|c| &c.caller == mfa))
        {
            return Some(why.clone());
        }
        // Calls from the function itself (recursion) say nothing.
        let outside: Vec<&CallIn> = self
            .calls
            .get(mfa)
            .into_iter()
            .flatten()
            .filter(|c| &c.caller != mfa)
            .collect();
        // Terms naming it, held by other functions.
        let held: Vec<&(Mfa, bool)> = self
            .named
            .get(mfa)
            .into_iter()
            .flatten()
            .filter(|(h, _)| h != mfa)
            .collect();
        // Synchronous starts running it, when it is an `init/1`.
        let started: Vec<&(Mfa, bool)> = if mfa.1 == "init" && mfa.2 == 1 {
            self.sync_started
                .get(&mfa.0)
                .into_iter()
                .flatten()
                .collect()
        } else {
            Vec::new()
        };
        if (outside.is_empty() && held.is_empty() && started.is_empty()) || seen.contains(mfa) {
            return None;
        }
        seen.push(mfa.clone());
        let mut whys: BTreeSet<String> = BTreeSet::new();
        for c in outside {
            if c.in_fun {
                return None;
            }
            let (m, f, a) = &c.caller;
            let why = if c.after_register {
                format!("after {m}:{f}/{a} registers its process's name")
            } else if self.registered_servers.contains(m)
                && CALLBACKS.iter().any(|(n, k)| n == f && k == a)
            {
                format!("in {f}/{a} of the registered server {m}")
            } else if depth > 0 {
                let inner = self.serialised_at(&c.caller, depth - 1, seen)?;
                format!("from {m}:{f}/{a}, itself only called {inner}")
            } else {
                return None;
            };
            whys.insert(why);
        }
        let (tm, tf, ta) = mfa;
        for ((holder, in_fun), how) in held
            .into_iter()
            .map(|h| (h, "named"))
            .chain(started.into_iter().map(|s| (s, "started")))
        {
            if *in_fun {
                return None;
            }
            let inner = self.one_at_a_time(holder, depth, seen)?;
            let (m, f, a) = holder;
            whys.insert(match how {
                "named" => format!(
                    "as data ({{{tm}, {tf}, Args}} with {ta} arguments) in {m}:{f}/{a}, run by \
                     the process holding the term; {m}:{f}/{a} runs {inner}"
                ),
                _ => format!(
                    "as the init/1 of {tm}, inside a synchronous start made by {m}:{f}/{a}, \
                     which runs {inner}"
                ),
            });
        }
        Some(whys.into_iter().collect::<Vec<_>>().join("; "))
    }

    /// Why `mfa` runs one call at a time, if it does: it is a callback of a
    /// registered server, or (within `depth` more levels) everything that
    /// runs it is serialised.
    fn one_at_a_time(&self, mfa: &Mfa, depth: u32, seen: &mut Vec<Mfa>) -> Option<String> {
        let (m, f, a) = mfa;
        if self.registered_servers.contains(m) && CALLBACKS.iter().any(|(n, k)| n == f && k == a) {
            return Some(format!("in {f}/{a} of the registered server {m}"));
        }
        if depth == 0 {
            return None;
        }
        let inner = self.serialised_at(mfa, depth - 1, seen)?;
        Some(format!("only when called {inner}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn callers(src: &[(&str, &str)]) -> Callers {
        Callers::new(&crate::test_support::program(src))
    }

    fn mfa(m: &str, f: &str, a: u32) -> Mfa {
        (m.into(), f.into(), a)
    }

    #[test]
    fn a_function_called_only_after_a_register_is_serialised() {
        let c = callers(&[
            (
                "boss",
                "-module(boss).\n-export([start/0]).\n\
                 start() -> register(boss, self()), helper:go(), ok.\n",
            ),
            (
                "helper",
                "-module(helper).\n-export([go/0]).\ngo() -> whereis(h).\n",
            ),
        ]);
        let why = c.serialised(&mfa("helper", "go", 0)).expect("serialised");
        assert!(why.contains("boss:start/0 registers"), "{why}");
    }

    #[test]
    fn an_application_start_callback_is_serialising() {
        let app = (
            "cache_app",
            "-module(cache_app).\n-behaviour(application).\n-export([start/2, stop/1]).\n\
             start(_, _) -> cache:make_tables(), cache_sup:start_link().\n\
             stop(_) -> ok.\n",
        );
        let cache = (
            "cache",
            "-module(cache).\n-export([make_tables/0]).\n\
             make_tables() -> ets:new(c, [named_table, public]).\n",
        );
        let c = callers(&[app, cache]);
        let why = c
            .serialised(&mfa("cache", "make_tables", 0))
            .expect("serialised");
        assert!(why.contains("application master"), "{why}");
        // Called directly from elsewhere too: no longer once.
        let c = callers(&[
            app,
            cache,
            (
                "other",
                "-module(other).\n-export([go/0]).\ngo() -> cache_app:start(normal, []).\n",
            ),
        ]);
        assert_eq!(c.serialised(&mfa("cache", "make_tables", 0)), None);
    }

    #[test]
    fn callbacks_of_a_registered_server_are_serialising() {
        let c = callers(&[(
            "srv",
            "-module(srv).\n-behaviour(gen_server).\n\
             -export([start_link/0, init/1, handle_call/3, handle_cast/2]).\n\
             start_link() -> gen_server:start_link({local, srv}, srv, [], []).\n\
             init([]) -> util:setup(), {ok, s}.\n\
             handle_call(_, _, S) -> util:setup(), {reply, ok, S}.\n\
             handle_cast(_, S) -> {noreply, S}.\n",
        )]);
        let why = c.serialised(&mfa("util", "setup", 0)).expect("serialised");
        assert!(why.contains("registered server srv"), "{why}");
    }

    #[test]
    fn public_and_spawned_calls_are_not_serialised() {
        let c = callers(&[
            (
                "api",
                "-module(api).\n-export([a/0, b/0]).\n\
                 a() -> helper:go().\n\
                 b() -> register(b, self()), spawn(fun() -> helper:spawned() end).\n",
            ),
            (
                "helper",
                "-module(helper).\n-export([go/0, spawned/0, nobody/0]).\n\
                 go() -> ok.\nspawned() -> ok.\nnobody() -> ok.\n",
            ),
        ]);
        // Called from api:a/0, which nothing serialises (no caller: public).
        assert_eq!(c.serialised(&mfa("helper", "go", 0)), None);
        // Called from a fun: another process may run it.
        assert_eq!(c.serialised(&mfa("helper", "spawned", 0)), None);
        // No caller at all: an API.
        assert_eq!(c.serialised(&mfa("helper", "nobody", 0)), None);
    }

    #[test]
    fn a_kernel_process_of_a_boot_script_is_started_once_by_init() {
        let c = callers(&[
            (
                "watchdog",
                "-module(watchdog).\n-export([start/0, init/1, beat/0]).\n\
                 start() -> case whereis(watchdog) of undefined -> spawn(?MODULE, init, [self()]); P -> P end.\n\
                 init(_) -> register(watchdog, self()).\n\
                 beat() -> ok.\n",
            ),
            (
                "relgen",
                "-module(relgen).\n-export([procs/0]).\n\
                 procs() -> [{kernelProcess, watchdog, {watchdog, start, []}},\n\
                 \x20          {kernelProcess, other, {other, start, [a, b]}}].\n",
            ),
        ]);
        let why = c
            .serialised(&mfa("watchdog", "start", 0))
            .expect("a kernel process");
        assert!(
            why.contains("kernel process watchdog") && why.contains("relgen.erl:3"),
            "{why}"
        );
        assert!(c.serialised(&mfa("other", "start", 2)).is_some());
        assert_eq!(c.serialised(&mfa("watchdog", "beat", 0)), None);
        // init/1 is only ever a spawned process's body, started by start/0.
        assert_eq!(
            c.only_spawners(&mfa("watchdog", "init", 1)),
            Some(&[mfa("watchdog", "start", 0)][..])
        );
    }

    #[test]
    fn a_kernel_process_the_program_also_calls_is_not_serialised_by_init() {
        let c = callers(&[(
            "relgen",
            "-module(relgen).\n-export([procs/0, again/0, start/0]).\n\
             procs() -> [{kernelProcess, relgen, {relgen, start, []}}].\n\
             start() -> ok.\n\
             again() -> start().\n",
        )]);
        assert_eq!(c.serialised(&mfa("relgen", "start", 0)), None);
    }

    #[test]
    fn unregistered_servers_do_not_serialise() {
        let c = callers(&[(
            "conn",
            "-module(conn).\n-behaviour(gen_server).\n\
             -export([start_link/0, init/1, handle_info/2]).\n\
             start_link() -> gen_server:start_link(conn, [], []).\n\
             init([]) -> {ok, s}.\n\
             handle_info(_, S) -> util:bump(), {noreply, S}.\n",
        )]);
        assert_eq!(c.serialised(&mfa("util", "bump", 0)), None);
    }

    #[test]
    fn a_function_named_in_a_registered_supervisors_child_spec_is_started_once() {
        let c = callers(&[
            (
                "top",
                "-module(top).\n-behaviour(supervisor).\n-export([start/0, init/1]).\n\
                 start() -> supervisor:start_link({local, top}, top, []).\n\
                 init([]) -> {ok, {{one_for_one, 1, 5}, [{b, {bridge, start, []}, permanent, 1000, worker, [bridge]}]}}.\n",
            ),
            (
                "bridge",
                "-module(bridge).\n-export([start/0, init/1, driver/0]).\n\
                 start() -> supervisor_bridge:start_link(bridge, []).\n\
                 init([]) -> {M, F, A} = pick(), apply(M, F, A), {ok, self(), self()}.\n\
                 pick() -> {drv, start, []}.\n\
                 driver() -> apply(drv, start, [x]).\n",
            ),
            (
                "drv",
                "-module(drv).\n-export([start/0, start/1, loop/1]).\n\
                 start() -> spawn(drv, loop, [a]).\n\
                 start(X) -> spawn(drv, loop, [X]).\n\
                 loop(_) -> ok.\n",
            ),
        ]);
        // Named in the child spec of the registered supervisor top.
        let why = c
            .serialised(&mfa("bridge", "start", 0))
            .expect("child start");
        assert!(why.contains("registered server top"), "{why}");
        // The init/1 the unnamed bridge's start runs, and what it names.
        let why = c
            .serialised(&mfa("drv", "start", 0))
            .expect("named by pick/0");
        assert!(
            why.contains("bridge:pick/0") && why.contains("init/1 of bridge"),
            "{why}"
        );
        // Applied by driver/0, which anyone may call.
        assert_eq!(c.serialised(&mfa("drv", "start", 1)), None);
        // The body is spawned, never called nor named.
        assert_eq!(
            c.only_spawners(&mfa("drv", "loop", 1)),
            Some(&[mfa("drv", "start", 0), mfa("drv", "start", 1)][..])
        );
    }

    #[test]
    fn a_function_named_by_code_anyone_may_run_is_not_serialised() {
        let c = callers(&[(
            "cfg",
            "-module(cfg).\n-export([default/0, run/0, start/0, init/1, go/0]).\n\
             default() -> {cfg, go, []}.\n\
             run() -> {M, F, A} = default(), apply(M, F, A).\n\
             start() -> gen_server:start_link(cfg, [], []).\n\
             init([]) -> spawn(fun() -> apply(cfg, go, []) end), {ok, s}.\n\
             go() -> ok.\n",
        )]);
        // Held by an exported function nothing serialises.
        assert_eq!(c.serialised(&mfa("cfg", "go", 0)), None);
        // The init/1 of an unnamed server started from an exported function.
        assert_eq!(c.serialised(&mfa("cfg", "init", 1)), None);
    }
}
