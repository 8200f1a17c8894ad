//! The VM's side of a run's limits (see [`crate::limits`]): counting
//! what is allocated, measuring what is live, and the reduction
//! checkpoint, where the reduction budget is checked, a long step is
//! watched for a busy loop ([`SpinWatch`]) and memory is looked at.

use crate::limits::{
    CHECK_INTERVAL, Footprint, PROCESS_WORDS, SPIN_WATCH, open, room_left, set_room,
};
use crate::process::SpinWatch;
use crate::term::Term;

impl crate::vm::Vm {
    /// Count `words` just allocated; at the trigger, the next call measures.
    #[inline]
    pub(crate) fn note_alloc(&mut self, words: u64) {
        self.mem.alloc += words;
        if self.mem.alloc >= self.mem.trigger {
            self.max_reductions = self.reductions;
        }
    }

    /// A step begins: the meter grants what is left of the budget.
    pub(crate) fn open_meter(&self) {
        open(self.mem.room());
    }

    /// The reduction count went past `max_reductions`: the run's reduction
    /// budget is spent, or it is time to look at memory (`p` is running).
    #[cold]
    #[inline(never)]
    pub(crate) fn reduction_checkpoint(
        &mut self,
        p: &crate::process::Process,
    ) -> Result<(), crate::vm::VmError> {
        if self.reductions > self.config.max_reductions {
            return Err(crate::vm::VmError::BudgetExhausted {
                reductions: self.config.max_reductions,
                process: self.process_name(p.pid).to_string(),
                location: self.where_running(p, None),
            });
        }
        // A long step is watched, one reduction at a time, for its state
        // coming back: then it loops without end (see [`SpinWatch`]).
        let watch_from = self
            .step_start
            .saturating_add(self.config.max_step_reductions);
        let watch_to = watch_from.saturating_add(SPIN_WATCH);
        let watching = self.reductions > watch_from && self.reductions <= watch_to;
        if watching {
            match &self.spin {
                Some(seen) if seen.recurs_in(p) => {
                    return Err(crate::vm::VmError::BusyLoop {
                        reductions: self.reductions - self.step_start,
                        process: self.process_name(p.pid).to_string(),
                        location: self.where_running(p, None),
                    });
                }
                Some(_) => {}
                None => self.spin = Some(SpinWatch::of(p)),
            }
        } else if self.spin.is_some() && self.reductions > watch_to {
            self.spin = None;
        }
        if self.mem.alloc >= self.mem.trigger {
            self.measure(p, 0)?;
        }
        let next = if watching {
            self.reductions + 1
        } else if self.reductions <= watch_from {
            (self.reductions + CHECK_INTERVAL).min(watch_from + 1)
        } else {
            self.reductions + CHECK_INTERVAL
        };
        self.max_reductions = self.config.max_reductions.min(next);
        Ok(())
    }

    /// A request for `request` words was refused: measure, and stop the run
    /// unless what is live and the request fit the budget.
    #[cold]
    pub(crate) fn make_room(
        &mut self,
        p: &crate::process::Process,
        request: u64,
    ) -> Result<(), crate::vm::VmError> {
        self.measure(p, request)
    }

    /// A request for `request` words was refused again right after a
    /// measurement (what was granted since, and this request, do not fit):
    /// the run stops.
    #[cold]
    pub(crate) fn out_of_memory(
        &self,
        p: &crate::process::Process,
        request: u64,
    ) -> crate::vm::VmError {
        let left = room_left();
        let wanted = self.mem.budget.saturating_sub(left).saturating_add(request);
        self.memory_exhausted(p, wanted)
    }

    fn memory_exhausted(&self, p: &crate::process::Process, live: u64) -> crate::vm::VmError {
        crate::vm::VmError::MemoryExhausted {
            process: self.process_name(p.pid).to_string(),
            location: self.where_running(p, None),
            live,
            budget: self.mem.budget,
        }
    }

    /// Measure what is live (with `p` the running process); over the budget
    /// with `extra` more words, the run stops.
    fn measure(
        &mut self,
        p: &crate::process::Process,
        extra: u64,
    ) -> Result<(), crate::vm::VmError> {
        let live = self.live_words(p);
        self.mem.measurements += 1;
        if live.saturating_add(extra) > self.mem.budget {
            return Err(self.memory_exhausted(p, live.saturating_add(extra)));
        }
        self.mem.live = live;
        self.mem.rearm();
        set_room(self.mem.room());
        Ok(())
    }

    /// Words live in the whole VM, `p` being the running process (out of
    /// the process table meanwhile).
    pub(crate) fn live_words(&self, p: &crate::process::Process) -> u64 {
        let mut f = Footprint::default();
        for q in &self.procs {
            if q.pid == p.pid || q.pid.0 == u32::MAX {
                continue;
            }
            process_footprint(q, &mut f);
        }
        process_footprint(p, &mut f);
        // The placeholder standing in for `p` in the table is not counted.
        for t in self.ets.tables.values() {
            f.words += 16;
            for (k, objs) in t.data.iter() {
                f.words += 8 + 2 * objs.len() as u64;
                f.term(&k.term);
                f.terms(objs);
            }
        }
        for t in self.mnesia.tables.values() {
            f.words += 16;
            for (k, objs) in t.data.data.iter() {
                f.words += 8 + 2 * objs.len() as u64;
                f.term(&k.term);
                f.terms(objs);
            }
        }
        for (k, v) in self.persistent_terms.iter() {
            f.words += 8;
            f.term(&k.0);
            f.term(v);
        }
        for ((a, k), v) in self.app_env.iter() {
            f.words += 8;
            f.term(&a.0);
            f.term(&k.0);
            f.term(v);
        }
        for (k, _) in self.global_names.iter() {
            f.words += 8;
            f.term(&k.0);
        }
        f.words += 4 * self.registry.len() as u64;
        f.words += self.output_bytes / 8 + 4 * self.output.len() as u64;
        f.words += self
            .atoms_made
            .iter()
            .map(|a| 8 + a.name().len() as u64 / 8)
            .sum::<u64>();
        f.words
    }

    /// Where the process `p` is, for a limit's report: the call site
    /// `span` when it is in the user's code, else the line of the innermost
    /// function of the user's code on its stack, else the function running.
    pub(crate) fn where_running(
        &self,
        p: &crate::process::Process,
        span: Option<racewit_syntax::Span>,
    ) -> String {
        let here = self.location_text(span);
        if !here.is_empty() {
            return here;
        }
        for fr in p.frames.iter().rev() {
            let Some(m) = self.code.modules.get(fr.module as usize) else {
                continue;
            };
            let Some(fc) = self.code.functions(fr.module).get(fr.function as usize) else {
                continue;
            };
            if m.prelude {
                continue;
            }
            let (name, arity) = fc.display;
            let program = m.program();
            if let Some(f) = program
                .module(&m.ir_name)
                .and_then(|im| im.function(name.name(), arity))
            {
                let loc = program.sources.location(f.span);
                return format!("{}:{}", loc.file, loc.line);
            }
        }
        match p.frames.last() {
            Some(fr) => {
                let m = &self.code.modules[fr.module as usize];
                let fc = self.code.func(fr.module, fr.function);
                format!("{}:{}/{}", m.name.name(), fc.display.0.name(), fc.display.1)
            }
            // Not started yet: where it starts.
            None => match p.initial_call.as_tuple() {
                Some([Term::Atom(m), Term::Atom(f), Term::Int(a)]) => {
                    format!("{}:{}/{a}", m.name(), f.name())
                }
                _ => "its start".to_string(),
            },
        }
    }
}

/// What one process holds: its stack (every register chunk, whole), its
/// mailbox, dictionary and the terms it keeps.
fn process_footprint(q: &crate::process::Process, f: &mut Footprint) {
    f.words += PROCESS_WORDS;
    f.words += 2 * q.regs.capacity() as u64 + 2 * q.spare.capacity() as u64;
    f.terms(&q.regs);
    for (chunk, _) in &q.lower {
        f.words += 2 * chunk.capacity() as u64;
        f.terms(chunk);
    }
    f.words += 3 * (q.frames.capacity() + q.handlers.capacity()) as u64;
    f.words += 2 * q.mailbox.capacity() as u64;
    f.terms(&q.mailbox);
    for (k, v) in q.dict.iter() {
        f.words += 6;
        f.term(&k.0);
        f.term(v);
    }
    f.words += 6 * (q.links.len() + q.monitors.len() + q.monitored_by.len()) as u64;
    if let Some(r) = &q.result {
        f.term(r);
    }
    if let Some(c) = &q.crash {
        f.term(&c.reason);
        f.term(&c.stack);
    }
    f.term(&q.initial_call);
    if let Some(start) = &q.start {
        match start {
            crate::process::Start::Call(_, args) => f.terms(args),
            crate::process::Start::Apply(fun, args) => {
                f.term(fun);
                f.terms(args);
            }
        }
    }
}
