//! What OTP's library modules ask of the runtime when they run from their
//! real source: `erts_internal:map_next/3` (the map iterator behind
//! `maps:next/1`, `maps:fold/3` and friends), and `dynamic_node_name/0`
//! (`false`: the node is not distributed).
//!
//! A fresh map iterator is `[0 | Map]`, as on the BEAM; racewit's maps keep
//! their keys in term order, so an index counts keys in that order (the
//! BEAM's counts positions in its hash trie for maps over 32 keys: the
//! order differs there, as it does for `maps:to_list/1`).

use crate::bif::{Table, badarg};
use crate::term::{Term, TermMap};

pub fn register(t: &mut Table) {
    // The node is not distributed, so its name is not a dynamic one.
    t.pure("erts_internal", "dynamic_node_name", 0, |_| {
        Ok(Term::bool(false))
    });
    t.pure("erts_internal", "map_next", 3, |a| {
        let (Term::Int(i), Term::Map(m)) = (&a[0], &a[1]) else {
            return Err(badarg());
        };
        let i = usize::try_from(*i).map_err(|_| badarg())?;
        match &a[2] {
            Term::Atom(x) if x.name() == "iterator" => Ok(next(m, i)),
            acc @ (Term::Nil | Term::Cons(_)) => {
                // Every pair from `i` on, in order, before `acc`.
                let mut out = acc.clone();
                let pairs: Vec<Term> = m
                    .iter()
                    .skip(i)
                    .map(|(k, v)| Term::tuple(vec![k.0.clone(), v.clone()]))
                    .collect();
                for p in pairs.into_iter().rev() {
                    out = Term::cons(p, out);
                }
                Ok(out)
            }
            _ => Err(badarg()),
        }
    });
}

/// `{K, V, NextIterator}` for the key at `i`, or `none` past the end. The
/// next iterator is the rest of the chain, built here in one pass:
/// `maps:next({K, V, I})` gives it back as it is, so walking a map costs
/// one pass, not one search per key.
fn next(m: &TermMap, i: usize) -> Term {
    let pairs: Vec<(Term, Term)> = m
        .iter()
        .skip(i)
        .map(|(k, v)| (k.0.clone(), v.clone()))
        .collect();
    let mut chain = Term::atom("none");
    for (k, v) in pairs.into_iter().rev() {
        chain = Term::tuple(vec![k, v, chain]);
    }
    chain
}
