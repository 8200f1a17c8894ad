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
fn positions_follow_a_file_attribute() {
    // `-file("template.erl", 100).` on line 4: line 6 is shown as 102, in
    // the snippet's gutter as in JSON, as erlc would report it.
    let human = cmd()
        .args(["static", "tests/data/file_attr/renumbered.erl"])
        .output()
        .expect("run");
    let human = String::from_utf8_lossy(&human.stdout);
    assert!(human.contains("102 │     case whereis(svc) of"), "{human}");
    assert!(human.contains("renumbered.erl:103:22"), "{human}");
    let json = cmd()
        .args([
            "static",
            "tests/data/file_attr/renumbered.erl",
            "--format",
            "json",
        ])
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let read = &v["suspects"][0]["read"];
    assert_eq!(read["file"], "template.erl");
    assert_eq!(read["line"], 102);
    assert_eq!(v["suspects"][0]["write"]["line"], 103);
}

#[test]
fn run_prints_the_bytes_erl_prints() {
    // Latin-1 output (erl -noshell writes standard_io as latin1), and an exit
    // status of 0 for a clean run.
    for name in ["fmt_unicode", "string_unicode", "fmt_binaries"] {
        let program = root().join(format!("tests/diff/programs/{name}.erl"));
        let expected = std::fs::read(root().join(format!("tests/diff/expected/{name}.out")))
            .expect("expected output");
        let out = cmd()
            .args(["run", &format!("{name}:main/0")])
            .arg(&program)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert!(out.stdout == expected, "{name}: stdout differs from erl's");
    }
}

#[test]
fn exit_1_when_no_erlang_source_is_found() {
    // A directory with no .erl file is a mistake to report, not "no race".
    let dir = tempfile::tempdir().expect("temp dir");
    for sub in ["check", "static"] {
        let out = cmd().arg(sub).arg(dir.path()).output().expect("run");
        assert_eq!(out.status.code(), Some(1), "{sub}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("no Erlang source files (.erl)"),
            "{sub}: {err}"
        );
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
    // The JSON on stdout, the human output (streamed as verdicts are
    // reached), the journal and the final report.
    let run = |jobs: &str, out: &str, format: &str| {
        let o = cmd()
            .args([
                "check",
                "corpus/registry",
                "--format",
                format,
                "--jobs",
                jobs,
                "--out",
                out,
            ])
            .output()
            .expect("run");
        let read = |name: &str| {
            std::fs::read_to_string(root().join(out).join(name))
                .expect(name)
                .replace(out, "[OUT]")
        };
        (
            String::from_utf8_lossy(&o.stdout).replace(out, "[OUT]"),
            read("report.jsonl"),
            read("report.json"),
        )
    };
    for format in ["json", "human"] {
        assert_eq!(
            run("1", "target/cli-test-j1", format),
            run("2", "target/cli-test-j2", format),
            "{format}"
        );
    }
}

/// The VM's hot loop is only a faster way to the same states: the whole
/// corpus gets the same report, witnesses and journal included, with it off.
#[test]
fn same_bytes_without_the_hot_loop() {
    let run = |out: &str, extra: &[&str]| {
        let o = cmd()
            .args([
                "check", "corpus", "--format", "json", "--jobs", "2", "--out", out,
            ])
            .args(extra)
            .output()
            .expect("run");
        let dir = root().join(out);
        let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| {
                        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
                        (
                            e.file_name().to_string_lossy().into_owned(),
                            text.replace(out, "[OUT]"),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        (
            String::from_utf8_lossy(&o.stdout).replace(out, "[OUT]"),
            files,
        )
    };
    let hot = run("target/cli-test-hot", &[]);
    let general = run("target/cli-test-general", &["--no-hot-loop"]);
    assert!(hot.0.contains("\"verdict\": \"confirmed\""), "{}", hot.0);
    assert!(
        hot.1.iter().any(|(name, _)| name.starts_with('R')),
        "no witness written"
    );
    assert_eq!(hot, general);
}

/// Runs `check corpus/` into `out` and stops it with `signal` once the
/// journal holds `lines` verdicts; returns the exit status and stderr.
fn check_killed(out: &Path, signal: &str, lines: usize) -> (Option<i32>, String) {
    let mut child = cmd()
        .args(["check", "corpus", "--jobs", "2", "--out"])
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let journal = out.join("report.jsonl");
    let start = std::time::Instant::now();
    loop {
        let n = std::fs::read_to_string(&journal)
            .map(|t| t.lines().count().saturating_sub(1))
            .unwrap_or(0);
        if n >= lines {
            break;
        }
        if let Ok(Some(_)) = child.try_wait() {
            panic!("check ended before it could be killed");
        }
        assert!(start.elapsed().as_secs() < 300, "no verdicts after 300 s");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The warnings' ids of a report, in order.
fn report_ids(path: &Path) -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("report")).expect("json");
    v["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|w| w["id"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn an_interrupted_check_keeps_its_verdicts_and_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let whole_dir = dir.path().join("whole");
    let whole = cmd()
        .args(["check", "corpus", "--jobs", "2", "--out"])
        .arg(&whole_dir)
        .output()
        .expect("run");
    assert_eq!(whole.status.code(), Some(2));
    let whole_stdout =
        String::from_utf8_lossy(&whole.stdout).replace(&*whole_dir.to_string_lossy(), "[OUT]");
    let whole_report = std::fs::read_to_string(whole_dir.join("report.json"))
        .expect("report")
        .replace(&*whole_dir.to_string_lossy(), "[OUT]");
    let all = report_ids(&whole_dir.join("report.json"));

    for signal in ["-TERM", "-KILL"] {
        let out = dir.path().join(signal.trim_start_matches('-'));
        let (code, stderr) = check_killed(&out, signal, 3);
        // The journal's verdicts are a prefix of the whole run's.
        let journal = std::fs::read_to_string(out.join("report.jsonl")).expect("journal");
        let kept: Vec<String> = journal
            .lines()
            .skip(1)
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .map(|v| v["id"].as_str().unwrap_or("").to_string())
            .collect();
        assert!(kept.len() >= 3, "{signal}: {kept:?}");
        assert_eq!(kept, all[..kept.len()], "{signal}");
        if signal == "-TERM" {
            // Said, and written: every verdict in the journal is in the
            // report, which says it is not complete.
            assert!(stderr.contains("interrupted"), "{stderr}");
            assert!(matches!(code, Some(1 | 2)), "{code:?}");
            let report: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(out.join("report.json")).expect("report"),
            )
            .expect("json");
            assert_eq!(report["complete"], false);
            let reported = report_ids(&out.join("report.json"));
            for id in &kept {
                assert!(reported.contains(id), "{id} decided but not in report.json");
            }
        }
        let resumed = cmd()
            .args(["check", "corpus", "--jobs", "2", "--resume", "--out"])
            .arg(&out)
            .output()
            .expect("resume");
        assert_eq!(resumed.status.code(), Some(2), "{signal}");
        let stdout =
            String::from_utf8_lossy(&resumed.stdout).replace(&*out.to_string_lossy(), "[OUT]");
        assert_eq!(stdout, whole_stdout, "{signal}: resumed output differs");
        let report = std::fs::read_to_string(out.join("report.json"))
            .expect("report")
            .replace(&*out.to_string_lossy(), "[OUT]");
        assert_eq!(report, whole_report, "{signal}: resumed report differs");
        assert!(
            !String::from_utf8_lossy(&resumed.stderr).contains("checking every suspect"),
            "{signal}: nothing was resumed"
        );
    }
}

#[test]
fn two_runs_cannot_share_an_output_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join(".lock"),
        format!("{}\n", std::process::id()),
    )
    .expect("lock");
    let o = cmd()
        .args(["check", "corpus/registry/name_server.erl", "--out"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("in use by another racewit run"), "{err}");
}

/// Real code: the `whereis(ct_master)` / `register(ct_master, self())` race
/// in OTP's common_test is confirmed from a generated harness, and the
/// witness shows the second `register` failing with `badarg`.
#[test]
fn ct_master_race_is_confirmed_on_real_otp_code() {
    let Some(file) = otp_source("common_test", "ct_master.erl") else {
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

// ---------------------------------------------------------------- SARIF --

/// `racewit ARGS --format sarif`: the exit code and the parsed log.
fn sarif(args: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let out = cmd()
        .args(args)
        .args(["--format", "sarif"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let log = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{args:?}: SARIF is not JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), log, text)
}

/// The SARIF 2.1.0 schemas in tests/data/sarif-schema (see its README): the
/// OASIS standard's and the copy GitHub's upload action checks uploads
/// against. Formats (`uri`, `uri-reference`) are checked too.
fn sarif_validators() -> &'static [(&'static str, jsonschema::Validator)] {
    static VALIDATORS: std::sync::OnceLock<Vec<(&'static str, jsonschema::Validator)>> =
        std::sync::OnceLock::new();
    VALIDATORS.get_or_init(|| {
        [
            "oasis-sarif-schema-2.1.0.json",
            "github-sarif-schema-2.1.0.json",
        ]
        .into_iter()
        .map(|name| {
            let path = root().join("tests/data/sarif-schema").join(name);
            let text = std::fs::read_to_string(&path).expect("schema file");
            let mut schema: serde_json::Value =
                serde_json::from_str(&text).expect("schema is JSON");
            if name.starts_with("github") {
                // GitHub's copy moved the region's `anyOf` (startLine, charOffset
                // or byteOffset) under `properties`, where it is not a schema; the
                // upload action's validator does not check the schema itself and
                // reads it as the schema of a member named "anyOf". Drop it so the
                // rest compiles; the OASIS schema keeps the real constraint.
                let removed = schema["definitions"]["region"]["properties"]
                    .as_object_mut()
                    .and_then(|p| p.remove("anyOf"));
                assert!(removed.is_some_and(|v| v.is_array()), "{name} changed");
            }
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&schema)
                .unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
            (name, validator)
        })
        .collect()
    })
}

/// Every schema error, as `schema: /instance/path: message`.
fn schema_errors(log: &serde_json::Value) -> Vec<String> {
    sarif_validators()
        .iter()
        .flat_map(|(name, v)| {
            v.iter_errors(log)
                .map(move |e| format!("{name}: {}: {e}", e.instance_path()))
        })
        .collect()
}

fn results(log: &serde_json::Value) -> &[serde_json::Value] {
    log["runs"][0]["results"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// SARIF 2.1.0: one rule per category, the write as the location, the read
/// and the path as related locations, the witness as code flows.
#[test]
fn sarif_for_a_confirmed_race() {
    let (code, log, text) = sarif(&[
        "check",
        "corpus/registry/name_server.erl",
        "--out",
        "target/cli-test-sarif",
    ]);
    assert_eq!(code, Some(2));
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "racewit");
    assert_eq!(
        run["tool"]["driver"]["rules"].as_array().map(Vec::len),
        Some(7)
    );
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "R001");
    assert_eq!(result["level"], "error");
    let write = &result["locations"][0]["physicalLocation"];
    assert_eq!(write["region"]["startLine"], 15);
    let read = &result["locations"][1]["physicalLocation"];
    assert_eq!(read["region"]["startLine"], 11);
    insta::assert_snapshot!(text);
}

/// The log of every kind of run is valid SARIF 2.1.0 for both schemas.
#[test]
fn sarif_is_valid_against_the_sarif_2_1_0_schemas() {
    struct Case {
        what: &'static str,
        args: &'static [&'static str],
        exit: i32,
        results: std::ops::RangeInclusive<usize>,
        notifications: bool,
    }
    let cases = [
        Case {
            what: "confirmed races, paths through gen_server calls",
            args: &[
                "check",
                "corpus/gen_server",
                "--out",
                "target/cli-test-sarif-gs",
            ],
            exit: 2,
            results: 4..=usize::MAX,
            notifications: false,
        },
        Case {
            what: "an unconfirmed suspect",
            args: &[
                "check",
                "corpus/registry/catch_register_ok.erl",
                "--out",
                "target/cli-test-sarif-unc",
            ],
            exit: 0,
            results: 1..=1,
            notifications: false,
        },
        Case {
            what: "load diagnostics only",
            args: &[
                "check",
                "tests/data/sarif/broken_syntax.erl",
                "--out",
                "target/cli-test-sarif-diag",
            ],
            exit: 1,
            results: 0..=0,
            notifications: true,
        },
        Case {
            what: "no suspect at all",
            args: &[
                "check",
                "corpus/ets/counter_atomic_ok.erl",
                "--out",
                "target/cli-test-sarif-empty",
            ],
            exit: 0,
            results: 0..=0,
            notifications: false,
        },
        Case {
            what: "a space and non-ASCII text",
            args: &[
                "check",
                "tests/data/sarif/with space/emoji_server.erl",
                "--out",
                "target/cli-test-sarif-odd",
            ],
            exit: 2,
            results: 1..=1,
            notifications: false,
        },
        Case {
            what: "the static pass over the whole corpus, every category",
            args: &["static", "corpus"],
            exit: 0,
            results: 30..=usize::MAX,
            notifications: false,
        },
    ];
    for case in cases {
        check_sarif_case(
            case.what,
            case.args,
            case.exit,
            case.results,
            case.notifications,
        );
    }
    // Real code outside the working directory: absolute file:// URIs.
    if let Some(file) = otp_source("common_test", "ct_master.erl") {
        let file = file.to_string_lossy().into_owned();
        check_sarif_case(
            "OTP's ct_master.erl",
            &["static", &file],
            0,
            1..=usize::MAX,
            false,
        );
        let (_, log, _) = sarif(&["static", &file]);
        let uri = &results(&log)[0]["locations"][0]["physicalLocation"]["artifactLocation"];
        assert!(
            uri["uri"]
                .as_str()
                .is_some_and(|u| u.starts_with("file:///")),
            "{uri}"
        );
        assert!(uri.get("uriBaseId").is_none());
    } else {
        eprintln!("notice: OTP's common_test sources are not installed; skipping ct_master");
    }
}

/// An OTP application's source file, when OTP's sources are installed.
fn otp_source(app: &str, file: &str) -> Option<PathBuf> {
    std::fs::read_dir("/usr/lib/erlang/lib")
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{app}-"))
        })
        .map(|e| e.path().join("src").join(file))
        .find(|p| p.exists())
}

/// Runs racewit with `--format sarif`, checks the outcome, and asserts the
/// log has no error against either schema (printing them all if it has).
fn check_sarif_case(
    what: &str,
    args: &[&str],
    exit: i32,
    expected_results: std::ops::RangeInclusive<usize>,
    notifications: bool,
) {
    let (code, log, _) = sarif(args);
    assert_eq!(code, Some(exit), "{what}");
    let n = results(&log).len();
    assert!(expected_results.contains(&n), "{what}: {n} results");
    let notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(notes > 0, notifications, "{what}: {notes} notifications");
    let errors = schema_errors(&log);
    assert!(
        errors.is_empty(),
        "{what}: {} schema error(s):\n{}",
        errors.len(),
        errors.join("\n")
    );
}

/// The schema check is not vacuous: broken logs fail it.
#[test]
fn the_sarif_schema_check_catches_invalid_logs() {
    let (_, log, _) = sarif(&[
        "check",
        "corpus/registry/name_server.erl",
        "--out",
        "target/cli-test-sarif-bad",
    ]);
    assert!(schema_errors(&log).is_empty());
    type Breaker = fn(&mut serde_json::Value);
    let broken: [(&str, Breaker); 4] = [
        ("no version", |l| {
            l.as_object_mut().map(|o| o.remove("version"));
        }),
        ("line 0", |l| {
            l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
                0.into();
        }),
        ("unknown level", |l| {
            l["runs"][0]["results"][0]["level"] = "fatal".into();
        }),
        ("a URI with a space", |l| {
            l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
                "a b.erl".into();
        }),
    ];
    for (what, breaks) in broken {
        let mut bad = log.clone();
        breaks(&mut bad);
        assert!(!schema_errors(&bad).is_empty(), "{what}: no schema error");
    }
}

/// What GitHub code scanning reads ("SARIF support for code scanning"):
/// rule texts and metadata, relative URIs under %SRCROOT%, full regions,
/// fingerprints, links from the message to related locations, limits.
#[test]
fn sarif_has_what_github_code_scanning_shows() {
    let (_, log, _) = sarif(&[
        "check",
        "corpus/gen_server",
        "--out",
        "target/cli-test-sarif-gh",
    ]);
    assert_eq!(
        log["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["semanticVersion"], driver["version"]);
    if let Some(uri) = driver["informationUri"].as_str() {
        assert!(
            uri.starts_with("https://") || uri.starts_with("http://"),
            "{uri}"
        );
    }
    let rules = driver["rules"].as_array().expect("rules");
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(
        ids,
        ["R001", "R002", "R003", "R004", "R005", "R006", "R007"]
    );
    for r in rules {
        for key in ["shortDescription", "fullDescription", "help"] {
            let t = r[key]["text"].as_str().unwrap_or_default();
            assert!(!t.is_empty() && t.len() <= 1024, "{} {key}", r["id"]);
        }
        assert!(
            r["help"]["markdown"]
                .as_str()
                .is_some_and(|m| m.contains("## "))
        );
        let p = &r["properties"];
        let tags = p["tags"].as_array().expect("tags");
        assert!(
            tags.len() <= 10 && tags.contains(&"concurrency".into()),
            "{tags:?}"
        );
        assert!(
            ["very-high", "high", "medium", "low"].contains(&p["precision"].as_str().unwrap_or(""))
        );
        assert!(
            ["error", "warning", "recommendation"]
                .contains(&p["problem.severity"].as_str().unwrap_or(""))
        );
        // Races are reliability bugs: no security-severity, so they are not security alerts.
        assert!(p.get("security-severity").is_none());
    }
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    assert!(run["originalUriBaseIds"]["%SRCROOT%"]["description"]["text"].is_string());
    // No absolute path of this machine in the log.
    assert!(run["originalUriBaseIds"]["%SRCROOT%"].get("uri").is_none());
    assert!(!log.to_string().contains(root().to_string_lossy().as_ref()));
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    // Left to upload-sarif's `category` input, which it ignores when set.
    assert!(run.get("automationDetails").is_none());

    let results = results(&log);
    assert!(results.len() >= 4 && results.len() <= 25_000);
    let mut fingerprints = std::collections::BTreeSet::new();
    for r in results {
        let i = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(r["ruleId"], rules[i]["id"]);
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().unwrap_or("")));
        let locations = r["locations"].as_array().expect("locations");
        assert!((1..=10).contains(&locations.len()));
        for l in locations
            .iter()
            .chain(r["relatedLocations"].as_array().into_iter().flatten())
        {
            let a = &l["physicalLocation"]["artifactLocation"];
            let uri = a["uri"].as_str().unwrap_or_default();
            assert_eq!(a["uriBaseId"], "%SRCROOT%", "{uri}");
            assert!(uri.starts_with("corpus/gen_server/"), "{uri}");
            assert!(l["physicalLocation"]["region"]["startLine"].as_u64() > Some(0));
        }
        let region = &locations[0]["physicalLocation"]["region"];
        for key in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(
                region[key].as_u64().is_some_and(|n| n > 0),
                "{key}: {region}"
            );
        }
        let fp = r["partialFingerprints"]["racewit/v1"]
            .as_str()
            .expect("fingerprint");
        assert!(
            fingerprints.insert(fp.to_string()),
            "duplicate fingerprint {fp}"
        );
        // Every [text](id) of the message names exactly one related location.
        let message = r["message"]["text"].as_str().expect("message");
        let related: Vec<u64> = r["relatedLocations"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| l["id"].as_u64())
            .collect();
        let mut sorted = related.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), related.len(), "related ids are unique");
        let links: Vec<u64> = message
            .split("](")
            .skip(1)
            .filter_map(|rest| rest.split(')').next()?.parse().ok())
            .collect();
        assert!(!links.is_empty(), "{message}");
        for id in links {
            assert!(
                related.contains(&id),
                "link ({id}) without a location: {message}"
            );
        }
    }
}

/// The witness as code flows: the interleaving as one thread flow (what
/// viewers show), then one thread flow per Erlang process ordered by
/// executionOrder.
#[test]
fn sarif_witness_is_a_thread_flow_per_process() {
    let (_, log, _) = sarif(&[
        "check",
        "corpus/registry/name_server.erl",
        "--out",
        "target/cli-test-sarif-flow",
    ]);
    let flows = &results(&log)[0]["codeFlows"];
    let interleaving = flows[0]["threadFlows"].as_array().expect("thread flows");
    assert_eq!(interleaving.len(), 1);
    assert_eq!(interleaving[0]["id"], "interleaving");
    let steps: Vec<u64> = interleaving[0]["locations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["executionOrder"].as_u64())
        .collect();
    // The harness's own steps (0-2, its receives) are not in the user's code.
    assert_eq!(steps, [3, 4, 5, 6, 9, 10]);
    let essential: Vec<u64> = interleaving[0]["locations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|l| l["importance"] == "essential")
        .filter_map(|l| l["executionOrder"].as_u64())
        .collect();
    assert_eq!(
        essential,
        [3, 6, 10],
        "read, interfering write, stale write"
    );
    let per_process = flows[1]["threadFlows"].as_array().expect("thread flows");
    let ids: Vec<&str> = per_process
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert_eq!(ids, ["P1.1", "P1.2"]);
    let mut all: Vec<u64> = Vec::new();
    for t in per_process {
        let id = t["id"].as_str().unwrap_or_default();
        let mine: Vec<u64> = t["locations"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|l| {
                let text = l["location"]["message"]["text"]
                    .as_str()
                    .unwrap_or_default();
                let n = l["executionOrder"].as_u64().unwrap_or(u64::MAX);
                assert!(text.starts_with(&format!("step {n}: {id} ")), "{text}");
                n
            })
            .collect();
        assert!(mine.windows(2).all(|w| w[0] < w[1]), "{id}: {mine:?}");
        all.extend(mine);
    }
    all.sort_unstable();
    assert_eq!(all, steps);
}

/// A file in a directory with a space, with non-ASCII text before the read:
/// the URI is percent-encoded and the columns count UTF-16 code units.
#[test]
fn sarif_uris_and_columns_for_odd_files() {
    let file = "tests/data/sarif/with space/emoji_server.erl";
    let (_, log, _) = sarif(&["check", file, "--out", "target/cli-test-sarif-cols"]);
    let r = &results(&log)[0];
    let read = &r["locations"][1]["physicalLocation"];
    assert_eq!(
        read["artifactLocation"]["uri"],
        "tests/data/sarif/with%20space/emoji_server.erl"
    );
    let text = std::fs::read_to_string(root().join(file)).expect("read");
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("whereis("))
        .expect("the read");
    let before = &line[..line.find("whereis(").unwrap_or_default()];
    let utf16 = before.encode_utf16().count() as u64 + 1;
    let chars = before.chars().count() as u64 + 1;
    assert_ne!(
        utf16, chars,
        "the test line needs characters outside the BMP"
    );
    assert_eq!(read["region"]["startLine"], n as u64 + 1);
    assert_eq!(read["region"]["startColumn"], utf16);
    assert_eq!(
        read["region"]["endColumn"],
        utf16 + "whereis(emoji_server)".len() as u64
    );
}

/// Load errors are tool notifications with their code and place.
#[test]
fn sarif_load_diagnostics_are_notifications() {
    let (_, log, _) = sarif(&[
        "check",
        "tests/data/sarif/broken_syntax.erl",
        "--out",
        "target/cli-test-sarif-notes",
    ]);
    let notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .expect("notifications");
    let codes: Vec<&str> = notes
        .iter()
        .filter_map(|n| n["descriptor"]["id"].as_str())
        .collect();
    assert!(codes.contains(&"E020"), "{codes:?}");
    for n in notes {
        let l = &n["locations"][0]["physicalLocation"];
        assert_eq!(
            l["artifactLocation"]["uri"],
            "tests/data/sarif/broken_syntax.erl"
        );
        assert!(["error", "warning"].contains(&n["level"].as_str().unwrap_or("")));
    }
}

/// The fingerprint names the race, not its lines: code added above it leaves
/// it alone, while two writes after one read get two.
#[test]
fn sarif_fingerprints_survive_moved_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original =
        std::fs::read_to_string(root().join("corpus/registry/name_server.erl")).expect("read");
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    for (d, text) in [
        (&a, original.clone()),
        (&b, format!("%% one\n%% two\n%% three\n{original}")),
    ] {
        std::fs::create_dir_all(d).expect("mkdir");
        std::fs::write(d.join("name_server.erl"), text).expect("write");
    }
    let fingerprint = |d: &Path| {
        let (_, log, _) = sarif(&["static", &d.join("name_server.erl").to_string_lossy()]);
        let r = &results(&log)[0];
        (
            r["partialFingerprints"]["racewit/v1"].clone(),
            r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64(),
        )
    };
    let (fa, la) = fingerprint(&a);
    let (fb, lb) = fingerprint(&b);
    assert!(fa.is_string());
    assert_eq!(fa, fb);
    assert_eq!(la.map(|l| l + 3), lb);

    let (_, log, _) = sarif(&["static", "corpus/ets/hit_counter.erl"]);
    let fps: Vec<&serde_json::Value> = results(&log)
        .iter()
        .map(|r| &r["partialFingerprints"]["racewit/v1"])
        .collect();
    // Same read, same write call, same function: told apart by occurrence.
    assert_eq!(fps.len(), 2);
    assert_ne!(fps[0], fps[1]);
    assert!(fps[0].as_str().is_some_and(|f| f.ends_with(":0")));
    assert!(fps[1].as_str().is_some_and(|f| f.ends_with(":1")));
}

#[test]
fn sarif_same_bytes_whatever_the_thread_count() {
    let run = |jobs: &str| {
        sarif(&[
            "check",
            "corpus/registry",
            "--jobs",
            jobs,
            "--out",
            "target/cli-test-sarif-jobs",
        ])
        .2
    };
    assert_eq!(run("1"), run("2"));
}

// -------------------------------------------------------------- pictures --

/// `racewit replay W --html F --svg G`: the witness as a sequence diagram.
fn picture(file: &str, out: &str) -> (String, String) {
    let o = cmd()
        .args(["check", file, "--out", out])
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2), "{file}: no confirmed race");
    let witness = std::fs::read_dir(root().join(out))
        .expect("out dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('R'))
        })
        .min()
        .expect("a witness");
    let html = root().join(out).join("witness.html");
    let svg = root().join(out).join("witness.svg");
    let r = cmd()
        .arg("replay")
        .arg(&witness)
        .arg("--html")
        .arg(&html)
        .arg("--svg")
        .arg(&svg)
        .output()
        .expect("replay");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    (
        std::fs::read_to_string(html).expect("html"),
        std::fs::read_to_string(svg).expect("svg"),
    )
}

#[test]
fn html_picture_of_a_witness() {
    let (html, svg) = picture("corpus/registry/name_server.erl", "target/cli-test-html");
    assert!(html.contains(svg.trim_end()), "the page holds the SVG");
    for mark in [
        "(1) P1.1  erlang:whereis",
        "(2) P1.2  erlang:register",
        "(3) P1.1  erlang:register",
    ] {
        assert!(svg.contains(mark), "{mark}");
    }
    assert!(svg.contains("consequence: crash: P1.1 exited with"));
    // Labels are whole: the stale write with its file, then the exit it
    // led to (a step of its own).
    assert!(!svg.contains('…'), "no label is cut");
    assert!(
        svg.contains(
            "erlang:register(name_server, P1.1.1) -&gt; badarg  corpus/registry/name_server.erl:15<"
        ),
        "{svg}"
    );
    assert!(
        svg.contains(">P1.1  exit({badarg,[{name_server,ensure_started,0,[]}]})<"),
        "{svg}"
    );
    // Every step has its hover details: process, call, source location.
    let steps = svg.matches("<title>step ").count();
    assert_eq!(steps, 18, "one <title> per step");
    assert!(
        svg.contains(
            "<title>step 3: P1.1\ncall: erlang:whereis(name_server) -&gt; undefined\nitem: registry name_server (read)\nat: corpus/registry/name_server.erl:11:10\nthe race: (1) the read</title>"
        ),
        "{svg}"
    );
    insta::assert_snapshot!(html);
}

/// A lost update's final state is printed line by line under the diagram,
/// and the picture is wide enough for it.
#[test]
fn svg_picture_prints_a_multiline_consequence() {
    let (_, svg) = picture(
        "corpus/gen_server/kv_split_client.erl",
        "target/cli-test-svg",
    );
    assert!(svg.contains("consequence: non_serializable: no serial schedule ends in this state"));
    assert!(svg.contains(">  ets kv_data"), "{svg}");
    assert!(!svg.contains("\\n"), "no escaped newlines");
    let width: usize = svg
        .split("width=\"")
        .nth(1)
        .and_then(|w| w.split('"').next()?.parse().ok())
        .expect("width");
    let longest = svg
        .lines()
        .filter(|l| l.contains("fill=\"#900\" style="))
        .filter_map(|l| Some(l.split('>').nth(1)?.split("</text").next()?.chars().count()))
        .max()
        .expect("consequence lines");
    assert!(
        width >= 60 + longest * 6,
        "width {width} < {longest} characters"
    );
}

#[test]
fn explore_never_claims_runs_that_did_not_run_whole() {
    // Two tests that never end (one computing, cut by the reduction budget,
    // one passing messages, cut at the step limit), one whose awaited
    // process stops at an unsupported call, and one that stops at such a
    // call after its checks: none is "every interleaving explored", none is
    // a deadlock, and each exits 1 (nothing may be read from what was
    // explored).
    let out = tempfile::tempdir().expect("tempdir");
    let mut report = String::new();
    for entry in [
        "never_ends",
        "steps_forever",
        "parked_sender",
        "parked_after",
        "parked_not_loaded",
    ] {
        let o = cmd()
            .args(["explore", &format!("partial:{entry}/0")])
            .arg("tests/data/explore_partial/partial.erl")
            .args(["--max-run-steps", "2000", "--out"])
            .arg(out.path())
            .output()
            .expect("run");
        let text = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{entry}: {text}");
        assert!(!text.contains("every interleaving explored"), "{text}");
        assert!(!text.contains("deadlock"), "{text}");
        report.push_str(&text);
    }
    // A search stopped at its interleaving budget with runs left: no claim,
    // exit 1.
    let o = cmd()
        .args([
            "explore",
            "partial:many_orders/0",
            "--max-interleavings",
            "3",
        ])
        .arg("tests/data/explore_partial/partial.erl")
        .arg("--out")
        .arg(out.path())
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "many_orders: {text}");
    assert!(!text.contains("every interleaving explored"), "{text}");
    report.push_str(&text);
    insta::assert_snapshot!(report);
}

#[test]
fn caps_on_time_and_memory_stop_a_search_and_say_so() {
    // The search of busy_counter finds no race and has a very large space;
    // each caller holds a large list. A cap that is hit ends the search
    // with its own reason and no claim about the space (the step allowance
    // of a context as well as the caps on time and memory).
    for (flag, value, kind) in [
        ("--timeout", "1", "time_budget"),
        ("--max-memory", "100M", "memory_budget"),
        ("--max-context-reductions", "200000", "context_budget"),
    ] {
        let out = tempfile::tempdir().expect("tempdir");
        let o = cmd()
            .args([
                "check",
                "tests/data/caps/busy_counter.erl",
                "--format",
                "json",
            ])
            .args([flag, value, "--out"])
            .arg(out.path())
            .output()
            .expect("run");
        assert_eq!(o.status.code(), Some(0), "{flag}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        let w = &v["warnings"][0];
        assert_eq!(w["reason"]["kind"], kind, "{flag}: {w}");
        assert_eq!(w["exhausted"], false, "{flag}");
        let text = w["reason_text"].as_str().unwrap_or("");
        assert!(text.contains(flag), "{flag}: {text}");
    }
}

#[test]
fn numeric_flags_are_range_checked() {
    for args in [
        &["--max-interleavings", "18446744073709551615"][..],
        &["--max-interleavings", "0"][..],
        &["--bound", "100000"][..],
        &["--max-run-steps", "0"][..],
        &["--max-context-reductions", "0"][..],
        &["--timeout", "0"][..],
        &["--max-memory", "1K"][..],
        &["--max-memory", "lots"][..],
        &["--jobs", "0"][..],
    ] {
        let o = cmd()
            .args([
                "check",
                "corpus/registry/name_server.erl",
                "--out",
                "target/cli-test-range",
            ])
            .args(args)
            .output()
            .expect("run");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(args[0]), "{args:?}: {err}");
    }
    // More jobs than cores: a warning, and the run goes on with the cores.
    let o = cmd()
        .args([
            "check",
            "corpus/registry/name_server.erl",
            "--jobs",
            "100000",
        ])
        .args(["--out", "target/cli-test-range"])
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--jobs 100000: this machine has"), "{err}");
}

#[test]
fn accepted_findings_are_not_reported_and_are_counted() {
    // -racewit({nowarn, ...}) and -dialyzer({nowarn_function, ...}) in the
    // code, [suppress] functions in racewit.toml: one warning is left.
    let out = tempfile::tempdir().expect("tempdir");
    let o = cmd()
        .args(["check", "tests/data/accept", "--out"])
        .arg(out.path())
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(
        text.contains(
            "1 suspect(s): 1 confirmed, 0 unconfirmed; 3 accepted (2 suppressed in code, 1 suppressed in racewit.toml)"
        ),
        "{text}"
    );
    assert!(text.contains("R001:in_code:21:22"), "{text}");
    // The settings and where each comes from.
    let o = cmd()
        .args([
            "check",
            "tests/data/accept",
            "--print-config",
            "--bound",
            "3",
        ])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("bound = 3    # command line"), "{text}");
    assert!(text.contains("processes = [2, 3]    # default"), "{text}");
    assert!(
        text.contains("functions [\"config_ok:ensure/0\"]"),
        "{text}"
    );
}

#[test]
fn a_baseline_survives_an_unrelated_edit_and_catches_a_new_warning() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("name_server.erl");
    let original =
        std::fs::read_to_string(root().join("corpus/registry/name_server.erl")).expect("read");
    std::fs::write(&src, &original).expect("write");
    let baseline = dir.path().join("racewit.baseline");
    let out = dir.path().join("out");
    let o = cmd()
        .arg("check")
        .arg(&src)
        .arg("--write-baseline")
        .arg(&baseline)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // An edit above the warning moves its lines: still in the baseline.
    let edited = original.replacen("-export(", "%% a comment\n%% another\n-export(", 1);
    std::fs::write(&src, &edited).expect("write");
    let check = |file: &std::path::Path| {
        cmd()
            .arg("check")
            .arg(file)
            .arg("--baseline")
            .arg(&baseline)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("run")
    };
    let o = check(&src);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("1 accepted (1 in the baseline)"), "{text}");
    // A new race in another function is reported.
    let grown = format!(
        "{edited}\nsecond() ->\n    case whereis(other_name) of\n        undefined -> register(other_name, spawn(fun() -> receive stop -> ok end end));\n        _ -> ok\n    end.\n"
    )
    .replacen("-export([", "-export([second/0, ", 1);
    std::fs::write(&src, &grown).expect("write");
    let o = check(&src);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(text.contains("other_name"), "{text}");
    assert!(text.contains("1 accepted (1 in the baseline)"), "{text}");
}

/// `--after-timeout`: by default a timeout fires only when nothing else can
/// run, so a correct gen_server call with a timeout passes; `always` lets
/// it fire before the server answers; `never` leaves a process waiting only
/// for its own timeout stuck; a number lets short timeouts fire at any
/// point and longer ones when stuck.
#[test]
fn explore_fires_timeouts_as_the_policy_says() {
    let out = tempfile::tempdir().expect("tempdir");
    let explore = |entry: &str, policy: Option<&str>| {
        let mut c = cmd();
        c.args([
            "explore",
            entry,
            "tests/data/explore_timeout/call_timeout.erl",
        ]);
        if let Some(p) = policy {
            c.args(["--after-timeout", p]);
        }
        let o = c.arg("--out").arg(out.path()).output().expect("run");
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, text) = explore("call_timeout:test/0", None);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("0 failing"), "{text}");
    let (code, text) = explore("call_timeout:test/0", Some("always"));
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("timeout"), "{text}");
    let (code, text) = explore("call_timeout:test/0", Some("10000"));
    assert_eq!(code, Some(2), "a 5000 ms timeout is under 10000: {text}");
    let (code, text) = explore("call_timeout:test/0", Some("1000"));
    assert_eq!(
        code,
        Some(0),
        "a 5000 ms timeout fires only when stuck: {text}"
    );
    let (code, text) = explore("call_timeout:sleepy/0", Some("never"));
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("deadlock"), "{text}");
    assert!(text.contains("--after-timeout never"), "{text}");
    let (code, text) = explore("call_timeout:sleepy/0", None);
    assert_eq!(code, Some(0), "{text}");
    let o = cmd()
        .args(["explore", "call_timeout:test/0"])
        .arg("tests/data/explore_timeout/call_timeout.erl")
        .args(["--after-timeout", "soon"])
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(1), "a usage error");
    assert!(String::from_utf8_lossy(&o.stderr).contains("expected when-stuck, always, never"));
}

/// An `--entry` that names no arity-0 function of the analysed code is an
/// error, not a silent no-op; explore takes no harness flags.
#[test]
fn entries_must_name_loaded_functions() {
    let out = tempfile::tempdir().expect("tempdir");
    // The error names what the loaded code has instead: the module's
    // exported functions of arity 0, or the loaded modules.
    let mut errors = String::new();
    for (command, entry) in [
        ("check", "foo:bar/0"),
        ("check", "name_server:bar/0"),
        ("explore", "foo:bar/0"),
        ("explore", "partial:nothing/0"),
    ] {
        let mut c = cmd();
        c.arg(command);
        if command == "check" {
            c.args(["corpus/registry/name_server.erl", "--entry", entry]);
        } else {
            c.args([entry, "tests/data/explore_partial/partial.erl"]);
        }
        let o = c.arg("--out").arg(out.path()).output().expect("run");
        assert_eq!(o.status.code(), Some(1), "{command} {entry}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        let line = stderr
            .lines()
            .find(|l| l.contains("bar/0") || l.contains("nothing/0"))
            .unwrap_or_else(|| panic!("{command} {entry}: {stderr}"));
        errors.push_str(&format!("{command} {entry}: {line}\n"));
    }
    insta::assert_snapshot!(errors);
    let o = cmd()
        .args(["explore", "call_timeout:test/0", "--processes", "3"])
        .arg("tests/data/explore_timeout/call_timeout.erl")
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(1), "explore takes no --processes");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--processes"));
}

/// A tree that holds its own copy of an application racewit models
/// (`tests/projects/modelled`: a stand-in `mnesia` application, as the OTP
/// tree holds mnesia's source): a race reached only from the application's
/// own code is `modelled`, named with its module and application, with no
/// harness run; a race that code outside it (`shop:sell/1`) reaches is
/// driven through that code and confirmed as usual.
#[test]
fn a_race_inside_a_modelled_application_is_named_not_driven() {
    let json = cmd()
        .args([
            "check",
            "tests/projects/modelled",
            "--format",
            "json",
            "--out",
            "target/cli-test-modelled",
        ])
        .output()
        .expect("run");
    assert_eq!(json.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let warnings = v["warnings"].as_array().expect("warnings");
    assert_eq!(warnings.len(), 4, "{v:#}");
    for w in warnings {
        let entry = w["entries"][0]["mfa"].as_str().unwrap_or("");
        if entry == "mnesia_tally:tally/1" {
            assert_eq!(
                w["reason"],
                serde_json::json!({
                    "kind": "modelled", "module": "mnesia_tally", "application": "mnesia"
                }),
                "{w:#}"
            );
            assert!(w["harness"].is_null(), "{w:#}");
            assert_eq!(w["context"]["kind"], "none");
        } else {
            assert_eq!(w["verdict"], "confirmed", "{w:#}");
            assert!(
                w["context"]["calls"][0]
                    .as_str()
                    .is_some_and(|c| c.starts_with("shop:sell(")),
                "{w:#}"
            );
        }
    }
    let concise = cmd()
        .args([
            "check",
            "tests/projects/modelled",
            "--format",
            "concise",
            "--out",
            "target/cli-test-modelled",
        ])
        .output()
        .expect("run");
    insta::assert_snapshot!(String::from_utf8_lossy(&concise.stdout));
    let human = cmd()
        .args([
            "check",
            "tests/projects/modelled/apps/mnesia/src/mnesia_tally.erl",
            "tests/projects/modelled/apps/shop/src/shop.erl",
            "--out",
            "target/cli-test-modelled",
        ])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("modelled: mnesia_tally is part of mnesia, which racewit models"),
        "{text}"
    );
    let (_, log, _) = sarif(&[
        "check",
        "tests/projects/modelled",
        "--out",
        "target/cli-test-modelled",
    ]);
    let reasons: Vec<&str> = results(&log)
        .iter()
        .filter_map(|r| r["properties"]["reason"].as_str())
        .collect();
    assert_eq!(reasons, ["modelled", "modelled"], "{log:#}");
    assert!(schema_errors(&log).is_empty(), "{:?}", schema_errors(&log));
}

// ------------------------------------------------ output for people and CI --

/// `check` of a confirmed race (name_server) and an unconfirmed warning
/// (touch_session, not reached), in `format`.
fn check_two(format: &str, out: &str) -> std::process::Output {
    cmd()
        .args([
            "check",
            "corpus/registry/name_server.erl",
            "corpus/not_reached/touch_session.erl",
            "--format",
            format,
            "--out",
            out,
        ])
        .output()
        .expect("run")
}

#[test]
fn concise_is_one_line_per_warning() {
    let o = check_two("concise", "target/cli-test-concise");
    assert_eq!(o.status.code(), Some(2));
    let text = String::from_utf8_lossy(&o.stdout);
    // Two warnings and the summary, each warning at its write.
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.starts_with(
        "corpus/not_reached/touch_session.erl:29:13: R002 [UNCONFIRMED not_reached] "
    ));
    insta::assert_snapshot!(text);
    let o = cmd()
        .args([
            "static",
            "corpus/ets/hit_counter.erl",
            "--format",
            "concise",
        ])
        .output()
        .expect("run");
    insta::assert_snapshot!("static_concise", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn github_annotations_per_warning() {
    let o = check_two("github", "target/cli-test-github");
    assert_eq!(o.status.code(), Some(2));
    let text = String::from_utf8_lossy(&o.stdout).replace("target/cli-test-github", "[OUT]");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with(
        "::warning file=corpus/not_reached/touch_session.erl,line=29,col=13,title=racewit R002::"
    ));
    assert!(lines[1].starts_with(
        "::error file=corpus/registry/name_server.erl,line=15,col=13,title=racewit R001::[CONFIRMED crash] "
    ));
    // A message's lines are joined by %0A, and nothing else is raw.
    assert!(lines[1].contains("%0A(1) P1.1 erlang:whereis(name_server) -> undefined"));
    insta::assert_snapshot!(text);
    let o = cmd()
        .args(["static", "corpus/ets/hit_counter.erl", "--format", "github"])
        .output()
        .expect("run");
    insta::assert_snapshot!("static_github", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn github_annotations_for_load_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("broken.erl");
    std::fs::write(&file, "-module(broken).\nf() -> ok,\n").expect("write");
    let o = cmd()
        .args(["static", "--format", "github"])
        .arg(&file)
        .output()
        .expect("run");
    let text =
        String::from_utf8_lossy(&o.stdout).replace(&dir.path().display().to_string(), "[DIR]");
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("::error file=[DIR]/broken.erl,line=")
            && first.contains(",title=racewit E"),
        "{text}"
    );
}

#[test]
fn human_warnings_open_with_their_location() {
    let o = check_two("human", "target/cli-test-human-first");
    let text = String::from_utf8_lossy(&o.stdout);
    let firsts: Vec<&str> = text.lines().filter(|l| l.starts_with("corpus/")).collect();
    assert_eq!(firsts.len(), 2, "{text}");
    assert!(firsts[0].starts_with(
        "corpus/not_reached/touch_session.erl:29:13: R002 [UNCONFIRMED not_reached] "
    ));
    assert!(
        firsts[1].starts_with("corpus/registry/name_server.erl:15:13: R001 [CONFIRMED crash] ")
    );
    // The snippet's header is at the write too, and the summary is last.
    assert!(
        text.contains("┌─ corpus/registry/name_server.erl:15:13\n"),
        "{text}"
    );
    assert!(
        text.ends_with("2 suspect(s): 1 confirmed, 1 unconfirmed\n"),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = cmd();
        c.args([
            "check",
            "corpus/registry/name_server.erl",
            "--out",
            "target/cli-test-colour",
        ]);
        c.args(args);
        c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().expect("run");
        assert_eq!(o.status.code(), Some(2));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let coloured = |t: &str| t.contains("\u{1b}[");
    // --color always: escapes, even with NO_COLOR set (a flag wins).
    let always = run(&["--color", "always"], &[]);
    assert!(
        always.contains("\u{1b}[1m\u{1b}[31mR001 [CONFIRMED crash]\u{1b}[0m"),
        "{always:?}"
    );
    assert!(coloured(&run(&["--color", "always"], &[("NO_COLOR", "1")])));
    // `static` takes it too.
    let mut c = cmd();
    c.args([
        "static",
        "corpus/registry/name_server.erl",
        "--color",
        "always",
    ]);
    assert!(coloured(&String::from_utf8_lossy(
        &c.output().expect("run").stdout
    )));
    // auto: not a terminal, no colour; CLICOLOR_FORCE turns it on, and
    // NO_COLOR (any non-empty value) wins over it.
    assert!(!coloured(&run(&[], &[])));
    assert!(coloured(&run(&[], &[("CLICOLOR_FORCE", "1")])));
    assert!(!coloured(&run(
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    assert!(coloured(&run(
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")]
    )));
    assert!(!coloured(&run(
        &["--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    )));
    // Without colour the text is the same, escapes aside.
    let plain = run(&["--color", "never"], &[]);
    let stripped = strip_escapes(&always);
    assert_eq!(stripped, plain);
    // Machine formats are never coloured.
    let o = cmd()
        .args([
            "check",
            "corpus/registry/name_server.erl",
            "--out",
            "target/cli-test-colour",
            "--format",
            "github",
            "--color",
            "always",
        ])
        .output()
        .expect("run");
    assert!(!coloured(&String::from_utf8_lossy(&o.stdout)));
}

fn strip_escapes(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn replay_prints_binaries_and_pids_as_erlang_does() {
    let out = "target/cli-test-replay-terms";
    let o = cmd()
        .args(["check", "corpus/contexts/session_hits.erl", "--out", out])
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
    let witness = format!("{out}/R002-session_hits-20-23.json");
    let r = cmd().args(["replay", &witness]).output().expect("replay");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("ets:lookup(session_hits, <<\"s1\">>) -> [{<<\"s1\">>,0}]"),
        "{text}"
    );
    assert!(
        !text.replace("#Ref<0.", "#Ref").contains("<0."),
        "no raw pid: {text}"
    );
    assert!(
        text.contains("corpus/contexts/session_hits.erl:20  <- (1) read"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

/// Replay reads the files a witness records, not the paths it names: a
/// witness whose paths were changed to `/` replays as before, without
/// walking the file system.
#[test]
fn replay_loads_the_recorded_sources_only() {
    let out = tempfile::tempdir().expect("tempdir");
    let o = cmd()
        .args(["check", "corpus/registry/name_server.erl", "--out"])
        .arg(out.path())
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
    let path = out.path().join("R001-name_server-11-15.json");
    let mut w: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("witness")).expect("json");
    w["load"]["paths"] = serde_json::json!(["/"]);
    std::fs::write(&path, serde_json::to_string(&w).expect("json")).expect("write");
    let o = cmd().arg("replay").arg(&path).output().expect("run");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("schedule replayed exactly"), "{text}");
}

/// A witness records a hash per file its run executed (issue 18): editing a
/// module the run never entered keeps it valid, even deleting it; editing a
/// module it entered (here a helper that makes no visible step of its own)
/// invalidates it, with the message the user sees.
#[test]
fn a_witness_is_invalidated_only_by_files_its_run_executed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let write = |rel: &str, text: &str| std::fs::write(root.join(rel), text).expect("write");
    write(
        "reg.erl",
        "-module(reg).\n-export([start/0]).\n\
         start() ->\n    case whereis(reg_srv) of\n        \
         undefined -> register(reg_srv, spawn(fun helper:loop/0));\n        \
         _ -> ok\n    end.\n",
    );
    write(
        "helper.erl",
        "-module(helper).\n-export([loop/0]).\nloop() -> receive _ -> ok end.\n",
    );
    write(
        "other.erl",
        "-module(other).\n-export([f/0]).\nf() -> ok.\n",
    );
    let racewit = |args: &[&str]| {
        Command::new(get_cargo_bin("racewit"))
            .args(args)
            .current_dir(root)
            .output()
            .expect("run")
    };
    let o = racewit(&["check", "--format", "json", "."]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let path = report["warnings"][0]["witness"]
        .as_str()
        .expect("witness")
        .to_string();
    let witness: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(&path)).expect("read"))
            .expect("JSON");
    let hashed: Vec<&str> = witness["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|s| s["path"].as_str())
        .collect();
    assert_eq!(hashed, ["./helper.erl", "./reg.erl"]);
    assert_eq!(
        witness["modules"],
        serde_json::json!(["./helper.erl", "./other.erl", "./reg.erl"])
    );
    let replay = |what: &str| {
        let o = racewit(&["replay", &path]);
        (
            o.status.code(),
            format!(
                "{what}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        )
    };
    let (code, text) = replay("as recorded");
    assert_eq!(code, Some(0), "{text}");
    write(
        "other.erl",
        "-module(other).\n-export([f/0]).\nf() -> changed.\n",
    );
    let (code, text) = replay("other.erl edited");
    assert_eq!(code, Some(0), "{text}");
    std::fs::remove_file(root.join("other.erl")).expect("remove");
    let (code, text) = replay("other.erl deleted");
    assert_eq!(code, Some(0), "{text}");
    write(
        "helper.erl",
        "-module(helper).\n-export([loop/0]).\nloop() -> receive stop -> ok end.\n",
    );
    let (code, text) = replay("helper.erl edited");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(
        text,
        format!(
            "helper.erl edited: racewit: error: replaying {path}: files the witness's run \
             executed have changed since it was recorded: ./helper.erl (replay runs the same \
             code only; --recheck searches again on the current code)\n"
        )
    );
}

/// A race confirmed with no visible harm says so only for what was searched:
/// when the search for a harmful interleaving is cut (here by the
/// interleaving budget), the verdict names the cut, in words and in JSON;
/// when it ran to its end, it names none.
#[test]
fn a_cut_search_for_harm_is_named_in_the_verdict() {
    let check = |budget: &str, out: &str, format: &str| {
        let o = cmd()
            .args([
                "check",
                "corpus/registry/lazy_logger.erl",
                "--max-interleavings",
                budget,
                "--format",
                format,
                "--out",
                out,
            ])
            .output()
            .expect("run");
        // Confirmed with no visible harm: not a failure of the check.
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8(o.stdout).expect("utf-8")
    };
    let cut = check("10", "target/cli-test-harm-cut", "human");
    assert!(
        cut.contains(
            "CONFIRMED (none: the interleaving happens but does no visible harm in the runs \
             searched; the search for an interleaving that does harm was cut at the \
             interleaving budget (--max-interleavings); one may exist)"
        ),
        "{cut}"
    );
    let json = check("10", "target/cli-test-harm-cut-json", "json");
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(report["warnings"][0]["harm_cut"]["cap"], "interleavings");
    let whole = check("20000", "target/cli-test-harm-whole", "json");
    let report: serde_json::Value = serde_json::from_str(&whole).expect("json");
    assert_eq!(report["warnings"][0]["consequence"]["kind"], "none");
    assert!(report["warnings"][0].get("harm_cut").is_none(), "{whole}");
}

/// `tests/data/code_reload`: one process loads a new version of a module
/// (or the module itself, until then missing) while another calls it by
/// name. The call is a read of the module's code and the load a write, so
/// exploring every interleaving sees both outcomes, the old code (or
/// `undef`) and the new, whichever process is spawned first.
#[test]
fn explore_orders_a_reload_with_the_calls_into_the_module() {
    let out = tempfile::tempdir().expect("tempdir");
    for entry in [
        "caller_first",
        "loader_first",
        "made_caller_first",
        "made_loader_first",
    ] {
        let o = cmd()
            .args(["explore", &format!("reload:{entry}/0"), "--all", "--out"])
            .arg(out.path())
            .arg("tests/data/code_reload")
            .output()
            .expect("run");
        let text = String::from_utf8_lossy(&o.stdout);
        let summary = text
            .lines()
            .find(|l| l.contains("interleavings explored"))
            .unwrap_or_else(|| panic!("{entry}: no summary: {text}"));
        assert!(summary.contains("every interleaving explored"), "{text}");
        let number_before = |what: &str| -> u64 {
            let head = &summary[..summary.find(what).expect(what)];
            let word = head.split_whitespace().last().expect("a count");
            word.parse().expect("a number")
        };
        let failing = number_before(" failing interleaving");
        let explored = number_before(" interleavings explored");
        assert!(
            failing >= 1,
            "{entry}: the call before the load is never run: {text}"
        );
        assert!(
            failing < explored,
            "{entry}: the call after the load is never run: {text}"
        );
        let crash = if entry.starts_with("made") {
            "crashed: not_loaded_yet"
        } else {
            "crashed: old_version"
        };
        assert!(text.contains(crash), "{text}");
    }
}

/// A suspect's rivals (the program's other read-modify-writes of its item,
/// found among every suspect of the static pass) do not depend on which
/// suspects one run confirms: each half of `--partition` gives every
/// suspect the verdict, consequence and interleaving count the whole run
/// gives it (`contexts/trace_levels`: `clear/0` and `set_level/1` are each
/// other's rivals, in different halves).
#[test]
fn a_partition_gives_the_verdicts_of_the_whole_run() {
    let check = |partition: Option<&str>, out: &str| -> Vec<serde_json::Value> {
        let mut c = cmd();
        c.args([
            "check",
            "corpus/contexts/trace_levels.erl",
            "--format",
            "json",
            "--out",
            out,
        ]);
        if let Some(p) = partition {
            c.args(["--partition", p]);
        }
        let o = c.output().expect("run");
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        report["warnings"].as_array().expect("warnings").clone()
    };
    let key = |w: &serde_json::Value| {
        (
            w["verdict"].clone(),
            w["consequence"]["kind"].clone(),
            w["interleavings"].clone(),
        )
    };
    let whole = check(None, "target/cli-test-partition-whole");
    assert!(whole.len() >= 2, "{whole:?}");
    let mut halves = check(Some("1/2"), "target/cli-test-partition-1");
    halves.extend(check(Some("2/2"), "target/cli-test-partition-2"));
    assert_eq!(halves.len(), whole.len());
    for w in &whole {
        let h = halves
            .iter()
            .find(|h| h["id"] == w["id"])
            .expect("in a half");
        assert_eq!(key(h), key(w), "{}", w["id"]);
    }
}
