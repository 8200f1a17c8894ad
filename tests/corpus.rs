//! The corpus, end to end through the `racewit` binary:
//! - `racewit corpus corpus/` agrees with the manifest (`N passed, 0 failed`);
//! - each case's human report is an insta snapshot;
//! - every witness replays with the same outcome, and its replay trace is a snapshot.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn racewit(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_racewit"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run racewit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Cases that span several modules are loaded together.
const GROUPS: &[&[&str]] = &[
    &["registry/svc_sup.erl", "registry/svc_starter.erl"],
    &["ets/inventory.erl", "ets/inventory_store.erl"],
    &["gen_server/fleet_ok.erl", "gen_server/fleet_ok_worker.erl"],
    &["gen_server/fleet.erl", "gen_server/fleet_worker.erl"],
    &["contexts/api_counter.erl", "contexts/api_counter_lib.erl"],
    &["contexts/api_gauge_ok.erl", "contexts/api_gauge_ok_lib.erl"],
    &["gen_server/badge_ok.erl", "gen_server/badge_store_ok.erl"],
    &["gen_server/badge.erl", "gen_server/badge_store.erl"],
];

fn cases() -> Vec<Vec<String>> {
    let mut files = Vec::new();
    let corpus = root().join("corpus");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        let mut fs: Vec<PathBuf> = std::fs::read_dir(&d)
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "erl"))
            .collect();
        fs.sort();
        for f in fs {
            files.push(
                f.strip_prefix(&corpus)
                    .expect("in corpus")
                    .display()
                    .to_string(),
            );
        }
    }
    let mut out: Vec<Vec<String>> = Vec::new();
    for f in files {
        if let Some(group) = GROUPS.iter().find(|g| g.contains(&f.as_str())) {
            if group[0] == f {
                out.push(group.iter().map(|s| s.to_string()).collect());
            }
        } else {
            out.push(vec![f]);
        }
    }
    out
}

#[test]
fn corpus_matches_its_manifest() {
    let (code, stdout, stderr) = racewit(&["corpus", "corpus"]);
    let last = stdout.lines().last().unwrap_or_default().to_string();
    assert!(
        code == 0 && last.ends_with(", 0 failed"),
        "racewit corpus failed (exit {code}):\n{}\n{stderr}",
        stdout
            .lines()
            .filter(|l| l.starts_with("FAIL"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn each_case_report_and_witness_replay() {
    let out = tempfile::tempdir().expect("tempdir");
    let out_dir = out.path().display().to_string();
    for case in cases() {
        let name = case[0].trim_end_matches(".erl").replace('/', "__");
        let case_out = format!("{out_dir}/{name}");
        let mut args = vec!["check".to_string()];
        args.extend(case.iter().map(|f| format!("corpus/{f}")));
        args.extend(["--out".to_string(), case_out.clone()]);
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = racewit(&argv);
        assert!(
            code == 0 || code == 2,
            "check {case:?} exited {code}: {stderr}"
        );
        assert_claims_were_reached(&case_out, &case);
        let report = stdout.replace(&case_out, "[OUT]");
        insta::with_settings!({snapshot_suffix => name.clone(), prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!("report", report);
        });
        let mut witnesses: Vec<PathBuf> = std::fs::read_dir(&case_out)
            .map(|rd| rd.map(|e| e.expect("entry").path()).collect())
            .unwrap_or_default();
        witnesses.retain(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.') && !n.starts_with("report."))
        });
        witnesses.sort();
        assert_eq!(
            code == 2,
            harmful_confirmations(&case_out) > 0,
            "{case:?}: the exit code is 2 exactly when a race that does harm is confirmed"
        );
        assert_eq!(
            witnesses.len(),
            confirmations(&case_out),
            "{case:?}: one witness per confirmed race"
        );
        for w in witnesses {
            let wpath = w.display().to_string();
            let (rcode, rout, rerr) = racewit(&["replay", &wpath]);
            assert_eq!(rcode, 0, "replay of {wpath} failed: {rerr}");
            let wname = w.file_stem().unwrap().to_string_lossy().into_owned();
            insta::with_settings!({snapshot_suffix => format!("{name}__{wname}"), prepend_module_to_snapshot => false}, {
                insta::assert_snapshot!("replay", rout);
            });
        }
    }
}

/// The invariant behind every "explored" or "within bound" verdict: some
/// completed run executed the suspect's read and then its write. A claim over
/// runs that never got there would tell a user a race cannot happen when
/// the harness never ran the code.
fn assert_claims_were_reached(out_dir: &str, case: &[String]) {
    let text = std::fs::read_to_string(format!("{out_dir}/report.json")).expect("report.json");
    let report: serde_json::Value = serde_json::from_str(&text).expect("report json");
    for w in report["warnings"].as_array().expect("warnings") {
        let kind = w["reason"]["kind"].as_str().unwrap_or("");
        let claims = w["exhausted"] == true
            || matches!(
                kind,
                "all_exhausted" | "bound_exhausted" | "budget" | "handled"
            );
        if claims {
            assert!(
                w["reached"]["write"].as_u64().unwrap_or(0) > 0,
                "{case:?} {}: claims {kind} but no run executed the write",
                w["id"]
            );
        }
        if kind == "not_reached" {
            assert_eq!(w["exhausted"], false, "{case:?} {}", w["id"]);
        }
    }
}

fn report_warnings(out_dir: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(format!("{out_dir}/report.json")).expect("report.json");
    let report: serde_json::Value = serde_json::from_str(&text).expect("report json");
    report["warnings"].as_array().cloned().unwrap_or_default()
}

fn confirmations(out_dir: &str) -> usize {
    report_warnings(out_dir)
        .iter()
        .filter(|w| w["verdict"] == "confirmed")
        .count()
}

/// Confirmed races with a consequence other than `none`.
fn harmful_confirmations(out_dir: &str) -> usize {
    report_warnings(out_dir)
        .iter()
        .filter(|w| w["verdict"] == "confirmed" && w["consequence"]["kind"] != "none")
        .count()
}
