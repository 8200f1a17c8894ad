//! Walking the syntax tree: every sub-expression of an expression, to
//! read (`visit`, `children`) or to rewrite in place (`children_mut`). The
//! parse transforms racewit models (`ms_transform`, `qlc`) share it.

use crate::ast::{self, Expr, ExprKind as K};

/// Every expression under `e` (itself included).
pub(crate) fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    let mut each = |x: &Expr| visit(x, f);
    children(e, &mut each);
}

/// The direct sub-expressions of `e`, clauses' patterns, guards and
/// bodies included.
pub(crate) fn children(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    let clause = |c: &ast::Clause, f: &mut dyn FnMut(&Expr)| {
        c.pats
            .iter()
            .chain(c.guard.iter().flatten())
            .chain(&c.body)
            .for_each(&mut *f)
    };
    match &e.kind {
        K::Tuple(v) | K::Block(v) => v.iter().for_each(f),
        K::List { elems, tail } => {
            elems.iter().for_each(&mut *f);
            if let Some(t) = tail {
                f(t);
            }
        }
        K::Binary(elems) => elems.iter().for_each(|b| {
            f(&b.value);
            if let Some(s) = &b.size {
                f(s);
            }
        }),
        K::Comprehension {
            body, qualifiers, ..
        } => {
            f(body);
            for q in qualifiers {
                qualifier(q, f);
            }
        }
        K::Map { base, fields } => {
            if let Some(b) = base {
                f(b);
            }
            fields.iter().for_each(|m| {
                f(&m.key);
                f(&m.value);
            });
        }
        K::Record(r) => {
            if let Some(b) = &r.base {
                f(b);
            }
            r.fields.iter().for_each(|x| f(&x.value));
        }
        K::RecordAccess(r) => f(&r.base),
        K::Call { callee, args } => {
            f(callee);
            args.iter().for_each(f);
        }
        K::Remote { module, function } => {
            f(module);
            f(function);
        }
        K::Op(_, a, b)
        | K::Andalso(a, b)
        | K::Orelse(a, b)
        | K::Match(a, b)
        | K::MaybeMatch(a, b)
        | K::Send(a, b) => {
            f(a);
            f(b);
        }
        K::UnOp(_, a) | K::Catch(a) => f(a),
        K::Case { arg, clauses } => {
            f(arg);
            clauses.iter().for_each(|c| clause(c, f));
        }
        K::If(clauses) => clauses.iter().for_each(|c| clause(c, f)),
        K::Receive(r) => {
            r.clauses.iter().for_each(|c| clause(c, f));
            if let Some(a) = &r.after {
                f(&a.timeout);
                a.body.iter().for_each(&mut *f);
            }
        }
        K::Try(t) => {
            t.body.iter().for_each(&mut *f);
            t.of_clauses.iter().for_each(|c| clause(c, f));
            for c in &t.catch_clauses {
                c.class
                    .iter()
                    .chain(std::iter::once(&c.reason))
                    .chain(&c.stack)
                    .chain(c.guard.iter().flatten())
                    .chain(&c.body)
                    .for_each(&mut *f);
            }
            t.after.iter().flatten().for_each(f);
        }
        K::Fun(fun) => fun.clauses.iter().for_each(|c| clause(c, f)),
        K::FunRef {
            module,
            name,
            arity,
        } => {
            if let Some(m) = module {
                f(m);
            }
            f(name);
            f(arity);
        }
        K::Maybe(m) => {
            m.body.iter().for_each(&mut *f);
            m.else_clauses.iter().flatten().for_each(|c| clause(c, f));
        }
        K::Missing
        | K::Var(_)
        | K::Atom(_)
        | K::Int(_)
        | K::Float(_)
        | K::Char(_)
        | K::String(_)
        | K::Sigil { .. }
        | K::RecordIndex(_) => {}
    }
}

fn qualifier(q: &ast::Qualifier, f: &mut dyn FnMut(&Expr)) {
    match q {
        ast::Qualifier::Generator {
            pat, value, expr, ..
        } => {
            f(pat);
            if let Some(v) = value {
                f(v);
            }
            f(expr);
        }
        ast::Qualifier::Zip(qs) => qs.iter().for_each(|q| qualifier(q, f)),
        ast::Qualifier::Filter(e) => f(e),
    }
}

/// The direct sub-expressions of `e`, to rewrite in place (clauses' patterns,
/// guards and bodies included).
pub(crate) fn children_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        K::Tuple(v) | K::Block(v) => v.iter_mut().for_each(&mut *f),
        K::List { elems, tail } => {
            elems.iter_mut().for_each(&mut *f);
            if let Some(t) = tail {
                f(t);
            }
        }
        K::Binary(elems) => elems.iter_mut().for_each(|b| {
            f(&mut b.value);
            if let Some(s) = &mut b.size {
                f(s);
            }
        }),
        K::Comprehension {
            body, qualifiers, ..
        } => {
            f(body);
            for q in qualifiers {
                qualifier_mut(q, f);
            }
        }
        K::Map { base, fields } => {
            if let Some(b) = base {
                f(b);
            }
            fields.iter_mut().for_each(|m| {
                f(&mut m.key);
                f(&mut m.value);
            });
        }
        K::Record(r) => {
            if let Some(b) = &mut r.base {
                f(b);
            }
            r.fields.iter_mut().for_each(|x| f(&mut x.value));
        }
        K::RecordAccess(r) => f(&mut r.base),
        K::Call { callee, args } => {
            f(callee);
            args.iter_mut().for_each(&mut *f);
        }
        K::Remote { module, function } => {
            f(module);
            f(function);
        }
        K::Op(_, a, b)
        | K::Andalso(a, b)
        | K::Orelse(a, b)
        | K::Match(a, b)
        | K::MaybeMatch(a, b)
        | K::Send(a, b) => {
            f(a);
            f(b);
        }
        K::UnOp(_, a) | K::Catch(a) => f(a),
        K::Case { arg, clauses } => {
            f(arg);
            clauses.iter_mut().for_each(|c| clause_mut(c, f));
        }
        K::If(clauses) => clauses.iter_mut().for_each(|c| clause_mut(c, f)),
        K::Receive(r) => {
            r.clauses.iter_mut().for_each(|c| clause_mut(c, f));
            if let Some(a) = &mut r.after {
                f(&mut a.timeout);
                a.body.iter_mut().for_each(&mut *f);
            }
        }
        K::Try(t) => {
            t.body.iter_mut().for_each(&mut *f);
            t.of_clauses.iter_mut().for_each(|c| clause_mut(c, f));
            for c in &mut t.catch_clauses {
                c.class
                    .iter_mut()
                    .chain(std::iter::once(&mut c.reason))
                    .chain(c.stack.iter_mut())
                    .chain(c.guard.iter_mut().flatten())
                    .chain(c.body.iter_mut())
                    .for_each(&mut *f);
            }
            t.after.iter_mut().flatten().for_each(&mut *f);
        }
        K::Fun(fun) => fun.clauses.iter_mut().for_each(|c| clause_mut(c, f)),
        K::FunRef {
            module,
            name,
            arity,
        } => {
            if let Some(m) = module {
                f(m);
            }
            f(name);
            f(arity);
        }
        K::Maybe(m) => {
            m.body.iter_mut().for_each(&mut *f);
            m.else_clauses
                .iter_mut()
                .flatten()
                .for_each(|c| clause_mut(c, f));
        }
        K::Missing
        | K::Var(_)
        | K::Atom(_)
        | K::Int(_)
        | K::Float(_)
        | K::Char(_)
        | K::String(_)
        | K::Sigil { .. }
        | K::RecordIndex(_) => {}
    }
}

fn qualifier_mut(q: &mut ast::Qualifier, f: &mut dyn FnMut(&mut Expr)) {
    match q {
        ast::Qualifier::Generator {
            pat, value, expr, ..
        } => {
            f(pat);
            if let Some(v) = value {
                f(v);
            }
            f(expr);
        }
        ast::Qualifier::Zip(qs) => qs.iter_mut().for_each(|q| qualifier_mut(q, f)),
        ast::Qualifier::Filter(e) => f(e),
    }
}

/// The patterns, guards and body of a clause, to rewrite in place.
pub(crate) fn clause_mut(c: &mut ast::Clause, f: &mut dyn FnMut(&mut Expr)) {
    c.pats
        .iter_mut()
        .chain(c.guard.iter_mut().flatten())
        .chain(c.body.iter_mut())
        .for_each(f)
}
