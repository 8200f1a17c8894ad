//! Schedule search strategies, one type each behind [`Strategy`]:
//! [`bounded::BoundedDfs`] (preemption-bounded depth-first search with sleep
//! sets, steered by the goal), [`random::RandomWalk`] (PCT-style priorities
//! from a seed) and [`replay::Replay`] (one given schedule).

pub mod bounded;
pub mod random;
pub mod replay;

use serde::Serialize;

use crate::goal::Monitor;
use crate::system::{Observation, System};

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
    /// The interleaving budget ran out.
    InterleavingBudget { limit: u64 },
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
    trace.push(TraceStep {
        process: name.clone(),
        text: obs.text.clone(),
        site: obs.site.clone(),
        item: obs.item_label.clone(),
        access: obs.access.as_ref().map(|(_, a)| *a),
        preemption,
    });
    schedule.push(name);
    Ok(obs)
}
