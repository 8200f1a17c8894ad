//! Differential acceptance against the real compiler: for OTP modules, the
//! functions racewit finds (name/arity) and the exported ones must equal
//! what Erlang's compiler reports. The compiler's view is taken from its
//! Core Erlang before optimisation (`compile:file(F, [to_core0])`), which
//! still holds every source function (the optimiser drops unused ones);
//! `module_info/0,1` and the `behaviour_info/1` generated for `-callback`s
//! are left out.
//! Skips with a printed notice when `erl` is missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use racewit_syntax::{LoadOptions, load_paths};

const OTP_LIB: &str = "/usr/lib/erlang/lib";

/// Every `step`-th `.erl` file under the OTP `src` directories.
fn sample(step: usize) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(libs) = std::fs::read_dir(OTP_LIB) else {
        return files;
    };
    for lib in libs.flatten() {
        let Ok(src) = std::fs::read_dir(lib.path().join("src")) else {
            continue;
        };
        for f in src.flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "erl") {
                files.push(p);
            }
        }
    }
    files.sort();
    files.into_iter().step_by(step).collect()
}

/// What the compiler reports: module → (all functions, exports).
type Reported = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

const DRIVER: &str = r#"
Files = string:lexemes(binary_to_list(element(2, file:read_file(os:getenv("RACEWIT_FILES")))), "\n"),
Fmt = fun(L, Gen) -> lists:join([31], [io_lib:format("~ts/~w", [atom_to_list(N), A]) || {N, A} <- L,
        not lists:member({N, A}, Gen)]) end,
lists:foreach(fun(F) ->
    D = filename:dirname(F),
    Opts = [binary, to_core0, return_errors, {i, D}, {i, filename:join(D, "../include")},
            {i, filename:join(D, "../../include")}],
    case catch compile:file(F, Opts) of
        {ok, M, Core} ->
            Defs = [cerl:var_name(N) || {N, _} <- cerl:module_defs(Core)],
            Exps = [cerl:var_name(E) || E <- cerl:module_exports(Core)],
            Callbacks = [K || {K, _} <- cerl:module_attrs(Core), cerl:concrete(K) =:= callback],
            Gen = [{module_info, 0}, {module_info, 1}] ++
                  [{behaviour_info, 1} || Callbacks =/= []],
            io:format("~ts\t~ts\t~ts~n", [atom_to_list(M), Fmt(Defs, Gen), Fmt(Exps, Gen)]);
        _ -> io:format("!failed\t~ts~n", [F])
    end
end, Files),
halt().
"#;

fn compiler_view(files: &[PathBuf], dir: &Path) -> Option<Reported> {
    let list = dir.join("files.txt");
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    std::fs::write(&list, names.join("\n")).ok()?;
    let out = Command::new("erl")
        .args(["-noshell", "-eval", DRIVER])
        .env("RACEWIT_FILES", &list)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut reported = Reported::new();
    for line in text.lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        if parts.len() == 3 && parts[0] != "!failed" {
            let set = |s: &str| -> BTreeSet<String> {
                s.split('\u{1f}')
                    .filter(|x| !x.is_empty())
                    .map(str::to_string)
                    .collect()
            };
            reported.insert(parts[0].to_string(), (set(parts[1]), set(parts[2])));
        }
    }
    Some(reported)
}

#[test]
fn functions_and_exports_match_the_compiler() {
    if Command::new("erl").arg("-version").output().is_err() {
        eprintln!("notice: erl is not installed, differential test skipped");
        return;
    }
    let files = sample(5);
    if files.is_empty() {
        eprintln!("notice: no OTP sources under {OTP_LIB}, differential test skipped");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let reported = compiler_view(&files, dir.path()).expect("running erl");
    let opts = LoadOptions {
        lib_dirs: vec![PathBuf::from(OTP_LIB)],
        ..LoadOptions::default()
    };
    let program = load_paths(&files, &opts);
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for (name, (defs, exports)) in &reported {
        let Some(m) = program.module(name) else {
            mismatches.push(format!("{name}: not loaded by racewit"));
            continue;
        };
        compared += 1;
        let ours: BTreeSet<String> = m
            .functions
            .iter()
            .map(|f| f.fun_name().to_string())
            .collect();
        let our_exports: BTreeSet<String> = m.exports.iter().map(|f| f.to_string()).collect();
        if &ours != defs {
            mismatches.push(format!(
                "{name}: functions differ: only racewit {:?}, only erlc {:?}",
                ours.difference(defs).collect::<Vec<_>>(),
                defs.difference(&ours).collect::<Vec<_>>()
            ));
        }
        if &our_exports != exports {
            mismatches.push(format!(
                "{name}: exports differ: only racewit {:?}, only erlc {:?}",
                our_exports.difference(exports).collect::<Vec<_>>(),
                exports.difference(&our_exports).collect::<Vec<_>>()
            ));
        }
    }
    eprintln!(
        "compared {compared} OTP modules with the compiler ({} sampled), {} mismatches",
        files.len(),
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(
        compared >= 100,
        "only {compared} modules compiled with erlc"
    );
}
