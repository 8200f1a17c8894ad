//! Resource limits of a run, as the BEAM has them, and the memory budget.
//!
//! Sizes the BEAM refuses raise its exceptions ([`MAX_TUPLE_SIZE`],
//! [`MAX_BIG_BITS`], [`MAX_SEGMENT_SIZE`], [`MAX_ATOM_CHARS`]). Everything
//! else a run allocates counts against a per-run memory budget
//! ([`crate::VmConfig::max_memory_words`]); a run that goes over it ends
//! with [`crate::VmError::MemoryExhausted`], never with an allocation
//! failure of racewit.
//!
//! The accounting is coarse and cheap, like a garbage collector's trigger:
//! allocations are counted where they happen (the interpreter's instructions
//! by their size, a BIF's result by its newly made part, [`fresh_words`]),
//! and when the words allocated since the last look reach a threshold the
//! VM measures what is live (every process's stack, mailbox and dictionary,
//! the ETS and mnesia tables, the other stores: [`Footprint`]). A run stops
//! only on a measurement, so garbage never counts. BIFs whose size comes
//! from an argument (`lists:duplicate/2`, `binary:copy/2`, ...) first ask
//! for room ([`room`]); a refusal makes the VM measure at once and either
//! run the BIF again or stop the run.
//!
//! Sizes are in words of racewit's own representation (a list cell is six
//! words: the shared pointer's counts, the head and the tail).

use std::cell::Cell;
use std::sync::Arc;

use rustc_hash::FxHashSet;

use crate::atom::Atom;
use crate::term::{Fun, Term};

/// Elements of the largest tuple (`make_tuple/2`, `list_to_tuple/1`, ...):
/// beyond, `badarg`.
pub const MAX_TUPLE_SIZE: usize = (1 << 24) - 1;

/// Bits of the largest integer: 524,287 64-bit digits; a result beyond is
/// `system_limit`.
pub const MAX_BIG_BITS: u64 = 64 * 524_287;

/// The smallest size of a binary segment the BEAM refuses with
/// `system_limit`: 2^59, its first bignum (a smaller size is a question of
/// memory, however large the binary).
pub const MAX_SEGMENT_SIZE: u64 = 1 << 59;

/// Characters of the longest atom name: beyond, `system_limit`.
pub const MAX_ATOM_CHARS: usize = 255;

/// Words of one list cell.
pub const CONS_WORDS: u64 = 6;

/// Words of a tuple of `n` elements.
pub const fn tuple_words(n: usize) -> u64 {
    4 + 2 * n as u64
}

/// Words of a binary of `bytes` bytes (its data and its handle).
pub const fn binary_words(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(8).saturating_add(10)
}

/// Words of a bignum of `bits` bits.
pub const fn big_words(bits: u64) -> u64 {
    6 + bits.div_ceil(64)
}

/// Words of a process apart from its stack, mailbox and dictionary.
pub const PROCESS_WORDS: u64 = 64;

/// The `system_limit` reason.
pub fn system_limit() -> Term {
    Term::Atom(Atom::SYSTEM_LIMIT)
}

thread_local! {
    /// Words that may still be granted in the running step without the VM
    /// looking (`u64::MAX`: no step is running, every request is granted).
    static ROOM: Cell<u64> = const { Cell::new(u64::MAX) };
    /// The largest request refused since the VM last looked (0: none).
    static REFUSED: Cell<u64> = const { Cell::new(0) };
}

/// Ask for room for `words` words about to be allocated at once (a BIF
/// whose result's size comes from an argument). Granted, the room shrinks;
/// refused, the BIF must fail with the error returned, before any effect:
/// the VM then measures, and either calls it again or stops the run.
/// Outside a VM step every request is granted.
pub fn room(words: u64) -> Result<(), Term> {
    let left = ROOM.get();
    if left == u64::MAX {
        Ok(())
    } else if words <= left {
        ROOM.set(left - words);
        Ok(())
    } else {
        REFUSED.set(REFUSED.get().max(words));
        Err(system_limit())
    }
}

/// [`room`] for a product of sizes (a count times a size), refusing one
/// that overflows.
pub fn room_for(count: u64, words_each: u64) -> Result<(), Term> {
    room(count.checked_mul(words_each).unwrap_or(u64::MAX - 1))
}

/// The VM's side of the meter: a step begins with `room` words to grant.
#[inline]
pub(crate) fn open(room: u64) {
    ROOM.set(room.min(u64::MAX - 1));
    REFUSED.set(0);
}

/// The VM's side: set the room (after a measurement).
pub(crate) fn set_room(room: u64) {
    ROOM.set(room.min(u64::MAX - 1));
}

/// The VM's side: the step is over.
#[inline]
pub(crate) fn close() {
    ROOM.set(u64::MAX);
}

/// The room left in the running step.
fn room_left() -> u64 {
    ROOM.get()
}

/// The VM's side: the largest request refused since the last call, if any.
pub(crate) fn take_refusal() -> Option<u64> {
    let r = REFUSED.replace(0);
    (r > 0).then_some(r)
}

/// Room to print `t` (`io:format/2`, `io_lib:format/2`, ...): its size
/// written out, each shared part as often as it is reached, as list cells
/// of characters. Counted only as far as the room left allows.
pub fn room_to_print(t: &Term) -> Result<(), Term> {
    let left = room_left();
    if left == u64::MAX {
        return Ok(());
    }
    // Words per part printed: a few characters, each a list cell.
    const PER_PART: u64 = 4 * CONS_WORDS;
    let cap = left / PER_PART + 1;
    let mut parts: u64 = 0;
    let mut stack: Vec<&Term> = vec![t];
    while let Some(cur) = stack.pop() {
        parts += 1;
        if parts > cap {
            break;
        }
        match cur {
            Term::Cons(c) => {
                stack.push(&c.tail);
                stack.push(&c.head);
            }
            Term::Tuple(items) => stack.extend(items.iter()),
            Term::Map(m) => {
                for (k, v) in m.iter() {
                    stack.push(&k.0);
                    stack.push(v);
                }
            }
            Term::Bin(b) => parts += b.len as u64 / 8,
            Term::Big(b) => parts += b.bits() / 3,
            _ => {}
        }
    }
    if parts > 1024 {
        room(parts.saturating_mul(PER_PART))?;
    }
    Ok(())
}

/// Words of the part of `t` that nothing else holds: what a BIF just made
/// for its result (the parts it shares with its arguments are held by them
/// too). Immediates cost nothing.
#[inline]
pub fn fresh_words(t: &Term) -> u64 {
    if t.is_immediate() {
        0
    } else {
        fresh_words_slow(t)
    }
}

#[inline(never)]
fn fresh_words_slow(t: &Term) -> u64 {
    let mut total = 0;
    let mut stack: Vec<&Term> = vec![t];
    while let Some(mut cur) = stack.pop() {
        loop {
            match cur {
                Term::Cons(c) if Arc::strong_count(c) == 1 => {
                    total += CONS_WORDS;
                    if !c.head.is_immediate() {
                        stack.push(&c.head);
                    }
                    cur = &c.tail;
                    continue;
                }
                Term::Tuple(items) if Arc::strong_count(items) == 1 => {
                    total += tuple_words(items.len());
                    stack.extend(items.iter().filter(|x| !x.is_immediate()));
                }
                Term::Big(b) if Arc::strong_count(b) == 1 => total += big_words(b.bits()),
                Term::Map(m) if Arc::strong_count(m) == 1 => {
                    total += map_words(m.len());
                    for (k, v) in m.iter() {
                        stack.push(&k.0);
                        stack.push(v);
                    }
                }
                Term::Fun(f) if Arc::strong_count(f) == 1 => {
                    total += fun_words(f);
                    if let Fun::Closure { env, .. } = &**f {
                        stack.extend(env.iter());
                    }
                }
                Term::Bin(b) if Arc::strong_count(b) == 1 => {
                    total += 5;
                    if Arc::strong_count(&b.data) == 1 {
                        total += binary_words(b.data.len()) - 5;
                    }
                }
                _ => {}
            }
            break;
        }
    }
    total
}

fn map_words(len: usize) -> u64 {
    8 + 5 * len as u64
}

fn fun_words(f: &Fun) -> u64 {
    match f {
        Fun::Closure { env, .. } => 8 + 2 * env.len() as u64,
        _ => 6,
    }
}

/// Measures what is live: every term reachable from what it is given,
/// each shared part once.
#[derive(Default)]
pub struct Footprint {
    /// Shared parts seen (their addresses); a part only one holder has
    /// can be reached once only, so it needs no entry.
    seen: FxHashSet<usize>,
    pub words: u64,
}

impl Footprint {
    /// Counts `t` (its parts not counted yet).
    pub fn term(&mut self, t: &Term) {
        if t.is_immediate() {
            return;
        }
        let mut stack: Vec<&Term> = vec![t];
        while let Some(mut cur) = stack.pop() {
            loop {
                match cur {
                    Term::Cons(c) if self.first_visit(c) => {
                        self.words += CONS_WORDS;
                        if !c.head.is_immediate() {
                            stack.push(&c.head);
                        }
                        cur = &c.tail;
                        continue;
                    }
                    Term::Tuple(items) if self.first_visit(items) => {
                        self.words += tuple_words(items.len());
                        stack.extend(items.iter().filter(|x| !x.is_immediate()));
                    }
                    Term::Big(b) if self.first_visit(b) => self.words += big_words(b.bits()),
                    Term::Map(m) if self.first_visit(m) => {
                        self.words += map_words(m.len());
                        for (k, v) in m.iter() {
                            stack.push(&k.0);
                            stack.push(v);
                        }
                    }
                    Term::Fun(f) if self.first_visit(f) => {
                        self.words += fun_words(f);
                        if let Fun::Closure { env, .. } = &**f {
                            stack.extend(env.iter());
                        }
                    }
                    Term::Bin(b) if self.first_visit(b) => {
                        self.words += 5;
                        if self.first_visit(&b.data) {
                            self.words += binary_words(b.data.len()) - 5;
                        }
                    }
                    _ => {}
                }
                break;
            }
        }
    }

    /// Counts every term of `ts`.
    pub fn terms<'a>(&mut self, ts: impl IntoIterator<Item = &'a Term>) {
        for t in ts {
            self.term(t);
        }
    }

    /// Whether this is the first visit of the part behind `a`.
    fn first_visit<T: ?Sized>(&mut self, a: &Arc<T>) -> bool {
        Arc::strong_count(a) == 1 || self.seen.insert(Arc::as_ptr(a) as *const u8 as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_print_with_thousands_separators() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (100_000, "100,000"),
        ];
        for (n, text) in cases {
            assert_eq!(thousands(n), text);
        }
        assert_eq!(thousands(5_000_000_000), "5,000,000,000");
    }

    #[test]
    fn fresh_words_count_only_what_nothing_else_holds() {
        let shared = Term::list(vec![Term::Int(1), Term::Int(2)]);
        let keep = shared.clone();
        let t = Term::tuple(vec![shared, Term::atom("a")]);
        assert_eq!(fresh_words(&t), tuple_words(2));
        drop(keep);
        assert_eq!(fresh_words(&t), tuple_words(2) + 2 * CONS_WORDS);
        assert_eq!(fresh_words(&Term::Int(5)), 0);
    }

    #[test]
    fn footprint_counts_a_shared_part_once() {
        let l = Term::list((0..10).map(Term::Int).collect());
        let mut t = l.clone();
        for _ in 0..40 {
            // A tree of 2^40 leaves, held in 40 tuples.
            t = Term::tuple(vec![t.clone(), t]);
        }
        let mut f = Footprint::default();
        f.term(&t);
        assert_eq!(f.words, 40 * tuple_words(2) + 10 * CONS_WORDS);
    }

    #[test]
    fn room_is_granted_outside_a_step_and_metered_inside() {
        assert!(room(u64::MAX).is_ok());
        open(100);
        assert!(room(60).is_ok());
        assert!(room(60).is_err());
        assert_eq!(take_refusal(), Some(60));
        assert_eq!(take_refusal(), None);
        set_room(1000);
        assert!(room(60).is_ok());
        close();
        assert!(room(u64::MAX).is_ok());
    }
}

/// Reductions between two looks at the memory budget (each look is a few
/// comparisons; a measurement happens only when enough was allocated).
pub const CHECK_INTERVAL: u64 = 8192;

/// Reductions a long step is watched for its state coming back (a loop of
/// a longer period is not told from a long computation).
pub const SPIN_WATCH: u64 = 20_000;

/// What a process's future depends on within one step, at a reduction: its
/// frames (the top one's `pc` is where it last called from, which with the
/// registers tells the point it is at), its registers, its handlers and its
/// dictionary; nothing else changes without a visible action, which would
/// end the step. A step whose state at some reduction equals the state at
/// an earlier reduction of the same step is in a loop with no end and no
/// visible action: a busy loop ([`crate::library::ParkReason::BusyLoop`]).
#[derive(Clone)]
pub(crate) struct SpinWatch {
    frames: Vec<(u32, u32, u32, u32, u32, u32)>,
    handlers: Vec<(u32, u32, u32, u32, u32)>,
    regs: Vec<crate::term::Term>,
    lower: Vec<(Vec<crate::term::Term>, usize)>,
    dict: imbl::OrdMap<crate::term::MapKey, crate::term::Term>,
    trap_exit: bool,
}

impl SpinWatch {
    pub(crate) fn of(p: &crate::process::Process) -> SpinWatch {
        SpinWatch {
            frames: p
                .frames
                .iter()
                .map(|f| (f.module, f.function, f.pc, f.base, f.ret, f.chunk))
                .collect(),
            handlers: p
                .handlers
                .iter()
                .map(|h| (h.depth, h.pc, h.class, h.reason, h.stack))
                .collect(),
            regs: p.regs[..p.top.min(p.regs.len())].to_vec(),
            lower: p.lower.clone(),
            dict: p.dict.clone(),
            trap_exit: p.trap_exit,
        }
    }

    /// Whether `p` is in this state again: the cheap parts first, the
    /// registers last (a deep recursion differs at its depth at once).
    pub(crate) fn recurs_in(&self, p: &crate::process::Process) -> bool {
        let top = p.top.min(p.regs.len());
        self.frames.len() == p.frames.len()
            && self.regs.len() == top
            && self.lower.len() == p.lower.len()
            && self.handlers.len() == p.handlers.len()
            && self.trap_exit == p.trap_exit
            && self
                .frames
                .iter()
                .zip(&p.frames)
                .all(|(s, f)| *s == (f.module, f.function, f.pc, f.base, f.ret, f.chunk))
            && self
                .handlers
                .iter()
                .zip(&p.handlers)
                .all(|(s, h)| *s == (h.depth, h.pc, h.class, h.reason, h.stack))
            && same_terms(&self.regs, &p.regs[..top])
            && self.lower.iter().zip(&p.lower).all(|((a, n), (b, m))| {
                n == m && same_terms(&a[..(*n).min(a.len())], &b[..(*m).min(b.len())])
            })
            && self.dict.len() == p.dict.len()
            && self
                .dict
                .iter()
                .zip(p.dict.iter())
                .all(|((k1, v1), (k2, v2))| same_term(&k1.0, &k2.0) && same_term(v1, v2))
    }
}

fn same_terms(a: &[crate::term::Term], b: &[crate::term::Term]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_term(x, y))
}

/// The same term, told cheaply: equal immediates, or the very same shared
/// data. Never true of two different terms; false of some equal ones (made
/// twice), which only makes a watch miss a loop (it then runs on).
fn same_term(a: &crate::term::Term, b: &crate::term::Term) -> bool {
    use crate::term::Term;
    use std::sync::Arc;
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => x == y,
        (Term::Atom(x), Term::Atom(y)) => x == y,
        (Term::Nil, Term::Nil) => true,
        (Term::Pid(x), Term::Pid(y)) => x == y,
        (Term::Ref(x), Term::Ref(y)) => x == y,
        (Term::Float(x), Term::Float(y)) => x.to_bits() == y.to_bits(),
        (Term::Big(x), Term::Big(y)) => Arc::ptr_eq(x, y),
        (Term::Fun(x), Term::Fun(y)) => Arc::ptr_eq(x, y),
        (Term::Tuple(x), Term::Tuple(y)) => Arc::ptr_eq(x, y),
        (Term::Map(x), Term::Map(y)) => Arc::ptr_eq(x, y),
        (Term::Cons(x), Term::Cons(y)) => Arc::ptr_eq(x, y),
        (Term::Bin(x), Term::Bin(y)) => Arc::ptr_eq(x, y),
        _ => false,
    }
}

/// A run's memory accounting.
#[derive(Clone, Debug)]
pub(crate) struct Ledger {
    pub budget: u64,
    /// Words live at the last measurement.
    pub live: u64,
    /// Words allocated since.
    pub alloc: u64,
    /// `alloc` from which the next look measures.
    pub trigger: u64,
    /// Measurements made so far.
    pub measurements: u64,
}

impl Ledger {
    pub fn new(budget: u64) -> Ledger {
        let mut l = Ledger {
            budget,
            live: 0,
            alloc: 0,
            trigger: 0,
            measurements: 0,
        };
        l.rearm();
        l
    }

    /// After a measurement: measure again once half of what is left of the
    /// budget, or a quarter of what is live, was allocated (so a run holds
    /// at most about its budget, and measuring costs at most a few words
    /// visited per word allocated).
    fn rearm(&mut self) {
        self.alloc = 0;
        self.trigger = (self.budget.saturating_sub(self.live) / 2)
            .max(self.live / 4)
            .max(1);
    }

    /// Words that may be granted at once without measuring.
    pub fn room(&self) -> u64 {
        self.budget.saturating_sub(self.live + self.alloc)
    }
}

impl crate::vm::Vm {
    /// Count `words` just allocated; at the trigger, the next call measures.
    #[inline]
    pub(crate) fn note_alloc(&mut self, words: u64) {
        self.mem.alloc += words;
        if self.mem.alloc >= self.mem.trigger {
            self.max_reductions = self.reductions;
        }
    }

    /// A step begins: the meter grants what is left of the budget.
    pub(crate) fn open_meter(&self) {
        open(self.mem.room());
    }

    /// The reduction count went past `max_reductions`: the run's reduction
    /// budget is spent, or it is time to look at memory (`p` is running).
    #[cold]
    #[inline(never)]
    pub(crate) fn reduction_checkpoint(
        &mut self,
        p: &crate::process::Process,
    ) -> Result<(), crate::vm::VmError> {
        if self.reductions > self.config.max_reductions {
            return Err(crate::vm::VmError::BudgetExhausted {
                reductions: self.config.max_reductions,
                process: self.process_name(p.pid).to_string(),
                location: self.where_running(p, None),
            });
        }
        // A long step is watched, one reduction at a time, for its state
        // coming back: then it loops without end (see [`SpinWatch`]).
        let watch_from = self
            .step_start
            .saturating_add(self.config.max_step_reductions);
        let watch_to = watch_from.saturating_add(SPIN_WATCH);
        let watching = self.reductions > watch_from && self.reductions <= watch_to;
        if watching {
            match &self.spin {
                Some(seen) if seen.recurs_in(p) => {
                    return Err(crate::vm::VmError::BusyLoop {
                        reductions: self.reductions - self.step_start,
                        process: self.process_name(p.pid).to_string(),
                        location: self.where_running(p, None),
                    });
                }
                Some(_) => {}
                None => self.spin = Some(SpinWatch::of(p)),
            }
        } else if self.spin.is_some() && self.reductions > watch_to {
            self.spin = None;
        }
        if self.mem.alloc >= self.mem.trigger {
            self.measure(p, 0)?;
        }
        let next = if watching {
            self.reductions + 1
        } else if self.reductions <= watch_from {
            (self.reductions + CHECK_INTERVAL).min(watch_from + 1)
        } else {
            self.reductions + CHECK_INTERVAL
        };
        self.max_reductions = self.config.max_reductions.min(next);
        Ok(())
    }

    /// A request for `request` words was refused: measure, and stop the run
    /// unless what is live and the request fit the budget.
    #[cold]
    pub(crate) fn make_room(
        &mut self,
        p: &crate::process::Process,
        request: u64,
    ) -> Result<(), crate::vm::VmError> {
        self.measure(p, request)
    }

    /// A request for `request` words was refused again right after a
    /// measurement (what was granted since, and this request, do not fit):
    /// the run stops.
    #[cold]
    pub(crate) fn out_of_memory(
        &self,
        p: &crate::process::Process,
        request: u64,
    ) -> crate::vm::VmError {
        let left = room_left();
        let wanted = self.mem.budget.saturating_sub(left).saturating_add(request);
        self.memory_exhausted(p, wanted)
    }

    fn memory_exhausted(&self, p: &crate::process::Process, live: u64) -> crate::vm::VmError {
        crate::vm::VmError::MemoryExhausted {
            process: self.process_name(p.pid).to_string(),
            location: self.where_running(p, None),
            live,
            budget: self.mem.budget,
        }
    }

    /// Measure what is live (with `p` the running process); over the budget
    /// with `extra` more words, the run stops.
    fn measure(
        &mut self,
        p: &crate::process::Process,
        extra: u64,
    ) -> Result<(), crate::vm::VmError> {
        let live = self.live_words(p);
        self.mem.measurements += 1;
        if live.saturating_add(extra) > self.mem.budget {
            return Err(self.memory_exhausted(p, live.saturating_add(extra)));
        }
        self.mem.live = live;
        self.mem.rearm();
        set_room(self.mem.room());
        Ok(())
    }

    /// Words live in the whole VM, `p` being the running process (out of
    /// the process table meanwhile).
    pub(crate) fn live_words(&self, p: &crate::process::Process) -> u64 {
        let mut f = Footprint::default();
        for q in &self.procs {
            if q.pid == p.pid || q.pid.0 == u32::MAX {
                continue;
            }
            process_footprint(q, &mut f);
        }
        process_footprint(p, &mut f);
        // The placeholder standing in for `p` in the table is not counted.
        for t in self.ets.tables.values() {
            f.words += 16;
            for (k, objs) in t.data.iter() {
                f.words += 8 + 2 * objs.len() as u64;
                f.term(&k.term);
                f.terms(objs);
            }
        }
        for t in self.mnesia.tables.values() {
            f.words += 16;
            for (k, objs) in t.data.data.iter() {
                f.words += 8 + 2 * objs.len() as u64;
                f.term(&k.term);
                f.terms(objs);
            }
        }
        for (k, v) in self.persistent_terms.iter() {
            f.words += 8;
            f.term(&k.0);
            f.term(v);
        }
        for ((a, k), v) in self.app_env.iter() {
            f.words += 8;
            f.term(&a.0);
            f.term(&k.0);
            f.term(v);
        }
        for (k, _) in self.global_names.iter() {
            f.words += 8;
            f.term(&k.0);
        }
        f.words += 4 * self.registry.len() as u64;
        f.words += self.output_bytes / 8 + 4 * self.output.len() as u64;
        f.words += self
            .atoms_made
            .iter()
            .map(|a| 8 + a.name().len() as u64 / 8)
            .sum::<u64>();
        f.words
    }

    /// Where the process `p` is, for a limit's report: the call site
    /// `span` when it is in the user's code, else the line of the innermost
    /// function of the user's code on its stack, else the function running.
    pub(crate) fn where_running(
        &self,
        p: &crate::process::Process,
        span: Option<racewit_syntax::Span>,
    ) -> String {
        let here = self.location_text(span);
        if !here.is_empty() {
            return here;
        }
        for fr in p.frames.iter().rev() {
            let Some(m) = self.code.modules.get(fr.module as usize) else {
                continue;
            };
            let Some(fc) = self.code.functions(fr.module).get(fr.function as usize) else {
                continue;
            };
            if m.prelude {
                continue;
            }
            let (name, arity) = fc.display;
            if let Some(f) = self
                .program
                .module(&m.ir_name)
                .and_then(|im| im.function(name.name(), arity))
            {
                return self.location_text(Some(f.span));
            }
        }
        match p.frames.last() {
            Some(fr) => {
                let m = &self.code.modules[fr.module as usize];
                let fc = self.code.func(fr.module, fr.function);
                format!("{}:{}/{}", m.name.name(), fc.display.0.name(), fc.display.1)
            }
            // Not started yet: where it starts.
            None => match p.initial_call.as_tuple() {
                Some([Term::Atom(m), Term::Atom(f), Term::Int(a)]) => {
                    format!("{}:{}/{a}", m.name(), f.name())
                }
                _ => "its start".to_string(),
            },
        }
    }
}

/// What one process holds: its stack (every register chunk, whole), its
/// mailbox, dictionary and the terms it keeps.
fn process_footprint(q: &crate::process::Process, f: &mut Footprint) {
    f.words += PROCESS_WORDS;
    f.words += 2 * q.regs.capacity() as u64 + 2 * q.spare.capacity() as u64;
    f.terms(&q.regs);
    for (chunk, _) in &q.lower {
        f.words += 2 * chunk.capacity() as u64;
        f.terms(chunk);
    }
    f.words += 3 * (q.frames.capacity() + q.handlers.capacity()) as u64;
    f.words += 2 * q.mailbox.capacity() as u64;
    f.terms(&q.mailbox);
    for (k, v) in q.dict.iter() {
        f.words += 6;
        f.term(&k.0);
        f.term(v);
    }
    f.words += 6 * (q.links.len() + q.monitors.len() + q.monitored_by.len()) as u64;
    if let Some(r) = &q.result {
        f.term(r);
    }
    if let Some(c) = &q.crash {
        f.term(&c.reason);
        f.term(&c.stack);
    }
    f.term(&q.initial_call);
    if let Some(start) = &q.start {
        match start {
            crate::process::Start::Call(_, args) => f.terms(args),
            crate::process::Start::Apply(fun, args) => {
                f.term(fun);
                f.terms(args);
            }
        }
    }
}

/// `n` with a comma between groups of three digits (`100,000`), as the
/// verdicts print budgets.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
