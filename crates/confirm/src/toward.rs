//! Which clauses of an entry lead to the read: so that an argument the
//! harness picks itself is first one the clause on the way to the race
//! accepts. `register(App, [{health_check, MFA} | T])` reaches the
//! read-modify-write of the health checks only through its fifth clause;
//! a value its first clause accepts, or the one a test passes to register
//! a bucket fixup, never gets there.
//!
//! A clause leads to the read when its guard or body calls a function from
//! which the read's function can be reached through the program's static
//! calls ([`Callers`]), or is that function. Calls made inside a `fun` of
//! the clause are not counted (the fun may run anywhere, or never).

use std::collections::BTreeSet;

use racewit_syntax::ir::{Body, ExprId, Function, Program};

use crate::callers::{Callers, Mfa};

/// How many calls up from the read's function the search climbs.
const DEPTH: usize = 8;
/// The most functions the climb collects before it stops.
const MAX_FUNCTIONS: usize = 4_000;

/// For each clause of `entry`, whether it leads to `read` (the function
/// holding the read); `None` when that tells nothing: the entry is the
/// read's own function, its code is unknown, it has one clause, or every
/// clause (or none) leads there.
pub(crate) fn clauses_toward(
    program: &Program,
    callers: &Callers,
    entry: &Mfa,
    read: &Mfa,
) -> Option<Vec<bool>> {
    if entry == read {
        return None;
    }
    let func = program.function(&entry.0, &entry.1, entry.2)?;
    if func.clauses.len() < 2 {
        return None;
    }
    let up = callers_of(callers, read);
    if !up.contains(entry) {
        return None;
    }
    // The call sites in the entry of a function on the way up (the
    // entry's calls of itself pass on a part of what it was given: they
    // lead on only as far as that part does).
    let on_way: BTreeSet<ExprId> = up
        .iter()
        .filter(|f| *f != entry)
        .flat_map(|f| callers.sites(&f.0, &f.1, f.2))
        .filter(|(caller, _)| *caller == entry)
        .map(|(_, e)| e)
        .collect();
    let leads: Vec<bool> = (0..func.clauses.len())
        .map(|k| clause_exprs(func, k).iter().any(|e| on_way.contains(e)))
        .collect();
    let some = leads.iter().any(|&l| l);
    let all = leads.iter().all(|&l| l);
    (some && !all).then_some(leads)
}

/// `read` and every function from which it can be reached in at most
/// [`DEPTH`] calls.
fn callers_of(callers: &Callers, read: &Mfa) -> BTreeSet<Mfa> {
    let mut seen: BTreeSet<Mfa> = BTreeSet::from([read.clone()]);
    let mut frontier = vec![read.clone()];
    for _ in 0..DEPTH {
        let mut next = Vec::new();
        for f in &frontier {
            for (caller, _) in callers.sites(&f.0, &f.1, f.2) {
                if seen.len() >= MAX_FUNCTIONS {
                    return seen;
                }
                if seen.insert(caller.clone()) {
                    next.push(caller.clone());
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    seen
}

/// Every expression of the `k`-th clause of `func`: its guard and its
/// body, with their sub-expressions (not inside funs).
fn clause_exprs(func: &Function, k: usize) -> BTreeSet<ExprId> {
    let body: &Body = &func.body;
    let clause = body.clause(func.clauses[k]);
    let mut out = BTreeSet::new();
    let mut stack: Vec<ExprId> = clause.guard.iter().flatten().copied().collect();
    stack.push(clause.body);
    while let Some(e) = stack.pop() {
        if out.insert(e) {
            racewit_static::walk::for_each_child(body, e, &mut |c| stack.push(c));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::program;

    fn mfa(m: &str, f: &str, a: u32) -> Mfa {
        (m.to_string(), f.to_string(), a)
    }

    #[test]
    fn only_the_clause_that_calls_towards_the_read_leads_there() {
        let program = program(&[(
            "reg",
            "-module(reg).\n-export([register/2]).\n\
             register(_App, []) -> ok;\n\
             register(App, [{fixup, M} | T]) -> add(App, M, fixups), register(App, T);\n\
             register(App, [{check, C} | T]) -> add_meta(App, C), register(App, T).\n\
             add(App, M, K) -> application:set_env(reg, K, [{App, M}]).\n\
             add_meta(App, C) -> store(App, C).\n\
             store(App, C) -> case application:get_env(reg, checks) of\n\
                 undefined -> application:set_env(reg, checks, [{App, C}]);\n\
                 {ok, L} -> application:set_env(reg, checks, [{App, C} | L]) end.\n",
        )]);
        let callers = Callers::new(&program);
        let entry = mfa("reg", "register", 2);
        assert_eq!(
            clauses_toward(&program, &callers, &entry, &mfa("reg", "store", 2)),
            Some(vec![false, false, true])
        );
        // Only the second clause calls add/3 (the third's recursive call
        // reaches it too, but only through the entry itself).
        assert_eq!(
            clauses_toward(&program, &callers, &entry, &mfa("reg", "add", 3)),
            Some(vec![false, true, false])
        );
        // The read's own function: nothing to choose.
        assert_eq!(
            clauses_toward(
                &program,
                &callers,
                &mfa("reg", "store", 2),
                &mfa("reg", "store", 2)
            ),
            None
        );
    }
}
