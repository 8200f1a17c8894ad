//! Lowering: [`crate::ast`] to the core [`crate::ir`].
//!
//! Entry point:
//! `pub fn lower_file(file: &ast::File, module_file: FileId) -> (Option<ir::Module>, Vec<Diagnostic>)`
//! (`module_file` is the `.erl` file the module comes from). It returns `None`
//! only when the file has no `-module(Name)` attribute.
//!
//! Module-level work happens here (attributes, exports, imports, records,
//! `-compile` options); function bodies are lowered by the `body` module. The IR
//! pretty printer is [`pretty::pretty_module`].

mod bifs;
mod body;
pub mod pretty;

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ast;
use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::ir::{self, Const, FunName, Name};
use crate::source::{FileId, Span};
use crate::token::IntLit;

pub use bifs::is_auto_imported;

/// A record definition with its field defaults (still syntax: they are
/// lowered into each body that constructs the record).
pub(crate) struct RecordInfo<'a> {
    pub def: ir::RecordDef,
    pub defaults: Vec<Option<&'a ast::Expr>>,
}

/// What function bodies need from their module while being lowered.
pub(crate) struct ModuleCtx<'a> {
    pub name: Name,
    pub records: BTreeMap<Name, RecordInfo<'a>>,
    pub locals: FxHashSet<FunName>,
    pub imports: FxHashMap<FunName, Name>,
    pub no_auto_import: FxHashSet<FunName>,
    pub no_auto_import_all: bool,
    pub call_sites: Vec<ir::CallSite>,
    pub fun_count: u32,
    pub diags: Vec<Diagnostic>,
    /// The module's own file (spans elsewhere come from headers).
    pub file: FileId,
}

impl ModuleCtx<'_> {
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

/// Lower a parsed file to a module. See the module docs.
pub fn lower_file(file: &ast::File, module_file: FileId) -> (Option<ir::Module>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut module: Option<(Name, Span)> = None;
    let mut exports: Vec<(FunName, Span)> = Vec::new();
    let mut export_all = false;
    let mut behaviours = Vec::new();
    let mut attributes = Vec::new();
    let mut ctx = ModuleCtx {
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
    };
    let mut functions: Vec<&ast::Function> = Vec::new();

    for form in &file.forms {
        match form {
            ast::Form::Attribute(attr) => {
                let arg0 = attr.args.first();
                match attr.name.as_str() {
                    "module" => match arg0.map(|a| &a.kind) {
                        Some(ast::ExprKind::Atom(name)) if module.is_none() => {
                            module = Some((name.clone(), attr.span));
                        }
                        Some(ast::ExprKind::Atom(_)) => diags.push(Diagnostic::error(
                            DiagnosticCode::E010Syntax,
                            attr.span,
                            "a second -module attribute",
                        )),
                        _ => diags.push(Diagnostic::error(
                            DiagnosticCode::E010Syntax,
                            attr.span,
                            "expected -module(Name) with an atom name",
                        )),
                    },
                    "export" => match arg0.map(fun_list) {
                        Some(Some(list)) => {
                            exports.extend(list.into_iter().map(|f| (f, attr.span)))
                        }
                        _ => diags.push(Diagnostic::error(
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
                                    ctx.imports.insert(f, m.clone());
                                }
                            }
                            _ => diags.push(Diagnostic::error(
                                DiagnosticCode::E010Syntax,
                                attr.span,
                                "expected -import(Module, [Name/Arity, ...])",
                            )),
                        }
                    }
                    "compile" => {
                        if let Some(a) = arg0 {
                            compile_options(a, &mut export_all, &mut ctx);
                        }
                    }
                    "behaviour" | "behavior" => {
                        if let Some(ast::ExprKind::Atom(b)) = arg0.map(|a| &a.kind) {
                            behaviours.push(b.clone());
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
                    attributes.push(ir::Attribute {
                        name: attr.name.clone(),
                        value,
                        span: attr.span,
                    });
                }
            }
            ast::Form::Record(rec) => {
                if ctx.records.contains_key(&rec.name) {
                    diags.push(Diagnostic::error(
                        DiagnosticCode::E030UndefinedRecord,
                        rec.span,
                        format!("record {} already defined", rec.name),
                    ));
                    continue;
                }
                ctx.records.insert(
                    rec.name.clone(),
                    RecordInfo {
                        def: ir::RecordDef {
                            name: rec.name.clone(),
                            fields: rec.fields.iter().map(|f| f.name.clone()).collect(),
                            span: rec.span,
                        },
                        defaults: rec.fields.iter().map(|f| f.default.as_ref()).collect(),
                    },
                );
            }
            ast::Form::Function(f) => {
                let key = FunName {
                    name: f.name.clone(),
                    arity: f.arity,
                };
                if ctx.locals.insert(key.clone()) {
                    functions.push(f);
                } else {
                    diags.push(Diagnostic::error(
                        DiagnosticCode::E032Unsupported,
                        f.span,
                        format!("function {key} already defined"),
                    ));
                }
            }
            ast::Form::Skipped { .. } | ast::Form::Error { .. } => {}
        }
    }

    let Some((name, span)) = module else {
        let span = file
            .forms
            .first()
            .map(form_span)
            .unwrap_or(Span::new(module_file, 0, 0));
        diags.push(Diagnostic::error(
            DiagnosticCode::E010Syntax,
            span,
            "missing -module(Name) attribute",
        ));
        return (None, diags);
    };
    ctx.name = name.clone();

    let mut export_set: FxHashSet<FunName> = FxHashSet::default();
    let mut export_list = Vec::new();
    if export_all {
        for f in &functions {
            let key = FunName {
                name: f.name.clone(),
                arity: f.arity,
            };
            export_set.insert(key.clone());
            export_list.push(key);
        }
    } else {
        for (f, span) in exports {
            if !ctx.locals.contains(&f) {
                diags.push(Diagnostic::error(
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
    }

    let mut lowered = Vec::with_capacity(functions.len());
    for f in functions {
        let key = FunName {
            name: f.name.clone(),
            arity: f.arity,
        };
        let exported = export_set.contains(&key);
        lowered.push(body::lower_function(&mut ctx, f, exported));
    }
    let function_index = lowered
        .iter()
        .enumerate()
        .map(|(i, f): (usize, &ir::Function)| (f.fun_name(), i))
        .collect();
    diags.append(&mut ctx.diags);
    let records = ctx.records.into_iter().map(|(k, v)| (k, v.def)).collect();
    let module = ir::Module {
        name,
        file: module_file,
        span,
        functions: lowered,
        function_index,
        exports: export_list,
        behaviours,
        attributes,
        records,
        call_sites: ctx.call_sites,
        fun_count: ctx.fun_count,
    };
    (Some(module), diags)
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

fn compile_options(e: &ast::Expr, export_all: &mut bool, ctx: &mut ModuleCtx<'_>) {
    let opts: Vec<&ast::Expr> = match &e.kind {
        ast::ExprKind::List { elems, .. } => elems.iter().collect(),
        _ => vec![e],
    };
    for opt in opts {
        match &opt.kind {
            ast::ExprKind::Atom(a) if a == "export_all" => *export_all = true,
            ast::ExprKind::Atom(a) if a == "no_auto_import" => ctx.no_auto_import_all = true,
            ast::ExprKind::Tuple(v) if v.len() == 2 => {
                if matches!(&v[0].kind, ast::ExprKind::Atom(a) if a == "no_auto_import") {
                    let list = match &v[1].kind {
                        ast::ExprKind::List { .. } => fun_list(&v[1]),
                        _ => fun_name_of(&v[1]).map(|f| vec![f]),
                    };
                    ctx.no_auto_import.extend(list.unwrap_or_default());
                }
            }
            _ => {}
        }
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
