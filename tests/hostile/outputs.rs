//! What `check` writes and says: witness names that would collide, two
//! runs on one output directory, a newline in a file name, stdout closed
//! early, files that do not load, absurd `--jobs`, control characters in
//! names.

use std::path::Path;

use crate::common::{Racewit, race_module, racewit, root, unprivileged, write};

const OK: &str = "before() -> ok.";

/// The witness paths of a JSON report's warnings that have one, in
/// warning order, with their ids.
fn witness_paths(report: &serde_json::Value) -> Vec<(String, String)> {
    report["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(|w| {
            let path = w["witness"].as_str()?;
            Some((w["id"].as_str().expect("id").to_string(), path.to_string()))
        })
        .collect()
}

/// `x-y.erl` and `x.y.erl` (modules `'x-y'` and `'x.y'`, both valid for
/// erlc) would both write `R001-x-y-4-5.json`: each gets its own witness,
/// and each replays.
#[test]
fn colliding_witness_names_stay_apart() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "x-y.erl", &race_module("'x-y'", "srv1", OK));
    write(dir.path(), "x.y.erl", &race_module("'x.y'", "srv2", OK));
    let run = racewit(dir.path(), &["check", "--format", "json", "."]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let paths = witness_paths(&run.json());
    assert_eq!(paths.len(), 2, "{paths:?}");
    assert_ne!(paths[0], paths[1]);
    for ((_, p), module) in paths.iter().zip(["x-y", "x.y"]) {
        let replay = racewit(dir.path(), &["replay", p]);
        assert_eq!(replay.code, Some(0), "{p}: {}", replay.stderr);
        assert!(
            replay.stdout.starts_with(&format!(
                "witness for R001:{module}:5:6 (schedule replayed exactly)"
            )),
            "{p}: {}",
            replay.stdout
        );
    }
}

/// A second `check` on an output directory in use fails at once with a
/// clear message; the first run's report and witnesses are its own; once
/// it is done the directory is free again.
#[test]
fn two_runs_on_one_output_directory_do_not_mix() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "reg.erl", &race_module("reg", "srv", OK));
    // A slower module keeps the first run going while the second starts.
    write(
        dir.path(),
        "slow.erl",
        &race_module(
            "slow",
            "slow_srv",
            "before() -> rec(0).\nrec(N) -> 1 + rec(N + 1).",
        ),
    );
    let args = ["check", "--format", "json", "--out", "out", "."];
    let first = Racewit::new(dir.path(), &args).start();
    let lock = dir.path().join("out/.lock");
    let waited = std::time::Instant::now();
    while !lock.exists() {
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(60),
            "the first run never locked out/"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let second = racewit(dir.path(), &args);
    let first = first.wait();
    assert_eq!(second.code, Some(1), "{}", second.stdout);
    assert!(
        second.stderr.contains("in use by another racewit run"),
        "{}",
        second.stderr
    );
    assert_eq!(first.code, Some(2), "{}", first.stderr);
    let report = first.json();
    let on_disk: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/report.json")).expect("report.json"),
    )
    .expect("JSON");
    assert_eq!(report, on_disk, "report.json is the first run's");
    let witnesses = witness_paths(&report);
    assert!(!witnesses.is_empty(), "{report:#}");
    for (id, path) in witnesses {
        let witness: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(&path)).expect("read"))
                .expect("JSON");
        assert_eq!(witness["subject"], id.as_str(), "{path}");
    }
    // The directory is free again: a third run on it (on `reg.erl` alone,
    // which is all it needs to confirm a race) runs and writes its report.
    let third = racewit(
        dir.path(),
        &["check", "--format", "json", "--out", "out", "reg.erl"],
    );
    assert_eq!(third.code, Some(2), "{}", third.stderr);
    let on_disk: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/report.json")).expect("report.json"),
    )
    .expect("JSON");
    assert_eq!(third.json(), on_disk, "report.json is the third run's");
}

/// A newline in a file name is never pasted into generated code: the race
/// is confirmed, and the name is shown escaped.
#[test]
fn a_newline_in_a_file_name_is_not_code() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "nl\nhalt().\n.erl",
        &race_module("nl", "srv", OK),
    );
    let run = racewit(dir.path(), &["check", "--format", "json", "."]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["warnings"][0]["verdict"], "confirmed", "{report:#}");
    let human = racewit(dir.path(), &["check", "--color", "never", "."]);
    assert_eq!(human.code, Some(2));
    assert!(
        human
            .stdout
            .starts_with("./nl\\nhalt().\\n.erl:6:22: R001 [CONFIRMED crash]"),
        "{}",
        human.stdout
    );
}

/// `racewit check . | true`: stdout closes at once; the exit code is still
/// the result's (2: a race confirmed), in every format.
#[test]
fn a_closed_stdout_keeps_the_exit_code() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "reg.erl", &race_module("reg", "srv", OK));
    for format in ["human", "json", "concise"] {
        let run = Racewit::new(dir.path(), &["check", "--format", format, "reg.erl"])
            .piped_to("true")
            .run();
        assert_eq!(run.code, Some(2), "--format {format}: {}", run.stderr);
    }
}

/// A file that cannot be read is an error at its path, and the exit code
/// is 1 (as root, racewit runs as `nobody`: root reads anything);
/// `--keep-going` exits with the results' code.
#[test]
fn an_unreadable_file_is_exit_1() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    write(root, "ok.erl", "-module(ok).\n");
    let secret = write(root, "secret.erl", "-module(secret).\n");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let user = unprivileged();
    let args = ["check", "--format", "concise", "--out", "out", "."];
    let run = Racewit::new(root, &args).run_as(user).run();
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.lines()[0],
        "./secret.erl:1:1: E001 cannot read ./secret.erl: Permission denied (os error 13)"
    );
    assert!(
        run.stderr.contains("1 error(s) in the input files"),
        "{}",
        run.stderr
    );
    let mut keep = args.to_vec();
    keep.push("--keep-going");
    let run = Racewit::new(root, &keep).run_as(user).run();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

/// Issue 18: a file that does not parse or preprocess makes `check` exit 1,
/// even when a race is confirmed elsewhere, unless `--keep-going`.
#[test]
fn a_file_that_does_not_load_is_exit_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "reg.erl", &race_module("reg", "srv", OK));
    write(dir.path(), "broken.erl", "-module(broken).\nf() -> (.\n");
    write(dir.path(), "pp.erl", "-module(pp).\nf() -> ?UNDEFINED.\n");
    let run = racewit(dir.path(), &["check", "--format", "concise", "."]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.lines()[..2],
        [
            "./broken.erl:2:9: E010 expected an expression but found '.'",
            "./pp.erl:2:9: E021 undefined macro 'UNDEFINED'",
        ]
    );
    assert!(run.stdout.contains("[CONFIRMED crash]"), "{}", run.stdout);
    assert!(
        run.stderr.contains(
            "racewit: 2 error(s) in the input files (syntax, preprocessor or reading): exit code 1"
        ),
        "{}",
        run.stderr
    );
    let run = racewit(
        dir.path(),
        &["check", "--format", "concise", "--keep-going", "."],
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let run = racewit(dir.path(), &["check", "--format", "concise", "reg.erl"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
}

/// `--jobs 100000`: a warning, the machine's cores, no panic, no thousands
/// of threads.
#[test]
fn absurd_jobs_are_capped_to_the_cores() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let run = Racewit::new(
        &root(),
        &[
            "check",
            "--jobs",
            "100000",
            "--format",
            "concise",
            "--out",
            "target/hostile-jobs",
            "corpus/registry/name_server.erl",
        ],
    )
    .run();
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "--jobs 100000: this machine has {cores} core(s); using {cores}"
        )),
        "{}",
        run.stderr
    );
    // Workers, the watcher, the main thread and a few of the runtime's.
    assert!(
        run.threads <= cores + 8,
        "{} threads for {cores} cores",
        run.threads
    );
}

/// Control characters in a file name, a module name and an atom never
/// reach the terminal raw: human, concise, triage and replay output show
/// them escaped.
#[test]
fn control_characters_in_names_are_escaped() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "esc\u{1b}[32m.erl",
        &race_module("'esc\\e[31mred'", "'t\\e]0;title\\^G'", OK),
    );
    let raw = |text: &str| text.chars().any(|c| c.is_control() && c != '\n');
    for format in ["human", "concise"] {
        let run = racewit(
            dir.path(),
            &["check", "--color", "never", "--format", format, "."],
        );
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(!raw(&run.stdout), "--format {format}: {:?}", run.stdout);
        assert!(
            run.stdout
                .starts_with("./esc\\e[32m.erl:6:22: R001 [CONFIRMED crash]"),
            "{}",
            run.stdout
        );
        if format == "human" {
            assert!(
                run.stdout.contains("id: R001:esc\\e[31mred:5:6"),
                "{}",
                run.stdout
            );
        }
    }
    let triage = racewit(dir.path(), &["triage"]);
    assert_eq!(triage.code, Some(2), "{}", triage.stderr);
    assert!(!raw(&triage.stdout), "{:?}", triage.stdout);
    assert!(
        triage
            .stdout
            .contains("R001:esc\\e[31mred:5:6  ./esc\\e[32m.erl:6"),
        "{}",
        triage.stdout
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("_racewit/report.json")).expect("report"),
    )
    .expect("JSON");
    let witness = report["warnings"][0]["witness"].as_str().expect("witness");
    let replay = racewit(dir.path(), &["replay", witness]);
    assert_eq!(replay.code, Some(0), "{}", replay.stderr);
    assert!(!raw(&replay.stdout), "{:?}", replay.stdout);
    assert!(Path::new(&dir.path().join(witness)).exists());
}
