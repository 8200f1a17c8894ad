//! Print the suspects of some Erlang files as JSON:
//! `cargo run -p racewit-static --example static_dump FILE_OR_DIR...`
//! (wall time per pass on stderr; `racewit-bench static` also gives CPU time).

use std::path::PathBuf;

use racewit_static::{StaticOptions, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};

/// The allocator the `racewit` binary uses, so the timings are its timings.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    let paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let program = load_paths(&paths, &LoadOptions::default());
    let analysis = find_suspects(&program, &StaticOptions::default());
    let phases: Vec<String> = analysis
        .timings
        .iter()
        .map(|(p, ms)| format!("{p} {ms} ms"))
        .collect();
    eprintln!("phases: {}", phases.join(", "));
    match serde_json::to_string_pretty(&analysis) {
        Ok(s) => println!("{s}"),
        Err(e) => eprintln!("cannot serialize: {e}"),
    }
}
