//! The VM as a [`System`]: events become observations, process states become
//! fates, and timeouts follow the timeout policy.

use std::collections::BTreeMap;

use racewit_syntax::ir::{CallSiteId, Name};
use racewit_vm::{Access as VmAccess, Event, EventKind, Pid, ProcStatus, SharedItem, Vm, VmError};

use crate::system::{Access, Fate, Item, Observation, System};

/// A call site: module and id within it.
pub type Site = (Name, CallSiteId);

/// When a `receive ... after` timeout may fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutPolicy {
    /// Only when no process can run otherwise (a responsive system never
    /// times out): the default for confirming races.
    WhenStuck,
    /// Whenever the waiting process is scheduled: every timing is explored.
    Always,
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
    /// Messages in flight per receiver: printed message and the sender's actor.
    in_flight: BTreeMap<Pid, Vec<(String, Pid)>>,
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
        }
    }

    fn track_actor(&mut self, pid: Pid, ev: &Event) {
        let me = self.actor(pid);
        match (&ev.kind, &ev.item) {
            (EventKind::Spawn, Some(SharedItem::Process(child))) => {
                let actor = if Some(pid) == self.root { *child } else { me };
                self.actors.insert(*child, actor);
            }
            (EventKind::Send, Some(SharedItem::Mailbox(to))) => {
                if let Some((_, msg)) = ev.text.split_once(" ! ") {
                    self.in_flight
                        .entry(*to)
                        .or_default()
                        .push((msg.to_string(), me));
                }
            }
            (EventKind::Receive, _) => {
                if let Some(msg) = ev.text.strip_prefix("receive ")
                    && let Some(queue) = self.in_flight.get_mut(&pid)
                    && let Some(i) = queue.iter().position(|(m, _)| m == msg)
                {
                    let (_, actor) = queue.remove(i);
                    self.actors.insert(pid, actor);
                }
            }
            _ => {}
        }
    }
}

/// A shared item as the search compares them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VmItem(pub SharedItem, pub Option<String>);

impl VmItem {
    pub fn new(item: SharedItem) -> Self {
        VmItem(item, None)
    }
}

impl Item for VmItem {
    fn overlaps(&self, other: &Self) -> bool {
        // Two sends of the same message to one mailbox: swapping them leaves
        // the mailbox as it was.
        if let (Some(a), Some(b)) = (&self.1, &other.1)
            && a == b
        {
            return false;
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
    }
}

fn observation(vm: &Vm, ev: &Event) -> Observation<VmItem, Site> {
    // Blocking in `receive` changes nothing anyone can see: the process
    // only finds no message yet. It commutes with every other step (the
    // send that later wakes it is ordered with the receive that follows).
    if ev.kind == EventKind::Blocked {
        return Observation {
            access: None,
            also: Vec::new(),
            site: ev.site.clone(),
            global: false,
            text: ev.text.clone(),
            item_label: None,
        };
    }
    // The message of a send, which two sends to one mailbox are compared by.
    let message = match (ev.kind, &ev.item) {
        (EventKind::Send, Some(SharedItem::Mailbox(_))) => {
            ev.text.split_once(" ! ").map(|(_, m)| m.to_string())
        }
        _ => None,
    };
    let access = match (&ev.item, ev.access) {
        (Some(item), Some(a)) => Some((
            VmItem(item.clone(), message.clone()),
            match a {
                VmAccess::Read => Access::Read,
                VmAccess::Write => Access::Write,
            },
        )),
        _ => None,
    };
    // Every other item the step touched (an exit's signals, a transaction's
    // records), for dependency. Link and unlink change who an exit signals:
    // never commute them.
    let also = ev
        .accesses
        .iter()
        .map(|(item, a)| {
            let a = match a {
                VmAccess::Read => Access::Read,
                VmAccess::Write => Access::Write,
            };
            let msg = matches!(item, SharedItem::Mailbox(_))
                .then(|| message.clone())
                .flatten();
            (VmItem(item.clone(), msg), a)
        })
        .collect();
    let global = matches!(ev.kind, EventKind::Link | EventKind::Unlink);
    Observation {
        access,
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
        match self.timeouts {
            TimeoutPolicy::Always => self.vm.enabled(),
            TimeoutPolicy::WhenStuck => {
                let runnable = self.vm.runnable_without_timeout();
                if runnable.is_empty() {
                    self.vm.enabled()
                } else {
                    runnable
                }
            }
        }
    }

    fn step(&mut self, proc: Pid) -> Result<Observation<VmItem, Site>, VmError> {
        let ev = self.vm.step(proc)?;
        self.track_actor(proc, &ev);
        Ok(observation(&self.vm, &ev))
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
            ProcStatus::Runnable | ProcStatus::Waiting { .. } => Fate::Running,
            ProcStatus::Blocked => Fate::Blocked,
            ProcStatus::Parked { call, location } => Fate::Parked {
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
