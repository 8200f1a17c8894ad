use super::lower_text_for_tests;
use super::pretty::pretty_module;

/// Lower `src` and compare the pretty-printed IR plus diagnostics with `expect`.
fn check(src: &str, expect: &str) {
    let (m, diags) = lower_text_for_tests(src);
    let mut out = m.map(|m| pretty_module(&m)).unwrap_or_default();
    for d in diags {
        out.push_str(&format!("!! {d}\n"));
    }
    let actual = out.trim();
    let expect = expect.trim();
    if actual != expect {
        panic!("lowering mismatch\n--- expected\n{expect}\n--- actual\n{actual}\n");
    }
}

/// Only the diagnostics of lowering `src`.
fn diags(src: &str) -> Vec<String> {
    lower_text_for_tests(src).1
}

#[test]
fn deep_nesting_is_a_diagnostic_not_an_overflow() {
    for (open, close) in [
        ("[", "]"),
        ("(", ")"),
        ("{", "}"),
        ("<<(", ")>>"),
        ("- ", ""),
        ("not ", ""),
        ("begin ", " end"),
    ] {
        let src = format!(
            "-module(m).\nf() -> {}1{}.\ng() -> ok.\n",
            open.repeat(20000),
            close.repeat(20000)
        );
        let d = diags(&src);
        assert!(
            d.iter().any(|d| d.contains("nested too deeply")),
            "{open}: {d:?}"
        );
    }
    let chain = format!("-module(m).\nf() -> 1{}.\n", " + 1".repeat(50000));
    assert!(diags(&chain).iter().any(|d| d.contains("too long")));
    let right = format!("-module(m).\nf() -> 1{}.\n", " ++ 1".repeat(50000));
    assert!(
        diags(&right)
            .iter()
            .any(|d| d.contains("nested too deeply"))
    );
}

#[test]
fn variables_bound_in_every_branch_stay_bound() {
    check(
        "-module(m).\nf(X) -> case X of 1 -> Y = a; _ -> Y = b, Z = c end, {Y, Z}.\n",
        r#"
-module(m).
-export([]).

f(X@0) ->
    case X@0 of
        1 ->
            Y@1 = a;
        _ ->
            Y@1 = b,
            Z@2 = c
    end,
    {Y@1, <missing>}.
%% funs: 0
!! 2:58: E031 variable Z is unbound
"#,
    );
}

#[test]
fn funs_capture_sorted_free_variables() {
    check(
        "-module(m).\nf(B, A) -> fun() -> fun(C) -> {A, B, C} end end.\n",
        r#"
-module(m).
-export([]).

f(B@0, A@1) ->
    fun<0 /0 captures [B@0, A@1]>
        () ->
            fun<1 /1 captures [B@0, A@1]>
                (C@2) ->
                    {A@1, B@0, C@2}
            end
    end.
%% funs: 2
"#,
    );
}

#[test]
fn call_sites_are_numbered_in_source_order() {
    check(
        "-module(m).\nf(P) -> P ! g(h(1)), erlang:now().\ng(X) -> X.\nh(X) -> X.\n",
        r#"
-module(m).
-export([]).

f(P@0) ->
    #0(P@0 ! #1 g/1(#2 h/1(1))),
    #3 erlang:now().

g(X@0) ->
    X@0.

h(X@0) ->
    X@0.

%% call sites
%% #0 in f/1: erlang:!/2
%% #1 in f/1: m:g/1
%% #2 in f/1: m:h/1
%% #3 in f/1: erlang:now/0
%% funs: 0
"#,
    );
}

#[test]
fn local_definition_overrides_auto_import() {
    check(
        "-module(m).\nf() -> {self(), length([])}.\nlength(_) -> 0.\n",
        r#"
-module(m).
-export([]).

f() ->
    {#0 erlang:self(), #1 length/1([])}.

length(_) ->
    0.

%% call sites
%% #0 in f/0: erlang:self/0
%% #1 in f/0: m:length/1
%% funs: 0
"#,
    );
}

#[test]
fn pattern_variables_bind_once_then_compare() {
    check(
        "-module(m).\nf(X, [X | T]) -> T = [].\n",
        r#"
-module(m).
-export([]).

f(X@0, [^X@0 | T@1]) ->
    ^T@1 = [].
%% funs: 0
"#,
    );
}

#[test]
fn missing_module_attribute_gives_no_module() {
    check(
        "f() -> ok.\n",
        "!! 1:1: E010 missing -module(Name) attribute",
    );
}

#[test]
fn comprehension_body_sites_come_first_as_in_the_text() {
    check(
        "-module(m).\nf(L) -> [{g(X), fun() -> X end} || X <- h(L, fun() -> L end)].\ng(X) -> X.\nh(X, _) -> X.\n",
        r#"
-module(m).
-export([]).

f(L@0) ->
    [{#0 g/1(X@1), fun<0 /0 captures [X@1]>
        () ->
            X@1
    end} || X@1 <- #1 h/2(L@0, fun<1 /0 captures [L@0]>
        () ->
            L@0
    end)].

g(X@0) ->
    X@0.

h(X@0, _) ->
    X@0.

%% call sites
%% #0 in f/1: m:g/1
%% #1 in f/1: m:h/2
%% funs: 2
"#,
    );
}

#[test]
fn a_broken_body_keeps_the_expressions_before_the_error() {
    check(
        "-module(m).\nf() -> a(), b(1 2), c().\n",
        r#"
-module(m).
-export([]).

f() ->
    #0 a/0(),
    <missing>.

%% call sites
%% #0 in f/0: m:a/0
%% funs: 0
!! 2:17: E010 expected ',' or ')' but found integer 2
"#,
    );
}
