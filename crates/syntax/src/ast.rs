//! The surface syntax tree produced by [`crate::parse`].
//!
//! Patterns, guards and expressions share one type, [`Expr`]: the parser
//! reads a pattern as an expression, and lowering interprets it as a pattern
//! where the grammar puts one. Every node carries its span. Where the parser
//! could not make sense of the input it leaves [`ExprKind::Missing`] and
//! reports a diagnostic.

use smol_str::SmolStr;

use crate::ir::{BinOp, UnOp};
use crate::source::Span;
use crate::token::IntLit;

/// A parsed file: its forms in source order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    pub forms: Vec<Form>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Form {
    /// `-name(Args).` or `-name Value.`: `-module`, `-export`, `-import`,
    /// `-compile`, `-behaviour`, `-doc`, `-feature` and wild attributes.
    Attribute(Attribute),
    /// `-record(name, {field = Default :: Type, ...}).`
    Record(RecordDecl),
    /// `-spec`, `-type`, `-opaque`, `-callback`, `-define` and other forms
    /// whose content is skipped up to the form's final `.`.
    Skipped {
        name: SmolStr,
        span: Span,
    },
    Function(Function),
    /// A form the parser gave up on (a diagnostic was reported).
    Error {
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: SmolStr,
    /// The arguments between the parentheses (one for `-name Value.`).
    pub args: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RecordDecl {
    pub name: SmolStr,
    pub fields: Vec<RecordFieldDecl>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RecordFieldDecl {
    pub name: SmolStr,
    pub default: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: SmolStr,
    pub arity: u32,
    pub clauses: Vec<Clause>,
    /// First clause head to the final `.`.
    pub span: Span,
}

/// A clause of a function, `case`, `receive`, `try ... of` or `fun`.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    pub pats: Vec<Expr>,
    /// `;`-separated alternatives of `,`-separated tests. Empty: no guard.
    pub guard: Vec<Vec<Expr>>,
    pub body: Vec<Expr>,
    pub span: Span,
}

/// `Class:Reason:Stack when Guard -> Body` in a `try ... catch`.
#[derive(Clone, Debug, PartialEq)]
pub struct CatchClause {
    pub class: Option<Expr>,
    pub reason: Expr,
    pub stack: Option<Expr>,
    pub guard: Vec<Vec<Expr>>,
    pub body: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }

    pub fn missing(span: Span) -> Self {
        Expr {
            kind: ExprKind::Missing,
            span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Could not be parsed (a diagnostic was reported).
    Missing,
    Var(SmolStr),
    Atom(SmolStr),
    Int(IntLit),
    Float(f64),
    Char(u32),
    /// Adjacent string literals, already concatenated.
    String(SmolStr),
    /// `~b"..."`, `~s"..."`...: `prefix` as in [`crate::token::TokenKind::Sigil`].
    Sigil {
        prefix: Option<char>,
        value: SmolStr,
    },
    Tuple(Vec<Expr>),
    /// `[A, B | Tail]`; `[]` has no elements and no tail.
    List {
        elems: Vec<Expr>,
        tail: Option<Box<Expr>>,
    },
    Binary(Vec<BinElem>),
    /// `[Body || Qualifiers]`, `<<Body || Qualifiers>>`, `#{K => V || Qualifiers}`
    /// (for a map, `body` is a [`ExprKind::Tuple`] `{K, V}`).
    Comprehension {
        kind: ComprehensionKind,
        body: Box<Expr>,
        qualifiers: Vec<Qualifier>,
    },
    /// `#{...}` or `Base#{...}`.
    Map {
        base: Option<Box<Expr>>,
        fields: Vec<MapField>,
    },
    /// `#r{f = V}` or `Base#r{f = V}` (update).
    Record(Box<RecordExpr>),
    /// `Base#r.f`
    RecordAccess(Box<RecordAccessExpr>),
    /// `#r.f`
    RecordIndex(Box<RecordIndexExpr>),
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
    },
    /// `M:F`: the callee of a remote call (or, in a `catch` clause, `Class:Reason`).
    Remote {
        module: Box<Expr>,
        function: Box<Expr>,
    },
    Op(BinOp, Box<Expr>, Box<Expr>),
    UnOp(UnOp, Box<Expr>),
    Andalso(Box<Expr>, Box<Expr>),
    Orelse(Box<Expr>, Box<Expr>),
    Match(Box<Expr>, Box<Expr>),
    /// `Pat ?= Expr`
    MaybeMatch(Box<Expr>, Box<Expr>),
    Send(Box<Expr>, Box<Expr>),
    Catch(Box<Expr>),
    /// `begin ... end`
    Block(Vec<Expr>),
    Case {
        arg: Box<Expr>,
        clauses: Vec<Clause>,
    },
    /// `if`: each clause has no pattern, only a guard.
    If(Vec<Clause>),
    Receive(Box<ReceiveExpr>),
    Try(Box<TryExpr>),
    /// `fun (...) -> ... end` or `fun Name(...) -> ... end`.
    Fun(Box<FunExpr>),
    /// `fun f/A` (module `None`) or `fun M:F/A`.
    FunRef {
        module: Option<Box<Expr>>,
        name: Box<Expr>,
        arity: Box<Expr>,
    },
    Maybe(Box<MaybeExpr>),
}

// The larger kinds of expression are boxed, so that an `Expr` is 56
// bytes: a huge literal's syntax tree is held whole until it is lowered.

#[derive(Clone, Debug, PartialEq)]
pub struct RecordExpr {
    pub base: Option<Box<Expr>>,
    pub name: SmolStr,
    pub fields: Vec<RecordField>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RecordAccessExpr {
    pub base: Box<Expr>,
    pub name: SmolStr,
    pub field: SmolStr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RecordIndexExpr {
    pub name: SmolStr,
    pub field: SmolStr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReceiveExpr {
    pub clauses: Vec<Clause>,
    pub after: Option<AfterClause>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TryExpr {
    pub body: Vec<Expr>,
    pub of_clauses: Vec<Clause>,
    pub catch_clauses: Vec<CatchClause>,
    pub after: Option<Vec<Expr>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunExpr {
    pub name: Option<SmolStr>,
    pub clauses: Vec<Clause>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MaybeExpr {
    pub body: Vec<Expr>,
    pub else_clauses: Option<Vec<Clause>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AfterClause {
    pub timeout: Box<Expr>,
    pub body: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComprehensionKind {
    List,
    Binary,
    Map,
}

#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // few per comprehension; boxing buys nothing
pub enum Qualifier {
    /// `Pat <- E`, `Pat <= E`, `K := V <- E` (then `value` is `Some(V)`).
    Generator {
        kind: GeneratorKind,
        strict: bool,
        pat: Expr,
        value: Option<Expr>,
        expr: Expr,
    },
    /// OTP 28 zip generator `G1 && G2 && ...`: two or more generators (only
    /// [`Qualifier::Generator`]s) advanced in lockstep.
    Zip(Vec<Qualifier>),
    Filter(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeneratorKind {
    List,
    Binary,
    Map,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MapField {
    pub key: Expr,
    pub value: Expr,
    /// `:=` rather than `=>`.
    pub exact: bool,
}

/// `field = Value` in a record expression; `name` is `_` for `_ = Value`.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordField {
    pub name: SmolStr,
    pub value: Expr,
    pub span: Span,
}

/// `Value:Size/Type-Spec` in a binary.
#[derive(Clone, Debug, PartialEq)]
pub struct BinElem {
    pub value: Expr,
    pub size: Option<Expr>,
    /// Type specifiers in order: `("binary", None)`, `("unit", Some(8))`.
    pub specs: Vec<(SmolStr, Option<u32>)>,
    pub span: Span,
}

#[cfg(test)]
mod tests {
    /// The tree of a huge literal is held whole until it is lowered: keep
    /// a node at 56 bytes (it was 112).
    #[test]
    fn an_expression_node_is_56_bytes() {
        assert_eq!(std::mem::size_of::<super::Expr>(), 56);
    }
}
