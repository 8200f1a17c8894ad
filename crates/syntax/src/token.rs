//! The compact token form shared by the lexer, the preprocessor and the parser.
//!
//! Values are already decoded (escapes resolved, `Base#Digits` and `_`
//! separators folded, sigils turned into their string value).

use num_bigint::BigInt;
use smol_str::SmolStr;

use crate::source::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// An atom, unquoted or quoted; the value without quotes, escapes resolved.
    Atom(SmolStr),
    /// A variable name (`Foo`, `_Bar`, `_`).
    Var(SmolStr),
    Integer(IntLit),
    Float(f64),
    /// `$c`: the character's code point.
    Char(u32),
    /// A string literal (plain or triple-quoted), escapes resolved. Adjacent
    /// strings are separate tokens: the parser concatenates them.
    String(SmolStr),
    /// An OTP 27 sigil: `~"..."`, `~b"..."`, `~s(...)`, `~B[...]`... `prefix` is
    /// the letter (`None` for a bare `~`), `value` the decoded content (raw for
    /// the upper-case, verbatim sigils).
    Sigil {
        prefix: Option<char>,
        value: SmolStr,
    },
    Keyword(Keyword),
    Punct(Punct),
    /// End of the token stream of a file (after preprocessing).
    Eof,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntLit {
    Small(i64),
    Big(Box<BigInt>),
}

/// Reserved words. `maybe` and `else` are keywords only where the
/// `maybe_expr` feature is on (OTP 27+ default); elsewhere they lex as atoms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyword {
    After,
    And,
    Andalso,
    Band,
    Begin,
    Bnot,
    Bor,
    Bsl,
    Bsr,
    Bxor,
    Case,
    Catch,
    Cond,
    Div,
    Else,
    End,
    Fun,
    If,
    Let,
    Maybe,
    Not,
    Of,
    Or,
    Orelse,
    Receive,
    Rem,
    Try,
    When,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semicolon,
    /// `.` that ends a form (followed by whitespace, a comment or end of input).
    Dot,
    /// `.` inside an expression (record field access `R#r.f`).
    Period,
    Colon,
    ColonColon,
    Arrow,
    LeftArrow,
    /// `<=` in a binary generator (same characters as the `=<`-less form)
    DoubleLeftArrow,
    /// OTP 28 strict generators `<:-` and `<:=`.
    StrictLeftArrow,
    StrictDoubleLeftArrow,
    DoubleArrow,
    ColonEq,
    Hash,
    Pipe,
    DoublePipe,
    /// `&&`: joins the generators of an OTP 28 zip generator.
    AndAnd,
    Match,
    /// `?=` (maybe match)
    MaybeMatch,
    Eq,
    NotEq,
    ExactEq,
    ExactNotEq,
    Less,
    LessEq,
    Greater,
    GreaterEq,
    Plus,
    Minus,
    Star,
    Slash,
    PlusPlus,
    MinusMinus,
    Bang,
    /// `?` (macro use)
    Question,
    /// `??` (stringify macro argument)
    DoubleQuestion,
    BinOpen,
    BinClose,
    DotDot,
    DotDotDot,
}

impl Keyword {
    /// The reserved word as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::After => "after",
            Keyword::And => "and",
            Keyword::Andalso => "andalso",
            Keyword::Band => "band",
            Keyword::Begin => "begin",
            Keyword::Bnot => "bnot",
            Keyword::Bor => "bor",
            Keyword::Bsl => "bsl",
            Keyword::Bsr => "bsr",
            Keyword::Bxor => "bxor",
            Keyword::Case => "case",
            Keyword::Catch => "catch",
            Keyword::Cond => "cond",
            Keyword::Div => "div",
            Keyword::Else => "else",
            Keyword::End => "end",
            Keyword::Fun => "fun",
            Keyword::If => "if",
            Keyword::Let => "let",
            Keyword::Maybe => "maybe",
            Keyword::Not => "not",
            Keyword::Of => "of",
            Keyword::Or => "or",
            Keyword::Orelse => "orelse",
            Keyword::Receive => "receive",
            Keyword::Rem => "rem",
            Keyword::Try => "try",
            Keyword::When => "when",
            Keyword::Xor => "xor",
        }
    }
}

impl Punct {
    /// The punctuation as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Punct::LParen => "(",
            Punct::RParen => ")",
            Punct::LBracket => "[",
            Punct::RBracket => "]",
            Punct::LBrace => "{",
            Punct::RBrace => "}",
            Punct::Comma => ",",
            Punct::Semicolon => ";",
            Punct::Dot | Punct::Period => ".",
            Punct::Colon => ":",
            Punct::ColonColon => "::",
            Punct::Arrow => "->",
            Punct::LeftArrow => "<-",
            Punct::DoubleLeftArrow => "<=",
            Punct::StrictLeftArrow => "<:-",
            Punct::StrictDoubleLeftArrow => "<:=",
            Punct::DoubleArrow => "=>",
            Punct::ColonEq => ":=",
            Punct::Hash => "#",
            Punct::Pipe => "|",
            Punct::DoublePipe => "||",
            Punct::AndAnd => "&&",
            Punct::Match => "=",
            Punct::MaybeMatch => "?=",
            Punct::Eq => "==",
            Punct::NotEq => "/=",
            Punct::ExactEq => "=:=",
            Punct::ExactNotEq => "=/=",
            Punct::Less => "<",
            Punct::LessEq => "=<",
            Punct::Greater => ">",
            Punct::GreaterEq => ">=",
            Punct::Plus => "+",
            Punct::Minus => "-",
            Punct::Star => "*",
            Punct::Slash => "/",
            Punct::PlusPlus => "++",
            Punct::MinusMinus => "--",
            Punct::Bang => "!",
            Punct::Question => "?",
            Punct::DoubleQuestion => "??",
            Punct::BinOpen => "<<",
            Punct::BinClose => ">>",
            Punct::DotDot => "..",
            Punct::DotDotDot => "...",
        }
    }
}
