//! The output directory of `check` (`--out`, default `_racewit/`): what is
//! written there, so that nothing finished is ever lost or mixed.
//!
//! - One run at a time: a lock file (`.lock`, holding the process id) is
//!   created exclusively; a second run fails with a clear message, and a
//!   lock left by a process that no longer runs is taken over.
//! - Every file is written to a temporary name and renamed, so a reader (or
//!   a killed run) never sees half a file.
//! - The journal, `report.jsonl`: a header line naming the run (a
//!   fingerprint of the sources, the suspects and the options), then one
//!   line per verdict in suspect order, appended as soon as every earlier
//!   suspect is decided. A verdict reached before earlier ones waits in
//!   `.pending/<index>.json` until then, so a run killed at any point leaves
//!   every finished verdict on disk. `check --resume` reads both back.
//! - Witness names are unique per suspect id (a short hash is added where
//!   making the id a file name loses characters).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use racewit_confirm::confirmation::Confirmation;
use racewit_confirm::harness::Harness;
use racewit_confirm::verdict::Verdict;
use racewit_confirm::witness::Witness;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The journal's version; a journal of another version is not resumed.
const JOURNAL_VERSION: u32 = 1;

/// The locked output directory.
pub struct OutDir {
    path: PathBuf,
    lock: PathBuf,
}

impl OutDir {
    /// Creates the directory if needed and locks it for this run.
    pub fn open(path: &Path) -> Result<OutDir> {
        std::fs::create_dir_all(path).with_context(|| format!("creating {}", path.display()))?;
        let lock = path.join(".lock");
        for _ in 0..2 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&lock)
            {
                Ok(mut f) => {
                    let _ = writeln!(f, "{}", std::process::id());
                    return Ok(OutDir {
                        path: path.to_path_buf(),
                        lock,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = std::fs::read_to_string(&lock).unwrap_or_default();
                    let holder = holder.trim();
                    if process_is_gone(holder) {
                        // Left by a run that was killed: take it over.
                        let _ = std::fs::remove_file(&lock);
                        continue;
                    }
                    bail!(
                        "{} is in use by another racewit run (process {}); wait for it to \
                         finish, or give this run its own directory with --out",
                        path.display(),
                        if holder.is_empty() { "?" } else { holder }
                    );
                }
                Err(e) => {
                    return Err(e).with_context(|| format!("creating {}", lock.display()));
                }
            }
        }
        bail!("could not lock {}", path.display())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `name` in the directory through a temporary file and a rename.
    pub fn write_atomic(&self, name: &str, bytes: &[u8]) -> Result<PathBuf> {
        let path = self.path.join(name);
        write_atomic(&path, bytes)?;
        Ok(path)
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.lock);
    }
}

/// Whether the process named in a lock file is gone (so the lock is stale).
/// Where that cannot be told (no `/proc`), the lock is taken as held.
fn process_is_gone(pid: &str) -> bool {
    let Ok(pid) = pid.parse::<u32>() else {
        // An empty or garbled lock: its writer died before finishing it.
        return true;
    };
    if pid == std::process::id() {
        return false;
    }
    let proc = Path::new("/proc");
    proc.is_dir() && !proc.join(pid.to_string()).exists()
}

/// Writes `path` through a temporary file beside it and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(
        ".{}.tmp-{}",
        name.unwrap_or_default(),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// File name of a suspect's witness: the id with every character that is
/// not a letter, digit, `_` or `-` turned into `-`. Where that loses more
/// than the `:` separators (an id with `-` or `.` of its own, say from
/// `x-y.erl` and `x.y.erl`), a hash of the id keeps names apart.
pub fn witness_file(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let lossless = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
    if lossless {
        format!("{safe}.json")
    } else {
        let digest = Sha256::digest(id.as_bytes());
        let short: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
        format!("{safe}-{short}.json")
    }
}

/// The first line of a journal: which run it belongs to.
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
struct Header {
    journal: u32,
    racewit: String,
    /// Hash of the sources, the suspects' ids and the search options.
    fingerprint: String,
    suspects: usize,
}

/// One decided suspect, as the journal keeps it: everything of its
/// confirmation but the suspect itself, which the static pass finds again.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Record {
    pub index: usize,
    pub id: String,
    pub verdict: Verdict,
    pub harness: Option<Harness>,
    pub witness: Option<Witness>,
    /// Where the witness was written.
    pub witness_path: Option<String>,
    /// The spans of the witness's events (file, start, end), which its JSON
    /// leaves out: the human output draws them. A file id past the user's
    /// files names one of the suspect's own harness files (numbered per
    /// suspect, after the user's), which the output does not draw.
    #[serde(default)]
    pub spans: Vec<Option<[u32; 3]>>,
}

impl Record {
    pub fn new(index: usize, c: &Confirmation, witness_path: Option<String>) -> Record {
        Record {
            index,
            id: c.suspect.id.clone(),
            verdict: c.verdict.clone(),
            harness: c.harness.clone(),
            witness: c.witness.clone(),
            witness_path,
            spans: c
                .witness
                .iter()
                .flat_map(|w| &w.trace)
                .map(|e| e.span.map(|s| [s.file.0, s.start, s.end]))
                .collect(),
        }
    }

    /// The confirmation again, given the suspect it was made for.
    pub fn confirmation(&self, suspect: &racewit_static::Suspect) -> Confirmation {
        let mut witness = self.witness.clone();
        if let Some(w) = &mut witness {
            for (e, span) in w.trace.iter_mut().zip(&self.spans) {
                e.span = span.map(|[f, start, end]| {
                    racewit_syntax::Span::new(racewit_syntax::FileId(f), start, end)
                });
            }
        }
        Confirmation {
            suspect: suspect.clone(),
            verdict: self.verdict.clone(),
            harness: self.harness.clone(),
            witness,
        }
    }
}

/// The run's fingerprint: racewit's version, the sources, the suspects in
/// order and the options that shape verdicts. A journal is resumed only by
/// a run with the same fingerprint.
pub fn fingerprint(
    sources: &[racewit_confirm::witness::SourceHash],
    suspects: &[racewit_static::Suspect],
    options: &str,
) -> String {
    let mut h = Sha256::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    for s in sources {
        h.update(s.path.as_bytes());
        h.update([0]);
        h.update(s.sha256.as_bytes());
        h.update([0]);
    }
    for s in suspects {
        h.update(s.id.as_bytes());
        h.update([0]);
    }
    h.update(options.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The journal of this run, open for appending.
pub struct Journal {
    file: std::fs::File,
    pending: PathBuf,
}

/// What `--resume` found of an earlier run.
pub struct Resumed {
    pub records: BTreeMap<usize, Record>,
    /// Why nothing was resumed although asked (a different run, no journal).
    pub note: Option<String>,
}

impl Journal {
    /// Starts the journal of a run. With `resume`, the records of an earlier
    /// run with the same fingerprint are read back (the journal's lines and
    /// the pending files) and kept; otherwise the journal starts empty.
    pub fn start(
        out: &OutDir,
        fingerprint: &str,
        suspects: usize,
        resume: bool,
    ) -> Result<(Journal, Resumed)> {
        let path = out.path().join("report.jsonl");
        let pending = out.path().join(".pending");
        let header = Header {
            journal: JOURNAL_VERSION,
            racewit: env!("CARGO_PKG_VERSION").to_string(),
            fingerprint: fingerprint.to_string(),
            suspects,
        };
        let mut resumed = Resumed {
            records: BTreeMap::new(),
            note: None,
        };
        if resume {
            match read_journal(&path, &pending, &header) {
                Ok(records) => resumed.records = records,
                Err(why) => resumed.note = Some(why),
            }
        }
        // Every record kept waits in the pending files until it is shown
        // again (in order, by `append`), so a kill at any point loses none;
        // the journal restarts from its header.
        if !resume {
            let _ = std::fs::remove_dir_all(&pending);
        }
        std::fs::create_dir_all(&pending)
            .with_context(|| format!("creating {}", pending.display()))?;
        for r in resumed.records.values() {
            let path = pending.join(format!("{}.json", r.index));
            write_atomic(&path, serde_json::to_string(r)?.as_bytes())?;
        }
        write_atomic(&path, (serde_json::to_string(&header)? + "\n").as_bytes())?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok((Journal { file, pending }, resumed))
    }

    /// Keeps a verdict reached before earlier suspects were decided.
    pub fn pend(&self, record: &Record) -> Result<()> {
        let path = self.pending.join(format!("{}.json", record.index));
        write_atomic(&path, serde_json::to_string(record)?.as_bytes())
    }

    /// Appends the next verdict in suspect order.
    pub fn append(&mut self, record: &Record) -> Result<()> {
        let line = serde_json::to_string(record)? + "\n";
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .context("appending to report.jsonl")?;
        let _ = std::fs::remove_file(self.pending.join(format!("{}.json", record.index)));
        Ok(())
    }

    /// The run ended with every suspect decided: nothing is pending.
    pub fn close(self) {
        let _ = std::fs::remove_dir_all(&self.pending);
    }
}

/// The records of an earlier run with the same header, or why none are.
fn read_journal(
    path: &Path,
    pending: &Path,
    header: &Header,
) -> std::result::Result<BTreeMap<usize, Record>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|_| format!("no earlier run to resume in {}", path.display()))?;
    let mut lines = text.lines();
    let first: Header = lines
        .next()
        .and_then(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| format!("{} is not a racewit journal", path.display()))?;
    if first.journal != header.journal || first.racewit != header.racewit {
        return Err("the earlier run was made by another racewit version".into());
    }
    if first.fingerprint != header.fingerprint || first.suspects != header.suspects {
        return Err(
            "the sources, the suspects or the options changed since the earlier run".into(),
        );
    }
    let mut records = BTreeMap::new();
    let keep = |r: Record, records: &mut BTreeMap<usize, Record>| {
        if r.index < header.suspects {
            records.insert(r.index, r);
        }
    };
    for line in lines {
        // A line cut short by a kill is the last one: skip it.
        if let Ok(r) = serde_json::from_str::<Record>(line) {
            keep(r, &mut records);
        }
    }
    if let Ok(entries) = std::fs::read_dir(pending) {
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "json")
                && let Ok(text) = std::fs::read_to_string(&p)
                && let Ok(r) = serde_json::from_str::<Record>(&text)
            {
                keep(r, &mut records);
            }
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn witness_names_stay_apart() {
        assert_eq!(
            witness_file("R001:name_server:11:15"),
            "R001-name_server-11-15.json"
        );
        let a = witness_file("R001:x-y:4:5");
        let b = witness_file("R001:x.y:4:5");
        assert_ne!(a, b);
        assert!(a.starts_with("R001-x-y-4-5-"), "{a}");
        assert_ne!(a, witness_file("R001:x_y:4:5"));
    }

    #[test]
    fn a_second_run_cannot_take_the_directory() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = OutDir::open(dir.path()).expect("first");
        let second = OutDir::open(dir.path());
        let err = second.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("in use by another racewit run"), "{err}");
        drop(first);
        assert!(
            OutDir::open(dir.path()).is_ok(),
            "freed at the end of a run"
        );
    }

    #[test]
    fn a_lock_left_by_a_dead_process_is_taken_over() {
        let dir = tempfile::tempdir().expect("tempdir");
        // No process has this id (beyond Linux's pid_max).
        std::fs::write(dir.path().join(".lock"), "4294967295\n").expect("write");
        assert!(OutDir::open(dir.path()).is_ok());
    }
}
