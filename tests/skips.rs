//! No test skips silently (issue 18): the tests that need Erlang/OTP
//! (`erl`, `erlc`, the OTP sources) skip when it is not installed, and
//! each says so on stderr before it returns. This test reads every test
//! source of the workspace and fails on a test function that returns
//! early without printing why; `.ci/run` runs the whole suite once more with
//! Erlang hidden and lists the notices, so the tests that skip are named.
//!
//! The check is textual: in a function marked `#[test]`, a line that is a
//! bare `return;` (or `return Ok(());`, or `else { return; }`) must follow
//! an `eprintln!` within the three lines before it. An early return that is
//! not a skip (the test has already checked everything) is listed below
//! with the reason.

use std::path::{Path, PathBuf};

/// Early returns that are not skips: (file, the test function, why).
const NOT_SKIPS: &[(&str, &str, &str)] = &[
    (
        "crates/syntax/tests/pp_otp_epp.rs",
        "first_errors_match_epp",
        "every file's first error is the committed table's: nothing is left for the live epp",
    ),
    (
        "crates/vm/tests/smoke.rs",
        "corpus_cases_run",
        "the corpus is part of the repository: read_dir fails only on a broken checkout",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Test functions of `text` that return early with no message before it:
/// (function, line number).
fn silent_returns(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut current: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if let Some(rest) = t
            .strip_prefix("fn ")
            .or_else(|| t.strip_prefix("pub fn "))
            .or_else(|| t.strip_prefix("async fn "))
        {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let marked = lines[..i]
                .iter()
                .rev()
                .map(|l| l.trim())
                .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
                .any(|l| l.starts_with("#[test]"));
            current = marked.then_some(name);
            continue;
        }
        let Some(f) = &current else { continue };
        let early = matches!(
            t,
            "return;" | "return Ok(());" | "else { return; };" | "} else { return; };"
        ) || t.ends_with("else { return; };")
            || t.ends_with("else { return };");
        if !early {
            continue;
        }
        let said = lines[i.saturating_sub(3)..=i]
            .iter()
            .any(|l| l.contains("eprintln!") || l.contains("println!"));
        if !said {
            found.push((f.clone(), i + 1));
        }
    }
    found
}

#[test]
fn the_scan_finds_a_silent_return() {
    let text = "#[test]\nfn quiet() {\n    if cond {\n        return;\n    }\n}\n\
                #[test]\nfn loud() {\n    if cond {\n        eprintln!(\"notice: skipped\");\n        return;\n    }\n}\n\
                fn helper() {\n    return;\n}\n";
    assert_eq!(silent_returns(text), [("quiet".to_string(), 4)]);
}

#[test]
fn no_test_skips_silently() {
    let root = root();
    let mut files = Vec::new();
    rust_files(&root.join("tests"), &mut files);
    for krate in std::fs::read_dir(root.join("crates"))
        .expect("crates")
        .flatten()
    {
        rust_files(&krate.path().join("tests"), &mut files);
    }
    files.sort();
    assert!(files.len() > 20, "found only {} test files", files.len());
    let mut silent = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(&root)
            .expect("under the root")
            .display()
            .to_string();
        let text = std::fs::read_to_string(file).expect("read");
        for (f, line) in silent_returns(&text) {
            if !NOT_SKIPS.iter().any(|(p, n, _)| *p == rel && *n == f) {
                silent.push(format!("{rel}:{line}: {f} returns without saying why"));
            }
        }
    }
    assert!(
        silent.is_empty(),
        "tests that skip silently (print a notice before returning):\n{}",
        silent.join("\n")
    );
}
