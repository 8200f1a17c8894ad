//! OTP 28 zip generators (EEP 73) in the VM. OTP 25 is installed here, so
//! this cannot be a differential test: the expected values are those of
//! EEP 73 ("Error Behaviors": `{bad_generators,{[],[4]}}` for lists of
//! different lengths, `{bad_generators,{[bad,{ok,1}],[2,3]}}` for a failed
//! strict generator) and of OTP 28's own zip comprehension test suite
//! (`lib/debugger/test/zlc_SUITE.erl`: lockstep order, skipping on a relaxed
//! mismatch, shared pattern variables, exhausted-generator errors).

use std::sync::Arc;

use racewit_vm::run::{RunConfig, run_entry};

/// Run `main/0` of a module whose body is `body`, returning its printed value.
fn run(body: &str) -> String {
    let src = format!("-module(t).\n-export([main/0]).\n{body}\n");
    let program = racewit_syntax::load_source("t.erl", &src);
    let errors: Vec<_> = program
        .diagnostics
        .iter()
        .filter(|d| d.severity == racewit_syntax::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    run_entry(Arc::new(program), "t", "main", &RunConfig::default()).stdout
}

/// `expr` evaluated, or `{'EXIT', Reason}` without the stack trace.
fn check(expr: &str, expect: &str) {
    let body = format!(
        "main() -> try {expr} catch error:R -> {{'EXIT', R}} end.\n\
         f(X) -> X."
    );
    assert_eq!(run(&body).trim_end(), expect, "{expr}");
}

#[test]
fn generators_advance_in_lockstep() {
    check(
        "[{X, Y} || X <- [a, b, c] && Y <- [1, 2, 3]]",
        "[{a,1},{b,2},{c,3}]",
    );
    check(
        "[X + Y + Z || X <- [1, 2, 3] && Y <- [2, 2, 2] && Z <- [3, 3, 3]]",
        "[6,7,8]",
    );
    // With a binary generator, and a filter after the zip.
    check(
        "[{X, Y} || X <- [a, b, c] && <<Y>> <= <<2, 4, 6>>, Y =/= 2]",
        "[{b,4},{c,6}]",
    );
    check(
        "<< <<(X + Y)/integer>> || X <- [1, 2, 3] && <<Y>> <= <<1, 1, 1>>, X < 3 >>",
        "<<2,3>>",
    );
    check(
        "#{X => Y || X <- [a, b, c] && Y <- [1, 2, 3], Y rem 2 == 1}",
        "#{a => 1,c => 3}",
    );
    // A map generator zipped with a list (small maps iterate in key order).
    check(
        "[{K, V, Y} || K := V <- #{a => 1, b => 2} && Y <- [x, y]]",
        "[{a,1,x},{b,2,y}]",
    );
    // A zip nested inside an ordinary generator, and one before it.
    check(
        "[{X, W + Y} || W <- [1, 2], X <- [a, b] && <<Y>> <= <<2, 4>>]",
        "[{a,3},{b,5},{a,4},{b,6}]",
    );
    check(
        "[{X, W + Y} || X <- [a, b] && <<Y>> <= <<2, 4>>, W <- [1, 2]]",
        "[{a,3},{a,4},{b,5},{b,6}]",
    );
    check("[{X, Y} || X <- [] && <<Y>> <= <<>>]", "[]");
    // A segment size bound by an earlier segment of the same pattern.
    check(
        "[{T, X} || <<N:8, X:N/binary>> <= <<1, \"a\", 2, \"bc\">> && T <- [p, q]]",
        "[{p,<<\"a\">>},{q,<<\"bc\">>}]",
    );
}

#[test]
fn a_relaxed_mismatch_skips_one_element_of_every_generator() {
    check(
        "[{A, B} || {ok, A} <- [{ok, 1}, bad, {ok, 3}] && {ok, B} <- [{ok, 10}, {ok, 20}, {ok, 30}]]",
        "[{1,10},{3,30}]",
    );
    // A variable shared by two patterns must match in both.
    check(
        "[{A, B} || {S, A} <- [{a, 1}, {b, 9}, {x, 10}] && {S, B} <- [{a, 7}, {w, 8}, {x, 20}]]",
        "[{1,7},{10,20}]",
    );
    // A binary generator whose pattern fails skips what it would have taken.
    check(
        "[{X, Y} || X <- [1, 2, 3] && <<1:4, Y:4>> <= <<16#12, 16#34, 16#15>>]",
        "[{1,2},{3,5}]",
    );
}

#[test]
fn generators_of_different_lengths_raise_bad_generators() {
    check(
        "[{X, Y} || X <- [1, 2, 3] && Y <- [1, 2, 3, 4]]",
        "{'EXIT',{bad_generators,{[],[4]}}}",
    );
    check(
        "[{X, Y} || X <- [1, 2, 3, 4] && Y <- [1, 2], X < 3]",
        "{'EXIT',{bad_generators,{[3,4],[]}}}",
    );
    check(
        "[{X, Y} || X <- f([1, 2, 3]) && Y <- f([])]",
        "{'EXIT',{bad_generators,{[1,2,3],[]}}}",
    );
    check(
        "<< <<X:16>> || <<X:16>> <= <<1:8, 2:8>> && <<X:8>> <= <<3:8, 4:8>> >>",
        "{'EXIT',{bad_generators,{<<>>,<<4>>}}}",
    );
    check(
        "#{X => Y || X <- [a, b, c, d] && Y <- [1, 2, 3], Y > 1}",
        "{'EXIT',{bad_generators,{[d],[]}}}",
    );
    // Not a list, not a bitstring, an improper tail.
    check(
        "[{X, Y} || X <- f(x) && Y <- [1, 2]]",
        "{'EXIT',{bad_generators,{x,[1,2]}}}",
    );
    check(
        "<< <<X:16>> || <<X:16>> <= <<1:8, 2:8>> && <<X:8>> <= f(a) >>",
        "{'EXIT',{bad_generators,{<<1,2>>,a}}}",
    );
    check(
        "[{X, Y} || X <- f([a, b, c | d]) && Y <- [a, b, c, d]]",
        "{'EXIT',{bad_generators,{d,[d]}}}",
    );
    // A map generator on a non-map fails before the first round.
    check(
        "[X || X := X <- f(a) && _Y <- [1]]",
        "{'EXIT',{bad_generator,a}}",
    );
    // What a map generator has left is shown as a map.
    check(
        "[{K, Y} || K := _ <- #{a => 1, b => 2} && Y <- [x]]",
        "{'EXIT',{bad_generators,{#{b => 2},[]}}}",
    );
}

#[test]
fn a_strict_mismatch_raises_bad_generators() {
    check(
        "[A + B || {ok, A} <:- [bad, {ok, 1}] && B <- [2, 3]]",
        "{'EXIT',{bad_generators,{[bad,{ok,1}],[2,3]}}}",
    );
    check(
        "[X + Y || X <:- [1, 2, 3] && Y <:- [1, 1, 1], X > 1]",
        "[3,4]",
    );
    check(
        "[{X, Y} || {a, X} <:- [{a, 1}, {bad, 2}] && {b, Y} <- [{b, 1}, {bad, 2}]]",
        "{'EXIT',{bad_generators,{[{bad,2}],[{bad,2}]}}}",
    );
    // The strict generator is checked even when a relaxed one already failed.
    check(
        "[{X, Y} || {b, Y} <- [{b, 1}, {bad, 2}] && {a, X} <:- [{a, 1}, {bad, 3}]]",
        "{'EXIT',{bad_generators,{[{bad,2}],[{bad,3}]}}}",
    );
    check(
        "[{X, Y} || {a, X} <:- [{a, 1}, {a, 3}] && {b, Y} <- [{b, 1}, {bad, 2}]]",
        "[{1,1}]",
    );
}

/// Plain (not zipped) generators: EEP 70's strict generators raise
/// `{badmatch, E}` (OTP 28 `erl_eval`: the element, the rest of the
/// bitstring); a relaxed bitstring generator skips a segment its pattern
/// rejects, as much as the pattern would take (OTP 25 gives the same).
#[test]
fn single_generators_strict_and_relaxed() {
    check("[X || {ok, X} <- [{ok, 1}, bad, {ok, 2}]]", "[1,2]");
    check(
        "[X || {ok, X} <:- [{ok, 1}, bad, {ok, 2}]]",
        "{'EXIT',{badmatch,bad}}",
    );
    check("[V || _ := {v, V} <:- #{a => {v, 1}}]", "[1]");
    check(
        "[V || _ := {v, V} <:- #{a => {v, 1}, b => x}]",
        "{'EXIT',{badmatch,{b,x}}}",
    );
    check("[X || <<1:4, X:4>> <= <<16#12, 16#34, 16#15>>]", "[2,5]");
    check("[X || <<X:16>> <= <<1, 2, 3>>]", "[258]");
    check("[X || <<X:8>> <:= <<1, 2>>]", "[1,2]");
    check(
        "[X || <<1:4, X:4>> <:= <<16#12, 16#34>>]",
        "{'EXIT',{badmatch,<<\"4\">>}}",
    );
    check(
        "[X || <<X:16>> <:= <<1, 2, 3>>]",
        "{'EXIT',{badmatch,<<3>>}}",
    );
}
