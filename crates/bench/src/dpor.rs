//! `racewit-bench dpor`: how far DPOR's reduction is from optimal, and how a
//! step's cost grows with the number of processes. The families of
//! `programs/dpor_families.erl` (N processes doing `ets:lookup` then
//! `ets:insert` of one key; N processes doing `whereis` then `register` of
//! one name) explored in full by racewit and by Concuerror (optimal DPOR,
//! `-k`), start-up included on both sides (racewit: loading and compiling
//! the program, then the search, in this process; Concuerror: its whole
//! command); then the time to the first interleaving of 1,000 processes.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use racewit_confirm::confirmation::ConfirmOptions;
use racewit_confirm::explore::{ExploreOptions, explore};
use racewit_confirm::search::{Cancel, CancelReason, Reduction, StopReason};
use racewit_confirm::witness::LoadRecord;
use racewit_syntax::{LoadOptions, load_paths};

use crate::measure::{concuerror, root, timed};

const FILE: &str = "crates/bench/programs/dpor_families.erl";

/// Interleavings one racewit exploration may complete.
const BUDGET: u64 = 5_000_000;
/// Seconds one racewit exploration may take (a run stopped says so).
const RACEWIT_SECONDS: u64 = 300;
/// Seconds one Concuerror run may take.
const CONCUERROR_SECONDS: u64 = 600;

/// racewit: load the program, explore `entry` (every interleaving, no
/// bound, or only the first one): (seconds, interleavings, sleep-set
/// blocked, steps, how it stopped).
fn racewit(entry: &str, first_only: bool) -> (f64, u64, u64, u64, String) {
    let cancel = Arc::new(Cancel::default());
    let watch = cancel.clone();
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let timer = std::thread::spawn(move || {
        if rx
            .recv_timeout(Duration::from_secs(RACEWIT_SECONDS))
            .is_err()
        {
            watch.cancel(CancelReason::Time {
                seconds: RACEWIT_SECONDS,
            });
        }
    });
    let opts = ExploreOptions {
        confirm: ConfirmOptions {
            max_preemptions: u32::MAX,
            max_interleavings: if first_only { 1 } else { BUDGET },
            reduction: Reduction::Dpor,
            cancel: Some(cancel),
            ..ConfirmOptions::default()
        },
        all: true,
    };
    let (secs, e) = timed(|| {
        let program = Arc::new(load_paths(&[root().join(FILE)], &LoadOptions::default()));
        explore(
            &program,
            "dpor_families",
            entry,
            &LoadRecord::default(),
            &opts,
        )
    });
    let _ = tx.send(());
    let _ = timer.join();
    let stop = match &e.stop {
        StopReason::ExhaustedAll => "all explored".to_string(),
        StopReason::InterleavingBudget { limit } => format!("budget of {limit} reached"),
        StopReason::Cancelled { .. } => format!("stopped after {RACEWIT_SECONDS} s"),
        other => format!("{other:?}"),
    };
    (
        secs,
        e.stats.interleavings,
        e.stats.sleep_blocked,
        e.stats.steps,
        stop,
    )
}

/// Concuerror `-k` on `entry`: (seconds, interleavings explored, whether it
/// finished), if it is installed.
fn concuerror_full(entry: &str) -> Option<(f64, Option<u64>)> {
    let cq = concuerror()?;
    let dir = std::env::temp_dir().join("racewit_bench_cq");
    std::fs::create_dir_all(&dir).ok()?;
    let mut cmd = Command::new("timeout");
    cmd.arg(CONCUERROR_SECONDS.to_string()).arg(cq);
    cmd.current_dir(&dir)
        .arg("-f")
        .arg(root().join(FILE))
        .args([
            "-m",
            "dpor_families",
            "-t",
            entry,
            "-k",
            "--output",
            "/dev/null",
        ]);
    let (secs, out) = timed(|| cmd.output());
    let out = out.ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    // "Summary: 0 errors, 8401/8401 interleavings explored"
    let count = text
        .lines()
        .find(|l| l.contains("interleavings explored"))
        .and_then(|l| l.split(',').nth(1))
        .and_then(|p| p.trim().split('/').next())
        .and_then(|n| n.trim().parse().ok());
    Some((secs, count))
}

pub fn run() {
    println!(
        "\n== DPOR reduction: {FILE}, every interleaving, no bound (racewit: source-DPOR; Concuerror -k: optimal DPOR)"
    );
    let have_cq = concuerror().is_some();
    if !have_cq {
        println!(
            "Concuerror: skipped (not built; see ../shared/CONCUERROR.md, or set CONCUERROR=path/to/concuerror.sh)"
        );
    }
    println!(
        "  {:<24} {:>10} {:>8} {:>9}  {:<22} {:>10} {:>9} {:>7} {:>7}",
        "family", "racewit", "blocked", "time", "", "Concuerror", "time", "count", "speed"
    );
    let families = [("lookup/insert", "li"), ("whereis/register", "wr")];
    for (name, prefix) in families {
        for n in 3..=6 {
            let entry = format!("{prefix}{n}");
            let (secs, count, blocked, _, stop) = racewit(&entry, false);
            let (cq_cell, ratio) = match have_cq.then(|| concuerror_full(&entry)).flatten() {
                Some((cq_s, Some(cq_n))) => (
                    format!("{cq_n:>10} {cq_s:>8.2}s"),
                    format!(
                        "{:>6.2}x {:>6.1}x",
                        count as f64 / cq_n.max(1) as f64,
                        cq_s / secs
                    ),
                ),
                Some((cq_s, None)) => (format!("{:>10} {cq_s:>8.0}s", "unfinished"), String::new()),
                None => (String::new(), String::new()),
            };
            println!(
                "  {:<24} {count:>10} {blocked:>8} {secs:>8.2}s  {stop:<22} {cq_cell} {ratio}",
                format!("{name} N={n}")
            );
        }
    }
    println!(
        "  (count: racewit's interleavings / Concuerror's; speed: Concuerror's time / racewit's)"
    );
    run_wide();
}

/// Whether `arg` names one entry of the families (`li3`..`li6`,
/// `wr3`..`wr6`).
pub fn is_family_entry(arg: &str) -> bool {
    matches!(
        arg,
        "li3" | "li4" | "li5" | "li6" | "wr3" | "wr4" | "wr5" | "wr6"
    )
}

/// One entry of the families alone, racewit only (to profile it).
pub fn run_entry(entry: &str) {
    let (secs, count, blocked, steps, stop) = racewit(entry, false);
    println!(
        "{entry}: {count} interleavings, {blocked} sleep-set blocked, {steps} steps, {secs:.2} s ({stop})"
    );
}

/// The `wide` part alone: the first interleaving of 1,000 processes.
pub fn run_wide() {
    let (secs, count, _, steps, _) = racewit("wide", true);
    println!(
        "1,000 processes (wide/0): first interleaving in {secs:.2} s ({steps} steps, {count} run), program loading included"
    );
}
