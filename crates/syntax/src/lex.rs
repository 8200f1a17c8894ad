//! Lexer: Erlang source text to compact [`crate::token::Token`]s.
//!
//! STATUS: ready. `tokenize` is complete and tested (OTP 25 syntax plus OTP 27
//! triple-quoted strings and sigils, OTP 28 strict generators, the zip
//! generator's `&&` and based floats `Base#Int.Frac[#e[+-]Exp]`).
//!
//! Hand-written rather than built on `erl_tokenize`: it produces the compact
//! token form directly (no 56-byte intermediate tokens), resynchronises after a
//! bad character or literal (a diagnostic, then lexing goes on), and decides
//! `Dot` vs `Period` and `maybe`/`else` itself.
//!
//! - No trailing [`TokenKind::Eof`] is produced: the preprocessor adds one.
//! - Comments and whitespace are dropped. Whitespace is what `erl_scan` takes
//!   for it (code points up to 32 and 128..=160, so U+00A0 included) plus any
//!   other Unicode whitespace and the byte order mark.
//! - `maybe` and `else` are keywords only after `-feature(maybe_expr, enable).`
//!   in the same text; elsewhere (and when quoted) they are atoms.
//! - Every span is a byte range in `text`.

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use smol_str::SmolStr;

use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::source::{FileId, Span};
use crate::token::{IntLit, Keyword, Punct, Token, TokenKind};

/// Lex a whole file. Never panics; bad input gives `E002`/`E003` diagnostics
/// and lexing resumes after the offending character or literal.
pub fn tokenize(file: FileId, text: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lx = FormLexer::new(file, text);
    let mut tokens = Vec::with_capacity(text.len() / 5 + 16);
    while lx.next_form(&mut tokens) {}
    (tokens, lx.into_diagnostics())
}

/// A lexer that hands out one form at a time (the tokens up to and
/// including a form-ending `.`, or to the end of the text), so a file's
/// tokens never have to be held whole. The same tokens as [`tokenize`].
pub struct FormLexer<'a> {
    lx: Lexer<'a>,
    /// `-feature(maybe_expr, enable).` was met: `maybe`/`else` are keywords.
    maybe_on: bool,
}

impl<'a> FormLexer<'a> {
    pub fn new(file: FileId, text: &'a str) -> Self {
        FormLexer {
            lx: Lexer {
                file,
                src: text,
                bytes: text.as_bytes(),
                pos: 0,
                tokens: Vec::new(),
                diags: Vec::new(),
                soft_keywords: Vec::new(),
            },
            maybe_on: false,
        }
    }

    /// Appends the next form's tokens to `out`; `false` (nothing appended)
    /// at the end of the text.
    pub fn next_form(&mut self, out: &mut Vec<Token>) -> bool {
        let lx = &mut self.lx;
        lx.tokens = std::mem::take(out);
        let first = lx.tokens.len();
        lx.soft_keywords.clear();
        while lx.pos < lx.bytes.len() {
            let b = lx.bytes[lx.pos];
            let before = lx.tokens.len();
            if b.is_ascii() {
                lx.ascii(b);
            } else {
                lx.non_ascii();
            }
            if lx.tokens.len() > before
                && lx.tokens.last().map(|t| &t.kind) == Some(&TokenKind::Punct(Punct::Dot))
            {
                break;
            }
        }
        let mut tokens = std::mem::take(&mut lx.tokens);
        let got = tokens.len() > first;
        if !lx.soft_keywords.is_empty() {
            let from = if self.maybe_on {
                Some(first)
            } else {
                feature_enable_index(&tokens[first..]).map(|i| first + i)
            };
            if let Some(from) = from {
                make_maybe_keywords(&mut tokens, &lx.soft_keywords, from);
            }
        }
        if !self.maybe_on && feature_enable_index(&tokens[first..]).is_some() {
            self.maybe_on = true;
        }
        // A huge form is held until it is parsed: no spare capacity.
        if first == 0 {
            crate::growth::trim(&mut tokens);
        }
        *out = tokens;
        got
    }

    /// The diagnostics of everything lexed so far.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.lx.diags
    }

    /// Takes the diagnostics met so far.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.lx.diags)
    }
}

/// The reserved word spelled `s`, if any (`maybe` and `else` included: the
/// caller decides whether the `maybe_expr` feature is on).
pub fn keyword(s: &str) -> Option<Keyword> {
    Some(match s {
        "after" => Keyword::After,
        "and" => Keyword::And,
        "andalso" => Keyword::Andalso,
        "band" => Keyword::Band,
        "begin" => Keyword::Begin,
        "bnot" => Keyword::Bnot,
        "bor" => Keyword::Bor,
        "bsl" => Keyword::Bsl,
        "bsr" => Keyword::Bsr,
        "bxor" => Keyword::Bxor,
        "case" => Keyword::Case,
        "catch" => Keyword::Catch,
        "cond" => Keyword::Cond,
        "div" => Keyword::Div,
        "else" => Keyword::Else,
        "end" => Keyword::End,
        "fun" => Keyword::Fun,
        "if" => Keyword::If,
        "let" => Keyword::Let,
        "maybe" => Keyword::Maybe,
        "not" => Keyword::Not,
        "of" => Keyword::Of,
        "or" => Keyword::Or,
        "orelse" => Keyword::Orelse,
        "receive" => Keyword::Receive,
        "rem" => Keyword::Rem,
        "try" => Keyword::Try,
        "when" => Keyword::When,
        "xor" => Keyword::Xor,
        _ => return None,
    })
}

/// `erl_scan`'s whitespace, plus any Unicode whitespace and the byte order
/// mark (U+FEFF).
pub fn is_whitespace(c: char) -> bool {
    let u = c as u32;
    u <= 32 || (128..=160).contains(&u) || u == 0xFEFF || c.is_whitespace()
}

fn is_atom_start(c: char) -> bool {
    matches!(c, 'a'..='z' | 'ß'..='ö' | 'ø'..='ÿ')
}

fn is_var_start(c: char) -> bool {
    matches!(c, 'A'..='Z' | '_' | 'À'..='Ö' | 'Ø'..='Þ')
}

fn is_name_char(c: char) -> bool {
    matches!(c, 'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '@' | 'À'..='Ö' | 'Ø'..='ö' | 'ø'..='ÿ')
}

/// Turn the unquoted `maybe`/`else` atoms (indices in `soft`) at or after
/// `from` into keywords.
fn make_maybe_keywords(tokens: &mut [Token], soft: &[usize], from: usize) {
    for &i in soft {
        if i < from {
            continue;
        }
        if let Some(Token {
            kind: TokenKind::Atom(a),
            ..
        }) = tokens.get(i)
        {
            let k = if a == "maybe" {
                Keyword::Maybe
            } else {
                Keyword::Else
            };
            tokens[i].kind = TokenKind::Keyword(k);
        }
    }
}

/// Index just past the first `-feature(maybe_expr, enable).` attribute.
pub fn feature_enable_index(tokens: &[Token]) -> Option<usize> {
    let is_atom = |t: &Token, s: &str| matches!(&t.kind, TokenKind::Atom(a) if a == s);
    let is_punct = |t: &Token, p: Punct| t.kind == TokenKind::Punct(p);
    tokens
        .windows(7)
        .position(|w| {
            is_punct(&w[0], Punct::Minus)
                && is_atom(&w[1], "feature")
                && is_punct(&w[2], Punct::LParen)
                && is_atom(&w[3], "maybe_expr")
                && is_punct(&w[4], Punct::Comma)
                && is_atom(&w[5], "enable")
                && is_punct(&w[6], Punct::RParen)
        })
        .map(|i| i + 7)
}

struct Lexer<'a> {
    file: FileId,
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    diags: Vec<Diagnostic>,
    /// Indices of unquoted `maybe`/`else` atoms.
    soft_keywords: Vec<usize>,
}

impl Lexer<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, clamp32(start), clamp32(end))
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        let span = self.span(start, self.pos);
        // About one token per four bytes of text (a huge form reserves
        // its room once; past the estimate, the buffer doubles).
        let estimate = self.tokens.len() + (self.bytes.len() - self.pos) / 4;
        crate::growth::push_bounded(&mut self.tokens, Token { kind, span }, estimate);
    }

    fn error(&mut self, code: DiagnosticCode, start: usize, end: usize, msg: impl Into<String>) {
        let span = self.span(start, end);
        self.diags.push(Diagnostic::error(code, span, msg));
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        self.bytes.get(self.pos + n).copied()
    }

    /// The char at byte offset `at` (`None` at the end).
    fn char_at(&self, at: usize) -> Option<char> {
        self.src.get(at..).and_then(|s| s.chars().next())
    }

    fn non_ascii(&mut self) {
        let start = self.pos;
        let Some(c) = self.char_at(start) else {
            self.pos += 1;
            return;
        };
        if is_whitespace(c) {
            self.pos += c.len_utf8();
        } else if is_atom_start(c) {
            self.atom(start);
        } else if is_var_start(c) {
            self.var(start);
        } else {
            self.pos += c.len_utf8();
            self.error(
                DiagnosticCode::E002BadToken,
                start,
                self.pos,
                format!("illegal character {c:?} (U+{:04X})", c as u32),
            );
        }
    }

    fn ascii(&mut self, b: u8) {
        let start = self.pos;
        match b {
            b'%' => {
                let rest = &self.bytes[self.pos..];
                self.pos += rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            }
            0..=32 => {
                let rest = &self.bytes[self.pos..];
                self.pos += rest.iter().position(|&c| c > 32).unwrap_or(rest.len());
            }
            b'a'..=b'z' => self.atom(start),
            b'A'..=b'Z' | b'_' => self.var(start),
            b'0'..=b'9' => self.number(start),
            b'\'' => self.quoted_atom(start),
            b'"' => self.string(start),
            b'$' => self.char_lit(start),
            b'~' => self.sigil(start),
            _ => self.punct(start, b),
        }
    }

    fn name_end(&self, from: usize) -> usize {
        let mut i = from;
        while i < self.bytes.len() {
            let b = self.bytes[i];
            if b.is_ascii() {
                if b.is_ascii_alphanumeric() || b == b'_' || b == b'@' {
                    i += 1;
                } else {
                    break;
                }
            } else {
                match self.char_at(i) {
                    Some(c) if is_name_char(c) => i += c.len_utf8(),
                    _ => break,
                }
            }
        }
        i
    }

    fn atom(&mut self, start: usize) {
        let first = self.char_at(start).map_or(1, char::len_utf8);
        self.pos = self.name_end(start + first);
        let name = &self.src[start..self.pos];
        let kind = match keyword(name) {
            Some(Keyword::Maybe | Keyword::Else) => {
                self.soft_keywords.push(self.tokens.len());
                TokenKind::Atom(SmolStr::new(name))
            }
            Some(k) => TokenKind::Keyword(k),
            None => TokenKind::Atom(SmolStr::new(name)),
        };
        self.push(kind, start);
    }

    fn var(&mut self, start: usize) {
        let first = self.char_at(start).map_or(1, char::len_utf8);
        self.pos = self.name_end(start + first);
        let name = SmolStr::new(&self.src[start..self.pos]);
        self.push(TokenKind::Var(name), start);
    }

    /// Digits (of `radix`) with single `_` separators between them, from
    /// `self.pos`. Returns the digits without separators.
    fn digits(&mut self, radix: u32) -> String {
        let mut out = String::new();
        while let Some(b) = self.peek() {
            if (b as char).is_digit(radix) {
                out.push(b as char);
                self.pos += 1;
            } else if b == b'_'
                && !out.is_empty()
                && self.peek_at(1).is_some_and(|n| (n as char).is_digit(radix))
            {
                self.pos += 1;
            } else {
                break;
            }
        }
        out
    }

    fn number(&mut self, start: usize) {
        let int_digits = self.digits(10);
        // Base#Digits
        if self.peek() == Some(b'#') {
            let base = int_digits.parse::<u32>().unwrap_or(0);
            if (2..=36).contains(&base) {
                if self.peek_at(1).is_some_and(|n| (n as char).is_digit(base)) {
                    self.pos += 1;
                    let ds = self.digits(base);
                    if self.peek() == Some(b'.')
                        && self.peek_at(1).is_some_and(|n| (n as char).is_digit(base))
                    {
                        self.based_float(start, base, &ds);
                        return;
                    }
                    let value = int_value(&ds, base);
                    self.push(TokenKind::Integer(value), start);
                    return;
                }
            } else {
                self.pos += 1;
                let _ = self.digits(36);
                self.error(
                    DiagnosticCode::E002BadToken,
                    start,
                    self.pos,
                    format!("illegal integer base {int_digits} (must be 2..36)"),
                );
                self.push(TokenKind::Integer(IntLit::Small(0)), start);
                return;
            }
        }
        // Float: Digits.Digits[eE[+-]Digits]
        if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
            let frac = self.digits(10);
            let mut text = format!("{int_digits}.{frac}");
            if matches!(self.peek(), Some(b'e' | b'E')) {
                let save = self.pos;
                self.pos += 1;
                let mut sign = "";
                if let Some(s @ (b'+' | b'-')) = self.peek() {
                    sign = if s == b'-' { "-" } else { "+" };
                    self.pos += 1;
                }
                if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    let exp = self.digits(10);
                    text.push('e');
                    text.push_str(sign);
                    text.push_str(&exp);
                } else {
                    self.pos = save;
                }
            }
            let value = text.parse::<f64>().unwrap_or(f64::INFINITY);
            if !value.is_finite() {
                self.error(
                    DiagnosticCode::E002BadToken,
                    start,
                    self.pos,
                    "float literal out of range",
                );
            }
            self.push(TokenKind::Float(value), start);
            return;
        }
        let value = int_value(&int_digits, 10);
        self.push(TokenKind::Integer(value), start);
    }

    /// The rest of an OTP 28 based float (EEP 75) `Base#Int.Frac[#e[+-]Exp]`,
    /// with `self.pos` at the `.`. Base and exponent are decimal; the
    /// exponent is a power of the base (`16#1.8#e1` is `1.5 * 16`). A `#`
    /// not followed by `e`/`E` ends the literal (it is the next token).
    fn based_float(&mut self, start: usize, base: u32, int_digits: &str) {
        self.pos += 1;
        let frac = self.digits(base);
        let mut exp: Option<(bool, String)> = None;
        if self.peek() == Some(b'#') && matches!(self.peek_at(1), Some(b'e' | b'E')) {
            let save = self.pos;
            self.pos += 2;
            let negative = match self.peek() {
                Some(b'-') => {
                    self.pos += 1;
                    true
                }
                Some(b'+') => {
                    self.pos += 1;
                    false
                }
                _ => false,
            };
            if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                exp = Some((negative, self.digits(10)));
            } else {
                self.pos = save;
            }
        }
        // erl_scan rejects a fraction that runs into a name character.
        if exp.is_none() && self.char_at(self.pos).is_some_and(is_name_char) {
            self.pos = self.name_end(self.pos);
            self.error(
                DiagnosticCode::E002BadToken,
                start,
                self.pos,
                "illegal based float (the fraction runs into a name character)",
            );
            self.push(TokenKind::Float(0.0), start);
            return;
        }
        let value = based_float_value(base, int_digits, &frac, exp.as_ref());
        let value = match value {
            Some(v) if v.is_finite() => v,
            _ => {
                self.error(
                    DiagnosticCode::E002BadToken,
                    start,
                    self.pos,
                    "float literal out of range",
                );
                f64::INFINITY
            }
        };
        self.push(TokenKind::Float(value), start);
    }

    /// Parse one escape sequence after a `\` at `self.pos - 1`.
    /// Returns `None` (and reports) at the end of input.
    fn escape(&mut self, lit_start: usize) -> Option<char> {
        let esc_start = self.pos - 1;
        let c = self.char_at(self.pos)?;
        self.pos += c.len_utf8();
        let v = match c {
            'b' => '\u{8}',
            'd' => '\u{7f}',
            'e' => '\u{1b}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            's' => ' ',
            't' => '\t',
            'v' => '\u{b}',
            '0'..='7' => {
                let mut v = c as u32 - '0' as u32;
                for _ in 0..2 {
                    match self.peek() {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + (d - b'0') as u32;
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                char::from_u32(v).unwrap_or('\u{fffd}')
            }
            'x' => {
                if self.peek() == Some(b'{') {
                    self.pos += 1;
                    let mut v: u32 = 0;
                    let mut ok = true;
                    let mut n = 0;
                    loop {
                        match self.peek() {
                            Some(b'}') => {
                                self.pos += 1;
                                break;
                            }
                            Some(d) if d.is_ascii_hexdigit() => {
                                v = v
                                    .saturating_mul(16)
                                    .saturating_add((d as char).to_digit(16).unwrap_or(0));
                                n += 1;
                                self.pos += 1;
                            }
                            _ => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    match char::from_u32(v) {
                        Some(ch) if ok && n > 0 => ch,
                        _ => {
                            self.error(
                                DiagnosticCode::E002BadToken,
                                esc_start,
                                self.pos,
                                "bad \\x{...} escape",
                            );
                            '\u{fffd}'
                        }
                    }
                } else {
                    let mut v = 0u32;
                    let mut n = 0;
                    while n < 2 {
                        match self.peek() {
                            Some(d) if d.is_ascii_hexdigit() => {
                                v = v * 16 + (d as char).to_digit(16).unwrap_or(0);
                                self.pos += 1;
                                n += 1;
                            }
                            _ => break,
                        }
                    }
                    if n == 0 {
                        // erl_scan takes `\x` not followed by hex digits as `x`.
                        'x'
                    } else {
                        char::from_u32(v).unwrap_or('\u{fffd}')
                    }
                }
            }
            '^' => {
                let Some(ctl) = self.char_at(self.pos) else {
                    self.error(
                        DiagnosticCode::E003Unterminated,
                        lit_start,
                        self.pos,
                        "unterminated escape sequence",
                    );
                    return None;
                };
                self.pos += ctl.len_utf8();
                char::from_u32(ctl as u32 & 31).unwrap_or('\u{fffd}')
            }
            other => other,
        };
        Some(v)
    }

    /// Body of a quoted literal up to `close` (escapes resolved unless
    /// `verbatim`). `self.pos` is just after the opening delimiter. Returns the
    /// value and whether the closing delimiter was found.
    fn quoted(&mut self, lit_start: usize, close: char, verbatim: bool) -> (String, bool) {
        let mut out = String::new();
        loop {
            let Some(c) = self.char_at(self.pos) else {
                return (out, false);
            };
            self.pos += c.len_utf8();
            if c == close {
                return (out, true);
            }
            if c == '\\' && !verbatim {
                match self.escape(lit_start) {
                    Some(v) => out.push(v),
                    None => return (out, false),
                }
            } else {
                out.push(c);
            }
        }
    }

    fn unterminated(&mut self, start: usize, what: &str) {
        let end = self.pos;
        self.error(
            DiagnosticCode::E003Unterminated,
            start,
            end,
            format!("unterminated {what} (no closing delimiter before end of file)"),
        );
    }

    fn quoted_atom(&mut self, start: usize) {
        self.pos += 1;
        let (v, closed) = self.quoted(start, '\'', false);
        if !closed {
            self.unterminated(start, "quoted atom");
        }
        self.push(TokenKind::Atom(SmolStr::new(v)), start);
    }

    fn string(&mut self, start: usize) {
        if self.src[start..].starts_with("\"\"\"") {
            if let Some(v) = self.triple_quoted(start, true) {
                self.push(TokenKind::String(SmolStr::new(v)), start);
            }
            return;
        }
        self.pos += 1;
        let (v, closed) = self.quoted(start, '"', false);
        if !closed {
            self.unterminated(start, "string");
        }
        self.push(TokenKind::String(SmolStr::new(v)), start);
    }

    /// An OTP 27 triple-quoted string at `self.pos` (which is at its first
    /// `"`). The opening run of `n >= 3` quotes ends its line; the content
    /// ends at a line holding only indentation and `n` quotes, whose
    /// indentation is removed from every content line. Returns `None` after
    /// reporting when it is malformed (then `self.pos` is past the input
    /// consumed).
    fn triple_quoted(&mut self, start: usize, verbatim: bool) -> Option<String> {
        let mut n = 0;
        while self.peek() == Some(b'"') {
            n += 1;
            self.pos += 1;
        }
        // Rest of the opening line must be blank.
        while let Some(b) = self.peek() {
            if b == b'\n' {
                break;
            }
            if b == b' ' || b == b'\t' || b == b'\r' {
                self.pos += 1;
            } else {
                self.error(
                    DiagnosticCode::E002BadToken,
                    start,
                    self.pos,
                    "text after the opening \"\"\" of a triple-quoted string",
                );
                return None;
            }
        }
        if self.peek().is_none() {
            self.unterminated(start, "triple-quoted string");
            return None;
        }
        self.pos += 1; // the newline
        let body_start = self.pos;
        // Find the closing line.
        let mut line_start = body_start;
        let close = loop {
            let line_end = self.src[line_start..]
                .find('\n')
                .map_or(self.src.len(), |i| line_start + i);
            let line = &self.src[line_start..line_end];
            let trimmed = line.trim_start_matches([' ', '\t']);
            let indent = line.len() - trimmed.len();
            let quotes = trimmed.bytes().take_while(|&b| b == b'"').count();
            if quotes >= n {
                break Some((line_start, indent, line_start + indent + n));
            }
            if line_end >= self.src.len() {
                break None;
            }
            line_start = line_end + 1;
        };
        let Some((close_line, indent, end)) = close else {
            self.pos = self.src.len();
            self.unterminated(start, "triple-quoted string");
            return None;
        };
        self.pos = end;
        let body = if close_line > body_start {
            &self.src[body_start..close_line - 1]
        } else {
            ""
        };
        let body = body.strip_suffix('\r').unwrap_or(body);
        let mut out = String::with_capacity(body.len());
        for (i, line) in body.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let stripped = if line.trim().is_empty() {
                ""
            } else {
                let ws = line.len() - line.trim_start_matches([' ', '\t']).len();
                if ws < indent {
                    self.error(
                        DiagnosticCode::E002BadToken,
                        start,
                        end,
                        "a line of a triple-quoted string is less indented than its closing quotes",
                    );
                }
                &line[ws.min(indent)..]
            };
            if verbatim {
                out.push_str(stripped);
            } else {
                out.push_str(&unescape(stripped));
            }
        }
        Some(out)
    }

    fn char_lit(&mut self, start: usize) {
        self.pos += 1;
        let Some(c) = self.char_at(self.pos) else {
            self.unterminated(start, "character literal `$`");
            self.push(TokenKind::Char(0), start);
            return;
        };
        self.pos += c.len_utf8();
        let v = if c == '\\' {
            match self.escape(start) {
                Some(v) => v,
                None => {
                    self.unterminated(start, "character literal");
                    '\0'
                }
            }
        } else {
            c
        };
        self.push(TokenKind::Char(v as u32), start);
    }

    fn sigil(&mut self, start: usize) {
        self.pos += 1;
        let pstart = self.pos;
        let pend = self.name_end(pstart);
        let prefix_str = &self.src[pstart..pend];
        let prefix = prefix_str.chars().next();
        self.pos = pend;
        let open = self.char_at(self.pos);
        let close = match open {
            Some('(') => ')',
            Some('[') => ']',
            Some('{') => '}',
            Some('<') => '>',
            Some(c @ ('"' | '/' | '|' | '\'' | '`' | '#')) => c,
            _ => {
                self.error(
                    DiagnosticCode::E002BadToken,
                    start,
                    self.pos,
                    "`~` must start a sigil such as ~\"...\", ~b\"...\" or ~s(...)",
                );
                return;
            }
        };
        if prefix_str.chars().count() > 1 || !matches!(prefix, None | Some('b' | 'B' | 's' | 'S')) {
            self.error(
                DiagnosticCode::E002BadToken,
                start,
                self.pos,
                format!("unknown sigil prefix `{prefix_str}` (expected b, B, s or S)"),
            );
        }
        let value = if close == '"' && self.src[self.pos..].starts_with("\"\"\"") {
            let verbatim = !matches!(prefix, Some('b' | 's'));
            match self.triple_quoted(start, verbatim) {
                Some(v) => v,
                None => return,
            }
        } else {
            self.pos += 1;
            let verbatim = !matches!(prefix, None | Some('b' | 's'));
            let (v, closed) = self.quoted(start, close, verbatim);
            if !closed {
                self.unterminated(start, "sigil");
            }
            v
        };
        // A suffix (name characters) may follow; it is accepted and ignored.
        self.pos = self.name_end(self.pos);
        self.push(
            TokenKind::Sigil {
                prefix,
                value: SmolStr::new(value),
            },
            start,
        );
    }

    fn punct(&mut self, start: usize, b: u8) {
        let b1 = self.peek_at(1);
        let b2 = self.peek_at(2);
        let (p, len) = match b {
            b'(' => (Punct::LParen, 1),
            b')' => (Punct::RParen, 1),
            b'[' => (Punct::LBracket, 1),
            b']' => (Punct::RBracket, 1),
            b'{' => (Punct::LBrace, 1),
            b'}' => (Punct::RBrace, 1),
            b',' => (Punct::Comma, 1),
            b';' => (Punct::Semicolon, 1),
            b'.' => match (b1, b2) {
                (Some(b'.'), Some(b'.')) => (Punct::DotDotDot, 3),
                (Some(b'.'), _) => (Punct::DotDot, 2),
                (None | Some(b'%'), _) => (Punct::Dot, 1),
                _ => {
                    let next = self.char_at(start + 1);
                    if next.is_some_and(is_whitespace) {
                        (Punct::Dot, 1)
                    } else {
                        (Punct::Period, 1)
                    }
                }
            },
            b':' => match b1 {
                Some(b':') => (Punct::ColonColon, 2),
                Some(b'=') => (Punct::ColonEq, 2),
                _ => (Punct::Colon, 1),
            },
            b'-' => match b1 {
                Some(b'>') => (Punct::Arrow, 2),
                Some(b'-') => (Punct::MinusMinus, 2),
                _ => (Punct::Minus, 1),
            },
            b'<' => match (b1, b2) {
                (Some(b':'), Some(b'-')) => (Punct::StrictLeftArrow, 3),
                (Some(b':'), Some(b'=')) => (Punct::StrictDoubleLeftArrow, 3),
                (Some(b'-'), _) => (Punct::LeftArrow, 2),
                (Some(b'='), _) => (Punct::DoubleLeftArrow, 2),
                (Some(b'<'), _) => (Punct::BinOpen, 2),
                _ => (Punct::Less, 1),
            },
            b'>' => match b1 {
                Some(b'=') => (Punct::GreaterEq, 2),
                Some(b'>') => (Punct::BinClose, 2),
                _ => (Punct::Greater, 1),
            },
            b'=' => match (b1, b2) {
                (Some(b':'), Some(b'=')) => (Punct::ExactEq, 3),
                (Some(b'/'), Some(b'=')) => (Punct::ExactNotEq, 3),
                (Some(b'='), _) => (Punct::Eq, 2),
                (Some(b'<'), _) => (Punct::LessEq, 2),
                (Some(b'>'), _) => (Punct::DoubleArrow, 2),
                _ => (Punct::Match, 1),
            },
            b'/' => match b1 {
                Some(b'=') => (Punct::NotEq, 2),
                _ => (Punct::Slash, 1),
            },
            b'#' => (Punct::Hash, 1),
            b'|' => match b1 {
                Some(b'|') => (Punct::DoublePipe, 2),
                _ => (Punct::Pipe, 1),
            },
            b'&' if b1 == Some(b'&') => (Punct::AndAnd, 2),
            b'+' => match b1 {
                Some(b'+') => (Punct::PlusPlus, 2),
                _ => (Punct::Plus, 1),
            },
            b'*' => (Punct::Star, 1),
            b'!' => (Punct::Bang, 1),
            b'?' => match b1 {
                Some(b'?') => (Punct::DoubleQuestion, 2),
                Some(b'=') => (Punct::MaybeMatch, 2),
                _ => (Punct::Question, 1),
            },
            _ => {
                self.pos += 1;
                self.error(
                    DiagnosticCode::E002BadToken,
                    start,
                    self.pos,
                    format!("illegal character {:?}", b as char),
                );
                return;
            }
        };
        self.pos += len;
        self.push(TokenKind::Punct(p), start);
    }
}

fn clamp32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The integer value of `digits` in `radix` (digits already validated).
fn int_value(digits: &str, radix: u32) -> IntLit {
    if digits.is_empty() {
        return IntLit::Small(0);
    }
    if let Ok(v) = i64::from_str_radix(digits, radix) {
        return IntLit::Small(v);
    }
    match BigInt::parse_bytes(digits.as_bytes(), radix) {
        Some(b) => match b.to_i64() {
            Some(v) => IntLit::Small(v),
            None => IntLit::Big(Box::new(b)),
        },
        None => IntLit::Small(0),
    }
}

/// The value of a based float, computed as `erl_scan` does: in base 10 the
/// decimal text is read as a float; in any other base the digits (leading
/// zeros of the integer part and trailing zeros of the fraction dropped, one
/// kept) form an integer `N` and the value is `N * Base^(Exp - D)`, `D` being
/// the number of fraction digits. `None` when out of range.
fn based_float_value(
    base: u32,
    int_digits: &str,
    frac: &str,
    exp: Option<&(bool, String)>,
) -> Option<f64> {
    if base == 10 {
        let mut text = format!("{int_digits}.{frac}");
        if let Some((neg, e)) = exp {
            text.push('e');
            if *neg {
                text.push('-');
            }
            text.push_str(e);
        }
        return text.parse::<f64>().ok();
    }
    let int_trimmed = match int_digits.trim_start_matches('0') {
        "" => "0",
        s => s,
    };
    let frac_trimmed = match frac.trim_end_matches('0') {
        "" => "0",
        s => s,
    };
    let digits = format!("{int_trimmed}{frac_trimmed}");
    let n = BigInt::parse_bytes(digits.as_bytes(), base)?.to_f64()?;
    let e: i64 = match exp {
        None => 0,
        Some((neg, e)) => {
            let v: i64 = e.parse().ok()?;
            if *neg { -v } else { v }
        }
    };
    let scale = e.saturating_sub(frac_trimmed.len() as i64);
    let power = (base as f64).powf(scale as f64);
    if !power.is_finite() || !n.is_finite() {
        return None;
    }
    Some(n * power)
}

/// Resolve escapes in a piece of text (for non-verbatim triple-quoted sigils).
fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut lx = Lexer {
        file: FileId(0),
        src: s,
        bytes: s.as_bytes(),
        pos: 0,
        tokens: Vec::new(),
        diags: Vec::new(),
        soft_keywords: Vec::new(),
    };
    let mut out = String::with_capacity(s.len());
    while let Some(c) = lx.char_at(lx.pos) {
        lx.pos += c.len_utf8();
        if c == '\\' {
            match lx.escape(0) {
                Some(v) => out.push(v),
                None => break,
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Render a token the way `epp` stringifies a macro argument (`??Arg`) and
/// the way messages quote tokens.
pub fn token_text(kind: &TokenKind) -> String {
    match kind {
        TokenKind::Atom(a) => quote_atom(a),
        TokenKind::Var(v) => v.to_string(),
        TokenKind::Integer(IntLit::Small(i)) => i.to_string(),
        TokenKind::Integer(IntLit::Big(b)) => b.to_string(),
        TokenKind::Float(f) => float_text(*f),
        TokenKind::Char(c) => char_text(*c),
        TokenKind::String(s) => string_text(s),
        TokenKind::Sigil { prefix, value } => {
            let mut s = String::from("~");
            if let Some(p) = prefix {
                s.push(*p);
            }
            s.push_str(&string_text(value));
            s
        }
        TokenKind::Keyword(k) => k.as_str().to_string(),
        TokenKind::Punct(p) => p.as_str().to_string(),
        TokenKind::Eof => String::new(),
    }
}

/// An atom as `io_lib:write_atom/1` prints it (quoted when needed).
pub fn quote_atom(a: &str) -> String {
    let mut chars = a.chars();
    let plain = match chars.next() {
        Some(c) if is_atom_start(c) => chars.all(is_name_char) && keyword(a).is_none(),
        _ => false,
    };
    if plain {
        return a.to_string();
    }
    let mut s = String::with_capacity(a.len() + 2);
    s.push('\'');
    for c in a.chars() {
        push_escaped(&mut s, c, '\'');
    }
    s.push('\'');
    s
}

fn string_text(v: &str) -> String {
    let mut s = String::with_capacity(v.len() + 2);
    s.push('"');
    for c in v.chars() {
        push_escaped(&mut s, c, '"');
    }
    s.push('"');
    s
}

fn char_text(c: u32) -> String {
    let mut s = String::from("$");
    match char::from_u32(c) {
        Some(' ') => s.push_str("\\s"),
        Some(ch) => push_escaped(&mut s, ch, '\0'),
        None => s.push_str(&format!("\\x{{{c:X}}}")),
    }
    s
}

fn push_escaped(s: &mut String, c: char, quote: char) {
    match c {
        '\n' => s.push_str("\\n"),
        '\r' => s.push_str("\\r"),
        '\t' => s.push_str("\\t"),
        '\u{b}' => s.push_str("\\v"),
        '\u{8}' => s.push_str("\\b"),
        '\u{c}' => s.push_str("\\f"),
        '\u{1b}' => s.push_str("\\e"),
        '\u{7f}' => s.push_str("\\d"),
        '\\' => s.push_str("\\\\"),
        c if c == quote => {
            s.push('\\');
            s.push(c);
        }
        c if (c as u32) < 32 => s.push_str(&format!("\\{:o}", c as u32)),
        c => s.push(c),
    }
}

/// A float as Erlang prints it with `~w` (shortest form, always with a `.`).
pub fn float_text(f: f64) -> String {
    let s = format!("{f:?}");
    if let Some((mantissa, exp)) = s.split_once('e') {
        let mantissa = if mantissa.contains('.') {
            mantissa.to_string()
        } else {
            format!("{mantissa}.0")
        };
        format!("{mantissa}e{exp}")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tokens rendered one per item; diagnostics appended as `!CODE@start..end`.
    fn render(input: &str) -> String {
        let (toks, diags) = tokenize(FileId(0), input);
        let mut out: Vec<String> = toks
            .iter()
            .map(|t| match &t.kind {
                TokenKind::Atom(a) => format!("atom:{a}"),
                TokenKind::Var(v) => format!("var:{v}"),
                TokenKind::Integer(IntLit::Small(i)) => format!("int:{i}"),
                TokenKind::Integer(IntLit::Big(b)) => format!("big:{b}"),
                TokenKind::Float(f) => format!("float:{f:?}"),
                TokenKind::Char(c) => format!("char:{c}"),
                TokenKind::String(s) => format!("str:{s:?}"),
                TokenKind::Sigil { prefix, value } => format!("sigil:{prefix:?}:{value:?}"),
                TokenKind::Keyword(k) => format!("kw:{}", k.as_str()),
                TokenKind::Punct(Punct::Dot) => "DOT".to_string(),
                TokenKind::Punct(Punct::Period) => "PERIOD".to_string(),
                TokenKind::Punct(p) => p.as_str().to_string(),
                TokenKind::Eof => "EOF".to_string(),
            })
            .collect();
        for d in diags {
            out.push(format!(
                "!{}@{}..{}",
                d.code.as_str(),
                d.span.start,
                d.span.end
            ));
        }
        out.join(" ")
    }

    fn check(input: &str, expected: &str) {
        assert_eq!(render(input), expected, "input: {input:?}");
    }

    #[test]
    fn names_and_keywords() {
        check(
            "foo Bar _ _x ok@home case",
            "atom:foo var:Bar var:_ var:_x atom:ok@home kw:case",
        );
        check("'hello world' 'a\\'b'", "atom:hello world atom:a'b");
        check("'case'", "atom:case");
        check("åäö Ärlig", "atom:åäö var:Ärlig");
    }

    #[test]
    fn numbers() {
        check(
            "42 1_000 16#ff 2#1010 36#Zz",
            "int:42 int:1000 int:255 int:10 int:1295",
        );
        check(
            "1.5 1.0e10 2.5E-3 1_0.2_5",
            "float:1.5 float:10000000000.0 float:0.0025 float:10.25",
        );
        check(
            "123456789012345678901234567890",
            "big:123456789012345678901234567890",
        );
        check("1.e", "int:1 PERIOD atom:e");
        check("X.", "var:X DOT");
        check("1e5", "int:1 atom:e5");
        check("99#1", "int:0 !E002@0..4");
        check("16#_", "int:16 # var:_");
    }

    /// OTP 28 based floats (EEP 75). Values as `erl_scan` computes them:
    /// the exponent is a power of the base (`2#0.10101#e8` is 168.0, the
    /// example values of the `erl_tokenize` crate's float tests); the
    /// rounding of `36#z.z#e-1` is what `1295 * math:pow(36, -2)` gives in erl.
    #[test]
    fn based_floats() {
        check(
            "2#0.1 2#0.111 16#1.8#e3 16#f_f.F_F 2#0.10101#e8 2#1.0#E-3 2#0.0#e+5",
            "float:0.5 float:0.875 float:6144.0 float:255.99609375 float:168.0 float:0.125 float:0.0",
        );
        check(
            "1_6#fefe.fefe#e1_6 32#vrv.vrv#e15 36#z.z#e-1 10#1.5#e3 3#0.1",
            "float:1.2041849337671418e24 float:1.2331041872800477e27 float:0.9992283950617283 float:1500.0 float:0.3333333333333333",
        );
        // `#` without an exponent ends the float: it is the next token.
        check("2#0.1#", "float:0.5 #");
        check("2#0.1#r.f", "float:0.5 # atom:r PERIOD atom:f");
        // `Base#Int.` not followed by a digit of the base stays an integer.
        check("16#ff.", "int:255 DOT");
        check("2#1.2", "int:1 PERIOD int:2");
        check("16#a.b", "float:10.6875");
        // The fraction may not run into a name character.
        check("16#1.8g x", "float:0.0 atom:x !E002@0..7");
        check("16#1.8#e3x", "float:6144.0 atom:x");
        check("2#1.0#e99999", "float:inf !E002@0..12");
    }

    #[test]
    fn chars_and_escapes() {
        check(
            "$a $\\n $\\s $\\x41 $\\x{1F600} $\\101 $\\^a $\\\\ $ ",
            "char:97 char:10 char:32 char:65 char:128512 char:65 char:1 char:92 char:32",
        );
        check("\"a\\tb\\\"c\"", "str:\"a\\tb\\\"c\"");
        check(
            "\"\\e\\d\\v\\f\\b\"",
            "str:\"\\u{1b}\\u{7f}\\u{b}\\u{c}\\u{8}\"",
        );
        check("\"x\" \"y\"", "str:\"x\" str:\"y\"");
    }

    #[test]
    fn punctuation() {
        check(
            "-> <- <= => := :: || ++ -- =:= =/= == /= =< >= << >> ?= ?? ? ! # | .. ... <:- <:= &&",
            "-> <- <= => := :: || ++ -- =:= =/= == /= =< >= << >> ?= ?? ? ! # | .. ... <:- <:= &&",
        );
        check("R#r.f", "var:R # atom:r PERIOD atom:f");
        check("a.%c\nb.\n", "atom:a DOT atom:b DOT");
        check("a.\u{a0}b", "atom:a DOT atom:b");
        check("f() -> ok.", "atom:f ( ) -> atom:ok DOT");
    }

    #[test]
    fn comments_and_whitespace() {
        check("% all comment\nfoo % more\n", "atom:foo");
        check("a\u{a0}b\u{2003}c", "atom:a atom:b atom:c");
        check("\u{feff}-module(m).", "- atom:module ( atom:m ) DOT");
    }

    #[test]
    fn maybe_is_a_keyword_only_with_the_feature() {
        check("maybe else 'maybe'", "atom:maybe atom:else atom:maybe");
        check(
            "-feature(maybe_expr, enable).\nf() -> maybe ok else 'else' end.",
            "- atom:feature ( atom:maybe_expr , atom:enable ) DOT atom:f ( ) -> kw:maybe atom:ok kw:else atom:else kw:end DOT",
        );
    }

    #[test]
    fn triple_quoted_and_sigils() {
        check("\"\"\"\n  a\n   b\\n\n  \"\"\"", "str:\"a\\n b\\\\n\"");
        check(
            "~\"a\\n\" ~b\"x\" ~s(y) ~S[\\n] ~B{z}",
            "sigil:None:\"a\\n\" sigil:Some('b'):\"x\" sigil:Some('s'):\"y\" sigil:Some('S'):\"\\\\n\" sigil:Some('B'):\"z\"",
        );
        check("~b\"\"\"\n  q\\tr\n  \"\"\"", "sigil:Some('b'):\"q\\tr\"");
        check("~\"\"\"\n  q\\t\n  \"\"\"", "sigil:None:\"q\\\\t\"");
        check(
            "\"\"\"\"\n a \"\"\" b\n \"\"\"\"",
            "str:\"a \\\"\\\"\\\" b\"",
        );
    }

    #[test]
    fn errors_recover() {
        check("a ` b", "atom:a atom:b !E002@2..3");
        check("a\u{7f}b", "atom:a atom:b !E002@1..2");
        check("a \u{263a} b", "atom:a atom:b !E002@2..5");
        check("x \"abc", "atom:x str:\"abc\" !E003@2..6");
        check("x 'abc", "atom:x atom:abc !E003@2..6");
        check("$", "char:0 !E003@0..1");
        check("\"\"\"\nabc", "!E003@0..7");
        check("\"\"\" x\n\"\"\"", "atom:x !E002@0..4 !E003@6..9");
        check("~ x", "atom:x !E002@0..1");
        check("\"\\", "str:\"\" !E003@0..2");
    }

    #[test]
    fn garbage_never_panics() {
        let inputs: Vec<Vec<u8>> = vec![
            b"\"\\x{".to_vec(),
            b"$\\x{ffffffffffff}".to_vec(),
            b"'\\^".to_vec(),
            b"~s\"\"\"\n".to_vec(),
            b"16#".to_vec(),
            b"1.0e".to_vec(),
            b"1.0e999999".to_vec(),
            vec![0xff, 0xfe, b'a'],
        ];
        for bytes in inputs {
            let text = String::from_utf8_lossy(&bytes);
            let _ = tokenize(FileId(0), &text);
        }
        let mut seed: u32 = 12345;
        let base =
            "-module(m).\nf(X) -> <<X:8>>, $a, \"s\\n\", 'q', 16#ff, 1.5e3, ~s(x), #{a => 1}.\n";
        for _ in 0..2000 {
            let mut bytes = base.as_bytes().to_vec();
            for _ in 0..4 {
                seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
                let i = (seed >> 8) as usize % bytes.len();
                seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
                bytes[i] = (seed >> 16) as u8;
            }
            let text = String::from_utf8_lossy(&bytes);
            let (toks, _) = tokenize(FileId(0), &text);
            for t in toks {
                assert!(t.span.start <= t.span.end && t.span.end as usize <= text.len());
            }
        }
    }

    #[test]
    fn token_text_renders_like_epp() {
        let (toks, _) = tokenize(FileId(0), "'A b' ok \"x\\n\" $a 1.5 [X]");
        let s: Vec<String> = toks.iter().map(|t| token_text(&t.kind)).collect();
        assert_eq!(s.join(" "), "'A b' ok \"x\\n\" $a 1.5 [ X ]");
        assert_eq!(float_text(1e20), "1.0e20");
    }
}
