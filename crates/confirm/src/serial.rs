//! The serial reference a witness is compared with: the harness's own
//! `run/0`, with its worker processes' calls kept apart. Worker `k+1` starts
//! only once worker `k` has ended, or stopped at a call the VM cannot run
//! (what it did so far stays in the reference, and the next worker still
//! runs), as the workers of a serial test would one after the other. What
//! earlier workers started (a server) and the processes outside the workers
//! run whenever they can. If nothing allowed can step while a worker waits
//! forever, the next worker goes on (the reference never deadlocks where
//! the concurrent run would not).

use std::sync::Arc;

use racewit_vm::Pid;

use crate::goal::Monitor;
use crate::search::bounded::BoundedDfs;
use crate::search::{StopReason, Strategy, TraceStep};
use crate::system::{Fate, Observation, System};
use crate::vm_system::{Site, VmItem, VmSystem};

/// A [`VmSystem`] whose enabled processes are cut to those outside the
/// worker groups and those of the groups up to the first unfinished worker.
#[derive(Clone)]
pub struct OneAtATime {
    pub sys: VmSystem,
    /// Worker processes of the harness: the last `workers` children of the
    /// root (`P1.i`).
    pub workers: usize,
    /// The order the workers run in: positions among the workers (0 is the
    /// first of them), a permutation of `0..workers`.
    pub order: Vec<u64>,
}

impl OneAtATime {
    /// The root's children `P1.i` by `i`.
    fn children(&self) -> Vec<(u64, Pid)> {
        let mut out: Vec<(u64, Pid)> = self
            .sys
            .procs()
            .into_iter()
            .filter_map(|p| {
                let name = self.sys.name(p);
                let i = name.strip_prefix("P1.")?;
                Some((i.parse().ok()?, p))
            })
            .collect();
        out.sort();
        out
    }

    /// The worker group of a process: `i` for a worker `P1.i` and all it
    /// started (`P1.i.j...`); `None` outside the groups.
    fn group(&self, proc: Pid, first_worker: u64) -> Option<u64> {
        let name = self.sys.name(proc);
        let child: u64 = name.strip_prefix("P1.")?.split('.').next()?.parse().ok()?;
        (child >= first_worker).then_some(child)
    }
}

impl System for OneAtATime {
    type Proc = Pid;
    type Item = VmItem;
    type Site = Site;
    type Error = <VmSystem as System>::Error;

    fn enabled(&self) -> Vec<Pid> {
        let all = self.sys.enabled();
        let children = self.children();
        let first_worker = children
            .len()
            .saturating_sub(self.workers)
            .try_into()
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        // Workers by their position in the run order.
        let in_order: Vec<u64> = self
            .order
            .iter()
            .map(|k| first_worker + k)
            .filter(|i| children.iter().any(|(c, _)| c == i))
            .collect();
        // The first worker, in the order, still running (not ended, not
        // parked): it and those before it may step.
        let current = in_order.iter().position(|i| {
            children
                .iter()
                .find(|(c, _)| c == i)
                .is_some_and(|(_, p)| matches!(self.sys.fate(*p), Fate::Running | Fate::Blocked))
        });
        let grouped: Vec<(Pid, Option<u64>)> = all
            .iter()
            .map(|&p| (p, self.group(p, first_worker)))
            .collect();
        let rank = |g: u64| in_order.iter().position(|&i| i == g);
        let allowed = |limit: Option<usize>| -> Vec<Pid> {
            grouped
                .iter()
                .filter(|(_, g)| match (g, limit) {
                    (None, _) | (_, None) => true,
                    (Some(g), Some(limit)) => rank(*g).is_none_or(|r| r <= limit),
                })
                .map(|(p, _)| *p)
                .collect()
        };
        let now = allowed(current);
        if !now.is_empty() {
            return settle_first(
                now,
                &grouped,
                current.and_then(|c| in_order.get(c).copied()),
            );
        }
        // The current worker waits for ever: the next group that can step.
        let next = grouped.iter().filter_map(|(_, g)| g.and_then(rank)).min();
        settle_first(
            allowed(next),
            &grouped,
            next.and_then(|c| in_order.get(c).copied()),
        )
    }

    fn step(&mut self, proc: Pid) -> Result<Observation<VmItem, Site>, Self::Error> {
        self.sys.step(proc)
    }

    fn name(&self, proc: Pid) -> String {
        self.sys.name(proc)
    }

    fn by_name(&self, name: &str) -> Option<Pid> {
        self.sys.by_name(name)
    }

    fn procs(&self) -> Vec<Pid> {
        self.sys.procs()
    }

    fn fate(&self, proc: Pid) -> Fate {
        self.sys.fate(proc)
    }

    fn item_value(&self, item: &VmItem) -> String {
        self.sys.item_value(item)
    }

    fn actor(&self, proc: Pid) -> Pid {
        self.sys.actor(proc)
    }
}

/// `allowed` with the processes outside the current worker's group first.
/// The search's first run at every free choice then lets what earlier
/// workers left behind (a linked server noticing its starter's exit, a
/// message still in flight) settle before the next worker's call: the
/// order a serial test sees when it waits between calls, so that outcome
/// is always among the runs kept, however few are made per order. The
/// other choices stay, explored later.
fn settle_first(
    allowed: Vec<Pid>,
    grouped: &[(Pid, Option<u64>)],
    current: Option<u64>,
) -> Vec<Pid> {
    let in_current =
        |p: &Pid| current.is_some() && grouped.iter().any(|(q, g)| q == p && *g == current);
    let (mut out, current): (Vec<Pid>, Vec<Pid>) =
        allowed.into_iter().partition(|p| !in_current(p));
    out.extend(current);
    out
}

/// One step of a run, linked to the step before it: the steps a monitor
/// keeps are shared with the clones the search makes at its choice points.
struct StepNode {
    process: Pid,
    step: TraceStep<Site>,
    before: Option<Arc<StepNode>>,
}

/// The steps of the run a monitor watches, newest first.
#[derive(Clone, Default)]
pub(crate) struct Steps(Option<Arc<StepNode>>);

impl Steps {
    pub(crate) fn push(&mut self, process: Pid, obs: &Observation<VmItem, Site>) {
        self.0 = Some(Arc::new(StepNode {
            process,
            step: TraceStep::of(String::new(), obs, false),
            before: self.0.take(),
        }));
    }

    /// The run's steps, oldest first, named as `end` names their processes.
    pub(crate) fn trace(&self, end: &VmSystem) -> Vec<TraceStep<Site>> {
        let mut trace = Vec::new();
        let mut at = self.0.as_deref();
        while let Some(node) = at {
            let mut step = node.step.clone();
            step.process = end.name(node.process);
            trace.push(step);
            at = node.before.as_deref();
        }
        trace.reverse();
        trace
    }
}

/// Hands each run's end and steps to `on_end`. No run is a finding, so the
/// search keeps none of them itself (it keeps a few findings at most).
#[derive(Clone)]
struct EachRun<'a> {
    steps: Steps,
    on_end: &'a dyn Fn(&VmSystem, Vec<TraceStep<Site>>),
}

impl Monitor<OneAtATime> for EachRun<'_> {
    fn observe(&mut self, _: &OneAtATime, proc: Pid, obs: &Observation<VmItem, Site>, _: usize) {
        self.steps.push(proc, obs);
    }
    fn hit(&self) -> bool {
        false
    }
    fn finish(&mut self, end: &OneAtATime) -> bool {
        (self.on_end)(&end.sys, self.steps.trace(&end.sys));
        false
    }
}

/// A serial end state and the steps that led to it.
pub type SerialRun = (VmSystem, Vec<TraceStep<Site>>);

/// The end states of the serial reference of `start` (the harness's
/// `run/0` with `workers` workers, or a user's entry with none): every run
/// without preemption (each process runs until it blocks or ends), at most
/// `max_runs` of them.
pub fn serial_runs(
    start: &VmSystem,
    workers: usize,
    max_run_steps: usize,
    max_runs: u64,
) -> Vec<SerialRun> {
    let runs = std::cell::RefCell::new(Vec::new());
    serial_search(start, workers, max_run_steps, max_runs, &|end, trace| {
        runs.borrow_mut().push((end.clone(), trace))
    });
    runs.into_inner()
}

/// Makes the serial runs of `start`, at most `max_runs`, handing each to
/// `on_end`; whether they were every serial run (no order's search was cut
/// by the budget).
fn serial_search(
    start: &VmSystem,
    workers: usize,
    max_run_steps: usize,
    max_runs: u64,
    on_end: &dyn Fn(&VmSystem, Vec<TraceStep<Site>>),
) -> bool {
    // Every order of the workers: a serial run is the calls one after the
    // other, in any order (worker 2 may well have come first).
    let orders = permutations(workers);
    let per_order = (max_runs / orders.len().max(1) as u64).max(1);
    let mut complete = true;
    for order in orders {
        let reference = OneAtATime {
            sys: start.clone(),
            workers,
            order,
        };
        let outcome = BoundedDfs {
            max_preemptions: 0,
            max_interleavings: per_order,
            max_run_steps,
            sleep_sets: false,
            stop_at_first: false,
            steer: false,
            cancel: None,
        }
        .search(
            &reference,
            EachRun {
                steps: Steps::default(),
                on_end,
            },
        );
        complete &= matches!(
            outcome.stop,
            StopReason::Exhausted | StopReason::ExhaustedAll
        );
    }
    complete
}

/// How many serial runs the reference makes at first.
pub const FIRST_RUNS: u64 = 200;

/// How many it makes when an end the first runs do not give is about to be
/// called the race's harm (see [`SerialReference::more`]).
pub const MORE_RUNS: u64 = 3_000;

/// What a judgement needs of one serial run (see [`SerialReference`]).
type Summarise<T> = Box<dyn Fn(&VmSystem, &[TraceStep<Site>]) -> T + Send + Sync>;

/// The serial reference of a harness, each run summed up as `T`: the first
/// [`FIRST_RUNS`] serial runs, made at once, and more of them made only
/// when needed. Most searches judge many runs and find no harm; a few find
/// an end the first runs do not give, and before that end is called harm
/// the reference is searched further (the serial runs the first ones miss
/// are those where background processes, a server's exit or a message in
/// flight, step in other orders between the workers' calls).
pub struct SerialReference<T> {
    start: VmSystem,
    workers: usize,
    max_run_steps: usize,
    summarise: Summarise<T>,
    /// The first runs.
    pub first: Vec<T>,
    /// Whether the first runs are every serial run.
    pub complete: bool,
    more: std::sync::OnceLock<Vec<T>>,
}

impl<T> SerialReference<T> {
    pub fn new(
        start: &VmSystem,
        workers: usize,
        max_run_steps: usize,
        summarise: Summarise<T>,
    ) -> SerialReference<T> {
        let first = std::cell::RefCell::new(Vec::new());
        let complete = serial_search(start, workers, max_run_steps, FIRST_RUNS, &|end, trace| {
            first.borrow_mut().push(summarise(end, &trace))
        });
        SerialReference {
            start: start.clone(),
            workers,
            max_run_steps,
            summarise,
            first: first.into_inner(),
            complete,
            more: std::sync::OnceLock::new(),
        }
    }

    /// Up to [`MORE_RUNS`] serial runs (the first runs among them: the
    /// search is the same, with a larger budget), made once; `None` when
    /// the first runs were already all of them.
    pub fn more(&self) -> Option<&[T]> {
        if self.complete {
            return None;
        }
        Some(self.more.get_or_init(|| {
            let more = std::cell::RefCell::new(Vec::new());
            serial_search(
                &self.start,
                self.workers,
                self.max_run_steps,
                MORE_RUNS,
                &|end, trace| more.borrow_mut().push((self.summarise)(end, &trace)),
            );
            more.into_inner()
        }))
    }
}

/// Every order of `0..n`, the identity first.
fn permutations(n: usize) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    for k in 0..n as u64 {
        let mut next = Vec::new();
        for p in &out {
            for at in 0..=p.len() {
                let mut q = p.clone();
                q.insert(at, k);
                next.push(q);
            }
        }
        out = next;
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use racewit_vm::Image;

    use super::{permutations, serial_runs};
    use crate::confirmation::ConfirmOptions;
    use crate::system::System;

    /// Worker 1 leaves a process behind that writes after worker 1 ended;
    /// worker 2 reads. A serial test that waits between its calls sees the
    /// write: that outcome is in the reference even when only one run per
    /// order is made (before, the first run handed over to worker 2 first,
    /// and the settled outcome was found only deep in the search, after the
    /// runs allowed per order were spent: a witness ending that way was
    /// called non-serialisable).
    const SETTLE: &str = "-module(settle).\n-export([run/0]).\n\
        run() ->\n    ets:new(t, [named_table, public]),\n    Root = self(),\n    \
        W1 = spawn(fun() -> spawn(fun() -> ets:insert(t, {k, bg}) end), Root ! {self(), done} end),\n    \
        W2 = spawn(fun() -> Root ! {self(), ets:lookup(t, k)} end),\n    \
        [receive {W, R} -> R end || W <- [W1, W2]].\n";

    /// Worker 1 leaves four writers behind; which of them writes last is
    /// one choice among 720 serial runs of that order, and the first
    /// writer writes last only after 120 of them.
    const LAST_WRITER: &str = "-module(last_writer).\n-export([run/0]).\n\
        run() ->\n    ets:new(t, [named_table, public]),\n    Root = self(),\n    \
        W1 = spawn(fun() -> [spawn(fun() -> ets:insert(t, {k, I}) end) || I <- lists:seq(1, 6)], \
        Root ! {self(), done} end),\n    \
        W2 = spawn(fun() -> Root ! {self(), ets:lookup(t, k)} end),\n    \
        [receive {W, R} -> R end || W <- [W1, W2]].\n";

    #[test]
    fn the_reference_searches_further_when_its_first_runs_were_not_all() {
        let program = crate::test_support::program(&[("last_writer", LAST_WRITER)]);
        let opts = ConfirmOptions::default();
        let image = Image::new(Arc::new(program), &opts.vm);
        let start = crate::confirmation::start(&image, "last_writer", "run", &opts);
        let root = start.by_name("P1").expect("the root");
        let reference = super::SerialReference::new(
            &start,
            2,
            10_000,
            Box::new(move |end, _| end.returned(root).unwrap_or_default()),
        );
        assert!(!reference.complete);
        let first: BTreeSet<&String> = reference.first.iter().collect();
        assert_eq!(reference.first.len(), super::FIRST_RUNS as usize);
        assert!(!first.contains(&"[done,[{k,2}]]".to_string()), "{first:?}");
        let more: BTreeSet<&String> = reference.more().expect("more runs").iter().collect();
        assert!(more.contains(&"[done,[{k,2}]]".to_string()), "{more:?}");
        assert!(first.is_subset(&more));
        assert!(first.is_subset(&more));
    }

    #[test]
    fn what_an_earlier_worker_left_running_settles_before_the_next() {
        let program = crate::test_support::program(&[("settle", SETTLE)]);
        let opts = ConfirmOptions::default();
        let image = Image::new(Arc::new(program), &opts.vm);
        let start = crate::confirmation::start(&image, "settle", "run", &opts);
        let root = start.by_name("P1").expect("the root");
        let outcomes: Vec<String> = serial_runs(&start, 2, 10_000, 2)
            .iter()
            .filter_map(|(end, _)| end.returned(root))
            .collect();
        assert_eq!(outcomes, ["[done,[{k,bg}]]", "[done,[]]"]);
    }

    #[test]
    fn every_order_of_the_workers() {
        assert_eq!(permutations(0), vec![Vec::<u64>::new()]);
        assert_eq!(permutations(2), vec![vec![0, 1], vec![1, 0]]);
        let three = permutations(3);
        assert_eq!(three.len(), 6);
        assert_eq!(three[0], vec![0, 1, 2]);
    }
}
