//! Source-DPOR against plain exhaustive search on random programs, run by
//! the VM: on every program both find the same end states (what each
//! process returned or why it ended, blocked processes, registered names,
//! tables). The programs come from `search::random_program` with fixed
//! seeds; a mismatch prints the program and both sets of end states.

use racewit_confirm::search::random_program::generate;
use racewit_confirm::search::soundness::compare;
use racewit_confirm::vm_system::TimeoutPolicy;

/// Programs compared (plain search completing within the budget).
const PROGRAMS: usize = 300;
/// Runs plain search may take on one program; larger ones are skipped.
const BUDGET: u64 = 3_000;

#[test]
fn dpor_finds_the_end_states_of_every_schedule_on_random_programs() {
    let mut compared = 0;
    let mut skipped = 0;
    let mut mismatches = Vec::new();
    let (mut plain_runs, mut dpor_runs) = (0u64, 0u64);
    let mut seed = 0u64;
    while compared < PROGRAMS {
        let program = generate(seed);
        // One program in four lets timeouts fire at any point.
        let timeouts = if seed % 4 == 3 {
            TimeoutPolicy::Always
        } else {
            TimeoutPolicy::WhenStuck
        };
        let cmp = compare(&program, timeouts, BUDGET);
        assert!(cmp.load_errors.is_empty(), "{}", cmp.report());
        seed += 1;
        if !cmp.complete() {
            assert_eq!(cmp.plain.cut_runs, 0, "{}", cmp.report());
            skipped += 1;
            continue;
        }
        compared += 1;
        plain_runs += cmp.plain.interleavings;
        dpor_runs += cmp.dpor.interleavings;
        if !cmp.agrees() {
            mismatches.push(cmp.report());
        }
    }
    eprintln!(
        "{compared} programs compared ({skipped} skipped over {BUDGET} schedules); \
         {plain_runs} schedules, {dpor_runs} DPOR runs; {} mismatches",
        mismatches.len()
    );
    assert!(
        skipped * 10 <= compared,
        "{skipped} of {} programs too large to compare",
        compared + skipped
    );
    assert!(
        mismatches.is_empty(),
        "{} of {compared} programs differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
