//! Replay of one recorded schedule. A schedule that no longer fits the code
//! (the named process is not enabled at that step) is reported as
//! [`Diverged`], never a panic.

use crate::goal::Monitor;
use crate::search::{Found, TraceStep, take_step};
use crate::system::System;

/// The schedule could not be followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
pub enum ReplayError {
    #[error(
        "the schedule diverged at step {step}: it names {expected}, but the enabled processes are {enabled:?}"
    )]
    Diverged {
        step: usize,
        expected: String,
        enabled: Vec<String>,
    },
    #[error("the run stopped at step {step}: {message}")]
    Stopped { step: usize, message: String },
    #[error("the schedule ended after {steps} steps but processes {enabled:?} can still run")]
    Unfinished { steps: usize, enabled: Vec<String> },
}

/// Follows `steps` exactly, then requires that nothing can run any more.
pub fn replay<S: System, M: Monitor<S>>(
    initial: &S,
    monitor: M,
    steps: &[String],
) -> Result<Found<S, M>, ReplayError> {
    follow(initial, monitor, steps).map(|(found, _)| found)
}

/// [`replay`], also saying whether the monitor judged the run a finding.
pub fn follow<S: System, M: Monitor<S>>(
    initial: &S,
    mut monitor: M,
    steps: &[String],
) -> Result<(Found<S, M>, bool), ReplayError> {
    let mut sys = initial.clone();
    let mut trace: Vec<TraceStep<S::Site>> = Vec::new();
    let mut schedule = Vec::new();
    let mut last = None;
    let mut preemptions = 0;
    for (i, name) in steps.iter().enumerate() {
        let enabled = sys.enabled();
        let proc = sys.by_name(name).filter(|p| enabled.contains(p));
        let Some(proc) = proc else {
            return Err(ReplayError::Diverged {
                step: i,
                expected: name.clone(),
                enabled: enabled.iter().map(|&p| sys.name(p)).collect(),
            });
        };
        let pre = last.is_some_and(|l| l != proc && enabled.contains(&l));
        preemptions += pre as u32;
        take_step(&mut sys, &mut monitor, proc, &mut trace, &mut schedule, pre).map_err(|e| {
            ReplayError::Stopped {
                step: i,
                message: e.to_string(),
            }
        })?;
        last = Some(proc);
    }
    let enabled = sys.enabled();
    if !enabled.is_empty() {
        return Err(ReplayError::Unfinished {
            steps: steps.len(),
            enabled: enabled.iter().map(|&p| sys.name(p)).collect(),
        });
    }
    let finding = monitor.finish(&sys);
    Ok((
        Found {
            schedule,
            trace,
            preemptions,
            monitor,
            end: sys,
        },
        finding,
    ))
}
