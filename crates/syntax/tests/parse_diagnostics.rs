//! Syntax errors: each gives one E010 diagnostic at the offending token with
//! "expected X but found Y", and the functions after the broken one still lower.

use racewit_syntax::ir::Program;
use racewit_syntax::load_source;

/// Diagnostics as `file:line:col: CODE message`.
fn rendered(p: &Program) -> Vec<String> {
    p.diagnostics
        .iter()
        .map(|d| {
            format!(
                "{}: {} {}",
                p.sources.location(d.span),
                d.code.as_str(),
                d.message
            )
        })
        .collect()
}

/// Load `src` as `t.erl`; return the rendered diagnostics and the functions lowered.
fn run(src: &str) -> (Vec<String>, Vec<String>) {
    let p = load_source("t.erl", src);
    let funs = p
        .module("m")
        .map(|m| {
            m.functions
                .iter()
                .map(|f| f.fun_name().to_string())
                .collect()
        })
        .unwrap_or_default();
    (rendered(&p), funs)
}

/// `broken` is a form that must give exactly the diagnostic `expect`
/// (`line:col: CODE message`, line 2 being the broken form's first line); the
/// module around it has `before/0` and `later/0`, which must both lower.
fn check(broken: &str, expect: &str) {
    let src = format!("-module(m).\n{broken}\nbefore() -> ok.\nlater() -> ok.\n");
    let (diags, funs) = run(&src);
    assert_eq!(diags, vec![expect.to_string()], "source:\n{src}");
    assert!(
        funs.contains(&"before/0".to_string()) && funs.contains(&"later/0".to_string()),
        "functions after the error must lower: {funs:?}"
    );
}

#[test]
fn filter_in_a_zip_generator() {
    check(
        "f(L) -> [X || X <- L && Y <- L && X > 0].",
        "t.erl:2:35: E010 only generators are allowed in a zip generator (`&&`)",
    );
    check(
        "f(L) -> [X || is_list(L) && X <- L].",
        "t.erl:2:15: E010 only generators are allowed in a zip generator (`&&`)",
    );
}

#[test]
fn dangling_zip_operator() {
    check(
        "f(L) -> [X || X <- L && ].",
        "t.erl:2:25: E010 expected an expression but found ']'",
    );
}

#[test]
fn missing_end() {
    check(
        "f(X) -> case X of a -> 1.",
        "t.erl:2:25: E010 expected ';' or 'end' but found '.'",
    );
}

#[test]
fn unbalanced_parens() {
    check(
        "f() -> foo(1, (2).",
        "t.erl:2:18: E010 expected ',' or ')' but found '.'",
    );
}

#[test]
fn missing_arrow() {
    check(
        "f(X) X.",
        "t.erl:2:6: E010 expected 'when' or '->' but found variable X",
    );
}

#[test]
fn bad_clause_separator() {
    check(
        "f(1) -> a, f(2) -> b.",
        "t.erl:2:17: E010 expected ';' or '.' but found '->'",
    );
}

#[test]
fn clause_of_another_function() {
    check(
        "f(1) -> a; g(2) -> b.",
        "t.erl:2:12: E010 function head mismatch: expected a clause of f/1 but found g",
    );
}

#[test]
fn dot_in_the_middle_of_an_expression() {
    check(
        "f() -> X = 1 + . g() -> ok.",
        "t.erl:2:16: E010 expected an expression but found '.'",
    );
}

#[test]
fn stray_operator() {
    check(
        "f() -> 1 + * 2.",
        "t.erl:2:12: E010 expected an expression but found '*'",
    );
}

#[test]
fn bad_record_field() {
    check(
        "f() -> #r{a = 1, b}.",
        "t.erl:2:19: E010 expected '=' but found '}'",
    );
}

#[test]
fn bad_record_access() {
    check(
        "f(R) -> R#r.",
        "t.erl:2:12: E010 expected '{' or '.' after the record name but found '.'",
    );
}

#[test]
fn bad_bit_syntax_type_list() {
    check(
        "f(X) -> <<X:8/>>.",
        "t.erl:2:15: E010 expected a type specifier (such as integer or binary) but found '>>'",
    );
}

#[test]
fn bad_bit_syntax_segment_separator() {
    check(
        "f(X) -> <<X:8 X>>.",
        "t.erl:2:15: E010 expected ',' or '>>' but found variable X",
    );
}

#[test]
fn unknown_bit_type() {
    let (diags, _) = run("-module(m).\n-record(r, {a}).\nf(X) -> <<X:8/foo>>.\n");
    assert_eq!(
        diags,
        vec!["t.erl:3:11: E010 unknown bit syntax type specifier 'foo'"]
    );
}

#[test]
fn unterminated_fun() {
    check(
        "f() -> F = fun(X) -> X.",
        "t.erl:2:23: E010 expected ';' or 'end' but found '.'",
    );
}

#[test]
fn bad_guard() {
    check(
        "f(X) when X > -> ok.",
        "t.erl:2:15: E010 expected an expression but found '->'",
    );
}

#[test]
fn missing_comma_in_list() {
    check(
        "f() -> [1 2].",
        "t.erl:2:11: E010 expected ',', '|' or ']' but found integer 2",
    );
}

#[test]
fn chained_comparison() {
    check(
        "f(A, B, C) -> A < B < C.",
        "t.erl:2:21: E010 expected an operator that can follow a comparison but found '<'",
    );
}

#[test]
fn try_without_catch() {
    check(
        "f() -> try ok end.",
        "t.erl:2:15: E010 expected 'of', 'catch' or 'after' but found 'end'",
    );
}

#[test]
fn bad_attribute() {
    check(
        "-export([f/1)].",
        "t.erl:2:13: E010 expected ',', '|' or ']' but found ')'",
    );
}

#[test]
fn bad_form_start() {
    check(
        "42.",
        "t.erl:2:1: E010 expected a function or an attribute but found integer 42",
    );
}

#[test]
fn eof_inside_an_expression() {
    let (diags, funs) = run("-module(m).\nok() -> ok.\nf() -> {1, 2");
    assert_eq!(
        diags,
        vec!["t.erl:3:13: E010 expected ',' or '}' but found end of file"]
    );
    assert_eq!(funs, vec!["ok/0", "f/0"]);
}

#[test]
fn broken_clause_keeps_the_others() {
    let src = "-module(m).\n-export([f/1]).\nf(1) -> one;\nf(2) -> [two;\nf(3) -> three.\n";
    let p = load_source("t.erl", src);
    assert_eq!(
        rendered(&p),
        vec!["t.erl:4:13: E010 expected ',', '|' or ']' but found ';'"]
    );
    let m = p.module("m").expect("module lowers");
    let f = m.function("f", 1).expect("f/1 lowers");
    assert_eq!(f.clauses.len(), 3);
    assert_eq!(m.exports.len(), 1);
}

#[test]
fn unbound_variable() {
    let (diags, _) = run("-module(m).\nf() -> X.\n");
    assert_eq!(diags, vec!["t.erl:2:8: E031 variable X is unbound"]);
}

#[test]
fn undefined_record() {
    let (diags, _) = run("-module(m).\nf() -> #nope{}.\n");
    assert_eq!(diags, vec!["t.erl:2:8: E030 record nope undefined"]);
}
