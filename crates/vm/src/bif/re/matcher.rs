//! A backtracking matcher over a [`Pattern`] with PCRE's semantics: leftmost
//! match, alternatives in order, greedy/lazy/possessive repeats, captures
//! as PCRE sets them. Continuation passing keeps backtracking exact; a
//! repeat of one character is a loop, so `.*` over a long subject does
//! not recurse per character. A match that needs too much work or depth
//! stops with [`Limit`].

use super::pattern::{Greed, Node, Pattern, Set};

/// Per-run options.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    pub offset: usize,
    pub anchored: bool,
    pub notbol: bool,
    pub noteol: bool,
    pub notempty: bool,
    pub notempty_atstart: bool,
    /// A `match_limit` the caller gave: the matcher's own step count is
    /// no measure of PCRE's, so a run that comes near it stops ([`Limit`])
    /// rather than guess whether PCRE would have given up.
    pub max_steps: Option<u64>,
}

/// The matcher gave up: too many steps or too deep.
#[derive(Debug)]
pub struct Limit;

pub type Caps = Vec<Option<(usize, usize)>>;

const MAX_STEPS: u64 = 20_000_000;
const MAX_DEPTH: usize = 4_000;

struct M<'a> {
    p: &'a Pattern,
    s: &'a [u8],
    o: RunOptions,
    start: usize,
    steps: u64,
    max_steps: u64,
    depth: usize,
    limit: bool,
}

type K<'k> = &'k mut dyn FnMut(&mut M<'_>, usize, &mut Caps) -> bool;

/// The first match at or after `o.offset`: every group's span (group 0 is
/// the whole match).
pub fn find(p: &Pattern, s: &[u8], o: RunOptions) -> Result<Option<Caps>, Limit> {
    let mut m = M {
        p,
        s,
        o,
        start: o.offset,
        steps: 0,
        max_steps: o.max_steps.map_or(MAX_STEPS, |m| m.min(MAX_STEPS)),
        depth: 0,
        limit: false,
    };
    let mut at = o.offset;
    loop {
        m.start = at;
        let mut caps: Caps = vec![None; p.groups + 1];
        let mut end = None;
        let ok = m.node(&p.node, at, &mut caps, &mut |m, e, _| {
            let empty = e == m.start;
            if empty && (m.o.notempty || (m.o.notempty_atstart && m.start == m.o.offset)) {
                return false;
            }
            end = Some(e);
            true
        });
        if m.limit {
            return Err(Limit);
        }
        if ok {
            caps[0] = Some((at, end.expect("set on success")));
            return Ok(Some(caps));
        }
        if o.anchored || p.opts.anchored || at >= s.len() {
            return Ok(None);
        }
        at += m.char_at(at).map_or(1, |(_, l)| l);
    }
}

/// `c` in lower case: ASCII and the ISO-8859-1 letters (PCRE's tables)
/// in a byte subject, Unicode's simple case mapping in a UTF-8 one.
fn fold(c: u32, utf: bool) -> u32 {
    if c < 128 {
        u32::from((c as u8).to_ascii_lowercase())
    } else if !utf {
        if matches!(c, 192..=214 | 216..=222) {
            c + 32
        } else {
            c
        }
    } else if utf {
        char::from_u32(c)
            .and_then(|ch| {
                let mut l = ch.to_lowercase();
                match (l.next(), l.next()) {
                    (Some(x), None) => Some(x as u32),
                    _ => None,
                }
            })
            .unwrap_or(c)
    } else {
        c
    }
}

fn set_contains(set: &Set, c: u32, utf: bool) -> bool {
    let test = |c: u32| {
        set.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
            || set.classes.iter().any(|&(k, neg)| k.contains(c) != neg)
    };
    let mut hit = test(c);
    if !hit && set.caseless {
        let l = fold(c, utf);
        hit = test(l);
        if !hit {
            let u = upper(c, utf);
            hit = test(u);
        }
        if !hit {
            // A range given in the other case (`[A-Z]` caseless on 'q').
            hit = set
                .ranges
                .iter()
                .any(|&(lo, hi)| (lo..=hi.min(lo + 0x300)).any(|x| fold(x, utf) == l));
        }
    }
    hit != set.negated
}

fn upper(c: u32, utf: bool) -> u32 {
    if c < 128 {
        u32::from((c as u8).to_ascii_uppercase())
    } else if !utf {
        if matches!(c, 224..=246 | 248..=254) {
            c - 32
        } else {
            c
        }
    } else if utf {
        char::from_u32(c)
            .and_then(|ch| {
                let mut u = ch.to_uppercase();
                match (u.next(), u.next()) {
                    (Some(x), None) => Some(x as u32),
                    _ => None,
                }
            })
            .unwrap_or(c)
    } else {
        c
    }
}

fn is_word(c: Option<u32>) -> bool {
    c.is_some_and(|c| super::pattern::ClassKind::Word.contains(c))
}

impl M<'_> {
    fn utf(&self) -> bool {
        self.p.opts.utf
    }

    /// The character at `pos` and its length in bytes.
    fn char_at(&self, pos: usize) -> Option<(u32, usize)> {
        let b = *self.s.get(pos)?;
        if !self.utf() || b < 0x80 {
            return Some((u32::from(b), 1));
        }
        let len = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        let bytes = self.s.get(pos..pos + len)?;
        let c = std::str::from_utf8(bytes).ok()?.chars().next()? as u32;
        Some((c, len))
    }

    /// The character ending at `pos` and its length.
    fn char_before(&self, pos: usize) -> Option<(u32, usize)> {
        if pos == 0 {
            return None;
        }
        let mut st = pos - 1;
        if self.utf() {
            while st > 0 && self.s[st] & 0xC0 == 0x80 && pos - st < 4 {
                st -= 1;
            }
        }
        self.char_at(st).map(|(c, l)| (c, l.min(pos - st)))
    }

    fn one(&self, n: &Node, pos: usize) -> Option<usize> {
        let (c, l) = self.char_at(pos)?;
        let ok = match n {
            Node::Lit(x, ci) => *x == c || (*ci && fold(*x, self.utf()) == fold(c, self.utf())),
            Node::Any(dotall) => *dotall || c != 10,
            Node::Set(set) => set_contains(set, c, self.utf()),
            _ => unreachable!("single-character node"),
        };
        ok.then_some(pos + l)
    }

    fn node(&mut self, n: &Node, pos: usize, caps: &mut Caps, k: K<'_>) -> bool {
        self.steps += 1;
        if self.steps > self.max_steps || self.depth > MAX_DEPTH {
            self.limit = true;
            return false;
        }
        if self.limit {
            return false;
        }
        self.depth += 1;
        let r = self.node_inner(n, pos, caps, k);
        self.depth -= 1;
        r
    }

    fn node_inner(&mut self, n: &Node, pos: usize, caps: &mut Caps, k: K<'_>) -> bool {
        let len = self.s.len();
        match n {
            Node::Empty => k(self, pos, caps),
            Node::Lit(..) | Node::Any(_) | Node::Set(_) => match self.one(n, pos) {
                Some(e) => k(self, e, caps),
                None => false,
            },
            Node::Bol(multi) => {
                let ok = (pos == 0 && !self.o.notbol)
                    || (*multi && pos > 0 && pos < len && self.s[pos - 1] == b'\n');
                ok && k(self, pos, caps)
            }
            Node::Eol(multi, endonly) => {
                let at_end = pos == len && !self.o.noteol;
                let ok = if *multi {
                    at_end || (pos < len && self.s[pos] == b'\n')
                } else {
                    at_end
                        || (!*endonly && !self.o.noteol && pos + 1 == len && self.s[pos] == b'\n')
                };
                ok && k(self, pos, caps)
            }
            Node::SubjectStart => pos == 0 && k(self, pos, caps),
            Node::SubjectEnd => pos == len && k(self, pos, caps),
            Node::SubjectEndNl => {
                (pos == len || (pos + 1 == len && self.s[pos] == b'\n')) && k(self, pos, caps)
            }
            Node::MatchStart => pos == self.o.offset && k(self, pos, caps),
            Node::WordBoundary(neg) => {
                let b = is_word(self.char_before(pos).map(|x| x.0))
                    != is_word(self.char_at(pos).map(|x| x.0));
                b != *neg && k(self, pos, caps)
            }
            Node::Group(body, None) => self.node(body, pos, caps, k),
            Node::Group(body, Some(i)) => {
                let i = *i;
                self.node(body, pos, caps, &mut |m, e, c| {
                    let old = c[i];
                    c[i] = Some((pos, e));
                    if k(m, e, c) {
                        true
                    } else {
                        c[i] = old;
                        false
                    }
                })
            }
            Node::Atomic(body) => {
                let mut got = None;
                let mut inner = caps.clone();
                if self.node(body, pos, &mut inner, &mut |_, e, c| {
                    got = Some((e, c.clone()));
                    true
                }) {
                    let (e, mut c) = got.expect("set");
                    if k(self, e, &mut c) {
                        *caps = c;
                        return true;
                    }
                }
                false
            }
            Node::Look(behind, neg, body) => {
                let mut got: Option<Caps> = None;
                let mut found = false;
                if *behind {
                    let lens = super::pattern::behind_lengths(body).expect("checked at parse");
                    let alts: Vec<&Node> = match &**body {
                        Node::Alt(v) => v.iter().collect(),
                        b => vec![b],
                    };
                    for (alt, l) in alts.into_iter().zip(lens) {
                        let Some(st) = self.back(pos, l) else {
                            continue;
                        };
                        let mut inner = caps.clone();
                        if self.node(alt, st, &mut inner, &mut |_, e, c| {
                            if e == pos {
                                got = Some(c.clone());
                                true
                            } else {
                                false
                            }
                        }) {
                            found = true;
                            break;
                        }
                    }
                } else {
                    let mut inner = caps.clone();
                    found = self.node(body, pos, &mut inner, &mut |_, _, c| {
                        got = Some(c.clone());
                        true
                    });
                }
                if found == *neg {
                    return false;
                }
                match got {
                    Some(mut c) if !*neg => {
                        if k(self, pos, &mut c) {
                            *caps = c;
                            true
                        } else {
                            false
                        }
                    }
                    _ => k(self, pos, caps),
                }
            }
            Node::Backref(i, ci) => self.backref(*i, *ci, pos, caps, k),
            Node::NamedRef(name, ci) => {
                let i = self
                    .p
                    .names
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|x| x.1)
                    .expect("checked at parse");
                self.backref(i, *ci, pos, caps, k)
            }
            Node::Cat(items) => self.seq(items, pos, caps, k),
            Node::Alt(alts) => {
                for a in alts {
                    if self.node(a, pos, caps, k) {
                        return true;
                    }
                    if self.limit {
                        return false;
                    }
                }
                false
            }
            Node::Repeat {
                node,
                min,
                max,
                greed,
            } => {
                let simple = matches!(&**node, Node::Lit(..) | Node::Any(_) | Node::Set(_));
                if simple {
                    return self.repeat_simple(node, *min, *max, *greed, pos, caps, k);
                }
                match greed {
                    Greed::Possessive => {
                        let atomic = Node::Atomic(Box::new(Node::Repeat {
                            node: node.clone(),
                            min: *min,
                            max: *max,
                            greed: Greed::Greedy,
                        }));
                        self.node(&atomic, pos, caps, k)
                    }
                    _ => self.repeat(node, *min, *max, *greed == Greed::Lazy, 0, pos, caps, k),
                }
            }
        }
    }

    /// `l` characters back from `pos`.
    fn back(&self, mut pos: usize, l: usize) -> Option<usize> {
        for _ in 0..l {
            pos -= self.char_before(pos)?.1;
        }
        Some(pos)
    }

    fn backref(&mut self, i: usize, ci: bool, pos: usize, caps: &mut Caps, k: K<'_>) -> bool {
        // An unset group's reference fails (PCRE's default).
        let Some(Some((a, b))) = caps.get(i).copied() else {
            return false;
        };
        let mut p = pos;
        let mut q = a;
        while q < b {
            let Some((x, lx)) = self.char_at(q) else {
                return false;
            };
            let Some((y, ly)) = self.char_at(p) else {
                return false;
            };
            if x != y && !(ci && fold(x, self.utf()) == fold(y, self.utf())) {
                return false;
            }
            q += lx;
            p += ly;
        }
        k(self, p, caps)
    }

    fn seq(&mut self, items: &[Node], pos: usize, caps: &mut Caps, k: K<'_>) -> bool {
        match items {
            [] => k(self, pos, caps),
            [one] => self.node(one, pos, caps, k),
            [first, rest @ ..] => self.node(first, pos, caps, &mut |m, e, c| m.seq(rest, e, c, k)),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn repeat_simple(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greed: Greed,
        pos: usize,
        caps: &mut Caps,
        k: K<'_>,
    ) -> bool {
        let max = max.map_or(usize::MAX, |m| m as usize);
        let mut ends = vec![pos];
        if greed == Greed::Lazy {
            loop {
                let n = ends.len() - 1;
                let at = *ends.last().expect("non-empty");
                if n >= min as usize {
                    if k(self, at, caps) {
                        return true;
                    }
                    if self.limit {
                        return false;
                    }
                }
                if n >= max {
                    return false;
                }
                self.steps += 1;
                match self.one(node, at) {
                    Some(e) => ends.push(e),
                    None => return false,
                }
            }
        }
        while ends.len() - 1 < max {
            self.steps += 1;
            match self.one(node, *ends.last().expect("non-empty")) {
                Some(e) => ends.push(e),
                None => break,
            }
        }
        if ends.len() - 1 < min as usize {
            return false;
        }
        if greed == Greed::Possessive {
            return k(self, *ends.last().expect("non-empty"), caps);
        }
        while ends.len() > min as usize {
            let at = ends.pop().expect("non-empty");
            if k(self, at, caps) {
                return true;
            }
            self.steps += 1;
            if self.limit || self.steps > self.max_steps {
                self.limit = true;
                return false;
            }
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn repeat(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        lazy: bool,
        count: u32,
        pos: usize,
        caps: &mut Caps,
        k: K<'_>,
    ) -> bool {
        let more = max.is_none_or(|m| count < m);
        let again = |m: &mut M<'_>, caps: &mut Caps, k: K<'_>| {
            more && m.node(node, pos, caps, &mut |m, e, c| {
                // An iteration that matched nothing ends the repeat (PCRE
                // stops an unbounded repeat at an empty iteration).
                if e == pos && count >= min {
                    return k(m, e, c);
                }
                m.repeat(node, min, max, lazy, count + 1, e, c, k)
            })
        };
        if lazy {
            if count >= min && k(self, pos, caps) {
                return true;
            }
            again(self, caps, k)
        } else {
            if again(self, caps, k) {
                return true;
            }
            count >= min && !self.limit && k(self, pos, caps)
        }
    }
}
