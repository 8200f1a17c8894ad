//! The table of loaded modules ([`CodeTable`]): programs loaded into it
//! (each module compiled the first time it is entered), and calls
//! resolved against it as a remote call is at run time.

use racewit_syntax::ir::Program;
use racewit_syntax::ir::{self, Expr, Literal, Pat};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::atom::Atom;
use crate::library::{self, Missing, ParkReason};

use super::bifs::{BifNames, is_racewit_module};
use super::compile::compile_functions;
use super::instr::{FnCode, SiteInfo, Target};

/// Every loaded module, indexed by position.
#[derive(Clone)]
pub struct CodeTable {
    pub modules: Vec<std::sync::Arc<ModuleCode>>,
    pub by_name: FxHashMap<Atom, u32>,
    /// The BIFs, which win over a loaded module's functions.
    pub bifs: &'static BifNames,
    /// The libraries the table was built with: what is known of the
    /// installed OTP decides what a call to a missing module does.
    pub libraries: std::sync::Arc<crate::library::Libraries>,
    /// Modules that loaded code names (a static call's module, or an atom
    /// literal): a call to one that is missing is a missing dependency.
    pub named: std::sync::Arc<FxHashSet<Atom>>,
    /// The table this one was laid over ([`compile_over`]): its modules
    /// are this table's first ones, shared, and compile in its context.
    under: Option<std::sync::Arc<CodeTable>>,
    /// What was loaded, purged and deleted at run time (`code:load_binary/3`
    /// and friends), when anything was: see [`RunTimeCode`].
    pub run_time: Option<std::sync::Arc<RunTimeCode>>,
    /// The modules whose code calls each module by name (`m:f(...)` with
    /// both atoms), built the first time a module is loaded at run time.
    static_callers: std::sync::Arc<std::sync::OnceLock<FxHashMap<Atom, Vec<u32>>>>,
    /// Some code of the program (not the prelude's) calls one of
    /// [`CODE_CHANGES`]: its modules' code may change at run time, so
    /// calls into them by name are reads of that code (see
    /// [`CodeTable::watched`]).
    pub may_change_code: bool,
}

/// The calls that change a module's code at run time.
pub const CODE_CHANGES: &[(&str, &str, u32)] = &[
    ("code", "load_binary", 3),
    ("erlang", "load_module", 2),
    ("code", "purge", 1),
    ("code", "soft_purge", 1),
    ("code", "delete", 1),
    ("erlang", "delete_module", 1),
];

/// A VM's code changes since its image: the BEAM's current and old code.
///
/// Loading a module appends it to the table (the index stays valid for the
/// processes that still run its old version) and points the name at it;
/// the previous current version becomes the old one. A module whose code
/// calls the loaded one by name (`m:f()`) is compiled again against the
/// new table, as its own copy, so a remote call always reaches the current
/// code, as on the BEAM; every other module of the image keeps compiling
/// in the image's context and is shared with every VM made from it. Held
/// per VM (behind the VM's `Arc<CodeTable>`), so a fork or a rolled-back
/// run has the code it had.
#[derive(Clone)]
pub struct RunTimeCode {
    /// The image's table, whose modules compile in its context.
    home: std::sync::Arc<CodeTable>,
    /// Modules compiled in this table's context (when loaded, eagerly).
    own: FxHashSet<u32>,
    /// Every module loaded, purged or deleted at run time, by name.
    pub versions: std::collections::BTreeMap<Atom, Versions>,
}

/// A module's versions after a change at run time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Versions {
    /// Its old code, until purged.
    pub old: Option<u32>,
    /// The file name `code:load_binary/3` was given for its current code
    /// (what `code:is_loaded/1` answers); `None` when it has none, or when
    /// its current code is the image's.
    pub file: Option<String>,
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
        // A module of the image compiles in the image's context, whose
        // VMs all share it; those loaded at run time were compiled here.
        // Without run-time changes, a module shared with the table
        // underneath compiles there, in the context it was loaded in: its
        // calls must not resolve to a module laid over it here, which the
        // tables beside this one lack.
        if let Some(rt) = &self.run_time {
            if !rt.own.contains(&module) {
                return rt.home.functions(module);
            }
        } else if let Some(under) = &self.under
            && (module as usize) < under.modules.len()
        {
            return under.functions(module);
        }
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
        if let Some(b) = self.bifs.lookup(module, name, arity) {
            return Target::Bif(b);
        }
        if let Some(t) = self.module_info_target(module, name, arity) {
            return t;
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
            None if self.changed_at_run_time(module).is_some() => {
                // Deleted at run time: `undef`, unless the image has it and
                // no old code is left (a call would load it again from the
                // path).
                let rt = self.run_time.as_ref().expect("changed at run time");
                match rt.home.by_name.get(&module) {
                    Some(_) if rt.versions[&module].old.is_none() => {
                        rt.home.resolve(module, name, arity)
                    }
                    _ => Target::Undef {
                        module,
                        name,
                        arity,
                    },
                }
            }
            None => {
                // A BIF module the program names (`crypto` with no OTP
                // installed) is one of the node's; racewit's own are not.
                let named = self.named.contains(&module)
                    || (self.bifs.module_known(module) && !is_racewit_module(module));
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

impl CodeTable {
    /// `module:module_info/0,1` (a call of `name/arity` in `module`, remote
    /// or local), which the compiler adds to every module the node has:
    /// one loaded (and not defining it itself), or one whose functions are
    /// all BIFs (`erlang`). `None` for any other call.
    pub fn module_info_target(&self, module: Atom, name: Atom, arity: u32) -> Option<Target> {
        if arity > 1 || name.name() != "module_info" {
            return None;
        }
        let has = match self.module(module) {
            Some((_, m)) => !m.fn_index.contains_key(&(name, arity)),
            None => {
                self.changed_at_run_time(module).is_none()
                    && self.bifs.module_known(module)
                    && !is_racewit_module(module)
            }
        };
        has.then_some(Target::ModuleInfo { module })
    }

    /// The module whose current code a call of `target` by name reads, when
    /// the search must see that read: a call into code that a load may
    /// change (the program's or a dependency's module, or one the node
    /// lacks, which a load may make), in a program that changes code at
    /// run time. A load writes the module's code (`SharedItem::Code`), so
    /// the search orders it with every such call, in whichever order the
    /// two come (a call made before any load included). `None` in a
    /// program that never changes code, for local calls' targets, BIFs,
    /// and the prelude's and OTP's library modules.
    #[inline]
    pub fn watched(&self, target: &Target) -> Option<Atom> {
        if !self.may_change_code && self.run_time.is_none() {
            return None;
        }
        match *target {
            Target::Code { module, .. } => {
                let m = &self.modules[module as usize];
                let library =
                    m.origin == Origin::Prelude || library::is_otp_library_module(m.name.name());
                (!library).then_some(m.name)
            }
            Target::Undef { module, .. } => Some(module),
            Target::ModuleInfo { module } => match self.module(module) {
                Some((_, m)) if m.origin != Origin::Prelude => Some(module),
                _ => None,
            },
            Target::Bif(_) | Target::Unsupported { .. } => None,
        }
    }

    /// `module`'s versions, when it was loaded, purged or deleted at run time.
    pub fn changed_at_run_time(&self, module: Atom) -> Option<&Versions> {
        self.run_time.as_ref()?.versions.get(&module)
    }

    /// `module`'s old code (its index), if it has some.
    pub fn old_code(&self, module: Atom) -> Option<u32> {
        self.changed_at_run_time(module)?.old
    }

    /// This table with `program`'s module (`name`) loaded as its current
    /// code (the caller has purged any old code). The previous current
    /// code, if any, becomes the old code.
    pub fn with_loaded(
        self: &std::sync::Arc<Self>,
        name: Atom,
        program: &std::sync::Arc<Program>,
        file: String,
    ) -> CodeTable {
        let (ir_name, m) = program
            .modules
            .iter()
            .find(|(n, _)| Atom::new(n) == name)
            .expect("the program holds the module");
        let mut t = (**self).clone();
        let mut rt = self.start_run_time();
        let previous = t.by_name.get(&name).copied();
        let index = t.modules.len() as u32;
        t.modules.push(std::sync::Arc::new(module_code(
            program,
            ir_name,
            m,
            Origin::User,
        )));
        t.by_name.insert(name, index);
        rt.own.insert(index);
        rt.versions.insert(
            name,
            Versions {
                old: previous,
                file: Some(file),
            },
        );
        let mut fresh = vec![index];
        for i in self.callers_of(name, &rt) {
            t.modules[i as usize] = std::sync::Arc::new(t.modules[i as usize].fresh_copy());
            rt.own.insert(i);
            fresh.push(i);
        }
        t.run_time = Some(std::sync::Arc::new(rt));
        for i in fresh {
            t.functions(i);
        }
        t
    }

    /// This table with `name`'s current code made old (`code:delete/1`).
    pub fn with_deleted(self: &std::sync::Arc<Self>, name: Atom) -> CodeTable {
        let mut t = (**self).clone();
        let mut rt = self.start_run_time();
        let current = t.by_name.remove(&name);
        rt.versions.insert(
            name,
            Versions {
                old: current,
                file: None,
            },
        );
        t.run_time = Some(std::sync::Arc::new(rt));
        t
    }

    /// This table with `name`'s old code gone (`code:purge/1`).
    pub fn with_purged(self: &std::sync::Arc<Self>, name: Atom) -> CodeTable {
        let mut t = (**self).clone();
        let mut rt = self.start_run_time();
        rt.versions.entry(name).or_default().old = None;
        t.run_time = Some(std::sync::Arc::new(rt));
        t
    }

    fn start_run_time(self: &std::sync::Arc<Self>) -> RunTimeCode {
        match &self.run_time {
            Some(rt) => (**rt).clone(),
            None => RunTimeCode {
                home: self.clone(),
                own: FxHashSet::default(),
                versions: Default::default(),
            },
        }
    }

    /// The modules (their indexes) whose code calls `name` by name: the
    /// image's, from its index, and those loaded at run time.
    fn callers_of(&self, name: Atom, rt: &RunTimeCode) -> Vec<u32> {
        let index = rt.home.static_callers.get_or_init(|| {
            let mut by: FxHashMap<Atom, Vec<u32>> = FxHashMap::default();
            for (i, m) in rt.home.modules.iter().enumerate() {
                for callee in m.static_callees() {
                    let v = by.entry(callee).or_default();
                    if v.last() != Some(&(i as u32)) {
                        v.push(i as u32);
                    }
                }
            }
            by
        });
        let mut out: Vec<u32> = index.get(&name).cloned().unwrap_or_default();
        let home_len = rt.home.modules.len();
        for (i, m) in self.modules.iter().enumerate().skip(home_len) {
            if m.static_callees().any(|c| c == name) {
                out.push(i as u32);
            }
        }
        out
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
    pub(super) fn code_target(&self, mi: u32, fi: u32, name: Atom, arity: u32) -> Target {
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

    /// A copy not yet compiled, to compile against another table.
    fn fresh_copy(&self) -> ModuleCode {
        ModuleCode {
            name: self.name,
            functions: std::sync::OnceLock::new(),
            source: self.source.clone(),
            functions_len: self.functions_len,
            fn_index: self.fn_index.clone(),
            exports: self.exports.clone(),
            native_stubs: self.native_stubs.clone(),
            sites: self.sites.clone(),
            prelude: self.prelude,
            origin: self.origin,
            ir_name: self.ir_name.clone(),
        }
    }

    /// The modules this module's code calls by name (`m:f(...)`).
    fn static_callees(&self) -> impl Iterator<Item = Atom> + '_ {
        self.source
            .modules
            .get(&self.ir_name)
            .into_iter()
            .flat_map(|m| m.call_sites.iter())
            .filter_map(|s| s.target.as_ref())
            .map(|t| Atom::new(&t.module))
    }

    /// Whether the module has been entered (and so compiled).
    pub fn is_compiled(&self) -> bool {
        self.functions.get().is_some()
    }

    /// The program the module was loaded from (its spans index that
    /// program's files).
    pub fn program(&self) -> &std::sync::Arc<Program> {
        &self.source
    }

    /// The file the module was loaded from.
    pub fn source_path(&self) -> Option<std::path::PathBuf> {
        let m = self.source.modules.get(&self.ir_name)?;
        Some(self.source.sources.path(m.file).to_path_buf())
    }
}

/// Compile every module of `programs` (earlier programs win on name clashes).
pub fn compile_programs(
    bifs: &'static BifNames,
    programs: &[(&std::sync::Arc<Program>, Origin)],
) -> CodeTable {
    let empty = CodeTable {
        modules: Vec::new(),
        by_name: FxHashMap::default(),
        bifs,
        libraries: crate::library::Libraries::none(),
        named: Default::default(),
        under: None,
        run_time: None,
        static_callers: Default::default(),
        may_change_code: false,
    };
    compile_onto(&empty, programs)
}

/// Lays `programs` over `base` (shared, not copied: a suspect's harness
/// modules over the user's program). `base`'s modules keep compiling in
/// `base`'s context, once for every table laid over it; the new modules
/// compile in this table's. Dropping the table drops the new modules and
/// their code, and nothing of `base`.
pub fn compile_over(
    base: &std::sync::Arc<CodeTable>,
    programs: &[(&std::sync::Arc<Program>, Origin)],
) -> CodeTable {
    let mut table = compile_onto(base, programs);
    table.under = Some(base.clone());
    table
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
            table.may_change_code |= changes_code(program);
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
            table.by_name.insert(atom, table.modules.len() as u32);
            table
                .modules
                .push(std::sync::Arc::new(module_code(program, name, m, *origin)));
        }
    }
    if let Some(named) = named {
        table.named = std::sync::Arc::new(named);
    }
    table.static_callers = Default::default();
    table
}

/// The index entry of module `name` (`m`) of `program`, not yet compiled.
fn module_code(
    program: &std::sync::Arc<Program>,
    name: &ir::Name,
    m: &ir::Module,
    origin: Origin,
) -> ModuleCode {
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
        if origin != Origin::Prelude && m.is_native_stub(f) {
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
    ModuleCode {
        name: Atom::new(name),
        functions: std::sync::OnceLock::new(),
        source: program.clone(),
        functions_len: m.functions.len() as u32,
        fn_index,
        exports,
        native_stubs,
        sites,
        prelude: origin != Origin::User,
        origin,
        ir_name: name.clone(),
    }
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

/// Whether some module of `program` calls one of [`CODE_CHANGES`] by name.
fn changes_code(program: &Program) -> bool {
    program.modules.values().any(|m| {
        m.call_sites.iter().any(|s| {
            s.target.as_ref().is_some_and(|t| {
                CODE_CHANGES
                    .iter()
                    .any(|&(cm, cf, ca)| t.module == cm && t.name == cf && t.arity == ca)
            })
        })
    })
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
