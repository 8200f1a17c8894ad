//! The compiler: an IR function to its [`FnCode`], then its slots
//! renumbered densely ([`super::layout`]) and last uses marked
//! ([`super::liveness`]).

use racewit_syntax::ir::{
    self, BinOp, BinType, CaseKind, ClauseId, ComprehensionKind, Endian, Expr, ExprId,
    GeneratorKind, Literal, Pat, PatId, Qualifier,
};
use racewit_syntax::{Span, ir::Program};

use crate::atom::Atom;
use crate::term::{Bitstr, Term};

use super::instr::{
    CPat, CSeg, Callee, FailKind, FnCode, GExpr, Instr, Label, Slot, Target, hot_loop_may_run,
};
use super::quick::QuickClauses;
use super::resolve::CodeTable;

/// [`FnCode::hot_run`] of a return instruction (see where it is set).
const RETURN_RUN: u8 = 2;

/// Converts an IR literal.
pub fn literal_term(l: &Literal) -> Term {
    match l {
        Literal::Atom(a) => Term::Atom(Atom::new(a)),
        Literal::Int(i) => Term::Int(*i),
        Literal::BigInt(b) => Term::from_big((**b).clone()),
        Literal::Float(f) => Term::Float(*f),
        Literal::String(s) => Term::string(s),
    }
}

/// Compiles every function and `fun` of module `m` (index `mi` in `table`).
pub(super) fn compile_functions(
    table: &CodeTable,
    mi: u32,
    program: &Program,
    m: &ir::Module,
) -> Box<[FnCode]> {
    let mut functions: Vec<Option<FnCode>> = (0..m.functions.len() + m.fun_count as usize)
        .map(|_| None)
        .collect();
    for (fi, f) in m.functions.iter().enumerate() {
        let mut queue = Vec::new();
        let code = {
            let mut c = FnCompiler::new(table, mi, program, m, f, f.arity);
            c.compile_function();
            queue.append(&mut c.lambdas);
            c.finish(Atom::new(&f.name), f.arity, None, Vec::new())
        };
        functions[fi] = Some(code);
        while let Some((fun_id, fun_expr)) = queue.pop() {
            let mut c = FnCompiler::new(table, mi, program, m, f, fun_expr.arity);
            c.compile_lambda(&fun_expr);
            queue.append(&mut c.lambdas);
            let env = fun_expr.free_vars.iter().map(|v| c.var(*v)).collect();
            let self_slot = fun_expr.name.map(|v| c.var(v));
            let name = Atom::new(&format!("-{}/{}-fun-{}-", f.name, f.arity, fun_id));
            let code = c.finish(name, fun_expr.arity, self_slot, env);
            let slot = m.functions.len() + fun_id as usize;
            if slot < functions.len() {
                functions[slot] = Some(code);
            }
        }
    }
    functions
        .into_iter()
        .map(|f| {
            f.unwrap_or_else(|| FnCode {
                name: Atom::new("-missing-"),
                arity: 0,
                frame_size: 1,
                instrs: vec![Instr::Missing { line: 0 }],
                pats: Vec::new(),
                guards: Vec::new(),
                env_slots: Vec::new(),
                self_slot: None,
                display: (Atom::new("-missing-"), 0),
                line: 0,
                quick: QuickClauses::default(),
                hot_run: Box::new([]),
            })
        })
        .collect()
}

struct FnCompiler<'a> {
    table: &'a CodeTable,
    module_index: u32,
    program: &'a Program,
    func: &'a ir::Function,
    body: &'a ir::Body,
    arity: u32,
    instrs: Vec<Instr>,
    pats: Vec<CPat>,
    guards: Vec<Vec<Vec<GExpr>>>,
    labels: Vec<u32>,
    next_temp: u32,
    max_slot: u32,
    lambdas: Vec<(u32, ir::FunExpr)>,
    /// Inside a `try`/`catch` body, calls are not tail calls.
    protected: u32,
    /// Slot of each head variable kept in its argument's slot (by `VarId`).
    head_vars: Vec<Option<Slot>>,
}

const UNBOUND_LABEL: u32 = u32::MAX;

impl<'a> FnCompiler<'a> {
    fn new(
        table: &'a CodeTable,
        module_index: u32,
        program: &'a Program,
        _module: &'a ir::Module,
        func: &'a ir::Function,
        arity: u32,
    ) -> Self {
        let base = arity + func.body.var_count() as u32;
        FnCompiler {
            table,
            module_index,
            program,
            func,
            body: &func.body,
            arity,
            instrs: Vec::new(),
            pats: Vec::new(),
            guards: Vec::new(),
            labels: Vec::new(),
            next_temp: base,
            max_slot: base,
            lambdas: Vec::new(),
            protected: 0,
            head_vars: Vec::new(),
        }
    }

    fn var(&self, v: ir::VarId) -> Slot {
        match self.head_vars.get(v.0 as usize) {
            Some(&Some(slot)) => slot,
            _ => self.arity + v.0,
        }
    }

    /// A variable bound only by being a whole argument pattern of a clause
    /// head lives in that argument's slot (no move on entry).
    fn alias_head_vars(&mut self, clauses: &[ClauseId]) {
        let mut binds = vec![0u32; self.body.var_count()];
        for p in &self.body.pats {
            if let Pat::Var(v) = p
                && let Some(n) = binds.get_mut(v.0 as usize)
            {
                *n += 1;
            }
        }
        let mut head_vars = vec![None; self.body.var_count()];
        for &cid in clauses {
            for (i, &p) in self.body.clause(cid).pats.iter().enumerate() {
                if let Pat::Var(v) = self.body.pat(p)
                    && binds.get(v.0 as usize) == Some(&1)
                {
                    head_vars[v.0 as usize] = Some(i as Slot);
                }
            }
        }
        self.head_vars = head_vars;
    }

    fn temp(&mut self) -> Slot {
        let t = self.next_temp;
        self.next_temp += 1;
        self.max_slot = self.max_slot.max(self.next_temp);
        t
    }

    fn new_label(&mut self) -> Label {
        self.labels.push(UNBOUND_LABEL);
        (self.labels.len() - 1) as Label
    }

    fn bind(&mut self, l: Label) {
        self.labels[l as usize] = self.instrs.len() as u32;
    }

    fn emit(&mut self, i: Instr) {
        self.instrs.push(i);
    }

    fn line_of(&self, span: Span) -> u32 {
        if (span.file.0 as usize) < self.program.sources.len() {
            self.program.sources.location(span).line
        } else {
            0
        }
    }

    fn finish(
        mut self,
        name: Atom,
        arity: u32,
        self_slot: Option<Slot>,
        env_slots: Vec<Slot>,
    ) -> FnCode {
        let labels = std::mem::take(&mut self.labels);
        let fix = |l: &mut u32| {
            if let Some(&p) = labels.get(*l as usize) {
                *l = p;
            }
        };
        for ins in &mut self.instrs {
            match ins {
                Instr::Match { fail: Some(l), .. }
                | Instr::MatchInt { fail: Some(l), .. }
                | Instr::ReturnIfInt { fail: l, .. }
                | Instr::MatchAtom { fail: Some(l), .. }
                | Instr::MatchCons { fail: Some(l), .. }
                | Instr::Guard { fail: l, .. }
                | Instr::Filter { fail: l, .. }
                | Instr::Jump(l)
                | Instr::TryBegin { handler: l, .. }
                | Instr::RecvPeek { empty: l, .. }
                | Instr::ListNext { done: l, .. }
                | Instr::BinNext { done: l, .. } => fix(l),
                Instr::RecvWait { resume, after, .. } => {
                    fix(resume);
                    fix(after);
                }
                _ => {}
            }
        }
        let line = self.line_of(self.func.span);
        let mut env_slots = env_slots;
        let mut self_slot = self_slot;
        let frame_size = super::layout::compact_slots(
            super::layout::SlotUsers {
                instrs: &mut self.instrs,
                pats: &mut self.pats,
                guards: &mut self.guards,
                env_slots: &mut env_slots,
                self_slot: self_slot.as_mut(),
            },
            arity,
        );
        super::liveness::mark_moves(
            &mut self.instrs,
            &mut self.pats,
            &mut self.guards,
            frame_size,
        );
        let quick = QuickClauses::of(&self.instrs, arity);
        let mut hot_run = vec![0u8; self.instrs.len()];
        for pc in (0..self.instrs.len()).rev() {
            let ins = &self.instrs[pc];
            if ins.is_return() {
                // A return goes on in the caller, usually with more of
                // the same (`[F(H) | map(F, T)]` unwinding): it counts
                // for two.
                hot_run[pc] = RETURN_RUN;
            } else if hot_loop_may_run(ins) {
                let next = hot_run.get(pc + 1).copied().unwrap_or(0);
                hot_run[pc] = next.saturating_add(1);
            }
        }
        FnCode {
            name,
            arity,
            frame_size,
            quick,
            hot_run: hot_run.into_boxed_slice(),
            instrs: self.instrs,
            pats: self.pats,
            guards: self.guards,
            env_slots,
            self_slot,
            display: (Atom::new(&self.func.name), self.func.arity),
            line,
        }
    }

    fn compile_clauses_entry(&mut self, clauses: &[ClauseId], arity: u32) {
        self.alias_head_vars(clauses);
        for &cid in clauses {
            let clause = self.body.clause(cid).clone();
            let next = self.new_label();
            for (i, &p) in clause.pats.iter().enumerate() {
                self.emit_match(p, i as Slot, Some(next));
            }
            self.emit_guard(&clause.guard, next);
            let v = self.compile_expr(clause.body, true);
            self.emit_return(v);
            self.bind(next);
            self.next_temp = self.arity + self.body.var_count() as u32;
        }
        let _ = arity;
        self.emit(Instr::Fail {
            kind: FailKind::FunctionClause,
            src: 0,
        });
    }

    fn compile_function(&mut self) {
        let clauses = self.func.clauses.clone();
        self.compile_clauses_entry(&clauses, self.func.arity);
    }

    fn compile_lambda(&mut self, f: &ir::FunExpr) {
        self.compile_clauses_entry(&f.clauses, f.arity);
    }

    /// Return `v`; a constant computed just before is returned directly.
    fn emit_return(&mut self, v: Slot) {
        let here = self.instrs.len() as u32;
        if let Some(Instr::Const { dst, .. }) = self.instrs.last()
            && *dst == v
            && !self.labels.contains(&here)
            && let Some(Instr::Const { value, .. }) = self.instrs.pop()
        {
            // `N -> K` of a clause head: the integer test returns at once
            // on a match (the `ReturnConst` stays for any jump to it).
            let q = self.instrs.len();
            if let Some(Instr::MatchInt {
                src,
                imm,
                fail: Some(l),
            }) = self.instrs.last()
            {
                let fused = Instr::ReturnIfInt {
                    src: *src,
                    imm: *imm,
                    value: value.clone(),
                    fail: *l,
                };
                self.instrs[q - 1] = fused;
            }
            self.emit(Instr::ReturnConst { value });
            return;
        }
        match self.instrs.last() {
            Some(
                Instr::Op { dst, .. }
                | Instr::OpImm { dst, .. }
                | Instr::AddImm { dst, .. }
                | Instr::SubImm { dst, .. },
            ) if *dst == v && !self.labels.contains(&here) => {
                let fused = match self.instrs.pop() {
                    Some(Instr::Op { op, a, b, .. }) => Instr::ReturnOp { op, a, b },
                    Some(Instr::OpImm { op, a, imm, .. }) => Instr::ReturnOpImm { op, a, imm },
                    Some(Instr::AddImm { a, imm, .. }) => Instr::ReturnOpImm {
                        op: BinOp::Add,
                        a,
                        imm,
                    },
                    Some(Instr::SubImm { a, imm, .. }) => Instr::ReturnOpImm {
                        op: BinOp::Sub,
                        a,
                        imm,
                    },
                    _ => Instr::Return { src: v },
                };
                self.emit(fused);
            }
            _ => self.emit(Instr::Return { src: v }),
        }
    }

    /// Match `src` against pattern `p`; on failure jump to `fail`, or raise
    /// `{badmatch, V}`. A variable pattern is a move and `_` is nothing.
    fn emit_match(&mut self, p: PatId, src: Slot, fail: Option<Label>) {
        match self.compile_pat(p) {
            CPat::Wild => {}
            CPat::Var(dst) => {
                if dst != src {
                    self.emit(Instr::Move { dst, src });
                }
            }
            CPat::Lit(Term::Int(imm)) => self.emit(Instr::MatchInt { src, imm, fail }),
            CPat::Cons(h, t) if cons_part(&h).is_some() && cons_part(&t).is_some() => {
                self.emit(Instr::MatchCons {
                    src,
                    head: cons_part(&h).flatten(),
                    tail: cons_part(&t).flatten(),
                    fail,
                    take: false,
                })
            }
            CPat::Lit(Term::Atom(atom)) => self.emit(Instr::MatchAtom { src, atom, fail }),
            pat => {
                let idx = self.add_pat(pat);
                self.emit(Instr::Match {
                    pat: idx,
                    src,
                    fail,
                });
            }
        }
    }

    fn add_pat(&mut self, p: CPat) -> u32 {
        self.pats.push(p);
        (self.pats.len() - 1) as u32
    }

    fn emit_guard(&mut self, guard: &[Vec<ExprId>], fail: Label) {
        if guard.is_empty() {
            return;
        }
        let g: Vec<Vec<GExpr>> = guard
            .iter()
            .map(|conj| conj.iter().map(|&e| self.compile_gexpr(e)).collect())
            .collect();
        self.guards.push(g);
        let idx = (self.guards.len() - 1) as u32;
        self.emit(Instr::Guard { guard: idx, fail });
    }

    // ---- patterns ----

    fn compile_pat(&mut self, p: PatId) -> CPat {
        match self.body.pat(p).clone() {
            Pat::Missing => CPat::Never,
            Pat::Wild => CPat::Wild,
            Pat::Var(v) => CPat::Var(self.var(v)),
            Pat::Bound(v) => CPat::Bound(self.var(v)),
            Pat::Lit(l) => CPat::Lit(literal_term(&l)),
            Pat::Nil => CPat::Nil,
            Pat::Cons(h, t) => {
                CPat::Cons(Box::new(self.compile_pat(h)), Box::new(self.compile_pat(t)))
            }
            Pat::Tuple(items) => CPat::Tuple(items.iter().map(|&i| self.compile_pat(i)).collect()),
            Pat::Map(fields) => CPat::Map(
                fields
                    .iter()
                    .map(|&(k, v)| (self.compile_gexpr(k), self.compile_pat(v)))
                    .collect(),
            ),
            Pat::Binary(segs) => {
                let mut out = Vec::new();
                let mut sizes = Vec::new();
                for s in &segs {
                    sizes.push(s.size.map(|e| self.compile_gexpr(e)));
                    out.push(CSeg {
                        value: self.compile_pat(s.value),
                        size: None,
                        ty: s.ty,
                        signed: s.signed,
                        little: matches!(s.endian, Endian::Little),
                        unit: s.unit,
                    });
                }
                CPat::Binary(out.into(), sizes.into())
            }
            Pat::Alias(a, b) => {
                CPat::Alias(Box::new(self.compile_pat(a)), Box::new(self.compile_pat(b)))
            }
        }
    }

    // ---- guard expressions ----

    fn compile_gexpr(&mut self, e: ExprId) -> GExpr {
        match self.body.expr(e).clone() {
            Expr::Lit(l) => GExpr::Lit(literal_term(&l)),
            Expr::Var(v) => GExpr::Var(self.var(v)),
            Expr::Nil => GExpr::Lit(Term::Nil),
            Expr::Cons(h, t) => GExpr::Cons(
                Box::new(self.compile_gexpr(h)),
                Box::new(self.compile_gexpr(t)),
            ),
            Expr::Tuple(items) => {
                GExpr::Tuple(items.iter().map(|&i| self.compile_gexpr(i)).collect())
            }
            Expr::Map { base, fields } => GExpr::Map(
                base.map(|b| Box::new(self.compile_gexpr(b))),
                fields
                    .iter()
                    .map(|f| {
                        (
                            self.compile_gexpr(f.key),
                            self.compile_gexpr(f.value),
                            f.exact,
                        )
                    })
                    .collect(),
            ),
            Expr::Binary(segs) => GExpr::Binary(
                segs.iter()
                    .map(|s| CSeg {
                        value: self.compile_gexpr(s.value),
                        size: s.size.map(|x| self.compile_gexpr(x)),
                        ty: s.ty,
                        signed: s.signed,
                        little: matches!(s.endian, Endian::Little),
                        unit: s.unit,
                    })
                    .collect(),
            ),
            Expr::Op(op, a, b) => GExpr::Op(
                op,
                Box::new(self.compile_gexpr(a)),
                Box::new(self.compile_gexpr(b)),
            ),
            Expr::UnOp(op, a) => GExpr::UnOp(op, Box::new(self.compile_gexpr(a))),
            Expr::Call { target, args, .. }
                if let ir::CallTarget::Remote { module, function } = *target =>
            {
                let (m, f) = (self.body.expr(module), self.body.expr(function));
                let (Expr::Lit(Literal::Atom(m)), Expr::Lit(Literal::Atom(f))) = (m, f) else {
                    return GExpr::Invalid;
                };
                if m == "erlang" && f == "self" && args.is_empty() {
                    return GExpr::SelfPid;
                }
                match self
                    .table
                    .bifs
                    .lookup(Atom::new(m), Atom::new(f), args.len() as u32)
                {
                    Some(b) if b.is_pure() => {
                        GExpr::Call(b, args.iter().map(|&a| self.compile_gexpr(a)).collect())
                    }
                    _ => GExpr::Invalid,
                }
            }
            Expr::Case { kind, arg, clauses } => {
                let arg = self.compile_gexpr(arg);
                let cs = clauses
                    .iter()
                    .map(|&cid| {
                        let c = self.body.clause(cid).clone();
                        let p = c
                            .pats
                            .first()
                            .map(|&p| self.compile_pat(p))
                            .unwrap_or(CPat::Wild);
                        let g = c
                            .guard
                            .iter()
                            .map(|conj| conj.iter().map(|&e| self.compile_gexpr(e)).collect())
                            .collect();
                        (p, g, self.compile_gexpr(c.body))
                    })
                    .collect();
                GExpr::Case(Box::new(arg), cs, kind)
            }
            Expr::Block(items) => {
                GExpr::Block(items.iter().map(|&i| self.compile_gexpr(i)).collect())
            }
            _ => GExpr::Invalid,
        }
    }

    // ---- body expressions ----

    /// Compile `e`; returns the slot holding its value. `tail`: the value is
    /// returned right after (calls become tail calls).
    fn compile_expr(&mut self, e: ExprId, tail: bool) -> Slot {
        let expr = self.body.expr(e).clone();
        match expr {
            Expr::Missing => {
                let line = self.line_of(self.func.source_map.expr(e));
                self.emit(Instr::Missing { line });
                self.temp()
            }
            Expr::Lit(l) => {
                let t = self.temp();
                self.emit(Instr::Const {
                    dst: t,
                    value: literal_term(&l),
                });
                t
            }
            Expr::Var(v) => self.var(v),
            Expr::Nil => {
                let t = self.temp();
                self.emit(Instr::Const {
                    dst: t,
                    value: Term::Nil,
                });
                t
            }
            Expr::Cons(h, tl) => {
                if let Some(c) = self.constant(e) {
                    let t = self.temp();
                    self.emit(Instr::Const { dst: t, value: c });
                    return t;
                }
                let hs = self.compile_expr(h, false);
                let ts = self.compile_expr(tl, false);
                let t = self.temp();
                self.emit(Instr::Cons {
                    dst: t,
                    head: hs,
                    tail: ts,
                    moves: 0,
                });
                t
            }
            Expr::Tuple(items) => {
                if let Some(c) = self.constant(e) {
                    let t = self.temp();
                    self.emit(Instr::Const { dst: t, value: c });
                    return t;
                }
                let slots: Vec<Slot> = items.iter().map(|&i| self.compile_expr(i, false)).collect();
                let t = self.temp();
                self.emit(Instr::Tuple {
                    dst: t,
                    elems: slots.into(),
                });
                t
            }
            Expr::Binary(segs) => {
                let mut cs = Vec::new();
                for s in &segs {
                    let value = self.compile_expr(s.value, false);
                    let size = s.size.map(|x| self.compile_expr(x, false));
                    cs.push(CSeg {
                        value,
                        size,
                        ty: s.ty,
                        signed: s.signed,
                        little: matches!(s.endian, Endian::Little),
                        unit: s.unit,
                    });
                }
                let t = self.temp();
                self.emit(Instr::Binary {
                    dst: t,
                    segs: cs.into(),
                });
                t
            }
            Expr::Map { base, fields } => {
                let b = base.map(|b| self.compile_expr(b, false));
                let fs: Vec<(Slot, Slot, bool)> = fields
                    .iter()
                    .map(|f| {
                        let k = self.compile_expr(f.key, false);
                        let v = self.compile_expr(f.value, false);
                        (k, v, f.exact)
                    })
                    .collect();
                let t = self.temp();
                self.emit(Instr::Map {
                    dst: t,
                    base: b,
                    fields: fs.into(),
                });
                t
            }
            Expr::Block(items) => {
                let mut last = None;
                let n = items.len();
                for (i, &it) in items.iter().enumerate() {
                    last = Some(self.compile_expr(it, tail && i + 1 == n));
                }
                match last {
                    Some(s) => s,
                    None => {
                        let t = self.temp();
                        self.emit(Instr::Const {
                            dst: t,
                            value: Term::Nil,
                        });
                        t
                    }
                }
            }
            Expr::Match(p, rhs) => {
                let v = self.compile_expr(rhs, false);
                self.emit_match(p, v, None);
                v
            }
            Expr::MaybeMatch(p, rhs) => {
                // Outside a `maybe` (should not happen): behaves as a match.
                let v = self.compile_expr(rhs, false);
                self.emit_match(p, v, None);
                v
            }
            Expr::Op(op, a, b) if matches!(self.body.expr(b), Expr::Lit(Literal::Int(_))) => {
                let imm = match self.body.expr(b) {
                    Expr::Lit(Literal::Int(i)) => *i,
                    _ => unreachable_lit(),
                };
                let sa = self.compile_expr(a, false);
                let t = self.temp();
                self.emit(match op {
                    BinOp::Add => Instr::AddImm { dst: t, a: sa, imm },
                    BinOp::Sub => Instr::SubImm { dst: t, a: sa, imm },
                    _ => Instr::OpImm {
                        dst: t,
                        op,
                        a: sa,
                        imm,
                    },
                });
                t
            }
            Expr::Op(op, a, b) => {
                let sa = self.compile_expr(a, false);
                let sb = self.compile_expr(b, false);
                let t = self.temp();
                self.emit(Instr::Op {
                    dst: t,
                    op,
                    a: sa,
                    b: sb,
                });
                t
            }
            Expr::UnOp(op, a) => {
                let sa = self.compile_expr(a, false);
                let t = self.temp();
                self.emit(Instr::UnOp { dst: t, op, a: sa });
                t
            }
            Expr::Send { site, to, msg } => {
                let st = self.compile_expr(to, false);
                let sm = self.compile_expr(msg, false);
                let t = self.temp();
                self.emit(Instr::Send {
                    dst: t,
                    to: st,
                    msg: sm,
                    site: site.0,
                });
                t
            }
            Expr::Call { site, target, args } => self.compile_call(site.0, &target, &args, tail),
            Expr::Case { kind, arg, clauses } => {
                let v = self.compile_expr(arg, false);
                let result = self.temp();
                let end = self.new_label();
                // A record case's second clause only names the record: reaching it is the error.
                let live = if kind == CaseKind::Record && clauses.len() >= 2 {
                    &clauses[..1]
                } else {
                    &clauses[..]
                };
                for &cid in live {
                    let c = self.body.clause(cid).clone();
                    let next = self.new_label();
                    let mark = self.next_temp;
                    if let Some(&p) = c.pats.first() {
                        self.emit_match(p, v, Some(next));
                    }
                    self.emit_guard(&c.guard, next);
                    let r = self.compile_expr(c.body, tail);
                    self.emit(Instr::Move {
                        dst: result,
                        src: r,
                    });
                    self.emit(Instr::Jump(end));
                    self.bind(next);
                    self.next_temp = mark;
                }
                let kind = match kind {
                    CaseKind::Case => FailKind::CaseClause,
                    CaseKind::If => FailKind::IfClause,
                    CaseKind::Boolean => FailKind::BadargValue,
                    CaseKind::Record => FailKind::Badrecord(self.record_name(&clauses)),
                };
                self.emit(Instr::Fail { kind, src: v });
                self.bind(end);
                result
            }
            Expr::Receive { clauses, after } => {
                self.compile_receive(&clauses, after.as_ref(), tail)
            }
            Expr::Try(t) => {
                let ir::TryExpr {
                    body,
                    of_clauses,
                    catch_clauses,
                    after,
                } = *t;
                self.compile_try(body, &of_clauses, &catch_clauses, after, tail)
            }
            Expr::Catch(inner) => {
                let (c, r, s) = (self.temp(), self.temp(), self.temp());
                let result = self.temp();
                let handler = self.new_label();
                let end = self.new_label();
                self.emit(Instr::TryBegin {
                    handler,
                    class: c,
                    reason: r,
                    stack: s,
                });
                self.protected += 1;
                let v = self.compile_expr(inner, false);
                self.protected -= 1;
                self.emit(Instr::TryEnd);
                self.emit(Instr::Move {
                    dst: result,
                    src: v,
                });
                self.emit(Instr::Jump(end));
                self.bind(handler);
                self.emit(Instr::CatchValue {
                    dst: result,
                    class: c,
                    reason: r,
                    stack: s,
                });
                self.bind(end);
                result
            }
            Expr::Fun(f) => {
                let env: Vec<Slot> = f.free_vars.iter().map(|&v| self.var(v)).collect();
                let t = self.temp();
                self.emit(Instr::MakeFun {
                    dst: t,
                    fun: f.id.0,
                    env: env.into(),
                });
                self.lambdas.push((f.id.0, (*f).clone()));
                t
            }
            Expr::FunRef {
                module,
                name,
                arity,
            } => {
                let m = module.map(|m| self.compile_expr(m, false));
                let n = self.compile_expr(name, false);
                let a = self.compile_expr(arity, false);
                let t = self.temp();
                self.emit(Instr::MakeFunRef {
                    dst: t,
                    module: m,
                    name: n,
                    arity: a,
                });
                t
            }
            Expr::Comprehension(c) => self.compile_comprehension(&c),
            Expr::Maybe(m) => {
                let ir::MaybeExpr { body, else_clauses } = *m;
                self.compile_maybe(&body, else_clauses.as_deref(), tail)
            }
        }
    }

    fn record_name(&self, clauses: &[ClauseId]) -> Atom {
        if let Some(&c) = clauses.get(1) {
            let body = self.body.clause(c).body;
            if let Some(a) = self.find_atom(body, 4) {
                return a;
            }
        }
        Atom::new("badrecord")
    }

    fn find_atom(&self, e: ExprId, depth: u32) -> Option<Atom> {
        if depth == 0 {
            return None;
        }
        match self.body.expr(e) {
            Expr::Lit(Literal::Atom(a)) if a != "badrecord" && a != "erlang" && a != "error" => {
                Some(Atom::new(a))
            }
            Expr::Tuple(items) => items
                .iter()
                .rev()
                .find_map(|&i| self.find_atom(i, depth - 1)),
            Expr::Call { args, .. } => args.iter().find_map(|&i| self.find_atom(i, depth - 1)),
            Expr::Block(items) => items.iter().find_map(|&i| self.find_atom(i, depth - 1)),
            _ => None,
        }
    }

    /// A compile-time constant for literal-only lists/tuples (built once).
    fn constant(&self, e: ExprId) -> Option<Term> {
        match self.body.expr(e) {
            Expr::Lit(l) => Some(literal_term(l)),
            Expr::Nil => Some(Term::Nil),
            Expr::Cons(h, t) => Some(Term::cons(self.constant(*h)?, self.constant(*t)?)),
            Expr::Tuple(items) => {
                let v: Option<Vec<Term>> = items.iter().map(|&i| self.constant(i)).collect();
                Some(Term::tuple(v?))
            }
            _ => None,
        }
    }

    fn compile_call(
        &mut self,
        site: u32,
        target: &ir::CallTarget,
        args: &[ExprId],
        tail: bool,
    ) -> Slot {
        let arity = args.len() as u32;
        let callee = match target {
            ir::CallTarget::Local { name, arity: a } => {
                let name_atom = Atom::new(name);
                let this = self.table.modules[self.module_index as usize].name;
                if let Some(b) = self.table.bifs.lookup(this, name_atom, *a) {
                    Callee::Static(Target::Bif(b))
                } else {
                    let m = &self.table.modules[self.module_index as usize];
                    match m.fn_index.get(&(name_atom, *a)) {
                        Some(&fi) => {
                            Callee::Static(m.code_target(self.module_index, fi, name_atom, *a))
                        }
                        None => match self.table.bifs.lookup(Atom::ERLANG, name_atom, *a) {
                            Some(b) => Callee::Static(Target::Bif(b)),
                            None => Callee::Static(
                                self.table
                                    .module_info_target(this, name_atom, *a)
                                    .unwrap_or(Target::Undef {
                                        module: this,
                                        name: name_atom,
                                        arity: *a,
                                    }),
                            ),
                        },
                    }
                }
            }
            ir::CallTarget::Remote { module, function } => {
                match (self.body.expr(*module), self.body.expr(*function)) {
                    (Expr::Lit(Literal::Atom(m)), Expr::Lit(Literal::Atom(f))) => {
                        let t = self.table.resolve(Atom::new(m), Atom::new(f), arity);
                        if self.table.watched(&t).is_some() {
                            // Code that may change at run time: resolved at
                            // each call, which reads it (`exec`).
                            let m = self.compile_expr(*module, false);
                            let f = self.compile_expr(*function, false);
                            Callee::Dynamic { module: m, name: f }
                        } else {
                            Callee::Static(t)
                        }
                    }
                    _ => {
                        let m = self.compile_expr(*module, false);
                        let f = self.compile_expr(*function, false);
                        Callee::Dynamic { module: m, name: f }
                    }
                }
            }
            ir::CallTarget::Apply { fun } => {
                let f = self.compile_expr(*fun, false);
                Callee::Apply { fun: f }
            }
        };
        let mut slots: Vec<Slot> = args.iter().map(|&a| self.compile_expr(a, false)).collect();
        let tail = tail && self.protected == 0;
        if tail {
            // A tail call moves its arguments out of the dying frame: each
            // must come from its own slot.
            for i in 1..slots.len() {
                if slots[..i].contains(&slots[i]) {
                    let copy = self.temp();
                    self.emit(Instr::Move {
                        dst: copy,
                        src: slots[i],
                    });
                    slots[i] = copy;
                }
            }
        }
        let t = self.temp();
        match callee {
            Callee::Static(Target::Code { module, function }) => self.emit(Instr::CallCode {
                dst: t,
                module,
                function,
                args: slots.into(),
                tail,
                moves: 0,
            }),
            callee => self.emit(Instr::Call {
                dst: t,
                callee,
                args: slots.into(),
                tail,
                site,
                moves: 0,
            }),
        }
        t
    }

    fn compile_receive(
        &mut self,
        clauses: &[ClauseId],
        after: Option<&ir::After>,
        tail: bool,
    ) -> Slot {
        let timeout = after.map(|a| self.compile_expr(a.timeout, false));
        let result = self.temp();
        let msg = self.temp();
        let next = self.new_label();
        let wait = self.new_label();
        let after_l = self.new_label();
        let end = self.new_label();
        self.emit(Instr::RecvStart);
        self.bind(next);
        self.emit(Instr::RecvPeek {
            dst: msg,
            empty: wait,
        });
        for &cid in clauses {
            let c = self.body.clause(cid).clone();
            let nextc = self.new_label();
            let mark = self.next_temp;
            if let Some(&p) = c.pats.first() {
                self.emit_match(p, msg, Some(nextc));
            }
            self.emit_guard(&c.guard, nextc);
            self.emit(Instr::RecvAccept);
            let r = self.compile_expr(c.body, tail);
            self.emit(Instr::Move {
                dst: result,
                src: r,
            });
            self.emit(Instr::Jump(end));
            self.bind(nextc);
            self.next_temp = mark;
        }
        self.emit(Instr::RecvAdvance);
        self.emit(Instr::Jump(next));
        self.bind(wait);
        self.emit(Instr::RecvWait {
            timeout,
            resume: next,
            after: after_l,
        });
        self.bind(after_l);
        if let Some(a) = after {
            let r = self.compile_expr(a.body, tail);
            self.emit(Instr::Move {
                dst: result,
                src: r,
            });
        }
        self.bind(end);
        result
    }

    fn compile_try(
        &mut self,
        body: ExprId,
        of_clauses: &[ClauseId],
        catch_clauses: &[ClauseId],
        after: Option<ExprId>,
        tail: bool,
    ) -> Slot {
        let _ = tail;
        let result = self.temp();
        let (ac, ar, as_) = (self.temp(), self.temp(), self.temp());
        let after_handler = self.new_label();
        let done = self.new_label();
        if after.is_some() {
            self.emit(Instr::TryBegin {
                handler: after_handler,
                class: ac,
                reason: ar,
                stack: as_,
            });
            self.protected += 1;
        }
        let (c, r, s) = (self.temp(), self.temp(), self.temp());
        let handler = self.new_label();
        let ok = self.new_label();
        self.emit(Instr::TryBegin {
            handler,
            class: c,
            reason: r,
            stack: s,
        });
        self.protected += 1;
        let v = self.compile_expr(body, false);
        self.protected -= 1;
        self.emit(Instr::TryEnd);
        if of_clauses.is_empty() {
            self.emit(Instr::Move {
                dst: result,
                src: v,
            });
        } else {
            for &cid in of_clauses {
                let cl = self.body.clause(cid).clone();
                let next = self.new_label();
                if let Some(&p) = cl.pats.first() {
                    self.emit_match(p, v, Some(next));
                }
                self.emit_guard(&cl.guard, next);
                let rv = self.compile_expr(cl.body, false);
                self.emit(Instr::Move {
                    dst: result,
                    src: rv,
                });
                self.emit(Instr::Jump(ok));
                self.bind(next);
            }
            self.emit(Instr::Fail {
                kind: FailKind::TryClause,
                src: v,
            });
        }
        self.emit(Instr::Jump(ok));
        self.bind(handler);
        if catch_clauses.is_empty() {
            self.emit(Instr::Reraise {
                class: c,
                reason: r,
                stack: s,
            });
        }
        for &cid in catch_clauses {
            let cl = self.body.clause(cid).clone();
            let next = self.new_label();
            for (i, &p) in cl.pats.iter().enumerate().take(3) {
                self.emit_match(p, [c, r, s][i], Some(next));
            }
            self.emit_guard(&cl.guard, next);
            let rv = self.compile_expr(cl.body, false);
            self.emit(Instr::Move {
                dst: result,
                src: rv,
            });
            self.emit(Instr::Jump(ok));
            self.bind(next);
        }
        if !catch_clauses.is_empty() {
            self.emit(Instr::Reraise {
                class: c,
                reason: r,
                stack: s,
            });
        }
        self.bind(ok);
        if let Some(a) = after {
            self.protected -= 1;
            self.emit(Instr::TryEnd);
            self.compile_expr(a, false);
            self.emit(Instr::Jump(done));
            self.bind(after_handler);
            self.compile_expr(a, false);
            self.emit(Instr::Reraise {
                class: ac,
                reason: ar,
                stack: as_,
            });
        }
        self.bind(done);
        result
    }

    fn compile_maybe(
        &mut self,
        body: &[ExprId],
        else_clauses: Option<&[ClauseId]>,
        tail: bool,
    ) -> Slot {
        let _ = tail;
        let result = self.temp();
        let failed = self.temp();
        let else_l = self.new_label();
        let end = self.new_label();
        for &item in body {
            match self.body.expr(item).clone() {
                Expr::MaybeMatch(p, rhs) => {
                    let v = self.compile_expr(rhs, false);
                    self.emit(Instr::Move {
                        dst: failed,
                        src: v,
                    });
                    self.emit_match(p, v, Some(else_l));
                    self.emit(Instr::Move {
                        dst: result,
                        src: v,
                    });
                }
                _ => {
                    let v = self.compile_expr(item, false);
                    self.emit(Instr::Move {
                        dst: result,
                        src: v,
                    });
                }
            }
        }
        self.emit(Instr::Jump(end));
        self.bind(else_l);
        match else_clauses {
            None => self.emit(Instr::Move {
                dst: result,
                src: failed,
            }),
            Some(clauses) => {
                for &cid in clauses {
                    let c = self.body.clause(cid).clone();
                    let next = self.new_label();
                    if let Some(&p) = c.pats.first() {
                        self.emit_match(p, failed, Some(next));
                    }
                    self.emit_guard(&c.guard, next);
                    let r = self.compile_expr(c.body, false);
                    self.emit(Instr::Move {
                        dst: result,
                        src: r,
                    });
                    self.emit(Instr::Jump(end));
                    self.bind(next);
                }
                self.emit(Instr::Fail {
                    kind: FailKind::ElseClause,
                    src: failed,
                });
            }
        }
        self.bind(end);
        result
    }

    fn compile_comprehension(&mut self, c: &ir::Comprehension) -> Slot {
        let acc = self.temp();
        self.emit(Instr::Const {
            dst: acc,
            value: Term::Nil,
        });
        let end = self.new_label();
        self.compile_qualifiers(c, 0, acc, end);
        self.bind(end);
        let t = self.temp();
        self.emit(Instr::AccFinish {
            dst: t,
            acc,
            kind: c.kind,
        });
        t
    }

    fn compile_qualifiers(&mut self, c: &ir::Comprehension, i: usize, acc: Slot, cont: Label) {
        if i == c.qualifiers.len() {
            let v = self.compile_expr(c.body, false);
            self.emit(Instr::AccPush { acc, value: v });
            self.emit(Instr::Jump(cont));
            return;
        }
        match &c.qualifiers[i] {
            Qualifier::Filter(e) => {
                let g = self.compile_gexpr(*e);
                if guard_valid(&g) {
                    self.guards.push(vec![vec![g]]);
                    let idx = (self.guards.len() - 1) as u32;
                    self.emit(Instr::Guard {
                        guard: idx,
                        fail: cont,
                    });
                } else {
                    let v = self.compile_expr(*e, false);
                    self.emit(Instr::Filter { src: v, fail: cont });
                }
                self.compile_qualifiers(c, i + 1, acc, cont);
            }
            // A relaxed generator skips what its pattern does not match (in
            // a bitstring, as much as the pattern would take); a strict one
            // (OTP 28) raises `{badmatch, E}` with the element, the `{K, V}`
            // pair or the rest of the bitstring.
            Qualifier::Generator {
                kind,
                pat,
                expr,
                strict,
            } => {
                let src = self.compile_expr(*expr, false);
                let list = self.temp();
                match kind {
                    GeneratorKind::Map => self.emit(Instr::MapToList { dst: list, src }),
                    _ => self.emit(Instr::Move { dst: list, src }),
                }
                let lp = self.new_label();
                let done = self.new_label();
                let rest_l = self.new_label();
                self.bind(lp);
                if matches!(kind, GeneratorKind::Binary) {
                    let cp = self.compile_pat(*pat);
                    let pidx = self.add_pat(cp);
                    let nomatch = self.new_label();
                    self.emit(Instr::BinNext {
                        bits: list,
                        pat: pidx,
                        done: nomatch,
                    });
                    self.emit(Instr::Jump(rest_l));
                    self.bind(nomatch);
                    if *strict {
                        let empty =
                            self.add_pat(CPat::Binary(Vec::new().into(), Vec::new().into()));
                        let raise = self.new_label();
                        self.emit(Instr::Match {
                            pat: empty,
                            src: list,
                            fail: Some(raise),
                        });
                        self.emit(Instr::Jump(done));
                        self.bind(raise);
                        self.emit(Instr::Fail {
                            kind: FailKind::Badmatch,
                            src: list,
                        });
                    } else {
                        let (segs, sizes) = self.skeleton_segs(*pat);
                        let skel = self.add_pat(CPat::Binary(segs.into(), sizes.into()));
                        self.emit(Instr::BinNext {
                            bits: list,
                            pat: skel,
                            done,
                        });
                        self.emit(Instr::Jump(lp));
                    }
                } else {
                    let head = self.temp();
                    self.emit(Instr::ListNext { list, head, done });
                    self.emit_match(*pat, head, if *strict { None } else { Some(lp) });
                }
                self.bind(rest_l);
                self.compile_qualifiers(c, i + 1, acc, lp);
                self.bind(done);
                self.emit(Instr::Jump(cont));
            }
            Qualifier::Zip(gens) => self.compile_zip(c, i, gens, acc, cont),
        }
    }

    /// An OTP 28 zip generator (EEP 73), as OTP 28 evaluates it: every
    /// generator's expression first (a map generator's non-map raises
    /// `{bad_generator, M}` here), then rounds. A round ends the zip when
    /// every generator is exhausted, raises `{bad_generators, Remaining}`
    /// when only some are (`Remaining`: the tuple of what each had left at
    /// the round's start, a map generator's as a map), else takes one element
    /// of each and matches the patterns left to right: a relaxed mismatch
    /// skips the round (all generators still advance), a strict one, an
    /// improper list tail or a non-bitstring raises `{bad_generators, ...}`.
    /// A binary generator is exhausted when its pattern, values ignored, no
    /// longer matches what is left (a relaxed mismatch skips that much).
    /// Not reproduced: a strict pattern reusing a variable of a relaxed one
    /// that failed in the same round compares with the previous round's value.
    fn compile_zip(
        &mut self,
        c: &ir::Comprehension,
        i: usize,
        gens: &[ir::Generator],
        acc: Slot,
        cont: Label,
    ) {
        let rests: Vec<Slot> = gens
            .iter()
            .map(|g| {
                let src = self.compile_expr(g.expr, false);
                let rest = self.temp();
                match g.kind {
                    GeneratorKind::Map => self.emit(Instr::MapToList { dst: rest, src }),
                    _ => self.emit(Instr::Move { dst: rest, src }),
                }
                rest
            })
            .collect();
        let snaps: Vec<Slot> = gens.iter().map(|_| self.temp()).collect();
        let (any_end, all_end, skip) = (self.temp(), self.temp(), self.temp());
        let round = self.new_label();
        let done = self.new_label();
        let bad = self.new_label();
        let atom = |b: bool| Term::Atom(Atom::bool(b));
        self.bind(round);
        for (&rest, &snap) in rests.iter().zip(&snaps) {
            self.emit(Instr::Move {
                dst: snap,
                src: rest,
            });
        }
        self.emit(Instr::Const {
            dst: any_end,
            value: atom(false),
        });
        self.emit(Instr::Const {
            dst: all_end,
            value: atom(true),
        });
        // Which generators are exhausted?
        for (g, &rest) in gens.iter().zip(&rests) {
            let at_end = self.new_label();
            let not_end = self.new_label();
            let next = self.new_label();
            if g.kind == GeneratorKind::Binary {
                let any_bits = self.add_pat(bits_pat(Vec::new(), Vec::new()));
                self.emit(Instr::Match {
                    pat: any_bits,
                    src: rest,
                    fail: Some(not_end),
                });
                let (segs, sizes) = self.skeleton_segs(g.pat);
                let prefix = self.add_pat(bits_pat(segs, sizes));
                self.emit(Instr::Match {
                    pat: prefix,
                    src: rest,
                    fail: Some(at_end),
                });
                self.emit(Instr::Jump(not_end));
            } else {
                let nil = self.add_pat(CPat::Nil);
                self.emit(Instr::Match {
                    pat: nil,
                    src: rest,
                    fail: Some(not_end),
                });
            }
            self.bind(at_end);
            self.emit(Instr::Const {
                dst: any_end,
                value: atom(true),
            });
            self.emit(Instr::Jump(next));
            self.bind(not_end);
            self.emit(Instr::Const {
                dst: all_end,
                value: atom(false),
            });
            self.bind(next);
        }
        let some_end = self.new_label();
        let is_true = self.add_pat(CPat::Lit(atom(true)));
        let is_false = self.add_pat(CPat::Lit(atom(false)));
        self.emit(Instr::Match {
            pat: is_true,
            src: all_end,
            fail: Some(some_end),
        });
        self.emit(Instr::Jump(done));
        self.bind(some_end);
        self.emit(Instr::Match {
            pat: is_false,
            src: any_end,
            fail: Some(bad),
        });
        // Take one element of each, matching the patterns left to right.
        self.emit(Instr::Const {
            dst: skip,
            value: atom(false),
        });
        for (g, &rest) in gens.iter().zip(&rests) {
            let failed = self.new_label();
            let next = self.new_label();
            let cp = self.compile_pat(g.pat);
            let pidx = self.add_pat(cp);
            if g.kind == GeneratorKind::Binary {
                let any_bits = self.add_pat(bits_pat(Vec::new(), Vec::new()));
                self.emit(Instr::Match {
                    pat: any_bits,
                    src: rest,
                    fail: Some(bad),
                });
                self.emit(Instr::BinNext {
                    bits: rest,
                    pat: pidx,
                    done: failed,
                });
            } else {
                let cons = self.add_pat(CPat::Cons(Box::new(CPat::Wild), Box::new(CPat::Wild)));
                self.emit(Instr::Match {
                    pat: cons,
                    src: rest,
                    fail: Some(bad),
                });
                let head = self.temp();
                self.emit(Instr::ListNext {
                    list: rest,
                    head,
                    done: bad,
                });
                self.emit(Instr::Match {
                    pat: pidx,
                    src: head,
                    fail: Some(failed),
                });
            }
            self.emit(Instr::Jump(next));
            self.bind(failed);
            if g.strict {
                self.emit(Instr::Jump(bad));
            } else {
                self.emit(Instr::Const {
                    dst: skip,
                    value: atom(true),
                });
                if g.kind == GeneratorKind::Binary {
                    // Skip as much as the pattern would have taken.
                    let (segs, sizes) = self.skeleton_segs(g.pat);
                    let skel = self.add_pat(CPat::Binary(segs.into(), sizes.into()));
                    self.emit(Instr::BinNext {
                        bits: rest,
                        pat: skel,
                        done: bad,
                    });
                }
            }
            self.bind(next);
        }
        self.emit(Instr::Match {
            pat: is_false,
            src: skip,
            fail: Some(round),
        });
        self.compile_qualifiers(c, i + 1, acc, round);
        // `{bad_generators, {Remaining...}}`
        self.bind(bad);
        let shown: Vec<Slot> = gens
            .iter()
            .zip(&snaps)
            .map(|(g, &snap)| {
                if g.kind == GeneratorKind::Map {
                    let m = self.temp();
                    self.emit(Instr::AccFinish {
                        dst: m,
                        acc: snap,
                        kind: ComprehensionKind::Map,
                    });
                    m
                } else {
                    snap
                }
            })
            .collect();
        let remaining = self.temp();
        self.emit(Instr::Tuple {
            dst: remaining,
            elems: shown.into(),
        });
        let tag = self.temp();
        self.emit(Instr::Const {
            dst: tag,
            value: Term::atom("bad_generators"),
        });
        let reason = self.temp();
        self.emit(Instr::Tuple {
            dst: reason,
            elems: vec![tag, remaining].into(),
        });
        match self.table.bifs.lookup(Atom::ERLANG, Atom::ERROR, 1) {
            Some(b) => {
                let t = self.temp();
                self.emit(Instr::Call {
                    dst: t,
                    callee: Callee::Static(Target::Bif(b)),
                    args: vec![reason].into(),
                    tail: false,
                    site: u32::MAX,
                    moves: 0,
                });
            }
            None => self.emit(Instr::Fail {
                kind: FailKind::Badmatch,
                src: reason,
            }),
        }
        self.bind(done);
        self.emit(Instr::Jump(cont));
    }

    /// The segments of a binary generator's pattern with every value that
    /// tests something made `_` (sizes kept; a variable still binds, for
    /// sizes like `<<N:8, X:N/binary>>`): what the pattern would consume,
    /// whatever matches.
    fn skeleton_segs(&mut self, p: PatId) -> (Vec<CSeg<CPat>>, Vec<Option<GExpr>>) {
        match self.compile_pat(p) {
            CPat::Binary(segs, sizes) => (
                segs.into_vec()
                    .into_iter()
                    .map(|s| CSeg {
                        value: match s.value {
                            CPat::Var(v) => CPat::Var(v),
                            _ => CPat::Wild,
                        },
                        ..s
                    })
                    .collect(),
                sizes.into_vec(),
            ),
            _ => (Vec::new(), Vec::new()),
        }
    }
}

/// A binary pattern: `segs` followed by `_/bitstring` (so it matches any
/// bitstring that starts with them).
fn bits_pat(mut segs: Vec<CSeg<CPat>>, mut sizes: Vec<Option<GExpr>>) -> CPat {
    segs.push(CSeg {
        value: CPat::Wild,
        size: None,
        ty: BinType::Bitstring,
        signed: false,
        little: false,
        unit: 1,
    });
    sizes.push(None);
    CPat::Binary(segs.into(), sizes.into())
}

/// A part of a `[H | T]` pattern that `MatchCons` binds: `Some(Some(slot))`
/// for a variable, `Some(None)` for `_`, `None` for anything else.
fn cons_part(p: &CPat) -> Option<Option<Slot>> {
    match p {
        CPat::Var(s) => Some(Some(*s)),
        CPat::Wild => Some(None),
        _ => None,
    }
}

/// The guard of the `OpImm` arm checked the literal; this is never reached.
fn unreachable_lit() -> i64 {
    0
}

/// Is this a guard expression (no call outside the guard BIFs)? Such
/// comprehension filters are evaluated as guards: an exception means false.
fn guard_valid(g: &GExpr) -> bool {
    match g {
        GExpr::Invalid => false,
        GExpr::Lit(_) | GExpr::Var(_) | GExpr::SelfPid => true,
        GExpr::Cons(a, b) | GExpr::Op(_, a, b) => guard_valid(a) && guard_valid(b),
        GExpr::UnOp(_, a) => guard_valid(a),
        GExpr::Tuple(items) | GExpr::Block(items) => items.iter().all(guard_valid),
        GExpr::Call(b, args) => b.module == Atom::ERLANG && args.iter().all(guard_valid),
        GExpr::Map(base, fields) => {
            base.as_deref().is_none_or(guard_valid)
                && fields
                    .iter()
                    .all(|(k, v, _)| guard_valid(k) && guard_valid(v))
        }
        GExpr::Binary(segs) => segs
            .iter()
            .all(|s| guard_valid(&s.value) && s.size.as_ref().is_none_or(guard_valid)),
        GExpr::Case(arg, clauses, kind) => {
            *kind == CaseKind::Boolean
                && guard_valid(arg)
                && clauses
                    .iter()
                    .all(|(_, g, b)| g.iter().flatten().all(guard_valid) && guard_valid(b))
        }
    }
}

/// Bitstring helpers shared by construction and matching.
pub fn empty_bits() -> Bitstr {
    Bitstr::from_bytes(Vec::new())
}
