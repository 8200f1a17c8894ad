//! Differential tests: every program under `tests/diff/programs` runs through
//! `run_entry` and must print exactly what the real `erl` printed
//! (`tests/diff/expected/<name>.out`, produced by `tests/diff/regen.sh`).
//!
//! Programs that do not match yet are listed in `tests/diff_known_failures.txt`
//! (FIXME: each is a known divergence); the test fails if a listed program
//! starts to pass (remove it from the list) or an unlisted one fails.
//! `RACEWIT_DIFF_ONLY=name` runs one program and prints both outputs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use racewit_vm::run::{RunConfig, run_entry};

fn diff_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/diff")
}

/// What the program printed, and whether it stopped at a call that needs
/// OTP's library code when no OTP is installed.
fn run_program(path: &Path) -> (Vec<u8>, bool) {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    let text = std::fs::read_to_string(path).expect("program readable");
    let program = racewit_syntax::load_source(&path.display().to_string(), &text);
    // With no OTP, OTP's headers (`-include_lib("kernel/include/...")`) are
    // not found either.
    let header_missing = program
        .diagnostics
        .iter()
        .any(|d| d.code == racewit_syntax::DiagnosticCode::E020MissingInclude);
    let config = RunConfig {
        max_reductions: 50_000_000,
        libraries: racewit_otp::installed(),
        ..RunConfig::default()
    };
    let out = run_entry(Arc::new(program), &name, "main", &config);
    if std::env::var("RACEWIT_DIFF_ONLY").is_ok() {
        eprintln!("stack: {:?}", out.crash_stack);
    }
    let needs_otp = header_missing
        || out
            .parked
            .iter()
            .any(|(_, _, _, why)| *why == racewit_vm::ParkReason::NoOtp);
    (out.stdout_bytes(), needs_otp)
}

#[test]
fn programs_match_erl() {
    let root = diff_root();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(root.join("programs"))
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    programs.retain(|p| p.extension().is_some_and(|e| e == "erl"));
    programs.sort();
    let only = std::env::var("RACEWIT_DIFF_ONLY").ok();
    let have_otp = racewit_otp::discover().is_some();
    let names = |list: &str| -> BTreeSet<String> {
        list.lines()
            .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let mut known = names(include_str!("diff_known_failures.txt"));
    if !have_otp {
        let stand_ins = names(include_str!("diff_known_failures_no_otp.txt"));
        eprintln!(
            "notice: Erlang/OTP is not installed: {} programs where racewit's stand-ins for \
             OTP's modules differ from OTP are known failures \
             (diff_known_failures_no_otp.txt): {stand_ins:?}",
            stand_ins.len()
        );
        known.extend(stand_ins);
    }
    let mut failed = BTreeSet::new();
    // With no OTP installed, a program that stops at a call to OTP's
    // library code cannot print what erl printed: it is skipped, and named.
    let mut needs_otp = BTreeSet::new();
    let mut passed = 0;
    for p in &programs {
        let name = p
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let expected_path = root.join("expected").join(format!("{name}.out"));
        let Ok(expected) = std::fs::read(&expected_path) else {
            eprintln!("differential: no expected output for {name}");
            continue;
        };
        let (got, parked_for_otp) = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn({
                let p = p.clone();
                move || run_program(&p)
            })
            .expect("thread")
            .join()
            .unwrap_or_else(|_| (b"<panic>".to_vec(), false));
        if only.is_some() || (got != expected && std::env::var("RACEWIT_DIFF_SHOW").is_ok()) {
            eprintln!(
                "--- expected\n{}--- got\n{}---",
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&got)
            );
        }
        if got == expected {
            passed += 1;
        } else if parked_for_otp {
            needs_otp.insert(name);
        } else {
            failed.insert(name);
        }
    }
    if !needs_otp.is_empty() {
        // Only when no OTP was found: with one, no call parks for lack of it.
        assert!(
            !have_otp,
            "programs stopped for lack of OTP with OTP installed: {needs_otp:?}"
        );
        eprintln!(
            "notice: Erlang/OTP is not installed: {} programs that call OTP's library code \
             are skipped: {needs_otp:?}",
            needs_otp.len()
        );
    }
    eprintln!(
        "differential: {passed} passed, {} failed: {failed:?}",
        failed.len()
    );
    if let Some(one) = &only {
        // One program run on its own passes only if it matches too (a known
        // failure excepted, which is listed as such).
        assert_eq!(
            passed + failed.len() + needs_otp.len(),
            1,
            "RACEWIT_DIFF_ONLY={one}: no program of that name with an expected output"
        );
        assert!(
            failed.iter().all(|n| known.contains(n)),
            "{one} differs from erl's output (both printed above)"
        );
    } else {
        let unexpected: Vec<_> = failed.difference(&known).collect();
        let fixed: Vec<_> = known
            .difference(&failed)
            .filter(|n| !needs_otp.contains(*n))
            .filter(|n| {
                programs
                    .iter()
                    .any(|p| p.file_stem().and_then(|s| s.to_str()) == Some(n.as_str()))
            })
            .collect();
        assert!(unexpected.is_empty(), "new failures: {unexpected:?}");
        assert!(
            fixed.is_empty(),
            "now passing, remove from diff_known_failures.txt: {fixed:?}"
        );
    }
}

/// The hot loop is only a faster way to the same state: every program (and
/// the bench programs, and the programs of `crates/vm/tests/erl`) runs with
/// it on and off, and the two runs take the same steps, with the same
/// events, reductions and output.
#[test]
fn the_hot_loop_changes_no_step() {
    let root = diff_root();
    let mut programs: Vec<PathBuf> = [
        root.join("programs"),
        root.join("bench"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/erl"),
    ]
    .iter()
    .filter_map(|d| std::fs::read_dir(d).ok())
    .flat_map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()))
    .filter(|p| p.extension().is_some_and(|e| e == "erl"))
    .collect();
    programs.sort();
    assert!(
        programs.len() > 300,
        "the differential programs are missing"
    );
    assert!(
        programs.iter().any(|p| p.ends_with("tests/erl/errs.erl")),
        "the programs of crates/vm/tests/erl are missing"
    );
    let libraries = racewit_otp::installed();
    let mut differ = Vec::new();
    for p in &programs {
        let name = p
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let text = std::fs::read_to_string(p).expect("program readable");
        let program = Arc::new(racewit_syntax::load_source(&p.display().to_string(), &text));
        let run = |hot_loop: bool| {
            let config = RunConfig {
                max_reductions: 50_000_000,
                libraries: libraries.clone(),
                hot_loop,
                trace: true,
                ..RunConfig::default()
            };
            let (program, name) = (program.clone(), name.clone());
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn(move || {
                    let out = run_entry(program, &name, "main", &config);
                    (out.stdout, out.steps, out.reductions, out.trace)
                })
                .expect("thread")
                .join()
                .expect("the run does not panic")
        };
        let (hot, general) = (run(true), run(false));
        assert!(!hot.3.is_empty(), "{name}: no events traced");
        if hot != general {
            let first = hot
                .3
                .iter()
                .zip(&general.3)
                .position(|(a, b)| a != b)
                .unwrap_or(hot.3.len().min(general.3.len()));
            eprintln!(
                "{name}: steps {} / {}, reductions {} / {}, first differing event #{first}: \
                 {:?} / {:?}",
                hot.1,
                general.1,
                hot.2,
                general.2,
                hot.3.get(first),
                general.3.get(first)
            );
            differ.push(name);
        }
    }
    assert!(
        differ.is_empty(),
        "the hot loop changes these runs: {differ:?}"
    );
}
