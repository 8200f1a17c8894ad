//! Source-DPOR against plain exhaustive search on random programs, run by
//! the VM: on every program both find the same end states (what each
//! process returned or why it ended, blocked processes, registered names,
//! tables). The programs come from `search::random_program` with fixed
//! seeds; a mismatch prints the program and both sets of end states.

use racewit_confirm::search::random_program::{RandomProgram, generate};
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
        mismatches.is_empty(),
        "{} of {compared} programs differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(
        skipped * 5 <= compared,
        "{skipped} of {} programs too large to compare",
        compared + skipped
    );
}

/// The programs (in `tests/programs/regress/`) that showed each cause of a
/// mismatch the random programs found, with end states DPOR missed before
/// the cause was fixed: DPOR and plain search now agree, and find them.
#[test]
fn dpor_finds_what_it_once_missed() {
    let cases: [(&str, &[&str]); 6] = [
        (
            "unregister_other",
            &[
                "P1 returned {P1.1,unregistered}\n",
                "P1 returned {P1.1,true}\n",
                "P1 returned {undefined,unregistered}\n",
            ],
        ),
        (
            "register_held",
            &["P1 returned {true,true}\n", "P1 returned {true,badarg}\n"],
        ),
        ("after0_send", &["P1 returned a\n", "P1 returned none\n"]),
        // With the timer started (and dropped at the exit, or fired), and
        // without: the destination was gone.
        (
            "timer_to_exiting",
            &["P1.t1 exited normal\n", "P1.1 returned ok\n"],
        ),
        (
            "monitor_exit",
            &[
                "P1.1 returned {down,normal}\n",
                "P1.1 returned {down,noproc}\n",
                "P1.1 returned nodown\n",
            ],
        ),
        (
            "trap_then_receive",
            &[
                "P1.1 returned {exit,boom}\n",
                "P1.1 exited boom\n",
                "P1.1 returned none\n",
            ],
        ),
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/regress");
    let mut failures = Vec::new();
    for (module, must) in cases {
        let source = std::fs::read_to_string(dir.join(format!("{module}.erl"))).expect("read");
        let program = RandomProgram {
            seed: 0,
            module: module.to_string(),
            source,
            processes: 0,
        };
        let cmp = compare(&program, TimeoutPolicy::WhenStuck, BUDGET);
        let mut missing: Vec<&str> = must
            .iter()
            .copied()
            .filter(|m| !cmp.dpor.states.iter().any(|s| s.contains(m)))
            .collect();
        // The timer's other outcome: it never started, the destination
        // was gone.
        if module == "timer_to_exiting" && cmp.dpor.states.iter().all(|s| s.contains("P1.t1")) {
            missing.push("(no timer)");
        }
        if !cmp.agrees() || !missing.is_empty() {
            failures.push(format!("{module}: missing {missing:?}\n{}", cmp.report()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
