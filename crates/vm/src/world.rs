//! The modelled outside world's state, kept per VM (so forks and replays
//! see the same): the configuration that OTP keeps in its servers
//! (logger's, the application controller's) as a small term store, the
//! log events captured from `logger`, `counters` and `atomics` arrays, and
//! the deterministic byte stream behind `crypto:strong_rand_bytes/1`.
//!
//! The store's reads and writes are not scheduling points: the logger's
//! configuration and the application controller's tables change rarely,
//! at start-up, and a search that reordered around them would only grow.
//! Counters and atomics are shared items (each array element), so races on
//! them are searched like races on ETS.

use std::sync::Arc;

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
