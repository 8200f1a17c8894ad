//! `erlang:get_module_info/1,2`, what the `module_info/0,1` the compiler
//! adds to every module call (`Target::ModuleInfo`), for every module the
//! VM has: the program's, OTP's run from source, the prelude's, those
//! loaded at run time, and the modules whose functions are all BIFs.
//!
//! Exact where the source decides it: `module`, `exports` and `functions`
//! (the module's functions in source order, then `module_info/0,1`, as
//! the compiler lays them out), `attributes` (the source's, with the
//! compiler's rules: what it drops, a value that is not a list wrapped in
//! one), `native` (`false`), `nifs` and `native_addresses` (`[]`), and
//! `badarg` for any other key or a module the node does not have. Where
//! the BEAM's answer is of its object code, racewit's is of the same
//! shape: `md5` is the MD5 of the module's source text (so `vsn`, when
//! the source gives none, is that MD5 as an integer, as the compiler
//! makes it of its own); `compile` is `[{version, "racewit"}, {options,
//! []}, {source, Path}]` with the path the module was loaded from. Not
//! listed: the functions the compiler makes for funs and comprehensions,
//! and `behaviour_info/1` of a module with `-callback`s.

use num_bigint::{BigInt, Sign};
use racewit_syntax::ir::Const;

use crate::atom::Atom;
use crate::bif::checksum::md5;
use crate::bif::{Ctx, Flow, Table};
use crate::term::{Fun, Term};

pub fn register(t: &mut Table) {
    t.ctx("erlang", "get_module_info", 1, |ctx, a| {
        match a[0].as_atom().and_then(|m| ModuleInfo::of(ctx, m)) {
            Some(info) => Flow::Value(Term::list(
                ["module", "exports", "attributes", "compile", "md5"]
                    .iter()
                    .map(|k| {
                        let v = info.get(k).expect("a key get_module_info/1 lists");
                        Term::tuple(vec![Term::atom(k), v])
                    })
                    .collect(),
            )),
            None => Flow::badarg(),
        }
    });
    t.ctx("erlang", "get_module_info", 2, |ctx, a| {
        let info = a[0].as_atom().and_then(|m| ModuleInfo::of(ctx, m));
        match (info, a[1].as_atom()) {
            (Some(info), Some(key)) => match info.get(key.name()) {
                Some(v) => Flow::Value(v),
                None => Flow::badarg(),
            },
            _ => Flow::badarg(),
        }
    });
}

/// What the node knows of one module.
struct ModuleInfo {
    module: Atom,
    /// Every function, in the compiler's order (`module_info/0,1` last).
    functions: Vec<(Atom, u32)>,
    exports: Vec<(Atom, u32)>,
    /// `{Name, Value}` pairs in source order, `vsn` first when made.
    attributes: Vec<Term>,
    md5: [u8; 16],
    source: Option<String>,
}

/// Attributes the compiler keeps out of the module's attribute list
/// (`v3_kernel`'s and `beam_asm`'s, and those it reads for itself).
const DROPPED: &[&str] = &[
    "module",
    "export",
    "import",
    "file",
    "compile",
    "type",
    "spec",
    "callback",
    "opaque",
    "export_type",
    "record",
    "optional_callbacks",
    "on_load",
    "nifs",
];

impl ModuleInfo {
    fn of(ctx: &Ctx<'_>, module: Atom) -> Option<ModuleInfo> {
        let code = &ctx.vm.code;
        let info = code.module_info_target(module, Atom::new("module_info"), 0)?;
        debug_assert!(matches!(info, crate::code::Target::ModuleInfo { .. }));
        let generated = [(Atom::new("module_info"), 0), (Atom::new("module_info"), 1)];
        let Some((_, m)) = code.module(module) else {
            // Every function a BIF: what the installed OTP's module
            // exports, or racewit's BIFs of it.
            let mut exports: Vec<(Atom, u32)> = match code.libraries.otp_exports(module.name()) {
                Some(e) => e.iter().map(|(n, a)| (Atom::new(n), *a)).collect(),
                None => code.bifs.of_module(module),
            };
            exports.retain(|f| !generated.contains(f));
            exports.sort_by(|x, y| (x.0.name(), x.1).cmp(&(y.0.name(), y.1)));
            exports.extend(generated);
            let text: String = exports
                .iter()
                .map(|(n, a)| format!("{}/{a}\n", n.name()))
                .collect();
            let md5 = md5(text.as_bytes());
            return Some(ModuleInfo {
                module,
                functions: exports.clone(),
                exports,
                attributes: vec![vsn_of(&md5)],
                md5,
                source: None,
            });
        };
        let program = m.program();
        let ir = program.modules.get(&m.ir_name)?;
        let mut functions: Vec<(Atom, u32)> = ir
            .functions
            .iter()
            .map(|f| (Atom::new(&f.name), f.arity))
            .collect();
        functions.extend(generated);
        let exports = functions
            .iter()
            .copied()
            .filter(|f| generated.contains(f) || m.exports.contains(f))
            .collect();
        let file = program.sources.get(ir.file);
        let md5 = md5(file.text.as_bytes());
        let mut attributes: Vec<Term> = ir
            .attributes
            .iter()
            .filter(|a| !DROPPED.contains(&a.name.as_str()))
            .map(|a| {
                let v = const_term(&a.value);
                let v = if matches!(v, Term::Nil | Term::Cons(_)) {
                    v
                } else {
                    Term::list(vec![v])
                };
                Term::tuple(vec![Term::atom(&a.name), v])
            })
            .collect();
        if !ir.attributes.iter().any(|a| a.name == "vsn") {
            attributes.insert(0, vsn_of(&md5));
        }
        Some(ModuleInfo {
            module,
            functions,
            exports,
            attributes,
            md5,
            source: Some(file.path.display().to_string()),
        })
    }

    /// `get_module_info(M, Key)`, `None` for a key the BEAM refuses.
    fn get(&self, key: &str) -> Option<Term> {
        let pairs = |fs: &[(Atom, u32)]| {
            Term::list(
                fs.iter()
                    .map(|(n, a)| Term::tuple(vec![Term::Atom(*n), Term::Int(i64::from(*a))]))
                    .collect(),
            )
        };
        Some(match key {
            "module" => Term::Atom(self.module),
            "exports" => pairs(&self.exports),
            "functions" => pairs(&self.functions),
            "attributes" => Term::list(self.attributes.clone()),
            "compile" => {
                let mut c = vec![
                    Term::tuple(vec![Term::atom("version"), Term::string("racewit")]),
                    Term::tuple(vec![Term::atom("options"), Term::Nil]),
                ];
                if let Some(s) = &self.source {
                    c.push(Term::tuple(vec![Term::atom("source"), Term::string(s)]));
                }
                Term::list(c)
            }
            "md5" => Term::binary(self.md5.to_vec()),
            "native" => Term::bool(false),
            "nifs" | "native_addresses" => Term::Nil,
            _ => return None,
        })
    }
}

/// The `vsn` attribute the compiler makes when the source has none: the
/// module's MD5 as an integer.
fn vsn_of(md5: &[u8; 16]) -> Term {
    let n = Term::from_big(BigInt::from_bytes_be(Sign::Plus, md5));
    Term::tuple(vec![Term::atom("vsn"), Term::list(vec![n])])
}

/// An attribute's value as the term the compiler stores.
fn const_term(c: &Const) -> Term {
    match c {
        Const::Atom(a) => Term::atom(a),
        Const::Int(i) => Term::Int(*i),
        Const::BigInt(s) => s
            .parse::<BigInt>()
            .map_or(Term::undefined(), Term::from_big),
        Const::Float(f) => Term::Float(*f),
        Const::String(s) => Term::string(s),
        Const::Nil => Term::Nil,
        Const::Cons(h, t) => Term::cons(const_term(h), const_term(t)),
        Const::Tuple(items) => Term::tuple(items.iter().map(const_term).collect()),
        Const::Binary(b) => Term::binary(b.clone()),
        Const::Map(pairs) => Term::map(
            pairs
                .iter()
                .map(|(k, v)| (const_term(k), const_term(v)))
                .collect(),
        ),
        Const::FunRef {
            module: Some(m),
            name,
            arity,
        } => Term::Fun(std::sync::Arc::new(Fun::Export {
            module: Atom::new(m),
            name: Atom::new(name),
            arity: *arity,
        })),
        // The compiler refuses a local fun or a value that is no constant
        // in an attribute: such a module never loads on the BEAM.
        Const::FunRef { module: None, .. } | Const::NotConstant => Term::undefined(),
    }
}

/// Used by the attribute list's tests.
#[cfg(test)]
fn attribute_terms(m: &racewit_syntax::ir::Module) -> Vec<String> {
    m.attributes
        .iter()
        .filter(|a| !DROPPED.contains(&a.name.as_str()))
        .map(|a| crate::format::brief(&const_term(&a.value)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiler_drops_its_own_attributes_and_keeps_the_others() {
        let src = "-module(a).\n-export([f/0]).\n-vsn(2).\n-record(r, {x}).\n\
                   -type t() :: atom().\n-spec f() -> t().\n-callback c() -> ok.\n\
                   -compile([]).\n-on_load(f/0).\n-mine({f/1, \"s\", -3}).\nf() -> ok.\n";
        let program = racewit_syntax::load_source("a.erl", src);
        let m = program.modules.values().next().expect("one module");
        assert_eq!(attribute_terms(m), vec!["2", "{{f,1},[115],-3}"]);
    }
}
