//! Run an entry function once under a plain round-robin schedule, as
//! `erl -noshell -eval 'io:format("~p~n", [mod:fun()])' -s init stop` would.
//!
//! Schedule model (close to the BEAM's for deterministic programs): a FIFO run
//! queue; the running process keeps going until it blocks, exits or uses its
//! quantum of reductions; spawned and woken processes join the queue's end.
//! A timeout fires only when nothing else can run (earliest deadline first),
//! advancing virtual time. After the entry process ends, the other processes
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
    /// Reductions a process runs before it is preempted.
    pub quantum: u64,
    /// Library code (OTP's own modules, dependencies) loaded by the caller.
    pub libraries: Arc<Libraries>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            max_reductions: 500_000_000,
            quantum: 4000,
            libraries: Libraries::none(),
        }
    }
}

/// How the entry call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunResult {
    /// It returned this value.
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
    /// The reduction budget ran out.
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
        ..VmConfig::default()
    };
    let mut vm = Vm::new(program, vm_config);
    let main = vm.spawn_entry(module, function, Vec::new());
    let mut queue: VecDeque<Pid> = VecDeque::from([main]);
    let mut main_done_at: Option<usize> = None;
    let mut budget_out = false;
    loop {
        if main_done_at.is_none() && vm.is_exited(main) {
            main_done_at = Some(vm.output().len());
        }
        let Some(pid) = queue.pop_front() else {
            if main_done_at.is_some() {
                break;
            }
            // Nothing can run: fire the earliest timeout, if any.
            let next = vm
                .processes()
                .into_iter()
                .filter_map(|p| match vm.process_status(p) {
                    ProcStatus::Waiting { deadline } => Some((deadline, p)),
                    _ => None,
                })
                .min();
            match next {
                Some((_, p)) => {
                    queue.push_back(p);
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
                    use crate::event::EventKind as K;
                    if matches!(
                        ev.kind,
                        K::Send
                            | K::Spawn
                            | K::Exit
                            | K::Link
                            | K::Monitor
                            | K::Ets
                            | K::Local
                            | K::Parked
                    ) {
                        enqueue_new(&vm, &mut queue, pid);
                    }
                }
                Err(VmError::BudgetExhausted(_)) => {
                    budget_out = true;
                    break;
                }
                Err(_) => break,
            }
            if main_done_at.is_none() && vm.is_exited(main) {
                main_done_at = Some(vm.output().len());
            }
            if !vm.is_runnable(pid) {
                break;
            }
            if vm.reductions() - start >= config.quantum {
                queue.push_back(pid);
                break;
            }
        }
        if budget_out {
            break;
        }
        enqueue_new(&vm, &mut queue, pid);
    }
    finish(&vm, main, main_done_at, budget_out)
}

fn enqueue_new(vm: &Vm, queue: &mut VecDeque<Pid>, current: Pid) {
    for p in vm.runnable_without_timeout() {
        if p != current && !queue.contains(&p) {
            queue.push_back(p);
        }
    }
}

fn finish(vm: &Vm, main: Pid, main_done_at: Option<usize>, budget_out: bool) -> RunOutcome {
    let result = if budget_out {
        RunResult::BudgetExhausted
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
        RunResult::BudgetExhausted => "racewit: budget exhausted\n".into(),
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
    }
}
