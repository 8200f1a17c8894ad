//! Source-DPOR (Abdulla, Aronis, Jonsson, Sagonas, POPL 2014) with sleep
//! sets and goal steering, over every interleaving (no preemption bound).
//!
//! - The search keeps the current run as a stack of nodes (the state before
//!   each step) and events (each step with its vector clock). A step's clock
//!   joins the clocks of the steps it depends on in this run
//!   ([`commute_in_run`] says which) and of its process's previous step: it
//!   says which steps happen before it. Sleep sets compare steps across runs
//!   and use the stricter [`independent`].
//! - When a step `n` races with an earlier step `j` (dependent, different
//!   processes, and no other step orders them), the run could have reversed
//!   the two. The steps after `j` that do not happen after `j`, followed by
//!   `n`, form a sequence `v`; the processes that can start `v` are its
//!   *initials*. If none of them is already planned or asleep at `j`'s node,
//!   one is added there: that node's backtrack set is a source set.
//! - A step that disables another process (an exit signal that kills it)
//!   races with the step that process would have taken: that process is
//!   planned before it.
//! - The first process tried at a fresh node follows the steering order (the
//!   process that just ran, then the others, the goal's held reader last);
//!   other processes are tried only where a race asks for them.
//! - No bound: reordering a run into an equivalent one can change how many
//!   preemptions it takes, so sleep sets and source sets cut runs that a
//!   preemption bound would need (the tests show it on small programs, as
//!   did the conservative planning of Coons et al.'s BPOR). A bounded search
//!   is [`crate::search::bounded::BoundedDfs`]; [`crate::search::Systematic`]
//!   tries this search first and falls back to it.
//! - A finding is re-ordered before it is reported: the same steps, in an
//!   order their happens-before allows that switches process as seldom as
//!   it can (a witness with fewer preemptions reads better). It is replayed
//!   and kept only if every process does exactly the same steps.
//! - State: a node keeps a clone of the system (and of the monitor) only
//!   where two or more processes can run and are not asleep (an asleep
//!   process is never run there), and past a run's first steps
//!   only at checkpoints; a forced step moves the state on. A step's
//!   observation is held once, shared by its event, its node's done list
//!   and the sleep sets it is carried in; the trace and the schedule of a
//!   run are built from the events only for a finding.
//! - Cost of a step: the run's steps are filed by the items they touched
//!   ([`crate::system::Item::index_key`]), so a new step is compared only
//!   with the earlier steps that may conflict with it (and with the few
//!   that commute with nothing), not with the whole run, and each
//!   process's steps among those only back to the first its clock covers
//!   (a loop that touches its own process at every step would otherwise
//!   compare each step with the whole loop); the initials of a
//!   reversal are read off the clocks, a constant amount of work per step
//!   between the two racing steps.
//! - Two writes that print the same commute within a run, not in every
//!   state: a process asleep on such a write stays asleep when another
//!   process makes it only if its own step, tried on a copy of the state,
//!   is still the same (`still_asleep`). Then N processes doing lookup then
//!   insert of one counter explore exactly one run per class (the tests).

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::goal::Monitor;
use crate::search::replay::follow;
use crate::search::{
    CancelReason, Found, KEEP_FOUND, Outcome, SearchStats, StopReason, Strategy, TraceStep,
    cancelled,
};
use crate::system::{Item, Observation, System, commute_in_run, independent};

#[derive(Clone, Debug)]
pub struct SourceDpor {
    /// Stop after this many runs, completed or cut (the space is then not
    /// exhausted).
    pub max_interleavings: u64,
    /// Steps one run may take before it is cut (livelock guard).
    pub max_run_steps: usize,
    /// Stop at the first finding.
    pub stop_at_first: bool,
    /// Let the monitor's `hold` steer the order of first choices.
    pub steer: bool,
    /// First choices keep a run within this many preemptions while they
    /// can (an order, not a bound: raced-for choices are still planned).
    pub preferred_preemptions: u32,
    /// A stop requested from outside (time or memory cap).
    pub cancel: Option<std::sync::Arc<crate::search::Cancel>>,
    /// Which states of a run are kept: every choice point's up to step
    /// `.0`, then one every `.1` steps (see [`KEEP_ALL_UNTIL`]).
    pub checkpoints: (usize, usize),
}

impl Default for SourceDpor {
    fn default() -> Self {
        SourceDpor {
            max_interleavings: 100_000,
            max_run_steps: 100_000,
            stop_at_first: true,
            steer: true,
            preferred_preemptions: 2,
            cancel: None,
            checkpoints: (KEEP_ALL_UNTIL, CHECKPOINT_EVERY),
        }
    }
}

/// A step's observation, shared by the run's event, its node's done list
/// and the sleep sets it is carried in: one copy per step, whatever the
/// places that hold it.
type Obs<S> = Arc<Observation<<S as System>::Item, <S as System>::Site>>;

/// A vector clock over dense process indices: entry `p` is one more than
/// the position of process `p`'s last step that happens before (or is) the
/// step holding the clock; 0 when there is none.
///
/// Every step keeps its clock, and a run may have thousands of processes
/// (each `erlang:send_after` timer is one), so the entries are held in
/// shared blocks: a step's clock is its predecessor's with a few entries
/// changed, and only the blocks that changed are copied. A flat vector
/// made a 50,000-step run of a ticking server hold 3 GB.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Clock(Vec<Arc<ClockBlock>>);

const CLOCK_BLOCK: usize = 32;

#[derive(Clone, Debug, PartialEq, Eq)]
struct ClockBlock {
    at: [u32; CLOCK_BLOCK],
    /// The largest entry of the block.
    max: u32,
}

const EMPTY_BLOCK: ClockBlock = ClockBlock {
    at: [0; CLOCK_BLOCK],
    max: 0,
};

impl Clock {
    fn get(&self, p: usize) -> u32 {
        self.0
            .get(p / CLOCK_BLOCK)
            .map_or(0, |b| b.at[p % CLOCK_BLOCK])
    }

    fn set(&mut self, p: usize, v: u32) {
        let i = p / CLOCK_BLOCK;
        if self.0.len() <= i {
            self.0.resize_with(i + 1, || Arc::new(EMPTY_BLOCK));
        }
        let b = Arc::make_mut(&mut self.0[i]);
        b.at[p % CLOCK_BLOCK] = v;
        b.max = b.at.iter().copied().max().unwrap_or(0);
    }

    fn join(&mut self, other: &Clock) {
        for (i, theirs) in other.0.iter().enumerate() {
            let Some(mine) = self.0.get_mut(i) else {
                self.0.push(theirs.clone());
                continue;
            };
            if mine.max == 0 {
                *mine = theirs.clone();
                continue;
            }
            if Arc::ptr_eq(mine, theirs)
                || theirs.max == 0
                || mine.at.iter().zip(&theirs.at).all(|(a, b)| a >= b)
            {
                continue;
            }
            let b = Arc::make_mut(mine);
            for (a, t) in b.at.iter_mut().zip(&theirs.at) {
                *a = (*a).max(*t);
            }
            b.max = b.max.max(theirs.max);
        }
    }

    /// Whether the step at `pos`, by process `p`, happens before the holder.
    fn covers(&self, p: usize, pos: usize) -> bool {
        self.get(p) as usize > pos
    }

    /// The latest entry of any process but `p`.
    fn max_other(&self, p: usize) -> u32 {
        let own = p / CLOCK_BLOCK;
        self.0
            .iter()
            .enumerate()
            .map(|(i, b)| {
                if i != own {
                    return b.max;
                }
                b.at.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != p % CLOCK_BLOCK)
                    .map(|(_, &c)| c)
                    .max()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    }
}

struct Event<S: System> {
    proc: S::Proc,
    pidx: usize,
    /// Whether taking the step preempted a process that could go on.
    preemption: bool,
    obs: Obs<S>,
    clock: Clock,
    /// The previous step of the same process in this run.
    prev_same: Option<usize>,
    /// The largest clock entry of another process: no step of another
    /// process after position `max_other - 1` happens before this one.
    max_other: u32,
    /// Where the step is filed in [`Explorer::index`] (to unfile it).
    filed: Vec<(u64, Option<u64>)>,
    /// Earlier steps ordered before this one by a later step that observed
    /// their order (see [`Observation::orders`]): `(earlier, observer)`.
    observed_after: Vec<(usize, usize)>,
}

/// The steps of the current run that touched one group of items
/// ([`Item::index_key`]), by position, in run order.
#[derive(Default)]
struct Group {
    /// Every step that touched the group.
    all: Filed,
    /// The steps that touched a keyed item, by key.
    keyed: FxHashMap<u64, Filed>,
    /// The steps that touched the whole group (an item with no key).
    whole: Filed,
}

/// Steps filed together, in run order, and by process: a new step walks
/// each process's steps back only while its clock does not cover them.
#[derive(Default)]
struct Filed {
    run: Vec<usize>,
    /// By dense process index: that process's steps among them.
    of: FxHashMap<usize, Vec<usize>>,
}

impl Filed {
    fn push(&mut self, i: usize, pidx: usize) {
        self.run.push(i);
        self.of.entry(pidx).or_default().push(i);
    }

    /// Unfiles the last step filed, made by process `pidx`.
    fn pop(&mut self, pidx: usize) {
        self.run.pop();
        if let Some(steps) = self.of.get_mut(&pidx) {
            steps.pop();
        }
    }
}

/// Runs shorter than this keep the state of every choice point; past it,
/// only every `CHECKPOINT_EVERY`-th, and a choice point between two kept
/// states is rebuilt by replaying the steps from the one before it (the
/// system is deterministic). A search's memory then grows with a run's
/// length divided by the spacing, not with its length: a 50,000-step run
/// would otherwise hold 50,000 forks of the VM.
///
/// A fork holds a few words per process (the process table, names,
/// actors), so the spacing grows with the processes the run has had, one
/// more `CHECKPOINT_EVERY` per `PROCS_PER_SPACING`: a run that makes a
/// timer every few steps would otherwise hold forks that grow with its
/// length, its memory growing with the square of it.
pub(crate) const KEEP_ALL_UNTIL: usize = 256;
/// Within a run's first [`KEEP_ALL_UNTIL`] steps, DPOR keeps the state of
/// a choice point only where none of the steps this many back kept one,
/// and rebuilds a choice point between two by replay: most choice points are never returned to (li5: 77,000 kept
/// for 8,400 returns), and a kept state costs its copy, the copies of what
/// the run then changes in it, and dropping them all.
pub(crate) const KEEP_EARLY_EVERY: usize = 8;
pub(crate) const CHECKPOINT_EVERY: usize = 32;
pub(crate) const PROCS_PER_SPACING: usize = 64;

struct Node<S: System, M> {
    /// The state before this node's step, with the monitor as it stood
    /// there; dropped once no choice remains, and at a choice point
    /// between checkpoints (see `restorable`). Boxed: a node without it
    /// is a few words, not the size of a system.
    sys: Option<Box<(S, M)>>,
    /// The state was dropped at a choice point: [`Explorer::restore`]
    /// rebuilds it from the nearest kept state before.
    restorable: bool,
    /// Whether a search that kept the state of every choice point of a
    /// run's first steps would keep this node's: the replay that rebuilds
    /// a state spends the system's allowance only from the nearest such
    /// node on, so keeping fewer states changes no budget.
    charged_base: bool,
    enabled: Vec<S::Proc>,
    /// The process that took the previous step.
    last: Option<S::Proc>,
    preemptions: u32,
    sleep: Vec<(S::Proc, Obs<S>)>,
    /// Processes to explore from here (the ones explored included).
    backtrack: Vec<S::Proc>,
    /// Processes explored from here, with their step (none if it failed).
    done: Vec<(S::Proc, Option<Obs<S>>)>,
}

impl<S: System, M> Node<S, M> {
    fn is_preemption(&self, p: S::Proc) -> bool {
        self.last.is_some_and(|l| l != p && self.enables(l))
    }

    /// Whether `p` may run here (`enabled` is sorted: a search, not a
    /// walk, with a thousand processes).
    fn enables(&self, p: S::Proc) -> bool {
        self.enabled.binary_search(&p).is_ok()
    }

    fn asleep(&self, p: S::Proc) -> bool {
        self.sleep.iter().any(|(s, _)| *s == p)
    }

    /// Plans `p` here unless it is planned or asleep already.
    fn plan(&mut self, p: S::Proc) {
        if !self.backtrack.contains(&p) && !self.asleep(p) {
            self.backtrack.push(p);
        }
    }

    fn tried(&self, p: S::Proc) -> bool {
        self.done.iter().any(|(s, _)| *s == p)
    }
}

enum RunEnd {
    Complete,
    SleepBlocked,
    Cut(String),
    Cancelled(CancelReason),
}

/// The search's working state: the current run and what was learnt.
struct Explorer<'a, S: System, M> {
    opts: &'a SourceDpor,
    initial: S,
    initial_monitor: M,
    nodes: Vec<Node<S, M>>,
    events: Vec<Event<S>>,
    /// Each process's last step in the current run, by dense index.
    last_of: Vec<Option<usize>>,
    dense: FxHashMap<S::Proc, usize>,
    /// The current run's steps by the items they touched, so that a new
    /// step is compared only with the earlier steps that may conflict with
    /// it, not with the whole run.
    index: FxHashMap<u64, Group>,
    /// The current run's steps that commute with nothing.
    globals: Filed,
    /// The current run's steps that sent a message, by its identity.
    senders: FxHashMap<u64, usize>,
    /// Orders observed in the current run, as they were added:
    /// `(observer, later step)` (the later step holds the edge).
    observed: Vec<(usize, usize)>,
    /// A step's walk over the filed steps: the buffer of its heap.
    heap: Vec<(usize, usize, usize, usize)>,
    stats: SearchStats,
}

impl<'a, S: System, M: Monitor<S>> Explorer<'a, S, M> {
    fn dense_index(&mut self, p: S::Proc) -> usize {
        let next = self.dense.len();
        let i = *self.dense.entry(p).or_insert(next);
        if self.last_of.len() <= i {
            self.last_of.resize(i + 1, None);
        }
        i
    }

    /// The process to run first at the frontier, if any may run.
    fn first_choice(&self) -> Option<S::Proc> {
        let node = self.nodes.last()?;
        let last_enabled = node.last.filter(|&l| node.enables(l));
        // The frontier always holds its state (a run goes on from it).
        let monitor = node.sys.as_deref().map(|(_, m)| m);
        let hold = match monitor {
            Some(m) if self.opts.steer && !m.hit() => m.hold().filter(|&h| node.enables(h)),
            _ => None,
        };
        let order = last_enabled
            .into_iter()
            .filter(|&l| Some(l) != hold)
            .chain(
                node.enabled
                    .iter()
                    .copied()
                    .filter(|&e| Some(e) != last_enabled && Some(e) != hold),
            )
            .chain(hold);
        let cheap = node.preemptions < self.opts.preferred_preemptions;
        let mut first_awake = None;
        for c in order.filter(|&c| !node.asleep(c)) {
            if cheap || !node.is_preemption(c) {
                return Some(c);
            }
            first_awake.get_or_insert(c);
        }
        first_awake
    }

    /// Runs `proc` from the frontier node, records the step and its races,
    /// and pushes the node after it.
    fn execute(&mut self, proc: S::Proc) -> Result<(), String> {
        let i = self.events.len();
        let node = &mut self.nodes[i];
        let preemption = node.is_preemption(proc);
        if !node.backtrack.contains(&proc) {
            node.backtrack.push(proc);
        }
        // A choice point is where another process may still be explored:
        // an awake one (a node's sleep set is fixed when the node is made,
        // and a process asleep there is never planned or run there). Where
        // every other process is asleep, the state is not kept.
        let choice = node
            .enabled
            .iter()
            .filter(|&&p| !node.asleep(p))
            .nth(1)
            .is_some();
        let (keep_all, every) = self.opts.checkpoints;
        let spacing = every.max(1) * (1 + self.dense.len() / PROCS_PER_SPACING);
        // What a search that kept every early choice point would keep: the
        // steps replayed from there on spend the system's allowance as
        // they always did (see `restore`).
        let charged = if i < keep_all {
            choice
        } else {
            i.is_multiple_of(spacing)
        };
        node.charged_base = charged;
        let keep = if i < keep_all {
            choice
                && self.nodes[i.saturating_sub(KEEP_EARLY_EVERY - 1)..i]
                    .iter()
                    .all(|n| n.sys.is_none())
        } else {
            charged
        };
        let node = &mut self.nodes[i];
        // The monitor goes with the state: kept where it is kept, rebuilt
        // with it by replay where it is dropped.
        // The state stays boxed: a system is large, and moving it out of
        // its box and into a new one copied it twice a step.
        let mut state: Box<(S, M)> = if keep {
            match node.sys.as_deref() {
                Some(s) => Box::new(s.clone()),
                None => return Err("search state lost at a choice point".into()),
            }
        } else if choice {
            match node.sys.take() {
                Some(s) => {
                    node.restorable = true;
                    s
                }
                None => return Err("search state lost at a choice point".into()),
            }
        } else {
            match node.sys.take() {
                Some(s) => s,
                None => return Err("search state lost at a forced step".into()),
            }
        };
        self.stats.steps += 1;
        let (sys, monitor) = &mut *state;
        let obs = match sys.step(proc) {
            Ok(obs) => Arc::new(obs),
            Err(e) => {
                self.nodes[i].done.push((proc, None));
                return Err(e.to_string());
            }
        };
        monitor.observe(sys, proc, &obs, i);
        let sys = &state.0;
        let enabled = sys.enabled();
        let node = &mut self.nodes[i];
        let mut probes = 0;
        let sleep: Vec<(S::Proc, Obs<S>)> = node
            .sleep
            .iter()
            .cloned()
            .chain(
                node.done
                    .iter()
                    .filter_map(|(p, o)| o.as_ref().map(|o| (*p, o.clone()))),
            )
            .filter(|(s, o)| {
                *s != proc
                    && (independent(o, &obs)
                        || still_asleep(sys, &enabled, *s, o, &obs, &mut probes))
            })
            .collect();
        self.stats.steps += probes;
        let node = &mut self.nodes[i];
        node.done.push((proc, Some(obs.clone())));
        let preemptions = node.preemptions + preemption as u32;

        // The step's clock, and the earlier steps it races with.
        let pidx = self.dense_index(proc);
        let prev = self.last_of[pidx];
        let mut clock = prev
            .map(|e| self.events[e].clock.clone())
            .unwrap_or_default();
        let mut races = Vec::new();
        let mut consider = |j: usize, clock: &mut Clock| {
            let e = &self.events[j];
            if e.pidx == pidx || clock.covers(e.pidx, j) || commute_in_run(&e.obs, &obs) {
                return;
            }
            // A receive that waits forever comes after the send of what it
            // took in every run, and a process's steps after the spawn that
            // made it: ordered, never reversed.
            let forced = matches!((obs.took, e.obs.message), (Some((t, false)), Some(m)) if t == m)
                || S::spawned(&e.obs) == Some(proc);
            if !forced {
                races.push(j);
            }
            clock.join(&e.clock);
        };
        if obs.global && self.last_of.len() * 8 < i {
            // A step that commutes with nothing has every earlier step as
            // a candidate, latest first. A process's steps are ordered, so
            // once one is covered by the clock (which only grows) all its
            // earlier ones are: each process's steps are walked back only
            // while they are not. The same steps in the same order as the
            // walk over the whole run, in time that grows with the
            // processes, not with the run (a loop that waits in `receive
            // ... after` fires a timeout every few steps of a long run).
            let mut heads: std::collections::BinaryHeap<(usize, usize)> = self
                .last_of
                .iter()
                .enumerate()
                .filter_map(|(q, last)| {
                    last.filter(|&j| q != pidx && !clock.covers(q, j))
                        .map(|j| (j, q))
                })
                .collect();
            while let Some((j, q)) = heads.pop() {
                if clock.covers(q, j) {
                    continue;
                }
                consider(j, &mut clock);
                if let Some(before) = self.events[j].prev_same {
                    heads.push((before, q));
                }
            }
        } else if obs.global {
            for j in self.candidates(&obs, i) {
                consider(j, &mut clock);
            }
        } else {
            // The earlier steps filed with it, latest first, as
            // `candidates` gives them; but each process's steps in a list
            // are walked back only while the clock does not cover them (it
            // only grows, and a process's steps are ordered), and the
            // step's own process's not at all (its clock covers them): a
            // loop that touches its own process or mailbox at every step
            // would otherwise compare each step with the whole run.
            // The heap's buffer is kept from step to step.
            let buffer = std::mem::take(&mut self.heap);
            let lists = self.filed_with(&obs);
            let mut heads = std::collections::BinaryHeap::from(buffer);
            for (li, list) in lists.iter().enumerate() {
                for (&q, steps) in &list.of {
                    if let Some(&j) = steps.last()
                        && q != pidx
                        && !clock.covers(q, j)
                    {
                        heads.push((j, q, li, steps.len() - 1));
                    }
                }
            }
            let mut last = None;
            while let Some((j, q, li, at)) = heads.pop() {
                if clock.covers(q, j) {
                    continue;
                }
                if last != Some(j) {
                    consider(j, &mut clock);
                    last = Some(j);
                }
                if let Some(before) = at.checked_sub(1) {
                    let steps = &lists[li].of[&q];
                    heads.push((steps[before], q, li, before));
                }
            }
            let mut buffer = heads.into_vec();
            buffer.clear();
            self.heap = buffer;
        }
        clock.set(pidx, i as u32 + 1);
        let max_other = clock.max_other(pidx);
        let filed = self.file(&obs, i, pidx);
        if let Some(m) = obs.message {
            self.senders.insert(m, i);
        }
        let orders = obs.orders.clone();
        self.events.push(Event {
            proc,
            pidx,
            preemption,
            obs,
            clock,
            prev_same: prev,
            max_other,
            filed,
            observed_after: Vec::new(),
        });
        self.last_of[pidx] = Some(i);
        for j in races {
            self.plan_reversal(j, i);
        }
        self.observe_orders(&orders, i);
        // A step that disables another process (a kill, an exit signal, a
        // timeout that is no longer allowed) races with that process's
        // next step, which this run never takes: plan it before the step.
        // (Both lists are sorted.)
        let disabled: Vec<S::Proc> = self.nodes[i]
            .enabled
            .iter()
            .copied()
            .filter(|&q| q != proc && enabled.binary_search(&q).is_err())
            .collect();
        for q in disabled {
            self.nodes[i].plan(q);
        }
        self.nodes.push(Node {
            sys: Some(state),
            restorable: false,
            charged_base: false,
            enabled,
            last: Some(proc),
            preemptions,
            sleep,
            backtrack: Vec::new(),
            done: Vec::new(),
        });
        Ok(())
    }

    /// Step `i` observed the order of pairs of earlier sends (a receive
    /// that took the first and could have taken the second): each pair is
    /// now dependent, the first before the second. A pair no step ordered
    /// yet is a race, found only now: its reversal is planned, and the
    /// clocks from the second on are computed again with the new edge.
    fn observe_orders(&mut self, orders: &[(u64, u64)], i: usize) {
        let mut from: Option<usize> = None;
        for (a, b) in orders {
            let (Some(&ja), Some(&jb)) = (self.senders.get(a), self.senders.get(b)) else {
                continue;
            };
            if ja >= jb {
                continue;
            }
            let (ea, eb) = (&self.events[ja], &self.events[jb]);
            if ea.pidx == eb.pidx || eb.clock.covers(ea.pidx, ja) {
                continue;
            }
            self.plan_reversal(ja, jb);
            self.events[jb].observed_after.push((ja, i));
            self.observed.push((i, jb));
            from = Some(from.map_or(jb, |f| f.min(jb)));
        }
        if let Some(f) = from {
            self.recompute_clocks(f, i + 1);
        }
    }

    /// Computes again the clocks (and `max_other`) of the steps at
    /// positions `from..to`, after the edges between earlier steps changed.
    fn recompute_clocks(&mut self, from: usize, to: usize) {
        for k in from..to.min(self.events.len()) {
            let (pidx, prev) = (self.events[k].pidx, self.events[k].prev_same);
            let mut clock = prev
                .map(|e| self.events[e].clock.clone())
                .unwrap_or_default();
            for j in self.candidates(&self.events[k].obs, k) {
                let e = &self.events[j];
                if e.pidx == pidx
                    || clock.covers(e.pidx, j)
                    || commute_in_run(&e.obs, &self.events[k].obs)
                {
                    continue;
                }
                clock.join(&e.clock);
            }
            for &(j, _) in &self.events[k].observed_after {
                clock.join(&self.events[j].clock);
            }
            clock.set(pidx, k as u32 + 1);
            let max_other = clock.max_other(pidx);
            let e = &mut self.events[k];
            e.clock = clock;
            e.max_other = max_other;
        }
    }

    /// The earlier steps (before position `i`) a step with observation
    /// `obs` may conflict with, latest first: those filed under an item it
    /// may overlap, and those that commute with nothing; every earlier step
    /// if it commutes with nothing itself.
    fn candidates(&self, obs: &Obs<S>, i: usize) -> Vec<usize> {
        if obs.global {
            return (0..i).rev().collect();
        }
        // Each list is in run order: merge them from their ends.
        let lists: Vec<&[usize]> = self
            .filed_with(obs)
            .into_iter()
            .map(|f| f.run.as_slice())
            .collect();
        let mut ends: Vec<usize> = lists
            .iter()
            .map(|l| l.partition_point(|&k| k < i))
            .collect();
        let mut out: Vec<usize> = Vec::new();
        loop {
            let mut best: Option<(usize, usize)> = None;
            for (li, l) in lists.iter().enumerate() {
                if let Some(&k) = ends[li].checked_sub(1).map(|e| &l[e])
                    && best.is_none_or(|(b, _)| k > b)
                {
                    best = Some((k, li));
                }
            }
            let Some((k, _)) = best else {
                break;
            };
            // Take it from every list that ends with it.
            for (li, l) in lists.iter().enumerate() {
                if ends[li] > 0 && l[ends[li] - 1] == k {
                    ends[li] -= 1;
                }
            }
            out.push(k);
        }
        out
    }

    /// The filed steps a step with observation `obs` (that does not
    /// commute with everything) may conflict with: those that commute with
    /// nothing, and those filed under an item it may overlap.
    fn filed_with(&self, obs: &Obs<S>) -> Vec<&Filed> {
        let mut lists: Vec<&Filed> = Vec::with_capacity(1 + 2 * (1 + obs.also.len()));
        lists.push(&self.globals);
        for (item, _) in obs.access.iter().chain(obs.also.iter()) {
            let (g, key) = item.index_key();
            let Some(group) = self.index.get(&g) else {
                continue;
            };
            match key {
                Some(k) => {
                    if let Some(steps) = group.keyed.get(&k) {
                        lists.push(steps);
                    }
                    lists.push(&group.whole);
                }
                None => lists.push(&group.all),
            }
        }
        lists
    }

    /// Files step `i`, by process `pidx`, under the items it touched;
    /// returns where.
    fn file(&mut self, obs: &Obs<S>, i: usize, pidx: usize) -> Vec<(u64, Option<u64>)> {
        if obs.global {
            self.globals.push(i, pidx);
        }
        let mut filed: Vec<(u64, Option<u64>)> = Vec::new();
        for (item, _) in obs.access.iter().chain(obs.also.iter()) {
            let at = item.index_key();
            if filed.contains(&at) {
                continue;
            }
            filed.push(at);
            let group = self.index.entry(at.0).or_default();
            group.all.push(i, pidx);
            match at.1 {
                Some(k) => group.keyed.entry(k).or_default().push(i, pidx),
                None => group.whole.push(i, pidx),
            }
        }
        filed
    }

    /// Unfiles step `i`, the last filed.
    fn unfile(&mut self, i: usize) {
        let pidx = self.events[i].pidx;
        if self.globals.run.last() == Some(&i) {
            self.globals.pop(pidx);
        }
        let filed = std::mem::take(&mut self.events[i].filed);
        for (g, key) in filed {
            let Some(group) = self.index.get_mut(&g) else {
                continue;
            };
            group.all.pop(pidx);
            match key {
                Some(k) => {
                    if let Some(steps) = group.keyed.get_mut(&k) {
                        steps.pop(pidx);
                    }
                }
                None => {
                    group.whole.pop(pidx);
                }
            }
        }
    }

    /// The processes that can start the reversal of step `n` with the
    /// steps from `from` on: the steps after `from` that do not happen after
    /// it, then `n`; a process is an initial if its first step there has no
    /// predecessor among them. A step there other than `n` has no
    /// predecessor there when no step of its own process after `from`
    /// precedes it and no step of another process after `from` happens
    /// before it (any such step is there too, or the step would happen
    /// after `from`): its clock says so in constant time. `n` happens after
    /// `from` (it raced with it), so its predecessors are looked up one by
    /// one.
    fn initials(&self, from: usize, n: usize) -> Vec<S::Proc> {
        let pf = self.events[from].pidx;
        let mut initials: Vec<S::Proc> = Vec::new();
        let last = &self.events[n];
        let mut n_after_v = false;
        for k in from + 1..n {
            let e = &self.events[k];
            if e.clock.covers(pf, from) {
                continue;
            }
            n_after_v |= last.clock.covers(e.pidx, k);
            let first_of_process = e.prev_same.is_none_or(|p| p < from);
            if first_of_process && e.max_other as usize <= from + 1 && !initials.contains(&e.proc) {
                initials.push(e.proc);
            }
        }
        if !n_after_v && !initials.contains(&last.proc) {
            initials.push(last.proc);
        }
        initials
    }

    /// Step `n` races with step `j`: unless a process that can start the
    /// reversal is already planned or asleep at `j`'s node, plan one.
    fn plan_reversal(&mut self, j: usize, n: usize) {
        let initials = self.initials(j, n);
        let node = &self.nodes[j];
        if initials
            .iter()
            .any(|&q| node.backtrack.contains(&q) || node.asleep(q))
        {
            return;
        }
        if let Some(q) = initials.iter().copied().find(|&q| node.enables(q)) {
            self.nodes[j].backtrack.push(q);
        }
    }

    /// Extends the current run to its end along first choices.
    fn run_to_end(&mut self) -> RunEnd {
        loop {
            let Some(node) = self.nodes.last() else {
                return RunEnd::Cut("search state lost".into());
            };
            if node.enabled.is_empty() {
                return RunEnd::Complete;
            }
            if self.events.len() >= self.opts.max_run_steps {
                let text = match node.sys.as_deref() {
                    Some((sys, _)) => {
                        let last = self.events.last().map(|e| sys.name(e.proc));
                        crate::search::step_limit_text(
                            self.opts.max_run_steps,
                            sys,
                            last.as_deref(),
                        )
                    }
                    None => {
                        crate::search::step_limit_text(self.opts.max_run_steps, &self.initial, None)
                    }
                };
                return RunEnd::Cut(text);
            }
            if let Some(why) = cancelled(&self.opts.cancel) {
                return RunEnd::Cancelled(why);
            }
            let Some(p) = self.first_choice() else {
                return RunEnd::SleepBlocked;
            };
            if let Err(why) = self.execute(p) {
                return RunEnd::Cut(why);
            }
        }
    }

    /// Goes back to the deepest node with a planned process left and runs
    /// it; false when none is left.
    fn backtrack(&mut self) -> bool {
        while let Some(i) = self.nodes.len().checked_sub(1) {
            self.truncate(i);
            let node = &self.nodes[i];
            let next = node.backtrack.iter().copied().find(|&p| {
                !node.tried(p) && !node.asleep(p) && (node.sys.is_some() || node.restorable)
            });
            match next {
                Some(p) => {
                    if self.nodes[i].sys.is_none()
                        && let Err(why) = self.restore(i)
                    {
                        self.note_cut(why);
                        self.nodes.pop();
                        continue;
                    }
                    if let Err(why) = self.execute(p) {
                        self.note_cut(why);
                        continue;
                    }
                    return true;
                }
                None => {
                    self.nodes.pop();
                }
            }
        }
        false
    }

    /// Rebuilds the state of node `i` (and its monitor) by replaying this
    /// run's steps from the nearest node before it that kept its state.
    fn restore(&mut self, i: usize) -> Result<(), String> {
        let from = (0..i)
            .rev()
            .find(|&k| self.nodes[k].sys.is_some())
            .ok_or("no kept state to rebuild a choice point from")?;
        // The steps a search keeping every early choice point would have
        // replayed (from its nearest kept state) spend the allowance; the
        // ones before, replayed only because fewer states are kept, do not.
        let charged_from = (from..=i)
            .rev()
            .find(|&k| self.nodes[k].charged_base)
            .unwrap_or(from);
        let (mut sys, mut monitor) = self.nodes[from].sys.as_deref().cloned().expect("found");
        for (k, e) in self.events[from..i].iter().enumerate() {
            let obs = if from + k < charged_from {
                sys.replay_step(e.proc)
            } else {
                sys.step(e.proc)
            }
            .map_err(|e| e.to_string())?;
            monitor.observe(&sys, e.proc, &obs, from + k);
        }
        let node = &mut self.nodes[i];
        node.sys = Some(Box::new((sys, monitor)));
        node.restorable = false;
        Ok(())
    }

    /// Drops the steps from position `i` on.
    fn truncate(&mut self, i: usize) {
        while self.events.len() > i {
            let last = self.events.len() - 1;
            self.unfile(last);
            if let Some(e) = self.events.pop() {
                self.last_of[e.pidx] = e.prev_same;
                if let Some(m) = e.obs.message {
                    self.senders.remove(&m);
                }
            }
        }
        // Orders observed by the steps dropped no longer hold.
        let mut again: Option<usize> = None;
        while let Some(&(observer, later)) = self.observed.last() {
            if observer < i {
                break;
            }
            self.observed.pop();
            if later < i {
                self.events[later].observed_after.retain(|&(_, by)| by < i);
                again = Some(again.map_or(later, |a| a.min(later)));
            }
        }
        if let Some(from) = again {
            self.recompute_clocks(from, i);
        }
        self.nodes.truncate(i + 1);
    }

    /// The current run's schedule (its processes by name, as `end`, the
    /// state at its end, names them: a process keeps its name) and trace.
    fn recorded(&self, end: &S) -> (Vec<String>, Vec<TraceStep<S::Site>>) {
        let mut names: FxHashMap<S::Proc, String> = FxHashMap::default();
        let mut schedule = Vec::with_capacity(self.events.len());
        let mut trace = Vec::with_capacity(self.events.len());
        for e in &self.events {
            let name = names.entry(e.proc).or_insert_with(|| end.name(e.proc));
            schedule.push(name.clone());
            trace.push(TraceStep::of(name.clone(), &e.obs, e.preemption));
        }
        (schedule, trace)
    }

    /// The current run's steps in an order their happens-before allows,
    /// staying with the process that ran last whenever it may go on, else
    /// taking the earliest step that may go.
    fn relinearized(&self, schedule: &[String]) -> Vec<String> {
        let n = self.events.len();
        let procs = self.dense.len();
        let mut of_proc: Vec<Vec<usize>> = vec![Vec::new(); procs];
        let mut rank = vec![0usize; n];
        for (k, e) in self.events.iter().enumerate() {
            rank[k] = of_proc[e.pidx].len();
            of_proc[e.pidx].push(k);
        }
        let mut taken = vec![0usize; procs];
        let ready = |k: usize, taken: &[usize]| {
            let clock = &self.events[k].clock;
            (0..procs).all(|q| {
                q == self.events[k].pidx || {
                    let c = clock.get(q) as usize;
                    c == 0 || taken[q] > rank[c - 1]
                }
            })
        };
        let mut order = Vec::with_capacity(n);
        let mut last: Option<usize> = None;
        for _ in 0..n {
            let next_of = |p: usize, taken: &[usize]| of_proc[p].get(taken[p]).copied();
            let stay = last
                .and_then(|p| next_of(p, &taken))
                .filter(|&k| ready(k, &taken));
            let pick = stay.or_else(|| {
                (0..procs)
                    .filter_map(|p| next_of(p, &taken))
                    .filter(|&k| ready(k, &taken))
                    .min()
            });
            let Some(k) = pick else {
                break;
            };
            let p = self.events[k].pidx;
            taken[p] += 1;
            last = Some(p);
            order.push(schedule[k].clone());
        }
        order
    }

    /// `run` re-ordered to switch process less, if that replays to the same
    /// steps of every process and is still a finding.
    fn fewer_switches(&mut self, run: Found<S, M>) -> Found<S, M> {
        let order = self.relinearized(&run.schedule);
        if order.len() != run.schedule.len() || order == run.schedule {
            return run;
        }
        let Ok((again, finding)) = follow(&self.initial, self.initial_monitor.clone(), &order)
        else {
            return run;
        };
        self.stats.steps += again.trace.len() as u64;
        if finding
            && again.preemptions < run.preemptions
            && steps_by_process(&again.trace) == steps_by_process(&run.trace)
        {
            again
        } else {
            run
        }
    }

    fn note_cut(&mut self, why: String) {
        self.stats.note_cut(why);
    }
}

/// Whether process `q`, asleep with step `slept`, stays asleep after step
/// `taken` (now done, leading to `sys`) although the two are not
/// independent in every state: they are two writes that print the same, so
/// they commute where they are taken in one run ([`commute_in_run`]). That
/// holds here if `q`'s step is still the one it slept on after `taken`:
/// then both orders are runs where the two print the same, and every run
/// that starts with `q`'s step from here is equivalent to one already
/// explored. Tried on a copy of the state; `probes` counts the steps so
/// taken. Without it, a process asleep on `insert({k, 1})` woke when
/// another process inserted the same object, and a run equivalent to an
/// explored one was explored again (N processes doing lookup then insert
/// of one counter: 28 runs for 25 classes at N = 3, 461 for 363 at N = 4).
fn still_asleep<S: System>(
    sys: &S,
    enabled: &[S::Proc],
    q: S::Proc,
    slept: &Obs<S>,
    taken: &Obs<S>,
    probes: &mut u64,
) -> bool {
    if !commute_in_run(slept, taken) || enabled.binary_search(&q).is_err() {
        return false;
    }
    let mut probe = sys.clone();
    *probes += 1;
    probe
        .step(q)
        .is_ok_and(|o| o.text == slept.text && o.access == slept.access && o.also == slept.also)
}

/// Each process's step texts, in order, by process name.
fn steps_by_process<S>(trace: &[TraceStep<S>]) -> Vec<(&str, Vec<&str>)>
where
    S: Clone,
{
    let mut by: Vec<(&str, Vec<&str>)> = Vec::new();
    for t in trace {
        match by.iter_mut().find(|(p, _)| *p == t.process) {
            Some((_, v)) => v.push(&t.text),
            None => by.push((&t.process, vec![&t.text])),
        }
    }
    by.sort();
    by
}

impl Strategy for SourceDpor {
    fn search<S: System, M: Monitor<S>>(&self, initial: &S, monitor: M) -> Outcome<S, M> {
        let enabled = initial.enabled();
        let mut ex = Explorer {
            opts: self,
            initial: initial.clone(),
            initial_monitor: monitor.clone(),
            nodes: vec![Node {
                sys: Some(Box::new((initial.clone(), monitor))),
                restorable: false,
                charged_base: true,
                enabled,
                last: None,
                preemptions: 0,
                sleep: Vec::new(),
                backtrack: Vec::new(),
                done: Vec::new(),
            }],
            events: Vec::new(),
            last_of: Vec::new(),
            dense: FxHashMap::default(),
            index: FxHashMap::default(),
            globals: Filed::default(),
            senders: FxHashMap::default(),
            observed: Vec::new(),
            heap: Vec::new(),
            stats: SearchStats::default(),
        };
        let mut found = Vec::new();
        loop {
            match ex.run_to_end() {
                RunEnd::Complete => {
                    let Some(end) = ex.nodes.last_mut() else {
                        break;
                    };
                    match end.sys.as_deref() {
                        Some((sys, monitor)) => ex.stats.note_complete(sys, monitor),
                        None => ex.stats.interleavings += 1,
                    }
                    ex.stats.max_preemptions_used =
                        ex.stats.max_preemptions_used.max(end.preemptions);
                    let finding = match end.sys.as_deref_mut() {
                        Some((sys, monitor)) => monitor.finish(sys),
                        None => false,
                    };
                    let near_miss = end.sys.as_deref().is_some_and(|(_, m)| m.near_miss());
                    let preemptions = end.preemptions;
                    if finding {
                        ex.stats.findings += 1;
                        if found.len() < KEEP_FOUND
                            && let Some(state) = end.sys.take()
                        {
                            let (sys, monitor) = *state;
                            let (schedule, trace) = ex.recorded(&sys);
                            let run = Found {
                                schedule,
                                trace,
                                preemptions,
                                monitor,
                                end: sys,
                            };
                            found.push(ex.fewer_switches(run));
                        }
                        if self.stop_at_first {
                            return Outcome {
                                found,
                                stats: ex.stats,
                                stop: StopReason::Found,
                            };
                        }
                    } else if near_miss {
                        ex.stats.near_misses += 1;
                    }
                    // At the budget: a stop there only when something is
                    // left to explore (the last run may end the space).
                    if ex.stats.runs_ended() >= self.max_interleavings {
                        if !ex.backtrack() {
                            break;
                        }
                        let stop = if self.stop_at_first && !found.is_empty() {
                            StopReason::Found
                        } else {
                            StopReason::InterleavingBudget {
                                limit: self.max_interleavings,
                            }
                        };
                        return Outcome {
                            found,
                            stats: ex.stats,
                            stop,
                        };
                    }
                }
                RunEnd::SleepBlocked => ex.stats.sleep_blocked += 1,
                RunEnd::Cut(why) => {
                    ex.note_cut(why);
                    if ex.stats.runs_ended() >= self.max_interleavings {
                        if !ex.backtrack() {
                            break;
                        }
                        return Outcome {
                            found,
                            stats: ex.stats,
                            stop: StopReason::InterleavingBudget {
                                limit: self.max_interleavings,
                            },
                        };
                    }
                }
                RunEnd::Cancelled(why) => {
                    return Outcome {
                        found,
                        stats: ex.stats,
                        stop: StopReason::Cancelled { why },
                    };
                }
            }
            if !ex.backtrack() {
                break;
            }
        }
        let stop = if self.stop_at_first && !found.is_empty() {
            StopReason::Found
        } else {
            StopReason::ExhaustedAll
        };
        Outcome {
            found,
            stats: ex.stats,
            stop,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::model::classes::{Signature, explore};
    use crate::model::{Model, Op};
    use crate::search::bounded::BoundedDfs;

    #[test]
    fn clocks_share_the_blocks_they_do_not_change() {
        let mut a = Clock::default();
        for p in 0..100 {
            a.set(p, p as u32 + 1);
        }
        assert_eq!(a.get(70), 71);
        assert_eq!(a.get(1000), 0);
        assert_eq!(a.max_other(99), 99);
        assert_eq!(a.max_other(5), 100);
        let mut b = a.clone();
        b.set(3, 500);
        assert!(Arc::ptr_eq(&a.0[1], &b.0[1]), "untouched block copied");
        assert!(!Arc::ptr_eq(&a.0[0], &b.0[0]));
        let mut c = Clock::default();
        c.set(40, 7);
        c.set(130, 9);
        c.join(&b);
        assert_eq!(
            (c.get(3), c.get(40), c.get(41), c.get(130)),
            (500, 41, 42, 9)
        );
        assert!(
            Arc::ptr_eq(&c.0[2], &b.0[2]),
            "a block empty on one side is shared"
        );
        assert_eq!(c.max_other(3), 100);
        assert_eq!(c.max_other(99), 500);
        assert!(c.covers(130, 8) && !c.covers(130, 9));
    }

    /// A class of runs: each pair of steps of two processes that do not
    /// commute where they are taken, in the order the run took them (the
    /// step of a process is named by its place among that process's steps).
    type Class = Signature;

    fn every_interleaving() -> SourceDpor {
        SourceDpor {
            stop_at_first: false,
            steer: false,
            max_interleavings: u64::MAX,
            ..SourceDpor::default()
        }
    }

    fn plain() -> BoundedDfs {
        BoundedDfs {
            max_preemptions: u32::MAX,
            max_interleavings: u64::MAX,
            max_run_steps: 1_000,
            sleep_sets: false,
            stop_at_first: false,
            steer: false,
            cancel: None,
        }
    }

    /// N processes each read one counter, then write it back plus one.
    fn lookup_insert(n: usize) -> Model {
        Model::new(vec![vec![Op::Read("k", 1), Op::WriteInc("k", 1, 2)]; n])
    }

    #[test]
    fn lookup_insert_explores_one_run_per_class() {
        // The classes of N processes doing read k, write k := read + 1,
        // where two writes of the same value commute (they leave the same
        // counter) and reads commute. For N = 3, by the values read:
        // - 0, 0, 0: every read before every write; the three writes of 1
        //   commute: 1 class.
        // - 0, 0, 1 (3 ways to pick the reader of 1, C): C's read follows
        //   the write of A, of B, or of both (3 cases); a write of 1 that C's
        //   read does not follow is ordered with C's write of 2 either way
        //   (2 orders in each of the 2 one-write cases, 1 in the both case):
        //   2 + 2 + 1 = 5 per pick, 15.
        // - 0, 1, 1 (3 ways to pick the reader of 0): the other two read its
        //   1 and write 2, and their writes commute: 3.
        // - 0, 1, 2: a chain, one per order of the processes: 6.
        // 1 + 15 + 3 + 6 = 25 (an optimal DPOR explores exactly these;
        // Concuerror's optimal DPOR explores 25 on the same program). N = 2:
        // both read 0, or one reads the other's 1 (2 ways): 3. N = 4: 363,
        // counted by the plain search below.
        for (n, expected) in [(2, 3), (3, 25), (4, 363)] {
            let sys = lookup_insert(n);
            let (_, _, plain_classes) = explore(&plain(), &sys);
            let all: BTreeSet<Class> = plain_classes.into_iter().collect();
            assert_eq!(all.len(), expected, "{n} processes: classes");
            let (runs, blocked, classes) = explore(&every_interleaving(), &sys);
            let distinct: BTreeSet<Class> = classes.iter().cloned().collect();
            assert_eq!(distinct, all, "{n} processes: every class covered");
            assert_eq!(runs, expected as u64, "{n} processes: runs");
            assert_eq!(
                classes.len(),
                distinct.len(),
                "{n} processes: a class twice"
            );
            eprintln!("{n} processes: {runs} runs, {blocked} sleep-set blocked");
        }
    }

    #[test]
    fn claims_that_print_the_same_still_wake_a_sleeper() {
        // Two claims of one cell: the first succeeds, the second crashes.
        // Their steps print the same where each runs first, but not after
        // the other: a process asleep on its claim wakes, and both winners
        // are explored.
        let sys = Model::new(vec![vec![Op::Claim("c", 1)], vec![Op::Claim("c", 1)]]);
        let (runs, _, _) = explore(&every_interleaving(), &sys);
        assert_eq!(runs, 2);
    }
}
