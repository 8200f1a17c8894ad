//! Interned atoms.
//!
//! An [`Atom`] is a `u32` index into one append-only interner shared by every
//! VM of the process. Ids are assigned in first-use order and never reach
//! output: term order and printing go through the atom's name, so results do
//! not depend on which VM interned an atom first. Equality is an integer compare.

use std::sync::{OnceLock, RwLock};

use rustc_hash::FxHashMap;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom(pub u32);

struct Interner {
    ids: FxHashMap<&'static str, u32>,
    names: Vec<&'static str>,
}

macro_rules! predefined {
    ($($konst:ident = $text:expr;)*) => {
        const PREDEFINED: &[&str] = &[$($text),*];
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u32)]
        enum PredefIndex { $($konst),* }
        impl Atom { $(pub const $konst: Atom = Atom(PredefIndex::$konst as u32);)* }
    };
}

predefined! {
    TRUE = "true"; FALSE = "false"; OK = "ok"; ERROR = "error"; EXIT = "exit";
    THROW = "throw"; UNDEFINED = "undefined"; BADARG = "badarg"; BADARITH = "badarith";
    BADMATCH = "badmatch"; CASE_CLAUSE = "case_clause"; IF_CLAUSE = "if_clause";
    TRY_CLAUSE = "try_clause"; FUNCTION_CLAUSE = "function_clause"; UNDEF = "undef";
    BADFUN = "badfun"; BADARITY = "badarity"; NOPROC = "noproc"; TIMEOUT = "timeout";
    BADRECORD = "badrecord"; BADMAP = "badmap"; BADKEY = "badkey"; NORMAL = "normal";
    KILL = "kill"; KILLED = "killed"; EXIT_UPPER = "EXIT"; DOWN = "DOWN";
    PROCESS = "process"; INFINITY = "infinity"; NONODE = "nonode@nohost";
    TRAP_EXIT = "trap_exit"; ERLANG = "erlang"; NIL_ATOM = "nil"; ELSE_CLAUSE = "else_clause";
    SYSTEM_LIMIT = "system_limit"; NOCONNECTION = "noconnection"; SET = "set";
    ORDERED_SET = "ordered_set"; BAG = "bag"; DUPLICATE_BAG = "duplicate_bag";
    PUBLIC = "public"; PROTECTED = "protected"; PRIVATE = "private";
    NAMED_TABLE = "named_table"; KEYPOS = "keypos"; END_OF_TABLE = "$end_of_table";
    BADRPC = "badrpc"; ABORTED = "aborted"; ATOMIC = "atomic"; VALUE = "value";
    NOMATCH = "nomatch"; BADGUARD = "badguard"; RACEWIT_MISSING = "racewit_missing_code";
    SHUTDOWN = "shutdown"; CALLS = "calls"; FUN = "fun";
}

fn interner() -> &'static RwLock<Interner> {
    static INTERNER: OnceLock<RwLock<Interner>> = OnceLock::new();
    INTERNER.get_or_init(|| {
        let mut ids = FxHashMap::default();
        let mut names = Vec::new();
        for (i, n) in PREDEFINED.iter().enumerate() {
            ids.insert(*n, i as u32);
            names.push(*n);
        }
        RwLock::new(Interner { ids, names })
    })
}

impl Atom {
    pub fn new(name: &str) -> Atom {
        {
            let guard = interner().read().unwrap_or_else(|e| e.into_inner());
            if let Some(&id) = guard.ids.get(name) {
                return Atom(id);
            }
        }
        let mut guard = interner().write().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = guard.ids.get(name) {
            return Atom(id);
        }
        let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
        let id = guard.names.len() as u32;
        guard.names.push(leaked);
        guard.ids.insert(leaked, id);
        Atom(id)
    }

    /// The atom's name, if it was interned already (no new atom is created).
    pub fn existing(name: &str) -> Option<Atom> {
        let guard = interner().read().unwrap_or_else(|e| e.into_inner());
        guard.ids.get(name).map(|&id| Atom(id))
    }

    pub fn name(self) -> &'static str {
        let guard = interner().read().unwrap_or_else(|e| e.into_inner());
        guard.names.get(self.0 as usize).copied().unwrap_or("")
    }

    /// Term order between atoms: by name.
    pub fn cmp_names(self, other: Atom) -> std::cmp::Ordering {
        if self == other {
            return std::cmp::Ordering::Equal;
        }
        self.name().cmp(other.name())
    }

    pub fn bool(b: bool) -> Atom {
        if b { Atom::TRUE } else { Atom::FALSE }
    }
}

impl std::fmt::Debug for Atom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}'", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_stable() {
        assert_eq!(Atom::new("true"), Atom::TRUE);
        assert_eq!(Atom::new("$end_of_table"), Atom::END_OF_TABLE);
        let a = Atom::new("some_new_atom");
        assert_eq!(a, Atom::new("some_new_atom"));
        assert_eq!(a.name(), "some_new_atom");
        assert_eq!(
            Atom::new("a").cmp_names(Atom::new("b")),
            std::cmp::Ordering::Less
        );
    }
}
