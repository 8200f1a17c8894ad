//! Differential test of the `ms_transform` parse transform against the
//! compiler's: for every installed OTP module that names it (through
//! `ms_transform.hrl`) and for the modules below, each `ets:fun2ms/1` and
//! `dbg:fun2ms/1` call must become the match specification
//! `ms_transform:parse_transform/2` makes (compared as text:
//! `tests/ms_transform/compiler_view.escript` prints the compiler's side,
//! `ir::Module::fun2ms` racewit's), and a module the transform refuses must
//! get the same error, at the same line and column, as racewit's first E034
//! diagnostic. Skips with a printed notice when `erl` is missing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use racewit_syntax::{DiagnosticCode, LoadOptions, load_paths};

const OTP_LIB: &str = "/usr/lib/erlang/lib";

/// What one file gives: the literals by `line:col` of their fun, or the
/// transform's error (`line:col`, message).
#[derive(Debug, PartialEq, Default)]
struct View {
    literals: BTreeMap<String, String>,
    error: Option<(String, String)>,
}

fn compiler_view(files: &[PathBuf]) -> BTreeMap<PathBuf, View> {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ms_transform/compiler_view.escript");
    let out = Command::new("escript")
        .arg(&script)
        .args(files)
        .output()
        .expect("running escript");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut views: BTreeMap<PathBuf, View> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        match parts.as_slice() {
            [f, "ERROR", at, msg] => {
                views.entry(PathBuf::from(f)).or_default().error =
                    Some((at.to_string(), msg.to_string()));
            }
            [f, at, text] => {
                views
                    .entry(PathBuf::from(f))
                    .or_default()
                    .literals
                    .insert(at.to_string(), text.to_string());
            }
            _ => panic!("unexpected line from the compiler's side: {line}"),
        }
    }
    views
}

fn racewit_view(files: &[PathBuf]) -> BTreeMap<PathBuf, View> {
    let opts = LoadOptions {
        lib_dirs: vec![PathBuf::from(OTP_LIB)],
        epp_includes_only: true,
        ..LoadOptions::default()
    };
    let program = load_paths(files, &opts);
    let mut views: BTreeMap<PathBuf, View> = BTreeMap::new();
    let at = |span| {
        let loc = program.sources.location(span);
        format!("{}:{}", loc.line, loc.column)
    };
    for m in program.modules.values() {
        let path = program.sources.get(m.file).path.clone();
        let view = views.entry(path).or_default();
        for lit in &m.fun2ms {
            view.literals.insert(at(lit.span), lit.text.clone());
        }
    }
    for d in &program.diagnostics {
        if d.code != DiagnosticCode::E034MatchSpecTransform {
            continue;
        }
        let path = program.sources.get(d.span.file).path.clone();
        let view = views.entry(path).or_default();
        if view.error.is_none() {
            view.error = Some((at(d.span), d.message.clone()));
        }
    }
    views
}

/// Compare the two sides for `files`: (files compared, mismatches).
fn compare(files: &[PathBuf]) -> (usize, Vec<String>) {
    let theirs = compiler_view(files);
    let ours = racewit_view(files);
    let mut mismatches = Vec::new();
    for (f, t) in &theirs {
        let empty = View::default();
        let o = ours.get(f).unwrap_or(&empty);
        match &t.error {
            // The compiler stops at the first refusal: compare it alone.
            Some(e) => {
                if o.error.as_ref() != Some(e) {
                    mismatches.push(format!(
                        "{}: the compiler refuses with {e:?}, racewit {:?}",
                        f.display(),
                        o.error
                    ));
                }
            }
            None => {
                if o.literals != t.literals || o.error.is_some() {
                    mismatches.push(format!(
                        "{}:\n  compiler {:#?}\n  racewit  {:#?}\n  racewit's error {:?}",
                        f.display(),
                        t.literals,
                        o.literals,
                        o.error
                    ));
                }
            }
        }
    }
    (theirs.len(), mismatches)
}

fn have_erl() -> bool {
    Command::new("erl").arg("-version").output().is_ok()
}

/// The OTP modules that name `ms_transform.hrl`.
fn otp_users() -> Vec<PathBuf> {
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
            if p.extension().is_some_and(|e| e == "erl")
                && std::fs::read_to_string(&p).is_ok_and(|t| t.contains("ms_transform.hrl"))
            {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn otp_modules_get_the_compilers_match_specs() {
    if !have_erl() {
        eprintln!("notice: erl is not installed, ms_transform differential test skipped");
        return;
    }
    let files = otp_users();
    if files.is_empty() {
        eprintln!("notice: no OTP sources under {OTP_LIB}, ms_transform differential test skipped");
        return;
    }
    let (compared, mismatches) = compare(&files);
    eprintln!(
        "ms_transform: {} OTP modules name it, {compared} compile with it, {} mismatches",
        files.len(),
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(compared >= 5, "only {compared} OTP modules compared");
}

const HEADER: &str = "-include_lib(\"stdlib/include/ms_transform.hrl\").\n\
    -record(person, {name, age = 0, city = nowhere, tags = []}).\n\
    -record(pt, {x, y}).\n\
    -export([f/1]).\n";

/// Modules written for this test: translations (one module, every call
/// accepted) and refusals (one module each: the compiler stops at the first).
const CASES: &[(&str, &str)] = &[
    (
        "ms_ok",
        "f(Outer) ->\n    Min = 10,\n    [ets:fun2ms(fun({K, V}) when V > 1 -> K end),\n\
         ets:fun2ms(fun({K, V}) when V > Min, is_integer(K) -> {K, V} end),\n\
         ets:fun2ms(fun({K, _, V} = Obj) when V >= 2; K =:= a -> Obj end),\n\
         ets:fun2ms(fun(X) -> X end),\n\
         ets:fun2ms(fun(#person{name = N, age = A}) when A > 30 -> N end),\n\
         ets:fun2ms(fun(#person{city = london, _ = '_'}) -> object() end),\n\
         ets:fun2ms(fun(#person{tags = T, name = N} = P) -> {N, P#person.age, P, T} end),\n\
         ets:fun2ms(fun(P = #person{}) when P#person.age band 1 =:= 1 -> #person{name = x} end),\n\
         ets:fun2ms(fun({A, B, C}) when (A andalso B) orelse not C -> [A, B | C] end),\n\
         ets:fun2ms(fun({A, B}) when element(1, A) == '$1', A /= {x, Outer} -> bindings() end),\n\
         ets:fun2ms(fun({A, [H | T], \"str\", -1, 3.5}) -> {A, H, T, Outer, '$foo', -2 + 5, 1 / 2, $a} end),\n\
         ets:fun2ms(fun({A, B}) when integer(A), record(B, pt) -> is_record(B, pt) end),\n\
         ets:fun2ms(fun({P, _}) when erlang:is_integer(P), erlang:'>'(P, 1) -> erlang:self() end),\n\
         ets:fun2ms(fun({P, Q}) -> P#pt{y = Q} end),\n\
         ets:fun2ms(fun({_P, Q}) -> #pt{_ = Q} end),\n\
         ets:fun2ms(fun({#{k := V}, M}) -> #{V => M} end),\n\
         ets:fun2ms(fun({_}) -> #person.age end),\n\
         ets:fun2ms(fun({X, Y}) when X > Y -> X; ({X, _}) -> {X} end),\n\
         ets:fun2ms(fun({X, Y}) when X > 1 + 2, Y =:= 2 * 3 -> X - (Y + 1) end),\n\
         dbg:fun2ms(fun([A, B]) when A > B -> message(A), return_trace() end),\n\
         dbg:fun2ms(fun(Args) -> message(Args), exception_trace(), caller() end),\n\
         dbg:fun2ms(fun([]) -> true end),\n\
         dbg:fun2ms(fun([A | _] = L) -> display(L), set_seq_token(label, A), enable_trace(send) end)].\n",
    ),
    (
        "ms_ok_functions",
        "f(Outer) ->\n    [ets:fun2ms(fun({A, B}) -> #{A => Outer, k => [B | \"xy\"]} end),\n\
         ets:fun2ms(fun({_A, _B}) -> <<Outer:8, 1>> end),\n\
         ets:fun2ms(fun({A, _}) when node() =:= A -> {self(), node(A), $z, 2.5} end),\n\
         ets:fun2ms(fun({A, B}) when is_map_key(k, A), map_get(k, A) > B, map_size(A) > 0 -> A end),\n\
         ets:fun2ms(fun({A, B}) when abs(A) > 1, hd(B) =:= 1, tl(B) =:= [], length(B) < 3, size(A) > 0,\n\
             trunc(A) > 0, round(A) > 0, float(A) > 0, bit_size(A) > 1, byte_size(A) > 0 -> binary_part(A, 0, 1) end),\n\
         ets:fun2ms(fun({A, B}) when not (A xor B), A and B, A or B ->\n\
             {A =/= B, A == B, -A, +B, bnot A, A bsl 1, A bsr 1, A bxor 1, A bor 1, A div 2, A rem 2, A * 2 - 1} end),\n\
         ets:fun2ms(fun({{A, B}, [C | D], #pt{x = E}}) -> {E, D, C, B, A} end),\n\
         ets:fun2ms(fun({A, B}) when A > -3, B =:= not true, A < 7 div 2 -> {A > 1.5, - 2.5, 3 rem 2} end),\n\
         dbg:fun2ms(fun([_A]) -> get_tcw(), set_tcw(1), silent(true), trace([send], ['receive']),\n\
             disable_trace(call), process_dump(), get_seq_token(), is_seq_trace() end),\n\
         dbg:fun2ms(fun(_) -> ok end)].\n",
    ),
    ("ms_err_nofun", "f(F) -> ets:fun2ms(F).\n"),
    (
        "ms_err_named",
        "f(_) -> ets:fun2ms(fun G(X) -> G(X) end).\n",
    ),
    (
        "ms_err_ets_head",
        "f(_) -> ets:fun2ms(fun([X]) -> X end).\n",
    ),
    (
        "ms_err_two_params",
        "f(_) -> ets:fun2ms(fun(X, Y) -> {X, Y} end).\n",
    ),
    (
        "ms_err_dbg_head",
        "f(_) -> dbg:fun2ms(fun({X}) -> X end).\n",
    ),
    (
        "ms_err_head_match",
        "f(_) -> ets:fun2ms(fun({A = {B}}) -> {A, B} end).\n",
    ),
    (
        "ms_err_local",
        "f(_) -> ets:fun2ms(fun({A}) -> g(A) end).\ng(X) -> X.\n",
    ),
    (
        "ms_err_guard_local",
        "f(_) -> ets:fun2ms(fun({A}) when g(A) -> A end).\ng(X) -> X.\n",
    ),
    (
        "ms_err_remote",
        "f(_) -> ets:fun2ms(fun({A}) -> lists:reverse(A) end).\n",
    ),
    (
        "ms_err_case",
        "f(_) -> ets:fun2ms(fun({A}) -> case A of 1 -> a; _ -> b end end).\n",
    ),
    (
        "ms_err_body_match",
        "f(_) -> ets:fun2ms(fun({A}) -> B = A, B end).\n",
    ),
    (
        "ms_err_guard_match",
        "f(_) -> ets:fun2ms(fun({A}) when (B = A) > 0 -> A end).\n",
    ),
    (
        "ms_err_record",
        "f(_) -> ets:fun2ms(fun(#nope{a = A}) -> A end).\n",
    ),
    (
        "ms_err_field",
        "f(_) -> ets:fun2ms(fun(#pt{z = A}) -> A end).\n",
    ),
    (
        "ms_err_body_field",
        "f(_) -> ets:fun2ms(fun({A}) -> A#pt.z end).\n",
    ),
    (
        "ms_err_dollar",
        "f(_) -> ets:fun2ms(fun({'$1', A}) -> A end).\n",
    ),
    (
        "ms_err_action_in_guard",
        "f(_) -> dbg:fun2ms(fun([A]) when message(A) -> A end).\n",
    ),
    (
        "ms_err_lc",
        "f(_) -> ets:fun2ms(fun({A}) -> [X || X <- A] end).\n",
    ),
    (
        "ms_err_bin_head",
        "f(_) -> ets:fun2ms(fun({<<X:8>>}) -> X end).\n",
    ),
    (
        "ms_err_fun_call",
        "f(G) -> ets:fun2ms(fun({A}) -> G(A) end).\n",
    ),
];

#[test]
fn written_modules_get_the_compilers_match_specs_and_errors() {
    if !have_erl() {
        eprintln!("notice: erl is not installed, ms_transform differential test skipped");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for (name, body) in CASES {
        let p = dir.path().join(format!("{name}.erl"));
        std::fs::write(&p, format!("-module({name}).\n{HEADER}{body}")).expect("write case");
        files.push(p);
    }
    let (compared, mismatches) = compare(&files);
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_eq!(
        compared,
        CASES.len(),
        "every case module gives the compiler's view"
    );
}
