//! R005: the global name registry. `global:whereis_name/1`, then
//! `global:register_name/2,3` of a name that may be the same (the second
//! registration returns `no`). `global:unregister_name/1` never fails, so it
//! is no write here.

use racewit_syntax::ir::MFA;

use crate::ops::Role;

pub fn role(mfa: &MFA) -> Option<Role> {
    if mfa.module != "global" {
        return None;
    }
    match (mfa.name.as_str(), mfa.arity) {
        ("whereis_name", 1) => Some(Role::Read),
        ("register_name", 2 | 3) => Some(Role::Write),
        _ => None,
    }
}
