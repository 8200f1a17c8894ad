//! R007: the application environment. `application:get_env/2,3`, then
//! `application:set_env/3,4` or `unset_env/2,3` of the same application and
//! key: a check-then-set (lazy initialisation, a flag) that another process
//! can interleave with. The item is the (application, key) pair, as OTP
//! keeps it in one node-wide table.

use racewit_syntax::ir::MFA;

use crate::ops::Role;

pub fn role(mfa: &MFA) -> Option<Role> {
    if mfa.module != "application" {
        return None;
    }
    match (mfa.name.as_str(), mfa.arity) {
        ("get_env", 2 | 3) => Some(Role::Read),
        ("set_env", 3 | 4) | ("unset_env", 2 | 3) => Some(Role::Write),
        _ => None,
    }
}
