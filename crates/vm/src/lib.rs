//! racewit-vm: an embedded, deterministic, steppable Erlang VM.
//!
//! Principal types:
//! - [`Vm`]: processes, registry, ETS, mnesia; [`Vm::step`] runs one process
//!   to its next visible action and returns an [`Event`]. Cloning is cheap
//!   (persistent maps, `Arc`'d code and processes), so a search can fork.
//! - [`Term`], [`Pid`], [`atom::Atom`]: Erlang values.
//! - [`Event`], [`EventKind`], [`SharedItem`], [`Access`]: what a step did.
//! - [`ProcStatus`], [`ProcName`]: process state and stable names (`P1.2`).
//! - [`VmConfig`], [`VmError`]: limits, and why the interpreter stopped
//!   (reductions, memory, processes, atoms: see [`limits`]).
//! - [`run::run_entry`]: run `mod:fun()` once under round robin (`racewit run`).
//!
//! Architecture invariant: the VM does no I/O, reads no clock, owns no
//! threads or RNG. Time, refs and unique integers are counters; timeouts are
//! schedulable choices. Erlang exceptions are values, never `Err`.
//!
//! Code is compiled from the core IR ([`code`]) into flat instructions over
//! frame slots, with calls resolved; the prelude and OTP libraries are
//! compiled once per OS process and shared (`Arc`) by every VM. A hot loop
//! runs the common instructions with its state in machine registers and
//! leaves everything else to the general interpreter. Each process
//! keeps an explicit stack of frames over register chunks, so deep
//! recursion never uses the Rust stack; a per-run reduction budget stops
//! livelocks ([`VmError::BudgetExhausted`]).
//!
//! Resource limits ([`limits`]): sizes the BEAM refuses raise its
//! exceptions (`badarg`, `system_limit`); everything else a run holds
//! counts against a per-run memory budget, and a run over it ends with
//! [`VmError::MemoryExhausted`] naming the process and where it was, as a
//! run that makes too many processes or atoms ends with
//! [`VmError::TooManyProcesses`] or [`VmError::TooManyAtoms`]. Never an
//! allocation failure of racewit.
//!
//! Model of time and receive: `receive` with no matching message blocks
//! ([`ProcStatus::Blocked`], a [`EventKind::Blocked`] event); with `after T`
//! (T > 0) the process is [`ProcStatus::Waiting`] and stays enabled: stepping
//! it with no new message fires the timeout ([`EventKind::Timeout`]), so a
//! timeout is a scheduling choice; a new message makes it rescan first.
//! `after 0` is immediate: a receive that takes nothing then is an event of
//! its own (a [`EventKind::Receive`] that read the mailbox and found nothing
//! it matches), since a message sent just before would have been taken. `timer:sleep/1` and gen_server
//! call timeouts are built on this. An `erlang:` timer (`send_after/3,4`,
//! `start_timer/3,4`) is no process of the program but an entry the
//! scheduler sees (`P1.t1`, its owner's first timer) waiting for its
//! deadline: its firing, which sends the message, is one step, a timeout
//! chosen like any other. Virtual time only moves when a timeout fires.
//! `erlang:halt/0,1,2` ends the whole run: an [`EventKind::Halt`] event,
//! after which no process steps.
//!
//! Visible actions (one per step): send, receive, spawn, exit, link/unlink,
//! monitor/demonitor, `process_flag(trap_exit, _)`, registry and ETS and
//! mnesia accesses, output, timeout.
//! A process's exit is always a step of its own, even when its last call
//! was a visible action (a `register`, an `ets:new`, or one that raised and
//! ended it): between the two, others see the name held and the table
//! there, as on the BEAM. `ets:info/1,2` and `ets:whereis/1` of a table
//! that does not exist read its name (they answer `undefined`), so they
//! are ordered with its creation and deletion. A mnesia transaction is one atomic step (all its accesses in one event),
//! except that a dirty operation inside it, which takes no lock in mnesia,
//! ends the step there. Transactions share one lock, taken by the first
//! transactional operation and released at commit or abort; a transaction
//! that meets the lock held restarts once it is free (mnesia's restart).
//! Exit signals, links and monitors take effect immediately (no signal delay).
//! `global` locks (`set_lock`, `del_lock`, `trans`) are held per resource by
//! one requester id; a caller that meets a lock held waits for its release
//! or its holder's death.
//!
//! The node's setting is fixed (`bif::clock`, `bif::node_env`): the
//! clock starts at 2024-01-01T00:00:00Z (UTC) and moves as above; the
//! application environment starts empty and is shared state (`ac_tab`
//! items); the OS environment is empty and the emulator has no arguments.
//! The node's standard processes `init`, `user`, `kernel_sup`,
//! `application_controller`, `global_name_server`, `logger`,
//! `file_server_2`, `code_server` and `rex` are registered and alive from
//! the start, never scheduled (a message to one is dropped, a signal
//! ignored; a message to the file or code server parks its sender, as
//! touching the host, and one to the rpc server `rex` as unsupported), with
//! the named tables `ac_tab`, `global_names` and `logger` (empty).
//! `erlang:spawn_request/1..5` spawns on this node at once and answers a
//! request for any other node `noconnection` (the node is not
//! distributed), so OTP's `erpc`, and `rpc:call` over it, run.
//!
//! Calls racewit does not run park the calling process
//! ([`ProcStatus::Parked`]) with a [`ParkReason`]: an OTP module that is not
//! loaded or a function racewit's partial stand-in lacks (`unsupported`),
//! files, ports, sockets, `os:cmd` (`host`), a module the loaded code names
//! that is loaded nowhere (`not_loaded`: a missing dependency), an OTP
//! library module with no OTP installed (`no_otp`). A call to a function
//! missing from a user's module or from a library module loaded from
//! source, or to a module named only at run time and found nowhere, is
//! `undef` as on the BEAM, as is a function the installed OTP's module does
//! not export (its export table, handed in with the libraries). Library code comes in through
//! [`VmConfig::libraries`] ([`library`]); the modelled outside world
//! (logger, application controller, code server, counters, crypto) is in
//! the prelude and [`world`] (see the crate README).
//!
//! Forking: [`Vm`] clones share code, processes (`Arc`, copied on their next
//! step) and stores (persistent maps): cloning a VM with 10 processes and a
//! 10,000-entry ETS table takes well under a microsecond, against tens of
//! milliseconds to replay the same 10,000 steps, so a search should fork.
//!
//! Simplifications: stack traces are `[{M, F, Arity, []}]` per frame (no
//! arguments or lines); `set`/`bag` ETS tables iterate in key order (the
//! BEAM's is hash order); maps over 32 keys print in key order; pids print
//! as `<0.N.0>` with N = 80 + index; one node (`nonode@nohost`).

pub mod arith;
pub mod atom;
pub mod bif;
mod budget;
mod calling;
pub mod code;
pub mod ets;
pub mod event;
mod exec;
pub mod files;
pub mod format;
mod hot_loop;
pub mod image;
pub use code::layout;
pub mod library;
pub mod limits;
pub use code::liveness;
pub mod match_spec;
pub mod mnesia;
pub mod pattern;
pub mod prelude;
pub mod process;
pub mod run;
pub mod term;
pub mod vm;
pub mod world;

pub use event::{Access, Class, Event, EventKind, Exception, ReceiveProbe, SharedItem};
pub use image::Image;
pub use library::{Libraries, ParkReason};
pub use process::{ProcName, ProcStatus};
pub use term::{Pid, Term};
pub use vm::{Vm, VmConfig, VmError};
