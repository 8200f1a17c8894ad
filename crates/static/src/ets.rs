//! R002: ETS tables and keys. The operations are rows of
//! [`crate::catalog::OPS`]; this module says which objects each touches:
//! the key of an object is its `keypos` element (any element when the
//! table's `keypos` is not known), a match pattern or a match
//! specification's heads match the keys written in them (`'_'` and `'$1'`
//! match every key), and a whole-table operation (`tab2list/1`,
//! `first/1`) every key.
//!
//! Only a `public` table can be written by another process than its owner,
//! so tables whose every creation (`ets:new`, traced by name for named
//! tables and by value otherwise) is `protected` or `private` are filtered
//! (see [`Tables`]).

use std::collections::BTreeSet;

use racewit_syntax::ir::Name;
use rustc_hash::FxHashMap;

use crate::units::FnId;
use crate::values::{Origin, Term, Val, element};

/// An ETS write that cannot give a key an object when it has none: it
/// changes or removes objects that exist, and does nothing (or fails) on
/// an absent key. (`ets:delete/1`, the whole table, is not one: a read
/// that found nothing and the write after it see the table vanish.)
pub fn never_creates(name: &str, arity: u32) -> bool {
    matches!(
        (name, arity),
        ("delete", 2)
            | ("delete_object", 2)
            | ("take", 2)
            | ("select_delete", 2)
            | ("match_delete", 2)
            | ("delete_all_objects", 1)
            | ("update_counter", 3)
            | ("update_element", 3)
            | ("select_replace", 2)
    )
}

/// The result a read gives when the table has no object for what it asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoObject {
    /// `[]` from `lookup/2`, `match/2`, `match_object/2`, `select/2`.
    EmptyList,
    /// `false` from `member/2`.
    False,
}

/// What ETS read `name/arity` returns when it finds no object.
pub fn found_nothing(name: &str, arity: u32) -> Option<NoObject> {
    match (name, arity) {
        ("lookup" | "match" | "match_object" | "select", 2) => Some(NoObject::EmptyList),
        ("member", 2) => Some(NoObject::False),
        _ => None,
    }
}

/// `ets:new` or `mnesia:create_table` found in the program.
#[derive(Clone, Debug)]
pub struct Creation {
    pub origin: Origin,
    pub owner: FnId,
    pub mnesia: bool,
    /// Resolved name and options.
    pub name: Val,
    pub opts: Val,
}

/// Whether an options term says `named_table` (`None`: cannot tell).
pub fn named_option(opts: &Term) -> Option<bool> {
    match opts {
        Term::List(items) => {
            if items
                .iter()
                .any(|t| matches!(t, Term::Any | Term::Param(_)))
            {
                // An unknown option may be `named_table`.
                if items
                    .iter()
                    .any(|t| matches!(t, Term::Atom(a) if a == "named_table"))
                {
                    return Some(true);
                }
                return None;
            }
            Some(
                items
                    .iter()
                    .any(|t| matches!(t, Term::Atom(a) if a == "named_table")),
            )
        }
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TableAccess {
    Public,
    Protected,
    Private,
    Unknown,
}

#[derive(Clone, Debug)]
pub struct TableInfo {
    pub origin: Origin,
    pub access: TableAccess,
    /// Possible keypos values; empty when unknown.
    pub keypos: BTreeSet<u32>,
    pub creation: usize,
    /// Ownership may pass to another process (an `heir`, or
    /// `ets:give_away/3`): more than one process may write it in turn.
    pub transferable: bool,
}

/// Whether the options name an heir (other than `{heir, none}`).
fn has_heir(opts: &Term) -> bool {
    let Term::List(items) = opts else {
        return true;
    };
    items.iter().any(|t| match t {
        Term::Tuple(kv) => {
            kv.first() == Some(&Term::Atom(Name::new("heir")))
                && kv.get(1) != Some(&Term::Atom(Name::new("none")))
        }
        _ => false,
    })
}

fn info_of(opts: &Term) -> (TableAccess, BTreeSet<u32>, Option<bool>) {
    let Term::List(items) = opts else {
        return (TableAccess::Unknown, BTreeSet::new(), None);
    };
    let mut access = TableAccess::Protected;
    let mut keypos = BTreeSet::from([1]);
    let mut unknown = false;
    for t in items {
        match t {
            Term::Atom(a) if a == "public" => access = TableAccess::Public,
            Term::Atom(a) if a == "private" => access = TableAccess::Private,
            Term::Atom(a) if a == "protected" => access = TableAccess::Protected,
            Term::Tuple(kv) if kv.len() == 2 && kv[0] == Term::Atom(Name::new("keypos")) => {
                match &kv[1] {
                    Term::Int(k) if *k >= 1 => keypos = BTreeSet::from([*k as u32]),
                    _ => keypos.clear(),
                }
            }
            Term::Any
            | Term::Param(_)
            | Term::ParamElem(..)
            | Term::Derived(_)
            | Term::Opaque(_)
            | Term::Wild => unknown = true,
            _ => {}
        }
    }
    if unknown && access != TableAccess::Public {
        access = TableAccess::Unknown;
        keypos.clear();
    }
    (access, keypos, named_option(opts))
}

/// Every table creation of the program, by name and by origin.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    pub named: FxHashMap<Name, Vec<TableInfo>>,
    pub by_origin: FxHashMap<Origin, Vec<TableInfo>>,
}

impl Tables {
    pub fn new(creations: &[Creation]) -> Self {
        let mut t = Tables::default();
        for (ci, c) in creations.iter().enumerate() {
            if c.mnesia {
                continue;
            }
            for opts in c.opts.iter() {
                let (access, keypos, named) = info_of(opts);
                let info = TableInfo {
                    origin: c.origin,
                    access,
                    keypos,
                    creation: ci,
                    transferable: has_heir(opts),
                };
                if named != Some(false) {
                    for n in c.name.iter() {
                        if let Term::Atom(a) = n {
                            t.named.entry(a.clone()).or_default().push(info.clone());
                        }
                    }
                }
                t.by_origin.entry(c.origin).or_default().push(info);
            }
        }
        t
    }

    /// `ets:give_away/3` may hand the tables `table` may be to another
    /// process. When the table is not known, every table that `near` says
    /// may reach the call (by its creation): only the owner gives a table
    /// away, so an unknown one is a table whose id the value analysis lost
    /// on its way to the call, which it tracks within an application; the
    /// caller passes "created in the same application".
    pub fn given_away(&mut self, table: &Val, near: impl Fn(Origin) -> bool) {
        let known = self.infos(table).is_some();
        if !known {
            for infos in self.named.values_mut().chain(self.by_origin.values_mut()) {
                for i in infos.iter_mut() {
                    if near(i.origin) {
                        i.transferable = true;
                    }
                }
            }
        }
        if !known {
            return;
        }
        for t in table.iter() {
            let infos = match t {
                Term::Atom(a) => self.named.get_mut(a),
                Term::Table(o) => self.by_origin.get_mut(o),
                _ => None,
            };
            for i in infos.into_iter().flatten() {
                i.transferable = true;
            }
            // The same creation under its other key.
            let origins: Vec<Origin> = match t {
                Term::Atom(a) => self
                    .named
                    .get(a)
                    .map(|v| v.iter().map(|i| i.origin).collect()),
                _ => None,
            }
            .unwrap_or_default();
            for o in origins {
                for i in self.by_origin.get_mut(&o).into_iter().flatten() {
                    i.transferable = true;
                }
            }
        }
    }

    /// Some table's key positions differ between the two.
    pub fn keypos_differ(&self, other: &Tables) -> bool {
        fn keys<K: Ord + Clone>(m: &FxHashMap<K, Vec<TableInfo>>) -> Vec<(K, Vec<Vec<u32>>)> {
            let mut v: Vec<(K, Vec<Vec<u32>>)> = m
                .iter()
                .map(|(k, infos)| {
                    let mut ps: Vec<Vec<u32>> = infos
                        .iter()
                        .map(|i| i.keypos.iter().copied().collect())
                        .collect();
                    ps.sort();
                    (k.clone(), ps)
                })
                .collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        }
        keys(&self.named) != keys(&other.named) || keys(&self.by_origin) != keys(&other.by_origin)
    }

    /// Creations a table value may come from; `None` when some part is unknown.
    fn infos(&self, table: &Val) -> Option<Vec<&TableInfo>> {
        let mut out = Vec::new();
        for t in table.iter() {
            match t {
                Term::Atom(a) => out.extend(self.named.get(a)?.iter()),
                Term::Table(o) => out.extend(self.by_origin.get(o)?.iter()),
                _ => return None,
            }
        }
        Some(out)
    }

    /// The table may be written by more than one process: it is public
    /// (or not known), or its ownership may pass to another process.
    pub fn maybe_public(&self, table: &Val) -> bool {
        match self.infos(table) {
            None => true,
            Some(infos) => infos.iter().any(|i| {
                i.transferable || matches!(i.access, TableAccess::Public | TableAccess::Unknown)
            }),
        }
    }

    /// Key positions the table may use; empty when unknown.
    pub fn keypos(&self, table: &Val) -> BTreeSet<u32> {
        match self.infos(table) {
            None => BTreeSet::new(),
            Some(infos) if infos.is_empty() => BTreeSet::from([1]),
            Some(infos) => {
                let mut out = BTreeSet::new();
                for i in infos {
                    if i.keypos.is_empty() {
                        return BTreeSet::new();
                    }
                    out.extend(i.keypos.iter().copied());
                }
                out
            }
        }
    }

    /// Creation indexes (into the flow's creations) a table value may come from.
    pub fn creations(&self, table: &Val) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .infos(table)
            .unwrap_or_default()
            .iter()
            .map(|i| i.creation)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// The terms of `v` that are tuples, taking a list's elements apart.
fn tuples_of(v: &Val) -> Vec<Term> {
    let mut out = Vec::new();
    for t in v.iter() {
        match t {
            Term::List(items) => out.extend(items.iter().cloned()),
            other => out.push(other.clone()),
        }
    }
    out
}

/// The key of tuple `t` at each of `keypos`; every element when the key
/// position is not known (the key is one of them). Of several candidates,
/// one not known at all is left out when another is known: it could only
/// meet a wildcard, which the others meet too, and it would hide them.
fn keys_of(t: Term, keypos: &BTreeSet<u32>, limit: usize, out: &mut Val) {
    let one = Val::one(t.clone());
    let candidates: Vec<Val> = if keypos.is_empty() {
        match &t {
            Term::Tuple(items) => (0..items.len()).map(|i| element(&one, i, limit)).collect(),
            Term::Keyed(_, k) => vec![Val::one((**k).clone())],
            _ => vec![Val::Any],
        }
    } else {
        keypos
            .iter()
            .map(|&k| element(&one, k as usize - 1, limit))
            .collect()
    };
    let known: Vec<&Val> = candidates.iter().filter(|v| !v.is_any()).collect();
    if known.is_empty() {
        out.join_in(&Val::Any, limit);
        return;
    }
    for v in known {
        out.join_in(v, limit);
    }
}

/// The key of each object in `objs` (a tuple, or a list of tuples).
pub fn object_keys(objs: &Val, keypos: &BTreeSet<u32>, limit: usize) -> Val {
    // As in [`keys_of`]: an object whose key is not known at all does not
    // hide the keys known of the others.
    let mut out = Val::bottom();
    let mut unknown = false;
    for t in tuples_of(objs) {
        let mut k = Val::bottom();
        keys_of(t, keypos, limit, &mut k);
        if k.is_any() {
            unknown = true;
        } else {
            out.join_in(&k, limit);
        }
    }
    if unknown && out.is_bottom() {
        return Val::Any;
    }
    out
}

/// A match pattern's variables (`'_'`, `'$1'`) match any term; a part not
/// known stays not known.
fn unvar(t: &Term) -> Term {
    match t {
        Term::Atom(a)
            if a == "_"
                || (a.len() > 1
                    && a.starts_with('$')
                    && a[1..].chars().all(|c| c.is_ascii_digit())) =>
        {
            Term::Wild
        }
        Term::Tuple(ts) => Term::Tuple(ts.iter().map(unvar).collect()),
        Term::List(ts) => Term::List(ts.iter().map(unvar).collect()),
        // A part of a written pattern the value analysis did not keep (too
        // deep): it may be a variable.
        Term::Any => Term::Wild,
        t => t.clone(),
    }
}

/// The keys a match pattern (`{Key, '_'}`) may match: `Wild` for a
/// pattern variable. A pattern not known at all (computed elsewhere) says
/// nothing of its keys: as any value not known, it is taken to touch none
/// of the known ones.
pub fn pattern_keys(pat: &Val, keypos: &BTreeSet<u32>, limit: usize) -> Val {
    let known = |t: &Term| {
        !matches!(
            t,
            Term::Opaque(_) | Term::Param(_) | Term::ParamElem(..) | Term::Derived(_)
        )
    };
    if pat.is_any() || !pat.iter().all(known) {
        return Val::Any;
    }
    let mut out = Val::bottom();
    for t in pat.iter() {
        match unvar(t) {
            Term::Wild => return Val::one(Term::Wild),
            u => keys_of(u, keypos, limit, &mut out),
        }
    }
    out
}

/// The keys a match specification (`[{Pattern, Guards, Body}]`) may match
/// (not known, as [`pattern_keys`], when the specification is not).
pub fn spec_keys(spec: &Val, keypos: &BTreeSet<u32>, limit: usize) -> Val {
    if spec.is_any() {
        return Val::Any;
    }
    let mut out = Val::bottom();
    for t in spec.iter() {
        let Term::List(clauses) = t else {
            return Val::Any;
        };
        for c in clauses {
            match c {
                // A head too deep to be kept: it may match any key.
                Term::Tuple(parts) if parts.len() == 3 && parts[0] == Term::Any => {
                    return Val::one(Term::Wild);
                }
                Term::Tuple(parts) if parts.len() == 3 => {
                    let head = Val::one(parts[0].clone());
                    out.join_in(&pattern_keys(&head, keypos, limit), limit);
                }
                _ => return Val::Any,
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: Vec<Term>) -> Term {
        Term::List(items)
    }

    #[test]
    fn options_give_access_keypos_and_naming() {
        let a = |s: &str| Term::Atom(s.into());
        let opts = list(vec![
            a("named_table"),
            a("public"),
            Term::Tuple(vec![a("keypos"), Term::Int(2)]),
        ]);
        let (access, keypos, named) = info_of(&opts);
        assert_eq!(access, TableAccess::Public);
        assert_eq!(keypos, BTreeSet::from([2]));
        assert_eq!(named, Some(true));
        let (access, _, named) = info_of(&list(vec![a("set")]));
        assert_eq!(access, TableAccess::Protected);
        assert_eq!(named, Some(false));
        let (access, _, named) = info_of(&Term::Any);
        assert_eq!(access, TableAccess::Unknown);
        assert_eq!(named, None);
    }
}
