//! The exported functions through which a program reaches one of its
//! internal functions, for a harness that drives a race the way the
//! program's users reach it. gproc's `gproc_lib:do_set_counter_value/3` is
//! exported for gproc's own modules; its users call `gproc:set_value/2`,
//! whose clause `set_value1({c,l,_} = Key, Value)` passes the key on with
//! the caller's own pid. Called directly with made-up arguments, the
//! internal function reads an item nothing made; called through the API,
//! on a counter the program's own `gproc:reg/2` made, it reaches the write.
//!
//! A [`Way`] is found by climbing the program's static calls from the
//! internal function through functions that are not exported, up to the
//! nearest exported ones, following each argument that is passed on as a
//! parameter, and keeping the pattern a clause on the way matches it with
//! (`{c,l,_}`). [`makers`] then finds, in the program's text, a call of
//! another exported function of the API's module with a constant that
//! pattern accepts (`gproc:reg({c,l,c1}, 3)`): the item made as the
//! program makes it, and a value to pass the API.

use racewit_syntax::ir::{Body, CallTarget, Expr, ExprId, Literal, Pat, PatId, Program};

use crate::callers::{Callers, Mfa};
use crate::erl_text::const_text;
use crate::prepare::{PrepArg, Preparer, Why};

/// How many calls up [`ways`] climbs from the internal function.
const MAX_DEPTH: usize = 4;

/// The most ways [`ways`] returns.
const MAX_WAYS: usize = 4;

/// The most makers [`makers`] returns for one way.
const MAX_MAKERS: usize = 2;

/// For each parameter of a function, the pattern a clause on the way to the
/// internal function matches it with (the function whose body holds the
/// pattern, and the pattern), where one does.
pub(crate) type WayPatterns = Vec<Option<(Mfa, PatId)>>;

/// An exported function through which the program reaches an internal one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Way {
    /// The exported function.
    pub api: Mfa,
    /// For each of its parameters, the pattern a clause on the way matches
    /// it with, where one does.
    pub patterns: WayPatterns,
}

/// The nearest exported functions of other modules from which the
/// program calls `internal` (through functions that are not exported, at
/// most [`MAX_DEPTH`] calls up), other than the functions `skip` refuses
/// (tests, behaviour callbacks: their callers are not the program's users).
/// An exported function of `internal`'s own module is an API of its own,
/// which the static pass's entries already name: the climb stops there.
pub(crate) fn ways(
    program: &Program,
    callers: &Callers,
    internal: &Mfa,
    skip: impl Fn(&Mfa) -> bool,
) -> Vec<Way> {
    let mut out: Vec<Way> = Vec::new();
    let mut seen: Vec<Mfa> = vec![internal.clone()];
    let mut level: Vec<(Mfa, WayPatterns)> =
        vec![(internal.clone(), vec![None; internal.2 as usize])];
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for (callee, patterns) in &level {
            for (caller, e) in callers.sites(&callee.0, &callee.1, callee.2) {
                if seen.contains(caller) || skip(caller) {
                    continue;
                }
                let Some(func) = program.function(&caller.0, &caller.1, caller.2) else {
                    continue;
                };
                seen.push(caller.clone());
                let body = &func.body;
                let Expr::Call { args, .. } = body.expr(e) else {
                    continue;
                };
                let up = patterns_up(func, caller, args, patterns);
                if func.exported {
                    if caller.0 != internal.0 {
                        out.push(Way {
                            api: caller.clone(),
                            patterns: up,
                        });
                    }
                } else {
                    next.push((caller.clone(), up));
                }
            }
        }
        level = next;
    }
    out.truncate(MAX_WAYS);
    out
}

/// The patterns of the way one call up: for each parameter of `caller`
/// (whose code is `func`) passed on as an argument of the call (`args`),
/// the pattern the way below already goes through at that argument
/// (`below`, the one nearest the internal function), else the pattern the
/// caller's head matches the parameter with.
fn patterns_up(
    func: &racewit_syntax::ir::Function,
    caller: &Mfa,
    args: &[ExprId],
    below: &WayPatterns,
) -> WayPatterns {
    let mut up: WayPatterns = vec![None; caller.2 as usize];
    for (j, &arg) in args.iter().enumerate() {
        let Some((k, pattern)) = head_binding(func, &func.body, arg) else {
            continue;
        };
        up[k] = below
            .get(j)
            .cloned()
            .flatten()
            .or_else(|| pattern.map(|p| (caller.clone(), p)));
    }
    up
}

/// When `arg` is a variable that a clause head of `func` binds at its top
/// (`Key`, or `{c,l,_} = Key`): the parameter's position and the pattern
/// matched with it, if any.
fn head_binding(
    func: &racewit_syntax::ir::Function,
    body: &Body,
    arg: ExprId,
) -> Option<(usize, Option<PatId>)> {
    let Expr::Var(v) = body.expr(arg) else {
        return None;
    };
    func.clauses.iter().find_map(|&c| {
        body.clause(c)
            .pats
            .iter()
            .enumerate()
            .find_map(|(k, &p)| match body.pat(p) {
                Pat::Var(x) if x == v => Some((k, None)),
                Pat::Alias(a, b) => match (body.pat(*a), body.pat(*b)) {
                    (Pat::Var(x), _) if x == v => Some((k, Some(*b))),
                    (_, Pat::Var(x)) if x == v => Some((k, Some(*a))),
                    _ => None,
                },
                _ => None,
            })
    })
}

/// A way into a suspect's entry through a caller of the program that goes
/// on after the entry returns and acts on what it made (see
/// [`continuing_ways`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Continuing {
    /// The exported function the workers call, and the patterns the way
    /// down to the caller matches its parameters with.
    pub way: Way,
    /// The function whose clause calls the entry and then goes on.
    pub caller: Mfa,
    /// For each parameter of the way's function, a value that takes the
    /// way: the constants of one of the program's calls of it that fit its
    /// patterns, else a value each pattern accepts (`None`: nothing tells).
    pub values: Vec<Option<String>>,
}

/// The most ways [`continuing_ways`] returns.
const MAX_CONTINUING: usize = 3;

/// The ways the program runs `entry` and then goes on: each caller one of
/// whose clauses calls `entry` and later, in the same sequence, calls
/// another of the program's functions with a variable it also passed to
/// `entry` (folsom's `notify(Name, {inc, Value}, counter, false) ->
/// add_handler(counter, Name), folsom_metrics_counter:inc(Name, Value)`),
/// reached from the exported functions above it (the caller itself when
/// exported, and those at most [`MAX_DEPTH`] calls up, of any module: a
/// module's own exported function is a way in too), keeping the patterns
/// of that clause's head and of the clauses on the way, and leaving out
/// the calls whose constant arguments those patterns refuse (`notify(Name,
/// Event, Type, true)` never reaches the `false` clause). Ways whose
/// values come from a call the program makes come first, then the
/// nearest. Functions `skip` refuses (tests, behaviour callbacks) are
/// neither ways nor climbed through.
pub(crate) fn continuing_ways(
    program: &Program,
    callers: &Callers,
    entry: &Mfa,
    skip: impl Fn(&Mfa) -> bool,
) -> Vec<Continuing> {
    let mut seen: Vec<Mfa> = vec![entry.clone()];
    // (function, patterns of its parameters, the continuing caller below it)
    let mut level: Vec<(Mfa, WayPatterns, Mfa)> = Vec::new();
    for (caller, e) in callers.sites(&entry.0, &entry.1, entry.2) {
        if seen.contains(caller) || skip(caller) {
            continue;
        }
        let Some(func) = program.function(&caller.0, &caller.1, caller.2) else {
            continue;
        };
        let Some(clause) = continuing_clause(program, &caller.0, func, e) else {
            continue;
        };
        seen.push(caller.clone());
        let patterns: WayPatterns = func
            .body
            .clause(clause)
            .pats
            .iter()
            .map(|&p| match func.body.pat(p) {
                Pat::Var(_) | Pat::Wild => None,
                _ => Some((caller.clone(), p)),
            })
            .collect();
        level.push((caller.clone(), patterns, caller.clone()));
    }
    let mut found: Vec<(Way, Mfa)> = Vec::new();
    for depth in 0..=MAX_DEPTH {
        let mut next = Vec::new();
        for (mfa, patterns, below) in &level {
            if program
                .function(&mfa.0, &mfa.1, mfa.2)
                .is_some_and(|f| f.exported)
            {
                found.push((
                    Way {
                        api: mfa.clone(),
                        patterns: patterns.clone(),
                    },
                    below.clone(),
                ));
            }
            if depth == MAX_DEPTH {
                continue;
            }
            for (caller, e) in callers.sites(&mfa.0, &mfa.1, mfa.2) {
                if seen.contains(caller) || skip(caller) {
                    continue;
                }
                let Some(func) = program.function(&caller.0, &caller.1, caller.2) else {
                    continue;
                };
                let body = &func.body;
                let Expr::Call { args, .. } = body.expr(e) else {
                    continue;
                };
                // A constant the way's pattern refuses never takes it.
                let refused = args.iter().enumerate().any(|(j, &x)| {
                    let Some(Some((holder, p))) = patterns.get(j) else {
                        return false;
                    };
                    let Some(hfunc) = program.function(&holder.0, &holder.1, holder.2) else {
                        return false;
                    };
                    const_text(body, x).is_some() && !fits(body, x, &hfunc.body, *p)
                });
                if refused {
                    continue;
                }
                seen.push(caller.clone());
                let up = patterns_up(func, caller, args, patterns);
                next.push((caller.clone(), up, below.clone()));
            }
        }
        level = next;
    }
    let mut out: Vec<(bool, Continuing)> = found
        .into_iter()
        .map(|(way, caller)| {
            let (from_site, values) = way_values(program, callers, &way);
            (
                from_site,
                Continuing {
                    way,
                    caller,
                    values,
                },
            )
        })
        .collect();
    // A stable sort keeps the nearest first among equals.
    out.sort_by_key(|(from_site, _)| !*from_site);
    out.into_iter()
        .map(|(_, c)| c)
        .take(MAX_CONTINUING)
        .collect()
}

/// The clause of `func` (in module `m`) whose body calls `e` in its
/// sequence of expressions (alone or matched, `ok = f(X)`) and later calls
/// another of the program's functions with a variable passed to `e`.
fn continuing_clause(
    program: &Program,
    m: &str,
    func: &racewit_syntax::ir::Function,
    e: ExprId,
) -> Option<racewit_syntax::ir::ClauseId> {
    let body = &func.body;
    let call_of = |x: ExprId| match body.expr(x) {
        Expr::Match(_, r) | Expr::Catch(r) => *r,
        _ => x,
    };
    let Expr::Call { args, .. } = body.expr(e) else {
        return None;
    };
    let vars: Vec<_> = args
        .iter()
        .filter_map(|&a| match body.expr(a) {
            Expr::Var(v) => Some(*v),
            _ => None,
        })
        .collect();
    if vars.is_empty() {
        return None;
    }
    func.clauses.iter().copied().find(|&c| {
        let start = body.clause(c).body;
        let seq: Vec<ExprId> = match body.expr(start) {
            Expr::Block(items) => items.clone(),
            _ => vec![start],
        };
        let Some(at) = seq.iter().position(|&x| call_of(x) == e) else {
            return false;
        };
        seq[at + 1..].iter().any(|&x| {
            let Expr::Call { target, args, .. } = body.expr(call_of(x)) else {
                return false;
            };
            let program_function = match &**target {
                CallTarget::Local { name, arity } => program.function(m, name, *arity).is_some(),
                CallTarget::Remote { module, .. } => matches!(
                    body.expr(*module),
                    Expr::Lit(Literal::Atom(a)) if program.module(a.as_str()).is_some()
                ),
                CallTarget::Apply { .. } => false,
            };
            program_function
                && args
                    .iter()
                    .any(|&a| matches!(body.expr(a), Expr::Var(v) if vars.contains(v)))
        })
    })
}

/// Values for a way's function: the constants of the first of the
/// program's calls of it whose constants fit every pattern of the way
/// (and that gives one for each parameter the way has a pattern for),
/// with `true`; else a value each pattern accepts, with `false`.
fn way_values(program: &Program, callers: &Callers, way: &Way) -> (bool, Vec<Option<String>>) {
    let (am, af, aa) = (&way.api.0, &way.api.1, way.api.2);
    let holder_body = |holder: &Mfa| {
        program
            .function(&holder.0, &holder.1, holder.2)
            .map(|f| &f.body)
    };
    for (site, e) in callers.sites(am, af, aa) {
        let Some(caller) = program.function(&site.0, &site.1, site.2) else {
            continue;
        };
        let body = &caller.body;
        let Expr::Call { args, .. } = body.expr(e) else {
            continue;
        };
        let values: Vec<Option<String>> = args.iter().map(|&x| const_text(body, x)).collect();
        let all_fit = way.patterns.iter().enumerate().all(|(j, p)| match p {
            None => true,
            Some((holder, pat)) => {
                values.get(j).is_some_and(Option::is_some)
                    && holder_body(holder).is_some_and(|hb| fits(body, args[j], hb, *pat))
            }
        });
        if all_fit && values.iter().any(Option::is_some) {
            return (true, values);
        }
    }
    let values = way
        .patterns
        .iter()
        .map(|p| {
            let (holder, pat) = p.as_ref()?;
            let func = program.function(&holder.0, &holder.1, holder.2)?;
            crate::arg_shape::pattern_value(program, &holder.0, func, *pat, &[])
        })
        .collect();
    (false, values)
}

/// A maker for a way's API: a call of another exported function of its
/// module that the program makes with a constant the way's pattern at
/// parameter `at` accepts, with that constant (as Erlang text).
pub(crate) struct Maker {
    pub at: usize,
    pub value: String,
    pub preparer: Preparer,
}

/// The calls of the API module's other exported functions that the program
/// makes with a constant one of the way's patterns accepts, at most
/// [`MAX_MAKERS`], in the order of the module's functions and then of the
/// program's calls. Each is a preparer passing the API's argument where the
/// program passed the constant and the program's other constants as they
/// are.
pub(crate) fn makers(program: &Program, callers: &Callers, way: &Way) -> Vec<Maker> {
    let (am, af, aa) = (&way.api.0, &way.api.1, way.api.2);
    let Some(module) = program.module(am) else {
        return Vec::new();
    };
    let mut out: Vec<Maker> = Vec::new();
    for (at, (holder, pattern)) in way
        .patterns
        .iter()
        .enumerate()
        .filter_map(|(k, p)| p.as_ref().map(|p| (k, p)))
    {
        let Some(pfunc) = program.function(&holder.0, &holder.1, holder.2) else {
            continue;
        };
        for func in module.functions.iter().filter(|g| g.exported) {
            let (gf, ga) = (func.name.as_str(), func.arity);
            if (gf, ga) == (af.as_str(), aa) {
                continue;
            }
            for (site, e) in callers.sites(am, gf, ga) {
                let Some(caller) = program.function(&site.0, &site.1, site.2) else {
                    continue;
                };
                let body = &caller.body;
                let Expr::Call { args, .. } = body.expr(e) else {
                    continue;
                };
                let Some((j, value)) = args.iter().enumerate().find_map(|(j, &x)| {
                    let text = const_text(body, x)?;
                    fits(body, x, &pfunc.body, *pattern).then_some((j, text))
                }) else {
                    continue;
                };
                let preparer = Preparer {
                    module: am.clone(),
                    function: gf.to_string(),
                    args: args
                        .iter()
                        .enumerate()
                        .map(|(k, &x)| {
                            if k == j {
                                PrepArg::Entry(at)
                            } else {
                                const_text(body, x).map_or(PrepArg::Open, PrepArg::Given)
                            }
                        })
                        .collect(),
                    why: Why::MakesItem,
                };
                if !out.iter().any(|m| m.preparer == preparer) {
                    out.push(Maker {
                        at,
                        value,
                        preparer,
                    });
                }
                if out.len() >= MAX_MAKERS {
                    return out;
                }
            }
        }
    }
    out
}

/// Whether the constant expression `e` (in `eb`) matches the pattern `p`
/// (in `pb`). Only what can be told from the text: a map, binary or bound
/// variable pattern is taken not to match.
fn fits(eb: &Body, e: ExprId, pb: &Body, p: PatId) -> bool {
    match (pb.pat(p), eb.expr(e)) {
        (Pat::Wild | Pat::Var(_), _) => true,
        (Pat::Alias(a, b), _) => fits(eb, e, pb, *a) && fits(eb, e, pb, *b),
        (Pat::Lit(l), Expr::Lit(x)) => l == x,
        (Pat::Nil, Expr::Nil) => true,
        (Pat::Cons(ph, pt), Expr::Cons(h, t)) => fits(eb, *h, pb, *ph) && fits(eb, *t, pb, *pt),
        (Pat::Tuple(ps), Expr::Tuple(xs)) => {
            ps.len() == xs.len() && ps.iter().zip(xs).all(|(&q, &x)| fits(eb, x, pb, q))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::program;

    const LIB: &str = "-module(lib).\n-export([do_set/3, set_here/2]).\n\
        do_set({_, N} = Key, V, Pid) -> ets:insert(t, {{Key, Pid}, V, N}).\n\
        set_here(Key, V) -> do_set(Key, V, self()).\n";
    const API: &str = "-module(api).\n-export([reg/2, set/2, test/0]).\n\
        reg(Key, V) -> ets:insert(t, {{Key, self()}, V}).\n\
        set(Key, V) -> set1(Key, V).\n\
        set1({g, _} = Key, V) -> {global, Key, V};\n\
        set1({c, _} = Key, V) -> lib:do_set(Key, V, self()).\n\
        test() -> reg({c, hits}, 0), reg({g, hits}, 0), reg(other, 1).\n";

    const STORE: &str = "-module(store).\n\
        -export([add/2, new/1, notify/2, notify_all/2, quiet/1, other/1, test/0]).\n\
        add(Type, Name) -> make(Type, Name).\n\
        make(_, Name) -> ets:insert(t, {Name, 0}).\n\
        new(Name) -> add(counter, Name).\n\
        notify(Name, Event) -> notify(Name, Event, counter).\n\
        notify_all(Name, Event) -> notify(Name, Event, counter).\n\
        notify(Name, {inc, N}, counter) -> add(counter, Name), bump(Name, N);\n\
        notify(_, _, _) -> error.\n\
        quiet(Name) -> notify(Name, {inc, 1}, gauge).\n\
        other(Name) -> add(counter, Name), bump(elsewhere, 1).\n\
        bump(Name, N) -> ets:update_counter(t, Name, N).\n\
        test() -> notify(hits, {inc, 1}).\n";

    #[test]
    fn a_caller_that_goes_on_after_the_entry_is_a_way_in_with_the_programs_values() {
        let p = program(&[("store", STORE)]);
        let callers = Callers::new(&p);
        let found = continuing_ways(&p, &callers, &mfa("store", "add", 2), |m| m.1 == "test");
        // new/1 stops after add/2 and other/1 goes on with another item:
        // neither continues. notify/3's clause does, reached from notify/2
        // (quiet/1 passes gauge, which the clause refuses).
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].way.api, mfa("store", "notify", 2));
        assert_eq!(found[0].caller, mfa("store", "notify", 3));
        // The values of the program's own call, which fit the clause.
        assert_eq!(
            found[0].values,
            vec![Some("hits".to_string()), Some("{inc, 1}".to_string())]
        );
        // notify_all/2, which the program never calls: values the clause's
        // patterns accept, after the way with the program's own values.
        assert_eq!(found[1].way.api, mfa("store", "notify_all", 2));
        assert_eq!(found[1].values[0], None);
        assert!(
            found[1].values[1]
                .as_deref()
                .is_some_and(|v| v.starts_with("{inc, ")),
            "{found:?}"
        );
    }

    fn mfa(m: &str, f: &str, a: u32) -> Mfa {
        (m.to_string(), f.to_string(), a)
    }

    #[test]
    fn an_internal_function_is_reached_through_the_api_with_its_clause_pattern() {
        let p = program(&[("lib", LIB), ("api", API)]);
        let callers = Callers::new(&p);
        let found = ways(&p, &callers, &mfa("lib", "do_set", 3), |m| m.1 == "test");
        // lib:set_here/2 is an API of lib's own, not a way into it.
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].api, mfa("api", "set", 2));
        // The key's pattern is set1's second clause's, not its first's.
        let (holder, pat) = found[0].patterns[0].clone().expect("a pattern for the key");
        assert_eq!(holder, mfa("api", "set1", 2));
        let body = &p.function("api", "set1", 2).expect("set1").body;
        let Pat::Tuple(items) = body.pat(pat) else {
            panic!("a tuple pattern");
        };
        assert!(
            matches!(body.pat(items[0]), Pat::Lit(racewit_syntax::ir::Literal::Atom(a)) if a == "c")
        );
        assert_eq!(found[0].patterns[1], None);
        // The program makes such a key with reg/2: {c, hits} fits, {g, hits} does not.
        let made = makers(&p, &callers, &found[0]);
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].value, "{c, hits}");
        assert_eq!(made[0].preparer.function, "reg");
        assert_eq!(
            made[0].preparer.args,
            vec![PrepArg::Entry(0), PrepArg::Given("0".to_string())]
        );
    }
}
