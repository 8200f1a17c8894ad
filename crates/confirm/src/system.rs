//! What the search drives: a deterministic, cloneable system of processes
//! that takes one visible step at a time. The VM implements it (see
//! [`crate::vm_system`]); unit tests implement it with small models.

use std::fmt::Debug;

/// Read or write of a shared item.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    Read,
    Write,
}

/// One visible step as the search sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation<I, S> {
    /// The shared item touched and how, if any.
    pub access: Option<(I, Access)>,
    /// Further items the same step touches (a send to a registered name reads
    /// the registry; an exit signals linked processes): used for dependency.
    pub also: Vec<(I, Access)>,
    /// The code location that made the step (a call site).
    pub site: Option<S>,
    /// The step may affect any other process (an exit signal, a kill): never
    /// commuted with anything.
    pub global: bool,
    /// Human-readable text of the step, for traces.
    pub text: String,
    /// The item touched, as shown to users (`ets counters/hits`, `registry ct_master`, `mailbox P1.2`).
    pub item_label: Option<String>,
    /// The step blocked its process waiting on this item (a `receive` with
    /// no message yet): it changes nothing anyone sees, so it commutes with
    /// every step within a run, but a write to the item makes the process's
    /// next step another one, so a process asleep on this step must wake
    /// (sleep sets compare with [`independent`]).
    pub waits_on: Option<I>,
    /// The message this step sent, by an identity unique within a run.
    pub message: Option<u64>,
    /// Pairs of messages sent earlier in the run, by identity, whose order
    /// this step observed (a receive that took the first and could have
    /// taken the second, which was behind it in the mailbox): the sends
    /// are ordered, the first before the second, from this step on.
    pub orders: Vec<(u64, u64)>,
    /// The message this step took (a receive), by identity, and whether
    /// the step could have been taken without it (false for a receive that
    /// waits forever: it comes after that send in every run, so the two
    /// are ordered but never a race to reverse; what else it could have
    /// taken is ordered with it by [`Item::overlaps`] and `orders`).
    pub took: Option<(u64, bool)>,
    /// The step named a table that does not exist: it changed nothing and
    /// saw only that absence (a write there is no write of the race).
    pub absent: bool,
}

/// A shared item: how two items can conflict.
pub trait Item: Clone + Debug + PartialEq {
    /// Whether two accesses to these items can touch the same state.
    fn overlaps(&self, other: &Self) -> bool;

    /// Whether two accesses to these items, taken in one run, can touch
    /// the same state: may be finer than [`Item::overlaps`] where the
    /// items say how they stand in the run (a receive and a message sent
    /// before it that it did not take). The default is `overlaps`.
    fn overlaps_in_run(&self, other: &Self) -> bool {
        self.overlaps(other)
    }

    /// Where a search files accesses to this item so that it compares a
    /// step only with the earlier steps that may touch the same state:
    /// `(group, key)`. Two items that overlap must be in one group and have
    /// the same key, or one of them no key (it stands for the whole group,
    /// as a whole-table access does). Only a filter: overlap is still
    /// decided by [`Item::overlaps`]. The default files every item in one
    /// group with no key, which is correct and compares every pair.
    fn index_key(&self) -> (u64, Option<u64>) {
        (0, None)
    }
}

/// How a process ended up at the end of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Exited normally.
    Normal,
    /// Exited with an abnormal reason (printed as the BEAM would), at `location`.
    Crashed { reason: String },
    /// Blocked in `receive` with nothing to receive and no timeout.
    Blocked,
    /// Stopped at a call the VM cannot run (named, with its location), and why.
    Parked { call: String, cause: ParkCause },
    /// Still runnable (the run was cut by a budget).
    Running,
}

/// Why a process stopped at a call instead of running it (the VM's
/// [`racewit_vm::ParkReason`], for the search and its verdicts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParkCause {
    /// racewit cannot run it: an OTP module it does not run, or a function
    /// its partial stand-in of an OTP module lacks.
    Unsupported,
    /// It would touch the host (files, ports, sockets, the shell, NIFs).
    Host,
    /// Its module is loaded nowhere and is not OTP's: a dependency outside
    /// the analysed paths.
    NotLoaded,
    /// An OTP library module, and no installed OTP was found.
    NoOtp,
    /// Not a call: a busy loop, run no further (see
    /// [`racewit_vm::ParkReason::BusyLoop`]).
    BusyLoop,
}

impl ParkCause {
    /// The call that stopped a process, and why, as a user reads it after
    /// "stopped at": `unsupported call os:cmd/1 (x.erl:9)`, `call
    /// gen_leader:start/1 (x.erl:3): module gen_leader not loaded (...)`.
    pub fn describe(self, call: &str) -> String {
        let module = call.split(':').next().unwrap_or(call);
        match self {
            ParkCause::Unsupported => format!("unsupported call {call}"),
            ParkCause::Host => {
                format!("unsupported call {call} (it touches the host: never run)")
            }
            ParkCause::NotLoaded => format!(
                "call {call}: module {module} not loaded (a dependency outside the analysed \
                 paths: add its directory with -pa, or deps/ or _build/default/lib)"
            ),
            ParkCause::NoOtp => format!(
                "call {call}: module {module} is OTP's library code, and no installed OTP was \
                 found (install Erlang/OTP or set RACEWIT_OTP_ROOT)"
            ),
            ParkCause::BusyLoop => format!(
                "{call}: racewit runs such a process no further (it stays alive and still \
                 takes exit signals)"
            ),
        }
    }
}

impl From<racewit_vm::ParkReason> for ParkCause {
    fn from(r: racewit_vm::ParkReason) -> ParkCause {
        match r {
            racewit_vm::ParkReason::Unsupported => ParkCause::Unsupported,
            racewit_vm::ParkReason::Host => ParkCause::Host,
            racewit_vm::ParkReason::NotLoaded => ParkCause::NotLoaded,
            racewit_vm::ParkReason::NoOtp => ParkCause::NoOtp,
            racewit_vm::ParkReason::BusyLoop => ParkCause::BusyLoop,
        }
    }
}

/// A deterministic system of processes.
pub trait System: Clone {
    type Proc: Copy + Ord + Eq + Debug + std::hash::Hash;
    type Item: Item;
    type Site: Clone + Debug + PartialEq;
    type Error: std::error::Error + Send + Sync + 'static;

    /// Processes that can take a step now, sorted.
    fn enabled(&self) -> Vec<Self::Proc>;
    /// Runs `proc` up to and including its next visible action.
    fn step(
        &mut self,
        proc: Self::Proc,
    ) -> Result<Observation<Self::Item, Self::Site>, Self::Error>;
    /// [`System::step`] taken again to rebuild a state a search did not
    /// keep: the same step, but spent from no allowance the system is
    /// metered by (keeping fewer states must not change what a budget
    /// allows). The default is `step`.
    fn replay_step(
        &mut self,
        proc: Self::Proc,
    ) -> Result<Observation<Self::Item, Self::Site>, Self::Error> {
        self.step(proc)
    }
    /// Stable name (`P1`, `P1.2`) of a process.
    fn name(&self, proc: Self::Proc) -> String;
    /// The process with this stable name, if it exists now.
    fn by_name(&self, name: &str) -> Option<Self::Proc>;
    /// Every process that exists or existed, sorted.
    fn procs(&self) -> Vec<Self::Proc>;
    /// How a process stands now.
    fn fate(&self, proc: Self::Proc) -> Fate;
    /// The current value of a shared item, printed (for serializability checks).
    fn item_value(&self, item: &Self::Item) -> String;
    /// Where `proc` is now in its code (`x.erl:14`), if known: names a
    /// process still running when a run is cut.
    fn location(&self, _proc: Self::Proc) -> Option<String> {
        None
    }
    /// On whose behalf `proc` acts now: a server handling a request acts for
    /// the client that sent it, a helper process for the process that started
    /// it. A race is between actors, not only between processes.
    fn actor(&self, proc: Self::Proc) -> Self::Proc {
        proc
    }
    /// The process a step created, if it spawned one. Every step of the new
    /// process comes after its spawn in every run: the two are ordered, never
    /// a race to reverse. `None` (the default) only costs the search a
    /// reversal it tries and cannot plan.
    fn spawned(_obs: &Observation<Self::Item, Self::Site>) -> Option<Self::Proc> {
        None
    }
}

/// Whether two steps, by different processes, commute: swapping them cannot
/// change what either observes. Conservative: unknown means dependent.
/// Holds wherever the two steps are taken (sleep sets compare a step seen
/// in one run with steps of another).
pub fn independent<I: Item, S>(a: &Observation<I, S>, b: &Observation<I, S>) -> bool {
    commute(a, b, false)
}

/// Whether two steps of one run commute there. Besides [`independent`]
/// steps, two writes that print the same (the same call with the same
/// arguments and the same result, such as two `ets:insert(t, {k,1}) ->
/// true`) leave the item as either leaves it, so they commute on that item;
/// anything else either touches still orders them. Only within one run:
/// the same call taken in another state may print the same and not commute
/// (two `register` calls that both succeed there).
pub fn commute_in_run<I: Item, S>(a: &Observation<I, S>, b: &Observation<I, S>) -> bool {
    commute(a, b, true)
}

fn commute<I: Item, S>(a: &Observation<I, S>, b: &Observation<I, S>, same_run: bool) -> bool {
    if a.global || b.global {
        return false;
    }
    if !same_run {
        let wakes = |blocked: &Observation<I, S>, other: &Observation<I, S>| {
            blocked.waits_on.as_ref().is_some_and(|w| {
                other
                    .access
                    .iter()
                    .chain(other.also.iter())
                    .any(|(i, acc)| *acc == Access::Write && w.overlaps(i))
            })
        };
        if wakes(a, b) || wakes(b, a) {
            return false;
        }
    }
    let same_write = match (&a.access, &b.access) {
        (Some((ia, Access::Write)), Some((ib, Access::Write))) if same_run && a.text == b.text => {
            Some((ia, ib))
        }
        _ => None,
    };
    let all_a = a.access.iter().chain(a.also.iter());
    !all_a.into_iter().any(|(ia, aa)| {
        b.access.iter().chain(b.also.iter()).any(|(ib, ab)| {
            (if same_run {
                ia.overlaps_in_run(ib)
            } else {
                ia.overlaps(ib)
            }) && (*aa == Access::Write || *ab == Access::Write)
                && !same_write.is_some_and(|(ma, mb)| ia == ma && ib == mb)
        })
    })
}
