//! The modelled outside world's state, kept per VM (so forks and replays
//! see the same): the configuration that OTP keeps in its servers
//! (logger's, the application controller's) as a small term store, the
//! log events captured from `logger`, `counters` and `atomics` arrays, and
//! the deterministic byte stream behind `crypto:strong_rand_bytes/1`, and
//! the run-local files (`crate::files`).
//!
//! The store's reads and writes are not scheduling points: the logger's
//! configuration and the application controller's tables change rarely,
//! at start-up, and a search that reordered around them would only grow.
//! Counters and atomics are shared items (each array element), so races on
//! them are searched like races on ETS.
//!
//! Also here: the node's standard processes ([`SYSTEM`]) and the state of
//! a `global` lock ([`GlobalLock`]).

use std::sync::Arc;

use crate::library::ParkReason;
use crate::term::{MapKey, Pid, Term};

/// One log event that passed the logger's level checks.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEvent {
    pub pid: Pid,
    /// `emergency` ... `debug`.
    pub level: String,
    /// The formatted message (a report printed with `~p`).
    pub text: String,
    /// `module:function/arity` and line from the `?LOG_*` macro's
    /// metadata, when the call came through one.
    pub location: Option<String>,
}

#[derive(Clone)]
pub struct World {
    pub(crate) store: imbl::OrdMap<MapKey, Term>,
    pub(crate) log: Arc<Vec<LogEvent>>,
    /// `counters`/`atomics` arrays by reference number.
    pub(crate) arrays: imbl::OrdMap<u64, imbl::Vector<i64>>,
    /// State of the byte stream of `crypto:strong_rand_bytes/1`.
    pub(crate) rand_state: u64,
    /// Compiled match specifications by reference number: what
    /// `ets:match_spec_compile/1` made, each its checked source (the BEAM's
    /// is a magic reference to a compiled program; a reference here too, so
    /// it prints, compares and tests `is_reference` the same way).
    pub(crate) compiled_ms: imbl::OrdMap<u64, crate::term::Term>,
    /// The run-local files (`crate::files`).
    pub(crate) files: crate::files::Files,
}

/// The seed of the random byte stream (any fixed value: runs repeat).
const RAND_SEED: u64 = 0x5241_4345_5749_5421;

impl Default for World {
    fn default() -> Self {
        World {
            store: imbl::OrdMap::new(),
            log: Arc::new(Vec::new()),
            arrays: imbl::OrdMap::new(),
            rand_state: RAND_SEED,
            compiled_ms: imbl::OrdMap::new(),
            files: crate::files::Files::default(),
        }
    }
}

impl World {
    /// The next 8 random bytes (splitmix64).
    pub(crate) fn next_random(&mut self) -> u64 {
        self.rand_state = self.rand_state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rand_state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn push_log(&mut self, event: LogEvent) {
        Arc::make_mut(&mut self.log).push(event);
    }
}

/// A `global` lock: the requester id holding it, the processes that set it
/// (a set: setting it again from the same process changes nothing, and one
/// `del_lock` releases it), and the processes waiting for it.
#[derive(Clone, Default)]
pub struct GlobalLock {
    pub(crate) requester: Option<MapKey>,
    pub(crate) holders: Vec<Pid>,
    pub(crate) waiters: Vec<Pid>,
}

/// One of the node's standard processes, as modelled: registered, alive
/// and never scheduled (a message to it is dropped, a signal ignored);
/// `process_info/2` answers its current and initial calls as the BEAM's.
pub(crate) struct SystemProcess {
    pub name: &'static str,
    pub current: (&'static str, &'static str, i64),
    pub initial: (&'static str, &'static str, i64),
    /// What it serves, for a server racewit does not run: a message to it
    /// parks the sender instead of being dropped, for the reason given
    /// ([`ParkReason::Host`] when every answer would come from the host,
    /// [`ParkReason::Unsupported`] when racewit does not model the server).
    /// Such a request comes from the library code that fronts the server
    /// (OTP's `file`, `rpc`), which a program may carry itself, as the OTP
    /// tree does, or which racewit runs from the installed OTP.
    pub serves: Option<(ParkReason, &'static str)>,
    /// The module whose server the node's boot script starts under this
    /// name (`logger`: kernelProcess `{logger_server, start_link, []}`).
    /// racewit stands in for the process; when the analysed program
    /// carries that module itself (OTP's kernel, checked as a program),
    /// the program's server is the node's: the program registering the
    /// name retires the stand-in, its name and its tables, and its own
    /// server runs in its place (see `Vm::retire_stand_in`).
    pub boots: Option<&'static str>,
}

/// The node's standard processes, `<0.N.0>` with N their index.
pub(crate) const SYSTEM: &[SystemProcess] = &[
    SystemProcess {
        name: "init",
        current: ("init", "boot_loop", 2),
        initial: ("erl_init", "start", 2),
        serves: None,
        boots: None,
    },
    SystemProcess {
        name: "user",
        current: ("user", "server_loop", 2),
        initial: ("erlang", "apply", 2),
        serves: None,
        boots: None,
    },
    SystemProcess {
        name: "kernel_sup",
        current: ("gen_server", "loop", 7),
        initial: ("proc_lib", "init_p", 5),
        serves: None,
        boots: None,
    },
    SystemProcess {
        name: "application_controller",
        current: ("gen_server", "loop", 7),
        initial: ("erlang", "apply", 2),
        serves: None,
        boots: None,
    },
    SystemProcess {
        name: "global_name_server",
        current: ("gen_server", "loop", 7),
        initial: ("proc_lib", "init_p", 5),
        serves: None,
        boots: None,
    },
    SystemProcess {
        name: "logger",
        current: ("gen_server", "loop", 7),
        initial: ("proc_lib", "init_p", 5),
        serves: None,
        boots: Some("logger_server"),
    },
    SystemProcess {
        name: "file_server_2",
        current: ("gen_server", "loop", 7),
        initial: ("proc_lib", "init_p", 5),
        serves: Some((ParkReason::Host, "the node's file server")),
        boots: None,
    },
    SystemProcess {
        name: "code_server",
        current: ("code_server", "loop", 1),
        initial: ("erlang", "apply", 2),
        serves: Some((ParkReason::Host, "the node's code server")),
        boots: None,
    },
    SystemProcess {
        name: "rex",
        current: ("gen_server", "loop", 7),
        initial: ("proc_lib", "init_p", 5),
        serves: Some((ParkReason::Unsupported, "the node's rpc server")),
        boots: None,
    },
];

/// Index of `user` in [`SYSTEM`] (every root's group leader).
pub(crate) const USER_INDEX: u32 = 1;

/// The system process of index `i` in [`SYSTEM`].
pub(crate) fn system_pid(i: usize) -> Pid {
    Pid(crate::term::SYSTEM_PID_BASE + i as u32)
}

/// Why a message to a system process that racewit does not run parks its
/// sender (see [`SystemProcess::serves`]), and the call the parked sender
/// names.
pub(crate) fn parked_request(pid: Pid) -> Option<(ParkReason, String)> {
    let sp = system_process(pid)?;
    let (why, what) = sp.serves?;
    Some((why, format!("erlang:send/2 to {}, {what}", sp.name)))
}

/// The system process behind `pid`, if it is one.
pub(crate) fn system_process(pid: Pid) -> Option<&'static SystemProcess> {
    if !pid.is_system() {
        return None;
    }
    SYSTEM.get((pid.0 - crate::term::SYSTEM_PID_BASE) as usize)
}
