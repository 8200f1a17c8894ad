//! Erlang terms: [`Term`], with term order, `==` and `=:=`.
//!
//! Compound terms are `Arc`-shared and immutable, so cloning a term is cheap
//! and terms move between processes (messages, ETS) without copying.

use std::cmp::Ordering;
use std::sync::Arc;

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

use crate::atom::Atom;

/// A process identifier: an index into the VM's process table, or one of
/// the node's system processes (`init`, `user`, ...: see `vm::SYSTEM`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pid(pub u32);

/// Pids from here on are the node's system processes (not in the table).
pub const SYSTEM_PID_BASE: u32 = 0xFFFF_FF00;

impl Pid {
    /// One of the node's system processes?
    pub fn is_system(self) -> bool {
        (SYSTEM_PID_BASE..u32::MAX).contains(&self.0)
    }

    /// `N` in the pid's printed form `<0.N.0>`: system processes first
    /// (`init` is `<0.0.0>`, as on the BEAM), then the program's from 80.
    pub fn number(self) -> u32 {
        if self.is_system() {
            self.0 - SYSTEM_PID_BASE
        } else {
            self.0.wrapping_add(80)
        }
    }
}

pub enum Term {
    Int(i64),
    Big(Arc<BigInt>),
    Float(f64),
    Atom(Atom),
    Ref(u64),
    Fun(Arc<Fun>),
    Pid(Pid),
    Tuple(Arc<Box<[Term]>>),
    Map(Arc<TermMap>),
    Nil,
    Cons(Arc<Cons>),
    Bin(Arc<Bitstr>),
}

impl Clone for Term {
    // Immediates are copied inline; only shared parts take a reference count.
    #[inline(always)]
    fn clone(&self) -> Term {
        match self {
            Term::Int(i) => Term::Int(*i),
            Term::Atom(a) => Term::Atom(*a),
            Term::Nil => Term::Nil,
            _ => self.clone_shared(),
        }
    }
}

impl Term {
    #[inline(never)]
    fn clone_shared(&self) -> Term {
        match self {
            Term::Int(i) => Term::Int(*i),
            Term::Big(b) => Term::Big(b.clone()),
            Term::Float(f) => Term::Float(*f),
            Term::Atom(a) => Term::Atom(*a),
            Term::Ref(r) => Term::Ref(*r),
            Term::Fun(f) => Term::Fun(f.clone()),
            Term::Pid(p) => Term::Pid(*p),
            Term::Tuple(t) => Term::Tuple(t.clone()),
            Term::Map(m) => Term::Map(m.clone()),
            Term::Nil => Term::Nil,
            Term::Cons(c) => Term::Cons(c.clone()),
            Term::Bin(b) => Term::Bin(b.clone()),
        }
    }
}

pub type TermMap = imbl::OrdMap<MapKey, Term>;

pub struct Cons {
    pub head: Term,
    pub tail: Term,
}

impl Drop for Cons {
    // Long lists, and deeply nested heads (iolists built as `[Acc, X]`), would
    // otherwise be dropped recursively and overflow the Rust stack. Only a
    // nested head costs an allocation.
    fn drop(&mut self) {
        // Nothing here can recurse: the fields drop as they are.
        if !is_deep(&self.head) && !is_deep(&self.tail) {
            return;
        }
        let mut pending: Vec<Term> = Vec::new();
        let head = std::mem::replace(&mut self.head, Term::Nil);
        if is_deep(&head) {
            pending.push(head);
        }
        let mut cur = std::mem::replace(&mut self.tail, Term::Nil);
        loop {
            match cur {
                Term::Cons(mut arc) => {
                    // Unlink a cell owned here in place; it is then freed
                    // with a shallow head and an empty tail.
                    if let Some(cell) = Arc::get_mut(&mut arc) {
                        if is_deep(&cell.head) {
                            pending.push(std::mem::replace(&mut cell.head, Term::Nil));
                        }
                        cur = std::mem::replace(&mut cell.tail, Term::Nil);
                        drop(arc);
                        continue;
                    }
                }
                Term::Tuple(mut arc) => {
                    if let Some(items) = Arc::get_mut(&mut arc) {
                        for x in items.iter_mut() {
                            if is_deep(x) {
                                pending.push(std::mem::replace(x, Term::Nil));
                            }
                        }
                    }
                }
                other => drop(other),
            }
            match pending.pop() {
                Some(t) => cur = t,
                None => break,
            }
        }
    }
}

/// A uniquely owned compound term whose drop could recurse.
fn is_deep(t: &Term) -> bool {
    match t {
        Term::Cons(a) => Arc::strong_count(a) == 1,
        Term::Tuple(a) => Arc::strong_count(a) == 1 && !a.is_empty(),
        _ => false,
    }
}

/// A bitstring: a window of `len` bits starting at bit `start` of `data`.
#[derive(Clone)]
pub struct Bitstr {
    pub data: Arc<Vec<u8>>,
    pub start: usize,
    pub len: usize,
}

impl Bitstr {
    pub fn from_bytes(bytes: Vec<u8>) -> Bitstr {
        let len = bytes.len() * 8;
        Bitstr {
            data: Arc::new(bytes),
            start: 0,
            len,
        }
    }
    pub fn is_binary(&self) -> bool {
        self.len.is_multiple_of(8)
    }
    pub fn bit(&self, i: usize) -> bool {
        let b = self.start + i;
        (self.data[b / 8] >> (7 - (b % 8))) & 1 == 1
    }
    /// The bytes when byte aligned; otherwise copies (last byte padded with zeros).
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.start.is_multiple_of(8) {
            let s = self.start / 8;
            let full = self.len / 8;
            let mut v = self.data[s..s + full].to_vec();
            if !self.len.is_multiple_of(8) {
                let rest = self.len % 8;
                let byte = self.data[s + full] & (0xffu8 << (8 - rest));
                v.push(byte);
            }
            v
        } else {
            let mut v = Vec::with_capacity(self.len.div_ceil(8));
            let mut acc = 0u8;
            for i in 0..self.len {
                acc = (acc << 1) | self.bit(i) as u8;
                if i % 8 == 7 {
                    v.push(acc);
                    acc = 0;
                }
            }
            if !self.len.is_multiple_of(8) {
                v.push(acc << (8 - self.len % 8));
            }
            v
        }
    }
    pub fn byte_slice(&self) -> Option<&[u8]> {
        if self.start.is_multiple_of(8) && self.len.is_multiple_of(8) {
            Some(&self.data[self.start / 8..(self.start + self.len) / 8])
        } else {
            None
        }
    }
    pub fn sub(&self, from: usize, len: usize) -> Bitstr {
        Bitstr {
            data: self.data.clone(),
            start: self.start + from,
            len,
        }
    }
}

/// A function value.
pub enum Fun {
    /// A `fun (...) -> ... end` with its captured variables.
    Closure {
        module: Atom,
        /// Index of the module in the VM's code table.
        mod_index: u32,
        /// The fun's `FunId` within its module.
        index: u32,
        arity: u32,
        env: Vec<Term>,
    },
    /// `fun f/A` of the current module (exported or not).
    Local {
        module: Atom,
        mod_index: u32,
        /// Function index in the module's code.
        function: u32,
        name: Atom,
        arity: u32,
    },
    /// `fun M:F/A`.
    Export {
        module: Atom,
        name: Atom,
        arity: u32,
    },
}

impl Fun {
    pub fn arity(&self) -> u32 {
        match self {
            Fun::Closure { arity, .. } | Fun::Local { arity, .. } | Fun::Export { arity, .. } => {
                *arity
            }
        }
    }
}

/// A map key: ordered by term order with integers before equal floats, compared exactly.
#[derive(Clone)]
pub struct MapKey(pub Term);

impl PartialEq for MapKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for MapKey {}
impl PartialOrd for MapKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for MapKey {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(&self.0, &other.0, true)
    }
}

/// A key compared with `==` (ordered_set tables).
#[derive(Clone)]
pub struct EqKey(pub Term);
impl PartialEq for EqKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for EqKey {}
impl PartialOrd for EqKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for EqKey {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(&self.0, &other.0, false)
    }
}

impl Term {
    pub fn atom(name: &str) -> Term {
        Term::Atom(Atom::new(name))
    }
    pub fn bool(b: bool) -> Term {
        Term::Atom(Atom::bool(b))
    }
    pub fn ok() -> Term {
        Term::Atom(Atom::OK)
    }
    pub fn undefined() -> Term {
        Term::Atom(Atom::UNDEFINED)
    }
    pub fn tuple(items: Vec<Term>) -> Term {
        Term::Tuple(Arc::new(items.into_boxed_slice()))
    }
    #[inline]
    pub fn cons(head: Term, tail: Term) -> Term {
        Term::Cons(Arc::new(Cons { head, tail }))
    }
    pub fn list(items: Vec<Term>) -> Term {
        Term::list_with_tail(items, Term::Nil)
    }
    pub fn list_with_tail(items: Vec<Term>, tail: Term) -> Term {
        let mut acc = tail;
        for t in items.into_iter().rev() {
            acc = Term::cons(t, acc);
        }
        acc
    }
    pub fn string(s: &str) -> Term {
        Term::list(s.chars().map(|c| Term::Int(c as i64)).collect())
    }
    pub fn binary(bytes: Vec<u8>) -> Term {
        Term::Bin(Arc::new(Bitstr::from_bytes(bytes)))
    }
    pub fn map(entries: Vec<(Term, Term)>) -> Term {
        let mut m = TermMap::new();
        for (k, v) in entries {
            m.insert(MapKey(k), v);
        }
        Term::Map(Arc::new(m))
    }
    pub fn from_big(b: BigInt) -> Term {
        match b.to_i64() {
            Some(i) => Term::Int(i),
            None => Term::Big(Arc::new(b)),
        }
    }
    pub fn as_atom(&self) -> Option<Atom> {
        match self {
            Term::Atom(a) => Some(*a),
            _ => None,
        }
    }
    pub fn is_atom(&self, a: Atom) -> bool {
        matches!(self, Term::Atom(b) if *b == a)
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Term::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_big(&self) -> Option<BigInt> {
        match self {
            Term::Int(i) => Some(BigInt::from(*i)),
            Term::Big(b) => Some((**b).clone()),
            _ => None,
        }
    }
    pub fn is_integer(&self) -> bool {
        matches!(self, Term::Int(_) | Term::Big(_))
    }
    pub fn is_number(&self) -> bool {
        matches!(self, Term::Int(_) | Term::Big(_) | Term::Float(_))
    }
    pub fn as_tuple(&self) -> Option<&[Term]> {
        match self {
            Term::Tuple(t) => Some(t),
            _ => None,
        }
    }
    pub fn as_pid(&self) -> Option<Pid> {
        match self {
            Term::Pid(p) => Some(*p),
            _ => None,
        }
    }
    pub fn is_list(&self) -> bool {
        matches!(self, Term::Nil | Term::Cons(_))
    }
    /// The elements of a proper list, or `None`.
    pub fn list_to_vec(&self) -> Option<Vec<Term>> {
        let mut out = Vec::new();
        let mut cur = self;
        loop {
            match cur {
                Term::Nil => return Some(out),
                Term::Cons(c) => {
                    out.push(c.head.clone());
                    cur = &c.tail;
                }
                _ => return None,
            }
        }
    }
    /// Iterates a list's elements; the final tail is not yielded.
    pub fn list_iter(&self) -> ListIter<'_> {
        ListIter { cur: self }
    }
    pub fn list_len(&self) -> Option<usize> {
        let mut n = 0;
        let mut cur = self;
        loop {
            match cur {
                Term::Nil => return Some(n),
                Term::Cons(c) => {
                    n += 1;
                    cur = &c.tail;
                }
                _ => return None,
            }
        }
    }
    /// A proper list of integers as a String of chars (for `~s`, atoms, file names...).
    pub fn as_charlist(&self) -> Option<String> {
        let mut s = String::new();
        for t in self.list_iter() {
            match t {
                Term::Int(i) => s.push(char::from_u32(u32::try_from(*i).ok()?)?),
                _ => return None,
            }
        }
        self.list_len()?;
        Some(s)
    }
    /// A binary's bytes when it is a whole-byte binary.
    pub fn as_bytes(&self) -> Option<Vec<u8>> {
        match self {
            Term::Bin(b) if b.is_binary() => Some(b.to_bytes()),
            _ => None,
        }
    }
    /// A term with nothing to drop (no shared heap part).
    #[inline(always)]
    pub fn is_immediate(&self) -> bool {
        matches!(
            self,
            Term::Int(_) | Term::Atom(_) | Term::Nil | Term::Float(_) | Term::Pid(_) | Term::Ref(_)
        )
    }
    /// Store `v` in `slot`; overwriting an immediate calls no drop code.
    #[inline(always)]
    pub fn put(slot: &mut Term, v: Term) {
        if slot.is_immediate() {
            std::mem::forget(std::mem::replace(slot, v));
        } else {
            *slot = v;
        }
    }
    /// Store the small integer `v` in `slot`: the number alone when the slot
    /// holds an integer already (see [`Term::copy_into`] on why).
    #[inline(always)]
    pub fn put_int(slot: &mut Term, v: i64) {
        if let Term::Int(d) = slot {
            *d = v;
        } else {
            Term::put(slot, Term::Int(v));
        }
    }
    /// `*dst = src.clone()`. An integer over an integer copies the number
    /// alone: the loop moves fresh values all the time, and loading a whole
    /// `Term` just written field by field defeats store forwarding (a stall
    /// of a dozen cycles), which a whole-term copy would do.
    #[inline(always)]
    pub fn copy_into(dst: &mut Term, src: &Term) {
        match (dst, src) {
            (Term::Int(d), Term::Int(s)) => *d = *s,
            (dst, Term::Int(s)) => Term::put(dst, Term::Int(*s)),
            (dst, Term::Atom(a)) => Term::put(dst, Term::Atom(*a)),
            (dst, Term::Nil) => Term::put(dst, Term::Nil),
            (dst, other) => Term::put(dst, other.clone_shared()),
        }
    }
    /// Move `src` into `dst`, leaving `[]` behind (immediates, which hold
    /// nothing, are copied as in [`Term::copy_into`]).
    #[inline(always)]
    pub fn move_into(dst: &mut Term, src: &mut Term) {
        match (dst, src) {
            (Term::Int(d), Term::Int(s)) => *d = *s,
            (dst, Term::Int(s)) => Term::put(dst, Term::Int(*s)),
            (dst, Term::Atom(a)) => Term::put(dst, Term::Atom(*a)),
            (dst, Term::Nil) => Term::put(dst, Term::Nil),
            (dst, other) => Term::put(dst, std::mem::replace(other, Term::Nil)),
        }
    }
    pub fn is_truthy(&self) -> bool {
        self.is_atom(Atom::TRUE)
    }

    fn type_rank(&self) -> u8 {
        match self {
            Term::Int(_) | Term::Big(_) | Term::Float(_) => 0,
            Term::Atom(_) => 1,
            Term::Ref(_) => 2,
            Term::Fun(_) => 3,
            Term::Pid(_) => 5,
            Term::Tuple(_) => 6,
            Term::Map(_) => 7,
            Term::Nil => 8,
            Term::Cons(_) => 9,
            Term::Bin(_) => 10,
        }
    }
}

pub struct ListIter<'a> {
    cur: &'a Term,
}
impl<'a> Iterator for ListIter<'a> {
    type Item = &'a Term;
    fn next(&mut self) -> Option<&'a Term> {
        match self.cur {
            Term::Cons(c) => {
                self.cur = &c.tail;
                Some(&c.head)
            }
            _ => None,
        }
    }
}

/// `=:=`
#[inline]
pub fn exact_eq(a: &Term, b: &Term) -> bool {
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => x == y,
        (Term::Atom(x), Term::Atom(y)) => x == y,
        _ => exact_eq_slow(a, b),
    }
}

#[inline(never)]
fn exact_eq_slow(a: &Term, b: &Term) -> bool {
    match (a, b) {
        (Term::Float(x), Term::Float(y)) => x == y,
        (Term::Int(_) | Term::Big(_) | Term::Float(_), _) if a.type_rank() == 0 => {
            matches!((a, b), (Term::Big(x), Term::Big(y)) if x == y)
        }
        _ => compare(a, b, true) == Ordering::Equal,
    }
}

/// `==`
pub fn loose_eq(a: &Term, b: &Term) -> bool {
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => x == y,
        (Term::Atom(x), Term::Atom(y)) => x == y,
        _ => compare(a, b, false) == Ordering::Equal,
    }
}

/// Term order. With `exact`, an integer and a float of equal value differ
/// (the integer first), as map keys and `=:=` require.
pub fn compare(a: &Term, b: &Term, exact: bool) -> Ordering {
    if let (Term::Int(x), Term::Int(y)) = (a, b) {
        return x.cmp(y);
    }
    let mut a = a;
    let mut b = b;
    loop {
        let (ra, rb) = (a.type_rank(), b.type_rank());
        if ra != rb {
            return ra.cmp(&rb);
        }
        match (a, b) {
            (Term::Cons(x), Term::Cons(y)) => {
                let o = compare(&x.head, &y.head, exact);
                if o != Ordering::Equal {
                    return o;
                }
                a = &x.tail;
                b = &y.tail;
                continue;
            }
            _ => return compare_same_rank(a, b, exact),
        }
    }
}

fn compare_same_rank(a: &Term, b: &Term, exact: bool) -> Ordering {
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => x.cmp(y),
        (Term::Atom(x), Term::Atom(y)) => x.cmp_names(*y),
        (Term::Ref(x), Term::Ref(y)) => x.cmp(y),
        (Term::Pid(x), Term::Pid(y)) => x.number().cmp(&y.number()),
        (Term::Nil, Term::Nil) => Ordering::Equal,
        (Term::Tuple(x), Term::Tuple(y)) => x.len().cmp(&y.len()).then_with(|| {
            for (p, q) in x.iter().zip(y.iter()) {
                let o = compare(p, q, exact);
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        }),
        (Term::Map(x), Term::Map(y)) => x.len().cmp(&y.len()).then_with(|| {
            for ((k1, _), (k2, _)) in x.iter().zip(y.iter()) {
                let o = compare(&k1.0, &k2.0, true);
                if o != Ordering::Equal {
                    return o;
                }
            }
            for ((_, v1), (_, v2)) in x.iter().zip(y.iter()) {
                let o = compare(v1, v2, exact);
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        }),
        (Term::Bin(x), Term::Bin(y)) => {
            let (bx, by) = (x.to_bytes(), y.to_bytes());
            bx.cmp(&by).then(x.len.cmp(&y.len))
        }
        (Term::Fun(x), Term::Fun(y)) => compare_funs(x, y, exact),
        _ => compare_numbers(a, b, exact),
    }
}

fn compare_funs(x: &Fun, y: &Fun, exact: bool) -> Ordering {
    fn key(f: &Fun) -> (u8, Atom, u32, u32) {
        match f {
            Fun::Closure {
                module,
                index,
                arity,
                ..
            } => (0, *module, *index, *arity),
            Fun::Local {
                module,
                function,
                arity,
                ..
            } => (1, *module, *function, *arity),
            Fun::Export {
                module,
                name,
                arity,
            } => (2, *module, name.0, *arity),
        }
    }
    let (a, b) = (key(x), key(y));
    let o =
        a.0.cmp(&b.0)
            .then(a.1.cmp_names(b.1))
            .then(a.2.cmp(&b.2))
            .then(a.3.cmp(&b.3));
    if o != Ordering::Equal {
        return o;
    }
    if let (Fun::Closure { env: e1, .. }, Fun::Closure { env: e2, .. }) = (x, y) {
        for (p, q) in e1.iter().zip(e2.iter()) {
            let o = compare(p, q, exact);
            if o != Ordering::Equal {
                return o;
            }
        }
    }
    Ordering::Equal
}

fn compare_numbers(a: &Term, b: &Term, exact: bool) -> Ordering {
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => x.cmp(y),
        (Term::Float(x), Term::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Term::Float(x), _) => {
            let o = cmp_float_int(*x, b);
            if o == Ordering::Equal && exact {
                Ordering::Greater
            } else {
                o
            }
        }
        (_, Term::Float(y)) => {
            let o = cmp_float_int(*y, a).reverse();
            if o == Ordering::Equal && exact {
                Ordering::Less
            } else {
                o
            }
        }
        _ => {
            let (x, y) = (
                a.as_big().unwrap_or_default(),
                b.as_big().unwrap_or_default(),
            );
            x.cmp(&y)
        }
    }
}

fn cmp_float_int(f: f64, i: &Term) -> Ordering {
    match i {
        Term::Int(n) => {
            let nf = *n as f64;
            if nf == f && (n.unsigned_abs() < (1u64 << 53)) {
                Ordering::Equal
            } else if nf != f {
                f.partial_cmp(&nf).unwrap_or(Ordering::Equal)
            } else {
                // Large integer: compare exactly through BigInt.
                cmp_float_big(f, &BigInt::from(*n))
            }
        }
        Term::Big(b) => cmp_float_big(f, b),
        _ => Ordering::Equal,
    }
}

fn cmp_float_big(f: f64, b: &BigInt) -> Ordering {
    let bf = b.to_f64().unwrap_or(f64::INFINITY);
    if f != bf {
        return f.partial_cmp(&bf).unwrap_or(Ordering::Equal);
    }
    if f.fract() != 0.0 || f.is_infinite() {
        return f.partial_cmp(&bf).unwrap_or(Ordering::Equal);
    }
    let fb = num_bigint::BigInt::from(f as i128);
    if f.abs() < 1e38 {
        fb.cmp(b)
    } else {
        // Very large: exact conversion through the float's bits.
        float_to_big(f).cmp(b)
    }
}

/// The exact integer value of an integral float.
pub fn float_to_big(f: f64) -> BigInt {
    if f.abs() < 9.0e18 {
        return BigInt::from(f as i64);
    }
    let bits = f.to_bits();
    let sign = if bits >> 63 == 1 { -1 } else { 1 };
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1075;
    let mant = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
    let mut v = BigInt::from(mant);
    if exp > 0 {
        v <<= exp as usize;
    } else {
        v >>= (-exp) as usize;
    }
    if v.is_zero() { v } else { v * sign }
}

impl PartialEq for Term {
    fn eq(&self, other: &Self) -> bool {
        exact_eq(self, other)
    }
}

const _: () = assert!(std::mem::size_of::<Term>() == 16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_across_types() {
        let ts = [
            Term::Int(1),
            Term::atom("a"),
            Term::Ref(1),
            Term::Pid(Pid(0)),
            Term::tuple(vec![]),
            Term::map(vec![]),
            Term::Nil,
            Term::list(vec![Term::Int(1)]),
            Term::binary(vec![]),
        ];
        for w in ts.windows(2) {
            assert_eq!(compare(&w[0], &w[1], false), Ordering::Less, "{:?}", w);
        }
    }

    #[test]
    fn numbers_compare_across_kinds() {
        assert!(loose_eq(&Term::Int(1), &Term::Float(1.0)));
        assert!(!exact_eq(&Term::Int(1), &Term::Float(1.0)));
        let big = Term::from_big(BigInt::from(1u8) << 70);
        assert_eq!(compare(&Term::Int(5), &big, false), Ordering::Less);
        assert_eq!(compare(&Term::Float(1e30), &big, false), Ordering::Greater);
    }

    #[test]
    fn long_list_drops_without_overflow() {
        let mut t = Term::Nil;
        for i in 0..2_000_000 {
            t = Term::cons(Term::Int(i), t);
        }
        assert_eq!(t.list_len(), Some(2_000_000));
        drop(t);
    }
}
