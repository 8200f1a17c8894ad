//! R004: `register(Name, Pid)` of a pid a `spawn` returned. The new process
//! may run and exit before the parent registers it, and the `register`
//! fails with `badarg`. Never filtered statically: whether the new process
//! can end first (or blocks in a `receive` nobody can reach yet) is left to
//! confirmation.

use racewit_syntax::ir::MFA;

use crate::ops::Role;
use crate::spawn::start_of;
use crate::values::{Origin, Term, Val};

pub fn role(mfa: &MFA) -> Option<Role> {
    if mfa.module == "erlang" && mfa.name == "register" && mfa.arity == 2 {
        return Some(Role::Write);
    }
    let start = start_of(mfa)?;
    (start.returns_pid || mfa.name == "spawn_monitor").then_some(Role::Read)
}

/// The pid value `v` may be the one spawned at `o`.
pub fn holds(v: &Val, o: Origin) -> bool {
    fn walk(t: &Term, o: Origin) -> bool {
        match t {
            Term::Spawned(x) => *x == o,
            Term::Tuple(ts) => ts.iter().any(|t| walk(t, o)),
            _ => false,
        }
    }
    v.iter().any(|t| walk(t, o))
}
