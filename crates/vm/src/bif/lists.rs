//! `lists:*` functions that take no funs (the BEAM has several as BIFs;
//! the rest are plain loops, faster here than interpreted). Higher-order
//! functions live in the Erlang prelude.

use std::cmp::Ordering;

use crate::atom::Atom;
use crate::bif::{Grant, Table, badarg, int_arg, list_arg, tuple2};
use crate::limits;
use crate::term::{Term, compare, exact_eq, loose_eq};

type R = Result<Term, Term>;

/// The BEAM raises `function_clause` from lists functions given bad input.
fn fc() -> Term {
    Term::Atom(Atom::FUNCTION_CLAUSE)
}

pub fn register(t: &mut Table) {
    t.pure("lists", "reverse", 1, |a| {
        let mut v = a[0].list_to_vec().ok_or_else(badarg)?;
        v.reverse();
        Ok(Term::list(v))
    });
    t.pure("lists", "reverse", 2, |a| {
        let mut acc = a[1].clone();
        for x in a[0].list_to_vec().ok_or_else(badarg)? {
            acc = Term::cons(x, acc);
        }
        Ok(acc)
    });
    t.pure("lists", "member", 2, |a| {
        let l = a[1].list_to_vec().ok_or_else(badarg)?;
        Ok(Term::bool(l.iter().any(|x| exact_eq(x, &a[0]))))
    });
    t.pure("lists", "keyfind", 3, |a| {
        let n = key_index(&a[1])?;
        for x in a[2].list_to_vec().ok_or_else(badarg)? {
            if let Term::Tuple(t) = &x
                && t.len() > n
                && loose_eq(&t[n], &a[0])
            {
                return Ok(x.clone());
            }
        }
        Ok(Term::bool(false))
    });
    t.pure("lists", "keymember", 3, |a| {
        let n = key_index(&a[1])?;
        let found = a[2]
            .list_to_vec()
            .ok_or_else(badarg)?
            .iter()
            .any(|x| matches!(x, Term::Tuple(t) if t.len() > n && loose_eq(&t[n], &a[0])));
        Ok(Term::bool(found))
    });
    t.pure("lists", "keysearch", 3, |a| {
        let n = key_index(&a[1])?;
        for x in a[2].list_to_vec().ok_or_else(badarg)? {
            if let Term::Tuple(t) = &x
                && t.len() > n
                && loose_eq(&t[n], &a[0])
            {
                return Ok(tuple2(Term::Atom(Atom::VALUE), x.clone()));
            }
        }
        Ok(Term::bool(false))
    });
    t.pure("lists", "keydelete", 3, |a| {
        let n = key_index(&a[1])?;
        let mut v = list_arg(&a[2])?;
        if let Some(i) = v
            .iter()
            .position(|x| matches!(x, Term::Tuple(t) if t.len() > n && loose_eq(&t[n], &a[0])))
        {
            v.remove(i);
        }
        Ok(Term::list(v))
    });
    t.pure("lists", "keyreplace", 4, |a| {
        let n = key_index(&a[1])?;
        let mut v = list_arg(&a[2])?;
        if let Some(i) = v
            .iter()
            .position(|x| matches!(x, Term::Tuple(t) if t.len() > n && loose_eq(&t[n], &a[0])))
        {
            v[i] = a[3].clone();
        }
        Ok(Term::list(v))
    });
    t.pure("lists", "keystore", 4, |a| {
        let n = key_index(&a[1])?;
        let mut v = list_arg(&a[2])?;
        match v
            .iter()
            .position(|x| matches!(x, Term::Tuple(t) if t.len() > n && loose_eq(&t[n], &a[0])))
        {
            Some(i) => v[i] = a[3].clone(),
            None => v.push(a[3].clone()),
        }
        Ok(Term::list(v))
    });
    t.pure("lists", "keytake", 3, |a| {
        let n = key_index(&a[1])?;
        let mut v = list_arg(&a[2])?;
        match v
            .iter()
            .position(|x| matches!(x, Term::Tuple(t) if t.len() > n && loose_eq(&t[n], &a[0])))
        {
            Some(i) => {
                let x = v.remove(i);
                Ok(Term::tuple(vec![Term::Atom(Atom::VALUE), x, Term::list(v)]))
            }
            None => Ok(Term::bool(false)),
        }
    });
    t.pure("lists", "append", 2, |a| {
        let v = a[0].list_to_vec().ok_or_else(badarg)?;
        Ok(Term::list_with_tail(v, a[1].clone()))
    });
    t.pure("lists", "append", 1, |a| {
        let lists = a[0].list_to_vec().ok_or_else(fc)?;
        let mut out = Vec::new();
        let n = lists.len();
        let mut tail = Term::Nil;
        for (i, l) in lists.into_iter().enumerate() {
            if i + 1 == n {
                tail = l;
            } else {
                let len = l.list_len().ok_or_else(badarg)?;
                limits::room_for(len as u64, limits::CONS_WORDS)?;
                out.extend(l.list_iter().cloned());
            }
        }
        Ok(Term::list_with_tail(out, tail))
    });
    t.pure("lists", "concat", 1, |a| {
        let mut s = String::new();
        for x in a[0].list_to_vec().ok_or_else(fc)? {
            let piece = match &x {
                Term::Atom(at) => at.name().to_string(),
                Term::Int(_) | Term::Big(_) => crate::format::write_term(&x),
                Term::Float(f) => crate::bif::erlang_float_to_list(*f),
                _ => {
                    // The same long string may come many times.
                    let len = x.list_len().ok_or_else(fc)?;
                    limits::room_for(2 * len as u64, limits::CONS_WORDS)?;
                    x.as_charlist().ok_or_else(fc)?
                }
            };
            s.push_str(&piece);
        }
        Ok(Term::string(&s))
    });
    t.pure("lists", "flatten", 1, |a| {
        let mut out = Vec::new();
        flatten(&a[0], &mut out)?;
        Ok(Term::list(out))
    });
    t.pure("lists", "flatten", 2, |a| {
        let mut out = Vec::new();
        flatten(&a[0], &mut out)?;
        Ok(Term::list_with_tail(out, a[1].clone()))
    });
    t.pure("lists", "flatlength", 1, |a| {
        let mut out = Vec::new();
        flatten(&a[0], &mut out)?;
        Ok(Term::Int(out.len() as i64))
    });
    t.pure("lists", "seq", 2, |a| {
        seq(&a[0], &a[1], &Term::Int(1)).map_err(|e| match e {
            Term::Atom(Atom::BADARG) => fc(),
            e => e,
        })
    });
    t.pure("lists", "seq", 3, |a| seq(&a[0], &a[1], &a[2]));
    t.pure("lists", "nth", 2, |a| {
        let n = int_arg(&a[0]).map_err(|_| fc())?;
        let v = a[1].list_to_vec().ok_or_else(fc)?;
        if n < 1 || n as usize > v.len() {
            return Err(fc());
        }
        Ok(v[n as usize - 1].clone())
    });
    t.pure("lists", "nthtail", 2, |a| {
        let n = int_arg(&a[0]).map_err(|_| fc())?;
        let mut cur = a[1].clone();
        for _ in 0..n {
            cur = match cur {
                Term::Cons(c) => c.tail.clone(),
                _ => return Err(fc()),
            };
        }
        Ok(cur)
    });
    t.pure("lists", "last", 1, |a| {
        let v = a[0].list_to_vec().ok_or_else(fc)?;
        v.last().cloned().ok_or_else(fc)
    });
    t.pure("lists", "droplast", 1, |a| {
        let mut v = a[0].list_to_vec().ok_or_else(fc)?;
        if v.pop().is_none() {
            return Err(fc());
        }
        Ok(Term::list(v))
    });
    t.pure("lists", "sum", 1, |a| {
        let mut acc = Term::Int(0);
        for x in a[0].list_to_vec().ok_or_else(fc)? {
            acc = crate::arith::binop(racewit_syntax::ir::BinOp::Add, &acc, &x)?;
        }
        Ok(acc)
    });
    t.pure("lists", "max", 1, |a| {
        let v = a[0].list_to_vec().ok_or_else(fc)?;
        let mut it = v.into_iter();
        let mut m = it.next().ok_or_else(fc)?;
        for x in it {
            if compare(&x, &m, false) == Ordering::Greater {
                m = x;
            }
        }
        Ok(m)
    });
    t.pure("lists", "min", 1, |a| {
        let v = a[0].list_to_vec().ok_or_else(fc)?;
        let mut it = v.into_iter();
        let mut m = it.next().ok_or_else(fc)?;
        for x in it {
            if compare(&x, &m, false) == Ordering::Less {
                m = x;
            }
        }
        Ok(m)
    });
    t.pure("lists", "delete", 2, |a| {
        let mut v = a[1].list_to_vec().ok_or_else(fc)?;
        if let Some(i) = v.iter().position(|x| exact_eq(x, &a[0])) {
            v.remove(i);
        }
        Ok(Term::list(v))
    });
    t.pure("lists", "subtract", 2, |a| {
        crate::arith::binop(racewit_syntax::ir::BinOp::Subtract, &a[0], &a[1])
    });
    t.pure("lists", "duplicate", 2, |a| {
        let n = int_arg(&a[0]).map_err(|_| fc())?;
        if n < 0 {
            return Err(fc());
        }
        limits::room_for(n as u64, limits::CONS_WORDS)?;
        Ok(Term::list(vec![a[1].clone(); n as usize]))
    });
    t.pure("lists", "sublist", 2, |a| {
        let n = int_arg(&a[1]).map_err(|_| fc())?;
        let v = a[0].list_to_vec().ok_or_else(fc)?;
        if n < 0 {
            return Err(fc());
        }
        Ok(Term::list(v.into_iter().take(n as usize).collect()))
    });
    t.pure("lists", "sublist", 3, |a| {
        let s = int_arg(&a[1]).map_err(|_| fc())?;
        let n = int_arg(&a[2]).map_err(|_| fc())?;
        let v = a[0].list_to_vec().ok_or_else(fc)?;
        if s < 1 || n < 0 || s as usize > v.len() + 1 {
            return Err(fc());
        }
        Ok(Term::list(
            v.into_iter()
                .skip(s as usize - 1)
                .take(n as usize)
                .collect(),
        ))
    });
    t.pure("lists", "split", 2, |a| {
        let n = int_arg(&a[0]).map_err(|_| badarg())?;
        let mut v = a[1].list_to_vec().ok_or_else(badarg)?;
        if n < 0 || n as usize > v.len() {
            return Err(badarg());
        }
        let rest = v.split_off(n as usize);
        Ok(tuple2(Term::list(v), Term::list(rest)))
    });
    t.pure("lists", "zip", 2, |a| {
        let (x, y) = (
            list_arg(&a[0]).map_err(|_| fc())?,
            list_arg(&a[1]).map_err(|_| fc())?,
        );
        if x.len() != y.len() {
            return Err(fc());
        }
        Ok(Term::list(
            x.into_iter().zip(y).map(|(p, q)| tuple2(p, q)).collect(),
        ))
    });
    t.pure("lists", "zip3", 3, |a| {
        let (x, y, z) = (list_arg(&a[0])?, list_arg(&a[1])?, list_arg(&a[2])?);
        if x.len() != y.len() || y.len() != z.len() {
            return Err(fc());
        }
        Ok(Term::list(
            x.into_iter()
                .zip(y)
                .zip(z)
                .map(|((p, q), r)| Term::tuple(vec![p, q, r]))
                .collect(),
        ))
    });
    t.pure("lists", "unzip3", 1, |a| {
        let (mut x, mut y, mut z) = (Vec::new(), Vec::new(), Vec::new());
        for e in list_arg(&a[0])? {
            match &e {
                Term::Tuple(t) if t.len() == 3 => {
                    x.push(t[0].clone());
                    y.push(t[1].clone());
                    z.push(t[2].clone());
                }
                _ => return Err(fc()),
            }
        }
        Ok(Term::tuple(vec![
            Term::list(x),
            Term::list(y),
            Term::list(z),
        ]))
    });
    t.pure("lists", "unzip", 1, |a| {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for e in list_arg(&a[0])? {
            match &e {
                Term::Tuple(t) if t.len() == 2 => {
                    x.push(t[0].clone());
                    y.push(t[1].clone());
                }
                _ => return Err(fc()),
            }
        }
        Ok(tuple2(Term::list(x), Term::list(y)))
    });
    t.pure("lists", "prefix", 2, |a| {
        let (p, l) = (list_arg(&a[0])?, list_arg(&a[1])?);
        Ok(Term::bool(
            p.len() <= l.len() && p.iter().zip(l.iter()).all(|(x, y)| exact_eq(x, y)),
        ))
    });
    t.pure("lists", "suffix", 2, |a| {
        let (p, l) = (list_arg(&a[0])?, list_arg(&a[1])?);
        Ok(Term::bool(
            p.len() <= l.len()
                && p.iter()
                    .zip(l[l.len() - p.len()..].iter())
                    .all(|(x, y)| exact_eq(x, y)),
        ))
    });
    t.pure("lists", "enumerate", 1, |a| {
        let v = list_arg(&a[0])?;
        Ok(Term::list(
            v.into_iter()
                .enumerate()
                .map(|(i, x)| tuple2(Term::Int(i as i64 + 1), x))
                .collect(),
        ))
    });
}

fn key_index(t: &Term) -> Result<usize, Term> {
    match t {
        Term::Int(n) if *n >= 1 => Ok(*n as usize - 1),
        _ => Err(badarg()),
    }
}

fn flatten(t: &Term, out: &mut Vec<Term>) -> Result<(), Term> {
    let mut stack: Vec<&Term> = vec![t];
    // A deep list that shares parts flattens to far more than it holds.
    let mut grant = Grant::default();
    while let Some(cur) = stack.pop() {
        grant.check(out.len() * 8 * limits::CONS_WORDS as usize)?;
        match cur {
            Term::Nil => {}
            Term::Cons(c) => {
                stack.push(&c.tail);
                match &c.head {
                    h @ (Term::Cons(_) | Term::Nil) => stack.push(h),
                    h => out.push(h.clone()),
                }
            }
            _ => return Err(fc()),
        }
    }
    Ok(())
}

fn seq(from: &Term, to: &Term, step: &Term) -> R {
    let (Term::Int(f), Term::Int(t), Term::Int(s)) = (from, to, step) else {
        return seq_big(from, to, step);
    };
    let (f, t, s) = (*f, *t, *s);
    if s == 0 && f != t {
        return Err(badarg());
    }
    if (s > 0 && t < f - s) || (s < 0 && t > f - s) {
        return Err(badarg());
    }
    if s == 0 {
        return Ok(Term::cons(Term::Int(f), Term::Nil));
    }
    // Built from the last element back: no intermediate vector.
    let (f128, t128, s128) = (i128::from(f), i128::from(t), i128::from(s));
    let steps = if s > 0 {
        (t128 - f128).div_euclid(s128)
    } else {
        (f128 - t128).div_euclid(-s128)
    };
    let count = steps + 1;
    limits::room_for(count.max(0) as u64, limits::CONS_WORDS)?;
    let mut acc = Term::Nil;
    for k in (0..count.max(0)).rev() {
        let x = f128 + k * s128;
        acc = Term::cons(Term::Int(x as i64), acc);
    }
    Ok(acc)
}

/// `lists:seq/3` where an argument is a bignum (riak_core's ring walks
/// the SHA-1 space in steps of 2^160 / 64): the same rules, with bignum
/// arithmetic.
fn seq_big(from: &Term, to: &Term, step: &Term) -> R {
    use num_bigint::BigInt;
    let (Some(f), Some(t), Some(s)) = (from.as_big(), to.as_big(), step.as_big()) else {
        return Err(badarg());
    };
    let zero = BigInt::from(0);
    if s == zero && f != t {
        return Err(badarg());
    }
    if (s > zero && t < &f - &s) || (s < zero && t > &f - &s) {
        return Err(badarg());
    }
    if s == zero {
        return Ok(Term::cons(Term::from_big(f), Term::Nil));
    }
    // Floor division of non-negative by positive: (t - f) / s, or (f - t) / -s.
    let steps = if s > zero {
        (&t - &f) / &s
    } else {
        (&f - &t) / (-&s)
    };
    let count: u64 = (steps + 1u32).try_into().map_err(|_| badarg())?;
    limits::room_for(count, limits::CONS_WORDS)?;
    let mut acc = Term::Nil;
    for k in (0..count).rev() {
        acc = Term::cons(Term::from_big(&f + &s * BigInt::from(k)), acc);
    }
    Ok(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(from: i64, to: i64, step: i64, expect: &str) {
        let got = seq(&Term::Int(from), &Term::Int(to), &Term::Int(step)).expect("valid seq");
        assert_eq!(crate::format::write_term(&got), expect);
    }

    #[test]
    fn seq_matches_erl() {
        // Expected values printed by erl (OTP 25).
        check(5, 4, 2, "[]");
        check(1, 10, 3, "[1,4,7,10]");
        check(10, 1, -3, "[10,7,4,1]");
        check(1, 0, 1, "[]");
        check(3, 3, 0, "[3]");
        check(1, 2, -1, "[]");
        check(1, 6, 2, "[1,3,5]");
    }
}
