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
//!
//! The VM's side (measuring a run, the reduction checkpoint) is in
//! `budget`; what a busy loop is told by, in `process` (`SpinWatch`).

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
pub(crate) fn room_left() -> u64 {
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
    pub(crate) fn rearm(&mut self) {
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
