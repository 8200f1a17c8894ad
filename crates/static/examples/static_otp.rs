//! Bench: the static pass over the OTP lib tree.
//!
//! `cargo run --release -p racewit-static --example static_otp [DIR]`
//! (DIR defaults to /usr/lib/erlang/lib): loads every `*/src/*.erl`, runs
//! `find_suspects`, and prints load time, analysis time, peak RSS, suspects
//! per application and per category, and whether common_test's
//! `ct_master` whereis/register race is among them.

use std::path::PathBuf;
use std::time::Instant;

use racewit_static::{StaticOptions, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "/usr/lib/erlang/lib".to_string()),
    );
    let mut srcs = Vec::new();
    let mut includes = Vec::new();
    let mut apps: Vec<PathBuf> = match std::fs::read_dir(&root) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            eprintln!("cannot read {}: {e}", root.display());
            std::process::exit(1);
        }
    };
    apps.sort();
    for app in &apps {
        let src = app.join("src");
        if src.is_dir() {
            srcs.push(src.clone());
            includes.push(src);
        }
        let inc = app.join("include");
        if inc.is_dir() {
            includes.push(inc);
        }
    }
    let opts = LoadOptions {
        include_dirs: includes,
        lib_dirs: vec![root.clone()],
        defines: Vec::new(),
    };
    let t0 = Instant::now();
    let program = load_paths(&srcs, &opts);
    let load = t0.elapsed();
    eprintln!(
        "loaded {} modules in {:.2}s, RSS so far {} MiB",
        program.modules.len(),
        load.as_secs_f64(),
        peak_rss_kib().unwrap_or(0) / 1024
    );
    let t1 = Instant::now();
    let analysis = find_suspects(&program, &StaticOptions::default());
    let analyse = t1.elapsed();
    let s = &analysis.stats;
    for (phase, ms) in &analysis.timings {
        println!("  {phase}: {ms} ms");
    }
    println!(
        "modules: {}  functions: {}  funs: {}",
        s.modules, s.functions, s.funs
    );
    println!(
        "call graph: {} nodes, {} edges; dataflow rounds: {}",
        s.call_graph_nodes, s.call_graph_edges, s.dataflow_rounds
    );
    println!(
        "reads: {}  writes: {}  truncated searches: {}  filtered pairs: {}",
        s.reads, s.writes, s.truncated_searches, s.filtered
    );
    println!(
        "load: {:.2}s  analysis: {:.2}s",
        load.as_secs_f64(),
        analyse.as_secs_f64()
    );
    match peak_rss_kib() {
        Some(k) => println!("peak RSS: {} MiB", k / 1024),
        None => println!("peak RSS: unknown"),
    }
    println!("suspects: {}", s.suspects);
    for (cat, n) in &s.per_category {
        println!("  {cat}: {n}");
    }
    println!("per application:");
    for (app, cats) in &s.per_application {
        let parts: Vec<String> = cats.iter().map(|(c, n)| format!("{c}={n}")).collect();
        println!("  {app}: {}", parts.join(" "));
    }
    if let Ok(n) = std::env::var("STATIC_OTP_SHOW") {
        let n: usize = n.parse().unwrap_or(10);
        let step = (analysis.suspects.len() / n.max(1)).max(1);
        for x in analysis.suspects.iter().step_by(step).take(n) {
            println!(
                "{} {} -> {}:{} [{}] {}",
                x.id,
                x.read.function,
                x.write.function,
                x.write.line,
                x.resource.display,
                x.message
            );
        }
    }
    let ct = analysis.suspects.iter().find(|x| {
        x.read.module == "ct_master"
            && x.read.call == "erlang:whereis/1"
            && x.write.call == "erlang:register/2"
            && x.write.module == "ct_master"
            && x.read.function.starts_with("ct_master:init_master/")
    });
    match ct {
        Some(x) => println!("ct_master race: FOUND {} ({})", x.id, x.message),
        None => println!("ct_master race: NOT FOUND"),
    }
}
