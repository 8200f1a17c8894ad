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

/// `eunit_autoexport` (what `eunit.hrl` names when testing is on) exports
/// the test functions and adds `test/0`; a record must be defined before
/// its use, and an export of an undefined function is reported even under
/// `export_all`.
#[test]
fn eunit_autoexport_adds_test_and_exports_tests() {
    check(
        "-module(m).\n-compile({parse_transform, eunit_autoexport}).\n\
         a_test() -> ok.\nb_test_() -> [].\nc_test(X) -> X.\nhelper() -> ok.\n",
        r#"
-module(m).
-export([test/0, a_test/0, b_test_/0]).
-compile({parse_transform, eunit_autoexport}).

%% exported
a_test() ->
    ok.

%% exported
b_test_() ->
    [].

c_test(X@0) ->
    X@0.

helper() ->
    ok.

%% exported
test() ->
    #0 eunit:test(m).

%% call sites
%% #0 in test/0: eunit:test/1
%% funs: 0
"#,
    );
    let d = diags(
        "-module(m).\n-compile([export_all]).\n-export([nope/0]).\n\
         f() -> #r{}.\n-record(r, {a}).\ng() -> #r{}.\n",
    );
    assert_eq!(
        d,
        [
            "3:1: E032 function nope/0 is exported but not defined",
            "4:8: E030 record r undefined"
        ]
    );
}

/// `eunit_striptests` (testing off) removes the unexported test functions,
/// wherever the transform is named; the call sites and funs left are
/// numbered densely.
#[test]
fn eunit_striptests_removes_unexported_tests() {
    check(
        "-module(m).\n-export([kept_test/0, run/0]).\n\
         gone_test() -> fun() -> lists:reverse([]) end.\n\
         -compile({parse_transform, eunit_striptests}).\n\
         kept_test() -> ok.\nrun() -> F = fun() -> lists:sort([]) end, F().\n",
        r#"
-module(m).
-export([kept_test/0, run/0]).
-compile({parse_transform, eunit_striptests}).

%% exported
kept_test() ->
    ok.

%% exported
run() ->
    F@0 = fun<0 /0 captures []>
        () ->
            #0 lists:sort([])
    end,
    #1 apply F@0().

%% call sites
%% #0 in run/0: lists:sort/1
%% #1 in run/0: dynamic
%% funs: 1
"#,
    );
}

/// A call that reads as an auto-imported BIF before a local function of
/// that name is defined further down calls the local function (the
/// compiler warns, and calls the local one).
#[test]
fn a_later_local_function_overrides_an_auto_imported_bif() {
    check(
        "-module(m).\n-export([g/1]).\ng(X) -> {ceil(X), fun ceil/1}.\nceil(_) -> 0.\n",
        r#"
-module(m).
-export([g/1]).

%% exported
g(X@0) ->
    {#0 ceil/1(X@0), fun ceil/1}.

ceil(_) ->
    0.

%% call sites
%% #0 in g/1: m:ceil/1
%% funs: 0
"#,
    );
}
