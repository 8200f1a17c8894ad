//! R001: the local process registry. `whereis/1` or `registered/0`, then
//! `register/2` or `unregister/1` of a name that may be the same: another
//! process may register or unregister the name in between, and the write
//! fails with `badarg`.

use racewit_syntax::ir::MFA;

use crate::ops::Role;

pub fn role(mfa: &MFA) -> Option<Role> {
    if mfa.module != "erlang" {
        return None;
    }
    match (mfa.name.as_str(), mfa.arity) {
        ("whereis", 1) | ("registered", 0) => Some(Role::Read),
        ("register", 2) | ("unregister", 1) => Some(Role::Write),
        _ => None,
    }
}
