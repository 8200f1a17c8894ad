//! SARIF 2.1.0 for code scanning (GitHub accepts it): one rule per category,
//! the write as the result's location, the read and the path as related
//! locations, and a code flow with the witness's order of events.

use serde_json::{Value, json};

use racewit_confirm::confirmation::Confirmation;
use racewit_confirm::verdict::Status;
use racewit_static::{Category, Suspect};

fn rule(c: Category) -> Value {
    let (name, text) = match c {
        Category::Registry => (
            "RegistryRace",
            "A registered name is checked, then registered, with a gap another process can use.",
        ),
        Category::Ets => (
            "EtsLostUpdate",
            "An ETS entry is read, then written from the stale value, with a gap another process can use.",
        ),
        Category::Mnesia => (
            "MnesiaDirtyRace",
            "A mnesia record is read and written with dirty operations instead of a transaction.",
        ),
        Category::SpawnRegister => (
            "SpawnRegisterRace",
            "A spawned process is registered after it may already have exited.",
        ),
        Category::Global => (
            "GlobalNameRace",
            "A global name is looked up, then registered, with a gap another process can use.",
        ),
        Category::PersistentTerm => (
            "PersistentTermRace",
            "A persistent term is read, then written from the stale value.",
        ),
    };
    json!({
        "id": c.code(),
        "name": name,
        "shortDescription": { "text": text },
        "defaultConfiguration": { "level": "warning" },
        "properties": { "category": c.as_str() }
    })
}

fn location(file: &str, line: u32, column: u32, message: Option<&str>) -> Value {
    let mut loc = json!({
        "physicalLocation": {
            "artifactLocation": { "uri": file.replace('\\', "/") },
            "region": { "startLine": line, "startColumn": column }
        }
    });
    if let Some(m) = message {
        loc["message"] = json!({ "text": m });
    }
    loc
}

fn result(s: &Suspect, c: Option<&Confirmation>) -> Value {
    let mut related = vec![location(
        &s.read.file,
        s.read.line,
        s.read.column,
        Some(&format!("read: {}", s.read.call)),
    )];
    for h in &s.path {
        related.push(location(&h.file, h.line, h.column, Some(&h.function)));
    }
    for (i, r) in related.iter_mut().enumerate() {
        r["id"] = json!(i);
    }
    let (level, verdict) = match c.map(|c| c.verdict.status) {
        Some(Status::Confirmed) => ("error", "confirmed"),
        Some(Status::Unconfirmed) => ("warning", "unconfirmed"),
        None => ("warning", "suspect"),
    };
    let mut message = s.message.clone();
    if let Some(c) = c {
        message.push_str(&format!(" [{}]", crate::report::human::verdict_line(c)));
    }
    let mut res = json!({
        "ruleId": s.code,
        "level": level,
        "message": { "text": message },
        "locations": [location(&s.write.file, s.write.line, s.write.column, None)],
        "relatedLocations": related,
        "partialFingerprints": { "racewitSuspect/v1": s.id },
        "properties": { "verdict": verdict, "resource": s.resource.display }
    });
    if let Some(w) = c.and_then(|c| c.witness.as_ref()) {
        let steps: Vec<Value> = w
            .trace
            .iter()
            .filter(|e| e.role.is_some())
            .filter_map(|e| {
                Some(json!({
                    "location": location(e.file.as_deref()?, e.line?, e.column?, Some(&format!("{} {}", e.process, e.text)))
                }))
            })
            .collect();
        if !steps.is_empty() {
            res["codeFlows"] = json!([{ "threadFlows": [{ "locations": steps }] }]);
        }
    }
    res
}

/// A SARIF log of suspects, with verdicts when confirmation ran.
pub fn log(suspects: &[Suspect], confirmations: Option<&[Confirmation]>) -> Value {
    let results: Vec<Value> = match confirmations {
        Some(cs) => cs.iter().map(|c| result(&c.suspect, Some(c))).collect(),
        None => suspects.iter().map(|s| result(s, None)).collect(),
    };
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "racewit",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": Category::ALL.iter().map(|&c| rule(c)).collect::<Vec<_>>()
                }
            },
            "results": results
        }]
    })
}
