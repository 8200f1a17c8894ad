//! Spawning and the limits of a run: 40,000 spawns under `racewit run`
//! beside erl, and how soon each runaway program ends with its named
//! outcome (a spawn bomb, memory exhausted in several ways, a bignum
//! squared until the BEAM's limit).
//!
//! Prints one line per program: racewit's wall time (best of
//! `LIMITS_BENCH_ROUNDS`, default 3), erl's where meaningful (`timer:tc`,
//! excluding VM start-up), and how the run ended.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use racewit_vm::run::{RunConfig, RunOutcome, run_entry};

/// Programs that never end on their own; each must stop at a limit.
const RUNAWAY: &[(&str, &str)] = &[
    (
        "spawn_bomb",
        "-module(spawn_bomb).\n-export([main/0, bomb/0]).\nmain() -> bomb().\nbomb() ->\n    spawn(?MODULE, bomb, []),\n    spawn(?MODULE, bomb, []),\n    receive never -> ok end.\n",
    ),
    (
        "duplicate_huge",
        "-module(duplicate_huge).\n-export([main/0]).\nmain() -> lists:duplicate(1 bsl 32, x).\n",
    ),
    (
        "accumulate",
        "-module(accumulate).\n-export([main/0]).\nmain() -> acc(0, []).\nacc(N, L) -> acc(N + 1, [N | L]).\n",
    ),
    (
        "deep_recursion",
        "-module(deep_recursion).\n-export([main/0]).\nmain() -> down(0).\ndown(N) -> [N | down(N + 1)].\n",
    ),
    (
        "message_flood",
        "-module(message_flood).\n-export([main/0]).\nmain() ->\n    P = spawn(fun() -> receive never -> ok end end),\n    flood(P).\nflood(P) -> P ! {a, message}, flood(P).\n",
    ),
    (
        "binary_doubling",
        "-module(binary_doubling).\n-export([main/0]).\nmain() -> grow(<<\"x\">>).\ngrow(B) -> grow(<<B/binary, B/binary>>).\n",
    ),
    (
        "bignum_squaring",
        "-module(bignum_squaring).\n-export([main/0]).\nmain() -> sq(3).\nsq(X) -> sq(X * X).\n",
    ),
    (
        "atoms_in_a_loop",
        "-module(atoms_in_a_loop).\n-export([main/0]).\nmain() -> make(0).\nmake(N) -> list_to_atom(integer_to_list(N)), make(N + 1).\n",
    ),
];

fn rounds() -> usize {
    std::env::var("LIMITS_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
}

/// Best wall time of `rounds` runs of `module:main()`, and the last outcome.
fn time_racewit(program: &Arc<racewit_syntax::ir::Program>, module: &str) -> (f64, RunOutcome) {
    let config = RunConfig::default();
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..rounds().max(1) {
        let t = Instant::now();
        let out = run_entry(program.clone(), module, "main", &config);
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(out);
    }
    (best, last.expect("at least one round"))
}

/// Seconds of `module:main()` under erl (`timer:tc`, best of 3).
fn time_erl(src: &Path, module: &str) -> Option<f64> {
    let out_dir = std::env::temp_dir().join("racewit_limits_bench");
    std::fs::create_dir_all(&out_dir).ok()?;
    let ok = Command::new("erlc")
        .arg("-o")
        .arg(&out_dir)
        .arg(src)
        .status()
        .ok()?
        .success();
    if !ok {
        return None;
    }
    let eval = format!(
        "T = lists:min([element(1, timer:tc({module}, main, [])) || _ <- [1,2,3]]), io:format(standard_error, \"~p~n\", [T])"
    );
    let out = Command::new("erl")
        .args(["-noshell", "-pa"])
        .arg(&out_dir)
        .args(["-eval", &eval, "-s", "init", "stop"])
        .output()
        .ok()?;
    let us: f64 = String::from_utf8_lossy(&out.stderr)
        .trim()
        .lines()
        .last()?
        .parse()
        .ok()?;
    Some(us / 1e6)
}

/// How a run ended, in a few words.
fn ending(out: &RunOutcome) -> String {
    match &out.stopped {
        Some(why) => why.clone(),
        None => out.stdout.lines().last().unwrap_or("").to_string(),
    }
}

pub fn run() {
    println!("\n== Spawning and the limits of a run");
    println!(
        "{:<18} {:>12} {:>12}  ending",
        "program", "racewit s", "erl s"
    );
    // Warm up the OTP library parse and compile caches.
    let warm = Arc::new(racewit_syntax::load_source(
        "warm.erl",
        "-module(warm).\n-export([main/0]).\nmain() -> ok.\n",
    ));
    let _ = run_entry(warm, "warm", "main", &RunConfig::default());

    let path = crate::measure::root().join("tests/diff/bench/bench_spawn.erl");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let program = Arc::new(racewit_syntax::load_source(
                &path.display().to_string(),
                &text,
            ));
            let (secs, out) = time_racewit(&program, "bench_spawn");
            let erl = if crate::measure::have("erl") {
                time_erl(&path, "bench_spawn")
            } else {
                None
            };
            let erl = erl.map_or("-".to_string(), |e| format!("{e:.3}"));
            println!(
                "{:<18} {secs:>12.3} {erl:>12}  {} (40,000 spawns; goal <= 2 s)",
                "bench_spawn",
                ending(&out)
            );
        }
        Err(e) => println!("bench_spawn: cannot read {}: {e}", path.display()),
    }
    for (module, src) in RUNAWAY {
        let program = Arc::new(racewit_syntax::load_source(&format!("{module}.erl"), src));
        let (secs, out) = time_racewit(&program, module);
        let goal = if *module == "spawn_bomb" {
            " (goal <= 10 s)"
        } else {
            ""
        };
        println!(
            "{module:<18} {secs:>12.3} {:>12}  {}{goal}",
            "-",
            ending(&out)
        );
    }
}
