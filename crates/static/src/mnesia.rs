//! R003: mnesia dirty operations outside transactions. `dirty_read/1,2` or
//! `dirty_match_object/1,2`, then `dirty_write/1,2` or `dirty_delete/1,2` on a
//! table and key that may be the same. A record's table is its first
//! element (the record name) and its key the second.

use racewit_syntax::ir::MFA;

use crate::ops::{Item, Role};
use crate::values::{Term, Val, element};

pub fn role(mfa: &MFA) -> Option<Role> {
    if mfa.module != "mnesia" {
        return None;
    }
    match (mfa.name.as_str(), mfa.arity) {
        ("dirty_read", 1 | 2) | ("dirty_match_object", 1 | 2) => Some(Role::Read),
        ("dirty_write", 1 | 2) | ("dirty_delete", 1 | 2) => Some(Role::Write),
        _ => None,
    }
}

/// `'_'` in a match pattern matches any key.
fn unwild(v: Val) -> Val {
    match &v {
        Val::Set(s) if s.iter().any(|t| matches!(t, Term::Atom(a) if a == "_")) => {
            Val::one(Term::Wild)
        }
        _ => v,
    }
}

pub fn item(mfa: &MFA, args: &[Val], limit: usize) -> Item {
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Val::Any);
    let (table, key) = match (mfa.name.as_str(), mfa.arity) {
        // {Tab, Key}
        ("dirty_read" | "dirty_delete", 1) => {
            (element(&arg(0), 0, limit), element(&arg(0), 1, limit))
        }
        ("dirty_read" | "dirty_delete", 2) => (arg(0), arg(1)),
        // A record or pattern: {Tab, Key, ...}
        ("dirty_match_object" | "dirty_write", 1) => {
            (element(&arg(0), 0, limit), element(&arg(0), 1, limit))
        }
        ("dirty_match_object" | "dirty_write", 2) => (arg(0), element(&arg(1), 1, limit)),
        _ => (Val::Any, Val::Any),
    };
    Item::TableKey {
        table: unwild(table),
        key: unwild(key),
    }
}
