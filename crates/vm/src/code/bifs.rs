//! How compiled code names a BIF ([`Bif`]), and the BIFs known by name
//! ([`BifNames`]), which the compiler and the call resolution consult.
//!
//! A pure BIF is a function of its arguments ([`PureFn`]), called straight
//! from an instruction (and from guards). A context BIF works on the VM and
//! the calling process; its function takes the interpreter's state, so code
//! holds only its number ([`CtxBif`]) and the interpreter looks the
//! function up (`bif::ctx_fn`). The table itself is filled by `bif`, the
//! interpreter's side, and handed to the code table when it is made.

use rustc_hash::FxHashMap;

use crate::atom::Atom;
use crate::term::Term;

/// A BIF that only computes a value from its arguments (or raises).
pub type PureFn = fn(&[Term]) -> Result<Term, Term>;

/// A context BIF: its number in the interpreter's table of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtxBif(pub u32);

#[derive(Clone, Copy, Debug)]
pub enum BifKind {
    Pure(PureFn),
    Ctx(CtxBif),
}

#[derive(Clone, Copy, Debug)]
pub struct Bif {
    pub module: Atom,
    pub name: Atom,
    pub arity: u32,
    pub kind: BifKind,
}

impl Bif {
    pub fn is_pure(&self) -> bool {
        matches!(self.kind, BifKind::Pure(_))
    }
}

/// Every BIF by `{Module, Name, Arity}`.
#[derive(Default)]
pub struct BifNames(FxHashMap<(Atom, Atom, u32), Bif>);

impl BifNames {
    pub fn insert(&mut self, bif: Bif) {
        self.0.insert((bif.module, bif.name, bif.arity), bif);
    }

    pub fn lookup(&self, module: Atom, name: Atom, arity: u32) -> Option<Bif> {
        self.0.get(&(module, name, arity)).copied()
    }

    /// The BIFs of `module`, by name and arity (unordered).
    pub fn of_module(&self, module: Atom) -> Vec<(Atom, u32)> {
        self.0
            .keys()
            .filter(|(m, _, _)| *m == module)
            .map(|&(_, n, a)| (n, a))
            .collect()
    }

    /// Is any BIF defined in this module?
    pub fn module_known(&self, module: Atom) -> bool {
        self.0.keys().any(|(m, _, _)| *m == module)
    }
}

/// Whether `module` is one of racewit's own BIF modules (`racewit`,
/// `racewit_world`, ...), which its prelude calls and no real node has:
/// a program naming one names nothing of its own.
pub fn is_racewit_module(module: Atom) -> bool {
    let name = module.name();
    name == "racewit" || name.starts_with("racewit_")
}
