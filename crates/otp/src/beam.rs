//! Export tables of the installed OTP's `.beam` files, read when the VM
//! first asks about a module (see [`racewit_vm::library::ExportTables`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use racewit_vm::library::{ExportTables, Exports};

/// The export tables of one installation, each read once, on first use.
#[derive(Debug)]
pub struct BeamExports {
    /// Every `ebin` directory of the installation (the emulator's first).
    ebins: Vec<PathBuf>,
    cache: Mutex<BTreeMap<String, Option<Exports>>>,
}

impl BeamExports {
    pub fn new(ebins: Vec<PathBuf>) -> BeamExports {
        BeamExports {
            ebins,
            cache: Mutex::new(BTreeMap::new()),
        }
    }
}

impl ExportTables for BeamExports {
    fn exports(&self, module: &str) -> Option<Exports> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(hit) = cache.get(module) {
            return hit.clone();
        }
        let file = format!("{module}.beam");
        let found = self
            .ebins
            .iter()
            .map(|d| d.join(&file))
            .find(|p| p.is_file())
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|bytes| beam_exports(&bytes))
            .map(Arc::new);
        cache.insert(module.to_string(), found.clone());
        found
    }
}

/// The export table of a `.beam` file: an IFF container (`FOR1`, size,
/// `BEAM`, then chunks, each an id, a size and data padded to 4 bytes) in
/// which `AtU8` (or the older `Atom`) is the atom table and `ExpT` the
/// exports (atom index, arity, label). `None` if `bytes` is not one.
pub fn beam_exports(bytes: &[u8]) -> Option<BTreeSet<(String, u32)>> {
    fn word(data: &[u8], at: usize) -> Option<u32> {
        Some(u32::from_be_bytes(
            data.get(at..at.checked_add(4)?)?.try_into().ok()?,
        ))
    }
    if bytes.get(0..4)? != b"FOR1" || bytes.get(8..12)? != b"BEAM" {
        return None;
    }
    let mut atoms: Vec<String> = Vec::new();
    let mut exports: Vec<(u32, u32)> = Vec::new();
    let mut pos = 12usize;
    while pos.checked_add(8)? <= bytes.len() {
        let id = bytes.get(pos..pos + 4)?;
        let size = word(bytes, pos + 4)? as usize;
        let data = bytes.get(pos + 8..(pos + 8).checked_add(size)?)?;
        match id {
            b"AtU8" | b"Atom" => {
                let n = word(data, 0)?;
                let mut i = 4usize;
                for _ in 0..n {
                    let len = *data.get(i)? as usize;
                    let name = data.get(i + 1..i + 1 + len)?;
                    atoms.push(if id == b"AtU8" {
                        String::from_utf8(name.to_vec()).ok()?
                    } else {
                        name.iter().map(|&c| c as char).collect()
                    });
                    i += 1 + len;
                }
            }
            b"ExpT" => {
                let n = word(data, 0)? as usize;
                for k in 0..n {
                    let at = 4 + 12 * k;
                    exports.push((word(data, at)?, word(data, at + 4)?));
                }
            }
            _ => {}
        }
        pos += 8 + size.div_ceil(4) * 4;
    }
    exports
        .into_iter()
        .map(|(f, a)| Some((atoms.get((f as usize).checked_sub(1)?)?.clone(), a)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.beam` with an atom table `[m, f, g]` and exports `f/0`, `g/2`.
    fn beam() -> Vec<u8> {
        fn chunk(id: &[u8], data: &[u8]) -> Vec<u8> {
            let mut c = id.to_vec();
            c.extend((data.len() as u32).to_be_bytes());
            c.extend(data);
            while !c.len().is_multiple_of(4) {
                c.push(0);
            }
            c
        }
        let mut atoms = 3u32.to_be_bytes().to_vec();
        for a in ["m", "f", "g"] {
            atoms.push(a.len() as u8);
            atoms.extend(a.as_bytes());
        }
        let mut expt = 2u32.to_be_bytes().to_vec();
        for (f, a, l) in [(2u32, 0u32, 2u32), (3, 2, 4)] {
            expt.extend(f.to_be_bytes());
            expt.extend(a.to_be_bytes());
            expt.extend(l.to_be_bytes());
        }
        let mut body = b"BEAM".to_vec();
        body.extend(chunk(b"AtU8", &atoms));
        body.extend(chunk(b"ExpT", &expt));
        let mut out = b"FOR1".to_vec();
        out.extend((body.len() as u32).to_be_bytes());
        out.extend(body);
        out
    }

    #[test]
    fn reads_the_export_table() {
        let e = beam_exports(&beam()).unwrap();
        let want: BTreeSet<(String, u32)> = [("f".to_string(), 0), ("g".to_string(), 2)].into();
        assert_eq!(e, want);
    }

    #[test]
    fn truncated_or_foreign_files_are_none() {
        let b = beam();
        for cut in [3, 11, 20, b.len() - 5] {
            assert_eq!(beam_exports(&b[..cut]), None, "cut at {cut}");
        }
        assert_eq!(beam_exports(b"not a beam file at all"), None);
    }

    #[test]
    fn an_installed_module_exports_what_erl_says() {
        let Some(otp) = crate::discover() else {
            eprintln!("skipped: no installed Erlang/OTP (the test reads its lists.beam)");
            return;
        };
        let e = otp
            .exports()
            .exports("lists")
            .expect("lists.beam is readable");
        assert!(e.contains(&("reverse".to_string(), 2)));
        assert!(!e.contains(&("no_such_function".to_string(), 0)));
    }
}
