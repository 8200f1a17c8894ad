//! Analysis units: every named function and every `fun` expression of the program.

use racewit_syntax::ir::{
    ClauseId, Expr, FunExpr, FunId, FunName, Function, MFA, Module, Name, Program,
};
use racewit_syntax::source::Span;
use rustc_hash::FxHashMap;

use crate::values::{Term, UnitId};

/// Test or example code: a module in a `test/`, `tests/`, `examples/`,
/// `example/`, `eqc/` or `proper/` directory (or one level below it, other
/// than `src/`), or named `*_SUITE`, `*_tests`, `*_eqc` or `prop_*`.
pub fn is_test_code(path: &std::path::Path, module: &str) -> bool {
    let name = |p: Option<&std::path::Path>| {
        p.and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string()
    };
    let testy = |n: &str| {
        matches!(
            n,
            "test" | "tests" | "examples" | "example" | "eqc" | "proper"
        )
    };
    let parent = path.parent();
    let dir = name(parent);
    let up = name(parent.and_then(|p| p.parent()));
    let dir = testy(&dir) || (dir != "src" && testy(&up));
    dir || module.ends_with("_SUITE")
        || module.ends_with("_tests")
        || module.ends_with("_eqc")
        || module.starts_with("prop_")
}

/// The term of a literal (what the value analysis gives it).
pub fn literal_term(l: &racewit_syntax::ir::Literal) -> Term {
    use racewit_syntax::ir::Literal;
    match l {
        Literal::Atom(a) => Term::Atom(a.clone()),
        Literal::Int(i) => Term::Int(*i),
        Literal::String(s) if s.is_empty() => Term::List(Vec::new()),
        Literal::String(s) => Term::Str(s.as_ref().into()),
        Literal::BigInt(_) | Literal::Float(_) => Term::Any,
    }
}

/// Index of a named function in the whole program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FnId(pub u32);

impl FnId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

pub struct Unit<'p> {
    pub module: u32,
    /// The named function that holds the unit (itself for a named function).
    pub owner: FnId,
    pub fun: Option<&'p FunExpr>,
    pub arity: u32,
    /// Index of the unit's first parameter among its owner's parameters
    /// (0 for a named function; a fun's come after the function's own and
    /// those of the funs before it).
    pub param_base: u32,
}

impl Unit<'_> {
    pub fn clauses<'a>(&'a self, f: &'a Function) -> &'a [ClauseId] {
        match self.fun {
            Some(fe) => &fe.clauses,
            None => &f.clauses,
        }
    }
}

pub struct Units<'p> {
    pub program: &'p Program,
    pub modules: Vec<&'p Module>,
    pub module_index: FxHashMap<Name, u32>,
    /// Named functions: module index and function.
    pub fns: Vec<(u32, &'p Function)>,
    /// The unit of each named function (same index as `fns`).
    pub fn_unit: Vec<UnitId>,
    /// Parameters of each named function counting those of its funs.
    pub fn_params: Vec<u32>,
    pub units: Vec<Unit<'p>>,
    by_name: FxHashMap<(u32, FunName), FnId>,
    by_fun: FxHashMap<(u32, FunId), UnitId>,
    /// Exported functions by name and arity, in program order.
    exported: FxHashMap<FunName, Vec<FnId>>,
    /// Record names and tuple sizes defined anywhere in the program.
    pub records: rustc_hash::FxHashSet<(Name, u32)>,
    /// Per module: test or example code (see [`is_test_code`]).
    pub test_modules: Vec<bool>,
    /// Literal keys some map expression of the program is built with.
    pub map_keys: rustc_hash::FxHashSet<Term>,
    /// Literal keys some `persistent_term:put/2` of the program stores under.
    pub persistent_keys: rustc_hash::FxHashSet<Term>,
    /// Per module, per call site: the program's function its static
    /// target names (looked up once; `None` if dynamic or outside).
    pub site_fns: Vec<Vec<Option<FnId>>>,
    /// Per named function: [`Units::native_stub`], decided once (the value
    /// analysis asks at every call of every round).
    native_stubs: Vec<bool>,
}

impl<'p> Units<'p> {
    pub fn new(program: &'p Program) -> Self {
        let modules: Vec<&Module> = program.modules.values().collect();
        let mut module_index = FxHashMap::default();
        let mut fns = Vec::new();
        let mut fn_unit = Vec::new();
        let mut fn_params = Vec::new();
        let mut units = Vec::new();
        let mut by_name = FxHashMap::default();
        let mut by_fun = FxHashMap::default();
        for (mi, m) in modules.iter().enumerate() {
            let mi = mi as u32;
            module_index.insert(m.name.clone(), mi);
            for f in &m.functions {
                let fid = FnId(fns.len() as u32);
                fns.push((mi, f));
                by_name.insert((mi, f.fun_name()), fid);
                fn_unit.push(UnitId(units.len() as u32));
                units.push(Unit {
                    module: mi,
                    owner: fid,
                    fun: None,
                    arity: f.arity,
                    param_base: 0,
                });
                let mut next = f.arity;
                for e in &f.body.exprs {
                    if let Expr::Fun(fe) = e {
                        by_fun.insert((mi, fe.id), UnitId(units.len() as u32));
                        units.push(Unit {
                            module: mi,
                            owner: fid,
                            fun: Some(fe),
                            arity: fe.arity,
                            param_base: next,
                        });
                        next += fe.arity;
                    }
                }
                fn_params.push(next);
            }
        }
        let mut exported: FxHashMap<FunName, Vec<FnId>> = FxHashMap::default();
        for (i, (_, f)) in fns.iter().enumerate() {
            if f.exported {
                exported
                    .entry(f.fun_name())
                    .or_default()
                    .push(FnId(i as u32));
            }
        }
        let records = modules
            .iter()
            .flat_map(|m| m.records.values())
            .map(|r| (r.name.clone(), r.fields.len() as u32 + 1))
            .collect();
        let mut map_keys = rustc_hash::FxHashSet::default();
        for (_, f) in &fns {
            for e in &f.body.exprs {
                if let Expr::Map { fields, .. } = e {
                    for fl in fields {
                        if let Expr::Lit(l) = f.body.expr(fl.key) {
                            map_keys.insert(literal_term(l));
                        }
                    }
                }
            }
        }
        let mut persistent_keys = rustc_hash::FxHashSet::default();
        for (mi, f) in &fns {
            let m = modules[*mi as usize];
            for e in &f.body.exprs {
                if let Expr::Call { site, args, .. } = e
                    && let [key, _] = &args[..]
                    && let Expr::Lit(l) = f.body.expr(*key)
                    && m.call_sites
                        .get(site.index())
                        .and_then(|s| s.target.as_ref())
                        .is_some_and(|t| {
                            t.module == "persistent_term" && t.name == "put" && t.arity == 2
                        })
                {
                    persistent_keys.insert(literal_term(l));
                }
            }
        }
        let test_modules = modules
            .iter()
            .map(|m| is_test_code(program.sources.path(m.file), &m.name))
            .collect();
        let mut units = Units {
            test_modules,
            records,
            map_keys,
            persistent_keys,
            exported,
            program,
            modules,
            module_index,
            fns,
            fn_unit,
            fn_params,
            units,
            by_name,
            by_fun,
            site_fns: Vec::new(),
            native_stubs: Vec::new(),
        };
        let site_fns = {
            use rayon::prelude::*;
            let u = &units;
            u.modules
                .par_iter()
                .map(|m| {
                    m.call_sites
                        .iter()
                        .map(|cs| cs.target.as_ref().and_then(|t| u.lookup_mfa(t)))
                        .collect()
                })
                .collect()
        };
        units.site_fns = site_fns;
        units.native_stubs = {
            use rayon::prelude::*;
            let u = &units;
            u.fns
                .par_iter()
                .map(|&(mi, f)| u.module(mi).is_native_stub(f))
                .collect()
        };
        units
    }

    /// Test or example code: the unit's module is ([`is_test_code`]), or
    /// its function is defined only under a test macro
    /// ([`racewit_syntax::ir::Function::test_only`]: eunit tests in the module).
    pub fn in_tests(&self, u: UnitId) -> bool {
        let unit = self.unit(u);
        self.test_modules[unit.module as usize] || self.function(unit.owner).test_only
    }

    pub fn unit(&self, u: UnitId) -> &Unit<'p> {
        &self.units[u.index()]
    }

    pub fn function(&self, f: FnId) -> &'p Function {
        self.fns[f.index()].1
    }

    pub fn unit_function(&self, u: UnitId) -> &'p Function {
        self.function(self.unit(u).owner)
    }

    /// A function the runtime implements natively: every clause only
    /// calls `erlang:nif_error/1,2` (the stubs of `erlang.erl`, `ets.erl`,
    /// a NIF module's Erlang side). The stub's body never returns, but the
    /// BIF or NIF loaded in its place does, with a value the source does
    /// not show.
    pub fn native_stub(&self, f: FnId) -> bool {
        self.native_stubs[f.index()]
    }

    pub fn module(&self, i: u32) -> &'p Module {
        self.modules[i as usize]
    }

    pub fn lookup(&self, module: &str, name: &str, arity: u32) -> Option<FnId> {
        let mi = *self.module_index.get(module)?;
        self.by_name
            .get(&(
                mi,
                FunName {
                    name: Name::new(name),
                    arity,
                },
            ))
            .copied()
    }

    pub fn lookup_mfa(&self, mfa: &MFA) -> Option<FnId> {
        self.lookup(&mfa.module, &mfa.name, mfa.arity)
    }

    /// Exported functions named `name`/`arity` in any module.
    pub fn exported_named(&self, name: &Name, arity: u32) -> &[FnId] {
        self.exported
            .get(&FunName {
                name: name.clone(),
                arity,
            })
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn closure(&self, module: u32, fun: FunId) -> Option<UnitId> {
        self.by_fun.get(&(module, fun)).copied()
    }

    pub fn is_exported(&self, u: UnitId) -> bool {
        let unit = self.unit(u);
        unit.fun.is_none() && self.unit_function(u).exported
    }

    /// `mod:f/1`, or `mod:'-f/1-fun-0-'/0` for a fun (Erlang's naming).
    pub fn display(&self, u: UnitId) -> String {
        let unit = self.unit(u);
        let f = self.unit_function(u);
        let m = &self.module(unit.module).name;
        match unit.fun {
            None => format!("{m}:{}/{}", f.name, f.arity),
            Some(fe) => format!(
                "{m}:'-{}/{}-fun-{}-'/{}",
                f.name, f.arity, fe.id.0, fe.arity
            ),
        }
    }

    pub fn mfa_of_fn(&self, f: FnId) -> String {
        let (mi, func) = self.fns[f.index()];
        format!("{}:{}/{}", self.module(mi).name, func.name, func.arity)
    }

    pub fn site_span(&self, module: u32, site: racewit_syntax::ir::CallSiteId) -> Span {
        self.module(module).call_site(site).span
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn test_code_by_directory_and_name() {
        assert!(is_test_code(Path::new("test/a.erl"), "a"));
        assert!(is_test_code(Path::new("./apps/x/test/support/h.erl"), "h"));
        assert!(is_test_code(Path::new("src/a_SUITE.erl"), "a_SUITE"));
        assert!(is_test_code(Path::new("src/a_tests.erl"), "a_tests"));
        assert!(is_test_code(Path::new("eqc/m.erl"), "m"));
        assert!(!is_test_code(Path::new("src/a.erl"), "a"));
        // A project that lives under a directory named `test`.
        assert!(!is_test_code(Path::new("/home/u/test/proj/src/a.erl"), "a"));
        assert!(!is_test_code(Path::new("/home/u/test/src/a.erl"), "a"));
    }
}
