//! Frame layout: after a function is compiled, the slots it really uses are
//! renumbered densely ([`compact_slots`]), so a frame holds no holes (IR
//! variables that live in an argument's slot, variables of other clauses'
//! lambdas). Smaller frames make deep body recursion touch less memory.
//!
//! Argument slots keep their numbers; the others keep their relative order,
//! so "distinct source slots" and "source not below its argument" facts the
//! compiler relied on still hold.

use crate::code::{CPat, CSeg, Callee, GExpr, Instr, Slot};

/// The parts of a compiled function that name slots.
pub struct SlotUsers<'a> {
    pub instrs: &'a mut [Instr],
    pub pats: &'a mut [CPat],
    pub guards: &'a mut [Vec<Vec<GExpr>>],
    pub env_slots: &'a mut [Slot],
    pub self_slot: Option<&'a mut Slot>,
}

/// Renumber the used slots `>= arity` densely after the arguments; returns
/// the frame size (at least 1: a function-clause failure reads slot 0).
pub fn compact_slots(users: SlotUsers<'_>, arity: u32) -> u32 {
    let SlotUsers {
        instrs,
        pats,
        guards,
        env_slots,
        mut self_slot,
    } = users;
    let mut used: Vec<bool> = Vec::new();
    {
        let mut mark = |s: &mut Slot| {
            let i = *s as usize;
            if used.len() <= i {
                used.resize(i + 1, false);
            }
            used[i] = true;
        };
        visit_all(
            instrs,
            pats,
            guards,
            env_slots,
            self_slot.as_deref_mut(),
            &mut mark,
        );
    }
    let mut map: Vec<Slot> = vec![0; used.len()];
    let mut next = arity;
    for (i, u) in used.iter().enumerate() {
        if (i as u32) < arity {
            map[i] = i as Slot;
        } else if *u {
            map[i] = next;
            next += 1;
        }
    }
    let mut apply = |s: &mut Slot| *s = map[*s as usize];
    visit_all(instrs, pats, guards, env_slots, self_slot, &mut apply);
    next.max(arity).max(1)
}

fn visit_all(
    instrs: &mut [Instr],
    pats: &mut [CPat],
    guards: &mut [Vec<Vec<GExpr>>],
    env_slots: &mut [Slot],
    self_slot: Option<&mut Slot>,
    f: &mut dyn FnMut(&mut Slot),
) {
    for i in instrs.iter_mut() {
        instr(i, f);
    }
    for p in pats.iter_mut() {
        pat(p, f);
    }
    for g in guards.iter_mut().flatten().flatten() {
        gexpr(g, f);
    }
    for s in env_slots.iter_mut() {
        f(s);
    }
    if let Some(s) = self_slot {
        f(s);
    }
}

fn opt(s: &mut Option<Slot>, f: &mut dyn FnMut(&mut Slot)) {
    if let Some(s) = s {
        f(s);
    }
}

pub(crate) fn instr(i: &mut Instr, f: &mut dyn FnMut(&mut Slot)) {
    match i {
        Instr::Const { dst, value: _ } => f(dst),
        Instr::Move { dst, src } | Instr::MoveLast { dst, src } => {
            f(dst);
            f(src);
        }
        Instr::Cons {
            dst,
            head,
            tail,
            moves: _,
        } => {
            f(dst);
            f(head);
            f(tail);
        }
        Instr::Tuple { dst, elems } => {
            f(dst);
            elems.iter_mut().for_each(&mut *f);
        }
        Instr::Map { dst, base, fields } => {
            f(dst);
            opt(base, f);
            for (k, v, _) in fields.iter_mut() {
                f(k);
                f(v);
            }
        }
        Instr::Binary { dst, segs } => {
            f(dst);
            for s in segs.iter_mut() {
                f(&mut s.value);
                opt(&mut s.size, f);
            }
        }
        Instr::Op { dst, op: _, a, b } => {
            f(dst);
            f(a);
            f(b);
        }
        Instr::OpImm {
            dst,
            op: _,
            a,
            imm: _,
        }
        | Instr::AddImm { dst, a, imm: _ }
        | Instr::SubImm { dst, a, imm: _ } => {
            f(dst);
            f(a);
        }
        Instr::UnOp { dst, op: _, a } => {
            f(dst);
            f(a);
        }
        Instr::Match {
            pat: _,
            src,
            fail: _,
        }
        | Instr::MatchInt {
            src,
            imm: _,
            fail: _,
        }
        | Instr::MatchAtom {
            src,
            atom: _,
            fail: _,
        }
        | Instr::Filter { src, fail: _ }
        | Instr::Fail { kind: _, src }
        | Instr::Return { src } => f(src),
        Instr::ReturnOp { op: _, a, b } => {
            f(a);
            f(b);
        }
        Instr::ReturnOpImm { op: _, a, imm: _ } => f(a),
        Instr::ReturnIfInt {
            src,
            imm: _,
            value: _,
            fail: _,
        } => f(src),
        Instr::MatchCons {
            src,
            head,
            tail,
            fail: _,
            take: _,
        } => {
            f(src);
            opt(head, f);
            opt(tail, f);
        }
        Instr::Guard { .. }
        | Instr::Jump(_)
        | Instr::ReturnConst { .. }
        | Instr::TryEnd
        | Instr::RecvStart
        | Instr::RecvAdvance
        | Instr::RecvAccept
        | Instr::Missing { .. } => {}
        Instr::Call {
            dst,
            callee,
            args,
            tail: _,
            site: _,
            moves: _,
        } => {
            f(dst);
            match callee {
                Callee::Static(_) => {}
                Callee::Dynamic { module, name } => {
                    f(module);
                    f(name);
                }
                Callee::Apply { fun } => f(fun),
            }
            args.iter_mut().for_each(&mut *f);
        }
        Instr::CallCode {
            dst,
            module: _,
            function: _,
            args,
            tail: _,
            moves: _,
        } => {
            f(dst);
            args.iter_mut().for_each(&mut *f);
        }
        Instr::Send {
            dst,
            to,
            msg,
            site: _,
        } => {
            f(dst);
            f(to);
            f(msg);
        }
        Instr::MakeFun { dst, fun: _, env } => {
            f(dst);
            env.iter_mut().for_each(&mut *f);
        }
        Instr::MakeFunRef {
            dst,
            module,
            name,
            arity,
        } => {
            f(dst);
            opt(module, f);
            f(name);
            f(arity);
        }
        Instr::TryBegin {
            handler: _,
            class,
            reason,
            stack,
        }
        | Instr::Reraise {
            class,
            reason,
            stack,
        } => {
            f(class);
            f(reason);
            f(stack);
        }
        Instr::CatchValue {
            dst,
            class,
            reason,
            stack,
        } => {
            f(dst);
            f(class);
            f(reason);
            f(stack);
        }
        Instr::RecvPeek { dst, empty: _ } => f(dst),
        Instr::RecvWait {
            timeout,
            resume: _,
            after: _,
        } => opt(timeout, f),
        Instr::ListNext {
            list,
            head,
            done: _,
        } => {
            f(list);
            f(head);
        }
        Instr::BinNext {
            bits,
            pat: _,
            done: _,
        } => f(bits),
        Instr::AccPush { acc, value } => {
            f(acc);
            f(value);
        }
        Instr::AccFinish { dst, acc, kind: _ } => {
            f(dst);
            f(acc);
        }
        Instr::MapToList { dst, src } => {
            f(dst);
            f(src);
        }
    }
}

pub(crate) fn pat(p: &mut CPat, f: &mut dyn FnMut(&mut Slot)) {
    match p {
        CPat::Wild | CPat::Lit(_) | CPat::Nil | CPat::Never => {}
        CPat::Var(s) | CPat::Bound(s) => f(s),
        CPat::Cons(h, t) => {
            pat(h, f);
            pat(t, f);
        }
        CPat::Tuple(items) => items.iter_mut().for_each(|x| pat(x, f)),
        CPat::Map(fields) => {
            for (k, v) in fields.iter_mut() {
                gexpr(k, f);
                pat(v, f);
            }
        }
        CPat::Binary(segs, sizes) => {
            for s in segs.iter_mut() {
                seg_pat(s, f);
            }
            for g in sizes.iter_mut().flatten() {
                gexpr(g, f);
            }
        }
        CPat::Alias(a, b) => {
            pat(a, f);
            pat(b, f);
        }
    }
}

fn seg_pat(s: &mut CSeg<CPat>, f: &mut dyn FnMut(&mut Slot)) {
    pat(&mut s.value, f);
    if let Some(z) = &mut s.size {
        pat(z, f);
    }
}

pub(crate) fn gexpr(g: &mut GExpr, f: &mut dyn FnMut(&mut Slot)) {
    match g {
        GExpr::Lit(_) | GExpr::SelfPid | GExpr::Invalid => {}
        GExpr::Var(s) => f(s),
        GExpr::Cons(h, t) => {
            gexpr(h, f);
            gexpr(t, f);
        }
        GExpr::Tuple(items) | GExpr::Block(items) => items.iter_mut().for_each(|x| gexpr(x, f)),
        GExpr::Map(base, fields) => {
            if let Some(b) = base {
                gexpr(b, f);
            }
            for (k, v, _) in fields.iter_mut() {
                gexpr(k, f);
                gexpr(v, f);
            }
        }
        GExpr::Binary(segs) => {
            for s in segs.iter_mut() {
                gexpr(&mut s.value, f);
                if let Some(z) = &mut s.size {
                    gexpr(z, f);
                }
            }
        }
        GExpr::Op(_, a, b) => {
            gexpr(a, f);
            gexpr(b, f);
        }
        GExpr::UnOp(_, a) => gexpr(a, f),
        GExpr::Call(_, args) => args.iter_mut().for_each(|x| gexpr(x, f)),
        GExpr::Case(arg, clauses, _) => {
            gexpr(arg, f);
            for (p, guard, body) in clauses.iter_mut() {
                pat(p, f);
                for g in guard.iter_mut().flatten() {
                    gexpr(g, f);
                }
                gexpr(body, f);
            }
        }
    }
}
