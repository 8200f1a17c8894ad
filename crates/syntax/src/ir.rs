//! The core IR: a Core-Erlang-like tree that the static pass and the VM both read.
//!
//! Shape:
//! - A [`Program`] holds [`Module`]s by name; a module holds [`Function`]s.
//! - Each function owns one [`Body`]: arenas of [`Expr`], [`Pat`] and [`Clause`]
//!   indexed by [`ExprId`], [`PatId`] and [`ClauseId`]. Anonymous funs written
//!   inside a function live in the same body and share its variable space.
//! - Spans live in a side table ([`BodySourceMap`]), never inside nodes.
//! - Variables are resolved to [`VarId`]s unique within a function body
//!   (single assignment made explicit): a pattern either *binds* a variable
//!   ([`Pat::Var`]) or *compares* with one already bound ([`Pat::Bound`]).
//!   Variables bound in every branch of a `case`/`if`/`receive`/`try` are
//!   bound after it, as in Erlang; the same `VarId` is bound in each branch.
//! - Every call (local, remote, dynamic, `apply` of a fun) and every send has a
//!   [`CallSiteId`], unique within its module and stable for the same source.
//!   The static pass and the VM refer to call sites by `(module, CallSiteId)`.
//!
//! What lowering has already done, so neither consumer needs to:
//! - macros expanded, records turned into tuples (`#r{}` construction, `R#r.f`
//!   access with the `{badrecord, r}` check, update, patterns, `#r.f` index),
//!   strings turned into list literals, `andalso`/`orelse` turned into `case`
//!   with the BEAM's `{badarg, V}`-free semantics (the right side is returned
//!   as is), `if` into [`Expr::Case`] with [`CaseKind::If`], imported calls
//!   into remote calls, auto-imported BIFs into `erlang:` remote calls;
//! - operators are [`Expr::Op`]/[`Expr::UnOp`] (`erlang:'+'` etc. semantics).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use serde::Serialize;
use smol_str::SmolStr;

use crate::diagnostic::Diagnostic;
use crate::source::{SourceDb, Span};

/// Atoms, function and module names. Cheap to clone (inline up to 23 bytes).
pub type Name = SmolStr;

macro_rules! id_type {
    ($($(#[$m:meta])* $name:ident;)*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

id_type! {
    /// An expression in a [`Body`].
    ExprId;
    /// A pattern in a [`Body`].
    PatId;
    /// A clause (patterns, guard, body) in a [`Body`].
    ClauseId;
    /// A variable, unique within a function [`Body`] (funs inside share it).
    VarId;
    /// A call or send site, unique within a [`Module`].
    CallSiteId;
    /// A `fun` expression, unique within a [`Module`] (numbered in source order).
    FunId;
}

/// Everything loaded: modules, their files, and the diagnostics of loading.
#[derive(Debug, Default)]
pub struct Program {
    /// Modules by name (sorted: iteration order is deterministic).
    pub modules: BTreeMap<Name, Module>,
    pub sources: SourceDb,
    /// Diagnostics of every file, sorted by file id then position.
    pub diagnostics: Vec<Diagnostic>,
}

impl Program {
    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.get(name)
    }

    pub fn function(&self, module: &str, name: &str, arity: u32) -> Option<&Function> {
        self.module(module)?.function(name, arity)
    }
}

/// `(name, arity)`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FunName {
    pub name: Name,
    pub arity: u32,
}

impl std::fmt::Display for FunName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.name, self.arity)
    }
}

#[derive(Debug, Clone)]
pub struct Module {
    pub name: Name,
    /// The `.erl` file the module comes from.
    pub file: crate::source::FileId,
    /// Span of the `-module(...)` attribute.
    pub span: Span,
    /// Functions in source order.
    pub functions: Vec<Function>,
    /// Index into `functions` by name/arity.
    pub function_index: BTreeMap<FunName, usize>,
    /// Exported functions (all of them under `-compile(export_all)`).
    pub exports: Vec<FunName>,
    /// `-behaviour(...)` / `-behavior(...)` names.
    pub behaviours: Vec<Name>,
    /// Other attributes (`-record` and `-define` excluded), with constant values.
    pub attributes: Vec<Attribute>,
    /// Record definitions (field names in order; field 1 of the tuple is the record name).
    pub records: BTreeMap<Name, RecordDef>,
    /// Every call site of the module, indexed by [`CallSiteId`].
    pub call_sites: Vec<CallSite>,
    /// Number of `fun` expressions (indexed by [`FunId`]).
    pub fun_count: u32,
    /// The `ets:fun2ms/1` and `dbg:fun2ms/1` calls the `ms_transform` parse
    /// transform rewrote into match specifications, in source order.
    pub fun2ms: Vec<Fun2ms>,
}

/// A `fun2ms` call rewritten into the match specification the compiler
/// puts there (the IR holds the lowered literal in its place).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fun2ms {
    /// The `fun` the call was given.
    pub span: Span,
    /// The match specification as Erlang text (variables of the enclosing
    /// function by name).
    pub text: String,
}

impl Module {
    /// Whether `f` is a stub the runtime replaces with native code: every
    /// clause ends in a call of `erlang:nif_error/1,2` (the BIFs of
    /// `erlang.erl`, `lists.erl`, `ets.erl`; a NIF library's Erlang side), or
    /// is one call, with constant arguments, of a local function that does
    /// (`crypto`'s `?nif_stub`, `nif_stub_error(?LINE)`; a wrapper passing
    /// its arguments on to a stub is code). The stub never returns; the
    /// native code loaded in its place does.
    pub fn is_native_stub(&self, f: &Function) -> bool {
        let body = &f.body;
        self.ends_in_nif_error(f)
            || (!f.clauses.is_empty()
                && f.clauses.iter().all(|&c| {
                    let Expr::Call { target, args, .. } = body.expr(body.clause(c).body) else {
                        return false;
                    };
                    let CallTarget::Local { name, arity } = &**target else {
                        return false;
                    };
                    args.iter().all(|&a| matches!(body.expr(a), Expr::Lit(_)))
                        && self
                            .function(name, *arity)
                            .is_some_and(|g| self.ends_in_nif_error(g))
                }))
    }

    /// Every clause of `f` ends in a call of `erlang:nif_error/1,2`.
    fn ends_in_nif_error(&self, f: &Function) -> bool {
        let body = &f.body;
        !f.clauses.is_empty()
            && f.clauses.iter().all(|&c| {
                let mut e = body.clause(c).body;
                while let Expr::Block(es) = body.expr(e)
                    && let Some(&last) = es.last()
                {
                    e = last;
                }
                matches!(body.expr(e), Expr::Call { site, .. }
                    if self.call_sites.get(site.index())
                        .and_then(|s| s.target.as_ref())
                        .is_some_and(|t| t.module == "erlang"
                            && t.name == "nif_error"
                            && matches!(t.arity, 1 | 2)))
            })
    }

    /// Whether the module loads native code when it is loaded (an
    /// `-on_load` function: a NIF library's Erlang side).
    pub fn has_on_load(&self) -> bool {
        self.attributes.iter().any(|a| a.name == "on_load")
    }

    pub fn function(&self, name: &str, arity: u32) -> Option<&Function> {
        let key = FunName {
            name: Name::new(name),
            arity,
        };
        self.function_index.get(&key).map(|&i| &self.functions[i])
    }

    pub fn call_site(&self, id: CallSiteId) -> &CallSite {
        &self.call_sites[id.index()]
    }

    /// Applies `fix` to every span the module holds (its side tables), e.g.
    /// to renumber file ids.
    pub fn remap_spans(module: &mut Module, fix: &dyn Fn(&mut Span)) {
        fix(&mut module.span);
        for r in module.records.values_mut() {
            fix(&mut r.span);
        }
        for a in &mut module.attributes {
            fix(&mut a.span);
        }
        for c in &mut module.call_sites {
            fix(&mut c.span);
        }
        for m in &mut module.fun2ms {
            fix(&mut m.span);
        }
        for f in &mut module.functions {
            fix(&mut f.span);
            let map = &mut f.source_map;
            for s in map
                .exprs
                .iter_mut()
                .chain(map.pats.iter_mut())
                .chain(map.clauses.iter_mut())
                .chain(map.vars.iter_mut())
            {
                fix(s);
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordDef {
    pub name: Name,
    pub fields: Vec<Name>,
    /// Each field's declared default as a constant: `undefined` where none
    /// is declared, [`Const::NotConstant`] where the default is an
    /// expression (evaluated at each construction).
    pub defaults: Vec<Const>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attribute {
    pub name: Name,
    pub value: Const,
    pub span: Span,
}

/// A constant term (attribute values, literals of any shape).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Const {
    Atom(Name),
    Int(i64),
    BigInt(String),
    Float(f64),
    /// A string literal (a list of its characters' code points).
    String(String),
    Nil,
    Cons(Box<Const>, Box<Const>),
    Tuple(Vec<Const>),
    Binary(Vec<u8>),
    Map(Vec<(Const, Const)>),
    /// A fun reference `fun m:f/a` or `fun f/a` in an attribute.
    FunRef {
        module: Option<Name>,
        name: Name,
        arity: u32,
    },
    /// Anything that is not a constant (kept so nothing is silently dropped).
    NotConstant,
}

/// Where a call site is and what it calls, for events and reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallSite {
    pub span: Span,
    /// The function the site is in.
    pub function: FunName,
    /// `erlang:whereis/1` when the target is known statically, `None` for a
    /// dynamic call or the application of a fun.
    pub target: Option<MFA>,
}

/// A statically known call target.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct MFA {
    pub module: Name,
    pub name: Name,
    pub arity: u32,
}

impl std::fmt::Display for MFA {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}/{}", self.module, self.name, self.arity)
    }
}

#[derive(Debug, Clone)]
pub struct Function {
    pub name: Name,
    pub arity: u32,
    pub exported: bool,
    /// The function's clauses (each with `arity` patterns).
    pub clauses: Vec<ClauseId>,
    pub body: Body,
    pub source_map: BodySourceMap,
    /// Span of the whole function (first clause head to the final `.`).
    pub span: Span,
    /// Defined only in a block a test macro switches on (a taken
    /// `-ifdef(TEST).` with no other branch, [`crate::pp::PpOutput::test_only`]):
    /// the module's own tests, which a build without the macro leaves out.
    pub test_only: bool,
}

impl Function {
    pub fn fun_name(&self) -> FunName {
        FunName {
            name: self.name.clone(),
            arity: self.arity,
        }
    }
}

/// The arenas of one function.
#[derive(Debug, Default, Clone)]
pub struct Body {
    pub exprs: Vec<Expr>,
    pub pats: Vec<Pat>,
    pub clauses: Vec<Clause>,
    /// Source names of the variables, indexed by [`VarId`] (`_` variables get
    /// generated names such as `_@3`; compiler temporaries start with `@`).
    pub vars: Vec<Name>,
}

impl Body {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }
    pub fn pat(&self, id: PatId) -> &Pat {
        &self.pats[id.index()]
    }
    pub fn clause(&self, id: ClauseId) -> &Clause {
        &self.clauses[id.index()]
    }
    pub fn var_count(&self) -> usize {
        self.vars.len()
    }
    /// How many elements the list expression `e` has, when it is written
    /// out to its end (`[A, B]`, `[]`); `None` for anything else.
    pub fn written_list_len(&self, mut e: ExprId) -> Option<u32> {
        let mut n = 0;
        loop {
            match self.expr(e) {
                Expr::Nil => return Some(n),
                Expr::Cons(_, tail) => {
                    n += 1;
                    e = *tail;
                }
                _ => return None,
            }
        }
    }
}

/// Spans of the nodes of a [`Body`], indexed like its arenas.
#[derive(Debug, Default, Clone)]
pub struct BodySourceMap {
    pub exprs: Vec<Span>,
    pub pats: Vec<Span>,
    pub clauses: Vec<Span>,
    /// The span where each variable is first bound.
    pub vars: Vec<Span>,
}

impl BodySourceMap {
    pub fn expr(&self, id: ExprId) -> Span {
        self.exprs[id.index()]
    }
    pub fn pat(&self, id: PatId) -> Span {
        self.pats[id.index()]
    }
    pub fn clause(&self, id: ClauseId) -> Span {
        self.clauses[id.index()]
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Atom(Name),
    Int(i64),
    BigInt(Box<BigInt>),
    Float(f64),
    /// A string literal: the list of its characters' code points (`[]` when
    /// empty). A boxed `str` rather than a [`Name`] keeps a `Literal` 24
    /// bytes (two inline-string variants would need a tag word).
    String(Box<str>),
}

/// A clause of a function, `case`, `receive`, `try ... of`, `fun`, or `catch`
/// (where `pats` is `[Class, Reason, Stacktrace]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Clause {
    pub pats: Vec<PatId>,
    /// Disjunction (`;`) of conjunctions (`,`) of guard tests. Empty: no guard.
    pub guard: Vec<Vec<ExprId>>,
    pub body: ExprId,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// Something the parser could not make sense of (a diagnostic was
    /// reported). Evaluating it raises `error({racewit_missing_code, Line})`.
    Missing,
    Lit(Literal),
    Var(VarId),
    Nil,
    Cons(ExprId, ExprId),
    Tuple(Vec<ExprId>),
    /// `<<Seg, ...>>`
    Binary(Vec<BinSeg<ExprId>>),
    /// `#{K => V}` (base `None`) or `Base#{K => V, K := V}`.
    Map {
        base: Option<ExprId>,
        fields: Box<[MapField]>,
    },
    /// Exprs evaluated in order; the value is the last one's.
    Block(Vec<ExprId>),
    /// `Pat = Expr`: binds the pattern's variables, `{badmatch, V}` on failure.
    Match(PatId, ExprId),
    Op(BinOp, ExprId, ExprId),
    UnOp(UnOp, ExprId),
    /// `A ! B`
    Send {
        site: CallSiteId,
        to: ExprId,
        msg: ExprId,
    },
    /// The target is boxed and the arguments a boxed slice so that an
    /// `Expr` stays 32 bytes (most of a module's memory is its
    /// expressions).
    Call {
        site: CallSiteId,
        target: Box<CallTarget>,
        args: Box<[ExprId]>,
    },
    /// `case Arg of Clauses end` (each clause has one pattern), and `if` (with
    /// `arg` a `Nil` literal and one wildcard pattern per clause). No clause
    /// matching raises according to `kind`.
    Case {
        kind: CaseKind,
        arg: ExprId,
        clauses: Vec<ClauseId>,
    },
    Receive {
        clauses: Box<[ClauseId]>,
        after: Option<After>,
    },
    /// `try Body of OfClauses catch CatchClauses after After end`.
    Try(Box<TryExpr>),
    /// `catch Expr`
    Catch(ExprId),
    /// `fun (...) -> ... end`, possibly named (`fun Name(...) -> ... end`).
    Fun(Box<FunExpr>),
    /// `fun f/A` (local; `module` is the current module) and `fun M:F/A`
    /// (each part an expression, usually literals).
    FunRef {
        module: Option<ExprId>,
        name: ExprId,
        arity: ExprId,
    },
    /// List, binary and map comprehensions.
    Comprehension(Box<Comprehension>),
    /// `maybe Items else ElseClauses end` (see [`MaybeExpr`]).
    Maybe(Box<MaybeExpr>),
    /// `Pat ?= Expr` (only inside [`Expr::Maybe`]).
    MaybeMatch(PatId, ExprId),
}

/// `try Body of OfClauses catch CatchClauses after After end`.
/// `of_clauses` empty means the body's value is the result; each catch
/// clause has 3 patterns: class, reason, stacktrace.
#[derive(Debug, Clone, PartialEq)]
pub struct TryExpr {
    pub body: ExprId,
    pub of_clauses: Vec<ClauseId>,
    pub catch_clauses: Vec<ClauseId>,
    pub after: Option<ExprId>,
}

/// `maybe Items else ElseClauses end`: items are ordinary expressions and
/// [`Expr::MaybeMatch`]; a `?=` that fails leaves the block with the
/// non-matching value (matched against `else` clauses when present, where
/// no match raises `{else_clause, V}`).
#[derive(Debug, Clone, PartialEq)]
pub struct MaybeExpr {
    pub body: Vec<ExprId>,
    pub else_clauses: Option<Vec<ClauseId>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CaseKind {
    /// `case`: `{case_clause, V}`
    Case,
    /// `if`: `if_clause`
    If,
    /// Lowered from `andalso`/`orelse`: a non-boolean left side raises `{badarg, V}`.
    Boolean,
    /// Lowered record access/update: a non-record raises `{badrecord, R}`
    /// (`R` being the record name in the second clause's body).
    Record,
}

#[derive(Debug, Clone, PartialEq)]
pub struct After {
    pub timeout: ExprId,
    pub body: ExprId,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CallTarget {
    /// A function of the current module (not a BIF: those become `Remote`).
    Local { name: Name, arity: u32 },
    /// `M:F(...)`, where `module` and `function` are expressions (literal atoms
    /// when known statically).
    Remote { module: ExprId, function: ExprId },
    /// `F(...)` where `F` is an expression evaluating to a fun.
    Apply { fun: ExprId },
}

#[derive(Debug, Clone, PartialEq)]
pub struct FunExpr {
    pub id: FunId,
    /// `Some(var)` for a named fun: the variable bound to the fun itself in its body.
    pub name: Option<VarId>,
    pub arity: u32,
    pub clauses: Vec<ClauseId>,
    /// Variables of the enclosing body the fun uses (captured at creation), sorted.
    pub free_vars: Vec<VarId>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MapField {
    pub key: ExprId,
    pub value: ExprId,
    /// `:=` (key must exist) vs `=>`.
    pub exact: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Comprehension {
    pub kind: ComprehensionKind,
    /// Generators and filters, evaluated left to right (a generator's
    /// expression before anything to its right).
    pub qualifiers: Vec<Qualifier>,
    /// The element: for a map comprehension, `Tuple([K, V])` standing for `K => V`.
    pub body: ExprId,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ComprehensionKind {
    List,
    Binary,
    Map,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Qualifier {
    Generator {
        kind: GeneratorKind,
        /// For a map generator `K := V <- M`, a `Tuple([K, V])` pattern.
        pat: PatId,
        expr: ExprId,
        /// OTP 28 strict generators (`<:-`, `<:=`): a non-matching element raises.
        strict: bool,
    },
    /// OTP 28 zip generator `G1 && G2 && ...` (two or more generators).
    /// The generators' expressions are evaluated left to right before the
    /// first element is taken; then one element of each is taken per round,
    /// their patterns matched left to right (a variable bound by an earlier
    /// pattern of the round is [`Pat::Bound`] in a later one). A relaxed
    /// pattern that does not match skips the round (every generator still
    /// advances); a strict one raises `{bad_generators, Remaining}`, as does
    /// a round where some but not all generators are exhausted (`Remaining`
    /// is the tuple of what each generator had left at the round's start).
    Zip(Vec<Generator>),
    Filter(ExprId),
}

/// One generator of a [`Qualifier::Zip`] (fields as in [`Qualifier::Generator`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Generator {
    pub kind: GeneratorKind,
    pub pat: PatId,
    pub expr: ExprId,
    pub strict: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum GeneratorKind {
    List,
    Binary,
    Map,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// `/` (float division)
    FDiv,
    Div,
    Rem,
    Band,
    Bor,
    Bxor,
    Bsl,
    Bsr,
    /// `and`, `or`, `xor` (strict boolean operators)
    And,
    Or,
    Xor,
    Eq,
    NotEq,
    ExactEq,
    ExactNotEq,
    Less,
    LessEq,
    Greater,
    GreaterEq,
    Append,
    Subtract,
}

impl BinOp {
    /// The operator's name as an `erlang` function (`'+'`, `'=<'`, `'++'`...).
    pub fn erlang_name(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::FDiv => "/",
            BinOp::Div => "div",
            BinOp::Rem => "rem",
            BinOp::Band => "band",
            BinOp::Bor => "bor",
            BinOp::Bxor => "bxor",
            BinOp::Bsl => "bsl",
            BinOp::Bsr => "bsr",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Eq => "==",
            BinOp::NotEq => "/=",
            BinOp::ExactEq => "=:=",
            BinOp::ExactNotEq => "=/=",
            BinOp::Less => "<",
            BinOp::LessEq => "=<",
            BinOp::Greater => ">",
            BinOp::GreaterEq => ">=",
            BinOp::Append => "++",
            BinOp::Subtract => "--",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    Bnot,
}

impl UnOp {
    pub fn erlang_name(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Plus => "+",
            UnOp::Not => "not",
            UnOp::Bnot => "bnot",
        }
    }
}

/// A segment of a binary expression or pattern: `Value:Size/Type-Spec-unit:U`.
#[derive(Debug, Clone, PartialEq)]
pub struct BinSeg<T> {
    pub value: T,
    /// Size expression (in a pattern it may use variables bound to its left);
    /// `None` for the type's default. The atom `all` is never written: a
    /// trailing `binary` segment without size means "the rest".
    pub size: Option<ExprId>,
    pub ty: BinType,
    pub signed: bool,
    pub endian: Endian,
    /// Unit in bits (defaults already applied: 1 for integer/float/bits, 8 for binary).
    pub unit: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BinType {
    Integer,
    Float,
    Binary,
    Bitstring,
    Utf8,
    Utf16,
    Utf32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Endian {
    Big,
    Little,
    Native,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Pat {
    /// Could not be parsed (a diagnostic was reported); never matches.
    Missing,
    /// `_`
    Wild,
    /// First occurrence: binds the variable.
    Var(VarId),
    /// The variable is already bound: the value must be `=:=` to it.
    Bound(VarId),
    Lit(Literal),
    Nil,
    Cons(PatId, PatId),
    Tuple(Vec<PatId>),
    /// Keys are guard expressions (literals or bound variables).
    Map(Vec<(ExprId, PatId)>),
    Binary(Vec<BinSeg<PatId>>),
    /// `P1 = P2` inside a pattern: both must match.
    Alias(PatId, PatId),
}

// Most of a loaded module's memory is its expressions and patterns (a
// generated 50 MB module: about 30 expressions a function); their size is
// held here so that a new variant cannot grow every node of every body.
const _: () = assert!(std::mem::size_of::<Expr>() == 32);
const _: () = assert!(std::mem::size_of::<Pat>() == 32);
const _: () = assert!(std::mem::size_of::<Literal>() == 24);
