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
///
/// Only [`AllExhausted`](UnconfirmedReason::AllExhausted),
/// [`BoundExhausted`](UnconfirmedReason::BoundExhausted) and a
/// [`Handled`](UnconfirmedReason::Handled) with `all` claim that a space was
/// explored, and only when every run ran whole (none cut, none stopped at an
/// unsupported call) and the runs executed the suspect's read and then its
/// write: a search that never got there says nothing of the race.
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
    /// The only harness that could be built would call `entry` from several
    /// processes at once, but the program only ever calls it from one
    /// serialising context (`why`): that concurrency would be invented.
    Serialised { entry: String, why: String },
    /// The read or the write lies in `module`, part of `application`, which
    /// racewit models instead of running (its API calls are built-ins of
    /// the VM), and every function that reaches the read is the
    /// application's own: its processes never run, so no harness can drive
    /// the race.
    Modelled { module: String, application: String },
    /// A process stopped at a call the VM cannot run, in `runs` of the `of`
    /// runs explored (0 of 0: seen in the probe run only).
    Unsupported {
        call: String,
        #[serde(default)]
        runs: u64,
        #[serde(default)]
        of: u64,
        /// Why it stopped there (none: an unsupported call).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cause: Option<crate::system::ParkCause>,
        /// The process that stopped there when it stopped the harness's
        /// setup (the root waiting on it for ever): no worker ever ran,
        /// and this context was not searched.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setup: Option<String>,
    },
    /// The harness itself crashed before the race could happen.
    HarnessCrashed {
        process: String,
        reason: String,
        /// When the crash is a call on a module name the harness made up
        /// for an argument (`undef`): that, in words. Such a crash says
        /// nothing of the program, only that the harness had no value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        made_up: Option<String>,
        /// The harnesses that were tried, in order (`API: 2 concurrent
        /// calls of m:f/1`, `test m:t/0`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tried: Vec<String>,
    },
    /// Runs were cut (step budget, VM error): `runs` of the `of` runs begun.
    RunsCut {
        why: String,
        #[serde(default)]
        runs: u64,
        #[serde(default)]
        of: u64,
    },
    /// The explored runs never executed the suspect's read, or never
    /// executed its write after the read: they say nothing of the race.
    NotReached {
        /// `read` or `write`: the first milestone no run reached.
        milestone: Milestone,
        /// Where it is: `cache.erl:41`.
        at: String,
        /// The call there: `ets:insert/2`.
        call: String,
        /// Runs explored (completed) without reaching it.
        runs: u64,
        /// What the runs did instead, from the first run.
        detail: String,
    },
    /// The race happened (another process wrote the item between the read
    /// and the write) in `runs` runs, but the write then failed and no
    /// process crashed. `all`: every interleaving was explored. `returned`:
    /// when the process whose write failed was a worker that returned, what
    /// it returned and what the program's callers of its function make of
    /// it (they take it; none in the program; not judged).
    Handled {
        runs: u64,
        all: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        returned: Option<String>,
    },
    /// The search was stopped because racewit held more memory than allowed
    /// (`--max-memory`).
    MemoryBudget {
        limit_bytes: u64,
        interleavings: u64,
    },
    /// The search was stopped because the suspect took longer than allowed
    /// (`--timeout`).
    TimeBudget { seconds: u64, interleavings: u64 },
    /// The context's search was stopped after the work one context may do
    /// (`--max-context-reductions`); the suspect's next context ran.
    ContextBudget { reductions: u64, interleavings: u64 },
}

/// A point on the suspect's path that explored runs must reach before a
/// space can be called explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Milestone {
    Read,
    Write,
}

impl UnconfirmedReason {
    /// Whether the search behind this reason explored every interleaving.
    pub fn every_interleaving(&self) -> bool {
        matches!(
            self,
            UnconfirmedReason::AllExhausted | UnconfirmedReason::Handled { all: true, .. }
        )
    }

    /// Whether the reason claims a space was explored whole: every
    /// interleaving, or every schedule within the bound.
    pub fn explored(&self) -> bool {
        self.every_interleaving() || matches!(self, UnconfirmedReason::BoundExhausted)
    }

    /// Whether this reason reports on a search within the preemption bound
    /// that ran (explored, ran out of budget, or saw the race handled), as
    /// opposed to one that could not say anything of the race.
    pub fn searched(&self) -> bool {
        matches!(
            self,
            UnconfirmedReason::AllExhausted
                | UnconfirmedReason::BoundExhausted
                | UnconfirmedReason::Budget { .. }
                | UnconfirmedReason::Handled { .. }
        )
    }

    /// The JSON `kind` of the reason, e.g. `bound_exhausted`.
    pub fn kind(&self) -> &'static str {
        match self {
            UnconfirmedReason::BoundExhausted => "bound_exhausted",
            UnconfirmedReason::AllExhausted => "all_exhausted",
            UnconfirmedReason::Budget { .. } => "budget",
            UnconfirmedReason::NoHarness { .. } => "no_harness",
            UnconfirmedReason::Serialised { .. } => "serialised",
            UnconfirmedReason::Modelled { .. } => "modelled",
            UnconfirmedReason::Unsupported { .. } => "unsupported",
            UnconfirmedReason::HarnessCrashed { .. } => "harness_crashed",
            UnconfirmedReason::RunsCut { .. } => "runs_cut",
            UnconfirmedReason::NotReached { .. } => "not_reached",
            UnconfirmedReason::Handled { .. } => "handled",
            UnconfirmedReason::MemoryBudget { .. } => "memory_budget",
            UnconfirmedReason::TimeBudget { .. } => "time_budget",
            UnconfirmedReason::ContextBudget { .. } => "context_budget",
        }
    }
}

fn of_runs(runs: u64, of: u64) -> String {
    if of == 0 {
        String::new()
    } else {
        format!(
            " in {runs} of {of} {}",
            if of == 1 { "run" } else { "runs" }
        )
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
            UnconfirmedReason::Serialised { entry, why } => write!(
                f,
                "serialised: the program only calls {entry} {why}, so two calls never \
                 overlap; a harness calling it from several processes would invent the \
                 race (drive it through a test or an --entry that starts the program \
                 as it really runs)"
            ),
            UnconfirmedReason::Modelled {
                module,
                application,
            } => write!(
                f,
                "modelled: {module} is part of {application}, which racewit models instead \
                 of running (its API calls are built-ins of the VM): {application}'s own \
                 processes never run, so this race inside {application}'s implementation \
                 cannot be driven; racewit checks code that uses {application}, not \
                 {application} itself (leave its source out of the paths checked, or check \
                 it with its own test suites on a real node)"
            ),
            UnconfirmedReason::Unsupported {
                call,
                cause,
                setup: Some(process),
                ..
            } => {
                write!(
                    f,
                    "the harness's setup never ended: {process} stopped at {} and the setup \
                     waits on it, so no worker ever ran and nothing of the race was explored",
                    cause
                        .unwrap_or(crate::system::ParkCause::Unsupported)
                        .describe(call),
                )
            }
            UnconfirmedReason::Unsupported {
                call,
                runs,
                of,
                cause,
                setup: None,
            } => {
                write!(
                    f,
                    "stopped at {}{}; those runs show only part of the program, so nothing \
                     was explored whole",
                    cause
                        .unwrap_or(crate::system::ParkCause::Unsupported)
                        .describe(call),
                    of_runs(*runs, *of)
                )
            }
            UnconfirmedReason::HarnessCrashed {
                process,
                reason,
                made_up,
                tried,
            } => {
                write!(
                    f,
                    "the harness crashed before the race: {process} exited with {reason}"
                )?;
                if let Some(made_up) = made_up {
                    write!(f, "; {made_up}")?;
                }
                if !tried.is_empty() {
                    write!(f, " (tried: {})", tried.join("; "))?;
                }
                write!(
                    f,
                    "; to test it, export a function that sets the code up and calls it \
                     concurrently, and pass it with --entry mod:fun/0"
                )
            }
            UnconfirmedReason::RunsCut { why, runs, of } => {
                if *of == 0 {
                    write!(f, "runs were cut: {why}")
                } else {
                    write!(f, "{runs} of {of} runs were cut: {why}")
                }
            }
            UnconfirmedReason::NotReached {
                milestone,
                at,
                call,
                runs,
                detail,
            } => {
                let what = match milestone {
                    Milestone::Read => "read",
                    Milestone::Write => "write",
                };
                let after = match milestone {
                    Milestone::Read => "",
                    Milestone::Write => " after the read",
                };
                write!(
                    f,
                    "not reached: the {what} at {at} ({call}) was never executed{after} in \
                     the {runs} {} explored, so they say nothing of the race; {detail}",
                    if *runs == 1 { "run" } else { "runs" }
                )
            }
            UnconfirmedReason::Handled {
                runs,
                returned: None,
                ..
            } => write!(
                f,
                "the race happens ({runs} {}), but the stale write fails and the program handles the failure: no process crashed",
                if *runs == 1 { "run" } else { "runs" }
            ),
            UnconfirmedReason::Handled {
                runs,
                returned: Some(returned),
                ..
            } => write!(
                f,
                "the race happens ({runs} {}), but the stale write fails and no process crashed: {returned}",
                if *runs == 1 { "run" } else { "runs" }
            ),
            UnconfirmedReason::MemoryBudget {
                limit_bytes,
                interleavings,
            } => write!(
                f,
                "stopped after {interleavings} interleavings: racewit held more than its memory \
                 budget of {} MB (--max-memory); the space was not exhausted",
                limit_bytes >> 20
            ),
            UnconfirmedReason::TimeBudget {
                seconds,
                interleavings,
            } => write!(
                f,
                "stopped after {interleavings} interleavings: the suspect took longer than \
                 {seconds} s (--timeout); the space was not exhausted"
            ),
            UnconfirmedReason::ContextBudget {
                reductions,
                interleavings,
            } => write!(
                f,
                "stopped after {interleavings} interleavings: the context ran the {} \
                 reductions one context may run (--max-context-reductions); the space was not \
                 exhausted",
                racewit_vm::limits::thousands(*reductions)
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
    /// Completed runs (over every harness tried) that executed the
    /// suspect's read, and that then executed its write: a space is called
    /// explored only when the second is not zero.
    #[serde(default)]
    pub reached: Reached,
    /// What ran to reach the verdict: a test (as it is or amplified), an
    /// entry, or the API from generated worker processes.
    #[serde(default)]
    pub context: crate::harness::Context,
    /// Steps of the harness's setup (booting an application, making a
    /// table, creating the object raced on), run once in one fixed order
    /// before the search: its claims cover the interleavings after them,
    /// and a witness replays them first. Zero when the harness had none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub setup_steps: usize,
    /// For a race confirmed with no visible harm: what stopped the search
    /// for an interleaving in which it does harm before that search was
    /// done. `None` when every search for harm ran to its end (its bound),
    /// so "no visible harm" then covers what was searched; when set, a
    /// harmful interleaving may exist and the verdict says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harm_cut: Option<HarmCut>,
}

/// What cut a search for a harmful interleaving short.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cap", rename_all = "snake_case")]
pub enum HarmCut {
    /// The interleaving budget (`--max-interleavings`) was spent.
    Interleavings,
    /// The context ran the reductions it may run (`--max-context-reductions`).
    Work { reductions: u64 },
    /// The suspect took longer than `--timeout`.
    Time { seconds: u64 },
    /// racewit held more than `--max-memory`.
    Memory { limit_bytes: u64 },
}

impl HarmCut {
    /// Which of two cuts a verdict names: a cap on the whole suspect (time,
    /// memory) says more than one context's budget.
    fn rank(&self) -> u8 {
        match self {
            HarmCut::Interleavings => 0,
            HarmCut::Work { .. } => 1,
            HarmCut::Time { .. } => 2,
            HarmCut::Memory { .. } => 3,
        }
    }

    /// Keeps the cut that says more of `self` and `other`.
    pub fn merge(this: Option<HarmCut>, other: HarmCut) -> HarmCut {
        match this {
            Some(this) if this.rank() >= other.rank() => this,
            _ => other,
        }
    }
}

impl std::fmt::Display for HarmCut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let by = match self {
            HarmCut::Interleavings => {
                "at the interleaving budget (--max-interleavings)".to_string()
            }
            HarmCut::Work { reductions } => format!(
                "when the context ran the {} reductions one context may run \
                 (--max-context-reductions)",
                racewit_vm::limits::thousands(*reductions)
            ),
            HarmCut::Time { seconds } => {
                format!("when the suspect took longer than {seconds} s (--timeout)")
            }
            HarmCut::Memory { limit_bytes } => format!(
                "when racewit held more than its memory budget of {} MB (--max-memory)",
                limit_bytes >> 20
            ),
        };
        write!(
            f,
            "the search for an interleaving that does harm was cut {by}; one may exist"
        )
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Verdict {
    /// What a claim about the explored space leaves out: the setup, run
    /// once in one fixed order (empty when there was none).
    pub fn setup_clause(&self) -> String {
        match self.setup_steps {
            0 => String::new(),
            n => format!(
                ", after a setup of {n} step{} run once in one fixed order",
                if n == 1 { "" } else { "s" }
            ),
        }
    }
}

/// How many completed runs reached the suspect's read and its write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reached {
    pub read: u64,
    pub write: u64,
}
