//! `racewit check` on the whole OTP tree, as a user runs it (issue 17): the
//! `racewit` binary built beside this bench, under a 4 GB address-space
//! limit (`ulimit -v 4194304`), from an empty directory. Three runs: every
//! suspect, then about 100 and about 10 of them (`--partition 1/N`), so that
//! peak memory can be compared across suspect counts, for the static pass
//! and for confirmation apart (the static pass's peak hides confirmation's
//! in the whole run's); and the phases: load (`racewit parse`), load and
//! static pass (`racewit static`), the rest is confirmation.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::measure;

/// Address space racewit gets, in KiB, as the acceptance says.
const ULIMIT_KB: u64 = 4_194_304;

/// What one child run took.
struct Child {
    secs: f64,
    /// User CPU time (the wall time is noisy on a shared machine).
    user_secs: f64,
    peak_rss_mb: f64,
    code: Option<i32>,
    stdout: String,
    /// What `racewit check` said of its phases' peaks (see
    /// [`phase_peaks`]).
    stderr: String,
}

/// Runs `racewit args...` in `cwd` under the address-space limit; waits for
/// it with `wait4` to read its own peak RSS. `racewit check` is asked to
/// report the peaks of its static pass and of confirmation apart
/// (`RACEWIT_PHASE_PEAKS=1`): the whole run's peak is the static pass's
/// whenever it is the larger.
fn run_child(racewit: &Path, args: &[&str], cwd: &Path) -> Result<Child, String> {
    let out_path = cwd.join("stdout.txt");
    let err_path = cwd.join("stderr.txt");
    let stdout = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let stderr = std::fs::File::create(&err_path).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ULIMIT_KB} && exec \"$0\" \"$@\""))
        .arg(racewit)
        .args(args)
        .env("RACEWIT_PHASE_PEAKS", "1")
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", racewit.display()))?;
    let (code, peak_kb, user_secs) = wait_with_rusage(child.id())?;
    Ok(Child {
        secs: started.elapsed().as_secs_f64(),
        user_secs,
        peak_rss_mb: peak_kb as f64 / 1024.0,
        code,
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
    })
}

/// The peaks `racewit check` reported for its static pass (loading
/// included) and for confirmation, in MB: the line
/// `racewit: peak RSS: static pass N MB, confirmation M MB`.
fn phase_peaks(stderr: &str) -> Option<(u64, u64)> {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("racewit: peak RSS: static pass "))?;
    let (stat, rest) = line.split_once(" MB, confirmation ")?;
    let conf = rest.strip_suffix(" MB")?;
    Some((stat.parse().ok()?, conf.parse().ok()?))
}

/// `peak RSS P MB (static pass N MB, confirmation M MB)`, or what is
/// known. The reset after the static pass resets the peak `wait4` reports
/// too, so the run's peak is the larger of the two phases'.
fn peaks_text(c: &Child) -> String {
    match phase_peaks(&c.stderr) {
        Some((s, k)) => format!(
            "peak RSS {} MB (static pass {s} MB, confirmation {k} MB)",
            s.max(k)
        ),
        None => format!("peak RSS {:.0} MB", c.peak_rss_mb),
    }
}

/// Waits for child `pid`; its exit code (none when a signal ended it), its
/// peak resident set in KiB and its user CPU time in seconds.
/// `Child::wait` reports no resource usage.
#[allow(unsafe_code)] // wait4(2): the only way to a child's own peak RSS
fn wait_with_rusage(pid: u32) -> Result<(Option<i32>, i64, f64), String> {
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
    let user = usage.ru_utime.tv_sec as f64 + usage.ru_utime.tv_usec as f64 / 1e6;
    Ok((code, usage.ru_maxrss, user))
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
                "  {phase}: {:.1} s ({:.1} s user), peak RSS {:.0} MB",
                c.secs, c.user_secs, c.peak_rss_mb
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
        "  check, every suspect ({suspects}): {:.1} s ({:.1} s user), {}, exit {:?}\n    {text}",
        all.secs,
        all.user_secs,
        peaks_text(&all),
        all.code
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
                    "  check --partition {partition} ({n} suspects): {:.1} s ({:.1} s user), {}",
                    c.secs,
                    c.user_secs,
                    peaks_text(&c)
                );
            }
            Err(e) => println!("  check --partition {partition}: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

#[cfg(test)]
mod tests {
    use super::phase_peaks;

    #[test]
    fn phase_peaks_are_read_from_the_stderr_line() {
        let err =
            "racewit: something\nracewit: peak RSS: static pass 840 MB, confirmation 512 MB\n";
        assert_eq!(phase_peaks(err), Some((840, 512)));
        assert_eq!(
            phase_peaks("racewit: peak RSS: static pass ? MB, confirmation 5 MB"),
            None
        );
        assert_eq!(phase_peaks(""), None);
    }
}
