//! Rendering results: `human` (snippets), `concise` (a line per warning),
//! `github` (workflow annotations), `json`, `sarif`; `color` decides
//! whether the human ones are coloured.

pub mod color;
pub mod concise;
pub mod files;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

/// The output formats: `human` (each warning with its snippets, verdict
/// and witness), `concise` (a line per warning, `path:line:col: R001
/// [VERDICT] message`), `github` (GitHub Actions workflow commands), `json`
/// (docs/report.md), `sarif` (SARIF 2.1.0).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Human,
    Concise,
    Github,
    Json,
    Sarif,
}

impl Format {
    /// Whether the output is read by people (progress and colour may show).
    pub fn for_people(self) -> bool {
        matches!(self, Format::Human | Format::Concise)
    }
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
