//! Is the reduction sound on the VM? A program's every end state found by
//! plain exhaustive search (every schedule, no bound, no reduction: what
//! `racewit explore --reduction none` runs) must be found by source-DPOR
//! too, and the other way round. [`compare`] runs both on one program;
//! with [`crate::search::random_program`] it is run on thousands of
//! random programs (`cargo test -p racewit-confirm --test dpor_random`,
//! and `racewit-bench soundness`).
//!
//! An end state is what a run leaves that does not depend on how pids and
//! references happen to be numbered: for every process (by its stable
//! name) how it ended (the value its function returned, the reason it
//! exited, blocked, waiting, stopped at a call), and the shared state
//! (registered names, ETS tables and their objects), with every pid
//! printed as its process's name and every reference as `#Ref`. Crashes
//! and deadlocks are in it: a crash is a process that exited with a
//! reason, a deadlock processes blocked at the end.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;

use racewit_vm::{Pid, ProcStatus};

use crate::confirmation::{ConfirmOptions, start};
use crate::goal::Monitor;
use crate::search::random_program::RandomProgram;
use crate::search::{Reduction, StopReason, Strategy, Systematic};
use crate::system::{Observation, System};
use crate::vm_system::{Site, TimeoutPolicy, VmItem, VmSystem};

/// What one search found on a program.
#[derive(Clone, Debug, Default)]
pub struct Explored {
    /// Every end state, each as its canonical text.
    pub states: BTreeSet<String>,
    /// Runs completed.
    pub interleavings: u64,
    /// Runs DPOR's sleep sets cut (no end state).
    pub sleep_blocked: u64,
    /// Runs cut by the step limit or a VM error (none expected).
    pub cut_runs: u64,
    /// Whether the search went through its whole space.
    pub exhausted: bool,
    /// Why it stopped, as text.
    pub stop: String,
    /// The first cut's reason.
    pub first_error: Option<String>,
}

/// Plain search against DPOR on one program.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub program: RandomProgram,
    pub timeouts: TimeoutPolicy,
    /// Front-end errors (a generator bug): nothing was run.
    pub load_errors: Vec<String>,
    pub plain: Explored,
    pub dpor: Explored,
}

impl Comparison {
    /// Whether the plain search went through every schedule, run whole,
    /// so its end states are the program's (otherwise nothing is compared).
    pub fn complete(&self) -> bool {
        self.load_errors.is_empty() && self.plain.exhausted && self.plain.cut_runs == 0
    }

    /// Whether DPOR found exactly the end states plain search found, with
    /// every run whole.
    pub fn agrees(&self) -> bool {
        self.complete()
            && self.dpor.exhausted
            && self.dpor.cut_runs == 0
            && self.dpor.states == self.plain.states
    }

    /// The program and both sets of end states, for a mismatch to be turned
    /// into a regression case.
    pub fn report(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "program seed {} ({} processes, timeouts {:?}):\n{}\n",
            self.program.seed, self.program.processes, self.timeouts, self.program.source
        ));
        for e in &self.load_errors {
            out.push_str(&format!("load error: {e}\n"));
        }
        for (what, x) in [("plain search", &self.plain), ("DPOR", &self.dpor)] {
            out.push_str(&format!(
                "{what}: {} end states, {} interleavings, {} sleep-set blocked, {} cut ({}), stop {}\n",
                x.states.len(),
                x.interleavings,
                x.sleep_blocked,
                x.cut_runs,
                x.first_error.as_deref().unwrap_or("-"),
                x.stop
            ));
        }
        let only = |a: &Explored, b: &Explored| -> Vec<String> {
            a.states.difference(&b.states).cloned().collect()
        };
        for (what, states) in [
            ("only plain search found", only(&self.plain, &self.dpor)),
            ("only DPOR found", only(&self.dpor, &self.plain)),
        ] {
            if states.is_empty() {
                continue;
            }
            out.push_str(&format!("{what} ({}):\n", states.len()));
            for s in states {
                out.push_str(&indent(&s));
            }
        }
        out.push_str("end states plain search found:\n");
        for s in &self.plain.states {
            out.push_str(&indent(s));
        }
        out
    }
}

fn indent(s: &str) -> String {
    let mut out = String::new();
    for (i, line) in s.lines().enumerate() {
        out.push_str(if i == 0 { "  - " } else { "    " });
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Runs plain exhaustive search (at most `max_interleavings` runs) and
/// DPOR on `program` under the timeout policy, and collects their end
/// states.
pub fn compare(
    program: &RandomProgram,
    timeouts: TimeoutPolicy,
    max_interleavings: u64,
) -> Comparison {
    let loaded = Arc::new(racewit_syntax::load_source(
        &format!("{}.erl", program.module),
        &program.source,
    ));
    let load_errors: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == racewit_syntax::Severity::Error)
        .map(|d| format!("{d:?}"))
        .collect();
    let mut cmp = Comparison {
        program: program.clone(),
        timeouts,
        load_errors,
        plain: Explored::default(),
        dpor: Explored::default(),
    };
    if !cmp.load_errors.is_empty() {
        return cmp;
    }
    let opts = ConfirmOptions {
        timeouts,
        ..ConfirmOptions::default()
    };
    let image = racewit_vm::Image::new(loaded, &opts.vm);
    let sys = start(&image, &program.module, "main", &opts);
    cmp.plain = explore(&sys, Reduction::None, max_interleavings);
    if cmp.complete() {
        cmp.dpor = explore(&sys, Reduction::Dpor, max_interleavings);
    }
    cmp
}

/// Every end state one search reaches from `sys`.
pub fn explore(sys: &VmSystem, reduction: Reduction, max_interleavings: u64) -> Explored {
    let seen = EndStates::default();
    let out = Systematic {
        reduction,
        max_preemptions: u32::MAX,
        max_interleavings,
        max_run_steps: 2_000,
        stop_at_first: false,
        steer: false,
        cancel: None,
    }
    .search(sys, seen.clone());
    let states = seen.0.borrow().clone();
    Explored {
        states,
        interleavings: out.stats.interleavings,
        sleep_blocked: out.stats.sleep_blocked,
        cut_runs: out.stats.cut_runs,
        exhausted: matches!(out.stop, StopReason::Exhausted | StopReason::ExhaustedAll),
        stop: format!("{:?}", out.stop),
        first_error: out.stats.first_error,
    }
}

/// Collects the end state of every completed run.
#[derive(Clone, Default)]
struct EndStates(Rc<RefCell<BTreeSet<String>>>);

impl Monitor<VmSystem> for EndStates {
    fn observe(&mut self, _: &VmSystem, _: Pid, _: &Observation<VmItem, Site>, _: usize) {}

    fn hit(&self) -> bool {
        false
    }

    fn finish(&mut self, sys: &VmSystem) -> bool {
        self.0.borrow_mut().insert(end_state(sys));
        false
    }
}

/// The canonical text of a run's end state (see the module doc).
pub fn end_state(sys: &VmSystem) -> String {
    let vm = &sys.vm;
    let names: BTreeMap<u32, String> = vm
        .processes()
        .into_iter()
        .map(|p| (p.number(), sys.name(p)))
        .collect();
    let canon = |text: &str| crate::vm_system::canonical(text, &names);
    let mut procs: Vec<(String, String)> = vm
        .processes()
        .into_iter()
        .map(|p| {
            let how = match vm.process_status(p) {
                ProcStatus::Exited(reason) => match vm.process_result(p) {
                    Some(v) => format!("returned {}", canon(&vm.format_term(&v))),
                    None => format!("exited {}", canon(&vm.format_term(&reason))),
                },
                ProcStatus::Blocked => "blocked".to_string(),
                ProcStatus::Waiting { .. } => "waiting".to_string(),
                ProcStatus::Runnable => "runnable".to_string(),
                ProcStatus::Parked { call, .. } => format!("parked at {call}"),
            };
            (sys.name(p), how)
        })
        .collect();
    procs.sort();
    let mut out = String::new();
    for (name, how) in procs {
        out.push_str(&format!("{name} {how}\n"));
    }
    let mut shared: Vec<String> = canon(&vm.shared_state_digest())
        .lines()
        .map(str::to_string)
        .collect();
    shared.sort();
    for line in shared {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
