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

/// `text` with every control character (C0, DEL, C1) written as Erlang
/// writes it in a quoted atom or string (`\n`, `\e`, `\x{9b}`), so a file,
/// module or atom name cannot move the cursor, change colours or start a
/// new line in a terminal. Text with none is returned as it is.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(text, false)
}

/// [`visible`] for text of several lines racewit wrote (a term printed
/// over lines): line breaks stay.
pub fn visible_lines(text: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(text, true)
}

fn escape_controls(text: &str, keep_lines: bool) -> std::borrow::Cow<'_, str> {
    let escaped = |c: char| c.is_control() && !(keep_lines && c == '\n');
    if !text.chars().any(escaped) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' if keep_lines => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{1b}' => out.push_str("\\e"),
            c if c.is_control() => out.push_str(&format!("\\x{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Source text as a snippet shows it: each control character other than a
/// line break or a tab replaced by `?` bytes (as many as it takes), so
/// byte offsets and lines stay those of the file and nothing reaches the
/// terminal as a control sequence.
pub fn visible_source(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| c.is_control() && c != '\n' && c != '\t' && c != '\r';
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if hidden(c) {
            for _ in 0..c.len_utf8() {
                out.push('?');
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::{visible, visible_lines, visible_source};

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(visible("name_server"), "name_server");
        assert_eq!(
            visible("a\nb\u{1b}[31m\u{7}\u{9b}é"),
            "a\\nb\\e[31m\\x{7}\\x{9b}é"
        );
        assert_eq!(visible_lines("a\n b\u{1b}"), "a\n b\\e");
        let src = "x = '\u{1b}[2J',\n\u{9b}\tok";
        let shown = visible_source(src);
        assert_eq!(shown, "x = '?[2J',\n??\tok");
        assert_eq!(shown.len(), src.len());
    }
}
