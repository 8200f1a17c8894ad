//! Operators: arithmetic with bignum overflow, bit operations, comparisons,
//! boolean operators, `++` and `--`. Errors are the BEAM's reasons.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use racewit_syntax::ir::{BinOp, UnOp};

use crate::atom::Atom;
use crate::limits;
use crate::term::{Term, compare, exact_eq, loose_eq};

fn badarith() -> Term {
    Term::Atom(Atom::BADARITH)
}
fn badarg() -> Term {
    Term::Atom(Atom::BADARG)
}

fn to_f64(t: &Term) -> Option<f64> {
    match t {
        Term::Int(i) => Some(*i as f64),
        Term::Big(b) => b.to_f64().filter(|f| f.is_finite()),
        Term::Float(f) => Some(*f),
        _ => None,
    }
}

fn float_result(f: f64) -> Result<Term, Term> {
    if f.is_finite() {
        Ok(Term::Float(f))
    } else {
        Err(badarith())
    }
}

fn big_op(a: &Term, b: &Term, op: impl Fn(BigInt, BigInt) -> BigInt) -> Result<Term, Term> {
    match (a.as_big(), b.as_big()) {
        (Some(x), Some(y)) => big_result(op(x, y)),
        _ => Err(badarith()),
    }
}

/// An integer result: `system_limit` beyond the largest integer.
fn big_result(v: BigInt) -> Result<Term, Term> {
    if v.bits() > limits::MAX_BIG_BITS {
        return Err(limits::system_limit());
    }
    Ok(Term::from_big(v))
}

/// The bits of an integer term's magnitude.
fn int_bits(t: &Term) -> u64 {
    match t {
        Term::Int(i) => 64 - i.unsigned_abs().leading_zeros() as u64,
        Term::Big(b) => b.bits(),
        _ => 0,
    }
}

/// `x op y` on two small integers, when the result is a small integer or a
/// boolean; `None` when it needs a bignum, raises, or `op` is not numeric.
#[inline(always)]
pub fn small_binop(op: BinOp, x: i64, y: i64) -> Option<Term> {
    small_int_op(op, x, y)
        .map(Term::Int)
        .or_else(|| small_compare(op, x, y).map(Term::bool))
}

/// `x op y` for an arithmetic or bit `op` on small integers, when the result
/// is a small integer; `None` otherwise (a bignum, an error, another `op`).
#[inline(always)]
pub fn small_int_op(op: BinOp, x: i64, y: i64) -> Option<i64> {
    match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        BinOp::Div => x.checked_div(y),
        BinOp::Rem => x.checked_rem(y),
        BinOp::Band => Some(x & y),
        BinOp::Bor => Some(x | y),
        BinOp::Bxor => Some(x ^ y),
        _ => None,
    }
}

/// `x op y` for a comparison `op` on small integers; `None` for another `op`.
#[inline(always)]
pub fn small_compare(op: BinOp, x: i64, y: i64) -> Option<bool> {
    match op {
        BinOp::Less => Some(x < y),
        BinOp::LessEq => Some(x <= y),
        BinOp::Greater => Some(x > y),
        BinOp::GreaterEq => Some(x >= y),
        BinOp::Eq | BinOp::ExactEq => Some(x == y),
        BinOp::NotEq | BinOp::ExactNotEq => Some(x != y),
        _ => None,
    }
}

pub fn binop(op: BinOp, a: &Term, b: &Term) -> Result<Term, Term> {
    if let (Term::Int(x), Term::Int(y)) = (a, b)
        && let Some(v) = small_binop(op, *x, *y)
    {
        return Ok(v);
    }
    match op {
        BinOp::Add => match (a, b) {
            (Term::Int(x), Term::Int(y)) => Ok(x
                .checked_add(*y)
                .map(Term::Int)
                .unwrap_or_else(|| Term::from_big(BigInt::from(*x) + *y))),
            _ => arith(a, b, |x, y| x + y, |x, y| x + y),
        },
        BinOp::Sub => match (a, b) {
            (Term::Int(x), Term::Int(y)) => Ok(x
                .checked_sub(*y)
                .map(Term::Int)
                .unwrap_or_else(|| Term::from_big(BigInt::from(*x) - *y))),
            _ => arith(a, b, |x, y| x - y, |x, y| x - y),
        },
        BinOp::Mul => match (a, b) {
            (Term::Int(x), Term::Int(y)) => Ok(x
                .checked_mul(*y)
                .map(Term::Int)
                .unwrap_or_else(|| Term::from_big(BigInt::from(*x) * *y))),
            // A product has at least this many bits less one: too many,
            // and it is not computed (the BEAM's answer, sooner).
            _ if a.is_integer()
                && b.is_integer()
                && (int_bits(a) + int_bits(b)).saturating_sub(1) > limits::MAX_BIG_BITS
                && int_bits(a) > 1
                && int_bits(b) > 1 =>
            {
                Err(limits::system_limit())
            }
            _ => arith(a, b, |x, y| x * y, |x, y| x * y),
        },
        BinOp::FDiv => {
            let (Some(x), Some(y)) = (to_f64(a), to_f64(b)) else {
                return Err(badarith());
            };
            if !a.is_number() || !b.is_number() || y == 0.0 {
                return Err(badarith());
            }
            float_result(x / y)
        }
        BinOp::Div => match (a, b) {
            (Term::Int(_), Term::Int(0)) => Err(badarith()),
            (Term::Int(x), Term::Int(y)) => Ok(x
                .checked_div(*y)
                .map(Term::Int)
                .unwrap_or_else(|| Term::from_big(BigInt::from(*x) / *y))),
            _ => {
                if b.as_big().is_some_and(|y| y.is_zero()) {
                    return Err(badarith());
                }
                big_op(a, b, |x, y| x / y)
            }
        },
        BinOp::Rem => match (a, b) {
            (Term::Int(_), Term::Int(0)) => Err(badarith()),
            (Term::Int(x), Term::Int(y)) => Ok(Term::Int(x.checked_rem(*y).unwrap_or(0))),
            _ => {
                if b.as_big().is_some_and(|y| y.is_zero()) {
                    return Err(badarith());
                }
                big_op(a, b, |x, y| x % y)
            }
        },
        BinOp::Band => int_op(a, b, |x, y| x & y, |x, y| x & y),
        BinOp::Bor => int_op(a, b, |x, y| x | y, |x, y| x | y),
        BinOp::Bxor => int_op(a, b, |x, y| x ^ y, |x, y| x ^ y),
        BinOp::Bsl => shift(a, b, true),
        BinOp::Bsr => shift(a, b, false),
        BinOp::And | BinOp::Or | BinOp::Xor => {
            let (Some(x), Some(y)) = (as_bool(a), as_bool(b)) else {
                return Err(badarg());
            };
            Ok(Term::bool(match op {
                BinOp::And => x && y,
                BinOp::Or => x || y,
                _ => x ^ y,
            }))
        }
        BinOp::Eq => Ok(Term::bool(loose_eq(a, b))),
        BinOp::NotEq => Ok(Term::bool(!loose_eq(a, b))),
        BinOp::ExactEq => Ok(Term::bool(exact_eq(a, b))),
        BinOp::ExactNotEq => Ok(Term::bool(!exact_eq(a, b))),
        BinOp::Less => Ok(Term::bool(compare(a, b, false) == Ordering::Less)),
        BinOp::LessEq => Ok(Term::bool(compare(a, b, false) != Ordering::Greater)),
        BinOp::Greater => Ok(Term::bool(compare(a, b, false) == Ordering::Greater)),
        BinOp::GreaterEq => Ok(Term::bool(compare(a, b, false) != Ordering::Less)),
        BinOp::Append => append(a, b),
        BinOp::Subtract => subtract(a, b),
    }
}

pub fn as_bool(t: &Term) -> Option<bool> {
    match t {
        Term::Atom(Atom::TRUE) => Some(true),
        Term::Atom(Atom::FALSE) => Some(false),
        _ => None,
    }
}

fn arith(
    a: &Term,
    b: &Term,
    fop: impl Fn(f64, f64) -> f64,
    iop: impl Fn(BigInt, BigInt) -> BigInt,
) -> Result<Term, Term> {
    if !a.is_number() || !b.is_number() {
        return Err(badarith());
    }
    if matches!(a, Term::Float(_)) || matches!(b, Term::Float(_)) {
        let (Some(x), Some(y)) = (to_f64(a), to_f64(b)) else {
            return Err(badarith());
        };
        return float_result(fop(x, y));
    }
    big_op(a, b, iop)
}

fn int_op(
    a: &Term,
    b: &Term,
    small: impl Fn(i64, i64) -> i64,
    big: impl Fn(BigInt, BigInt) -> BigInt,
) -> Result<Term, Term> {
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => Ok(Term::Int(small(*x, *y))),
        _ if a.is_integer() && b.is_integer() => big_op(a, b, big),
        _ => Err(badarith()),
    }
}

fn shift(a: &Term, b: &Term, left: bool) -> Result<Term, Term> {
    let (Some(x), Some(n)) = (a.as_big(), b.as_big()) else {
        return Err(badarith());
    };
    // Shifting left by `n` is shifting right by `-n`.
    let n = if left { n } else { -n };
    if x.is_zero() {
        return Ok(Term::Int(0));
    }
    if n.is_positive() {
        // Too many bits, and it is not computed.
        let bits = n
            .to_u64()
            .and_then(|n| n.checked_add(x.bits()))
            .unwrap_or(u64::MAX);
        if bits > limits::MAX_BIG_BITS {
            return Err(limits::system_limit());
        }
        let by = (bits - x.bits()) as usize;
        big_result(x << by)
    } else {
        // Arithmetic shift right rounds towards negative infinity: past
        // the last bit, 0 or -1.
        let k = (-n).to_u64().unwrap_or(u64::MAX);
        if k >= x.bits() {
            return Ok(Term::Int(if x.is_negative() { -1 } else { 0 }));
        }
        let (q, _) = x.div_mod_floor(&(BigInt::from(1) << k as usize));
        Ok(Term::from_big(q))
    }
}

fn append(a: &Term, b: &Term) -> Result<Term, Term> {
    let Some(len) = a.list_len() else {
        return Err(badarg());
    };
    limits::room_for(len as u64, limits::CONS_WORDS)?;
    let Some(items) = a.list_to_vec() else {
        return Err(badarg());
    };
    Ok(Term::list_with_tail(items, b.clone()))
}

fn subtract(a: &Term, b: &Term) -> Result<Term, Term> {
    let (Some(mut items), Some(remove)) = (a.list_to_vec(), b.list_to_vec()) else {
        return Err(badarg());
    };
    for r in &remove {
        if let Some(pos) = items.iter().position(|x| exact_eq(x, r)) {
            items.remove(pos);
        }
    }
    Ok(Term::list(items))
}

pub fn unop(op: UnOp, a: &Term) -> Result<Term, Term> {
    match op {
        UnOp::Neg => match a {
            Term::Int(x) => Ok(x
                .checked_neg()
                .map(Term::Int)
                .unwrap_or_else(|| Term::from_big(-BigInt::from(*x)))),
            Term::Big(b) => Ok(Term::from_big(-(**b).clone())),
            Term::Float(f) => Ok(Term::Float(-f)),
            _ => Err(badarith()),
        },
        UnOp::Plus => {
            if a.is_number() {
                Ok(a.clone())
            } else {
                Err(badarith())
            }
        }
        UnOp::Not => match as_bool(a) {
            Some(b) => Ok(Term::bool(!b)),
            None => Err(badarg()),
        },
        UnOp::Bnot => match a {
            Term::Int(x) => Ok(Term::Int(!x)),
            Term::Big(b) => big_result(-(**b).clone() - 1),
            _ => Err(badarith()),
        },
    }
}

/// `abs/1`
pub fn abs(a: &Term) -> Result<Term, Term> {
    match a {
        Term::Int(x) => Ok(x
            .checked_abs()
            .map(Term::Int)
            .unwrap_or_else(|| Term::from_big(BigInt::from(*x).abs()))),
        Term::Big(b) => Ok(Term::from_big(b.abs())),
        Term::Float(f) => Ok(Term::Float(if *f < 0.0 { -f } else { *f })),
        _ => Err(badarg()),
    }
}

pub fn number_to_f64(t: &Term) -> Option<f64> {
    to_f64(t)
}
