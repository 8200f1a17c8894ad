//! Abstract values: small sets of constant-shaped terms, widened to "any".
//!
//! A [`Val`] is either [`Val::Any`] or a finite set of [`Term`]s (the empty
//! set is "no value yet": bottom). Terms may hold [`Term::Any`] inside tuples
//! and lists, so `{user, _}` keeps its shape. [`Term::Param`] stands for a
//! parameter of the function the value was computed in; [`resolve`] replaces
//! it with a context's values.

use std::fmt::Write as _;
use std::sync::{Arc, LazyLock};

use racewit_syntax::ir::{CallSiteId, MFA, Name};

/// Deepest tuple/list nesting kept; deeper parts become [`Term::Any`].
const MAX_DEPTH: usize = 2;
/// Longest list kept element by element.
const MAX_LIST: usize = 8;

/// A call site in the whole program: module (index in sorted module order) and site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    pub module: u32,
    pub site: CallSiteId,
}

/// An analysis unit: a named function or a `fun` expression (index in [`crate::units::Units`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitId(pub u32);

impl UnitId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where an unknown value comes from: its identity. Two uses of the same
/// identity may be the same value (an alias); values of different
/// identities are taken to differ, as Dialyzer's race analysis does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OpaqueId {
    /// Parameter `i` of a named function called from outside the program.
    Param { function: u32, index: u32 },
    /// A variable bound to an unknown value (a message, a fun's parameter...).
    Var { function: u32, var: u32 },
    /// The result of an unknown call or computation.
    Expr { function: u32, expr: u32 },
    /// Parameter `index` (counted over the function's funs) of a fun called
    /// from an unknown place.
    FunParam { function: u32, index: u32 },
}

/// An unknown value with an identity; `derived` when converted from it
/// (`list_to_atom("w" ++ integer_to_list(N))` is derived from `N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Opaque {
    pub id: OpaqueId,
    pub derived: bool,
    /// A projection of it: element positions, 1-based, in base 16 (0: itself).
    pub elem: u16,
    /// A parameter whose callers pass more values than are kept (widened):
    /// besides its identity it may be any constant they pass, so it may
    /// equal every constant (adding a caller never makes it say less).
    pub wide: bool,
}

impl Opaque {
    pub fn new(id: OpaqueId) -> Self {
        Opaque {
            id,
            derived: false,
            elem: 0,
            wide: false,
        }
    }

    /// The identity of a widened parameter.
    pub fn wide(id: OpaqueId) -> Self {
        Opaque {
            wide: true,
            ..Opaque::new(id)
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Term {
    /// Any term at all (a widened set, or a wildcard such as `registered()`'s names).
    Any,
    /// An unknown value with an identity.
    Opaque(Opaque),
    /// A conversion of a constant (`list_to_atom("w" ++ integer_to_list(3))`
    /// is `Conv(3)`): equal to conversions of the same constant only.
    Conv(Box<Term>),
    /// Every value at once (the names `registered()` returns, `'_'` in a
    /// match pattern): equal to anything.
    Wild,
    Atom(Name),
    Int(i64),
    /// A string literal (a list of characters).
    Str(Name),
    /// A proper list of known length (`[]` is the empty list).
    List(Vec<Term>),
    Tuple(Vec<Term>),
    /// The `i`-th parameter of the function the value belongs to (the
    /// parameters of funs inside it are numbered after its own).
    Param(u32),
    /// Element `index` (0-based) of parameter `param`, when that is a tuple.
    ParamElem(u32, u32),
    /// The table id returned by the `ets:new` at this site (an unnamed table).
    Table(Origin),
    /// An object read from a table whose key, at 1-based position `.0`,
    /// is `.1` (what `ets:lookup(T, K)` returns the elements of): its size
    /// and other elements are not known.
    Keyed(u32, Box<Term>),
    /// The pid returned by the spawn at this site.
    Spawned(Origin),
    /// `self()`: each process sees its own, so two processes never share it.
    SelfPid,
    /// A value derived from `self()` (`pid_to_list(self())`, an atom built
    /// from it): unique to the process, like [`Term::SelfPid`].
    Unique,
    /// Derived from parameter `i` by a conversion: [`Term::Unique`] when the
    /// parameter is `self()`-derived, else any value.
    Derived(u32),
    /// A `fun` expression's closure.
    Fun(UnitId),
    /// `fun M:F/A` (or `fun F/A`); boxed, as it is rare and would make
    /// every term 56 bytes instead of 32.
    FunRef(Box<MFA>),
    /// A map of known keys: keys and values alternate, sorted by key
    /// ([`Term::map`] builds one).
    Map(Vec<Term>),
}

// Values are sets of terms kept for every call site and result of the
// program: a term is an atom's or a vector's 24 bytes and a tag, anything
// larger is boxed.
const _: () = assert!(std::mem::size_of::<Term>() == 32);

impl Term {
    /// The map of these key-value pairs (a later pair for the same key wins).
    pub fn map(pairs: Vec<(Term, Term)>) -> Term {
        let mut pairs = pairs;
        // Stable: of equal keys, the last one written is kept.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<Term> = Vec::with_capacity(pairs.len() * 2);
        for (k, v) in pairs {
            if out.len() >= 2 && out[out.len() - 2] == k {
                let n = out.len();
                out[n - 1] = v;
            } else {
                out.push(k);
                out.push(v);
            }
        }
        Term::Map(out)
    }

    /// The key-value pairs of a [`Term::Map`].
    pub fn map_pairs(ts: &[Term]) -> impl Iterator<Item = (&Term, &Term)> {
        ts.chunks_exact(2).map(|c| (&c[0], &c[1]))
    }

    fn has_param(&self) -> bool {
        match self {
            Term::Param(_) | Term::Derived(_) | Term::ParamElem(..) => true,
            Term::List(ts) | Term::Tuple(ts) | Term::Map(ts) => ts.iter().any(Term::has_param),
            Term::Keyed(_, k) => k.has_param(),
            _ => false,
        }
    }

    fn truncate(self, depth: usize) -> Term {
        if depth >= MAX_DEPTH {
            return match self {
                Term::List(_) | Term::Tuple(_) | Term::Map(_) => Term::Any,
                t => t,
            };
        }
        match self {
            Term::List(ts) if ts.len() > MAX_LIST => Term::Any,
            Term::List(ts) => Term::List(ts.into_iter().map(|t| t.truncate(depth + 1)).collect()),
            Term::Tuple(ts) => Term::Tuple(ts.into_iter().map(|t| t.truncate(depth + 1)).collect()),
            Term::Map(ts) if ts.len() > 2 * MAX_LIST => Term::Any,
            Term::Map(ts) => Term::Map(ts.into_iter().map(|t| t.truncate(depth + 1)).collect()),
            Term::Keyed(p, k) => match k.truncate(depth + 1) {
                Term::Any => Term::Any,
                k => Term::Keyed(p, Box::new(k)),
            },
            t => t,
        }
    }

    /// Erlang-like text of the term; `origin` names table and pid origins.
    pub fn render(&self, out: &mut String, origin: &dyn Fn(Origin) -> String) {
        match self {
            Term::Any
            | Term::Param(_)
            | Term::ParamElem(..)
            | Term::Derived(_)
            | Term::Wild
            | Term::Conv(_)
            | Term::Keyed(..)
            | Term::Opaque(_) => out.push('_'),
            Term::Atom(a) => out.push_str(&quote_atom(a)),
            Term::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Term::Str(s) => {
                let _ = write!(out, "{s:?}");
            }
            Term::List(ts) | Term::Tuple(ts) => {
                let (open, close) = if matches!(self, Term::List(_)) {
                    ('[', ']')
                } else {
                    ('{', '}')
                };
                out.push(open);
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    t.render(out, origin);
                }
                out.push(close);
            }
            Term::Table(o) => {
                let _ = write!(out, "#tid<{}>", origin(*o));
            }
            Term::Spawned(_) | Term::SelfPid => out.push_str("pid()"),
            Term::Unique => out.push_str("self_derived()"),
            Term::Fun(_) => out.push_str("fun()"),
            Term::Map(ts) => {
                out.push_str("#{");
                for (i, (k, v)) in Term::map_pairs(ts).enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.render(out, origin);
                    out.push_str(" => ");
                    v.render(out, origin);
                }
                out.push('}');
            }
            Term::FunRef(m) => {
                let _ = write!(out, "fun {m}");
            }
        }
    }
}

/// The single term of [`Val::Any`] when iterated.
static ANY_TERM: Term = Term::Any;

/// Quote an atom the way Erlang prints it.
pub fn quote_atom(a: &str) -> String {
    let mut chars = a.chars();
    let plain = match chars.next() {
        Some(c) if c.is_ascii_lowercase() => a
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@'),
        _ => false,
    };
    const RESERVED: &[&str] = &[
        "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
        "catch", "cond", "div", "end", "fun", "if", "let", "not", "of", "or", "orelse", "receive",
        "rem", "try", "when", "xor", "maybe", "else",
    ];
    if plain && !RESERVED.contains(&a) {
        a.to_string()
    } else {
        let mut s = String::from("'");
        for c in a.chars() {
            match c {
                '\'' => s.push_str("\\'"),
                '\\' => s.push_str("\\\\"),
                c => s.push(c),
            }
        }
        s.push('\'');
        s
    }
}

/// Two terms may denote the same value.
pub fn unify(a: &Term, b: &Term) -> bool {
    unify_in(a, b, true)
}

/// [`unify`], taking a widened parameter for its identity only (for
/// tables: a table parameter fed many names is not every table).
pub fn unify_narrow(a: &Term, b: &Term) -> bool {
    unify_in(a, b, false)
}

fn unify_in(a: &Term, b: &Term, wide: bool) -> bool {
    match (a, b) {
        (Term::Wild, _) | (_, Term::Wild) => true,
        // Values unique to a process never equal those of another process.
        (Term::SelfPid | Term::Unique, Term::SelfPid | Term::Unique) => false,
        (Term::Any | Term::Param(_) | Term::ParamElem(..) | Term::Derived(_), _)
        | (_, Term::Any | Term::Param(_) | Term::ParamElem(..) | Term::Derived(_)) => true,
        (Term::Opaque(x), Term::Opaque(y)) => x == y,
        // A widened parameter may be any constant its callers pass.
        (Term::Opaque(w), t) | (t, Term::Opaque(w)) if wide && w.wide => constant_like(t),
        (Term::Conv(x), Term::Conv(y)) => x == y,
        (Term::Conv(_), _) | (_, Term::Conv(_)) => false,
        (Term::Opaque(_), _) | (_, Term::Opaque(_)) => false,
        (Term::Tuple(x), Term::Tuple(y))
        | (Term::List(x), Term::List(y))
        | (Term::Map(x), Term::Map(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| unify_in(p, q, wide))
        }
        (Term::Keyed(p, k), Term::Keyed(q, j)) => p != q || unify_in(k, j, wide),
        (Term::Keyed(p, k), Term::Tuple(ts)) | (Term::Tuple(ts), Term::Keyed(p, k)) => (*p
            as usize)
            .checked_sub(1)
            .and_then(|i| ts.get(i))
            .is_some_and(|e| unify_in(e, k, wide)),
        (Term::Str(s), Term::List(l)) | (Term::List(l), Term::Str(s)) => {
            s.chars().count() == l.len()
        }
        (Term::Str(s), Term::Str(t)) => s == t,
        (Term::SelfPid, Term::Spawned(_)) | (Term::Spawned(_), Term::SelfPid) => true,
        _ => a == b,
    }
}

/// A term a caller may pass as a constant (not an unknown value of another
/// identity, nor one unique to a process).
pub fn constant_like(t: &Term) -> bool {
    !matches!(t, Term::Opaque(_) | Term::SelfPid | Term::Unique)
}

/// The more specific of two unifiable terms (used to print a shared item).
fn meet_term(a: &Term, b: &Term) -> Term {
    match (a, b) {
        (Term::Any | Term::Param(_) | Term::ParamElem(..), t)
        | (t, Term::Any | Term::Param(_) | Term::ParamElem(..)) => t.clone(),
        (Term::Tuple(x), Term::Tuple(y)) => {
            Term::Tuple(x.iter().zip(y).map(|(p, q)| meet_term(p, q)).collect())
        }
        (Term::List(x), Term::List(y)) => {
            Term::List(x.iter().zip(y).map(|(p, q)| meet_term(p, q)).collect())
        }
        (Term::Keyed(..), t @ Term::Tuple(_)) => t.clone(),
        _ => a.clone(),
    }
}

/// `general` stands for every value `specific` may be: equal, or `Any`
/// where they differ (a hole of a product that outgrew the limit).
fn covers(general: &Term, specific: &Term) -> bool {
    match (general, specific) {
        (Term::Any, _) => true,
        (Term::Tuple(g), Term::Tuple(s)) | (Term::List(g), Term::List(s)) => {
            g.len() == s.len() && g.iter().zip(s.iter()).all(|(x, y)| covers(x, y))
        }
        (g, s) => g == s,
    }
}

/// `Any` inside a tuple or list.
fn has_hole(t: &Term) -> bool {
    match t {
        Term::Tuple(ts) | Term::List(ts) => {
            ts.iter().any(|x| matches!(x, Term::Any) || has_hole(x))
        }
        _ => false,
    }
}

/// The terms of `set` no other term of it covers ([`covers`]).
fn without_covered(set: &TermSet) -> TermSet {
    let kept: Vec<Term> = set
        .iter()
        .filter(|t| !set.iter().any(|g| g != *t && covers(g, t)))
        .cloned()
        .collect();
    TermSet::from_vec(kept)
}

/// A set of terms: sorted, without duplicates, shared (cloning is cheap).
/// Sets stay small (at most the atom limit), so one flat slice beats a tree.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TermSet(Arc<[Term]>);

/// The empty set, allocated once.
static EMPTY: LazyLock<TermSet> = LazyLock::new(|| TermSet(Arc::from(Vec::new())));

/// Parameters and small integers below this are the commonest values of
/// all (every call passing a parameter on holds one): their singleton
/// sets are allocated once and shared.
const COMMON: usize = 32;

/// `{Param(i)}` for `i < COMMON`, then `{Int(i)}` for `i < COMMON`.
static SINGLETONS: LazyLock<Vec<TermSet>> = LazyLock::new(|| {
    (0..COMMON)
        .map(|i| Term::Param(i as u32))
        .chain((0..COMMON).map(|i| Term::Int(i as i64)))
        .map(|t| TermSet(Arc::from([t])))
        .collect()
});

/// The shared singleton set of `t`, if it is one of [`SINGLETONS`].
fn common_singleton(t: &Term) -> Option<TermSet> {
    let i = match *t {
        Term::Param(p) if (p as usize) < COMMON => p as usize,
        Term::Int(n) if (0..COMMON as i64).contains(&n) => COMMON + n as usize,
        _ => return None,
    };
    Some(SINGLETONS[i].clone())
}

impl TermSet {
    pub fn empty() -> TermSet {
        EMPTY.clone()
    }

    /// The set of `terms` (sorted and deduplicated here).
    pub fn from_vec(mut terms: Vec<Term>) -> TermSet {
        if terms.is_empty() {
            return TermSet::empty();
        }
        terms.sort_unstable();
        terms.dedup();
        TermSet(Arc::from(terms))
    }

    pub fn contains(&self, t: &Term) -> bool {
        self.0.binary_search(t).is_ok()
    }

    /// Every term of `other` is in `self`.
    pub fn includes(&self, other: &TermSet) -> bool {
        if other.len() > self.len() {
            return false;
        }
        let searches = other.len() * (usize::BITS - self.len().leading_zeros()) as usize;
        if searches <= self.len() + other.len() {
            return other.iter().all(|t| self.contains(t));
        }
        // Both sorted: one pass over `self` costs fewer comparisons.
        let mut rest = self.iter();
        'next: for t in other.iter() {
            for s in rest.by_ref() {
                match s.cmp(t) {
                    std::cmp::Ordering::Less => continue,
                    std::cmp::Ordering::Equal => continue 'next,
                    std::cmp::Ordering::Greater => return false,
                }
            }
            return false;
        }
        true
    }

    /// The union of two sets.
    pub fn union(&self, other: &TermSet) -> TermSet {
        let (a, b) = (&self.0, &other.0);
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => {
                    out.push(a[i].clone());
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push(b[j].clone());
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    out.push(a[i].clone());
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend(a[i..].iter().cloned());
        out.extend(b[j..].iter().cloned());
        TermSet(Arc::from(out))
    }
}

impl std::ops::Deref for TermSet {
    type Target = [Term];

    fn deref(&self) -> &[Term] {
        &self.0
    }
}

/// An abstract value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Val {
    Any,
    /// Shared: cloning a value is cheap.
    Set(TermSet),
}

impl Default for Val {
    fn default() -> Self {
        Val::bottom()
    }
}

impl Val {
    pub fn bottom() -> Val {
        Val::Set(TermSet::empty())
    }

    pub fn one(t: Term) -> Val {
        if t == Term::Any {
            return Val::Any;
        }
        if let Some(s) = common_singleton(&t) {
            return Val::Set(s);
        }
        Val::Set(TermSet(Arc::from([t.truncate(0)])))
    }

    pub fn atom(a: &str) -> Val {
        Val::one(Term::Atom(Name::new(a)))
    }

    pub fn is_bottom(&self) -> bool {
        matches!(self, Val::Set(s) if s.is_empty())
    }

    pub fn is_any(&self) -> bool {
        matches!(self, Val::Any)
    }

    /// The terms, with [`Val::Any`] as the single term `Any`.
    pub fn terms(&self) -> Vec<Term> {
        match self {
            Val::Any => vec![Term::Any],
            Val::Set(s) => s.to_vec(),
        }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Term> {
        match self {
            Val::Any => std::slice::from_ref(&ANY_TERM).iter(),
            Val::Set(s) => s.0.iter(),
        }
    }

    pub fn from_terms(terms: impl IntoIterator<Item = Term>, limit: usize) -> Val {
        let mut set = Vec::new();
        for t in terms {
            if t == Term::Any {
                return Val::Any;
            }
            set.push(t.truncate(0));
            if set.len() > limit {
                // Duplicates may hide below the limit: count distinct terms.
                set.sort_unstable();
                set.dedup();
                if set.len() > limit {
                    return Val::Any;
                }
            }
        }
        Val::Set(TermSet::from_vec(set))
    }

    /// Least upper bound; returns whether `self` grew.
    pub fn join_in(&mut self, other: &Val, limit: usize) -> bool {
        match (&mut *self, other) {
            (Val::Any, _) => false,
            (_, Val::Any) => {
                *self = Val::Any;
                true
            }
            (Val::Set(a), Val::Set(b)) => {
                if Arc::ptr_eq(&a.0, &b.0) || a.includes(b) {
                    return false;
                }
                if a.is_empty() {
                    *self = if b.len() > limit {
                        Val::Any
                    } else {
                        Val::Set(b.clone())
                    };
                    return true;
                }
                let u = a.union(b);
                if !u.iter().any(has_hole) {
                    *self = if u.len() > limit {
                        Val::Any
                    } else {
                        Val::Set(u)
                    };
                    return true;
                }
                // Values joined over rounds: a product an earlier round
                // spelled out, a later one with a hole (`{k, Any}`) where
                // it outgrew the limit. The terms a hole covers add
                // nothing, and would push the set past the limit.
                let kept = without_covered(&u);
                if kept.len() > limit {
                    *self = Val::Any;
                    return true;
                }
                let grew = kept != *a;
                *self = Val::Set(kept);
                grew
            }
        }
    }

    pub fn join(mut self, other: &Val, limit: usize) -> Val {
        self.join_in(other, limit);
        self
    }

    /// The two values may be equal (share a concrete term). A value known
    /// not at all ([`Val::Any`]) has no identity to share, so it equals
    /// nothing but [`Term::Wild`] (as in Dialyzer, which needs the same
    /// constant or the same variable on both sides).
    pub fn may_equal(&self, other: &Val) -> bool {
        self.may_equal_by(other, unify)
    }

    /// [`Val::may_equal`] with [`unify_narrow`].
    pub fn may_equal_narrow(&self, other: &Val) -> bool {
        self.may_equal_by(other, unify_narrow)
    }

    fn may_equal_by(&self, other: &Val, unify: fn(&Term, &Term) -> bool) -> bool {
        match (self, other) {
            (Val::Any, Val::Set(s)) | (Val::Set(s), Val::Any) => s.contains(&Term::Wild),
            (Val::Any, Val::Any) => false,
            (Val::Set(a), Val::Set(b)) => a.iter().any(|x| b.iter().any(|y| unify(x, y))),
        }
    }

    /// The terms both may be (most specific form), for reports.
    pub fn meet(&self, other: &Val, limit: usize) -> Val {
        match (self, other) {
            (Val::Any, v) | (v, Val::Any) => v.clone(),
            (Val::Set(a), Val::Set(b)) => {
                let mut out = Vec::new();
                for x in a.iter() {
                    for y in b.iter() {
                        if unify(x, y) {
                            out.push(meet_term(x, y));
                        }
                    }
                }
                Val::from_terms(out, limit)
            }
        }
    }

    pub fn has_param(&self) -> bool {
        matches!(self, Val::Set(s) if s.iter().any(Term::has_param))
    }

    /// A conversion of this value: unique if it holds `self()`, derived
    /// from a parameter if it holds one, else any.
    pub fn derive(&self) -> Val {
        if self.has_self() {
            return Val::one(Term::Unique);
        }
        fn param(t: &Term) -> Option<u32> {
            match t {
                Term::Param(i) | Term::Derived(i) | Term::ParamElem(i, _) => Some(*i),
                Term::List(ts) | Term::Tuple(ts) | Term::Map(ts) => ts.iter().find_map(param),
                _ => None,
            }
        }
        if let Some(i) = self.iter().find_map(param) {
            return Val::one(Term::Derived(i));
        }
        let mut out = Vec::new();
        for t in self.iter() {
            match t {
                Term::Opaque(o) => {
                    out.push(Term::Opaque(Opaque {
                        derived: true,
                        ..*o
                    }));
                }
                Term::Any | Term::Wild => return Val::Any,
                c => {
                    out.push(Term::Conv(Box::new(c.clone())));
                }
            }
        }
        if out.is_empty() {
            Val::Any
        } else {
            Val::Set(TermSet::from_vec(out))
        }
    }

    /// Says more than "a conversion of some constant".
    pub fn informative(&self) -> bool {
        !self.is_any() && !self.is_bottom() && self.iter().any(|t| !matches!(t, Term::Conv(_)))
    }

    /// The derivation of a value computed from several: the most telling one.
    pub fn derive_all(vals: &[&Val], limit: usize) -> Val {
        let ds: Vec<Val> = vals.iter().map(|v| v.derive()).collect();
        if let Some(d) = ds.iter().find(|d| d.has_self()) {
            return d.clone();
        }
        if let Some(d) = ds.iter().find(|d| d.informative()) {
            return d.clone();
        }
        if ds.iter().any(Val::is_any) || ds.is_empty() {
            return Val::Any;
        }
        let parts: Vec<Term> = vals.iter().flat_map(|v| v.terms()).collect();
        Val::from_terms([Term::Conv(Box::new(Term::Tuple(parts)))], limit)
    }

    /// Some term holds `self()` or a value derived from it.
    pub fn has_self(&self) -> bool {
        fn walk(t: &Term) -> bool {
            match t {
                Term::SelfPid | Term::Unique => true,
                Term::List(ts) | Term::Tuple(ts) | Term::Map(ts) => ts.iter().any(walk),
                _ => false,
            }
        }
        self.iter().any(walk)
    }

    /// Atom names if the value is a set of atoms only.
    pub fn atoms(&self) -> Option<Vec<Name>> {
        match self {
            Val::Any => None,
            Val::Set(s) => s
                .iter()
                .map(|t| match t {
                    Term::Atom(a) => Some(a.clone()),
                    _ => None,
                })
                .collect(),
        }
    }

    /// Render as `{a, b}` or `any`.
    pub fn render_set(&self, origin: &dyn Fn(Origin) -> String) -> String {
        match self {
            Val::Any => "any".to_string(),
            Val::Set(s) => {
                let items: Vec<String> = s.iter().map(|t| render_term(t, origin)).collect();
                if items.iter().any(|i| i == "_") {
                    return "any".to_string();
                }
                format!("{{{}}}", items.join(", "))
            }
        }
    }

    /// Render as an argument: the term itself if single, `A | B` if few, else `fallback`.
    pub fn render_arg(&self, fallback: &str, origin: &dyn Fn(Origin) -> String) -> String {
        match self {
            Val::Set(s) if !s.is_empty() && s.len() <= 3 => {
                let items: Vec<String> = s.iter().map(|t| render_term(t, origin)).collect();
                if items.iter().any(|i| i == "_") {
                    return fallback.to_string();
                }
                items.join(" | ")
            }
            _ => fallback.to_string(),
        }
    }
}

pub fn render_term(t: &Term, origin: &dyn Fn(Origin) -> String) -> String {
    let mut s = String::new();
    t.render(&mut s, origin);
    s
}

/// The `i`-th (0-based) element of the tuple values in `v`; `Any` for non-tuples
/// that could still be tuples.
pub fn element(v: &Val, i: usize, limit: usize) -> Val {
    let mut out = Vec::new();
    for t in v.iter() {
        match t {
            Term::Tuple(ts) => {
                if let Some(e) = ts.get(i) {
                    out.push(e.clone());
                }
            }
            Term::Param(p) => out.push(Term::ParamElem(*p, i as u32)),
            Term::Keyed(p, k) if *p as usize == i + 1 => out.push((**k).clone()),
            Term::Any
            | Term::ParamElem(..)
            | Term::Derived(_)
            | Term::Opaque(_)
            | Term::Keyed(..) => out.push(Term::Any),
            _ => {}
        }
    }
    Val::from_terms(out, limit)
}

/// The elements of the list values in `v` (joined), `Any` when unknown.
pub fn list_elements(v: &Val, limit: usize) -> Val {
    let mut out = Vec::new();
    for t in v.iter() {
        match t {
            Term::List(ts) => out.extend(ts.iter().cloned()),
            Term::Str(s) => out.extend(s.chars().map(|c| Term::Int(c as i64))),
            _ => out.push(Term::Any),
        }
    }
    Val::from_terms(out, limit)
}

/// Build tuple (or list) values from element values: the product of the
/// element sets while it stays under `limit`, else `Any` in the wide positions.
pub fn product(elems: &[Val], limit: usize, make: fn(Vec<Term>) -> Term) -> Val {
    let choices: Vec<Choices<'_>> = elems.iter().map(Choices::Set).collect();
    product_of(&choices, limit, make)
}

/// The values one position of a product may take: a single known term, or a set.
enum Choices<'a> {
    One(&'a Term),
    Set(&'a Val),
    Owned(Val),
}

impl Choices<'_> {
    fn val(&self) -> Option<&Val> {
        match self {
            Choices::One(_) => None,
            Choices::Set(v) => Some(v),
            Choices::Owned(v) => Some(v),
        }
    }

    fn len(&self) -> usize {
        match self.val() {
            None | Some(Val::Any) => 1,
            Some(Val::Set(s)) => s.len(),
        }
    }

    fn iter(&self) -> std::slice::Iter<'_, Term> {
        match self {
            Choices::One(t) => std::slice::from_ref(*t).iter(),
            Choices::Set(v) => v.iter(),
            Choices::Owned(v) => v.iter(),
        }
    }
}

/// [`product`] over [`Choices`].
fn product_of(elems: &[Choices<'_>], limit: usize, make: fn(Vec<Term>) -> Term) -> Val {
    if elems.iter().any(|e| e.val().is_some_and(Val::is_bottom)) {
        return Val::bottom();
    }
    let mut size: usize = 1;
    let mut wide = vec![false; elems.len()];
    for (i, e) in elems.iter().enumerate() {
        let n = e.len();
        if size.saturating_mul(n) > limit {
            wide[i] = true;
        } else {
            size *= n;
        }
    }
    let mut acc: Vec<Vec<Term>> = vec![Vec::with_capacity(elems.len())];
    for (i, e) in elems.iter().enumerate() {
        if wide[i] {
            for a in &mut acc {
                a.push(Term::Any);
            }
            continue;
        }
        if e.len() == 1 {
            // One choice: extend every partial tuple in place.
            let t = e.iter().next().cloned().unwrap_or(Term::Any);
            for a in &mut acc {
                a.push(t.clone());
            }
            continue;
        }
        let mut next = Vec::with_capacity(acc.len() * e.len());
        for a in &acc {
            for t in e.iter() {
                let mut b = a.clone();
                b.push(t.clone());
                next.push(b);
            }
        }
        acc = next;
    }
    Val::from_terms(acc.into_iter().map(make), limit)
}

/// Replace [`Term::Param`]s by the context's values (missing ones are `Any`).
pub fn resolve(v: &Val, ctx: &[Val], limit: usize) -> Val {
    if !v.has_param() {
        return v.clone();
    }
    // The join of the parts, built at once: `Any` if a part is or if the
    // union outgrows `limit` (as joining them one by one would give).
    let mut parts = v.iter().map(|t| resolve_term(t, ctx, limit));
    let first = match parts.next() {
        None => return Val::bottom(),
        Some(Val::Any) => return Val::Any,
        Some(Val::Set(s)) => s,
    };
    let mut terms: Vec<Term> = Vec::new();
    for p in parts {
        match p {
            Val::Any => return Val::Any,
            Val::Set(s) => {
                if terms.is_empty() {
                    terms.extend(first.iter().cloned());
                }
                terms.extend(s.iter().cloned());
            }
        }
    }
    if terms.is_empty() {
        return if first.len() > limit {
            Val::Any
        } else {
            Val::Set(first)
        };
    }
    let set = TermSet::from_vec(terms);
    if set.len() > limit {
        Val::Any
    } else {
        Val::Set(set)
    }
}

fn resolve_term(t: &Term, ctx: &[Val], limit: usize) -> Val {
    match t {
        Term::Param(i) => ctx.get(*i as usize).cloned().unwrap_or(Val::Any),
        Term::ParamElem(p, i) => match ctx.get(*p as usize) {
            Some(v) => {
                let mut out = element(v, *i as usize, limit);
                // An element of an unknown argument has an identity of its own.
                for t in v.iter() {
                    if let Term::Opaque(o) = t
                        && o.elem < 0x0fff
                        && *i < 15
                    {
                        out = out.join(
                            &Val::one(Term::Opaque(Opaque {
                                elem: o.elem * 16 + *i as u16 + 1,
                                ..*o
                            })),
                            limit,
                        );
                    }
                }
                if out.is_any()
                    && v.iter()
                        .all(|t| matches!(t, Term::Opaque(_) | Term::Tuple(_)))
                {
                    // Drop the bare `Any` the opaque parts contributed.
                    let mut keep = Vec::new();
                    for t in v.iter() {
                        match t {
                            Term::Opaque(o) => keep.push(Term::Opaque(Opaque {
                                elem: o.elem.wrapping_mul(16).wrapping_add(*i as u16 + 1),
                                ..*o
                            })),
                            Term::Tuple(ts) => {
                                if let Some(e) = ts.get(*i as usize) {
                                    keep.push(e.clone());
                                }
                            }
                            _ => {}
                        }
                    }
                    out = Val::from_terms(keep, limit);
                }
                out
            }
            None => Val::Any,
        },
        Term::Derived(i) => match ctx.get(*i as usize) {
            Some(v) if v.has_self() => Val::one(Term::Unique),
            Some(v) => {
                let mut out = Vec::new();
                for t in v.iter() {
                    match t {
                        Term::Opaque(o) => out.push(Term::Opaque(Opaque {
                            derived: true,
                            ..*o
                        })),
                        Term::Param(j) | Term::Derived(j) => out.push(Term::Derived(*j)),
                        Term::Any | Term::ParamElem(..) => return Val::Any,
                        c => out.push(Term::Conv(Box::new(c.clone()))),
                    }
                }
                Val::from_terms(out, limit)
            }
            None => Val::Any,
        },
        Term::Keyed(p, k) if k.has_param() => {
            let ks = resolve_term(k, ctx, limit);
            match ks {
                Val::Any => Val::Any,
                Val::Set(s) => Val::from_terms(
                    s.iter().map(|k| match k {
                        Term::Any => Term::Any,
                        k => Term::Keyed(*p, Box::new(k.clone())),
                    }),
                    limit,
                ),
            }
        }
        Term::Tuple(ts) | Term::List(ts) | Term::Map(ts) if t.has_param() => {
            // Positions without parameters stay as they are (the product
            // truncates the whole term as resolving each would).
            let elems: Vec<Choices<'_>> = ts
                .iter()
                .map(|e| {
                    if e.has_param() {
                        Choices::Owned(resolve_term(e, ctx, limit))
                    } else {
                        Choices::One(e)
                    }
                })
                .collect();
            let make: fn(Vec<Term>) -> Term = match t {
                Term::Tuple(_) => Term::Tuple,
                Term::Map(_) => |ts| {
                    let mut it = ts.into_iter();
                    let mut pairs = Vec::new();
                    while let (Some(k), Some(v)) = (it.next(), it.next()) {
                        pairs.push((k, v));
                    }
                    Term::map(pairs)
                },
                _ => Term::List,
            };
            product_of(&elems, limit, make)
        }
        t => Val::one(t.clone()),
    }
}

/// A value of `v` may match pattern `p` of `body` (guards aside). A value
/// not known (`Any`, an unknown identity, a parameter, bottom) may match
/// anything.
pub fn may_match(body: &racewit_syntax::ir::Body, p: racewit_syntax::ir::PatId, v: &Val) -> bool {
    match v {
        Val::Any => true,
        Val::Set(s) if s.is_empty() => true,
        Val::Set(s) => s.iter().any(|t| term_may_match(body, p, t)),
    }
}

fn term_may_match(body: &racewit_syntax::ir::Body, p: racewit_syntax::ir::PatId, t: &Term) -> bool {
    use racewit_syntax::ir::{Literal, Pat};
    let unknown = matches!(
        t,
        Term::Any
            | Term::Wild
            | Term::Opaque(_)
            | Term::Param(_)
            | Term::ParamElem(..)
            | Term::Derived(_)
            | Term::Conv(_)
    );
    match body.pat(p) {
        Pat::Missing => false,
        Pat::Wild | Pat::Var(_) | Pat::Bound(_) | Pat::Binary(_) => true,
        Pat::Alias(a, b) => term_may_match(body, *a, t) && term_may_match(body, *b, t),
        _ if unknown => true,
        Pat::Lit(l) => match (l, t) {
            (Literal::Atom(a), Term::Atom(b)) => a == b,
            (Literal::Int(i), Term::Int(j)) => i == j,
            (Literal::String(s), Term::Str(u)) => **s == **u,
            (Literal::String(s), Term::List(l)) => s.chars().count() == l.len(),
            (Literal::String(s), _) if s.is_empty() => matches!(t, Term::List(l) if l.is_empty()),
            (Literal::BigInt(_) | Literal::Float(_), _) => true,
            _ => false,
        },
        Pat::Nil => {
            matches!(t, Term::List(l) if l.is_empty()) || matches!(t, Term::Str(s) if s.is_empty())
        }
        Pat::Cons(h, tl) => match t {
            Term::List(items) => match items.split_first() {
                Some((first, rest)) => {
                    term_may_match(body, *h, first)
                        && term_may_match(body, *tl, &Term::List(rest.to_vec()))
                }
                None => false,
            },
            Term::Str(s) => !s.is_empty(),
            _ => false,
        },
        Pat::Tuple(ps) => match t {
            Term::Tuple(ts) => {
                ts.len() == ps.len() && ps.iter().zip(ts).all(|(&q, e)| term_may_match(body, q, e))
            }
            Term::Keyed(k, key) => ps
                .get(*k as usize - 1)
                .is_none_or(|&q| term_may_match(body, q, key)),
            _ => false,
        },
        Pat::Map(_) => matches!(t, Term::Map(_)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms(names: &[&str]) -> Val {
        Val::from_terms(names.iter().map(|a| Term::Atom(Name::new(a))), 16)
    }

    #[test]
    fn sets_widen_past_the_limit() {
        let mut v = atoms(&["a", "b"]);
        assert!(v.join_in(&atoms(&["c"]), 3));
        assert_eq!(v, atoms(&["a", "b", "c"]));
        assert!(v.join_in(&atoms(&["d"]), 3));
        assert_eq!(v, Val::Any);
    }

    #[test]
    fn a_hole_that_covers_earlier_terms_keeps_the_set_under_the_limit() {
        let t = |k: &str, x: Term| Term::Tuple(vec![Term::Atom(k.into()), x]);
        // An earlier round spelled the product out: {c, 1}, {c, 2}, {c, 3}.
        let mut v = Val::from_terms((1..=3).map(|i| t("c", Term::Int(i))), 3);
        // A later one gave {c, _} (the product outgrew the limit) and {d, 1}.
        let later = Val::from_terms([t("c", Term::Any), t("d", Term::Int(1))], 3);
        assert!(v.join_in(&later, 3));
        assert_eq!(v, later);
        // Joining what is covered again changes nothing.
        assert!(!v.join_in(&Val::one(t("c", Term::Int(2))), 3));
        // Terms no hole covers still widen past the limit.
        let mut w = Val::from_terms((1..=3).map(|i| t("c", Term::Int(i))), 3);
        assert!(w.join_in(&Val::one(t("d", Term::Int(1))), 3));
        assert_eq!(w, Val::Any);
    }

    #[test]
    fn may_equal_unifies_tuples_with_holes() {
        let a = Val::one(Term::Tuple(vec![Term::Atom("user".into()), Term::Any]));
        let b = Val::one(Term::Tuple(vec![Term::Atom("user".into()), Term::Int(3)]));
        let c = Val::one(Term::Tuple(vec![Term::Atom("group".into()), Term::Int(3)]));
        assert!(a.may_equal(&b));
        assert!(!b.may_equal(&c));
        assert!(!atoms(&["x"]).may_equal(&atoms(&["y"])));
        assert!(!Val::bottom().may_equal(&Val::Any));
        assert!(!Val::Any.may_equal(&Val::Any));
        assert!(Val::one(Term::Wild).may_equal(&atoms(&["x"])));
        let me = Val::one(Term::SelfPid);
        assert!(!me.may_equal(&me));
        assert!(!me.may_equal(&Val::Any));
    }

    #[test]
    fn resolve_substitutes_params_inside_tuples() {
        let v = Val::one(Term::Tuple(vec![Term::Atom("k".into()), Term::Param(0)]));
        let r = resolve(&v, &[atoms(&["a", "b"])], 16);
        let rendered = r.render_set(&|_| String::new());
        assert_eq!(rendered, "{{k, a}, {k, b}}");
    }
}
