//! What a search looks for, watched step by step: a [`Monitor`] sees every
//! step of a run, may steer the search (which process to hold back), and
//! judges each finished run.

use std::sync::Arc;

use crate::system::{Access, Fate, Item, Observation, System};

/// Judges a process whose stale write failed and that then ended normally:
/// whether what it returned would crash the program's own caller of the
/// function it ran (`{ok, _} = ensure_started()` given
/// `{error, {already_started, Pid}}`). A harness worker's value goes to
/// the harness, which judges nothing; in the program it goes to its callers.
pub trait ReturnHarm<S: System>: Send + Sync + std::fmt::Debug {
    fn harms(&self, sys: &S, proc: S::Proc) -> bool;
}

/// Watches one run. Cloned at every choice point with the system.
pub trait Monitor<S: System>: Clone {
    /// Called after each step, `index` counting from 0.
    fn observe(
        &mut self,
        sys: &S,
        proc: S::Proc,
        obs: &Observation<S::Item, S::Site>,
        index: usize,
    );
    /// A process the search should hold back (try every other process first),
    /// because preempting it here is what the goal needs.
    fn hold(&self) -> Option<S::Proc> {
        None
    }
    /// Whether the run so far already shows what is sought (the search may
    /// still finish the run to see its consequence).
    fn hit(&self) -> bool;
    /// Called when the run ends; returns whether this run is a finding.
    fn finish(&mut self, sys: &S) -> bool;
    /// After a [`finish`](Monitor::finish) that found nothing: whether the
    /// run came close, showing what was sought but without its harm (a race
    /// whose failed write the program handled). Counted in the search stats.
    fn near_miss(&self) -> bool {
        false
    }
    /// At the end of a run: which of the goal's two milestones it reached
    /// (a race: its read, then the same actor's write). A search may claim
    /// a space explored only when its runs reached both: runs that never
    /// get there say nothing of what is sought. Goals without milestones
    /// reach both trivially.
    fn reached(&self) -> [bool; 2] {
        [true, true]
    }
}

/// The race pattern of a suspect: process P reads item X at the read site,
/// another process then writes X, then P writes X at the write site.
/// "Process" means actor ([`System::actor`]): a server's steps count for the
/// client whose request it is handling.
#[derive(Clone, Debug)]
pub struct RaceGoal<S: System> {
    pub read_site: S::Site,
    pub write_site: S::Site,
    /// Whether the final write must touch the item read (registry, ETS,
    /// mnesia: yes; spawn_register: the read item is the spawned process and
    /// the write is the register of a name, so no).
    pub write_must_overlap: bool,
    /// Whether processes are compared as actors (a server's steps count for
    /// its client). Not for spawn_register, where the interfering process is
    /// the very one the reader started.
    pub by_actor: bool,
    /// Whether the write starts a process under the name read
    /// (`gen_server:start({local, Name}, ...)`): the started process
    /// registers the name, at a site of the library, as the actor that
    /// called the start (see [`System::actor`]). Then another process
    /// acting for the reader (the one it started) touching the item read
    /// after the read is the write, and a
    /// failed register is harmful when that actor (the caller, told
    /// `{error, {already_started, Pid}}`) crashes.
    pub write_in_started: bool,
    /// Whether the read is itself an atomic update of a counter that
    /// changes it (`ets:update_counter(T, K, {2, 1})`: a claim, whose
    /// value already counts every update before it) and the write adds a
    /// constant to it (`{2, -1}`, giving the claim back). Such a write puts
    /// no value the read saw: whatever another process wrote in between,
    /// it adds its constant to that, as it would have in any order. So the
    /// write is never stale; only its failure (the counter deleted in
    /// between) is a finding, when its process crashes.
    pub write_adds: bool,
    /// Whether the write site writes another item than the one read,
    /// which belongs to it (a metric's counters in their own table, made
    /// when its entry is made: the read checks the entry, the write makes
    /// the counters). The write is then stale when another process wrote
    /// the item read between the reader's read and its write, whatever item
    /// the write touches: the reader acts on a check that no longer holds.
    pub write_elsewhere: bool,
    pending: Vec<Pending<S>>,
    hit: Option<RaceHit>,
    /// A stale write that failed (it only observed the item: `register` of
    /// a taken name): it counts only if the process that made it crashes
    /// before the run ends (a failure that is handled changes nothing).
    failed: Option<(S::Proc, RaceHit)>,
    /// Whether the read ran in this run.
    read_seen: bool,
    /// Whether an actor that ran the read then reached the write site (its
    /// write ran, or failed on the state it races for; not a write that met
    /// no table): the code path of the suspect was executed.
    write_seen: bool,
    /// Judges what a process whose write failed returned, when it did not
    /// crash: a failed write is harmful too when the value it made its
    /// function return crashes the program's caller of that function.
    pub returns: Option<Arc<dyn ReturnHarm<S>>>,
}

#[derive(Clone, Debug)]
struct Pending<S: System> {
    reader: S::Proc,
    item: S::Item,
    read_step: usize,
    interference: Option<usize>,
}

/// Where in a run the race happened (step indexes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RaceHit {
    pub read_step: usize,
    pub interfering_write_step: usize,
    pub stale_write_step: usize,
}

impl<S: System> RaceGoal<S> {
    pub fn new(read_site: S::Site, write_site: S::Site, write_must_overlap: bool) -> Self {
        RaceGoal {
            read_site,
            write_site,
            write_must_overlap,
            by_actor: true,
            write_in_started: false,
            write_adds: false,
            write_elsewhere: false,
            pending: Vec::new(),
            hit: None,
            failed: None,
            read_seen: false,
            write_seen: false,
            returns: None,
        }
    }

    pub fn race(&self) -> Option<RaceHit> {
        self.hit
    }

    /// The race pattern, harmful or not: the race, else a stale write that
    /// failed after another process wrote the item.
    pub fn pattern(&self) -> Option<RaceHit> {
        self.hit.or(self.failed.map(|(_, hit)| hit))
    }

    /// The process (actor) whose stale write failed, if one did.
    pub fn failed_process(&self) -> Option<S::Proc> {
        self.failed.map(|(p, _)| p)
    }
}

impl<S: System> Monitor<S> for RaceGoal<S> {
    fn observe(
        &mut self,
        sys: &S,
        proc: S::Proc,
        obs: &Observation<S::Item, S::Site>,
        index: usize,
    ) {
        if self.hit.is_some() {
            return;
        }
        let process = proc;
        let proc = if self.by_actor { sys.actor(proc) } else { proc };
        let Some((item, access)) = &obs.access else {
            return;
        };
        let at_read = obs.site.as_ref() == Some(&self.read_site);
        let at_write = obs.site.as_ref() == Some(&self.write_site)
            || (self.write_in_started
                && !at_read
                && process != proc
                && self
                    .pending
                    .iter()
                    .any(|p| p.reader == proc && p.item.overlaps(item)));
        // A write that met no table (the program never made it in this
        // run) ran no code of the race: it says nothing of it.
        if at_write && !obs.absent && self.pending.iter().any(|p| p.reader == proc) {
            self.write_seen = true;
        }
        if at_write && *access == Access::Read && self.failed.is_none() {
            let found = self.pending.iter().find(|p| {
                p.reader == proc
                    && p.interference.is_some()
                    && (!self.write_must_overlap || self.write_elsewhere || p.item.overlaps(item))
            });
            if let Some(p) = found {
                let hit = RaceHit {
                    read_step: p.read_step,
                    interfering_write_step: p.interference.unwrap_or(p.read_step),
                    stale_write_step: index,
                };
                // A started process's failed register is harmful when the
                // caller of the start crashes on what it was told.
                let who = if self.write_in_started { proc } else { process };
                self.failed = Some((who, hit));
            }
        }
        // The read site may itself change state (a spawn creates the process
        // it then registers): it is the suspect's read whatever its access.
        if *access == Access::Write && !at_read {
            if at_write {
                let found = self.pending.iter().position(|p| {
                    p.reader == proc
                        && p.interference.is_some()
                        && (!self.write_must_overlap
                            || self.write_elsewhere
                            || p.item.overlaps(item))
                });
                if let Some(i) = found
                    && !self.write_adds
                {
                    let p = &self.pending[i];
                    self.hit = Some(RaceHit {
                        read_step: p.read_step,
                        interfering_write_step: p.interference.unwrap_or(p.read_step),
                        stale_write_step: index,
                    });
                    return;
                }
                // The reader wrote without interference: that read is settled.
                self.pending.retain(|p| p.reader != proc);
            }
            for p in &mut self.pending {
                if p.reader != proc && p.interference.is_none() && p.item.overlaps(item) {
                    p.interference = Some(index);
                }
            }
        }
        if at_read {
            self.read_seen = true;
            self.pending.retain(|p| p.reader != proc);
            self.pending.push(Pending {
                reader: proc,
                item: item.clone(),
                read_step: index,
                interference: None,
            });
        }
    }

    fn hold(&self) -> Option<S::Proc> {
        if self.hit.is_some() {
            return None;
        }
        self.pending
            .iter()
            .find(|p| p.interference.is_none())
            .map(|p| p.reader)
    }

    fn hit(&self) -> bool {
        self.hit.is_some()
    }

    fn finish(&mut self, sys: &S) -> bool {
        if self.hit.is_none()
            && let Some((process, hit)) = self.failed
        {
            let harmful = match sys.fate(process) {
                Fate::Crashed { .. } => true,
                Fate::Normal => self.returns.as_ref().is_some_and(|r| r.harms(sys, process)),
                _ => false,
            };
            if harmful {
                self.hit = Some(hit);
            }
        }
        self.hit.is_some()
    }

    fn near_miss(&self) -> bool {
        self.hit.is_none() && self.failed.is_some()
    }

    fn reached(&self) -> [bool; 2] {
        let raced = self.hit.is_some() || self.failed.is_some();
        [self.read_seen || raced, self.write_seen || raced]
    }
}

/// What exploring a test entry looks for: a crashed process, or processes
/// stuck in `receive` forever (a deadlock).
#[derive(Clone, Debug, Default)]
pub struct FailureGoal {
    found: Option<Failure>,
}

/// A failure seen at the end of a run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    Crash { process: String, reason: String },
    Deadlock { processes: Vec<String> },
}

impl FailureGoal {
    pub fn failure(&self) -> Option<&Failure> {
        self.found.as_ref()
    }
}

impl<S: System> Monitor<S> for FailureGoal {
    fn observe(&mut self, _: &S, _: S::Proc, _: &Observation<S::Item, S::Site>, _: usize) {}

    fn hit(&self) -> bool {
        false
    }

    fn finish(&mut self, sys: &S) -> bool {
        let mut blocked = Vec::new();
        // A process stopped at an unsupported call may be the one the
        // blocked ones wait for: no deadlock can be judged in that run.
        let mut parked = false;
        for p in sys.procs() {
            match sys.fate(p) {
                Fate::Crashed { reason } => {
                    self.found = Some(Failure::Crash {
                        process: sys.name(p),
                        reason,
                    });
                    return true;
                }
                Fate::Blocked => blocked.push(sys.name(p)),
                Fate::Parked { .. } => parked = true,
                Fate::Normal | Fate::Running => {}
            }
        }
        if !blocked.is_empty() && !parked {
            self.found = Some(Failure::Deadlock { processes: blocked });
            return true;
        }
        false
    }
}
