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
