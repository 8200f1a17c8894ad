//! Preemption-bounded depth-first search over schedules.
//!
//! - A *preemption* is switching away from the process that just ran while it
//!   could still run; switching when it blocked or exited is free. Runs with
//!   more than `max_preemptions` preemptions are not explored (loom's and
//!   CHESS's bound).
//! - The goal steers the order: a process the monitor asks to hold (a reader
//!   between its read and its write) is tried last, so the preemption budget
//!   is spent first right after the suspect's read.
//! - Sleep sets cut schedules that only reorder independent steps: after the
//!   subtree of step `p` is explored, `p` sleeps in its siblings' subtrees
//!   until a step dependent with it runs. Combined with the preemption bound,
//!   this can skip a schedule whose only representative within the bound was
//!   pruned; `sleep_sets: false` gives plain bounded DFS for comparison.
//! - The search branches by cloning the system at choice points; forced steps
//!   (one candidate) run in place. A run's first [`KEEP_ALL_UNTIL`] steps
//!   keep the state of every choice point; past them, a choice point keeps
//!   its state only when the nearest one below it that kept its own is far
//!   enough back, and the others are rebuilt by replaying the run's steps
//!   from it when the search comes back to them (the system is
//!   deterministic). A run of thousands of steps that are all choice points
//!   (three processes that each wait in `receive ... after`) would
//!   otherwise hold a copy of the system per step.

use crate::goal::Monitor;
use crate::search::dpor::{CHECKPOINT_EVERY, KEEP_ALL_UNTIL, PROCS_PER_SPACING};
use crate::search::{
    CancelReason, Found, KEEP_FOUND, Outcome, SearchStats, StopReason, Strategy, TraceStep,
    cancelled, take_step,
};
use crate::system::{Observation, System, independent};

#[derive(Clone, Debug)]
pub struct BoundedDfs {
    pub max_preemptions: u32,
    /// Stop after this many runs, completed or cut (the space is then not
    /// exhausted).
    pub max_interleavings: u64,
    /// Steps one run may take before it is cut (livelock guard).
    pub max_run_steps: usize,
    pub sleep_sets: bool,
    /// Stop at the first finding.
    pub stop_at_first: bool,
    /// Let the monitor's `hold` steer the order of choices.
    pub steer: bool,
    /// A stop requested from outside (time or memory cap).
    pub cancel: Option<std::sync::Arc<crate::search::Cancel>>,
}

impl Default for BoundedDfs {
    fn default() -> Self {
        BoundedDfs {
            max_preemptions: 2,
            max_interleavings: 100_000,
            max_run_steps: 100_000,
            sleep_sets: true,
            stop_at_first: true,
            steer: true,
            cancel: None,
        }
    }
}

type Sleep<S> = Vec<(
    <S as System>::Proc,
    Observation<<S as System>::Item, <S as System>::Site>,
)>;

struct Frame<S: System, M> {
    /// The state at this choice point, with the monitor as it stood there;
    /// `None` where it was not kept (rebuilt by [`restore`] when needed) or
    /// was handed to the last candidate. Boxed: a frame without it is a few
    /// words, not the size of a system.
    state: Option<Box<(S, M)>>,
    /// Whether the frame keeps its state for its next candidates (a
    /// checkpoint, or a state rebuilt once already); otherwise the first
    /// candidate takes it.
    checkpoint: bool,
    preemptions: u32,
    sleep: Sleep<S>,
    candidates: Vec<(S::Proc, bool)>,
    next: usize,
    explored: Sleep<S>,
    trace_len: usize,
}

struct Pending<S: System, M> {
    sys: S,
    monitor: M,
    last: Option<S::Proc>,
    preemptions: u32,
    sleep: Sleep<S>,
}

enum Advance<S: System, M> {
    Choice(Frame<S, M>),
    End(Pending<S, M>),
    SleepBlocked,
    Cut(String),
    Cancelled(CancelReason),
}

impl BoundedDfs {
    /// The processes to try at a choice point, in order, with whether each is a preemption.
    fn candidates<S: System, M: Monitor<S>>(
        &self,
        p: &Pending<S, M>,
        enabled: &[S::Proc],
    ) -> Vec<(S::Proc, bool)> {
        let last_enabled = p.last.filter(|l| enabled.contains(l));
        let hold = if self.steer && !p.monitor.hit() {
            p.monitor.hold().filter(|h| enabled.contains(h))
        } else {
            None
        };
        let mut order: Vec<S::Proc> = Vec::with_capacity(enabled.len());
        if let Some(l) = last_enabled
            && Some(l) != hold
        {
            order.push(l);
        }
        for &e in enabled {
            if Some(e) != last_enabled && Some(e) != hold {
                order.push(e);
            }
        }
        if let Some(h) = hold {
            order.push(h);
        }
        // Once the goal is hit, finish the run without branching.
        if p.monitor.hit() && self.stop_at_first {
            order.truncate(1);
        }
        order
            .into_iter()
            .filter(|c| !p.sleep.iter().any(|(s, _)| s == c))
            .map(|c| (c, last_enabled.is_some_and(|l| l != c)))
            .filter(|&(_, pre)| !pre || p.preemptions < self.max_preemptions)
            .collect()
    }

    fn advance<S: System, M: Monitor<S>>(
        &self,
        mut p: Pending<S, M>,
        trace: &mut Vec<TraceStep<S::Site>>,
        schedule: &mut Vec<String>,
        procs: &mut Vec<S::Proc>,
        stats: &mut SearchStats,
    ) -> Advance<S, M> {
        loop {
            let enabled = p.sys.enabled();
            if enabled.is_empty() {
                return Advance::End(p);
            }
            if trace.len() >= self.max_run_steps {
                return Advance::Cut(crate::search::step_limit_text(
                    self.max_run_steps,
                    &p.sys,
                    trace.last().map(|t| t.process.as_str()),
                ));
            }
            if let Some(why) = cancelled(&self.cancel) {
                return Advance::Cancelled(why);
            }
            let cands = self.candidates(&p, &enabled);
            match cands.len() {
                0 => return Advance::SleepBlocked,
                1 => {
                    let (c, pre) = cands[0];
                    stats.steps += 1;
                    match take_step(&mut p.sys, &mut p.monitor, c, trace, schedule, pre) {
                        Ok(obs) => {
                            procs.push(c);
                            if self.sleep_sets {
                                p.sleep.retain(|(s, o)| *s != c && independent(o, &obs));
                            }
                            p.preemptions += pre as u32;
                            p.last = Some(c);
                        }
                        Err(e) => return Advance::Cut(e.to_string()),
                    }
                }
                _ => {
                    return Advance::Choice(Frame {
                        state: Some(Box::new((p.sys, p.monitor))),
                        checkpoint: true,
                        preemptions: p.preemptions,
                        sleep: p.sleep,
                        candidates: cands,
                        next: 0,
                        explored: Vec::new(),
                        trace_len: trace.len(),
                    });
                }
            }
        }
    }
}

impl Strategy for BoundedDfs {
    fn search<S: System, M: Monitor<S>>(&self, initial: &S, monitor: M) -> Outcome<S, M> {
        self.search_keeping(initial, monitor, (KEEP_ALL_UNTIL, CHECKPOINT_EVERY))
    }
}

impl BoundedDfs {
    /// The search, keeping the state of every choice point of a run's
    /// first `checkpoints.0` steps, then about one in `checkpoints.1` (see
    /// [`keeps_state`]).
    pub(crate) fn search_keeping<S: System, M: Monitor<S>>(
        &self,
        initial: &S,
        monitor: M,
        checkpoints: (usize, usize),
    ) -> Outcome<S, M> {
        let mut stats = SearchStats::default();
        let mut found = Vec::new();
        let mut stack: Vec<Frame<S, M>> = Vec::new();
        let mut trace = Vec::new();
        let mut schedule = Vec::new();
        let mut procs: Vec<S::Proc> = Vec::new();
        let start = (initial.clone(), monitor.clone());
        let mut pending = Some(Pending {
            sys: initial.clone(),
            monitor,
            last: None,
            preemptions: 0,
            sleep: Vec::new(),
        });
        loop {
            if let Some(p) = pending.take() {
                match self.advance(p, &mut trace, &mut schedule, &mut procs, &mut stats) {
                    Advance::Choice(mut frame) => {
                        frame.checkpoint = keeps_state(&stack, &frame, checkpoints);
                        stack.push(frame);
                    }
                    Advance::End(mut end) => {
                        stats.note_complete(&end.sys, &end.monitor);
                        stats.max_preemptions_used =
                            stats.max_preemptions_used.max(end.preemptions);
                        if end.monitor.finish(&end.sys) {
                            stats.findings += 1;
                            if found.len() < KEEP_FOUND {
                                found.push(Found {
                                    schedule: schedule.clone(),
                                    trace: trace.clone(),
                                    preemptions: end.preemptions,
                                    monitor: end.monitor,
                                    end: end.sys,
                                });
                            }
                            if self.stop_at_first {
                                return Outcome {
                                    found,
                                    stats,
                                    stop: StopReason::Found,
                                };
                            }
                        } else if end.monitor.near_miss() {
                            stats.near_misses += 1;
                        }
                    }
                    Advance::SleepBlocked => stats.sleep_blocked += 1,
                    Advance::Cut(why) => stats.note_cut(why),
                    Advance::Cancelled(why) => {
                        return Outcome {
                            found,
                            stats,
                            stop: StopReason::Cancelled { why },
                        };
                    }
                }
                // Exhausted first: a space whose last run lands exactly on
                // the budget was explored whole (no choice point has a
                // candidate left).
                if pending.is_none() && stack.iter().all(|f| f.next >= f.candidates.len()) {
                    return Outcome {
                        found,
                        stats,
                        stop: StopReason::Exhausted,
                    };
                }
                if stats.runs_ended() >= self.max_interleavings {
                    return Outcome {
                        found,
                        stats,
                        stop: StopReason::InterleavingBudget {
                            limit: self.max_interleavings,
                        },
                    };
                }
                continue;
            }
            // Backtrack to the deepest choice point with a candidate left.
            let Some(top) = stack.last_mut() else {
                return Outcome {
                    found,
                    stats,
                    stop: StopReason::Exhausted,
                };
            };
            if top.next >= top.candidates.len() {
                stack.pop();
                continue;
            }
            if let Some(why) = cancelled(&self.cancel) {
                return Outcome {
                    found,
                    stats,
                    stop: StopReason::Cancelled { why },
                };
            }
            trace.truncate(top.trace_len);
            schedule.truncate(top.trace_len);
            procs.truncate(top.trace_len);
            if top.state.is_none() {
                let at = stack.len() - 1;
                if let Err(why) = restore(&mut stack, at, &procs, &start) {
                    stats.note_cut(why);
                    stack.pop();
                    continue;
                }
            }
            let Some(top) = stack.last_mut() else {
                continue;
            };
            let (c, pre) = top.candidates[top.next];
            top.next += 1;
            let (mut sys, mut mon) = if top.checkpoint && top.next < top.candidates.len() {
                match top.state.as_deref() {
                    Some(s) => s.clone(),
                    None => continue,
                }
            } else {
                match top.state.take() {
                    Some(s) => *s,
                    None => continue,
                }
            };
            stats.steps += 1;
            match take_step(&mut sys, &mut mon, c, &mut trace, &mut schedule, pre) {
                Ok(obs) => {
                    procs.push(c);
                    let sleep = if self.sleep_sets {
                        top.sleep
                            .iter()
                            .chain(top.explored.iter())
                            .filter(|(s, o)| *s != c && independent(o, &obs))
                            .cloned()
                            .collect()
                    } else {
                        Vec::new()
                    };
                    // Only the sleep sets read what was explored.
                    if self.sleep_sets {
                        top.explored.push((c, obs));
                    }
                    pending = Some(Pending {
                        sys,
                        monitor: mon,
                        last: Some(c),
                        preemptions: top.preemptions + pre as u32,
                        sleep,
                    });
                }
                Err(e) => {
                    stats.note_cut(e.to_string());
                    if stats.runs_ended() >= self.max_interleavings {
                        return Outcome {
                            found,
                            stats,
                            stop: StopReason::InterleavingBudget {
                                limit: self.max_interleavings,
                            },
                        };
                    }
                }
            }
        }
    }
}

/// Whether a new choice point keeps its state for its later candidates:
/// within the run's first `keep_all` steps always, past them when the
/// nearest choice point below it that holds a state is a spacing back (one
/// `every` more per [`PROCS_PER_SPACING`] processes the run has had, as the
/// cost of a copy of the system grows: see [`crate::search::dpor`]).
fn keeps_state<S: System, M>(
    stack: &[Frame<S, M>],
    frame: &Frame<S, M>,
    (keep_all, every): (usize, usize),
) -> bool {
    let at = frame.trace_len;
    if at < keep_all {
        return true;
    }
    let base = stack
        .iter()
        .rev()
        .find(|f| f.state.is_some())
        .map_or(0, |f| f.trace_len);
    let far = at - base;
    let every = every.max(1);
    if far < every {
        return false;
    }
    let procs = frame
        .state
        .as_deref()
        .map_or(0, |(sys, _)| sys.procs().len());
    far >= every * (1 + procs / PROCS_PER_SPACING)
}

/// Rebuilds the state of the choice point `at` (and its monitor) by
/// replaying the run's steps from the nearest one below it that holds a
/// state, or from the start; it keeps it from then on.
fn restore<S: System, M: Monitor<S>>(
    stack: &mut [Frame<S, M>],
    at: usize,
    procs: &[S::Proc],
    start: &(S, M),
) -> Result<(), String> {
    let (from, (mut sys, mut monitor)) = match stack[..at]
        .iter()
        .rev()
        .find_map(|f| f.state.as_deref().map(|s| (f.trace_len, s.clone())))
    {
        Some(found) => found,
        None => (0, start.clone()),
    };
    let to = stack[at].trace_len;
    let steps = procs
        .get(from..to)
        .ok_or("a choice point's steps were lost")?;
    for (k, &p) in steps.iter().enumerate() {
        let obs = sys.step(p).map_err(|e| e.to_string())?;
        monitor.observe(&sys, p, &obs, from + k);
    }
    let frame = &mut stack[at];
    frame.state = Some(Box::new((sys, monitor)));
    frame.checkpoint = true;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::RaceGoal;
    use crate::model::{Model, Op};

    #[test]
    fn few_kept_states_explore_the_same_runs() {
        // Keeping one state in three past the first step (the others
        // rebuilt by replay, monitor included) explores the same runs, in
        // the same order, with the same findings and counts, as keeping
        // every one.
        for n in 2..=4 {
            let sys = Model::new(vec![vec![Op::Read("k", 1), Op::WriteInc("k", 1, 2)]; n]);
            for (bound, sleep_sets) in [(2, false), (2, true), (u32::MAX, false)] {
                let dfs = BoundedDfs {
                    max_preemptions: bound,
                    max_interleavings: 1_000_000,
                    max_run_steps: 1_000,
                    sleep_sets,
                    stop_at_first: false,
                    steer: true,
                    cancel: None,
                };
                let all = dfs.search_keeping(&sys, RaceGoal::new(1, 2, true), (usize::MAX, 1));
                let sparse = dfs.search_keeping(&sys, RaceGoal::new(1, 2, true), (1, 3));
                let what = format!("{n} processes, bound {bound}, sleep sets {sleep_sets}");
                assert_eq!(sparse.stats, all.stats, "{what}");
                assert_eq!(sparse.stop, all.stop, "{what}");
                let schedules = |o: &Outcome<Model, RaceGoal<Model>>| -> Vec<Vec<String>> {
                    o.found.iter().map(|f| f.schedule.clone()).collect()
                };
                assert_eq!(schedules(&sparse), schedules(&all), "{what}");
                assert!(all.stats.findings > 0, "{what}");
            }
        }
    }
}
