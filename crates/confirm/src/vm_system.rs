//! The VM as a [`System`]: events become observations, process states become
//! fates, and timeouts follow the timeout policy.

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
#[derive(Clone)]
pub struct VmSystem {
    pub vm: Vm,
    pub timeouts: TimeoutPolicy,
}

impl VmSystem {
    pub fn new(vm: Vm, timeouts: TimeoutPolicy) -> Self {
        VmSystem { vm, timeouts }
    }
}

/// A shared item as the search compares them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VmItem(pub SharedItem);

impl Item for VmItem {
    fn overlaps(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (SharedItem::Ets { table: ta, key: ka }, SharedItem::Ets { table: tb, key: kb }) => {
                ta == tb && (ka.is_none() || kb.is_none() || ka == kb)
            }
            (SharedItem::Mnesia { table: ta, key: ka }, SharedItem::Mnesia { table: tb, key: kb }) => {
                ta == tb && (ka.is_none() || kb.is_none() || ka == kb)
            }
            (a, b) => a == b,
        }
    }
}

/// How an item is shown to users.
fn item_label(vm: &Vm, item: &SharedItem) -> String {
    match item {
        SharedItem::Registry(name) => format!("registry {name}"),
        SharedItem::Ets { table, key: Some(k) } => format!("ets {table}/{k}"),
        SharedItem::Ets { table, key: None } => format!("ets {table}"),
        SharedItem::Mnesia { table, key: Some(k) } => format!("mnesia {table}/{k}"),
        SharedItem::Mnesia { table, key: None } => format!("mnesia {table}"),
        SharedItem::Mailbox(p) => format!("mailbox {}", vm.process_name(*p)),
        SharedItem::Process(p) => format!("process {}", vm.process_name(*p)),
    }
}

fn observation(vm: &Vm, ev: &Event) -> Observation<VmItem, Site> {
    let access = match (&ev.item, ev.access) {
        (Some(item), Some(a)) => Some((
            VmItem(item.clone()),
            match a {
                VmAccess::Read => Access::Read,
                VmAccess::Write => Access::Write,
            },
        )),
        _ => None,
    };
    // An exit sends signals to every linked and monitoring process, and a
    // mnesia transaction touches several items at once: never commute them.
    let global = matches!(ev.kind, EventKind::Exit | EventKind::Link | EventKind::Unlink)
        || ev.accesses.len() > 1;
    Observation {
        access,
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
}
