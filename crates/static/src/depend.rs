//! Dependence on a read: which later calls of a unit depend on the value a
//! call site returned, by data (an argument computed from it) or by control
//! (inside a `case`/`if`/`receive` clause chosen by it, or after a match or
//! a clause that fails or exits unless it has a given value, or after the
//! call itself when it raises for an absent item: `ets:lookup_element/3`
//! is `[{_, V}] = ets:lookup(T, K)` written shorter).
//!
//! A write races with a read only when it depends on it: `N = value(K),
//! reset(K)` reads and writes but never acts on what it read.

use racewit_syntax::ir::{
    Body, CallSiteId, CallTarget, ClauseId, Expr, ExprId, Literal, Pat, PatId, Qualifier,
};
use rustc_hash::FxHashSet;

/// What depends on one call site's result within one unit.
#[derive(Clone, Debug, Default)]
pub struct DepInfo {
    /// Call sites evaluated under the dependence (data or control).
    pub sites: FxHashSet<CallSiteId>,
    /// Of those, the call sites given something computed from the value
    /// (an argument, the function called, a fun made under the dependence).
    pub data: FxHashSet<CallSiteId>,
    /// The unit's result depends on it.
    pub ret: bool,
}

/// Dependence on `source`'s result within a unit made of `clauses`;
/// `raises`: the source call raises when what it reads is absent
/// ([`crate::catalog::raises_when_absent`]), so what follows it runs only
/// when the item was there.
pub fn dependent(body: &Body, clauses: &[ClauseId], source: CallSiteId, raises: bool) -> DepInfo {
    let mut d = Dep {
        body,
        source,
        raises,
        tainted: vec![false; body.var_count()],
        ctrl: false,
        seen: false,
        info: DepInfo::default(),
    };
    for &c in clauses {
        d.ctrl = false;
        let cl = body.clause(c);
        let v = d.expr(cl.body);
        if v || d.ctrl {
            d.info.ret = true;
        }
    }
    d.info
}

struct Dep<'a> {
    body: &'a Body,
    source: CallSiteId,
    /// The source raises for an absent item.
    raises: bool,
    tainted: Vec<bool>,
    /// Evaluation is under control dependence.
    ctrl: bool,
    /// The source call has been evaluated (a `try` whose body ran it may
    /// end in a catch clause because of it).
    seen: bool,
    info: DepInfo,
}

impl Dep<'_> {
    fn bind(&mut self, p: PatId, t: bool) {
        match self.body.pat(p) {
            Pat::Var(v) => {
                if t {
                    self.tainted[v.index()] = true;
                }
            }
            Pat::Cons(a, b) | Pat::Alias(a, b) => {
                let (a, b) = (*a, *b);
                self.bind(a, t);
                self.bind(b, t);
            }
            Pat::Tuple(ps) => {
                for q in ps.clone() {
                    self.bind(q, t);
                }
            }
            Pat::Map(fs) => {
                for (_, q) in fs.clone() {
                    self.bind(q, t);
                }
            }
            Pat::Binary(segs) => {
                for s in segs.clone() {
                    self.bind(s.value, t);
                }
            }
            Pat::Missing | Pat::Wild | Pat::Bound(_) | Pat::Lit(_) | Pat::Nil => {}
        }
    }

    /// The pattern can fail to match.
    fn refutable(&self, p: PatId) -> bool {
        match self.body.pat(p) {
            Pat::Var(_) | Pat::Wild => false,
            Pat::Alias(a, b) => self.refutable(*a) || self.refutable(*b),
            _ => true,
        }
    }

    /// The pattern compares with a tainted bound variable.
    fn pat_reads_taint(&self, p: PatId) -> bool {
        match self.body.pat(p) {
            Pat::Bound(v) => self.tainted[v.index()],
            Pat::Cons(a, b) | Pat::Alias(a, b) => {
                self.pat_reads_taint(*a) || self.pat_reads_taint(*b)
            }
            Pat::Tuple(ps) => ps.iter().any(|&q| self.pat_reads_taint(q)),
            Pat::Map(fs) => fs.iter().any(|(_, q)| self.pat_reads_taint(*q)),
            _ => false,
        }
    }

    /// Whether an expression (a guard) reads a tainted variable.
    fn reads_taint(&self, e: ExprId) -> bool {
        crate::walk::any_expr(
            self.body,
            e,
            &mut |x| matches!(x, Expr::Var(v) if self.tainted[v.index()]),
        )
    }

    /// The expression never returns normally (raises or exits).
    fn diverges(&self, e: ExprId) -> bool {
        match self.body.expr(e) {
            Expr::Block(es) => es.last().is_some_and(|&l| self.diverges(l)),
            Expr::Call { target, args, .. }
                if let CallTarget::Remote { module, function } = &**target =>
            {
                let atom = |x: ExprId| match self.body.expr(x) {
                    Expr::Lit(Literal::Atom(a)) => Some(a.as_str().to_string()),
                    _ => None,
                };
                matches!(
                    (
                        atom(*module).as_deref(),
                        atom(*function).as_deref(),
                        args.len()
                    ),
                    (Some("erlang"), Some("exit"), 1)
                        | (Some("erlang"), Some("error"), 1..=3)
                        | (Some("erlang"), Some("throw"), 1)
                        | (Some("erlang"), Some("raise"), 3)
                )
            }
            Expr::Case { clauses, .. } => {
                !clauses.is_empty()
                    && clauses
                        .iter()
                        .all(|&c| self.diverges(self.body.clause(c).body))
            }
            _ => false,
        }
    }

    fn catch_all(&self, c: ClauseId) -> bool {
        let cl = self.body.clause(c);
        let guard_true = cl.guard.is_empty()
            || cl.guard.iter().any(|conj| {
                conj.iter().all(
                    |&g| matches!(self.body.expr(g), Expr::Lit(Literal::Atom(a)) if a == "true"),
                )
            });
        guard_true && cl.pats.iter().all(|&p| !self.refutable(p))
    }

    fn exprs(&mut self, es: &[ExprId]) -> bool {
        let mut t = false;
        for &e in es {
            t |= self.expr(e);
        }
        t
    }

    /// Clauses selected by a value tainted or not; returns whether the result is tainted.
    fn select(&mut self, clauses: &[ClauseId], arg_tainted: bool, arity: usize) -> bool {
        let saved = self.ctrl;
        let mut dep = arg_tainted;
        for &c in clauses {
            let cl = self.body.clause(c);
            if cl.pats.iter().any(|&p| self.pat_reads_taint(p))
                || cl.guard.iter().flatten().any(|&g| self.reads_taint(g))
            {
                dep = true;
            }
        }
        let mut result = dep;
        for &c in clauses {
            let cl = self.body.clause(c).clone();
            for (i, &p) in cl.pats.iter().enumerate() {
                self.bind(p, arg_tainted && i < arity.max(1));
            }
            self.ctrl = saved || dep;
            result |= self.expr(cl.body);
        }
        self.ctrl = saved;
        if dep && !saved {
            let no_catch_all = !clauses.iter().any(|&c| self.catch_all(c));
            let some_diverge = clauses
                .iter()
                .any(|&c| self.diverges(self.body.clause(c).body));
            if no_catch_all || some_diverge {
                // Reaching what follows depends on the value too.
                self.ctrl = true;
            }
        }
        result
    }

    fn expr(&mut self, id: ExprId) -> bool {
        let body = self.body;
        match body.expr(id) {
            Expr::Var(v) => self.tainted[v.index()],
            Expr::Block(es) => {
                let mut last = false;
                for &e in es {
                    last = self.expr(e);
                }
                last
            }
            Expr::Match(p, e) | Expr::MaybeMatch(p, e) => {
                let t = self.expr(*e);
                let reads = self.pat_reads_taint(*p);
                self.bind(*p, t);
                if (t && self.refutable(*p)) || reads {
                    self.ctrl = true;
                }
                t
            }
            Expr::Call { site, target, args } => {
                let mut t = match &**target {
                    CallTarget::Remote { module, function } => {
                        let a = self.expr(*module);
                        self.expr(*function) || a
                    }
                    CallTarget::Apply { fun } => self.expr(*fun),
                    CallTarget::Local { .. } => false,
                };
                t |= self.exprs(args);
                if *site == self.source {
                    self.seen = true;
                    if self.raises {
                        // What follows runs only if it did not raise.
                        self.ctrl = true;
                    }
                    return true;
                }
                if t || self.ctrl {
                    self.info.sites.insert(*site);
                }
                if t {
                    self.info.data.insert(*site);
                }
                t || self.ctrl
            }
            Expr::Case { arg, clauses, .. } => {
                let t = self.expr(*arg);
                self.select(clauses, t, 1)
            }
            Expr::Receive { clauses, after } => {
                let mut r = self.select(clauses, false, 1);
                if let Some(a) = after {
                    r |= self.expr(a.timeout);
                    r |= self.expr(a.body);
                }
                r
            }
            Expr::Try(t) => {
                let racewit_syntax::ir::TryExpr {
                    body: b,
                    of_clauses,
                    catch_clauses,
                    after,
                } = &**t;
                let seen_before = self.seen;
                let ctrl_before = self.ctrl;
                let t = self.expr(*b);
                // The body may raise because of the read (the read itself,
                // or a match on what it gave): a catch clause then depends on it.
                let raised = (self.seen && !seen_before) || (self.ctrl && !ctrl_before);
                let mut r = if of_clauses.is_empty() {
                    t
                } else {
                    self.select(of_clauses, t, 1)
                };
                r |= self.select(catch_clauses, raised, 3);
                if let Some(a) = after {
                    self.expr(*a);
                }
                r
            }
            Expr::Fun(fe) => self.ctrl || fe.free_vars.iter().any(|v| self.tainted[v.index()]),
            Expr::Comprehension(c) => {
                let saved = self.ctrl;
                let mut t = false;
                for q in &c.qualifiers {
                    match q {
                        Qualifier::Generator { pat, expr, .. } => {
                            let g = self.expr(*expr);
                            self.bind(*pat, g);
                            if g {
                                self.ctrl = true;
                            }
                            t |= g;
                        }
                        Qualifier::Zip(gens) => {
                            for gen_ in gens {
                                let g = self.expr(gen_.expr);
                                self.bind(gen_.pat, g);
                                if g {
                                    self.ctrl = true;
                                }
                                t |= g;
                            }
                        }
                        Qualifier::Filter(e) => {
                            if self.expr(*e) {
                                self.ctrl = true;
                                t = true;
                            }
                        }
                    }
                }
                t |= self.expr(c.body);
                self.ctrl = saved;
                t || saved
            }
            Expr::Maybe(m) => {
                let racewit_syntax::ir::MaybeExpr {
                    body: items,
                    else_clauses,
                } = &**m;
                let mut t = false;
                for &e in items {
                    t |= self.expr(e);
                }
                if let Some(cs) = else_clauses {
                    t |= self.select(cs, t, 1);
                }
                t
            }
            // Everything else is tainted when a part is (an operator, a
            // tuple, a list cell, a binary, a map, a send, a catch).
            _ => {
                let mut t = false;
                crate::walk::for_each_child(body, id, &mut |c| t |= self.expr(c));
                t
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    /// The functions called in `f/1` that depend on its call of `src/0`,
    /// sorted, and whether its result does.
    fn deps(body_src: &str) -> (Vec<String>, bool) {
        deps_raising(body_src, false)
    }

    /// [`deps`] with `src/0` taken to raise when its item is absent.
    fn deps_raising(body_src: &str, raises: bool) -> (Vec<String>, bool) {
        let (sites, ret, _) = dependence(body_src, raises);
        (sites, ret)
    }

    /// What in `f/1` depends on its call of `src/0`: the functions whose
    /// calls depend on it and those given something computed from it (each
    /// sorted), and whether the result depends on it.
    fn dependence(body_src: &str, raises: bool) -> (Vec<String>, bool, Vec<String>) {
        let src = format!("-module(t).\nf(X) ->\n{body_src}.\nsrc() -> 1. w(_) -> 1. o() -> 1.\n");
        let program = load_source("t.erl", &src);
        let m = program.module("t").expect("module");
        let f = m.function("f", 1).expect("f/1");
        let name = |s: CallSiteId| {
            m.call_site(s)
                .target
                .as_ref()
                .map_or(String::new(), |t| t.name.to_string())
        };
        let source = (0..m.call_sites.len())
            .map(|i| CallSiteId(i as u32))
            .find(|&s| name(s) == "src")
            .expect("a call of src/0");
        let d = dependent(&f.body, &f.clauses, source, raises);
        let sorted = |ids: &mut dyn Iterator<Item = CallSiteId>| {
            let mut names: Vec<String> = ids.map(name).collect();
            names.sort();
            names
        };
        let sites = sorted(&mut d.sites.iter().copied());
        let data = sorted(&mut d.data.iter().copied());
        (sites, d.ret, data)
    }

    #[test]
    fn data_dependence_flows_through_variables() {
        assert_eq!(deps("V = src(), o(), w(V)"), (vec!["w".to_string()], true));
        assert_eq!(deps("_ = src(), w(X)"), (vec![], false));
    }

    #[test]
    fn control_dependence_from_a_case_or_a_failing_match() {
        assert_eq!(
            deps("case src() of 1 -> w(X); _ -> ok end, o()"),
            (vec!["w".to_string()], false)
        );
        // After a match that fails unless the value is 1, everything depends.
        assert_eq!(
            deps("1 = src(), o(), w(X)"),
            (vec!["o".to_string(), "w".to_string()], true)
        );
        // A clause that exits for some values: what follows depends.
        assert_eq!(
            deps("case src() of 1 -> ok; _ -> exit(no) end, w(X)"),
            (vec!["exit".to_string(), "w".to_string()], true)
        );
    }

    #[test]
    fn after_a_read_that_raises_for_an_absent_item_everything_depends() {
        // As after `[{_, V}] = ets:lookup(T, K)`: the write runs only if
        // the item was there.
        assert_eq!(
            deps_raising("_ = src(), w(X)", true),
            (vec!["w".to_string()], true)
        );
        assert_eq!(deps_raising("_ = src(), w(X)", false), (vec![], false));
    }

    /// The functions called in `f/1` given something computed from its
    /// call of `src/0` (data, not control alone), sorted.
    fn data_deps(body_src: &str) -> Vec<String> {
        dependence(body_src, false).2
    }

    #[test]
    fn data_sites_are_those_given_the_value() {
        // Under a clause the value selects, but given only the parameter.
        assert_eq!(
            data_deps("case src() of 1 -> w(X); _ -> ok end"),
            Vec::<String>::new()
        );
        assert_eq!(
            data_deps("try src() catch _:_ -> w({a, X}) end"),
            Vec::<String>::new()
        );
        // Given the value, or what a clause it selects makes.
        assert_eq!(data_deps("V = src(), w({a, V})"), vec!["w"]);
        assert_eq!(
            data_deps("Y = case src() of 1 -> a; _ -> b end, w(Y)"),
            vec!["w"]
        );
        // A fun made under the dependence.
        assert_eq!(
            data_deps("case src() of 1 -> w(fun() -> X end); _ -> ok end"),
            vec!["w"]
        );
    }

    #[test]
    fn a_fun_depends_on_what_it_captures() {
        assert_eq!(deps("V = src(), F = fun() -> V end, w(F)").0, vec!["w"]);
        assert_eq!(
            deps("_ = src(), F = fun() -> X end, w(F)").0,
            Vec::<String>::new()
        );
    }
}
