//! The end of every suspect: CONFIRMED with a witness, or UNCONFIRMED with
//! exactly what was tried and why the search stopped.

use serde::{Deserialize, Serialize};

/// Confirmed or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Confirmed,
    Unconfirmed,
}

/// What the race did in the witness execution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Consequence {
    /// A process crashed (e.g. the second `register` raised `badarg`).
    Crash { process: String, reason: String },
    /// The final shared state is one no schedule without preemptions produces
    /// (a lost update).
    NonSerializable {
        observed: String,
        serial_outcomes: usize,
    },
    /// Processes blocked forever.
    Stuck { processes: Vec<String> },
    /// The interleaving happens but does no visible harm.
    None,
}

impl Consequence {
    pub fn kind(&self) -> &'static str {
        match self {
            Consequence::Crash { .. } => "crash",
            Consequence::NonSerializable { .. } => "non_serializable",
            Consequence::Stuck { .. } => "stuck",
            Consequence::None => "none",
        }
    }

    /// Severity rank for triage: lower is worse.
    pub fn rank(&self) -> u8 {
        match self {
            Consequence::Crash { .. } => 0,
            Consequence::NonSerializable { .. } => 1,
            Consequence::Stuck { .. } => 2,
            Consequence::None => 3,
        }
    }
}

/// Why a search ended without confirming.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UnconfirmedReason {
    /// Every schedule within the preemption bound was explored.
    BoundExhausted,
    /// Every interleaving was explored, up to equivalence: the bound was
    /// not needed.
    AllExhausted,
    /// The interleaving budget ran out first.
    Budget { interleavings: u64 },
    /// The harness could not be built.
    NoHarness { why: String },
    /// A process stopped at a call the VM cannot run.
    Unsupported { call: String },
    /// The harness itself crashed before the race could happen.
    HarnessCrashed { process: String, reason: String },
    /// Runs were cut (step budget, VM error).
    RunsCut { why: String },
    /// The race happened (another process wrote the item between the read
    /// and the write) in `runs` runs, but the write then failed and the
    /// program handled the failure: no process crashed. `all`: every
    /// interleaving was explored.
    Handled { runs: u64, all: bool },
}

impl UnconfirmedReason {
    /// Whether the search behind this reason explored every interleaving.
    pub fn every_interleaving(&self) -> bool {
        matches!(
            self,
            UnconfirmedReason::AllExhausted | UnconfirmedReason::Handled { all: true, .. }
        )
    }

    /// The JSON `kind` of the reason, e.g. `bound_exhausted`.
    pub fn kind(&self) -> &'static str {
        match self {
            UnconfirmedReason::BoundExhausted => "bound_exhausted",
            UnconfirmedReason::AllExhausted => "all_exhausted",
            UnconfirmedReason::Budget { .. } => "budget",
            UnconfirmedReason::NoHarness { .. } => "no_harness",
            UnconfirmedReason::Unsupported { .. } => "unsupported",
            UnconfirmedReason::HarnessCrashed { .. } => "harness_crashed",
            UnconfirmedReason::RunsCut { .. } => "runs_cut",
            UnconfirmedReason::Handled { .. } => "handled",
        }
    }
}

impl std::fmt::Display for UnconfirmedReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnconfirmedReason::BoundExhausted => {
                write!(f, "every schedule within the bound was explored")
            }
            UnconfirmedReason::AllExhausted => {
                write!(
                    f,
                    "every interleaving was explored (up to equivalence; no bound was needed)"
                )
            }
            UnconfirmedReason::Budget { interleavings } => {
                write!(
                    f,
                    "stopped after {interleavings} interleavings (budget); the space was not exhausted"
                )
            }
            UnconfirmedReason::NoHarness { why } => write!(
                f,
                "no harness could be built: {why}; to test it, export a function that \
                 runs the code concurrently and pass it with --entry mod:fun/0"
            ),
            UnconfirmedReason::Unsupported { call } => {
                write!(f, "stopped at unsupported call {call}")
            }
            UnconfirmedReason::HarnessCrashed { process, reason } => {
                write!(
                    f,
                    "the harness crashed before the race: {process} exited with {reason}; \
                     to test it, export a function that sets the code up and calls it \
                     concurrently, and pass it with --entry mod:fun/0"
                )
            }
            UnconfirmedReason::RunsCut { why } => write!(f, "runs were cut: {why}"),
            UnconfirmedReason::Handled { runs, .. } => write!(
                f,
                "the race happens ({runs} {}), but the stale write fails and the program handles the failure: no process crashed",
                if *runs == 1 { "run" } else { "runs" }
            ),
        }
    }
}

/// The verdict on one suspect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub status: Status,
    /// For confirmed races.
    pub consequence: Option<Consequence>,
    /// Preemption bound used.
    pub bound: u32,
    /// Worker processes in the harness.
    pub processes: usize,
    /// Completed runs explored (over every harness size tried).
    pub interleavings: u64,
    /// Whether the space within the bound was exhausted.
    pub exhausted: bool,
    /// Preemptions in the witness.
    pub preemptions: Option<u32>,
    /// Steps in the witness.
    pub witness_steps: Option<usize>,
    pub reason: Option<UnconfirmedReason>,
}
