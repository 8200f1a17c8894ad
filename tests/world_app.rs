//! The modelled outside world as a user meets it: `racewit run`, `check`,
//! `explore` and `replay` on a fixture application
//! (`tests/data/world_app`) started by `application:ensure_all_started/1`
//! from its `.app.src`, whose supervisor tree uses sets, logger, counters
//! and inet:parse_address.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn racewit(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_racewit"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("racewit runs")
}

fn fixture() -> String {
    root()
        .join("tests/data/world_app/src")
        .display()
        .to_string()
}

/// Whether Erlang/OTP is installed with the `crypto` application. The
/// fixture application depends on `crypto` (its `.app.src`), whose `.app`
/// racewit reads from the installed OTP; its server includes OTP's
/// `kernel/include/logger.hrl`, and its supervisor tree runs OTP's library
/// code (`sets`, `logger`), which racewit loads from OTP's sources.
fn otp_with_crypto() -> bool {
    racewit_otp::discover()
        .and_then(|otp| otp.app_dir("crypto"))
        .is_some_and(|dir| dir.join("ebin/crypto.app").is_file())
}

const NO_OTP: &str = "notice: Erlang/OTP is not installed (world_app starts OTP's crypto \
                      application and includes OTP's logger.hrl); skipping";

#[test]
fn run_starts_the_application_tree_and_shows_its_log() {
    if !otp_with_crypto() {
        eprintln!("{NO_OTP}");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = racewit(tmp.path(), &["run", "world_main:main/0", &fixture()]);
    // What `erl -noshell -kernel logger_level none` prints for the same
    // program (checked by hand with erlc and the .app made from the .app.src).
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{[crypto,world_app],\n [ok,ok,{error,bad_address},ok,{error,full}],\n \
         [{10,0,0,1},{10,0,0,2},{0,0,0,0,0,0,0,1}],\n 5,\n {ok,world_app},\n true}\n"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("=LOG NOTICE P1.1.1.1 world_server:init/")
            && err.contains("world_server starting: hello")
            && err.contains("=LOG WARNING P1.1.1.1 world_server:handle_call/3 line 28\npeer limit reached, 10.0.0.3 refused"),
        "{err}"
    );
    assert!(out.status.success());
}

#[test]
fn check_confirms_the_race_behind_the_world_calls_and_replay_repeats_it() {
    if !otp_with_crypto() {
        eprintln!("{NO_OTP}");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = racewit(tmp.path(), &["check", &fixture(), "--out", "w"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("CONFIRMED (crash: P1.1 exited with {badarg,[{world_main,cache,0,[]}]})"),
        "{text}"
    );
    assert!(!text.contains("unsupported"), "{text}");
    assert_eq!(out.status.code(), Some(2), "{text}");
    let witness = std::fs::read_dir(tmp.path().join("w"))
        .expect("out dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("R001"))
        })
        .expect("a witness");
    let json = std::fs::read_to_string(&witness).expect("witness");
    assert!(
        json.contains("\"libraries\""),
        "the load record names the libraries"
    );
    let replay = racewit(tmp.path(), &["replay", &witness.display().to_string()]);
    let steps = String::from_utf8_lossy(&replay.stdout);
    assert!(replay.status.success(), "{steps}");
    assert!(
        steps.contains("logger notice: \"cache lookup from [{127,0,0,1}]\""),
        "{steps}"
    );
    assert!(steps.contains("counters:add("), "{steps}");
    assert!(
        replay.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
}

#[test]
fn explore_runs_the_application_start_under_every_schedule() {
    if !otp_with_crypto() {
        eprintln!("{NO_OTP}");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = racewit(
        tmp.path(),
        &["explore", "world_main:test/0", &fixture(), "--out", "x"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // The runs get through the application start (ensure_all_started, the
    // supervisor tree, logger, counters, sets, inet) to the end of the
    // test: the failure explore reports is the supervisor's `shutdown`
    // exit when application:stop/1 stops the tree, not a stop at a call
    // racewit cannot run.
    assert!(
        text.contains("world_main:test/0: P1.1.1 crashed: shutdown"),
        "{text}"
    );
    assert!(
        text.contains("application:set_env(world_app, greeting"),
        "{text}"
    );
    assert!(!text.contains("unsupported"), "{text}");
}

/// `tests/data/app_boot`: an application whose supervised owner makes the
/// public table its API writes. Called without the application running,
/// every hit dies with badarg at the lookup; the harness variant that boots
/// the application first (from its `.app.src`) reaches the lost update, and
/// the verdict names that context.
#[test]
fn check_boots_the_application_that_makes_the_table() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = root().join("tests/data/app_boot/src").display().to_string();
    let out = racewit(
        tmp.path(),
        &["check", &src, "--format", "json", "--out", "w"],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    let warnings = report["warnings"].as_array().expect("warnings");
    assert_eq!(warnings.len(), 2, "{report:#}");
    for w in warnings {
        assert_eq!(w["verdict"], "confirmed", "{w:#}");
        assert_eq!(w["consequence"]["kind"], "non_serializable", "{w:#}");
        assert_eq!(w["context"]["application"], "hits", "{w:#}");
        let harness = w["harness"].as_str().expect("harness source");
        assert!(
            harness.contains("application:ensure_all_started(hits)"),
            "{harness}"
        );
    }
    let human = racewit(tmp.path(), &["check", &src, "--out", "h"]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("= context: application hits booted; API: 3 concurrent calls of hits:hit(1)"),
        "{text}"
    );
}
