//! The instruction set: a compiled function ([`FnCode`]) is a flat list of
//! [`Instr`] over frame slots, with its patterns ([`CPat`]) and guard
//! expressions ([`GExpr`]); a call's [`Callee`] and [`Target`].

use racewit_syntax::Span;
use racewit_syntax::ir::{BinOp, BinType, CaseKind, ComprehensionKind, UnOp};

use crate::atom::Atom;
use crate::library::ParkReason;
use crate::term::Term;

use super::bifs::{Bif, BifKind};
use super::quick::QuickClauses;

pub type Slot = u32;
pub type Label = u32;

#[derive(Clone)]
pub struct SiteInfo {
    pub span: Span,
    /// `mod:fun/arity` of the call when known statically.
    pub target: Option<String>,
}

pub struct FnCode {
    pub name: Atom,
    pub arity: u32,
    pub frame_size: u32,
    pub instrs: Vec<Instr>,
    pub pats: Vec<CPat>,
    pub guards: Vec<Vec<Vec<GExpr>>>,
    /// For a `fun`: where captured variables go, and the slot of its own name.
    pub env_slots: Vec<Slot>,
    pub self_slot: Option<Slot>,
    /// The enclosing function's name and arity (for lambdas) or its own.
    pub display: (Atom, u32),
    pub line: u32,
    /// The leading clauses of the form `f(..., K, ...) -> C` (an integer
    /// literal tested against one argument, a constant returned), and
    /// where the code goes on when none of them matches. A call can answer
    /// them from its argument values without opening a frame.
    pub quick: QuickClauses,
    /// For each instruction, how many instructions from it on (in order,
    /// up to 255; a return counts for two) the hot loop may run: entering
    /// the loop for one or two costs more than it saves.
    pub hot_run: Box<[u8]>,
}

#[derive(Clone, Copy, Debug)]
pub enum Target {
    Code {
        module: u32,
        function: u32,
    },
    Bif(Bif),
    Undef {
        module: Atom,
        name: Atom,
        arity: u32,
    },
    /// `M:module_info/0,1`, which the compiler adds to every module: a call
    /// of `erlang:get_module_info/1,2` with the module's name first.
    ModuleInfo {
        module: Atom,
    },
    /// A call that parks the caller, and why.
    Unsupported {
        module: Atom,
        name: Atom,
        arity: u32,
        reason: ParkReason,
    },
}

#[derive(Clone, Debug)]
pub enum Callee {
    Static(Target),
    Dynamic { module: Slot, name: Slot },
    Apply { fun: Slot },
}

#[derive(Clone, Copy, Debug)]
pub enum FailKind {
    Badmatch,
    CaseClause,
    IfClause,
    BadargValue,
    Badrecord(Atom),
    TryClause,
    ElseClause,
    FunctionClause,
}

#[derive(Debug)]
pub struct CSeg<T> {
    pub value: T,
    pub size: Option<T>,
    pub ty: BinType,
    pub signed: bool,
    pub little: bool,
    pub unit: u8,
}

// An explicit tag: dispatch is one indexed jump, not a niche decode.
#[repr(u8)]
#[derive(Debug)]
pub enum Instr {
    Const {
        dst: Slot,
        value: Term,
    },
    Move {
        dst: Slot,
        src: Slot,
    },
    /// A `Move` whose source is not read again (set by
    /// [`crate::liveness`]): the value moves, `[]` is left behind, so a
    /// list bound to a variable (`L = lists:seq(1, N)`) stays unshared.
    MoveLast {
        dst: Slot,
        src: Slot,
    },
    /// `moves`: bit 0 (head) and bit 1 (tail) are last uses, moved in.
    Cons {
        dst: Slot,
        head: Slot,
        tail: Slot,
        moves: u8,
    },
    Tuple {
        dst: Slot,
        elems: Box<[Slot]>,
    },
    Map {
        dst: Slot,
        base: Option<Slot>,
        fields: Box<[(Slot, Slot, bool)]>,
    },
    Binary {
        dst: Slot,
        segs: Box<[CSeg<Slot>]>,
    },
    Op {
        dst: Slot,
        op: BinOp,
        a: Slot,
        b: Slot,
    },
    /// `a op K` with a small integer literal `K` (`+` and `-` have their
    /// own instructions).
    OpImm {
        dst: Slot,
        op: BinOp,
        a: Slot,
        imm: i64,
    },
    /// `a + K`: counters and `N + 1`, the commonest arithmetic, dispatched
    /// with no second test of the operator.
    AddImm {
        dst: Slot,
        a: Slot,
        imm: i64,
    },
    /// `a - K`, as `AddImm` (recursion on `N - 1`).
    SubImm {
        dst: Slot,
        a: Slot,
        imm: i64,
    },
    UnOp {
        dst: Slot,
        op: UnOp,
        a: Slot,
    },
    /// Match `pats[pat]` against `src`; on failure jump to `fail`, or raise
    /// `{badmatch, V}` when `fail` is `None`.
    Match {
        pat: u32,
        src: Slot,
        fail: Option<Label>,
    },
    /// `Match` of the integer literal `imm`.
    MatchInt {
        src: Slot,
        imm: i64,
        fail: Option<Label>,
    },
    /// `MatchInt` followed by `ReturnConst`: return `value` when `src` is
    /// `imm`, else go to `fail`.
    ReturnIfInt {
        src: Slot,
        imm: i64,
        value: Term,
        fail: Label,
    },
    /// `Match` of `[H | T]` where `H` and `T` are variables (stored in
    /// their slots) or `_` (`None`).
    /// `take`: the list is not read again after a match, so a cell owned
    /// here alone gives up its parts and is freed at once.
    MatchCons {
        src: Slot,
        head: Option<Slot>,
        tail: Option<Slot>,
        fail: Option<Label>,
        take: bool,
    },
    /// `Match` of the atom literal `atom`.
    MatchAtom {
        src: Slot,
        atom: Atom,
        fail: Option<Label>,
    },
    Guard {
        guard: u32,
        fail: Label,
    },
    /// A comprehension filter: `true` goes on, `false` jumps, else `{bad_filter, V}`.
    Filter {
        src: Slot,
        fail: Label,
    },
    Jump(Label),
    Fail {
        kind: FailKind,
        src: Slot,
    },
    /// `moves`: bit `j` set when argument `j` is a last use (moved, not copied).
    // Field order is layout order (`repr(u8)`): `tail` sits by the tag so
    // an instruction stays 64 bytes.
    Call {
        tail: bool,
        dst: Slot,
        callee: Callee,
        args: Box<[Slot]>,
        site: u32,
        moves: u32,
    },
    /// A call of compiled code known when compiling (the common call).
    CallCode {
        dst: Slot,
        module: u32,
        function: u32,
        args: Box<[Slot]>,
        tail: bool,
        moves: u32,
    },
    Return {
        src: Slot,
    },
    ReturnConst {
        value: Term,
    },
    /// `Op` whose result is returned at once.
    ReturnOp {
        op: BinOp,
        a: Slot,
        b: Slot,
    },
    /// `OpImm` whose result is returned at once.
    ReturnOpImm {
        op: BinOp,
        a: Slot,
        imm: i64,
    },
    Send {
        dst: Slot,
        to: Slot,
        msg: Slot,
        site: u32,
    },
    MakeFun {
        dst: Slot,
        fun: u32,
        env: Box<[Slot]>,
    },
    MakeFunRef {
        dst: Slot,
        module: Option<Slot>,
        name: Slot,
        arity: Slot,
    },
    TryBegin {
        handler: Label,
        class: Slot,
        reason: Slot,
        stack: Slot,
    },
    TryEnd,
    Reraise {
        class: Slot,
        reason: Slot,
        stack: Slot,
    },
    CatchValue {
        dst: Slot,
        class: Slot,
        reason: Slot,
        stack: Slot,
    },
    /// Receive: reset the scan position, take the next message or go to `empty`.
    RecvStart,
    RecvPeek {
        dst: Slot,
        empty: Label,
    },
    RecvAdvance,
    RecvAccept,
    RecvWait {
        timeout: Option<Slot>,
        resume: Label,
        after: Label,
    },
    /// Comprehension iteration over a list held in `list` (advanced in place).
    ListNext {
        list: Slot,
        head: Slot,
        done: Label,
    },
    /// Binary generator: match `pat` (a binary pattern) at the front of `bits`.
    BinNext {
        bits: Slot,
        pat: u32,
        done: Label,
    },
    /// `acc = [v | acc]`
    AccPush {
        acc: Slot,
        value: Slot,
    },
    /// Turn an accumulator into the comprehension's value.
    AccFinish {
        dst: Slot,
        acc: Slot,
        kind: ComprehensionKind,
    },
    /// Map → list of `{K, V}` for a map generator; lists pass through.
    MapToList {
        dst: Slot,
        src: Slot,
    },
    Missing {
        line: u32,
    },
}

impl Instr {
    /// A return from the function (of a slot, a constant or an operator's
    /// result).
    pub fn is_return(&self) -> bool {
        matches!(
            self,
            Instr::Return { .. }
                | Instr::ReturnConst { .. }
                | Instr::ReturnOp { .. }
                | Instr::ReturnOpImm { .. }
        )
    }
}

#[derive(Debug)]
pub enum CPat {
    Wild,
    Var(Slot),
    Bound(Slot),
    Lit(Term),
    Nil,
    Cons(Box<CPat>, Box<CPat>),
    Tuple(Box<[CPat]>),
    Map(Box<[(GExpr, CPat)]>),
    Binary(Box<[CSeg<CPat>]>, Box<[Option<GExpr>]>),
    Alias(Box<CPat>, Box<CPat>),
    Never,
}

/// A clause of a `case` inside a guard: pattern, guard, body.
pub type GClause = (CPat, Vec<Vec<GExpr>>, GExpr);

/// A guard expression (or a binary size / map key in a pattern), evaluated recursively.
#[derive(Debug)]
pub enum GExpr {
    Lit(Term),
    Var(Slot),
    Cons(Box<GExpr>, Box<GExpr>),
    Tuple(Box<[GExpr]>),
    Map(Option<Box<GExpr>>, Box<[(GExpr, GExpr, bool)]>),
    Binary(Box<[CSeg<GExpr>]>),
    Op(BinOp, Box<GExpr>, Box<GExpr>),
    UnOp(UnOp, Box<GExpr>),
    Call(Bif, Box<[GExpr]>),
    SelfPid,
    Case(Box<GExpr>, Box<[GClause]>, CaseKind),
    Block(Box<[GExpr]>),
    /// Anything not allowed in a guard: the guard fails.
    Invalid,
}

/// Whether the hot loop (`Vm::hot_loop`) may run `ins` (it may still leave it to `exec`,
/// for instance an operator on terms other than small integers): the
/// general loop does not enter the hot loop for any other instruction.
#[inline(always)]
pub(crate) fn hot_loop_may_run(ins: &Instr) -> bool {
    match ins {
        Instr::Const { .. }
        | Instr::Move { .. }
        | Instr::MoveLast { .. }
        | Instr::Cons { .. }
        | Instr::Op { .. }
        | Instr::OpImm { .. }
        | Instr::AddImm { .. }
        | Instr::SubImm { .. }
        | Instr::MatchInt { .. }
        | Instr::ReturnIfInt { .. }
        | Instr::MatchAtom { .. }
        | Instr::MatchCons { .. }
        | Instr::Filter { .. }
        | Instr::Jump(_)
        | Instr::ListNext { .. }
        | Instr::AccPush { .. }
        | Instr::CallCode { .. }
        | Instr::Return { .. }
        | Instr::ReturnConst { .. }
        | Instr::ReturnOp { .. }
        | Instr::ReturnOpImm { .. } => true,
        // A BIF with effects, or a call that cannot be made, is `exec`'s.
        Instr::Call { callee, .. } => !matches!(
            callee,
            Callee::Static(
                Target::Bif(Bif {
                    kind: BifKind::Ctx(_),
                    ..
                }) | Target::Undef { .. }
                    | Target::ModuleInfo { .. }
                    | Target::Unsupported { .. }
            )
        ),
        _ => false,
    }
}

// One cache line per instruction.
const _: () = assert!(std::mem::size_of::<Instr>() == 64);
