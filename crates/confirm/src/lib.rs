//! racewit's confirmation: turn each suspect into a witness or an honest
//! "unconfirmed": with every interleaving explored, or within bound N.
//!
//! Principal types:
//! - [`system::System`]: the deterministic, steppable system the search
//!   drives (the VM through [`vm_system::VmSystem`]; small models in tests).
//! - [`goal::Monitor`], [`goal::RaceGoal`], [`goal::FailureGoal`]: what a
//!   search looks for, watched step by step.
//! - [`search::Strategy`]: [`search::Systematic`] (the default:
//!   [`search::dpor::SourceDpor`] over every interleaving, then
//!   [`search::bounded::BoundedDfs`] within the preemption bound if needed;
//!   both steered by the goal), [`search::random::RandomWalk`] (PCT from a
//!   seed), and [`search::replay::replay`].
//! - [`harness::Harness`]: the generated Erlang module that runs a suspect.
//! - [`serial::OneAtATime`]: the serial reference a witness's outcome is
//!   compared with (the harness's workers one after the other).
//! - [`confirmation::confirm_all`] → [`confirmation::Confirmation`]
//!   ([`verdict::Verdict`] + [`witness::Witness`]).
//! - [`explore::explore`]: every interleaving of a test entry.
//! - [`witness_replay::replay_witness`]: a witness run again, checked.
//! - [`schedule::Schedule`]: a schedule is data (process names per step).

pub mod amplify;
mod arg_shape;
pub mod callers;
pub mod confirmation;
mod erl_text;
pub mod explore;
pub mod goal;
pub mod harness;
mod item_writers;
mod prepare;
mod returns;
pub mod schedule;
pub mod search;
pub mod serial;
mod servers;
pub mod system;
mod table_setup;
#[cfg(test)]
mod test_support;
mod through_api;
mod toward;
pub mod verdict;
pub mod vm_system;
pub mod witness;
pub mod witness_replay;

#[cfg(test)]
mod model;
