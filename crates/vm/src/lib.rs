//! racewit-vm: an embedded, deterministic, steppable Erlang VM.
//!
//! Principal types:
//! - [`Vm`]: processes, registry, ETS, mnesia; [`Vm::step`] runs one process
//!   to its next visible action and returns an [`Event`]. Cloning is cheap
//!   (persistent maps, `Arc`'d code and processes), so a search can fork.
//! - [`Term`], [`Pid`], [`atom::Atom`]: Erlang values.
//! - [`Event`], [`EventKind`], [`SharedItem`], [`Access`]: what a step did.
//! - [`ProcStatus`], [`ProcName`]: process state and stable names (`P1.2`).
//! - [`VmConfig`], [`VmError`]: limits, and why the interpreter stopped.
//! - [`run::run_entry`]: run `mod:fun()` once under round robin (`racewit run`).
//!
//! Architecture invariant: the VM does no I/O, reads no clock, owns no
//! threads or RNG. Time, refs and unique integers are counters; timeouts are
//! schedulable choices. Erlang exceptions are values, never `Err`.
//!
//! Code is compiled once per VM from the core IR ([`code`]) into flat
//! instructions over frame slots, with calls resolved; each process keeps an
//! explicit stack of frames, so deep recursion never uses the Rust stack.
//! Simplifications: stack traces are `[{M, F, Arity, []}]` per frame; `set`
//! ETS tables iterate in key order; one node (`nonode@nohost`).

pub mod arith;
pub mod atom;
pub mod bif;
pub mod code;
pub mod ets;
pub mod event;
mod exec;
pub mod format;
pub mod mnesia;
pub mod pattern;
pub mod prelude;
pub mod process;
pub mod run;
pub mod term;
pub mod vm;

pub use event::{Access, Class, Event, EventKind, Exception, SharedItem};
pub use process::{ProcName, ProcStatus};
pub use term::{Pid, Term};
pub use vm::{Vm, VmConfig, VmError};
