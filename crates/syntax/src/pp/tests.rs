use std::path::Path;
use std::sync::Arc;

use super::*;
use crate::lex::tokenize;

/// Preprocess `text` as the module file `path` and render the output tokens
/// (space-separated, as source text) followed by `!CODE:line` per diagnostic.
fn run_in(path: &Path, text: &str, env: &PpEnv) -> String {
    let file = SourceFile::new(path.to_path_buf(), Arc::from(text));
    let (toks, lex_diags) = tokenize(FileId(0), text);
    assert!(lex_diags.is_empty(), "{lex_diags:?}");
    let out = preprocess(FileId(0), &file, toks, env);
    assert_eq!(out.tokens.last().map(|t| &t.kind), Some(&TokenKind::Eof));
    let mut parts: Vec<String> = out.tokens[..out.tokens.len() - 1]
        .iter()
        .map(|t| token_text(&t.kind))
        .collect();
    for d in &out.diagnostics {
        let line = if d.span.file == FileId(0) {
            file.line_col(d.span.start).line
        } else {
            0
        };
        parts.push(format!("!{}:{}", d.code.as_str(), line));
    }
    parts.join(" ")
}

fn check(text: &str, expected: &str) {
    let env = PpEnv::default();
    assert_eq!(
        run_in(Path::new("/nonexistent/m.erl"), text, &env),
        expected,
        "input:\n{text}"
    );
}

#[test]
fn constants_and_arguments() {
    check("-define(A, 1 + 2).\nf() -> ?A.\n", "f ( ) -> 1 + 2 .");
    check(
        "-define(SQ(X), X * X).\nf() -> ?SQ(3).\n",
        "f ( ) -> 3 * 3 .",
    );
    check(
        "-define(P(X, Y), {X, Y}).\nf() -> ?P([1, 2], (a, b)).\n",
        "f ( ) -> { [ 1 , 2 ] , ( a , b ) } .",
    );
    check(
        "-define(F(X), X).\nf() -> ?F(fun(A) -> A end).\n",
        "f ( ) -> fun ( A ) -> A end .",
    );
    check(
        "-define('Q', q).\n-define(V, ?'Q').\nf() -> ?V.\n",
        "f ( ) -> q .",
    );
}

#[test]
fn arity_overloading() {
    check(
        "-define(M, zero).\n-define(M(), empty).\n-define(M(X), {one, X}).\n-define(M(X, Y), {two, X, Y}).\nf() -> [?M, ?M(), ?M(a), ?M(a, b)].\n",
        "f ( ) -> [ zero , empty , { one , a } , { two , a , b } ] .",
    );
    // Only a constant: the arguments follow as a call.
    check(
        "-define(F, foo:bar).\nf() -> ?F(1, 2).\n",
        "f ( ) -> foo : bar ( 1 , 2 ) .",
    );
    // No definition with that arity.
    check(
        "-define(M(X), X).\nf() -> ?M(1, 2).\n",
        "f ( ) -> '?M' ( 1 , 2 ) . !E022:2",
    );
}

#[test]
fn nested_and_recursive_use() {
    check(
        "-define(A, ?B + 1).\n-define(B, 2).\n-define(W(X), [X]).\nf() -> ?W(?W(?A)).\n",
        "f ( ) -> [ [ 2 + 1 ] ] .",
    );
    // A body ending in a macro name takes the arguments that follow the use.
    check(
        "-define(G(X), {g, X}).\n-define(CALL, ?G).\nf() -> ?CALL(1).\n",
        "f ( ) -> { g , 1 } .",
    );
    check("-define(R, ?R).\nf() -> ?R.\n", "f ( ) -> . !E022:2");
    check(
        "-define(A, ?B).\n-define(B, [?A]).\nf() -> ?A.\ng() -> ok.\n",
        &format!("f ( ) -> {}. g ( ) -> ok . !E022:3", "[ ".repeat(50)),
    );
    // Exponential expansion: one diagnostic, the form keeps its `.`.
    let got = run_in(
        Path::new("m.erl"),
        "-define(R, [?R, ?R]).\nf() -> ?R.\ng() -> ok.\n",
        &PpEnv::default(),
    );
    assert!(got.starts_with("f ( ) -> [ [ ["), "{got}");
    assert!(got.ends_with(" . g ( ) -> ok . !E022:2"), "{got}");
    assert_eq!(got.matches('!').count(), 1);
}

#[test]
fn stringify_argument() {
    check(
        "-define(S(X), ??X).\nf() -> ?S(foo(1, \"a\") + 'B c').\n",
        "f ( ) -> \"foo ( 1 , \\\"a\\\" ) + 'B c'\" .",
    );
}

#[test]
fn predefined_macros() {
    check(
        "-module(m).\nf(A, {B, C}) -> {?MODULE, ?MODULE_STRING, ?LINE, ?FUNCTION_NAME, ?FUNCTION_ARITY}.\n",
        "- module ( m ) . f ( A , { B , C } ) -> { m , \"m\" , 2 , f , 2 } .",
    );
    check(
        "f() -> {?OTP_RELEASE, ?MACHINE, ?BEAM, ?FILE}.\n",
        "f ( ) -> { 25 , 'BEAM' , true , \"/nonexistent/m.erl\" } .",
    );
    check("f() -> ?MODULE.\n", "f ( ) -> '?MODULE' . !E021:1");
    check("-define(L, ?LINE).\n\nf() ->\n ?L.\n", "f ( ) -> 4 .");
    // As epp: a body's ?LINE is the call's line until an argument is
    // inserted, then the line of that argument's last token.
    check(
        "-define(T(X), {?LINE, X, ?LINE}).\nf() -> ?T(\n  a).\n",
        "f ( ) -> { 2 , a , 3 } .",
    );
    check(
        "-define(R(T), {?LINE, T}).\n-define(R(T, A), ?R({T, A})).\nf() -> ?R(x,\n [y]).\n",
        "f ( ) -> { 3 , { x , [ y ] } } .",
    );
    check(
        "-define(R(T), {T, ?LINE}).\n-define(R(T, A), ?R({T, A})).\nf() -> ?R(x,\n [y]).\n",
        "f ( ) -> { { x , [ y ] } , 4 } .",
    );
    check(
        "-export([?FUNCTION_NAME/0]).\n",
        "- export ( [ '?FUNCTION_NAME' / 0 ] ) . !E021:1",
    );
}

/// After `-file`, `?FILE` and `?LINE` follow the given name and numbering
/// (as erl 25 compiles the same text: `{"gen.erl", 101}` and 104).
#[test]
fn file_attribute_renames_and_renumbers() {
    check(
        "-file(\"gen.erl\", 100).\nf() -> {?FILE, ?LINE}.\n\ng() ->\n  ?LINE.\n",
        "- file ( \"gen.erl\" , 100 ) . f ( ) -> { \"gen.erl\" , 101 } . g ( ) -> 104 .",
    );
    // Macros in the attribute are expanded first; adjacent strings join.
    check(
        "-define(N, \"x\" \".erl\").\n-file(?N, 7).\nf() -> {?FILE, ?LINE}.\n",
        "- file ( \"x\" \".erl\" , 7 ) . f ( ) -> { \"x.erl\" , 8 } .",
    );
    // A malformed one is reported and dropped; nothing is renumbered.
    check(
        "-file(gen, 100).\n-file(\"a\", b).\nf() -> ?LINE.\n",
        "f ( ) -> 3 . !E010:1 !E010:2",
    );
}

#[test]
fn undefined_and_malformed() {
    check("f() -> ?NOPE.\n", "f ( ) -> '?NOPE' . !E021:1");
    check("f() -> ?NOPE(1).\n", "f ( ) -> '?NOPE' ( 1 ) . !E021:1");
    check(
        "-define(F(X), X).\nf() -> ?F(1.\n",
        "f ( ) -> '?F' ( 1 . !E022:2",
    );
    check(
        "-define(F(X), X).\nf() -> ?F(1,,2).\n",
        "f ( ) -> '?F' ( 1 , , 2 ) . !E022:2",
    );
    check("-define(F(X, X), X).\n", "!E022:1");
    check("-define(F, 1.\n", "!E022:1");
    check("f() -> ? .\n", "f ( ) -> . !E022:1");
    check(
        "-define(A, 1).\n-define(A, 2).\nf() -> ?A.\n",
        "f ( ) -> 1 . !E025:2",
    );
    check("-define(LINE, 2).\n", "!E025:1");
    check("-undef(A).\n-undef(1).\n", "!E022:2");
}

#[test]
fn undef_removes() {
    check(
        "-define(A, 1).\n-undef(A).\nf() -> ?A.\n",
        "f ( ) -> '?A' . !E021:3",
    );
}

#[test]
fn ifdef_ifndef_else() {
    check(
        "-define(D, 1).\n-ifdef(D).\na.\n-else.\nb.\n-endif.\n-ifndef(D).\nc.\n-else.\nd.\n-endif.\n",
        "a . d .",
    );
    check(
        "-ifdef(X).\n-ifdef(Y).\na.\n-else.\nb.\n-endif.\nc.\n-else.\nd.\n-endif.\n",
        "d .",
    );
    // Conditionals apply before the module is known.
    check(
        "-ifdef(MODULE).\na.\n-endif.\n-module(m).\n-ifdef(MODULE).\nb.\n-endif.\n",
        "- module ( m ) . b .",
    );
}

#[test]
fn if_elif() {
    check(
        "-if(?OTP_RELEASE >= 26).\na.\n-elif(?OTP_RELEASE >= 25).\nb.\n-elif(true).\nc.\n-else.\nd.\n-endif.\n",
        "b .",
    );
    check(
        "-if(false).\na.\n-elif(false).\nb.\n-else.\nc.\n-endif.\n",
        "c .",
    );
    check(
        "-define(X, 3).\n-if(defined(X) andalso ?X * 2 == 6).\nyes.\n-endif.\n",
        "yes .",
    );
    check(
        "-if(true).\n-if(false).\na.\n-else.\nb.\n-endif.\n-else.\nc.\n-endif.\n",
        "b .",
    );
    check("-if(case).\na.\n-endif.\n", "!E023:1");
}

#[test]
fn unbalanced_conditionals() {
    check("-endif.\n", "!E023:1");
    check("-else.\n", "!E023:1");
    check("-ifdef(X).\na.\n", "!E023:1");
    check("-ifdef(A).\n-else.\n-else.\n-endif.\n", "!E023:3");
    check("-if(true).\n-else.\n-elif(true).\n-endif.\n", "!E023:3");
    check("-endif(x).\n", "!E023:1");
}

#[test]
fn error_and_warning_directives() {
    check("-error(\"stop here\").\nf.\n", "f . !E024:1");
    check("-warning({old, api}).\n", "!W001:1");
    check("-ifdef(X).\n-error(no).\n-endif.\n", "");
}

#[test]
fn feature_directive_is_dropped() {
    check(
        "-feature(maybe_expr, enable).\n-if(?FEATURE_ENABLED(maybe_expr)).\nf() -> maybe ok end.\n-endif.\n",
        "f ( ) -> maybe ok end .",
    );
    check("-if(?FEATURE_ENABLED(maybe_expr)).\na.\n-endif.\n", "");
}

#[test]
fn defines_from_options() {
    let env = PpEnv::new(
        Vec::new(),
        Vec::new(),
        &[
            ("VSN".into(), Some("\"1.0\"".into())),
            ("DEBUG".into(), None),
        ],
    );
    let got = run_in(
        Path::new("/x/m.erl"),
        "-ifdef(DEBUG).\nv() -> {?VSN, ?DEBUG}.\n-endif.\n",
        &env,
    );
    assert_eq!(got, "v ( ) -> { \"1.0\" , true } .");
}

#[test]
fn spans_of_expansions() {
    let text = "-define(P(X), {X, b}).\nf() -> ?P(a).\n";
    let file = SourceFile::new("m.erl".into(), Arc::from(text));
    let (toks, _) = tokenize(FileId(0), text);
    let out = preprocess(FileId(0), &file, toks, &PpEnv::default());
    let use_start = text.find("?P").unwrap() as u32;
    let use_end = text.find("(a)").unwrap() as u32 + 3;
    let a_start = use_end - 2;
    let spans: Vec<(String, u32, u32)> = out
        .tokens
        .iter()
        .filter(|t| t.span.start >= use_start && t.kind != TokenKind::Eof)
        .map(|t| (token_text(&t.kind), t.span.start, t.span.end))
        .collect();
    assert_eq!(
        spans,
        vec![
            ("{".to_string(), use_start, use_end),
            ("a".to_string(), a_start, a_start + 1),
            // After an argument: the rest of the use, from that argument on.
            (",".to_string(), a_start, use_end),
            ("b".to_string(), a_start, use_end),
            ("}".to_string(), a_start, use_end),
            (".".to_string(), use_end, use_end + 1),
        ]
    );
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn include_search_order_and_header_spans() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(root, "app/src/local.hrl", "-define(WHERE, local).\n");
    write(
        root,
        "app/include/shared.hrl",
        "-define(SHARED, shared).\n-include(\"nested.hrl\").\n",
    );
    write(root, "app/include/nested.hrl", "nested() -> ?LINE.\n");
    write(root, "extra/inc/x.hrl", "-define(X, extra).\n");
    let env = PpEnv::new(vec![root.join("extra/inc")], Vec::new(), &[]);
    let text = "-include(\"local.hrl\").\n-include(\"shared.hrl\").\n-include(\"x.hrl\").\n-include(\"missing.hrl\").\nf() -> {?WHERE, ?SHARED, ?X}.\n";
    let got = run_in(&root.join("app/src/m.erl"), text, &env);
    assert_eq!(
        got,
        "nested ( ) -> 1 . f ( ) -> { local , shared , extra } . !E020:4"
    );
    // The header's tokens carry its own (provisional) file id.
    let file = SourceFile::new(root.join("app/src/m.erl"), Arc::from(text));
    let (toks, _) = tokenize(FileId(0), text);
    let out = preprocess(FileId(0), &file, toks, &env);
    let nested = out
        .tokens
        .iter()
        .find(|t| token_text(&t.kind) == "nested")
        .unwrap();
    let h = env.headers.by_id(nested.span.file).unwrap();
    assert!(h.file.path.ends_with("app/include/nested.hrl"));
    assert_eq!(out.included.len(), 4);
    assert!(
        out.included
            .iter()
            .all(|id| id.0 >= include::HEADER_ID_BASE)
    );
}

#[test]
fn a_header_elsewhere_in_the_application_is_found_when_unique() {
    // As OTP's snmp: src/manager/m.erl includes "verbosity.hrl", which sits
    // in src/misc/ and is found by the Makefile's -I; "twice.hrl" exists in
    // two directories, so which one is meant is unknown.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(root, "app/src/misc/verbosity.hrl", "-define(V, misc).\n");
    write(root, "app/src/a/twice.hrl", "-define(T, a).\n");
    write(root, "app/src/b/twice.hrl", "-define(T, b).\n");
    let mut env = PpEnv::new(Vec::new(), Vec::new(), &[]);
    let text = "-include(\"verbosity.hrl\").\nf() -> ?V.\n";
    // As epp: not found.
    assert_eq!(
        run_in(&root.join("app/src/manager/m.erl"), text, &env),
        "f ( ) -> '?V' . !E020:1 !E021:2"
    );
    env.app_headers = true;
    let text = "-include(\"verbosity.hrl\").\n-include(\"twice.hrl\").\nf() -> ?V.\n";
    let got = run_in(&root.join("app/src/manager/m.erl"), text, &env);
    assert_eq!(got, "f ( ) -> misc . !E020:2");
}

#[test]
fn a_header_in_a_sibling_applications_include_is_found_when_unique() {
    // As OTP's stdlib: gen.erl includes "logger.hrl", which sits in
    // kernel/include, beside stdlib; OTP's build passes that -I. "both.hrl"
    // is in two sibling applications, so which one is meant is unknown;
    // the module's own application is not a sibling.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(
        root,
        "lib/kernel-8.5/include/logger.hrl",
        "-define(L, kernel).\n",
    );
    write(root, "lib/a-1/include/both.hrl", "-define(B, a).\n");
    write(root, "lib/b-1/include/both.hrl", "-define(B, b).\n");
    write(root, "lib/stdlib-4.2/src/gen.erl", "");
    let mut env = PpEnv::new(Vec::new(), Vec::new(), &[]);
    let text = "-include(\"logger.hrl\").\n-include(\"both.hrl\").\nf() -> ?L.\n";
    let module = root.join("lib/stdlib-4.2/src/gen.erl");
    assert_eq!(
        run_in(&module, text, &env),
        "f ( ) -> '?L' . !E020:1 !E020:2 !E021:3"
    );
    env.app_headers = true;
    assert_eq!(run_in(&module, text, &env), "f ( ) -> kernel . !E020:2");
}

#[test]
fn include_lib_resolution() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(root, "libs/mylib-1.2/include/a.hrl", "-define(A, old).\n");
    write(root, "libs/mylib-1.10/include/a.hrl", "-define(A, new).\n");
    write(
        root,
        "proj/_build/default/lib/dep/include/d.hrl",
        "-define(D, dep).\n",
    );
    write(root, "proj/apps/own/include/o.hrl", "-define(O, own).\n");
    let env = PpEnv::new(Vec::new(), vec![root.join("libs")], &[]);
    let text = "-include_lib(\"mylib/include/a.hrl\").\n-include_lib(\"dep/include/d.hrl\").\n-include_lib(\"own/include/o.hrl\").\n-include_lib(\"nolib/include/n.hrl\").\nf() -> {?A, ?D, ?O}.\n";
    let got = run_in(&root.join("proj/apps/own/src/m.erl"), text, &env);
    assert_eq!(got, "f ( ) -> { new , dep , own } . !E020:4");
}

/// A header of an application that is nowhere to be found says so, and
/// what to do; a header missing from an application that is there does not.
#[test]
fn include_lib_of_a_missing_application_says_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(root, "proj/deps/dep/include/d.hrl", "-define(D, dep).\n");
    let path = root.join("proj/src/m.erl");
    let text = "-include_lib(\"parse_trans_x/include/exprecs.hrl\").\n-include_lib(\"dep/include/gone.hrl\").\n";
    let file = SourceFile::new(path.clone(), Arc::from(text));
    let (toks, _) = tokenize(FileId(0), text);
    let out = preprocess(FileId(0), &file, toks, &PpEnv::default());
    let messages: Vec<&str> = out.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "can't find include lib \"parse_trans_x/include/exprecs.hrl\": no application \
             `parse_trans_x` in the library paths (a dependency not fetched? `rebar3 get-deps` \
             puts them in _build/default/lib; or name its parent directory with --lib-dir)",
            "can't find include lib \"dep/include/gone.hrl\"",
        ]
    );
}

#[test]
fn include_lib_from_otp() {
    if !Path::new("/usr/lib/erlang/lib").is_dir() {
        return;
    }
    let env = PpEnv::default();
    let text = "-include_lib(\"kernel/include/file.hrl\").\nf() -> #file_info{}.\n";
    let got = run_in(Path::new("/tmp/nowhere/m.erl"), text, &env);
    assert!(got.ends_with("f ( ) -> # file_info { } ."), "{got}");
    assert!(!got.contains('!'), "{got}");
}

#[test]
fn unterminated_conditional_in_header_and_include_depth() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(root, "open.hrl", "-ifdef(X).\n");
    write(root, "self.hrl", "-include(\"self.hrl\").\n");
    let env = PpEnv::default();
    let got = run_in(&root.join("m.erl"), "-include(\"open.hrl\").\na.\n", &env);
    assert_eq!(got, "a . !E023:0");
    let got = run_in(&root.join("m.erl"), "-include(\"self.hrl\").\nb.\n", &env);
    assert_eq!(got, "b . !E020:0");
}

#[test]
fn garbage_never_panics() {
    let base = "-module(m).\n-define(A(X), {X, ??X}).\n-ifdef(A).\nf(X) -> ?A(X) + ?LINE.\n-else.\ng() -> ?FUNCTION_NAME.\n-endif.\n-if(?OTP_RELEASE > 1).\nh() -> ?MODULE.\n-endif.\n";
    let mut seed: u32 = 7;
    for _ in 0..1500 {
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..3 {
            seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
            let i = (seed >> 8) as usize % bytes.len();
            seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
            let choices = b"()?,.-X{}<>\"' \n";
            bytes[i] = choices[(seed >> 16) as usize % choices.len()];
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let file = SourceFile::new("m.erl".into(), Arc::from(text.as_str()));
        let (toks, lex_diags) = tokenize(FileId(0), &text);
        let out = preprocess(FileId(0), &file, toks, &PpEnv::default());
        assert_eq!(out.tokens.last().map(|t| &t.kind), Some(&TokenKind::Eof));
        let mut whole = lex_diags;
        whole.extend(out.diagnostics.iter().cloned());
        let (tokens, diags) = streamed(&file, &PpEnv::default());
        assert_eq!(tokens, out.tokens, "input:\n{text}");
        assert_eq!(diags, whole, "input:\n{text}");
    }
}

/// A module preprocessed form by form from its text ([`PpStream`]): the
/// forms' tokens concatenated, and the diagnostics.
pub(crate) fn streamed(file: &SourceFile, env: &PpEnv) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut stream = PpStream::new(FileId(0), file, env);
    let mut tokens = Vec::new();
    while let Some(form) = stream.next_form() {
        tokens.extend_from_slice(form);
        stream.release_form();
    }
    (tokens, stream.finish().diagnostics)
}

/// Streaming gives what preprocessing the whole token list gives, with
/// `maybe` turned on midway, `-file`, includes, conditionals and errors.
#[test]
fn streaming_gives_the_same_tokens_and_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("h.hrl"),
        "-define(H(X), {h, X}).\n-ifdef(NOPE).\nbad(.\n-endif.\nh() -> ?H(1).\n",
    )
    .unwrap();
    let text = "-module(m).\nmaybe() -> else.\n-feature(maybe_expr, enable).\n\
                -include(\"h.hrl\").\n-define(D(X), [X, X]).\n\
                f() -> maybe ok ?= ?D(?H(2)) else _ -> ?LINE end.\n\
                -file(\"gen.erl\", 10).\ng() -> ?FILE ?NOPE.\n-if(?UNDEFINED).\n\
                x() -> 1.\n-else.\ny() -> ?FUNCTION_NAME.\n-endif.\nlast() -> 'unterminated";
    let file = SourceFile::new(dir.path().join("m.erl"), Arc::from(text));
    let env = PpEnv::default();
    let (toks, lex_diags) = tokenize(FileId(0), text);
    let out = preprocess(FileId(0), &file, toks, &env);
    let mut whole = lex_diags;
    whole.extend(out.diagnostics);
    let (tokens, diags) = streamed(&file, &env);
    assert_eq!(tokens, out.tokens);
    assert_eq!(diags, whole);
    assert!(
        tokens
            .iter()
            .any(|t| t.kind == TokenKind::Keyword(crate::token::Keyword::Maybe))
    );
    assert!(diags.len() >= 3, "{diags:?}");
}

/// `-define(E0(X), {X, X}).` and `-define(En(X), ?En-1({X, X})).`: each
/// level doubles its argument twice over.
fn doubling_macros(levels: usize) -> String {
    let mut text = String::from("-module(m).\n-define(E0(X), {X,X}).\n");
    for i in 1..=levels {
        text.push_str(&format!("-define(E{i}(X), ?E{}({{X,X}})).\n", i - 1));
    }
    text
}

/// Macros that double their arguments level after level stop at the
/// form's output budget with a diagnostic at the use, the rest of the form
/// dropped; the next form is preprocessed as usual.
#[test]
fn expansion_is_bounded_by_output_size() {
    let mut text = doubling_macros(22);
    text.push_str("f() -> ?E22(a).\ng() -> ok.\n");
    let file = SourceFile::new("m.erl".into(), Arc::from(text.as_str()));
    let (tokens, diags) = streamed(&file, &PpEnv::default());
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d.code, DiagnosticCode::E022BadMacroCall);
    assert!(
        d.message
            .contains("expand to more than 2000000 tokens; the rest of the form is dropped"),
        "{}",
        d.message
    );
    assert_eq!(file.location(d.span.start).to_string(), "m.erl:25:8");
    assert!(tokens.len() < 40, "{} tokens", tokens.len());
    let rendered: Vec<String> = tokens.iter().map(|t| token_text(&t.kind)).collect();
    assert_eq!(
        rendered[rendered.len() - 12..],
        ["f", "(", ")", "->", ".", "g", "(", ")", "->", "ok", ".", ""]
    );
}

/// Each form may stay under its budget while the module as a whole goes
/// over its own: reported once, and the macros after it stay unexpanded.
#[test]
fn expansion_is_bounded_per_module() {
    let mut text = doubling_macros(15);
    for i in 0..20 {
        text.push_str(&format!("f{i}() -> ?E15(a).\n"));
    }
    text.push_str("g() -> ?E0(b).\n");
    let file = SourceFile::new("m.erl".into(), Arc::from(text.as_str()));
    let (tokens, diags) = streamed(&file, &PpEnv::default());
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0]
            .message
            .contains("the macros of this module expand to more than"),
        "{}",
        diags[0].message
    );
    let tail: Vec<String> = tokens[tokens.len() - 10..]
        .iter()
        .map(|t| token_text(&t.kind))
        .collect();
    assert_eq!(tail, ["g", "(", ")", "->", "'?E0'", "(", "b", ")", ".", ""]);
}
