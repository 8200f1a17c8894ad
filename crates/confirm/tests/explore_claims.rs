//! No "every interleaving explored" from runs that did not run whole, on
//! the VM: a run in which a process stopped at an unsupported call, or
//! that was cut at the step limit or by the VM's reduction budget, makes
//! the exploration's stats say so (`runs_whole() == false`, the cause and
//! how many runs), whichever reduction explored it. `racewit explore`
//! prints those lines and exits 1 on them (`crates/cli/src/explore.rs`).

use std::path::PathBuf;
use std::sync::Arc;

use racewit_confirm::confirmation::ConfirmOptions;
use racewit_confirm::explore::{Exploration, ExploreOptions, explore};
use racewit_confirm::search::{Reduction, StopReason};
use racewit_confirm::witness::LoadRecord;
use racewit_syntax::{LoadOptions, load_paths};
use racewit_vm::VmConfig;

/// Explores `entry` with at most `budget` runs, each cut at 300 steps.
fn run(entry: &str, reduction: Reduction, bound: u32, budget: u64) -> Exploration {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/partial_runs.erl");
    let program = Arc::new(load_paths(&[file], &LoadOptions::default()));
    let opts = ExploreOptions {
        confirm: ConfirmOptions {
            max_preemptions: bound,
            max_interleavings: budget,
            max_run_steps: 300,
            reduction,
            vm: VmConfig {
                max_reductions: 200_000,
                ..ConfirmOptions::default().vm
            },
            ..ConfirmOptions::default()
        },
        all: true,
    };
    explore(
        &program,
        "partial_runs",
        entry,
        &LoadRecord::default(),
        &opts,
    )
}

/// Every search the command line can choose: DPOR over every interleaving,
/// DPOR then bounded search, plain search with and without a bound.
fn searches() -> [(Reduction, u32); 4] {
    [
        (Reduction::Dpor, u32::MAX),
        (Reduction::Dpor, 2),
        (Reduction::None, u32::MAX),
        (Reduction::SleepSets, 2),
    ]
}

#[test]
fn a_process_parked_at_an_unsupported_call_is_never_explored_whole() {
    for (reduction, bound) in searches() {
        let e = run("parked_always", reduction, bound, 10_000);
        let s = &e.stats;
        assert!(s.interleavings > 0, "{reduction:?}/{bound}");
        assert_eq!(s.parked_runs, s.interleavings, "{reduction:?}/{bound}");
        assert!(!s.runs_whole(), "{reduction:?}/{bound}");
        let call = s.first_parked.as_deref().unwrap_or("");
        assert!(
            call.starts_with("os:cmd/1 (") && call.contains("partial_runs.erl:9"),
            "{call}"
        );
        // A parked process is no deadlock, and its waiting parent is no failure.
        assert!(
            e.failures.is_empty(),
            "{reduction:?}/{bound}: {:?}",
            e.failures
        );
    }
}

#[test]
fn runs_that_park_in_some_interleavings_only_are_not_whole_either() {
    for (reduction, bound) in searches() {
        let e = run("parked_sometimes", reduction, bound, 10_000);
        let s = &e.stats;
        assert!(
            s.parked_runs > 0 && s.parked_runs < s.interleavings,
            "{reduction:?}/{bound}: {} of {} parked",
            s.parked_runs,
            s.interleavings
        );
        assert!(!s.runs_whole(), "{reduction:?}/{bound}");
    }
}

#[test]
fn no_timeout_fires_while_a_process_is_parked() {
    for (reduction, bound) in searches() {
        let e = run("parked_beside_a_tick", reduction, bound, 10_000);
        let s = &e.stats;
        assert!(s.interleavings > 0, "{reduction:?}/{bound}");
        assert_eq!(s.parked_runs, s.interleavings, "{reduction:?}/{bound}");
        assert_eq!(s.cut_runs, 0, "{reduction:?}/{bound}: {s:?}");
        let call = s.first_parked.as_deref().unwrap_or("");
        assert!(call.starts_with("os:cmd/1 ("), "{call}");
    }
}

#[test]
fn runs_cut_at_the_step_limit_are_never_whole() {
    for (reduction, bound) in searches() {
        let e = run("steps_forever", reduction, bound, 200);
        let s = &e.stats;
        assert_eq!(s.interleavings, 0, "{reduction:?}/{bound}: no run ends");
        assert!(s.cut_runs > 0, "{reduction:?}/{bound}");
        let why = s.first_error.as_deref().unwrap_or("");
        assert!(why.contains("did not terminate within 300 steps"), "{why}");
        // It names the process still running and where it is.
        assert!(
            why.contains(": P1 still running at ") && why.contains("partial_runs.erl:"),
            "{why}"
        );
        // Cut runs count against the budget: a search of a program that
        // never ends stops.
        assert!(
            s.runs_ended() <= 200,
            "{reduction:?}/{bound}: {}",
            s.runs_ended()
        );
        assert!(!s.runs_whole(), "{reduction:?}/{bound}");
    }
}

#[test]
fn runs_cut_by_the_reduction_budget_are_never_whole() {
    for (reduction, bound) in searches() {
        let e = run("spins_forever", reduction, bound, 10_000);
        let s = &e.stats;
        assert_eq!(s.interleavings, 0, "{reduction:?}/{bound}: no run ends");
        assert!(s.cut_runs > 0, "{reduction:?}/{bound}");
        let why = s.first_error.as_deref().unwrap_or("");
        assert!(why.contains("reduction budget exhausted"), "{why}");
        assert!(!s.runs_whole(), "{reduction:?}/{bound}");
    }
}

#[test]
fn a_program_that_runs_whole_is_explored_whole() {
    for (reduction, bound) in searches() {
        let e = run("whole", reduction, bound, 10_000);
        assert!(e.stats.runs_whole(), "{reduction:?}/{bound}: {:?}", e.stats);
        assert!(
            matches!(e.stop, StopReason::ExhaustedAll | StopReason::Exhausted),
            "{:?}",
            e.stop
        );
        assert!(e.failures.is_empty());
    }
}
