//! One case per documented error: `tests/erl/errs.erl` runs each case and
//! prints `{case, {Class, Reason}}`; `tests/erl/errs.expected` is what the
//! real erl printed (pids masked on both sides).

use std::sync::Arc;

use racewit_vm::run::{RunConfig, run_entry};

fn mask_pids(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("<0.") {
        out.push_str(&rest[..i]);
        match rest[i..].find('>') {
            Some(j) => {
                out.push_str("<PID>");
                rest = &rest[i + j + 1..];
            }
            None => {
                rest = &rest[i..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The cases that call OTP library code racewit loads from OTP's sources
/// (`gen_server:call/2,3`; `undef` needs OTP's complete `lists`: the
/// prelude's stand-in parks on what it lacks instead).
const NEEDS_OTP: &[&str] = &["noproc_call", "noproc_call_name", "timeout_call", "undef"];

/// `src` and `expected` without the cases named in `drop` (one case per
/// line in both).
fn without_cases(src: &str, expected: &str, drop: &[&str]) -> (String, String) {
    let keep_src = |l: &&str| {
        let t = l.trim_start();
        !drop.iter().any(|c| t.starts_with(&format!("{{{c}, ")))
    };
    let keep_expected = |l: &&str| !drop.iter().any(|c| l.starts_with(&format!("{{{c},")));
    let mut s: Vec<&str> = src.lines().filter(keep_src).collect();
    let mut e: Vec<&str> = expected.lines().filter(keep_expected).collect();
    s.push("");
    e.push("");
    (s.join("\n"), e.join("\n"))
}

#[test]
fn without_cases_drops_whole_cases_only() {
    let (s, e) = without_cases(
        "  {exit, c(a)},\n  {exit_kill, b},\n  {undef, c}\n",
        "{exit,x}.\n{exit_kill,y}.\n{undef,z}.\n",
        &["exit"],
    );
    assert_eq!(s, "  {exit_kill, b},\n  {undef, c}\n");
    assert_eq!(e, "{exit_kill,y}.\n{undef,z}.\n");
}

#[test]
fn every_error_case_matches_the_beam() {
    let mut src = include_str!("erl/errs.erl").to_string();
    let mut expected = include_str!("erl/errs.expected").to_string();
    if racewit_otp::discover().is_none() {
        eprintln!(
            "notice: Erlang/OTP is not installed: the cases {NEEDS_OTP:?} (OTP's gen_server and \
             lists) are skipped, the others run on racewit's stand-ins"
        );
        (src, expected) = without_cases(&src, &expected, NEEDS_OTP);
    }
    let program = racewit_syntax::load_source("errs.erl", &src);
    // As erl runs it: OTP's library modules from the installed OTP.
    let config = RunConfig {
        libraries: racewit_otp::installed(),
        ..RunConfig::default()
    };
    let out = run_entry(Arc::new(program), "errs", "main", &config);
    let got = mask_pids(&out.stdout);
    let want = mask_pids(&expected);
    let mut mismatches = Vec::new();
    for (g, w) in got.lines().zip(want.lines()) {
        if g != w {
            mismatches.push(format!("expected {w}\n     got {g}"));
        }
    }
    assert_eq!(got.lines().count(), want.lines().count(), "{got}");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
