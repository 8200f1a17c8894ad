//! The VM: processes, the registry, ETS and mnesia stores, captured output,
//! and the signals between processes. [`Vm::step`] lives in `exec`.

use std::sync::Arc;

use racewit_syntax::ir::Program;

use crate::atom::Atom;
use crate::code::{CodeTable, Target};
use crate::ets::EtsStore;
use crate::event::Event;
use crate::mnesia::MnesiaStore;
use crate::process::{ProcName, ProcStatus, Process, Start, TimerJob};
use crate::term::{Pid, Term};
use crate::world::{SYSTEM, system_pid, system_process};

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct VmConfig {
    /// Reductions (function calls) for the whole run; beyond: [`VmError::BudgetExhausted`].
    pub max_reductions: u64,
    /// Processes a run may create (timers included); one more ends the run:
    /// [`VmError::TooManyProcesses`].
    pub max_processes: usize,
    /// Memory a run may hold, in words (see [`crate::limits`]); beyond:
    /// [`VmError::MemoryExhausted`].
    pub max_memory_words: u64,
    /// Atoms a run may make from text (`list_to_atom/1`, `binary_to_term/1`,
    /// ...); one more ends the run: [`VmError::TooManyAtoms`].
    pub max_atoms: usize,
    /// Load the Erlang prelude (gen_server, lists, ...).
    pub prelude: bool,
    /// Library code to run besides the program (OTP's own modules from an
    /// installed OTP, dependencies), and what is known of the installed OTP
    /// (see [`crate::library`]). The VM reads no files: the caller loads them.
    pub libraries: Arc<crate::library::Libraries>,
    /// Run the common instructions in the hot loop (`hot_loop.rs`). Off,
    /// the general loop runs every instruction: the same states, events and
    /// reductions, slower (tests compare the two).
    pub hot_loop: bool,
    /// Reductions one step may take without a visible action before it is
    /// watched for a busy loop: its state coming back within the next
    /// [`crate::limits::SPIN_WATCH`] reductions proves a loop without end
    /// (`fun F() -> F() end()`, a worker stand-in in a test). Such a process
    /// is parked ([`crate::library::ParkReason::BusyLoop`]): alive, never
    /// scheduled again, still taking exit signals, and the other processes
    /// run on, as the BEAM's preemptive scheduler lets them. A long
    /// computation whose state does not come back runs on.
    pub max_step_reductions: u64,
}

impl Default for VmConfig {
    fn default() -> Self {
        VmConfig {
            max_reductions: 200_000_000,
            max_processes: 100_000,
            max_memory_words: 128 << 20,
            max_atoms: 1_000_000,
            prelude: true,
            libraries: crate::library::Libraries::none(),
            hot_loop: true,
            max_step_reductions: 100_000,
        }
    }
}

/// How a process alias ends (besides its owner's exit and `unalias/1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AliasMode {
    /// Only by `unalias/1` (`alias/0`, `{alias, explicit_unalias}`).
    Explicit,
    /// With the monitor it was made with (`{alias, demonitor}`).
    Demonitor,
    /// With the first message sent through it (`alias([reply])`).
    ReplyOnce,
    /// Ended (`unalias/1`, or its one reply came).
    Ended,
}

/// The interpreter cannot go on (Erlang exceptions are values, never this).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VmError {
    /// The run's reductions are spent: the program did not terminate
    /// within them (a process computes without end, or the run is long).
    #[error(
        "the program did not terminate within {} reductions: reduction budget exhausted \
         with {process} running at {location}",
        crate::limits::thousands(*reductions)
    )]
    BudgetExhausted {
        reductions: u64,
        process: String,
        location: String,
    },
    #[error("no such process {0:?}")]
    NoSuchProcess(Pid),
    #[error("process {0:?} cannot take a step")]
    NotEnabled(Pid),
    #[error(
        "memory budget exceeded in {process} at {location} ({live} words live, budget {budget})"
    )]
    MemoryExhausted {
        process: String,
        location: String,
        live: u64,
        budget: u64,
    },
    #[error("process limit reached in {process} at {location} ({limit} processes)")]
    TooManyProcesses {
        process: String,
        location: String,
        limit: usize,
    },
    #[error("atom limit reached in {process} at {location} ({limit} atoms made from text)")]
    TooManyAtoms {
        process: String,
        location: String,
        limit: usize,
    },
    /// One step took more than `config.max_step_reductions` without a
    /// visible action: the process runs a busy loop. [`Vm::step`] parks the
    /// process instead of returning this.
    #[error("{process} ran {reductions} reductions at {location} without a visible action")]
    BusyLoop {
        reductions: u64,
        process: String,
        location: String,
    },
}

/// Work for the process that is running right now (it is out of the table).
#[derive(Clone)]
pub(crate) enum Deferred {
    Message(Term),
    Exit {
        from: Pid,
        reason: Term,
        linked: bool,
    },
    Unlink(Pid),
    DropMonitor(u64),
}

#[derive(Clone)]
pub struct Vm {
    pub(crate) code: Arc<CodeTable>,
    pub(crate) procs: Vec<Arc<Process>>,
    pub(crate) registry: imbl::OrdMap<Atom, Pid>,
    /// `global` names (one node: a second registry, names are any term).
    pub(crate) global_names: imbl::OrdMap<crate::term::MapKey, Pid>,
    /// `global` locks by resource id (`global:set_lock/1,2,3`, `trans`).
    pub(crate) global_locks: imbl::OrdMap<crate::term::MapKey, crate::world::GlobalLock>,
    /// The `application` environment by (application, key).
    pub(crate) app_env: imbl::OrdMap<(crate::term::MapKey, crate::term::MapKey), Term>,
    /// The OS environment (`os:getenv/putenv/unsetenv`), by name: empty at
    /// the start of a run, changed only by the run.
    pub(crate) os_env: imbl::OrdMap<String, String>,
    /// `persistent_term` storage.
    pub(crate) persistent_terms: imbl::OrdMap<crate::term::MapKey, Term>,
    /// Process aliases by reference (`alias/0,1`, `monitor/3`'s `{alias,
    /// Mode}`): the owner and how the alias ends (see [`Vm::alias_target`]).
    pub(crate) aliases: imbl::OrdMap<u64, (Pid, AliasMode)>,
    pub(crate) ets: EtsStore,
    pub(crate) mnesia: MnesiaStore,
    pub(crate) output: Arc<Vec<(Pid, String)>>,
    pub(crate) next_ref: u64,
    pub(crate) unique: u64,
    /// Virtual time in milliseconds: advanced only when a timeout fires.
    pub(crate) vclock: u64,
    pub(crate) reductions: u64,
    pub(crate) config: Arc<VmConfig>,
    /// `config.max_reductions`, at hand for the per-call check.
    pub(crate) max_reductions: u64,
    /// The reduction count when the running step began (for
    /// `config.max_step_reductions`).
    pub(crate) step_start: u64,
    /// The running step's state when its watch for a busy loop began.
    pub(crate) spin: Option<crate::process::SpinWatch>,
    roots: u32,
    pub(crate) current: Option<Pid>,
    pub(crate) deferred: Vec<Deferred>,
    pub(crate) atomic_event: Option<Event>,
    placeholder: Arc<Process>,
    pub(crate) step_count: u64,
    /// The running process must exit (a signal it cannot ignore arrived).
    pub(crate) self_exit: Option<Term>,
    pub(crate) program: Arc<Program>,
    /// Scratch space for tail-call arguments.
    pub(crate) argbuf: Vec<Term>,
    /// The last `fun M:F/A` applied and what it resolved to (the code never
    /// changes, so this only saves the lookup of a fun applied in a loop).
    pub(crate) last_export: Option<(Atom, Atom, u32, Target)>,
    /// The modules whose code the running step called by name without
    /// making it a step of its own (no code of theirs has changed yet):
    /// reads of that code, added to the step's event (see
    /// [`crate::code::CodeTable::watched`]).
    pub(crate) code_reads: Vec<Atom>,
    /// `erlang:send_after` timers: ref → timer process.
    pub(crate) timers: imbl::OrdMap<u64, Pid>,
    /// The modelled outside world (logger, application controller,
    /// counters, random bytes): see [`crate::world`].
    pub(crate) world: crate::world::World,
    /// Every process's stable name, by pid (see [`NameTag`]).
    names: Vec<NameTag>,
    /// Processes waiting in `receive ... after` (and timers), by deadline:
    /// the timeouts that can fire.
    pub(crate) timeouts: std::collections::BTreeSet<(u64, Pid)>,
    /// Processes that became able to run (spawned, or woken by a message),
    /// in the order they did (drained by [`Vm::take_woken`]).
    woken: Vec<Pid>,
    /// The processes not exited, with some exited ones not yet swept out
    /// (`swept` counts them): what `enabled()` looks at.
    live: Vec<Pid>,
    swept: usize,
    /// Processes not exited.
    pub(crate) alive: usize,
    /// The memory budget's accounting (see [`crate::limits`]).
    pub(crate) mem: crate::limits::Ledger,
    /// Atoms this run made from text (counted against `config.max_atoms`).
    pub(crate) atoms_made: imbl::HashSet<Atom>,
    /// Bytes of captured output.
    pub(crate) output_bytes: u64,
    /// `erlang:halt/0,1,2` was called with this status: the run is over.
    pub(crate) halted: Option<Term>,
    /// The VM runs a probe of a receive's clauses
    /// ([`Vm::receive_could_take`]), not a step.
    pub(crate) probing: bool,
}

/// A process's stable name, kept as a link to its parent: `P<index>` for
/// a root, `<parent>.<index>` for the parent's index-th child,
/// `<parent>.t<index>` for its index-th timer. Names are spelled out only
/// when asked for, so a chain of spawns costs no quadratic text.
#[derive(Clone, Copy)]
struct NameTag {
    /// The parent's pid, or `u32::MAX` for a root.
    parent: u32,
    index: u32,
    timer: bool,
}

/// The node's standard tables: name, owner (in [`SYSTEM`]), public?
const SYSTEM_TABLES: &[(&str, usize, bool)] = &[
    ("ac_tab", 3, true),
    ("global_names", 4, false),
    ("logger", 5, false),
];

/// What a node's standard table holds at start, where code reads it
/// directly. `logger`: the primary and proxy configuration that kernel's
/// logger_server stores at boot (OTP's own logger modules, when a program
/// carries them, read it), with no handler, as racewit runs none.
fn system_table_objects(table: &str) -> Vec<Term> {
    let map = |entries: Vec<(&str, Term)>| {
        Term::map(
            entries
                .into_iter()
                .map(|(k, v)| (Term::atom(k), v))
                .collect(),
        )
    };
    match table {
        "logger" => vec![
            Term::tuple(vec![
                Term::atom("$primary_config$"),
                map(vec![
                    ("filter_default", Term::atom("log")),
                    ("filters", Term::Nil),
                    ("handlers", Term::Nil),
                    ("level", Term::atom("notice")),
                    ("metadata", map(vec![])),
                ]),
            ]),
            Term::tuple(vec![
                Term::atom("$proxy_config$"),
                map(vec![
                    ("burst_limit_enable", Term::atom("false")),
                    ("burst_limit_max_count", Term::Int(500)),
                    ("burst_limit_window_time", Term::Int(1000)),
                    ("drop_mode_qlen", Term::Int(1000)),
                    ("flush_qlen", Term::Int(5000)),
                    ("overload_kill_enable", Term::atom("false")),
                    ("overload_kill_mem_size", Term::Int(3_000_000)),
                    ("overload_kill_qlen", Term::Int(20_000)),
                    ("overload_kill_restart_after", Term::Int(5000)),
                    ("sync_mode_qlen", Term::Int(500)),
                ]),
            ]),
        ],
        _ => Vec::new(),
    }
}

impl Vm {
    /// The user's program the VM runs (without the prelude).
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// A fresh VM running `code` (shared, not copied), compiled for
    /// `program` (see `Vm::from_image`).
    pub(crate) fn with_code(program: Arc<Program>, code: Arc<CodeTable>, config: VmConfig) -> Vm {
        let config_budget = config.max_memory_words;
        let placeholder = Arc::new(Process::new(Pid(u32::MAX), None, Term::Nil));
        let mut registry = imbl::OrdMap::new();
        for (i, sp) in SYSTEM.iter().enumerate() {
            registry.insert(Atom::new(sp.name), system_pid(i));
        }
        let mut ets = EtsStore::default();
        for (k, (name, owner, public)) in SYSTEM_TABLES.iter().enumerate() {
            let name = Atom::new(name);
            // Ids far from those of the program's tables and references.
            let id = u64::MAX - k as u64;
            let prot = if *public {
                crate::ets::Protection::Public
            } else {
                crate::ets::Protection::Protected
            };
            let mut t = crate::ets::Table::new(
                id,
                name,
                true,
                crate::ets::Kind::Set,
                prot,
                system_pid(*owner),
                1,
            );
            for obj in system_table_objects(name.name()) {
                t.insert(obj);
            }
            ets.tables.insert(id, Arc::new(t));
            ets.names.insert(name, id);
        }
        Vm {
            code,
            procs: Vec::new(),
            registry,
            global_names: imbl::OrdMap::new(),
            global_locks: imbl::OrdMap::new(),
            app_env: imbl::OrdMap::new(),
            os_env: imbl::OrdMap::new(),
            persistent_terms: imbl::OrdMap::new(),
            aliases: imbl::OrdMap::new(),
            ets,
            mnesia: MnesiaStore::default(),
            output: Arc::new(Vec::new()),
            next_ref: 0,
            unique: 0,
            vclock: 0,
            reductions: 0,
            max_reductions: config.max_reductions.min(crate::limits::CHECK_INTERVAL),
            step_start: 0,
            spin: None,
            config: Arc::new(config),
            roots: 0,
            current: None,
            deferred: Vec::new(),
            atomic_event: None,
            placeholder,
            step_count: 0,
            self_exit: None,
            program,
            argbuf: Vec::new(),
            last_export: None,
            code_reads: Vec::new(),
            timers: imbl::OrdMap::new(),
            world: crate::world::World::default(),
            names: Vec::new(),
            timeouts: Default::default(),
            woken: Vec::new(),
            live: Vec::new(),
            swept: 0,
            alive: 0,
            mem: crate::limits::Ledger::new(config_budget),
            atoms_made: imbl::HashSet::new(),
            output_bytes: 0,
            halted: None,
            probing: false,
        }
    }

    /// Start a top-level process running `module:function(args...)`: "P1", then "P2"...
    pub fn spawn_entry(&mut self, module: &str, function: &str, args: Vec<Term>) -> Pid {
        self.roots += 1;
        let name = NameTag {
            parent: u32::MAX,
            index: self.roots,
            timer: false,
        };
        let (m, f) = (Atom::new(module), Atom::new(function));
        let target = self.code.resolve(m, f, args.len() as u32);
        let initial = Term::tuple(vec![
            Term::Atom(m),
            Term::Atom(f),
            Term::Int(args.len() as i64),
        ]);
        self.add_process(name, Start::Call(target, args), initial)
    }

    fn add_process(&mut self, name: NameTag, start: Start, initial: Term) -> Pid {
        let pid = Pid(self.procs.len() as u32);
        self.alive += 1;
        self.insert_process(name, Process::new(pid, Some(start), initial))
    }

    fn insert_process(&mut self, name: NameTag, p: Process) -> Pid {
        let pid = p.pid;
        if let ProcStatus::Waiting { deadline } = p.status {
            self.timeouts.insert((deadline, pid));
        } else {
            self.woken.push(pid);
        }
        self.procs.push(Arc::new(p));
        self.names.push(name);
        self.live.push(pid);
        pid
    }

    /// Spawn a child of `parent` (the running process); `None` when the
    /// run has made all the processes it may.
    pub(crate) fn spawn_child(
        &mut self,
        parent: &mut Process,
        start: Start,
        initial: Term,
    ) -> Option<Pid> {
        if self.procs.len() >= self.config.max_processes {
            return None;
        }
        parent.children += 1;
        let name = NameTag {
            parent: parent.pid.0,
            index: parent.children,
            timer: false,
        };
        self.note_alloc(crate::limits::PROCESS_WORDS);
        let pid = self.add_process(name, start, initial);
        if let Some(child) = self.procs.get_mut(pid.0 as usize) {
            Arc::make_mut(child).group_leader = parent.group_leader;
        }
        Some(pid)
    }

    /// Start a timer of `owner` (the running process) that sends `job.msg`
    /// to `job.dest` `after` milliseconds from now; `None` when the run
    /// has made all the processes it may.
    pub(crate) fn start_timer(
        &mut self,
        owner: &mut Process,
        job: TimerJob,
        after: u64,
    ) -> Option<Pid> {
        if self.procs.len() >= self.config.max_processes {
            return None;
        }
        owner.timers += 1;
        let name = NameTag {
            parent: owner.pid.0,
            index: owner.timers,
            timer: true,
        };
        let pid = Pid(self.procs.len() as u32);
        let tref = job.tref;
        if let Term::Pid(dest) = job.dest {
            if dest == owner.pid {
                owner.incoming_timers.push(pid);
            } else if let Some(d) = self.proc_mut(dest) {
                d.incoming_timers.push(pid);
            }
        }
        let deadline = self.vclock.saturating_add(after);
        self.note_alloc(crate::limits::PROCESS_WORDS);
        self.insert_process(name, Process::timer(pid, job, deadline));
        self.timers.insert(tref, pid);
        Some(pid)
    }

    /// The timer behind reference `tref` and, while it has not fired, been
    /// cancelled or lost its destination, the milliseconds it has left.
    pub(crate) fn timer_left(&self, tref: u64) -> Option<(Pid, Option<u64>)> {
        let pid = *self.timers.get(&tref)?;
        let left = match self.proc(pid)?.status {
            ProcStatus::Waiting { deadline } => Some(deadline.saturating_sub(self.vclock)),
            _ => None,
        };
        Some((pid, left))
    }

    /// Cancel a timer: it is gone without a trace (no exit, no signal).
    pub(crate) fn drop_timer(&mut self, pid: Pid) {
        let Some(t) = self.proc_mut(pid) else { return };
        if t.timer.take().is_some() {
            if let ProcStatus::Waiting { deadline } = t.status {
                self.timeouts.remove(&(deadline, pid));
            }
            let t = self.proc_mut(pid).expect("a timer");
            t.status = ProcStatus::Exited(Term::Atom(Atom::NORMAL));
            self.note_exit();
        }
    }

    /// Milliseconds of virtual time left before `pid`'s pending timeout
    /// (a `receive ... after`, or a timer's deadline), if it has one.
    pub fn timeout_left(&self, pid: Pid) -> Option<u64> {
        match self.proc(pid)?.status {
            ProcStatus::Waiting { deadline } => Some(deadline.saturating_sub(self.vclock)),
            _ => None,
        }
    }

    /// Whether `pid` has messages it has not looked at yet.
    pub fn has_unscanned_mail(&self, pid: Pid) -> bool {
        self.proc(pid).is_some_and(|p| p.mailbox.len() > p.scanned)
    }

    /// Is this one of the VM's timers (not a process of the program)?
    pub fn is_timer(&self, pid: Pid) -> bool {
        self.names.get(pid.0 as usize).is_some_and(|n| n.timer)
    }

    /// Processes that can take a step, sorted (none once the run halted).
    pub fn enabled(&self) -> Vec<Pid> {
        if self.halted.is_some() {
            return Vec::new();
        }
        self.live_procs()
            .filter(|p| p.can_step())
            .map(|p| p.pid)
            .collect()
    }

    /// The status `erlang:halt/0,1,2` ended the run with, if it did.
    pub fn halted(&self) -> Option<&Term> {
        self.halted.as_ref()
    }

    /// The live processes other than the running one that run code of
    /// module `module` (its index: a version of it) or hold a fun of it,
    /// in pid order: what purging that version kills.
    pub(crate) fn processes_in_code(&self, module: u32) -> Vec<Pid> {
        fn holds_fun(t: &Term, module: u32, depth: u32) -> bool {
            match t {
                Term::Fun(f) => match &**f {
                    crate::term::Fun::Closure { mod_index, env, .. } => {
                        *mod_index == module
                            || (depth < 8 && env.iter().any(|e| holds_fun(e, module, depth + 1)))
                    }
                    crate::term::Fun::Local { mod_index, .. } => *mod_index == module,
                    crate::term::Fun::Export { .. } => false,
                },
                Term::Tuple(items) if depth < 8 => {
                    items.iter().any(|e| holds_fun(e, module, depth + 1))
                }
                Term::Cons(_) if depth < 8 => {
                    t.list_iter().any(|e| holds_fun(e, module, depth + 1))
                }
                _ => false,
            }
        }
        self.live_procs()
            .filter(|p| Some(p.pid) != self.current && p.is_alive())
            .filter(|p| {
                p.frames.iter().any(|f| f.module == module)
                    || p.regs[..p.top.min(p.regs.len())]
                        .iter()
                        .any(|t| holds_fun(t, module, 0))
            })
            .map(|p| p.pid)
            .collect()
    }

    /// The processes not exited (and a few exited ones), in pid order.
    fn live_procs(&self) -> impl Iterator<Item = &Process> {
        self.live.iter().map(|p| &*self.procs[p.0 as usize])
    }

    /// A process exited: now and then the list of live ones is swept.
    pub(crate) fn note_exit(&mut self) {
        self.swept += 1;
        if self.swept > 64 && self.swept * 2 > self.live.len() {
            let procs = &self.procs;
            let current = self.current;
            self.live
                .retain(|p| Some(*p) == current || procs[p.0 as usize].is_alive());
            self.swept = 0;
        }
    }

    /// Processes that became able to step without a timeout (spawned, or
    /// woken by a message or signal) since the last call, in the order
    /// they did, appended to `into`; a process may be listed that can no
    /// longer step.
    pub fn take_woken(&mut self, into: &mut Vec<Pid>) {
        into.append(&mut self.woken);
    }

    /// The process whose timeout is due first (earliest deadline, then
    /// lowest pid), among those waiting for one.
    pub fn next_timeout(&self) -> Option<Pid> {
        if self.halted.is_some() {
            return None;
        }
        self.timeouts.first().map(|(_, p)| *p)
    }

    /// `p` (the running process) leaves a `receive ... after` wait.
    pub(crate) fn stop_waiting(&mut self, p: &Process) {
        if let ProcStatus::Waiting { deadline } = p.status {
            self.timeouts.remove(&(deadline, p.pid));
        }
    }

    /// Has this process exited? (No clone of its status.)
    pub fn is_exited(&self, pid: Pid) -> bool {
        self.procs.get(pid.0 as usize).is_none_or(|p| !p.is_alive())
    }

    /// Is this process runnable (not waiting, blocked, parked or exited)?
    pub fn is_runnable(&self, pid: Pid) -> bool {
        self.procs
            .get(pid.0 as usize)
            .is_some_and(|p| matches!(p.status, ProcStatus::Runnable))
    }

    /// Can this process take a step now?
    pub fn can_step(&self, pid: Pid) -> bool {
        self.halted.is_none() && self.procs.get(pid.0 as usize).is_some_and(|p| p.can_step())
    }

    /// Processes that can take a step without a timeout firing, sorted.
    pub fn runnable_without_timeout(&self) -> Vec<Pid> {
        if self.halted.is_some() {
            return Vec::new();
        }
        self.live_procs()
            .filter(|p| match p.status {
                ProcStatus::Runnable => true,
                ProcStatus::Blocked | ProcStatus::Waiting { .. } => p.mailbox.len() > p.scanned,
                _ => false,
            })
            .map(|p| p.pid)
            .collect()
    }

    /// Whether `pid` can take a step only by its timeout firing: it waits
    /// in `receive ... after` with no message it has not looked at. The
    /// processes [`Vm::enabled`] lists and [`Vm::runnable_without_timeout`]
    /// does not.
    pub fn waits_for_timeout_only(&self, pid: Pid) -> bool {
        self.procs.get(pid.0 as usize).is_some_and(|p| {
            matches!(p.status, ProcStatus::Waiting { .. }) && p.mailbox.len() <= p.scanned
        })
    }

    /// Is some process parked at a call the VM cannot run? Such a process
    /// would go on in a real system: the program is not stuck, only its
    /// model is, so time must not pass for the others (see the search's
    /// timeout policy). A busy loop is not such a call: it would loop on in
    /// a real system too, and time passes for the others there.
    pub fn any_parked(&self) -> bool {
        self.halted.is_none()
            && self.live_procs().any(|p| {
                matches!(&p.status, ProcStatus::Parked { reason, .. }
                    if *reason != crate::library::ParkReason::BusyLoop)
            })
    }

    /// The process that spawned `pid` (a root has none).
    pub fn parent_of(&self, pid: Pid) -> Option<Pid> {
        let tag = self.names.get(pid.0 as usize)?;
        (tag.parent != u32::MAX).then_some(Pid(tag.parent))
    }

    /// When `name` is held by a standard process racewit stands in for
    /// whose server the analysed program carries (see
    /// [`SystemProcess::boots`]): frees the name and deletes the tables
    /// the stand-in owns, so that the program's own server takes its
    /// place, and returns the names of those tables. A name held
    /// otherwise stays held (`None`).
    pub(crate) fn retire_stand_in(&mut self, name: Atom) -> Option<Vec<Atom>> {
        let pid = *self.registry.get(&name)?;
        let carried = system_process(pid)
            .and_then(|sp| sp.boots)
            .and_then(|m| self.code.module(Atom::new(m)))
            .is_some_and(|(_, m)| m.origin == crate::code::Origin::User);
        if !carried {
            return None;
        }
        self.registry.remove(&name);
        let owned: Vec<(u64, Atom)> = self
            .ets
            .tables
            .iter()
            .filter(|(_, t)| t.owner == pid)
            .map(|(id, t)| (*id, t.name))
            .collect();
        for (id, _) in &owned {
            self.ets.delete(*id);
        }
        Some(owned.into_iter().map(|(_, n)| n).collect())
    }

    /// Was `pid` ever a process of this run (exited or not)?
    pub fn process_exists(&self, pid: Pid) -> bool {
        self.procs.get(pid.0 as usize).is_some()
    }

    pub fn processes(&self) -> Vec<Pid> {
        self.procs.iter().map(|p| p.pid).collect()
    }

    pub fn process_name(&self, pid: Pid) -> ProcName {
        if let Some(sp) = system_process(pid) {
            return Arc::from(sp.name);
        }
        let mut out = String::with_capacity(16);
        self.push_process_name(pid, &mut out);
        Arc::from(out.as_str())
    }

    /// Appends [`Vm::process_name`] to `out`.
    pub fn push_process_name(&self, pid: Pid, out: &mut String) {
        if let Some(sp) = system_process(pid) {
            out.push_str(sp.name);
        } else if self.names.get(pid.0 as usize).is_none() {
            out.push('?');
        } else {
            self.write_name(pid.0, out);
        }
    }

    /// Spells out the name of the process numbered `n` (which has a tag),
    /// its ancestors' first.
    fn write_name(&self, n: u32, out: &mut String) {
        let Some(tag) = self.names.get(n as usize) else {
            return;
        };
        if self.names.get(tag.parent as usize).is_some() {
            self.write_name(tag.parent, out);
        }
        let (prefix, index) = match (tag.parent == u32::MAX, tag.timer) {
            (true, _) => ("P", tag.index),
            (false, false) => (".", tag.index),
            (false, true) => (".t", tag.index),
        };
        out.push_str(prefix);
        push_decimal(index, out);
    }

    /// Where process `pid` is now, as a limit's report names it: the line
    /// of the innermost function of the user's code on its stack, else the
    /// function running (`None` for a process that does not exist).
    pub fn process_location(&self, pid: Pid) -> Option<String> {
        self.procs
            .get(pid.0 as usize)
            .map(|p| self.where_running(p, None))
    }

    pub fn process_status(&self, pid: Pid) -> ProcStatus {
        self.procs
            .get(pid.0 as usize)
            .map(|p| p.status.clone())
            .unwrap_or(ProcStatus::Exited(Term::Atom(Atom::NOPROC)))
    }

    /// The value a process's entry function returned, if it returned.
    pub fn process_result(&self, pid: Pid) -> Option<Term> {
        self.procs
            .get(pid.0 as usize)
            .and_then(|p| p.result.clone())
    }

    /// The exception that ended a process: class, reason and stack.
    pub fn process_crash(&self, pid: Pid) -> Option<crate::event::Exception> {
        self.procs.get(pid.0 as usize).and_then(|p| p.crash.clone())
    }

    pub fn output(&self) -> &[(Pid, String)] {
        &self.output
    }

    /// The log events `logger` captured, in order.
    pub fn log(&self) -> &[crate::world::LogEvent] {
        &self.world.log
    }

    /// `~p` form of a term.
    pub fn format_term(&self, t: &Term) -> String {
        crate::format::print_term(t)
    }

    /// `~w` form of a term.
    pub fn write_term(&self, t: &Term) -> String {
        crate::format::write_term(t)
    }

    /// Reductions used so far.
    pub fn reductions(&self) -> u64 {
        self.reductions
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.step_count
    }

    /// Deterministic text of all shared state: registry, global names,
    /// persistent terms, the application environment, ETS and mnesia tables.
    pub fn shared_state_digest(&self) -> String {
        let mut out = String::new();
        let mut names: Vec<(String, String)> = self
            .registry
            .iter()
            .map(|(a, p)| {
                (
                    crate::format::atom_text(*a),
                    self.process_name(*p).to_string(),
                )
            })
            .collect();
        names.sort();
        out.push_str("registry:");
        for (n, p) in names {
            out.push_str(&format!(" {n}={p}"));
        }
        out.push('\n');
        if !self.global_names.is_empty() {
            out.push_str("global:");
            for (k, p) in self.global_names.iter() {
                out.push_str(&format!(
                    " {}={}",
                    crate::format::brief(&k.0),
                    self.process_name(*p)
                ));
            }
            out.push('\n');
        }
        if !self.world.arrays.is_empty() {
            out.push_str("counters:");
            for (r, values) in self.world.arrays.iter() {
                out.push_str(&format!(" {r}={values:?}"));
            }
            out.push('\n');
        }
        if !self.persistent_terms.is_empty() {
            out.push_str("persistent_term:");
            for (k, v) in self.persistent_terms.iter() {
                out.push_str(&format!(
                    " {}={}",
                    crate::format::brief(&k.0),
                    crate::format::brief(v)
                ));
            }
            out.push('\n');
        }
        if !self.app_env.is_empty() {
            out.push_str("application env:");
            for ((app, key), v) in self.app_env.iter() {
                out.push_str(&format!(
                    " {}/{}={}",
                    crate::format::brief(&app.0),
                    crate::format::brief(&key.0),
                    crate::format::brief(v)
                ));
            }
            out.push('\n');
        }
        if !self.os_env.is_empty() {
            out.push_str("os env:");
            for (name, value) in self.os_env.iter() {
                out.push_str(&format!(" {name:?}={value:?}"));
            }
            out.push('\n');
        }
        out.push_str(&self.ets.digest(|p| self.process_name(p).to_string()));
        out.push_str(&self.mnesia.digest());
        out
    }

    /// The registered name's pid.
    pub fn whereis(&self, name: &str) -> Option<Pid> {
        self.registry.get(&Atom::new(name)).copied()
    }

    pub(crate) fn new_ref(&mut self) -> u64 {
        self.next_ref += 1;
        self.next_ref
    }

    /// Where a message sent to the reference `r` goes: `None` when `r`
    /// was never an alias (the message is dropped), else its owner and
    /// whether the alias is active (an inactive one drops the message, as
    /// the BEAM does, but the send still touches the owner's mailbox: it
    /// is ordered with what ended the alias). An alias ends with its
    /// owner, by `unalias/1`, with its monitor (mode `demonitor`: the
    /// monitor removed by `demonitor/1,2` or by its `'DOWN'`), or with the
    /// first message sent through it (`reply`). `me` is the running
    /// process and its monitors (out of the table while it runs).
    pub(crate) fn alias_target(
        &mut self,
        me: Pid,
        my_monitors: &std::collections::BTreeMap<u64, Pid>,
        r: u64,
    ) -> Option<(Pid, bool)> {
        let (owner, mode) = *self.aliases.get(&r)?;
        let monitors = if owner == me {
            Some(my_monitors)
        } else {
            self.proc(owner)
                .filter(|o| o.is_alive())
                .map(|o| &o.monitors)
        };
        let active = monitors.is_some_and(|m| match mode {
            AliasMode::Ended => false,
            AliasMode::Demonitor => m.contains_key(&r),
            AliasMode::Explicit | AliasMode::ReplyOnce => true,
        });
        if active && mode == AliasMode::ReplyOnce {
            self.aliases.insert(r, (owner, AliasMode::Ended));
        }
        Some((owner, active))
    }

    /// Ends the alias `r` of `owner`: whether it was an active one.
    pub(crate) fn unalias(&mut self, me: &Process, r: u64) -> bool {
        match self.aliases.get(&r) {
            Some(&(owner, _)) if owner == me.pid => {
                let was = self
                    .alias_target(me.pid, &me.monitors, r)
                    .is_some_and(|(_, active)| active);
                self.aliases.insert(r, (owner, AliasMode::Ended));
                was
            }
            _ => false,
        }
    }

    pub(crate) fn proc(&self, pid: Pid) -> Option<&Process> {
        self.procs.get(pid.0 as usize).map(|p| &**p)
    }

    /// Another process than the running one, to change.
    pub(crate) fn proc_mut(&mut self, pid: Pid) -> Option<&mut Process> {
        if Some(pid) == self.current {
            return None;
        }
        self.procs.get_mut(pid.0 as usize).map(Arc::make_mut)
    }

    pub(crate) fn is_alive(&self, pid: Pid) -> bool {
        if Some(pid) == self.current || system_process(pid).is_some() {
            return true;
        }
        self.proc(pid).is_some_and(|p| p.is_alive())
    }

    /// Put a message in a mailbox (nothing happens if the process is dead).
    pub(crate) fn deliver(&mut self, to: Pid, msg: Term) {
        // A mailbox slot (the message itself is shared, not copied).
        self.mem.alloc += 2;
        if Some(to) == self.current {
            self.deferred.push(Deferred::Message(msg));
            return;
        }
        if let Some(p) = self.proc_mut(to)
            && p.is_alive()
        {
            // A process waiting in `receive` with nothing new wakes up.
            let wakes = matches!(p.status, ProcStatus::Blocked | ProcStatus::Waiting { .. })
                && p.mailbox.len() <= p.scanned;
            p.mailbox.push_back(msg);
            if wakes {
                self.woken.push(to);
            }
        }
    }

    /// An exit signal from `from` to `to` (a link's, when `linked`, or `exit/2`'s).
    pub(crate) fn exit_signal(&mut self, from: Pid, to: Pid, reason: Term, linked: bool) {
        if Some(to) == self.current {
            self.deferred.push(Deferred::Exit {
                from,
                reason,
                linked,
            });
            return;
        }
        let Some(p) = self.proc(to) else { return };
        if !p.is_alive() {
            return;
        }
        let trap = p.trap_exit;
        if !linked && reason.is_atom(Atom::KILL) {
            self.terminate(to, Term::Atom(Atom::KILLED));
        } else if trap {
            let msg = Term::tuple(vec![Term::Atom(Atom::EXIT_UPPER), Term::Pid(from), reason]);
            self.deliver(to, msg);
        } else if reason.is_atom(Atom::NORMAL) {
        } else {
            self.terminate(to, reason);
        }
    }

    /// A process ends: links and monitors are told, its name and tables go.
    pub(crate) fn terminate(&mut self, pid: Pid, reason: Term) {
        let Some(p) = self.proc_mut(pid) else { return };
        if !p.is_alive() {
            return;
        }
        let waited = match p.status {
            ProcStatus::Waiting { deadline } => Some(deadline),
            _ => None,
        };
        p.status = ProcStatus::Exited(reason.clone());
        p.frames.clear();
        p.clear_stack();
        p.handlers.clear();
        p.mailbox.clear();
        let links = std::mem::take(&mut p.links);
        let watchers = std::mem::take(&mut p.monitored_by);
        let mut tags = std::mem::take(&mut p.monitor_tags);
        let monitors = std::mem::take(&mut p.monitors);
        let registered = p.registered.take();
        let incoming_timers = std::mem::take(&mut p.incoming_timers);
        p.dict = imbl::OrdMap::new();
        self.alive -= 1;
        if let Some(d) = waited {
            self.timeouts.remove(&(d, pid));
        }
        self.note_exit();
        for t in incoming_timers {
            self.drop_timer(t);
        }
        if let Some(name) = registered {
            self.registry.remove(&name);
        }
        let global_names: Vec<_> = self
            .global_names
            .iter()
            .filter(|(_, q)| **q == pid)
            .map(|(k, _)| k.clone())
            .collect();
        for k in global_names {
            self.global_names.remove(&k);
        }
        for (r, target) in monitors {
            if Some(target) == self.current {
                continue;
            }
            if let Some(t) = self.proc_mut(target) {
                t.monitored_by.remove(&r);
            }
        }
        // A link signal with reason `kill` arrives as `killed`.
        let link_reason = if reason.is_atom(Atom::KILL) {
            Term::Atom(Atom::KILLED)
        } else {
            reason.clone()
        };
        for l in links {
            if Some(l) == self.current {
                self.deferred.push(Deferred::Unlink(pid));
            } else if let Some(lp) = self.proc_mut(l) {
                lp.links.remove(&pid);
            }
            self.exit_signal(pid, l, link_reason.clone(), true);
        }
        for (r, (watcher, by_name)) in watchers {
            if Some(watcher) == self.current {
                self.deferred.push(Deferred::DropMonitor(r));
            } else if let Some(w) = self.proc_mut(watcher) {
                w.monitors.remove(&r);
            }
            let msg = Term::tuple(vec![
                tags.remove(&r).unwrap_or(Term::Atom(Atom::DOWN)),
                Term::Ref(r),
                Term::Atom(Atom::PROCESS),
                match by_name {
                    Some(n) => Term::tuple(vec![Term::Atom(n), Term::Atom(Atom::NONODE)]),
                    None => Term::Pid(pid),
                },
                reason.clone(),
            ]);
            self.deliver(watcher, msg);
        }
        let procs = &self.procs;
        let current = self.current;
        let transfers = self.ets.drop_owned_by(pid, |p| {
            Some(p) == current || procs.get(p.0 as usize).is_some_and(|x| x.is_alive())
        });
        for (to, msg) in transfers {
            self.deliver(to, msg);
        }
    }

    /// How a remote call `M:F/A` resolves (for tools and tests).
    pub fn debug_resolve(&self, module: Atom, name: Atom, arity: u32) -> Target {
        self.code.resolve(module, name, arity)
    }

    /// The compiled instructions of every function of `module` (its `fun`s
    /// after its named functions), one per line (for tools and tests).
    pub fn debug_code(&self, module: Atom) -> Option<String> {
        let (mi, _) = self.code.module(module)?;
        let mut out = String::new();
        for (fi, f) in self.code.functions(mi).iter().enumerate() {
            out.push_str(&format!(
                "#{fi} {}/{} frame {}\n",
                f.display.0.name(),
                f.arity,
                f.frame_size
            ));
            for (i, ins) in f.instrs.iter().enumerate() {
                out.push_str(&format!("{i:4} {ins:?}\n"));
            }
        }
        Some(out)
    }

    pub(crate) fn resolve(&self, module: Atom, name: Atom, arity: u32) -> Target {
        self.code.resolve(module, name, arity)
    }

    pub(crate) fn push_output(&mut self, pid: Pid, text: String) {
        let words = text.len() as u64 / 8 + 4;
        self.output_bytes += text.len() as u64;
        self.note_alloc(words);
        Arc::make_mut(&mut self.output).push((pid, text));
    }

    pub(crate) fn take_placeholder(&mut self, idx: usize) -> Arc<Process> {
        std::mem::replace(&mut self.procs[idx], self.placeholder.clone())
    }

    pub(crate) fn put_back(&mut self, idx: usize, p: Arc<Process>) {
        self.procs[idx] = p;
    }
}

/// Appends `n` in decimal (without the formatting machinery: process names
/// are spelled out at most steps of a search).
fn push_decimal(n: u32, out: &mut String) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(d as char);
    }
}
