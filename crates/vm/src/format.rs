//! Printing terms as the BEAM does: `~w` ([`write_term`]), `~p` ([`print_term`],
//! a port of `io_lib_pretty`'s layout with its 80-column line breaking and
//! printable-list detection), floats in the shortest round-trip form, and
//! [`format`] for `io_lib:format/2` control strings.

use crate::atom::Atom;
use crate::term::{Bitstr, Fun, Term};

/// A term debug-prints as `~w` writes it.
impl std::fmt::Debug for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&write_term(self))
    }
}

/// `io_lib:write/1` (`~w`).
pub fn write_term(t: &Term) -> String {
    let mut s = String::new();
    write_into(t, &mut s);
    s
}

pub fn write_into(t: &Term, out: &mut String) {
    write_capped(t, out, usize::MAX);
}

/// Characters of a term in a step's text (an event's description, a
/// shared item's key): past them, `...`.
pub const BRIEF_CHARS: usize = 4096;

/// [`write_term`] cut after [`BRIEF_CHARS`] characters: for texts about a
/// step, which must stay small whatever the term (one that shares parts
/// can print to far more than it holds).
pub fn brief(t: &Term) -> String {
    let mut s = String::new();
    brief_into(t, &mut s);
    s
}

/// [`write_into`] cut after [`BRIEF_CHARS`] more characters; a cut text
/// ends with `...#` and a hash of the whole term, so two terms that differ
/// past the cut still print differently (texts name messages and keys).
#[inline]
pub fn brief_into(t: &Term, out: &mut String) {
    if t.is_immediate() {
        // Short whatever it is.
        return write_capped(t, out, usize::MAX);
    }
    let cap = out.len() + BRIEF_CHARS;
    write_capped(t, out, cap);
    if out.len() > cap {
        cut(t, out, cap);
    }
}

#[cold]
#[inline(never)]
fn cut(t: &Term, out: &mut String, cap: usize) {
    let mut end = cap;
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    out.truncate(end);
    use std::fmt::Write as _;
    let _ = write!(out, "...#{:016x}", dag_hash(t));
}

/// A hash of a term's value that visits each shared part once (a term
/// that shares parts can be far larger written out than held).
fn dag_hash(t: &Term) -> u64 {
    use std::sync::Arc;
    enum Task<'a> {
        Visit(&'a Term),
        /// Combine the last `n` values under `tag`; remember the result
        /// for the shared part at `key`.
        Combine {
            tag: u64,
            n: usize,
            key: Option<usize>,
        },
    }
    fn mix(h: u64, x: u64) -> u64 {
        (h ^ x).wrapping_mul(0x100000001b3).rotate_left(29)
    }
    fn shared<T: ?Sized>(a: &Arc<T>) -> Option<usize> {
        (Arc::strong_count(a) > 1).then_some(Arc::as_ptr(a) as *const u8 as usize)
    }
    let mut memo: rustc_hash::FxHashMap<usize, u64> = Default::default();
    let mut tasks = vec![Task::Visit(t)];
    let mut vals: Vec<u64> = Vec::new();
    while let Some(task) = tasks.pop() {
        match task {
            Task::Visit(t) => {
                let (tag, key, children): (u64, Option<usize>, Vec<&Term>) = match t {
                    Term::Tuple(items) => (1, shared(items), items.iter().collect()),
                    Term::Cons(c) => (2, shared(c), vec![&c.head, &c.tail]),
                    Term::Map(m) => (
                        3,
                        shared(m),
                        m.iter().flat_map(|(k, v)| [&k.0, v]).collect(),
                    ),
                    Term::Fun(f) => match &**f {
                        Fun::Closure { env, index, .. } => {
                            (4 + u64::from(*index), shared(f), env.iter().collect())
                        }
                        _ => {
                            vals.push(mix(5, hash_text(&fun_text(f))));
                            continue;
                        }
                    },
                    Term::Bin(b) => {
                        let h = b
                            .to_bytes()
                            .iter()
                            .fold(6 + b.len as u64, |h, x| mix(h, u64::from(*x)));
                        vals.push(h);
                        continue;
                    }
                    Term::Big(b) => {
                        vals.push(b.to_u64_digits().1.iter().fold(7, |h, d| mix(h, *d)));
                        continue;
                    }
                    other => {
                        let mut s = String::new();
                        write_into(other, &mut s);
                        vals.push(hash_text(&s));
                        continue;
                    }
                };
                if let Some(h) = key.and_then(|k| memo.get(&k)) {
                    vals.push(*h);
                    continue;
                }
                tasks.push(Task::Combine {
                    tag,
                    n: children.len(),
                    key,
                });
                tasks.extend(children.into_iter().rev().map(Task::Visit));
            }
            Task::Combine { tag, n, key } => {
                let start = vals.len() - n;
                let h = vals.drain(start..).fold(tag, mix);
                if let Some(k) = key {
                    memo.insert(k, h);
                }
                vals.push(h);
            }
        }
    }
    vals.pop().unwrap_or(0)
}

/// `~w` of `t`, stopping once `out` is longer than `cap` bytes.
fn write_capped(t: &Term, out: &mut String, cap: usize) {
    use std::fmt::Write as _;
    // Writing to a String cannot fail.
    match t {
        Term::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Term::Big(b) => {
            let _ = write!(out, "{b}");
        }
        Term::Float(f) => out.push_str(&format_float(*f)),
        Term::Atom(a) => write_atom(*a, out),
        Term::Ref(r) => {
            let _ = write!(out, "#Ref<0.0.0.{r}>");
        }
        Term::Pid(p) => {
            let _ = write!(out, "<0.{}.0>", p.number());
        }
        Term::Fun(f) => out.push_str(&fun_text(f)),
        // Past the cap, parts are left out (a part's leaves are short,
        // but there may be any number of them).
        Term::Tuple(items) => {
            out.push('{');
            for (i, e) in items.iter().enumerate() {
                if out.len() > cap {
                    break;
                }
                if i > 0 {
                    out.push(',');
                }
                write_capped(e, out, cap);
            }
            out.push('}');
        }
        Term::Nil => out.push_str("[]"),
        Term::Cons(_) => {
            out.push('[');
            let mut cur = t;
            let mut first = true;
            loop {
                if out.len() > cap {
                    break;
                }
                match cur {
                    Term::Cons(c) => {
                        if !first {
                            out.push(',');
                        }
                        first = false;
                        write_capped(&c.head, out, cap);
                        cur = &c.tail;
                    }
                    Term::Nil => break,
                    other => {
                        out.push('|');
                        write_capped(other, out, cap);
                        break;
                    }
                }
            }
            out.push(']');
        }
        Term::Map(m) => {
            out.push_str("#{");
            for (i, (k, v)) in m.iter().enumerate() {
                if out.len() > cap {
                    break;
                }
                if i > 0 {
                    out.push(',');
                }
                write_capped(&k.0, out, cap);
                out.push_str(" => ");
                write_capped(v, out, cap);
            }
            out.push('}');
        }
        Term::Bin(b) => out.push_str(&binary_text(b)),
    }
}

fn fun_text(f: &Fun) -> String {
    match f {
        Fun::Export {
            module,
            name,
            arity,
        } => format!("fun {}:{}/{}", atom_text(*module), atom_text(*name), arity),
        Fun::Closure { module, index, .. } => {
            format!("#Fun<{}.{}.{}>", module.name(), index, 1000 + index)
        }
        Fun::Local {
            module,
            name,
            arity,
            ..
        } => {
            format!("#Fun<{}.{}.{}>", module.name(), name.name(), arity)
        }
    }
}

/// `<<1,2,3>>`, `<<1,2:3>>` (the `~w` form of a bitstring).
fn binary_text(b: &Bitstr) -> String {
    let mut out = String::from("<<");
    let full = b.len / 8;
    let bytes = b.to_bytes();
    for (i, byte) in bytes.iter().take(full).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&byte.to_string());
    }
    let rest = b.len % 8;
    if rest != 0 {
        if full > 0 {
            out.push(',');
        }
        let v = bytes[full] >> (8 - rest);
        out.push_str(&format!("{v}:{rest}"));
    }
    out.push_str(">>");
    out
}

const RESERVED: &[&str] = &[
    "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
    "catch", "cond", "div", "end", "fun", "if", "let", "not", "of", "or", "orelse", "receive",
    "rem", "try", "when", "xor",
];

/// An atom as `io_lib:write_atom/1` prints it (quoted when needed).
pub fn atom_text(a: Atom) -> String {
    let mut s = String::new();
    write_atom(a, &mut s);
    s
}

fn write_atom(a: Atom, out: &mut String) {
    let name = a.name();
    if atom_needs_quotes(name) {
        out.push('\'');
        for c in name.chars() {
            push_escaped(c, '\'', out);
        }
        out.push('\'');
    } else {
        out.push_str(name);
    }
}

fn atom_needs_quotes(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_lowercase() || ('ß'..='ÿ').contains(&c) && c != '÷' => {}
        _ => return true,
    }
    if !name.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || c == '_'
            || c == '@'
            || (('À'..='ÿ').contains(&c) && c != '×' && c != '÷')
    }) {
        return true;
    }
    RESERVED.contains(&name)
}

fn push_escaped(c: char, quote: char, s: &mut String) {
    match c {
        '\\' => s.push_str("\\\\"),
        '\n' => s.push_str("\\n"),
        '\r' => s.push_str("\\r"),
        '\t' => s.push_str("\\t"),
        '\u{b}' => s.push_str("\\v"),
        '\u{8}' => s.push_str("\\b"),
        '\u{c}' => s.push_str("\\f"),
        '\u{1b}' => s.push_str("\\e"),
        '\u{7f}' => s.push_str("\\d"),
        c if c == quote => {
            s.push('\\');
            s.push(c);
        }
        c if (c as u32) < 32 => {
            s.push_str(&format!("\\{:03o}", c as u32));
        }
        c => s.push(c),
    }
}

/// A string as `io_lib:write_string/1` prints it.
pub fn string_text(chars: &[u32]) -> String {
    let mut s = String::from("\"");
    for &c in chars {
        push_escaped(char::from_u32(c).unwrap_or('?'), '"', &mut s);
    }
    s.push('"');
    s
}

/// The shortest form that reads back as the same float, as the BEAM prints it.
pub fn format_float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    if !f.is_finite() {
        return if f.is_nan() {
            "nan".into()
        } else if f > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let sci = format!("{:e}", f.abs());
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if f < 0.0 { "-" } else { "" };
    let sci_form = format!(
        "{}.{}e{}",
        &digits[..1],
        if digits.len() > 1 { &digits[1..] } else { "0" },
        exp
    );
    let fixed = if exp >= 0 {
        let e = exp as usize;
        if digits.len() > e + 1 {
            format!("{}.{}", &digits[..=e], &digits[e + 1..])
        } else {
            format!("{}{}.0", digits, "0".repeat(e + 1 - digits.len()))
        }
    } else {
        format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
    };
    if f.abs() < 9007199254740992.0 && fixed.len() <= sci_form.len() {
        format!("{sign}{fixed}")
    } else {
        format!("{sign}{sci_form}")
    }
}

/// Is this list printed as a string by `~p`? (`io_lib:printable_latin1_list/1`,
/// or the Unicode variant with `~tp`).
pub fn printable_list(t: &Term, unicode: bool) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    let mut cur = t;
    loop {
        match cur {
            Term::Nil => return Some(out),
            Term::Cons(c) => {
                let Term::Int(i) = c.head else { return None };
                // io:printable_range() is latin1 by default, also for ~tp.
                let _ = unicode;
                let ok = matches!(i, 32..=126 | 160..=255 | 8..=13 | 27);
                if !ok {
                    return None;
                }
                out.push(i as u32);
                cur = &c.tail;
            }
            _ => return None,
        }
    }
}

// ---------------------------------------------------------------------------
// ~p: a port of io_lib_pretty's layout.

struct Node {
    kind: Kind,
    len: i64,
}

enum Kind {
    Leaf(String),
    List(Vec<Node>, Option<Box<Node>>),
    Tuple(bool, Vec<Node>),
    Map(Vec<Node>),
    Pair(Box<Node>, Box<Node>),
    Bin(Vec<String>),
}

fn atm(n: &Node) -> bool {
    matches!(n.kind, Kind::Leaf(_))
}
fn atm_pair(n: &Node) -> bool {
    match &n.kind {
        Kind::Pair(k, v) => atm(k) && atm(v),
        _ => false,
    }
}

fn char_len(s: &str) -> i64 {
    s.chars().count() as i64
}

fn leaf(s: String) -> Node {
    let len = char_len(&s);
    Node {
        kind: Kind::Leaf(s),
        len,
    }
}

fn build(t: &Term, unicode: bool) -> Node {
    match t {
        Term::Nil => leaf("[]".into()),
        Term::Tuple(items) if items.is_empty() => leaf("{}".into()),
        Term::Map(m) if m.is_empty() => leaf("#{}".into()),
        Term::Cons(_) => {
            if let Some(chars) = printable_list(t, unicode) {
                return leaf(string_text(&chars));
            }
            let mut elems = Vec::new();
            let mut cur = t;
            let mut tail = None;
            loop {
                match cur {
                    Term::Cons(c) => {
                        elems.push(build(&c.head, unicode));
                        cur = &c.tail;
                    }
                    Term::Nil => break,
                    other => {
                        tail = Some(Box::new(build(other, unicode)));
                        break;
                    }
                }
            }
            let len = list_length(&elems, tail.as_deref(), 2);
            Node {
                kind: Kind::List(elems, tail),
                len,
            }
        }
        Term::Tuple(items) => {
            let elems: Vec<Node> = items.iter().map(|e| build(e, unicode)).collect();
            let tagged = matches!(items[0], Term::Atom(_)) && items.len() > 1;
            let len = list_length(&elems, None, 2);
            Node {
                kind: Kind::Tuple(tagged, elems),
                len,
            }
        }
        Term::Map(m) => {
            let pairs: Vec<Node> = m
                .iter()
                .map(|(k, v)| {
                    let k = build(&k.0, unicode);
                    let v = build(v, unicode);
                    let len = k.len + 4 + v.len;
                    Node {
                        kind: Kind::Pair(Box::new(k), Box::new(v)),
                        len,
                    }
                })
                .collect();
            let len = list_length(&pairs, None, 3);
            Node {
                kind: Kind::Map(pairs),
                len,
            }
        }
        Term::Bin(b) => {
            if b.len == 0 {
                return leaf("<<>>".into());
            }
            if let Some(bytes) = b.byte_slice()
                && let Some(s) = printable_binary(bytes, unicode)
            {
                return leaf(s);
            }
            let text = binary_text(b);
            let inner = &text[2..text.len() - 2];
            let segs: Vec<String> = inner.split(',').map(str::to_string).collect();
            Node {
                len: char_len(&text),
                kind: Kind::Bin(segs),
            }
        }
        other => leaf(write_term(other)),
    }
}

fn printable_binary(bytes: &[u8], unicode: bool) -> Option<String> {
    let latin1_ok = bytes
        .iter()
        .all(|&c| matches!(c, 32..=126 | 160..=255 | 8..=13 | 27));
    if latin1_ok {
        let chars: Vec<u32> = bytes.iter().map(|&b| b as u32).collect();
        // A latin1 binary that is also valid UTF-8 with non-ASCII chars prints as such under ~tp.
        if unicode
            && !bytes.is_ascii()
            && let Ok(s) = std::str::from_utf8(bytes)
        {
            let cs: Vec<u32> = s.chars().map(|c| c as u32).collect();
            return Some(format!("<<{}/utf8>>", string_text(&cs)));
        }
        return Some(format!("<<{}>>", string_text(&chars)));
    }
    // Under ~p (latin1) a binary that is not latin1 text prints as bytes.
    if unicode && let Ok(s) = std::str::from_utf8(bytes) {
        let printable = s.chars().all(|c| {
            let i = c as u32;
            matches!(i, 32..=126 | 160.. | 8..=13 | 27)
        });
        if printable {
            let cs: Vec<u32> = s.chars().map(|c| c as u32).collect();
            return Some(format!("<<{}/utf8>>", string_text(&cs)));
        }
    }
    None
}

fn list_length(elems: &[Node], tail: Option<&Node>, acc: i64) -> i64 {
    let mut len = acc;
    for (i, e) in elems.iter().enumerate() {
        len += e.len + if i > 0 { 1 } else { 0 };
    }
    if let Some(t) = tail {
        len += 1 + t.len;
    }
    len
}

fn write_node(n: &Node, out: &mut String) {
    match &n.kind {
        Kind::Leaf(s) => out.push_str(s),
        Kind::Tuple(_, l) => {
            out.push('{');
            write_elems(l, None, ',', out);
            out.push('}');
        }
        Kind::List(l, t) => {
            out.push('[');
            write_elems(l, t.as_deref(), '|', out);
            out.push(']');
        }
        Kind::Map(p) => {
            out.push_str("#{");
            write_elems(p, None, ',', out);
            out.push('}');
        }
        Kind::Pair(k, v) => {
            write_node(k, out);
            out.push_str(" => ");
            write_node(v, out);
        }
        Kind::Bin(segs) => {
            out.push_str("<<");
            out.push_str(&segs.join(","));
            out.push_str(">>");
        }
    }
}

fn write_elems(l: &[Node], tail: Option<&Node>, sep: char, out: &mut String) {
    for (i, e) in l.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_node(e, out);
    }
    if let Some(t) = tail {
        out.push(sep);
        write_node(t, out);
    }
}

fn written(n: &Node) -> String {
    let mut s = String::new();
    write_node(n, &mut s);
    s
}

fn spaces(n: i64) -> String {
    " ".repeat(n.max(0) as usize)
}

/// The rest of a list after some element: more elements and/or an improper tail.
#[derive(Clone, Copy)]
struct Rest<'a> {
    elems: &'a [Node],
    tail: Option<&'a Node>,
}

impl Rest<'_> {
    fn last_depth(self, ld: i64) -> i64 {
        if self.elems.is_empty() { ld + 1 } else { 0 }
    }
}

struct Pp {
    ll: i64,
    m: i64,
    tind: i64,
}

impl Pp {
    fn fits(&self, n: &Node, col: i64, ld: i64, w: i64) -> bool {
        n.len < self.ll - col - ld && n.len + w + ld <= self.m
    }

    fn pp(&self, n: &Node, col: i64, ind: i64, ld: i64, w: i64) -> String {
        if self.fits(n, col, ld, w) {
            return written(n);
        }
        match &n.kind {
            Kind::List(l, t) => format!(
                "[{}]",
                self.pp_list(l, t.as_deref(), col + 1, ind + 1, ld, '|', w + 1)
            ),
            Kind::Tuple(true, l) => format!("{{{}}}", self.pp_tag_tuple(l, col, ind, ld, w + 1)),
            Kind::Tuple(false, l) => {
                format!(
                    "{{{}}}",
                    self.pp_list(l, None, col + 1, ind + 1, ld, ',', w + 1)
                )
            }
            Kind::Map(p) => format!("#{{{}}}", self.pp_map(p, col + 2, ind + 2, ld, w + 1)),
            Kind::Bin(segs) => self.pp_binary(segs, col + 2, ind + 2, ld, w),
            Kind::Pair(..) => self.pp_pair(n, col, ind, ld, w).0,
            Kind::Leaf(s) => s.clone(),
        }
    }

    fn pp_tag_tuple(&self, l: &[Node], col: i64, ind: i64, ld: i64, w: i64) -> String {
        let tag = &l[0];
        let tlen = tag.len;
        let tag_ind = tlen + 2;
        let tcol = col + tag_ind;
        let rest = Rest {
            elems: &l[1..],
            tail: None,
        };
        if self.tind > 0 && tag_ind > self.tind {
            let col1 = col + self.tind;
            let indent = ind + self.tind;
            format!(
                "{}{}",
                written(tag),
                self.pp_tail(rest, col1, tcol, indent, ld, ',', w + tlen)
            )
        } else {
            let indent = ind + tag_ind;
            format!(
                "{},{}",
                written(tag),
                self.pp_list(&l[1..], None, tcol, indent, ld, ',', w + tlen + 1)
            )
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn pp_list(
        &self,
        l: &[Node],
        tail: Option<&Node>,
        col0: i64,
        ind: i64,
        ld: i64,
        s: char,
        w: i64,
    ) -> String {
        let rest = Rest {
            elems: &l[1..],
            tail,
        };
        let (es, we) = self.pp_element(&l[0], col0, ind, rest.last_depth(ld), w);
        es + &self.pp_tail(rest, col0, col0 + we, ind, ld, s, w + we)
    }

    #[allow(clippy::too_many_arguments)]
    fn pp_tail(
        &self,
        rest: Rest<'_>,
        col0: i64,
        col: i64,
        ind: i64,
        ld: i64,
        s: char,
        w: i64,
    ) -> String {
        if let Some((e, es)) = rest.elems.split_first() {
            let next = Rest {
                elems: es,
                tail: rest.tail,
            };
            let ld1 = next.last_depth(ld);
            let elen = 1 + e.len;
            let inline = atm(e)
                && ((ld1 == 0 && elen + 1 < self.ll - col && w + elen < self.m)
                    || (ld1 > 0 && elen < self.ll - col - ld1 && w + elen + ld1 <= self.m));
            if inline {
                format!(
                    ",{}{}",
                    written(e),
                    self.pp_tail(next, col0, col + elen, ind, ld, s, w + elen)
                )
            } else {
                let (es_text, we) = self.pp_element(e, col0, ind, ld1, 0);
                format!(
                    ",\n{}{}{}",
                    spaces(ind),
                    es_text,
                    self.pp_tail(next, col0, col0 + we, ind, ld, s, we)
                )
            }
        } else if let Some(e) = rest.tail {
            if e.len + 1 < self.ll - col - (ld + 1) && e.len + 1 + w + (ld + 1) <= self.m && atm(e)
            {
                format!("{s}{}", written(e))
            } else {
                format!("{s}\n{}{}", spaces(ind), self.pp(e, col0, ind, ld + 1, 0))
            }
        } else {
            String::new()
        }
    }

    fn pp_element(&self, e: &Node, col: i64, ind: i64, ld: i64, w: i64) -> (String, i64) {
        if self.fits(e, col, ld, w) && atm(e) {
            (written(e), e.len)
        } else {
            (self.pp(e, col, ind, ld, w), self.ll)
        }
    }

    fn pp_map(&self, p: &[Node], col: i64, ind: i64, ld: i64, w: i64) -> String {
        let rest = Rest {
            elems: &p[1..],
            tail: None,
        };
        let (ps, pw) = self.pp_pair(&p[0], col, ind, rest.last_depth(ld), w);
        ps + &self.pp_pairs_tail(&p[1..], col, col + pw, ind, ld, pw)
    }

    fn pp_pairs_tail(&self, p: &[Node], col0: i64, col: i64, ind: i64, ld: i64, w: i64) -> String {
        let Some((e, es)) = p.split_first() else {
            return String::new();
        };
        let ld1 = if es.is_empty() { ld + 1 } else { 0 };
        let elen = 1 + e.len;
        let inline = atm_pair(e)
            && ((ld1 == 0 && elen + 1 < self.ll - col && w + elen < self.m)
                || (ld1 > 0 && elen < self.ll - col - ld1 && w + elen + ld1 <= self.m));
        if inline {
            format!(
                ",{}{}",
                written(e),
                self.pp_pairs_tail(es, col0, col + elen, ind, ld, w + elen)
            )
        } else {
            let (ps, pw) = self.pp_pair(e, col0, ind, ld1, 0);
            format!(
                ",\n{}{}{}",
                spaces(ind),
                ps,
                self.pp_pairs_tail(es, col0, col0 + pw, ind, ld, pw)
            )
        }
    }

    fn pp_pair(&self, pair: &Node, col: i64, ind: i64, ld: i64, w: i64) -> (String, i64) {
        if self.fits(pair, col, ld, w) {
            let width = if atm_pair(pair) { pair.len } else { self.ll };
            return (written(pair), width);
        }
        let Kind::Pair(k, v) = &pair.kind else {
            return (written(pair), self.ll);
        };
        let i = if self.tind > 0 { self.tind } else { 4 };
        let ind2 = ind + i;
        (
            format!(
                "{} =>\n{}{}",
                self.pp(k, col, ind, ld, w),
                spaces(ind2),
                self.pp(v, col + i, ind2, ld, 0)
            ),
            self.ll,
        )
    }

    fn pp_binary(&self, segs: &[String], col: i64, ind: i64, ld: i64, w: i64) -> String {
        let n0 = 8.max((self.ll - col).min(self.m - 4 - w) - ld);
        let mut n = n0;
        let mut out = String::from("<<");
        for (i, seg) in segs.iter().enumerate() {
            let last = i + 1 == segs.len();
            if !last {
                let len = char_len(seg) + 1;
                if n - len < 0 {
                    out.push('\n');
                    out.push_str(&spaces(ind));
                    out.push_str(seg);
                    out.push(',');
                    n = n0 - len;
                } else {
                    out.push_str(seg);
                    out.push(',');
                    n -= len;
                }
            } else if char_len(seg) > n {
                out.push('\n');
                out.push_str(&spaces(ind));
                out.push_str(seg);
            } else {
                out.push_str(seg);
            }
        }
        out.push_str(">>");
        out
    }
}

/// Computing the tagged-tuple indentation (`cind` in io_lib_pretty): `Err` is `no_good`.
struct Cind {
    ll: i64,
    m: i64,
    ind: i64,
}

type CindResult = Result<(), ()>;

impl Cind {
    fn fits(&self, n: &Node, col: i64, ld: i64, w: i64) -> bool {
        n.len < self.ll - col - ld && n.len + w + ld <= self.m
    }

    fn cind(&self, n: &Node, col: i64, ld: i64, w: i64) -> CindResult {
        if self.fits(n, col, ld, w) {
            return Ok(());
        }
        match &n.kind {
            Kind::List(l, t) => self.cind_list(l, t.as_deref(), col + 1, ld, w + 1),
            Kind::Tuple(true, l) => self.cind_tag_tuple(l, col, ld, w + 1),
            Kind::Tuple(false, l) => self.cind_list(l, None, col + 1, ld, w + 1),
            Kind::Map(p) => self.cind_map(p, col + 2, ld, w + 2),
            _ => Ok(()),
        }
    }

    fn cind_tag_tuple(&self, l: &[Node], col: i64, ld: i64, w: i64) -> CindResult {
        let tlen = l[0].len;
        let tag_ind = tlen + 2;
        let tcol = col + tag_ind;
        let rest = Rest {
            elems: &l[1..],
            tail: None,
        };
        if self.ind > 0 && tag_ind > self.ind {
            let col1 = col + self.ind;
            if self.m + col1 <= self.ll || col1 <= self.ll / 2 {
                self.cind_tail(rest, col1, tcol, ld, w + tlen)
            } else {
                Err(())
            }
        } else if self.m + tcol < self.ll || tcol < self.ll / 2 {
            self.cind_list(&l[1..], None, tcol, ld, w + tlen + 1)
        } else {
            Err(())
        }
    }

    fn cind_list(&self, l: &[Node], tail: Option<&Node>, col0: i64, ld: i64, w: i64) -> CindResult {
        let rest = Rest {
            elems: &l[1..],
            tail,
        };
        let we = self.cind_element(&l[0], col0, rest.last_depth(ld), w)?;
        self.cind_tail(rest, col0, col0 + we, ld, w + we)
    }

    fn cind_tail(&self, rest: Rest<'_>, col0: i64, col: i64, ld: i64, w: i64) -> CindResult {
        if let Some((e, es)) = rest.elems.split_first() {
            let next = Rest {
                elems: es,
                tail: rest.tail,
            };
            let ld1 = next.last_depth(ld);
            let elen = 1 + e.len;
            let inline = atm(e)
                && ((ld1 == 0 && elen + 1 < self.ll - col && w + elen < self.m)
                    || (ld1 > 0 && elen < self.ll - col - ld1 && w + elen + ld1 <= self.m));
            if inline {
                self.cind_tail(next, col0, col + elen, ld, w + elen)
            } else {
                let we = self.cind_element(e, col0, ld1, 0)?;
                self.cind_tail(next, col0, col0 + we, ld, we)
            }
        } else if let Some(e) = rest.tail {
            if e.len + 1 < self.ll - col - (ld + 1) && e.len + 1 + w + (ld + 1) <= self.m && atm(e)
            {
                Ok(())
            } else {
                self.cind(e, col, ld + 1, 0)
            }
        } else {
            Ok(())
        }
    }

    fn cind_element(&self, e: &Node, col: i64, ld: i64, w: i64) -> Result<i64, ()> {
        if self.fits(e, col, ld, w) && atm(e) {
            Ok(e.len)
        } else {
            self.cind(e, col, ld, w)?;
            Ok(self.ll)
        }
    }

    fn cind_map(&self, p: &[Node], col: i64, ld: i64, w: i64) -> CindResult {
        let ld0 = if p.len() > 1 { 0 } else { ld + 1 };
        let pw = self.cind_pair(&p[0], col, ld0, w)?;
        self.cind_pairs_tail(&p[1..], col, col + pw, ld, w + pw)
    }

    fn cind_pairs_tail(&self, p: &[Node], col0: i64, col: i64, ld: i64, w: i64) -> CindResult {
        let Some((e, es)) = p.split_first() else {
            return Ok(());
        };
        let ld1 = if es.is_empty() { ld + 1 } else { 0 };
        let elen = 1 + e.len;
        let inline = atm_pair(e)
            && ((ld1 == 0 && elen + 1 < self.ll - col && w + elen < self.m)
                || (ld1 > 0 && elen < self.ll - col - ld1 && w + elen + ld1 <= self.m));
        if inline {
            self.cind_pairs_tail(es, col0, col + elen, ld, w + elen)
        } else {
            let pw = self.cind_pair(e, col0, ld1, 0)?;
            self.cind_pairs_tail(es, col0, col0 + pw, ld, pw)
        }
    }

    fn cind_pair(&self, pair: &Node, col: i64, ld: i64, w: i64) -> Result<i64, ()> {
        if self.fits(pair, col, ld, w) {
            return Ok(if atm_pair(pair) { pair.len } else { self.ll });
        }
        if let Kind::Pair(k, v) = &pair.kind {
            self.cind(k, col, ld, w)?;
            let i = if self.ind > 0 { self.ind } else { 4 };
            self.cind(v, col + i, ld, 0)?;
        }
        Ok(self.ll)
    }
}

/// `io_lib_pretty:print/2` with column `col` (1-based) and line length `ll`.
pub fn print_term_at(t: &Term, col: i64, ll: i64, unicode: bool) -> String {
    let col = col.max(1);
    if let Term::Atom(a) = t {
        return atom_text(*a);
    }
    if !matches!(
        t,
        Term::Tuple(_) | Term::Nil | Term::Cons(_) | Term::Map(_) | Term::Bin(_)
    ) {
        return write_term(t);
    }
    let node = build(t, unicode);
    let m = node.len;
    if ll == 0 || (node.len < ll - col && node.len <= m) {
        return written(&node);
    }
    let mut tind = 1;
    for candidate in [-1, 4] {
        let c = Cind {
            ll,
            m,
            ind: candidate,
        };
        if c.cind(&node, col, 0, 0).is_ok() {
            tind = candidate;
            break;
        }
    }
    let pp = Pp { ll, m, tind };
    pp.pp(&node, col, col - 1, 0, 0)
}

/// `io_lib:write/2` with a depth limit (`~W`); a negative depth is unlimited.
pub fn write_depth(t: &Term, d: i64) -> String {
    if d < 0 {
        return write_term(t);
    }
    let mut s = String::new();
    write_d(t, d, &mut s);
    s
}

fn write_d(t: &Term, d: i64, out: &mut String) {
    if d == 0 {
        out.push_str("...");
        return;
    }
    match t {
        Term::Cons(_) => {
            if d == 1 {
                out.push_str("[...]");
                return;
            }
            out.push('[');
            let Term::Cons(c) = t else { return };
            write_d(&c.head, d - 1, out);
            let mut cur = &c.tail;
            let mut dd = d - 1;
            loop {
                match cur {
                    Term::Nil => break,
                    _ if dd == 1 => {
                        out.push_str("|...");
                        break;
                    }
                    Term::Cons(c2) => {
                        out.push(',');
                        write_d(&c2.head, dd - 1, out);
                        cur = &c2.tail;
                        dd -= 1;
                    }
                    other => {
                        out.push('|');
                        write_d(other, dd - 1, out);
                        break;
                    }
                }
            }
            out.push(']');
        }
        Term::Bin(b) if b.is_binary() && d > 0 => {
            let bytes = b.to_bytes();
            let shown = (d as usize).saturating_sub(1);
            if bytes.len() <= shown {
                out.push_str(&write_term(t));
                return;
            }
            out.push_str("<<");
            for (i, x) in bytes.iter().take(shown).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&x.to_string());
            }
            out.push_str(if shown > 0 { ",...>>" } else { "...>>" });
        }
        Term::Tuple(items) if !items.is_empty() => {
            if d == 1 {
                out.push_str("{...}");
                return;
            }
            out.push('{');
            write_d(&items[0], d - 1, out);
            let mut dd = d - 1;
            for e in items.iter().skip(1) {
                if dd == 1 {
                    out.push_str(",...");
                    break;
                }
                out.push(',');
                write_d(e, dd - 1, out);
                dd -= 1;
            }
            out.push('}');
        }
        other => out.push_str(&write_term(other)),
    }
}

/// `~p` at the start of a line.
pub fn print_term(t: &Term) -> String {
    print_term_at(t, 1, 80, false)
}

/// A stable 64-bit hash of a text (FNV-1a).
pub fn hash_text(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

/// `float_to_list/1`: 20 digits after the point in scientific form.
pub fn float_to_list_default(f: f64) -> String {
    let s = format!("{:.20e}", f);
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    format!("{}e{}{:02}", m, if e < 0 { '-' } else { '+' }, e.abs())
}

/// `N` decimals, rounding half away from zero on the exact binary value (as the BEAM).
pub fn fixed_decimals(f: f64, n: usize) -> String {
    let exact = format!("{:.*}", n + 30, f.abs());
    let (int_part, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut digits: Vec<u8> = int_part
        .bytes()
        .chain(frac.bytes().take(n))
        .map(|b| b - b'0')
        .collect();
    let next = frac.as_bytes().get(n).map(|b| b - b'0').unwrap_or(0);
    if next >= 5 {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, 1);
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let int_len = digits.len() - n;
    let mut s = String::new();
    if f.is_sign_negative() && digits.iter().any(|&d| d != 0) {
        s.push('-');
    }
    for d in &digits[..int_len] {
        s.push((b'0' + d) as char);
    }
    if n > 0 {
        s.push('.');
        for d in &digits[int_len..] {
            s.push((b'0' + d) as char);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_the_beam() {
        let cases = [
            (1000.0, "1.0e3"),
            (1.0e9, "1.0e9"),
            (123456789.0, "123456789.0"),
            (100.0, "100.0"),
            (0.1, "0.1"),
            (1.0e-5, "1.0e-5"),
            (0.0001, "0.0001"),
            (12345.678, "12345.678"),
            (-0.0, "-0.0"),
            (2.5e15, "2.5e15"),
            (12345678901234567.0, "1.2345678901234568e16"),
            (1234567890123456.0, "1234567890123456.0"),
            (0.00012345, "1.2345e-4"),
            (5.0e-324, "5.0e-324"),
            (0.5, "0.5"),
            (2.0, "2.0"),
            (-3.5, "-3.5"),
        ];
        for (f, s) in cases {
            assert_eq!(format_float(f), s, "{f}");
        }
    }

    #[test]
    fn atoms_are_quoted_when_needed() {
        assert_eq!(atom_text(Atom::new("ok")), "ok");
        assert_eq!(atom_text(Atom::new("Ok")), "'Ok'");
        assert_eq!(atom_text(Atom::new("end")), "'end'");
        assert_eq!(atom_text(Atom::new("a b")), "'a b'");
        assert_eq!(atom_text(Atom::new("it's")), "'it\\'s'");
        assert_eq!(atom_text(Atom::new("a@b_1")), "a@b_1");
        assert_eq!(atom_text(Atom::new("")), "''");
    }

    #[test]
    fn pretty_prints_strings_and_breaks_lines() {
        let t = Term::list(vec![Term::string("abc"), Term::Int(1)]);
        assert_eq!(print_term(&t), "[\"abc\",1]");
        let long = Term::list((1..=40).map(Term::Int).collect());
        assert_eq!(
            print_term(&long),
            "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,\n 29,30,31,32,33,34,35,36,37,38,39,40]"
        );
        let tagged = Term::tuple(vec![
            Term::atom("ok"),
            Term::list((1..=30).map(|i| Term::atom(&format!("atom{i}"))).collect()),
        ]);
        let out = print_term(&tagged);
        assert!(out.starts_with("{ok,[atom1,atom2,"), "{out}");
    }
}
