//! The command line as a user meets it: help for every command, one clear
//! line for bad input, an exit code per outcome, and JSON/triage output.

use std::path::{Path, PathBuf};
use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn cmd() -> Command {
    let mut c = Command::new(get_cargo_bin("racewit"));
    c.current_dir(root());
    c
}

#[test]
fn help_for_every_command() {
    for sub in [
        "check", "static", "explore", "replay", "triage", "corpus", "parse",
    ] {
        let out = cmd().args([sub, "--help"]).output().expect("run");
        assert!(out.status.success(), "{sub} --help failed");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage: racewit"), "{sub} --help: {text}");
        insta::with_settings!({snapshot_suffix => sub}, {
            insta::assert_snapshot!("help", text);
        });
    }
}

#[test]
fn exit_0_when_nothing_is_confirmed() {
    assert_cmd_snapshot!(cmd().args([
        "check",
        "corpus/ets/counter_atomic_ok.erl",
        "--out",
        "target/cli-test-0"
    ]));
}

#[test]
fn exit_1_on_a_missing_path() {
    assert_cmd_snapshot!(cmd().args(["check", "no/such/dir"]));
}

#[test]
fn exit_1_on_bad_arguments() {
    assert_cmd_snapshot!(cmd().args(["check", "corpus", "--bound", "many"]));
    assert_cmd_snapshot!(cmd().args(["check", "corpus", "--partition", "4/3"]));
    assert_cmd_snapshot!(cmd().args(["explore", "not-an-entry", "corpus"]));
}

#[test]
fn exit_1_on_a_file_that_is_not_a_witness() {
    assert_cmd_snapshot!(cmd().args(["replay", "corpus/manifest.toml"]));
}

#[test]
fn exit_2_with_json_when_a_race_is_confirmed() {
    assert_cmd_snapshot!(cmd().args([
        "check",
        "corpus/registry/name_server.erl",
        "--format",
        "json",
        "--out",
        "target/cli-test-2"
    ]));
}

#[test]
fn triage_ranks_the_last_report() {
    let out = cmd()
        .args([
            "check",
            "corpus/ets",
            "--out",
            "target/cli-test-triage",
            "--format",
            "json",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert_cmd_snapshot!(cmd().args(["triage", "--out", "target/cli-test-triage"]));
}

#[test]
fn same_bytes_whatever_the_thread_count() {
    let run = |jobs: &str, out: &str| {
        let o = cmd()
            .args([
                "check",
                "corpus/registry",
                "--format",
                "json",
                "--jobs",
                jobs,
                "--out",
                out,
            ])
            .output()
            .expect("run");
        String::from_utf8_lossy(&o.stdout).replace(out, "[OUT]")
    };
    assert_eq!(
        run("1", "target/cli-test-j1"),
        run("2", "target/cli-test-j2")
    );
}

/// Real code: the `whereis(ct_master)` / `register(ct_master, self())` race
/// in OTP's common_test is confirmed from a generated harness, and the
/// witness shows the second `register` failing with `badarg`.
#[test]
fn ct_master_race_is_confirmed_on_real_otp_code() {
    let Some(file) = std::fs::read_dir("/usr/lib/erlang/lib")
        .ok()
        .and_then(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path().join("src/ct_master.erl"))
                .find(|p| p.exists())
        })
    else {
        eprintln!("notice: OTP's common_test sources are not installed; skipping");
        return;
    };
    let out_dir = tempfile::tempdir().expect("tempdir");
    let out = cmd()
        .arg("check")
        .arg(&file)
        .arg("--out")
        .arg(out_dir.path())
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("R001:ct_master:238:240"), "{stdout}");
    let witness = out_dir.path().join("R001-ct_master-238-240.json");
    let replay = cmd().arg("replay").arg(&witness).output().expect("replay");
    let trace = String::from_utf8_lossy(&replay.stdout);
    assert!(replay.status.success(), "{trace}");
    assert!(
        trace.contains("erlang:register(ct_master, P1.1) -> badarg")
            || trace.contains("erlang:register(ct_master, P1.2) -> badarg"),
        "{trace}"
    );
}

/// SARIF 2.1.0: one rule per category, the write as the location, the read
/// and the path as related locations, the witness as a code flow.
#[test]
fn sarif_for_a_confirmed_race() {
    let out = cmd()
        .args([
            "check",
            "corpus/registry/name_server.erl",
            "--format",
            "sarif",
            "--out",
            "target/cli-test-sarif",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let log: serde_json::Value = serde_json::from_str(&text).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "racewit");
    assert_eq!(
        run["tool"]["driver"]["rules"].as_array().map(Vec::len),
        Some(6)
    );
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "R001");
    assert_eq!(result["level"], "error");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"]["startLine"],
        15
    );
    assert!(
        result["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .is_some_and(|l| l.len() == 3)
    );
    insta::assert_snapshot!(text);
}
