//! `racewit check` on the whole OTP tree, as a user runs it (issue 17): the
//! `racewit` binary built beside this bench, under a 4 GB address-space
//! limit (`ulimit -v 4194304`), from an empty directory. Three runs: every
//! suspect, then about 100 and about 10 of them (`--partition 1/N`), so that
//! peak memory can be compared across suspect counts; and the phases: load
//! (`racewit parse`), load and static pass (`racewit static`), the rest is
//! confirmation.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::measure;

/// Address space racewit gets, in KiB, as the acceptance says.
const ULIMIT_KB: u64 = 4_194_304;

/// What one child run took.
struct Child {
    secs: f64,
    peak_rss_mb: f64,
    code: Option<i32>,
    stdout: String,
}

/// Runs `racewit args...` in `cwd` under the address-space limit; waits for
/// it with `wait4` to read its own peak RSS.
fn run_child(racewit: &Path, args: &[&str], cwd: &Path) -> Result<Child, String> {
    let out_path = cwd.join("stdout.txt");
    let stdout = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ULIMIT_KB} && exec \"$0\" \"$@\""))
        .arg(racewit)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", racewit.display()))?;
    let (code, peak_kb) = wait_with_rusage(child.id())?;
    Ok(Child {
        secs: started.elapsed().as_secs_f64(),
        peak_rss_mb: peak_kb as f64 / 1024.0,
        code,
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
    })
}

/// Waits for child `pid`; its exit code (none when a signal ended it) and
/// its peak resident set in KiB. `Child::wait` reports no resource usage.
#[allow(unsafe_code)] // wait4(2): the only way to a child's own peak RSS
fn wait_with_rusage(pid: u32) -> Result<(Option<i32>, i64), String> {
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet waited for; both pointers are to
    // live locals of the right types.
    let r = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    if r < 0 {
        return Err(format!("wait4: {}", std::io::Error::last_os_error()));
    }
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Ok((code, usage.ru_maxrss))
}

/// Verdict counts of a JSON check report: `(suspects, "kind n, ...")`.
fn verdicts(json: &str) -> Option<(usize, String)> {
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    let ws = v.get("warnings")?.as_array()?;
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for w in ws {
        let kind = if w.get("verdict").and_then(|s| s.as_str()) == Some("confirmed") {
            let c = w
                .pointer("/consequence/kind")
                .and_then(|s| s.as_str())
                .unwrap_or("?");
            format!("confirmed {c}")
        } else {
            w.pointer("/reason/kind")
                .and_then(|s| s.as_str())
                .unwrap_or("?")
                .to_string()
        };
        *counts.entry(kind).or_default() += 1;
    }
    let mut by: Vec<(String, usize)> = counts.into_iter().collect();
    by.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let text = by
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    Some((ws.len(), text))
}

/// The `racewit` binary built beside this bench (same profile).
fn racewit_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let p = exe.parent()?.join("racewit");
    p.is_file().then_some(p)
}

pub fn run() {
    println!("\n== check: the OTP library tree, as a user runs it (ulimit -v {ULIMIT_KB})");
    let Some(lib) = measure::otp_lib() else {
        println!("skipped: no OTP tree at /usr/lib/erlang/lib");
        return;
    };
    let Some(racewit) = racewit_binary() else {
        println!(
            "skipped: no racewit binary beside the bench (cargo build --release -p racewit -p racewit-bench)"
        );
        return;
    };
    let lib = lib.to_string_lossy().into_owned();
    let scratch = std::env::temp_dir().join(format!("racewit-bench-check-{}", std::process::id()));
    let fresh = |name: &str| -> PathBuf {
        let d = scratch.join(name);
        let _ = std::fs::remove_dir_all(&d);
        let _ = std::fs::create_dir_all(&d);
        d
    };
    for (phase, args) in [
        ("load (racewit parse)", vec!["parse", lib.as_str()]),
        (
            "load + static pass (racewit static)",
            vec!["static", lib.as_str(), "--format", "json"],
        ),
    ] {
        match run_child(&racewit, &args, &fresh("phase")) {
            Ok(c) => println!(
                "  {phase}: {:.1} s, peak RSS {:.0} MB",
                c.secs, c.peak_rss_mb
            ),
            Err(e) => println!("  {phase}: {e}"),
        }
    }
    let base = ["check", lib.as_str(), "--keep-going", "--format", "json"];
    let all = match run_child(&racewit, &base, &fresh("all")) {
        Ok(c) => c,
        Err(e) => {
            println!("  check: {e}");
            return;
        }
    };
    let Some((suspects, text)) = verdicts(&all.stdout) else {
        println!(
            "  check, every suspect: no report (exit {:?}, {:.1} s, peak RSS {:.0} MB)",
            all.code, all.secs, all.peak_rss_mb
        );
        return;
    };
    println!(
        "  check, every suspect ({suspects}): {:.1} s, peak RSS {:.0} MB, exit {:?}\n    {text}",
        all.secs, all.peak_rss_mb, all.code
    );
    for want in [100, 10] {
        let parts = (suspects / want).max(1);
        let partition = format!("1/{parts}");
        let mut args = base.to_vec();
        args.extend(["--partition", partition.as_str()]);
        match run_child(&racewit, &args, &fresh(&format!("part{want}"))) {
            Ok(c) => {
                let n = verdicts(&c.stdout).map_or(0, |(n, _)| n);
                println!(
                    "  check --partition {partition} ({n} suspects): {:.1} s, peak RSS {:.0} MB",
                    c.secs, c.peak_rss_mb
                );
            }
            Err(e) => println!("  check --partition {partition}: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
