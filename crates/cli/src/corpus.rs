//! `racewit corpus DIR`: the whole pipeline on every corpus case, compared
//! with `DIR/manifest.toml`; a table, then `N passed, M failed`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use racewit_confirm::confirmation::{ConfirmOptions, Confirmation, confirm_all};
use racewit_confirm::explore::{ExploreOptions, explore};
use racewit_confirm::goal::Failure;
use racewit_confirm::verdict::{Status, UnconfirmedReason};
use racewit_confirm::vm_system::TimeoutPolicy;
use racewit_confirm::witness::LoadRecord;
use racewit_static::{StaticOptions, Suspect, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};
use serde::Deserialize;

use crate::Outcome;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The corpus directory (holding manifest.toml).
    #[arg(value_name = "DIR", default_value = "corpus")]
    pub dir: PathBuf,
    /// Show only failing rows.
    #[arg(long)]
    pub failures_only: bool,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub version: u32,
    #[serde(default)]
    pub suspect: Vec<Expected>,
    #[serde(default)]
    pub explore: Vec<ExpectedExplore>,
}

/// One expected suspect (corpus/README.md describes every key). Every key
/// is checked against what racewit reports, except `id` and `teardown`:
/// corpus/check_manifest.escript checks those against the caret comments
/// and the module's exports.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub file: String,
    #[serde(rename = "id")]
    _id: Option<u32>,
    pub category: String,
    pub read_line: u32,
    pub read_call: Option<String>,
    /// The write's file when it is not `file`.
    pub write_file: Option<String>,
    pub write_line: u32,
    pub write_call: Option<String>,
    /// The window (`module:line`, where the read's value arrives in the
    /// function that makes the read-modify-write) when one read and write
    /// pair has several.
    pub window: Option<String>,
    pub verdict: String,
    pub consequence: Option<String>,
    /// For an unconfirmed suspect: the kind of reason expected
    /// (`bound_exhausted`, `all_exhausted`, `handled`, ...).
    pub reason: Option<String>,
    /// For an unconfirmed suspect: the unsupported call that stops it
    /// (`file:read_file/1`).
    pub unsupported_call: Option<String>,
    /// The context the verdict must come from: `api`, `entry`, `test`,
    /// `amplified_test`.
    pub context: Option<String>,
    pub bound: Option<u32>,
    /// The function a harness should call; a `mod:fun/0` entry is run as it is.
    pub entry: Option<String>,
    /// At most this many worker processes are needed to confirm.
    pub processes: Option<usize>,
    /// `mod:fun/A` the harness must call first, in its root process.
    pub setup: Option<String>,
    /// Text the context's harness variant must contain (`without its setup
    /// call`, `argument 1 = [racewit]`): the variant a trial run picked.
    pub variant: Option<String>,
    /// The rival (`mod:fun/A`) the harness's second worker must have called
    /// instead of the entry (a tag against an untag).
    pub rival: Option<String>,
    #[serde(rename = "teardown")]
    _teardown: Option<String>,
    pub note: Option<String>,
    /// A known gap: racewit does not give the expected verdict yet, for this
    /// reason. The row passes while the result still differs (and says
    /// FIXME); once racewit gets it right the row fails until the fixme is
    /// removed, so a fix is never silent.
    pub fixme: Option<String>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ExpectedExplore {
    pub file: String,
    pub entry: String,
    pub expect: String,
    pub bound: Option<u32>,
    /// `--after-timeout` for this case (default `when-stuck`).
    pub after_timeout: Option<String>,
    pub note: Option<String>,
    pub fixme: Option<String>,
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub pass: bool,
    pub case: String,
    pub expected: String,
    pub got: String,
    /// The manifest's note on the case, shown when it fails.
    pub note: Option<String>,
    /// A known gap (see [`Expected::fixme`]).
    pub fixme: Option<String>,
}

/// Applies a fixme: a known gap passes while it is still a gap.
fn with_fixme(mut row: Row, fixme: &Option<String>) -> Row {
    if let Some(why) = fixme {
        row.fixme = Some(why.clone());
        row.pass = !row.pass;
        if !row.pass {
            row.note = Some(
                "racewit now gives the expected verdict: remove the fixme from the manifest".into(),
            );
        }
    }
    row
}

pub fn read_manifest(dir: &Path) -> Result<Manifest> {
    let path = dir.join("manifest.toml");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let manifest: Manifest =
        toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    if manifest.version != 1 {
        anyhow::bail!(
            "{}: manifest version {} (this racewit reads version 1)",
            path.display(),
            manifest.version
        );
    }
    Ok(manifest)
}

fn relative(file: &str, dir: &Path) -> String {
    let p = Path::new(file);
    p.strip_prefix(dir).unwrap_or(p).display().to_string()
}

/// Whether a manifest row names this suspect.
fn row_matches(e: &Expected, s: &Suspect, dir: &Path) -> bool {
    relative(&s.read.file, dir) == e.file
        && relative(&s.write.file, dir) == *e.write_file.as_ref().unwrap_or(&e.file)
        && s.category.as_str() == e.category
        && s.read.line == e.read_line
        && s.write.line == e.write_line
        && e.read_call.as_ref().is_none_or(|call| *call == s.read.call)
        && e.write_call
            .as_ref()
            .is_none_or(|call| *call == s.write.call)
        && e.window
            .as_ref()
            .is_none_or(|w| *w == format!("{}:{}", s.window.module, s.window.line))
}

/// Runs the corpus and compares; the rows in manifest order, then extras.
pub fn evaluate(dir: &Path) -> Result<Vec<Row>> {
    let manifest = read_manifest(dir)?;
    let program = load_paths(&[dir.to_path_buf()], &LoadOptions::default());
    let analysis = find_suspects(&program, &StaticOptions::default());
    let max_bound = manifest
        .suspect
        .iter()
        .filter_map(|e| e.bound)
        .max()
        .unwrap_or(2)
        .max(2);
    let record = LoadRecord {
        paths: vec![dir.display().to_string()],
        ..LoadRecord::default()
    };
    // A row naming a `mod:fun/0` entry has its suspect confirmed by running
    // that entry; every other suspect gets generated harnesses. Suspects are
    // grouped by the entry their row names, one confirmation per group.
    let mut groups: BTreeMap<Option<(String, String)>, Vec<usize>> = BTreeMap::new();
    for (i, s) in analysis.suspects.iter().enumerate() {
        let entry = manifest
            .suspect
            .iter()
            .find(|e| row_matches(e, s, dir))
            .and_then(|e| e.entry.as_deref())
            .filter(|e| e.ends_with("/0"))
            .and_then(|e| crate::explore::parse_entry(e).ok());
        groups.entry(entry).or_default().push(i);
    }
    let mut results: Vec<Option<Confirmation>> = vec![None; analysis.suspects.len()];
    for (entry, members) in groups {
        let opts = ConfirmOptions {
            max_preemptions: max_bound,
            entries: entry.into_iter().collect(),
            ..ConfirmOptions::default()
        };
        let suspects: Vec<_> = members
            .iter()
            .map(|&i| analysis.suspects[i].clone())
            .collect();
        let group_program = load_paths(&[dir.to_path_buf()], &LoadOptions::default());
        let (_, confirmed) = confirm_all(group_program, &suspects, &record, &opts);
        for (i, c) in members.into_iter().zip(confirmed) {
            results[i] = Some(c);
        }
    }
    let results: Vec<Confirmation> = results.into_iter().flatten().collect();
    let program = Arc::new(program);
    let mut used = vec![false; results.len()];
    let mut rows = Vec::new();
    for e in &manifest.suspect {
        let found = results.iter().position(|c| row_matches(e, &c.suspect, dir));
        let case = format!(
            "{}:{}->{} {}",
            e.file, e.read_line, e.write_line, e.category
        );
        let expected = match (&e.consequence, &e.reason) {
            (Some(c), _) if e.verdict == "confirmed" => format!("confirmed ({c})"),
            (_, Some(r)) if e.verdict == "unconfirmed" => format!("unconfirmed ({r})"),
            _ => e.verdict.clone(),
        };
        let (pass, got) = match found {
            None => (e.verdict == "filtered", "not reported".to_string()),
            Some(i) => {
                used[i] = true;
                let got = describe(&results[i]);
                match matches_expected(e, &results[i]) {
                    Ok(()) => (true, got),
                    Err(more) => (false, got + &more),
                }
            }
        };
        let row = Row {
            pass,
            case,
            expected,
            got,
            note: e.note.clone(),
            fixme: None,
        };
        rows.push(with_fixme(row, &e.fixme));
    }
    for (c, used) in results.iter().zip(&used) {
        if !used {
            let s = &c.suspect;
            rows.push(Row {
                pass: false,
                case: format!(
                    "{}:{}->{} {}",
                    relative(&s.read.file, dir),
                    s.read.line,
                    s.write.line,
                    s.category.as_str()
                ),
                expected: "not in manifest".into(),
                got: describe(c),
                note: Some(s.message.clone()),
                fixme: None,
            });
        }
    }
    for e in &manifest.explore {
        rows.push(explore_row(&program, dir, e));
    }
    Ok(rows)
}

fn describe(c: &Confirmation) -> String {
    match (c.verdict.status, &c.verdict.consequence) {
        (Status::Confirmed, Some(k)) => format!("confirmed ({})", k.kind()),
        (Status::Confirmed, None) => "confirmed".into(),
        (Status::Unconfirmed, _) => {
            let why = c
                .verdict
                .reason
                .as_ref()
                .map(|r| r.to_string())
                .unwrap_or_default();
            format!("unconfirmed: {why}")
        }
    }
}

/// Whether a result is what the manifest expects; else what differs beyond
/// the verdict line.
fn matches_expected(e: &Expected, c: &Confirmation) -> Result<(), String> {
    let setup_ok = e.setup.as_ref().is_none_or(|mfa| {
        c.harness
            .as_ref()
            .is_some_and(|h| h.setup.iter().any(|call| setup_call_is(call, mfa)))
    });
    let processes_ok = c.verdict.status != Status::Confirmed
        || e.processes.is_none_or(|n| c.verdict.processes <= n);
    // Unconfirmed: the reason names the call. Confirmed: the witness shows
    // a process stopping at it.
    let unsupported_ok = e.unsupported_call.as_ref().is_none_or(|want| {
        let stop = format!("stopped at unsupported call {want}");
        matches!(&c.verdict.reason,
            Some(UnconfirmedReason::Unsupported { call, .. }) if call.starts_with(want.as_str()))
            || c.witness
                .as_ref()
                .is_some_and(|w| w.trace.iter().any(|ev| ev.text.starts_with(&stop)))
    });
    if !matches_verdict(e, c) {
        return Err(String::new());
    }
    if let Some(want) = &e.context
        && c.verdict.context.kind() != want
    {
        return Err(format!(
            "; context is {} ({}), not {want}",
            c.verdict.context.kind(),
            c.verdict.context
        ));
    }
    if let Some(want) = &e.variant {
        let got = match &c.verdict.context {
            racewit_confirm::harness::Context::Api { variant, .. } => variant.as_str(),
            _ => "",
        };
        if !got.contains(want.as_str()) {
            return Err(format!("; harness variant is {got:?}, not {want:?}"));
        }
    }
    if let Some(want) = &e.rival {
        let got = match &c.verdict.context {
            racewit_confirm::harness::Context::Api { rival, .. } => rival.as_str(),
            _ => "",
        };
        if got != want {
            return Err(format!("; rival is {got:?}, not {want:?}"));
        }
    }
    if !setup_ok {
        let used = c.harness.as_ref().map(|h| h.setup.join(", "));
        return Err(format!(
            "; harness setup is [{}], not {}",
            used.unwrap_or_default(),
            e.setup.as_deref().unwrap_or_default()
        ));
    }
    if !processes_ok {
        return Err(format!("; needed {} processes", c.verdict.processes));
    }
    if !unsupported_ok {
        return Err(format!(
            "; expected a stop at unsupported call {}",
            e.unsupported_call.as_deref().unwrap_or_default()
        ));
    }
    Ok(())
}

/// Whether a setup call (`catch m:f(a, b)`) calls `mfa` (`m:f/2`).
fn setup_call_is(call: &str, mfa: &str) -> bool {
    let call = call.strip_prefix("catch ").unwrap_or(call);
    let Some((name, args)) = call.split_once('(') else {
        return false;
    };
    let Some(args) = args.strip_suffix(')') else {
        return false;
    };
    format!("{}/{}", name.replace('\'', ""), top_level_args(args)) == mfa
}

/// How many comma-separated terms a call's argument text holds.
fn top_level_args(text: &str) -> usize {
    if text.trim().is_empty() {
        return 0;
    }
    let text = text.replace("<<", "(").replace(">>", ")");
    let (mut depth, mut quote, mut n) = (0i32, None::<char>, 1);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => n += 1,
            _ => {}
        }
    }
    n
}

fn matches_verdict(e: &Expected, c: &Confirmation) -> bool {
    match e.verdict.as_str() {
        "confirmed" => {
            c.verdict.status == Status::Confirmed
                && e.consequence.as_deref().is_none_or(|k| {
                    c.verdict
                        .consequence
                        .as_ref()
                        .is_some_and(|got| got.kind() == k)
                })
        }
        "unconfirmed" => {
            c.verdict.status == Status::Unconfirmed
                && e.reason
                    .as_deref()
                    .is_none_or(|k| c.verdict.reason.as_ref().is_some_and(|got| got.kind() == k))
        }
        _ => false,
    }
}

fn explore_row(program: &Arc<racewit_syntax::ir::Program>, dir: &Path, e: &ExpectedExplore) -> Row {
    let case = format!("{} explore {}", e.file, e.entry);
    let got = match crate::explore::parse_entry(&e.entry) {
        Err(err) => format!("bad entry: {err}"),
        Ok((m, f)) if program.function(&m, &f, 0).is_none() => format!("{m}:{f}/0 not loaded"),
        Ok(_)
            if e.after_timeout
                .as_deref()
                .is_some_and(|t| crate::check::parse_after_timeout(t).is_err()) =>
        {
            format!("bad after_timeout {:?}", e.after_timeout)
        }
        Ok((m, f)) => {
            let timeouts = e
                .after_timeout
                .as_deref()
                .and_then(|t| crate::check::parse_after_timeout(t).ok())
                .unwrap_or(TimeoutPolicy::WhenStuck);
            let opts = ExploreOptions {
                confirm: ConfirmOptions {
                    max_preemptions: e.bound.unwrap_or(2),
                    timeouts,
                    ..ConfirmOptions::default()
                },
                all: false,
            };
            let record = LoadRecord {
                paths: vec![dir.display().to_string()],
                ..LoadRecord::default()
            };
            let r = explore(program, &m, &f, &record, &opts);
            match r.failures.first().map(|(f, _)| f) {
                Some(Failure::Crash { .. }) => "crash".into(),
                Some(Failure::Deadlock { .. }) => "deadlock".into(),
                None => "ok".into(),
            }
        }
    };
    let row = Row {
        pass: got == e.expect,
        case,
        expected: e.expect.clone(),
        got,
        note: e.note.clone(),
        fixme: None,
    };
    with_fixme(row, &e.fixme)
}

pub fn render(rows: &[Row], failures_only: bool) -> String {
    let mut out = String::new();
    let width = rows.iter().map(|r| r.case.len()).max().unwrap_or(10);
    for r in rows.iter().filter(|r| !failures_only || !r.pass) {
        let mark = match (r.pass, &r.fixme) {
            (true, None) => "ok  ",
            (true, Some(_)) => "FIXM",
            (false, _) => "FAIL",
        };
        if r.pass {
            match &r.fixme {
                None => out.push_str(&format!("{mark} {:<width$}  {}\n", r.case, r.got)),
                Some(why) => out.push_str(&format!(
                    "{mark} {:<width$}  {} (expected {}: {why})\n",
                    r.case, r.got, r.expected
                )),
            }
        } else {
            out.push_str(&format!(
                "{mark} {:<width$}  expected {}, got {}\n",
                r.case, r.expected, r.got
            ));
            if let Some(note) = &r.note {
                out.push_str(&format!("     {:<width$}  ({note})\n", ""));
            }
        }
    }
    let passed = rows.iter().filter(|r| r.pass).count();
    let gaps = rows.iter().filter(|r| r.pass && r.fixme.is_some()).count();
    if gaps > 0 {
        out.push_str(&format!(
            "{gaps} known gap(s) marked FIXM(e) in the manifest\n"
        ));
    }
    out.push_str(&format!(
        "{passed} passed, {} failed\n",
        rows.len() - passed
    ));
    out
}

pub fn run(args: Args) -> Result<Outcome> {
    let rows = evaluate(&args.dir)?;
    let text = render(&rows, args.failures_only);
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(if rows.iter().all(|r| r.pass) {
        Outcome::Clean
    } else {
        Outcome::Error
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_calls_match_by_name_and_arity() {
        assert!(setup_call_is("catch stats:init()", "stats:init/0"));
        assert!(setup_call_is("'my mod':start()", "my mod:start/0"));
        assert!(setup_call_is(
            "catch stats:init(t, [{a, 1}, <<1, 2>>], #{k => \"x,y\"})",
            "stats:init/3"
        ));
        assert!(!setup_call_is("catch stats:init(t)", "stats:init/0"));
        assert!(!setup_call_is("Arg1 = stats:new()", "stats:new/0"));
    }
}
