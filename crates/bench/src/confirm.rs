//! Confirmation and exploration speed, side by side with Concuerror.

use std::process::Command;
use std::sync::Arc;

use racewit_confirm::confirmation::{ConfirmOptions, confirm_all};
use racewit_confirm::explore::{Exploration, ExploreOptions, explore};
use racewit_confirm::search::{Reduction, StopReason};
use racewit_confirm::verdict::Status;
use racewit_confirm::witness::LoadRecord;
use racewit_static::{StaticOptions, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};

use crate::measure::{concuerror, root, timed};

fn program() -> Arc<racewit_syntax::ir::Program> {
    let path = root().join("crates/bench/programs/ets_race.erl");
    Arc::new(load_paths(&[path], &LoadOptions::default()))
}

/// Interleavings one exploration may complete before it stops (so the
/// bench ends on this machine; the figure says whether it was reached).
const BUDGET: u64 = 100_000;

fn explore_opts(bound: u32, all: bool, reduction: Reduction) -> ExploreOptions {
    ExploreOptions {
        confirm: ConfirmOptions {
            max_preemptions: bound,
            max_interleavings: BUDGET,
            reduction,
            ..ConfirmOptions::default()
        },
        all,
    }
}

/// Wall-clock limit of one Concuerror run.
const CONCUERROR_SECONDS: u64 = 180;

/// (seconds, summary line) of one Concuerror run.
fn concuerror_run(entry: &str, keep_going: bool) -> Option<(f64, String)> {
    concuerror_capped(entry, keep_going, None)
}

/// [`concuerror_run`], stopping after `cap` interleavings (`-i`).
fn concuerror_capped(entry: &str, keep_going: bool, cap: Option<u64>) -> Option<(f64, String)> {
    let cq = concuerror()?;
    let file = root().join("crates/bench/programs/ets_race.erl");
    let dir = std::env::temp_dir().join("racewit_bench_cq");
    std::fs::create_dir_all(&dir).ok()?;
    // Bounded in time so the bench ends; a run cut short says so.
    let mut cmd = Command::new("timeout");
    cmd.arg(CONCUERROR_SECONDS.to_string()).arg(cq);
    cmd.current_dir(&dir).arg("-f").arg(&file).args([
        "-m",
        "ets_race",
        "-t",
        entry,
        "--output",
        "/dev/null",
    ]);
    if keep_going {
        cmd.arg("-k");
    }
    if let Some(cap) = cap {
        cmd.arg("-i").arg(cap.to_string());
    }
    let (secs, out) = timed(|| cmd.output());
    let out = out.ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let summary = text
        .lines()
        .find(|l| l.contains("interleavings explored"))
        .unwrap_or("(no summary: stopped by the time limit)")
        .trim()
        .to_string();
    Some((secs, summary))
}

fn interleavings_in(summary: &str) -> Option<f64> {
    // "Summary: 1 errors, 8401/8401 interleavings explored"
    let part = summary.split(',').nth(1)?;
    part.trim().split('/').next()?.trim().parse().ok()
}

fn stop_text(stop: &StopReason) -> String {
    match stop {
        StopReason::ExhaustedAll => "every interleaving explored".to_string(),
        StopReason::Exhausted => "space within the bound exhausted".to_string(),
        StopReason::Found => "stopped at the first failure".to_string(),
        StopReason::InterleavingBudget { limit } => {
            format!("stopped at the budget of {limit} (not exhausted)")
        }
        StopReason::Cancelled { why } => format!("stopped from outside: {why:?}"),
    }
}

/// One full exploration by racewit: (seconds, exploration).
fn racewit_full(entry: &str, bound: u32, reduction: Reduction) -> (f64, Exploration) {
    let p = program();
    let record = LoadRecord::default();
    timed(|| {
        explore(
            &p,
            "ets_race",
            entry,
            &record,
            &explore_opts(bound, true, reduction),
        )
    })
}

pub fn run() {
    println!(
        "\n== confirmation: crates/bench/programs/ets_race.erl (N processes: ets:lookup then ets:insert of one counter)"
    );
    // The reduction, measured against plain bounded DFS on the same programs.
    println!("reduction (completed runs + sleep-set-blocked runs, wall):");
    for (entry, n) in [("test2", 2), ("test3", 3)] {
        for bound in [2, u32::MAX] {
            let mut cells = Vec::new();
            for reduction in [Reduction::None, Reduction::SleepSets, Reduction::Dpor] {
                let (secs, e) = racewit_full(entry, bound, reduction);
                cells.push(format!(
                    "{:?} {} + {} ({:.3} s, {})",
                    reduction,
                    e.stats.interleavings,
                    e.stats.sleep_blocked,
                    secs,
                    stop_text(&e.stop)
                ));
            }
            let b = if bound == u32::MAX {
                "no bound".to_string()
            } else {
                format!("bound {bound}")
            };
            println!("  N={n}, {b}: {}", cells.join("; "));
        }
    }
    let (first_s, first) = racewit_full("test2", 2, Reduction::Dpor);
    let _ = first;
    let p = program();
    let (first_s2, first2) = timed(|| {
        explore(
            &p,
            "ets_race",
            "test2",
            &LoadRecord::default(),
            &explore_opts(2, false, Reduction::Dpor),
        )
    });
    println!(
        "first failure, 2 processes: {:.1} ms after {} interleavings (full space: {:.1} ms)",
        first_s2 * 1000.0,
        first2.stats.interleavings,
        first_s * 1000.0
    );
    // The same full explorations, side by side with Concuerror.
    for (entry, n) in [("test3", 3), ("test", 5)] {
        let (secs, full) = racewit_full(entry, u32::MAX, Reduction::Dpor);
        let rate = full.stats.interleavings as f64 / secs;
        println!(
            "N={n}, racewit (source-DPOR, no bound): {} interleavings ({} sleep-set blocked), {} with a failure, {secs:.2} s, {rate:.0} interleavings/s, {}",
            full.stats.interleavings,
            full.stats.sleep_blocked,
            full.stats.findings,
            stop_text(&full.stop)
        );
        match concuerror_run(entry, true) {
            Some((cq_s, summary)) => {
                println!("N={n}, Concuerror -k (optimal DPOR): {summary}; {cq_s:.2} s wall");
                if let Some(cq_n) = interleavings_in(&summary) {
                    let cq_rate = cq_n / cq_s;
                    println!(
                        "  same full exploration end to end: racewit {:.1}x faster; rate {rate:.0} vs {cq_rate:.0} interleavings/s ({:.1}x); racewit explores {:.2}x as many interleavings",
                        cq_s / secs,
                        rate / cq_rate.max(1e-9),
                        full.stats.interleavings as f64 / cq_n
                    );
                } else {
                    println!(
                        "  same full exploration end to end: racewit at least {:.0}x faster (Concuerror did not finish in {CONCUERROR_SECONDS} s)",
                        cq_s / secs
                    );
                    // Its rate on the same program, from a run capped at a
                    // number of interleavings it can finish.
                    if let Some((cap_s, cap_summary)) = concuerror_capped(entry, true, Some(2000))
                        && let Some(cq_n) = interleavings_in(&cap_summary)
                    {
                        let cq_rate = cq_n / cap_s;
                        println!(
                            "N={n}, Concuerror -k -i 2000: {cap_summary}; {cap_s:.2} s wall, {cq_rate:.0} interleavings/s (start-up included); racewit's rate is {:.1}x",
                            rate / cq_rate.max(1e-9)
                        );
                    }
                }
            }
            None => println!(
                "Concuerror: skipped (not built; see ../shared/CONCUERROR.md, or set CONCUERROR=path/to/concuerror.sh)"
            ),
        }
    }
    if let Some((cq2, s2)) = concuerror_run("test2", false) {
        println!(
            "Concuerror first failure, 2 processes: {s2}; {:.0} ms wall",
            cq2 * 1000.0
        );
    }
    first_witness_per_corpus_race();
}

/// The `witness` section alone: time to first witness per corpus race.
pub fn run_witness() {
    first_witness_per_corpus_race();
}

#[derive(serde::Deserialize)]
struct Manifest {
    #[serde(default)]
    suspect: Vec<Expected>,
}

#[derive(serde::Deserialize)]
struct Expected {
    file: String,
    read_line: u32,
    write_line: u32,
    verdict: String,
}

pub fn first_witness_per_corpus_race() {
    println!("\n== time to first witness, every corpus race (harness built, loaded, searched)");
    let corpus = root().join("corpus");
    let Ok(text) = std::fs::read_to_string(corpus.join("manifest.toml")) else {
        println!("skipped: no corpus/manifest.toml");
        return;
    };
    let Ok(manifest) = toml::from_str::<Manifest>(&text) else {
        println!("skipped: corpus/manifest.toml does not parse");
        return;
    };
    let program = load_paths(std::slice::from_ref(&corpus), &LoadOptions::default());
    let analysis = find_suspects(&program, &StaticOptions::default());
    let mut times = Vec::new();
    let mut unconfirmed = Vec::new();
    for e in manifest.suspect.iter().filter(|e| e.verdict == "confirmed") {
        let Some(s) = analysis.suspects.iter().find(|s| {
            s.read.file.ends_with(&e.file)
                && s.read.line == e.read_line
                && s.write.line == e.write_line
        }) else {
            unconfirmed.push(format!("{}:{} (not reported)", e.file, e.read_line));
            continue;
        };
        let fresh = load_paths(std::slice::from_ref(&corpus), &LoadOptions::default());
        let (secs, (_, results)) = timed(|| {
            confirm_all(
                fresh,
                std::slice::from_ref(s),
                &LoadRecord::default(),
                &ConfirmOptions::default(),
            )
        });
        if results[0].verdict.status == Status::Confirmed {
            times.push((secs * 1000.0, s.id.clone()));
        } else {
            unconfirmed.push(s.id.clone());
        }
    }
    for (ms, id) in &times {
        println!("  {id:<40} {ms:>6.1} ms");
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    if let (Some(min), Some(max)) = (times.first(), times.last()) {
        let median = times[times.len() / 2].0;
        println!(
            "{} races confirmed: median {median:.1} ms, fastest {:.1} ms ({}), slowest {:.1} ms ({})",
            times.len(),
            min.0,
            min.1,
            max.0,
            max.1
        );
    }
    if !unconfirmed.is_empty() {
        println!("not confirmed here: {}", unconfirmed.join(", "));
    }
}
