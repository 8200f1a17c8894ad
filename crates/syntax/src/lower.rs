//! Lowering: [`crate::ast`] to the core [`crate::ir`].
//!
//! Entry points: [`ModuleLowerer`] (form by form, as loading does) and
//! `pub fn lower_file(file: &ast::File, module_file: FileId) -> (Option<ir::Module>, Vec<Diagnostic>)`
//! (`module_file` is the `.erl` file the module comes from). The module is
//! `None` only when the file has no `-module(Name)` attribute.
//!
//! Module-level work happens here (attributes, exports, imports, records,
//! `-compile` options, EUnit's parse transforms `eunit_autoexport` and
//! `eunit_striptests`, which `eunit.hrl` names, `ms_transform`, which
//! `ms_transform.hrl` names, in `ms_transform`, and `qlc`, which `qlc.hrl`
//! names, in `qlc_transform`); function bodies are
//! lowered by the `body` module. The IR pretty printer is
//! [`pretty::pretty_module`].

mod bifs;
mod body;
mod ms_transform;
pub mod pretty;
mod qlc_transform;
mod walk;

use std::collections::BTreeMap;
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ast;
use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::ir::{self, Const, FunName, Name};
use crate::source::{FileId, Span};
use crate::token::IntLit;

pub use bifs::is_auto_imported;

/// A record definition with its field defaults (still syntax: they are
/// lowered into each body that constructs the record).
pub(crate) struct RecordInfo {
    pub def: ir::RecordDef,
    pub defaults: Arc<Vec<Option<ast::Expr>>>,
}

/// What function bodies need from their module while being lowered.
pub(crate) struct ModuleCtx {
    pub name: Name,
    /// Records defined so far (a record must be defined before its use, as
    /// `erl_lint` requires).
    pub records: BTreeMap<Name, RecordInfo>,
    /// Functions defined so far.
    pub locals: FxHashSet<FunName>,
    pub imports: FxHashMap<FunName, Name>,
    pub no_auto_import: FxHashSet<FunName>,
    pub no_auto_import_all: bool,
    pub call_sites: Vec<ir::CallSite>,
    pub fun_count: u32,
    pub diags: Vec<Diagnostic>,
    /// The module's own file (spans elsewhere come from headers).
    pub file: FileId,
    /// Calls (`Expr::Call` with a remote target) and `fun f/A` references
    /// lowered as a BIF or an import because no local `f/A` was defined yet:
    /// (index of the function in the module, the expression). A local
    /// definition further down the file takes them back (see
    /// [`ModuleLowerer::finish`]).
    pub provisional: Vec<(u32, ir::ExprId)>,
    /// Index of the function being lowered.
    pub current_function: u32,
    /// Tokens of the form being lowered, when known (sizes the arenas of
    /// a huge function at once).
    pub form_tokens: usize,
}

impl ModuleCtx {
    /// `erlang` when `name/arity` is an auto-imported BIF not overridden here.
    pub fn auto_imported(&self, name: &str, arity: u32) -> bool {
        let key = FunName {
            name: Name::new(name),
            arity,
        };
        !self.no_auto_import_all
            && !self.locals.contains(&key)
            && !self.no_auto_import.contains(&key)
            && is_auto_imported(name, arity)
    }

    pub fn error(&mut self, code: DiagnosticCode, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, span, message));
    }
}

/// Attributes that are not kept in [`ir::Module::attributes`]: they have their
/// own fields, or belong to the preprocessor.
const NOT_KEPT: &[&str] = &[
    "module",
    "export",
    "import",
    "file",
    "define",
    "undef",
    "ifdef",
    "ifndef",
    "if",
    "elif",
    "else",
    "endif",
    "include",
    "include_lib",
];

/// EUnit's parse transforms (`eunit.hrl` names one of them in a
/// `-compile({parse_transform, M})`), with their default suffixes
/// (`eunit_internal.hrl`): the suffixes can only be changed by compiler
/// options given outside the file, which racewit does not take.
const EUNIT_TEST_SUFFIX: &str = "_test";
const EUNIT_GENERATOR_SUFFIX: &str = "_test_";
const EUNIT_EXPORT_SUFFIX: &str = "_exported_";
const EUNIT_WRAPPER: &str = "eunit_wrapper_";

/// A parse transform named by the module's `-compile` attributes.
struct Transform {
    module: Name,
    /// The `-compile` attribute naming it.
    span: Span,
}

/// Lowers a module form by form, so that a file's syntax tree never has to
/// be held whole: [`ModuleLowerer::add_form`] for each parsed form in
/// order, then [`ModuleLowerer::finish`]. Functions are lowered as they
/// come, with the records, imports and `-compile` options seen before them
/// (which is what `erl_lint` allows); exports and parse transforms are
/// settled at the end.
pub struct ModuleLowerer {
    diags: Vec<Diagnostic>,
    module: Option<(Name, Span)>,
    /// `-export` entries in order, with the attribute's span.
    exports: Vec<(FunName, Span)>,
    export_all: bool,
    transforms: Vec<Transform>,
    /// The `fun2ms` calls `ms_transform` rewrote.
    fun2ms: Vec<ir::Fun2ms>,
    behaviours: Vec<Name>,
    attributes: Vec<ir::Attribute>,
    ctx: ModuleCtx,
    functions: Vec<ir::Function>,
    first_form: Option<Span>,
    /// A function was lowered before the `-module` attribute (its local
    /// call targets then name no module yet).
    function_before_module: bool,
}

impl ModuleLowerer {
    /// `module_file` is the `.erl` file the module comes from.
    pub fn new(module_file: FileId) -> Self {
        ModuleLowerer {
            diags: Vec::new(),
            module: None,
            exports: Vec::new(),
            export_all: false,
            transforms: Vec::new(),
            fun2ms: Vec::new(),
            behaviours: Vec::new(),
            attributes: Vec::new(),
            ctx: ModuleCtx {
                name: Name::default(),
                records: BTreeMap::new(),
                locals: FxHashSet::default(),
                imports: FxHashMap::default(),
                no_auto_import: FxHashSet::default(),
                no_auto_import_all: false,
                call_sites: Vec::new(),
                fun_count: 0,
                diags: Vec::new(),
                file: module_file,
                provisional: Vec::new(),
                current_function: 0,
                form_tokens: 0,
            },
            functions: Vec::new(),
            first_form: None,
            function_before_module: false,
        }
    }

    /// Take the next form of the file, which was `tokens` tokens long
    /// once preprocessed (a size hint: a huge function's arenas are
    /// reserved at once).
    pub fn add_form_of(&mut self, form: &ast::Form, tokens: usize) {
        self.ctx.form_tokens = tokens;
        self.add_form(form);
        self.ctx.form_tokens = 0;
    }

    /// Take the next form of the file.
    pub fn add_form(&mut self, form: &ast::Form) {
        if self.first_form.is_none() {
            self.first_form = Some(form_span(form));
        }
        match form {
            ast::Form::Attribute(attr) => self.attribute(attr),
            ast::Form::Record(rec) => {
                if self.ctx.records.contains_key(&rec.name) {
                    self.diags.push(Diagnostic::error(
                        DiagnosticCode::E030UndefinedRecord,
                        rec.span,
                        format!("record {} already defined", rec.name),
                    ));
                    return;
                }
                self.ctx.records.insert(
                    rec.name.clone(),
                    RecordInfo {
                        def: ir::RecordDef {
                            name: rec.name.clone(),
                            fields: rec.fields.iter().map(|f| f.name.clone()).collect(),
                            defaults: rec
                                .fields
                                .iter()
                                .map(|f| match &f.default {
                                    Some(d) => const_of(d),
                                    None => Const::Atom(Name::new("undefined")),
                                })
                                .collect(),
                            span: rec.span,
                        },
                        defaults: Arc::new(rec.fields.iter().map(|f| f.default.clone()).collect()),
                    },
                );
            }
            ast::Form::Function(f) => self.function(f),
            ast::Form::Skipped { .. } | ast::Form::Error { .. } => {}
        }
    }

    fn function(&mut self, f: &ast::Function) {
        let key = FunName {
            name: f.name.clone(),
            arity: f.arity,
        };
        if !self.ctx.locals.insert(key.clone()) {
            self.diags.push(Diagnostic::error(
                DiagnosticCode::E032Unsupported,
                f.span,
                format!("function {key} already defined"),
            ));
            return;
        }
        if self.module.is_none() {
            self.function_before_module = true;
        }
        self.ctx.current_function = self.functions.len() as u32;
        // `qlc` rewrites the function's query list comprehensions, then
        // `ms_transform` its `fun2ms` calls (it knows the records defined
        // before the function, as the compiler's parse transform does when
        // it walks the forms in order).
        let names = |m: &str| self.transforms.iter().any(|t| t.module == m);
        let queries = if names("qlc") {
            qlc_transform::transform_function(f)
        } else {
            None
        };
        let f = queries.as_ref().unwrap_or(f);
        let transformed = if names("ms_transform") {
            ms_transform::transform_function(f, &self.ctx.records)
        } else {
            None
        };
        let lowered = match transformed {
            Some((g, rewritten, mut diags)) => {
                self.diags.append(&mut diags);
                self.fun2ms
                    .extend(rewritten.into_iter().map(|r| ir::Fun2ms {
                        span: r.fun_span,
                        text: ms_transform::literal_text(&r.literal),
                    }));
                body::lower_function(&mut self.ctx, &g, false)
            }
            None => body::lower_function(&mut self.ctx, f, false),
        };
        self.functions.push(lowered);
    }

    fn attribute(&mut self, attr: &ast::Attribute) {
        let arg0 = attr.args.first();
        match attr.name.as_str() {
            "module" => match arg0.map(|a| &a.kind) {
                Some(ast::ExprKind::Atom(name)) if self.module.is_none() => {
                    self.module = Some((name.clone(), attr.span));
                    self.ctx.name = name.clone();
                }
                Some(ast::ExprKind::Atom(_)) => self.diags.push(Diagnostic::error(
                    DiagnosticCode::E010Syntax,
                    attr.span,
                    "a second -module attribute",
                )),
                _ => self.diags.push(Diagnostic::error(
                    DiagnosticCode::E010Syntax,
                    attr.span,
                    "expected -module(Name) with an atom name",
                )),
            },
            "export" => match arg0.map(fun_list) {
                Some(Some(list)) => self
                    .exports
                    .extend(list.into_iter().map(|f| (f, attr.span))),
                _ => self.diags.push(Diagnostic::error(
                    DiagnosticCode::E010Syntax,
                    attr.span,
                    "expected -export([Name/Arity, ...])",
                )),
            },
            "import" => {
                let m = match arg0.map(|a| &a.kind) {
                    Some(ast::ExprKind::Atom(m)) => Some(m.clone()),
                    _ => None,
                };
                match (m, attr.args.get(1).and_then(fun_list)) {
                    (Some(m), Some(list)) => {
                        for f in list {
                            self.ctx.imports.insert(f, m.clone());
                        }
                    }
                    _ => self.diags.push(Diagnostic::error(
                        DiagnosticCode::E010Syntax,
                        attr.span,
                        "expected -import(Module, [Name/Arity, ...])",
                    )),
                }
            }
            "compile" => {
                if let Some(a) = arg0 {
                    self.compile_options(a, attr.span);
                }
            }
            "behaviour" | "behavior" => {
                if let Some(ast::ExprKind::Atom(b)) = arg0.map(|a| &a.kind) {
                    self.behaviours.push(b.clone());
                }
            }
            _ => {}
        }
        if !NOT_KEPT.contains(&attr.name.as_str()) {
            let value = match attr.args.as_slice() {
                [] => Const::Nil,
                [one] => const_of(one),
                many => Const::Tuple(many.iter().map(const_of).collect()),
            };
            self.attributes.push(ir::Attribute {
                name: attr.name.clone(),
                value,
                span: attr.span,
            });
        }
    }

    /// The options of one `-compile` attribute that change the code:
    /// `export_all`, `no_auto_import` and parse transforms.
    fn compile_options(&mut self, e: &ast::Expr, span: Span) {
        let opts: Vec<&ast::Expr> = match &e.kind {
            ast::ExprKind::List { elems, .. } => elems.iter().collect(),
            _ => vec![e],
        };
        for opt in opts {
            match &opt.kind {
                ast::ExprKind::Atom(a) if a == "export_all" => self.export_all = true,
                ast::ExprKind::Atom(a) if a == "no_auto_import" => {
                    self.ctx.no_auto_import_all = true
                }
                ast::ExprKind::Tuple(v) if v.len() == 2 => match &v[0].kind {
                    ast::ExprKind::Atom(a) if a == "no_auto_import" => {
                        let list = match &v[1].kind {
                            ast::ExprKind::List { .. } => fun_list(&v[1]),
                            _ => fun_name_of(&v[1]).map(|f| vec![f]),
                        };
                        self.ctx.no_auto_import.extend(list.unwrap_or_default());
                    }
                    ast::ExprKind::Atom(a) if a == "parse_transform" => {
                        if let ast::ExprKind::Atom(m) = &v[1].kind {
                            self.transforms.push(Transform {
                                module: m.clone(),
                                span,
                            });
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }

    /// Settle exports and parse transforms; the module, or `None` when the
    /// file has no `-module(Name)` attribute.
    pub fn finish(mut self) -> (Option<ir::Module>, Vec<Diagnostic>) {
        let module_file = self.ctx.file;
        let Some((name, span)) = self.module.take() else {
            let span = self.first_form.unwrap_or(Span::new(module_file, 0, 0));
            self.diags.push(Diagnostic::error(
                DiagnosticCode::E010Syntax,
                span,
                "missing -module(Name) attribute",
            ));
            self.diags.append(&mut self.ctx.diags);
            return (None, self.diags);
        };
        if self.function_before_module {
            for site in &mut self.ctx.call_sites {
                if let Some(t) = &mut site.target
                    && t.module.is_empty()
                {
                    t.module = name.clone();
                }
            }
        }
        self.settle_provisional(&name);

        // Parse transforms run in the order the module names them, before
        // exports are settled (as the compiler runs them); racewit models
        // EUnit's here, `qlc` and `ms_transform` function by function as each is
        // lowered, and leaves any other alone.
        let mut auto_exports: Vec<FunName> = Vec::new();
        let transforms = std::mem::take(&mut self.transforms);
        for t in &transforms {
            match t.module.as_str() {
                "eunit_autoexport" => self.eunit_autoexport(&name, t.span, &mut auto_exports),
                "eunit_striptests" => self.eunit_striptests(),
                _ => {}
            }
        }

        let locals: FxHashSet<FunName> = self.functions.iter().map(|f| f.fun_name()).collect();
        let mut export_set: FxHashSet<FunName> = FxHashSet::default();
        let mut export_list = Vec::new();
        for (f, span) in std::mem::take(&mut self.exports) {
            if !locals.contains(&f) {
                self.diags.push(Diagnostic::error(
                    DiagnosticCode::E032Unsupported,
                    span,
                    format!("function {f} is exported but not defined"),
                ));
                continue;
            }
            if export_set.insert(f.clone()) {
                export_list.push(f);
            }
        }
        let everything: Vec<FunName> = if self.export_all {
            self.functions.iter().map(|f| f.fun_name()).collect()
        } else {
            Vec::new()
        };
        for f in auto_exports.into_iter().chain(everything) {
            if export_set.insert(f.clone()) {
                export_list.push(f);
            }
        }
        for f in &mut self.functions {
            f.exported = export_set.contains(&f.fun_name());
        }
        let function_index = self
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| (f.fun_name(), i))
            .collect();
        self.diags.append(&mut self.ctx.diags);
        let records = std::mem::take(&mut self.ctx.records)
            .into_iter()
            .map(|(k, v)| (k, v.def))
            .collect();
        // The module stays for the whole run: no spare capacity.
        self.functions.shrink_to_fit();
        self.ctx.call_sites.shrink_to_fit();
        let module = ir::Module {
            name,
            file: module_file,
            span,
            functions: self.functions,
            function_index,
            exports: export_list,
            behaviours: self.behaviours,
            attributes: self.attributes,
            records,
            call_sites: self.ctx.call_sites,
            fun_count: self.ctx.fun_count,
            fun2ms: self.fun2ms,
        };
        (Some(module), self.diags)
    }

    /// A call `f(...)` or `fun f/A` lowered as a BIF or an import before a
    /// local `f/A` was defined further down: the local function is meant.
    fn settle_provisional(&mut self, module: &Name) {
        for (fi, id) in std::mem::take(&mut self.ctx.provisional) {
            let Some(fun) = self.functions.get_mut(fi as usize) else {
                continue;
            };
            let body = &mut fun.body;
            let Some(e) = body.exprs.get(id.index()) else {
                continue;
            };
            let key = match e {
                ir::Expr::Call { target, args, .. } => match &**target {
                    ir::CallTarget::Remote { function, .. } => {
                        match body.exprs.get(function.index()) {
                            Some(ir::Expr::Lit(ir::Literal::Atom(f))) => FunName {
                                name: f.clone(),
                                arity: args.len() as u32,
                            },
                            _ => continue,
                        }
                    }
                    _ => continue,
                },
                ir::Expr::FunRef { name, arity, .. } => {
                    match (body.exprs.get(name.index()), body.exprs.get(arity.index())) {
                        (
                            Some(ir::Expr::Lit(ir::Literal::Atom(n))),
                            Some(ir::Expr::Lit(ir::Literal::Int(a))),
                        ) => FunName {
                            name: n.clone(),
                            arity: u32::try_from(*a).unwrap_or(u32::MAX),
                        },
                        _ => continue,
                    }
                }
                _ => continue,
            };
            if !self.ctx.locals.contains(&key) {
                continue;
            }
            match &mut body.exprs[id.index()] {
                ir::Expr::Call { site, target, .. } => {
                    **target = ir::CallTarget::Local {
                        name: key.name.clone(),
                        arity: key.arity,
                    };
                    if let Some(s) = self.ctx.call_sites.get_mut(site.index()) {
                        s.target = Some(ir::MFA {
                            module: module.clone(),
                            name: key.name,
                            arity: key.arity,
                        });
                    }
                }
                ir::Expr::FunRef { module, .. } => *module = None,
                _ => {}
            }
        }
    }

    /// `eunit_autoexport`: every `Name/0` whose name ends in `_test`,
    /// `_test_` or `_exported_` is exported, and so is `eunit_wrapper_/1`;
    /// when the module has no `test/0`, one is added,
    /// `test() -> eunit:test(Module).`, and exported.
    fn eunit_autoexport(&mut self, module: &Name, span: Span, exports: &mut Vec<FunName>) {
        for f in &self.functions {
            let by_suffix = f.arity == 0
                && [
                    EUNIT_TEST_SUFFIX,
                    EUNIT_GENERATOR_SUFFIX,
                    EUNIT_EXPORT_SUFFIX,
                ]
                .iter()
                .any(|s| f.name.ends_with(s));
            if by_suffix || (f.arity == 1 && f.name == EUNIT_WRAPPER) {
                exports.push(f.fun_name());
            }
        }
        let test = FunName {
            name: Name::new("test"),
            arity: 0,
        };
        if self.functions.iter().any(|f| f.fun_name() == test) {
            return;
        }
        let atom = |a: &str| ast::Expr::new(ast::ExprKind::Atom(Name::new(a)), span);
        let call = ast::Expr::new(
            ast::ExprKind::Call {
                callee: Box::new(ast::Expr::new(
                    ast::ExprKind::Remote {
                        module: Box::new(atom("eunit")),
                        function: Box::new(atom("test")),
                    },
                    span,
                )),
                args: vec![atom(module)],
            },
            span,
        );
        let generated = ast::Function {
            name: test.name.clone(),
            arity: 0,
            clauses: vec![ast::Clause {
                pats: Vec::new(),
                guard: Vec::new(),
                body: vec![call],
                span,
            }],
            span,
        };
        self.ctx.locals.insert(test.clone());
        self.ctx.current_function = self.functions.len() as u32;
        let lowered = body::lower_function(&mut self.ctx, &generated, false);
        self.functions.push(lowered);
        exports.insert(0, test);
    }

    /// `eunit_striptests`: the `Name/0` test functions (by the suffixes
    /// above) that no `-export` attribute names are removed, and so is
    /// `eunit_wrapper_/1`.
    fn eunit_striptests(&mut self) {
        let exported: FxHashSet<&FunName> = self.exports.iter().map(|(f, _)| f).collect();
        let strip = |f: &ir::Function| {
            let test = f.arity == 0
                && [
                    EUNIT_TEST_SUFFIX,
                    EUNIT_GENERATOR_SUFFIX,
                    EUNIT_EXPORT_SUFFIX,
                ]
                .iter()
                .any(|s| f.name.ends_with(s));
            (test && !exported.contains(&f.fun_name())) || (f.arity == 1 && f.name == EUNIT_WRAPPER)
        };
        let keep: Vec<bool> = self.functions.iter().map(|f| !strip(f)).collect();
        if keep.iter().all(|&k| k) {
            return;
        }
        self.remove_functions(&keep);
    }

    /// Drop the functions whose `keep` entry is false, with their call
    /// sites and funs; the ones left are renumbered in the same order.
    fn remove_functions(&mut self, keep: &[bool]) {
        let removed: FxHashSet<FunName> = self
            .functions
            .iter()
            .zip(keep)
            .filter(|(_, k)| !**k)
            .map(|(f, _)| f.fun_name())
            .collect();
        let mut site_map: Vec<Option<u32>> = Vec::with_capacity(self.ctx.call_sites.len());
        let mut next = 0u32;
        for s in &self.ctx.call_sites {
            if removed.contains(&s.function) {
                site_map.push(None);
            } else {
                site_map.push(Some(next));
                next += 1;
            }
        }
        self.ctx
            .call_sites
            .retain(|s| !removed.contains(&s.function));
        let mut i = 0;
        self.functions.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        // Funs are numbered in source order across the module: renumber
        // the ones left densely, keeping their order.
        let mut fun_ids: Vec<u32> = Vec::new();
        for f in &self.functions {
            for e in &f.body.exprs {
                if let ir::Expr::Fun(fe) = e {
                    fun_ids.push(fe.id.0);
                }
            }
        }
        fun_ids.sort_unstable();
        for f in &mut self.functions {
            for e in &mut f.body.exprs {
                match e {
                    ir::Expr::Call { site, .. } | ir::Expr::Send { site, .. } => {
                        if let Some(Some(n)) = site_map.get(site.index()) {
                            *site = ir::CallSiteId(*n);
                        }
                    }
                    ir::Expr::Fun(fe) => {
                        if let Ok(n) = fun_ids.binary_search(&fe.id.0) {
                            fe.id = ir::FunId(n as u32);
                        }
                    }
                    _ => {}
                }
            }
        }
        self.ctx.fun_count = fun_ids.len() as u32;
        self.ctx.locals = self.functions.iter().map(|f| f.fun_name()).collect();
    }
}

/// Lower a parsed file to a module. See the module docs.
pub fn lower_file(file: &ast::File, module_file: FileId) -> (Option<ir::Module>, Vec<Diagnostic>) {
    let mut lowerer = ModuleLowerer::new(module_file);
    for form in &file.forms {
        lowerer.add_form(form);
    }
    lowerer.finish()
}

fn form_span(f: &ast::Form) -> Span {
    match f {
        ast::Form::Attribute(a) => a.span,
        ast::Form::Record(r) => r.span,
        ast::Form::Skipped { span, .. } | ast::Form::Error { span } => *span,
        ast::Form::Function(f) => f.span,
    }
}

/// `Name/Arity` or `{Name, Arity}`.
fn fun_name_of(e: &ast::Expr) -> Option<FunName> {
    let (n, a) = match &e.kind {
        ast::ExprKind::Op(ir::BinOp::FDiv, n, a) => (&**n, &**a),
        ast::ExprKind::Tuple(v) if v.len() == 2 => (&v[0], &v[1]),
        _ => return None,
    };
    match (&n.kind, &a.kind) {
        (ast::ExprKind::Atom(n), ast::ExprKind::Int(IntLit::Small(a))) => Some(FunName {
            name: n.clone(),
            arity: u32::try_from(*a).ok()?,
        }),
        _ => None,
    }
}

/// `[Name/Arity, ...]`
fn fun_list(e: &ast::Expr) -> Option<Vec<FunName>> {
    match &e.kind {
        ast::ExprKind::List { elems, tail: None } => elems.iter().map(fun_name_of).collect(),
        _ => None,
    }
}

/// The constant value of an attribute argument (`Name/Arity` reads as `{Name, Arity}`).
pub fn const_of(e: &ast::Expr) -> Const {
    use ast::ExprKind as K;
    match &e.kind {
        K::Atom(a) => Const::Atom(a.clone()),
        K::Int(IntLit::Small(i)) => Const::Int(*i),
        K::Int(IntLit::Big(b)) => Const::BigInt(b.to_string()),
        K::Float(f) => Const::Float(*f),
        K::Char(c) => Const::Int(i64::from(*c)),
        K::String(s) if s.is_empty() => Const::Nil,
        K::String(s) => Const::String(s.to_string()),
        K::Sigil { prefix, value } => match prefix {
            Some('s' | 'S') if value.is_empty() => Const::Nil,
            Some('s' | 'S') => Const::String(value.to_string()),
            _ => Const::Binary(value.as_bytes().to_vec()),
        },
        K::Tuple(v) => Const::Tuple(v.iter().map(const_of).collect()),
        K::List { elems, tail } => {
            let mut acc = match tail {
                Some(t) => const_of(t),
                None => Const::Nil,
            };
            for el in elems.iter().rev() {
                acc = Const::Cons(Box::new(const_of(el)), Box::new(acc));
            }
            acc
        }
        K::Map { base: None, fields } => Const::Map(
            fields
                .iter()
                .map(|f| (const_of(&f.key), const_of(&f.value)))
                .collect(),
        ),
        K::Binary(elems) => const_binary(elems).map_or(Const::NotConstant, Const::Binary),
        K::Op(ir::BinOp::FDiv, n, a) => match (&n.kind, &a.kind) {
            (K::Atom(_), K::Int(_)) => Const::Tuple(vec![const_of(n), const_of(a)]),
            _ => Const::NotConstant,
        },
        K::UnOp(ir::UnOp::Neg, x) => match const_of(x) {
            Const::Int(i) => i.checked_neg().map_or(Const::NotConstant, Const::Int),
            Const::Float(f) => Const::Float(-f),
            _ => Const::NotConstant,
        },
        K::FunRef {
            module,
            name,
            arity,
        } => {
            let module = match module.as_deref().map(|m| &m.kind) {
                None => None,
                Some(K::Atom(m)) => Some(m.clone()),
                Some(_) => return Const::NotConstant,
            };
            match (&name.kind, &arity.kind) {
                (K::Atom(n), K::Int(IntLit::Small(a))) if *a >= 0 => Const::FunRef {
                    module,
                    name: n.clone(),
                    arity: *a as u32,
                },
                _ => Const::NotConstant,
            }
        }
        _ => Const::NotConstant,
    }
}

/// Bytes of a binary made of 8-bit integers and strings.
fn const_binary(elems: &[ast::BinElem]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for el in elems {
        if el.size.is_some() {
            return None;
        }
        let utf8 = match el.specs.as_slice() {
            [] => false,
            [(t, None)] if t == "utf8" => true,
            _ => return None,
        };
        let push = |out: &mut Vec<u8>, c: u32| -> Option<()> {
            if utf8 {
                let ch = char::from_u32(c)?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            } else {
                out.push((c & 0xff) as u8);
            }
            Some(())
        };
        match &el.value.kind {
            ast::ExprKind::String(s) => {
                for c in s.chars() {
                    push(&mut out, c as u32)?;
                }
            }
            ast::ExprKind::Char(c) => push(&mut out, *c)?,
            ast::ExprKind::Int(IntLit::Small(i)) if !utf8 => out.push((*i & 0xff) as u8),
            _ => return None,
        }
    }
    Some(out)
}

/// Lex, parse and lower one module's text without preprocessing (for tests
/// and tools): the module, rendered with [`pretty::pretty_module`] when
/// lowering produced one, and every diagnostic as `line:col: CODE message`.
pub fn lower_text_for_tests(text: &str) -> (Option<ir::Module>, Vec<String>) {
    let file = FileId(0);
    let (mut tokens, mut diags) = crate::lex::tokenize(file, text);
    let end = text.len() as u32;
    tokens.push(crate::token::Token {
        kind: crate::token::TokenKind::Eof,
        span: Span::new(file, end, end),
    });
    let (ast, pdiags) = crate::parse::parse_file(&tokens);
    diags.extend(pdiags);
    let (module, ldiags) = lower_file(&ast, file);
    diags.extend(ldiags);
    let src = crate::source::SourceFile::new("t.erl".into(), std::sync::Arc::from(text));
    let rendered = diags
        .iter()
        .map(|d| {
            let lc = src.line_col(d.span.start);
            format!(
                "{}:{}: {} {}",
                lc.line,
                lc.column,
                d.code.as_str(),
                d.message
            )
        })
        .collect();
    (module, rendered)
}

#[cfg(test)]
mod tests;
