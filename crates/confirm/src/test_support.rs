//! Helpers for the crate's unit tests.

use racewit_syntax::ir::Program;

/// A program of modules given as `(name, text)`, each loaded from
/// `name.erl`.
pub(crate) fn program(src: &[(&str, &str)]) -> Program {
    let files: Vec<(String, String)> = src
        .iter()
        .map(|(n, t)| (format!("{n}.erl"), t.to_string()))
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    racewit_syntax::load::load_sources(&refs, &racewit_syntax::LoadOptions::default())
}
