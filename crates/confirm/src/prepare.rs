//! Calls that make the thing a racing call works on, as the program makes
//! it first. A harness that calls `metrics:tag(counter, G)` from two
//! processes reaches nothing if no metric `counter` exists: the program
//! itself calls `metrics:new_counter(counter)` before it tags, in the same
//! clause or elsewhere with the same value. Such a call, made once before
//! the workers start with the value each worker passes, is a *preparer*.
//!
//! Candidates come from the program's text, never from names: a call made
//! earlier in a clause that then calls the entry with a shared variable or
//! constant, then any call of another exported function of the entry's
//! module with a constant the program also passes to the entry at some
//! position, and last the module's functions of the same arity that take
//! the same table argument in the same place. Which of them (if any) lets a run reach the race is left to the
//! harness's trial runs: a `delete(counter)` found the same way does not.

use racewit_syntax::ir::{Body, CallTarget, Expr, ExprId, Literal, Program, VarId};

use crate::callers::Callers;
use crate::erl_text::const_text;

/// The most preparers tried for one entry from each kind of evidence (an
/// earlier call, a shared constant, the same table argument).
const MAX_PREPARERS: usize = 3;

/// A call to make before the workers start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Preparer {
    pub module: String,
    pub function: String,
    /// Each argument of the call.
    pub args: Vec<PrepArg>,
    /// What makes it a preparer.
    pub why: Why,
}

/// What ties a preparer to the entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Why {
    /// The program makes the call before it calls the entry, or with a value
    /// it also passes to the entry.
    CalledFirst,
    /// A function of the entry's module taking the same table in the same
    /// place (no call site to go by).
    SameTable,
    /// It starts a server the entry calls by name (see `crate::servers`).
    StartsServer,
}

/// Where a preparer's argument comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PrepArg {
    /// The value the worker passes as the entry's argument (from 0).
    Entry(usize),
    /// A constant the program passes there.
    Given(String),
    /// Nothing known: the harness picks a value as it does for its own
    /// arguments.
    Open,
}

impl Preparer {
    /// `m:f/a`, for the verdict's context.
    pub fn mfa(&self) -> String {
        format!("{}:{}/{}", self.module, self.function, self.args.len())
    }

    /// How a verdict's context names it.
    pub fn describe(&self) -> String {
        match self.why {
            Why::CalledFirst => format!(
                "after {}, which the program calls first with the same value",
                self.mfa()
            ),
            Why::SameTable => format!(
                "after {} with the same arguments, which writes the same table",
                self.mfa()
            ),
            Why::StartsServer => format!(
                "after {}, which starts a server the entry calls by name",
                self.mfa()
            ),
        }
    }

    /// Whether some argument is the entry's own (the call works on what
    /// the entry works on).
    pub(crate) fn shares(&self) -> bool {
        self.args.iter().any(|a| matches!(a, PrepArg::Entry(_)))
    }
}

/// What an argument of a call is, for matching it with another call's.
#[derive(Clone, PartialEq, Eq)]
enum Key {
    Var(VarId),
    Const(String),
}

fn key(body: &Body, e: ExprId) -> Option<Key> {
    match body.expr(e) {
        Expr::Var(v) => Some(Key::Var(*v)),
        _ => const_text(body, e).map(Key::Const),
    }
}

/// The expression a sequence item evaluates for its effect: `X = call(...)`,
/// `catch call(...)` and `ok = call(...)` all make the call.
fn effect(body: &Body, mut e: ExprId) -> ExprId {
    loop {
        match body.expr(e) {
            Expr::Match(_, inner) | Expr::Catch(inner) => e = *inner,
            _ => return e,
        }
    }
}

/// The preparers for `(m, f, a)` found in the program, most telling first:
/// calls made earlier in a clause that calls the entry, then calls of the
/// entry module's other exported functions with a constant the program
/// passes to the entry, then the module's functions of the same arity that
/// take the same table argument in the same place (at most
/// [`MAX_PREPARERS`] of each kind).
pub(crate) fn preparers(
    program: &Program,
    callers: &Callers,
    entry: (&str, &str, u32),
) -> Vec<Preparer> {
    preparers_where(program, callers, entry, |_| true)
}

/// The preparers for `(m, f, a)` that `keep` accepts, found and counted
/// against the quota as [`preparers`] does.
pub(crate) fn preparers_where(
    program: &Program,
    callers: &Callers,
    (m, f, a): (&str, &str, u32),
    keep: impl Fn(&Preparer) -> bool,
) -> Vec<Preparer> {
    let mut out: Vec<Preparer> = Vec::new();
    // Each kind of evidence has its own quota, so that many calls of one
    // kind do not crowd out the others.
    let mut quota = [0usize; 3];
    let mut push = |p: Preparer, kind: usize, out: &mut Vec<Preparer>| {
        if p.shares() && !out.contains(&p) && quota[kind] < MAX_PREPARERS && keep(&p) {
            quota[kind] += 1;
            out.push(p);
        }
    };
    // The constants the program passes at each position of the entry.
    let mut passed: Vec<Vec<String>> = vec![Vec::new(); a as usize];
    let mut sites: Vec<(&str, &Body, ExprId)> = Vec::new();
    for ((cm, cf, ca), e) in callers.sites(m, f, a) {
        let Some(func) = program.function(cm, cf, *ca) else {
            continue;
        };
        let body = &func.body;
        if let Expr::Call { args, .. } = body.expr(e) {
            for (j, &arg) in args.iter().enumerate().take(a as usize) {
                if let Some(text) = const_text(body, arg)
                    && !passed[j].contains(&text)
                {
                    passed[j].push(text);
                }
            }
        }
        sites.push((cm.as_str(), body, e));
    }
    // Earlier in the same sequence.
    for &(here, body, call) in &sites {
        let Expr::Call {
            args: entry_args, ..
        } = body.expr(call)
        else {
            continue;
        };
        let entry_keys: Vec<Option<Key>> = entry_args.iter().map(|&x| key(body, x)).collect();
        for items in blocks(body) {
            let Some(at) = items.iter().position(|&i| effect(body, i) == call) else {
                continue;
            };
            for &item in items[..at].iter().rev() {
                let Some(p) = preparer_at(program, here, body, effect(body, item), |k| {
                    entry_keys.iter().position(|e| e.as_ref() == Some(k))
                }) else {
                    continue;
                };
                if (p.module.as_str(), p.function.as_str(), p.args.len() as u32) != (m, f, a) {
                    push(p, 0, &mut out);
                }
            }
        }
    }
    // Anywhere, calling the entry module's other exported functions with a
    // value the program also passes to the entry.
    if let Some(module) = program.module(m) {
        for func in module.functions.iter().filter(|x| x.exported) {
            let (pf, pa) = (func.name.as_str(), func.arity);
            if (pf, pa) == (f, a) {
                continue;
            }
            for ((cm, cf, ca), e) in callers.sites(m, pf, pa) {
                let Some(caller) = program.function(cm, cf, *ca) else {
                    continue;
                };
                let body = &caller.body;
                let Some(p) = preparer_at(program, cm, body, e, |k| match k {
                    Key::Const(text) => passed.iter().position(|vs| vs.contains(text)),
                    Key::Var(_) => None,
                }) else {
                    continue;
                };
                push(p, 1, &mut out);
            }
        }
        // Last, with no call site to go by: the module's other exported
        // functions of the same arity that take the same table in the same
        // place (`inc(Tab, Counter)` beside `reset(Tab, Counter)`), called
        // with the entry's own arguments.
        let tables: Vec<usize> = (0..a as usize)
            .filter(|&i| crate::table_setup::used_as_table(program, m, f, a, i))
            .collect();
        if !tables.is_empty() {
            for func in module.functions.iter().filter(|x| x.exported) {
                let pf = func.name.as_str();
                if pf == f || func.arity != a {
                    continue;
                }
                if tables
                    .iter()
                    .all(|&i| crate::table_setup::used_as_table(program, m, pf, a, i))
                {
                    push(
                        Preparer {
                            module: m.to_string(),
                            function: pf.to_string(),
                            args: (0..a as usize).map(PrepArg::Entry).collect(),
                            why: Why::SameTable,
                        },
                        2,
                        &mut out,
                    );
                }
            }
        }
    }
    out
}

/// The call at `e` as a preparer, its arguments matched against the
/// entry's by `shared` (the entry's position of an equal argument).
fn preparer_at(
    program: &Program,
    here: &str,
    body: &Body,
    e: ExprId,
    shared: impl Fn(&Key) -> Option<usize>,
) -> Option<Preparer> {
    let Expr::Call { target, args, .. } = body.expr(e) else {
        return None;
    };
    let atom = |id: ExprId| match body.expr(id) {
        Expr::Lit(Literal::Atom(a)) => Some(a.to_string()),
        _ => None,
    };
    let (pm, pf) = match target {
        CallTarget::Local { name, .. } => (here.to_string(), name.to_string()),
        CallTarget::Remote { module, function } => (atom(*module)?, atom(*function)?),
        CallTarget::Apply { .. } => return None,
    };
    let exported = program
        .function(&pm, &pf, args.len() as u32)
        .is_some_and(|func| func.exported);
    if !exported {
        return None;
    }
    let args = args
        .iter()
        .map(|&x| match key(body, x) {
            Some(k) => match shared(&k) {
                Some(j) => PrepArg::Entry(j),
                None => match k {
                    Key::Const(text) => PrepArg::Given(text),
                    Key::Var(_) => PrepArg::Open,
                },
            },
            None => PrepArg::Open,
        })
        .collect();
    Some(Preparer {
        module: pm,
        function: pf,
        args,
        why: Why::CalledFirst,
    })
}

/// Every sequence of expressions in `body` (clause bodies, `begin ... end`).
fn blocks(body: &Body) -> impl Iterator<Item = &[ExprId]> {
    body.exprs.iter().filter_map(|e| match e {
        Expr::Block(items) => Some(items.as_slice()),
        _ => None,
    })
}

/// Whether a call of `(m, f, a)` may write shared state of `category`: some
/// call it makes, directly or through the program's functions it calls by
/// name (a few levels deep), is an operation of that category that writes
/// (`tag_metric` reaching `ets:update_element/3`; `get_metrics_value` reaches
/// no write).
pub(crate) fn may_write(
    program: &Program,
    (m, f, a): (&str, &str, u32),
    category: racewit_static::Category,
) -> bool {
    walk_reached(program, (m, f, a), |_, e, target| {
        let (Some((tm, tf)), Expr::Call { args, .. }) = (target, e) else {
            return false;
        };
        let callee = racewit_syntax::ir::MFA {
            module: racewit_syntax::ir::Name::new(tm),
            name: racewit_syntax::ir::Name::new(tf),
            arity: args.len() as u32,
        };
        racewit_static::catalog::classify(&callee)
            .1
            .contains(category)
    })
}

/// The most functions [`walk_reached`] looks into.
const MAX_REACHED: usize = 200;

/// Walks the expressions of `(m, f, a)` and of the program's functions it
/// calls by name, breadth first, at most [`MAX_REACHED`] functions. `visit`
/// gets each expression with its function's body and, for a call naming its
/// target, the target's module and function; returning true stops the walk,
/// and the walk then returns true.
pub(crate) fn walk_reached(
    program: &Program,
    (m, f, a): (&str, &str, u32),
    mut visit: impl FnMut(&Body, &Expr, Option<(&str, &str)>) -> bool,
) -> bool {
    let mut seen: Vec<(String, String, u32)> = vec![(m.to_string(), f.to_string(), a)];
    let mut next = 0;
    while next < seen.len() && next < MAX_REACHED {
        let (cm, cf, ca) = seen[next].clone();
        next += 1;
        let Some(func) = program.function(&cm, &cf, ca) else {
            continue;
        };
        let body = &func.body;
        for e in &body.exprs {
            let target = match e {
                Expr::Call { target, .. } => match target {
                    CallTarget::Local { name, .. } => Some((cm.clone(), name.to_string())),
                    CallTarget::Remote { module, function } => {
                        match (atom_at(body, *module), atom_at(body, *function)) {
                            (Some(tm), Some(tf)) => Some((tm, tf)),
                            _ => None,
                        }
                    }
                    CallTarget::Apply { .. } => None,
                },
                _ => None,
            };
            if visit(
                body,
                e,
                target.as_ref().map(|(tm, tf)| (tm.as_str(), tf.as_str())),
            ) {
                return true;
            }
            if let (Some((tm, tf)), Expr::Call { args, .. }) = (target, e) {
                let key = (tm, tf, args.len() as u32);
                if program.function(&key.0, &key.1, key.2).is_some() && !seen.contains(&key) {
                    seen.push(key);
                }
            }
        }
    }
    false
}

/// The atom an expression is, when it is an atom literal.
pub(crate) fn atom_at(body: &Body, id: ExprId) -> Option<String> {
    match body.expr(id) {
        Expr::Lit(Literal::Atom(a)) => Some(a.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::program;

    const METRICS: &str = "-module(metrics).\n\
        -export([new/1, tag/2, delete/1, value/1]).\n\
        new(Name) -> ets:insert(metrics, {Name, []}).\n\
        tag(Name, T) -> [{_, Ts}] = ets:lookup(metrics, Name), ets:insert(metrics, {Name, [T | Ts]}).\n\
        delete(Name) -> ets:delete(metrics, Name).\n\
        value(Name) -> ets:lookup(metrics, Name).\n";

    #[test]
    fn a_call_made_earlier_in_the_clause_with_the_same_variable_prepares() {
        let p = program(&[
            ("metrics", METRICS),
            (
                "user",
                "-module(user).\n-export([go/1]).\n\
                 go(N) -> ok = metrics:new(N), metrics:value(x), metrics:tag(N, blue).\n",
            ),
        ]);
        let callers = Callers::new(&p);
        let found = preparers(&p, &callers, ("metrics", "tag", 2));
        assert_eq!(
            found.first(),
            Some(&Preparer {
                module: "metrics".into(),
                function: "new".into(),
                args: vec![PrepArg::Entry(0)],
                why: Why::CalledFirst,
            })
        );
        // `metrics:value(x)` shares nothing with the tag call.
        assert!(!found.iter().any(|f| f.function == "value"));
    }

    #[test]
    fn a_call_elsewhere_with_a_constant_the_entry_gets_prepares() {
        // The test creates in one function and tags in another (an eunit
        // fixture runs them in order); the shared constant links them.
        let p = program(&[
            ("metrics", METRICS),
            (
                "metrics_tests",
                "-module(metrics_tests).\n-export([create/0, tagging/0, cleanup/0]).\n\
                 create() -> metrics:new(counter).\n\
                 tagging() -> metrics:tag(counter, \"g\").\n\
                 cleanup() -> metrics:delete(counter), metrics:delete(other).\n",
            ),
        ]);
        let callers = Callers::new(&p);
        let found = preparers(&p, &callers, ("metrics", "tag", 2));
        let names: Vec<(&str, &[PrepArg])> = found
            .iter()
            .map(|f| (f.function.as_str(), f.args.as_slice()))
            .collect();
        // Both candidates are kept in the module's order; the harness's
        // trial runs tell which one lets the tag reach its write.
        assert_eq!(
            names,
            vec![
                ("new", &[PrepArg::Entry(0)][..]),
                ("delete", &[PrepArg::Entry(0)][..]),
            ]
        );
    }

    #[test]
    fn nothing_shared_nothing_prepared() {
        let p = program(&[(
            "metrics",
            "-module(metrics).\n-export([new/1, tag/2, go/0]).\n\
             new(Name) -> ets:insert(metrics, {Name, []}).\n\
             tag(Name, T) -> ets:insert(metrics, {Name, T}).\n\
             go() -> new(a), tag(b, c).\n",
        )]);
        let callers = Callers::new(&p);
        assert_eq!(preparers(&p, &callers, ("metrics", "tag", 2)), Vec::new());
    }

    #[test]
    fn with_no_call_site_a_writer_of_the_same_table_argument_prepares() {
        let p = program(&[(
            "stats",
            "-module(stats).\n-export([inc/2, reset/2, get/1, other/2]).\n\
             inc(Tab, C) -> ets:insert(Tab, {C, 1}).\n\
             reset(Tab, C) -> [{C, V}] = ets:lookup(Tab, C), ets:insert(Tab, {C, 0}), V.\n\
             get(Tab) -> ets:tab2list(Tab).\n\
             other(X, Y) -> {X, Y}.\n",
        )]);
        let callers = Callers::new(&p);
        assert_eq!(
            preparers(&p, &callers, ("stats", "reset", 2)),
            vec![Preparer {
                module: "stats".into(),
                function: "inc".into(),
                args: vec![PrepArg::Entry(0), PrepArg::Entry(1)],
                why: Why::SameTable,
            }]
        );
    }
}
