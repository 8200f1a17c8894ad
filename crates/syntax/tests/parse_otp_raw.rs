//! Parse and lower every OTP source file that needs no preprocessing (no
//! macro use, no include, no conditional): none may give a syntax diagnostic.
//! Skips with a notice when the OTP sources are not installed.

use std::path::PathBuf;

use racewit_syntax::diagnostic::DiagnosticCode;
use racewit_syntax::source::{FileId, SourceFile, Span};
use racewit_syntax::token::{Punct, Token, TokenKind};
use racewit_syntax::{lex, lower, parse};

fn otp_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(libs) = std::fs::read_dir("/usr/lib/erlang/lib") else {
        return files;
    };
    for lib in libs.flatten() {
        let Ok(src) = std::fs::read_dir(lib.path().join("src")) else {
            continue;
        };
        for f in src.flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "erl") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Does the token stream need the preprocessor?
fn needs_pp(tokens: &[Token]) -> bool {
    const DIRECTIVES: &[&str] = &[
        "include",
        "include_lib",
        "define",
        "undef",
        "ifdef",
        "ifndef",
        "if",
        "elif",
        "else",
        "endif",
    ];
    tokens.iter().enumerate().any(|(i, t)| match &t.kind {
        TokenKind::Punct(Punct::Question | Punct::DoubleQuestion) => true,
        TokenKind::Punct(Punct::Minus) => {
            let at_form_start =
                i == 0 || matches!(tokens[i - 1].kind, TokenKind::Punct(Punct::Dot));
            let directive = match tokens.get(i + 1).map(|t| &t.kind) {
                Some(TokenKind::Atom(a)) => DIRECTIVES.contains(&a.as_str()),
                Some(TokenKind::Keyword(_)) => true,
                _ => false,
            };
            at_form_start && directive
        }
        _ => false,
    })
}

#[test]
fn otp_files_without_macros_parse_cleanly() {
    let files = otp_sources();
    if files.is_empty() {
        eprintln!("notice: no OTP sources under /usr/lib/erlang/lib, test skipped");
        return;
    }
    let (mut checked, mut failures) = (0, Vec::new());
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let (mut tokens, _) = lex::tokenize(FileId(0), &text);
        if needs_pp(&tokens) {
            continue;
        }
        let end = text.len() as u32;
        tokens.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(FileId(0), end, end),
        });
        checked += 1;
        let (ast, mut diags) = parse::parse_file(&tokens);
        let (_m, ldiags) = lower::lower_file(&ast, FileId(0));
        diags.extend(ldiags.into_iter().filter(|d| {
            d.code == DiagnosticCode::E010Syntax || d.code == DiagnosticCode::E031UnboundVar
        }));
        if let Some(d) = diags.first() {
            let src = SourceFile::new(path.clone(), text.as_str().into());
            let lc = src.line_col(d.span.start);
            failures.push(format!(
                "{}:{}:{}: {} {} ({} diagnostics)",
                path.display(),
                lc.line,
                lc.column,
                d.code.as_str(),
                d.message,
                diags.len()
            ));
        }
    }
    eprintln!(
        "checked {checked} OTP files without macros, {} with diagnostics",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
