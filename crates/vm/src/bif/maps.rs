//! `maps:*` functions that take no funs (higher-order ones are in the prelude).

use std::sync::Arc;

use crate::atom::Atom;
use crate::bif::{Table, badarg, list_arg, tuple2};
use crate::term::{MapKey, Term, TermMap};

type R = Result<Term, Term>;

fn badmap(t: &Term) -> Term {
    tuple2(Term::Atom(Atom::BADMAP), t.clone())
}

fn map(t: &Term) -> Result<&TermMap, Term> {
    match t {
        Term::Map(m) => Ok(m),
        other => Err(badmap(other)),
    }
}

fn mk(m: TermMap) -> Term {
    Term::Map(Arc::new(m))
}

pub fn register(t: &mut Table) {
    t.pure("maps", "new", 0, |_| Ok(mk(TermMap::new())));
    t.pure("maps", "get", 2, |a| {
        map(&a[1])?
            .get(&MapKey(a[0].clone()))
            .cloned()
            .ok_or_else(|| tuple2(Term::Atom(Atom::BADKEY), a[0].clone()))
    });
    t.pure("maps", "get", 3, |a| {
        Ok(map(&a[1])?
            .get(&MapKey(a[0].clone()))
            .cloned()
            .unwrap_or_else(|| a[2].clone()))
    });
    t.pure("maps", "find", 2, |a| {
        Ok(match map(&a[1])?.get(&MapKey(a[0].clone())) {
            Some(v) => tuple2(Term::ok(), v.clone()),
            None => Term::atom("error"),
        })
    });
    t.pure("maps", "is_key", 2, |a| {
        Ok(Term::bool(map(&a[1])?.contains_key(&MapKey(a[0].clone()))))
    });
    t.pure("maps", "put", 3, |a| {
        let mut m = map(&a[2])?.clone();
        m.insert(MapKey(a[0].clone()), a[1].clone());
        Ok(mk(m))
    });
    t.pure("maps", "update", 3, |a| {
        let mut m = map(&a[2])?.clone();
        if !m.contains_key(&MapKey(a[0].clone())) {
            return Err(tuple2(Term::Atom(Atom::BADKEY), a[0].clone()));
        }
        m.insert(MapKey(a[0].clone()), a[1].clone());
        Ok(mk(m))
    });
    t.pure("maps", "remove", 2, |a| {
        let mut m = map(&a[1])?.clone();
        m.remove(&MapKey(a[0].clone()));
        Ok(mk(m))
    });
    t.pure("maps", "take", 2, |a| {
        let mut m = map(&a[1])?.clone();
        Ok(match m.remove(&MapKey(a[0].clone())) {
            Some(v) => tuple2(v, mk(m)),
            None => Term::atom("error"),
        })
    });
    t.pure("maps", "keys", 1, |a| {
        Ok(Term::list(
            map(&a[0])?.keys().map(|k| k.0.clone()).collect(),
        ))
    });
    t.pure("maps", "values", 1, |a| {
        Ok(Term::list(map(&a[0])?.values().cloned().collect()))
    });
    t.pure("maps", "size", 1, |a| {
        Ok(Term::Int(map(&a[0])?.len() as i64))
    });
    t.pure("maps", "to_list", 1, |a| {
        Ok(Term::list(
            map(&a[0])?
                .iter()
                .map(|(k, v)| tuple2(k.0.clone(), v.clone()))
                .collect(),
        ))
    });
    t.pure("maps", "from_list", 1, from_list);
    t.pure("maps", "from_keys", 2, |a| {
        let mut m = TermMap::new();
        for k in list_arg(&a[0])? {
            m.insert(MapKey(k), a[1].clone());
        }
        Ok(mk(m))
    });
    t.pure("maps", "merge", 2, |a| {
        let (x, y) = (map(&a[0])?, map(&a[1])?);
        Ok(mk(y.clone().union(x.clone())))
    });
    t.pure("maps", "with", 2, |a| {
        let m = map(&a[1])?;
        let mut out = TermMap::new();
        for k in list_arg(&a[0])? {
            if let Some(v) = m.get(&MapKey(k.clone())) {
                out.insert(MapKey(k), v.clone());
            }
        }
        Ok(mk(out))
    });
    t.pure("maps", "without", 2, |a| {
        let mut m = map(&a[1])?.clone();
        for k in list_arg(&a[0])? {
            m.remove(&MapKey(k));
        }
        Ok(mk(m))
    });
    // `[0 | Map]`, as on the BEAM (see `erts_internal:map_next/3`).
    t.pure("maps", "iterator", 1, |a| {
        map(&a[0])?;
        Ok(Term::cons(Term::Int(0), a[0].clone()))
    });
}

fn from_list(a: &[Term]) -> R {
    let mut m = TermMap::new();
    for x in a[0].list_to_vec().ok_or_else(badarg)? {
        match &x {
            Term::Tuple(t) if t.len() == 2 => {
                m.insert(MapKey(t[0].clone()), t[1].clone());
            }
            _ => return Err(badarg()),
        }
    }
    Ok(mk(m))
}
