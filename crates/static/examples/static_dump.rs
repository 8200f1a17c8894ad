//! Print the suspects of some Erlang files as JSON:
//! `cargo run -p racewit-static --example static_dump FILE_OR_DIR...`
//! (wall time per pass and CPU time on stderr).

use std::path::PathBuf;

use racewit_static::{StaticOptions, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};

/// The allocator the `racewit` binary uses, so the timings are its timings.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// CPU time (user + system, all threads) used so far, in seconds.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn main() {
    let paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let program = load_paths(&paths, &LoadOptions::default());
    let cpu0 = cpu_seconds();
    let analysis = find_suspects(&program, &StaticOptions::default());
    let cpu = cpu_seconds() - cpu0;
    let phases: Vec<String> = analysis
        .timings
        .iter()
        .map(|(p, ms)| format!("{p} {ms} ms"))
        .collect();
    eprintln!("phases: {}; CPU {cpu:.2} s", phases.join(", "));
    match serde_json::to_string_pretty(&analysis) {
        Ok(s) => println!("{s}"),
        Err(e) => eprintln!("cannot serialize: {e}"),
    }
}
