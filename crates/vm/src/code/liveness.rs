//! Last uses: a backward liveness pass over a compiled function marks the
//! arguments of non-tail calls, the operands of `Cons` and the sources of
//! `Move` that are dead afterwards, so the loop moves them instead of copying (no reference-count
//! traffic, and values are freed as soon as they are consumed).
//!
//! Reads are over-approximated and writes under-approximated wherever an
//! instruction is not simple (patterns, guards, receive, comprehensions), so
//! a slot is only ever marked dead when no path reads it again. A function
//! with a `try`/`catch` is left alone: its handler may read any slot.

use super::layout;
use crate::code::{CPat, Callee, GExpr, Instr, Slot};

/// Slots as a bit set.
#[derive(Clone, PartialEq)]
struct Set(Vec<u64>);

impl Set {
    fn new(words: usize) -> Set {
        Set(vec![0; words])
    }
    fn insert(&mut self, s: Slot) {
        let (w, b) = ((s / 64) as usize, s % 64);
        if let Some(x) = self.0.get_mut(w) {
            *x |= 1 << b;
        }
    }
    fn remove(&mut self, s: Slot) {
        let (w, b) = ((s / 64) as usize, s % 64);
        if let Some(x) = self.0.get_mut(w) {
            *x &= !(1 << b);
        }
    }
    fn contains(&self, s: Slot) -> bool {
        let (w, b) = ((s / 64) as usize, s % 64);
        // A slot beyond the frame is treated as live (never moved).
        self.0.get(w).is_none_or(|x| x & (1 << b) != 0)
    }
    fn union_with(&mut self, o: &Set) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= *b;
        }
    }
}

/// Mark last-use moves in `instrs` (see the module doc).
pub fn mark_moves(
    instrs: &mut [Instr],
    pats: &mut [CPat],
    guards: &mut [Vec<Vec<GExpr>>],
    frame_size: u32,
) {
    if instrs.iter().any(|i| matches!(i, Instr::TryBegin { .. })) {
        return;
    }
    let n = instrs.len();
    let words = (frame_size as usize).div_ceil(64).max(1);
    let mut uses = Vec::with_capacity(n);
    let mut defs = Vec::with_capacity(n);
    for ins in instrs.iter_mut() {
        let (u, d) = uses_defs(ins, pats, guards, words);
        uses.push(u);
        defs.push(d);
    }
    let succs: Vec<Vec<usize>> = (0..n).map(|i| successors(&instrs[i], i, n)).collect();
    let mut live_in = vec![Set::new(words); n];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let mut s = Set::new(words);
            for &j in &succs[i] {
                s.union_with(&live_in[j]);
            }
            for &d in &defs[i] {
                s.remove(d);
            }
            s.union_with(&uses[i]);
            if s != live_in[i] {
                live_in[i] = s;
                changed = true;
            }
        }
    }
    for i in 0..n {
        let mut out = Set::new(words);
        for &j in &succs[i] {
            out.union_with(&live_in[j]);
        }
        match &mut instrs[i] {
            Instr::CallCode {
                args,
                tail: false,
                moves,
                ..
            } => *moves = arg_moves(args, &[], &out),
            Instr::Call {
                callee,
                args,
                tail: false,
                moves,
                ..
            } => {
                let held: Vec<Slot> = match callee {
                    Callee::Static(_) => Vec::new(),
                    Callee::Dynamic { module, name } => vec![*module, *name],
                    Callee::Apply { fun } => vec![*fun],
                };
                *moves = arg_moves(args, &held, &out);
            }
            Instr::MatchCons {
                src,
                head,
                tail,
                take,
                ..
            } => {
                // Dead on the way on (a failed match leaves the slot as it was).
                let after = live_in.get(i + 1);
                *take = after.is_some_and(|l| !l.contains(*src))
                    && Some(*src) != *head
                    && Some(*src) != *tail;
            }
            Instr::Move { dst, src } if dst != src && !out.contains(*src) => {
                instrs[i] = Instr::MoveLast {
                    dst: *dst,
                    src: *src,
                };
            }
            Instr::Cons {
                head, tail, moves, ..
            } => {
                let mut m = 0;
                if head != tail && !out.contains(*head) {
                    m |= 1;
                }
                if head != tail && !out.contains(*tail) {
                    m |= 2;
                }
                *moves = m;
            }
            _ => {}
        }
    }
}

/// Bit `j` set: argument `j` is read for the last time here (and only once).
fn arg_moves(args: &[Slot], held: &[Slot], out: &Set) -> u32 {
    let mut m = 0u32;
    for (j, s) in args.iter().enumerate().take(32) {
        let once = args.iter().filter(|x| *x == s).count() == 1;
        if once && !held.contains(s) && !out.contains(*s) {
            m |= 1 << j;
        }
    }
    m
}

fn successors(ins: &Instr, i: usize, n: usize) -> Vec<usize> {
    let next = |v: &mut Vec<usize>| {
        if i + 1 < n {
            v.push(i + 1);
        }
    };
    let mut v = Vec::new();
    match ins {
        Instr::Jump(l) => v.push(*l as usize),
        Instr::Return { .. }
        | Instr::ReturnConst { .. }
        | Instr::ReturnOp { .. }
        | Instr::ReturnOpImm { .. }
        | Instr::Fail { .. }
        | Instr::Reraise { .. } => {}
        Instr::Match { fail, .. }
        | Instr::MatchInt { fail, .. }
        | Instr::MatchCons { fail, .. }
        | Instr::MatchAtom { fail, .. } => {
            next(&mut v);
            if let Some(l) = fail {
                v.push(*l as usize);
            }
        }
        Instr::Guard { fail, .. }
        | Instr::Filter { fail, .. }
        | Instr::ReturnIfInt { fail, .. } => {
            next(&mut v);
            v.push(*fail as usize);
        }
        Instr::RecvPeek { empty, .. } => {
            next(&mut v);
            v.push(*empty as usize);
        }
        Instr::RecvWait { resume, after, .. } => {
            next(&mut v);
            v.push(*resume as usize);
            v.push(*after as usize);
        }
        Instr::ListNext { done, .. } | Instr::BinNext { done, .. } => {
            next(&mut v);
            v.push(*done as usize);
        }
        Instr::TryBegin { handler, .. } => {
            next(&mut v);
            v.push(*handler as usize);
        }
        _ => next(&mut v),
    }
    v.retain(|&j| j < n);
    v
}

/// Slots an instruction may read, and slots it surely writes on every way out.
fn uses_defs(
    ins: &mut Instr,
    pats: &mut [CPat],
    guards: &mut [Vec<Vec<GExpr>>],
    words: usize,
) -> (Set, Vec<Slot>) {
    let mut u = Set::new(words);
    let mut d = Vec::new();
    match ins {
        Instr::Const { dst, .. } => d.push(*dst),
        Instr::Move { dst, src } | Instr::MoveLast { dst, src } => {
            u.insert(*src);
            if dst != src {
                d.push(*dst);
            }
        }
        Instr::Cons {
            dst, head, tail, ..
        } => {
            u.insert(*head);
            u.insert(*tail);
            if dst != head && dst != tail {
                d.push(*dst);
            }
        }
        Instr::Op { dst, a, b, .. } => {
            u.insert(*a);
            u.insert(*b);
            if dst != a && dst != b {
                d.push(*dst);
            }
        }
        Instr::OpImm { dst, a, .. }
        | Instr::AddImm { dst, a, .. }
        | Instr::SubImm { dst, a, .. }
        | Instr::UnOp { dst, a, .. } => {
            u.insert(*a);
            if dst != a {
                d.push(*dst);
            }
        }
        Instr::CallCode { dst, args, .. } => {
            args.iter().for_each(|s| u.insert(*s));
            if !args.contains(dst) {
                d.push(*dst);
            }
        }
        Instr::Call {
            dst, callee, args, ..
        } => {
            args.iter().for_each(|s| u.insert(*s));
            match callee {
                Callee::Static(_) => {}
                Callee::Dynamic { module, name } => {
                    u.insert(*module);
                    u.insert(*name);
                }
                Callee::Apply { fun } => u.insert(*fun),
            }
            let read = u.contains(*dst);
            if !read {
                d.push(*dst);
            }
        }
        Instr::Match { pat, src, .. } => {
            u.insert(*src);
            if let Some(p) = pats.get_mut(*pat as usize) {
                layout::pat(p, &mut |s: &mut Slot| u.insert(*s));
            }
        }
        Instr::Guard { guard, .. } => {
            if let Some(g) = guards.get_mut(*guard as usize) {
                for e in g.iter_mut().flatten() {
                    layout::gexpr(e, &mut |s: &mut Slot| u.insert(*s));
                }
            }
        }
        Instr::BinNext { bits, pat, .. } => {
            u.insert(*bits);
            if let Some(p) = pats.get_mut(*pat as usize) {
                layout::pat(p, &mut |s: &mut Slot| u.insert(*s));
            }
        }
        // Everything else: every slot named is read, none surely written.
        other => layout::instr(other, &mut |s: &mut Slot| u.insert(*s)),
    }
    (u, d)
}
