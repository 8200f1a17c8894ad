//! The one walk over the IR's expressions: the children of an expression
//! in the order Erlang evaluates them. Passes that only need to visit
//! every sub-expression (does it hold a call site? does it read a
//! variable?) use [`for_each_child`] instead of matching every
//! [`Expr`] form themselves; passes that give some forms a meaning of their
//! own (dependence, the CFG, the value analysis) match those and hand the
//! rest to it.
//!
//! A `fun` expression has no children here: its clauses are a unit of
//! their own ([`crate::units`]).

use racewit_syntax::ir::{Body, CallTarget, Expr, ExprId, Qualifier};

/// Calls `f` on each child expression of `e`, in evaluation order: the
/// operands of an operator, a call's target parts then its arguments, a
/// `case`'s argument then each clause's guard tests and body, a
/// comprehension's generators and filters then its body.
pub fn for_each_child(body: &Body, e: ExprId, f: &mut dyn FnMut(ExprId)) {
    let clause = |c, f: &mut dyn FnMut(ExprId)| {
        let cl = body.clause(c);
        for conj in &cl.guard {
            for &g in conj {
                f(g);
            }
        }
        f(cl.body);
    };
    match body.expr(e) {
        Expr::Missing | Expr::Lit(_) | Expr::Var(_) | Expr::Nil | Expr::Fun(_) => {}
        Expr::FunRef {
            module,
            name,
            arity,
        } => {
            if let Some(m) = module {
                f(*m);
            }
            f(*name);
            f(*arity);
        }
        Expr::Cons(a, b) | Expr::Op(_, a, b) => {
            f(*a);
            f(*b);
        }
        Expr::Send { to, msg, .. } => {
            f(*to);
            f(*msg);
        }
        Expr::UnOp(_, a) | Expr::Catch(a) | Expr::Match(_, a) | Expr::MaybeMatch(_, a) => f(*a),
        Expr::Tuple(es) | Expr::Block(es) => es.iter().for_each(|&x| f(x)),
        Expr::Binary(segs) => {
            for s in segs {
                f(s.value);
                if let Some(sz) = s.size {
                    f(sz);
                }
            }
        }
        Expr::Map { base, fields } => {
            if let Some(b) = base {
                f(*b);
            }
            for fl in fields {
                f(fl.key);
                f(fl.value);
            }
        }
        Expr::Call { target, args, .. } => {
            match &**target {
                CallTarget::Remote { module, function } => {
                    f(*module);
                    f(*function);
                }
                CallTarget::Apply { fun } => f(*fun),
                CallTarget::Local { .. } => {}
            }
            args.iter().for_each(|&x| f(x));
        }
        Expr::Case { arg, clauses, .. } => {
            f(*arg);
            for &c in clauses {
                clause(c, f);
            }
        }
        Expr::Receive { clauses, after } => {
            for &c in clauses {
                clause(c, f);
            }
            if let Some(a) = after {
                f(a.timeout);
                f(a.body);
            }
        }
        Expr::Try(t) => {
            let racewit_syntax::ir::TryExpr {
                body: b,
                of_clauses,
                catch_clauses,
                after,
            } = &**t;
            f(*b);
            for &c in of_clauses.iter().chain(catch_clauses) {
                clause(c, f);
            }
            if let Some(a) = after {
                f(*a);
            }
        }
        Expr::Comprehension(c) => {
            for q in &c.qualifiers {
                match q {
                    Qualifier::Generator { expr, .. } => f(*expr),
                    Qualifier::Zip(gens) => gens.iter().for_each(|g| f(g.expr)),
                    Qualifier::Filter(x) => f(*x),
                }
            }
            f(c.body);
        }
        Expr::Maybe(m) => {
            let racewit_syntax::ir::MaybeExpr {
                body: items,
                else_clauses,
            } = &**m;
            items.iter().for_each(|&x| f(x));
            for &c in else_clauses.iter().flatten() {
                clause(c, f);
            }
        }
    }
}

/// Whether `pred` holds for `e` or any expression under it (funs excluded).
pub fn any_expr(body: &Body, e: ExprId, pred: &mut dyn FnMut(&Expr) -> bool) -> bool {
    if pred(body.expr(e)) {
        return true;
    }
    let mut found = false;
    for_each_child(body, e, &mut |c| {
        if !found {
            found = any_expr(body, c, pred);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    /// The literal atoms under the body of `f/0`, in walk order.
    fn atoms(src: &str) -> Vec<String> {
        let program = load_source("t.erl", src);
        let f = program.function("t", "f", 0).expect("f/0");
        let mut out = Vec::new();
        fn go(body: &Body, e: ExprId, out: &mut Vec<String>) {
            if let Expr::Lit(racewit_syntax::ir::Literal::Atom(a)) = body.expr(e) {
                out.push(a.to_string());
            }
            for_each_child(body, e, &mut |c| go(body, c, out));
        }
        for &c in &f.clauses {
            go(&f.body, f.body.clause(c).body, &mut out);
        }
        out
    }

    #[test]
    fn children_come_in_evaluation_order() {
        let src = "-module(t).\nf() ->\n    X = {a, b},\n    case X of {a, _} when c -> d; _ -> e end,\n    [g || h <- [i], j],\n    try k of l -> m catch _:_ -> n after o end,\n    fun() -> p end.\n";
        assert_eq!(
            atoms(src),
            ["a", "b", "c", "d", "e", "i", "j", "g", "k", "m", "n", "o"]
        );
    }

    #[test]
    fn any_expr_finds_a_call_and_skips_funs() {
        let src =
            "-module(t).\nf() -> {a, [b | fun() -> ets:insert(t, x) end], ets:lookup(t, k)}.\n";
        let program = load_source("t.erl", src);
        let f = program.function("t", "f", 0).expect("f/0");
        let body = f.body.clause(f.clauses[0]).body;
        let mut calls = 0;
        any_expr(&f.body, body, &mut |e| {
            if matches!(e, Expr::Call { .. }) {
                calls += 1;
            }
            false
        });
        assert_eq!(calls, 1);
    }
}
