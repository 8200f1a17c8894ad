//! Lowering of one function: expressions, patterns, guards and scopes.
//!
//! Scopes: `visible` maps each name in scope to its [`VarId`]. A *frame*
//! (one per function clause, fun clause and comprehension) remembers which
//! id it gave each name, so sibling branches of a `case` that bind the same
//! name get the same id and the name stays bound after the `case`. Fun heads
//! and generator patterns bind fresh variables (shadowing).

use std::collections::BTreeSet;

use num_traits::ToPrimitive;
use rustc_hash::{FxHashMap, FxHashSet};
use smol_str::SmolStr;

use super::ModuleCtx;
use crate::ast::{self, ExprKind as K};
use crate::diagnostic::DiagnosticCode;
use crate::ir::{
    After, BinOp, BinSeg, BinType, Body, BodySourceMap, CallSite, CallSiteId, CallTarget, CaseKind,
    Clause, ClauseId, Comprehension, ComprehensionKind, Endian, Expr, ExprId, FunExpr, FunId,
    FunName, Function, Generator, GeneratorKind, Literal, MFA, MapField, MaybeExpr, Name, Pat,
    PatId, Qualifier, TryExpr, UnOp, VarId,
};
use crate::source::Span;
use crate::token::IntLit;

pub(crate) fn lower_function(ctx: &mut ModuleCtx, f: &ast::Function, exported: bool) -> Function {
    let mut lw = BodyLowerer {
        m: ctx,
        fun: FunName {
            name: f.name.clone(),
            arity: f.arity,
        },
        body: Body::default(),
        sm: BodySourceMap::default(),
        visible: FxHashMap::default(),
        frames: Vec::new(),
        fun_scopes: Vec::new(),
        fresh: None,
    };
    // A huge function's arenas are sized once from its tokens (about one
    // expression per token; trimmed below), not grown by doubling.
    let tokens = lw.m.form_tokens;
    if tokens >= crate::growth::BIG {
        lw.body.exprs.reserve_exact(tokens);
        lw.sm.exprs.reserve_exact(tokens);
    }
    let first_site = lw.m.call_sites.len();
    let first_fun = lw.m.fun_count;
    let mut clauses = Vec::with_capacity(f.clauses.len());
    for c in &f.clauses {
        lw.visible.clear();
        lw.frames.push(FxHashMap::default());
        let pats = c.pats.iter().map(|p| lw.pat(p)).collect();
        let guard = lw.guard(&c.guard);
        let body = lw.exprs(&c.body, c.span);
        lw.frames.pop();
        clauses.push(lw.clause(Clause { pats, guard, body }, c.span));
    }
    lw.renumber_in_source_order(first_site, first_fun);
    // The arenas stay for the whole run: no spare capacity.
    let (body, sm) = (&mut lw.body, &mut lw.sm);
    body.exprs.shrink_to_fit();
    body.pats.shrink_to_fit();
    body.clauses.shrink_to_fit();
    body.vars.shrink_to_fit();
    sm.exprs.shrink_to_fit();
    sm.pats.shrink_to_fit();
    sm.clauses.shrink_to_fit();
    sm.vars.shrink_to_fit();
    Function {
        name: f.name.clone(),
        arity: f.arity,
        exported,
        clauses,
        body: lw.body,
        source_map: lw.sm,
        span: f.span,
        test_only: false,
    }
}

struct FunScope {
    /// Variables with a smaller id belong to an enclosing scope.
    first_var: u32,
    free: BTreeSet<VarId>,
}

struct BodyLowerer<'m> {
    m: &'m mut ModuleCtx,
    fun: FunName,
    body: Body,
    sm: BodySourceMap,
    visible: FxHashMap<Name, VarId>,
    frames: Vec<FxHashMap<Name, VarId>>,
    fun_scopes: Vec<FunScope>,
    /// While lowering a fun head or a generator pattern: the names bound so
    /// far in it (every other variable is new, shadowing any outer one).
    fresh: Option<FxHashSet<Name>>,
}

fn atom(s: &str) -> Literal {
    Literal::Atom(Name::new(s))
}

/// The permutation that sorts items by source position: `keys[i]` is item
/// `i`'s span; an item from another file (a header) sorts with the item
/// before it. Returns each item's new index.
fn source_order(keys: &[Span], file: crate::source::FileId) -> Vec<usize> {
    let mut last = 0;
    let mut order: Vec<(u32, usize)> = keys
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if s.file == file {
                last = s.start;
            }
            (last, i)
        })
        .collect();
    order.sort();
    let mut new_index = vec![0; keys.len()];
    for (j, &(_, i)) in order.iter().enumerate() {
        new_index[i] = j;
    }
    new_index
}

impl BodyLowerer<'_> {
    /// Call sites and funs are numbered as lowering meets them, which is not
    /// always source order (a comprehension's body comes before its
    /// qualifiers in the text but is lowered after them): renumber this
    /// function's ones by position.
    fn renumber_in_source_order(&mut self, first_site: usize, first_fun: u32) {
        let file = self.m.file;
        let site_spans: Vec<Span> = self.m.call_sites[first_site..]
            .iter()
            .map(|s| s.span)
            .collect();
        let site_index = source_order(&site_spans, file);
        let old: Vec<CallSite> = self.m.call_sites.drain(first_site..).collect();
        let mut sites: Vec<Option<CallSite>> = vec![None; old.len()];
        for (i, s) in old.into_iter().enumerate() {
            sites[site_index[i]] = Some(s);
        }
        self.m.call_sites.extend(sites.into_iter().flatten());

        let mut fun_spans: Vec<(u32, Span)> = Vec::new();
        for (i, e) in self.body.exprs.iter().enumerate() {
            if let Expr::Fun(f) = e {
                fun_spans.push((f.id.0, self.sm.exprs[i]));
            }
        }
        fun_spans.sort_by_key(|&(id, _)| id);
        let spans: Vec<Span> = fun_spans.iter().map(|&(_, s)| s).collect();
        let fun_index = source_order(&spans, file);

        for e in &mut self.body.exprs {
            match e {
                Expr::Call { site, .. } | Expr::Send { site, .. } => {
                    if let Some(&j) = site
                        .index()
                        .checked_sub(first_site)
                        .and_then(|k| site_index.get(k))
                    {
                        *site = CallSiteId((first_site + j) as u32);
                    }
                }
                Expr::Fun(f) => {
                    if let Some(&j) =
                        f.id.0
                            .checked_sub(first_fun)
                            .and_then(|k| fun_index.get(k as usize))
                    {
                        f.id = FunId(first_fun + j as u32);
                    }
                }
                _ => {}
            }
        }
    }

    // ---- arenas -------------------------------------------------------

    fn alloc(&mut self, e: Expr, span: Span) -> ExprId {
        self.body.exprs.push(e);
        self.sm.exprs.push(span);
        ExprId(self.body.exprs.len() as u32 - 1)
    }

    fn alloc_pat(&mut self, p: Pat, span: Span) -> PatId {
        self.body.pats.push(p);
        self.sm.pats.push(span);
        PatId(self.body.pats.len() as u32 - 1)
    }

    fn clause(&mut self, c: Clause, span: Span) -> ClauseId {
        self.body.clauses.push(c);
        self.sm.clauses.push(span);
        ClauseId(self.body.clauses.len() as u32 - 1)
    }

    fn new_var(&mut self, name: &str, span: Span) -> VarId {
        self.body.vars.push(Name::new(name));
        self.sm.vars.push(span);
        VarId(self.body.vars.len() as u32 - 1)
    }

    fn lit(&mut self, l: Literal, span: Span) -> ExprId {
        self.alloc(Expr::Lit(l), span)
    }

    fn site(&mut self, span: Span, target: Option<MFA>) -> CallSiteId {
        self.m.call_sites.push(CallSite {
            span,
            function: self.fun.clone(),
            target,
        });
        CallSiteId(self.m.call_sites.len() as u32 - 1)
    }

    fn missing(&mut self, span: Span, code: DiagnosticCode, msg: String) -> ExprId {
        self.m.error(code, span, msg);
        self.alloc(Expr::Missing, span)
    }

    fn note_use(&mut self, id: VarId) {
        for s in self.fun_scopes.iter_mut().rev() {
            if id.0 < s.first_var {
                s.free.insert(id);
            } else {
                break;
            }
        }
    }

    // ---- scopes -------------------------------------------------------

    /// Lower `n` alternative branches; afterwards, the names bound in every
    /// branch stay bound.
    fn branches<R>(&mut self, n: usize, mut f: impl FnMut(&mut Self, usize) -> R) -> Vec<R> {
        let base = self.visible.clone();
        let mut outs: Vec<FxHashMap<Name, VarId>> = Vec::with_capacity(n);
        let mut results = Vec::with_capacity(n);
        for i in 0..n {
            self.visible = base.clone();
            results.push(f(self, i));
            outs.push(std::mem::take(&mut self.visible));
        }
        self.visible = base;
        if let Some((first, rest)) = outs.split_first() {
            for (name, id) in first {
                if !self.visible.contains_key(name) && rest.iter().all(|o| o.get(name) == Some(id))
                {
                    self.visible.insert(name.clone(), *id);
                }
            }
        }
        results
    }

    fn bind_var(&mut self, name: &Name, span: Span) -> Pat {
        if let Some(fresh) = &mut self.fresh {
            if fresh.contains(name) {
                return Pat::Bound(self.visible[name]);
            }
            fresh.insert(name.clone());
            let id = self.new_var(name, span);
            self.visible.insert(name.clone(), id);
            return Pat::Var(id);
        }
        if let Some(&id) = self.visible.get(name) {
            self.note_use(id);
            return Pat::Bound(id);
        }
        let reuse = self.frames.last().and_then(|f| f.get(name).copied());
        let id = match reuse {
            Some(id) => id,
            None => {
                let id = self.new_var(name, span);
                if let Some(f) = self.frames.last_mut() {
                    f.insert(name.clone(), id);
                }
                id
            }
        };
        self.visible.insert(name.clone(), id);
        Pat::Var(id)
    }

    // ---- expressions --------------------------------------------------

    /// A clause body or `begin ... end`: one expression or a block.
    fn exprs(&mut self, es: &[ast::Expr], span: Span) -> ExprId {
        match es {
            [] => self.alloc(Expr::Missing, span),
            [one] => self.expr(one),
            many => {
                let ids = many.iter().map(|e| self.expr(e)).collect();
                let span = many[0].span.cover(many[many.len() - 1].span);
                self.alloc(Expr::Block(ids), span)
            }
        }
    }

    fn guard(&mut self, g: &[Vec<ast::Expr>]) -> Vec<Vec<ExprId>> {
        g.iter()
            .map(|alt| alt.iter().map(|t| self.expr(t)).collect())
            .collect()
    }

    fn expr(&mut self, e: &ast::Expr) -> ExprId {
        let span = e.span;
        match &e.kind {
            K::Missing => self.alloc(Expr::Missing, span),
            K::Var(v) => match self.visible.get(v).copied() {
                Some(id) if v != "_" => {
                    self.note_use(id);
                    self.alloc(Expr::Var(id), span)
                }
                _ => self.missing(
                    span,
                    DiagnosticCode::E031UnboundVar,
                    format!("variable {v} is unbound"),
                ),
            },
            K::Atom(a) => self.lit(Literal::Atom(a.clone()), span),
            K::Int(i) => self.lit(int_lit(i), span),
            K::Float(f) => self.lit(Literal::Float(*f), span),
            K::Char(c) => self.lit(Literal::Int(i64::from(*c)), span),
            K::String(s) => self.string(s, span),
            K::Sigil { prefix, value } => match prefix {
                Some('s' | 'S') => self.string(value, span),
                _ => {
                    let segs = value
                        .bytes()
                        .map(|b| {
                            let v = self.lit(Literal::Int(i64::from(b)), span);
                            byte_seg(v)
                        })
                        .collect();
                    self.alloc(Expr::Binary(segs), span)
                }
            },
            K::Tuple(es) => {
                let ids = es.iter().map(|e| self.expr(e)).collect();
                self.alloc(Expr::Tuple(ids), span)
            }
            K::List { elems, tail } => {
                let ids: Vec<ExprId> = elems.iter().map(|e| self.expr(e)).collect();
                let mut acc = match tail {
                    Some(t) => self.expr(t),
                    None => self.alloc(Expr::Nil, Span::new(span.file, span.end, span.end)),
                };
                for (el, id) in elems.iter().zip(ids).rev() {
                    acc = self.alloc(Expr::Cons(id, acc), el.span.cover(span));
                }
                acc
            }
            K::Binary(elems) => {
                let segs = self.bin_segs(
                    elems,
                    |lw, v| lw.expr(v),
                    |lw, c, s| lw.lit(Literal::Int(i64::from(c)), s),
                );
                self.alloc(Expr::Binary(segs), span)
            }
            K::Comprehension {
                kind,
                body,
                qualifiers,
            } => self.comprehension(*kind, body, qualifiers, span),
            K::Map { base, fields } => {
                let base = base.as_ref().map(|b| self.expr(b));
                let fields = fields
                    .iter()
                    .map(|f| {
                        let key = self.expr(&f.key);
                        let value = self.expr(&f.value);
                        MapField {
                            key,
                            value,
                            exact: f.exact,
                        }
                    })
                    .collect();
                self.alloc(Expr::Map { base, fields }, span)
            }
            K::Record(r) => match &r.base {
                None => self.record_new(&r.name, &r.fields, span),
                Some(b) => self.record_update(b, &r.name, &r.fields, span),
            },
            K::RecordAccess(r) => self.record_access(&r.base, &r.name, &r.field, span),
            K::RecordIndex(r) => match self.field_index(&r.name, &r.field, span) {
                Some(i) => self.lit(Literal::Int(i as i64 + 2), span),
                None => self.alloc(Expr::Missing, span),
            },
            K::Call { callee, args } => self.call(callee, args, span),
            K::Remote { .. } => self.missing(
                span,
                DiagnosticCode::E010Syntax,
                "expected '(' after Module:Function".to_string(),
            ),
            K::Op(op, a, b) => {
                let a = self.expr(a);
                let b = self.expr(b);
                self.alloc(Expr::Op(*op, a, b), span)
            }
            K::UnOp(op, a) => {
                if let Some(l) = fold_literal(e) {
                    return self.lit(l, span);
                }
                let a = self.expr(a);
                self.alloc(Expr::UnOp(*op, a), span)
            }
            K::Andalso(a, b) | K::Orelse(a, b) => {
                let is_and = matches!(e.kind, K::Andalso(..));
                let arg = self.expr(a);
                let clauses = self.branches(2, |lw, i| {
                    let (pat_v, take_rhs) = if is_and {
                        (["true", "false"][i], i == 0)
                    } else {
                        (["true", "false"][i], i == 1)
                    };
                    let p = lw.alloc_pat(Pat::Lit(atom(pat_v)), a.span);
                    let body = if take_rhs {
                        lw.expr(b)
                    } else {
                        lw.lit(atom(pat_v), a.span)
                    };
                    lw.clause(
                        Clause {
                            pats: vec![p],
                            guard: Vec::new(),
                            body,
                        },
                        span,
                    )
                });
                self.alloc(
                    Expr::Case {
                        kind: CaseKind::Boolean,
                        arg,
                        clauses,
                    },
                    span,
                )
            }
            K::Match(p, v) => {
                let v = self.expr(v);
                let p = self.pat(p);
                self.alloc(Expr::Match(p, v), span)
            }
            K::MaybeMatch(p, v) => {
                let v = self.expr(v);
                let p = self.pat(p);
                self.alloc(Expr::MaybeMatch(p, v), span)
            }
            K::Send(to, msg) => {
                let target = MFA {
                    module: Name::new("erlang"),
                    name: Name::new("!"),
                    arity: 2,
                };
                let site = self.site(span, Some(target));
                let to = self.expr(to);
                let msg = self.expr(msg);
                self.alloc(Expr::Send { site, to, msg }, span)
            }
            K::Catch(x) => {
                let saved = self.visible.clone();
                let x = self.expr(x);
                self.visible = saved;
                self.alloc(Expr::Catch(x), span)
            }
            K::Block(es) => {
                let ids = es.iter().map(|e| self.expr(e)).collect();
                self.alloc(Expr::Block(ids), span)
            }
            K::Case { arg, clauses } => {
                let arg = self.expr(arg);
                let clauses = self.cr_clauses(clauses);
                self.alloc(
                    Expr::Case {
                        kind: CaseKind::Case,
                        arg,
                        clauses,
                    },
                    span,
                )
            }
            K::If(clauses) => {
                let arg = self.alloc(Expr::Nil, span);
                let clauses = self.branches(clauses.len(), |lw, i| {
                    let c = &clauses[i];
                    let p = lw.alloc_pat(Pat::Wild, c.span);
                    let guard = lw.guard(&c.guard);
                    let body = lw.exprs(&c.body, c.span);
                    lw.clause(
                        Clause {
                            pats: vec![p],
                            guard,
                            body,
                        },
                        c.span,
                    )
                });
                self.alloc(
                    Expr::Case {
                        kind: CaseKind::If,
                        arg,
                        clauses,
                    },
                    span,
                )
            }
            K::Receive(r) => {
                let ast::ReceiveExpr { clauses, after } = &**r;
                let n = clauses.len() + usize::from(after.is_some());
                let mut after_out = None;
                let mut ids = Vec::new();
                let results = self.branches(n, |lw, i| {
                    if i < clauses.len() {
                        Ok(lw.cr_clause(&clauses[i]))
                    } else {
                        let a = after.as_ref().expect("after branch exists");
                        let timeout = lw.expr(&a.timeout);
                        let body = lw.exprs(&a.body, a.span);
                        Err(After { timeout, body })
                    }
                });
                for r in results {
                    match r {
                        Ok(c) => ids.push(c),
                        Err(a) => after_out = Some(a),
                    }
                }
                self.alloc(
                    Expr::Receive {
                        clauses: ids.into(),
                        after: after_out,
                    },
                    span,
                )
            }
            K::Try(t) => self.try_expr(
                &t.body,
                &t.of_clauses,
                &t.catch_clauses,
                t.after.as_deref(),
                span,
            ),
            K::Fun(f) => self.fun(f.name.as_ref(), &f.clauses, span),
            K::FunRef {
                module,
                name,
                arity,
            } => self.fun_ref(module.as_deref(), name, arity, span),
            K::Maybe(m) => {
                let ast::MaybeExpr { body, else_clauses } = &**m;
                let saved = self.visible.clone();
                let items = body.iter().map(|e| self.expr(e)).collect();
                self.visible = saved;
                let else_clauses = else_clauses.as_ref().map(|cs| {
                    let saved = self.visible.clone();
                    let ids = self.cr_clauses(cs);
                    self.visible = saved;
                    ids
                });
                self.alloc(
                    Expr::Maybe(Box::new(MaybeExpr {
                        body: items,
                        else_clauses,
                    })),
                    span,
                )
            }
        }
    }

    fn string(&mut self, s: &SmolStr, span: Span) -> ExprId {
        if s.is_empty() {
            self.alloc(Expr::Nil, span)
        } else {
            self.lit(Literal::String(s.as_str().into()), span)
        }
    }

    /// `case`/`receive`/`try ... of` clauses: one pattern each, as branches.
    fn cr_clauses(&mut self, clauses: &[ast::Clause]) -> Vec<ClauseId> {
        self.branches(clauses.len(), |lw, i| lw.cr_clause(&clauses[i]))
    }

    fn cr_clause(&mut self, c: &ast::Clause) -> ClauseId {
        let pats = c.pats.iter().map(|p| self.pat(p)).collect();
        let guard = self.guard(&c.guard);
        let body = self.exprs(&c.body, c.span);
        self.clause(Clause { pats, guard, body }, c.span)
    }

    fn try_expr(
        &mut self,
        body: &[ast::Expr],
        of_clauses: &[ast::Clause],
        catch_clauses: &[ast::CatchClause],
        after: Option<&[ast::Expr]>,
        span: Span,
    ) -> ExprId {
        let body_span = body
            .first()
            .map(|b| b.span.cover(body[body.len() - 1].span))
            .unwrap_or(span);
        // Branch 0: the body (then its `of` clauses); the others: catch clauses.
        let n = 1 + catch_clauses.len();
        let mut body_id = None;
        let mut of_ids = Vec::new();
        let mut catch_ids = Vec::new();
        let results = self.branches(n, |lw, i| {
            if i == 0 {
                let b = lw.exprs(body, body_span);
                let ofs = if of_clauses.is_empty() {
                    Vec::new()
                } else {
                    lw.cr_clauses(of_clauses)
                };
                (Some(b), ofs)
            } else {
                let c = &catch_clauses[i - 1];
                let class = match &c.class {
                    Some(p) => lw.pat(p),
                    None => lw.alloc_pat(Pat::Lit(atom("throw")), c.reason.span),
                };
                let reason = lw.pat(&c.reason);
                let stack = match &c.stack {
                    Some(p) => lw.pat(p),
                    None => lw.alloc_pat(Pat::Wild, c.reason.span),
                };
                let guard = lw.guard(&c.guard);
                let b = lw.exprs(&c.body, c.span);
                let id = lw.clause(
                    Clause {
                        pats: vec![class, reason, stack],
                        guard,
                        body: b,
                    },
                    c.span,
                );
                (None, vec![id])
            }
        });
        for (b, ids) in results {
            match b {
                Some(b) => {
                    body_id = Some(b);
                    of_ids = ids;
                }
                None => catch_ids.extend(ids),
            }
        }
        let after = after.map(|a| {
            let saved = self.visible.clone();
            let id = self.exprs(a, span);
            self.visible = saved;
            id
        });
        let body = match body_id {
            Some(b) => b,
            None => self.alloc(Expr::Missing, span),
        };
        self.alloc(
            Expr::Try(Box::new(TryExpr {
                body,
                of_clauses: of_ids,
                catch_clauses: catch_ids,
                after,
            })),
            span,
        )
    }

    fn comprehension(
        &mut self,
        kind: ast::ComprehensionKind,
        body: &ast::Expr,
        qualifiers: &[ast::Qualifier],
        span: Span,
    ) -> ExprId {
        let saved = self.visible.clone();
        self.frames.push(FxHashMap::default());
        let mut quals = Vec::with_capacity(qualifiers.len());
        for q in qualifiers {
            match q {
                ast::Qualifier::Generator { expr, .. } => {
                    let expr = self.expr(expr);
                    let outer_fresh = self.fresh.replace(FxHashSet::default());
                    if let Some(g) = self.generator_pat(q, expr) {
                        quals.push(Qualifier::Generator {
                            kind: g.kind,
                            pat: g.pat,
                            expr: g.expr,
                            strict: g.strict,
                        });
                    }
                    self.fresh = outer_fresh;
                }
                ast::Qualifier::Zip(gens) => {
                    // Every expression first (none sees the patterns), then
                    // the patterns left to right in one fresh scope, so a
                    // variable repeated across them must agree.
                    let exprs: Vec<Option<ExprId>> = gens
                        .iter()
                        .map(|g| match g {
                            ast::Qualifier::Generator { expr, .. } => Some(self.expr(expr)),
                            _ => None,
                        })
                        .collect();
                    let outer_fresh = self.fresh.replace(FxHashSet::default());
                    let zipped: Vec<Generator> = gens
                        .iter()
                        .zip(exprs)
                        .filter_map(|(g, e)| self.generator_pat(g, e?))
                        .collect();
                    self.fresh = outer_fresh;
                    quals.push(Qualifier::Zip(zipped));
                }
                ast::Qualifier::Filter(f) => {
                    let f = self.expr(f);
                    quals.push(Qualifier::Filter(f));
                }
            }
        }
        let body = self.expr(body);
        self.frames.pop();
        self.visible = saved;
        let kind = match kind {
            ast::ComprehensionKind::List => ComprehensionKind::List,
            ast::ComprehensionKind::Binary => ComprehensionKind::Binary,
            ast::ComprehensionKind::Map => ComprehensionKind::Map,
        };
        self.alloc(
            Expr::Comprehension(Box::new(Comprehension {
                kind,
                qualifiers: quals,
                body,
            })),
            span,
        )
    }

    /// The pattern of a generator whose expression is already lowered
    /// (`None` for a filter, which has no pattern).
    fn generator_pat(&mut self, q: &ast::Qualifier, expr: ExprId) -> Option<Generator> {
        let ast::Qualifier::Generator {
            kind,
            strict,
            pat,
            value,
            ..
        } = q
        else {
            return None;
        };
        let pat = match value {
            Some(v) => {
                let k = self.pat(pat);
                let v2 = self.pat(v);
                self.alloc_pat(Pat::Tuple(vec![k, v2]), pat.span.cover(v.span))
            }
            None => self.pat(pat),
        };
        Some(Generator {
            kind: match kind {
                ast::GeneratorKind::List => GeneratorKind::List,
                ast::GeneratorKind::Binary => GeneratorKind::Binary,
                ast::GeneratorKind::Map => GeneratorKind::Map,
            },
            pat,
            expr,
            strict: *strict,
        })
    }

    fn fun(&mut self, name: Option<&SmolStr>, clauses: &[ast::Clause], span: Span) -> ExprId {
        let id = FunId(self.m.fun_count);
        self.m.fun_count += 1;
        let arity = clauses.first().map_or(0, |c| c.pats.len() as u32);
        self.fun_scopes.push(FunScope {
            first_var: self.body.vars.len() as u32,
            free: BTreeSet::new(),
        });
        let saved = self.visible.clone();
        let name_var = name.map(|n| {
            let v = self.new_var(n, span);
            self.visible.insert(n.clone(), v);
            v
        });
        let inner = self.visible.clone();
        let mut ids = Vec::with_capacity(clauses.len());
        for c in clauses {
            if c.pats.len() as u32 != arity {
                self.m.error(
                    DiagnosticCode::E010Syntax,
                    c.span,
                    format!(
                        "fun clauses must all take {arity} arguments, this one takes {}",
                        c.pats.len()
                    ),
                );
                continue;
            }
            self.visible = inner.clone();
            self.frames.push(FxHashMap::default());
            let outer_fresh = self.fresh.replace(FxHashSet::default());
            let pats = c.pats.iter().map(|p| self.pat(p)).collect();
            self.fresh = outer_fresh;
            let guard = self.guard(&c.guard);
            let body = self.exprs(&c.body, c.span);
            self.frames.pop();
            ids.push(self.clause(Clause { pats, guard, body }, c.span));
        }
        self.visible = saved;
        let scope = self.fun_scopes.pop().expect("pushed above");
        // Free variables of a nested fun are captured by this one's closure too
        // (already recorded by `note_use`, which walks all enclosing scopes).
        let free_vars: Vec<VarId> = scope.free.into_iter().collect();
        self.alloc(
            Expr::Fun(Box::new(FunExpr {
                id,
                name: name_var,
                arity,
                clauses: ids,
                free_vars,
            })),
            span,
        )
    }

    fn fun_ref(
        &mut self,
        module: Option<&ast::Expr>,
        name: &ast::Expr,
        arity: &ast::Expr,
        span: Span,
    ) -> ExprId {
        if module.is_none()
            && let (K::Atom(n), K::Int(IntLit::Small(a))) = (&name.kind, &arity.kind)
        {
            let a32 = u32::try_from(*a).unwrap_or(u32::MAX);
            let key = FunName {
                name: n.clone(),
                arity: a32,
            };
            let module = if self.m.locals.contains(&key) {
                None
            } else if let Some(m) = self.m.imports.get(&key).cloned() {
                Some(m)
            } else if self.m.auto_imported(n, a32) {
                Some(Name::new("erlang"))
            } else {
                None
            };
            let provisional = module.is_some();
            let module = module.map(|m| self.lit(Literal::Atom(m), name.span));
            let name = self.lit(Literal::Atom(n.clone()), name.span);
            let arity = self.lit(Literal::Int(*a), arity.span);
            let id = self.alloc(
                Expr::FunRef {
                    module,
                    name,
                    arity,
                },
                span,
            );
            if provisional {
                let f = self.m.current_function;
                self.m.provisional.push((f, id));
            }
            return id;
        }
        let module = module.map(|m| self.expr(m));
        let name = self.expr(name);
        let arity = self.expr(arity);
        self.alloc(
            Expr::FunRef {
                module,
                name,
                arity,
            },
            span,
        )
    }

    fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> ExprId {
        let arity = args.len() as u32;
        match &callee.kind {
            K::Atom(f) => {
                if let Some(id) = self.record_builtin(f, args, span) {
                    return id;
                }
                let key = FunName {
                    name: f.clone(),
                    arity,
                };
                let remote_module = if self.m.locals.contains(&key) {
                    None
                } else if let Some(m) = self.m.imports.get(&key).cloned() {
                    Some(m)
                } else if self.m.auto_imported(f, arity) {
                    Some(Name::new("erlang"))
                } else {
                    None
                };
                let target = match &remote_module {
                    Some(m) => MFA {
                        module: m.clone(),
                        name: f.clone(),
                        arity,
                    },
                    None => MFA {
                        module: self.m.name.clone(),
                        name: f.clone(),
                        arity,
                    },
                };
                let site = self.site(span, Some(target));
                let target = match remote_module {
                    Some(m) => {
                        let module = self.lit(Literal::Atom(m), callee.span);
                        let function = self.lit(Literal::Atom(f.clone()), callee.span);
                        CallTarget::Remote { module, function }
                    }
                    None => CallTarget::Local {
                        name: f.clone(),
                        arity,
                    },
                };
                let provisional = matches!(target, CallTarget::Remote { .. });
                let args = args.iter().map(|a| self.expr(a)).collect();
                let target = Box::new(target);
                let id = self.alloc(Expr::Call { site, target, args }, span);
                if provisional {
                    let f = self.m.current_function;
                    self.m.provisional.push((f, id));
                }
                id
            }
            K::Remote { module, function } => {
                let target = match (&module.kind, &function.kind) {
                    (K::Atom(m), K::Atom(f)) => Some(MFA {
                        module: m.clone(),
                        name: f.clone(),
                        arity,
                    }),
                    _ => None,
                };
                let site = self.site(span, target);
                let module = self.expr(module);
                let function = self.expr(function);
                let args = args.iter().map(|a| self.expr(a)).collect();
                self.alloc(
                    Expr::Call {
                        site,
                        target: Box::new(CallTarget::Remote { module, function }),
                        args,
                    },
                    span,
                )
            }
            _ => {
                let site = self.site(span, None);
                let fun = self.expr(callee);
                let args = args.iter().map(|a| self.expr(a)).collect();
                self.alloc(
                    Expr::Call {
                        site,
                        target: Box::new(CallTarget::Apply { fun }),
                        args,
                    },
                    span,
                )
            }
        }
    }

    /// `record_info(fields | size, r)` and `is_record(X, r)`.
    fn record_builtin(&mut self, f: &str, args: &[ast::Expr], span: Span) -> Option<ExprId> {
        match (f, args) {
            ("record_info", [what, rec]) => {
                let (K::Atom(what), K::Atom(rec)) = (&what.kind, &rec.kind) else {
                    return None;
                };
                let Some(info) = self.m.records.get(rec) else {
                    return Some(self.missing(
                        span,
                        DiagnosticCode::E030UndefinedRecord,
                        format!("record {rec} undefined"),
                    ));
                };
                let fields = info.def.fields.clone();
                match what.as_str() {
                    "size" => Some(self.lit(Literal::Int(fields.len() as i64 + 1), span)),
                    "fields" => {
                        let mut acc = self.alloc(Expr::Nil, span);
                        for fname in fields.iter().rev() {
                            let h = self.lit(Literal::Atom(fname.clone()), span);
                            acc = self.alloc(Expr::Cons(h, acc), span);
                        }
                        Some(acc)
                    }
                    _ => None,
                }
            }
            ("is_record", [x, rec]) if self.m.auto_imported("is_record", 2) => {
                let K::Atom(rec) = &rec.kind else {
                    return None;
                };
                let size = self.m.records.get(rec)?.def.fields.len() as i64 + 1;
                let target = MFA {
                    module: Name::new("erlang"),
                    name: Name::new("is_record"),
                    arity: 3,
                };
                let site = self.site(span, Some(target));
                let module = self.lit(atom("erlang"), span);
                let function = self.lit(atom("is_record"), span);
                let x = self.expr(x);
                let r = self.lit(Literal::Atom(rec.clone()), span);
                let n = self.lit(Literal::Int(size), span);
                Some(self.alloc(
                    Expr::Call {
                        site,
                        target: Box::new(CallTarget::Remote { module, function }),
                        args: Box::new([x, r, n]),
                    },
                    span,
                ))
            }
            _ => None,
        }
    }

    // ---- records ------------------------------------------------------

    fn record_fields(&mut self, name: &str, span: Span) -> Option<Vec<Name>> {
        match self.m.records.get(name) {
            Some(r) => Some(r.def.fields.clone()),
            None => {
                self.m.error(
                    DiagnosticCode::E030UndefinedRecord,
                    span,
                    format!("record {name} undefined"),
                );
                None
            }
        }
    }

    /// 0-based position of `field` in record `name`.
    fn field_index(&mut self, name: &str, field: &str, span: Span) -> Option<usize> {
        let fields = self.record_fields(name, span)?;
        let i = fields.iter().position(|f| f == field);
        if i.is_none() {
            self.m.error(
                DiagnosticCode::E030UndefinedRecord,
                span,
                format!("field {field} undefined in record {name}"),
            );
        }
        i
    }

    /// Check the fields named in a record expression; returns the record's fields.
    fn checked_fields(
        &mut self,
        name: &str,
        fields: &[ast::RecordField],
        span: Span,
    ) -> Option<Vec<Name>> {
        let defs = self.record_fields(name, span)?;
        for f in fields {
            if f.name != "_" && !defs.contains(&f.name) {
                self.m.error(
                    DiagnosticCode::E030UndefinedRecord,
                    f.span,
                    format!("field {} undefined in record {name}", f.name),
                );
            }
        }
        Some(defs)
    }

    fn record_new(&mut self, name: &Name, fields: &[ast::RecordField], span: Span) -> ExprId {
        let Some(defs) = self.checked_fields(name, fields, span) else {
            return self.alloc(Expr::Missing, span);
        };
        // Written fields first, in source order.
        let mut given: FxHashMap<&str, ExprId> = FxHashMap::default();
        for f in fields {
            if f.name != "_" {
                let id = self.expr(&f.value);
                given.insert(f.name.as_str(), id);
            }
        }
        let rest = fields.iter().find(|f| f.name == "_");
        let defaults = self.m.records[name].defaults.clone();
        let mut elems = vec![self.lit(Literal::Atom(name.clone()), span)];
        for (i, fname) in defs.iter().enumerate() {
            let id = if let Some(&id) = given.get(fname.as_str()) {
                id
            } else if let Some(r) = rest {
                self.expr(&r.value)
            } else if let Some(Some(d)) = defaults.get(i) {
                self.expr(d)
            } else {
                self.lit(atom("undefined"), span)
            };
            elems.push(id);
        }
        self.alloc(Expr::Tuple(elems), span)
    }

    /// `case Base of {r, ...} -> Ok; _ -> r end` (kind `Record`); `ok` builds the
    /// first clause's body from the tuple's field variables.
    fn record_case(
        &mut self,
        base: ExprId,
        name: &Name,
        pats: Vec<PatId>,
        ok_body: ExprId,
        span: Span,
    ) -> ExprId {
        let tag = self.alloc_pat(Pat::Lit(Literal::Atom(name.clone())), span);
        let mut all = vec![tag];
        all.extend(pats);
        let tuple = self.alloc_pat(Pat::Tuple(all), span);
        let c1 = self.clause(
            Clause {
                pats: vec![tuple],
                guard: Vec::new(),
                body: ok_body,
            },
            span,
        );
        let wild = self.alloc_pat(Pat::Wild, span);
        let rname = self.lit(Literal::Atom(name.clone()), span);
        let c2 = self.clause(
            Clause {
                pats: vec![wild],
                guard: Vec::new(),
                body: rname,
            },
            span,
        );
        self.alloc(
            Expr::Case {
                kind: CaseKind::Record,
                arg: base,
                clauses: vec![c1, c2],
            },
            span,
        )
    }

    fn record_access(&mut self, base: &ast::Expr, name: &Name, field: &Name, span: Span) -> ExprId {
        let b = self.expr(base);
        let Some(fields) = self.record_fields(name, span) else {
            return self.alloc(Expr::Missing, span);
        };
        let Some(idx) = fields.iter().position(|f| f == field) else {
            return self.missing(
                span,
                DiagnosticCode::E030UndefinedRecord,
                format!("field {field} undefined in record {name}"),
            );
        };
        let var = self.new_var(&format!("@{field}"), span);
        let pats = (0..fields.len())
            .map(|i| {
                let p = if i == idx { Pat::Var(var) } else { Pat::Wild };
                self.alloc_pat(p, span)
            })
            .collect();
        let body = self.alloc(Expr::Var(var), span);
        self.record_case(b, name, pats, body, span)
    }

    fn record_update(
        &mut self,
        base: &ast::Expr,
        name: &Name,
        fields: &[ast::RecordField],
        span: Span,
    ) -> ExprId {
        let b = self.expr(base);
        let Some(defs) = self.checked_fields(name, fields, span) else {
            return self.alloc(Expr::Missing, span);
        };
        let mut given: FxHashMap<&str, ExprId> = FxHashMap::default();
        for f in fields {
            let id = self.expr(&f.value);
            given.insert(f.name.as_str(), id);
        }
        let mut pats = Vec::with_capacity(defs.len());
        let mut elems = vec![self.lit(Literal::Atom(name.clone()), span)];
        for fname in &defs {
            if let Some(&id) = given.get(fname.as_str()) {
                pats.push(self.alloc_pat(Pat::Wild, span));
                elems.push(id);
            } else {
                let v = self.new_var(&format!("@{fname}"), span);
                pats.push(self.alloc_pat(Pat::Var(v), span));
                elems.push(self.alloc(Expr::Var(v), span));
            }
        }
        let body = self.alloc(Expr::Tuple(elems), span);
        self.record_case(b, name, pats, body, span)
    }

    // ---- binaries -----------------------------------------------------

    fn bin_segs<T>(
        &mut self,
        elems: &[ast::BinElem],
        mut value: impl FnMut(&mut Self, &ast::Expr) -> T,
        mut char_value: impl FnMut(&mut Self, u32, Span) -> T,
    ) -> Vec<BinSeg<T>> {
        let mut segs = Vec::with_capacity(elems.len());
        for el in elems {
            let (ty, signed, endian, unit) = self.bin_specs(el);
            match &el.value.kind {
                K::String(s) => {
                    for c in s.chars() {
                        let v = char_value(self, c as u32, el.value.span);
                        let size = el.size.as_ref().map(|s| self.expr(s));
                        segs.push(BinSeg {
                            value: v,
                            size,
                            ty,
                            signed,
                            endian,
                            unit,
                        });
                    }
                }
                _ => {
                    let v = value(self, &el.value);
                    let size = match &el.size {
                        Some(s) if matches!(&s.kind, K::Atom(a) if a == "all") => None,
                        Some(s) => Some(self.expr(s)),
                        None => None,
                    };
                    segs.push(BinSeg {
                        value: v,
                        size,
                        ty,
                        signed,
                        endian,
                        unit,
                    });
                }
            }
        }
        segs
    }

    fn bin_specs(&mut self, el: &ast::BinElem) -> (BinType, bool, Endian, u8) {
        let mut ty = BinType::Integer;
        let mut signed = false;
        let mut endian = Endian::Big;
        let mut unit: Option<u8> = None;
        for (name, n) in &el.specs {
            match (name.as_str(), n) {
                ("integer", None) => ty = BinType::Integer,
                ("float", None) => ty = BinType::Float,
                ("binary" | "bytes", None) => ty = BinType::Binary,
                ("bitstring" | "bits", None) => ty = BinType::Bitstring,
                ("utf8", None) => ty = BinType::Utf8,
                ("utf16", None) => ty = BinType::Utf16,
                ("utf32", None) => ty = BinType::Utf32,
                ("signed", None) => signed = true,
                ("unsigned", None) => signed = false,
                ("big", None) => endian = Endian::Big,
                ("little", None) => endian = Endian::Little,
                ("native", None) => endian = Endian::Native,
                ("unit", Some(u)) if (1..=255).contains(u) => unit = Some(*u as u8),
                _ => self.m.error(
                    DiagnosticCode::E010Syntax,
                    el.span,
                    format!("unknown bit syntax type specifier '{name}'"),
                ),
            }
        }
        let unit = unit.unwrap_or(match ty {
            BinType::Binary => 8,
            _ => 1,
        });
        (ty, signed, endian, unit)
    }

    // ---- patterns -----------------------------------------------------

    fn pat(&mut self, e: &ast::Expr) -> PatId {
        let span = e.span;
        let p = match &e.kind {
            K::Var(v) if v == "_" => Pat::Wild,
            K::Var(v) => self.bind_var(v, span),
            K::Atom(a) => Pat::Lit(Literal::Atom(a.clone())),
            K::Int(i) => Pat::Lit(int_lit(i)),
            K::Float(f) => Pat::Lit(Literal::Float(*f)),
            K::Char(c) => Pat::Lit(Literal::Int(i64::from(*c))),
            K::String(s) if s.is_empty() => Pat::Nil,
            K::String(s) => Pat::Lit(Literal::String(s.as_str().into())),
            K::Sigil { prefix, value } => match prefix {
                Some('s' | 'S') if value.is_empty() => Pat::Nil,
                Some('s' | 'S') => Pat::Lit(Literal::String(value.as_str().into())),
                _ => {
                    let segs = value
                        .bytes()
                        .map(|b| {
                            let v = self.alloc_pat(Pat::Lit(Literal::Int(i64::from(b))), span);
                            byte_seg(v)
                        })
                        .collect();
                    Pat::Binary(segs)
                }
            },
            K::Tuple(es) => Pat::Tuple(es.iter().map(|e| self.pat(e)).collect()),
            K::List { elems, tail } => {
                let ids: Vec<PatId> = elems.iter().map(|e| self.pat(e)).collect();
                let mut acc = match tail {
                    Some(t) => self.pat(t),
                    None => self.alloc_pat(Pat::Nil, Span::new(span.file, span.end, span.end)),
                };
                for (el, id) in elems.iter().zip(ids).rev() {
                    acc = self.alloc_pat(Pat::Cons(id, acc), el.span.cover(span));
                }
                return acc;
            }
            K::Binary(elems) => {
                let segs = self.bin_segs(
                    elems,
                    |lw, v| lw.pat(v),
                    |lw, c, s| lw.alloc_pat(Pat::Lit(Literal::Int(i64::from(c))), s),
                );
                Pat::Binary(segs)
            }
            K::Map { base: None, fields } => Pat::Map(
                fields
                    .iter()
                    .map(|f| {
                        let k = self.expr(&f.key);
                        let v = self.pat(&f.value);
                        (k, v)
                    })
                    .collect(),
            ),
            K::Record(r) if r.base.is_none() => match self.checked_fields(&r.name, &r.fields, span)
            {
                None => Pat::Missing,
                Some(defs) => {
                    let (name, fields) = (&r.name, &r.fields);
                    let tag = self.alloc_pat(Pat::Lit(Literal::Atom(name.clone())), span);
                    let mut elems = vec![tag];
                    let mut given: FxHashMap<&str, PatId> = FxHashMap::default();
                    for f in fields {
                        if f.name != "_" {
                            let p = self.pat(&f.value);
                            given.insert(f.name.as_str(), p);
                        }
                    }
                    let rest = fields.iter().find(|f| f.name == "_");
                    for fname in &defs {
                        let p = match (given.get(fname.as_str()), rest) {
                            (Some(&p), _) => p,
                            (None, Some(r)) => self.pat(&r.value),
                            (None, None) => self.alloc_pat(Pat::Wild, span),
                        };
                        elems.push(p);
                    }
                    Pat::Tuple(elems)
                }
            },
            K::RecordIndex(r) => match self.field_index(&r.name, &r.field, span) {
                Some(i) => Pat::Lit(Literal::Int(i as i64 + 2)),
                None => Pat::Missing,
            },
            K::Match(a, b) => {
                let a = self.pat(a);
                let b = self.pat(b);
                Pat::Alias(a, b)
            }
            K::Op(BinOp::Append, prefix, rest) => {
                // `"abc" ++ T` and `[P1, P2] ++ T`: the prefix's elements, then the rest.
                let heads: Option<Vec<PatId>> = match &prefix.kind {
                    K::String(s) => Some(
                        s.chars()
                            .map(|c| {
                                let l = Literal::Int(i64::from(c as u32));
                                self.alloc_pat(Pat::Lit(l), prefix.span)
                            })
                            .collect(),
                    ),
                    K::List { elems, tail: None } => {
                        Some(elems.iter().map(|el| self.pat(el)).collect())
                    }
                    _ => None,
                };
                match heads {
                    Some(heads) => {
                        let mut acc = self.pat(rest);
                        for h in heads.into_iter().rev() {
                            acc = self.alloc_pat(Pat::Cons(h, acc), span);
                        }
                        return acc;
                    }
                    None => self.illegal_pattern(span),
                }
            }
            K::Missing => Pat::Missing,
            _ => match const_literal(e) {
                Some(l) => Pat::Lit(l),
                None => self.illegal_pattern(span),
            },
        };
        self.alloc_pat(p, span)
    }

    fn illegal_pattern(&mut self, span: Span) -> Pat {
        self.m
            .error(DiagnosticCode::E010Syntax, span, "illegal pattern");
        Pat::Missing
    }
}

fn int_lit(i: &IntLit) -> Literal {
    match i {
        IntLit::Small(n) => Literal::Int(*n),
        IntLit::Big(b) => Literal::BigInt(b.clone()),
    }
}

fn byte_seg<T>(value: T) -> BinSeg<T> {
    BinSeg {
        value,
        size: None,
        ty: BinType::Integer,
        signed: false,
        endian: Endian::Big,
        unit: 1,
    }
}

/// `-1`, `+2.0`: a sign applied to a number literal.
fn fold_literal(e: &ast::Expr) -> Option<Literal> {
    let K::UnOp(op @ (UnOp::Neg | UnOp::Plus), x) = &e.kind else {
        return None;
    };
    let neg = *op == UnOp::Neg;
    match &x.kind {
        K::Int(IntLit::Small(n)) if neg => n.checked_neg().map(Literal::Int),
        K::Int(i) if !neg => Some(int_lit(i)),
        K::Int(IntLit::Big(b)) => {
            let v = -(**b).clone();
            Some(match v.to_i64() {
                Some(n) => Literal::Int(n),
                None => Literal::BigInt(Box::new(v)),
            })
        }
        K::Float(f) => Some(Literal::Float(if neg { -f } else { *f })),
        K::Char(c) => Some(Literal::Int(if neg {
            -i64::from(*c)
        } else {
            i64::from(*c)
        })),
        _ => None,
    }
}

/// A constant expression allowed in a pattern (literals and integer arithmetic).
fn const_literal(e: &ast::Expr) -> Option<Literal> {
    match &e.kind {
        K::Atom(a) => Some(Literal::Atom(a.clone())),
        K::Int(i) => Some(int_lit(i)),
        K::Float(f) => Some(Literal::Float(*f)),
        K::Char(c) => Some(Literal::Int(i64::from(*c))),
        K::UnOp(..) => fold_literal(e).or_else(|| match &e.kind {
            K::UnOp(UnOp::Neg, x) => match const_literal(x)? {
                Literal::Int(n) => n.checked_neg().map(Literal::Int),
                _ => None,
            },
            K::UnOp(UnOp::Bnot, x) => match const_literal(x)? {
                Literal::Int(n) => Some(Literal::Int(!n)),
                _ => None,
            },
            _ => None,
        }),
        K::Op(op, a, b) => {
            let (Literal::Int(a), Literal::Int(b)) = (const_literal(a)?, const_literal(b)?) else {
                return None;
            };
            let v = match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div => a.checked_div(b),
                BinOp::Rem => a.checked_rem(b),
                BinOp::Band => Some(a & b),
                BinOp::Bor => Some(a | b),
                BinOp::Bxor => Some(a ^ b),
                BinOp::Bsl => u32::try_from(b).ok().and_then(|s| a.checked_shl(s)),
                BinOp::Bsr => u32::try_from(b).ok().and_then(|s| a.checked_shr(s)),
                _ => None,
            };
            v.map(Literal::Int)
        }
        _ => None,
    }
}
