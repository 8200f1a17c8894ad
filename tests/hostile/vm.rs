//! Code that `check` runs and that would take the machine: each module has
//! a whereis/register race in `start/0` after a call of `before/0`, the
//! hostile part, so the generated harness runs it from two processes. Each
//! ends with a named verdict (the BEAM's exception, or a run cut by a named
//! limit: memory budget, reductions, atoms, steps), located at the file and
//! line where it happened, never an abort of racewit.
//!
//! Searches are kept short (`--processes 2 --max-interleavings 2`): every
//! input here decides its verdict in the first runs.

use crate::common::{Racewit, race_module, write};

struct Outcome {
    /// `reason.kind` of the one warning.
    kind: &'static str,
    /// Text the reason (as JSON) holds.
    holds: &'static str,
}

/// Checks `module` (its `before/0` and helpers in `extra`) with `flags`,
/// within `secs` seconds; returns the warning's reason after asserting
/// it is unconfirmed with `expect`.
fn check_hostile(module: &str, extra: &str, flags: &[&str], secs: u64, expect: Outcome) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = format!("{module}.erl");
    write(
        dir.path(),
        &file,
        &race_module(module, &format!("{module}_srv"), extra),
    );
    let mut args = vec![
        "check",
        "--format",
        "json",
        "--processes",
        "2",
        "--max-interleavings",
        "2",
        &file,
    ];
    args.extend_from_slice(flags);
    let run = Racewit::new(dir.path(), &args).within(secs).run();
    assert_eq!(run.code, Some(0), "{module}: {}", run.stderr);
    let report = run.json();
    let w = &report["warnings"][0];
    assert_eq!(w["verdict"], "unconfirmed", "{module}: {w:#}");
    let reason = &w["reason"];
    assert_eq!(reason["kind"], expect.kind, "{module}: {reason:#}");
    let text = reason.to_string();
    assert!(
        text.contains(expect.holds),
        "{module}: the reason does not say {:?}: {text}",
        expect.holds
    );
}

#[test]
fn a_huge_tuple_is_badarg() {
    check_hostile(
        "huge_tuple",
        "before() -> erlang:make_tuple(1 bsl 40, 0).",
        &[],
        120,
        Outcome {
            kind: "harness_crashed",
            holds: "{badarg,[{huge_tuple,before,0,[]}",
        },
    );
}

#[test]
fn a_huge_duplicate_list_stops_at_the_memory_budget() {
    check_hostile(
        "huge_dup",
        "before() -> lists:duplicate(1 bsl 32, x).",
        &[],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "memory budget exceeded in P1.1 at huge_dup.erl:9",
        },
    );
}

#[test]
fn a_huge_binary_copy_stops_at_the_memory_budget() {
    check_hostile(
        "huge_copy",
        "before() -> binary:copy(<<\"ab\">>, 1 bsl 33).",
        &[],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "memory budget exceeded in P1.1 at huge_copy.erl:9",
        },
    );
}

#[test]
fn a_huge_sequence_stops_at_the_memory_budget() {
    check_hostile(
        "huge_seq",
        "before() -> lists:seq(1, 1 bsl 40).",
        &[],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "memory budget exceeded in P1.1 at huge_seq.erl:9",
        },
    );
}

#[test]
fn binary_doubling_stops_at_the_memory_budget() {
    check_hostile(
        "doubling",
        "before() -> dbl(<<\"x\">>).\ndbl(B) -> dbl(<<B/binary, B/binary>>).",
        &[],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "memory budget exceeded in P1.1 at doubling.erl:10",
        },
    );
}

/// Squaring a bignum until it is too large: `system_limit`, as on the BEAM
/// (integers of more than 524,287 64-bit digits).
#[test]
fn squaring_a_bignum_is_system_limit() {
    check_hostile(
        "squaring",
        "before() -> sq(3).\nsq(N) -> sq(N * N).",
        &[],
        180,
        Outcome {
            kind: "harness_crashed",
            holds: "system_limit",
        },
    );
}

/// Non-tail recursion without end: the run's reduction budget ends it
/// (the VM keeps its stack on the heap, never on Rust's).
#[test]
fn deep_recursion_ends_with_a_budget() {
    check_hostile(
        "deep",
        "before() -> rec(0).\nrec(N) -> 1 + rec(N + 1).",
        &[],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "reduction budget exhausted",
        },
    );
}

/// A process sending itself big messages (a fresh list of a million
/// elements each) without end: its mailbox reaches the memory budget.
#[test]
fn a_message_flood_stops_at_the_memory_budget() {
    check_hostile(
        "flood",
        "before() -> flood(self(), 0).\n\
         flood(P, N) -> P ! lists:duplicate(1000000, N), flood(P, N + 1).",
        &[],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "memory budget exceeded in P1.1 at flood.erl:10",
        },
    );
}

/// Many small messages: each send is a step, so the run is cut at the step
/// limit, and the search's own memory stays under `--max-memory`.
#[test]
fn a_flood_of_small_messages_is_cut() {
    check_hostile(
        "small_flood",
        "before() -> flood(self(), 0).\nflood(P, N) -> P ! {msg, N}, flood(P, N + 1).",
        &["--max-run-steps", "5000"],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "did not terminate within 5,000 steps",
        },
    );
}

#[test]
fn a_big_ets_table_stops_at_the_memory_budget() {
    check_hostile(
        "big_table",
        "before() -> T = ets:new(t, [public]), fill(T, 0).\n\
         fill(T, N) -> ets:insert(T, {N, lists:duplicate(1000000, N)}), fill(T, N + 1).",
        &[],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "memory budget exceeded in P1.1 at big_table.erl:10",
        },
    );
}

#[test]
fn making_atoms_without_end_stops_at_the_atom_limit() {
    check_hostile(
        "atoms",
        "before() -> atoms(0).\natoms(N) -> list_to_atom(integer_to_list(N)), atoms(N + 1).",
        &[],
        180,
        Outcome {
            kind: "runs_cut",
            holds: "atom limit reached in P1.1 at atoms.erl:10 (1000000 atoms made from text)",
        },
    );
}

/// A spawn bomb under `check`: each spawn is a step of the search, so the
/// run is cut at the step limit (kept low: the search's cost per step grows
/// with the number of processes).
#[test]
fn a_spawn_bomb_under_check_is_cut() {
    check_hostile(
        "bomb",
        "before() -> bomb(0).\nbomb(N) -> spawn(fun() -> receive _ -> ok end end), bomb(N + 1).",
        &["--max-run-steps", "1000"],
        120,
        Outcome {
            kind: "runs_cut",
            holds: "did not terminate within 1,000 steps",
        },
    );
}

/// A spawn bomb run whole (`racewit run`): the process limit ends it, named
/// with the place.
#[test]
fn a_spawn_bomb_run_whole_stops_at_the_process_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "bomb.erl",
        "-module(bomb).\n-export([go/0]).\ngo() -> bomb(0).\n\
         bomb(N) -> spawn(fun() -> receive _ -> ok end end), bomb(N + 1).\n",
    );
    let run = Racewit::new(dir.path(), &["run", "bomb:go/0", "bomb.erl"])
        .within(120)
        .run();
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.stdout, "racewit: process limit reached in P1 at bomb.erl:4 (100000 processes)\n",
        "{}",
        run.stderr
    );
}
