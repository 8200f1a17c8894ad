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
    /// Also load OTP's pure-Erlang library modules ([`OTP_LIBRARY_MODULES`])
    /// from an installed OTP, when one is found.
    pub otp_libraries: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            max_reductions: 500_000_000,
            max_memory_words: VmConfig::default().max_memory_words,
            quantum: 4000,
            otp_libraries: true,
        }
    }
}

/// OTP stdlib modules that run unchanged on racewit's VM (pure Erlang).
pub const OTP_LIBRARY_MODULES: &[&str] = &[
    "lists",
    "proplists",
    "orddict",
    "ordsets",
    "queue",
    "sets",
    "dict",
    "gb_trees",
    "gb_sets",
    "array",
    "calendar",
    "string",
    "unicode_util",
    "base64",
];

/// The stdlib source directory of an installed OTP (`$RACEWIT_OTP_ROOT` or `/usr/lib/erlang`).
pub fn otp_stdlib_src() -> Option<std::path::PathBuf> {
    let root = std::env::var_os("RACEWIT_OTP_ROOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from("/usr/lib/erlang"));
    let lib = root.join("lib");
    let mut dirs: Vec<_> = std::fs::read_dir(&lib)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n == "stdlib" || n.starts_with("stdlib-"))
        })
        .collect();
    dirs.sort();
    dirs.pop().map(|d| d.join("src")).filter(|d| d.is_dir())
}

/// Names of every module of the installed OTP (from its `ebin` directories).
pub fn otp_module_names() -> Option<Arc<std::collections::BTreeSet<String>>> {
    static NAMES: std::sync::OnceLock<Option<Arc<std::collections::BTreeSet<String>>>> =
        std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            let lib = otp_stdlib_src()?.parent()?.parent()?.to_path_buf();
            let mut names = std::collections::BTreeSet::new();
            for app in std::fs::read_dir(&lib).ok()?.filter_map(|e| e.ok()) {
                let ebin = app.path().join("ebin");
                let Ok(entries) = std::fs::read_dir(&ebin) else {
                    continue;
                };
                for e in entries.filter_map(|e| e.ok()) {
                    let p = e.path();
                    if p.extension().is_some_and(|x| x == "beam")
                        && let Some(stem) = p.file_stem().and_then(|s| s.to_str())
                    {
                        names.insert(stem.to_string());
                    }
                }
            }
            let erts = lib.parent().map(|p| p.to_path_buf());
            if let Some(root) = erts
                && let Ok(entries) = std::fs::read_dir(&root)
            {
                for e in entries.filter_map(|e| e.ok()) {
                    if e.file_name().to_string_lossy().starts_with("erts-") {
                        for m in ["erlang", "erts_internal", "init", "prim_file", "zlib"] {
                            names.insert(m.to_string());
                        }
                    }
                }
            }
            Some(Arc::new(names))
        })
        .clone()
}

/// The functions the installed OTP's module `module` exports, from the
/// export table of its `.beam` file (read once per process); `None` when no
/// OTP is installed or the file cannot be read. This tells a function a
/// module lacks on the BEAM (`undef`) from one racewit's partial stand-in
/// lacks (an unsupported call).
pub fn otp_exports(module: &str) -> Option<Arc<std::collections::BTreeSet<(String, u32)>>> {
    type Cache = std::sync::Mutex<
        std::collections::BTreeMap<String, Option<Arc<std::collections::BTreeSet<(String, u32)>>>>,
    >;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(hit) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(module) {
        return hit.clone();
    }
    let found = otp_beam_path(module)
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|bytes| beam_exports(&bytes))
        .map(Arc::new);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(module.to_string(), found.clone());
    found
}

/// The `.beam` file of an installed OTP module.
fn otp_beam_path(module: &str) -> Option<std::path::PathBuf> {
    let lib = otp_stdlib_src()?.parent()?.parent()?.to_path_buf();
    let mut apps: Vec<_> = std::fs::read_dir(&lib)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    apps.sort();
    apps.into_iter()
        .map(|app| app.join("ebin").join(format!("{module}.beam")))
        .find(|p| p.is_file())
}

/// The export table of a `.beam` file (an IFF container: `FOR1`, size,
/// `BEAM`, then chunks `AtU8` or `Atom`, the atom table, and `ExpT`, the
/// exports as atom index, arity and label); `None` if it is not one.
pub fn beam_exports(bytes: &[u8]) -> Option<std::collections::BTreeSet<(String, u32)>> {
    let u32_at = |i: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(i..i + 4)?.try_into().ok()?))
    };
    if bytes.get(0..4)? != b"FOR1" || bytes.get(8..12)? != b"BEAM" {
        return None;
    }
    let mut atoms: Vec<String> = Vec::new();
    let mut exports: Vec<(u32, u32)> = Vec::new();
    let mut pos = 12;
    while pos + 8 <= bytes.len() {
        let id = bytes.get(pos..pos + 4)?;
        let size = u32_at(pos + 4)? as usize;
        let data = bytes.get(pos + 8..pos + 8 + size)?;
        match id {
            b"AtU8" | b"Atom" => {
                let n = u32::from_be_bytes(data.get(0..4)?.try_into().ok()?);
                let mut i = 4;
                for _ in 0..n {
                    let len = *data.get(i)? as usize;
                    let name = data.get(i + 1..i + 1 + len)?;
                    atoms.push(if id == b"AtU8" {
                        String::from_utf8(name.to_vec()).ok()?
                    } else {
                        name.iter().map(|&c| c as char).collect()
                    });
                    i += 1 + len;
                }
            }
            b"ExpT" => {
                let n = u32::from_be_bytes(data.get(0..4)?.try_into().ok()?) as usize;
                for k in 0..n {
                    let at = 4 + 12 * k;
                    let f = u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?);
                    let a = u32::from_be_bytes(data.get(at + 4..at + 8)?.try_into().ok()?);
                    exports.push((f, a));
                }
            }
            _ => {}
        }
        pos += 8 + size.div_ceil(4) * 4;
    }
    exports
        .into_iter()
        .map(|(f, a)| Some((atoms.get((f as usize).checked_sub(1)?)?.clone(), a)))
        .collect()
}

/// OTP's library modules, parsed once per process (empty without an OTP).
pub fn otp_libraries() -> Vec<Arc<Program>> {
    static LIBS: std::sync::OnceLock<Vec<Arc<Program>>> = std::sync::OnceLock::new();
    LIBS.get_or_init(|| {
        let Some(src) = otp_stdlib_src() else {
            return Vec::new();
        };
        let paths: Vec<std::path::PathBuf> = OTP_LIBRARY_MODULES
            .iter()
            .map(|m| src.join(format!("{m}.erl")))
            .filter(|p| p.is_file())
            .collect();
        let opts = racewit_syntax::LoadOptions {
            include_dirs: vec![src.join("../include")],
            lib_dirs: src
                .parent()
                .and_then(|p| p.parent())
                .map(|p| vec![p.to_path_buf()])
                .unwrap_or_default(),
            defines: Vec::new(),
            epp_includes_only: false,
        };
        vec![Arc::new(racewit_syntax::load_paths(&paths, &opts))]
    })
    .clone()
}

/// How the entry call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunResult {
    /// It returned this value; or the run halted (`erlang:halt/0,1,2`:
    /// [`RunOutcome::halted`]) and this is the status.
    Value(Term),
    /// It raised (class, reason).
    Crashed { class: Class, reason: Term },
    /// It stopped at an unsupported call.
    Parked { call: String, location: String },
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
    /// Processes stopped at unsupported calls: (name, call, location).
    pub parked: Vec<(String, String, String)>,
    /// The entry process's stack trace when it crashed (`~p`).
    pub crash_stack: Option<String>,
    /// Why the run stopped early, when a limit of the run was reached
    /// (`memory budget exceeded in P1.2 at m.erl:12 ...`).
    pub stopped: Option<String>,
    /// The status of `erlang:halt/0,1,2`, when a process halted the run:
    /// then nothing more is printed (as on the BEAM, where the node stops).
    pub halted: Option<Term>,
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
        max_memory_words: config.max_memory_words,
        otp_modules: if config.otp_libraries {
            otp_module_names()
        } else {
            None
        },
        ..VmConfig::default()
    };
    let libs = if config.otp_libraries {
        otp_libraries()
    } else {
        Vec::new()
    };
    let mut vm = Vm::with_libraries(program, &libs, vm_config);
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
            // Nothing can run: fire the earliest timeout, if any.
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
                Ok(_) => queue.join(&mut vm, Some(pid)),
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
    finish(&vm, main, main_done_at, stopped)
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
            ProcStatus::Parked { call, location } => RunResult::Parked { call, location },
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
        RunResult::Parked { call, location } => {
            format!("racewit: stopped at unsupported call {call} ({location})\n")
        }
        RunResult::Deadlock => {
            let parked: Vec<String> = vm
                .processes()
                .into_iter()
                .filter_map(|p| match vm.process_status(p) {
                    ProcStatus::Parked { call, location } => Some(format!(
                        "{} stopped at unsupported call {call} ({location})",
                        vm.process_name(p)
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
            Some(VmError::BudgetExhausted(_)) | None => "racewit: budget exhausted\n".into(),
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
            ProcStatus::Parked { call, location } => {
                Some((vm.process_name(p).to_string(), call, location))
            }
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
        stopped: stopped.map(|e| e.to_string()),
        halted,
    }
}
