//! Witnesses and reports read back after someone changed them: each is
//! refused with a message naming what is wrong, or replayed within the
//! VM's limits, never walking outside the project or aborting.

use std::path::Path;

use crate::common::{race_module, racewit, write};

/// A project with one confirmed race; returns its witness (path, JSON).
fn witnessed(dir: &Path) -> (String, serde_json::Value) {
    write(
        dir,
        "reg.erl",
        &race_module("reg", "srv", "before() -> ok."),
    );
    let run = racewit(dir, &["check", "--format", "json", "reg.erl"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let path = run.json()["warnings"][0]["witness"]
        .as_str()
        .expect("witness")
        .to_string();
    let text = std::fs::read_to_string(dir.join(&path)).expect("witness");
    (path, serde_json::from_str(&text).expect("JSON"))
}

fn tampered(dir: &Path, name: &str, w: &serde_json::Value) -> String {
    std::fs::write(
        dir.join(name),
        serde_json::to_string(w).expect("JSON") + "\n",
    )
    .expect("write");
    name.to_string()
}

/// A schedule of 4,000,000,000,000 steps in a few bytes (`P1*4000000000000`)
/// is refused as it is read, before it is expanded.
#[test]
fn a_huge_schedule_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, mut w) = witnessed(dir.path());
    w["schedule"]["steps"] = serde_json::json!("P1*4000000000000");
    let file = tampered(dir.path(), "huge.json", &w);
    let run = racewit(dir.path(), &["replay", &file]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("huge.json is not a racewit witness: a schedule of more than 5000000 steps (at `P1*4000000000000`)"),
        "{}",
        run.stderr
    );
}

/// A harness rewritten to allocate without bound: the replay's run stops
/// at the VM's memory budget and replay says it does not reproduce.
#[test]
fn a_harness_that_allocates_is_stopped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, mut w) = witnessed(dir.path());
    let module = w["harness"]["module"].as_str().expect("module").to_string();
    let function = w["harness"]["function"]
        .as_str()
        .expect("function")
        .to_string();
    w["harness"]["source"] = serde_json::Value::String(format!(
        "-module({module}).\n-export([{function}/0]).\n\
         {function}() -> lists:duplicate(1 bsl 32, x).\n"
    ));
    let file = tampered(dir.path(), "alloc.json", &w);
    let run = racewit(dir.path(), &["replay", &file]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stderr
            .starts_with("racewit: error: replaying alloc.json: "),
        "{}",
        run.stderr
    );
}

/// `load.paths ["/"]` with no recorded source: replay refuses to walk a
/// path outside the directory it runs in.
#[test]
fn a_witness_never_walks_outside_the_project() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, mut w) = witnessed(dir.path());
    w["load"]["paths"] = serde_json::json!(["/"]);
    w["sources"] = serde_json::json!([]);
    w["modules"] = serde_json::json!([]);
    let file = tampered(dir.path(), "root.json", &w);
    let run = crate::common::Racewit::new(dir.path(), &["replay", &file])
        .within(60)
        .run();
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stderr.contains(
            "root.json: the witness loads /, which is outside the directory replay runs in"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_witness_that_is_not_a_regular_file_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("w.json"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let run = racewit(dir.path(), &["replay", "w.json"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("w.json: not a regular file"),
        "{}",
        run.stderr
    );
}

#[test]
fn triage_refuses_another_version_and_unknown_verdicts() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "reg.erl",
        &race_module("reg", "srv", "before() -> ok."),
    );
    let run = racewit(dir.path(), &["check", "--format", "json", "reg.erl"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let report = run.json();
    let mut v7 = report.clone();
    v7["version"] = serde_json::json!(7);
    let mut bogus = report;
    bogus["warnings"][0]["verdict"] = serde_json::json!("bogus");
    for (name, r, says) in [
        (
            "v7.json",
            v7,
            "report version 7: this racewit reads version 1",
        ),
        (
            "bogus.json",
            bogus,
            "warning 1 (R001:reg:5:6): verdict \"bogus\" is neither \"confirmed\" nor \"unconfirmed\"",
        ),
    ] {
        std::fs::write(dir.path().join(name), r.to_string()).expect("write");
        let run = racewit(dir.path(), &["triage", name]);
        assert_eq!(run.code, Some(1), "{name}: {}", run.stdout);
        assert!(run.stdout.is_empty(), "{name}: {}", run.stdout);
        assert!(run.stderr.contains(says), "{name}: {}", run.stderr);
    }
}
