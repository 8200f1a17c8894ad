//! Schedule search strategies, one type each behind [`Strategy`]:
//! [`dpor::SourceDpor`] (source-DPOR with sleep sets, a preemption bound and
//! goal steering: the default), [`bounded::BoundedDfs`] (preemption-bounded
//! depth-first search, with or without sleep sets: the baseline the
//! reduction is measured against), [`random::RandomWalk`] (PCT-style
//! priorities from a seed) and [`replay::Replay`] (one given schedule).
//! [`Systematic`] picks the systematic one by [`Reduction`].

pub mod bounded;
pub mod dpor;
pub mod random;
pub mod random_program;
pub mod replay;
pub mod soundness;

use serde::{Deserialize, Serialize};

use crate::goal::Monitor;
use crate::system::{Fate, Observation, ParkCause, System};

/// One step of a recorded run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceStep<S: Clone> {
    pub process: String,
    pub text: String,
    #[serde(skip)]
    pub site: Option<S>,
    /// The shared item touched and how.
    pub item: Option<String>,
    pub access: Option<crate::system::Access>,
    /// Whether taking this step preempted a process that could have gone on.
    pub preemption: bool,
    /// The step named a table that does not exist ([`Observation::absent`]).
    ///
    /// [`Observation::absent`]: crate::system::Observation::absent
    #[serde(skip)]
    pub absent: bool,
}

impl<S: Clone> TraceStep<S> {
    /// The step `process` took, as its observation shows it.
    pub fn of<I>(
        process: String,
        obs: &crate::system::Observation<I, S>,
        preemption: bool,
    ) -> Self {
        TraceStep {
            process,
            text: obs.text.clone(),
            site: obs.site.clone(),
            item: obs.item_label.clone(),
            access: obs.access.as_ref().map(|(_, a)| *a),
            preemption,
            absent: obs.absent,
        }
    }
}

/// A run the search found (a finding), with the monitor that judged it.
#[derive(Clone, Debug)]
pub struct Found<S: System, M> {
    pub schedule: Vec<String>,
    pub trace: Vec<TraceStep<S::Site>>,
    pub preemptions: u32,
    pub monitor: M,
    pub end: S,
}

/// Why a search stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum StopReason {
    /// The first finding was enough.
    Found,
    /// Every schedule within the bound was explored.
    Exhausted,
    /// Every interleaving was explored, up to equivalence (no bound).
    ExhaustedAll,
    /// The interleaving budget ran out.
    InterleavingBudget { limit: u64 },
    /// Stopped from outside (a time or memory cap): see [`Cancel`].
    Cancelled { why: CancelReason },
}

/// Why a search was stopped from outside.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "cap")]
pub enum CancelReason {
    /// The process held more memory than allowed (`--max-memory`).
    Memory { limit_bytes: u64 },
    /// The suspect took longer than allowed (`--timeout`).
    Time { seconds: u64 },
    /// One context of the suspect used the work it was allowed
    /// (`--max-context-reductions`): deterministic, unlike the two above.
    Work { limit: u64 },
}

/// A request from outside a search to stop at once: a time or memory cap
/// that the caller watches (the search itself reads no clock), or an
/// allowance of work that the system spends ([`Cancel::spend`]).
/// Checked at every step; a search that sees it stops with
/// [`StopReason::Cancelled`], and claims nothing about what it did not see.
#[derive(Debug, Default)]
pub struct Cancel {
    why: std::sync::OnceLock<CancelReason>,
    /// A stop of the parent (the whole suspect's) is a stop of this one.
    parent: Option<std::sync::Arc<Cancel>>,
    /// Work allowed, and work done so far (in reductions).
    work: Option<(u64, std::sync::atomic::AtomicU64)>,
}

impl Cancel {
    /// A token for one part of a search under `parent` (one context of a
    /// suspect), which stops it after `limit` units of work.
    pub fn with_allowance(parent: Option<std::sync::Arc<Cancel>>, limit: u64) -> Cancel {
        Cancel {
            why: std::sync::OnceLock::new(),
            parent,
            work: Some((limit, std::sync::atomic::AtomicU64::new(0))),
        }
    }

    /// `units` of work were done: past the allowance, a stop is asked for.
    pub fn spend(&self, units: u64) {
        if let Some((limit, done)) = &self.work
            && done.fetch_add(units, std::sync::atomic::Ordering::Relaxed) + units >= *limit
        {
            self.cancel(CancelReason::Work { limit: *limit });
        }
    }

    /// Asks the search to stop (the first reason given stays).
    pub fn cancel(&self, why: CancelReason) {
        let _ = self.why.set(why);
    }

    /// Why the search must stop, if it must.
    pub fn reason(&self) -> Option<&CancelReason> {
        self.why
            .get()
            .or_else(|| self.parent.as_deref().and_then(Cancel::reason))
    }
}

/// The reason to stop now, if the optional token says so.
pub(crate) fn cancelled(cancel: &Option<std::sync::Arc<Cancel>>) -> Option<CancelReason> {
    cancel.as_ref().and_then(|c| c.reason().cloned())
}

/// Counters of a search; all deterministic.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// Runs completed to their end.
    pub interleavings: u64,
    /// Runs cut because every enabled process was in the sleep set.
    pub sleep_blocked: u64,
    /// Runs cut by the per-run step budget or a VM error.
    pub cut_runs: u64,
    /// Steps taken in all (including re-executions).
    pub steps: u64,
    /// The largest number of preemptions in a completed run.
    pub max_preemptions_used: u32,
    /// The first VM error met, if any (what cut a run).
    pub first_error: Option<String>,
    /// Runs that were findings (only the first few are kept whole).
    pub findings: u64,
    /// Runs that were not findings but came close ([`Monitor::near_miss`]).
    pub near_misses: u64,
    /// Completed runs in which some process stopped at a call the system
    /// cannot run: they show only part of the program's behaviour.
    pub parked_runs: u64,
    /// The first such call met (with its location).
    pub first_parked: Option<String>,
    /// Why that process stopped there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_parked_cause: Option<ParkCause>,
    /// Completed runs that reached the goal's first milestone (a race's
    /// read), and its second (the same actor's write after that read).
    pub runs_reached: [u64; 2],
}

impl SearchStats {
    /// Adds the counts of an earlier search of the same harness.
    pub fn absorb(&mut self, earlier: &SearchStats) {
        self.interleavings += earlier.interleavings;
        self.sleep_blocked += earlier.sleep_blocked;
        self.cut_runs += earlier.cut_runs;
        self.steps += earlier.steps;
        self.max_preemptions_used = self.max_preemptions_used.max(earlier.max_preemptions_used);
        self.findings += earlier.findings;
        self.near_misses += earlier.near_misses;
        if earlier.first_error.is_some() {
            self.first_error.clone_from(&earlier.first_error);
        }
        self.parked_runs += earlier.parked_runs;
        if earlier.first_parked.is_some() {
            self.first_parked.clone_from(&earlier.first_parked);
            self.first_parked_cause = earlier.first_parked_cause;
        }
        self.runs_reached[0] += earlier.runs_reached[0];
        self.runs_reached[1] += earlier.runs_reached[1];
    }

    /// Whether every run the search began ran to its end with every process
    /// able to go on: none was cut (step budget, VM error) and in none did a
    /// process stop at an unsupported call. Only then can the runs stand for
    /// the program's whole behaviour, and a space be called explored.
    pub fn runs_whole(&self) -> bool {
        self.cut_runs == 0 && self.parked_runs == 0
    }

    /// Runs that ended or were cut: what the interleaving budget counts, so
    /// that a program whose every run is cut (it never terminates) still
    /// ends its search.
    pub fn runs_ended(&self) -> u64 {
        self.interleavings + self.cut_runs
    }

    /// Counts a run cut short.
    pub(crate) fn note_cut(&mut self, why: String) {
        self.cut_runs += 1;
        if self.first_error.is_none() {
            self.first_error = Some(why);
        }
    }

    /// Counts a run that ran to its end: what it reached, and whether a
    /// process in it stopped at an unsupported call.
    pub(crate) fn note_complete<S: System, M: Monitor<S>>(&mut self, sys: &S, monitor: &M) {
        self.interleavings += 1;
        let reached = monitor.reached();
        self.runs_reached[0] += reached[0] as u64;
        self.runs_reached[1] += reached[1] as u64;
        let parked = sys.procs().into_iter().find_map(|p| match sys.fate(p) {
            Fate::Parked { call, cause } => Some((call, cause)),
            _ => None,
        });
        if let Some((call, cause)) = parked {
            self.parked_runs += 1;
            if self.first_parked.is_none() {
                self.first_parked = Some(call);
                self.first_parked_cause = Some(cause);
            }
        }
    }

    /// The first call a process stopped at, and why, as a user reads it
    /// after "stopped at" (see [`ParkCause::describe`]).
    pub fn first_parked_text(&self) -> Option<String> {
        let call = self.first_parked.as_deref()?;
        Some(
            self.first_parked_cause
                .unwrap_or(ParkCause::Unsupported)
                .describe(call),
        )
    }
}

/// How many findings a search keeps whole (each holds a system and a
/// trace); the rest are only counted.
pub const KEEP_FOUND: usize = 16;

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<S: System, M> {
    pub found: Vec<Found<S, M>>,
    pub stats: SearchStats,
    pub stop: StopReason,
}

/// A way of choosing schedules.
pub trait Strategy {
    fn search<S: System, M: Monitor<S>>(&self, initial: &S, monitor: M) -> Outcome<S, M>;
}

/// How the systematic search cuts schedules that only reorder independent
/// steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reduction {
    /// Every schedule within the bound (plain bounded DFS).
    None,
    /// Sleep sets only.
    SleepSets,
    /// Source-DPOR with sleep sets.
    #[default]
    Dpor,
}

/// The systematic search with the chosen reduction.
#[derive(Clone, Debug)]
pub struct Systematic {
    pub reduction: Reduction,
    pub max_preemptions: u32,
    pub max_interleavings: u64,
    pub max_run_steps: usize,
    pub stop_at_first: bool,
    pub steer: bool,
    pub cancel: Option<std::sync::Arc<Cancel>>,
}

impl Strategy for Systematic {
    /// With DPOR: every interleaving by source-DPOR first, with half the
    /// budget when a bound is set. If that neither exhausts the space nor
    /// finds a witness within the bound, plain bounded DFS within the bound
    /// with what is left (DPOR's reduction is not sound under a preemption
    /// bound, plain DFS is); a DPOR witness past the bound is kept if that
    /// finds none.
    fn search<S: System, M: Monitor<S>>(&self, initial: &S, monitor: M) -> Outcome<S, M> {
        let bounded = |sleep_sets: bool, max_interleavings: u64, monitor: M| {
            bounded::BoundedDfs {
                max_preemptions: self.max_preemptions,
                max_interleavings,
                max_run_steps: self.max_run_steps,
                sleep_sets,
                stop_at_first: self.stop_at_first,
                steer: self.steer,
                cancel: self.cancel.clone(),
            }
            .search(initial, monitor)
        };
        match self.reduction {
            Reduction::None => bounded(false, self.max_interleavings, monitor),
            Reduction::SleepSets => bounded(true, self.max_interleavings, monitor),
            Reduction::Dpor => {
                let unbounded = self.max_preemptions == u32::MAX;
                let first_budget = if unbounded {
                    self.max_interleavings
                } else {
                    self.max_interleavings.div_ceil(2)
                };
                let all = dpor::SourceDpor {
                    max_interleavings: first_budget,
                    max_run_steps: self.max_run_steps,
                    stop_at_first: self.stop_at_first,
                    steer: self.steer,
                    preferred_preemptions: self.max_preemptions,
                    cancel: self.cancel.clone(),
                    ..dpor::SourceDpor::default()
                }
                .search(initial, monitor.clone());
                if matches!(all.stop, StopReason::Cancelled { .. }) {
                    return all;
                }
                let exhausted = all.stop == StopReason::ExhaustedAll;
                let found_within = self.stop_at_first
                    && all
                        .found
                        .first()
                        .is_some_and(|f| f.preemptions <= self.max_preemptions);
                let found_beyond = self.stop_at_first && !all.found.is_empty() && !found_within;
                if unbounded || found_within || (exhausted && !found_beyond) {
                    return all;
                }
                // Not settled, or only a witness past the bound: search
                // within the bound with what is left of the budget.
                let left =
                    self.max_interleavings - all.stats.runs_ended().min(self.max_interleavings);
                let mut within = bounded(false, left.max(1), monitor);
                within.stats.absorb(&all.stats);
                if within.found.is_empty() && found_beyond {
                    within.found = all.found;
                    within.stop = StopReason::Found;
                    return within;
                }
                within.found.extend(all.found);
                within.found.truncate(KEEP_FOUND);
                within
            }
        }
    }
}
/// Why a run was cut at the per-run step limit.
/// Why a run was cut at the step limit: which process was still running
/// and where (the one that took the last step when it may go on, else the
/// first that may), and how many others could still run.
pub(crate) fn step_limit_text<S: System>(limit: usize, sys: &S, last: Option<&str>) -> String {
    let enabled = sys.enabled();
    let running = last
        .and_then(|name| sys.by_name(name))
        .filter(|p| enabled.contains(p))
        .or_else(|| enabled.first().copied());
    let who = match running {
        Some(p) => {
            let at = sys
                .location(p)
                .map(|l| format!(" at {l}"))
                .unwrap_or_default();
            let others = match enabled.len().saturating_sub(1) {
                0 => String::new(),
                1 => " (1 other process could still run)".to_string(),
                n => format!(" ({n} other processes could still run)"),
            };
            format!(": {} still running{at}{others}", sys.name(p))
        }
        None => String::new(),
    };
    format!(
        "the program did not terminate within {} steps{who} (--max-run-steps raises the limit)",
        racewit_vm::limits::thousands(limit as u64)
    )
}

/// Runs one step and records it; shared by every strategy.
pub(crate) fn take_step<S: System, M: Monitor<S>>(
    sys: &mut S,
    monitor: &mut M,
    proc: S::Proc,
    trace: &mut Vec<TraceStep<S::Site>>,
    schedule: &mut Vec<String>,
    preemption: bool,
) -> Result<Observation<S::Item, S::Site>, S::Error> {
    let name = sys.name(proc);
    let obs = sys.step(proc)?;
    monitor.observe(sys, proc, &obs, trace.len());
    trace.push(TraceStep::of(name.clone(), &obs, preemption));
    schedule.push(name);
    Ok(obs)
}
