//! racewit's confirmation: turn each suspect into a witness or an honest
//! "unconfirmed within bound N".
//!
//! Principal types:
//! - [`system::System`]: the deterministic, steppable system the search
//!   drives (the VM through [`vm_system::VmSystem`]; small models in tests).
//! - [`goal::Monitor`], [`goal::RaceGoal`], [`goal::FailureGoal`]: what a
//!   search looks for, watched step by step.
//! - [`search::Strategy`]: [`search::bounded::BoundedDfs`],
//!   [`search::random::RandomWalk`], and [`search::replay::replay`].
//! - [`schedule::Schedule`]: a schedule is data (process names per step).

pub mod goal;
pub mod schedule;
pub mod search;
pub mod system;

#[cfg(test)]
mod model;
