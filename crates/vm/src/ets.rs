//! ETS tables: persistent maps (cheap to clone with the VM), owned by a
//! process, with the BEAM's table types, protection and key position.
//!
//! Divergence: `set` and `bag` tables iterate in term order of their keys
//! (the BEAM's order is a hash order); `ordered_set` is exact.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::atom::Atom;
use crate::format;
use crate::term::{Pid, Term, compare, exact_eq};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Set,
    OrderedSet,
    Bag,
    DuplicateBag,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protection {
    Public,
    Protected,
    Private,
}

/// A key: compared exactly, except in `ordered_set` tables (`==`).
#[derive(Clone)]
pub struct EtsKey {
    pub term: Term,
    pub exact: bool,
}

impl PartialEq for EtsKey {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for EtsKey {}
impl PartialOrd for EtsKey {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for EtsKey {
    fn cmp(&self, o: &Self) -> Ordering {
        compare(&self.term, &o.term, self.exact)
    }
}

#[derive(Clone)]
pub struct Table {
    pub id: u64,
    pub name: Atom,
    pub named: bool,
    pub kind: Kind,
    pub protection: Protection,
    pub owner: Pid,
    /// 1-based.
    pub keypos: usize,
    pub data: imbl::OrdMap<EtsKey, Vec<Term>>,
    pub size: usize,
    /// `{heir, Pid, Data}`: who inherits the table when the owner dies.
    pub heir: Option<(Pid, Term)>,
}

impl Table {
    pub fn new(
        id: u64,
        name: Atom,
        named: bool,
        kind: Kind,
        protection: Protection,
        owner: Pid,
        keypos: usize,
    ) -> Table {
        Table {
            id,
            name,
            named,
            kind,
            protection,
            owner,
            keypos,
            data: imbl::OrdMap::new(),
            size: 0,
            heir: None,
        }
    }

    pub fn key(&self, t: &Term) -> EtsKey {
        EtsKey {
            term: t.clone(),
            exact: self.kind != Kind::OrderedSet,
        }
    }

    pub fn key_of(&self, obj: &Term) -> Option<Term> {
        match obj {
            Term::Tuple(items) if items.len() >= self.keypos => {
                Some(items[self.keypos - 1].clone())
            }
            _ => None,
        }
    }

    /// Insert one object (already checked to be a tuple with the key).
    pub fn insert(&mut self, obj: Term) {
        let Some(k) = self.key_of(&obj) else { return };
        let key = self.key(&k);
        match self.kind {
            Kind::Set | Kind::OrderedSet => {
                if self.data.insert(key, vec![obj]).is_none() {
                    self.size += 1;
                }
            }
            Kind::Bag => {
                let entry = self.data.entry(key).or_default();
                if !entry.iter().any(|o| exact_eq(o, &obj)) {
                    entry.push(obj);
                    self.size += 1;
                }
            }
            Kind::DuplicateBag => {
                self.data.entry(key).or_default().push(obj);
                self.size += 1;
            }
        }
    }

    pub fn lookup(&self, k: &Term) -> Vec<Term> {
        self.data.get(&self.key(k)).cloned().unwrap_or_default()
    }

    pub fn delete_key(&mut self, k: &Term) {
        if let Some(v) = self.data.remove(&self.key(k)) {
            self.size -= v.len();
        }
    }

    pub fn delete_object(&mut self, obj: &Term) {
        let Some(k) = self.key_of(obj) else { return };
        let key = self.key(&k);
        if let Some(v) = self.data.get_mut(&key) {
            let before = v.len();
            v.retain(|o| !exact_eq(o, obj));
            self.size -= before - v.len();
            if v.is_empty() {
                self.data.remove(&key);
            }
        }
    }

    pub fn objects(&self) -> Vec<Term> {
        self.data.values().flat_map(|v| v.iter().cloned()).collect()
    }

    pub fn first(&self) -> Option<Term> {
        self.data.keys().next().map(|k| k.term.clone())
    }

    pub fn last(&self) -> Option<Term> {
        self.data.keys().next_back().map(|k| k.term.clone())
    }

    pub fn next(&self, k: &Term) -> Option<Term> {
        use std::ops::Bound;
        self.data
            .range((Bound::Excluded(self.key(k)), Bound::Unbounded))
            .next()
            .map(|(k, _)| k.term.clone())
    }

    pub fn prev(&self, k: &Term) -> Option<Term> {
        use std::ops::Bound;
        self.data
            .range((Bound::Unbounded, Bound::Excluded(self.key(k))))
            .next_back()
            .map(|(k, _)| k.term.clone())
    }

    /// The table as a term in events: its name, or its tid.
    pub fn label(&self) -> String {
        if self.named {
            format::atom_text(self.name)
        } else {
            format!("#Ref<0.0.0.{}>", self.id)
        }
    }

    pub fn id_term(&self) -> Term {
        if self.named {
            Term::Atom(self.name)
        } else {
            Term::Ref(self.id)
        }
    }
}

#[derive(Clone, Default)]
pub struct EtsStore {
    pub tables: imbl::OrdMap<u64, Arc<Table>>,
    pub names: imbl::OrdMap<Atom, u64>,
}

impl EtsStore {
    pub fn resolve(&self, t: &Term) -> Option<u64> {
        match t {
            Term::Atom(a) => self.names.get(a).copied(),
            Term::Ref(r) if self.tables.contains_key(r) => Some(*r),
            _ => None,
        }
    }

    pub fn get(&self, id: u64) -> Option<&Table> {
        self.tables.get(&id).map(|t| &**t)
    }

    pub fn get_mut(&mut self, id: u64) -> Option<&mut Table> {
        self.tables.get_mut(&id).map(Arc::make_mut)
    }

    pub fn delete(&mut self, id: u64) {
        if let Some(t) = self.tables.remove(&id)
            && t.named
        {
            self.names.remove(&t.name);
        }
    }

    /// The owner died: tables go to their heir (returned with the message
    /// to send it) or are deleted.
    pub fn drop_owned_by(&mut self, pid: Pid, alive: impl Fn(Pid) -> bool) -> Vec<(Pid, Term)> {
        let owned: Vec<u64> = self
            .tables
            .iter()
            .filter(|(_, t)| t.owner == pid)
            .map(|(id, _)| *id)
            .collect();
        let mut transfers = Vec::new();
        for id in owned {
            let heir = self.get(id).and_then(|t| t.heir.clone());
            match heir {
                Some((h, data)) if h != pid && alive(h) => {
                    let t = self.get_mut(id).expect("listed");
                    t.owner = h;
                    let msg = Term::tuple(vec![
                        Term::atom("ETS-TRANSFER"),
                        t.id_term(),
                        Term::Pid(pid),
                        data,
                    ]);
                    transfers.push((h, msg));
                }
                _ => self.delete(id),
            }
        }
        transfers
    }

    pub fn digest(&self, name_of: impl Fn(Pid) -> String) -> String {
        let mut tables: Vec<(String, &Table)> =
            self.tables.values().map(|t| (t.label(), &**t)).collect();
        tables.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out = String::new();
        for (label, t) in tables {
            let mut objs: Vec<String> = t.objects().iter().map(format::brief).collect();
            objs.sort();
            out.push_str(&format!(
                "ets {} ({:?}, owner {}): [{}]\n",
                label,
                t.kind,
                name_of(t.owner),
                objs.join(",")
            ));
        }
        out
    }
}

/// Match an ETS pattern (`'_'`, `'$N'` variables) against a term.
pub fn match_pattern(pat: &Term, t: &Term, binds: &mut Vec<(u32, Term)>) -> bool {
    match pat {
        Term::Atom(a) => {
            let name = a.name();
            if name == "_" {
                return true;
            }
            if let Some(n) = ms_var(name) {
                if let Some((_, v)) = binds.iter().find(|(k, _)| *k == n) {
                    return exact_eq(v, t);
                }
                binds.push((n, t.clone()));
                return true;
            }
            exact_eq(pat, t)
        }
        Term::Tuple(ps) => match t {
            Term::Tuple(ts) if ts.len() == ps.len() => ps
                .iter()
                .zip(ts.iter())
                .all(|(p, x)| match_pattern(p, x, binds)),
            _ => false,
        },
        Term::Cons(pc) => match t {
            Term::Cons(tc) => {
                match_pattern(&pc.head, &tc.head, binds) && match_pattern(&pc.tail, &tc.tail, binds)
            }
            _ => false,
        },
        Term::Map(pm) => match t {
            Term::Map(tm) => pm
                .iter()
                .all(|(k, pv)| tm.get(k).is_some_and(|tv| match_pattern(pv, tv, binds))),
            _ => false,
        },
        _ => exact_eq(pat, t),
    }
}

/// The number of a match variable `'$N'` (`'$0'`, or digits with no
/// leading zero, as the BEAM reads them: `'$01'` is a plain atom).
pub fn ms_var(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('$')?;
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if rest.len() > 1 && rest.starts_with('0') {
        return None;
    }
    rest.parse().ok()
}
