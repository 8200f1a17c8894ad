//! The corpus is the acceptance test: every corpus file loaded together as
//! one program, checked against `corpus/manifest.toml`.
//!
//! For each manifest suspect whose verdict is `confirmed` or `unconfirmed`, a
//! suspect of that category with that read and write line must exist in
//! that file; for `filtered`, none may. Suspects the manifest does not list
//! are failures too.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use racewit_static::{StaticOptions, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Expect {
    file: String,
    category: String,
    read_line: u32,
    write_line: u32,
    verdict: String,
}

fn manifest() -> Vec<Expect> {
    let text = std::fs::read_to_string(corpus_dir().join("manifest.toml")).expect("manifest.toml");
    let doc: toml::Table = text.parse().expect("manifest parses");
    let Some(toml::Value::Array(items)) = doc.get("suspect") else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|it| {
            let t = it.as_table()?;
            let s = |k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_string);
            let n = |k: &str| t.get(k).and_then(|v| v.as_integer()).map(|i| i as u32);
            Some(Expect {
                file: s("file")?,
                category: s("category")?,
                read_line: n("read_line")?,
                write_line: n("write_line")?,
                verdict: s("verdict")?,
            })
        })
        .collect()
}

#[test]
fn corpus_matches_manifest() {
    let dir = corpus_dir();
    let program = load_paths(std::slice::from_ref(&dir), &LoadOptions::default());
    assert!(!program.modules.is_empty(), "no corpus modules loaded");
    let analysis = find_suspects(&program, &StaticOptions::default());
    let prefix = format!("{}/", dir.display());
    let found: BTreeSet<(String, String, u32, u32)> = analysis
        .suspects
        .iter()
        .map(|s| {
            let file = s
                .read
                .file
                .strip_prefix(&prefix)
                .unwrap_or(&s.read.file)
                .to_string();
            (
                file,
                s.category.as_str().to_string(),
                s.read.line,
                s.write.line,
            )
        })
        .collect();
    let expected = manifest();
    let mut failures = Vec::new();
    let mut listed = BTreeSet::new();
    for e in &expected {
        let key = (
            e.file.clone(),
            e.category.clone(),
            e.read_line,
            e.write_line,
        );
        listed.insert(key.clone());
        let present = found.contains(&key);
        match e.verdict.as_str() {
            "filtered" if present => {
                failures.push(format!("reported but should be filtered: {key:?}"))
            }
            "confirmed" | "unconfirmed" if !present => {
                failures.push(format!("missing ({}): {key:?}", e.verdict))
            }
            _ => {}
        }
    }
    for f in &found {
        if !listed.contains(f) {
            let s = analysis
                .suspects
                .iter()
                .find(|s| s.read.line == f.2 && s.write.line == f.3 && s.read.file.ends_with(&f.0))
                .map(|s| s.message.clone())
                .unwrap_or_default();
            failures.push(format!("not in the manifest: {f:?}: {s}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} corpus mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_output_is_deterministic() {
    let dir = corpus_dir();
    let program = load_paths(&[dir], &LoadOptions::default());
    let a = find_suspects(&program, &StaticOptions::default());
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let b = one.install(|| find_suspects(&program, &StaticOptions::default()));
    let ja = serde_json::to_string(&a).expect("json");
    let jb = serde_json::to_string(&b).expect("json");
    assert_eq!(ja, jb);
}

/// The analysis serialized the same whatever the number of threads (the
/// value analysis merges in parallel chunks; searches run in parallel).
#[test]
fn thread_count_does_not_change_the_analysis() {
    let dir = corpus_dir();
    let program = load_paths(std::slice::from_ref(&dir), &LoadOptions::default());
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let analysis = pool.install(|| find_suspects(&program, &StaticOptions::default()));
        serde_json::to_string(&analysis).expect("analysis serializes")
    };
    let one = run(1);
    assert!(one.contains("\"suspects\""));
    assert_eq!(one, run(3));
}
