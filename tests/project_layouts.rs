//! Projects with zero flags: `racewit parse`/`static`/`check` with no path
//! in a rebar3 umbrella (`erl_opts` includes and macros, an application's
//! own `rebar.config`, a non-recursive extra source directory, the test
//! profile, a dependency under `_build`), in an erlang.mk project, with a
//! `rebar.config` that does not parse, and the same results whatever way
//! the path is spelled. Fixtures: `tests/projects/`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/projects").join(name)
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// `racewit ARGS` in `dir`; stdout with the summary's timing and the
/// workspace's path replaced.
fn racewit(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_racewit"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run racewit");
    let root = root().display().to_string();
    let stdout: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let l = match l.find(", seconds: ") {
                Some(i) => &l[..i],
                None => l,
            };
            l.replace(&root, "[ROOT]")
        })
        .collect();
    Run {
        code: out.status.code(),
        stdout: stdout.join("\n"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// OTP's `eunit.hrl`, when Erlang/OTP is installed. The test modules of
/// the `umbrella` and `erlangmk` fixtures include it with
/// `-include_lib("eunit/include/eunit.hrl")`, as real projects do, and
/// racewit reads it from the installed OTP: with no OTP the include is an
/// error, and the snapshots (made with it) cannot match.
fn eunit_header() -> Option<PathBuf> {
    let header = racewit_otp::discover()?
        .app_dir("eunit")?
        .join("include/eunit.hrl");
    header.is_file().then_some(header)
}

#[test]
fn a_rebar3_umbrella_with_zero_flags() {
    if eunit_header().is_none() {
        eprintln!(
            "notice: Erlang/OTP is not installed (the fixture's tests include OTP's eunit.hrl); skipping"
        );
        return;
    }
    let dir = fixture("umbrella");
    let parse = racewit(&dir, &["parse", "--warnings"]);
    assert_eq!(parse.code, Some(0), "{}", parse.stderr);
    insta::assert_snapshot!("umbrella_parse", parse.stdout);
    let static_pass = racewit(&dir, &["static"]);
    assert_eq!(static_pass.code, Some(0), "{}", static_pass.stderr);
    insta::assert_snapshot!("umbrella_static", static_pass.stdout);
}

/// `check` confirms the race on the name that only rebar.config defines
/// (run in a copy: it writes `_racewit/`).
#[test]
fn a_rebar3_umbrella_checks_with_zero_flags() {
    if eunit_header().is_none() {
        eprintln!(
            "notice: Erlang/OTP is not installed (the fixture's tests include OTP's eunit.hrl); skipping"
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    copy_tree(&fixture("umbrella"), tmp.path());
    let check = racewit(tmp.path(), &["check"]);
    assert_eq!(check.code, Some(2), "{}\n{}", check.stdout, check.stderr);
    assert!(
        check
            .stdout
            .contains("erlang:register(umbrella_server, pid())"),
        "{}",
        check.stdout
    );
    assert!(check.stdout.contains("CONFIRMED"), "{}", check.stdout);
    assert!(tmp.path().join("_racewit/report.json").is_file());
}

/// A built project's dependencies (`_build/default/lib/*`) run as library
/// code: `tally:start/0` makes its table with the dependency `kvtab`, so
/// the lost update of `tally:bump/1` is confirmed with the dependency
/// there; without it the start parks at the call into it, and no run
/// reaches the write (run in copies: `check` writes `_racewit/`).
#[test]
fn a_built_projects_dependencies_run() {
    let tmp = tempfile::tempdir().expect("temp dir");
    copy_tree(&fixture("built"), tmp.path());
    let check = racewit(tmp.path(), &["check"]);
    assert_eq!(check.code, Some(2), "{}\n{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("[CONFIRMED"), "{}", check.stdout);
    // The witness records the dependency among the libraries it ran with,
    // so replay loads it again.
    let witness = std::fs::read_to_string(tmp.path().join("_racewit/R002-tally-11-15.json"))
        .expect("witness");
    assert!(witness.contains("_build/default/lib/kvtab"), "{witness}");

    let bare = tempfile::tempdir().expect("temp dir");
    copy_tree(&fixture("built"), bare.path());
    std::fs::remove_dir_all(bare.path().join("_build")).expect("rm _build");
    let check = racewit(bare.path(), &["check"]);
    assert_eq!(check.code, Some(0), "{}\n{}", check.stdout, check.stderr);
    assert!(!check.stdout.contains("[CONFIRMED"), "{}", check.stdout);
    assert!(check.stdout.contains("not_reached"), "{}", check.stdout);
}

#[test]
fn an_erlang_mk_project_with_zero_flags() {
    if eunit_header().is_none() {
        eprintln!(
            "notice: Erlang/OTP is not installed (the fixture's tests include OTP's eunit.hrl); skipping"
        );
        return;
    }
    let dir = fixture("erlangmk");
    let parse = racewit(&dir, &["parse", "--warnings"]);
    assert_eq!(parse.code, Some(0), "{}", parse.stderr);
    insta::assert_snapshot!("erlangmk_parse", parse.stdout);
    let static_pass = racewit(&dir, &["static"]);
    assert_eq!(static_pass.code, Some(0), "{}", static_pass.stderr);
    insta::assert_snapshot!("erlangmk_static", static_pass.stdout);
}

/// A `rebar.config` that does not read as terms is a diagnostic at its
/// position (and the exit code 1 of `parse`); the terms around the error
/// still count.
#[test]
fn a_broken_rebar_config_is_a_diagnostic() {
    let dir = fixture("bad_config");
    let parse = racewit(&dir, &["parse"]);
    assert_eq!(parse.code, Some(1));
    insta::assert_snapshot!("bad_config_parse", parse.stdout);
    let static_pass = racewit(&dir, &["static"]);
    assert_eq!(static_pass.code, Some(0));
    assert_eq!(
        static_pass.stderr,
        "racewit: warning: rebar.config:2:18: E010 expected an expression but found '}'\n"
    );
}

/// The same project from its root with no path, as `.`, by name from its
/// parent, by absolute path, from a subdirectory with no path and with a
/// file: each loads without an error (the application's own
/// `-include_lib("selfref/...")` and `-include("src/...")` from the root
/// are found every time), and loads the same files.
#[test]
fn resolution_does_not_depend_on_how_the_path_is_spelled() {
    let dir = fixture("selfref");
    let absolute = dir.display().to_string();
    let src = dir.join("src");
    let runs = [
        (dir.clone(), vec!["parse"]),
        (dir.clone(), vec!["parse", "."]),
        (fixture(""), vec!["parse", "selfref"]),
        (root(), vec!["parse", absolute.as_str()]),
        (PathBuf::from("/"), vec!["parse", absolute.as_str()]),
        (src.clone(), vec!["parse"]),
        (src.clone(), vec!["parse", "selfref.erl"]),
        (src.clone(), vec!["parse", "."]),
    ];
    for (cwd, args) in runs {
        let run = racewit(&cwd, &args);
        assert_eq!(
            run.code,
            Some(0),
            "in {}: {args:?}\n{}",
            cwd.display(),
            run.stdout
        );
        let summary = run.stdout.lines().last().unwrap_or_default().to_string();
        assert_eq!(
            summary,
            "files: 1, lines: 12, errors: 0",
            "in {}: {args:?}",
            cwd.display()
        );
    }
    // A file deep in an umbrella takes the umbrella's options.
    let run = racewit(
        &fixture("umbrella/apps/app_b/src"),
        &["parse", "b_client.erl"],
    );
    assert_eq!(
        run.stdout, "files: 1, lines: 11, errors: 0",
        "{}",
        run.stderr
    );
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read fixture") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
