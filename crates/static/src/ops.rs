//! Operations on shared state: which calls read or write it (per category),
//! and the item ([`Item`]) each touches, from abstract argument values.

use racewit_syntax::ir::MFA;

use crate::ets::Tables;
use crate::suspect::Category;
use crate::values::{Origin, Val};
use crate::{app_env, ets, global, mnesia, persistent_term, registry, spawn_register};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Read,
    Write,
}

/// The shared item an operation touches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// A name in a registry (local, global) or a persistent_term key.
    Name(Val),
    /// An ETS object, a mnesia record, or an application's environment key.
    TableKey { table: Val, key: Val },
    /// The pid a spawn returned (read side of spawn/register).
    Spawn(Origin),
    /// The pid argument of a `register` (write side of spawn/register).
    Pid(Val),
}

/// The categories a call reads and writes, as bit masks ([`Category::bit`]).
pub fn classify(mfa: &MFA) -> (u8, u8) {
    let mut reads = 0;
    let mut writes = 0;
    let mut add = |c: Category, r: Option<Role>| match r {
        Some(Role::Read) => reads |= c.bit(),
        Some(Role::Write) => writes |= c.bit(),
        None => {}
    };
    add(Category::Registry, registry::role(mfa));
    add(Category::Ets, ets::role(mfa));
    add(Category::Mnesia, mnesia::role(mfa));
    add(Category::SpawnRegister, spawn_register::role(mfa));
    add(Category::Global, global::role(mfa));
    add(Category::PersistentTerm, persistent_term::role(mfa));
    add(Category::ApplicationEnv, app_env::role(mfa));
    (reads, writes)
}

/// The item of an operation of category `cat` at `origin` with resolved `args`.
pub fn item(
    cat: Category,
    mfa: &MFA,
    args: &[Val],
    origin: Origin,
    tables: &Tables,
    limit: usize,
) -> Item {
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Val::Any);
    match cat {
        Category::Registry | Category::Global | Category::PersistentTerm => {
            if mfa.arity == 0 {
                Item::Name(Val::one(crate::values::Term::Wild))
            } else {
                Item::Name(arg(0))
            }
        }
        Category::Ets => ets::item(mfa, args, tables, limit),
        // The application plays the table, the key the key.
        Category::ApplicationEnv => Item::TableKey {
            table: arg(0),
            key: arg(1),
        },
        Category::Mnesia => mnesia::item(mfa, args, limit),
        Category::SpawnRegister => match spawn_register::role(mfa) {
            Some(Role::Read) => Item::Spawn(origin),
            _ => Item::Pid(arg(1)),
        },
    }
}

/// The read and the write may touch the same item (before table filters).
pub fn may_alias(read: &Item, write: &Item) -> bool {
    match (read, write) {
        (Item::Name(a), Item::Name(b)) => a.may_equal(b),
        (Item::TableKey { table: t1, key: k1 }, Item::TableKey { table: t2, key: k2 }) => {
            t1.may_equal(t2) && k1.may_equal(k2)
        }
        (Item::Spawn(o), Item::Pid(v)) => spawn_register::holds(v, *o),
        _ => false,
    }
}
