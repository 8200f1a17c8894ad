//! JSON output (documented in docs/report.md). Every position is 1-based
//! line and column; files are given as on the command line.

use serde::{Deserialize, Serialize};

use racewit_confirm::confirmation::Confirmation;
use racewit_confirm::verdict::{Consequence, Status, UnconfirmedReason};
use racewit_static::Suspect;
use racewit_syntax::ir::Program;

pub const REPORT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct DiagnosticJson {
    pub code: String,
    pub severity: String,
    pub message: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
}

pub fn diagnostics(program: &Program) -> Vec<DiagnosticJson> {
    program
        .diagnostics
        .iter()
        .map(|d| {
            let loc = program.sources.location(d.span);
            DiagnosticJson {
                code: d.code.as_str().to_string(),
                severity: match d.severity {
                    racewit_syntax::Severity::Error => "error".into(),
                    racewit_syntax::Severity::Warning => "warning".into(),
                },
                message: d.message.clone(),
                file: loc.file,
                line: loc.line,
                column: loc.column,
            }
        })
        .collect()
}

#[derive(Serialize)]
pub struct StaticReport<'a> {
    pub version: u32,
    pub suspects: &'a [Suspect],
    pub diagnostics: Vec<DiagnosticJson>,
    pub stats: &'a racewit_static::Stats,
}

/// One warning of `racewit check`: the suspect's fields plus its verdict.
#[derive(Serialize)]
pub struct Warning<'a> {
    #[serde(flatten)]
    pub suspect: &'a Suspect,
    pub verdict: Status,
    pub consequence: Option<&'a Consequence>,
    pub bound: u32,
    pub processes: usize,
    pub interleavings: u64,
    pub exhausted: bool,
    pub preemptions: Option<u32>,
    pub witness_steps: Option<usize>,
    pub reason: Option<&'a UnconfirmedReason>,
    /// Completed runs that executed the read, and then the write.
    pub reached: racewit_confirm::verdict::Reached,
    /// What ran to reach the verdict.
    pub context: &'a racewit_confirm::harness::Context,
    /// Why unconfirmed, in words.
    pub reason_text: Option<String>,
    /// For a race confirmed with no visible harm: what cut the search for
    /// a harmful interleaving short (absent when nothing did).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harm_cut: Option<&'a racewit_confirm::verdict::HarmCut>,
    /// The same, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harm_cut_text: Option<String>,
    pub witness: Option<String>,
    pub harness: Option<&'a str>,
}

#[derive(Serialize, Default)]
pub struct CheckStats {
    pub files: usize,
    pub modules: usize,
    pub suspects: usize,
    pub confirmed: usize,
    pub unconfirmed: usize,
    pub interleavings: u64,
    /// Suspects not checked because they were accepted (suppressed, in
    /// excluded files, in the baseline).
    pub accepted: crate::accept::Accepted,
    #[serde(rename = "static")]
    pub static_stats: Option<racewit_static::Stats>,
}

#[derive(Serialize)]
pub struct CheckReport<'a> {
    pub version: u32,
    /// False when the run was interrupted before every suspect was decided.
    pub complete: bool,
    pub warnings: Vec<Warning<'a>>,
    pub diagnostics: Vec<DiagnosticJson>,
    pub stats: CheckStats,
}

pub fn warning<'a>(c: &'a Confirmation, witness: Option<String>) -> Warning<'a> {
    let v = &c.verdict;
    Warning {
        suspect: &c.suspect,
        verdict: v.status,
        consequence: v.consequence.as_ref(),
        bound: v.bound,
        processes: v.processes,
        interleavings: v.interleavings,
        exhausted: v.exhausted,
        preemptions: v.preemptions,
        witness_steps: v.witness_steps,
        reason: v.reason.as_ref(),
        reached: v.reached,
        context: &v.context,
        reason_text: v.reason.as_ref().map(|r| r.to_string()),
        harm_cut: v.harm_cut.as_ref(),
        harm_cut_text: v.harm_cut.as_ref().map(|c| c.to_string()),
        witness,
        harness: c.harness.as_ref().map(|h| h.source.as_str()),
    }
}
