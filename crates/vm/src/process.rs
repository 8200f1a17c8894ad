//! One Erlang process: its explicit stack of frames over register chunks,
//! exception handlers, mailbox, links, monitors and dictionary.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use crate::atom::Atom;
use crate::code::{Slot, Target};
use crate::term::{MapKey, Pid, Term};

/// Stable process name: `P1`, `P1.1`, `P1.2`, `P1.1.1` (spawn order per parent).
pub type ProcName = Arc<str>;

#[derive(Clone, Debug, PartialEq)]
pub enum ProcStatus {
    Runnable,
    /// In `receive` with no matching message and no timeout.
    Blocked,
    /// In `receive ... after T` or `timer:sleep(T)`: the timeout can fire.
    Waiting {
        deadline: u64,
    },
    Exited(Term),
    /// Stopped at a call racewit does not run, and why.
    Parked {
        call: String,
        location: String,
        reason: crate::library::ParkReason,
    },
}

#[derive(Clone, Copy)]
pub struct Frame {
    pub module: u32,
    pub function: u32,
    pub pc: u32,
    pub base: u32,
    /// Where the caller wants the result (a slot of the caller's frame).
    pub ret: Slot,
    /// The register chunk holding the frame (see [`Process::regs`]).
    pub chunk: u32,
}

/// Slots in a register chunk before a new chunk is started (1 MiB of terms).
pub const CHUNK_SLOTS: usize = 1 << 16;

#[derive(Clone, Copy)]
pub struct Handler {
    /// Number of frames when the handler was installed.
    pub depth: u32,
    pub pc: u32,
    pub class: Slot,
    pub reason: Slot,
    pub stack: Slot,
}

/// What a new process starts with.
#[derive(Clone)]
pub enum Start {
    Call(Target, Vec<Term>),
    Apply(Term, Vec<Term>),
}

#[derive(Clone)]
pub struct Process {
    pub pid: Pid,
    /// Processes spawned so far (the next child is `<name>.<children + 1>`).
    pub children: u32,
    /// Timers started so far (the next is `<name>.t<timers + 1>`).
    pub timers: u32,
    /// Registers of the frames in the top chunk; `regs[..top]` is live, the
    /// rest are stale values kept to avoid refilling (trimmed between steps).
    /// A deep stack is a list of chunks of about [`CHUNK_SLOTS`] slots, so it
    /// grows without copying: `lower` holds the chunks below with their
    /// `top`, and a frame's `chunk` is its chunk's index (`lower.len()` for
    /// the top chunk, which always holds the top frame).
    pub regs: Vec<Term>,
    pub top: usize,
    pub lower: Vec<(Vec<Term>, usize)>,
    /// An emptied chunk kept for reuse within a step (no refaulting when a
    /// recursion goes up and down across a chunk boundary).
    pub spare: Vec<Term>,
    pub frames: Vec<Frame>,
    pub handlers: Vec<Handler>,
    pub start: Option<Start>,
    pub mailbox: VecDeque<Term>,
    /// Scan position of the current `receive`.
    pub recv_pos: usize,
    /// The current `receive`'s clauses in their frame, taken when it
    /// started (see [`crate::event::ReceiveProbe`]).
    pub recv_probe: Option<crate::event::ReceiveProbe>,
    /// Messages present when the process last blocked (new ones make it runnable).
    pub scanned: usize,
    /// The deadline of the `receive ... after` being waited in: set when
    /// the receive first waits and kept while new messages that match no
    /// clause wake it, as the BEAM keeps the receive's timer; cleared when
    /// a message is taken or the timeout fires.
    pub wait_deadline: Option<u64>,
    pub status: ProcStatus,
    pub links: BTreeSet<Pid>,
    /// Monitors this process holds: ref → (monitored pid).
    pub monitors: BTreeMap<u64, Pid>,
    /// Monitors on this process: ref → (watcher, registered name when monitored by name).
    pub monitored_by: BTreeMap<u64, (Pid, Option<Atom>)>,
    pub trap_exit: bool,
    /// Subscriptions to node up/down messages (`process_flag(monitor_nodes,
    /// true)` adds one, `false` drops them all). The VM runs one node: no
    /// such message ever comes.
    pub node_monitors: u32,
    pub dict: imbl::OrdMap<MapKey, Term>,
    pub registered: Option<Atom>,
    /// The value the entry function returned (for `run`).
    pub result: Option<Term>,
    /// The process ended (returned from its last frame, or raised) in the
    /// step that made a visible action: it exits in its next step, so
    /// other processes can see it between the two (a name it registered,
    /// a table it made, still there).
    pub exit_next: Option<Term>,
    /// The exception that ended the process, if any (class, reason, stack).
    pub crash: Option<crate::event::Exception>,
    /// Pending timeout firing for the current wait (the `after` target pc).
    pub after_pc: u32,
    /// The call that spawned it, `{M,F,A}` (for `proc_lib`-style info).
    pub initial_call: Term,
    /// Depth of atomic sections (mnesia transactions): no yielding inside.
    pub atomic: u32,
    /// mnesia state at the start of each open transaction (restored on abort).
    pub mnesia_tx: Vec<crate::mnesia::MnesiaStore>,
    /// A dirty operation ran inside a transaction: end the step there.
    pub yield_in_atomic: bool,
    /// For a timer (`erlang:send_after/3,4`, `start_timer/3,4`): what it
    /// sends when it fires. A timer runs no code: it waits for its deadline
    /// (a timeout the scheduler may fire), sends, and is gone.
    pub timer: Option<Box<TimerJob>>,
    /// Timers that will send to this process (cancelled when it exits).
    pub incoming_timers: Vec<Pid>,
    /// Its group leader (`group_leader/0,2`): a spawned process inherits
    /// its parent's; a root's is the node's `user` process.
    pub group_leader: Pid,
    /// Monitors on this process with a `{tag, Tag}` option: ref → Tag
    /// (its `'DOWN'` message starts with Tag).
    pub monitor_tags: BTreeMap<u64, Term>,
}

/// A timer's message and destination.
#[derive(Clone)]
pub struct TimerJob {
    /// A pid or a registered name (looked up when the timer fires).
    pub dest: Term,
    pub msg: Term,
    /// The timer's reference (`erlang:cancel_timer/1` takes it).
    pub tref: u64,
}

impl Process {
    pub fn new(pid: Pid, start: Option<Start>, initial_call: Term) -> Process {
        Process {
            pid,
            children: 0,
            timers: 0,
            regs: Vec::new(),
            top: 0,
            lower: Vec::new(),
            spare: Vec::new(),
            frames: Vec::new(),
            handlers: Vec::new(),
            start,
            mailbox: VecDeque::new(),
            recv_pos: 0,
            recv_probe: None,
            scanned: 0,
            wait_deadline: None,
            status: ProcStatus::Runnable,
            links: BTreeSet::new(),
            monitors: BTreeMap::new(),
            monitored_by: BTreeMap::new(),
            trap_exit: false,
            node_monitors: 0,
            dict: imbl::OrdMap::new(),
            registered: None,
            result: None,
            exit_next: None,
            crash: None,
            after_pc: 0,
            initial_call,
            atomic: 0,
            mnesia_tx: Vec::new(),
            yield_in_atomic: false,
            timer: None,
            incoming_timers: Vec::new(),
            group_leader: Pid(crate::term::SYSTEM_PID_BASE + crate::world::USER_INDEX),
            monitor_tags: BTreeMap::new(),
        }
    }

    /// A timer due at `deadline` (virtual milliseconds).
    pub fn timer(pid: Pid, job: TimerJob, deadline: u64) -> Process {
        let mut p = Process::new(pid, None, Term::Nil);
        p.status = ProcStatus::Waiting { deadline };
        p.timer = Some(Box::new(job));
        p
    }

    /// Start a new top chunk with room for `size` slots (the next frame).
    pub fn push_chunk(&mut self, size: usize) {
        let mut fresh = std::mem::take(&mut self.spare);
        if fresh.capacity() < size {
            fresh = Vec::with_capacity(CHUNK_SLOTS.max(size));
        }
        let full = std::mem::replace(&mut self.regs, fresh);
        self.lower.push((full, self.top));
        self.top = 0;
    }

    /// Go back to the chunk below (its top frame becomes the top frame):
    /// the stale values of the chunk left are dropped.
    pub fn pop_chunk(&mut self) {
        if let Some((below, top)) = self.lower.pop() {
            let mut done = std::mem::replace(&mut self.regs, below);
            done.clear();
            if self.spare.capacity() == 0 {
                self.spare = done;
            }
            self.top = top;
        }
    }

    /// Forget every frame's registers.
    pub fn clear_stack(&mut self) {
        self.regs = Vec::new();
        self.lower = Vec::new();
        self.spare = Vec::new();
        self.top = 0;
    }

    pub fn is_alive(&self) -> bool {
        !matches!(self.status, ProcStatus::Exited(_))
    }

    pub fn can_step(&self) -> bool {
        match self.status {
            ProcStatus::Runnable | ProcStatus::Waiting { .. } => true,
            ProcStatus::Blocked => self.mailbox.len() > self.scanned,
            _ => false,
        }
    }
}

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
