//! A witness as SARIF code flows. The witness is the run of racewit's
//! single-threaded VM that interleaves the processes, so it is given twice:
//!
//! 1. one code flow with one thread flow, `interleaving`: every step in your
//!    code, in the order the VM ran them. Viewers (GitHub code scanning's
//!    "Show paths", the VS Code SARIF viewer) show a code flow's first thread
//!    flow, so this is the one a reader steps through.
//! 2. one code flow with a thread flow per Erlang process (`P1.1`, `P1.2`),
//!    whose steps carry `executionOrder`, the step number in the witness:
//!    SARIF's own model of concurrent threads.
//!
//! Steps in racewit's generated harness are left out (that code exists only
//! in memory). The race's three steps are `essential`, the others `important`.

use serde_json::{Value, json};

use racewit_confirm::witness::{Witness, WitnessEvent};

use super::limits::{MAX_THREAD_FLOW_LOCATIONS, keep_within};
use super::location::Locator;

/// The witness role's words, numbered as in the human report.
pub fn role_words(role: &str) -> Option<(u8, &'static str)> {
    match role {
        "read" => Some((1, "read")),
        "interfering_write" => Some((2, "another process writes")),
        "stale_write" => Some((3, "stale write")),
        _ => None,
    }
}

struct Step<'w> {
    event: &'w WitnessEvent,
    location: Value,
    essential: bool,
}

fn step_location(loc: &Locator<'_>, e: &WitnessEvent) -> Option<Value> {
    let mut message = format!("step {}: {} {}", e.step, e.process, e.text);
    if e.preemption {
        message.push_str(" (preempts)");
    }
    if let Some((n, words)) = e.role.as_deref().and_then(role_words) {
        message.push_str(&format!(" <- ({n}) {words}"));
    }
    match e.span {
        Some(span) => loc.span(span, Some(&message)),
        None => loc.point(
            e.file.as_deref()?,
            e.line?,
            e.column.unwrap_or(1),
            Some(&message),
        ),
    }
}

fn thread_flow_location(s: &Step<'_>) -> Value {
    json!({
        "location": s.location,
        "executionOrder": s.event.step,
        "importance": if s.essential { "essential" } else { "important" },
    })
}

/// The code flows of a witness, or `None` when no step is in the user's code.
pub fn code_flows(loc: &Locator<'_>, w: &Witness, replay: Option<&str>) -> Option<Value> {
    let steps: Vec<Step<'_>> = w
        .trace
        .iter()
        .filter_map(|e| {
            Some(Step {
                event: e,
                location: step_location(loc, e)?,
                essential: e.role.is_some(),
            })
        })
        .collect();
    // GitHub shows at most 1,000 steps of a thread flow: keep the race's own
    // steps, then the earliest others.
    let (steps, _) = keep_within(steps, MAX_THREAD_FLOW_LOCATIONS, |s| !s.essential);
    if steps.is_empty() {
        return None;
    }
    let replay_note = replay
        .map(|p| format!(" Replay it with `racewit replay {p}`."))
        .unwrap_or_default();
    let interleaving = json!({
        "message": {
            "text": format!(
                "The witness: the steps in your code, in the order racewit's VM ran them ({} steps in all).{replay_note}",
                w.trace.len()
            )
        },
        "threadFlows": [{
            "id": "interleaving",
            "message": { "text": "All processes, one step at a time." },
            "locations": steps.iter().map(thread_flow_location).collect::<Vec<_>>()
        }]
    });
    // Processes in order of their first step.
    let mut processes: Vec<&str> = Vec::new();
    for s in &steps {
        if !processes.contains(&s.event.process.as_str()) {
            processes.push(&s.event.process);
        }
    }
    let per_process: Vec<Value> = processes
        .iter()
        .map(|p| {
            json!({
                "id": p,
                "message": { "text": format!("Erlang process {p}") },
                "locations": steps
                    .iter()
                    .filter(|s| s.event.process == *p)
                    .map(thread_flow_location)
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let by_process = json!({
        "message": { "text": "The witness, one thread flow per Erlang process; executionOrder is the step number." },
        "threadFlows": per_process
    });
    Some(json!([interleaving, by_process]))
}
