//! The interpreter: [`Vm::step`] runs one process's code up to and including
//! its next visible action, over an explicit stack of frames (deep recursion
//! never touches the Rust stack).

use std::sync::Arc;

use racewit_syntax::ir::{BinOp, CallSiteId, ComprehensionKind};

use crate::arith;
use crate::atom::Atom;
use crate::bif::{Ctx, Flow};
use crate::calling::{
    Cursor, FastCall, bind_closure, copy_cons_parts, fast_call, grow_regs, move_slot, take_or_clone,
};
use crate::code::{BifKind, Callee, CodeTable, FailKind, FnCode, Instr, Slot, Target};
use crate::event::{
    Access, Class, Event, EventKind, Exception, ProbeFrame, ReceiveProbe, SharedItem,
};
use crate::format;
use crate::limits::{self, CONS_WORDS, fresh_words, tuple_words};
use crate::pattern::{self, Env, build_binary};
use crate::process::{CHUNK_SLOTS, Frame, Handler, ProcStatus, Process, Start};
use crate::term::{Fun, MapKey, Pid, Term, TermMap};
use crate::vm::{Deferred, Vm, VmError};

/// The shortest run of instructions worth entering the hot loop for.
const HOT_RUN_MIN: u8 = 3;

enum Outcome {
    Event(Event),
    Exit(Term),
    /// A probe of a receive's clauses ([`Vm::receive_could_take`]) ended:
    /// whether a clause took the message.
    Probe(bool),
}

/// Whether the receive that peeks at `peek` in `f` has no `after` (or
/// `after infinity`), its timeout read from `regs` (the frame when it
/// started: the timeout is computed before). Found from the code's shape:
/// the clauses end with `RecvAdvance; Jump(peek)`, then its `RecvWait`.
/// Not found: false (the answer that assumes a timeout).
fn waits_forever(f: &FnCode, peek: usize, regs: &[Term]) -> bool {
    let instrs = &f.instrs;
    let Some(at) = (peek..instrs.len().saturating_sub(2)).find(|&k| {
        matches!(instrs[k], Instr::RecvAdvance)
            && matches!(instrs[k + 1], Instr::Jump(l) if l as usize == peek)
    }) else {
        return false;
    };
    match &instrs[at + 2] {
        Instr::RecvWait { timeout: None, .. } => true,
        Instr::RecvWait {
            timeout: Some(t), ..
        } => matches!(regs.get(*t as usize), Some(Term::Atom(Atom::INFINITY))),
        _ => false,
    }
}

enum Raised {
    Handled,
    Exit(Term),
}

impl Vm {
    /// Whether the receive `probe` describes would take `msg` if it were
    /// the only message in the mailbox: its patterns and guards are run on
    /// a copy of the frame they ran in, in a scratch copy of this VM, up to
    /// the clause that takes it or the end of the clauses. Patterns and
    /// guards have no effects, so nothing of this VM changes; anything
    /// unexpected on the way (a budget, a limit) answers true, the answer
    /// that orders the receive with the message. `self` may be any VM made
    /// from the same image (the code is shared).
    pub fn receive_could_take(&self, probe: &ReceiveProbe, msg: &Term) -> bool {
        self.clone().probe_receive(probe, msg)
    }

    /// [`Vm::receive_could_take`] run in this VM, kept for probes: what a
    /// probe changes (its counters, the running process) is put back, so
    /// one scratch VM serves every probe without a copy each.
    pub fn probe_receive(&mut self, probe: &ReceiveProbe, msg: &Term) -> bool {
        if let Some(known) = probe.known(msg) {
            return known;
        }
        let saved = (self.reductions, self.mem.clone(), self.current);
        let took = self.probe_in_place(probe, msg);
        (self.reductions, self.mem, self.current) = saved;
        self.probing = false;
        self.deferred.clear();
        self.atomic_event = None;
        self.self_exit = None;
        probe.remember(msg, took);
        took
    }

    fn probe_in_place(&mut self, probe: &ReceiveProbe, msg: &Term) -> bool {
        let frame = &probe.0;
        let vm = self;
        vm.probing = true;
        let mut p = Process::new(frame.pid, None, Term::Nil);
        p.regs = frame.regs.clone();
        p.top = p.regs.len();
        p.frames.push(Frame {
            module: frame.module,
            function: frame.function,
            pc: frame.peek_pc,
            base: 0,
            ret: 0,
            chunk: 0,
        });
        p.mailbox.push_back(msg.clone());
        let code = vm.code.clone();
        vm.current = Some(frame.pid);
        vm.step_start = vm.reductions;
        vm.spin = None;
        vm.open_meter();
        let outcome = vm.interpret(&code, &mut p);
        limits::close();
        !matches!(outcome, Ok(Outcome::Probe(false)))
    }

    /// Run `pid` up to and including its next visible action.
    pub fn step(&mut self, pid: Pid) -> Result<Event, VmError> {
        self.code_reads.clear();
        let mut r = self.step_process(pid);
        if !self.code_reads.is_empty()
            && let Ok(ev) = &mut r
        {
            for m in self.code_reads.drain(..) {
                let read = (SharedItem::Code(m.name().to_string()), Access::Read);
                if !ev.accesses.contains(&read) {
                    ev.accesses.push(read);
                }
            }
        }
        r
    }

    /// A call by name into code that may change at run time
    /// ([`CodeTable::watched`]): a read of the module's current code. Once
    /// that code has changed, the call is a visible step of its own (it
    /// ends the step once entered), so a reload may come between two
    /// calls; before, the read is added to the step's event, so the search
    /// still orders the step with a later load.
    fn read_code(&mut self, code: &CodeTable, p: &mut Process, target: &Target) {
        let Some(module) = code.watched(target) else {
            return;
        };
        if code.changed_at_run_time(module).is_none() {
            if !self.code_reads.contains(&module) {
                self.code_reads.push(module);
            }
            return;
        }
        let what = match *target {
            Target::Code {
                module: index,
                function,
            } => {
                let f = code.func(index, function);
                format!("{}/{}", format::atom_text(f.name), f.arity)
            }
            Target::Undef { name, arity, .. } => format!("{}/{arity}", format::atom_text(name)),
            _ => "module_info".to_string(),
        };
        let what = format!("{}:{what}", format::atom_text(module));
        let ev = Event::new(
            p.pid,
            EventKind::Local,
            format!("calls {what} (code changed at run time)"),
        )
        .with_item(SharedItem::Code(module.name().to_string()), Access::Read);
        self.pending_event(p, ev);
    }

    fn step_process(&mut self, pid: Pid) -> Result<Event, VmError> {
        let idx = pid.0 as usize;
        let Some(p) = self.procs.get(idx) else {
            return Err(VmError::NoSuchProcess(pid));
        };
        if !p.can_step() || self.halted.is_some() {
            return Err(VmError::NotEnabled(pid));
        }
        self.step_count += 1;
        let code = self.code.clone();
        let mut arc = self.take_placeholder(idx);
        let proc = Arc::make_mut(&mut arc);
        self.current = Some(pid);
        self.step_start = self.reductions;
        self.spin = None;
        self.open_meter();
        let outcome = match self.run(&code, proc) {
            // A busy loop: parked where it runs, alive; the others go on.
            Err(VmError::BusyLoop { reductions, .. }) => {
                let call = format!(
                    "a busy loop (its state came back after {} reductions without a visible \
                     action)",
                    limits::thousands(reductions)
                );
                Ok(self.park(proc, call, crate::library::ParkReason::BusyLoop, None))
            }
            other => other,
        };
        limits::close();
        self.current = None;
        self.self_exit = None;
        // Stale registers above the live top are trimmed between steps, so a
        // fork copies only live state (and memory is given back).
        if proc.regs.len() > proc.top + 256 {
            proc.regs.truncate(proc.top);
        }
        proc.spare = Vec::new();
        self.put_back(idx, arc);
        // A visible action after which the process ended in the same run
        // (its last call, `register` say, or one that raised uncaught:
        // `register` of a taken name → badarg) is the step's event, and
        // the exit is the process's next step: the scheduler sees the
        // action, then may run others, then the exit, as on the BEAM.
        let attempted = if matches!(outcome, Ok(Outcome::Exit(_)) | Err(_)) {
            self.atomic_event.take().filter(|ev| ev.pid == pid)
        } else {
            None
        };
        if let (Some(ev), Ok(Outcome::Exit(reason))) = (&attempted, &outcome)
            && self.procs[idx].atomic == 0
        {
            let p = Arc::make_mut(&mut self.procs[idx]);
            p.exit_next = Some(reason.clone());
            return Ok(ev.clone());
        }
        match outcome {
            Ok(Outcome::Event(ev)) => Ok(ev),
            // Only a probe ends so, and a step is never one.
            Ok(Outcome::Probe(_)) => Ok(Event::new(pid, EventKind::Local, String::new())),
            Ok(Outcome::Exit(reason)) => {
                let text = format!("exit({})", format::brief(&reason));
                // A failed attempt keeps the access it had (a refused
                // `register` only observed the registry): whether it crashed
                // the process is plain from the exit that follows in the text
                // and from the process's fate.
                let effects = self.exit_effects(pid);
                self.terminate(pid, reason);
                match attempted {
                    Some(mut ev) => {
                        ev.text.push_str("; ");
                        ev.text.push_str(&text);
                        ev.accesses.extend(effects);
                        Ok(ev)
                    }
                    None => {
                        let mut ev = Event::new(pid, EventKind::Exit, text)
                            .with_item(SharedItem::Process(pid), Access::Write);
                        ev.accesses = effects;
                        Ok(ev)
                    }
                }
            }
            Err(e) => Err(e),
        }
    }

    /// A timer fires: its message goes to its destination (a registered
    /// name is looked up now; a name not registered, or a process gone,
    /// gets nothing) and the timer is gone. One step, seen by the scheduler
    /// as a timeout.
    fn fire_timer(&mut self, p: &mut Process) -> Outcome {
        let Some(job) = p.timer.take() else {
            return Outcome::Exit(Term::Atom(Atom::NORMAL));
        };
        if let ProcStatus::Waiting { deadline } = p.status {
            self.vclock = self.vclock.max(deadline);
        }
        self.stop_waiting(p);
        p.status = ProcStatus::Exited(Term::Atom(Atom::NORMAL));
        self.note_exit();
        let mut text = String::from("timer fires: ");
        format::brief_into(&job.dest, &mut text);
        text.push_str(" ! ");
        format::brief_into(&job.msg, &mut text);
        let mut ev = Event::new(p.pid, EventKind::Timeout, text);
        let target = match &job.dest {
            Term::Pid(t) => Some(*t),
            Term::Atom(a) => {
                ev.accesses
                    .push((SharedItem::Registry(a.name().into()), Access::Read));
                self.registry.get(a).copied()
            }
            _ => None,
        };
        if let Some(t) = target {
            ev.accesses.push((SharedItem::Mailbox(t), Access::Write));
            ev.item = Some(SharedItem::Mailbox(t));
            ev.access = Some(Access::Write);
            ev.message = Some(job.msg.clone());
            self.deliver(t, job.msg);
        }
        ev.accesses
            .push((SharedItem::Process(p.pid), Access::Write));
        Outcome::Event(ev)
    }

    /// Everything a process's exit touches, for the scheduler's dependency
    /// relation: the process itself, the mailboxes of linked and monitoring
    /// processes (exit signals, `'DOWN'`), linked processes (a signal may
    /// kill them), its registered and global names, and the tables it owns.
    fn exit_effects(&self, pid: Pid) -> Vec<(SharedItem, Access)> {
        let mut out = vec![(SharedItem::Process(pid), Access::Write)];
        let Some(p) = self.procs.get(pid.0 as usize) else {
            return out;
        };
        for l in &p.links {
            out.push((SharedItem::Mailbox(*l), Access::Write));
            out.push((SharedItem::Process(*l), Access::Write));
        }
        for (w, _) in p.monitored_by.values() {
            out.push((SharedItem::Mailbox(*w), Access::Write));
        }
        // Its monitors go with it, as a `demonitor` would: the death of a
        // process it watched sends nothing here any more. Ordered with that
        // death (a write of the watched process), as `demonitor` is.
        for t in p.monitors.values() {
            out.push((SharedItem::Process(*t), Access::Read));
        }
        if let Some(name) = p.registered {
            out.push((SharedItem::Registry(name.name().into()), Access::Write));
        }
        // Timers bound for it are cancelled.
        for t in &p.incoming_timers {
            out.push((SharedItem::Process(*t), Access::Write));
        }
        for (k, q) in self.global_names.iter() {
            if *q == pid {
                out.push((SharedItem::Global(format::brief(&k.0)), Access::Write));
            }
        }
        for t in self.ets.tables.values() {
            if t.owner == pid {
                out.push((
                    SharedItem::Ets {
                        table: t.label(),
                        key: None,
                    },
                    Access::Write,
                ));
            }
        }
        out
    }

    fn run(&mut self, code: &CodeTable, p: &mut Process) -> Result<Outcome, VmError> {
        if p.timer.is_some() {
            return Ok(self.fire_timer(p));
        }
        if let Some(reason) = p.exit_next.take() {
            return Ok(Outcome::Exit(reason));
        }
        match p.status {
            ProcStatus::Waiting { deadline } if p.mailbox.len() <= p.scanned => {
                self.stop_waiting(p);
                p.status = ProcStatus::Runnable;
                p.wait_deadline = None;
                self.vclock = self.vclock.max(deadline);
                if let Some(f) = p.frames.last_mut() {
                    f.pc = p.after_pc;
                }
                let mut ev = Event::new(p.pid, EventKind::Timeout, "timeout".into());
                ev.receive = p.recv_probe.clone();
                return Ok(Outcome::Event(ev));
            }
            ProcStatus::Waiting { .. } => {
                self.stop_waiting(p);
                p.status = ProcStatus::Runnable;
            }
            ProcStatus::Blocked => p.status = ProcStatus::Runnable,
            _ => {}
        }
        if let Some(start) = p.start.take() {
            let r = match start {
                Start::Call(t, args) => self.enter(code, p, t, args, 0, false),
                Start::Apply(f, args) => self.apply_fun(code, p, f, args, 0, false),
            };
            match r {
                // The start was a visible call (`read_code`).
                Ok(None) if p.atomic == 0 && self.atomic_event.is_some() => {
                    if let Some(ev) = self.take_event(p) {
                        return Ok(Outcome::Event(ev));
                    }
                }
                Ok(None) => {}
                Ok(Some(o)) => return Ok(o),
                Err(e) => return Err(e),
            }
        }
        self.interpret(code, p)
    }

    /// Start a call of `target` with `args`; the result goes to slot `ret` of the caller.
    fn enter(
        &mut self,
        code: &CodeTable,
        p: &mut Process,
        target: Target,
        args: Vec<Term>,
        ret: u32,
        tail: bool,
    ) -> Result<Option<Outcome>, VmError> {
        self.read_code(code, p, &target);
        match target {
            Target::Code { module, function } => {
                let f = code.func(module, function);
                self.push_frame(p, f, module, function, args, ret, tail)?;
                Ok(None)
            }
            Target::Bif(b) => {
                let flow = match b.kind {
                    BifKind::Pure(f) => match self.call_pure(p, f, &args)? {
                        Ok(v) => Flow::Value(v),
                        Err(r) => Flow::error(r),
                    },
                    BifKind::Ctx(c) => {
                        self.call_ctx(p, crate::bif::ctx_fn(c), &args, None, None)?
                    }
                };
                self.finish_flow(code, p, flow, ret, tail, None)
            }
            Target::Undef {
                module,
                name,
                arity,
            } => {
                let exc = undef(module, name, &args, arity);
                self.raise_outcome(p, code, exc)
            }
            Target::ModuleInfo { module } => {
                let get = crate::bif::lookup(
                    Atom::ERLANG,
                    Atom::new("get_module_info"),
                    args.len() as u32 + 1,
                )
                .expect("erlang:get_module_info/1,2 are BIFs");
                let BifKind::Ctx(c) = get.kind else {
                    unreachable!("erlang:get_module_info/1,2 read the code table")
                };
                let mut with_module = Vec::with_capacity(args.len() + 1);
                with_module.push(Term::Atom(module));
                with_module.extend(args);
                let flow = self.call_ctx(p, crate::bif::ctx_fn(c), &with_module, None, None)?;
                self.finish_flow(code, p, flow, ret, tail, None)
            }
            Target::Unsupported {
                module,
                name,
                arity,
                reason,
            } => Ok(Some(self.park(
                p,
                format!("{}:{}/{}", module.name(), name.name(), arity),
                reason,
                None,
            ))),
        }
    }

    /// Call a pure BIF. Its result's new part counts as allocated; a BIF
    /// refused room runs again once the VM has measured (and the run stops
    /// if the room is not there).
    fn call_pure(
        &mut self,
        p: &Process,
        f: crate::bif::PureFn,
        args: &[Term],
    ) -> Result<Result<Term, Term>, VmError> {
        let r = self.with_room(p, || f(args))?;
        if let Ok(v) = &r {
            let w = fresh_words(v);
            if w > 0 {
                self.note_alloc(w);
            }
        }
        Ok(r)
    }

    /// Run `f` (which asks for room before it allocates much, and has no
    /// effect before): refused, measure and run it once more.
    fn with_room<T>(
        &mut self,
        p: &Process,
        mut f: impl FnMut() -> Result<T, Term>,
    ) -> Result<Result<T, Term>, VmError> {
        let r = f();
        if r.is_ok() {
            return Ok(r);
        }
        let Some(request) = limits::take_refusal() else {
            return Ok(r);
        };
        self.make_room(p, request)?;
        let r = f();
        if r.is_err()
            && let Some(request) = limits::take_refusal()
        {
            return Err(self.out_of_memory(p, request));
        }
        Ok(r)
    }

    /// Call a context BIF (at call site `site`, `span`), as [`Vm::call_pure`].
    #[inline(always)]
    fn call_ctx(
        &mut self,
        p: &mut Process,
        f: crate::bif::CtxFn,
        args: &[Term],
        site: Option<(racewit_syntax::ir::Name, CallSiteId)>,
        span: Option<racewit_syntax::Span>,
    ) -> Result<Flow, VmError> {
        let mut ctx = Ctx {
            vm: self,
            proc: p,
            event: None,
            site,
            span,
        };
        let flow = f(&mut ctx, args);
        let ev = ctx.event.take();
        if matches!(flow, Flow::Raise(_))
            && let Some(request) = limits::take_refusal()
        {
            let site = ctx.site.take();
            return self.call_ctx_again(p, f, args, site, span, request);
        }
        self.apply_deferred(p);
        if let Some(ev) = ev {
            self.pending_event(p, ev);
        }
        if let Flow::Value(v) = &flow {
            let w = fresh_words(v);
            if w > 0 {
                self.note_alloc(w);
            }
        }
        Ok(flow)
    }

    /// A context BIF was refused room, before any effect: measure, and run
    /// it once more (refused again, the run stops).
    #[cold]
    #[inline(never)]
    fn call_ctx_again(
        &mut self,
        p: &mut Process,
        f: crate::bif::CtxFn,
        args: &[Term],
        site: Option<(racewit_syntax::ir::Name, CallSiteId)>,
        span: Option<racewit_syntax::Span>,
        request: u64,
    ) -> Result<Flow, VmError> {
        self.make_room(p, request)?;
        let mut ctx = Ctx {
            vm: self,
            proc: p,
            event: None,
            site,
            span,
        };
        let flow = f(&mut ctx, args);
        let ev = ctx.event.take();
        if matches!(flow, Flow::Raise(_))
            && let Some(request) = limits::take_refusal()
        {
            return Err(self.out_of_memory(p, request));
        }
        self.apply_deferred(p);
        if let Some(ev) = ev {
            self.pending_event(p, ev);
        }
        if let Flow::Value(v) = &flow {
            self.note_alloc(fresh_words(v));
        }
        Ok(flow)
    }

    fn park(
        &mut self,
        p: &mut Process,
        call: String,
        reason: crate::library::ParkReason,
        span: Option<racewit_syntax::Span>,
    ) -> Outcome {
        // Where it stopped: the call's line when known, else the innermost
        // function of the program's own code (a BIF called from library
        // code), so a parked call is never reported without a place.
        let location = self.where_running(p, span);
        let text = format!("stopped at {}", reason.describe(&call));
        p.status = ProcStatus::Parked {
            call,
            location,
            reason,
        };
        let mut ev = Event::new(p.pid, EventKind::Parked, text);
        ev.span = span;
        Outcome::Event(ev)
    }

    /// A visible action happened during a call made outside the instruction loop.
    fn pending_event(&mut self, p: &mut Process, ev: Event) {
        match &mut self.atomic_event {
            Some(acc) if p.atomic > 0 || acc.pid == p.pid => {
                acc.accesses.extend(ev.accesses.iter().cloned());
                // The first access names the step: its item, call site and
                // span (a transaction's begin has none).
                if acc.item.is_none() && ev.item.is_some() {
                    acc.item = ev.item.clone();
                    acc.access = ev.access;
                    acc.site = ev.site.clone();
                    acc.span = ev.span;
                }
                acc.text.push_str("; ");
                acc.text.push_str(&ev.text);
            }
            _ => self.atomic_event = Some(ev),
        }
    }

    /// One reduction (a call, or a turn of a comprehension); stops a run
    /// over budget, and now and then looks at memory.
    #[inline(always)]
    fn count_reduction(&mut self, p: &Process) -> Result<(), VmError> {
        self.reductions += 1;
        if self.reductions > self.max_reductions {
            return self.reduction_checkpoint(p);
        }
        Ok(())
    }

    /// Make room for a frame of `f` and push it, or let it replace the top
    /// frame (a tail call: same base and return slot). Returns its base.
    #[inline(always)]
    fn place_frame(
        &mut self,
        p: &mut Process,
        f: &FnCode,
        module: u32,
        function: u32,
        ret: u32,
        tail: bool,
    ) -> usize {
        let base = match p.frames.last_mut() {
            Some(top) if tail => {
                top.module = module;
                top.function = function;
                top.pc = 0;
                top.base as usize
            }
            _ => {
                if Self::needs_chunk(p, f) {
                    self.note_alloc(Self::new_chunk(p, f));
                }
                let base = p.top;
                p.frames.push(Frame {
                    module,
                    function,
                    pc: 0,
                    base: base as u32,
                    ret,
                    chunk: p.lower.len() as u32,
                });
                base
            }
        };
        p.top = base + f.frame_size as usize;
        if p.regs.len() < p.top {
            self.note_alloc(grow_regs(p, p.top));
        }
        base
    }

    /// A new frame of `f` goes to a new chunk.
    #[inline(always)]
    fn needs_chunk(p: &Process, f: &FnCode) -> bool {
        p.top + f.frame_size as usize > CHUNK_SLOTS && p.top > 0
    }

    /// Returns the words allocated.
    #[inline(never)]
    fn new_chunk(p: &mut Process, f: &FnCode) -> u64 {
        let before = p.spare.capacity();
        p.push_chunk(f.frame_size as usize);
        2 * p.regs.capacity().saturating_sub(before) as u64
    }

    /// After the top frame is popped: make the chunk of the new top frame current.
    #[inline(never)]
    fn back_to_chunk(p: &mut Process, chunk: u32) {
        while p.lower.len() > chunk as usize {
            p.pop_chunk();
        }
    }

    /// Call compiled code with argument values.
    #[allow(clippy::too_many_arguments)]
    fn push_frame(
        &mut self,
        p: &mut Process,
        f: &FnCode,
        module: u32,
        function: u32,
        args: Vec<Term>,
        ret: u32,
        tail: bool,
    ) -> Result<(), VmError> {
        self.count_reduction(p)?;
        let base = self.place_frame(p, f, module, function, ret, tail);
        for (i, a) in args.into_iter().enumerate() {
            Term::put(&mut p.regs[base + i], a);
        }
        Ok(())
    }

    /// Call compiled code with the arguments in slots `args` of the frame at
    /// `base`: copied, or moved when a tail call replaces that frame.
    /// Returns the new frame's base.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn open_frame(
        &mut self,
        p: &mut Process,
        f: &FnCode,
        module: u32,
        function: u32,
        base: usize,
        args: &[Slot],
        ret: u32,
        tail: bool,
        moves: u32,
    ) -> Result<usize, VmError> {
        self.count_reduction(p)?;
        // No source slot below its argument's position: moved in order, each
        // is read before anything writes to it (sources are distinct).
        if tail && args.iter().enumerate().all(|(j, s)| *s as usize >= j) {
            let nb = self.place_frame(p, f, module, function, ret, true);
            for (j, s) in args.iter().enumerate() {
                let src = base + *s as usize;
                if src != nb + j {
                    let (lo, hi) = p.regs.split_at_mut(src);
                    Term::move_into(&mut lo[nb + j], &mut hi[0]);
                }
            }
            Ok(nb)
        } else if tail {
            let mut buf = std::mem::take(&mut self.argbuf);
            for s in args {
                buf.push(std::mem::replace(
                    &mut p.regs[base + *s as usize],
                    Term::Nil,
                ));
            }
            let nb = self.place_frame(p, f, module, function, ret, true);
            for (i, v) in buf.drain(..).enumerate() {
                Term::put(&mut p.regs[nb + i], v);
            }
            self.argbuf = buf;
            Ok(nb)
        } else if Self::needs_chunk(p, f) {
            let mut buf = std::mem::take(&mut self.argbuf);
            buf.extend(args.iter().map(|s| p.regs[base + *s as usize].clone()));
            let nb = self.place_frame(p, f, module, function, ret, false);
            for (i, v) in buf.drain(..).enumerate() {
                Term::put(&mut p.regs[nb + i], v);
            }
            self.argbuf = buf;
            Ok(nb)
        } else {
            let nb = self.place_frame(p, f, module, function, ret, false);
            // The new frame lies above the caller's.
            let (lo, hi) = p.regs.split_at_mut(nb);
            for (i, s) in args.iter().enumerate() {
                let src = &mut lo[base + *s as usize];
                if i < 32 && moves >> i & 1 == 1 {
                    Term::move_into(&mut hi[i], src);
                } else {
                    Term::copy_into(&mut hi[i], src);
                }
            }
            Ok(nb)
        }
    }

    fn finish_flow(
        &mut self,
        code: &CodeTable,
        p: &mut Process,
        flow: Flow,
        ret: u32,
        tail: bool,
        span: Option<racewit_syntax::Span>,
    ) -> Result<Option<Outcome>, VmError> {
        match flow {
            Flow::Value(v) => {
                if tail {
                    return Ok(self.do_return(p, v));
                }
                if let Some(top) = p.frames.last() {
                    p.regs[(top.base + ret) as usize] = v;
                    Ok(None)
                } else {
                    p.result = Some(v);
                    Ok(Some(Outcome::Exit(Term::Atom(Atom::NORMAL))))
                }
            }
            Flow::Raise(exc) => self.raise_outcome(p, code, exc),
            Flow::Apply(f, args) => self.apply_fun(code, p, f, args, ret, tail),
            Flow::Call(t, args) => self.enter(code, p, t, args, ret, tail),
            // A park names the call's site when the BIF was called from the
            // program's own code (`span`), else where the process is.
            Flow::Park(call) => Ok(Some(self.park(
                p,
                call,
                crate::library::ParkReason::Unsupported,
                span,
            ))),
            Flow::ParkWith(reason, call) => Ok(Some(self.park(p, call, reason, span))),
            Flow::Exit(reason) => Ok(Some(Outcome::Exit(reason))),
            Flow::Stop(e) => Err(e),
        }
    }

    /// Return the value in slot `src` of the top frame (moved out: the frame dies).
    #[inline(always)]
    fn return_slot(&mut self, p: &mut Process, src: usize) -> Option<Outcome> {
        let Some(top) = p.frames.pop() else {
            let v = std::mem::replace(&mut p.regs[src], Term::Nil);
            p.result = Some(v);
            return Some(Outcome::Exit(Term::Atom(Atom::NORMAL)));
        };
        p.top = top.base as usize;
        match p.frames.last() {
            Some(caller) if caller.chunk != top.chunk => {
                let v = std::mem::replace(&mut p.regs[src], Term::Nil);
                let dst = (caller.base + top.ret) as usize;
                Self::back_to_chunk(p, caller.chunk);
                Term::put(&mut p.regs[dst], v);
                None
            }
            Some(caller) => {
                // The caller's slots lie below the returning frame.
                let (lo, hi) = p.regs.split_at_mut(top.base as usize);
                let dst = (caller.base + top.ret) as usize;
                Term::move_into(&mut lo[dst], &mut hi[src - top.base as usize]);
                None
            }
            None => {
                let v = std::mem::replace(&mut p.regs[src], Term::Nil);
                p.result = Some(v);
                Some(Outcome::Exit(Term::Atom(Atom::NORMAL)))
            }
        }
    }

    /// Return the small integer `v` from the top frame (stored field by
    /// field, as `put_int` in the loop does).
    #[inline(always)]
    fn return_int(&mut self, p: &mut Process, v: i64) -> Option<Outcome> {
        Self::return_value(p, v, Term::put_int, Term::Int)
    }

    /// Return `v` from the top frame.
    #[inline(always)]
    fn do_return(&mut self, p: &mut Process, v: Term) -> Option<Outcome> {
        Self::return_value(p, v, Term::put, |t| t)
    }

    /// Return `v` from the top frame: `store` puts it in the caller's slot;
    /// `term` makes it the process's result when no caller is left.
    #[inline(always)]
    fn return_value<V>(
        p: &mut Process,
        v: V,
        store: fn(&mut Term, V),
        term: fn(V) -> Term,
    ) -> Option<Outcome> {
        let Some(top) = p.frames.pop() else {
            p.result = Some(term(v));
            return Some(Outcome::Exit(Term::Atom(Atom::NORMAL)));
        };
        p.top = top.base as usize;
        match p.frames.last() {
            Some(caller) => {
                let dst = (caller.base + top.ret) as usize;
                if caller.chunk != top.chunk {
                    Self::back_to_chunk(p, caller.chunk);
                }
                store(&mut p.regs[dst], v);
                None
            }
            None => {
                p.result = Some(term(v));
                Some(Outcome::Exit(Term::Atom(Atom::NORMAL)))
            }
        }
    }

    fn apply_fun(
        &mut self,
        code: &CodeTable,
        p: &mut Process,
        f: Term,
        args: Vec<Term>,
        ret: u32,
        tail: bool,
    ) -> Result<Option<Outcome>, VmError> {
        let Term::Fun(fun) = &f else {
            let exc = Exception::error(Term::tuple(vec![Term::Atom(Atom::BADFUN), f.clone()]));
            return self.raise_outcome(p, code, exc);
        };
        if fun.arity() as usize != args.len() {
            let exc = Exception::error(Term::tuple(vec![
                Term::Atom(Atom::BADARITY),
                Term::tuple(vec![f.clone(), Term::list(args)]),
            ]));
            return self.raise_outcome(p, code, exc);
        }
        match &**fun {
            Fun::Closure {
                mod_index,
                index,
                env,
                ..
            } => {
                let fi = code.modules[*mod_index as usize].functions_len + index;
                let fc = code.func(*mod_index, fi);
                self.push_frame(p, fc, *mod_index, fi, args, ret, tail)?;
                let base = p.frames.last().map(|f| f.base).unwrap_or(0) as usize;
                for (slot, v) in fc.env_slots.iter().zip(env.iter()) {
                    p.regs[base + *slot as usize] = v.clone();
                }
                if let Some(s) = fc.self_slot {
                    p.regs[base + s as usize] = f.clone();
                }
                Ok(None)
            }
            Fun::Local {
                mod_index,
                function,
                ..
            } => {
                let fc = code.func(*mod_index, *function);
                self.push_frame(p, fc, *mod_index, *function, args, ret, tail)?;
                Ok(None)
            }
            Fun::Export {
                module,
                name,
                arity,
            } => {
                let t = code.resolve(*module, *name, *arity);
                self.enter(code, p, t, args, ret, tail)
            }
        }
    }

    fn raise_outcome(
        &mut self,
        p: &mut Process,
        code: &CodeTable,
        exc: Exception,
    ) -> Result<Option<Outcome>, VmError> {
        match self.raise(p, code, exc) {
            Raised::Handled => Ok(None),
            Raised::Exit(r) => Ok(Some(Outcome::Exit(r))),
        }
    }

    /// Unwind to the innermost handler, or end the process.
    fn raise(&mut self, p: &mut Process, code: &CodeTable, mut exc: Exception) -> Raised {
        if matches!(exc.stack, Term::Nil) {
            exc.stack = stack_trace(p, code);
            self.note_alloc(fresh_words(&exc.stack));
        }
        if let Some(h) = p.handlers.pop() {
            p.frames.truncate(h.depth as usize);
            let Some(top) = p.frames.last_mut() else {
                return Raised::Exit(exit_reason(&exc));
            };
            top.pc = h.pc;
            let base = top.base as usize;
            let size = code.func(top.module, top.function).frame_size as usize;
            let chunk = top.chunk;
            Self::back_to_chunk(p, chunk);
            p.top = base + size;
            let class = match exc.class {
                Class::Error => Atom::ERROR,
                Class::Exit => Atom::EXIT,
                Class::Throw => Atom::THROW,
            };
            p.regs[base + h.class as usize] = Term::Atom(class);
            p.regs[base + h.reason as usize] = exc.reason;
            p.regs[base + h.stack as usize] = exc.stack;
            Raised::Handled
        } else {
            let reason = exit_reason(&exc);
            p.crash = Some(exc);
            Raised::Exit(reason)
        }
    }

    fn apply_deferred(&mut self, p: &mut Process) {
        if self.deferred.is_empty() {
            return;
        }
        let items = std::mem::take(&mut self.deferred);
        for d in items {
            match d {
                Deferred::Message(m) => p.mailbox.push_back(m),
                Deferred::Unlink(other) => {
                    p.links.remove(&other);
                }
                Deferred::DropMonitor(r) => {
                    p.monitors.remove(&r);
                }
                Deferred::Exit {
                    from,
                    reason,
                    linked,
                } => {
                    if !linked && reason.is_atom(Atom::KILL) {
                        self.self_exit.get_or_insert(Term::Atom(Atom::KILLED));
                    } else if p.trap_exit {
                        p.mailbox.push_back(Term::tuple(vec![
                            Term::Atom(Atom::EXIT_UPPER),
                            Term::Pid(from),
                            reason,
                        ]));
                    } else if !reason.is_atom(Atom::NORMAL) || (from == p.pid && !linked) {
                        self.self_exit.get_or_insert(reason);
                    }
                }
            }
        }
    }

    fn interpret(&mut self, code: &CodeTable, p: &mut Process) -> Result<Outcome, VmError> {
        macro_rules! reload {
            () => {{
                match p.frames.last() {
                    Some(fr) => {
                        let fr = *fr;
                        (
                            code.func(fr.module, fr.function),
                            fr.base as usize,
                            fr.pc as usize,
                            fr.module,
                        )
                    }
                    None => {
                        return Ok(Outcome::Exit(Term::Atom(Atom::NORMAL)));
                    }
                }
            }};
        }
        let (mut f, mut base, mut pc, mut module) = reload!();
        // The current function's index in its module.
        let mut function = p.frames.last().map_or(0, |fr| fr.function);
        // The current frame's registers (slot `s` is `regs[s]`), taken anew
        // at each turn of the loop (after the hot loop) and whenever the
        // frame changes or the process was lent out within an instruction.
        let mut regs: &mut [Term];
        // Go on in the top frame; its code is looked up unless it is the
        // function just left (a return within a recursion).
        macro_rules! resume {
            () => {{
                match p.frames.last() {
                    Some(fr) => {
                        let fr = *fr;
                        if fr.module != module || fr.function != function {
                            f = code.func(fr.module, fr.function);
                            module = fr.module;
                            function = fr.function;
                        }
                        base = fr.base as usize;
                        pc = fr.pc as usize;
                    }
                    None => {
                        return Ok(Outcome::Exit(Term::Atom(Atom::NORMAL)));
                    }
                }
            }};
        }
        macro_rules! save_pc {
            () => {
                if let Some(fr) = p.frames.last_mut() {
                    fr.pc = pc as u32;
                }
            };
        }
        macro_rules! r {
            ($s:expr) => {
                regs[$s as usize]
            };
        }
        // The instruction (pc) and measurement count of the last rerun of an
        // instruction refused room.
        let mut rerun: (usize, u64) = (usize::MAX, 0);
        macro_rules! throw {
            ($exc:expr) => {{
                let exc = $exc;
                // An instruction refused room raises before any effect:
                // measure, and run it again, unless it was just run again
                // after a measurement.
                if let Some(request) = limits::take_refusal() {
                    if rerun == (pc, self.mem.measurements) {
                        return Err(self.out_of_memory(p, request));
                    }
                    self.make_room(p, request)?;
                    rerun = (pc, self.mem.measurements);
                    pc -= 1;
                    continue;
                }
                save_pc!();
                match self.raise(p, code, exc) {
                    Raised::Handled => {
                        resume!();
                        continue;
                    }
                    Raised::Exit(r) => return Ok(Outcome::Exit(r)),
                }
            }};
        }
        macro_rules! error {
            ($reason:expr) => {
                throw!(Exception::error($reason))
            };
        }
        macro_rules! after_call {
            ($res:expr) => {{
                match $res {
                    Ok(None) => {
                        if let Some(reason) = self.self_exit.take() {
                            return Ok(Outcome::Exit(reason));
                        }
                        if let Some(ev) = self.take_event(p) {
                            return Ok(Outcome::Event(ev));
                        }
                        resume!();
                        continue;
                    }
                    Ok(Some(o)) => {
                        if let Some(reason) = self.self_exit.take() {
                            return Ok(Outcome::Exit(reason));
                        }
                        return Ok(self.merge_outcome(p, o));
                    }
                    Err(e) => return Err(e),
                }
            }};
        }
        // A failed match: go to the next clause, or raise `{badmatch, V}`.
        macro_rules! match_failed {
            ($fail:expr, $src:expr) => {
                match $fail {
                    Some(l) => pc = *l as usize,
                    None => {
                        let v = r!(*$src).clone();
                        error!(Term::tuple(vec![Term::Atom(Atom::BADMATCH), v]))
                    }
                }
            };
        }
        // Call compiled function `fi` of module `m`: the loop goes on in it.
        macro_rules! enter_code {
            ($m:expr, $fi:expr, $args:expr, $dst:expr, $tail:expr, $moves:expr) => {{
                // A recursive call needs no lookup.
                let fc = if $m == module && $fi == function {
                    f
                } else {
                    code.func($m, $fi)
                };
                save_pc!();
                base = self.open_frame(p, fc, $m, $fi, base, $args, $dst, $tail, $moves)?;
                f = fc;
                pc = 0;
                module = $m;
                function = $fi;
                fc
            }};
        }
        // Store a small integer or boolean result straight into its slot
        // (no `Term` assembled on the stack and copied: that stalls).
        macro_rules! put_int {
            ($dst:expr, $v:expr) => {{
                let slot = &mut r!($dst);
                if let Term::Int(d) = slot {
                    *d = $v;
                } else if slot.is_immediate() {
                    std::mem::forget(std::mem::replace(slot, Term::Int($v)));
                } else {
                    *slot = Term::Int($v);
                }
                continue;
            }};
        }
        macro_rules! put_bool {
            ($dst:expr, $v:expr) => {{
                let slot = &mut r!($dst);
                let a = Atom::bool($v);
                if slot.is_immediate() {
                    std::mem::forget(std::mem::replace(slot, Term::Atom(a)));
                } else {
                    *slot = Term::Atom(a);
                }
                continue;
            }};
        }
        // `x op y` on small integers with a small result: stored, and the
        // loop goes on; otherwise falls through to the general operator.
        macro_rules! small_op {
            ($op:expr, $x:expr, $y:expr, $dst:expr) => {
                if let Some(v) = arith::small_int_op($op, $x, $y) {
                    put_int!($dst, v)
                }
                if let Some(b) = arith::small_compare($op, $x, $y) {
                    put_bool!($dst, b)
                }
            };
        }
        // `a op K`, `K` a small integer.
        macro_rules! op_imm {
            ($op:expr, $dst:expr, $a:expr, $imm:expr) => {{
                if let Term::Int(x) = &r!($a) {
                    let x = *x;
                    small_op!($op, x, $imm, $dst);
                }
                match arith::binop($op, &r!($a), &Term::Int($imm)) {
                    Ok(v) => Term::put(&mut r!($dst), v),
                    Err(e) => error!(e),
                }
            }};
        }
        let hot = self.config.hot_loop;
        loop {
            // The common instructions run in the hot loop; it stops at the
            // first one it leaves to this loop. It is entered where a run
            // of instructions it may run starts (for one or two, entering
            // costs more than it saves).
            if hot && f.hot_run.get(pc).is_some_and(|&n| n >= HOT_RUN_MIN) {
                let mut cur = Cursor {
                    f,
                    module,
                    function,
                    base,
                    pc,
                };
                self.hot_loop(code, p, &mut cur);
                (f, module, function, base, pc) =
                    (cur.f, cur.module, cur.function, cur.base, cur.pc);
            }
            regs = &mut p.regs[base..];
            let Some(ins) = f.instrs.get(pc) else {
                error!(Term::Atom(Atom::new("racewit_bad_pc")));
            };
            pc += 1;
            match ins {
                Instr::Const { dst, value } => Term::put(&mut r!(*dst), value.clone()),
                Instr::Move { dst, src } => {
                    let (d, s) = (*dst as usize, *src as usize);
                    if d < s {
                        let (lo, hi) = regs.split_at_mut(s);
                        Term::copy_into(&mut lo[d], &hi[0]);
                    } else if d > s {
                        let (lo, hi) = regs.split_at_mut(d);
                        Term::copy_into(&mut hi[0], &lo[s]);
                    }
                }
                Instr::MoveLast { dst, src } => move_slot(regs, *dst, *src),
                Instr::Cons {
                    dst,
                    head,
                    tail,
                    moves,
                } => {
                    let h = take_or_clone(&mut r!(*head), moves & 1 != 0);
                    let t = take_or_clone(&mut r!(*tail), moves & 2 != 0);
                    Term::put(&mut r!(*dst), Term::cons(h, t));
                    self.mem.alloc += CONS_WORDS;
                }
                Instr::Tuple { dst, elems } => {
                    let v: Vec<Term> = elems.iter().map(|s| r!(*s).clone()).collect();
                    r!(*dst) = Term::tuple(v);
                    self.mem.alloc += tuple_words(elems.len());
                }
                Instr::Map {
                    dst,
                    base: mb,
                    fields,
                } => {
                    let mut m: TermMap = match mb {
                        Some(b) => match &r!(*b) {
                            Term::Map(m) => (**m).clone(),
                            other => {
                                let o = other.clone();
                                error!(Term::tuple(vec![Term::Atom(Atom::BADMAP), o]))
                            }
                        },
                        None => TermMap::new(),
                    };
                    let mut bad = None;
                    for (k, v, exact) in fields.iter() {
                        let key = r!(*k).clone();
                        if *exact && !m.contains_key(&MapKey(key.clone())) {
                            bad = Some(key);
                            break;
                        }
                        m.insert(MapKey(key), r!(*v).clone());
                    }
                    if let Some(k) = bad {
                        error!(Term::tuple(vec![Term::Atom(Atom::BADKEY), k]));
                    }
                    // The new version shares the old one's structure: count
                    // what changed.
                    self.mem.alloc += 8 + 8 * fields.len() as u64;
                    r!(*dst) = Term::Map(Arc::new(m));
                }
                Instr::Binary { dst, segs } => {
                    let parts: Vec<(Term, Option<Term>, _)> = segs
                        .iter()
                        .map(|s| (r!(s.value).clone(), s.size.map(|z| r!(z).clone()), s))
                        .collect();
                    match self.with_room(p, || build_binary(&parts))? {
                        Ok(v) => {
                            self.note_alloc(fresh_words(&v));
                            regs = &mut p.regs[base..];
                            r!(*dst) = v
                        }
                        Err(e) => error!(e),
                    }
                }
                Instr::Op { dst, op, a, b } => {
                    if let (Term::Int(x), Term::Int(y)) = (&r!(*a), &r!(*b)) {
                        let (x, y) = (*x, *y);
                        small_op!(*op, x, y, *dst);
                    }
                    match arith::binop(*op, &r!(*a), &r!(*b)) {
                        Ok(v) => {
                            self.mem.alloc += fresh_words(&v);
                            Term::put(&mut r!(*dst), v)
                        }
                        Err(e) => error!(e),
                    }
                }
                Instr::OpImm { dst, op, a, imm } => op_imm!(*op, *dst, *a, *imm),
                Instr::AddImm { dst, a, imm } => op_imm!(BinOp::Add, *dst, *a, *imm),
                Instr::SubImm { dst, a, imm } => op_imm!(BinOp::Sub, *dst, *a, *imm),
                Instr::UnOp { dst, op, a } => match arith::unop(*op, &r!(*a)) {
                    Ok(v) => {
                        self.mem.alloc += fresh_words(&v);
                        Term::put(&mut r!(*dst), v)
                    }
                    Err(e) => error!(e),
                },
                Instr::MatchInt { src, imm, fail } => {
                    let ok = match &r!(*src) {
                        Term::Int(x) => x == imm,
                        other => crate::term::exact_eq(other, &Term::Int(*imm)),
                    };
                    if !ok {
                        match_failed!(fail, src);
                    }
                }
                Instr::MatchCons {
                    src,
                    head,
                    tail,
                    take: true,
                    ..
                } if matches!(&r!(*src), Term::Cons(c) if Arc::strong_count(c) == 1) => {
                    // The last reference to the cell: its parts move out.
                    let mut cell = std::mem::replace(&mut r!(*src), Term::Nil);
                    if let Term::Cons(c) = &mut cell {
                        match Arc::get_mut(c) {
                            Some(c) => {
                                if let Some(h) = head {
                                    Term::move_into(&mut r!(*h), &mut c.head);
                                }
                                if let Some(t) = tail {
                                    Term::move_into(&mut r!(*t), &mut c.tail);
                                }
                            }
                            None => {
                                if let Some(h) = head {
                                    Term::copy_into(&mut r!(*h), &c.head);
                                }
                                if let Some(t) = tail {
                                    Term::copy_into(&mut r!(*t), &c.tail);
                                }
                            }
                        }
                    }
                    // Freed here, with its parts gone.
                    drop(cell);
                }
                Instr::MatchCons {
                    src,
                    head,
                    tail,
                    fail,
                    ..
                } => {
                    if matches!(r!(*src), Term::Cons(_)) {
                        copy_cons_parts(regs, *src, *head, *tail);
                    } else {
                        match_failed!(fail, src);
                    }
                }
                Instr::ReturnIfInt {
                    src,
                    imm,
                    value,
                    fail,
                } => {
                    let hit = match &r!(*src) {
                        Term::Int(x) => x == imm,
                        other => crate::term::exact_eq(other, &Term::Int(*imm)),
                    };
                    if hit {
                        match self.do_return(p, value.clone()) {
                            None => resume!(),
                            Some(o) => return Ok(o),
                        }
                    } else {
                        pc = *fail as usize;
                    }
                }
                Instr::MatchAtom { src, atom, fail } => {
                    if !r!(*src).is_atom(*atom) {
                        match_failed!(fail, src);
                    }
                }
                Instr::Match { pat, src, fail } => {
                    let v = r!(*src).clone();
                    let ok = {
                        let mut env = Env {
                            regs: &mut *regs,
                            pid: p.pid,
                        };
                        pattern::match_pat(&f.pats[*pat as usize], &v, &mut env)
                    };
                    if !ok {
                        match_failed!(fail, src);
                    }
                }
                Instr::Guard { guard, fail } => {
                    let ok = {
                        let mut env = Env {
                            regs: &mut *regs,
                            pid: p.pid,
                        };
                        pattern::eval_guard(&f.guards[*guard as usize], &mut env)
                    };
                    if !ok {
                        // A guard that failed for want of room is no answer.
                        if let Some(request) = limits::take_refusal() {
                            if rerun == (pc, self.mem.measurements) {
                                return Err(self.out_of_memory(p, request));
                            }
                            self.make_room(p, request)?;
                            rerun = (pc, self.mem.measurements);
                            pc -= 1;
                            continue;
                        }
                        pc = *fail as usize;
                    }
                }
                Instr::Filter { src, fail } => match &r!(*src) {
                    Term::Atom(Atom::TRUE) => {}
                    Term::Atom(Atom::FALSE) => pc = *fail as usize,
                    other => {
                        let o = other.clone();
                        error!(Term::tuple(vec![Term::atom("bad_filter"), o]))
                    }
                },
                Instr::Jump(l) => pc = *l as usize,
                Instr::Fail { kind, src } => {
                    let v = r!(*src).clone();
                    let reason = match kind {
                        FailKind::Badmatch => Term::tuple(vec![Term::Atom(Atom::BADMATCH), v]),
                        FailKind::CaseClause => Term::tuple(vec![Term::Atom(Atom::CASE_CLAUSE), v]),
                        FailKind::IfClause => Term::Atom(Atom::IF_CLAUSE),
                        FailKind::BadargValue => Term::tuple(vec![Term::Atom(Atom::BADARG), v]),
                        // OTP 25 reports the offending term.
                        FailKind::Badrecord(_) => Term::tuple(vec![Term::Atom(Atom::BADRECORD), v]),
                        FailKind::TryClause => Term::tuple(vec![Term::Atom(Atom::TRY_CLAUSE), v]),
                        FailKind::ElseClause => Term::tuple(vec![Term::Atom(Atom::ELSE_CLAUSE), v]),
                        FailKind::FunctionClause => Term::Atom(Atom::FUNCTION_CLAUSE),
                    };
                    error!(reason)
                }
                Instr::CallCode {
                    dst,
                    module: m,
                    function: fi,
                    args,
                    tail,
                    moves,
                } => {
                    enter_code!(*m, *fi, args, *dst, *tail, *moves);
                }
                Instr::Call {
                    dst,
                    callee,
                    args,
                    tail,
                    site,
                    moves,
                } => {
                    match fast_call(code, callee, regs, args.len(), &mut self.last_export) {
                        Some(FastCall::Code {
                            module: m,
                            function: fi,
                            closure,
                        }) => {
                            let fc = enter_code!(m, fi, args, *dst, *tail, *moves);
                            if let Some(fv) = closure {
                                bind_closure(fc, fv, &mut p.regs[base..]);
                            }
                            continue;
                        }
                        Some(FastCall::Pure(func)) => {
                            let mut buf = std::mem::take(&mut self.argbuf);
                            buf.extend(args.iter().map(|s| r!(*s).clone()));
                            let res = self.call_pure(p, func, &buf);
                            buf.clear();
                            self.argbuf = buf;
                            regs = &mut p.regs[base..];
                            match res? {
                                Ok(v) if *tail => match self.do_return(p, v) {
                                    None => {
                                        resume!();
                                    }
                                    Some(o) => return Ok(o),
                                },
                                Ok(v) => Term::put(&mut r!(*dst), v),
                                Err(e) => error!(e),
                            }
                            continue;
                        }
                        None => {}
                    }
                    let argv: Vec<Term> = args.iter().map(|s| r!(*s).clone()).collect();
                    save_pc!();
                    let target = match callee {
                        Callee::Static(t) => *t,
                        Callee::Dynamic {
                            module: ms,
                            name: ns,
                        } => match (&r!(*ms), &r!(*ns)) {
                            (Term::Atom(m), Term::Atom(n)) => {
                                code.resolve(*m, *n, argv.len() as u32)
                            }
                            _ => error!(Term::Atom(Atom::BADARG)),
                        },
                        Callee::Apply { fun } => {
                            let fv = r!(*fun).clone();
                            let res = self.apply_fun(code, p, fv, argv, *dst, *tail);
                            after_call!(res)
                        }
                    };
                    let res = match target {
                        Target::Code {
                            module: m,
                            function: fi,
                        } => {
                            // By name: a read of code that may change.
                            self.read_code(code, p, &target);
                            let fc = code.func(m, fi);
                            match self.push_frame(p, fc, m, fi, argv, *dst, *tail) {
                                Ok(()) if p.atomic == 0 && self.atomic_event.is_some() => {
                                    after_call!(Ok(None))
                                }
                                Ok(()) => {
                                    f = fc;
                                    base = p.frames.last().map(|x| x.base).unwrap_or(0) as usize;
                                    pc = 0;
                                    module = m;
                                    function = fi;
                                    continue;
                                }
                                Err(e) => return Err(e),
                            }
                        }
                        Target::Bif(b) => match b.kind {
                            BifKind::Pure(func) => match self.call_pure(p, func, &argv)? {
                                Ok(v) => {
                                    regs = &mut p.regs[base..];
                                    if *tail {
                                        match self.do_return(p, v) {
                                            None => {
                                                resume!();
                                                continue;
                                            }
                                            Some(o) => return Ok(o),
                                        }
                                    }
                                    r!(*dst) = v;
                                    continue;
                                }
                                Err(e) => error!(e),
                            },
                            BifKind::Ctx(func) => {
                                let m = &code.modules[module as usize];
                                let span = if m.prelude {
                                    None
                                } else {
                                    m.sites.get(*site as usize).map(|s| s.span)
                                };
                                let site = Some((m.ir_name.clone(), CallSiteId(*site)));
                                let flow =
                                    self.call_ctx(p, crate::bif::ctx_fn(func), &argv, site, span)?;
                                self.finish_flow(code, p, flow, *dst, *tail, span)
                            }
                        },
                        other => {
                            let res = self.enter(code, p, other, argv, *dst, *tail);
                            if let Ok(Some(Outcome::Event(ev))) = &res
                                && ev.kind == EventKind::Parked
                            {
                                let m = &code.modules[module as usize];
                                let mut ev = ev.clone();
                                if let Some(s) = m.sites.get(*site as usize) {
                                    if !m.prelude {
                                        ev.span = Some(s.span);
                                    }
                                    ev.site = Some((m.ir_name.clone(), CallSiteId(*site)));
                                }
                                if let ProcStatus::Parked { location, .. } = &mut p.status {
                                    *location = self.location_text(ev.span);
                                }
                                return Ok(Outcome::Event(ev));
                            }
                            res
                        }
                    };
                    after_call!(res)
                }
                Instr::Return { src } => match self.return_slot(p, base + *src as usize) {
                    None => {
                        resume!();
                    }
                    Some(o) => return Ok(o),
                },
                Instr::ReturnOp { op, a, b } => {
                    let small = match (&r!(*a), &r!(*b)) {
                        (Term::Int(x), Term::Int(y)) => arith::small_int_op(*op, *x, *y),
                        _ => None,
                    };
                    let done = match small {
                        Some(v) => self.return_int(p, v),
                        None => match arith::binop(*op, &r!(*a), &r!(*b)) {
                            Ok(v) => self.do_return(p, v),
                            Err(e) => error!(e),
                        },
                    };
                    match done {
                        None => resume!(),
                        Some(o) => return Ok(o),
                    }
                }
                Instr::ReturnOpImm { op, a, imm } => {
                    let small = match &r!(*a) {
                        Term::Int(x) => arith::small_int_op(*op, *x, *imm),
                        _ => None,
                    };
                    let done = match small {
                        Some(v) => self.return_int(p, v),
                        None => match arith::binop(*op, &r!(*a), &Term::Int(*imm)) {
                            Ok(v) => self.do_return(p, v),
                            Err(e) => error!(e),
                        },
                    };
                    match done {
                        None => resume!(),
                        Some(o) => return Ok(o),
                    }
                }
                Instr::ReturnConst { value } => match self.do_return(p, value.clone()) {
                    None => {
                        resume!();
                    }
                    Some(o) => return Ok(o),
                },
                Instr::Send { dst, to, msg, site } => {
                    let m = r!(*msg).clone();
                    let dest = r!(*to).clone();
                    // An alias's owner; `dropped` when the alias has ended.
                    let mut dropped = None;
                    let target = match &dest {
                        Term::Pid(t) => Some(*t),
                        Term::Atom(a) => self.registry.get(a).copied(),
                        Term::Tuple(t) if t.len() == 2 && matches!(t[0], Term::Atom(_)) => {
                            t[0].as_atom().and_then(|a| self.registry.get(&a).copied())
                        }
                        Term::Ref(r) => match self.alias_target(p.pid, &p.monitors, *r) {
                            Some((owner, true)) => Some(owner),
                            Some((owner, false)) => {
                                dropped = Some(owner);
                                None
                            }
                            None => None,
                        },
                        _ => None,
                    };
                    r!(*dst) = m.clone();
                    save_pc!();
                    let md = &code.modules[module as usize];
                    let mut text = String::with_capacity(64);
                    format::brief_into(&dest, &mut text);
                    text.push_str(" ! ");
                    format::brief_into(&m, &mut text);
                    let mut ev = Event::new(p.pid, EventKind::Send, text);
                    ev.site = Some((md.ir_name.clone(), CallSiteId(*site)));
                    if !md.prelude {
                        ev.span = md.sites.get(*site as usize).map(|s| s.span);
                    }
                    if let Some((why, call)) = target.and_then(crate::world::parked_request) {
                        let span = ev.span;
                        return Ok(self.park(p, call, why, span));
                    }
                    match target {
                        Some(t) => {
                            ev = ev.with_item(SharedItem::Mailbox(t), Access::Write);
                            ev.message = Some(m.clone());
                            if let Term::Atom(a) = &dest {
                                ev.accesses.insert(
                                    0,
                                    (SharedItem::Registry(a.name().into()), Access::Read),
                                );
                            }
                            self.deliver(t, m);
                            self.apply_deferred(p);
                        }
                        None => {
                            if let Some(owner) = dropped {
                                // An ended alias: the message is dropped,
                                // after whatever ended it.
                                ev = ev.with_item(SharedItem::Mailbox(owner), Access::Write);
                            } else if let Term::Pid(_) | Term::Ref(_) = &dest {
                                // A dead pid or a reference that is no
                                // alias: the message is dropped.
                            } else {
                                let name = match &dest {
                                    Term::Atom(a) => Some(*a),
                                    _ => None,
                                };
                                let remote_form = matches!(&dest, Term::Tuple(t) if t.len() == 2);
                                if let Some(a) = name {
                                    ev = ev.with_item(
                                        SharedItem::Registry(a.name().into()),
                                        Access::Read,
                                    );
                                    self.pending_event(p, ev);
                                    let exc = Exception::error(Term::Atom(Atom::BADARG));
                                    match self.raise(p, code, exc) {
                                        Raised::Handled => {}
                                        Raised::Exit(r) => return Ok(Outcome::Exit(r)),
                                    }
                                    if let Some(ev) = self.take_event(p) {
                                        return Ok(Outcome::Event(ev));
                                    }
                                    resume!();
                                    continue;
                                }
                                if !remote_form {
                                    error!(Term::Atom(Atom::BADARG));
                                }
                            }
                        }
                    }
                    if let Some(ev) = self.take_or_merge(p, ev) {
                        return Ok(Outcome::Event(ev));
                    }
                }
                Instr::MakeFun { dst, fun, env } => {
                    let md = &code.modules[module as usize];
                    let fi = md.functions_len + fun;
                    let arity = code
                        .functions(module)
                        .get(fi as usize)
                        .map(|c| c.arity)
                        .unwrap_or(0);
                    let envv: Vec<Term> = env.iter().map(|s| r!(*s).clone()).collect();
                    self.mem.alloc += 8 + 2 * envv.len() as u64;
                    r!(*dst) = Term::Fun(Arc::new(Fun::Closure {
                        module: md.name,
                        mod_index: module,
                        index: *fun,
                        arity,
                        env: envv,
                    }));
                }
                Instr::MakeFunRef {
                    dst,
                    module: ms,
                    name,
                    arity,
                } => {
                    let (Term::Atom(n), Term::Int(a)) = (r!(*name).clone(), r!(*arity).clone())
                    else {
                        error!(Term::Atom(Atom::BADARG))
                    };
                    let v = match ms {
                        Some(ms) => match r!(*ms) {
                            Term::Atom(m) => Fun::Export {
                                module: m,
                                name: n,
                                arity: a as u32,
                            },
                            _ => error!(Term::Atom(Atom::BADARG)),
                        },
                        None => {
                            let md = &code.modules[module as usize];
                            match md.fn_index.get(&(n, a as u32)) {
                                Some(&fi) => Fun::Local {
                                    module: md.name,
                                    mod_index: module,
                                    function: fi,
                                    name: n,
                                    arity: a as u32,
                                },
                                None => Fun::Export {
                                    module: md.name,
                                    name: n,
                                    arity: a as u32,
                                },
                            }
                        }
                    };
                    self.mem.alloc += 6;
                    r!(*dst) = Term::Fun(Arc::new(v));
                }
                Instr::TryBegin {
                    handler,
                    class,
                    reason,
                    stack,
                } => p.handlers.push(Handler {
                    depth: p.frames.len() as u32,
                    pc: *handler,
                    class: *class,
                    reason: *reason,
                    stack: *stack,
                }),
                Instr::TryEnd => {
                    p.handlers.pop();
                }
                Instr::Reraise {
                    class,
                    reason,
                    stack,
                } => {
                    let cls = match &r!(*class) {
                        Term::Atom(Atom::EXIT) => Class::Exit,
                        Term::Atom(Atom::THROW) => Class::Throw,
                        _ => Class::Error,
                    };
                    throw!(Exception {
                        class: cls,
                        reason: r!(*reason).clone(),
                        stack: r!(*stack).clone(),
                    })
                }
                Instr::CatchValue {
                    dst,
                    class,
                    reason,
                    stack,
                } => {
                    let reason_v = r!(*reason).clone();
                    let v = match &r!(*class) {
                        Term::Atom(Atom::THROW) => reason_v,
                        Term::Atom(Atom::EXIT) => {
                            Term::tuple(vec![Term::Atom(Atom::EXIT_UPPER), reason_v])
                        }
                        _ => Term::tuple(vec![
                            Term::Atom(Atom::EXIT_UPPER),
                            Term::tuple(vec![reason_v, r!(*stack).clone()]),
                        ]),
                    };
                    self.mem.alloc += 2 * tuple_words(2);
                    r!(*dst) = v;
                }
                Instr::RecvStart => {
                    p.recv_pos = 0;
                    // The receive's clauses in their frame, for the
                    // scheduler's question of what else it could take: the
                    // registers its patterns and guards read hold the same
                    // values at every peek (they are live on every path
                    // back to it), so the frame as it is now serves.
                    if !self.probing {
                        let fr = p.frames.last().copied();
                        let size = f.frame_size as usize;
                        let frame = p.regs.get(base..base + size).unwrap_or(&[]).to_vec();
                        let forever = waits_forever(f, pc, &frame);
                        p.recv_probe = fr.map(|fr| {
                            let regs = frame;
                            ReceiveProbe(std::sync::Arc::new(ProbeFrame {
                                pid: p.pid,
                                module: fr.module,
                                function: fr.function,
                                peek_pc: pc as u32,
                                forever,
                                regs,
                                answers: Default::default(),
                            }))
                        });
                    }
                }
                Instr::RecvPeek { dst, empty } => {
                    if p.recv_pos < p.mailbox.len() {
                        let m = p.mailbox[p.recv_pos].clone();
                        r!(*dst) = m;
                    } else {
                        pc = *empty as usize;
                    }
                }
                Instr::RecvAdvance => {
                    if self.probing {
                        return Ok(Outcome::Probe(false));
                    }
                    p.recv_pos += 1
                }
                Instr::RecvAccept => {
                    if self.probing {
                        return Ok(Outcome::Probe(true));
                    }
                    let m = p.mailbox.remove(p.recv_pos).unwrap_or(Term::Nil);
                    p.recv_pos = 0;
                    p.scanned = 0;
                    p.wait_deadline = None;
                    save_pc!();
                    let mut text = String::with_capacity(64);
                    text.push_str("receive ");
                    format::brief_into(&m, &mut text);
                    let mut ev = Event::new(p.pid, EventKind::Receive, text)
                        .with_item(SharedItem::Mailbox(p.pid), Access::Read);
                    ev.receive = p.recv_probe.clone();
                    ev.message = Some(m);
                    if let Some(ev) = self.take_or_merge(p, ev) {
                        return Ok(Outcome::Event(ev));
                    }
                }
                Instr::RecvWait {
                    timeout,
                    resume,
                    after,
                } => {
                    if self.probing {
                        return Ok(Outcome::Probe(false));
                    }
                    let t = match timeout {
                        None => None,
                        Some(s) => match &r!(*s) {
                            Term::Atom(Atom::INFINITY) => None,
                            Term::Int(n) if *n >= 0 => Some(*n as u64),
                            _ => error!(Term::atom("timeout_value")),
                        },
                    };
                    if t == Some(0) {
                        p.wait_deadline = None;
                        // No message matched and none is waited for: the
                        // receive read the mailbox and found nothing it
                        // takes. That is a visible action (a message sent
                        // before it would have been taken), so the step
                        // ends here, ordered with the sends to the mailbox.
                        pc = *after as usize;
                        save_pc!();
                        let mut ev = Event::new(
                            p.pid,
                            EventKind::Receive,
                            "receive: nothing matched (after 0)".to_string(),
                        )
                        .with_item(SharedItem::Mailbox(p.pid), Access::Read);
                        ev.receive = p.recv_probe.clone();
                        if let Some(ev) = self.take_or_merge(p, ev) {
                            return Ok(Outcome::Event(ev));
                        }
                        continue;
                    }
                    pc = *resume as usize;
                    save_pc!();
                    p.scanned = p.mailbox.len();
                    p.after_pc = *after;
                    p.status = match t {
                        None => ProcStatus::Blocked,
                        Some(ms) => {
                            let deadline = *p
                                .wait_deadline
                                .get_or_insert(self.vclock.saturating_add(ms));
                            self.timeouts.insert((deadline, p.pid));
                            ProcStatus::Waiting { deadline }
                        }
                    };
                    let text = match t {
                        None => "receive (waiting)".to_string(),
                        Some(ms) => format!("receive (waiting, after {ms})"),
                    };
                    let mut ev = Event::new(p.pid, EventKind::Blocked, text)
                        .with_item(SharedItem::Mailbox(p.pid), Access::Read);
                    ev.receive = p.recv_probe.clone();
                    return Ok(Outcome::Event(ev));
                }
                Instr::ListNext { list, head, done } => {
                    // A turn of a comprehension is a reduction.
                    if matches!(r!(*list), Term::Cons(_)) {
                        self.count_reduction(p)?;
                        regs = &mut p.regs[base..];
                    }
                    let l = std::mem::replace(&mut r!(*list), Term::Nil);
                    match l {
                        Term::Cons(c) => {
                            Term::copy_into(&mut r!(*head), &c.head);
                            Term::copy_into(&mut r!(*list), &c.tail);
                        }
                        Term::Nil => pc = *done as usize,
                        other => error!(Term::tuple(vec![Term::atom("bad_generator"), other])),
                    }
                }
                Instr::BinNext { bits, pat, done } => {
                    self.count_reduction(p)?;
                    regs = &mut p.regs[base..];
                    let b = r!(*bits).clone();
                    let Term::Bin(b) = b else {
                        error!(Term::tuple(vec![Term::atom("bad_generator"), b]))
                    };
                    let rest = match &f.pats[*pat as usize] {
                        crate::code::CPat::Binary(segs, sizes) => {
                            let mut env = Env {
                                regs: &mut *regs,
                                pid: p.pid,
                            };
                            pattern::match_bin_segments(segs, sizes, &b, &mut env)
                        }
                        _ => None,
                    };
                    match rest {
                        Some(rest) if rest.len < b.len => r!(*bits) = Term::Bin(Arc::new(rest)),
                        _ => pc = *done as usize,
                    }
                }
                Instr::AccPush { acc, value } => {
                    let v = Term::cons(
                        r!(*value).clone(),
                        std::mem::replace(&mut r!(*acc), Term::Nil),
                    );
                    r!(*acc) = v;
                    self.mem.alloc += CONS_WORDS;
                }
                Instr::AccFinish { dst, acc, kind } => {
                    if *kind == ComprehensionKind::Binary {
                        // The parts may repeat one binary many times: room
                        // for the whole first.
                        let bits: u64 = r!(*acc)
                            .list_iter()
                            .map(|it| match it {
                                Term::Bin(b) => b.len as u64,
                                _ => 0,
                            })
                            .sum();
                        let words = limits::binary_words((bits / 8) as usize);
                        if let Err(e) = self.with_room(p, || limits::room(words))? {
                            error!(e);
                        }
                        regs = &mut p.regs[base..];
                    }
                    let items = reverse_owned(std::mem::replace(&mut r!(*acc), Term::Nil));
                    let v = match kind {
                        ComprehensionKind::List => items,
                        ComprehensionKind::Binary => {
                            let mut w = pattern::BitWriter::default();
                            let mut bad = false;
                            for it in items.list_iter() {
                                match it {
                                    Term::Bin(b) => w.push_bits(b),
                                    _ => bad = true,
                                }
                            }
                            if bad {
                                error!(Term::Atom(Atom::BADARG));
                            }
                            Term::Bin(Arc::new(w.finish()))
                        }
                        ComprehensionKind::Map => {
                            let mut m = TermMap::new();
                            for it in items.list_iter() {
                                if let Term::Tuple(kv) = it
                                    && kv.len() == 2
                                {
                                    m.insert(MapKey(kv[0].clone()), kv[1].clone());
                                }
                            }
                            Term::Map(Arc::new(m))
                        }
                    };
                    if *kind != ComprehensionKind::List {
                        self.mem.alloc += fresh_words(&v);
                    }
                    r!(*dst) = v;
                }
                Instr::MapToList { dst, src } => {
                    let v = match &r!(*src) {
                        Term::Map(m) => Term::list(
                            m.iter()
                                .map(|(k, v)| Term::tuple(vec![k.0.clone(), v.clone()]))
                                .collect(),
                        ),
                        other => {
                            let o = other.clone();
                            error!(Term::tuple(vec![Term::atom("bad_generator"), o]))
                        }
                    };
                    self.mem.alloc += fresh_words(&v);
                    r!(*dst) = v;
                }
                Instr::Missing { line } => {
                    error!(Term::tuple(vec![
                        Term::Atom(Atom::RACEWIT_MISSING),
                        Term::Int(*line as i64)
                    ]))
                }
            }
        }
    }

    /// An event produced inside the loop: ends the step unless in an atomic section.
    fn take_or_merge(&mut self, p: &mut Process, ev: Event) -> Option<Event> {
        self.pending_event(p, ev);
        self.take_event(p)
    }

    fn take_event(&mut self, p: &mut Process) -> Option<Event> {
        // Inside a transaction the step goes on, except after a dirty
        // operation: it takes no lock, so other processes may come between.
        if p.atomic > 0 && !std::mem::take(&mut p.yield_in_atomic) {
            return None;
        }
        self.atomic_event.take()
    }

    fn merge_outcome(&mut self, p: &Process, o: Outcome) -> Outcome {
        match o {
            Outcome::Event(ev) => {
                if let Some(mut acc) = self.atomic_event.take()
                    && p.atomic == 0
                {
                    acc.accesses.extend(ev.accesses);
                    acc.text.push_str("; ");
                    acc.text.push_str(&ev.text);
                    if matches!(ev.kind, EventKind::Parked | EventKind::Blocked) {
                        acc.kind = ev.kind;
                    }
                    return Outcome::Event(acc);
                }
                Outcome::Event(ev)
            }
            // An exit keeps the pending event: `step` reports the attempt
            // that raised together with the exit.
            other => other,
        }
    }

    pub(crate) fn location_text(&self, span: Option<racewit_syntax::Span>) -> String {
        match span {
            Some(sp) if (sp.file.0 as usize) < self.program.sources.len() => {
                let loc = self.program.sources.location(sp);
                format!("{}:{}", loc.file, loc.line)
            }
            _ => String::new(),
        }
    }
}

fn undef(module: Atom, name: Atom, args: &[Term], _arity: u32) -> Exception {
    let mut e = Exception::error(Term::Atom(Atom::UNDEF));
    e.stack = Term::list(vec![Term::tuple(vec![
        Term::Atom(module),
        Term::Atom(name),
        Term::list(args.to_vec()),
        Term::Nil,
    ])]);
    e
}

/// The simplified stack trace: `[{M, F, Arity, []}]` for each frame, innermost first.
fn stack_trace(p: &Process, code: &CodeTable) -> Term {
    let items: Vec<Term> = p
        .frames
        .iter()
        .rev()
        .take(8)
        .map(|fr| {
            let m = &code.modules[fr.module as usize];
            let fc = code.func(fr.module, fr.function);
            Term::tuple(vec![
                Term::Atom(m.name),
                Term::Atom(fc.name),
                Term::Int(fc.arity as i64),
                Term::Nil,
            ])
        })
        .collect();
    Term::list(items)
}

/// The exit reason of a process that did not catch `exc`.
pub fn exit_reason(exc: &Exception) -> Term {
    match exc.class {
        Class::Exit => exc.reason.clone(),
        Class::Error => Term::tuple(vec![exc.reason.clone(), exc.stack.clone()]),
        Class::Throw => Term::tuple(vec![
            Term::tuple(vec![Term::atom("nocatch"), exc.reason.clone()]),
            exc.stack.clone(),
        ]),
    }
}

/// Reverse a comprehension's accumulator (a proper list), relinking the
/// cells it owns alone instead of allocating new ones.
fn reverse_owned(list: Term) -> Term {
    let mut out = Term::Nil;
    let mut cur = list;
    loop {
        match cur {
            Term::Cons(mut cell) => match Arc::get_mut(&mut cell) {
                Some(c) => {
                    cur = std::mem::replace(&mut c.tail, out);
                    out = Term::Cons(cell);
                }
                None => {
                    out = Term::cons(cell.head.clone(), out);
                    cur = cell.tail.clone();
                }
            },
            _ => return out,
        }
    }
}
