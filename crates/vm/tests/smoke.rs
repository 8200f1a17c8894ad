use std::sync::Arc;

use racewit_vm::run::{RunConfig, run_entry};

pub fn run(src: &str) -> String {
    let program = racewit_syntax::load_source("t.erl", src);
    for d in &program.diagnostics {
        eprintln!("diag: {d:?}");
    }
    run_entry(Arc::new(program), "t", "main", &with_otp()).stdout
}

fn with_otp() -> RunConfig {
    RunConfig {
        libraries: racewit_otp::installed(),
        ..RunConfig::default()
    }
}

#[test]
fn hello() {
    let out = run(
        "-module(t).\n-export([main/0]).\nmain() -> io:format(\"hi ~p~n\", [[1,2,{a,\"x\"}]]), 1 + 2.\n",
    );
    assert_eq!(out, "hi [1,2,{a,\"x\"}]\n3\n");
}

#[test]
fn otp_libraries_parse_cleanly() {
    let libs = racewit_otp::installed();
    for l in &libs.programs {
        let errors: Vec<_> = l
            .diagnostics
            .iter()
            .filter(|d| d.severity == racewit_syntax::Severity::Error)
            .collect();
        for e in errors.iter().take(5) {
            eprintln!("{e:?}");
        }
        assert!(errors.is_empty(), "{} errors", errors.len());
        eprintln!("modules: {:?}", l.modules.keys().collect::<Vec<_>>());
    }
}

#[test]
fn otp_queue_works() {
    // queue, sets and dict are OTP's stdlib modules, loaded from its sources.
    if racewit_otp::discover().is_none() {
        eprintln!(
            "notice: Erlang/OTP is not installed (queue, sets and dict run from OTP's sources); skipping"
        );
        return;
    }
    let out = run(
        "-module(t).\n-export([main/0]).\nmain() -> Q = queue:in(2, queue:in(1, queue:new())), {queue:to_list(Q), sets:size(sets:from_list([a,b,a])), dict:to_list(dict:store(k, v, dict:new()))}.\n",
    );
    assert_eq!(out, "{[1,2],2,[{k,v}]}\n");
}

/// Every corpus case with a `test/0` runs to an outcome (never a panic).
#[test]
fn corpus_cases_run() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let Ok(dirs) = std::fs::read_dir(&root) else {
        return;
    };
    let mut files: Vec<_> = dirs
        .filter_map(|d| d.ok())
        .filter(|d| d.path().is_dir())
        .flat_map(|d| {
            std::fs::read_dir(d.path())
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok())
                .map(|e| e.path())
        })
        .filter(|p| p.extension().is_some_and(|e| e == "erl"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        if !text.contains("test/0") {
            continue;
        }
        let module = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let program = racewit_syntax::load_source(&f.display().to_string(), &text);
        let config = RunConfig {
            max_reductions: 5_000_000,
            ..with_otp()
        };
        let out = run_entry(Arc::new(program), &module, "test", &config);
        eprintln!("{module}: {}", out.stdout.lines().last().unwrap_or(""));
        assert!(
            !out.stdout.contains("budget exhausted"),
            "{module}: {}",
            out.stdout
        );
        assert!(!out.stdout.is_empty(), "{module}");
    }
}

/// `~p` layouts of assorted terms, checked against erl's output (tests/erl/pp.out).
#[test]
fn pretty_printing_matches_erl() {
    let program = racewit_syntax::load_source("pp.erl", include_str!("erl/pp.erl"));
    let out = run_entry(Arc::new(program), "pp", "main", &RunConfig::default());
    let expected = include_str!("erl/pp.out");
    let want: Vec<&str> = expected.lines().collect();
    let got: Vec<&str> = out.stdout.lines().collect();
    for (i, (g, w)) in got.iter().zip(want.iter()).enumerate() {
        assert_eq!(g, w, "line {}", i + 1);
    }
    // erl's output plus the result line `ok`.
    assert_eq!(got.len(), want.len() + 1);
}

/// term_to_binary sizes and bytes, and round trips, as erl (tests/erl/etf.out).
#[test]
fn external_term_format_matches_erl() {
    let program = racewit_syntax::load_source("etf.erl", include_str!("erl/etf.erl"));
    let out = run_entry(Arc::new(program), "etf", "main", &RunConfig::default());
    assert_eq!(out.stdout, include_str!("erl/etf.out"));
}

/// A program that carries erts' own sources (checking the OTP tree does)
/// brings a module `erlang` of BIF stubs; the BEAM never loads over a
/// preloaded module, so the VM's erlang serves and a BIF it lacks is named,
/// not run as a stub that calls `erlang:nif_error/1` forever.
#[test]
fn a_programs_own_preloaded_module_is_not_loaded_over_the_vms() {
    let program = racewit_syntax::load::load_sources(
        &[
            (
                "t.erl",
                "-module(t).\n-export([main/0]).\n\
                 main() -> {catch erlang:nif_error_probe(), erlang:trace_pattern(x, true, [])}.\n",
            ),
            (
                "erlang.erl",
                "-module(erlang).\n-export([nif_error/1, nif_error_probe/0, trace_pattern/3]).\n\
                 nif_error(_) -> erlang:nif_error(undefined).\n\
                 nif_error_probe() -> from_the_program.\n\
                 trace_pattern(_, _, _) -> erlang:nif_error(undefined).\n",
            ),
        ],
        &Default::default(),
    );
    let out = run_entry(Arc::new(program), "t", "main", &RunConfig::default());
    assert!(out.stopped.is_none(), "{:?}", out.stopped);
    assert_eq!(out.parked.len(), 1, "{:?}", out.parked);
    assert!(
        out.parked[0].1.starts_with("erlang:trace_pattern/3"),
        "{:?}",
        out.parked
    );
}

/// A program that carries mnesia's own sources (checking the OTP tree does)
/// brings a module `mnesia` whose transactions go through mnesia's own
/// processes, which never run: racewit models mnesia, so its model serves
/// (`mnesia:transaction/1` runs the fun as one atomic step), and a
/// function of the real module the model lacks is named, not run.
#[test]
fn a_programs_own_mnesia_module_is_not_loaded_over_the_model() {
    let program = racewit_syntax::load::load_sources(
        &[
            (
                "t.erl",
                "-module(t).\n-export([main/0]).\n\
                 main() -> mnesia:start(),\n\
                 {atomic, ok} = mnesia:create_table(kv, []),\n\
                 R = mnesia:transaction(fun() -> mnesia:write({kv, a, 1}), mnesia:read(kv, a) end),\n\
                 io:format(\"~p~n\", [R]),\n\
                 mnesia:delete_object(kv, {kv, a, 1}, write, {}, 1).\n",
            ),
            (
                "mnesia.erl",
                "-module(mnesia).\n-export([transaction/1, delete_object/5]).\n\
                 transaction(_) -> from_the_program.\n\
                 delete_object(_, _, _, _, _) -> from_the_program.\n",
            ),
        ],
        &Default::default(),
    );
    let out = run_entry(Arc::new(program), "t", "main", &RunConfig::default());
    assert_eq!(
        out.stdout,
        "{atomic,[{kv,a,1}]}\n\
         racewit: stopped at unsupported call mnesia:delete_object/5 (t.erl:7)\n"
    );
    assert_eq!(out.parked.len(), 1, "{:?}", out.parked);
    assert!(
        out.parked[0].1.starts_with("mnesia:delete_object/5"),
        "{:?}",
        out.parked
    );
}

/// A regular-expression feature the matcher does not run parks the caller
/// with the feature named, never answering.
#[test]
fn re_pattern_feature_racewit_lacks_parks() {
    for (pattern, feature) in [
        ("\\\\p{L}+", "\\\\p"),
        ("(a)(?1)", "recursion"),
        ("(?(1)a|b)", "conditional"),
        ("a\\\\Kb", "\\\\K"),
        ("(*COMMIT)a", "verbs"),
    ] {
        let src = format!(
            "-module(t).\n-export([main/0]).\n\
             main() -> io:format(\"before~n\"), re:run(\"abc\", \"{pattern}\").\n"
        );
        let program = racewit_syntax::load_source("t.erl", &src);
        let out = run_entry(Arc::new(program), "t", "main", &with_otp());
        assert!(
            out.stdout.starts_with("before\n"),
            "{pattern}: {}",
            out.stdout
        );
        assert_eq!(out.parked.len(), 1, "{pattern}: {:?}", out.parked);
        let why = &out.parked[0].1;
        assert!(
            why.contains("re pattern feature")
                && why.contains(feature.replace("\\\\", "\\").as_str()),
            "{pattern}: {why}"
        );
    }
}
