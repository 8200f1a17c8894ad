//! The VM: processes, the registry, ETS and mnesia stores, captured output,
//! and the signals between processes. [`Vm::step`] lives in `exec`.

use std::sync::{Arc, OnceLock};

use racewit_syntax::ir::Program;

use crate::atom::Atom;
use crate::code::{CodeTable, Origin, Target, compile_onto, compile_programs};
use crate::ets::EtsStore;
use crate::event::Event;
use crate::mnesia::MnesiaStore;
use crate::process::{ProcName, ProcStatus, Process, Start};
use crate::term::{Pid, Term};

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct VmConfig {
    /// Reductions (function calls) for the whole run; beyond: [`VmError::BudgetExhausted`].
    pub max_reductions: u64,
    pub max_processes: usize,
    /// Load the Erlang prelude (gen_server, lists, ...).
    pub prelude: bool,
    /// Library code to run besides the program (OTP's own modules from an
    /// installed OTP, dependencies), and what is known of the installed OTP
    /// (see [`crate::library`]). The VM reads no files: the caller loads them.
    pub libraries: Arc<crate::library::Libraries>,
}

impl Default for VmConfig {
    fn default() -> Self {
        VmConfig {
            max_reductions: 200_000_000,
            max_processes: 100_000,
            prelude: true,
            libraries: crate::library::Libraries::none(),
        }
    }
}

/// The interpreter cannot go on (Erlang exceptions are values, never this).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VmError {
    #[error("reduction budget exhausted after {0} reductions")]
    BudgetExhausted(u64),
    #[error("no such process {0:?}")]
    NoSuchProcess(Pid),
    #[error("process {0:?} cannot take a step")]
    NotEnabled(Pid),
    #[error("too many processes (limit {0})")]
    TooManyProcesses(usize),
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
    pub(crate) global_locks: imbl::OrdMap<crate::term::MapKey, crate::bif::global::GlobalLock>,
    /// The `application` environment by (application, key).
    pub(crate) app_env: imbl::OrdMap<(crate::term::MapKey, crate::term::MapKey), Term>,
    /// `persistent_term` storage.
    pub(crate) persistent_terms: imbl::OrdMap<crate::term::MapKey, Term>,
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
    /// `erlang:send_after` timers: ref → timer process.
    pub(crate) timers: imbl::OrdMap<u64, Pid>,
    /// The modelled outside world (logger, application controller,
    /// counters, random bytes): see [`crate::world`].
    pub(crate) world: crate::world::World,
}

static PRELUDE: OnceLock<Vec<Arc<Program>>> = OnceLock::new();

/// The prelude modules, parsed once per process.
pub fn prelude_programs() -> &'static [Arc<Program>] {
    PRELUDE.get_or_init(|| crate::prelude::load().into_iter().map(Arc::new).collect())
}

/// The prelude and libraries compiled once per process (per set of libraries).
fn base_code(prelude: bool, libs: &Arc<crate::library::Libraries>) -> Arc<CodeTable> {
    type Cache = std::sync::Mutex<Vec<((bool, Vec<usize>), Arc<CodeTable>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let libraries = &libs.programs;
    let mut ptrs: Vec<usize> = libraries.iter().map(|l| Arc::as_ptr(l) as usize).collect();
    ptrs.push(
        libs.otp_modules
            .as_ref()
            .map_or(0, |m| Arc::as_ptr(m) as usize),
    );
    let key = (prelude, ptrs);
    let cache = CACHE.get_or_init(Default::default);
    if let Some((_, t)) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| *k == key)
    {
        return t.clone();
    }
    // OTP's own modules first: where both exist (lists, proplists...) they win
    // over the prelude's stand-ins, which serve when no OTP is installed.
    let mut programs: Vec<(&Arc<Program>, Origin)> =
        libraries.iter().map(|p| (p, Origin::Library)).collect();
    if prelude {
        programs.extend(prelude_programs().iter().map(|p| (p, Origin::Prelude)));
    }
    let mut table = compile_programs(&programs);
    table.libraries = libs.clone();
    // Compiled here, in the base's own context: every table built on this
    // base shares these modules, so their calls must not resolve to a
    // module some user program adds on top.
    for mi in 0..table.modules.len() as u32 {
        table.functions(mi);
    }
    let table = Arc::new(table);
    let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
    guard.push((key, table.clone()));
    table
}

/// A program ready to run: its modules indexed on top of the prelude and
/// libraries, and compiled as they are first entered. Every VM made from one
/// image shares its code, so checking many suspects of one program compiles
/// each module it runs once, and only those.
#[derive(Clone)]
pub struct Image {
    program: Arc<Program>,
    code: Arc<CodeTable>,
}

impl Image {
    /// `program` on top of the prelude (unless `config` disables it) and
    /// `config.libraries`; the user's modules win on name clashes, then the
    /// libraries, then the prelude.
    pub fn new(program: Arc<Program>, config: &VmConfig) -> Image {
        let base = base_code(config.prelude, &config.libraries);
        let mut code = compile_onto(&base, &[(&program, Origin::User)]);
        code.libraries = config.libraries.clone();
        Image {
            program,
            code: Arc::new(code),
        }
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }
}

impl Vm {
    /// A VM for `program` (plus the prelude unless disabled in `config`,
    /// and `config.libraries`).
    pub fn new(program: Arc<Program>, config: VmConfig) -> Vm {
        let image = Image::new(program, &config);
        Vm::from_image(&image, config)
    }

    /// The user's program the VM runs (without the prelude).
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// A fresh VM running `image`'s code (shared, not copied). `config`'s
    /// code settings (`prelude`, `libraries`) are the image's; its limits
    /// are this VM's.
    pub fn from_image(image: &Image, config: VmConfig) -> Vm {
        let program = image.program.clone();
        let code = image.code.clone();
        let placeholder = Arc::new(Process::new(
            Pid(u32::MAX),
            Arc::from("-"),
            Start::Apply(Term::Nil, Vec::new()),
            Term::Nil,
        ));
        Vm {
            code,
            procs: Vec::new(),
            registry: imbl::OrdMap::new(),
            global_names: imbl::OrdMap::new(),
            global_locks: imbl::OrdMap::new(),
            app_env: imbl::OrdMap::new(),
            persistent_terms: imbl::OrdMap::new(),
            ets: EtsStore::default(),
            mnesia: MnesiaStore::default(),
            output: Arc::new(Vec::new()),
            next_ref: 0,
            unique: 0,
            vclock: 0,
            reductions: 0,
            max_reductions: config.max_reductions,
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
            timers: imbl::OrdMap::new(),
            world: crate::world::World::default(),
        }
    }

    /// Start a top-level process running `module:function(args...)`: "P1", then "P2"...
    pub fn spawn_entry(&mut self, module: &str, function: &str, args: Vec<Term>) -> Pid {
        self.roots += 1;
        let name: ProcName = Arc::from(format!("P{}", self.roots).as_str());
        let (m, f) = (Atom::new(module), Atom::new(function));
        let target = self.code.resolve(m, f, args.len() as u32);
        let initial = Term::tuple(vec![
            Term::Atom(m),
            Term::Atom(f),
            Term::Int(args.len() as i64),
        ]);
        self.add_process(name, Start::Call(target, args), initial)
    }

    pub(crate) fn add_process(&mut self, name: ProcName, start: Start, initial: Term) -> Pid {
        let pid = Pid(self.procs.len() as u32);
        self.procs
            .push(Arc::new(Process::new(pid, name, start, initial)));
        pid
    }

    /// Spawn a child of `parent` (the running process).
    pub(crate) fn spawn_child(
        &mut self,
        parent: &mut Process,
        start: Start,
        initial: Term,
    ) -> Result<Pid, VmError> {
        if self.procs.len() >= self.config.max_processes {
            return Err(VmError::TooManyProcesses(self.config.max_processes));
        }
        parent.children += 1;
        let name: ProcName = Arc::from(format!("{}.{}", parent.name, parent.children).as_str());
        Ok(self.add_process(name, start, initial))
    }

    /// Processes that can take a step, sorted.
    pub fn enabled(&self) -> Vec<Pid> {
        self.procs
            .iter()
            .filter(|p| p.can_step())
            .map(|p| p.pid)
            .collect()
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
        self.procs.get(pid.0 as usize).is_some_and(|p| p.can_step())
    }

    /// Processes that can take a step without a timeout firing.
    pub fn runnable_without_timeout(&self) -> Vec<Pid> {
        self.procs
            .iter()
            .filter(|p| match p.status {
                ProcStatus::Runnable => true,
                ProcStatus::Blocked | ProcStatus::Waiting { .. } => p.mailbox.len() > p.scanned,
                _ => false,
            })
            .map(|p| p.pid)
            .collect()
    }

    pub fn processes(&self) -> Vec<Pid> {
        self.procs.iter().map(|p| p.pid).collect()
    }

    pub fn process_name(&self, pid: Pid) -> ProcName {
        self.procs
            .get(pid.0 as usize)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| Arc::from("?"))
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
                    crate::format::write_term(&k.0),
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
                    crate::format::write_term(&k.0),
                    crate::format::write_term(v)
                ));
            }
            out.push('\n');
        }
        if !self.app_env.is_empty() {
            out.push_str("application env:");
            for ((app, key), v) in self.app_env.iter() {
                out.push_str(&format!(
                    " {}/{}={}",
                    crate::format::write_term(&app.0),
                    crate::format::write_term(&key.0),
                    crate::format::write_term(v)
                ));
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

    pub(crate) fn proc(&self, pid: Pid) -> Option<&Process> {
        self.procs.get(pid.0 as usize).map(|p| &**p)
    }

    pub(crate) fn proc_mut(&mut self, pid: Pid) -> Option<&mut Process> {
        if Some(pid) == self.current {
            return None;
        }
        self.procs.get_mut(pid.0 as usize).map(Arc::make_mut)
    }

    pub(crate) fn is_alive(&self, pid: Pid) -> bool {
        if Some(pid) == self.current {
            return true;
        }
        self.proc(pid).is_some_and(|p| p.is_alive())
    }

    /// Put a message in a mailbox (nothing happens if the process is dead).
    pub(crate) fn deliver(&mut self, to: Pid, msg: Term) {
        if Some(to) == self.current {
            self.deferred.push(Deferred::Message(msg));
            return;
        }
        if let Some(p) = self.proc_mut(to)
            && p.is_alive()
        {
            p.mailbox.push_back(msg);
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
        p.status = ProcStatus::Exited(reason.clone());
        p.frames.clear();
        p.clear_stack();
        p.handlers.clear();
        p.mailbox.clear();
        let links = std::mem::take(&mut p.links);
        let watchers = std::mem::take(&mut p.monitored_by);
        let monitors = std::mem::take(&mut p.monitors);
        if let Some(name) = p.registered.take() {
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
                Term::Atom(Atom::DOWN),
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
        Arc::make_mut(&mut self.output).push((pid, text));
    }

    pub(crate) fn take_placeholder(&mut self, idx: usize) -> Arc<Process> {
        std::mem::replace(&mut self.procs[idx], self.placeholder.clone())
    }

    pub(crate) fn put_back(&mut self, idx: usize, p: Arc<Process>) {
        self.procs[idx] = p;
    }
}
