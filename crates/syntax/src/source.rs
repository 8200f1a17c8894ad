//! Source files, file ids, byte spans and their line/column view.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

/// Index of a file in a [`SourceDb`]. Assigned deterministically: the files
/// named by the user in sorted path order first, then headers in sorted path
/// order, whatever the number of threads that loaded them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FileId(pub u32);

/// A byte range in one file. Tokens produced by a macro expansion carry the
/// span of the macro call (`?NAME(...)`) in the file that uses it, as `epp`
/// reports lines; tokens of a macro argument keep their own spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(file: FileId, start: u32, end: u32) -> Self {
        Span { file, start, end }
    }

    /// The smallest span covering both (when they are in the same file; else `self`).
    pub fn cover(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// 1-based line and column (column counted in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

/// A `-file("Name", Line).` attribute: positions after it are reported as
/// in file `name`, numbered from `line`, as `epp` and `erl_lint` do. The
/// physical line `P` after the attribute is line `line + (P - at_line)`;
/// columns are unchanged.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineDirective {
    /// Byte offset from which it applies (the end of the attribute's `.`).
    pub from: u32,
    /// Physical 1-based line of the attribute's `file` atom.
    pub at_line: u32,
    /// The line given in the attribute.
    pub line: i64,
    /// The file name given in the attribute.
    pub name: Arc<str>,
}

/// One file's text and its line index.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user gave it (relative stays relative), or as resolved for a header.
    pub path: PathBuf,
    pub text: Arc<str>,
    line_starts: Vec<u32>,
    /// `-file` attributes met while loading, sorted by `from`.
    directives: Vec<LineDirective>,
}

impl SourceFile {
    pub fn new(path: PathBuf, text: Arc<str>) -> Self {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push((i + 1) as u32);
            }
        }
        SourceFile {
            path,
            text,
            line_starts,
            directives: Vec::new(),
        }
    }

    /// Record the `-file` attributes of this file (in any order; duplicates
    /// are dropped). They change what [`SourceFile::location`] reports.
    pub fn set_line_directives(&mut self, mut directives: Vec<LineDirective>) {
        directives.sort();
        directives.dedup();
        self.directives = directives;
    }

    pub fn line_directives(&self) -> &[LineDirective] {
        &self.directives
    }

    /// The `-file` attribute in force at a byte offset, if any.
    pub fn directive_at(&self, offset: u32) -> Option<&LineDirective> {
        let i = self.directives.partition_point(|d| d.from <= offset);
        i.checked_sub(1).map(|i| &self.directives[i])
    }

    /// File name, line and column of a byte offset as users see them: after
    /// a `-file` attribute, in the name and numbering it gives.
    pub fn location(&self, offset: u32) -> Location {
        let lc = self.line_col(offset);
        match self.directive_at(offset) {
            Some(d) => Location {
                file: d.name.to_string(),
                line: renumbered(d, lc.line),
                column: lc.column,
            },
            None => Location {
                file: self.path.display().to_string(),
                line: lc.line,
                column: lc.column,
            },
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Line and column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while end > start && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() as u32 + 1;
        LineCol {
            line: line as u32 + 1,
            column,
        }
    }

    /// Byte offset where a 1-based line starts.
    pub fn line_start(&self, line: u32) -> Option<usize> {
        let i = (line.max(1) - 1) as usize;
        self.line_starts.get(i).map(|&s| s as usize)
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line.max(1) - 1) as usize;
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }
}

/// All files of a load: modules and the headers they included. Each file
/// is shared, so a copy of the database (a suspect's harness files on top
/// of the user's, say) costs a pointer per file, not the texts.
#[derive(Debug, Default, Clone)]
pub struct SourceDb {
    files: Vec<Arc<SourceFile>>,
}

impl SourceDb {
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.add_shared(Arc::new(file))
    }

    /// Adds a file another database holds too.
    pub fn add_shared(&mut self, file: Arc<SourceFile>) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn path(&self, id: FileId) -> &Path {
        &self.get(id).path
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The files, in id order (consumes the database).
    pub fn into_files(self) -> Vec<Arc<SourceFile>> {
        self.files
    }

    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), &**f))
    }

    /// File, line and column of the start of a span, as users see them
    /// (`-file` attributes applied; see [`SourceFile::location`]).
    pub fn location(&self, span: Span) -> Location {
        self.get(span.file).location(span.start)
    }
}

/// The line a `-file` attribute gives to physical line `physical` (clamped to `u32`).
pub fn renumbered(d: &LineDirective, physical: u32) -> u32 {
    let line = d.line + (physical as i64 - d.at_line as i64);
    line.clamp(0, u32::MAX as i64) as u32
}

/// A resolved position, as printed to users (`file:line:col`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let f = SourceFile::new("a.erl".into(), Arc::from("ab\nçd\n\nx"));
        assert_eq!(f.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(f.line_col(3), LineCol { line: 2, column: 1 });
        assert_eq!(f.line_col(5), LineCol { line: 2, column: 2 });
        assert_eq!(f.line_col(8), LineCol { line: 4, column: 1 });
        assert_eq!(f.line_text(2), "çd");
        assert_eq!(f.line_text(3), "");
    }

    #[test]
    fn file_attributes_renumber_what_follows() {
        let text = "-module(m).\n-file(\"gen.erl\", 10).\nf() ->\n  x.\n-file(\"b.erl\", 1).\ng.\n";
        let mut f = SourceFile::new("m.erl".into(), Arc::from(text));
        let at = |needle: &str| text.find(needle).unwrap() as u32;
        let first_end = at("\nf()");
        let second_end = at("\ng.");
        f.set_line_directives(vec![
            LineDirective {
                from: second_end,
                at_line: 5,
                line: 1,
                name: Arc::from("b.erl"),
            },
            LineDirective {
                from: first_end,
                at_line: 2,
                line: 10,
                name: Arc::from("gen.erl"),
            },
        ]);
        let loc = |off: u32| f.location(off).to_string();
        assert_eq!(loc(at("module")), "m.erl:1:2");
        // The attribute itself keeps its position.
        assert_eq!(loc(at("-file(\"gen")), "m.erl:2:1");
        assert_eq!(loc(at("f()")), "gen.erl:11:1");
        assert_eq!(loc(at("x.")), "gen.erl:12:3");
        assert_eq!(loc(at("g.")), "b.erl:2:1");
        // Physical positions are unchanged.
        assert_eq!(f.line_col(at("x.")), LineCol { line: 4, column: 3 });
    }
}
