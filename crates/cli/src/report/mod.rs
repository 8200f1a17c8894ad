//! Rendering results: `human` (snippets), `json`, `sarif`.

pub mod files;
pub mod human;
pub mod json;
pub mod sarif;

/// The output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Human,
    Json,
    Sarif,
}

/// How a hop of a suspect's path reads in a sentence (`calls f/1`).
pub(crate) fn hop_words(kind: racewit_static::HopKind) -> &'static str {
    use racewit_static::HopKind;
    match kind {
        HopKind::Read => "read in",
        HopKind::Call => "calls",
        HopKind::Return => "returns to",
        HopKind::Spawn => "spawns",
        HopKind::Serve => "served by",
        HopKind::Write => "write in",
    }
}
