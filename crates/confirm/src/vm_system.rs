//! The VM as a [`System`]: events become observations, process states become
//! fates, and timeouts follow the timeout policy.

use std::collections::BTreeMap;

use racewit_syntax::ir::{CallSiteId, Name};
use racewit_vm::{Access as VmAccess, Event, EventKind, Pid, ProcStatus, SharedItem, Vm, VmError};

use crate::system::{Access, Fate, Item, Observation, System};

/// A call site: module and id within it.
pub type Site = (Name, CallSiteId);

/// When a `receive ... after` timeout (or an `erlang:` timer) may fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutPolicy {
    /// Only when no process can run otherwise (a responsive system never
    /// times out): the default.
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
    actors: BTreeMap<Pid, Pid>,
    /// Messages in flight per receiver: printed message, the sender's actor
    /// and the message's identity.
    in_flight: BTreeMap<Pid, Vec<(String, Pid, u64)>>,
    /// Sends made so far per process (a message is named by its sender and
    /// its place among the sender's sends, the same in every schedule).
    sends: BTreeMap<Pid, u32>,
    /// A generated harness's root said its workers are all done: from then
    /// on no timeout fires, so a run ends when the program is quiet (a
    /// server's periodic tick would otherwise run it on forever).
    workers_done: bool,
}

impl VmSystem {
    pub fn new(vm: Vm, timeouts: TimeoutPolicy) -> Self {
        let root = vm.processes().into_iter().next();
        VmSystem {
            vm,
            timeouts,
            root,
            actors: BTreeMap::new(),
            in_flight: BTreeMap::new(),
            sends: BTreeMap::new(),
            workers_done: false,
        }
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
    /// returns its identity: the sender and its place among the sender's
    /// sends.
    fn put_in_flight(&mut self, pid: Pid, actor: Pid, to: Pid, msg: &str) -> u64 {
        let n = self.sends.entry(pid).or_insert(0);
        *n += 1;
        let id = (u64::from(pid.0) << 32) | u64::from(*n);
        self.in_flight
            .entry(to)
            .or_default()
            .push((msg.to_string(), actor, id));
        id
    }

    /// Follows actors and messages across a step; returns how the step
    /// touched a mailbox.
    fn track(&mut self, pid: Pid, ev: &Event) -> Mail {
        let me = self.actor(pid);
        match (&ev.kind, &ev.item) {
            (EventKind::Spawn, Some(SharedItem::Process(child))) => {
                let actor = if Some(pid) == self.root { *child } else { me };
                self.actors.insert(*child, actor);
                Mail::Any
            }
            (EventKind::Send, Some(SharedItem::Mailbox(to))) => {
                let Some((_, msg)) = ev.text.split_once(" ! ") else {
                    return Mail::Any;
                };
                let id = self.put_in_flight(pid, me, *to, msg);
                Mail::Sent {
                    text: msg.to_string(),
                    id,
                }
            }
            // A timer's message is in flight like a send's (its firing is
            // never commuted anyway): keeps the queue in the mailbox's order,
            // so a receive of an equal message names the one it took.
            (EventKind::Timeout, Some(SharedItem::Mailbox(to))) => {
                if let Some((_, msg)) = ev.text.split_once(" ! ") {
                    self.put_in_flight(pid, me, *to, msg);
                }
                Mail::Any
            }
            (EventKind::Receive, _) => {
                if let Some(msg) = ev.text.strip_prefix("receive ")
                    && let Some(queue) = self.in_flight.get_mut(&pid)
                    && let Some(i) = queue.iter().position(|(m, _, _)| m == msg)
                {
                    let (_, actor, id) = queue.remove(i);
                    self.actors.insert(pid, actor);
                    return Mail::Received { id };
                }
                Mail::Any
            }
            _ => Mail::Any,
        }
    }
}

/// How a step touches a mailbox, which tells the sends and receives that
/// commute.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mail {
    /// Not known: conflicts with every access to the mailbox.
    Any,
    /// Sent the message `text`, named `id`.
    Sent { text: String, id: u64 },
    /// Received the message named `id`.
    Received { id: u64 },
}

/// A shared item as the search compares them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VmItem(pub SharedItem, pub Mail);

impl VmItem {
    pub fn new(item: SharedItem) -> Self {
        VmItem(item, Mail::Any)
    }
}

impl Item for VmItem {
    fn overlaps(&self, other: &Self) -> bool {
        match (&self.1, &other.1) {
            // Two sends to one mailbox never commute, even of equal messages
            // (from different senders: one process's sends are ordered by
            // the process anyway). Swapping them leaves the same mailbox,
            // but not the same events: a receive then takes the other
            // sender's message, so a receive that happened between the two
            // in one order has no equivalent in the other.
            // A receive takes the first matching message, which was there
            // before it: a send of another message, before or after, changes
            // neither what it takes nor what is left. Only the send of the
            // message it took is ordered with it.
            (Mail::Sent { id: a, .. }, Mail::Received { id: b })
            | (Mail::Received { id: b }, Mail::Sent { id: a, .. }) => {
                return self.0 == other.0 && a == b;
            }
            _ => {}
        }
        match (&self.0, &other.0) {
            (SharedItem::Ets { table: ta, key: ka }, SharedItem::Ets { table: tb, key: kb }) => {
                ta == tb && (ka.is_none() || kb.is_none() || ka == kb)
            }
            (
                SharedItem::Mnesia { table: ta, key: ka },
                SharedItem::Mnesia { table: tb, key: kb },
            ) => ta == tb && (ka.is_none() || kb.is_none() || ka == kb),
            // `registered()` reads the whole registry (the empty name).
            (SharedItem::Registry(a), SharedItem::Registry(b)) => {
                a == b || a.is_empty() || b.is_empty()
            }
            (SharedItem::Global(a), SharedItem::Global(b)) => {
                a == b || a.is_empty() || b.is_empty()
            }
            (SharedItem::PersistentTerm(a), SharedItem::PersistentTerm(b)) => {
                a == b || a.is_empty() || b.is_empty()
            }
            (a, b) => a == b,
        }
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
            item => (hash(&|h| (5u8, item).hash(h)), None),
        }
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
        SharedItem::Ets {
            table,
            key: Some(k),
        } => format!("ets {table}/{k}"),
        SharedItem::Ets { table, key: None } => format!("ets {table}"),
        SharedItem::Mnesia {
            table,
            key: Some(k),
        } => format!("mnesia {table}/{k}"),
        SharedItem::Mnesia { table, key: None } => format!("mnesia {table}"),
        SharedItem::Mailbox(p) => format!("mailbox {}", vm.process_name(*p)),
        SharedItem::Process(p) => format!("process {}", vm.process_name(*p)),
        SharedItem::Global(name) => format!("global {name}"),
        SharedItem::PersistentTerm(key) => format!("persistent_term {key}"),
        SharedItem::Atomic { array, index } => format!("atomics #{array}[{index}]"),
    }
}

fn observation(vm: &Vm, ev: &Event, mail: Mail) -> Observation<VmItem, Site> {
    // Blocking in `receive` changes nothing anyone can see: the process
    // only finds no message yet, so within a run it commutes with every
    // step. But a send to its mailbox makes its next step another one (a
    // receive that takes the message): a process asleep on its blocking
    // step must wake then (`waits_on`). Without that, DPOR missed
    // interleavings where a receive takes one sender's message before
    // another sends.
    if ev.kind == EventKind::Blocked {
        return Observation {
            // Ordered with sends to its mailbox within a run too: DPOR then
            // plans the receive before another sender's send (the
            // dependency tests show interleavings lost otherwise).
            access: Some((VmItem::new(SharedItem::Mailbox(ev.pid)), Access::Read)),
            waits_on: Some(VmItem::new(SharedItem::Mailbox(ev.pid))),
            also: Vec::new(),
            site: ev.site.clone(),
            global: false,
            text: ev.text.clone(),
            item_label: None,
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
    let also: Vec<(VmItem, Access)> = ev
        .accesses
        .iter()
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
        site: ev.site.clone(),
        global,
        text: ev.text.clone(),
        item_label: ev.item.as_ref().map(|i| item_label(vm, i)),
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
        let runnable = self.vm.runnable_without_timeout();
        let others = !runnable.is_empty();
        let mut out = self.vm.enabled();
        out.retain(|p| {
            runnable.binary_search(p).is_ok() || self.timeouts.may_fire(&self.vm, *p, others)
        });
        out
    }

    fn step(&mut self, proc: Pid) -> Result<Observation<VmItem, Site>, VmError> {
        let ev = self.vm.step(proc)?;
        if Some(proc) == self.root
            && ev.kind == EventKind::Send
            && ev.text.contains(crate::harness::WORKERS_DONE)
        {
            self.workers_done = true;
        }
        let mail = self.track(proc, &ev);
        Ok(observation(&self.vm, &ev, mail))
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
            ProcStatus::Parked { call, location, .. } => Fate::Parked {
                call: format!("{call} ({location})"),
            },
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

    fn item_value(&self, _item: &VmItem) -> String {
        self.vm.shared_state_digest()
    }

    fn actor(&self, proc: Pid) -> Pid {
        self.actors.get(&proc).copied().unwrap_or(proc)
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
