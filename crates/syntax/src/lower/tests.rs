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

#[test]
fn scratch() {
    check(
        "-module(m).\n-export([f/1]).\nf(X) -> Y = X + 1, {Y, self()}.\n",
        "",
    );
}
