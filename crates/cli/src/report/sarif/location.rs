//! Locations as GitHub code scanning reads them: an artifact URI relative to
//! `%SRCROOT%` (the directory racewit ran in, the repository root in CI), and
//! a region whose columns count UTF-16 code units (`columnKind`), computed
//! from the loaded source text.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};

use racewit_syntax::source::SourceFile;
use racewit_syntax::{FileId, SourceDb, Span};

/// The URI base id of every relative artifact URI.
pub const SRCROOT: &str = "%SRCROOT%";

/// Resolves racewit's positions (spans, or file/line/character column) to
/// SARIF `location` objects.
pub struct Locator<'a> {
    sources: &'a SourceDb,
    by_path: BTreeMap<String, FileId>,
    /// The directory relative paths are relative to; absolute paths under it
    /// are made relative too.
    root: Option<PathBuf>,
}

impl<'a> Locator<'a> {
    pub fn new(sources: &'a SourceDb, root: Option<PathBuf>) -> Self {
        let by_path = sources
            .iter()
            .map(|(id, f)| (f.path.display().to_string(), id))
            .collect();
        Locator {
            sources,
            by_path,
            root,
        }
    }

    fn file(&self, id: FileId) -> Option<&'a SourceFile> {
        ((id.0 as usize) < self.sources.len()).then(|| self.sources.get(id))
    }

    /// Whether a path is one of racewit's generated harness modules, which
    /// exist only in memory and have no place in a report.
    pub fn is_generated(path: &str) -> bool {
        path.starts_with(racewit_confirm::confirmation::HARNESS_DIR)
    }

    /// The location of a span: start and end, UTF-16 columns.
    pub fn span(&self, span: Span, message: Option<&str>) -> Option<Value> {
        let file = self.file(span.file)?;
        let path = file.path.display().to_string();
        if Self::is_generated(&path) {
            return None;
        }
        let (start_line, start_column) = utf16_line_col(file, span.start);
        let (end_line, end_column) = utf16_line_col(file, span.end.max(span.start));
        let region = json!({
            "startLine": start_line,
            "startColumn": start_column,
            "endLine": end_line,
            "endColumn": end_column,
        });
        Some(self.location(&path, region, message))
    }

    /// The location of a 1-based line and character column in a file named
    /// as racewit prints it; the region runs to the end of that line.
    pub fn point(
        &self,
        path: &str,
        line: u32,
        column: u32,
        message: Option<&str>,
    ) -> Option<Value> {
        if Self::is_generated(path) || line == 0 {
            return None;
        }
        let column = column.max(1);
        let region = match self.by_path.get(path).and_then(|&id| self.file(id)) {
            Some(file) => {
                let text = file.line_text(line);
                let start: usize = text
                    .chars()
                    .take(column as usize - 1)
                    .map(char::len_utf16)
                    .sum();
                let end: usize = text.chars().map(char::len_utf16).sum();
                json!({
                    "startLine": line,
                    "startColumn": start + 1,
                    "endLine": line,
                    "endColumn": end.max(start) + 1,
                })
            }
            None => json!({ "startLine": line, "startColumn": column }),
        };
        Some(self.location(path, region, message))
    }

    fn location(&self, path: &str, region: Value, message: Option<&str>) -> Value {
        let mut loc = json!({
            "physicalLocation": {
                "artifactLocation": artifact_location(path, self.root.as_deref()),
                "region": region
            }
        });
        if let Some(m) = message {
            loc["message"] = json!({ "text": m });
        }
        loc
    }
}

/// 1-based line and 1-based column in UTF-16 code units of a byte offset.
fn utf16_line_col(file: &SourceFile, offset: u32) -> (u32, u32) {
    let lc = file.line_col(offset);
    let text = file.line_text(lc.line);
    let units: usize = text
        .chars()
        .take(lc.column as usize - 1)
        .map(char::len_utf16)
        .sum();
    (lc.line, units as u32 + 1)
}

/// `{ "uri": "src/a.erl", "uriBaseId": "%SRCROOT%" }` for a file under the
/// root, else `{ "uri": "file:///abs/path.erl" }`.
pub fn artifact_location(path: &str, root: Option<&Path>) -> Value {
    let slashed = path.replace('\\', "/");
    let p = Path::new(&slashed);
    let relative = if p.is_absolute() {
        root.and_then(|r| p.strip_prefix(r).ok())
            .and_then(normal_relative)
    } else {
        normal_relative(p)
    };
    match relative {
        Some(segments) => json!({
            "uri": encode_segments(&segments),
            "uriBaseId": SRCROOT,
        }),
        None => {
            let absolute = match (p.is_absolute(), root) {
                (true, _) => normal_absolute(p),
                (false, Some(r)) => normal_absolute(&r.join(p)),
                (false, None) => None,
            };
            match absolute {
                Some(segments) => {
                    json!({ "uri": format!("file:///{}", encode_segments(&segments)) })
                }
                // A relative path climbing out of an unknown directory: keep
                // it as a relative reference, the best there is.
                None => {
                    let segments: Vec<String> = slashed
                        .split('/')
                        .filter(|s| !s.is_empty() && *s != ".")
                        .map(String::from)
                        .collect();
                    json!({ "uri": encode_segments(&segments) })
                }
            }
        }
    }
}

/// The segments of a relative path with `.` dropped and `..` applied;
/// `None` when it climbs above its start or is absolute.
fn normal_relative(p: &Path) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop()?;
            }
            Component::Normal(s) => out.push(s.to_string_lossy().into_owned()),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

fn normal_absolute(p: &Path) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::RootDir | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(s) => out.push(s.to_string_lossy().into_owned()),
            Component::Prefix(_) => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Joins path segments with `/`, percent-encoding every byte that is not an
/// RFC 3986 unreserved character (so `:` in a first segment cannot read as a
/// scheme, and spaces or non-ASCII names stay valid URI references).
fn encode_segments(segments: &[String]) -> String {
    let mut out = String::new();
    for (i, s) in segments.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        for b in s.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn uri(path: &str, root: Option<&str>) -> String {
        let v = artifact_location(path, root.map(Path::new));
        match v["uriBaseId"].as_str() {
            Some(base) => format!("{base} {}", v["uri"].as_str().unwrap_or_default()),
            None => v["uri"].as_str().unwrap_or_default().to_string(),
        }
    }

    #[test]
    fn relative_paths_hang_off_srcroot() {
        assert_eq!(uri("src/a.erl", None), "%SRCROOT% src/a.erl");
        assert_eq!(uri("./src/./a.erl", None), "%SRCROOT% src/a.erl");
        assert_eq!(uri("src/x/../a.erl", None), "%SRCROOT% src/a.erl");
        assert_eq!(uri("src\\win\\a.erl", None), "%SRCROOT% src/win/a.erl");
        assert_eq!(uri("/repo/src/a.erl", Some("/repo")), "%SRCROOT% src/a.erl");
    }

    #[test]
    fn paths_outside_the_root_are_file_uris() {
        assert_eq!(
            uri("/usr/lib/erlang/lib/x/src/a.erl", Some("/repo")),
            "file:///usr/lib/erlang/lib/x/src/a.erl"
        );
        assert_eq!(
            uri("../other/a.erl", Some("/repo/sub")),
            "file:///repo/other/a.erl"
        );
        assert_eq!(uri("/abs/a.erl", None), "file:///abs/a.erl");
    }

    #[test]
    fn odd_names_are_percent_encoded() {
        assert_eq!(uri("my dir/ä.erl", None), "%SRCROOT% my%20dir/%C3%A4.erl");
        assert_eq!(uri("c:d/a.erl", None), "%SRCROOT% c%3Ad/a.erl");
        assert_eq!(uri("a#b?.erl", None), "%SRCROOT% a%23b%3F.erl");
    }

    #[test]
    fn columns_count_utf16_code_units() {
        let mut db = SourceDb::default();
        let text = "f() -> \"é🎉\", whereis(x).\n";
        let id = db.add(SourceFile::new(PathBuf::from("a.erl"), Arc::from(text)));
        let loc = Locator::new(&db, None);
        let start = text.find("whereis").unwrap_or_default() as u32;
        let span = Span::new(id, start, start + "whereis(x)".len() as u32);
        let v = loc.span(span, None).unwrap_or_default();
        let region = &v["physicalLocation"]["region"];
        // `f() -> "` is 8 units, é is 1, 🎉 is 2, `", ` is 3: whereis starts at unit 14.
        assert_eq!(region["startColumn"], 15);
        assert_eq!(region["endColumn"], 25);
        assert_eq!(region["startLine"], 1);
        assert_eq!(region["endLine"], 1);
        // The same call given as a character column (13 characters before it).
        let p = loc.point("a.erl", 1, 14, Some("m")).unwrap_or_default();
        assert_eq!(p["physicalLocation"]["region"]["startColumn"], 15);
        assert_eq!(p["physicalLocation"]["region"]["endColumn"], 26);
        assert_eq!(p["message"]["text"], "m");
    }

    #[test]
    fn generated_harness_files_have_no_location() {
        let db = SourceDb::default();
        let loc = Locator::new(&db, None);
        let harness = format!(
            "{}/racewit_harness_2.erl",
            racewit_confirm::confirmation::HARNESS_DIR
        );
        assert!(loc.point(&harness, 3, 1, None).is_none());
        assert!(loc.point("a.erl", 0, 1, None).is_none());
    }
}
