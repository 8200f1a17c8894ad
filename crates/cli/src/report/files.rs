//! The loaded sources as codespan-reporting sees them.

use std::ops::Range;

use codespan_reporting::files::{Error, Files};
use racewit_syntax::{FileId, SourceDb};

pub struct SourceFiles<'a>(pub &'a SourceDb);

impl<'a> Files<'a> for SourceFiles<'a> {
    type FileId = FileId;
    type Name = String;
    type Source = std::borrow::Cow<'a, str>;

    /// The path, control characters escaped (see [`super::visible`]).
    fn name(&'a self, id: FileId) -> Result<String, Error> {
        self.check(id)?;
        Ok(super::visible(&self.0.path(id).display().to_string()).into_owned())
    }

    /// The text, control characters hidden at the same byte offsets (see
    /// [`super::visible_source`]).
    fn source(&'a self, id: FileId) -> Result<std::borrow::Cow<'a, str>, Error> {
        self.check(id)?;
        Ok(super::visible_source(&self.0.get(id).text))
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, Error> {
        self.check(id)?;
        let lc = self.0.get(id).line_col(byte_index as u32);
        Ok(lc.line as usize - 1)
    }

    /// The line number shown: renumbered after a `-file` attribute, as
    /// every other position racewit prints.
    fn line_number(&'a self, id: FileId, line_index: usize) -> Result<usize, Error> {
        self.check(id)?;
        let file = self.0.get(id);
        let physical = line_index as u32 + 1;
        let shown = file
            .line_start(physical)
            .and_then(|start| file.directive_at(start as u32))
            .map(|d| racewit_syntax::source::renumbered(d, physical))
            .unwrap_or(physical);
        Ok(shown as usize)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, Error> {
        self.check(id)?;
        let file = self.0.get(id);
        let start = file
            .line_start(line_index as u32 + 1)
            .ok_or(Error::LineTooLarge {
                given: line_index,
                max: file.line_count(),
            })?;
        let end = file
            .line_start(line_index as u32 + 2)
            .unwrap_or(file.text.len());
        Ok(start..end)
    }
}

impl SourceFiles<'_> {
    fn check(&self, id: FileId) -> Result<(), Error> {
        if (id.0 as usize) < self.0.len() {
            Ok(())
        } else {
            Err(Error::FileMissing)
        }
    }
}
