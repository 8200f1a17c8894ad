//! What one step did, as the scheduler sees it: [`Event`].

use racewit_syntax::Span;
use racewit_syntax::ir::{CallSiteId, Name};

use crate::term::{Pid, Term};

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SharedItem {
    Registry(Name),
    Ets {
        /// Table name, or `#Ref<tid>` text for an unnamed table.
        table: String,
        /// Printed key; `None` = the whole table.
        key: Option<String>,
    },
    Mnesia {
        table: Name,
        key: Option<String>,
    },
    Mailbox(Pid),
    Process(Pid),
    /// A `global` name (printed); the empty text stands for every name.
    Global(String),
    /// A `persistent_term` key (printed); the empty text stands for every key.
    PersistentTerm(String),
    /// A variable of the OS environment; the empty name stands for every
    /// variable (`os:getenv/0`).
    OsEnv(String),
    /// Element `index` (1-based) of a `counters`/`atomics` array, by the
    /// number of its reference.
    Atomic {
        array: u64,
        index: u64,
    },
    /// A path of the run-local files (absolute); a step that makes or
    /// removes a name also writes its directory.
    File(String),
    /// A module's code (its name): loading, purging and deleting it at run
    /// time write it.
    Code(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Access {
    Read,
    Write,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    Send,
    Receive,
    Spawn,
    Exit,
    Link,
    Unlink,
    Monitor,
    Demonitor,
    Registry,
    Ets,
    Mnesia,
    Output,
    Timeout,
    /// The process is waiting in `receive` (no matching message).
    Blocked,
    /// The process stopped at an unsupported call.
    Parked,
    /// A `counters` or `atomics` operation.
    Atomic,
    /// A process-local step that ended for another reason (e.g. the step limit).
    Local,
    /// `erlang:halt/0,1,2`: the whole run ends here (no process steps again).
    Halt,
}

#[derive(Clone, Debug)]
pub struct Event {
    pub pid: Pid,
    pub kind: EventKind,
    pub item: Option<SharedItem>,
    pub access: Option<Access>,
    pub site: Option<(Name, CallSiteId)>,
    pub span: Option<Span>,
    /// Human-readable, e.g. `erlang:whereis(ct_master) -> undefined`.
    pub text: String,
    /// Every shared access of an atomic step (a mnesia transaction), in order.
    pub accesses: Vec<(SharedItem, Access)>,
    /// The message a send put in its target's mailbox (a send, or a timer
    /// firing), or the one a receive took, for the scheduler's dependency
    /// relation.
    pub message: Option<Term>,
    /// For a step of a `receive` (a message taken, nothing matched with
    /// `after 0`, blocked, or timed out): its clauses as they stood, so the
    /// scheduler can ask which other messages it could have taken
    /// ([`crate::Vm::receive_could_take`]).
    pub receive: Option<ReceiveProbe>,
    /// The call named a table that does not exist (an ETS table or a mnesia
    /// table): it changed nothing and saw only that absence. A race's write
    /// that meets no table says nothing of the race.
    pub absent: bool,
}

/// A `receive`'s clauses (patterns and guards) in the frame they ran in:
/// where the receive scans (its module, function and the instruction that
/// peeks at a message) and the frame's registers when it started, which
/// hold every variable its patterns and guards read. Shared: cloning is a
/// reference count.
#[derive(Clone)]
pub struct ReceiveProbe(pub(crate) std::sync::Arc<ProbeFrame>);

pub(crate) struct ProbeFrame {
    pub(crate) pid: Pid,
    pub(crate) module: u32,
    pub(crate) function: u32,
    pub(crate) peek_pc: u32,
    /// It has no `after` (or `after infinity`).
    pub(crate) forever: bool,
    pub(crate) regs: Vec<Term>,
    /// Messages already tried on these clauses, with the answer
    /// ([`crate::Vm::probe_receive`]): the answer depends only on the frame
    /// and the message, and a search asks about the same pair again and
    /// again (one receive compared with one send in many runs).
    pub(crate) answers: std::sync::Mutex<Vec<(Term, bool)>>,
}

/// Answers a receive keeps at most ([`ProbeFrame::answers`]): a lookup is a
/// scan, and a receive meets few distinct messages.
const ANSWERS_KEPT: usize = 16;

impl std::fmt::Debug for ReceiveProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ReceiveProbe({:?} at {}:{}:{})",
            self.0.pid, self.0.module, self.0.function, self.0.peek_pc
        )
    }
}

impl ReceiveProbe {
    /// Whether the receive has no timeout (no `after`, or `after
    /// infinity`): it can only take a message, never go on without one.
    pub fn waits_forever(&self) -> bool {
        self.0.forever
    }

    /// Whether these clauses would take `msg`, if a probe answered it
    /// before.
    pub fn known(&self, msg: &Term) -> Option<bool> {
        let answers = self.0.answers.lock().ok()?;
        answers.iter().find(|(m, _)| m == msg).map(|&(_, a)| a)
    }

    /// Keeps a probe's answer for `msg`.
    pub(crate) fn remember(&self, msg: &Term, answer: bool) {
        if let Ok(mut answers) = self.0.answers.lock()
            && answers.len() < ANSWERS_KEPT
        {
            answers.push((msg.clone(), answer));
        }
    }

    /// Whether two probes are the same receive taken once (one snapshot).
    pub fn same(&self, other: &ReceiveProbe) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Event {
    pub fn new(pid: Pid, kind: EventKind, text: String) -> Event {
        Event {
            pid,
            kind,
            item: None,
            access: None,
            site: None,
            span: None,
            text,
            accesses: Vec::new(),
            message: None,
            receive: None,
            absent: false,
        }
    }

    pub fn with_item(mut self, item: SharedItem, access: Access) -> Event {
        self.accesses.push((item.clone(), access));
        self.item = Some(item);
        self.access = Some(access);
        self
    }
}

/// An Erlang exception class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Error,
    Exit,
    Throw,
}

/// A raised exception.
#[derive(Clone, Debug)]
pub struct Exception {
    pub class: Class,
    pub reason: Term,
    pub stack: Term,
}

impl Exception {
    pub fn error(reason: Term) -> Exception {
        Exception {
            class: Class::Error,
            reason,
            stack: Term::Nil,
        }
    }
    pub fn exit(reason: Term) -> Exception {
        Exception {
            class: Class::Exit,
            reason,
            stack: Term::Nil,
        }
    }
    pub fn throw(reason: Term) -> Exception {
        Exception {
            class: Class::Throw,
            reason,
            stack: Term::Nil,
        }
    }
}
