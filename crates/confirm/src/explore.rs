//! Exploring a test entry (the Concuerror job on the same engine): every
//! interleaving within the bound, looking for crashes and deadlocks.

use std::sync::Arc;

use racewit_syntax::ir::Program;

use crate::confirmation::{ConfirmOptions, start, trace_events};
use crate::goal::{Failure, FailureGoal};
use crate::schedule::Schedule;
use crate::search::random::RandomWalk;
use crate::search::{SearchStats, StopReason, Strategy, Systematic};
use crate::verdict::{Reached, Status, Verdict};
use crate::witness::{
    HarnessRecord, LoadRecord, WITNESS_VERSION, Witness, WitnessKind, hash_sources,
};

#[derive(Clone, Debug)]
pub struct ExploreOptions {
    pub confirm: ConfirmOptions,
    /// Keep going after the first failure (classify every interleaving).
    pub all: bool,
}

/// What exploring found.
#[derive(Clone, Debug)]
pub struct Exploration {
    pub entry: String,
    pub failures: Vec<(Failure, Witness)>,
    pub stats: SearchStats,
    pub stop: StopReason,
}

/// Explores `module:function()` run as `P1`. Timeouts fire as
/// `opts.confirm.timeouts` says (by default only when nothing else can run).
pub fn explore(
    program: &Arc<Program>,
    module: &str,
    function: &str,
    load: &LoadRecord,
    opts: &ExploreOptions,
) -> Exploration {
    let copts = opts.confirm.clone();
    let image = racewit_vm::Image::new(program.clone(), &copts.vm);
    let sys = start(&image, module, function, &copts);
    let outcome = match copts.random {
        Some((runs, seed)) => RandomWalk {
            runs,
            seed,
            max_run_steps: copts.max_run_steps,
            stop_at_first: !opts.all,
            cancel: copts.cancel.clone(),
            ..RandomWalk::default()
        }
        .search(&sys, FailureGoal::default()),
        None => Systematic {
            reduction: copts.reduction,
            max_preemptions: copts.max_preemptions,
            max_interleavings: copts.max_interleavings,
            max_run_steps: copts.max_run_steps,
            stop_at_first: !opts.all,
            steer: false,
            cancel: copts.cancel.clone(),
        }
        .search(&sys, FailureGoal::default()),
    };
    let entry = format!("{module}:{function}/0");
    let sources = hash_sources(program);
    let failures = outcome
        .found
        .iter()
        .filter_map(|f| {
            let failure = f.monitor.failure()?.clone();
            let verdict = Verdict {
                status: Status::Confirmed,
                consequence: None,
                bound: copts.max_preemptions,
                processes: 0,
                interleavings: outcome.stats.interleavings,
                exhausted: false,
                preemptions: Some(f.preemptions),
                witness_steps: Some(f.schedule.len()),
                reason: None,
                reached: Reached::default(),
                context: crate::harness::Context::Entry { mfa: entry.clone() },
                setup_steps: 0,
                harm_cut: None,
            };
            let witness = Witness {
                version: WITNESS_VERSION,
                kind: WitnessKind::Explore,
                subject: entry.clone(),
                load: load.clone(),
                sources: sources.clone(),
                modules: Vec::new(),
                harness: HarnessRecord {
                    module: module.to_string(),
                    function: function.to_string(),
                    source: String::new(),
                    amplification: None,
                },
                timeouts: copts.timeouts,
                sites: None,
                schedule: Schedule::new(f.schedule.clone(), copts.random.map(|(_, s)| s)),
                verdict,
                failure: Some(failure.clone()),
                trace: trace_events(&[program], &f.trace, None),
            };
            Some((failure, witness))
        })
        .collect();
    Exploration {
        entry,
        failures,
        stats: outcome.stats,
        stop: outcome.stop,
    }
}
