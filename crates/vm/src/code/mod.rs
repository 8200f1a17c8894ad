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

mod bifs;
mod compile;
pub mod forms;
mod instr;
pub mod layout;
pub mod liveness;
mod quick;
mod resolve;

pub use bifs::{Bif, BifKind, BifNames, CtxBif, PureFn, is_racewit_module};
pub use compile::{empty_bits, literal_term};
pub use instr::{
    CPat, CSeg, Callee, FailKind, FnCode, GClause, GExpr, Instr, Label, SiteInfo, Slot, Target,
};
pub use quick::QuickClauses;
pub use resolve::{
    CodeTable, GENERATED_DIR, ModuleCode, Origin, compile_onto, compile_over, compile_programs,
    is_generated,
};
