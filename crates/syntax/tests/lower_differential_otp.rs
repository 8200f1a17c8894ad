//! Differential acceptance against the real compiler: for OTP modules, the
//! functions racewit finds (name/arity), the exported ones, the remote calls
//! with static targets (outside `erlang`) and the local functions called or
//! referred to must equal what Erlang's compiler reports. The compiler's view is taken from its
//! Core Erlang before optimisation (`compile:file(F, [to_core0])`), which
//! still holds every source function (the optimiser drops unused ones);
//! `module_info/0,1` and the `behaviour_info/1` generated for `-callback`s
//! are left out.
//! Skips with a printed notice when `erl` is missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use racewit_syntax::ir::{CallTarget, Const, Expr, Literal, Module};
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

/// What the compiler reports for one module, each as `name/arity` or
/// `module:name/arity`.
#[derive(Default)]
struct Facts {
    functions: BTreeSet<String>,
    exports: BTreeSet<String>,
    /// Remote calls with literal module and function, `erlang` excepted
    /// (the compiler adds its own `erlang:` calls).
    remote_calls: BTreeSet<String>,
    /// Local functions called or referred to (`fun f/1`).
    local_calls: BTreeSet<String>,
}

type Reported = BTreeMap<String, Facts>;

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
            Walk = fun(T, {R, L}) ->
                case cerl:type(T) of
                    call ->
                        Mo = cerl:call_module(T), Na = cerl:call_name(T),
                        case cerl:is_c_atom(Mo) andalso cerl:is_c_atom(Na)
                             andalso cerl:atom_val(Mo) =/= erlang of
                            true -> {[{list_to_atom(atom_to_list(cerl:atom_val(Mo)) ++ ":" ++
                                         atom_to_list(cerl:atom_val(Na))), cerl:call_arity(T)} | R], L};
                            false -> {R, L}
                        end;
                    var ->
                        case cerl:is_c_fname(T) of
                            true -> {R, [{cerl:fname_id(T), cerl:fname_arity(T)} | L]};
                            false -> {R, L}
                        end;
                    _ -> {R, L}
                end
            end,
            {Rem, Loc0} = lists:foldl(fun({_, Body}, Acc) -> cerl_trees:fold(Walk, Acc, Body) end,
                                      {[], []}, cerl:module_defs(Core)),
            Loc = [FA || FA <- lists:usort(Loc0), lists:member(FA, Defs)],
            io:format("~ts\t~ts\t~ts\t~ts\t~ts~n", [atom_to_list(M), Fmt(Defs, Gen), Fmt(Exps, Gen),
                                               Fmt(lists:usort(Rem), []), Fmt(Loc, Gen)]);
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
        if parts.len() == 5 && parts[0] != "!failed" {
            let set = |s: &str| -> BTreeSet<String> {
                s.split('\u{1f}')
                    .filter(|x| !x.is_empty())
                    .map(str::to_string)
                    .collect()
            };
            let facts = Facts {
                functions: set(parts[1]),
                exports: set(parts[2]),
                remote_calls: set(parts[3]),
                local_calls: set(parts[4]),
            };
            reported.insert(parts[0].to_string(), facts);
        }
    }
    Some(reported)
}

fn mentions_parse_transform(c: &Const) -> bool {
    match c {
        Const::Atom(a) => a == "parse_transform",
        Const::Tuple(v) => v.iter().any(mentions_parse_transform),
        Const::Cons(h, t) => mentions_parse_transform(h) || mentions_parse_transform(t),
        _ => false,
    }
}

/// The parse transforms racewit models, EUnit's and `ms_transform` (the
/// calls they leave are compared like any others).
fn modelled_transform(c: &Const) -> bool {
    matches!(c, Const::Tuple(v) if matches!(v.as_slice(),
        [Const::Atom(p), Const::Atom(m)]
            if p == "parse_transform"
                && matches!(m.as_str(), "eunit_autoexport" | "eunit_striptests" | "ms_transform")))
}

fn strip_modelled(c: &Const) -> Const {
    match c {
        Const::Cons(h, t) if modelled_transform(h) => strip_modelled(t),
        Const::Cons(h, t) => Const::Cons(h.clone(), Box::new(strip_modelled(t))),
        c if modelled_transform(c) => Const::Nil,
        c => c.clone(),
    }
}

/// Does the module name a parse transform that racewit does not model?
fn uses_parse_transform(m: &Module) -> bool {
    m.attributes
        .iter()
        .any(|a| a.name == "compile" && mentions_parse_transform(&strip_modelled(&a.value)))
}

/// The same facts, from racewit's IR.
fn facts_of(m: &Module) -> Facts {
    let mut f = Facts {
        functions: m
            .functions
            .iter()
            .map(|f| f.fun_name().to_string())
            .collect(),
        exports: m.exports.iter().map(|f| f.to_string()).collect(),
        ..Facts::default()
    };
    for fun in &m.functions {
        let body = &fun.body;
        for e in &body.exprs {
            // `fun f/1` refers to a local function.
            if let Expr::FunRef {
                module: None,
                name,
                arity,
            } = e
                && let (Expr::Lit(Literal::Atom(n)), Expr::Lit(Literal::Int(a))) =
                    (body.expr(*name), body.expr(*arity))
            {
                f.local_calls.insert(format!("{n}/{a}"));
            }
            let Expr::Call { target, args, .. } = e else {
                continue;
            };
            match &**target {
                CallTarget::Local { name, arity } if name != "module_info" => {
                    f.local_calls.insert(format!("{name}/{arity}"));
                }
                CallTarget::Local { .. } => {}
                CallTarget::Remote { module, function } => {
                    if let (Expr::Lit(Literal::Atom(mo)), Expr::Lit(Literal::Atom(na))) =
                        (body.expr(*module), body.expr(*function))
                        && mo != "erlang"
                    {
                        f.remote_calls.insert(format!("{mo}:{na}/{}", args.len()));
                    }
                }
                CallTarget::Apply { .. } => {}
            }
        }
    }
    f
}

/// Compares racewit's view of `program` with the compiler's for every
/// module the compiler reported; the mismatches.
fn compare_with(
    program: &racewit_syntax::ir::Program,
    reported: &Reported,
) -> (usize, Vec<String>) {
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for (name, theirs) in reported {
        let Some(m) = program.module(name) else {
            mismatches.push(format!("{name}: not loaded by racewit"));
            continue;
        };
        compared += 1;
        let ours = facts_of(m);
        let mut compare = |what: &str, a: &BTreeSet<String>, b: &BTreeSet<String>| {
            if a != b {
                mismatches.push(format!(
                    "{name}: {what} differ: only racewit {:?}, only the compiler {:?}",
                    a.difference(b).collect::<Vec<_>>(),
                    b.difference(a).collect::<Vec<_>>()
                ));
            }
        };
        compare("functions", &ours.functions, &theirs.functions);
        compare("exports", &ours.exports, &theirs.exports);
        // A parse transform (`merl`'s, `qlc`'s) rewrites calls before the
        // compiler sees them; racewit runs no parse transforms but EUnit's
        // and `ms_transform`.
        if !uses_parse_transform(m) {
            compare("remote calls", &ours.remote_calls, &theirs.remote_calls);
            compare("local calls", &ours.local_calls, &theirs.local_calls);
        }
    }
    (compared, mismatches)
}

#[test]
fn functions_exports_and_calls_match_the_compiler() {
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
        // Judged against the compiler: include exactly as epp does.
        epp_includes_only: true,
        ..LoadOptions::default()
    };
    let program = load_paths(&files, &opts);
    let (compared, mismatches) = compare_with(&program, &reported);
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

/// Modules written for this test: what EUnit's header and parse transforms
/// do to exports and functions (auto-export, the generated `test/0`,
/// `NOTEST` stripping, `TEST` overriding `NOTEST`, `EUNIT_NOAUTO`), and
/// `export_all`, and a local function defined after calls that would
/// otherwise reach an auto-imported BIF.
const EUNIT_CASES: &[(&str, &str)] = &[
    (
        "eu_auto",
        "-module(eu_auto).\n-include_lib(\"eunit/include/eunit.hrl\").\n\
         a_test() -> ?assertEqual(2, 1 + 1).\nb_test_() -> [?_assert(true)].\n\
         c_exported_() -> ok.\nd_test(X) -> X.\neunit_wrapper_(F) -> F().\n\
         helper() -> lists:reverse([1]).\ne_test() -> helper(), d_test(1).\n",
    ),
    (
        "eu_own_test",
        "-module(eu_own_test).\n-include_lib(\"eunit/include/eunit.hrl\").\n\
         -export([run/0]).\ntest() -> ok.\nrun() -> test().\nf_test() -> ok.\n",
    ),
    (
        "eu_notest",
        "-module(eu_notest).\n-define(NOTEST, true).\n\
         -include_lib(\"eunit/include/eunit.hrl\").\n-export([kept_test/0, run/0]).\n\
         kept_test() -> ok.\ngone_test() -> F = fun(X) -> erlang:display(X) end, F(1).\n\
         gone_test_() -> [fun() -> lists:sort([b, a]) end].\neunit_wrapper_(F) -> F().\n\
         run() -> G = fun(Y) -> lists:max(Y) end, G([1]), ets:new(t, []).\n",
    ),
    (
        "eu_test_wins",
        "-module(eu_test_wins).\n-define(TEST, true).\n-define(NOTEST, true).\n\
         -include_lib(\"eunit/include/eunit.hrl\").\nx_test() -> ok.\n",
    ),
    (
        "eu_noauto",
        "-module(eu_noauto).\n-define(EUNIT_NOAUTO, true).\n\
         -include_lib(\"eunit/include/eunit.hrl\").\n-export([y_test/0]).\n\
         y_test() -> ok.\nz_test() -> y_test().\n",
    ),
    (
        "eu_export_all",
        "-module(eu_export_all).\n-compile([export_all, nowarn_export_all]).\n\
         -include_lib(\"eunit/include/eunit.hrl\").\nq() -> ok.\nr_test() -> q().\n",
    ),
    (
        "eu_late_strip",
        "-module(eu_late_strip).\n-export([run/0]).\n\
         early_test() -> fun() -> lists:reverse([1]) end.\n\
         -compile({parse_transform, eunit_striptests}).\n\
         run() -> F = fun() -> lists:sort([2, 1]) end, F().\nlate_test_() -> ok.\n",
    ),
    (
        "late_local",
        "-module(late_local).\n-export([g/1, h/0]).\n\
         g(X) -> ceil(X) + floor(X).\nh() -> fun ceil/1.\nceil(_) -> 0.\n",
    ),
];

#[test]
fn eunit_transforms_and_export_all_match_the_compiler() {
    if Command::new("erl").arg("-version").output().is_err() {
        eprintln!("notice: erl is not installed, differential test skipped");
        return;
    }
    let has_eunit = std::fs::read_dir(OTP_LIB).is_ok_and(|rd| {
        rd.flatten()
            .any(|e| e.path().join("include/eunit.hrl").is_file())
    });
    if !has_eunit {
        eprintln!("notice: EUnit is not installed, EUnit differential test skipped");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let files: Vec<PathBuf> = EUNIT_CASES
        .iter()
        .map(|(name, text)| {
            let p = dir.path().join(format!("{name}.erl"));
            std::fs::write(&p, text).expect("write a case");
            p
        })
        .collect();
    let reported = compiler_view(&files, dir.path()).expect("running erl");
    assert_eq!(
        reported.len(),
        EUNIT_CASES.len(),
        "every case compiles with erlc: {:?}",
        reported.keys().collect::<Vec<_>>()
    );
    let opts = LoadOptions {
        lib_dirs: vec![PathBuf::from(OTP_LIB)],
        epp_includes_only: true,
        ..LoadOptions::default()
    };
    let program = load_paths(&files, &opts);
    let errors: Vec<String> = program
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", program.sources.location(d.span), d.message))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let (compared, mismatches) = compare_with(&program, &reported);
    assert_eq!(compared, EUNIT_CASES.len());
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
