//! SARIF 2.1.0 for GitHub code scanning (valid against the OASIS schema and
//! the copy GitHub's upload action checks; see `tests/cli.rs`).
//!
//! One rule per category ([`rules`]). A result's `locations` are the write
//! (first: the line GitHub annotates) and the read; its `relatedLocations` are
//! the read, the path between them and the witness's three steps, each linked
//! from the message as `[text](id)`; a confirmed result's witness is its code
//! flow ([`flow`]). URIs are relative to `%SRCROOT%`, columns count UTF-16
//! code units ([`location`]); load diagnostics are tool notifications; every
//! result carries a fingerprint that survives edits moving its lines. The
//! output is a function of the input alone: no clock, keys sorted, and no
//! absolute path but those of files outside the working directory (the
//! `%SRCROOT%` base is described, not given).

mod flow;
mod limits;
mod location;
mod rules;

use serde_json::{Value, json};

use racewit_confirm::confirmation::Confirmation;
use racewit_confirm::verdict::Status;
use racewit_static::{Category, HopKind, Suspect};
use racewit_syntax::ir::Program;

use limits::{MAX_RELATED_LOCATIONS, MAX_RESULTS, keep_within};
use location::{Locator, SRCROOT};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The key of racewit's own fingerprint in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "racewit/v1";

/// A SARIF log of `racewit static`: suspects without verdicts.
pub fn static_log(program: &Program, suspects: &[Suspect]) -> Value {
    let items: Vec<Item<'_>> = suspects
        .iter()
        .map(|s| Item {
            suspect: s,
            confirmation: None,
            witness_path: None,
        })
        .collect();
    log(program, items)
}

/// A SARIF log of `racewit check`: every suspect with its verdict, and the
/// witness file of each confirmed one (`witness_paths[i]` for `results[i]`).
pub fn check_log(
    program: &Program,
    results: &[Confirmation],
    witness_paths: &[Option<String>],
) -> Value {
    let items: Vec<Item<'_>> = results
        .iter()
        .enumerate()
        .map(|(i, c)| Item {
            suspect: &c.suspect,
            confirmation: Some(c),
            witness_path: witness_paths.get(i).and_then(|p| p.as_deref()),
        })
        .collect();
    log(program, items)
}

struct Item<'a> {
    suspect: &'a Suspect,
    confirmation: Option<&'a Confirmation>,
    witness_path: Option<&'a str>,
}

impl Item<'_> {
    fn status(&self) -> Option<Status> {
        self.confirmation.map(|c| c.verdict.status)
    }
}

fn log(program: &Program, items: Vec<Item<'_>>) -> Value {
    let root = std::env::current_dir().ok();
    let locator = Locator::new(&program.sources, root);
    // Confirmed races first if GitHub's limit forces a cut.
    let (items, omitted) = keep_within(items, MAX_RESULTS, |it| match it.status() {
        Some(Status::Confirmed) => 0,
        Some(Status::Unconfirmed) => 1,
        None => 2,
    });
    let fingerprints = fingerprints(&items);
    let results: Vec<Value> = items
        .iter()
        .zip(fingerprints)
        .map(|(it, fp)| result(&locator, it, fp))
        .collect();
    let mut notifications = diagnostics(&locator, program);
    if omitted > 0 {
        notifications.push(json!({
            "level": "warning",
            "descriptor": { "id": "results-omitted" },
            "message": {
                "text": format!(
                    "{omitted} result(s) left out: GitHub code scanning accepts at most {MAX_RESULTS} per run. Confirmed races were kept first."
                )
            }
        }));
    }
    let mut driver = json!({
        "name": "racewit",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": Category::ALL.iter().map(|&c| rules::rule(c)).collect::<Vec<_>>()
    });
    if let Some(uri) = option_env!("CARGO_PKG_REPOSITORY").filter(|u| u.contains("://")) {
        driver["informationUri"] = json!(uri);
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver },
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications
            }],
            "originalUriBaseIds": {
                (SRCROOT): {
                    "description": {
                        "text": "The directory racewit ran in: in CI, the root of the repository checked out. Paths outside it are file:// URIs."
                    }
                }
            },
            "columnKind": "utf16CodeUnits",
            "results": results
        }]
    })
}

/// Load diagnostics (unreadable files, syntax errors, missing includes) as
/// tool execution notifications: they are about the run, not results.
fn diagnostics(locator: &Locator<'_>, program: &Program) -> Vec<Value> {
    program
        .diagnostics
        .iter()
        .map(|d| {
            let mut n = json!({
                "level": match d.severity {
                    racewit_syntax::Severity::Error => "error",
                    racewit_syntax::Severity::Warning => "warning",
                },
                "descriptor": { "id": d.code.as_str() },
                "message": { "text": format!("{}: {}", d.code.as_str(), d.message) }
            });
            if let Some(l) = locator.span(d.span, None) {
                n["locations"] = json!([l]);
            }
            n
        })
        .collect()
}

/// A fingerprint per result that does not move with line numbers (the same
/// as a baseline's, see [`crate::accept::fingerprints`]).
fn fingerprints(items: &[Item<'_>]) -> Vec<String> {
    let suspects: Vec<&racewit_static::Suspect> = items.iter().map(|it| it.suspect).collect();
    crate::accept::fingerprints(&suspects)
}

/// Square brackets and backslashes in the text of an embedded link are escaped (SARIF §3.11.6).
fn link_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if matches!(ch, '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// Related locations, numbered from 1 in the order added.
#[derive(Default)]
struct Related(Vec<Value>);

impl Related {
    /// Adds a location and returns the id to link to.
    fn add(&mut self, loc: Option<Value>) -> Option<usize> {
        let mut loc = loc?;
        if self.0.len() >= MAX_RELATED_LOCATIONS {
            return None;
        }
        let id = self.0.len() + 1;
        loc["id"] = json!(id);
        self.0.push(loc);
        Some(id)
    }
}

fn result(locator: &Locator<'_>, it: &Item<'_>, fingerprint: String) -> Value {
    let s = it.suspect;
    let access = |a: &racewit_static::Access, what: &str| {
        let message = format!("{what}: {} in {}", a.call, a.function);
        locator
            .span(a.span, Some(&message))
            .or_else(|| locator.point(&a.file, a.line, a.column, Some(&message)))
    };
    let write = access(&s.write, "write");
    let read = access(&s.read, "read");

    let mut message = format!("{}.", s.message.trim_end_matches('.'));
    let mut related = Related::default();
    if let Some(id) = related.add(read.clone()) {
        message.push_str(&format!(
            " Read at [{} in {}]({id}).",
            link_text(&s.read.call),
            link_text(&s.read.function)
        ));
    }
    // The path between them: the hops that are neither the read nor the write.
    let hops: Vec<String> = s
        .path
        .iter()
        .filter(|h| !matches!(h.kind, HopKind::Read | HopKind::Write))
        .filter_map(|h| {
            let words = format!("{} {}", super::hop_words(h.kind), h.function);
            let id = related.add(locator.point(&h.file, h.line, h.column, Some(&words)))?;
            Some(format!("[{}]({id})", link_text(&words)))
        })
        .collect();
    if !hops.is_empty() {
        message.push_str(&format!(" Path: {}.", hops.join(" → ")));
    }

    let (level, verdict) = match it.status() {
        Some(Status::Confirmed) => ("error", "confirmed"),
        Some(Status::Unconfirmed) => ("warning", "unconfirmed"),
        None => ("warning", "suspect"),
    };
    let mut properties = json!({
        "verdict": verdict,
        "resource": s.resource.display,
        "suspect": s.id,
    });
    let mut code_flows = None;
    if let Some(c) = it.confirmation {
        message.push_str(&format!(" {}.", crate::report::human::verdict_line(c)));
        if let Some(w) = &c.witness {
            let order: Vec<String> = [
                ("read", "read it"),
                ("interfering_write", "wrote it"),
                ("stale_write", "wrote the stale value"),
            ]
            .iter()
            .enumerate()
            .filter_map(|(n, (role, words))| {
                let e = w.trace.iter().find(|e| e.role.as_deref() == Some(*role))?;
                let text = format!("({}) {} {}", n + 1, e.process, e.text);
                let loc = match e.span {
                    Some(span) => locator.span(span, Some(&text)),
                    None => locator.point(
                        e.file.as_deref()?,
                        e.line?,
                        e.column.unwrap_or(1),
                        Some(&text),
                    ),
                };
                let id = related.add(loc)?;
                Some(format!(
                    "[({}) {} {words}]({id})",
                    n + 1,
                    link_text(&e.process)
                ))
            })
            .collect();
            if !order.is_empty() {
                message.push_str(&format!(" In the witness: {}.", order.join(", ")));
            }
            code_flows = flow::code_flows(locator, w, it.witness_path);
        }
        if let Some(p) = it.witness_path {
            message.push_str(&format!(" Replay: racewit replay {p}"));
            properties["witness"] = json!(p);
        }
        if let Some(cons) = &c.verdict.consequence {
            properties["consequence"] = json!(cons.kind());
        }
        if let Some(reason) = &c.verdict.reason {
            properties["reason"] = json!(reason.kind());
        }
    }

    // Erlang terms in crash reasons come pretty-printed over several lines;
    // a result's message reads best as one paragraph.
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    let rule_index = Category::ALL.iter().position(|&c| c == s.category);
    let locations: Vec<Value> = [write, read].into_iter().flatten().collect();
    let mut res = json!({
        "ruleId": s.code,
        "level": level,
        "message": { "text": message },
        "locations": locations,
        "partialFingerprints": { (FINGERPRINT_KEY): fingerprint },
        "properties": properties
    });
    if let Some(i) = rule_index {
        res["ruleIndex"] = json!(i);
    }
    if !related.0.is_empty() {
        res["relatedLocations"] = Value::Array(related.0);
    }
    if let Some(flows) = code_flows {
        res["codeFlows"] = flows;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_text_escapes_brackets_and_backslashes() {
        assert_eq!(link_text("f([a]) \\ g"), "f(\\[a\\]) \\\\ g");
    }
}
