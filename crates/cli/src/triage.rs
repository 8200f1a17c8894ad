//! `racewit triage [REPORT.json]`: the warnings of a `check` report ranked:
//! confirmed first, then by consequence (crash > non_serializable > stuck >
//! none), then by context (the project's own tests and entries before
//! amplified tests before generated API calls), fewest preemptions, shortest
//! witness; unconfirmed ones by reason
//! (handled, then those nothing could be said of, then bounded searches, then
//! spaces explored whole). Each row says why it ranks there.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::Outcome;
use crate::report::visible;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A report written by `racewit check --format json` (default: the last one in --out).
    #[arg(value_name = "REPORT.json")]
    pub report: Option<PathBuf>,
    /// Where `check` wrote its last report.
    #[arg(long, value_name = "DIR", default_value = "_racewit")]
    pub out: PathBuf,
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    unconfirmed: bool,
    consequence: u8,
    /// How close to the program's real runs the context was.
    context: u8,
    preemptions: u64,
    steps: u64,
    id: String,
}

fn consequence_rank(kind: &str) -> u8 {
    match kind {
        "crash" => 0,
        "non_serializable" => 1,
        "stuck" => 2,
        "none" => 3,
        _ => 4,
    }
}

/// Among unconfirmed warnings: the race seen but handled first, then those
/// racewit could say nothing of (a user must look), then searches that
/// stopped within the bound, then spaces explored whole, races the program
/// never runs concurrently, and races inside an application racewit models
/// (mnesia's own implementation: nothing for the user of it to look at).
fn reason_rank(kind: &str) -> u8 {
    match kind {
        "handled" => 0,
        "not_reached" | "harness_crashed" | "unsupported" | "runs_cut" | "no_harness" => 1,
        "budget" | "time_budget" | "memory_budget" | "context_budget" => 2,
        "bound_exhausted" => 3,
        "all_exhausted" | "serialised" | "modelled" => 4,
        _ => 5,
    }
}

fn rank(w: &Value) -> Rank {
    let unconfirmed = w["verdict"].as_str() != Some("confirmed");
    let consequence = if unconfirmed {
        reason_rank(w["reason"]["kind"].as_str().unwrap_or(""))
    } else {
        consequence_rank(w["consequence"]["kind"].as_str().unwrap_or(""))
    };
    let context = match w["context"]["kind"].as_str().unwrap_or("") {
        "entry" | "test" => 0,
        "amplified_test" => 1,
        "api" => 2,
        _ => 3,
    };
    Rank {
        unconfirmed,
        consequence,
        context,
        preemptions: w["preemptions"].as_u64().unwrap_or(u64::MAX),
        steps: w["witness_steps"].as_u64().unwrap_or(u64::MAX),
        id: w["id"].as_str().unwrap_or("").to_string(),
    }
}

fn why(w: &Value, r: &Rank) -> String {
    if r.unconfirmed {
        let reason = w["reason_text"].as_str().unwrap_or("no witness");
        return format!("unconfirmed: {reason}");
    }
    let kind = w["consequence"]["kind"].as_str().unwrap_or("none");
    format!(
        "confirmed, consequence {kind}, {} preemption(s), {}-step witness",
        r.preemptions, r.steps
    )
}

/// The ranked table, as text.
pub fn render(report: &Value) -> Result<String> {
    let Some(warnings) = report["warnings"].as_array() else {
        bail!("not a racewit check report (no \"warnings\" array)");
    };
    let want = crate::report::json::REPORT_VERSION;
    match report["version"].as_u64() {
        Some(v) if v == u64::from(want) => {}
        Some(v) => bail!(
            "report version {v}: this racewit reads version {want} (run `racewit check` again with \
             this racewit)"
        ),
        None => bail!("not a racewit check report (no \"version\")"),
    }
    for (i, w) in warnings.iter().enumerate() {
        match w["verdict"].as_str() {
            Some("confirmed" | "unconfirmed") => {}
            other => bail!(
                "warning {} ({}): verdict {} is neither \"confirmed\" nor \"unconfirmed\"",
                i + 1,
                w["id"].as_str().unwrap_or("no id"),
                other.map_or("missing".to_string(), |v| format!("{v:?}"))
            ),
        }
    }
    let mut rows: Vec<(Rank, &Value)> = warnings.iter().map(|w| (rank(w), w)).collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    for (i, (r, w)) in rows.iter().enumerate() {
        let file = w["write"]["file"].as_str().unwrap_or("?");
        let line = w["write"]["line"].as_u64().unwrap_or(0);
        // Names from the code (files, modules, atoms) may hold control
        // characters: escaped, each field on its own.
        let shown = |t: &str| visible(t).into_owned();
        out.push_str(&format!(
            "{:>3}. {}  {}:{}  {}\n     {}\n",
            i + 1,
            shown(&r.id),
            shown(file),
            line,
            shown(w["resource"]["display"].as_str().unwrap_or("")),
            shown(&why(w, r))
        ));
        if let Some(p) = w["witness"].as_str() {
            out.push_str(&format!("     replay: racewit replay {}\n", shown(p)));
        }
    }
    let confirmed = rows.iter().filter(|(r, _)| !r.unconfirmed).count();
    out.push_str(&format!(
        "{} warning(s), {confirmed} confirmed\n",
        rows.len()
    ));
    Ok(out)
}

pub fn run(args: Args) -> Result<Outcome> {
    let path = args.report.unwrap_or_else(|| args.out.join("report.json"));
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "reading {} (run `racewit check` first, or name a report)",
            path.display()
        )
    })?;
    let report: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let table = render(&report).with_context(|| format!("reading {}", path.display()))?;
    std::io::stdout().lock().write_all(table.as_bytes())?;
    let any_confirmed = report["warnings"].as_array().is_some_and(|ws| {
        ws.iter()
            .any(|w| w["verdict"].as_str() == Some("confirmed"))
    });
    Ok(if any_confirmed {
        Outcome::RacesFound
    } else {
        Outcome::Clean
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(version: u64, verdict: &str) -> Value {
        serde_json::json!({
            "version": version,
            "warnings": [{"id": "R001:m:1:2", "verdict": verdict, "write": {"file": "m.erl", "line": 2}}]
        })
    }

    #[test]
    fn reports_of_another_version_or_with_unknown_verdicts_are_refused() {
        let v = u64::from(crate::report::json::REPORT_VERSION);
        assert!(render(&report(v, "confirmed")).is_ok());
        let e = render(&report(7, "confirmed")).unwrap_err().to_string();
        assert!(e.contains("report version 7"), "{e}");
        let e = render(&report(v, "bogus")).unwrap_err().to_string();
        assert!(e.contains("verdict \"bogus\""), "{e}");
        let e = render(&serde_json::json!({"warnings": []}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no \"version\""), "{e}");
    }
}
