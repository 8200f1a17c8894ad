//! The `qlc` parse transform (what `-include_lib("stdlib/include/qlc.hrl")`
//! names): a query list comprehension, `qlc:q([E || Qualifiers])` or
//! `qlc:q([E || Qualifiers], Options)`, becomes a query handle.
//!
//! OTP's `qlc_pt` compiles the comprehension into a plan that `qlc`
//! evaluates, with key lookups and match specifications where the
//! patterns allow them. racewit keeps what a program can observe and
//! leaves the plan out: the query becomes a `qlc:table/2` whose traverse
//! fun evaluates the comprehension when the handle is evaluated (by
//! `qlc:e/1`, a cursor or a fold: lazily, as a query is), each generator
//! reading its own handle or list through `qlc:e/1`:
//!
//! ```erlang
//! qlc:table(fun() -> [E || P <- qlc:e(G), F] end, [])
//! ```
//!
//! The answers are the query's, in its order. What differs is how a table
//! is read: every generator traverses its table in full (through the
//! table's own traverse fun, with its pre and post funs), where `qlc`
//! might have looked a key up. The `unique` option is kept (later
//! duplicates are dropped, the first kept); the other options (`cache`,
//! `join`, `lookup`, `max_lookup`) only choose a plan and are ignored, and
//! are not checked (`qlc` raises `badarg` for a bad one). What `qlc_pt`
//! refuses at compile time (a generator that uses a variable an earlier
//! generator binds) is not diagnosed: it runs as the comprehension would.
//! `qlc:q/1,2` with anything but a list comprehension is left as written
//! (the compiler refuses it; at run time `qlc` raises `badarg`).

use smol_str::SmolStr;

use crate::ast::{self, Expr, ExprKind as K};
use crate::lower::walk;
use crate::source::Span;

/// The function with its query list comprehensions rewritten, or `None`
/// when it has none.
pub(crate) fn transform_function(f: &ast::Function) -> Option<ast::Function> {
    let mut found = false;
    for c in &f.clauses {
        for e in c.pats.iter().chain(c.guard.iter().flatten()).chain(&c.body) {
            walk::visit(e, &mut |x| found |= query(x).is_some());
        }
    }
    if !found {
        return None;
    }
    let mut out = f.clone();
    let mut next = 0u32;
    for c in &mut out.clauses {
        walk::clause_mut(c, &mut |e| rewrite(e, &mut next));
    }
    Some(out)
}

/// Rewrite the queries in `e`, innermost first (a query inside another's
/// comprehension is rewritten before the outer one is).
fn rewrite(e: &mut Expr, next: &mut u32) {
    walk::children_mut(e, &mut |x| rewrite(x, next));
    if query(e).is_none() {
        return;
    }
    let K::Call { args, .. } = &mut e.kind else {
        return;
    };
    let span = e.span;
    let mut args = std::mem::take(args);
    let options = if args.len() == 2 { args.pop() } else { None };
    let Some(lc) = args.pop() else { return };
    *next += 1;
    *e = handle(lc, options, span, *next);
}

/// `qlc:q(ListComprehension)` or `qlc:q(ListComprehension, Options)`: the
/// comprehension, when `e` is such a call.
fn query(e: &Expr) -> Option<&Expr> {
    let K::Call { callee, args } = &e.kind else {
        return None;
    };
    let K::Remote { module, function } = &callee.kind else {
        return None;
    };
    match (&module.kind, &function.kind) {
        (K::Atom(m), K::Atom(f)) if m == "qlc" && f == "q" => {}
        _ => return None,
    }
    match args.as_slice() {
        [lc] | [lc, _] => match &lc.kind {
            K::Comprehension {
                kind: ast::ComprehensionKind::List,
                ..
            } => Some(lc),
            _ => None,
        },
        _ => None,
    }
}

/// The handle for one query (`n` numbers the variables it introduces, so
/// that a query inside another's fun binds its own).
fn handle(mut lc: Expr, options: Option<Expr>, span: Span, n: u32) -> Expr {
    if let K::Comprehension { qualifiers, .. } = &mut lc.kind {
        for q in qualifiers {
            read_generators(q, span);
        }
    }
    let b = Build { span };
    let body = match &options {
        None => vec![lc],
        // L = [...], case proplists:get_bool(unique, Opts) of true -> dedup(L); false -> L end
        Some(_) => {
            let list = b.var(&format!("RacewitQlcAnswers{n}"));
            let opts = b.var(&format!("RacewitQlcOptions{n}"));
            // One option may be given alone, as qlc allows.
            let listed = b.call(
                "lists",
                "flatten",
                vec![b.mk(K::List {
                    elems: vec![opts.clone()],
                    tail: None,
                })],
            );
            let unique = b.call("proplists", "get_bool", vec![b.atom("unique"), listed]);
            let choose = Expr::new(
                K::Case {
                    arg: Box::new(unique),
                    clauses: vec![
                        b.clause(vec![b.atom("true")], vec![b.dedup(list.clone(), n)]),
                        b.clause(vec![b.atom("false")], vec![list.clone()]),
                    ],
                },
                span,
            );
            vec![
                Expr::new(K::Match(Box::new(list), Box::new(lc)), span),
                choose,
            ]
        }
    };
    let traverse = b.fun(vec![], body);
    let table = b.call("qlc", "table", vec![traverse, b.nil()]);
    match options {
        None => table,
        // The options are evaluated where the query is, once.
        Some(o) => {
            let opts = b.var(&format!("RacewitQlcOptions{n}"));
            Expr::new(
                K::Call {
                    callee: Box::new(b.fun(vec![opts], vec![table])),
                    args: vec![o],
                },
                span,
            )
        }
    }
}

/// `P <- G` becomes `P <- qlc:e(G)`: a generator reads a query handle (or
/// a list, which `qlc:e/1` returns as it is).
fn read_generators(q: &mut ast::Qualifier, span: Span) {
    match q {
        ast::Qualifier::Generator {
            kind: ast::GeneratorKind::List,
            expr,
            ..
        } => {
            let g = std::mem::replace(expr, Expr::missing(span));
            *expr = Build { span }.call("qlc", "e", vec![g]);
        }
        ast::Qualifier::Zip(qs) => qs.iter_mut().for_each(|q| read_generators(q, span)),
        ast::Qualifier::Generator { .. } | ast::Qualifier::Filter(_) => {}
    }
}

/// Builds syntax at one span (the query's).
struct Build {
    span: Span,
}

impl Build {
    fn mk(&self, kind: K) -> Expr {
        Expr::new(kind, self.span)
    }

    fn atom(&self, a: &str) -> Expr {
        self.mk(K::Atom(SmolStr::new(a)))
    }

    fn var(&self, v: &str) -> Expr {
        self.mk(K::Var(SmolStr::new(v)))
    }

    fn nil(&self) -> Expr {
        self.mk(K::List {
            elems: vec![],
            tail: None,
        })
    }

    fn call(&self, m: &str, f: &str, args: Vec<Expr>) -> Expr {
        let callee = self.mk(K::Remote {
            module: Box::new(self.atom(m)),
            function: Box::new(self.atom(f)),
        });
        self.mk(K::Call {
            callee: Box::new(callee),
            args,
        })
    }

    fn clause(&self, pats: Vec<Expr>, body: Vec<Expr>) -> ast::Clause {
        ast::Clause {
            pats,
            guard: vec![],
            body,
            span: self.span,
        }
    }

    fn fun(&self, params: Vec<Expr>, body: Vec<Expr>) -> Expr {
        self.mk(K::Fun(Box::new(ast::FunExpr {
            name: None,
            clauses: vec![self.clause(params, body)],
        })))
    }

    /// `lists:reverse(lists:foldl(fun(X, Seen) -> case lists:member(X, Seen)
    /// of true -> Seen; false -> [X | Seen] end end, [], List))`: the list
    /// without later duplicates (compared with `=:=`), in its order.
    fn dedup(&self, list: Expr, n: u32) -> Expr {
        let x = self.var(&format!("RacewitQlcAnswer{n}"));
        let seen = self.var(&format!("RacewitQlcSeen{n}"));
        let member = self.call("lists", "member", vec![x.clone(), seen.clone()]);
        let keep = self.mk(K::List {
            elems: vec![x.clone()],
            tail: Some(Box::new(seen.clone())),
        });
        let step = self.mk(K::Case {
            arg: Box::new(member),
            clauses: vec![
                self.clause(vec![self.atom("true")], vec![seen.clone()]),
                self.clause(vec![self.atom("false")], vec![keep]),
            ],
        });
        let fold = self.call(
            "lists",
            "foldl",
            vec![self.fun(vec![x, seen], vec![step]), self.nil(), list],
        );
        self.call("lists", "reverse", vec![fold])
    }
}
