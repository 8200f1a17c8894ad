//! Resource limits of a run: each runaway program ends with its own named
//! outcome (a [`VmError`] naming the process and where it was), never with
//! an allocation failure of the test process. Budgets are small so each
//! case is quick.

use std::sync::Arc;

use racewit_vm::run::{RunConfig, RunResult, run_entry};
use racewit_vm::{Pid, Vm, VmConfig, VmError};

/// Words of memory the cases run with (8 MiB).
const BUDGET: u64 = 1 << 20;

fn config() -> VmConfig {
    VmConfig {
        max_memory_words: BUDGET,
        max_reductions: 50_000_000,
        ..VmConfig::default()
    }
}

/// Run `lim:main()` of `src` under round robin until no process can run or
/// the VM stops; the error, if any.
fn run(src: &str, config: VmConfig) -> Result<Vm, VmError> {
    let program = racewit_syntax::load_source("lim.erl", src);
    let mut vm = Vm::new(Arc::new(program), config);
    vm.spawn_entry("lim", "main", Vec::new());
    for _ in 0..10_000_000 {
        let enabled: Vec<Pid> = vm.enabled();
        let Some(&p) = enabled.first() else {
            return Ok(vm);
        };
        vm.step(p)?;
    }
    panic!("the program did not end");
}

/// The run ends with this outcome, whose text starts with `prefix`.
fn ends_with(src: &str, config: VmConfig, prefix: &str) -> VmError {
    match run(src, config) {
        Ok(_) => panic!("the run ended without reaching a limit"),
        Err(e) => {
            let text = e.to_string();
            assert!(text.starts_with(prefix), "{text}");
            e
        }
    }
}

fn out_of_memory(src: &str, line: u32) {
    let e = ends_with(
        src,
        config(),
        &format!("memory budget exceeded in P1 at lim.erl:{line}"),
    );
    let VmError::MemoryExhausted { live, budget, .. } = e else {
        panic!("{e:?}");
    };
    assert_eq!(budget, BUDGET);
    assert!(live > budget);
}

#[test]
fn duplicate_of_a_huge_count() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() ->\n    lists:duplicate(1 bsl 32, x).\n",
        3,
    );
}

#[test]
fn seq_over_a_huge_range() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() ->\n    length(lists:seq(1, 1 bsl 40)).\n",
        3,
    );
}

#[test]
fn binary_copy_of_a_huge_count() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() ->\n    binary:copy(<<\"ab\">>, 1 bsl 33).\n",
        3,
    );
}

#[test]
fn binary_of_a_huge_size() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() ->\n    N = 1 bsl 40,\n    <<0:N>>.\n",
        3,
    );
}

#[test]
fn binary_doubling() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() -> grow(<<\"x\">>).\ngrow(B) -> grow(<<B/binary, B/binary>>).\n",
        4,
    );
}

#[test]
fn list_doubling() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() -> grow([x]).\ngrow(L) -> grow(L ++ L).\n",
        4,
    );
}

#[test]
fn deep_recursion() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() -> down(0).\ndown(N) -> [N | down(N + 1)].\n",
        4,
    );
}

#[test]
fn a_list_of_a_billion_elements() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() ->\n    L = lists:seq(1, 1000),\n    length([{A, B, C} || A <- L, B <- L, C <- L]).\n",
        3,
    );
}

#[test]
fn an_accumulated_list() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() -> acc(0, []).\nacc(N, L) -> acc(N + 1, [N | L]).\n",
        4,
    );
}

#[test]
fn a_message_flood() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() ->\n    P = spawn(fun() -> receive never -> ok end end),\n    flood(P).\nflood(P) -> P ! {a, message}, flood(P).\n",
        6,
    );
}

#[test]
fn a_big_ets_table() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() -> fill(ets:new(t, []), 0).\nfill(T, N) -> ets:insert(T, {N, N}), fill(T, N + 1).\n",
        4,
    );
}

#[test]
fn a_big_process_dictionary() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() -> fill(0).\nfill(N) -> put(N, N), fill(N + 1).\n",
        4,
    );
}

/// A term that shares its parts: 2^40 leaves held in 40 tuples.
const DAG: &str = "dag(0) -> [1, 2, 3];\ndag(N) -> D = dag(N - 1), [D, D].\n";

#[test]
fn flattening_a_shared_term() {
    out_of_memory(
        &format!(
            "-module(lim).\n-export([main/0]).\nmain() ->\n    lists:flatten(dag(40)).\n{DAG}"
        ),
        3,
    );
}

#[test]
fn encoding_a_shared_term() {
    out_of_memory(
        &format!(
            "-module(lim).\n-export([main/0]).\nmain() ->\n    term_to_binary(dag(40)).\n{DAG}"
        ),
        3,
    );
}

#[test]
fn an_iolist_of_a_shared_term() {
    out_of_memory(
        &format!(
            "-module(lim).\n-export([main/0]).\nmain() ->\n    iolist_to_binary(dag(40)).\n{DAG}"
        ),
        3,
    );
}

#[test]
fn printing_a_shared_term() {
    out_of_memory(
        &format!(
            "-module(lim).\n-export([main/0]).\nmain() ->\n    io_lib:format(\"~w\", [dag(40)]).\n{DAG}"
        ),
        3,
    );
}

#[test]
fn a_huge_field_width() {
    out_of_memory(
        "-module(lim).\n-export([main/0]).\nmain() ->\n    io_lib:format(\"~*c\", [1 bsl 40, $x]).\n",
        3,
    );
}

#[test]
fn sending_a_shared_term_stays_small() {
    // The step's text is cut (a hash names the rest): the send succeeds.
    let src = format!(
        "-module(lim).\n-export([main/0]).\nmain() ->\n    self() ! dag(40),\n    receive M -> length(M) end.\n{DAG}"
    );
    let vm = run(&src, config()).expect("runs");
    let main = vm.processes()[0];
    assert_eq!(
        vm.process_result(main).map(|t| vm.write_term(&t)),
        Some("2".into())
    );
}

#[test]
fn garbage_never_counts() {
    // Fifty times the budget allocated, little of it live at once.
    let src = "-module(lim).\n-export([main/0]).\nmain() -> loop(200, 0).\nloop(0, Acc) -> Acc;\nloop(N, Acc) -> L = lists:seq(1, 40000), loop(N - 1, Acc + length(L)).\n";
    let vm = run(src, config()).expect("stays within its budget");
    let main = vm.processes()[0];
    assert_eq!(
        vm.process_result(main).map(|t| vm.write_term(&t)),
        Some("8000000".into())
    );
}

#[test]
fn atoms_made_in_a_loop() {
    let config = VmConfig {
        max_atoms: 1000,
        ..config()
    };
    let e = ends_with(
        "-module(lim).\n-export([main/0]).\nmain() -> make(0).\nmake(N) ->\n    list_to_atom(\"a\" ++ integer_to_list(N)),\n    make(N + 1).\n",
        config,
        "atom limit reached in P1 at lim.erl:5 (1000 atoms made from text)",
    );
    assert!(matches!(e, VmError::TooManyAtoms { limit: 1000, .. }));
}

#[test]
fn the_same_atom_made_again_is_not_new() {
    let config = VmConfig {
        max_atoms: 10,
        ..config()
    };
    let src = "-module(lim).\n-export([main/0]).\nmain() -> make(100000).\nmake(0) -> ok;\nmake(N) -> binary_to_atom(<<\"same\">>), make(N - 1).\n";
    run(src, config).expect("one atom made, many times");
}

#[test]
fn a_spawn_bomb() {
    let config = VmConfig {
        max_processes: 1000,
        ..config()
    };
    let e = ends_with(
        "-module(lim).\n-export([main/0, bomb/0]).\nmain() -> bomb().\nbomb() ->\n    spawn(lim, bomb, []),\n    spawn(lim, bomb, []).\n",
        config,
        "process limit reached in P1.",
    );
    let VmError::TooManyProcesses {
        limit, location, ..
    } = e
    else {
        panic!("{e:?}");
    };
    assert_eq!(limit, 1000);
    assert!(
        location == "lim.erl:5" || location == "lim.erl:6",
        "{location}"
    );
}

#[test]
fn a_chain_of_spawns_has_short_names_to_hold() {
    // Each process spawns the next: names grow with the chain, but are
    // only spelled out when asked for.
    let src = "-module(lim).\n-export([main/0, link/1]).\nmain() -> link(5000).\nlink(0) -> ok;\nlink(N) -> spawn(lim, link, [N - 1]), ok.\n";
    let vm = run(src, config()).expect("runs");
    let last = *vm.processes().last().expect("processes");
    assert_eq!(vm.process_name(last).len(), 2 + 2 * 5000);
}

#[test]
fn run_entry_names_the_limit() {
    let src = "-module(lim).\n-export([main/0]).\nmain() ->\n    lists:duplicate(1 bsl 32, x).\n";
    let program = racewit_syntax::load_source("lim.erl", src);
    let out = run_entry(
        Arc::new(program),
        "lim",
        "main",
        &RunConfig {
            max_memory_words: BUDGET,
            ..RunConfig::default()
        },
    );
    assert_eq!(out.result, RunResult::BudgetExhausted);
    let stopped = out.stopped.expect("a limit");
    assert!(
        stopped.starts_with("memory budget exceeded in P1 at lim.erl:3"),
        "{stopped}"
    );
    assert!(out.stdout.ends_with(&format!("racewit: {stopped}\n")));
}
