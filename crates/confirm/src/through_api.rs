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

use racewit_syntax::ir::{Body, Expr, ExprId, Pat, PatId, Program};

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
                let mut up: WayPatterns = vec![None; caller.2 as usize];
                for (j, &arg) in args.iter().enumerate() {
                    let Some((k, pattern)) = head_binding(func, body, arg) else {
                        continue;
                    };
                    // The pattern nearest the internal function is the one
                    // its way goes through.
                    let below = patterns.get(j).cloned().flatten();
                    up[k] = below.or_else(|| pattern.map(|p| (caller.clone(), p)));
                }
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
