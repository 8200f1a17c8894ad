//! The external term format: `term_to_binary/1`, `binary_to_term/1,2`
//! (the encodings the BEAM produces for the common types).

use std::sync::Arc;

use num_bigint::{BigInt, Sign};
use num_traits::Signed;

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, badarg};
use crate::term::{Bitstr, MapKey, Pid, Term, TermMap};

pub fn register(t: &mut Table) {
    t.pure("erlang", "term_to_binary", 1, |a| to_binary(&a[0]));
    t.pure("erlang", "term_to_binary", 2, |a| to_binary(&a[0]));
    // The size of the encoding `term_to_binary/1` makes (the BEAM computes
    // a bound without encoding; for an uncompressed encoding it is exact).
    t.pure("erlang", "external_size", 1, |a| {
        Ok(Term::Int(encoded(&a[0])?.len() as i64))
    });
    t.ctx("erlang", "binary_to_term", 1, |ctx, a| {
        decode_counted(ctx, &a[0])
    });
    t.ctx("erlang", "binary_to_term", 2, |ctx, a| {
        decode_counted(ctx, &a[0])
    });
}

/// `binary_to_term/1,2`: the atoms of the term count as made by the run.
fn decode_counted(ctx: &mut Ctx<'_>, t: &Term) -> Flow {
    let v = match decode_all(t) {
        Ok(v) => v,
        Err(e) => return Flow::error(e),
    };
    let mut atoms = Vec::new();
    let mut stack = vec![&v];
    while let Some(cur) = stack.pop() {
        match cur {
            Term::Atom(a) => atoms.push(*a),
            Term::Tuple(items) => stack.extend(items.iter()),
            Term::Cons(c) => {
                stack.push(&c.head);
                stack.push(&c.tail);
            }
            Term::Map(m) => {
                for (k, x) in m.iter() {
                    stack.push(&k.0);
                    stack.push(x);
                }
            }
            _ => {}
        }
    }
    atoms.sort_unstable();
    atoms.dedup();
    for a in atoms {
        if let Err(flow) = ctx.make_atom(a.name()) {
            return flow;
        }
    }
    Flow::Value(v)
}

fn decode_all(t: &Term) -> Result<Term, Term> {
    let bytes = t.as_bytes().ok_or_else(badarg)?;
    if bytes.first() != Some(&131) {
        return Err(badarg());
    }
    let mut pos = 1;
    let v = decode(&bytes, &mut pos).ok_or_else(badarg)?;
    Ok(v)
}

fn encode_atom(a: Atom, out: &mut Vec<u8>) {
    // OTP 25's default (minor version 1): ATOM_EXT for latin1 names.
    let name = a.name();
    if name.chars().all(|c| (c as u32) < 256) {
        let bytes: Vec<u8> = name.chars().map(|c| c as u32 as u8).collect();
        out.push(100);
        out.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
        out.extend_from_slice(&bytes);
    } else {
        let bytes = name.as_bytes();
        out.push(118);
        out.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
        out.extend_from_slice(bytes);
    }
}

fn to_binary(t: &Term) -> Result<Term, Term> {
    Ok(Term::binary(encoded(t)?))
}

/// `t` in the external term format, with its version byte.
fn encoded(t: &Term) -> Result<Vec<u8>, Term> {
    let mut out = Encoded {
        buf: vec![131u8],
        granted: 0,
    };
    encode(t, &mut out)?;
    Ok(out.buf)
}

/// The encoding under way, and the bytes the memory budget granted it so
/// far (a term that shares parts is encoded in full each time: its
/// encoding can be far larger than the term).
struct Encoded {
    buf: Vec<u8>,
    granted: usize,
}

impl Encoded {
    /// Ask for room for what was written beyond the grant, and more.
    fn check(&mut self) -> Result<(), Term> {
        const STEP: usize = 1 << 16;
        if self.buf.len() >= self.granted {
            let need = self.buf.len() - self.granted + STEP;
            crate::limits::room((need / 8) as u64)?;
            self.granted += need;
        }
        Ok(())
    }
}

impl std::ops::Deref for Encoded {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.buf
    }
}

impl std::ops::DerefMut for Encoded {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }
}

fn encode(t: &Term, out: &mut Encoded) -> Result<(), Term> {
    if !t.is_immediate() {
        out.check()?;
    }
    match t {
        Term::Int(i) if (0..=255).contains(i) => {
            out.push(97);
            out.push(*i as u8);
        }
        Term::Int(i) if i32::try_from(*i).is_ok() => {
            out.push(98);
            out.extend_from_slice(&(*i as i32).to_be_bytes());
        }
        Term::Int(_) | Term::Big(_) => {
            let b = t.as_big().unwrap_or_default();
            let (_, mut digits) = b.abs().to_bytes_le();
            if digits.is_empty() {
                digits.push(0);
            }
            if digits.len() < 256 {
                out.push(110);
                out.push(digits.len() as u8);
            } else {
                out.push(111);
                out.extend_from_slice(&(digits.len() as u32).to_be_bytes());
            }
            out.push(u8::from(b.sign() == Sign::Minus));
            out.extend_from_slice(&digits);
        }
        Term::Float(f) => {
            out.push(70);
            out.extend_from_slice(&f.to_bits().to_be_bytes());
        }
        Term::Atom(a) => encode_atom(*a, out),
        Term::Tuple(items) => {
            if items.len() < 256 {
                out.push(104);
                out.push(items.len() as u8);
            } else {
                out.push(105);
                out.extend_from_slice(&(items.len() as u32).to_be_bytes());
            }
            for x in items.iter() {
                encode(x, out)?;
            }
        }
        Term::Nil => out.push(106),
        Term::Cons(_) => {
            let mut items = Vec::new();
            let mut cur = t;
            let tail = loop {
                match cur {
                    Term::Cons(c) => {
                        items.push(&c.head);
                        cur = &c.tail;
                    }
                    other => break other,
                }
            };
            let bytes: Option<Vec<u8>> = items
                .iter()
                .map(|x| match x {
                    Term::Int(i) if (0..=255).contains(i) => Some(*i as u8),
                    _ => None,
                })
                .collect();
            match (bytes, tail) {
                (Some(b), Term::Nil) if b.len() < 65536 => {
                    out.push(107);
                    out.extend_from_slice(&(b.len() as u16).to_be_bytes());
                    out.extend_from_slice(&b);
                }
                _ => {
                    out.push(108);
                    out.extend_from_slice(&(items.len() as u32).to_be_bytes());
                    for x in items {
                        encode(x, out)?;
                    }
                    encode(tail, out)?;
                }
            }
        }
        Term::Bin(b) if b.is_binary() => {
            out.push(109);
            out.extend_from_slice(&((b.len / 8) as u32).to_be_bytes());
            out.extend_from_slice(&b.to_bytes());
        }
        Term::Bin(b) => {
            out.push(77);
            let bytes = b.to_bytes();
            out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
            out.push(if b.len % 8 == 0 { 8 } else { (b.len % 8) as u8 });
            out.extend_from_slice(&bytes);
        }
        Term::Map(m) => {
            out.push(116);
            out.extend_from_slice(&(m.len() as u32).to_be_bytes());
            for (k, v) in m.iter() {
                encode(&k.0, out)?;
                encode(v, out)?;
            }
        }
        Term::Pid(p) => {
            out.push(88);
            encode_atom(Atom::NONODE, out);
            out.extend_from_slice(&p.number().to_be_bytes());
            out.extend_from_slice(&0u32.to_be_bytes());
            out.extend_from_slice(&0u32.to_be_bytes());
        }
        Term::Ref(r) => {
            out.push(90);
            out.extend_from_slice(&3u16.to_be_bytes());
            encode_atom(Atom::NONODE, out);
            out.extend_from_slice(&0u32.to_be_bytes());
            out.extend_from_slice(&((*r & 0x3ffff) as u32).to_be_bytes());
            out.extend_from_slice(&((*r >> 18) as u32).to_be_bytes());
            out.extend_from_slice(&0u32.to_be_bytes());
        }
        Term::Fun(_) => return Err(badarg()),
    }
    Ok(())
}

fn take<'a>(b: &'a [u8], pos: &mut usize, n: usize) -> Option<&'a [u8]> {
    let s = b.get(*pos..*pos + n)?;
    *pos += n;
    Some(s)
}

fn u32_at(b: &[u8], pos: &mut usize) -> Option<u32> {
    Some(u32::from_be_bytes(take(b, pos, 4)?.try_into().ok()?))
}

fn decode(b: &[u8], pos: &mut usize) -> Option<Term> {
    let tag = *take(b, pos, 1)?.first()?;
    Some(match tag {
        97 => Term::Int(*take(b, pos, 1)?.first()? as i64),
        98 => Term::Int(i32::from_be_bytes(take(b, pos, 4)?.try_into().ok()?) as i64),
        110 | 111 => {
            let n = if tag == 110 {
                *take(b, pos, 1)?.first()? as usize
            } else {
                u32_at(b, pos)? as usize
            };
            let sign = *take(b, pos, 1)?.first()?;
            let v = BigInt::from_bytes_le(Sign::Plus, take(b, pos, n)?);
            Term::from_big(if sign == 1 { -v } else { v })
        }
        70 => Term::Float(f64::from_bits(u64::from_be_bytes(
            take(b, pos, 8)?.try_into().ok()?,
        ))),
        119 | 115 => {
            let n = *take(b, pos, 1)?.first()? as usize;
            Term::atom(std::str::from_utf8(take(b, pos, n)?).ok()?)
        }
        118 => {
            let n = u16::from_be_bytes(take(b, pos, 2)?.try_into().ok()?) as usize;
            Term::atom(std::str::from_utf8(take(b, pos, n)?).ok()?)
        }
        100 => {
            let n = u16::from_be_bytes(take(b, pos, 2)?.try_into().ok()?) as usize;
            let name: String = take(b, pos, n)?.iter().map(|&c| c as char).collect();
            Term::atom(&name)
        }
        104 | 105 => {
            let n = if tag == 104 {
                *take(b, pos, 1)?.first()? as usize
            } else {
                u32_at(b, pos)? as usize
            };
            let mut v = Vec::with_capacity(n.min(1 << 16));
            for _ in 0..n {
                v.push(decode(b, pos)?);
            }
            Term::tuple(v)
        }
        106 => Term::Nil,
        107 => {
            let n = u16::from_be_bytes(take(b, pos, 2)?.try_into().ok()?) as usize;
            Term::list(
                take(b, pos, n)?
                    .iter()
                    .map(|&c| Term::Int(c as i64))
                    .collect(),
            )
        }
        108 => {
            let n = u32_at(b, pos)? as usize;
            let mut v = Vec::with_capacity(n.min(1 << 16));
            for _ in 0..n {
                v.push(decode(b, pos)?);
            }
            let tail = decode(b, pos)?;
            Term::list_with_tail(v, tail)
        }
        109 => {
            let n = u32_at(b, pos)? as usize;
            Term::binary(take(b, pos, n)?.to_vec())
        }
        77 => {
            let n = u32_at(b, pos)? as usize;
            let bits = *take(b, pos, 1)?.first()? as usize;
            let data = take(b, pos, n)?.to_vec();
            let len = if n == 0 { 0 } else { (n - 1) * 8 + bits };
            Term::Bin(Arc::new(Bitstr {
                data: Arc::new(data),
                start: 0,
                len,
            }))
        }
        116 => {
            let n = u32_at(b, pos)? as usize;
            let mut m = TermMap::new();
            for _ in 0..n {
                let k = decode(b, pos)?;
                let v = decode(b, pos)?;
                m.insert(MapKey(k), v);
            }
            Term::Map(Arc::new(m))
        }
        88 => {
            decode(b, pos)?;
            let id = u32_at(b, pos)?;
            take(b, pos, 8)?;
            if id < 80 {
                Term::Pid(Pid(crate::term::SYSTEM_PID_BASE + id))
            } else {
                Term::Pid(Pid(id - 80))
            }
        }
        90 => {
            let n = u16::from_be_bytes(take(b, pos, 2)?.try_into().ok()?) as usize;
            decode(b, pos)?;
            take(b, pos, 4)?;
            let w: Vec<u32> = (0..n).map(|_| u32_at(b, pos)).collect::<Option<_>>()?;
            let lo = *w.first()? as u64;
            let hi = *w.get(1).unwrap_or(&0) as u64;
            Term::Ref((hi << 18) | lo)
        }
        _ => return None,
    })
}
