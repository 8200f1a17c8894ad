//! Whether a call site can run for given argument values: the patterns
//! and guards of the clauses that enclose it (the function clause, and the
//! `case`/`if` clauses down to the site) against what the arguments may be.
//!
//! A search uses it to leave out what cannot happen: a function entered
//! with a request only some clauses match runs only those; a caller whose
//! arguments cannot reach the read (`get_value1(Key, shared)` never runs
//! the `when is_pid(Pid)` clause) is not climbed to. What cannot be
//! evaluated (a call, a value not known) may always match: only a
//! condition that fails for every value rules a site out.

use racewit_syntax::ir::{
    BinOp, Body, CallSiteId, CallTarget, CaseKind, ClauseId, Expr, ExprId, Literal, Pat, PatId,
    VarId,
};
use rustc_hash::FxHashMap;

use crate::units::literal_term;
use crate::values::{Term, Val, element, list_elements, may_match, product};

/// One step of the way from a unit's entry to a site.
#[derive(Clone, Debug)]
pub enum Step {
    /// Match a pattern against a parameter (by index) or an expression.
    Bind(PatId, Source),
    /// A clause's guard must hold.
    Guard(Vec<Vec<ExprId>>),
}

#[derive(Clone, Copy, Debug)]
pub enum Source {
    Param(u32),
    Expr(ExprId),
    /// A value nothing is known of (a message).
    Unknown,
}

/// The steps to `site` in the unit made of `clauses` whose parameters start
/// at `base`, one list per way (a site is in one clause; `None` when not found).
pub fn path_to(
    body: &Body,
    clauses: &[ClauseId],
    base: u32,
    site: CallSiteId,
) -> Option<Vec<Step>> {
    for &c in clauses {
        let cl = body.clause(c);
        let mut steps: Vec<Step> = cl
            .pats
            .iter()
            .enumerate()
            .map(|(i, &p)| Step::Bind(p, Source::Param(base + i as u32)))
            .collect();
        if !cl.guard.is_empty() {
            steps.push(Step::Guard(cl.guard.clone()));
        }
        if find(body, cl.body, site, &mut steps) {
            return Some(steps);
        }
    }
    None
}

/// Whether `e` holds `site`; pushes the steps on the way to it.
fn find(body: &Body, e: ExprId, site: CallSiteId, steps: &mut Vec<Step>) -> bool {
    match body.expr(e) {
        Expr::Call {
            site: s,
            target,
            args,
        } => {
            if *s == site {
                return true;
            }
            let mut parts: Vec<ExprId> = args.to_vec();
            match &**target {
                CallTarget::Remote { module, function } => parts.extend([*module, *function]),
                CallTarget::Apply { fun } => parts.push(*fun),
                CallTarget::Local { .. } => {}
            }
            parts.into_iter().any(|a| find(body, a, site, steps))
        }
        Expr::Send { site: s, to, msg } => {
            *s == site || find(body, *to, site, steps) || find(body, *msg, site, steps)
        }
        Expr::Block(es) => {
            let mark = steps.len();
            for &x in es {
                if find(body, x, site, steps) {
                    return true;
                }
                if let Expr::Match(p, v) = body.expr(x) {
                    steps.push(Step::Bind(*p, Source::Expr(*v)));
                }
            }
            steps.truncate(mark);
            false
        }
        Expr::Case { kind, arg, clauses } => {
            if find(body, *arg, site, steps) {
                return true;
            }
            for &c in clauses {
                let cl = body.clause(c);
                let mark = steps.len();
                if *kind != CaseKind::If {
                    for &p in &cl.pats {
                        steps.push(Step::Bind(p, Source::Expr(*arg)));
                    }
                }
                if !cl.guard.is_empty() {
                    steps.push(Step::Guard(cl.guard.clone()));
                }
                if find(body, cl.body, site, steps) {
                    return true;
                }
                steps.truncate(mark);
            }
            false
        }
        Expr::Receive { clauses, after } => {
            for &c in clauses {
                let cl = body.clause(c);
                let mark = steps.len();
                for &p in &cl.pats {
                    steps.push(Step::Bind(p, Source::Unknown));
                }
                if find(body, cl.body, site, steps) {
                    return true;
                }
                steps.truncate(mark);
            }
            after.as_ref().is_some_and(|a| {
                find(body, a.timeout, site, steps) || find(body, a.body, site, steps)
            })
        }
        // Elsewhere, the way to the site adds nothing checked here.
        _ => {
            let mut found = false;
            crate::walk::for_each_child(body, e, &mut |c| {
                if !found {
                    found = contains(body, c, site);
                }
            });
            found
        }
    }
}

/// Whether `e` holds `site` anywhere (funs excluded: they are units).
fn contains(body: &Body, e: ExprId, site: CallSiteId) -> bool {
    match body.expr(e) {
        Expr::Call { site: s, .. } | Expr::Send { site: s, .. } if *s == site => true,
        Expr::Fun(_) => false,
        _ => {
            let mut found = false;
            crate::walk::for_each_child(body, e, &mut |c| {
                if !found {
                    found = contains(body, c, site);
                }
            });
            found
        }
    }
}

/// Whether clause `c` (patterns and guard) may be the one run for
/// parameters `params` (the unit's parameters start at `base`).
pub fn clause_may_run(body: &Body, c: ClauseId, base: u32, params: &[Val], limit: usize) -> bool {
    let cl = body.clause(c);
    let mut steps: Vec<Step> = cl
        .pats
        .iter()
        .enumerate()
        .map(|(i, &p)| Step::Bind(p, Source::Param(base + i as u32)))
        .collect();
    if !cl.guard.is_empty() {
        steps.push(Step::Guard(cl.guard.clone()));
    }
    may_run(body, &steps, params, limit)
}

/// Whether the steps may all succeed with parameters `params`.
pub fn may_run(body: &Body, steps: &[Step], params: &[Val], limit: usize) -> bool {
    let mut env: FxHashMap<VarId, Val> = FxHashMap::default();
    for s in steps {
        match s {
            Step::Bind(p, src) => {
                let v = match src {
                    Source::Param(i) => params.get(*i as usize).cloned().unwrap_or(Val::Any),
                    Source::Expr(e) => eval(body, *e, &env, limit),
                    Source::Unknown => Val::Any,
                };
                if !may_match(body, *p, &v) {
                    return false;
                }
                bind(body, *p, &v, &mut env, limit);
            }
            Step::Guard(g) => {
                if !g
                    .iter()
                    .any(|conj| conj.iter().all(|&t| !surely_false(body, t, &env, limit)))
                {
                    return false;
                }
            }
        }
    }
    true
}

fn bind(body: &Body, p: PatId, v: &Val, env: &mut FxHashMap<VarId, Val>, limit: usize) {
    match body.pat(p) {
        Pat::Var(x) => {
            env.insert(*x, v.clone());
        }
        Pat::Tuple(ps) => {
            for (i, &q) in ps.iter().enumerate() {
                bind(body, q, &element(v, i, limit), env, limit);
            }
        }
        Pat::Alias(a, b) => {
            bind(body, *a, v, env, limit);
            bind(body, *b, v, env, limit);
        }
        Pat::Cons(h, t) => {
            bind(body, *h, &list_elements(v, limit), env, limit);
            bind(body, *t, &Val::Any, env, limit);
        }
        Pat::Map(fs) => {
            for (_, q) in fs {
                bind(body, *q, &Val::Any, env, limit);
            }
        }
        Pat::Binary(segs) => {
            for s in segs {
                bind(body, s.value, &Val::Any, env, limit);
            }
        }
        Pat::Missing | Pat::Wild | Pat::Bound(_) | Pat::Lit(_) | Pat::Nil => {}
    }
}

/// The value of an expression, from what is bound: literals, variables,
/// tuples and lists of them; anything else is not known.
fn eval(body: &Body, e: ExprId, env: &FxHashMap<VarId, Val>, limit: usize) -> Val {
    match body.expr(e) {
        Expr::Lit(l) => match literal_term(l) {
            Term::Any => Val::Any,
            t => Val::one(t),
        },
        Expr::Nil => Val::one(Term::List(Vec::new())),
        Expr::Var(x) => env.get(x).cloned().unwrap_or(Val::Any),
        Expr::Tuple(es) => {
            let vals: Vec<Val> = es.iter().map(|&x| eval(body, x, env, limit)).collect();
            product(&vals, limit, Term::Tuple)
        }
        _ => Val::Any,
    }
}

/// What kind of term a known term is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Atom,
    Integer,
    List,
    Tuple,
    Map,
    Pid,
    Reference,
    Function,
}

fn kind(t: &Term) -> Option<Kind> {
    Some(match t {
        Term::Atom(_) => Kind::Atom,
        Term::Int(_) => Kind::Integer,
        Term::Str(_) | Term::List(_) => Kind::List,
        Term::Tuple(_) | Term::Keyed(..) => Kind::Tuple,
        Term::Map(_) => Kind::Map,
        Term::SelfPid | Term::Spawned(_) => Kind::Pid,
        Term::Table(_) => Kind::Reference,
        Term::Fun(_) | Term::FunRef(_) => Kind::Function,
        _ => return None,
    })
}

/// Every term of `v` is known and of none of `kinds`.
fn surely_not(v: &Val, kinds: &[Kind]) -> bool {
    match v {
        Val::Any => false,
        Val::Set(s) => {
            !s.is_empty()
                && s.iter()
                    .all(|t| kind(t).is_some_and(|k| !kinds.contains(&k)))
        }
    }
}

/// A constant with no unknown part (numbers aside: `1 == 1.0`).
fn exact(t: &Term) -> bool {
    match t {
        Term::Atom(_) | Term::Str(_) => true,
        Term::Tuple(ts) | Term::List(ts) => ts.iter().all(exact),
        _ => false,
    }
}

/// The guard test `t` fails for every value the environment allows.
fn surely_false(body: &Body, t: ExprId, env: &FxHashMap<VarId, Val>, limit: usize) -> bool {
    match body.expr(t) {
        Expr::Lit(Literal::Atom(a)) => a == "false",
        Expr::Call { target, args, .. }
            if args.len() == 1
                && let CallTarget::Remote { module, function } = &**target =>
        {
            let atom = |x: ExprId| match body.expr(x) {
                Expr::Lit(Literal::Atom(a)) => Some(a.clone()),
                _ => None,
            };
            if atom(*module).as_deref() != Some("erlang") {
                return false;
            }
            let v = eval(body, args[0], env, limit);
            let kinds: &[Kind] = match atom(*function).as_deref() {
                Some("is_atom") => &[Kind::Atom],
                Some("is_boolean") => &[Kind::Atom],
                Some("is_integer") => &[Kind::Integer],
                Some("is_number") => &[Kind::Integer],
                Some("is_list") => &[Kind::List],
                Some("is_tuple") => &[Kind::Tuple],
                Some("is_map") => &[Kind::Map],
                Some("is_pid") => &[Kind::Pid],
                Some("is_reference") => &[Kind::Reference],
                Some("is_function") => &[Kind::Function],
                _ => return false,
            };
            surely_not(&v, kinds)
        }
        Expr::Op(op @ (BinOp::Eq | BinOp::ExactEq | BinOp::NotEq | BinOp::ExactNotEq), a, b) => {
            let x = eval(body, *a, env, limit);
            let y = eval(body, *b, env, limit);
            let (Val::Set(xs), Val::Set(ys)) = (&x, &y) else {
                return false;
            };
            if xs.is_empty() || ys.is_empty() || !xs.iter().chain(ys.iter()).all(exact) {
                return false;
            }
            match op {
                BinOp::Eq | BinOp::ExactEq => !xs.iter().any(|p| ys.contains(p)),
                _ => xs.len() == 1 && ys.len() == 1 && xs[0] == ys[0],
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    /// Whether the call of `g/1` in `f/1` of the module may run with the
    /// argument of `f/1` one of `vals`.
    fn check(src: &str, vals: Val) -> bool {
        let program = load_source("t.erl", src);
        let m = program.module("t").expect("module");
        let f = m.function("f", 1).expect("f/1");
        let site = m
            .call_sites
            .iter()
            .position(|c| {
                c.function.name == "f" && c.target.as_ref().is_some_and(|t| t.name == "g")
            })
            .map(|i| CallSiteId(i as u32))
            .expect("a call of g/1 in f/1");
        let steps = path_to(&f.body, &f.clauses, 0, site).expect("site found");
        may_run(&f.body, &steps, &[vals], 16)
    }

    #[test]
    fn guards_and_patterns_on_the_way_rule_out_arguments() {
        let a = |s: &str| Term::Atom(s.into());
        let src = "-module(t).\nf({T, _} = K) when is_atom(T) ->\n    if T == n; T == a -> g(K); true -> ok end.\ng(_) -> ok.\n";
        let tup = |t: &str| Val::one(Term::Tuple(vec![a(t), Term::Any]));
        assert!(check(src, tup("n")));
        assert!(!check(src, tup("p")));
        assert!(!check(
            src,
            Val::one(Term::Tuple(vec![Term::Int(1), Term::Any]))
        ));
        assert!(check(src, Val::Any));
        let src = "-module(t).\nf(P) when is_pid(P) -> g(P);\nf(shared) -> ok.\ng(_) -> ok.\n";
        assert!(!check(src, Val::atom("shared")));
        assert!(check(src, Val::one(Term::SelfPid)));
        let src = "-module(t).\nf(X) -> case X of {get, K} -> g(K); _ -> ok end.\ng(_) -> ok.\n";
        assert!(!check(
            src,
            Val::one(Term::Tuple(vec![a("set"), Term::Any]))
        ));
        assert!(check(src, Val::one(Term::Tuple(vec![a("get"), Term::Any]))));
    }
}
