//! Replaying a witness on the current code: same sources (checked by hash),
//! same harness, same schedule — same events and the same outcome, or a loud
//! report of what differs.

use std::sync::Arc;

use racewit_syntax::ir::Program;

use crate::confirmation::{ConfirmOptions, HARNESS_DIR, race_goal, start, trace_events};
use crate::goal::FailureGoal;
use crate::search::replay::{ReplayError, replay};
use crate::witness::{Witness, WitnessEvent, WitnessKind, hash_sources};

/// Why a replay does not reproduce the witness.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayMismatch {
    #[error(
        "files the witness's run executed have changed since it was recorded: {} (replay runs the same code only; --recheck searches again on the current code)",
        .0.join(", ")
    )]
    SourcesChanged(Vec<String>),
    #[error("witness version {0} is not supported (this racewit reads version {1})")]
    Version(u32, u32),
    #[error("the harness does not load: {0}")]
    Harness(String),
    #[error(transparent)]
    Schedule(#[from] ReplayError),
    #[error("the replay ran, but the outcome differs: {0}")]
    Outcome(String),
}

/// A successful replay: the events, identical to the witness's.
#[derive(Debug, Clone)]
pub struct Replayed {
    pub events: Vec<WitnessEvent>,
}

/// Adds the witness's generated harness (if any) to a freshly loaded program.
pub fn add_harness(program: &mut Program, witness: &Witness) -> Result<(), ReplayMismatch> {
    crate::confirmation::add_support(program);
    if let Some(a) = &witness.harness.amplification
        && !crate::amplify::add_amplified(program, a)
    {
        return Err(ReplayMismatch::Harness(format!(
            "cannot rebuild the amplified test {} (module missing or name taken)",
            a.test.mfa()
        )));
    }
    if witness.harness.source.is_empty() {
        return Ok(());
    }
    let path = format!("{HARNESS_DIR}/{}.erl", witness.harness.module);
    let loaded = racewit_syntax::load_source(&path, &witness.harness.source);
    if let Some(d) = loaded.diagnostics.first() {
        return Err(ReplayMismatch::Harness(d.message.clone()));
    }
    let clashes = program.absorb(loaded);
    if !clashes.is_empty() {
        return Err(ReplayMismatch::Harness(format!(
            "module {} already loaded",
            clashes[0]
        )));
    }
    Ok(())
}

/// Replays `witness` on `program` (loaded from the witness's paths, harness
/// not yet added).
pub fn replay_witness(
    mut program: Program,
    witness: &Witness,
    opts: &ConfirmOptions,
) -> Result<Replayed, ReplayMismatch> {
    if witness.version != crate::witness::WITNESS_VERSION {
        return Err(ReplayMismatch::Version(
            witness.version,
            crate::witness::WITNESS_VERSION,
        ));
    }
    let now = hash_sources(&program);
    let changed: Vec<String> = witness
        .sources
        .iter()
        .filter(|s| !now.contains(s))
        .map(|s| s.path.clone())
        .collect();
    if !changed.is_empty() {
        return Err(ReplayMismatch::SourcesChanged(changed));
    }
    add_harness(&mut program, witness)?;
    let program = Arc::new(program);
    let mut opts = opts.clone();
    opts.timeouts = witness.timeouts;
    let image = racewit_vm::Image::new(program.clone(), &opts.vm);
    let sys = start(
        &image,
        &witness.harness.module,
        &witness.harness.function,
        &opts,
    );
    let events = match (witness.kind, &witness.sites) {
        (WitnessKind::Suspect, Some(sites)) => {
            let run = replay(&sys, race_goal(sites), &witness.schedule.steps)?;
            // The race pattern; its harm (a crash, or a value a caller of
            // the program crashes on) is the witness's recorded verdict.
            let race = run.monitor.pattern();
            if race.is_none() {
                return Err(ReplayMismatch::Outcome(
                    "the race pattern did not occur".into(),
                ));
            }
            trace_events(&[&program], &run.trace, race)
        }
        _ => {
            let run = replay(&sys, FailureGoal::default(), &witness.schedule.steps)?;
            let failure = run.monitor.failure().cloned();
            if failure != witness.failure {
                return Err(ReplayMismatch::Outcome(format!(
                    "expected {:?}, got {:?}",
                    witness.failure, failure
                )));
            }
            trace_events(&[&program], &run.trace, None)
        }
    };
    let differs = events.len() != witness.trace.len()
        || events
            .iter()
            .zip(&witness.trace)
            .any(|(a, b)| a.process != b.process || a.text != b.text || a.role != b.role);
    if differs {
        return Err(ReplayMismatch::Outcome(
            "the events differ from the recorded trace".into(),
        ));
    }
    Ok(Replayed { events })
}

/// Narrows a just-found witness's `sources` to the files its run executed
/// ([`crate::witness::executed_sources`]), and lists every module file
/// loaded in `modules` for replay to load. The run is made once more on a
/// fresh image of `layers` (the programs the search ran: the user's and
/// the suspect's harnesses, see [`racewit_vm::Image::layered`]), whose
/// modules compile as they are entered: those compiled are those the run
/// executed. When that run does not follow the schedule (it always
/// should), the witness keeps every file.
pub fn narrow_to_executed(witness: &mut Witness, layers: &[Arc<Program>], opts: &ConfirmOptions) {
    let mut opts = opts.clone();
    opts.timeouts = witness.timeouts;
    let image = racewit_vm::Image::layered(layers, &opts.vm);
    let sys = start(
        &image,
        &witness.harness.module,
        &witness.harness.function,
        &opts,
    );
    if replay(&sys, FailureGoal::default(), &witness.schedule.steps).is_err() {
        return;
    }
    let entered = image.entered_files();
    witness.modules = witness
        .sources
        .iter()
        .filter(|s| s.path.ends_with(".erl"))
        .map(|s| s.path.clone())
        .collect();
    witness.sources = crate::witness::executed_sources(&witness.sources, &entered);
}
