//! Confirmation and exploration speed, side by side with Concuerror.

use std::process::Command;
use std::sync::Arc;

use racewit_confirm::confirmation::{ConfirmOptions, confirm_all};
use racewit_confirm::explore::{ExploreOptions, explore};
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

fn explore_opts(bound: u32, all: bool, sleep_sets: bool) -> ExploreOptions {
    ExploreOptions {
        confirm: ConfirmOptions {
            max_preemptions: bound,
            max_interleavings: BUDGET,
            sleep_sets,
            ..ConfirmOptions::default()
        },
        all,
    }
}

/// (seconds, summary line) of one Concuerror run.
fn concuerror_run(entry: &str, keep_going: bool) -> Option<(f64, String)> {
    let cq = concuerror()?;
    let file = root().join("crates/bench/programs/ets_race.erl");
    let dir = std::env::temp_dir().join("racewit_bench_cq");
    std::fs::create_dir_all(&dir).ok()?;
    let mut cmd = Command::new(cq);
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
    let (secs, out) = timed(|| cmd.output());
    let out = out.ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let summary = text
        .lines()
        .find(|l| l.contains("interleavings explored"))
        .unwrap_or("(no summary line)")
        .trim()
        .to_string();
    Some((secs, summary))
}

fn interleavings_in(summary: &str) -> Option<f64> {
    // "Summary: 1 errors, 8401/8401 interleavings explored"
    let part = summary.split(',').nth(1)?;
    part.trim().split('/').next()?.trim().parse().ok()
}

pub fn run() {
    println!(
        "\n== confirmation: full exploration of crates/bench/programs/ets_race.erl (5 processes lookup→insert)"
    );
    let p = program();
    let record = LoadRecord::default();
    let (secs, full) = timed(|| {
        explore(
            &p,
            "ets_race",
            "test",
            &record,
            &explore_opts(u32::MAX, true, true),
        )
    });
    let rate = full.stats.interleavings as f64 / secs;
    println!(
        "racewit (sleep sets, no bound): {} interleavings ({} sleep-set blocked), {} with a failure, {secs:.2} s, {rate:.0} interleavings/s, {}",
        full.stats.interleavings,
        full.stats.sleep_blocked,
        full.stats.findings,
        match full.stop {
            racewit_confirm::search::StopReason::Exhausted => "space exhausted".to_string(),
            _ => format!("stopped at the budget of {BUDGET} (not exhausted)"),
        }
    );
    let (plain_s, plain) = timed(|| {
        explore(
            &p,
            "ets_race",
            "test",
            &record,
            &explore_opts(2, true, false),
        )
    });
    let (red_s, reduced) = timed(|| {
        explore(
            &p,
            "ets_race",
            "test",
            &record,
            &explore_opts(2, true, true),
        )
    });
    println!(
        "reduction at bound 2: plain bounded DFS {} interleavings ({plain_s:.2} s) vs. with sleep sets {} ({red_s:.2} s)",
        plain.stats.interleavings, reduced.stats.interleavings
    );
    let (first_s, first) = timed(|| {
        explore(
            &p,
            "ets_race",
            "test2",
            &record,
            &explore_opts(2, false, true),
        )
    });
    println!(
        "first failure, 2 processes: {:.1} ms after {} interleavings",
        first_s * 1000.0,
        first.stats.interleavings
    );
    match concuerror_run("test", true) {
        Some((cq_s, summary)) => {
            let cq_n = interleavings_in(&summary).unwrap_or(0.0);
            let cq_rate = cq_n / cq_s;
            println!(
                "Concuerror -k (optimal DPOR): {summary}; {cq_s:.2} s wall, {cq_rate:.0} interleavings/s"
            );
            println!(
                "  ratio: rate {:.1}x, end to end {:.1}x faster",
                rate / cq_rate.max(1e-9),
                cq_s / secs
            );
            if let Some((cq2, s2)) = concuerror_run("test2", false) {
                println!(
                    "Concuerror first failure, 2 processes: {s2}; {:.0} ms wall",
                    cq2 * 1000.0
                );
            }
        }
        None => println!(
            "Concuerror: skipped (not built; see ../shared/CONCUERROR.md, or set CONCUERROR=path/to/concuerror.sh)"
        ),
    }
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

fn first_witness_per_corpus_race() {
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
