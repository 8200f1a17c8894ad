//! The VM as a [`System`]: events become observations, process states become
//! fates, and timeouts follow the timeout policy.

use std::collections::BTreeMap;

use racewit_syntax::ir::{CallSiteId, Name};
use std::sync::{Arc, Mutex};

use racewit_vm::{
    Access as VmAccess, Event, EventKind, Pid, ProcStatus, ReceiveProbe, SharedItem, Term, Vm,
    VmError,
};

use crate::system::{Access, Fate, Item, Observation, System};

/// A call site: module and id within it.
pub type Site = (Name, CallSiteId);

/// When a `receive ... after` timeout (or an `erlang:` timer) may fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutPolicy {
    /// Only when no process can run otherwise (a responsive system never
    /// times out): the default. A process parked at a call racewit cannot
    /// run counts as able to run.
    WhenStuck,
    /// Whenever the waiting process is scheduled: every timing is explored.
    Always,
    /// Never: a process waiting with nothing to receive is blocked.
    Never,
    /// A timeout with less than this many milliseconds left may fire at
    /// any point; a longer one only when no process can run otherwise.
    Below(u64),
}

impl TimeoutPolicy {
    /// Whether `pid`'s pending timeout may fire now, given whether some
    /// process could run without a timeout firing (`others`).
    fn may_fire(self, vm: &Vm, pid: Pid, others: bool) -> bool {
        match self {
            TimeoutPolicy::Always => true,
            TimeoutPolicy::Never => false,
            TimeoutPolicy::WhenStuck => !others,
            TimeoutPolicy::Below(ms) => !others || vm.timeout_left(pid).is_some_and(|l| l < ms),
        }
    }
}

/// The VM plus the bookkeeping the search needs.
///
/// Actors: a process acts for itself, except that a process started by a
/// non-root process acts for its starter, and a process that received a
/// message acts for the sender's actor until its next receive (a server
/// handling a request acts for the client). The root (`P1`, the harness)
/// is nobody's actor: its children act for themselves.
#[derive(Clone)]
pub struct VmSystem {
    pub vm: Vm,
    pub timeouts: TimeoutPolicy,
    root: Option<Pid>,
    /// Actors and messages in flight, shared between forks of the system
    /// until a step changes them (a search forks the system at every
    /// choice point, and most steps change none of them).
    books: Arc<Books>,
    /// Sends made so far in the run, by every process: a send's place in
    /// the run, which tells a receive the messages sent after it.
    serial: u64,
    /// A VM of the same image that receives' clauses are tried in
    /// ([`Vm::probe_receive`]): a copy of the one the system started with.
    probe_vm: Arc<Mutex<Vm>>,
    /// A generated harness's root said its workers are all done: from then
    /// on no timeout fires, so a run ends when the program is quiet (a
    /// server's periodic tick would otherwise run it on forever).
    workers_done: bool,
    /// Spends this token's allowance (a context's
    /// `--max-context-reductions`): each step its reductions, and at least
    /// [`STEP_WORK`].
    meter: Option<Arc<crate::search::Cancel>>,
}

/// The least work a step counts for in a context's allowance, in
/// reductions: what the search spends around a step (observing it, keeping
/// states) is worth about this many reductions of the VM.
pub const STEP_WORK: u64 = 200;

impl VmSystem {
    pub fn new(vm: Vm, timeouts: TimeoutPolicy) -> Self {
        let root = vm.processes().into_iter().next();
        let probe_vm = Arc::new(Mutex::new(vm.clone()));
        VmSystem {
            vm,
            timeouts,
            root,
            books: Arc::default(),
            serial: 0,
            probe_vm,
            workers_done: false,
            meter: None,
        }
    }

    /// Every step from now on spends one of `meter`'s allowance.
    pub fn metered(mut self, meter: Option<Arc<crate::search::Cancel>>) -> Self {
        self.meter = meter;
        self
    }

    /// What process `proc`'s first function returned, as compared between
    /// runs (pids by process name, refs alike: see [`canonical`]); `None`
    /// while it runs or when it did not return.
    pub fn returned(&self, proc: Pid) -> Option<String> {
        let value = self.vm.process_result(proc)?;
        let text = self.vm.format_term(&value);
        if !text.contains('<') {
            return Some(text);
        }
        let names: BTreeMap<u32, String> = self
            .vm
            .processes()
            .into_iter()
            .map(|p| (p.number(), self.vm.process_name(p).to_string()))
            .collect();
        Some(canonical(&text, &names))
    }

    /// Puts a message `pid` sent (on behalf of `actor`) in flight to `to`;
    /// returns its identity (the sender and its place among the sender's
    /// sends) and its place in the run.
    fn put_in_flight(&mut self, pid: Pid, actor: Pid, to: Pid, msg: Option<Term>) -> (u64, u64) {
        let books = Arc::make_mut(&mut self.books);
        let n = books.sends.entry(pid).or_insert(0);
        *n += 1;
        let id = (u64::from(pid.0) << 32) | u64::from(*n);
        self.serial += 1;
        books.in_flight.entry(to).or_default().push(InFlight {
            msg,
            sender: pid,
            actor,
            id,
        });
        (id, self.serial)
    }

    fn probe(&self, ev: &Event) -> Carried<Option<Probe>> {
        Carried(ev.receive.clone().map(|receive| Probe {
            receive,
            vm: self.probe_vm.clone(),
        }))
    }

    /// Follows actors and messages across a step; returns how the step
    /// touched a mailbox.
    fn track(&mut self, pid: Pid, ev: &Event) -> Tracked {
        let me = self.actor(pid);
        let mut out = Tracked {
            mail: Mail::Any,
            message: None,
            orders: Vec::new(),
        };
        match (&ev.kind, &ev.item) {
            (EventKind::Spawn, Some(SharedItem::Process(child))) => {
                let actor = if Some(pid) == self.root { *child } else { me };
                Arc::make_mut(&mut self.books).actors.insert(*child, actor);
            }
            (EventKind::Send, Some(SharedItem::Mailbox(to))) if ev.message.is_some() => {
                let (id, serial) = self.put_in_flight(pid, me, *to, ev.message.clone());
                out.mail = Mail::Sent {
                    id,
                    serial,
                    msg: Carried(ev.message.clone()),
                };
                out.message = Some(id);
            }
            // A timer's message is in flight like a send's (its firing is
            // never commuted anyway): keeps the queue in the mailbox's order,
            // so a receive of an equal message names the one it took.
            (EventKind::Timeout, Some(SharedItem::Mailbox(to))) => {
                let (id, _) = self.put_in_flight(pid, me, *to, ev.message.clone());
                out.message = Some(id);
            }
            (EventKind::Receive, _) if ev.message.is_none() => {
                // Nothing taken (`after 0`): ordered with every message it
                // could have taken.
                out.mail = Mail::Waited {
                    probe: self.probe(ev),
                };
            }
            (EventKind::Receive, _) => {
                let probe = self.probe(ev);
                let serial = self.serial;
                let at = self.books.in_flight.get(&pid).and_then(|queue| {
                    queue
                        .iter()
                        .position(|m| m.msg.is_some() && m.msg == ev.message)
                });
                if let Some(i) = at {
                    let books = Arc::make_mut(&mut self.books);
                    let queue = books.in_flight.entry(pid).or_default();
                    let taken = queue.remove(i);
                    books.actors.insert(pid, taken.actor);
                    // The messages behind it that it could have taken: had
                    // one of them come first, it would have been taken.
                    // Their order with the one taken is what the receive
                    // saw (one sender's messages keep their order anyway).
                    out.orders = queue[i..]
                        .iter()
                        .filter(|m| m.sender != taken.sender && could_take(&probe, &m.msg))
                        .map(|m| (taken.id, m.id))
                        .collect();
                    out.mail = Mail::Received {
                        id: taken.id,
                        serial,
                        probe,
                    };
                }
            }
            _ => {}
        }
        out
    }
}

/// What [`VmSystem`] follows across steps besides the VM: whom each
/// process acts for, and the messages in flight.
#[derive(Clone, Default)]
struct Books {
    actors: BTreeMap<Pid, Pid>,
    /// Messages in flight per receiver, in the order they arrived.
    in_flight: BTreeMap<Pid, Vec<InFlight>>,
    /// Sends made so far per process (a message is named by its sender and
    /// its place among the sender's sends, the same in every schedule).
    sends: BTreeMap<Pid, u32>,
}

/// A message in flight.
#[derive(Clone)]
struct InFlight {
    msg: Option<Term>,
    sender: Pid,
    /// The sender's actor (the receiver acts for it once it takes it).
    actor: Pid,
    /// Its identity: the sender and its place among the sender's sends.
    id: u64,
}

/// What [`VmSystem::track`] learnt of a step.
struct Tracked {
    mail: Mail,
    message: Option<u64>,
    orders: Vec<(u64, u64)>,
}

/// A receive's clauses, to try messages on.
#[derive(Clone)]
pub struct Probe {
    receive: ReceiveProbe,
    vm: Arc<Mutex<Vm>>,
}

/// A value an item carries that takes no part in comparing items: equal to
/// any other, hashed as nothing.
#[derive(Clone)]
pub struct Carried<T>(pub T);

impl<T> PartialEq for Carried<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<T> Eq for Carried<T> {}
impl<T> PartialOrd for Carried<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Carried<T> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}
impl<T> std::hash::Hash for Carried<T> {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
impl<T> std::fmt::Debug for Carried<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("_")
    }
}

/// Whether the receive could take the message; true when either is not
/// known (the answer that orders them).
fn could_take(probe: &Carried<Option<Probe>>, msg: &Option<Term>) -> bool {
    match (&probe.0, msg) {
        (Some(p), Some(m)) => match p.receive.known(m) {
            Some(known) => known,
            None => match p.vm.lock() {
                Ok(mut vm) => vm.probe_receive(&p.receive, m),
                Err(_) => true,
            },
        },
        _ => true,
    }
}

/// How a step touches a mailbox, which tells the sends and receives that
/// commute.
///
/// The rule (Concuerror's, with receive patterns). A mailbox is a queue; a
/// send appends, a receive takes the first message one of its clauses
/// takes, or takes nothing (`after`, or it blocks). What a run shows of a
/// mailbox is only what its receives take, so:
/// 1. Two sends to one mailbox by different processes commute: swapping
///    them changes the queue's order, which only a receive can see, and
///    the rules below order them where one does.
/// 2. A receive that took a message is ordered with the send of that
///    message, and with every send to the mailbox after it whose message
///    it could have taken (sent before it, that message would have been a
///    candidate).
/// 3. A receive that took a message, with a message behind it from another
///    sender that it could also have taken, orders the two sends (the
///    observation's `orders`): in the other order it takes the other one.
/// 4. A receive that took nothing (`after 0`, a timeout) is ordered with
///    every send to the mailbox it could have taken; a timeout fires on
///    the virtual clock and commutes with nothing anyway.
/// 5. Blocking changes nothing anyone sees and takes nothing: it commutes
///    with every step within a run. A message it could take makes the
///    process's next step another one (a receive), so a process asleep on
///    its blocking step wakes at such a send (`waits_on`).
/// 6. One process's sends keep their order (they are its steps); exit
///    signals and `'DOWN'` messages, `global:send` and messages in a
///    transaction are [`Mail::Any`]: ordered with every access to the
///    mailbox.
///
/// Why every distinguishable ordering is still explored: take two runs
/// with the same happens-before (this relation, plus each process's
/// order). By induction along the second, each receive takes the same
/// message as in the first. Its own process did the same before it. The
/// message `m` it took in the first run was sent before it (rule 2). A
/// message `m'` it could take and that is there before it in the second
/// run: was sent before it in the first too (else rule 2 orders them the
/// other way), so it was behind `m` there (the receive took the first it
/// could), so the sends of `m` and `m'` are ordered (rule 3, or one
/// sender), and `m'` is behind `m` in the second run too. The messages
/// taken before by the same process are the same (induction). So the
/// first message it can take is `m` again. A receive that took nothing
/// sees no message it could take in either run (rule 4). Sends, ETS and
/// the rest read nothing of a mailbox. So the two runs make the same
/// steps, and a race reversal that reaches one reaches the other.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mail {
    /// Not known: conflicts with every access to the mailbox.
    Any,
    /// Sent a message, named `id`; `serial` is its place in the run.
    Sent {
        id: u64,
        serial: u64,
        msg: Carried<Option<Term>>,
    },
    /// Received the message named `id`, after `serial` sends of the run.
    Received {
        id: u64,
        serial: u64,
        probe: Carried<Option<Probe>>,
    },
    /// Took nothing (`after 0`, blocked): its clauses.
    Waited { probe: Carried<Option<Probe>> },
}

/// A shared item as the search compares them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VmItem(pub SharedItem, pub Mail);

impl VmItem {
    pub fn new(item: SharedItem) -> Self {
        VmItem(item, Mail::Any)
    }

    /// How two accesses of one mailbox conflict by the rule on [`Mail`]
    /// (`in_run`: taken in one run, so a send's place in it tells whether
    /// it came after a receive); `None` when it does not decide.
    fn mail_overlap(&self, other: &Self, in_run: bool) -> Option<bool> {
        if !matches!(self.0, SharedItem::Mailbox(_)) || self.0 != other.0 {
            return None;
        }
        match (&self.1, &other.1) {
            (Mail::Sent { .. }, Mail::Sent { .. }) => Some(false),
            (
                Mail::Sent { id, serial, msg },
                Mail::Received {
                    id: took,
                    serial: at,
                    probe,
                },
            )
            | (
                Mail::Received {
                    id: took,
                    serial: at,
                    probe,
                },
                Mail::Sent { id, serial, msg },
            ) => Some(id == took || ((!in_run || serial > at) && could_take(probe, &msg.0))),
            (Mail::Sent { msg, .. }, Mail::Waited { probe })
            | (Mail::Waited { probe }, Mail::Sent { msg, .. }) => Some(could_take(probe, &msg.0)),
            _ => None,
        }
    }
}

impl Item for VmItem {
    fn overlaps(&self, other: &Self) -> bool {
        if let Some(o) = self.mail_overlap(other, false) {
            return o;
        }
        overlap(&self.0, &other.0)
    }

    fn overlaps_in_run(&self, other: &Self) -> bool {
        if let Some(o) = self.mail_overlap(other, true) {
            return o;
        }
        overlap(&self.0, &other.0)
    }

    /// A table, a name space (registry, `global`, `persistent_term`) or one
    /// item is a group; a key or name within it is a key, and the empty name
    /// or a whole-table access has none. The message tags are left out:
    /// sends and receives of one mailbox are one group.
    fn index_key(&self) -> (u64, Option<u64>) {
        use std::hash::{Hash, Hasher};
        let hash = |x: &dyn Fn(&mut rustc_hash::FxHasher)| {
            let mut h = rustc_hash::FxHasher::default();
            x(&mut h);
            h.finish()
        };
        let named = |space: u8, name: &str| {
            let group = hash(&|h| space.hash(h));
            let key = (!name.is_empty()).then(|| hash(&|h| name.hash(h)));
            (group, key)
        };
        match &self.0 {
            SharedItem::Ets { table, key } => (
                hash(&|h| (0u8, table).hash(h)),
                key.as_ref().map(|k| hash(&|h| k.hash(h))),
            ),
            SharedItem::Mnesia { table, key } => (
                hash(&|h| (1u8, table).hash(h)),
                key.as_ref().map(|k| hash(&|h| k.hash(h))),
            ),
            SharedItem::Registry(name) => named(2, name),
            SharedItem::Global(name) => named(3, name),
            SharedItem::PersistentTerm(name) => named(4, name),
            SharedItem::OsEnv(name) => named(6, name),
            SharedItem::File(path) => named(7, path),
            item => (hash(&|h| (5u8, item).hash(h)), None),
        }
    }
}

/// Whether two shared items can be the same state.
fn overlap(a: &SharedItem, b: &SharedItem) -> bool {
    match (a, b) {
        (SharedItem::Ets { table: ta, key: ka }, SharedItem::Ets { table: tb, key: kb }) => {
            ta == tb && (ka.is_none() || kb.is_none() || ka == kb)
        }
        (SharedItem::Mnesia { table: ta, key: ka }, SharedItem::Mnesia { table: tb, key: kb }) => {
            ta == tb && (ka.is_none() || kb.is_none() || ka == kb)
        }
        // `registered()` reads the whole registry (the empty name).
        (SharedItem::Registry(a), SharedItem::Registry(b)) => {
            a == b || a.is_empty() || b.is_empty()
        }
        (SharedItem::Global(a), SharedItem::Global(b)) => a == b || a.is_empty() || b.is_empty(),
        (SharedItem::PersistentTerm(a), SharedItem::PersistentTerm(b))
        | (SharedItem::OsEnv(a), SharedItem::OsEnv(b)) => a == b || a.is_empty() || b.is_empty(),
        (a, b) => a == b,
    }
}

impl From<VmAccess> for Access {
    fn from(a: VmAccess) -> Access {
        match a {
            VmAccess::Read => Access::Read,
            VmAccess::Write => Access::Write,
        }
    }
}

/// How an item is shown to users.
fn item_label(vm: &Vm, item: &SharedItem) -> String {
    match item {
        SharedItem::Registry(name) => format!("registry {name}"),
        // Written in one buffer: a label is made at every ETS step.
        SharedItem::Ets { table, key } => {
            let key = key.as_deref();
            let mut label = String::with_capacity(5 + table.len() + key.map_or(0, |k| 1 + k.len()));
            label.push_str("ets ");
            label.push_str(table);
            if let Some(k) = key {
                label.push('/');
                label.push_str(k);
            }
            label
        }
        SharedItem::Mnesia {
            table,
            key: Some(k),
        } => format!("mnesia {table}/{k}"),
        SharedItem::Mnesia { table, key: None } => format!("mnesia {table}"),
        SharedItem::Mailbox(p) => {
            let mut label = String::with_capacity(24);
            label.push_str("mailbox ");
            vm.push_process_name(*p, &mut label);
            label
        }
        SharedItem::Process(p) => {
            let mut label = String::with_capacity(24);
            label.push_str("process ");
            vm.push_process_name(*p, &mut label);
            label
        }
        SharedItem::Global(name) => format!("global {name}"),
        SharedItem::PersistentTerm(key) => format!("persistent_term {key}"),
        SharedItem::OsEnv(name) if name.is_empty() => "os environment".to_string(),
        SharedItem::OsEnv(name) => format!("os environment {name}"),
        SharedItem::Atomic { array, index } => format!("atomics #{array}[{index}]"),
        SharedItem::File(path) => format!("file {path}"),
        SharedItem::Code(module) => format!("code of {module}"),
    }
}

fn observation(
    vm: &Vm,
    probe_vm: &Arc<Mutex<Vm>>,
    ev: Event,
    tracked: Tracked,
) -> Observation<VmItem, Site> {
    let Tracked {
        mail,
        message,
        orders,
    } = tracked;
    let took = match &mail {
        Mail::Received { id, probe, .. } => Some((
            *id,
            !probe.0.as_ref().is_some_and(|p| p.receive.waits_forever()),
        )),
        _ => None,
    };
    // Blocking in `receive` changes nothing anyone can see: the process
    // only finds no message it can take yet, so within a run it commutes
    // with every step (rule 5 on [`Mail`]). But a send of a message it
    // could take makes its next step another one (a receive that takes
    // it): a process asleep on its blocking step must wake then
    // (`waits_on`).
    if ev.kind == EventKind::Blocked {
        let probe = ev.receive.clone().map(|receive| Probe {
            receive,
            vm: probe_vm.clone(),
        });
        return Observation {
            access: None,
            waits_on: Some(VmItem(
                SharedItem::Mailbox(ev.pid),
                Mail::Waited {
                    probe: Carried(probe),
                },
            )),
            also: Vec::new(),
            site: ev.site,
            global: false,
            text: ev.text,
            item_label: None,
            message: None,
            orders: Vec::new(),
            took: None,
            absent: false,
        };
    }
    // Removing a monitor of another process only decides whether its death
    // still sends a 'DOWN' here: it is ordered with that death (a write of
    // the process), not with what the process does, so it reads the process.
    let demonitor = ev.kind == EventKind::Demonitor;
    let weaken = |item: &SharedItem, a: VmAccess| -> Access {
        match item {
            SharedItem::Process(q) if demonitor && *q != ev.pid => Access::Read,
            _ => a.into(),
        }
    };
    let access = match (&ev.item, ev.access) {
        (Some(item), Some(a)) => Some((VmItem(item.clone(), mail.clone()), weaken(item, a))),
        _ => None,
    };
    // Every other item the step touched (an exit's signals, a transaction's
    // records), for dependency. Link and unlink change who an exit signals:
    // never commute them.
    // The step's primary access again is left out: it is `access` already,
    // and each copy would be compared again (a receive's copy probes its
    // clauses again for every send it is compared with).
    let also: Vec<(VmItem, Access)> = ev
        .accesses
        .iter()
        .filter(|(item, a)| !(Some(item) == ev.item.as_ref() && Some(*a) == ev.access))
        .map(|(item, a)| {
            // The step's own mailbox access again: same message.
            let tag = if Some(item) == ev.item.as_ref() {
                mail.clone()
            } else {
                Mail::Any
            };
            (VmItem(item.clone(), tag), weaken(item, *a))
        })
        .collect();
    // Every step reads its own process: an exit signal that kills it, or
    // the spawn that created it, is ordered with everything it does.
    let mut also: Vec<(VmItem, Access)> = also;
    also.push((VmItem::new(SharedItem::Process(ev.pid)), Access::Read));
    // A timeout fires on the virtual clock and, under `WhenStuck`, only when
    // nobody else can run: never commute it.
    // A signal to another process may kill it, and its death touches what
    // it held (names, tables, links): never commute it either.
    let signals_another = !matches!(ev.kind, EventKind::Spawn | EventKind::Demonitor)
        && ev
            .item
            .iter()
            .map(|i| (i, ev.access.unwrap_or(VmAccess::Read)))
            .chain(ev.accesses.iter().map(|(i, a)| (i, *a)))
            .any(|(i, a)| {
                matches!(i, SharedItem::Process(q) if *q != ev.pid) && a == VmAccess::Write
            });
    let global = signals_another
        || matches!(
            ev.kind,
            EventKind::Link | EventKind::Unlink | EventKind::Timeout
        );
    Observation {
        access,
        waits_on: None,
        also,
        item_label: ev.item.as_ref().map(|i| item_label(vm, i)),
        site: ev.site,
        global,
        text: ev.text,
        message,
        orders,
        took,
        absent: ev.absent,
    }
}

impl System for VmSystem {
    type Proc = Pid;
    type Item = VmItem;
    type Site = Site;
    type Error = VmError;

    fn enabled(&self) -> Vec<Pid> {
        if self.workers_done {
            return self.vm.runnable_without_timeout();
        }
        if self.timeouts == TimeoutPolicy::Always {
            return self.vm.enabled();
        }
        let mut out = self.vm.enabled();
        // Most often no process waits for a timeout alone: all may run.
        if !out.iter().any(|&p| self.vm.waits_for_timeout_only(p)) {
            return out;
        }
        let runnable = self.vm.runnable_without_timeout();
        // A parked process (a call racewit cannot run) would go on in a
        // real system: nothing is stuck, so no timeout is due for being
        // stuck. Otherwise a server's periodic tick fires on and on while
        // its caller waits parked, and the run only ends at its step limit.
        let others = !runnable.is_empty() || self.vm.any_parked();
        out.retain(|p| {
            runnable.binary_search(p).is_ok() || self.timeouts.may_fire(&self.vm, *p, others)
        });
        out
    }

    fn step(&mut self, proc: Pid) -> Result<Observation<VmItem, Site>, VmError> {
        let before = self.vm.reductions();
        let ev = self.vm.step(proc);
        if let Some(meter) = &self.meter {
            meter.spend((self.vm.reductions() - before).max(STEP_WORK));
        }
        let ev = ev?;
        if Some(proc) == self.root
            && ev.kind == EventKind::Send
            && ev.text.contains(crate::harness::WORKERS_DONE)
        {
            self.workers_done = true;
        }
        let tracked = self.track(proc, &ev);
        Ok(observation(&self.vm, &self.probe_vm, ev, tracked))
    }

    fn replay_step(&mut self, proc: Pid) -> Result<Observation<VmItem, Site>, VmError> {
        let meter = self.meter.take();
        let obs = self.step(proc);
        self.meter = meter;
        obs
    }

    fn name(&self, proc: Pid) -> String {
        self.vm.process_name(proc).to_string()
    }

    fn by_name(&self, name: &str) -> Option<Pid> {
        self.vm
            .processes()
            .into_iter()
            .find(|&p| &*self.vm.process_name(p) == name)
    }

    fn procs(&self) -> Vec<Pid> {
        self.vm.processes()
    }

    fn fate(&self, proc: Pid) -> Fate {
        match self.vm.process_status(proc) {
            // Waiting for a timeout the policy never fires, with nothing
            // to receive: as blocked as a receive without `after`.
            ProcStatus::Waiting { .. }
                if self.timeouts == TimeoutPolicy::Never && !self.vm.has_unscanned_mail(proc) =>
            {
                Fate::Blocked
            }
            ProcStatus::Runnable | ProcStatus::Waiting { .. } => Fate::Running,
            ProcStatus::Blocked => Fate::Blocked,
            ProcStatus::Parked {
                call,
                location,
                reason,
            } => Fate::Parked {
                call: format!("{call} ({location})"),
                cause: reason.into(),
            },
            // Only the atom prints as `normal`: no text to make.
            ProcStatus::Exited(Term::Atom(a)) if a == racewit_vm::atom::Atom::NORMAL => {
                Fate::Normal
            }
            ProcStatus::Exited(reason) => {
                let text = self.vm.format_term(&reason);
                if text == "normal" {
                    Fate::Normal
                } else {
                    Fate::Crashed { reason: text }
                }
            }
        }
    }

    fn location(&self, proc: Pid) -> Option<String> {
        self.vm.process_location(proc)
    }

    fn item_value(&self, _item: &VmItem) -> String {
        self.vm.shared_state_digest()
    }

    fn actor(&self, proc: Pid) -> Pid {
        self.books.actors.get(&proc).copied().unwrap_or(proc)
    }

    /// A spawn (and a timer's start) writes the new process and is the only
    /// step that writes another process without being global: every other
    /// write of another process is a signal that may kill it (see
    /// [`observation`]), and a demonitor only reads it.
    fn spawned(obs: &Observation<VmItem, Site>) -> Option<Pid> {
        match &obs.access {
            Some((VmItem(SharedItem::Process(child), _), Access::Write)) if !obs.global => {
                Some(*child)
            }
            _ => None,
        }
    }
}

/// `text` with `<0.N.0>` replaced by the name of process N and every
/// `#Ref<...>` by `#Ref`.
pub(crate) fn canonical(text: &str, names: &BTreeMap<u32, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['<', '#']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(after) = rest.strip_prefix("#Ref<")
            && let Some(end) = after.find('>')
        {
            out.push_str("#Ref");
            rest = &after[end + 1..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("<0.")
            && let Some(end) = after.find(".0>")
            && let Ok(n) = after[..end].parse::<u32>()
            && let Some(name) = names.get(&n)
        {
            out.push_str(name);
            rest = &after[end + 3..];
            continue;
        }
        out.push_str(&rest[..1]);
        rest = &rest[1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pids_and_refs_print_canonically() {
        let names: BTreeMap<u32, String> = [(80, "P1".to_string()), (81, "P1.1".to_string())]
            .into_iter()
            .collect();
        assert_eq!(
            canonical("{<0.81.0>,#Ref<0.0.0.7>,<0.80.0>,<0.9.0>}", &names),
            "{P1.1,#Ref,P1,<0.9.0>}"
        );
    }
}
