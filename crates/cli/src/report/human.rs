//! Human output: one warning per suspect with source snippets (rendered by
//! codespan-reporting), its path and entries, and for `check` its verdict
//! with the order of events as the message.

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::term::{self, Config};
use racewit_confirm::confirmation::Confirmation;
use racewit_confirm::harness::Context;
use racewit_confirm::verdict::{Consequence, Status, UnconfirmedReason};
use racewit_static::Suspect;
use racewit_syntax::ir::Program;
use racewit_syntax::{Severity, SourceDb};

use super::color;
use super::concise;
use super::files::SourceFiles;

fn config() -> Config {
    Config::default()
}

/// Load diagnostics, rendered with snippets.
pub fn load_diagnostics(program: &Program, out: &mut String) {
    let files = SourceFiles(&program.sources);
    for d in &program.diagnostics {
        let diag = match d.severity {
            Severity::Error => Diagnostic::error(),
            Severity::Warning => Diagnostic::warning(),
        }
        .with_code(d.code.as_str())
        .with_message(super::visible(&d.message))
        .with_labels(vec![Label::primary(
            d.span.file,
            d.span.start as usize..d.span.end as usize,
        )]);
        out.push_str(&concise::diagnostic_line(program, d));
        emit(&files, &diag, out);
    }
}

/// The codespan-style block, coloured when colour is on.
fn emit(files: &SourceFiles<'_>, diag: &Diagnostic<racewit_syntax::FileId>, out: &mut String) {
    let rendered = if color::enabled() {
        let mut buffer = term::termcolor::Buffer::ansi();
        term::emit_to_write_style(&mut buffer, &config(), files, diag)
            .map(|()| String::from_utf8_lossy(buffer.as_slice()).into_owned())
    } else {
        term::emit_into_string(&config(), files, diag)
    };
    match rendered {
        Ok(text) => out.push_str(&text),
        Err(e) => out.push_str(&format!("(could not render a snippet: {e})\n")),
    }
}

fn path_notes(s: &Suspect) -> Vec<String> {
    let mut notes = vec![format!("shared item: {}", s.resource.display)];
    if s.path.len() > 2 {
        let hops: Vec<String> = s
            .path
            .iter()
            .map(|h| {
                let what = super::hop_words(h.kind);
                format!("{what} {} ({}:{})", h.function, h.file, h.line)
            })
            .collect();
        notes.push(format!("path: {}", hops.join(" → ")));
    }
    if !s.entries.is_empty() {
        let entries: Vec<String> = s.entries.iter().map(|e| e.mfa.to_string()).collect();
        notes.push(format!("reachable from: {}", entries.join(", ")));
    }
    notes
}

fn suspect_diagnostic(s: &Suspect) -> Diagnostic<racewit_syntax::FileId> {
    Diagnostic::warning()
        .with_code(s.code)
        .with_message(super::visible(&s.message))
        .with_labels(vec![
            Label::primary(
                s.write.span.file,
                s.write.span.start as usize..s.write.span.end as usize,
            )
            .with_message(super::visible(&format!("write: {}", s.write.call))),
            Label::secondary(
                s.read.span.file,
                s.read.span.start as usize..s.read.span.end as usize,
            )
            .with_message(super::visible(&format!("read: {}", s.read.call))),
        ])
}

/// `racewit static`: the suspects.
pub fn suspects(sources: &SourceDb, suspects: &[Suspect], out: &mut String) {
    let files = SourceFiles(sources);
    for s in suspects {
        let mut notes = path_notes(s);
        notes.push(id_note(s));
        let diag = suspect_diagnostic(s).with_notes(visible_notes(notes));
        out.push_str(&concise::suspect_line(s));
        emit(&files, &diag, out);
    }
}

/// What cut the static pass's searches short, as one line (`None` when
/// nothing did): `12 searches cut: 3 at the state budget
/// (--search-budget 10000 explores further), ...`. `budget` is the budget
/// the run used.
pub fn limits_note(stats: &racewit_static::Stats, budget: usize) -> Option<String> {
    if stats.searches_cut == 0 {
        return None;
    }
    debug_assert!(budget > 0);
    let l = &stats.limits;
    let mut parts = Vec::new();
    if l.budget > 0 {
        parts.push(format!(
            "{} at the state budget (--search-budget {} explores further)",
            l.budget,
            budget.saturating_mul(4).max(1)
        ));
    }
    let mut count = |n: usize, what: &str| {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    };
    count(l.depth, "paths above the callers a search climbs");
    count(l.unknown_funs, "calls of funs no value names");
    count(l.vague_calls, "calls naming no function to follow");
    count(l.summary, "deep calls with their write summary cut");
    Some(format!(
        "{} search(es) cut short: {}",
        stats.searches_cut,
        parts.join(", ")
    ))
}

/// The pairs left out because they are in test code, as one line (`None`
/// when there were none).
pub fn test_pairs_note(stats: &racewit_static::Stats) -> Option<String> {
    (stats.test_pairs > 0).then(|| {
        format!(
            "{} pair(s) in test or example code not reported (--include-tests reports them)",
            stats.test_pairs
        )
    })
}

/// What ran to reach the verdict.
fn context_line(c: &Confirmation) -> String {
    match c.verdict.setup_steps {
        0 => format!("context: {}", c.verdict.context),
        n => format!(
            "context: {}; its setup ({n} step{}) ran once, in one fixed order, before the calls that race",
            c.verdict.context,
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// One line saying what a verdict is.
pub fn verdict_line(c: &Confirmation) -> String {
    let v = &c.verdict;
    match v.status {
        Status::Confirmed => {
            let what = match &v.consequence {
                Some(Consequence::Crash { process, reason }) => {
                    format!("crash: {process} exited with {reason}")
                }
                Some(Consequence::NonSerializable { observed, .. })
                    if observed.starts_with("P1 then read") =>
                {
                    format!("non_serializable: {observed}, which no serial schedule gives")
                }
                Some(Consequence::NonSerializable { observed, .. })
                    if observed
                        .lines()
                        .next()
                        .is_some_and(|l| l.contains(" returned ")) =>
                {
                    let calls = observed.lines().next().unwrap_or_default();
                    format!(
                        "non_serializable: {calls}, which no serial schedule gives with the same final state"
                    )
                }
                Some(Consequence::NonSerializable { .. }) => {
                    "non_serializable: the final state is one no serial schedule produces"
                        .to_string()
                }
                Some(Consequence::Stuck { processes }) => {
                    format!("stuck: {} blocked forever", processes.join(", "))
                }
                Some(Consequence::None) | None => match &v.harm_cut {
                    None => "none: the interleaving happens but does no visible harm".to_string(),
                    Some(cut) => format!(
                        "none: the interleaving happens but does no visible harm in the runs \
                         searched; {cut}"
                    ),
                },
            };
            format!(
                "CONFIRMED ({what}); witness of {} steps with {} preemption(s), found after {} interleaving(s)",
                v.witness_steps.unwrap_or(0),
                v.preemptions.unwrap_or(0),
                v.interleavings
            )
        }
        Status::Unconfirmed => {
            let why = v
                .reason
                .as_ref()
                .map(|r| r.to_string())
                .unwrap_or_else(|| "no schedule showed it".into());
            if v.reason == Some(UnconfirmedReason::AllExhausted) {
                return format!(
                    "UNCONFIRMED with every interleaving explored ({} worker processes, {} interleavings up to equivalence{}; no bound was needed)",
                    v.processes,
                    v.interleavings,
                    v.setup_clause()
                );
            }
            if v.reason
                .as_ref()
                .is_some_and(UnconfirmedReason::every_interleaving)
            {
                return format!(
                    "UNCONFIRMED with every interleaving explored ({} worker processes, {} interleavings up to equivalence{}): {why}",
                    v.processes,
                    v.interleavings,
                    v.setup_clause()
                );
            }
            if !v.reason.as_ref().is_some_and(UnconfirmedReason::searched) {
                // The search could not say anything of the race: no claim
                // about a bound or a space.
                return format!(
                    "UNCONFIRMED ({} worker processes, {} interleavings ran): {why}",
                    v.processes, v.interleavings
                );
            }
            format!(
                "UNCONFIRMED within bound {} ({} worker processes, {} interleavings{}{}): {why}",
                v.bound,
                v.processes,
                v.interleavings,
                if v.exhausted { ", space exhausted" } else { "" },
                v.setup_clause()
            )
        }
    }
}

/// `racewit check`: one suspect with its verdict, opened by its
/// compiler-style line (at the write); for a confirmed race the labels tell
/// the order of events, the stale write being the primary one.
pub fn confirmation(program: &Program, c: &Confirmation, wpath: Option<&str>, out: &mut String) {
    let files = SourceFiles(&program.sources);
    let s = &c.suspect;
    let mut diag = suspect_diagnostic(s);
    let verdict = crate::erl_text::rewrite(&verdict_line(c), None);
    if let Some(w) = &c.witness {
        let mut labels = Vec::new();
        let mut order = Vec::new();
        let mut write_labelled = false;
        for (n, (role, what)) in [
            ("read", "read it here"),
            ("interfering_write", "wrote it here"),
            ("stale_write", "wrote the stale value here"),
        ]
        .iter()
        .enumerate()
        {
            if let Some(ev) = w.trace.iter().find(|e| e.role.as_deref() == Some(*role)) {
                let text = format!("({}) {} {}", n + 1, ev.process, what);
                order.push(format!(
                    "({}) {} {}",
                    n + 1,
                    ev.process,
                    crate::erl_text::rewrite(&ev.text, None)
                ));
                // A span in one of the suspect's own harness modules names
                // a file that lived only while it was confirmed: the event
                // is in the order below, without a snippet.
                let shown = ev
                    .span
                    .filter(|sp| (sp.file.0 as usize) < program.sources.len());
                if let Some(span) = shown {
                    let range = span.start as usize..span.end as usize;
                    let label = if *role == "stale_write" && span == s.write.span {
                        write_labelled = true;
                        Label::primary(span.file, range)
                    } else {
                        Label::secondary(span.file, range)
                    };
                    labels.push(label.with_message(super::visible(&text)));
                }
            }
        }
        if !write_labelled {
            // The warning is located at the write: it carries the primary label.
            labels.push(
                Label::primary(
                    s.write.span.file,
                    s.write.span.start as usize..s.write.span.end as usize,
                )
                .with_message(super::visible(&format!("write: {}", s.write.call))),
            );
        }
        diag = Diagnostic::error()
            .with_code(s.code)
            .with_message(super::visible(&s.message))
            .with_labels(labels);
        let mut notes = vec![verdict, context_line(c)];
        notes.extend(order);
        notes.extend(path_notes(s));
        if let Some(p) = wpath {
            notes.push(format!("replay: racewit replay {p}"));
        }
        notes.push(id_note(s));
        diag = diag.with_notes(visible_notes(notes));
    } else {
        let mut notes = vec![verdict];
        if !matches!(c.verdict.context, Context::None) {
            notes.push(context_line(c));
        }
        notes.extend(path_notes(s));
        notes.push(id_note(s));
        diag = diag.with_notes(visible_notes(notes));
    }
    out.push_str(&concise::confirmation_line(c));
    emit(&files, &diag, out);
}

/// Notes with their control characters escaped, line breaks (of terms
/// printed over lines) kept (see [`super::visible_lines`]).
fn visible_notes(notes: Vec<String>) -> Vec<String> {
    notes
        .into_iter()
        .map(|n| super::visible_lines(&n).into_owned())
        .collect()
}

/// The warning's stable id, which `racewit.toml`'s `[suppress] ids` takes.
fn id_note(s: &Suspect) -> String {
    format!("id: {}", s.id)
}
