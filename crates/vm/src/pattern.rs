//! Pattern matching, guard evaluation, and bit-syntax construction/matching.

use std::sync::Arc;

use num_bigint::{BigInt, Sign};
use num_traits::{ToPrimitive, Zero};
use racewit_syntax::ir::{BinType, CaseKind};

use crate::arith;
use crate::atom::Atom;
use crate::code::{BifKind, CPat, CSeg, GExpr};
use crate::limits;
use crate::term::{Bitstr, MapKey, Pid, Term, exact_eq};

/// The registers of the running frame.
pub struct Env<'a> {
    pub regs: &'a mut [Term],
    pub pid: Pid,
}

impl Env<'_> {
    #[inline]
    fn get(&self, s: u32) -> &Term {
        &self.regs[s as usize]
    }
    #[inline]
    fn set(&mut self, s: u32, v: Term) {
        self.regs[s as usize] = v;
    }
}

pub fn match_pat(p: &CPat, v: &Term, env: &mut Env<'_>) -> bool {
    match p {
        CPat::Wild => true,
        CPat::Var(s) => {
            env.set(*s, v.clone());
            true
        }
        CPat::Bound(s) => exact_eq(env.get(*s), v),
        CPat::Lit(t) => exact_eq(t, v),
        CPat::Nil => matches!(v, Term::Nil),
        CPat::Cons(h, t) => match v {
            Term::Cons(c) => match_pat(h, &c.head, env) && match_pat(t, &c.tail, env),
            _ => false,
        },
        CPat::Tuple(items) => match v {
            Term::Tuple(vs) if vs.len() == items.len() => items
                .iter()
                .zip(vs.iter())
                .all(|(p, x)| match_pat(p, x, env)),
            _ => false,
        },
        CPat::Map(fields) => {
            let Term::Map(m) = v else { return false };
            for (k, p) in fields.iter() {
                let Ok(key) = eval_g(k, env) else {
                    return false;
                };
                match m.get(&MapKey(key)) {
                    Some(x) => {
                        if !match_pat(p, x, env) {
                            return false;
                        }
                    }
                    None => return false,
                }
            }
            true
        }
        CPat::Binary(segs, sizes) => {
            let Term::Bin(b) = v else { return false };
            match match_bin_segments(segs, sizes, b, env) {
                Some(rest) => rest.len == 0,
                None => false,
            }
        }
        CPat::Alias(a, b) => match_pat(a, v, env) && match_pat(b, v, env),
        CPat::Never => false,
    }
}

/// Match segments at the front of `b`; returns what is left.
pub fn match_bin_segments(
    segs: &[CSeg<CPat>],
    sizes: &[Option<GExpr>],
    b: &Bitstr,
    env: &mut Env<'_>,
) -> Option<Bitstr> {
    let mut pos = 0usize;
    for (seg, size) in segs.iter().zip(sizes.iter()) {
        let size = match size {
            Some(g) => match eval_g(g, env) {
                Ok(Term::Int(n)) if n >= 0 => Some(n as usize),
                Ok(Term::Atom(a)) if a.name() == "all" => None,
                _ => return None,
            },
            None => None,
        };
        let remaining = b.len - pos;
        let unit = seg.unit as usize;
        let (value, used) = match seg.ty {
            BinType::Integer => {
                let n = size.unwrap_or(8) * unit;
                if n > remaining {
                    return None;
                }
                (read_int(b, pos, n, seg.signed, seg.little), n)
            }
            BinType::Float => {
                let n = size.unwrap_or(64) * unit;
                if n > remaining {
                    return None;
                }
                let bits = read_uint(b, pos, n, seg.little);
                let f = match n {
                    64 => f64::from_bits(bits.to_u64()?),
                    32 => f32::from_bits(bits.to_u32()?) as f64,
                    _ => return None,
                };
                if !f.is_finite() {
                    return None;
                }
                (Term::Float(f), n)
            }
            BinType::Binary | BinType::Bitstring => {
                let n = match size {
                    Some(s) => s * unit,
                    None => remaining,
                };
                if n > remaining {
                    return None;
                }
                if seg.ty == BinType::Binary && size.is_none() && n % 8 != 0 {
                    return None;
                }
                (Term::Bin(Arc::new(b.sub(pos, n))), n)
            }
            BinType::Utf8 => {
                if remaining < 8 || !(b.start + pos).is_multiple_of(8) {
                    let bytes = b.sub(pos, remaining - remaining % 8).to_bytes();
                    let (c, n) = decode_utf8(&bytes)?;
                    (Term::Int(c as i64), n * 8)
                } else {
                    let s = (b.start + pos) / 8;
                    let end = ((b.start + b.len) / 8).min(s + 4);
                    let (c, n) = decode_utf8(&b.data[s..end])?;
                    (Term::Int(c as i64), n * 8)
                }
            }
            BinType::Utf16 => {
                if remaining < 16 {
                    return None;
                }
                let w1 = read_uint(b, pos, 16, seg.little).to_u32()?;
                if (0xD800..0xDC00).contains(&w1) {
                    if remaining < 32 {
                        return None;
                    }
                    let w2 = read_uint(b, pos + 16, 16, seg.little).to_u32()?;
                    let c = 0x10000 + ((w1 - 0xD800) << 10) + (w2 - 0xDC00);
                    (Term::Int(c as i64), 32)
                } else {
                    (Term::Int(w1 as i64), 16)
                }
            }
            BinType::Utf32 => {
                if remaining < 32 {
                    return None;
                }
                let c = read_uint(b, pos, 32, seg.little).to_u32()?;
                char::from_u32(c)?;
                (Term::Int(c as i64), 32)
            }
        };
        if !match_pat(&seg.value, &value, env) {
            return None;
        }
        pos += used;
    }
    Some(b.sub(pos, b.len - pos))
}

fn decode_utf8(bytes: &[u8]) -> Option<(u32, usize)> {
    let first = *bytes.first()?;
    let n = match first {
        0..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(bytes.get(..n)?).ok()?;
    Some((s.chars().next()? as u32, n))
}

fn read_uint(b: &Bitstr, pos: usize, n: usize, little: bool) -> BigInt {
    if n <= 64 {
        let mut v: u64 = 0;
        for i in 0..n {
            v = (v << 1) | b.bit(pos + i) as u64;
        }
        if little && n.is_multiple_of(8) {
            let bytes = v.to_be_bytes();
            let k = n / 8;
            let mut le = [0u8; 8];
            for i in 0..k {
                le[7 - i] = bytes[8 - k + i];
            }
            // le now holds the bytes reversed in the low k positions
            let mut r: u64 = 0;
            for byte in le.iter().skip(8 - k) {
                r = (r << 8) | *byte as u64;
            }
            return BigInt::from(r);
        }
        return BigInt::from(v);
    }
    let sub = b.sub(pos, n);
    if n.is_multiple_of(8) {
        let mut bytes = sub.to_bytes();
        if little {
            bytes.reverse();
        }
        return BigInt::from_bytes_be(Sign::Plus, &bytes);
    }
    let mut v = BigInt::zero();
    for i in 0..n {
        v = (v << 1) + BigInt::from(sub.bit(i) as u8);
    }
    v
}

fn read_int(b: &Bitstr, pos: usize, n: usize, signed: bool, little: bool) -> Term {
    let v = read_uint(b, pos, n, little);
    if signed && n > 0 && v.bit(n as u64 - 1) {
        Term::from_big(v - (BigInt::from(1) << n))
    } else {
        Term::from_big(v)
    }
}

/// Accumulates bits for binary construction.
#[derive(Default)]
pub struct BitWriter {
    pub bytes: Vec<u8>,
    pub len: usize,
}

impl BitWriter {
    pub fn push_bit(&mut self, bit: bool) {
        if self.len.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if bit {
            let last = self.bytes.len() - 1;
            self.bytes[last] |= 1 << (7 - self.len % 8);
        }
        self.len += 1;
    }
    pub fn push_bits(&mut self, b: &Bitstr) {
        if self.len.is_multiple_of(8)
            && let Some(s) = b.byte_slice()
        {
            self.bytes.extend_from_slice(s);
            self.len += b.len;
            return;
        }
        for i in 0..b.len {
            self.push_bit(b.bit(i));
        }
    }
    pub fn push_bytes(&mut self, bytes: &[u8]) {
        if self.len.is_multiple_of(8) {
            self.bytes.extend_from_slice(bytes);
            self.len += bytes.len() * 8;
        } else {
            for &byte in bytes {
                for i in 0..8 {
                    self.push_bit(byte >> (7 - i) & 1 == 1);
                }
            }
        }
    }
    pub fn push_int(&mut self, v: &BigInt, n: usize, little: bool) {
        if n == 0 {
            return;
        }
        // A wide field holds a narrow value: its high bits are copies of
        // the sign, written a byte at a time (`<<0:(1 bsl 30)>>`).
        let narrow = (v.bits() as usize + 1).next_multiple_of(8);
        if n > narrow + 64 && (!little || n.is_multiple_of(8)) {
            let pad = if v.sign() == Sign::Minus { 0xff } else { 0 };
            if little {
                self.push_int(v, narrow, true);
                self.push_fill(pad, n - narrow);
            } else {
                self.push_fill(pad, n - narrow);
                self.push_int(v, narrow, false);
            }
            return;
        }
        // Two's complement of v modulo 2^n, as n bits big-endian.
        let modulus = BigInt::from(1) << n;
        let mut x = v % &modulus;
        if x.sign() == Sign::Minus {
            x += &modulus;
        }
        let (_, mut be) = x.to_bytes_be();
        let nbytes = n.div_ceil(8);
        if be.len() < nbytes {
            let mut pad = vec![0u8; nbytes - be.len()];
            pad.extend_from_slice(&be);
            be = pad;
        }
        if little && n.is_multiple_of(8) {
            be.reverse();
            self.push_bytes(&be);
            return;
        }
        // Skip the leading pad bits.
        let skip = nbytes * 8 - n;
        for i in skip..nbytes * 8 {
            self.push_bit(be[i / 8] >> (7 - i % 8) & 1 == 1);
        }
    }
    /// `n` bits, each the bit of `byte` (0 or 0xff).
    fn push_fill(&mut self, byte: u8, mut n: usize) {
        while n > 0 && !self.len.is_multiple_of(8) {
            self.push_bit(byte != 0);
            n -= 1;
        }
        self.bytes.resize(self.bytes.len() + n / 8, byte);
        self.len += n / 8 * 8;
        for _ in 0..n % 8 {
            self.push_bit(byte != 0);
        }
    }
    pub fn finish(self) -> Bitstr {
        Bitstr {
            data: Arc::new(self.bytes),
            start: 0,
            len: self.len,
        }
    }
}

/// The bits a binary's segments take, as the BEAM computes them before it
/// builds: `badarg` for a bad size or a segment that is no binary where
/// one is wanted, `system_limit` for a size the BEAM holds as a bignum.
fn binary_bits<T>(parts: &[(Term, Option<Term>, &CSeg<T>)]) -> Result<u64, Term> {
    let badarg = || Term::Atom(Atom::BADARG);
    let mut total: u64 = 0;
    for (value, size, seg) in parts {
        let size = match size {
            None => None,
            Some(Term::Int(n)) if *n >= 0 && *n as u64 >= limits::MAX_SEGMENT_SIZE => {
                return Err(limits::system_limit());
            }
            Some(Term::Int(n)) if *n >= 0 => Some(*n as u64),
            Some(Term::Big(b)) if b.sign() == Sign::Plus => return Err(limits::system_limit()),
            Some(Term::Atom(a)) if a.name() == "all" => None,
            _ => return Err(badarg()),
        };
        // Bits beyond any machine: as large as the memory budget refuses.
        let sized = |default: u64| -> Result<u64, Term> {
            Ok(size.unwrap_or(default).saturating_mul(u64::from(seg.unit)))
        };
        let bits = match seg.ty {
            BinType::Integer => sized(8)?,
            BinType::Float => sized(64)?,
            BinType::Binary | BinType::Bitstring => match (value, size) {
                (Term::Bin(_), Some(_)) => sized(0)?,
                (Term::Bin(b), None) => b.len as u64,
                _ => return Err(badarg()),
            },
            BinType::Utf8 | BinType::Utf16 | BinType::Utf32 => 32,
        };
        total = total.saturating_add(bits);
    }
    Ok(total)
}

/// Build a binary from evaluated segments: `(value, size, seg)`. `Err` is
/// `badarg`, or `system_limit` for a size beyond the BEAM's; room for it
/// is asked of the memory budget first.
pub fn build_binary<T>(parts: &[(Term, Option<Term>, &CSeg<T>)]) -> Result<Term, Term> {
    let bits = binary_bits(parts)?;
    if bits > 1 << 16 {
        limits::room(limits::binary_words(
            usize::try_from(bits / 8).unwrap_or(usize::MAX),
        ))?;
    }
    let mut w = BitWriter::default();
    let badarg = || Term::Atom(Atom::BADARG);
    for (value, size, seg) in parts {
        let unit = seg.unit as usize;
        let size = match size {
            None => None,
            Some(Term::Int(n)) if *n >= 0 => Some(*n as usize),
            Some(Term::Atom(a)) if a.name() == "all" => None,
            _ => return Err(badarg()),
        };
        match seg.ty {
            BinType::Integer => {
                let n = size.unwrap_or(8) * unit;
                let v = value.as_big().ok_or_else(badarg)?;
                w.push_int(&v, n, seg.little);
            }
            BinType::Float => {
                let n = size.unwrap_or(64) * unit;
                let f = arith::number_to_f64(value).ok_or_else(badarg)?;
                match n {
                    64 => w.push_int(&BigInt::from(f.to_bits()), 64, seg.little),
                    32 => w.push_int(&BigInt::from((f as f32).to_bits()), 32, seg.little),
                    _ => return Err(badarg()),
                }
            }
            BinType::Binary | BinType::Bitstring => {
                let Term::Bin(b) = value else {
                    return Err(badarg());
                };
                match size {
                    Some(s) => {
                        let n = s * unit;
                        if n > b.len {
                            return Err(badarg());
                        }
                        w.push_bits(&b.sub(0, n));
                    }
                    None => {
                        if seg.ty == BinType::Binary && b.len % 8 != 0 {
                            return Err(badarg());
                        }
                        w.push_bits(b);
                    }
                }
            }
            BinType::Utf8 => {
                let c = value
                    .as_int()
                    .and_then(|i| u32::try_from(i).ok())
                    .and_then(char::from_u32)
                    .ok_or_else(badarg)?;
                let mut buf = [0u8; 4];
                w.push_bytes(c.encode_utf8(&mut buf).as_bytes());
            }
            BinType::Utf16 => {
                let c = value
                    .as_int()
                    .and_then(|i| u32::try_from(i).ok())
                    .and_then(char::from_u32)
                    .ok_or_else(badarg)?;
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    w.push_int(&BigInt::from(*u), 16, seg.little);
                }
            }
            BinType::Utf32 => {
                let c = value
                    .as_int()
                    .and_then(|i| u32::try_from(i).ok())
                    .and_then(char::from_u32)
                    .ok_or_else(badarg)?;
                w.push_int(&BigInt::from(c as u32), 32, seg.little);
            }
        }
    }
    Ok(Term::Bin(Arc::new(w.finish())))
}

/// Evaluate a guard: a disjunction of conjunctions; exceptions make it false.
pub fn eval_guard(g: &[Vec<GExpr>], env: &mut Env<'_>) -> bool {
    g.iter().any(|conj| {
        conj.iter()
            .all(|t| matches!(eval_g(t, env), Ok(Term::Atom(Atom::TRUE))))
    })
}

pub fn eval_g(g: &GExpr, env: &mut Env<'_>) -> Result<Term, Term> {
    match g {
        GExpr::Lit(t) => Ok(t.clone()),
        GExpr::Var(s) => Ok(env.get(*s).clone()),
        GExpr::Cons(h, t) => Ok(Term::cons(eval_g(h, env)?, eval_g(t, env)?)),
        GExpr::Tuple(items) => {
            let v: Result<Vec<Term>, Term> = items.iter().map(|i| eval_g(i, env)).collect();
            Ok(Term::tuple(v?))
        }
        GExpr::Map(base, fields) => {
            let mut m = match base {
                Some(b) => match eval_g(b, env)? {
                    Term::Map(m) => (*m).clone(),
                    other => return Err(Term::tuple(vec![Term::Atom(Atom::BADMAP), other])),
                },
                None => Default::default(),
            };
            for (k, v, exact) in fields.iter() {
                let k = eval_g(k, env)?;
                let v = eval_g(v, env)?;
                if *exact && !m.contains_key(&MapKey(k.clone())) {
                    return Err(Term::tuple(vec![Term::Atom(Atom::BADKEY), k]));
                }
                m.insert(MapKey(k), v);
            }
            Ok(Term::Map(Arc::new(m)))
        }
        GExpr::Binary(segs) => {
            let mut parts = Vec::new();
            for s in segs.iter() {
                let v = eval_g(&s.value, env)?;
                let size = match &s.size {
                    Some(x) => Some(eval_g(x, env)?),
                    None => None,
                };
                parts.push((v, size, s));
            }
            build_binary(&parts)
        }
        GExpr::Op(op, a, b) => {
            let x = eval_g(a, env)?;
            let y = eval_g(b, env)?;
            arith::binop(*op, &x, &y)
        }
        GExpr::UnOp(op, a) => arith::unop(*op, &eval_g(a, env)?),
        GExpr::Call(bif, args) => {
            let vals: Result<Vec<Term>, Term> = args.iter().map(|a| eval_g(a, env)).collect();
            match bif.kind {
                BifKind::Pure(f) => f(&vals?),
                BifKind::Ctx(_) => Err(Term::Atom(Atom::BADARG)),
            }
        }
        GExpr::SelfPid => Ok(Term::Pid(env.pid)),
        GExpr::Case(arg, clauses, kind) => {
            let v = eval_g(arg, env)?;
            for (p, guard, body) in clauses.iter() {
                if match_pat(p, &v, env) && (guard.is_empty() || eval_guard(guard, env)) {
                    return eval_g(body, env);
                }
            }
            Err(match kind {
                CaseKind::Boolean => Term::tuple(vec![Term::Atom(Atom::BADARG), v]),
                _ => Term::tuple(vec![Term::Atom(Atom::CASE_CLAUSE), v]),
            })
        }
        GExpr::Block(items) => {
            let mut last = Term::Nil;
            for i in items.iter() {
                last = eval_g(i, env)?;
            }
            Ok(last)
        }
        GExpr::Invalid => Err(Term::Atom(Atom::BADARG)),
    }
}

pub fn is_zero_big(b: &BigInt) -> bool {
    b.is_zero()
}
