//! The `ms_transform` parse transform (what
//! `-include_lib("stdlib/include/ms_transform.hrl")` names): every
//! `ets:fun2ms(fun ... end)` and `dbg:fun2ms(fun ... end)` call in a
//! function becomes the match specification the compiler would put there.
//!
//! The translation, as OTP 25's `ms_transform` does it:
//! - each clause (a guard with `;` is one clause per alternative) becomes
//!   `{Head, Guards, Body}`; the fun takes one parameter: for `ets`, a
//!   variable, a tuple or a record; for `dbg`, a variable or a list (either
//!   may be matched with a variable, `V = {...}`, which then stands for
//!   `'$_'`);
//! - in the head, variables become `'$1'`, `'$2'`... in order of first
//!   appearance (`_` stays `'_'`), records become tuples with `'_'` for the
//!   fields not given (or the `_ = V` value), `#{K := V}` becomes
//!   `#{K => V}`;
//! - in guards and body, variables of the head become their `'$N'`, other
//!   variables (bound around the fun) become `{const, V}`, tuples become
//!   `{{...}}`, atoms starting with `$` become `{const, A}`, operators and
//!   calls of guard functions become `{Op, Args...}` (constant operations
//!   are folded), `object()` is `'$_'`, `bindings()` is `'$*'`, records
//!   become tuples (their defaults as declared), `R#r.f` becomes
//!   `{element, N, R}`, `#r.f` its position, and `is_record(R, r)` gets the
//!   record's size.
//!
//! What the transform rejects is a diagnostic (`E034`) worded as
//! `ms_transform` words it, at the construct it names, and the call is left
//! as written. The compiler's warning for a head variable that shadows an
//! outer one is not reported.

use std::collections::BTreeMap;

use smol_str::SmolStr;

use crate::ast::{self, Expr, ExprKind as K};
use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::ir::{BinOp, Name, UnOp};
use crate::lower::{RecordInfo, walk};
use crate::source::Span;
use crate::token::IntLit;

/// Which `fun2ms`: `ets:fun2ms/1` or `dbg:fun2ms/1`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dialect {
    Ets,
    Dbg,
}

/// A rewritten call: where its fun starts and the literal it became.
pub(crate) struct Rewritten {
    pub fun_span: Span,
    pub literal: Expr,
}

/// Rewrite the `fun2ms` calls of a function: the rewritten function when
/// it had any, the rewritten calls, and the diagnostics of those refused.
pub(crate) fn transform_function(
    f: &ast::Function,
    records: &BTreeMap<Name, RecordInfo>,
) -> Option<(ast::Function, Vec<Rewritten>, Vec<Diagnostic>)> {
    if !f.clauses.iter().any(clause_has_call) {
        return None;
    }
    let mut out = f.clone();
    let mut rw = Rewriter {
        records,
        done: Vec::new(),
        diags: Vec::new(),
    };
    for c in &mut out.clauses {
        rw.clause(c);
    }
    Some((out, rw.done, rw.diags))
}

/// A `fun2ms` call somewhere in a clause? (Most functions have none: they
/// are not copied.)
fn clause_has_call(c: &ast::Clause) -> bool {
    let mut found = false;
    let mut probe = |e: &Expr| found |= fun2ms_dialect(e).is_some();
    for e in c.guard.iter().flatten().chain(&c.body).chain(&c.pats) {
        walk::visit(e, &mut probe);
    }
    found
}

/// `ets:fun2ms(...)` or `dbg:fun2ms(...)` (one argument).
fn fun2ms_dialect(e: &Expr) -> Option<Dialect> {
    let K::Call { callee, args } = &e.kind else {
        return None;
    };
    let K::Remote { module, function } = &callee.kind else {
        return None;
    };
    let (K::Atom(m), K::Atom(f)) = (&module.kind, &function.kind) else {
        return None;
    };
    if f != "fun2ms" || args.len() != 1 {
        return None;
    }
    match m.as_str() {
        "ets" => Some(Dialect::Ets),
        "dbg" => Some(Dialect::Dbg),
        _ => None,
    }
}

struct Rewriter<'a> {
    records: &'a BTreeMap<Name, RecordInfo>,
    done: Vec<Rewritten>,
    diags: Vec<Diagnostic>,
}

impl Rewriter<'_> {
    fn clause(&mut self, c: &mut ast::Clause) {
        walk::clause_mut(c, &mut |e| self.expr(e));
    }

    /// Rewrite the calls in `e`, innermost first (a call inside the fun of
    /// another is rewritten before the outer fun is read).
    fn expr(&mut self, e: &mut Expr) {
        walk::children_mut(e, &mut |x| self.expr(x));
        let Some(dialect) = fun2ms_dialect(e) else {
            return;
        };
        let K::Call { args, .. } = &e.kind else {
            return;
        };
        let fun_span = args[0].span;
        match translate_call(dialect, e.span, &args[0], self.records) {
            Ok(literal) => {
                self.done.push(Rewritten {
                    fun_span,
                    literal: literal.clone(),
                });
                *e = literal;
            }
            Err(err) => self.diags.push(Diagnostic::error(
                DiagnosticCode::E034MatchSpecTransform,
                err.span,
                err.message,
            )),
        }
    }
}

/// A refusal, as `ms_transform` words it.
struct MsError {
    span: Span,
    message: String,
}

fn err<T>(span: Span, message: impl Into<String>) -> Result<T, MsError> {
    Err(MsError {
        span,
        message: message.into(),
    })
}

type Res<T> = Result<T, MsError>;

fn mk(kind: K, span: Span) -> Expr {
    Expr::new(kind, span)
}

fn atom(a: &str, span: Span) -> Expr {
    mk(K::Atom(SmolStr::new(a)), span)
}

fn tuple(items: Vec<Expr>, span: Span) -> Expr {
    mk(K::Tuple(items), span)
}

fn int(i: i64, span: Span) -> Expr {
    mk(K::Int(IntLit::Small(i)), span)
}

/// `{{...}}`: a tuple built by a match specification.
fn built_tuple(items: Vec<Expr>, span: Span) -> Expr {
    tuple(vec![tuple(items, span)], span)
}

fn translate_call(
    dialect: Dialect,
    call_span: Span,
    arg: &Expr,
    records: &BTreeMap<Name, RecordInfo>,
) -> Res<Expr> {
    let fun = match &arg.kind {
        K::Fun(f) if f.name.is_none() => f,
        _ => {
            return err(
                call_span,
                "Parameter of ets/dbg:fun2ms/1 is not a literal fun",
            );
        }
    };
    let tr = Translator { dialect, records };
    let mut clauses = Vec::new();
    for c in &fun.clauses {
        if c.guard.len() >= 2 {
            for alt in &c.guard {
                clauses.push(tr.clause(c, std::slice::from_ref(alt))?);
            }
        } else {
            clauses.push(tr.clause(c, &c.guard)?);
        }
    }
    Ok(mk(
        K::List {
            elems: clauses,
            tail: None,
        },
        arg.span,
    ))
}

/// Head variables and what each became (`'$N'`, `'$_'`, `'_'`).
struct Binds {
    next: u32,
    map: Vec<(SmolStr, SmolStr)>,
}

impl Binds {
    fn new() -> Binds {
        Binds {
            next: 1,
            map: vec![(SmolStr::new("_"), SmolStr::new("_"))],
        }
    }

    fn get(&self, v: &str) -> Option<&SmolStr> {
        self.map.iter().rev().find(|(n, _)| n == v).map(|(_, t)| t)
    }

    fn bind(&mut self, v: &SmolStr) -> SmolStr {
        if let Some(t) = self.get(v) {
            return t.clone();
        }
        let t = SmolStr::new(format!("${}", self.next));
        self.next += 1;
        self.map.push((v.clone(), t.clone()));
        t
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Guard,
    Body,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Guard => "guard",
            Part::Body => "body",
        }
    }
}

struct Translator<'a> {
    dialect: Dialect,
    records: &'a BTreeMap<Name, RecordInfo>,
}

impl Translator<'_> {
    fn clause(&self, c: &ast::Clause, guard: &[Vec<Expr>]) -> Res<Expr> {
        let span = c.span;
        self.check_type(c)?;
        let mut binds = Binds::new();
        let mut param = &c.pats[0];
        if let K::Match(a, b) = &param.kind {
            match (&a.kind, &b.kind) {
                (K::Var(v), _) => {
                    binds.map.push((v.clone(), SmolStr::new("$_")));
                    param = b;
                }
                (_, K::Var(v)) => {
                    binds.map.push((v.clone(), SmolStr::new("$_")));
                    param = a;
                }
                _ => {}
            }
        }
        let head = self.head(param, &mut binds)?;
        let guards = match guard {
            [] => Vec::new(),
            [tests] => tests
                .iter()
                .map(|t| self.guard_test(t, &binds))
                .collect::<Res<Vec<_>>>()?,
            _ => {
                return err(
                    span,
                    "fun with semicolon (;) in guard cannot be translated into match_spec",
                );
            }
        };
        let body = c
            .body
            .iter()
            .map(|e| self.tg(e, &binds, Part::Body))
            .collect::<Res<Vec<_>>>()?;
        let list = |elems| mk(K::List { elems, tail: None }, span);
        Ok(tuple(vec![head, list(guards), list(body)], span))
    }

    fn check_type(&self, c: &ast::Clause) -> Res<()> {
        fn fits(e: &Expr, d: Dialect) -> bool {
            match (&e.kind, d) {
                (K::Var(_), _) => true,
                (K::Tuple(_), Dialect::Ets) => true,
                (K::Record(r), Dialect::Ets) => r.base.is_none(),
                (K::List { .. }, Dialect::Dbg) => true,
                (K::Match(a, b), _) => match (&a.kind, &b.kind) {
                    (K::Var(_), _) => fits(b, d),
                    (_, K::Var(_)) => fits(a, d),
                    _ => false,
                },
                _ => false,
            }
        }
        if c.pats.len() == 1 && fits(&c.pats[0], self.dialect) {
            return Ok(());
        }
        match self.dialect {
            Dialect::Ets => err(
                c.span,
                "ets:fun2ms requires fun with single variable or tuple parameter",
            ),
            Dialect::Dbg => err(
                c.span,
                "dbg:fun2ms requires fun with single variable or list parameter",
            ),
        }
    }

    /// The fields of a record as `ms_transform` knows them: name,
    /// position in the tuple, declared default.
    fn record(&self, name: &str) -> Option<Vec<(SmolStr, i64, Expr)>> {
        let info = self.records.get(name)?;
        Some(
            info.def
                .fields
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let default = info
                        .defaults
                        .get(i)
                        .cloned()
                        .flatten()
                        .unwrap_or_else(|| atom("undefined", info.def.span));
                    (f.clone(), i as i64 + 2, default)
                })
                .collect(),
        )
    }

    fn head(&self, e: &Expr, b: &mut Binds) -> Res<Expr> {
        let span = e.span;
        match &e.kind {
            K::Record(r) if r.base.is_none() => self.head_record(r, span, b),
            K::Match(..) => err(
                span,
                "in fun head, only matching (=) on toplevel can be translated into match_spec",
            ),
            K::Atom(a) => {
                if let Some(rest) = a.strip_prefix('$')
                    && is_erlang_integer(rest)
                {
                    return err(
                        span,
                        format!(
                            "fun head contains atom {}, which conflics with reserved atoms in match_spec heads",
                            atom_text(a)
                        ),
                    );
                }
                Ok(e.clone())
            }
            K::Var(v) => Ok(atom(&b.bind(v), span)),
            K::Binary(elems) => {
                let mut out = Vec::with_capacity(elems.len());
                for el in elems {
                    if let K::Var(v) = &el.value.kind {
                        return err(
                            el.value.span,
                            format!(
                                "fun head contains bit syntax matching of variable {}, which cannot be translated into match_spec",
                                atom_text(v)
                            ),
                        );
                    }
                    let mut el = el.clone();
                    el.value = self.head(&el.value, b)?;
                    if let Some(s) = &el.size {
                        el.size = Some(self.head(s, b)?);
                    }
                    out.push(el);
                }
                Ok(mk(K::Binary(out), span))
            }
            K::Map { base: None, fields } => {
                let mut out = Vec::with_capacity(fields.len());
                for f in fields {
                    let key = self.head(&f.key, b)?;
                    let value = self.head(&f.value, b)?;
                    out.push(ast::MapField {
                        key,
                        value,
                        exact: false,
                    });
                }
                Ok(mk(
                    K::Map {
                        base: None,
                        fields: out,
                    },
                    span,
                ))
            }
            K::Tuple(v) => Ok(tuple(
                v.iter().map(|x| self.head(x, b)).collect::<Res<_>>()?,
                span,
            )),
            K::List { elems, tail } => {
                let elems = elems.iter().map(|x| self.head(x, b)).collect::<Res<_>>()?;
                let tail = match tail {
                    Some(t) => Some(Box::new(self.head(t, b)?)),
                    None => None,
                };
                Ok(mk(K::List { elems, tail }, span))
            }
            K::Op(op, x, y) => {
                let x = self.head(x, b)?;
                let y = self.head(y, b)?;
                Ok(mk(K::Op(*op, Box::new(x), Box::new(y)), span))
            }
            K::UnOp(op, x) => Ok(mk(K::UnOp(*op, Box::new(self.head(x, b)?)), span)),
            _ => Ok(e.clone()),
        }
    }

    fn head_record(&self, r: &ast::RecordExpr, span: Span, b: &mut Binds) -> Res<Expr> {
        let mut given: Vec<(SmolStr, Expr)> = Vec::new();
        let mut defaults: Vec<Expr> = Vec::new();
        for f in &r.fields {
            let v = self.head(&f.value, b)?;
            if f.name == "_" {
                defaults.push(v);
            } else {
                given.push((f.name.clone(), v));
            }
        }
        if defaults.len() > 1 {
            return err(
                span,
                format!(
                    "fun head contains already defined field '_' in record type {}",
                    atom_text(&r.name)
                ),
            );
        }
        let default = defaults.pop().unwrap_or_else(|| atom("_", span));
        let Some(fields) = self.record(&r.name) else {
            return err(
                span,
                format!(
                    "fun head contains unknown record type {}",
                    atom_text(&r.name)
                ),
            );
        };
        check_fields(&r.name, span, &given, &fields, "fun head")?;
        let mut items = vec![atom(&r.name, span)];
        for (name, _, _) in &fields {
            items.push(
                given
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| default.clone()),
            );
        }
        Ok(tuple(items, span))
    }

    /// A test at the top of a guard: the old type tests (`integer(X)`) are
    /// read as the new (`is_integer(X)`).
    fn guard_test(&self, e: &Expr, b: &Binds) -> Res<Expr> {
        if let K::Call { callee, args } = &e.kind
            && let K::Atom(f) = &callee.kind
            && let Some(new) = old_type_test(f, args.len())
        {
            let renamed = mk(
                K::Call {
                    callee: Box::new(atom(new, callee.span)),
                    args: args.clone(),
                },
                e.span,
            );
            return self.tg(&renamed, b, Part::Guard);
        }
        self.tg(e, b, Part::Guard)
    }

    fn element_error<T>(&self, span: Span, what: &str, part: Part) -> Res<T> {
        err(
            span,
            format!(
                "the language element {what} (in {}) cannot be translated into match_spec",
                part.name()
            ),
        )
    }

    fn tg(&self, e: &Expr, b: &Binds, part: Part) -> Res<Expr> {
        let span = e.span;
        let all = |xs: &[Expr]| {
            xs.iter()
                .map(|x| self.tg(x, b, part))
                .collect::<Res<Vec<_>>>()
        };
        match &e.kind {
            // Where the compiler puts a match: its left side (racewit's
            // span of a parenthesised one starts at the parenthesis).
            K::Match(left, _) => match part {
                Part::Guard => err(
                    left.span,
                    "fun with guard matching ('=' in guard) is illegal as match_spec as well",
                ),
                Part::Body => err(
                    left.span,
                    "fun with body matching ('=' in body) is illegal as match_spec",
                ),
            },
            K::Op(op, x, y) => {
                if let Some(v) = fold(e) {
                    return Ok(v);
                }
                Ok(tuple(
                    vec![
                        atom(op.erlang_name(), span),
                        self.tg(x, b, part)?,
                        self.tg(y, b, part)?,
                    ],
                    span,
                ))
            }
            K::UnOp(op, x) => {
                if let Some(v) = fold(e) {
                    return Ok(v);
                }
                Ok(tuple(
                    vec![atom(op.erlang_name(), span), self.tg(x, b, part)?],
                    span,
                ))
            }
            K::Andalso(x, y) | K::Orelse(x, y) => {
                let name = if matches!(e.kind, K::Andalso(..)) {
                    "andalso"
                } else {
                    "orelse"
                };
                Ok(tuple(
                    vec![atom(name, span), self.tg(x, b, part)?, self.tg(y, b, part)?],
                    span,
                ))
            }
            K::Send(x, y) => Ok(tuple(
                vec![atom("!", span), self.tg(x, b, part)?, self.tg(y, b, part)?],
                span,
            )),
            K::Call { callee, args } => self.tg_call(e, callee, args, b, part),
            K::List { elems, tail } => {
                let elems = all(elems)?;
                let tail = match tail {
                    Some(t) => Some(Box::new(self.tg(t, b, part)?)),
                    None => None,
                };
                Ok(mk(K::List { elems, tail }, span))
            }
            K::Tuple(items) => Ok(built_tuple(all(items)?, span)),
            K::Int(_) | K::Char(_) | K::Float(_) | K::String(_) => Ok(e.clone()),
            K::Atom(a) if a.starts_with('$') => {
                Ok(tuple(vec![atom("const", span), e.clone()], span))
            }
            K::Atom(_) => Ok(e.clone()),
            K::Var(v) => match b.get(v) {
                Some(t) => Ok(atom(t, span)),
                None => Ok(tuple(vec![atom("const", span), e.clone()], span)),
            },
            K::RecordAccess(r) => {
                // The compiler places `R#r.f` at its `#`, just after `R`.
                let at = Span::new(span.file, r.base.span.end, span.end);
                let Some(fields) = self.record(&r.name) else {
                    return bad_record(at, &r.name, part);
                };
                let Some((_, pos, _)) = fields.iter().find(|(n, _, _)| *n == r.field) else {
                    return bad_field(at, &r.name, &r.field, part);
                };
                let obj = self.tg(&r.base, b, part)?;
                Ok(tuple(
                    vec![atom("element", span), int(*pos, span), obj],
                    span,
                ))
            }
            K::RecordIndex(r) => {
                let Some(fields) = self.record(&r.name) else {
                    return bad_record(span, &r.name, part);
                };
                match fields.iter().find(|(n, _, _)| *n == r.field) {
                    Some((_, pos, _)) => Ok(int(*pos, span)),
                    None => bad_field(span, &r.name, &r.field, part),
                }
            }
            K::Record(r) => self.tg_record(r, span, b, part),
            K::Binary(elems) => {
                let mut out = Vec::with_capacity(elems.len());
                for el in elems {
                    if let K::Var(v) = &el.value.kind {
                        if b.get(v).is_some() {
                            return err(
                                el.value.span,
                                format!(
                                    "bit syntax construction with variable {} (in {}) cannot be translated into match_spec",
                                    atom_text(v),
                                    part.name()
                                ),
                            );
                        }
                        out.push(el.clone());
                        continue;
                    }
                    let mut el = el.clone();
                    el.value = self.tg(&el.value, b, part)?;
                    if let Some(s) = &el.size {
                        el.size = Some(self.tg(s, b, part)?);
                    }
                    out.push(el);
                }
                Ok(mk(K::Binary(out), span))
            }
            K::Map { base: None, fields } => {
                let mut out = Vec::with_capacity(fields.len());
                for f in fields {
                    if f.exact {
                        return self.element_error(f.key.span, "map_field_exact", part);
                    }
                    out.push(ast::MapField {
                        key: self.tg(&f.key, b, part)?,
                        value: self.tg(&f.value, b, part)?,
                        exact: false,
                    });
                }
                Ok(mk(
                    K::Map {
                        base: None,
                        fields: out,
                    },
                    span,
                ))
            }
            K::Map { base: Some(_), .. } => self.element_error(span, "map", part),
            K::Block(_) => self.element_error(span, "begin/end block", part),
            K::If(_) => self.element_error(span, "if", part),
            K::Case { .. } => self.element_error(span, "case", part),
            K::Receive(_) => self.element_error(span, "receive", part),
            K::Try(_) => self.element_error(span, "try", part),
            K::Catch(_) => self.element_error(span, "catch", part),
            K::Comprehension { kind, .. } => {
                let what = match kind {
                    ast::ComprehensionKind::List => "list comprehension",
                    ast::ComprehensionKind::Binary => "binary comprehension",
                    ast::ComprehensionKind::Map => "mc",
                };
                self.element_error(span, what, part)
            }
            K::Fun(f) => {
                let what = if f.name.is_some() { "named_fun" } else { "fun" };
                self.element_error(span, what, part)
            }
            K::FunRef { .. } => self.element_error(span, "fun", part),
            K::Remote { .. } => self.element_error(span, "external function call", part),
            K::MaybeMatch(..) => self.element_error(span, "maybe_match", part),
            K::Maybe(_) => self.element_error(span, "maybe", part),
            K::Sigil { .. } => Ok(e.clone()),
            K::Missing => Ok(e.clone()),
        }
    }

    fn tg_call(&self, e: &Expr, callee: &Expr, args: &[Expr], b: &Binds, part: Part) -> Res<Expr> {
        let span = e.span;
        let arity = args.len();
        match &callee.kind {
            K::Atom(f) => {
                match (f.as_str(), args) {
                    ("bindings", []) => return Ok(atom("$*", callee.span)),
                    ("object", []) => return Ok(atom("$_", callee.span)),
                    ("is_record", [obj, rec]) if matches!(rec.kind, K::Atom(_)) => {
                        let K::Atom(rname) = &rec.kind else {
                            unreachable!("matched an atom")
                        };
                        let obj = self.tg(obj, b, part)?;
                        let Some(fields) = self.record(rname) else {
                            return bad_record(rec.span, rname, part);
                        };
                        return Ok(tuple(
                            vec![
                                atom("is_record", callee.span),
                                obj,
                                rec.clone(),
                                int(fields.len() as i64 + 1, rec.span),
                            ],
                            span,
                        ));
                    }
                    _ => {}
                }
                if !is_ms_function(f, arity, part) {
                    return err(
                        span,
                        format!(
                            "fun containing the local function call '{}/{arity}' (called in {}) cannot be translated into match_spec",
                            atom_text(f),
                            part.name()
                        ),
                    );
                }
                let mut items = vec![atom(f, callee.span)];
                for a in args {
                    items.push(self.tg(a, b, part)?);
                }
                Ok(tuple(items, span))
            }
            K::Remote { module, function } => {
                let (K::Atom(m), K::Atom(f)) = (&module.kind, &function.kind) else {
                    return self.element_error(span, "call", part);
                };
                let remote_error = || {
                    err(
                        span,
                        format!(
                            "fun containing the remote function call '{}:{}/{arity}' (called in {}) cannot be translated into match_spec",
                            atom_text(m),
                            atom_text(f),
                            part.name()
                        ),
                    )
                };
                if m != "erlang" || !is_imported_from_erlang(f, arity) {
                    return remote_error();
                }
                let as_op = match (f.as_str(), args) {
                    ("andalso", [x, y]) => {
                        Some(K::Andalso(Box::new(x.clone()), Box::new(y.clone())))
                    }
                    ("orelse", [x, y]) => Some(K::Orelse(Box::new(x.clone()), Box::new(y.clone()))),
                    (name, [x, y]) => binop_named(name)
                        .map(|op| K::Op(op, Box::new(x.clone()), Box::new(y.clone()))),
                    (name, [x]) => unop_named(name).map(|op| K::UnOp(op, Box::new(x.clone()))),
                    _ => None,
                };
                let local = match as_op {
                    Some(kind) => mk(kind, function.span),
                    None => mk(
                        K::Call {
                            callee: Box::new(mk(K::Atom(f.clone()), function.span)),
                            args: args.to_vec(),
                        },
                        span,
                    ),
                };
                self.tg(&local, b, part)
            }
            _ => self.element_error(span, "call", part),
        }
    }

    fn tg_record(&self, r: &ast::RecordExpr, span: Span, b: &Binds, part: Part) -> Res<Expr> {
        let mut given: Vec<(SmolStr, Expr)> = Vec::new();
        let mut defaults: Vec<Expr> = Vec::new();
        // An update: `V#r{...}` (only of a variable).
        let base = match &r.base {
            None => None,
            Some(v) if matches!(v.kind, K::Var(_)) => Some(self.tg(v, b, part)?),
            Some(_) => return self.element_error(span, "record", part),
        };
        for f in &r.fields {
            let v = self.tg(&f.value, b, part)?;
            if f.name == "_" {
                if base.is_some() {
                    return err(span, "Unknown error code 7");
                }
                defaults.push(v);
            } else {
                given.push((f.name.clone(), v));
            }
        }
        if defaults.len() > 1 {
            return err(
                span,
                format!(
                    "fun {} contains already defined field '_' in record type {}",
                    part.name(),
                    atom_text(&r.name)
                ),
            );
        }
        let default = defaults.pop();
        let Some(fields) = self.record(&r.name) else {
            return bad_record(span, &r.name, part);
        };
        let mut items = vec![atom(&r.name, span)];
        for (name, pos, declared) in &fields {
            let v = match given.iter().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None => match (&base, &default) {
                    (Some(var), _) => tuple(
                        vec![atom("element", var.span), int(*pos, var.span), var.clone()],
                        var.span,
                    ),
                    (None, Some(d)) => d.clone(),
                    (None, None) => declared.clone(),
                },
            };
            items.push(v);
        }
        check_fields(
            &r.name,
            span,
            &given,
            &fields,
            &format!("fun {}", part.name()),
        )?;
        Ok(built_tuple(items, span))
    }
}

/// A field given twice, or one the record does not have.
fn check_fields(
    rname: &str,
    span: Span,
    given: &[(SmolStr, Expr)],
    fields: &[(SmolStr, i64, Expr)],
    place: &str,
) -> Res<()> {
    // `ms_transform` looks at the fields last written first.
    for (i, (name, _)) in given.iter().enumerate().rev() {
        if given[..i].iter().any(|(n, _)| n == name) {
            return err(
                span,
                format!(
                    "{place} contains already defined field {} in record type {}",
                    atom_text(name),
                    atom_text(rname)
                ),
            );
        }
    }
    for (name, _) in given.iter().rev() {
        if !fields.iter().any(|(n, _, _)| n == name) {
            return err(
                span,
                format!(
                    "{place} contains reference to unknown field {} in record type {}",
                    atom_text(name),
                    atom_text(rname)
                ),
            );
        }
    }
    Ok(())
}

fn bad_record<T>(span: Span, rname: &str, part: Part) -> Res<T> {
    err(
        span,
        format!(
            "fun {} contains unknown record type {}",
            part.name(),
            atom_text(rname)
        ),
    )
}

fn bad_field<T>(span: Span, rname: &str, field: &str, part: Part) -> Res<T> {
    err(
        span,
        format!(
            "fun {} contains reference to unknown field {} in record type {}",
            part.name(),
            atom_text(field),
            atom_text(rname)
        ),
    )
}

/// Would `list_to_integer/1` read this text?
fn is_erlang_integer(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
}

/// An atom as `~w` writes it.
pub(crate) fn atom_text(a: &str) -> String {
    let mut chars = a.chars();
    let bare = matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@')
        && (crate::lex::keyword(a).is_none() || matches!(a, "maybe" | "else"));
    if bare {
        return a.to_string();
    }
    let mut s = String::from("'");
    for c in a.chars() {
        match c {
            '\'' => s.push_str("\\'"),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            c => s.push(c),
        }
    }
    s.push('\'');
    s
}

fn old_type_test(f: &str, arity: usize) -> Option<&'static str> {
    Some(match (f, arity) {
        ("atom", 1) => "is_atom",
        ("float", 1) => "is_float",
        ("integer", 1) => "is_integer",
        ("list", 1) => "is_list",
        ("number", 1) => "is_number",
        ("pid", 1) => "is_pid",
        ("port", 1) => "is_port",
        ("reference", 1) => "is_reference",
        ("tuple", 1) => "is_tuple",
        ("binary", 1) => "is_binary",
        ("function", 1) => "is_function",
        ("record", 2) => "is_record",
        _ => return None,
    })
}

fn bool_test(f: &str, a: usize) -> bool {
    matches!(
        (f, a),
        (
            "is_atom"
                | "is_float"
                | "is_integer"
                | "is_list"
                | "is_number"
                | "is_pid"
                | "is_port"
                | "is_reference"
                | "is_tuple"
                | "is_map"
                | "is_binary"
                | "is_function",
            1
        ) | ("is_map_key" | "is_record", 2)
            | ("is_seq_trace", 0)
    )
}

fn real_guard_function(f: &str, a: usize) -> bool {
    matches!(
        (f, a),
        (
            "abs"
                | "hd"
                | "length"
                | "node"
                | "round"
                | "size"
                | "bit_size"
                | "byte_size"
                | "map_size"
                | "tl"
                | "trunc"
                | "float",
            1
        ) | ("element" | "map_get" | "binary_part", 2)
            | ("binary_part", 3)
            | ("node" | "self", 0)
    )
}

fn action_function(f: &str, a: usize) -> bool {
    matches!(
        (f, a),
        (
            "set_seq_token" | "enable_trace" | "disable_trace" | "trace",
            2
        ) | (
            "get_seq_token" | "return_trace" | "exception_trace" | "process_dump" | "caller",
            0
        ) | (
            "message" | "enable_trace" | "disable_trace" | "display" | "set_tcw" | "silent",
            1
        ) | ("trace", 3)
    )
}

fn is_ms_function(f: &str, a: usize, part: Part) -> bool {
    let guard_function = real_guard_function(f, a) || (f, a) == ("get_tcw", 0);
    guard_function || bool_test(f, a) || (part == Part::Body && action_function(f, a))
}

fn is_operator(f: &str, a: usize) -> bool {
    match a {
        1 => unop_named(f).is_some(),
        2 => binop_named(f).is_some() || matches!(f, "andalso" | "orelse"),
        _ => false,
    }
}

fn is_imported_from_erlang(f: &str, a: usize) -> bool {
    real_guard_function(f, a) || bool_test(f, a) || is_operator(f, a)
}

fn binop_named(f: &str) -> Option<BinOp> {
    Some(match f {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::FDiv,
        "div" => BinOp::Div,
        "rem" => BinOp::Rem,
        "band" => BinOp::Band,
        "bor" => BinOp::Bor,
        "bxor" => BinOp::Bxor,
        "bsl" => BinOp::Bsl,
        "bsr" => BinOp::Bsr,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "xor" => BinOp::Xor,
        ">" => BinOp::Greater,
        ">=" => BinOp::GreaterEq,
        "<" => BinOp::Less,
        "=<" => BinOp::LessEq,
        "==" => BinOp::Eq,
        "=:=" => BinOp::ExactEq,
        "/=" => BinOp::NotEq,
        "=/=" => BinOp::ExactNotEq,
        _ => return None,
    })
}

fn unop_named(f: &str) -> Option<UnOp> {
    Some(match f {
        "+" => UnOp::Plus,
        "-" => UnOp::Neg,
        "not" => UnOp::Not,
        "bnot" => UnOp::Bnot,
        _ => return None,
    })
}

/// A constant value of `erl_eval:partial_eval/1`'s kinds.
#[derive(Clone, Copy, PartialEq)]
enum Val<'a> {
    Int(i64),
    Float(f64),
    Atom(&'a str),
}

/// An operator expression on constants folded as `erl_eval:partial_eval/1`
/// folds it (numbers and atoms; racewit leaves alone what would need a
/// big integer, and operands that are tuples or lists).
fn fold(e: &Expr) -> Option<Expr> {
    let v = eval_const(e)?;
    Some(match v {
        Val::Int(i) => int(i, e.span),
        Val::Float(f) => mk(K::Float(f), e.span),
        Val::Atom(a) => atom(a, e.span),
    })
}

fn eval_const(e: &Expr) -> Option<Val<'_>> {
    match &e.kind {
        K::Int(IntLit::Small(i)) => Some(Val::Int(*i)),
        K::Char(c) => Some(Val::Int(i64::from(*c))),
        K::Float(f) => Some(Val::Float(*f)),
        K::Atom(a) => Some(Val::Atom(a)),
        K::UnOp(op, x) => {
            let x = eval_const(x)?;
            match (op, x) {
                (UnOp::Neg, Val::Int(i)) => i.checked_neg().map(Val::Int),
                (UnOp::Neg, Val::Float(f)) => Some(Val::Float(-f)),
                (UnOp::Plus, Val::Int(_) | Val::Float(_)) => Some(x),
                (UnOp::Not, Val::Atom("true")) => Some(Val::Atom("false")),
                (UnOp::Not, Val::Atom("false")) => Some(Val::Atom("true")),
                (UnOp::Bnot, Val::Int(i)) => Some(Val::Int(!i)),
                _ => None,
            }
        }
        K::Op(op, x, y) => binop_const(*op, eval_const(x)?, eval_const(y)?),
        _ => None,
    }
}

fn binop_const<'a>(op: BinOp, x: Val<'a>, y: Val<'a>) -> Option<Val<'a>> {
    use Val::{Atom, Float, Int};
    let num = |v: Val<'_>| match v {
        Int(i) => Some(i as f64),
        Float(f) => Some(f),
        Atom(_) => None,
    };
    let boolean = |v: Val<'_>| match v {
        Atom("true") => Some(true),
        Atom("false") => Some(false),
        _ => None,
    };
    let truth = |b: bool| Atom(if b { "true" } else { "false" });
    Some(match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => match (x, y) {
            (Int(a), Int(b)) => Int(match op {
                BinOp::Add => a.checked_add(b)?,
                BinOp::Sub => a.checked_sub(b)?,
                _ => a.checked_mul(b)?,
            }),
            _ => {
                let (a, b) = (num(x)?, num(y)?);
                Float(match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    _ => a * b,
                })
            }
        },
        BinOp::FDiv => {
            let (a, b) = (num(x)?, num(y)?);
            if b == 0.0 {
                return None;
            }
            Float(a / b)
        }
        BinOp::Div
        | BinOp::Rem
        | BinOp::Band
        | BinOp::Bor
        | BinOp::Bxor
        | BinOp::Bsl
        | BinOp::Bsr => {
            let (Int(a), Int(b)) = (x, y) else {
                return None;
            };
            Int(match op {
                BinOp::Div => a.checked_div(b)?,
                BinOp::Rem => a.checked_rem(b)?,
                BinOp::Band => a & b,
                BinOp::Bor => a | b,
                BinOp::Bxor => a ^ b,
                BinOp::Bsl => a.checked_shl(u32::try_from(b).ok().filter(|s| *s < 62)?)?,
                _ => a >> b.clamp(0, 63),
            })
        }
        BinOp::And => truth(boolean(x)? && boolean(y)?),
        BinOp::Or => truth(boolean(x)? || boolean(y)?),
        BinOp::Xor => truth(boolean(x)? ^ boolean(y)?),
        BinOp::Eq
        | BinOp::NotEq
        | BinOp::Less
        | BinOp::LessEq
        | BinOp::Greater
        | BinOp::GreaterEq
        | BinOp::ExactEq
        | BinOp::ExactNotEq => {
            // Numbers only (atoms compare by name after numbers; leave
            // them alone rather than order them here).
            let ord = match (x, y) {
                (Int(a), Int(b)) => a.cmp(&b),
                _ => num(x)?.partial_cmp(&num(y)?)?,
            };
            let exact_same = matches!((x, y), (Int(_), Int(_)) | (Float(_), Float(_)));
            truth(match op {
                BinOp::Eq => ord.is_eq(),
                BinOp::NotEq => !ord.is_eq(),
                BinOp::ExactEq => exact_same && ord.is_eq(),
                BinOp::ExactNotEq => !(exact_same && ord.is_eq()),
                BinOp::Less => ord.is_lt(),
                BinOp::LessEq => ord.is_le(),
                BinOp::Greater => ord.is_gt(),
                _ => ord.is_ge(),
            })
        }
        BinOp::Append | BinOp::Subtract => return None,
    })
}

/// A rewritten call's literal as Erlang text, for [`crate::ir::Fun2ms`]:
/// constants as `~w` writes them (a string as its list of codes), variables
/// (the `{const, V}` of an outer variable) by name, operators left in a
/// head as `op(Name, Args...)`; a bit-syntax element shows its value only,
/// and any other expression (a record default that is not a constant) is
/// `?`.
pub(crate) fn literal_text(e: &Expr) -> String {
    let mut out = String::new();
    write_literal(e, &mut out);
    out
}

fn write_literal(e: &Expr, out: &mut String) {
    let join = |items: &[Expr], out: &mut String| {
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_literal(x, out);
        }
    };
    match &e.kind {
        K::Atom(a) => out.push_str(&atom_text(a)),
        K::Int(IntLit::Small(i)) => out.push_str(&i.to_string()),
        K::Int(IntLit::Big(b)) => out.push_str(&b.to_string()),
        K::Char(c) => out.push_str(&c.to_string()),
        K::Float(f) => out.push_str(&format!("{f:?}")),
        K::Var(v) => out.push_str(v),
        K::String(s) if s.is_empty() => out.push_str("[]"),
        K::String(s) => {
            out.push('[');
            for (i, c) in s.chars().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&(c as u32).to_string());
            }
            out.push(']');
        }
        K::Tuple(items) => {
            out.push('{');
            join(items, out);
            out.push('}');
        }
        K::List { elems, tail } => {
            out.push('[');
            join(elems, out);
            if let Some(t) = tail {
                out.push('|');
                write_literal(t, out);
            }
            out.push(']');
        }
        K::Map { base: None, fields } => {
            out.push_str("#{");
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_literal(&f.key, out);
                out.push_str("=>");
                write_literal(&f.value, out);
            }
            out.push('}');
        }
        K::Binary(elems) => {
            out.push_str("<<");
            for (i, el) in elems.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_literal(&el.value, out);
            }
            out.push_str(">>");
        }
        K::UnOp(UnOp::Neg, x) if matches!(x.kind, K::Int(_)) => {
            out.push('-');
            write_literal(x, out);
        }
        K::UnOp(op, x) => {
            out.push_str(&format!("op({},", atom_text(op.erlang_name())));
            write_literal(x, out);
            out.push(')');
        }
        K::Op(op, x, y) => {
            out.push_str(&format!("op({},", atom_text(op.erlang_name())));
            write_literal(x, out);
            out.push(',');
            write_literal(y, out);
            out.push(')');
        }
        _ => out.push('?'),
    }
}
