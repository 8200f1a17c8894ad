//! `cargo run --release -p racewit-bench`: the pipeline's figures, measured
//! side by side in one run with the reference tools when they are installed
//! (the real `epp` and `erl`, Concuerror built outside the project). What is
//! not installed is skipped and said so.
//!
//! Sections (pick with arguments: `frontend`, `static`, `vm`, `limits`, `confirm`, `dpor`, `check`; default all;
//! `witness` runs only the time-to-first-witness part of `confirm`, `wide`
//! only the 1,000-process part of `dpor`, and a family's entry such as `li5`
//! or `wr4` explores that entry alone, without Concuerror):
//! - front end over the OTP tree vs. an `epp:parse_file` loop;
//! - static pass over the OTP tree (time, peak memory, suspects);
//! - VM: fib, lists and ping-pong programs beside `erl`, fork (clone) cost;
//! - limits: 40,000 spawns beside `erl`, and how soon runaway programs (a
//!   spawn bomb, memory exhausted, a bignum squared) end with a named outcome;
//! - confirmation: full exploration of `programs/ets_race.erl` vs. Concuerror,
//!   and time to first witness for every corpus race;
//! - DPOR: the lookup/insert and whereis/register families (N = 3..6)
//!   explored in full beside Concuerror, and the first interleaving of
//!   1,000 processes;
//! - check: `racewit check` on the whole OTP tree under a 4 GB limit, its
//!   phases, and peak memory for every suspect, about 100 and about 10.
//!
//! `truth` is a command of its own (`racewit-bench truth --help`): it scores
//! racewit's reports against the labelled truth sets in `tests/data/truth/`.
//! `soundness` is another (`racewit-bench soundness [--programs N]`): DPOR
//! against plain exhaustive search on random programs run by the VM.

/// The allocator the `racewit` binary uses, so the figures are its figures.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod check;
mod confirm;
mod dpor;
mod frontend;
mod limits;
mod measure;
mod soundness;
mod static_pass;
mod truth;
mod vm;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "truth") {
        std::process::exit(truth::main(&args[1..]));
    }
    if args.first().is_some_and(|a| a == "soundness") {
        std::process::exit(soundness::main(&args[1..]));
    }
    let want = |s: &str| args.is_empty() || args.iter().any(|a| a == s);
    println!("racewit bench — {}", measure::machine());
    if want("frontend") {
        frontend::run();
    }
    if want("static") {
        static_pass::run();
    }
    if want("vm") {
        vm::run();
    }
    if want("limits") {
        limits::run();
    }
    if want("dpor") {
        dpor::run();
    } else if args.iter().any(|a| a == "wide") {
        dpor::run_wide();
    }
    for entry in args.iter().filter(|a| dpor::is_family_entry(a)) {
        dpor::run_entry(entry);
    }
    if want("check") {
        check::run();
    }
    if want("confirm") {
        confirm::run();
    } else if args.iter().any(|a| a == "witness") {
        confirm::run_witness();
    }
}
