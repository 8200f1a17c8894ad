//! VM speed, side by side with the real `erl` when installed.
//!
//! Prints: run time of the bench programs (tests/diff/bench: naive fib(27), a
//! lists map/filter/foldl pipeline over 1,000,000 elements, 100,000 ping-pong
//! round trips) here and under erl (`timer:tc`, excluding VM start-up; the
//! two take turns over `VM_BENCH_ROUNDS` rounds, default 6, and each keeps
//! its best time), scheduler steps per second on ping-pong, the cost of cloning a VM with 10
//! processes and a 10,000-entry ETS table, and fork-by-clone vs replay.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use racewit_vm::run::{RunConfig, run_entry};
use racewit_vm::{ProcStatus, Vm, VmConfig};

fn bench_dir() -> PathBuf {
    crate::measure::root().join("tests/diff/bench")
}

fn load(path: &Path) -> Arc<racewit_syntax::ir::Program> {
    let text = std::fs::read_to_string(path).expect("bench program");
    Arc::new(racewit_syntax::load_source(
        &path.display().to_string(),
        &text,
    ))
}

/// Microseconds of `M:main()` under erl, measured inside erl with timer:tc (best of 3
/// in one erl).
fn erl_time(dir: &Path, module: &str) -> Option<f64> {
    let out_dir = std::env::temp_dir().join("racewit_vm_bench");
    std::fs::create_dir_all(&out_dir).ok()?;
    let src = dir.join(format!("{module}.erl"));
    let ok = Command::new("erlc")
        .arg("-o")
        .arg(&out_dir)
        .arg(&src)
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
    String::from_utf8_lossy(&out.stderr)
        .trim()
        .lines()
        .last()?
        .parse()
        .ok()
}

pub fn run() {
    println!("\n== VM: bench programs (tests/diff/bench) beside erl");
    let dir = bench_dir();
    // The libraries `racewit run` loads: OTP's own modules from source.
    let config = RunConfig {
        max_reductions: u64::MAX,
        libraries: racewit_otp::installed(),
        ..RunConfig::default()
    };
    println!(
        "{:<16} {:>12} {:>12} {:>8}",
        "program", "racewit ms", "erl ms", "ratio"
    );
    let only = std::env::var("VM_BENCH_ONLY").ok();
    // VM_BENCH_FILE=path/to/m.erl times `m:main()` of any file instead.
    let extra = std::env::var_os("VM_BENCH_FILE").map(PathBuf::from);
    let files: Vec<PathBuf> = match &extra {
        Some(f) => vec![f.clone()],
        None => ["bench_fib", "bench_lists", "bench_pingpong"]
            .iter()
            .map(|n| dir.join(format!("{n}.erl")))
            .collect(),
    };
    for path in &files {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("main");
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let dir = path.parent().unwrap_or(&dir);
        let program = load(path);
        // Warm up the prelude and OTP library parse caches.
        let _ = Vm::new(program.clone(), VmConfig::default());
        // The machine is noisy (slow spells last longer than one run), so
        // racewit and erl take turns over several rounds and each keeps its
        // best time.
        let rounds: usize = std::env::var("VM_BENCH_ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(6);
        let mut best = f64::MAX;
        let mut steps = 0;
        let mut erl: Option<f64> = None;
        let with_erl = std::env::var_os("VM_BENCH_NO_ERL").is_none();
        for _ in 0..rounds.max(1) {
            for _ in 0..3 {
                let t = Instant::now();
                let out = run_entry(program.clone(), name, "main", &config);
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                if ms < best {
                    best = ms;
                    steps = out.steps;
                }
            }
            if with_erl && let Some(ms) = erl_time(dir, name).map(|us| us / 1000.0) {
                erl = Some(erl.map_or(ms, |e: f64| e.min(ms)));
            }
        }
        let (erl_s, ratio) = match erl {
            Some(e) => (format!("{e:.1}"), format!("{:.1}x", best / e)),
            None => ("-".into(), "-".into()),
        };
        println!("{name:<16} {best:>12.1} {erl_s:>12} {ratio:>8}");
        if name == "bench_pingpong" {
            println!(
                "  ping-pong: {steps} scheduler steps, {:.0} steps/s",
                steps as f64 / (best / 1000.0)
            );
        }
    }
    if only.is_none() && extra.is_none() {
        clone_bench();
    }
}

const CLONE_SRC: &str = r#"-module(clone_bench).
-export([main/0, idle/0]).
idle() -> receive stop -> ok end.
main() ->
    [spawn(?MODULE, idle, []) || _ <- lists:seq(1, 9)],
    T = ets:new(big, [named_table, public, set]),
    fill(T, 1),
    receive stop -> ok end.
fill(_, 10001) -> ok;
fill(T, N) -> ets:insert(T, {N, N * N}), fill(T, N + 1).
"#;

fn clone_bench() {
    let program = Arc::new(racewit_syntax::load_source("clone_bench.erl", CLONE_SRC));
    let mut vm = Vm::new(program.clone(), VmConfig::default());
    let main = vm.spawn_entry("clone_bench", "main", Vec::new());
    let mut schedule = Vec::new();
    loop {
        let enabled = vm.enabled();
        let Some(&p) = enabled.first() else { break };
        if vm.step(p).is_err() {
            break;
        }
        schedule.push(p);
    }
    let procs = vm.processes().len();
    let n = 100_000;
    let t = Instant::now();
    let mut keep = 0usize;
    for _ in 0..n {
        let c = vm.clone();
        keep += c.processes().len();
    }
    let clone_us = t.elapsed().as_secs_f64() * 1e6 / n as f64;
    println!(
        "clone: {procs} processes, ETS table of 10,000 entries: {clone_us:.3} us per clone ({keep} checked)"
    );
    // Fork vs replay: reaching the same state from scratch by replaying the schedule.
    let t = Instant::now();
    let reps = 5;
    for _ in 0..reps {
        let mut r = Vm::new(program.clone(), VmConfig::default());
        r.spawn_entry("clone_bench", "main", Vec::new());
        for &p in &schedule {
            let _ = r.step(p);
        }
    }
    let replay_us = t.elapsed().as_secs_f64() * 1e6 / reps as f64;
    println!(
        "fork vs replay: clone {clone_us:.3} us, replay of {} steps {replay_us:.0} us -> keep cloning",
        schedule.len()
    );
    let _ = matches!(vm.process_status(main), ProcStatus::Blocked);
}
