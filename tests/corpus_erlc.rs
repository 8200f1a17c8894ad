//! Every corpus module is real Erlang: it compiles with `erlc` and its
//! `test/0` returns under the real `erl`. Skipped (with a notice) when Erlang
//! is not installed; CI installs it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("corpus directory")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "erl") {
            out.push(p);
        }
    }
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("-version").output().is_ok()
        || Command::new("which")
            .arg(tool)
            .output()
            .is_ok_and(|o| o.status.success())
}

#[test]
fn every_corpus_module_compiles_and_runs_under_erl() {
    if !have("erlc") || !have("erl") {
        eprintln!("notice: erlc/erl not installed; skipping the real-Erlang corpus check");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut files = Vec::new();
    corpus_files(&root, &mut files);
    assert!(
        files.len() >= 40,
        "the corpus has {} modules, expected at least 40",
        files.len()
    );
    let out = tempfile::tempdir().expect("tempdir");
    let status = Command::new("erlc")
        .arg("-o")
        .arg(out.path())
        .args(&files)
        .status()
        .expect("run erlc");
    assert!(status.success(), "erlc failed on the corpus");
    let modules: Vec<String> = files
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    // Run every test/0 in one VM, each in its own process with a time limit.
    let script = format!(
        "Ms = [{}], \
         R = [begin Self = self(), \
                {{P, Ref}} = spawn_monitor(fun() -> Self ! {{M, catch M:test()}} end), \
                receive {{'DOWN', Ref, process, P, normal}} -> receive {{M, _}} -> {{M, ok}} after 0 -> {{M, noreply}} end; \
                        {{'DOWN', Ref, process, P, Why}} -> {{M, {{crashed, Why}}}} \
                after 10000 -> exit(P, kill), {{M, timeout}} end \
              end || M <- Ms], \
         Bad = [X || {{_, S}} = X <- R, S =/= ok], \
         io:format(\"~p~n\", [Bad]), halt(0).",
        modules.join(", ")
    );
    let output = Command::new("erl")
        .args(["-noshell", "-kernel", "logger_level", "none", "-pa"])
        .arg(out.path())
        .args(["-eval", &script])
        .current_dir(out.path())
        .output()
        .expect("run erl");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "erl failed: {stdout} {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let last = stdout.trim().lines().last().unwrap_or_default();
    assert_eq!(
        last, "[]",
        "corpus test/0 functions that did not return: {stdout}"
    );
}
