//! R006: `persistent_term`. `get/1,2`, then `put/2` or `erase/1` of a key
//! that may be the same: a check-then-put that another process can
//! interleave with (and lose an update).

use racewit_syntax::ir::MFA;

use crate::ops::Role;

pub fn role(mfa: &MFA) -> Option<Role> {
    if mfa.module != "persistent_term" {
        return None;
    }
    match (mfa.name.as_str(), mfa.arity) {
        ("get", 1 | 2) => Some(Role::Read),
        ("put", 2) | ("erase", 1) => Some(Role::Write),
        _ => None,
    }
}
