//! Run an entry function once under a plain round-robin schedule, as
//! `erl -noshell -eval 'io:format("~p~n", [mod:fun()])' -s init stop` would.
//!
//! Schedule model (close to the BEAM's for deterministic programs): a FIFO run
//! queue; the running process keeps going until it blocks, exits or uses its
//! quantum of reductions; spawned and woken processes join the queue's end.
//! A timeout fires only when nothing else can run (earliest deadline first),
//! advancing virtual time; a process parked at a call racewit cannot run
//! counts as able to run, so no timeout fires while one is. After the entry process ends, the other processes
//! run on until none can without a timeout.

use std::collections::VecDeque;
use std::sync::Arc;

use racewit_syntax::ir::Program;

use crate::bif::io::format as io_format;
use crate::event::Class;
use crate::library::{Libraries, ParkReason};
use crate::process::ProcStatus;
use crate::term::{Pid, Term};
use crate::vm::{Vm, VmConfig, VmError};

#[derive(Clone, Debug)]
pub struct RunConfig {
    pub max_reductions: u64,
    /// The run's memory budget in words (see [`crate::limits`]).
    pub max_memory_words: u64,
    /// Reductions a process runs before it is preempted.
    pub quantum: u64,
    /// Library code (OTP's own modules, dependencies) loaded by the caller.
    pub libraries: Arc<Libraries>,
    /// See [`VmConfig::hot_loop`].
    pub hot_loop: bool,
    /// Keep every step's event in [`RunOutcome::trace`].
    pub trace: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            max_reductions: 500_000_000,
            max_memory_words: VmConfig::default().max_memory_words,
            quantum: 4000,
            libraries: Libraries::none(),
            hot_loop: true,
            trace: false,
        }
    }
}

/// How the entry call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunResult {
    /// It returned this value; or the run halted (`erlang:halt/0,1,2`:
    /// [`RunOutcome::halted`]) and this is the status.
    Value(Term),
    /// It raised (class, reason).
    Crashed { class: Class, reason: Term },
    /// It stopped at a call it could not run (see [`ParkReason`]).
    Parked {
        call: String,
        location: String,
        reason: ParkReason,
    },
    /// It waits forever (no process can run).
    Deadlock,
    /// A limit of the run was reached: the reduction budget ran out, or the
    /// memory budget, the process limit or the atom limit
    /// ([`RunOutcome::stopped`] says which, where).
    BudgetExhausted,
}

#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub result: RunResult,
    /// Everything printed, in order, ending with the result line (the bytes
    /// erl prints for the same program).
    pub stdout: String,
    /// What processes printed, in order, with the printing process's name.
    pub output: Vec<(String, String)>,
    pub steps: u64,
    pub reductions: u64,
    /// Processes stopped at calls they could not run: (name, call, location, why).
    pub parked: Vec<(String, String, String, ParkReason)>,
    /// The entry process's stack trace when it crashed (`~p`).
    pub crash_stack: Option<String>,
    /// What `logger` captured: (process name, event), in order.
    pub log: Vec<(String, crate::world::LogEvent)>,
    /// Why the run stopped early, when a limit of the run was reached
    /// (`memory budget exceeded in P1.2 at m.erl:12 ...`).
    pub stopped: Option<String>,
    /// The status of `erlang:halt/0,1,2`, when a process halted the run:
    /// then nothing more is printed (as on the BEAM, where the node stops).
    pub halted: Option<Term>,
    /// Each step's event (`P1.2: text`), in order, when
    /// [`RunConfig::trace`] asked for them.
    pub trace: Vec<String>,
}

impl RunOutcome {
    /// The bytes erl writes for [`RunOutcome::stdout`] on a latin1 terminal
    /// (`LC_ALL=C`): characters below 256 as one byte, others as UTF-8.
    pub fn stdout_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.stdout.len());
        for c in self.stdout.chars() {
            if (c as u32) < 256 {
                out.push(c as u32 as u8);
            } else {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
        out
    }
}

/// Run `module:function()` once (see the module doc for the schedule).
pub fn run_entry(
    program: Arc<Program>,
    module: &str,
    function: &str,
    config: &RunConfig,
) -> RunOutcome {
    let vm_config = VmConfig {
        max_reductions: config.max_reductions,
        libraries: config.libraries.clone(),
        max_memory_words: config.max_memory_words,
        hot_loop: config.hot_loop,
        ..VmConfig::default()
    };
    let mut vm = Vm::new(program, vm_config);
    let mut trace = Vec::new();
    let main = vm.spawn_entry(module, function, Vec::new());
    let mut queue = RunQueue::default();
    let mut main_done_at: Option<usize> = None;
    let mut budget_out = false;
    let mut stopped: Option<VmError> = None;
    loop {
        if main_done_at.is_none() && vm.is_exited(main) {
            main_done_at = Some(vm.output().len());
        }
        queue.join(&mut vm, None);
        let Some(pid) = queue.pop() else {
            if main_done_at.is_some() {
                break;
            }
            // Nothing can run: fire the earliest timeout, if any. Not while
            // a process is parked at a call racewit cannot run: it would go
            // on in a real node, so time does not pass for the others (a
            // server's periodic tick would run on without end).
            if vm.any_parked() {
                break;
            }
            match vm.next_timeout() {
                Some(p) => {
                    queue.push(p);
                    continue;
                }
                None => break,
            }
        };
        let start = vm.reductions();
        loop {
            if !vm.can_step(pid) {
                break;
            }
            match vm.step(pid) {
                Ok(ev) => {
                    if config.trace {
                        trace.push(format!("{}: {}", vm.process_name(ev.pid), ev.text));
                    }
                    queue.join(&mut vm, Some(pid))
                }
                Err(e) => {
                    budget_out = true;
                    stopped = Some(e);
                    break;
                }
            }
            if main_done_at.is_none() && vm.is_exited(main) {
                main_done_at = Some(vm.output().len());
            }
            if !vm.is_runnable(pid) {
                break;
            }
            if vm.reductions() - start >= config.quantum {
                queue.push(pid);
                break;
            }
        }
        if budget_out {
            break;
        }
    }
    let mut outcome = finish(&vm, main, main_done_at, stopped);
    outcome.trace = trace;
    outcome
}

/// The run queue: FIFO, each process in it at most once.
#[derive(Default)]
struct RunQueue {
    queue: VecDeque<Pid>,
    queued: Vec<bool>,
    /// Room for the processes that woke up.
    woken: Vec<Pid>,
}

impl RunQueue {
    fn push(&mut self, pid: Pid) {
        let i = pid.0 as usize;
        if self.queued.len() <= i {
            self.queued.resize(i + 1, false);
        }
        if !self.queued[i] {
            self.queued[i] = true;
            self.queue.push_back(pid);
        }
    }

    fn pop(&mut self) -> Option<Pid> {
        let pid = self.queue.pop_front()?;
        self.queued[pid.0 as usize] = false;
        Some(pid)
    }

    /// Processes spawned or woken since the last look join the end of the
    /// queue, in the order they became ready (the running one goes on).
    fn join(&mut self, vm: &mut Vm, running: Option<Pid>) {
        let mut woken = std::mem::take(&mut self.woken);
        vm.take_woken(&mut woken);
        for p in woken.drain(..) {
            if Some(p) != running {
                self.push(p);
            }
        }
        self.woken = woken;
    }
}

fn finish(vm: &Vm, main: Pid, main_done_at: Option<usize>, stopped: Option<VmError>) -> RunOutcome {
    let halted = vm.halted().cloned();
    let result = if stopped.is_some() {
        RunResult::BudgetExhausted
    } else if let Some(status) = &halted {
        RunResult::Value(status.clone())
    } else {
        match vm.process_status(main) {
            ProcStatus::Exited(reason) => match vm.process_result(main) {
                Some(v) => RunResult::Value(v),
                None => match vm.process_crash(main) {
                    Some(exc) => RunResult::Crashed {
                        class: exc.class,
                        reason: exc.reason,
                    },
                    None => RunResult::Crashed {
                        class: Class::Exit,
                        reason,
                    },
                },
            },
            ProcStatus::Parked {
                call,
                location,
                reason,
            } => RunResult::Parked {
                call,
                location,
                reason,
            },
            _ => RunResult::Deadlock,
        }
    };
    let line = match &result {
        // The node stops: the entry's value is never printed.
        _ if halted.is_some() => String::new(),
        RunResult::Value(v) => io_format("~p~n", std::slice::from_ref(v)).unwrap_or_default(),
        RunResult::Crashed { class, reason } => {
            let c = Term::atom(match class {
                Class::Error => "error",
                Class::Exit => "exit",
                Class::Throw => "throw",
            });
            io_format("CRASH ~p:~p~n", &[c, reason.clone()]).unwrap_or_default()
        }
        RunResult::Parked {
            call,
            location,
            reason,
        } => {
            format!(
                "racewit: stopped at {} ({location})\n",
                reason.describe(call)
            )
        }
        RunResult::Deadlock => {
            let parked: Vec<String> = vm
                .processes()
                .into_iter()
                .filter_map(|p| match vm.process_status(p) {
                    ProcStatus::Parked {
                        call,
                        location,
                        reason,
                    } => Some(format!(
                        "{} stopped at {} ({location})",
                        vm.process_name(p),
                        reason.describe(&call)
                    )),
                    _ => None,
                })
                .collect();
            if parked.is_empty() {
                "racewit: the entry process waits forever (deadlock)\n".into()
            } else {
                format!(
                    "racewit: the entry process waits forever; {}\n",
                    parked.join("; ")
                )
            }
        }
        RunResult::BudgetExhausted => match &stopped {
            Some(VmError::BudgetExhausted { .. }) | None => "racewit: budget exhausted\n".into(),
            Some(e) => format!("racewit: {e}\n"),
        },
    };
    let outputs = vm.output();
    let split = main_done_at.unwrap_or(outputs.len()).min(outputs.len());
    let mut stdout = String::new();
    for (_, s) in &outputs[..split] {
        stdout.push_str(s);
    }
    stdout.push_str(&line);
    for (_, s) in &outputs[split..] {
        stdout.push_str(s);
    }
    let parked = vm
        .processes()
        .into_iter()
        .filter_map(|p| match vm.process_status(p) {
            ProcStatus::Parked {
                call,
                location,
                reason,
            } => Some((vm.process_name(p).to_string(), call, location, reason)),
            _ => None,
        })
        .collect();
    RunOutcome {
        result,
        stdout,
        output: outputs
            .iter()
            .map(|(p, s)| (vm.process_name(*p).to_string(), s.clone()))
            .collect(),
        steps: vm.steps(),
        crash_stack: vm
            .process_crash(main)
            .map(|e| crate::format::print_term(&e.stack)),
        reductions: vm.reductions(),
        parked,
        log: vm
            .log()
            .iter()
            .map(|e| (vm.process_name(e.pid).to_string(), e.clone()))
            .collect(),
        stopped: stopped.map(|e| e.to_string()),
        halted,
        trace: Vec::new(),
    }
}
