//! Adding one loaded [`Program`] to another: files are appended, so every
//! span of the added program is shifted to the new file ids.
//!
//! Used to add generated modules (confirmation harnesses) to the user's
//! program after the static pass has run, without reloading anything.

use crate::ir::Program;
use crate::source::{FileId, Span};

impl Program {
    /// Moves `other`'s files, modules and diagnostics into `self`. A module
    /// whose name is already loaded is not replaced: its name is returned in
    /// the error list and it is dropped.
    pub fn absorb(&mut self, other: Program) -> Vec<crate::ir::Name> {
        let offset = self.sources.len() as u32;
        let shift = |s: &mut Span| s.file = FileId(s.file.0 + offset);
        for file in other.sources.into_files() {
            self.sources.add_shared(file);
        }
        let mut clashes = Vec::new();
        for (name, mut module) in other.modules {
            if self.modules.contains_key(&name) {
                clashes.push(name);
                continue;
            }
            module.file = FileId(module.file.0 + offset);
            crate::ir::Module::remap_spans(&mut module, &shift);
            self.modules.insert(name, module);
        }
        for mut d in other.diagnostics {
            shift(&mut d.span);
            self.diagnostics.push(d);
        }
        clashes
    }
}
