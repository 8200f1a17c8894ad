//! The shared item an operation touches ([`Item`]), from the operation's
//! row in the [`crate::catalog`] and its abstract argument values.

use crate::catalog::{Category, Op, Shape};
use crate::ets::{self, Tables};
use crate::values::{Origin, Term, Val, element};

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
    /// Nothing shared (`ets:info(T, owner)`).
    Nothing,
}

/// `'_'` in a mnesia match pattern matches any key.
fn unwild(v: Val) -> Val {
    match &v {
        Val::Set(s) if s.iter().any(|t| matches!(t, Term::Atom(a) if a == "_")) => {
            Val::one(Term::Wild)
        }
        _ => v,
    }
}

/// The item of `op` at `origin` with resolved `args`.
pub fn item(
    op: &Op,
    arity: usize,
    args: &[Val],
    origin: Origin,
    tables: &Tables,
    limit: usize,
) -> Item {
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Val::Any);
    let mnesia = op.category == Category::Mnesia;
    let table_key = |table: Val, key: Val| {
        if mnesia {
            Item::TableKey {
                table: unwild(table),
                key: unwild(key),
            }
        } else {
            Item::TableKey { table, key }
        }
    };
    match op.shape {
        Shape::Name(i) => Item::Name(arg(i)),
        Shape::AllNames => Item::Name(Val::one(Term::Wild)),
        Shape::Key { table, key } => table_key(arg(table), arg(key)),
        Shape::Objects { table, objs } => {
            let t = arg(table);
            let keys = ets::object_keys(&arg(objs), &tables.keypos(&t), limit);
            table_key(t, keys)
        }
        Shape::Pattern { table, pat } => {
            let t = arg(table);
            let keys = ets::pattern_keys(&arg(pat), &tables.keypos(&t), limit);
            table_key(t, keys)
        }
        Shape::Spec { table, spec } => {
            let t = arg(table);
            let keypos = tables.keypos(&t);
            // The heads the value analysis kept whole, after the arguments.
            let keys = match args.get(arity) {
                Some(heads) => ets::pattern_keys(heads, &keypos, limit),
                None => ets::spec_keys(&arg(spec), &keypos, limit),
            };
            table_key(t, keys)
        }
        Shape::Whole { table } => table_key(arg(table), Val::one(Term::Wild)),
        Shape::Info { table, what } => {
            let w = arg(what);
            let size = w.atoms().is_none_or(|a| a.iter().any(|x| x == "size"));
            if size {
                table_key(arg(table), Val::one(Term::Wild))
            } else {
                Item::Nothing
            }
        }
        Shape::TabKey(i) => {
            let v = arg(i);
            table_key(element(&v, 0, limit), element(&v, 1, limit))
        }
        Shape::Record { table, rec } => {
            let r = arg(rec);
            let t = match table {
                Some(t) => arg(t),
                None => element(&r, 0, limit),
            };
            table_key(t, element(&r, 1, limit))
        }
        Shape::AppKey { app, key } => table_key(arg(app), arg(key)),
        Shape::ScopedName { arg: i, scope } => {
            let v = arg(i);
            let names: Vec<Term> = v
                .iter()
                .filter_map(|t| match t {
                    Term::Tuple(p) => match p.as_slice() {
                        [Term::Atom(s), n] if s == scope => Some(n.clone()),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            let names = Val::from_terms(names, limit);
            if names.is_bottom() {
                Item::Nothing
            } else {
                Item::Name(names)
            }
        }
        Shape::Spawned => Item::Spawn(origin),
        Shape::RegisteredPid(i) => Item::Pid(arg(i)),
    }
}

/// The read and the write may touch the same item (before table filters).
pub fn may_alias(read: &Item, write: &Item) -> bool {
    match (read, write) {
        (Item::Name(a), Item::Name(b)) => a.may_equal(b),
        (Item::TableKey { table: t1, key: k1 }, Item::TableKey { table: t2, key: k2 }) => {
            t1.may_equal_narrow(t2) && k1.may_equal(k2)
        }
        (Item::Spawn(o), Item::Pid(v)) => crate::spawn_register::holds(v, *o),
        _ => false,
    }
}

/// [`may_alias`], taking a widened parameter for its identity only: for
/// writes answered from context-free summaries (deep calls), where a
/// setter called with many keys would otherwise meet every read.
pub fn may_alias_narrow(read: &Item, write: &Item) -> bool {
    match (read, write) {
        (Item::Name(a), Item::Name(b)) => a.may_equal_narrow(b),
        (Item::TableKey { table: t1, key: k1 }, Item::TableKey { table: t2, key: k2 }) => {
            t1.may_equal_narrow(t2) && k1.may_equal_narrow(k2)
        }
        _ => may_alias(read, write),
    }
}

/// An item that says nothing about what it touches.
pub fn unknown(item: &Item) -> bool {
    match item {
        Item::Name(v) | Item::Pid(v) => v.is_any(),
        Item::TableKey { table, key } => table.is_any() || key.is_any(),
        Item::Spawn(_) | Item::Nothing => false,
    }
}

/// A value that holds an unknown value of the program (a parameter, a
/// variable, a widened value): what a caller's context may tell more
/// precisely than its function's global context.
fn holds_unknown(v: &Val) -> bool {
    fn term(t: &Term) -> bool {
        match t {
            Term::Opaque(_) | Term::Any => true,
            Term::Tuple(ts) | Term::List(ts) => ts.iter().any(term),
            _ => false,
        }
    }
    v.is_any() || v.iter().any(term)
}

/// Whether `write`, an item in its function's global context that does
/// not meet `read`, may meet it in a caller's context: some part of it
/// holds an unknown value, and each part either already meets the
/// read's or holds one.
pub fn refinable(read: &Item, write: &Item) -> bool {
    match (read, write) {
        (Item::Name(_), Item::Name(b)) => holds_unknown(b),
        (Item::TableKey { table: t1, key: k1 }, Item::TableKey { table: t2, key: k2 }) => {
            let (ut, uk) = (holds_unknown(t2), holds_unknown(k2));
            let table_ok = ut || t1.may_equal_narrow(t2);
            let key_ok = uk || k1.may_equal_narrow(k2);
            (ut || uk) && table_ok && key_ok
        }
        _ => false,
    }
}

/// An item with a part not known at all (`Any`, at the top or inside a
/// tuple or list): it would equal every item of its shape.
pub fn holds_any(item: &Item) -> bool {
    fn term(t: &Term) -> bool {
        match t {
            Term::Any => true,
            Term::Tuple(ts) | Term::List(ts) => ts.iter().any(term),
            _ => false,
        }
    }
    let val = |v: &Val| v.is_any() || v.iter().any(term);
    match item {
        Item::Name(v) | Item::Pid(v) => val(v),
        Item::TableKey { table, key } => val(table) || val(key),
        Item::Spawn(_) | Item::Nothing => false,
    }
}
