//! R002: ETS. `ets:lookup/2`, `ets:lookup_element/3` or `ets:member/2`, then
//! `ets:insert/2`, `ets:insert_new/2` or `ets:delete/2` on a table and key
//! that may be the same. Only a `public` table can be written by another
//! process in between, so tables whose every creation (`ets:new`, traced by
//! name for named tables and by value otherwise) is `protected` or
//! `private` are filtered. The key of an object is its `keypos` element.

use std::collections::BTreeSet;

use racewit_syntax::ir::{MFA, Name};
use rustc_hash::FxHashMap;

use crate::dataflow::Creation;
use crate::ops::{Item, Role};
use crate::values::{Origin, Term, Val, element};

pub fn role(mfa: &MFA) -> Option<Role> {
    if mfa.module != "ets" {
        return None;
    }
    match (mfa.name.as_str(), mfa.arity) {
        ("lookup", 2) | ("lookup_element", 3) | ("member", 2) => Some(Role::Read),
        ("insert", 2) | ("insert_new", 2) | ("delete", 2) => Some(Role::Write),
        _ => None,
    }
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
            Term::Any | Term::Param(_) => unknown = true,
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
#[derive(Default)]
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

    /// The table may be written by a process other than its owner.
    pub fn maybe_public(&self, table: &Val) -> bool {
        match self.infos(table) {
            None => true,
            Some(infos) => infos
                .iter()
                .any(|i| matches!(i.access, TableAccess::Public | TableAccess::Unknown)),
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

/// The key of each object in `objs` (a tuple, or a list of tuples).
fn object_keys(objs: &Val, keypos: &BTreeSet<u32>, limit: usize) -> Val {
    if keypos.is_empty() {
        return Val::Any;
    }
    let mut out = Val::bottom();
    for t in objs.iter() {
        let tuples: Vec<Term> = match t {
            Term::List(items) => items.clone(),
            other => vec![other.clone()],
        };
        for tu in tuples {
            let one = Val::one(tu);
            for &k in keypos {
                out.join_in(&element(&one, k as usize - 1, limit), limit);
            }
        }
    }
    out
}

pub fn item(mfa: &MFA, args: &[Val], tables: &Tables, limit: usize) -> Item {
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Val::Any);
    let table = arg(0);
    let key = match mfa.name.as_str() {
        "insert" | "insert_new" => object_keys(&arg(1), &tables.keypos(&table), limit),
        _ => arg(1),
    };
    Item::TableKey { table, key }
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
