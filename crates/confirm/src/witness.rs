//! The witness: a versioned JSON record of one execution that shows a race
//! (or an explored failure), with everything needed to replay it.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use racewit_syntax::ir::Program;

use crate::schedule::Schedule;
use crate::verdict::Verdict;
use crate::vm_system::TimeoutPolicy;

pub const WITNESS_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    pub version: u32,
    /// `suspect` for a confirmed race, `explore` for a failure found by exploring an entry.
    pub kind: WitnessKind,
    /// The suspect id (race) or the entry (`mod:fun/0`, explore).
    pub subject: String,
    /// What was loaded, as the command line gave it.
    pub load: LoadRecord,
    /// sha256 of the user source files the run executed, by path: the
    /// files of the modules it entered, and every header (a header's
    /// records and macros are part of the code of whichever module includes
    /// it). Replay refuses to run when one of these changed; a change to
    /// any other file leaves the witness valid. (A witness written before
    /// this distinction lists every file loaded, and so still replays.)
    pub sources: Vec<SourceHash>,
    /// Every module file the run's program loaded, hashed or not: replay
    /// loads these (empty in older witnesses: replay then loads the
    /// `.erl` files of `sources`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<String>,
    pub harness: HarnessRecord,
    pub timeouts: TimeoutPolicy,
    /// The race's read and write sites (`module`, call-site id), for a race.
    pub sites: Option<RaceSites>,
    pub schedule: Schedule,
    pub verdict: Verdict,
    /// A failure found by exploration (`explore` witnesses).
    pub failure: Option<crate::goal::Failure>,
    /// One line per step.
    pub trace: Vec<WitnessEvent>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WitnessKind {
    Suspect,
    Explore,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadRecord {
    pub paths: Vec<String>,
    pub include_dirs: Vec<String>,
    pub lib_dirs: Vec<String>,
    pub defines: Vec<(String, Option<String>)>,
    /// The library code the VM ran with, one line per source
    /// (`otp ROOT (OTP N)`, `dep DIR`, `app FILE`, `sha256 HEX` of them all;
    /// see `racewit_vm::Libraries::record`): replay loads the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub libraries: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceHash {
    pub path: String,
    pub sha256: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HarnessRecord {
    pub module: String,
    pub function: String,
    /// Generated harness source (empty when the entry is the user's own function).
    pub source: String,
    /// The amplified test the harness runs, if it does: replay rebuilds its
    /// copy of the test module and its amplifier from this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amplification: Option<crate::amplify::Amplification>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceSites {
    pub read_module: String,
    pub read_site: u32,
    pub write_module: String,
    pub write_site: u32,
    /// Whether the stale write must touch the item read (not for spawn_register).
    pub write_must_overlap: bool,
    /// Whether the write starts a process that registers the name itself
    /// (`gen_server:start({local, Name}, ...)`): see [`crate::goal::RaceGoal`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub write_in_started: bool,
    /// Whether the read is an atomic counter update that changes the
    /// counter and the write adds a constant to it (see
    /// [`crate::goal::RaceGoal::write_adds`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub write_adds: bool,
    /// Whether the write is on another table than the read's, creating
    /// objects that belong to the item read (see
    /// [`crate::goal::RaceGoal::write_elsewhere`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub write_elsewhere: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WitnessEvent {
    pub step: usize,
    pub process: String,
    pub text: String,
    /// The shared item touched (`ets counters/hits`, `mailbox P1.2`), and how.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<crate::system::Access>,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// Whether this step preempted a process that could have gone on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preemption: bool,
    /// `read`, `interfering_write` or `stale_write` for the race's three events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The call site's span in the loaded program (not serialized).
    #[serde(skip)]
    pub span: Option<racewit_syntax::Span>,
}

/// sha256 of each user file of the program (generated harness files excluded).
pub fn hash_sources(program: &Program) -> Vec<SourceHash> {
    let mut out: Vec<SourceHash> = program
        .sources
        .iter()
        .filter(|(_, f)| !f.path.starts_with(crate::confirmation::HARNESS_DIR))
        .map(|(_, f)| SourceHash {
            path: f.path.display().to_string(),
            sha256: hex(&Sha256::digest(f.text.as_bytes())),
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.dedup();
    out
}

/// Of `all` (the hashes of every file loaded, [`hash_sources`]), those of
/// the files a run executed: the `entered` module files and every header.
pub fn executed_sources(all: &[SourceHash], entered: &[std::path::PathBuf]) -> Vec<SourceHash> {
    all.iter()
        .filter(|s| {
            let path = std::path::Path::new(&s.path);
            path.extension().is_none_or(|x| x != "erl") || entered.iter().any(|e| e == path)
        })
        .cloned()
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::{SourceHash, executed_sources};
    use std::path::PathBuf;

    #[test]
    fn executed_sources_keep_entered_modules_and_every_header() {
        let h = |p: &str| SourceHash {
            path: p.into(),
            sha256: format!("hash of {p}"),
        };
        let all = [
            h("src/a.erl"),
            h("src/b.erl"),
            h("include/r.hrl"),
            h("src/c.erl"),
        ];
        let entered = [PathBuf::from("src/a.erl"), PathBuf::from("src/c.erl")];
        assert_eq!(
            executed_sources(&all, &entered),
            [h("src/a.erl"), h("include/r.hrl"), h("src/c.erl")]
        );
        assert_eq!(executed_sources(&all, &[]), [h("include/r.hrl")]);
    }
}
