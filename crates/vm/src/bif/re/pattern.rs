//! PCRE pattern syntax (what OTP's `re`, PCRE 8.44, accepts) parsed into
//! a [`Node`] tree. Errors carry PCRE's message and offset where racewit
//! knows them; a construct the matcher does not run is
//! [`PatternError::Unsupported`], which parks the caller.

/// Compile-time options (flags that inline `(?imsx)` may change are in
/// [`Flags`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub flags: Flags,
    pub utf: bool,
    pub anchored: bool,
    pub dollar_endonly: bool,
    pub no_auto_capture: bool,
    pub ucp: bool,
    pub dupnames: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub caseless: bool,
    pub multiline: bool,
    pub dotall: bool,
    pub extended: bool,
    pub ungreedy: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Greed {
    Greedy,
    Lazy,
    Possessive,
}

/// A class escape (`\d`, `[:alpha:]`...), ASCII semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassKind {
    Digit,
    Word,
    Space,
    HSpace,
    VSpace,
    Alpha,
    Alnum,
    Ascii,
    Blank,
    Cntrl,
    Graph,
    Lower,
    Print,
    Punct,
    Upper,
    XDigit,
}

impl ClassKind {
    /// Whether `c` is in the class. Characters below 256 follow the
    /// ISO-8859-1 character tables OTP's PCRE is built with (so `\w`
    /// holds `é` in a latin1 or a UTF-8 subject); above, only `\h` and
    /// `\v` (and negations) hold anything.
    pub fn contains(self, c: u32) -> bool {
        let alpha = is_latin1_alpha(c);
        match self {
            ClassKind::Digit => (48..58).contains(&c),
            ClassKind::Word => c == u32::from(b'_') || alpha || (48..58).contains(&c),
            // PCRE 8.34 on: \s includes VT.
            ClassKind::Space => matches!(c, 9..=13 | 32),
            ClassKind::HSpace => matches!(
                c,
                9 | 0x20 | 0xA0 | 0x1680 | 0x180E | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000
            ),
            ClassKind::VSpace => matches!(c, 10..=13 | 0x85 | 0x2028 | 0x2029),
            ClassKind::Alpha => alpha,
            ClassKind::Alnum => alpha || (48..58).contains(&c),
            ClassKind::Ascii => c < 128,
            ClassKind::Blank => c == 9 || c == 32,
            ClassKind::Cntrl => c < 32 || (127..160).contains(&c),
            ClassKind::Graph => matches!(c, 33..=126 | 160..=255),
            ClassKind::Lower => matches!(c, 97..=122 | 170 | 181 | 186 | 223..=246 | 248..=255),
            ClassKind::Print => matches!(c, 32..=126 | 160..=255),
            ClassKind::Punct => {
                matches!(c, 33..=126 | 160..=255) && !alpha && !(48..58).contains(&c)
            }
            ClassKind::Upper => matches!(c, 65..=90 | 192..=214 | 216..=222),
            ClassKind::XDigit => c < 128 && (c as u8).is_ascii_hexdigit(),
        }
    }
}

fn is_latin1_alpha(c: u32) -> bool {
    matches!(c, 65..=90 | 97..=122 | 170 | 181 | 186 | 192..=214 | 216..=246 | 248..=255)
}

/// A character class: ranges and class escapes, each possibly negated.
#[derive(Clone, Debug, Default)]
pub struct Set {
    pub negated: bool,
    pub caseless: bool,
    pub ranges: Vec<(u32, u32)>,
    pub classes: Vec<(ClassKind, bool)>,
}

#[derive(Clone, Debug)]
pub enum Node {
    Empty,
    Lit(u32, bool),
    /// `.`; true when dotall.
    Any(bool),
    Set(Box<Set>),
    /// `^`; true when multiline.
    Bol(bool),
    /// `$`: multiline, dollar_endonly.
    Eol(bool, bool),
    /// `\A`, `\z`, `\Z`, `\G`.
    SubjectStart,
    SubjectEnd,
    SubjectEndNl,
    MatchStart,
    /// `\b` (false) and `\B` (true).
    WordBoundary(bool),
    Group(Box<Node>, Option<usize>),
    Atomic(Box<Node>),
    /// Lookaround: behind, negated, body.
    Look(bool, bool, Box<Node>),
    Backref(usize, bool),
    NamedRef(String, bool),
    Cat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greed: Greed,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// PCRE's message and offset.
    Syntax(&'static str, usize),
    /// A construct racewit does not run.
    Unsupported(String),
}

#[derive(Clone, Debug)]
pub struct Pattern {
    pub node: Node,
    pub groups: usize,
    /// Named groups, sorted by name.
    pub names: Vec<(String, usize)>,
    pub opts: Options,
}

pub fn parse(src: &[u8], opts: Options) -> Result<Pattern, PatternError> {
    let chars = decode(src, opts.utf)?;
    let mut p = Parser {
        s: chars,
        i: 0,
        flags: opts.flags,
        opts,
        groups: 0,
        names: Vec::new(),
        max_ref: 0,
        depth: 0,
        behind_error: None,
    };
    let node = p.alternation()?;
    if p.i < p.s.len() {
        // Only a `)` stops the top-level alternation.
        return Err(PatternError::Syntax("unmatched parentheses", p.pos()));
    }
    if let Some(at) = p.behind_error {
        return Err(PatternError::Syntax(
            "lookbehind assertion is not fixed length",
            at,
        ));
    }
    if p.max_ref > p.groups {
        return Err(PatternError::Syntax(
            "reference to non-existent subpattern",
            p.s.len(),
        ));
    }
    let mut names = p.names;
    names.sort();
    check_refs(&node, &names)?;
    let node = atomic_self_refs(node, &names);
    Ok(Pattern {
        node,
        groups: p.groups,
        names,
        opts,
    })
}

fn check_refs(node: &Node, names: &[(String, usize)]) -> Result<(), PatternError> {
    match node {
        Node::NamedRef(n, _) if !names.iter().any(|(m, _)| m == n) => Err(
            PatternError::Unsupported("a reference to an unknown group name".into()),
        ),
        Node::Group(n, _) | Node::Atomic(n) | Node::Look(_, _, n) => check_refs(n, names),
        Node::Repeat { node, .. } => check_refs(node, names),
        Node::Cat(v) | Node::Alt(v) => v.iter().try_for_each(|n| check_refs(n, names)),
        _ => Ok(()),
    }
}

/// PCRE (8.x) matches a capturing group that holds a back reference to
/// itself as an atomic group.
fn atomic_self_refs(node: Node, names: &[(String, usize)]) -> Node {
    let go = |n: Box<Node>| Box::new(atomic_self_refs(*n, names));
    match node {
        Node::Group(body, Some(i)) => {
            let body = go(body);
            let self_ref = refers_to(&body, i, names);
            let g = Node::Group(body, Some(i));
            if self_ref {
                Node::Atomic(Box::new(g))
            } else {
                g
            }
        }
        Node::Group(body, None) => Node::Group(go(body), None),
        Node::Atomic(body) => Node::Atomic(go(body)),
        Node::Look(b, n, body) => Node::Look(b, n, go(body)),
        Node::Repeat {
            node,
            min,
            max,
            greed,
        } => Node::Repeat {
            node: go(node),
            min,
            max,
            greed,
        },
        Node::Cat(v) => Node::Cat(v.into_iter().map(|n| atomic_self_refs(n, names)).collect()),
        Node::Alt(v) => Node::Alt(v.into_iter().map(|n| atomic_self_refs(n, names)).collect()),
        other => other,
    }
}

fn refers_to(node: &Node, i: usize, names: &[(String, usize)]) -> bool {
    match node {
        Node::Backref(j, _) => *j == i,
        Node::NamedRef(n, _) => names.iter().any(|(m, j)| m == n && *j == i),
        Node::Group(n, _) | Node::Atomic(n) | Node::Look(_, _, n) => refers_to(n, i, names),
        Node::Repeat { node, .. } => refers_to(node, i, names),
        Node::Cat(v) | Node::Alt(v) => v.iter().any(|n| refers_to(n, i, names)),
        _ => false,
    }
}

/// The pattern's characters with their byte offsets (PCRE reports errors
/// at byte offsets).
fn decode(src: &[u8], utf: bool) -> Result<Vec<(u32, usize)>, PatternError> {
    if !utf {
        return Ok(src
            .iter()
            .enumerate()
            .map(|(i, &b)| (u32::from(b), i))
            .collect());
    }
    match std::str::from_utf8(src) {
        Ok(s) => Ok(s.char_indices().map(|(i, c)| (c as u32, i)).collect()),
        Err(e) => Err(PatternError::Syntax(
            "invalid UTF-8 string",
            e.valid_up_to(),
        )),
    }
}

struct Parser {
    s: Vec<(u32, usize)>,
    i: usize,
    flags: Flags,
    opts: Options,
    groups: usize,
    names: Vec<(String, usize)>,
    max_ref: usize,
    depth: usize,
    /// Where the first lookbehind of no fixed length ends.
    behind_error: Option<usize>,
}

fn unsupported<T>(what: &str) -> Result<T, PatternError> {
    Err(PatternError::Unsupported(what.to_string()))
}

impl Parser {
    fn pos(&self) -> usize {
        self.s.get(self.i).map_or_else(
            || {
                self.s
                    .last()
                    .map_or(0, |&(c, o)| o + char_len(c, self.opts.utf))
            },
            |&(_, o)| o,
        )
    }
    fn peek(&self) -> Option<u32> {
        self.s.get(self.i).map(|&(c, _)| c)
    }
    fn peek_at(&self, k: usize) -> Option<u32> {
        self.s.get(self.i + k).map(|&(c, _)| c)
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(u32::from(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn skip_extended(&mut self) {
        if !self.flags.extended {
            return;
        }
        while let Some(c) = self.peek() {
            if matches!(c, 9..=13 | 32) {
                self.i += 1;
            } else if c == u32::from(b'#') {
                while let Some(c) = self.peek() {
                    self.i += 1;
                    if c == 10 {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    fn alternation(&mut self) -> Result<Node, PatternError> {
        let mut alts = vec![self.sequence()?];
        while self.eat(b'|') {
            alts.push(self.sequence()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().expect("one")
        } else {
            Node::Alt(alts)
        })
    }

    fn sequence(&mut self) -> Result<Node, PatternError> {
        let mut items = Vec::new();
        loop {
            self.skip_extended();
            let start = self.pos();
            let Some(c) = self.peek() else { break };
            if c == u32::from(b'|') || c == u32::from(b')') {
                break;
            }
            if c == u32::from(b'\\') && self.peek_at(1) == Some(u32::from(b'Q')) {
                // \Q...\E: literal text; a quantifier after it takes the
                // last character.
                self.i += 2;
                let mut lits = Vec::new();
                while let Some(c) = self.peek() {
                    if c == u32::from(b'\\') && self.peek_at(1) == Some(u32::from(b'E')) {
                        self.i += 2;
                        break;
                    }
                    lits.push((c, self.pos()));
                    self.i += 1;
                }
                let ci = self.flags.caseless;
                if let Some((last, at)) = lits.pop() {
                    items.extend(lits.into_iter().map(|(c, _)| Node::Lit(c, ci)));
                    self.skip_extended();
                    let atom = self.quantified(Node::Lit(last, ci), at)?;
                    items.push(atom);
                }
                continue;
            }
            let atom = match self.atom()? {
                Some(a) => a,
                None => continue,
            };
            self.skip_extended();
            let atom = self.quantified(atom, start)?;
            items.push(atom);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().expect("one"),
            _ => Node::Cat(items),
        })
    }

    fn quantified(&mut self, mut atom: Node, start: usize) -> Result<Node, PatternError> {
        loop {
            let Some(c) = self.peek() else {
                return Ok(atom);
            };
            let (min, max) = match c as u8 {
                b'*' if c < 128 => (0, None),
                b'+' if c < 128 => (1, None),
                b'?' if c < 128 => (0, Some(1)),
                b'{' if c < 128 => match self.braces()? {
                    Some(q) => q,
                    None => return Ok(atom),
                },
                _ => return Ok(atom),
            };
            if c != u32::from(b'{') {
                self.i += 1;
            }
            if !repeatable(&atom) {
                return Err(PatternError::Syntax(
                    "nothing to repeat",
                    start.max(self.pos() - 1),
                ));
            }
            self.skip_extended();
            let mut greed = if self.flags.ungreedy {
                Greed::Lazy
            } else {
                Greed::Greedy
            };
            if self.eat(b'?') {
                greed = if self.flags.ungreedy {
                    Greed::Greedy
                } else {
                    Greed::Lazy
                };
            } else if self.eat(b'+') {
                greed = Greed::Possessive;
            }
            atom = Node::Repeat {
                node: Box::new(atom),
                min,
                max,
                greed,
            };
            self.skip_extended();
            if matches!(self.peek(), Some(c) if c == u32::from(b'*') || c == u32::from(b'+') || c == u32::from(b'?'))
            {
                return Err(PatternError::Syntax("nothing to repeat", self.pos()));
            }
            if self.peek() == Some(u32::from(b'{')) && self.looks_like_braces() {
                self.braces()?;
                return Err(PatternError::Syntax("nothing to repeat", self.pos() - 1));
            }
        }
    }

    fn looks_like_braces(&self) -> bool {
        let mut k = 1;
        let digits = |k: &mut usize| {
            let s = *k;
            while matches!(self.peek_at(*k), Some(d) if (48..58).contains(&d)) {
                *k += 1;
            }
            *k > s
        };
        if !digits(&mut k) {
            return false;
        }
        if self.peek_at(k) == Some(u32::from(b'}')) {
            return true;
        }
        if self.peek_at(k) != Some(u32::from(b',')) {
            return false;
        }
        k += 1;
        digits(&mut k);
        self.peek_at(k) == Some(u32::from(b'}'))
    }

    /// `{n}`, `{n,}`, `{n,m}`; anything else is literal text (`None`).
    fn braces(&mut self) -> Result<Option<(u32, Option<u32>)>, PatternError> {
        if !self.looks_like_braces() {
            return Ok(None);
        }
        self.i += 1;
        let num = |p: &mut Parser| -> Result<u32, PatternError> {
            let mut n: u32 = 0;
            while let Some(d) = p.peek().filter(|d| (48..58).contains(d)) {
                n = n * 10 + (d - 48);
                if n > 65535 {
                    return Err(PatternError::Syntax(
                        "number too big in {} quantifier",
                        p.pos() + 1,
                    ));
                }
                p.i += 1;
            }
            Ok(n)
        };
        let min = num(self)?;
        let max = if self.eat(b',') {
            if self.peek() == Some(u32::from(b'}')) {
                None
            } else {
                Some(num(self)?)
            }
        } else {
            Some(min)
        };
        if max.is_some_and(|m| m < min) {
            return Err(PatternError::Syntax(
                "numbers out of order in {} quantifier",
                self.pos(),
            ));
        }
        self.i += 1; // '}'
        Ok(Some((min, max)))
    }

    /// One atom; `None` for an inline option setting that matches nothing.
    fn atom(&mut self) -> Result<Option<Node>, PatternError> {
        let c = self.peek().expect("caller checked");
        let start = self.pos();
        self.i += 1;
        let node = match char::from_u32(c).unwrap_or('\u{0}') {
            '(' => return self.group(start),
            '[' => {
                self.i -= 1;
                if self.posix_end().is_some() {
                    return Err(PatternError::Syntax(
                        "POSIX named classes are supported only within a class",
                        start,
                    ));
                }
                self.i += 1;
                self.class(start)?
            }
            '.' => Node::Any(self.flags.dotall),
            '^' => Node::Bol(self.flags.multiline),
            '$' => Node::Eol(self.flags.multiline, self.opts.dollar_endonly),
            '\\' => self.escape()?,
            '*' | '+' | '?' => return Err(PatternError::Syntax("nothing to repeat", start)),
            '{' if {
                self.i -= 1;
                let b = self.looks_like_braces();
                self.i += 1;
                b
            } =>
            {
                // PCRE points at the quantifier's last character.
                self.i -= 1;
                self.braces()?;
                return Err(PatternError::Syntax("nothing to repeat", self.pos() - 1));
            }
            _ => Node::Lit(c, self.flags.caseless),
        };
        Ok(Some(node))
    }

    fn group(&mut self, start: usize) -> Result<Option<Node>, PatternError> {
        self.depth += 1;
        if self.depth > 250 {
            return unsupported("groups nested more than 250 deep");
        }
        let saved = self.flags;
        let r = self.group_body(start);
        self.depth -= 1;
        if !matches!(r, Ok(None)) {
            self.flags = saved;
        }
        r
    }

    fn group_body(&mut self, start: usize) -> Result<Option<Node>, PatternError> {
        let mut capture = None;
        let mut kind = 0u8; // 0 plain, b'>' atomic, look: b'=' b'!' b'<' b'N'(neg behind)
        if self.eat(b'?') {
            let Some(c) = self.peek() else {
                return Err(PatternError::Syntax(
                    "unrecognized character after (? or (?-",
                    self.pos(),
                ));
            };
            match char::from_u32(c).unwrap_or('\u{0}') {
                ':' => self.i += 1,
                '>' => {
                    self.i += 1;
                    kind = b'>';
                }
                '=' | '!' => {
                    self.i += 1;
                    kind = c as u8;
                }
                '<' if matches!(self.peek_at(1), Some(d) if d == u32::from(b'=') || d == u32::from(b'!')) =>
                {
                    kind = if self.peek_at(1) == Some(u32::from(b'=')) {
                        b'<'
                    } else {
                        b'N'
                    };
                    self.i += 2;
                }
                '<' | '\'' => {
                    self.i += 1;
                    let close = if c == u32::from(b'<') { b'>' } else { b'\'' };
                    capture = Some(self.named_group(close)?);
                }
                'P' if self.peek_at(1) == Some(u32::from(b'<')) => {
                    self.i += 2;
                    capture = Some(self.named_group(b'>')?);
                }
                'P' if self.peek_at(1) == Some(u32::from(b'=')) => {
                    self.i += 2;
                    let name = self.name_until(b')')?;
                    self.depth -= 0;
                    return Ok(Some(Node::NamedRef(name, self.flags.caseless)));
                }
                '#' => {
                    while let Some(c) = self.peek() {
                        self.i += 1;
                        if c == u32::from(b')') {
                            return Ok(None);
                        }
                    }
                    return Err(PatternError::Syntax("missing ) after comment", self.pos()));
                }
                'R' | '0'..='9' | '+' | '&' => return unsupported("recursion (?R)"),
                'P' => return unsupported("(?P> recursion"),
                '(' => return unsupported("conditional groups (?(...)"),
                'C' => return unsupported("callouts (?C)"),
                '|' => return unsupported("branch reset groups (?|"),
                _ => {
                    // Option setting: (?imsxXU-imsx) or (?imsx:...).
                    let mut flags = self.flags;
                    let mut on = true;
                    loop {
                        let Some(c) = self.peek() else {
                            return Err(PatternError::Syntax(
                                "unrecognized character after (? or (?-",
                                self.pos(),
                            ));
                        };
                        self.i += 1;
                        match char::from_u32(c).unwrap_or('\u{0}') {
                            'i' => flags.caseless = on,
                            'm' => flags.multiline = on,
                            's' => flags.dotall = on,
                            'x' => flags.extended = on,
                            'U' => flags.ungreedy = on,
                            'J' => return unsupported("the (?J) option"),
                            'X' => {}
                            '-' => on = false,
                            ')' => {
                                self.flags = flags;
                                return Ok(None);
                            }
                            ':' => {
                                self.flags = flags;
                                break;
                            }
                            _ => {
                                return Err(PatternError::Syntax(
                                    "unrecognized character after (? or (?-",
                                    self.pos() - 1,
                                ));
                            }
                        }
                    }
                }
            }
        } else if self.peek() == Some(u32::from(b'*')) {
            return unsupported("backtracking verbs (*VERB)");
        } else if !self.opts.no_auto_capture {
            self.groups += 1;
            capture = Some(self.groups);
        }
        let body = self.alternation()?;
        let close = self.pos();
        if !self.eat(b')') {
            let _ = start;
            return Err(PatternError::Syntax("missing )", self.pos()));
        }
        Ok(Some(match kind {
            b'>' => Node::Atomic(Box::new(body)),
            b'=' => Node::Look(false, false, Box::new(body)),
            b'!' => Node::Look(false, true, Box::new(body)),
            b'<' | b'N' => {
                // PCRE finds every other syntax error first (its first
                // pass skips this check).
                if behind_lengths(&body).is_none() && self.behind_error.is_none() {
                    self.behind_error = Some(close);
                }
                Node::Look(true, kind == b'N', Box::new(body))
            }
            _ => Node::Group(Box::new(body), capture),
        }))
    }

    fn named_group(&mut self, close: u8) -> Result<usize, PatternError> {
        let name = self.name_until(close)?;
        if self.names.iter().any(|(n, _)| *n == name) {
            if self.opts.dupnames {
                return unsupported("duplicate group names (dupnames)");
            }
            return Err(PatternError::Syntax(
                "two named subpatterns have the same name",
                self.pos() - 1,
            ));
        }
        self.groups += 1;
        self.names.push((name, self.groups));
        Ok(self.groups)
    }

    fn name_until(&mut self, close: u8) -> Result<String, PatternError> {
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c == u32::from(close) {
                self.i += 1;
                if name.is_empty() {
                    return unsupported("an empty group name");
                }
                return Ok(name);
            }
            let ch = char::from_u32(c).unwrap_or('\u{0}');
            if !(ch == '_' || ch.is_ascii_alphanumeric()) {
                return unsupported("a group name PCRE would reject");
            }
            name.push(ch);
            self.i += 1;
        }
        unsupported("an unterminated group name")
    }

    fn escape(&mut self) -> Result<Node, PatternError> {
        let Some(c) = self.peek() else {
            return Err(PatternError::Syntax("\\ at end of pattern", self.pos()));
        };
        self.i += 1;
        let ci = self.flags.caseless;
        let class = |k, neg| {
            Node::Set(Box::new(Set {
                classes: vec![(k, neg)],
                ..Set::default()
            }))
        };
        Ok(match char::from_u32(c).unwrap_or('\u{0}') {
            'd' => class(ClassKind::Digit, false),
            'D' => class(ClassKind::Digit, true),
            'w' => class(ClassKind::Word, false),
            'W' => class(ClassKind::Word, true),
            's' => class(ClassKind::Space, false),
            'S' => class(ClassKind::Space, true),
            'h' => class(ClassKind::HSpace, false),
            'H' => class(ClassKind::HSpace, true),
            'v' => class(ClassKind::VSpace, false),
            'V' => class(ClassKind::VSpace, true),
            'b' => Node::WordBoundary(false),
            'B' => Node::WordBoundary(true),
            'A' => Node::SubjectStart,
            'z' => Node::SubjectEnd,
            'Z' => Node::SubjectEndNl,
            'G' => Node::MatchStart,
            'E' => Node::Empty,
            'g' => {
                let n = if self.eat(b'{') {
                    let neg = self.eat(b'-');
                    let n = self.number();
                    match n {
                        Some(n) if self.eat(b'}') => self.relative(n, neg)?,
                        _ => {
                            if neg {
                                return unsupported("this \\g form");
                            }
                            let name = self.name_until(b'}')?;
                            return Ok(Node::NamedRef(name, ci));
                        }
                    }
                } else {
                    let neg = self.eat(b'-');
                    match self.number() {
                        Some(n) => self.relative(n, neg)?,
                        None => return unsupported("\\g subroutine calls"),
                    }
                };
                self.max_ref = self.max_ref.max(n);
                Node::Backref(n, ci)
            }
            'k' => {
                let close = match self.peek().map(|c| c as u8) {
                    Some(b'<') => b'>',
                    Some(b'\'') => b'\'',
                    Some(b'{') => b'}',
                    _ => return unsupported("this \\k form"),
                };
                self.i += 1;
                Node::NamedRef(self.name_until(close)?, ci)
            }
            '1'..='9' => {
                self.i -= 1;
                let save = self.i;
                let n = self.number().expect("digit");
                if (n < 8 || n as usize <= self.groups) && n != 0 {
                    self.max_ref = self.max_ref.max(n as usize);
                    Node::Backref(n as usize, ci)
                } else {
                    self.i = save;
                    Node::Lit(self.octal()?, ci)
                }
            }
            '0' => {
                self.i -= 1;
                Node::Lit(self.octal()?, ci)
            }
            'p' | 'P' | 'X' | 'R' | 'N' | 'C' => {
                return unsupported(&format!("\\{}", char::from_u32(c).unwrap_or('?')));
            }
            'K' => return unsupported("\\K"),
            _ => Node::Lit(self.simple_escape(c)?, ci),
        })
    }

    /// An octal escape's value: up to three octal digits from here.
    fn octal(&mut self) -> Result<u32, PatternError> {
        let mut v = 0;
        for k in 0..3 {
            match self.peek().filter(|d| (48..56).contains(d)) {
                Some(d) => {
                    v = v * 8 + (d - 48);
                    self.i += 1;
                }
                None if k == 0 => return unsupported("\\8 and \\9 escapes"),
                None => break,
            }
        }
        if v > 255 && !self.opts.utf {
            return unsupported("an octal escape above \\377");
        }
        Ok(v)
    }

    fn relative(&self, n: u32, neg: bool) -> Result<usize, PatternError> {
        if neg {
            let n = n as usize;
            if n == 0 || n > self.groups {
                return unsupported("this relative reference");
            }
            Ok(self.groups + 1 - n)
        } else if n == 0 {
            unsupported("\\g{0}")
        } else {
            Ok(n as usize)
        }
    }

    fn number(&mut self) -> Option<u32> {
        let mut n: Option<u32> = None;
        while let Some(d) = self.peek().filter(|d| (48..58).contains(d)) {
            n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d - 48));
            self.i += 1;
        }
        n
    }

    /// The character an escape that stands for one character means (`c`
    /// is the character after the backslash, already consumed).
    fn simple_escape(&mut self, c: u32) -> Result<u32, PatternError> {
        let ch = char::from_u32(c).unwrap_or('\u{0}');
        Ok(match ch {
            'n' => 10,
            'r' => 13,
            't' => 9,
            'f' => 12,
            'e' => 27,
            'a' => 7,
            'x' => {
                if self.eat(b'{') {
                    let mut v: u32 = 0;
                    let mut any = false;
                    while let Some(d) = self.peek().and_then(|d| char::from_u32(d)?.to_digit(16)) {
                        v = v.saturating_mul(16).saturating_add(d);
                        any = true;
                        self.i += 1;
                    }
                    if !any || !self.eat(b'}') {
                        return unsupported("this \\x{ form");
                    }
                    let limit = if self.opts.utf { 0x10FFFF } else { 255 };
                    if v > limit {
                        return unsupported("a \\x{} value out of range");
                    }
                    v
                } else {
                    let mut v = 0;
                    for _ in 0..2 {
                        match self.peek().and_then(|d| char::from_u32(d)?.to_digit(16)) {
                            Some(d) => {
                                v = v * 16 + d;
                                self.i += 1;
                            }
                            None => break,
                        }
                    }
                    v
                }
            }
            'c' => match self.peek() {
                Some(d) if d < 128 => {
                    self.i += 1;
                    u32::from((d as u8).to_ascii_uppercase() ^ 0x40)
                }
                _ => return unsupported("this \\c form"),
            },
            'L' | 'l' | 'U' | 'u' => {
                return Err(PatternError::Syntax(
                    "PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u",
                    self.pos() - 1,
                ));
            }
            // Any other letter PCRE 8 gives no meaning stands for itself.
            'o' | 'N' | 'p' | 'P' | 'X' | 'R' | 'C' | 'K' | 'g' | 'k' => {
                return unsupported(&format!("the escape \\{ch}"));
            }
            _ => c,
        })
    }

    fn class(&mut self, start: usize) -> Result<Node, PatternError> {
        let mut set = Set {
            caseless: self.flags.caseless,
            ..Set::default()
        };
        if self.eat(b'^') {
            set.negated = true;
        }
        let missing = |p: &Parser| {
            let _ = start;
            PatternError::Syntax("missing terminating ] for character class", p.pos())
        };
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(missing(self));
            };
            if c == u32::from(b']') && !first {
                self.i += 1;
                break;
            }
            first = false;
            // A POSIX class [:name:].
            if c == u32::from(b'[')
                && matches!(self.peek_at(1), Some(d) if d == u32::from(b':') || d == u32::from(b'.') || d == u32::from(b'='))
                && let Some(node) = self.posix()?
            {
                set.classes.push(node);
                continue;
            }
            let lo = self.class_char()?;
            let lo = match lo {
                ClassItem::Kind(k, neg) => {
                    set.classes.push((k, neg));
                    continue;
                }
                ClassItem::Char(c) => c,
            };
            if self.peek() == Some(u32::from(b'-'))
                && self.peek_at(1).is_some_and(|d| d != u32::from(b']'))
            {
                let save = self.i;
                self.i += 1;
                if self.peek() == Some(u32::from(b'[')) && self.posix_end().is_some() {
                    return Err(PatternError::Syntax(
                        "invalid range in character class",
                        self.pos(),
                    ));
                }
                let _ = save;
                let at = self.pos();
                match self.class_char()? {
                    ClassItem::Char(hi) => {
                        if hi < lo {
                            return Err(PatternError::Syntax(
                                "range out of order in character class",
                                self.pos() - 1,
                            ));
                        }
                        set.ranges.push((lo, hi));
                    }
                    ClassItem::Kind(..) => {
                        let _ = at;
                        return unsupported("a class escape as a range end");
                    }
                }
            } else {
                set.ranges.push((lo, lo));
            }
        }
        Ok(Node::Set(Box::new(set)))
    }

    /// At a `[` followed by `:`, `.` or `=`: the offset (from here) of the
    /// matching terminator before `]`, when this is POSIX class syntax
    /// (PCRE's rule: no `]` and no `[` plus terminator in between).
    fn posix_end(&self) -> Option<usize> {
        let term = self
            .peek_at(1)
            .filter(|&t| t == u32::from(b':') || t == u32::from(b'.') || t == u32::from(b'='))?;
        let close = u32::from(b']');
        let mut k = 2;
        loop {
            let c = self.peek_at(k)?;
            let next = self.peek_at(k + 1);
            if c == u32::from(b'\\') && (next == Some(close) || next == Some(c)) {
                k += 2;
            } else if (c == u32::from(b'[') && next == Some(term)) || c == close {
                return None;
            } else if c == term && next == Some(close) {
                return Some(k);
            } else {
                k += 1;
            }
        }
    }

    fn posix(&mut self) -> Result<Option<(ClassKind, bool)>, PatternError> {
        let kind = self.peek_at(1).expect("checked");
        let Some(k) = self.posix_end() else {
            return Ok(None);
        };
        if kind != u32::from(b':') {
            return unsupported("POSIX collating elements");
        }
        let at = self.pos();
        let mut neg = false;
        let mut name = String::new();
        for j in 2..k {
            let c = char::from_u32(self.peek_at(j).expect("in range")).unwrap_or('\u{0}');
            if j == 2 && c == '^' {
                neg = true;
            } else {
                name.push(c);
            }
        }
        let kind = match name.as_str() {
            "alpha" => ClassKind::Alpha,
            "digit" => ClassKind::Digit,
            "alnum" => ClassKind::Alnum,
            "ascii" => ClassKind::Ascii,
            "blank" => ClassKind::Blank,
            "cntrl" => ClassKind::Cntrl,
            "graph" => ClassKind::Graph,
            "lower" => ClassKind::Lower,
            "print" => ClassKind::Print,
            "punct" => ClassKind::Punct,
            "space" => ClassKind::Space,
            "upper" => ClassKind::Upper,
            "word" => ClassKind::Word,
            "xdigit" => ClassKind::XDigit,
            _ => {
                return Err(PatternError::Syntax("unknown POSIX class name", at + 2));
            }
        };
        self.i += k + 2;
        Ok(Some((kind, neg)))
    }

    fn class_char(&mut self) -> Result<ClassItem, PatternError> {
        let Some(c) = self.peek() else {
            return Err(PatternError::Syntax(
                "missing terminating ] for character class",
                self.pos(),
            ));
        };
        self.i += 1;
        if c != u32::from(b'\\') {
            return Ok(ClassItem::Char(c));
        }
        let Some(e) = self.peek() else {
            return Err(PatternError::Syntax("\\ at end of pattern", self.pos()));
        };
        self.i += 1;
        let kind = |k, n| Ok(ClassItem::Kind(k, n));
        match char::from_u32(e).unwrap_or('\u{0}') {
            'd' => kind(ClassKind::Digit, false),
            'D' => kind(ClassKind::Digit, true),
            'w' => kind(ClassKind::Word, false),
            'W' => kind(ClassKind::Word, true),
            's' => kind(ClassKind::Space, false),
            'S' => kind(ClassKind::Space, true),
            'h' => kind(ClassKind::HSpace, false),
            'H' => kind(ClassKind::HSpace, true),
            'v' => kind(ClassKind::VSpace, false),
            'V' => kind(ClassKind::VSpace, true),
            'b' => Ok(ClassItem::Char(8)),
            'p' | 'P' | 'X' | 'R' | 'N' | 'Q' | 'E' => unsupported("this escape in a class"),
            '0'..='9' => {
                self.i -= 1;
                Ok(ClassItem::Char(self.octal()?))
            }
            _ => Ok(ClassItem::Char(self.simple_escape(e)?)),
        }
    }
}

enum ClassItem {
    Char(u32),
    Kind(ClassKind, bool),
}

fn char_len(c: u32, utf: bool) -> usize {
    if utf {
        char::from_u32(c).map_or(1, char::len_utf8)
    } else {
        1
    }
}

/// An anchor: a position test that consumes nothing (`^`, `$`, `\A`,
/// `\z`, `\Z`, `\G`, `\b`, `\B`).
fn is_anchor(n: &Node) -> bool {
    matches!(
        n,
        Node::Bol(_)
            | Node::Eol(..)
            | Node::SubjectStart
            | Node::SubjectEnd
            | Node::SubjectEndNl
            | Node::MatchStart
            | Node::WordBoundary(_)
    )
}

fn repeatable(n: &Node) -> bool {
    !(is_anchor(n) || matches!(n, Node::Empty | Node::Repeat { .. }))
}

/// The lengths (in characters) a lookbehind body can have, one per
/// top-level alternative, when each alternative is of fixed length.
pub fn behind_lengths(n: &Node) -> Option<Vec<usize>> {
    match n {
        Node::Alt(v) => v.iter().map(fixed_len).collect(),
        _ => Some(vec![fixed_len(n)?]),
    }
}

fn fixed_len(n: &Node) -> Option<usize> {
    match n {
        n if is_anchor(n) => Some(0),
        Node::Empty | Node::Look(..) => Some(0),
        Node::Lit(..) | Node::Any(_) | Node::Set(_) => Some(1),
        Node::Group(n, _) | Node::Atomic(n) => fixed_len(n),
        Node::Cat(v) => v.iter().map(fixed_len).sum(),
        Node::Alt(v) => {
            let l = fixed_len(&v[0])?;
            v.iter().all(|n| fixed_len(n) == Some(l)).then_some(l)
        }
        Node::Repeat { node, min, max, .. } if Some(*min) == *max => {
            Some(fixed_len(node)? * *min as usize)
        }
        _ => None,
    }
}
