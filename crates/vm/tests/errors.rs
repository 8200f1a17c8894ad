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

#[test]
fn every_error_case_matches_the_beam() {
    let src = include_str!("erl/errs.erl");
    let expected = include_str!("erl/errs.expected");
    let program = racewit_syntax::load_source("errs.erl", src);
    // As erl runs it: OTP's library modules from the installed OTP.
    let config = RunConfig {
        libraries: racewit_otp::installed(),
        ..RunConfig::default()
    };
    let out = run_entry(Arc::new(program), "errs", "main", &config);
    let got = mask_pids(&out.stdout);
    let want = mask_pids(expected);
    let mut mismatches = Vec::new();
    for (g, w) in got.lines().zip(want.lines()) {
        if g != w {
            mismatches.push(format!("expected {w}\n     got {g}"));
        }
    }
    assert_eq!(got.lines().count(), want.lines().count(), "{got}");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
