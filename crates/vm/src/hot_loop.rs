//! The interpreter's hot loop: the instructions most code spends its time
//! in (moves, small-integer arithmetic and tests, list cells, calls of
//! compiled code and funs, returns within a register chunk), in a small
//! function whose state (program counter, current function, frame base,
//! return slot, reduction count) stays in machine registers: the running
//! function's `Frame` is taken off the stack on entry and put back when the
//! loop stops, and a call pushes only the caller's.
//!
//! `f(N - 1)` (an `AddImm`/`SubImm` whose result is the one, moved,
//! argument of the `CallCode` after it) never stores the integer in the
//! caller's frame: the callee's quick clauses are tested on it and it is
//! written into the callee's first slot.
//!
//! Anything else stops the loop *before* it has any effect: an instruction
//! outside that set, or one that would raise, cross into another register
//! chunk, end the process or go over the reduction budget. The general loop
//! in `exec` then runs that instruction from scratch, with the same result
//! it would have had without this loop. So this loop is only ever a faster
//! way to the same state.

use crate::arith;
use crate::atom::Atom;
use crate::calling::{
    Cursor, FastCall, bind_closure, copy_cons_parts, fast_call, grow_regs, move_slot, take_or_clone,
};
use crate::code::{CodeTable, Instr};
use crate::limits::{CONS_WORDS, fresh_words};
use crate::process::{CHUNK_SLOTS, Frame, Process};
use crate::term::Term;
use crate::vm::Vm;

impl Vm {
    /// Run the top frame of `p` from `cur` while its instructions are
    /// common ones; `cur` is left at the first one this loop leaves to the
    /// general interpreter.
    #[inline(never)]
    pub(crate) fn hot_loop<'c>(
        &mut self,
        code: &'c CodeTable,
        p: &mut Process,
        cur: &mut Cursor<'c>,
    ) {
        let Cursor {
            mut f,
            module,
            function,
            mut base,
            mut pc,
        } = *cur;
        // The running function (module and index), as one number: one
        // comparison tells a recursive call or a return within it.
        let mut key = fn_key(module, function);
        // Calls left before the budget runs out (one register, counted down).
        let start_left = self.max_reductions.saturating_sub(self.reductions);
        let mut left = start_left;
        // Words allocated (counted for the memory budget when the loop
        // stops), and how many may be before the budget wants a look.
        let mut allocs: u64 = 0;
        let alloc_room = self.mem.trigger.saturating_sub(self.mem.alloc);
        let mut regs: &mut [Term] = &mut p.regs[base..];
        // The current function's instructions, kept apart from `f` so the
        // dispatch needs no load through it.
        let mut instrs: &'c [Instr] = &f.instrs;
        // The running function's frame lives in these locals while the
        // loop runs (its entry in `p.frames` is taken off, and put back
        // when the loop stops): a call pushes the caller's frame, a return
        // pops it. `ret` is where the running function's value goes in
        // its caller's frame.
        let Some(top) = p.frames.pop() else {
            return;
        };
        let mut ret = top.ret;
        let chunk = top.chunk;
        // Leave the loop (to `exec`): rare next to the instructions run, so
        // the compiler lays out and allocates registers for the other way.
        macro_rules! stop {
            () => {{
                std::hint::cold_path();
                break;
            }};
        }
        macro_rules! r {
            ($s:expr) => {
                regs[$s as usize]
            };
        }
        // A failed test: go to `fail`, or leave the raise to `exec`.
        macro_rules! fail_to {
            ($fail:expr) => {
                match $fail {
                    Some(l) => pc = *l as usize,
                    None => stop!(),
                }
            };
        }
        // Return from the top frame to its caller in the same chunk: `$put`
        // stores the value, given the register file, the destination slot
        // and the returning frame's base.
        // Go on in `$caller` (the frame below the returning one).
        macro_rules! resume_in {
            ($caller:expr) => {{
                let caller = $caller;
                let caller_key = fn_key(caller.module, caller.function);
                if caller_key != key {
                    key = caller_key;
                    f = code.func(caller.module, caller.function);
                    instrs = &f.instrs;
                }
                base = caller.base as usize;
                pc = caller.pc as usize;
                regs = &mut p.regs[base..];
                continue;
            }};
        }
        macro_rules! ret {
            ($put:expr) => {{
                // Only a caller in the same register chunk.
                let Some(&caller) = p.frames.last() else {
                    stop!();
                };
                if caller.chunk != chunk {
                    stop!();
                }
                p.frames.pop();
                let dst = (caller.base + ret) as usize;
                #[allow(clippy::redundant_closure_call)]
                ($put)(&mut p.regs[..], dst, base);
                p.top = base;
                ret = caller.ret;
                resume_in!(caller);
            }};
        }
        // The code of function `$fi` of module `$m`, and its key: a
        // recursive call needs no lookup.
        macro_rules! callee {
            ($m:expr, $fi:expr) => {{
                let callee_key = fn_key($m, $fi);
                let fc = if callee_key == key {
                    f
                } else {
                    code.func($m, $fi)
                };
                (callee_key, fc)
            }};
        }
        // A body call: the caller's frame is pushed, with the place the
        // call returns to, and the callee's value goes to slot `$dst`.
        macro_rules! push_caller {
            ($dst:expr) => {{
                p.frames.push(Frame {
                    module: key as u32,
                    function: (key >> 32) as u32,
                    pc: pc as u32 + 1,
                    base: base as u32,
                    ret,
                    chunk,
                });
                ret = $dst;
            }};
        }
        // Go on in `$fc` (key `$key`) at `$entry`, in its frame at `$nb`;
        // the call is counted.
        macro_rules! enter {
            ($fc:expr, $key:expr, $nb:expr, $entry:expr) => {{
                left -= 1;
                base = $nb;
                regs = &mut p.regs[base..];
                f = $fc;
                instrs = &$fc.instrs;
                pc = $entry;
                key = $key;
            }};
        }
        // Enter compiled function `$fi` of module `$m` with the argument
        // slots `$args`; stops first when the call cannot be made here.
        macro_rules! call_code {
            ($m:expr, $fi:expr, $args:expr, $dst:expr, $tail:expr, $moves:expr) => {{
                if left == 0 {
                    stop!();
                }
                let (callee_key, fc) = callee!($m, $fi);
                let args: &[u32] = $args;
                // Where the callee starts: past its quick clauses, which
                // are tested here; a match answers a body call at once.
                let mut entry = 0;
                if !fc.quick.clauses.is_empty() {
                    match fc.quick.lookup(args, regs) {
                        Some(value) if !$tail => {
                            left -= 1;
                            // The moved arguments die here, as in the callee
                            // (the one a clause tests is a small integer,
                            // which holds nothing: only others need it).
                            if args.len() > 1 {
                                let mut mv: u32 = $moves;
                                for s in args {
                                    if mv & 1 == 1 {
                                        Term::put(&mut r!(*s), Term::Nil);
                                    }
                                    mv >>= 1;
                                }
                            }
                            Term::copy_into(&mut r!($dst), value);
                            pc += 1;
                            continue;
                        }
                        Some(_) => {}
                        None => entry = fc.quick.entry as usize,
                    }
                }
                let nb;
                if $tail {
                    // The frame is reused: its arguments are gathered
                    // first unless each can be moved down in order.
                    let in_order = args.iter().enumerate().all(|(j, s)| *s as usize >= j);
                    nb = base;
                    let need = nb + fc.frame_size as usize;
                    if need > CHUNK_SLOTS && nb > 0 {
                        stop!();
                    }
                    if p.regs.len() < need {
                        allocs += grow_regs(p, need);
                    }
                    if in_order {
                        for (j, s) in args.iter().enumerate() {
                            let src = base + *s as usize;
                            if src != nb + j {
                                let (lo, hi) = p.regs.split_at_mut(src);
                                Term::move_into(&mut lo[nb + j], &mut hi[0]);
                            }
                        }
                    } else {
                        let mut buf = std::mem::take(&mut self.argbuf);
                        for s in args {
                            buf.push(std::mem::replace(
                                &mut p.regs[base + *s as usize],
                                Term::Nil,
                            ));
                        }
                        for (i, v) in buf.drain(..).enumerate() {
                            Term::put(&mut p.regs[nb + i], v);
                        }
                        self.argbuf = buf;
                    }
                    p.top = need;
                } else {
                    nb = p.top;
                    let need = nb + fc.frame_size as usize;
                    if need > CHUNK_SLOTS && nb > 0 {
                        stop!();
                    }
                    push_caller!($dst);
                    p.top = need;
                    if p.regs.len() < need {
                        allocs += grow_regs(p, need);
                    }
                    // The new frame lies above the caller's.
                    let (lo, hi) = p.regs.split_at_mut(nb);
                    // Bit i of `moves` (shifted out as it goes): argument i
                    // is moved, not copied (none past the 32nd).
                    let mut mv: u32 = $moves;
                    if let [s] = args {
                        // One argument (the most common call): no loop.
                        let src = &mut lo[base + *s as usize];
                        pass_arg(&mut hi[0], src, mv & 1 == 1);
                    } else {
                        for (s, d) in args.iter().zip(hi.iter_mut()) {
                            pass_arg(d, &mut lo[base + *s as usize], mv & 1 == 1);
                            mv >>= 1;
                        }
                    }
                }
                enter!(fc, callee_key, nb, entry);
                fc
            }};
        }
        // Call compiled function `$fi` of module `$m` with one argument, the
        // small integer `$v` just computed for slot `$slot` (its last use):
        // the value goes straight to the callee's quick clauses and frame.
        // A stop first stores it in `$slot`, where `exec` expects it.
        macro_rules! call_int {
            ($m:expr, $fi:expr, $dst:expr, $tail:expr, $slot:expr, $v:expr) => {{
                macro_rules! stop_int {
                    () => {{
                        Term::put_int(&mut r!($slot), $v);
                        stop!();
                    }};
                }
                if left == 0 {
                    stop_int!();
                }
                let (callee_key, fc) = callee!($m, $fi);
                let entry = match fc.quick.lookup_int($v) {
                    Some(value) if !$tail => {
                        left -= 1;
                        Term::copy_into(&mut r!($dst), value);
                        pc += 1;
                        continue;
                    }
                    Some(_) => 0,
                    None => fc.quick.entry as usize,
                };
                let nb = if $tail { base } else { p.top };
                let need = nb + fc.frame_size as usize;
                if need > CHUNK_SLOTS && nb > 0 {
                    stop_int!();
                }
                if !$tail {
                    push_caller!($dst);
                }
                p.top = need;
                if p.regs.len() < need {
                    allocs += grow_regs(p, need);
                }
                Term::put_int(&mut p.regs[nb], $v);
                enter!(fc, callee_key, nb, entry);
            }};
        }
        // `a + K` or `a - K` (`$op` the checked operation) on a small
        // integer; then the call that often follows (`f(N - 1)`) is made at
        // once, without going back through the dispatch.
        macro_rules! add_imm {
            ($dst:expr, $a:expr, $imm:expr, $op:ident) => {{
                let Term::Int(x) = &r!($a) else {
                    stop!();
                };
                let Some(v) = x.$op($imm) else {
                    stop!();
                };
                pc += 1;
                match instrs.get(pc) {
                    Some(Instr::CallCode {
                        dst,
                        module: m,
                        function: fi,
                        args,
                        tail,
                        moves,
                    }) => {
                        if **args == [$dst] && moves & 1 == 1 {
                            call_int!(*m, *fi, *dst, *tail, $dst, v);
                        } else {
                            Term::put_int(&mut r!($dst), v);
                            call_code!(*m, *fi, args, *dst, *tail, *moves);
                        }
                    }
                    _ => Term::put_int(&mut r!($dst), v),
                }
            }};
        }
        while let Some(ins) = instrs.get(pc) {
            match ins {
                Instr::Const { dst, value } => {
                    Term::put(&mut r!(*dst), value.clone());
                    pc += 1;
                }
                Instr::Move { dst, src } => {
                    let (d, s) = (*dst as usize, *src as usize);
                    if d < s {
                        let (lo, hi) = regs.split_at_mut(s);
                        Term::copy_into(&mut lo[d], &hi[0]);
                    } else if d > s {
                        let (lo, hi) = regs.split_at_mut(d);
                        Term::copy_into(&mut hi[0], &lo[s]);
                    }
                    pc += 1;
                }
                Instr::MoveLast { dst, src } => {
                    move_slot(regs, *dst, *src);
                    pc += 1;
                }
                Instr::Cons {
                    dst,
                    head,
                    tail,
                    moves,
                } => {
                    let h = take_or_clone(&mut r!(*head), moves & 1 != 0);
                    let t = take_or_clone(&mut r!(*tail), moves & 2 != 0);
                    Term::put(&mut r!(*dst), Term::cons(h, t));
                    allocs += CONS_WORDS;
                    pc += 1;
                }
                Instr::Op { dst, op, a, b } => {
                    let (Term::Int(x), Term::Int(y)) = (&r!(*a), &r!(*b)) else {
                        stop!();
                    };
                    let (x, y) = (*x, *y);
                    if let Some(v) = arith::small_int_op(*op, x, y) {
                        Term::put_int(&mut r!(*dst), v);
                    } else if let Some(v) = arith::small_compare(*op, x, y) {
                        Term::put(&mut r!(*dst), Term::Atom(Atom::bool(v)));
                    } else {
                        stop!();
                    }
                    pc += 1;
                }
                Instr::OpImm { dst, op, a, imm } => {
                    let Term::Int(x) = &r!(*a) else {
                        stop!();
                    };
                    let x = *x;
                    if let Some(v) = arith::small_int_op(*op, x, *imm) {
                        Term::put_int(&mut r!(*dst), v);
                    } else if let Some(v) = arith::small_compare(*op, x, *imm) {
                        Term::put(&mut r!(*dst), Term::Atom(Atom::bool(v)));
                    } else {
                        stop!();
                    }
                    pc += 1;
                }
                Instr::AddImm { dst, a, imm } => add_imm!(*dst, *a, *imm, checked_add),
                Instr::SubImm { dst, a, imm } => add_imm!(*dst, *a, *imm, checked_sub),
                Instr::MatchInt { src, imm, fail } => {
                    // A bignum or a float is never `=:=` a small integer.
                    if matches!(&r!(*src), Term::Int(x) if x == imm) {
                        pc += 1;
                    } else {
                        fail_to!(fail);
                    }
                }
                Instr::ReturnIfInt {
                    src,
                    imm,
                    value,
                    fail,
                } => {
                    if matches!(&r!(*src), Term::Int(x) if x == imm) {
                        ret!(|regs: &mut [Term], dst: usize, _| Term::put(
                            &mut regs[dst],
                            value.clone()
                        ));
                    }
                    pc = *fail as usize;
                }
                Instr::MatchAtom { src, atom, fail } => {
                    if r!(*src).is_atom(*atom) {
                        pc += 1;
                    } else {
                        fail_to!(fail);
                    }
                }
                Instr::MatchCons {
                    src,
                    head,
                    tail,
                    fail,
                    take,
                } => {
                    let Term::Cons(c) = &mut r!(*src) else {
                        fail_to!(fail);
                        continue;
                    };
                    if *take && let Some(cell) = std::sync::Arc::get_mut(c) {
                        // The last reference to the cell: its parts move
                        // out, and it is freed.
                        let mut h = std::mem::replace(&mut cell.head, Term::Nil);
                        let mut t = std::mem::replace(&mut cell.tail, Term::Nil);
                        Term::put(&mut r!(*src), Term::Nil);
                        if let Some(hs) = head {
                            Term::move_into(&mut r!(*hs), &mut h);
                        }
                        if let Some(ts) = tail {
                            Term::move_into(&mut r!(*ts), &mut t);
                        }
                    } else {
                        copy_cons_parts(regs, *src, *head, *tail);
                    }
                    pc += 1;
                }
                Instr::Filter { src, fail } => match &r!(*src) {
                    Term::Atom(Atom::TRUE) => pc += 1,
                    Term::Atom(Atom::FALSE) => pc = *fail as usize,
                    _ => stop!(),
                },
                Instr::Jump(l) => pc = *l as usize,
                Instr::ListNext { list, head, done } => match &r!(*list) {
                    Term::Cons(_) => {
                        // A turn of a comprehension is a reduction.
                        if left == 0 {
                            stop!();
                        }
                        left -= 1;
                        let l = std::mem::replace(&mut r!(*list), Term::Nil);
                        if let Term::Cons(c) = &l {
                            Term::copy_into(&mut r!(*head), &c.head);
                            Term::copy_into(&mut r!(*list), &c.tail);
                        }
                        pc += 1;
                    }
                    Term::Nil => pc = *done as usize,
                    _ => stop!(),
                },
                Instr::AccPush { acc, value } => {
                    let v = Term::cons(
                        r!(*value).clone(),
                        std::mem::replace(&mut r!(*acc), Term::Nil),
                    );
                    r!(*acc) = v;
                    allocs += CONS_WORDS;
                    pc += 1;
                }
                Instr::CallCode {
                    dst,
                    module: m,
                    function: fi,
                    args,
                    tail,
                    moves,
                } => {
                    call_code!(*m, *fi, args, *dst, *tail, *moves);
                }
                Instr::Call {
                    dst,
                    callee,
                    args,
                    tail,
                    moves,
                    ..
                } => match fast_call(code, callee, regs, args.len(), &mut self.last_export) {
                    Some(FastCall::Code {
                        module: m,
                        function: fi,
                        closure,
                    }) => {
                        let fc = call_code!(m, fi, args, *dst, *tail, *moves);
                        if let Some(fv) = closure {
                            bind_closure(fc, fv, regs);
                        }
                    }
                    Some(FastCall::Pure(func)) => {
                        // A pure BIF: calling it again in `exec` (after a
                        // stop here) gives the same answer.
                        // Up to three arguments (`erlang:max/2` in a fold)
                        // are passed in an array, not the shared buffer.
                        let res = match **args {
                            [a] => func(&[r!(a).clone()]),
                            [a, b] => func(&[r!(a).clone(), r!(b).clone()]),
                            [a, b, c] => func(&[r!(a).clone(), r!(b).clone(), r!(c).clone()]),
                            _ => {
                                let mut buf = std::mem::take(&mut self.argbuf);
                                buf.extend(args.iter().map(|s| r!(*s).clone()));
                                let res = func(&buf);
                                buf.clear();
                                self.argbuf = buf;
                                res
                            }
                        };
                        let Ok(v) = res else {
                            stop!();
                        };
                        // What the BIF made counts; at the budget's trigger
                        // `exec` makes the call again and takes a look.
                        let w = fresh_words(&v);
                        if w > 0 {
                            if allocs + w >= alloc_room {
                                stop!();
                            }
                            allocs += w;
                        }
                        if *tail {
                            ret!(|regs: &mut [Term], dst: usize, _| Term::put(&mut regs[dst], v));
                        }
                        Term::put(&mut r!(*dst), v);
                        pc += 1;
                    }
                    None => stop!(),
                },
                Instr::Return { src } => {
                    let src = *src as usize;
                    ret!(|regs: &mut [Term], dst: usize, top: usize| {
                        let (lo, hi) = regs.split_at_mut(top);
                        Term::move_into(&mut lo[dst], &mut hi[src]);
                    });
                }
                Instr::ReturnConst { value } => {
                    ret!(|regs: &mut [Term], dst: usize, _| Term::put(
                        &mut regs[dst],
                        value.clone()
                    ));
                }
                Instr::ReturnOp { op, a, b } => {
                    let (Term::Int(x), Term::Int(y)) = (&r!(*a), &r!(*b)) else {
                        stop!();
                    };
                    let (x, y) = (*x, *y);
                    if let Some(v) = arith::small_int_op(*op, x, y) {
                        ret!(|regs: &mut [Term], dst: usize, _| Term::put_int(&mut regs[dst], v));
                    }
                    let Some(v) = arith::small_compare(*op, x, y) else {
                        stop!();
                    };
                    ret!(|regs: &mut [Term], dst: usize, _| Term::put(
                        &mut regs[dst],
                        Term::Atom(Atom::bool(v))
                    ));
                }
                Instr::ReturnOpImm { op, a, imm } => {
                    let Term::Int(x) = &r!(*a) else {
                        stop!();
                    };
                    let x = *x;
                    if let Some(v) = arith::small_int_op(*op, x, *imm) {
                        ret!(|regs: &mut [Term], dst: usize, _| Term::put_int(&mut regs[dst], v));
                    }
                    let Some(v) = arith::small_compare(*op, x, *imm) else {
                        stop!();
                    };
                    ret!(|regs: &mut [Term], dst: usize, _| Term::put(
                        &mut regs[dst],
                        Term::Atom(Atom::bool(v))
                    ));
                }
                _ => stop!(),
            }
        }
        let (module, function) = (key as u32, (key >> 32) as u32);
        p.frames.push(Frame {
            module,
            function,
            pc: pc as u32,
            base: base as u32,
            ret,
            chunk,
        });
        self.reductions += start_left - left;
        if allocs > 0 {
            self.note_alloc(allocs);
        }
        *cur = Cursor {
            f,
            module,
            function,
            base,
            pc,
        };
    }
}

/// Pass an argument into a new frame: moved on its last use, else copied.
#[inline(always)]
fn pass_arg(dst: &mut Term, src: &mut Term, moved: bool) {
    if moved {
        Term::move_into(dst, src);
    } else {
        Term::copy_into(dst, src);
    }
}

/// A function's module and index as one number (the two `u32`s as they lie
/// side by side in a [`Frame`], so the compiler may load them as one).
#[inline(always)]
fn fn_key(module: u32, function: u32) -> u64 {
    u64::from(function) << 32 | u64::from(module)
}
