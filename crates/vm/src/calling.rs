//! What the two interpreter loops (`exec`, the general one, and
//! `hot_loop`) share, so each is written once: where the interpreter is
//! ([`Cursor`]), growing the register chunk, moving and copying values
//! between slots, taking a list cell apart, binding a closure's captured
//! values in a new frame, and the fast form of a call ([`fast_call`]: the
//! calling convention both loops use for compiled code and pure BIFs).

use crate::atom::Atom;
use crate::code::{BifKind, Callee, CodeTable, FnCode, PureFn, Slot, Target};
use crate::process::{CHUNK_SLOTS, Process};
use crate::term::{Fun, Term};

/// Where the interpreter is: the function running in the top frame, and
/// the frame's base in the register chunk.
#[derive(Clone, Copy)]
pub(crate) struct Cursor<'c> {
    pub f: &'c FnCode,
    pub module: u32,
    pub function: u32,
    pub base: usize,
    pub pc: usize,
}

/// Grow the top register chunk to hold `need` slots: by doubling up to a
/// chunk, so the first chunk resizes (and copies) rarely; later chunks are
/// allocated whole. Returns the words allocated.
#[inline(never)]
pub(crate) fn grow_regs(p: &mut Process, need: usize) -> u64 {
    let before = p.regs.capacity();
    let len = need.max((p.regs.len() * 2).min(CHUNK_SLOTS));
    p.regs.resize_with(len, || Term::Nil);
    2 * p.regs.capacity().saturating_sub(before) as u64
}

/// `MoveLast`: the value in slot `src` moves to slot `dst`, leaving `[]`.
#[inline(always)]
pub(crate) fn move_slot(regs: &mut [Term], dst: Slot, src: Slot) {
    let (d, s) = (dst as usize, src as usize);
    if d < s {
        let (lo, hi) = regs.split_at_mut(s);
        Term::move_into(&mut lo[d], &mut hi[0]);
    } else if d > s {
        let (lo, hi) = regs.split_at_mut(d);
        Term::move_into(&mut hi[0], &mut lo[s]);
    }
}

/// `[H | T] = Src` on a cons cell in slot `src`: its parts are copied into
/// the slots `head` and `tail` (`None`: not bound). The cell is taken out of
/// its slot meanwhile, then put back, unless a part was bound to that slot.
#[inline]
pub(crate) fn copy_cons_parts(
    regs: &mut [Term],
    src: Slot,
    head: Option<Slot>,
    tail: Option<Slot>,
) {
    let cell = std::mem::replace(&mut regs[src as usize], Term::Nil);
    if let Term::Cons(c) = &cell {
        if let Some(h) = head {
            Term::copy_into(&mut regs[h as usize], &c.head);
        }
        if let Some(t) = tail {
            Term::copy_into(&mut regs[t as usize], &c.tail);
        }
    }
    // A part bound to the source slot itself wins.
    if Some(src) != head && Some(src) != tail {
        Term::put(&mut regs[src as usize], cell);
    }
}

/// The captured values of the closure `fv` go to the slots `fc` (its code)
/// keeps them in, and `fv` itself to its own name's slot, in the frame
/// `regs` of the call just opened.
#[inline]
pub(crate) fn bind_closure(fc: &FnCode, fv: Term, regs: &mut [Term]) {
    if let Term::Fun(fa) = &fv
        && let Fun::Closure { env, .. } = &**fa
    {
        for (slot, v) in fc.env_slots.iter().zip(env.iter()) {
            Term::put(&mut regs[*slot as usize], v.clone());
        }
    }
    if let Some(sl) = fc.self_slot {
        Term::put(&mut regs[sl as usize], fv);
    }
}

/// The value of a slot: moved out on its last use, else copied.
#[inline(always)]
pub(crate) fn take_or_clone(slot: &mut Term, last: bool) -> Term {
    match slot {
        Term::Int(i) => Term::Int(*i),
        Term::Atom(a) => Term::Atom(*a),
        Term::Nil => Term::Nil,
        other if last => std::mem::replace(other, Term::Nil),
        other => other.clone(),
    }
}

/// `code.resolve`, remembering the last answer.
#[inline(always)]
fn resolve_export(
    code: &CodeTable,
    last: &mut Option<(Atom, Atom, u32, Target)>,
    module: Atom,
    name: Atom,
    arity: u32,
) -> Target {
    match last {
        Some((m, n, a, t)) if *m == module && *n == name && *a == arity => *t,
        _ => {
            let t = code.resolve(module, name, arity);
            *last = Some((module, name, arity, t));
            t
        }
    }
}

/// A call the loop makes without building an argument vector.
pub(crate) enum FastCall {
    /// Compiled code; `closure` is the applied fun when it captured values.
    Code {
        module: u32,
        function: u32,
        closure: Option<Term>,
    },
    Pure(PureFn),
}

/// The fast form of a call whose target is compiled code or a pure BIF
/// (static, `M:F(...)` with atoms, or a fun of the right arity); `None` for
/// everything else (context BIFs, errors, unsupported calls).
#[inline(always)]
pub(crate) fn fast_call(
    code: &CodeTable,
    callee: &Callee,
    regs: &[Term],
    nargs: usize,
    last_export: &mut Option<(Atom, Atom, u32, Target)>,
) -> Option<FastCall> {
    let from_target = |t: Target| match t {
        Target::Code { module, function } => Some(FastCall::Code {
            module,
            function,
            closure: None,
        }),
        Target::Bif(b) => match b.kind {
            BifKind::Pure(f) => Some(FastCall::Pure(f)),
            BifKind::Ctx(_) => None,
        },
        _ => None,
    };
    match callee {
        Callee::Static(t) => from_target(*t),
        Callee::Dynamic { module, name } => {
            match (regs.get(*module as usize)?, regs.get(*name as usize)?) {
                (Term::Atom(m), Term::Atom(n)) => {
                    let t = code.resolve(*m, *n, nargs as u32);
                    // A read of code that may change: `exec` shows it.
                    if code.watched(&t).is_some() {
                        return None;
                    }
                    from_target(t)
                }
                _ => None,
            }
        }
        Callee::Apply { fun } => {
            let fv = regs.get(*fun as usize)?;
            let Term::Fun(fa) = fv else { return None };
            match &**fa {
                Fun::Closure {
                    mod_index,
                    index,
                    arity,
                    env,
                    ..
                } if *arity as usize == nargs => {
                    let m = code.modules.get(*mod_index as usize)?;
                    let function = m.functions_len + index;
                    let needs_fun = !env.is_empty()
                        || code
                            .functions(*mod_index)
                            .get(function as usize)?
                            .self_slot
                            .is_some();
                    Some(FastCall::Code {
                        module: *mod_index,
                        function,
                        closure: needs_fun.then(|| fv.clone()),
                    })
                }
                Fun::Local {
                    mod_index,
                    function,
                    arity,
                    ..
                } if *arity as usize == nargs => Some(FastCall::Code {
                    module: *mod_index,
                    function: *function,
                    closure: None,
                }),
                Fun::Export {
                    module,
                    name,
                    arity,
                } if *arity as usize == nargs => {
                    match resolve_export(code, last_export, *module, *name, *arity) {
                        t if code.watched(&t).is_some() => None,
                        Target::Code { module, function } => Some(FastCall::Code {
                            module,
                            function,
                            closure: None,
                        }),
                        // Context BIFs applied as funs keep the general path (no call site).
                        t => from_target(t),
                    }
                }
                _ => None,
            }
        }
    }
}
