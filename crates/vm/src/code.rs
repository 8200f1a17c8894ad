//! Compiled code: each IR function is compiled once into a flat instruction
//! list over frame slots ([`FnCode`]), with local and remote call targets
//! resolved, atoms interned and literals turned into terms. Shared by every
//! clone of a VM behind one `Arc<CodeTable>`.
//!
//! Frame layout of a function of arity A with V IR variables:
//! slots `0..A` hold the arguments, `A..A+V` the variables (`VarId` v lives in
//! slot `A + v`), then temporaries. A variable bound only as a whole argument
//! pattern of a clause head lives in that argument's slot instead (no move
//! on entry). A `fun` inside a function is compiled as its own [`FnCode`]
//! with the same variable space; captured variables are copied into their
//! slots when it is called. Once compiled, the slots a function uses are
//! renumbered densely ([`crate::layout`]), and a liveness pass marks last
//! uses so calls and `Cons` move values instead of copying them
//! ([`crate::liveness`]).
//!
//! Common shapes get their own instructions so the loop does less work:
//! variable patterns are moves, integer/atom literal and `[H | T]` patterns
//! are `MatchInt`/`MatchAtom`/`MatchCons`, calls of compiled code known when
//! compiling are `CallCode`, `X op K` with an integer literal
//! is `OpImm` (`AddImm`/`SubImm` for `+` and `-`), a clause returning a constant ends in `ReturnConst` (one
//! returning an operator's result in `ReturnOp`/`ReturnOpImm`), and the
//! arguments of a tail call come from distinct slots (they are moved).
//! A function's leading clauses that test one argument against an integer
//! and return a constant (`fib(0) -> 0`) are also kept as [`QuickClauses`],
//! which a call consults before opening a frame.

use racewit_syntax::ir::{
    self, BinOp, BinType, CaseKind, ClauseId, ComprehensionKind, Endian, Expr, ExprId,
    GeneratorKind, Literal, Pat, PatId, Qualifier, UnOp,
};
use racewit_syntax::{Span, ir::Program};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::atom::Atom;
use crate::bif::{self, Bif};
use crate::library::{self, Missing, ParkReason};
use crate::term::{Bitstr, Term};

pub type Slot = u32;
pub type Label = u32;

/// Every loaded module, indexed by position.
#[derive(Clone)]
pub struct CodeTable {
    pub modules: Vec<std::sync::Arc<ModuleCode>>,
    pub by_name: FxHashMap<Atom, u32>,
    /// The libraries the table was built with: what is known of the
    /// installed OTP decides what a call to a missing module does.
    pub libraries: std::sync::Arc<crate::library::Libraries>,
    /// Modules that loaded code names (a static call's module, or an atom
    /// literal): a call to one that is missing is a missing dependency.
    pub named: std::sync::Arc<FxHashSet<Atom>>,
}

impl CodeTable {
    /// The compiled code of function `function` (a `fun` index past the
    /// named functions included) of module `module`.
    #[inline]
    pub fn func(&self, module: u32, function: u32) -> &FnCode {
        &self.functions(module)[function as usize]
    }

    /// Every compiled function of module `module`. A module is compiled the
    /// first time it is entered, once for every VM sharing this table: a
    /// run pays for the code it runs, not for the whole program.
    #[inline]
    pub fn functions(&self, module: u32) -> &[FnCode] {
        let m = &self.modules[module as usize];
        match m.functions.get() {
            Some(f) => f,
            None => self.compile_module(module),
        }
    }

    #[cold]
    fn compile_module(&self, module: u32) -> &[FnCode] {
        let m = &self.modules[module as usize];
        m.functions.get_or_init(|| {
            let program = &m.source;
            match program.modules.get(&m.ir_name) {
                Some(ir) => compile_functions(self, module, program, ir),
                None => Box::new([]),
            }
        })
    }

    /// With an installed OTP known, does its module `module` lack an
    /// export `name/arity`? (`false` when no OTP is known or the module's
    /// export table cannot be read.)
    /// Whether OTP's `module` does not export `name/arity`: from the
    /// installed OTP's export tables, or, with no OTP installed, from OTP
    /// 25's exports of the modules the prelude stands in for.
    fn otp_lacks(&self, module: Atom, name: Atom, arity: u32) -> bool {
        match self.libraries.otp_exports(module.name()) {
            Some(e) => !e.contains(&(name.name().to_string(), arity)),
            None if self.libraries.otp_modules.is_none() => {
                library::otp25_exports(module.name(), name.name(), arity) == Some(false)
            }
            None => false,
        }
    }

    pub fn module(&self, name: Atom) -> Option<(u32, &ModuleCode)> {
        let i = *self.by_name.get(&name)?;
        Some((i, &*self.modules[i as usize]))
    }

    /// Resolve `M:F/A` as a remote call would at run time.
    pub fn resolve(&self, module: Atom, name: Atom, arity: u32) -> Target {
        if let Some(b) = bif::lookup(module, name, arity) {
            return Target::Bif(b);
        }
        match self.module(module) {
            Some((mi, m)) => match m.fn_index.get(&(name, arity)) {
                Some(&fi) if m.exports.contains(&(name, arity)) => {
                    m.code_target(mi, fi, name, arity)
                }
                // racewit's partial stand-in for an OTP module (global,
                // mnesia, ...) lacks the function: the real module may well
                // have it (unsupported), unless the installed OTP's module
                // does not export it either (undef, as on the BEAM). Modules
                // loaded from real source raise undef.
                _ if m.origin == Origin::Prelude && !self.otp_lacks(module, name, arity) => {
                    Target::Unsupported {
                        module,
                        name,
                        arity,
                        reason: if library::touches_host(module.name(), name.name()) {
                            ParkReason::Host
                        } else if library::is_otp_library_module(module.name()) {
                            // The prelude's stand-in of an OTP library module
                            // serves because no OTP was found.
                            ParkReason::NoOtp
                        } else {
                            ParkReason::Unsupported
                        },
                    }
                }
                _ => Target::Undef {
                    module,
                    name,
                    arity,
                },
            },
            None => {
                // A BIF module the program names (`crypto` with no OTP
                // installed) is one of the node's; racewit's own are not.
                let named = self.named.contains(&module)
                    || (bif::module_known(module) && !bif::is_racewit_module(module));
                match library::classify_missing(&self.libraries, module.name(), name.name(), named)
                {
                    Missing::Undef => Target::Undef {
                        module,
                        name,
                        arity,
                    },
                    // A module of the installed OTP (one of racewit's BIF
                    // modules, say) that does not export the function: undef.
                    // With no OTP installed, the same for the modules racewit
                    // runs itself, from OTP 25's exports.
                    Missing::Park(ParkReason::Unsupported)
                        if self.otp_lacks(module, name, arity) =>
                    {
                        Target::Undef {
                            module,
                            name,
                            arity,
                        }
                    }
                    Missing::Park(_)
                        if self.libraries.otp_modules.is_none()
                            && self.otp_lacks(module, name, arity) =>
                    {
                        Target::Undef {
                            module,
                            name,
                            arity,
                        }
                    }
                    Missing::Park(reason) => Target::Unsupported {
                        module,
                        name,
                        arity,
                        reason,
                    },
                }
            }
        }
    }
}

/// Where a loaded module comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The user's program.
    User,
    /// A library loaded from its real source (OTP's, a dependency's): a
    /// complete module, so a function it lacks is `undef`.
    Library,
    /// racewit's own prelude: its spans are not the user's, and a
    /// function a stand-in lacks is unsupported, not `undef`.
    Prelude,
}

pub struct ModuleCode {
    pub name: Atom,
    /// Functions, then one entry per `fun` expression (index `functions_len + FunId`).
    /// Compiled when the module is first entered (see [`CodeTable::functions`]).
    functions: std::sync::OnceLock<Box<[FnCode]>>,
    /// The program the module is compiled from, while it is not compiled.
    source: std::sync::Arc<Program>,
    pub functions_len: u32,
    pub fn_index: FxHashMap<(Atom, u32), u32>,
    pub exports: FxHashSet<(Atom, u32)>,
    /// Functions the runtime replaces with native code (see
    /// [`ir::Module::is_native_stub`]), and why a call of one parks: a NIF
    /// library's (`-on_load`) would run native code (host); a BIF stub
    /// (`lists.erl`, `ets.erl`) is a BIF racewit lacks (unsupported).
    pub native_stubs: FxHashMap<(Atom, u32), ParkReason>,
    pub sites: Vec<SiteInfo>,
    /// Loaded from racewit's own prelude or a library (its spans are not the user's).
    pub prelude: bool,
    pub origin: Origin,
    /// The IR module name (key into the program's modules).
    pub ir_name: ir::Name,
}

impl ModuleCode {
    /// What a call of this module's function `fi` (`name/arity`, module
    /// index `mi`) runs: its code, or, for a native stub, a park.
    fn code_target(&self, mi: u32, fi: u32, name: Atom, arity: u32) -> Target {
        match self.native_stubs.get(&(name, arity)) {
            Some(&reason) => Target::Unsupported {
                module: self.name,
                name,
                arity,
                reason,
            },
            None => Target::Code {
                module: mi,
                function: fi,
            },
        }
    }

    /// Whether the module has been entered (and so compiled).
    pub fn is_compiled(&self) -> bool {
        self.functions.get().is_some()
    }

    /// The file the module was loaded from.
    pub fn source_path(&self) -> Option<std::path::PathBuf> {
        let m = self.source.modules.get(&self.ir_name)?;
        Some(self.source.sources.path(m.file).to_path_buf())
    }
}

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

/// [`FnCode::hot_run`] of a return instruction (see where it is set).
const RETURN_RUN: u8 = 2;

/// See [`FnCode::quick`].
#[derive(Debug, Default)]
pub struct QuickClauses {
    /// (argument, integer it must equal, constant returned), in clause order.
    pub clauses: Box<[(Slot, i64, Term)]>,
    /// The first instruction after them.
    pub entry: u32,
    /// When every clause tests the same argument and their integers lie
    /// within [`DENSE_SPAN`]: that argument, the smallest integer, and the
    /// constant for each integer from there on (`None` where no clause
    /// has it). One range test then replaces the clause-by-clause tests.
    dense: Option<DenseClauses>,
}

/// See [`QuickClauses::dense`]: the argument, the smallest integer, and the
/// constant for each integer from there on.
#[derive(Debug)]
struct DenseClauses {
    arg: Slot,
    lo: i64,
    table: Box<[Option<Term>]>,
}

impl DenseClauses {
    /// The constant for the integer `x`, if a clause has it.
    #[inline(always)]
    fn get(&self, x: i64) -> Option<&Term> {
        let k = x.wrapping_sub(self.lo) as u64;
        usize::try_from(k)
            .ok()
            .and_then(|k| self.table.get(k))?
            .as_ref()
    }
}

/// The widest range of integers [`QuickClauses`] keeps as a table.
const DENSE_SPAN: i64 = 16;

impl QuickClauses {
    /// The constant the first matching clause returns for a call with
    /// its arguments in slots `args` of `regs`, if one matches.
    #[inline(always)]
    pub fn lookup<'a>(&'a self, args: &[Slot], regs: &[Term]) -> Option<&'a Term> {
        if let Some(d) = &self.dense {
            let slot = *args.get(d.arg as usize)?;
            let Some(Term::Int(x)) = regs.get(slot as usize) else {
                return None;
            };
            return d.get(*x);
        }
        self.clauses.iter().find_map(|(arg, imm, value)| {
            let slot = *args.get(*arg as usize)?;
            matches!(regs.get(slot as usize), Some(Term::Int(x)) if x == imm).then_some(value)
        })
    }

    /// [`QuickClauses::lookup`] for a one-argument function called with
    /// the small integer `x`.
    #[inline(always)]
    pub fn lookup_int(&self, x: i64) -> Option<&Term> {
        if let Some(d) = &self.dense {
            return d.get(x);
        }
        self.clauses
            .iter()
            .find_map(|(_, imm, value)| (*imm == x).then_some(value))
    }

    fn dense_table(clauses: &[(Slot, i64, Term)]) -> Option<DenseClauses> {
        let (arg, _, _) = clauses.first()?;
        if clauses.iter().any(|(a, _, _)| a != arg) {
            return None;
        }
        let lo = clauses.iter().map(|c| c.1).min()?;
        let hi = clauses.iter().map(|c| c.1).max()?;
        let span = hi.checked_sub(lo)?;
        if span >= DENSE_SPAN {
            return None;
        }
        let mut table: Vec<Option<Term>> = (0..=span).map(|_| None).collect();
        for (_, imm, value) in clauses {
            // The first clause for an integer wins.
            let cell = &mut table[(imm - lo) as usize];
            if cell.is_none() {
                *cell = Some(value.clone());
            }
        }
        Some(DenseClauses {
            arg: *arg,
            lo,
            table: table.into_boxed_slice(),
        })
    }

    /// Read the leading `ReturnIfInt` + `ReturnConst` pairs of `instrs`,
    /// each failing to the pair right after it, on argument slots.
    fn of(instrs: &[Instr], arity: u32) -> QuickClauses {
        let mut clauses = Vec::new();
        let mut pc = 0usize;
        while let (
            Some(Instr::ReturnIfInt {
                src,
                imm,
                value,
                fail,
            }),
            Some(Instr::ReturnConst { .. }),
        ) = (instrs.get(pc), instrs.get(pc + 1))
        {
            if *src >= arity || *fail as usize != pc + 2 {
                break;
            }
            clauses.push((*src, *imm, value.clone()));
            pc += 2;
        }
        let dense = Self::dense_table(&clauses);
        QuickClauses {
            clauses: clauses.into_boxed_slice(),
            entry: pc as u32,
            dense,
        }
    }
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

/// Converts an IR literal.
pub fn literal_term(l: &Literal) -> Term {
    match l {
        Literal::Atom(a) => Term::Atom(Atom::new(a)),
        Literal::Int(i) => Term::Int(*i),
        Literal::BigInt(b) => Term::from_big((**b).clone()),
        Literal::Float(f) => Term::Float(*f),
        Literal::String(s) => Term::string(s),
    }
}

/// Compile every module of `programs` (earlier programs win on name clashes).
pub fn compile_programs(programs: &[(&std::sync::Arc<Program>, Origin)]) -> CodeTable {
    let empty = CodeTable {
        modules: Vec::new(),
        by_name: FxHashMap::default(),
        libraries: crate::library::Libraries::none(),
        named: Default::default(),
    };
    compile_onto(&empty, programs)
}

/// Adds `programs` on top of already loaded modules (shared, not
/// recompiled); the new modules win over `base`'s on name clashes. Only the
/// modules' indexes are built here: each module's code is compiled the first
/// time it is entered, in the context of the table it was added to (its
/// calls resolve against that table's modules).
pub fn compile_onto(
    base: &CodeTable,
    programs: &[(&std::sync::Arc<Program>, Origin)],
) -> CodeTable {
    let mut table = base.clone();
    let base_len = table.modules.len() as u32;
    let mut named: Option<FxHashSet<Atom>> = None;
    for (program, origin) in programs {
        if *origin != Origin::Prelude {
            names_in(program, named.get_or_insert_with(|| (*table.named).clone()));
        }
        for (name, m) in &program.modules {
            let atom = Atom::new(name);
            if table.by_name.get(&atom).is_some_and(|&i| i >= base_len) {
                continue;
            }
            // A preloaded module (erlang, init, prim_file...) is never loaded
            // from a program's source, as the BEAM cannot load over it: the
            // VM implements it. (erts' own erlang.erl is stubs calling
            // `erlang:nif_error/1`: a BIF racewit lacks would run as a stub,
            // or loop, instead of being named.)
            if *origin != Origin::Prelude && crate::library::is_preloaded(name) {
                continue;
            }
            // Nor is the API module of an application racewit models
            // (mnesia): its calls are the model, whatever source the
            // program holds (OTP's mnesia.erl would call into mnesia's own
            // processes, which never run).
            if *origin != Origin::Prelude && crate::library::modelled_api(name).is_some() {
                continue;
            }
            let mut fn_index = FxHashMap::default();
            let mut native_stubs = FxHashMap::default();
            let native = if m.has_on_load() {
                ParkReason::Host
            } else {
                ParkReason::Unsupported
            };
            for (i, f) in m.functions.iter().enumerate() {
                let key = (Atom::new(&f.name), f.arity);
                fn_index.insert(key, i as u32);
                if *origin != Origin::Prelude && m.is_native_stub(f) {
                    native_stubs.insert(key, native);
                }
            }
            let exports = m
                .exports
                .iter()
                .map(|e| (Atom::new(&e.name), e.arity))
                .collect();
            let sites = m
                .call_sites
                .iter()
                .map(|s| SiteInfo {
                    span: s.span,
                    target: s.target.as_ref().map(|t| t.to_string()),
                })
                .collect();
            table.by_name.insert(atom, table.modules.len() as u32);
            table.modules.push(std::sync::Arc::new(ModuleCode {
                name: atom,
                functions: std::sync::OnceLock::new(),
                source: (*program).clone(),
                functions_len: m.functions.len() as u32,
                fn_index,
                exports,
                native_stubs,
                sites,
                prelude: *origin != Origin::User,
                origin: *origin,
                ir_name: name.clone(),
            }));
        }
    }
    if let Some(named) = named {
        table.named = std::sync::Arc::new(named);
    }
    table
}

/// The directory racewit's generated modules (harnesses, their support
/// code) are loaded from. What they hold is racewit's, not the program's:
/// an atom a harness made up for an argument names no module the program
/// uses, so a call on it is `undef` as on the BEAM, not a missing
/// dependency.
pub const GENERATED_DIR: &str = "<racewit-harness>";

/// Whether module `m` of `program` is racewit's generated code (loaded
/// from [`GENERATED_DIR`]).
pub fn is_generated(program: &Program, m: &ir::Module) -> bool {
    program
        .sources
        .path(m.file)
        .starts_with(std::path::Path::new(GENERATED_DIR))
}

/// Adds the modules `program`'s code names to `out`: the module of every
/// static remote call, and every atom literal (a callback module passed to
/// `gen_server:start_link/4`, a module kept in a variable). racewit's
/// generated modules name nothing (see [`GENERATED_DIR`]).
fn names_in(program: &Program, out: &mut FxHashSet<Atom>) {
    for m in program.modules.values() {
        if is_generated(program, m) {
            continue;
        }
        for site in &m.call_sites {
            if let Some(t) = &site.target {
                out.insert(Atom::new(&t.module));
            }
        }
        for f in &m.functions {
            for e in &f.body.exprs {
                if let Expr::Lit(Literal::Atom(a)) = e {
                    out.insert(Atom::new(a));
                }
            }
            for p in &f.body.pats {
                if let Pat::Lit(Literal::Atom(a)) = p {
                    out.insert(Atom::new(a));
                }
            }
        }
    }
}

/// Compiles every function and `fun` of module `m` (index `mi` in `table`).
fn compile_functions(
    table: &CodeTable,
    mi: u32,
    program: &Program,
    m: &ir::Module,
) -> Box<[FnCode]> {
    let mut functions: Vec<Option<FnCode>> = (0..m.functions.len() + m.fun_count as usize)
        .map(|_| None)
        .collect();
    for (fi, f) in m.functions.iter().enumerate() {
        let mut queue = Vec::new();
        let code = {
            let mut c = FnCompiler::new(table, mi, program, m, f, f.arity);
            c.compile_function();
            queue.append(&mut c.lambdas);
            c.finish(Atom::new(&f.name), f.arity, None, Vec::new())
        };
        functions[fi] = Some(code);
        while let Some((fun_id, fun_expr)) = queue.pop() {
            let mut c = FnCompiler::new(table, mi, program, m, f, fun_expr.arity);
            c.compile_lambda(&fun_expr);
            queue.append(&mut c.lambdas);
            let env = fun_expr.free_vars.iter().map(|v| c.var(*v)).collect();
            let self_slot = fun_expr.name.map(|v| c.var(v));
            let name = Atom::new(&format!("-{}/{}-fun-{}-", f.name, f.arity, fun_id));
            let code = c.finish(name, fun_expr.arity, self_slot, env);
            let slot = m.functions.len() + fun_id as usize;
            if slot < functions.len() {
                functions[slot] = Some(code);
            }
        }
    }
    functions
        .into_iter()
        .map(|f| {
            f.unwrap_or_else(|| FnCode {
                name: Atom::new("-missing-"),
                arity: 0,
                frame_size: 1,
                instrs: vec![Instr::Missing { line: 0 }],
                pats: Vec::new(),
                guards: Vec::new(),
                env_slots: Vec::new(),
                self_slot: None,
                display: (Atom::new("-missing-"), 0),
                line: 0,
                quick: QuickClauses::default(),
                hot_run: Box::new([]),
            })
        })
        .collect()
}

struct FnCompiler<'a> {
    table: &'a CodeTable,
    module_index: u32,
    program: &'a Program,
    func: &'a ir::Function,
    body: &'a ir::Body,
    arity: u32,
    instrs: Vec<Instr>,
    pats: Vec<CPat>,
    guards: Vec<Vec<Vec<GExpr>>>,
    labels: Vec<u32>,
    next_temp: u32,
    max_slot: u32,
    lambdas: Vec<(u32, ir::FunExpr)>,
    /// Inside a `try`/`catch` body, calls are not tail calls.
    protected: u32,
    /// Slot of each head variable kept in its argument's slot (by `VarId`).
    head_vars: Vec<Option<Slot>>,
}

const UNBOUND_LABEL: u32 = u32::MAX;

impl<'a> FnCompiler<'a> {
    fn new(
        table: &'a CodeTable,
        module_index: u32,
        program: &'a Program,
        _module: &'a ir::Module,
        func: &'a ir::Function,
        arity: u32,
    ) -> Self {
        let base = arity + func.body.var_count() as u32;
        FnCompiler {
            table,
            module_index,
            program,
            func,
            body: &func.body,
            arity,
            instrs: Vec::new(),
            pats: Vec::new(),
            guards: Vec::new(),
            labels: Vec::new(),
            next_temp: base,
            max_slot: base,
            lambdas: Vec::new(),
            protected: 0,
            head_vars: Vec::new(),
        }
    }

    fn var(&self, v: ir::VarId) -> Slot {
        match self.head_vars.get(v.0 as usize) {
            Some(&Some(slot)) => slot,
            _ => self.arity + v.0,
        }
    }

    /// A variable bound only by being a whole argument pattern of a clause
    /// head lives in that argument's slot (no move on entry).
    fn alias_head_vars(&mut self, clauses: &[ClauseId]) {
        let mut binds = vec![0u32; self.body.var_count()];
        for p in &self.body.pats {
            if let Pat::Var(v) = p
                && let Some(n) = binds.get_mut(v.0 as usize)
            {
                *n += 1;
            }
        }
        let mut head_vars = vec![None; self.body.var_count()];
        for &cid in clauses {
            for (i, &p) in self.body.clause(cid).pats.iter().enumerate() {
                if let Pat::Var(v) = self.body.pat(p)
                    && binds.get(v.0 as usize) == Some(&1)
                {
                    head_vars[v.0 as usize] = Some(i as Slot);
                }
            }
        }
        self.head_vars = head_vars;
    }

    fn temp(&mut self) -> Slot {
        let t = self.next_temp;
        self.next_temp += 1;
        self.max_slot = self.max_slot.max(self.next_temp);
        t
    }

    fn new_label(&mut self) -> Label {
        self.labels.push(UNBOUND_LABEL);
        (self.labels.len() - 1) as Label
    }

    fn bind(&mut self, l: Label) {
        self.labels[l as usize] = self.instrs.len() as u32;
    }

    fn emit(&mut self, i: Instr) {
        self.instrs.push(i);
    }

    fn line_of(&self, span: Span) -> u32 {
        if (span.file.0 as usize) < self.program.sources.len() {
            self.program.sources.location(span).line
        } else {
            0
        }
    }

    fn finish(
        mut self,
        name: Atom,
        arity: u32,
        self_slot: Option<Slot>,
        env_slots: Vec<Slot>,
    ) -> FnCode {
        let labels = std::mem::take(&mut self.labels);
        let fix = |l: &mut u32| {
            if let Some(&p) = labels.get(*l as usize) {
                *l = p;
            }
        };
        for ins in &mut self.instrs {
            match ins {
                Instr::Match { fail: Some(l), .. }
                | Instr::MatchInt { fail: Some(l), .. }
                | Instr::ReturnIfInt { fail: l, .. }
                | Instr::MatchAtom { fail: Some(l), .. }
                | Instr::MatchCons { fail: Some(l), .. }
                | Instr::Guard { fail: l, .. }
                | Instr::Filter { fail: l, .. }
                | Instr::Jump(l)
                | Instr::TryBegin { handler: l, .. }
                | Instr::RecvPeek { empty: l, .. }
                | Instr::ListNext { done: l, .. }
                | Instr::BinNext { done: l, .. } => fix(l),
                Instr::RecvWait { resume, after, .. } => {
                    fix(resume);
                    fix(after);
                }
                _ => {}
            }
        }
        let line = self.line_of(self.func.span);
        let mut env_slots = env_slots;
        let mut self_slot = self_slot;
        let frame_size = crate::layout::compact_slots(
            crate::layout::SlotUsers {
                instrs: &mut self.instrs,
                pats: &mut self.pats,
                guards: &mut self.guards,
                env_slots: &mut env_slots,
                self_slot: self_slot.as_mut(),
            },
            arity,
        );
        crate::liveness::mark_moves(
            &mut self.instrs,
            &mut self.pats,
            &mut self.guards,
            frame_size,
        );
        let quick = QuickClauses::of(&self.instrs, arity);
        let mut hot_run = vec![0u8; self.instrs.len()];
        for pc in (0..self.instrs.len()).rev() {
            let ins = &self.instrs[pc];
            if ins.is_return() {
                // A return goes on in the caller, usually with more of
                // the same (`[F(H) | map(F, T)]` unwinding): it counts
                // for two.
                hot_run[pc] = RETURN_RUN;
            } else if crate::hot_loop::may_run(ins) {
                let next = hot_run.get(pc + 1).copied().unwrap_or(0);
                hot_run[pc] = next.saturating_add(1);
            }
        }
        FnCode {
            name,
            arity,
            frame_size,
            quick,
            hot_run: hot_run.into_boxed_slice(),
            instrs: self.instrs,
            pats: self.pats,
            guards: self.guards,
            env_slots,
            self_slot,
            display: (Atom::new(&self.func.name), self.func.arity),
            line,
        }
    }

    fn compile_clauses_entry(&mut self, clauses: &[ClauseId], arity: u32) {
        self.alias_head_vars(clauses);
        for &cid in clauses {
            let clause = self.body.clause(cid).clone();
            let next = self.new_label();
            for (i, &p) in clause.pats.iter().enumerate() {
                self.emit_match(p, i as Slot, Some(next));
            }
            self.emit_guard(&clause.guard, next);
            let v = self.compile_expr(clause.body, true);
            self.emit_return(v);
            self.bind(next);
            self.next_temp = self.arity + self.body.var_count() as u32;
        }
        let _ = arity;
        self.emit(Instr::Fail {
            kind: FailKind::FunctionClause,
            src: 0,
        });
    }

    fn compile_function(&mut self) {
        let clauses = self.func.clauses.clone();
        self.compile_clauses_entry(&clauses, self.func.arity);
    }

    fn compile_lambda(&mut self, f: &ir::FunExpr) {
        self.compile_clauses_entry(&f.clauses, f.arity);
    }

    /// Return `v`; a constant computed just before is returned directly.
    fn emit_return(&mut self, v: Slot) {
        let here = self.instrs.len() as u32;
        if let Some(Instr::Const { dst, .. }) = self.instrs.last()
            && *dst == v
            && !self.labels.contains(&here)
            && let Some(Instr::Const { value, .. }) = self.instrs.pop()
        {
            // `N -> K` of a clause head: the integer test returns at once
            // on a match (the `ReturnConst` stays for any jump to it).
            let q = self.instrs.len();
            if let Some(Instr::MatchInt {
                src,
                imm,
                fail: Some(l),
            }) = self.instrs.last()
            {
                let fused = Instr::ReturnIfInt {
                    src: *src,
                    imm: *imm,
                    value: value.clone(),
                    fail: *l,
                };
                self.instrs[q - 1] = fused;
            }
            self.emit(Instr::ReturnConst { value });
            return;
        }
        match self.instrs.last() {
            Some(
                Instr::Op { dst, .. }
                | Instr::OpImm { dst, .. }
                | Instr::AddImm { dst, .. }
                | Instr::SubImm { dst, .. },
            ) if *dst == v && !self.labels.contains(&here) => {
                let fused = match self.instrs.pop() {
                    Some(Instr::Op { op, a, b, .. }) => Instr::ReturnOp { op, a, b },
                    Some(Instr::OpImm { op, a, imm, .. }) => Instr::ReturnOpImm { op, a, imm },
                    Some(Instr::AddImm { a, imm, .. }) => Instr::ReturnOpImm {
                        op: BinOp::Add,
                        a,
                        imm,
                    },
                    Some(Instr::SubImm { a, imm, .. }) => Instr::ReturnOpImm {
                        op: BinOp::Sub,
                        a,
                        imm,
                    },
                    _ => Instr::Return { src: v },
                };
                self.emit(fused);
            }
            _ => self.emit(Instr::Return { src: v }),
        }
    }

    /// Match `src` against pattern `p`; on failure jump to `fail`, or raise
    /// `{badmatch, V}`. A variable pattern is a move and `_` is nothing.
    fn emit_match(&mut self, p: PatId, src: Slot, fail: Option<Label>) {
        match self.compile_pat(p) {
            CPat::Wild => {}
            CPat::Var(dst) => {
                if dst != src {
                    self.emit(Instr::Move { dst, src });
                }
            }
            CPat::Lit(Term::Int(imm)) => self.emit(Instr::MatchInt { src, imm, fail }),
            CPat::Cons(h, t) if cons_part(&h).is_some() && cons_part(&t).is_some() => {
                self.emit(Instr::MatchCons {
                    src,
                    head: cons_part(&h).flatten(),
                    tail: cons_part(&t).flatten(),
                    fail,
                    take: false,
                })
            }
            CPat::Lit(Term::Atom(atom)) => self.emit(Instr::MatchAtom { src, atom, fail }),
            pat => {
                let idx = self.add_pat(pat);
                self.emit(Instr::Match {
                    pat: idx,
                    src,
                    fail,
                });
            }
        }
    }

    fn add_pat(&mut self, p: CPat) -> u32 {
        self.pats.push(p);
        (self.pats.len() - 1) as u32
    }

    fn emit_guard(&mut self, guard: &[Vec<ExprId>], fail: Label) {
        if guard.is_empty() {
            return;
        }
        let g: Vec<Vec<GExpr>> = guard
            .iter()
            .map(|conj| conj.iter().map(|&e| self.compile_gexpr(e)).collect())
            .collect();
        self.guards.push(g);
        let idx = (self.guards.len() - 1) as u32;
        self.emit(Instr::Guard { guard: idx, fail });
    }

    // ---- patterns ----

    fn compile_pat(&mut self, p: PatId) -> CPat {
        match self.body.pat(p).clone() {
            Pat::Missing => CPat::Never,
            Pat::Wild => CPat::Wild,
            Pat::Var(v) => CPat::Var(self.var(v)),
            Pat::Bound(v) => CPat::Bound(self.var(v)),
            Pat::Lit(l) => CPat::Lit(literal_term(&l)),
            Pat::Nil => CPat::Nil,
            Pat::Cons(h, t) => {
                CPat::Cons(Box::new(self.compile_pat(h)), Box::new(self.compile_pat(t)))
            }
            Pat::Tuple(items) => CPat::Tuple(items.iter().map(|&i| self.compile_pat(i)).collect()),
            Pat::Map(fields) => CPat::Map(
                fields
                    .iter()
                    .map(|&(k, v)| (self.compile_gexpr(k), self.compile_pat(v)))
                    .collect(),
            ),
            Pat::Binary(segs) => {
                let mut out = Vec::new();
                let mut sizes = Vec::new();
                for s in &segs {
                    sizes.push(s.size.map(|e| self.compile_gexpr(e)));
                    out.push(CSeg {
                        value: self.compile_pat(s.value),
                        size: None,
                        ty: s.ty,
                        signed: s.signed,
                        little: matches!(s.endian, Endian::Little),
                        unit: s.unit,
                    });
                }
                CPat::Binary(out.into(), sizes.into())
            }
            Pat::Alias(a, b) => {
                CPat::Alias(Box::new(self.compile_pat(a)), Box::new(self.compile_pat(b)))
            }
        }
    }

    // ---- guard expressions ----

    fn compile_gexpr(&mut self, e: ExprId) -> GExpr {
        match self.body.expr(e).clone() {
            Expr::Lit(l) => GExpr::Lit(literal_term(&l)),
            Expr::Var(v) => GExpr::Var(self.var(v)),
            Expr::Nil => GExpr::Lit(Term::Nil),
            Expr::Cons(h, t) => GExpr::Cons(
                Box::new(self.compile_gexpr(h)),
                Box::new(self.compile_gexpr(t)),
            ),
            Expr::Tuple(items) => {
                GExpr::Tuple(items.iter().map(|&i| self.compile_gexpr(i)).collect())
            }
            Expr::Map { base, fields } => GExpr::Map(
                base.map(|b| Box::new(self.compile_gexpr(b))),
                fields
                    .iter()
                    .map(|f| {
                        (
                            self.compile_gexpr(f.key),
                            self.compile_gexpr(f.value),
                            f.exact,
                        )
                    })
                    .collect(),
            ),
            Expr::Binary(segs) => GExpr::Binary(
                segs.iter()
                    .map(|s| CSeg {
                        value: self.compile_gexpr(s.value),
                        size: s.size.map(|x| self.compile_gexpr(x)),
                        ty: s.ty,
                        signed: s.signed,
                        little: matches!(s.endian, Endian::Little),
                        unit: s.unit,
                    })
                    .collect(),
            ),
            Expr::Op(op, a, b) => GExpr::Op(
                op,
                Box::new(self.compile_gexpr(a)),
                Box::new(self.compile_gexpr(b)),
            ),
            Expr::UnOp(op, a) => GExpr::UnOp(op, Box::new(self.compile_gexpr(a))),
            Expr::Call { target, args, .. }
                if let ir::CallTarget::Remote { module, function } = *target =>
            {
                let (m, f) = (self.body.expr(module), self.body.expr(function));
                let (Expr::Lit(Literal::Atom(m)), Expr::Lit(Literal::Atom(f))) = (m, f) else {
                    return GExpr::Invalid;
                };
                if m == "erlang" && f == "self" && args.is_empty() {
                    return GExpr::SelfPid;
                }
                match bif::lookup(Atom::new(m), Atom::new(f), args.len() as u32) {
                    Some(b) if b.is_pure() => {
                        GExpr::Call(b, args.iter().map(|&a| self.compile_gexpr(a)).collect())
                    }
                    _ => GExpr::Invalid,
                }
            }
            Expr::Case { kind, arg, clauses } => {
                let arg = self.compile_gexpr(arg);
                let cs = clauses
                    .iter()
                    .map(|&cid| {
                        let c = self.body.clause(cid).clone();
                        let p = c
                            .pats
                            .first()
                            .map(|&p| self.compile_pat(p))
                            .unwrap_or(CPat::Wild);
                        let g = c
                            .guard
                            .iter()
                            .map(|conj| conj.iter().map(|&e| self.compile_gexpr(e)).collect())
                            .collect();
                        (p, g, self.compile_gexpr(c.body))
                    })
                    .collect();
                GExpr::Case(Box::new(arg), cs, kind)
            }
            Expr::Block(items) => {
                GExpr::Block(items.iter().map(|&i| self.compile_gexpr(i)).collect())
            }
            _ => GExpr::Invalid,
        }
    }

    // ---- body expressions ----

    /// Compile `e`; returns the slot holding its value. `tail`: the value is
    /// returned right after (calls become tail calls).
    fn compile_expr(&mut self, e: ExprId, tail: bool) -> Slot {
        let expr = self.body.expr(e).clone();
        match expr {
            Expr::Missing => {
                let line = self.line_of(self.func.source_map.expr(e));
                self.emit(Instr::Missing { line });
                self.temp()
            }
            Expr::Lit(l) => {
                let t = self.temp();
                self.emit(Instr::Const {
                    dst: t,
                    value: literal_term(&l),
                });
                t
            }
            Expr::Var(v) => self.var(v),
            Expr::Nil => {
                let t = self.temp();
                self.emit(Instr::Const {
                    dst: t,
                    value: Term::Nil,
                });
                t
            }
            Expr::Cons(h, tl) => {
                if let Some(c) = self.constant(e) {
                    let t = self.temp();
                    self.emit(Instr::Const { dst: t, value: c });
                    return t;
                }
                let hs = self.compile_expr(h, false);
                let ts = self.compile_expr(tl, false);
                let t = self.temp();
                self.emit(Instr::Cons {
                    dst: t,
                    head: hs,
                    tail: ts,
                    moves: 0,
                });
                t
            }
            Expr::Tuple(items) => {
                if let Some(c) = self.constant(e) {
                    let t = self.temp();
                    self.emit(Instr::Const { dst: t, value: c });
                    return t;
                }
                let slots: Vec<Slot> = items.iter().map(|&i| self.compile_expr(i, false)).collect();
                let t = self.temp();
                self.emit(Instr::Tuple {
                    dst: t,
                    elems: slots.into(),
                });
                t
            }
            Expr::Binary(segs) => {
                let mut cs = Vec::new();
                for s in &segs {
                    let value = self.compile_expr(s.value, false);
                    let size = s.size.map(|x| self.compile_expr(x, false));
                    cs.push(CSeg {
                        value,
                        size,
                        ty: s.ty,
                        signed: s.signed,
                        little: matches!(s.endian, Endian::Little),
                        unit: s.unit,
                    });
                }
                let t = self.temp();
                self.emit(Instr::Binary {
                    dst: t,
                    segs: cs.into(),
                });
                t
            }
            Expr::Map { base, fields } => {
                let b = base.map(|b| self.compile_expr(b, false));
                let fs: Vec<(Slot, Slot, bool)> = fields
                    .iter()
                    .map(|f| {
                        let k = self.compile_expr(f.key, false);
                        let v = self.compile_expr(f.value, false);
                        (k, v, f.exact)
                    })
                    .collect();
                let t = self.temp();
                self.emit(Instr::Map {
                    dst: t,
                    base: b,
                    fields: fs.into(),
                });
                t
            }
            Expr::Block(items) => {
                let mut last = None;
                let n = items.len();
                for (i, &it) in items.iter().enumerate() {
                    last = Some(self.compile_expr(it, tail && i + 1 == n));
                }
                match last {
                    Some(s) => s,
                    None => {
                        let t = self.temp();
                        self.emit(Instr::Const {
                            dst: t,
                            value: Term::Nil,
                        });
                        t
                    }
                }
            }
            Expr::Match(p, rhs) => {
                let v = self.compile_expr(rhs, false);
                self.emit_match(p, v, None);
                v
            }
            Expr::MaybeMatch(p, rhs) => {
                // Outside a `maybe` (should not happen): behaves as a match.
                let v = self.compile_expr(rhs, false);
                self.emit_match(p, v, None);
                v
            }
            Expr::Op(op, a, b) if matches!(self.body.expr(b), Expr::Lit(Literal::Int(_))) => {
                let imm = match self.body.expr(b) {
                    Expr::Lit(Literal::Int(i)) => *i,
                    _ => unreachable_lit(),
                };
                let sa = self.compile_expr(a, false);
                let t = self.temp();
                self.emit(match op {
                    BinOp::Add => Instr::AddImm { dst: t, a: sa, imm },
                    BinOp::Sub => Instr::SubImm { dst: t, a: sa, imm },
                    _ => Instr::OpImm {
                        dst: t,
                        op,
                        a: sa,
                        imm,
                    },
                });
                t
            }
            Expr::Op(op, a, b) => {
                let sa = self.compile_expr(a, false);
                let sb = self.compile_expr(b, false);
                let t = self.temp();
                self.emit(Instr::Op {
                    dst: t,
                    op,
                    a: sa,
                    b: sb,
                });
                t
            }
            Expr::UnOp(op, a) => {
                let sa = self.compile_expr(a, false);
                let t = self.temp();
                self.emit(Instr::UnOp { dst: t, op, a: sa });
                t
            }
            Expr::Send { site, to, msg } => {
                let st = self.compile_expr(to, false);
                let sm = self.compile_expr(msg, false);
                let t = self.temp();
                self.emit(Instr::Send {
                    dst: t,
                    to: st,
                    msg: sm,
                    site: site.0,
                });
                t
            }
            Expr::Call { site, target, args } => self.compile_call(site.0, &target, &args, tail),
            Expr::Case { kind, arg, clauses } => {
                let v = self.compile_expr(arg, false);
                let result = self.temp();
                let end = self.new_label();
                // A record case's second clause only names the record: reaching it is the error.
                let live = if kind == CaseKind::Record && clauses.len() >= 2 {
                    &clauses[..1]
                } else {
                    &clauses[..]
                };
                for &cid in live {
                    let c = self.body.clause(cid).clone();
                    let next = self.new_label();
                    let mark = self.next_temp;
                    if let Some(&p) = c.pats.first() {
                        self.emit_match(p, v, Some(next));
                    }
                    self.emit_guard(&c.guard, next);
                    let r = self.compile_expr(c.body, tail);
                    self.emit(Instr::Move {
                        dst: result,
                        src: r,
                    });
                    self.emit(Instr::Jump(end));
                    self.bind(next);
                    self.next_temp = mark;
                }
                let kind = match kind {
                    CaseKind::Case => FailKind::CaseClause,
                    CaseKind::If => FailKind::IfClause,
                    CaseKind::Boolean => FailKind::BadargValue,
                    CaseKind::Record => FailKind::Badrecord(self.record_name(&clauses)),
                };
                self.emit(Instr::Fail { kind, src: v });
                self.bind(end);
                result
            }
            Expr::Receive { clauses, after } => {
                self.compile_receive(&clauses, after.as_ref(), tail)
            }
            Expr::Try(t) => {
                let ir::TryExpr {
                    body,
                    of_clauses,
                    catch_clauses,
                    after,
                } = *t;
                self.compile_try(body, &of_clauses, &catch_clauses, after, tail)
            }
            Expr::Catch(inner) => {
                let (c, r, s) = (self.temp(), self.temp(), self.temp());
                let result = self.temp();
                let handler = self.new_label();
                let end = self.new_label();
                self.emit(Instr::TryBegin {
                    handler,
                    class: c,
                    reason: r,
                    stack: s,
                });
                self.protected += 1;
                let v = self.compile_expr(inner, false);
                self.protected -= 1;
                self.emit(Instr::TryEnd);
                self.emit(Instr::Move {
                    dst: result,
                    src: v,
                });
                self.emit(Instr::Jump(end));
                self.bind(handler);
                self.emit(Instr::CatchValue {
                    dst: result,
                    class: c,
                    reason: r,
                    stack: s,
                });
                self.bind(end);
                result
            }
            Expr::Fun(f) => {
                let env: Vec<Slot> = f.free_vars.iter().map(|&v| self.var(v)).collect();
                let t = self.temp();
                self.emit(Instr::MakeFun {
                    dst: t,
                    fun: f.id.0,
                    env: env.into(),
                });
                self.lambdas.push((f.id.0, (*f).clone()));
                t
            }
            Expr::FunRef {
                module,
                name,
                arity,
            } => {
                let m = module.map(|m| self.compile_expr(m, false));
                let n = self.compile_expr(name, false);
                let a = self.compile_expr(arity, false);
                let t = self.temp();
                self.emit(Instr::MakeFunRef {
                    dst: t,
                    module: m,
                    name: n,
                    arity: a,
                });
                t
            }
            Expr::Comprehension(c) => self.compile_comprehension(&c),
            Expr::Maybe(m) => {
                let ir::MaybeExpr { body, else_clauses } = *m;
                self.compile_maybe(&body, else_clauses.as_deref(), tail)
            }
        }
    }

    fn record_name(&self, clauses: &[ClauseId]) -> Atom {
        if let Some(&c) = clauses.get(1) {
            let body = self.body.clause(c).body;
            if let Some(a) = self.find_atom(body, 4) {
                return a;
            }
        }
        Atom::new("badrecord")
    }

    fn find_atom(&self, e: ExprId, depth: u32) -> Option<Atom> {
        if depth == 0 {
            return None;
        }
        match self.body.expr(e) {
            Expr::Lit(Literal::Atom(a)) if a != "badrecord" && a != "erlang" && a != "error" => {
                Some(Atom::new(a))
            }
            Expr::Tuple(items) => items
                .iter()
                .rev()
                .find_map(|&i| self.find_atom(i, depth - 1)),
            Expr::Call { args, .. } => args.iter().find_map(|&i| self.find_atom(i, depth - 1)),
            Expr::Block(items) => items.iter().find_map(|&i| self.find_atom(i, depth - 1)),
            _ => None,
        }
    }

    /// A compile-time constant for literal-only lists/tuples (built once).
    fn constant(&self, e: ExprId) -> Option<Term> {
        match self.body.expr(e) {
            Expr::Lit(l) => Some(literal_term(l)),
            Expr::Nil => Some(Term::Nil),
            Expr::Cons(h, t) => Some(Term::cons(self.constant(*h)?, self.constant(*t)?)),
            Expr::Tuple(items) => {
                let v: Option<Vec<Term>> = items.iter().map(|&i| self.constant(i)).collect();
                Some(Term::tuple(v?))
            }
            _ => None,
        }
    }

    fn compile_call(
        &mut self,
        site: u32,
        target: &ir::CallTarget,
        args: &[ExprId],
        tail: bool,
    ) -> Slot {
        let arity = args.len() as u32;
        let callee = match target {
            ir::CallTarget::Local { name, arity: a } => {
                let name_atom = Atom::new(name);
                let this = self.table.modules[self.module_index as usize].name;
                if let Some(b) = bif::lookup(this, name_atom, *a) {
                    Callee::Static(Target::Bif(b))
                } else {
                    let m = &self.table.modules[self.module_index as usize];
                    match m.fn_index.get(&(name_atom, *a)) {
                        Some(&fi) => {
                            Callee::Static(m.code_target(self.module_index, fi, name_atom, *a))
                        }
                        None => match bif::lookup(Atom::ERLANG, name_atom, *a) {
                            Some(b) => Callee::Static(Target::Bif(b)),
                            None => Callee::Static(Target::Undef {
                                module: self.table.modules[self.module_index as usize].name,
                                name: name_atom,
                                arity: *a,
                            }),
                        },
                    }
                }
            }
            ir::CallTarget::Remote { module, function } => {
                match (self.body.expr(*module), self.body.expr(*function)) {
                    (Expr::Lit(Literal::Atom(m)), Expr::Lit(Literal::Atom(f))) => {
                        Callee::Static(self.table.resolve(Atom::new(m), Atom::new(f), arity))
                    }
                    _ => {
                        let m = self.compile_expr(*module, false);
                        let f = self.compile_expr(*function, false);
                        Callee::Dynamic { module: m, name: f }
                    }
                }
            }
            ir::CallTarget::Apply { fun } => {
                let f = self.compile_expr(*fun, false);
                Callee::Apply { fun: f }
            }
        };
        let mut slots: Vec<Slot> = args.iter().map(|&a| self.compile_expr(a, false)).collect();
        let tail = tail && self.protected == 0;
        if tail {
            // A tail call moves its arguments out of the dying frame: each
            // must come from its own slot.
            for i in 1..slots.len() {
                if slots[..i].contains(&slots[i]) {
                    let copy = self.temp();
                    self.emit(Instr::Move {
                        dst: copy,
                        src: slots[i],
                    });
                    slots[i] = copy;
                }
            }
        }
        let t = self.temp();
        match callee {
            Callee::Static(Target::Code { module, function }) => self.emit(Instr::CallCode {
                dst: t,
                module,
                function,
                args: slots.into(),
                tail,
                moves: 0,
            }),
            callee => self.emit(Instr::Call {
                dst: t,
                callee,
                args: slots.into(),
                tail,
                site,
                moves: 0,
            }),
        }
        t
    }

    fn compile_receive(
        &mut self,
        clauses: &[ClauseId],
        after: Option<&ir::After>,
        tail: bool,
    ) -> Slot {
        let timeout = after.map(|a| self.compile_expr(a.timeout, false));
        let result = self.temp();
        let msg = self.temp();
        let next = self.new_label();
        let wait = self.new_label();
        let after_l = self.new_label();
        let end = self.new_label();
        self.emit(Instr::RecvStart);
        self.bind(next);
        self.emit(Instr::RecvPeek {
            dst: msg,
            empty: wait,
        });
        for &cid in clauses {
            let c = self.body.clause(cid).clone();
            let nextc = self.new_label();
            let mark = self.next_temp;
            if let Some(&p) = c.pats.first() {
                self.emit_match(p, msg, Some(nextc));
            }
            self.emit_guard(&c.guard, nextc);
            self.emit(Instr::RecvAccept);
            let r = self.compile_expr(c.body, tail);
            self.emit(Instr::Move {
                dst: result,
                src: r,
            });
            self.emit(Instr::Jump(end));
            self.bind(nextc);
            self.next_temp = mark;
        }
        self.emit(Instr::RecvAdvance);
        self.emit(Instr::Jump(next));
        self.bind(wait);
        self.emit(Instr::RecvWait {
            timeout,
            resume: next,
            after: after_l,
        });
        self.bind(after_l);
        if let Some(a) = after {
            let r = self.compile_expr(a.body, tail);
            self.emit(Instr::Move {
                dst: result,
                src: r,
            });
        }
        self.bind(end);
        result
    }

    fn compile_try(
        &mut self,
        body: ExprId,
        of_clauses: &[ClauseId],
        catch_clauses: &[ClauseId],
        after: Option<ExprId>,
        tail: bool,
    ) -> Slot {
        let _ = tail;
        let result = self.temp();
        let (ac, ar, as_) = (self.temp(), self.temp(), self.temp());
        let after_handler = self.new_label();
        let done = self.new_label();
        if after.is_some() {
            self.emit(Instr::TryBegin {
                handler: after_handler,
                class: ac,
                reason: ar,
                stack: as_,
            });
            self.protected += 1;
        }
        let (c, r, s) = (self.temp(), self.temp(), self.temp());
        let handler = self.new_label();
        let ok = self.new_label();
        self.emit(Instr::TryBegin {
            handler,
            class: c,
            reason: r,
            stack: s,
        });
        self.protected += 1;
        let v = self.compile_expr(body, false);
        self.protected -= 1;
        self.emit(Instr::TryEnd);
        if of_clauses.is_empty() {
            self.emit(Instr::Move {
                dst: result,
                src: v,
            });
        } else {
            for &cid in of_clauses {
                let cl = self.body.clause(cid).clone();
                let next = self.new_label();
                if let Some(&p) = cl.pats.first() {
                    self.emit_match(p, v, Some(next));
                }
                self.emit_guard(&cl.guard, next);
                let rv = self.compile_expr(cl.body, false);
                self.emit(Instr::Move {
                    dst: result,
                    src: rv,
                });
                self.emit(Instr::Jump(ok));
                self.bind(next);
            }
            self.emit(Instr::Fail {
                kind: FailKind::TryClause,
                src: v,
            });
        }
        self.emit(Instr::Jump(ok));
        self.bind(handler);
        if catch_clauses.is_empty() {
            self.emit(Instr::Reraise {
                class: c,
                reason: r,
                stack: s,
            });
        }
        for &cid in catch_clauses {
            let cl = self.body.clause(cid).clone();
            let next = self.new_label();
            for (i, &p) in cl.pats.iter().enumerate().take(3) {
                self.emit_match(p, [c, r, s][i], Some(next));
            }
            self.emit_guard(&cl.guard, next);
            let rv = self.compile_expr(cl.body, false);
            self.emit(Instr::Move {
                dst: result,
                src: rv,
            });
            self.emit(Instr::Jump(ok));
            self.bind(next);
        }
        if !catch_clauses.is_empty() {
            self.emit(Instr::Reraise {
                class: c,
                reason: r,
                stack: s,
            });
        }
        self.bind(ok);
        if let Some(a) = after {
            self.protected -= 1;
            self.emit(Instr::TryEnd);
            self.compile_expr(a, false);
            self.emit(Instr::Jump(done));
            self.bind(after_handler);
            self.compile_expr(a, false);
            self.emit(Instr::Reraise {
                class: ac,
                reason: ar,
                stack: as_,
            });
        }
        self.bind(done);
        result
    }

    fn compile_maybe(
        &mut self,
        body: &[ExprId],
        else_clauses: Option<&[ClauseId]>,
        tail: bool,
    ) -> Slot {
        let _ = tail;
        let result = self.temp();
        let failed = self.temp();
        let else_l = self.new_label();
        let end = self.new_label();
        for &item in body {
            match self.body.expr(item).clone() {
                Expr::MaybeMatch(p, rhs) => {
                    let v = self.compile_expr(rhs, false);
                    self.emit(Instr::Move {
                        dst: failed,
                        src: v,
                    });
                    self.emit_match(p, v, Some(else_l));
                    self.emit(Instr::Move {
                        dst: result,
                        src: v,
                    });
                }
                _ => {
                    let v = self.compile_expr(item, false);
                    self.emit(Instr::Move {
                        dst: result,
                        src: v,
                    });
                }
            }
        }
        self.emit(Instr::Jump(end));
        self.bind(else_l);
        match else_clauses {
            None => self.emit(Instr::Move {
                dst: result,
                src: failed,
            }),
            Some(clauses) => {
                for &cid in clauses {
                    let c = self.body.clause(cid).clone();
                    let next = self.new_label();
                    if let Some(&p) = c.pats.first() {
                        self.emit_match(p, failed, Some(next));
                    }
                    self.emit_guard(&c.guard, next);
                    let r = self.compile_expr(c.body, false);
                    self.emit(Instr::Move {
                        dst: result,
                        src: r,
                    });
                    self.emit(Instr::Jump(end));
                    self.bind(next);
                }
                self.emit(Instr::Fail {
                    kind: FailKind::ElseClause,
                    src: failed,
                });
            }
        }
        self.bind(end);
        result
    }

    fn compile_comprehension(&mut self, c: &ir::Comprehension) -> Slot {
        let acc = self.temp();
        self.emit(Instr::Const {
            dst: acc,
            value: Term::Nil,
        });
        let end = self.new_label();
        self.compile_qualifiers(c, 0, acc, end);
        self.bind(end);
        let t = self.temp();
        self.emit(Instr::AccFinish {
            dst: t,
            acc,
            kind: c.kind,
        });
        t
    }

    fn compile_qualifiers(&mut self, c: &ir::Comprehension, i: usize, acc: Slot, cont: Label) {
        if i == c.qualifiers.len() {
            let v = self.compile_expr(c.body, false);
            self.emit(Instr::AccPush { acc, value: v });
            self.emit(Instr::Jump(cont));
            return;
        }
        match &c.qualifiers[i] {
            Qualifier::Filter(e) => {
                let g = self.compile_gexpr(*e);
                if guard_valid(&g) {
                    self.guards.push(vec![vec![g]]);
                    let idx = (self.guards.len() - 1) as u32;
                    self.emit(Instr::Guard {
                        guard: idx,
                        fail: cont,
                    });
                } else {
                    let v = self.compile_expr(*e, false);
                    self.emit(Instr::Filter { src: v, fail: cont });
                }
                self.compile_qualifiers(c, i + 1, acc, cont);
            }
            // A relaxed generator skips what its pattern does not match (in
            // a bitstring, as much as the pattern would take); a strict one
            // (OTP 28) raises `{badmatch, E}` with the element, the `{K, V}`
            // pair or the rest of the bitstring.
            Qualifier::Generator {
                kind,
                pat,
                expr,
                strict,
            } => {
                let src = self.compile_expr(*expr, false);
                let list = self.temp();
                match kind {
                    GeneratorKind::Map => self.emit(Instr::MapToList { dst: list, src }),
                    _ => self.emit(Instr::Move { dst: list, src }),
                }
                let lp = self.new_label();
                let done = self.new_label();
                let rest_l = self.new_label();
                self.bind(lp);
                if matches!(kind, GeneratorKind::Binary) {
                    let cp = self.compile_pat(*pat);
                    let pidx = self.add_pat(cp);
                    let nomatch = self.new_label();
                    self.emit(Instr::BinNext {
                        bits: list,
                        pat: pidx,
                        done: nomatch,
                    });
                    self.emit(Instr::Jump(rest_l));
                    self.bind(nomatch);
                    if *strict {
                        let empty =
                            self.add_pat(CPat::Binary(Vec::new().into(), Vec::new().into()));
                        let raise = self.new_label();
                        self.emit(Instr::Match {
                            pat: empty,
                            src: list,
                            fail: Some(raise),
                        });
                        self.emit(Instr::Jump(done));
                        self.bind(raise);
                        self.emit(Instr::Fail {
                            kind: FailKind::Badmatch,
                            src: list,
                        });
                    } else {
                        let (segs, sizes) = self.skeleton_segs(*pat);
                        let skel = self.add_pat(CPat::Binary(segs.into(), sizes.into()));
                        self.emit(Instr::BinNext {
                            bits: list,
                            pat: skel,
                            done,
                        });
                        self.emit(Instr::Jump(lp));
                    }
                } else {
                    let head = self.temp();
                    self.emit(Instr::ListNext { list, head, done });
                    self.emit_match(*pat, head, if *strict { None } else { Some(lp) });
                }
                self.bind(rest_l);
                self.compile_qualifiers(c, i + 1, acc, lp);
                self.bind(done);
                self.emit(Instr::Jump(cont));
            }
            Qualifier::Zip(gens) => self.compile_zip(c, i, gens, acc, cont),
        }
    }

    /// An OTP 28 zip generator (EEP 73), as OTP 28 evaluates it: every
    /// generator's expression first (a map generator's non-map raises
    /// `{bad_generator, M}` here), then rounds. A round ends the zip when
    /// every generator is exhausted, raises `{bad_generators, Remaining}`
    /// when only some are (`Remaining`: the tuple of what each had left at
    /// the round's start, a map generator's as a map), else takes one element
    /// of each and matches the patterns left to right: a relaxed mismatch
    /// skips the round (all generators still advance), a strict one, an
    /// improper list tail or a non-bitstring raises `{bad_generators, ...}`.
    /// A binary generator is exhausted when its pattern, values ignored, no
    /// longer matches what is left (a relaxed mismatch skips that much).
    /// Not reproduced: a strict pattern reusing a variable of a relaxed one
    /// that failed in the same round compares with the previous round's value.
    fn compile_zip(
        &mut self,
        c: &ir::Comprehension,
        i: usize,
        gens: &[ir::Generator],
        acc: Slot,
        cont: Label,
    ) {
        let rests: Vec<Slot> = gens
            .iter()
            .map(|g| {
                let src = self.compile_expr(g.expr, false);
                let rest = self.temp();
                match g.kind {
                    GeneratorKind::Map => self.emit(Instr::MapToList { dst: rest, src }),
                    _ => self.emit(Instr::Move { dst: rest, src }),
                }
                rest
            })
            .collect();
        let snaps: Vec<Slot> = gens.iter().map(|_| self.temp()).collect();
        let (any_end, all_end, skip) = (self.temp(), self.temp(), self.temp());
        let round = self.new_label();
        let done = self.new_label();
        let bad = self.new_label();
        let atom = |b: bool| Term::Atom(Atom::bool(b));
        self.bind(round);
        for (&rest, &snap) in rests.iter().zip(&snaps) {
            self.emit(Instr::Move {
                dst: snap,
                src: rest,
            });
        }
        self.emit(Instr::Const {
            dst: any_end,
            value: atom(false),
        });
        self.emit(Instr::Const {
            dst: all_end,
            value: atom(true),
        });
        // Which generators are exhausted?
        for (g, &rest) in gens.iter().zip(&rests) {
            let at_end = self.new_label();
            let not_end = self.new_label();
            let next = self.new_label();
            if g.kind == GeneratorKind::Binary {
                let any_bits = self.add_pat(bits_pat(Vec::new(), Vec::new()));
                self.emit(Instr::Match {
                    pat: any_bits,
                    src: rest,
                    fail: Some(not_end),
                });
                let (segs, sizes) = self.skeleton_segs(g.pat);
                let prefix = self.add_pat(bits_pat(segs, sizes));
                self.emit(Instr::Match {
                    pat: prefix,
                    src: rest,
                    fail: Some(at_end),
                });
                self.emit(Instr::Jump(not_end));
            } else {
                let nil = self.add_pat(CPat::Nil);
                self.emit(Instr::Match {
                    pat: nil,
                    src: rest,
                    fail: Some(not_end),
                });
            }
            self.bind(at_end);
            self.emit(Instr::Const {
                dst: any_end,
                value: atom(true),
            });
            self.emit(Instr::Jump(next));
            self.bind(not_end);
            self.emit(Instr::Const {
                dst: all_end,
                value: atom(false),
            });
            self.bind(next);
        }
        let some_end = self.new_label();
        let is_true = self.add_pat(CPat::Lit(atom(true)));
        let is_false = self.add_pat(CPat::Lit(atom(false)));
        self.emit(Instr::Match {
            pat: is_true,
            src: all_end,
            fail: Some(some_end),
        });
        self.emit(Instr::Jump(done));
        self.bind(some_end);
        self.emit(Instr::Match {
            pat: is_false,
            src: any_end,
            fail: Some(bad),
        });
        // Take one element of each, matching the patterns left to right.
        self.emit(Instr::Const {
            dst: skip,
            value: atom(false),
        });
        for (g, &rest) in gens.iter().zip(&rests) {
            let failed = self.new_label();
            let next = self.new_label();
            let cp = self.compile_pat(g.pat);
            let pidx = self.add_pat(cp);
            if g.kind == GeneratorKind::Binary {
                let any_bits = self.add_pat(bits_pat(Vec::new(), Vec::new()));
                self.emit(Instr::Match {
                    pat: any_bits,
                    src: rest,
                    fail: Some(bad),
                });
                self.emit(Instr::BinNext {
                    bits: rest,
                    pat: pidx,
                    done: failed,
                });
            } else {
                let cons = self.add_pat(CPat::Cons(Box::new(CPat::Wild), Box::new(CPat::Wild)));
                self.emit(Instr::Match {
                    pat: cons,
                    src: rest,
                    fail: Some(bad),
                });
                let head = self.temp();
                self.emit(Instr::ListNext {
                    list: rest,
                    head,
                    done: bad,
                });
                self.emit(Instr::Match {
                    pat: pidx,
                    src: head,
                    fail: Some(failed),
                });
            }
            self.emit(Instr::Jump(next));
            self.bind(failed);
            if g.strict {
                self.emit(Instr::Jump(bad));
            } else {
                self.emit(Instr::Const {
                    dst: skip,
                    value: atom(true),
                });
                if g.kind == GeneratorKind::Binary {
                    // Skip as much as the pattern would have taken.
                    let (segs, sizes) = self.skeleton_segs(g.pat);
                    let skel = self.add_pat(CPat::Binary(segs.into(), sizes.into()));
                    self.emit(Instr::BinNext {
                        bits: rest,
                        pat: skel,
                        done: bad,
                    });
                }
            }
            self.bind(next);
        }
        self.emit(Instr::Match {
            pat: is_false,
            src: skip,
            fail: Some(round),
        });
        self.compile_qualifiers(c, i + 1, acc, round);
        // `{bad_generators, {Remaining...}}`
        self.bind(bad);
        let shown: Vec<Slot> = gens
            .iter()
            .zip(&snaps)
            .map(|(g, &snap)| {
                if g.kind == GeneratorKind::Map {
                    let m = self.temp();
                    self.emit(Instr::AccFinish {
                        dst: m,
                        acc: snap,
                        kind: ComprehensionKind::Map,
                    });
                    m
                } else {
                    snap
                }
            })
            .collect();
        let remaining = self.temp();
        self.emit(Instr::Tuple {
            dst: remaining,
            elems: shown.into(),
        });
        let tag = self.temp();
        self.emit(Instr::Const {
            dst: tag,
            value: Term::atom("bad_generators"),
        });
        let reason = self.temp();
        self.emit(Instr::Tuple {
            dst: reason,
            elems: vec![tag, remaining].into(),
        });
        match bif::lookup(Atom::ERLANG, Atom::ERROR, 1) {
            Some(b) => {
                let t = self.temp();
                self.emit(Instr::Call {
                    dst: t,
                    callee: Callee::Static(Target::Bif(b)),
                    args: vec![reason].into(),
                    tail: false,
                    site: u32::MAX,
                    moves: 0,
                });
            }
            None => self.emit(Instr::Fail {
                kind: FailKind::Badmatch,
                src: reason,
            }),
        }
        self.bind(done);
        self.emit(Instr::Jump(cont));
    }

    /// The segments of a binary generator's pattern with every value that
    /// tests something made `_` (sizes kept; a variable still binds, for
    /// sizes like `<<N:8, X:N/binary>>`): what the pattern would consume,
    /// whatever matches.
    fn skeleton_segs(&mut self, p: PatId) -> (Vec<CSeg<CPat>>, Vec<Option<GExpr>>) {
        match self.compile_pat(p) {
            CPat::Binary(segs, sizes) => (
                segs.into_vec()
                    .into_iter()
                    .map(|s| CSeg {
                        value: match s.value {
                            CPat::Var(v) => CPat::Var(v),
                            _ => CPat::Wild,
                        },
                        ..s
                    })
                    .collect(),
                sizes.into_vec(),
            ),
            _ => (Vec::new(), Vec::new()),
        }
    }
}

/// A binary pattern: `segs` followed by `_/bitstring` (so it matches any
/// bitstring that starts with them).
fn bits_pat(mut segs: Vec<CSeg<CPat>>, mut sizes: Vec<Option<GExpr>>) -> CPat {
    segs.push(CSeg {
        value: CPat::Wild,
        size: None,
        ty: BinType::Bitstring,
        signed: false,
        little: false,
        unit: 1,
    });
    sizes.push(None);
    CPat::Binary(segs.into(), sizes.into())
}

/// A part of a `[H | T]` pattern that `MatchCons` binds: `Some(Some(slot))`
/// for a variable, `Some(None)` for `_`, `None` for anything else.
fn cons_part(p: &CPat) -> Option<Option<Slot>> {
    match p {
        CPat::Var(s) => Some(Some(*s)),
        CPat::Wild => Some(None),
        _ => None,
    }
}

/// The guard of the `OpImm` arm checked the literal; this is never reached.
fn unreachable_lit() -> i64 {
    0
}

/// Is this a guard expression (no call outside the guard BIFs)? Such
/// comprehension filters are evaluated as guards: an exception means false.
fn guard_valid(g: &GExpr) -> bool {
    match g {
        GExpr::Invalid => false,
        GExpr::Lit(_) | GExpr::Var(_) | GExpr::SelfPid => true,
        GExpr::Cons(a, b) | GExpr::Op(_, a, b) => guard_valid(a) && guard_valid(b),
        GExpr::UnOp(_, a) => guard_valid(a),
        GExpr::Tuple(items) | GExpr::Block(items) => items.iter().all(guard_valid),
        GExpr::Call(b, args) => b.module == Atom::ERLANG && args.iter().all(guard_valid),
        GExpr::Map(base, fields) => {
            base.as_deref().is_none_or(guard_valid)
                && fields
                    .iter()
                    .all(|(k, v, _)| guard_valid(k) && guard_valid(v))
        }
        GExpr::Binary(segs) => segs
            .iter()
            .all(|s| guard_valid(&s.value) && s.size.as_ref().is_none_or(guard_valid)),
        GExpr::Case(arg, clauses, kind) => {
            *kind == CaseKind::Boolean
                && guard_valid(arg)
                && clauses
                    .iter()
                    .all(|(_, g, b)| g.iter().flatten().all(guard_valid) && guard_valid(b))
        }
    }
}

/// Bitstring helpers shared by construction and matching.
pub fn empty_bits() -> Bitstr {
    Bitstr::from_bytes(Vec::new())
}
// One cache line per instruction.
const _: () = assert!(std::mem::size_of::<Instr>() == 64);
