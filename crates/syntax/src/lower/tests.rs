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
    for (open, close) in [("[", "]"), ("(", ")"), ("{", "}"), ("<<(", ")>>"), ("- ", ""), ("not ", ""), ("begin ", " end")] {
        let src = format!("-module(m).\nf() -> {}1{}.\ng() -> ok.\n", open.repeat(20000), close.repeat(20000));
        let d = diags(&src);
        assert!(d.iter().any(|d| d.contains("nested too deeply")), "{open}: {d:?}");
    }
    let chain = format!("-module(m).\nf() -> 1{}.\n", " + 1".repeat(50000));
    assert!(diags(&chain).iter().any(|d| d.contains("too long")));
    let right = format!("-module(m).\nf() -> 1{}.\n", " ++ 1".repeat(50000));
    assert!(diags(&right).iter().any(|d| d.contains("nested too deeply")));
}

#[test]
fn scratch() {
    check(
        "-module(m).\n-export([f/1]).\nf(X) -> Y = X + 1, {Y, self()}.\n",
        "",
    );
}

#[test]
fn show_file() {
    if let Ok(p) = std::env::var("RACEWIT_SHOW") {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let (m, d) = lower_text_for_tests(&text);
        eprintln!("{}", m.map(|m| pretty_module(&m)).unwrap_or_default());
        eprintln!("{d:#?}");
    }
}

#[test]
fn show_tokens() {
    if let Ok(p) = std::env::var("RACEWIT_TOKENS") {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let (toks, _) = crate::lex::tokenize(crate::source::FileId(0), &text);
        for t in toks.iter().take(30) {
            eprintln!("{:?}", t.kind);
        }
        let mut toks = toks;
        toks.push(crate::token::Token { kind: crate::token::TokenKind::Eof, span: crate::source::Span::new(crate::source::FileId(0), 0, 0) });
        let (f, _) = crate::parse::parse_file(&toks);
        for form in f.forms.iter().take(3) {
            eprintln!("{form:?}");
        }
    }
}
