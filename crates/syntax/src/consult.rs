//! Reading files of Erlang terms as `file:consult/1` does (`rebar.config`):
//! each term ends with a `.`; there is no preprocessing. A term that does
//! not parse, or that is not a constant, is a diagnostic and is left out;
//! the terms around it are still read.

use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::ir::Const;
use crate::source::{FileId, Span};
use crate::token::{Token, TokenKind};

/// The terms of `text` (the file `file`), each with its span.
pub fn consult(file: FileId, text: &str) -> (Vec<(Const, Span)>, Vec<Diagnostic>) {
    let (mut tokens, mut diags) = crate::lex::tokenize(file, text);
    let end = text.len() as u32;
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(file, end, end),
    });
    let (exprs, parse_diags) = crate::parse::parse_terms(&tokens);
    diags.extend(parse_diags);
    let mut terms = Vec::with_capacity(exprs.len());
    for e in &exprs {
        let c = crate::lower::const_of(e);
        if contains_non_constant(&c) {
            diags.push(Diagnostic::error(
                DiagnosticCode::E010Syntax,
                e.span,
                "expected a term (a constant), not an expression",
            ));
            continue;
        }
        terms.push((c, e.span));
    }
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    (terms, diags)
}

fn contains_non_constant(c: &Const) -> bool {
    match c {
        Const::NotConstant => true,
        Const::Cons(h, t) => contains_non_constant(h) || contains_non_constant(t),
        Const::Tuple(v) => v.iter().any(contains_non_constant),
        Const::Map(kv) => kv
            .iter()
            .any(|(k, v)| contains_non_constant(k) || contains_non_constant(v)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_and_errors() {
        let text = "{erl_opts, [debug_info, {d, 'X', -1}]}.\n{deps, [}.\n{a, F}.\n\"s\".\n{last";
        let (terms, diags) = consult(FileId(0), text);
        let shown: Vec<String> = terms.iter().map(|(c, _)| format!("{c:?}")).collect();
        assert_eq!(
            shown,
            [
                "Tuple([Atom(\"erl_opts\"), Cons(Atom(\"debug_info\"), Cons(Tuple([Atom(\"d\"), Atom(\"X\"), Int(-1)]), Nil))])",
                "String(\"s\")",
            ]
        );
        let src = crate::source::SourceFile::new("rebar.config".into(), std::sync::Arc::from(text));
        let shown: Vec<String> = diags
            .iter()
            .map(|d| format!("{} {}", src.location(d.span.start), d.message))
            .collect();
        assert_eq!(
            shown,
            [
                "rebar.config:2:9 expected an expression but found '}'",
                "rebar.config:3:1 expected a term (a constant), not an expression",
                "rebar.config:5:6 expected ',' or '}' but found end of file",
            ]
        );
    }
}
