//! Code made and loaded at run time: `compile:forms/1,2` and the code
//! server's loading, purging and deleting (`code:load_binary/3`,
//! `code:purge/1`, `code:soft_purge/1`, `code:delete/1`,
//! `erlang:load_module/2`, `erlang:delete_module/1`,
//! `erlang:check_old_code/1`), over the VM's own code table (see
//! [`crate::code::RunTimeCode`]).
//!
//! `compile:forms` writes the abstract forms out as source text
//! ([`crate::code::forms`]) and loads that text through the syntax crate,
//! as any source file is loaded; the binary it returns is racewit's: the
//! text behind a header ([`MAGIC`]), which `code:load_binary/3` takes and
//! nothing else does (a BEAM object file parks the caller, named).
//! Compiler warnings are not made (`{ok, M, Bin, []}` with `return`),
//! and `report_errors` prints nothing. Forms that are no abstract format
//! give OTP's `error` (`{error, Errors, []}` with `return_errors`, each
//! error naming the form); valid forms racewit does not write out
//! (`maybe`, map comprehensions) park the caller, unsupported, naming them.
//!
//! Each load, purge and delete is a visible step that writes the module's
//! code (`SharedItem::Code`).

use std::sync::{Arc, Mutex, OnceLock};

use racewit_syntax::ir::Program;
use racewit_syntax::{DiagnosticCode, Severity};

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table};
use crate::code::forms::{FormError, forms_to_source};
use crate::event::{Access, EventKind, SharedItem};
use crate::term::Term;

/// What a binary `compile:forms` made starts with; the module's name, a
/// newline and its source text follow.
pub const MAGIC: &[u8] = b"racewit-forms-1\n";

/// Where a module made by `compile:forms` says its source is.
const FORMS_DIR: &str = "<compile:forms>";

pub fn register(t: &mut Table) {
    t.ctx("compile", "forms", 1, |ctx, a| {
        let opts = ["verbose", "report_errors", "report_warnings"]
            .iter()
            .map(|o| Term::atom(o))
            .collect();
        forms(ctx, &a[0], &Term::list(opts))
    });
    t.ctx("compile", "forms", 2, |ctx, a| forms(ctx, &a[0], &a[1]));
    t.ctx("code", "load_binary", 3, load_binary);
    t.ctx("erlang", "load_module", 2, load_module);
    t.ctx("code", "purge", 1, |ctx, a| purge(ctx, a, false));
    t.ctx("code", "soft_purge", 1, |ctx, a| purge(ctx, a, true));
    t.ctx("code", "delete", 1, |ctx, a| match a[0].as_atom() {
        Some(m) => delete(ctx, m, "code:delete", |r| match r {
            Deleted::Yes => Flow::Value(Term::bool(true)),
            _ => Flow::Value(Term::bool(false)),
        }),
        None => Flow::error(Term::atom("function_clause")),
    });
    t.ctx("erlang", "delete_module", 1, |ctx, a| {
        match a[0].as_atom() {
            Some(m) => delete(ctx, m, "erlang:delete_module", |r| match r {
                Deleted::Yes => Flow::Value(Term::bool(true)),
                Deleted::NotLoaded => Flow::Value(Term::undefined()),
                Deleted::OldCode => Flow::badarg(),
            }),
            None => Flow::badarg(),
        }
    });
    t.ctx("erlang", "check_old_code", 1, |ctx, a| {
        match a[0].as_atom() {
            Some(m) => Flow::Value(Term::bool(ctx.vm.code.old_code(m).is_some())),
            None => Flow::badarg(),
        }
    });
    // The file name `code:load_binary/3` was given for `M`'s current code,
    // or `undefined` (what the prelude's `code:is_loaded/1` and `which/1`
    // answer from); `deleted` when its code was deleted at run time.
    t.ctx("racewit_code", "loaded_file", 1, |ctx, a| {
        let Some(m) = a[0].as_atom() else {
            return Flow::badarg();
        };
        Flow::Value(match ctx.vm.code.changed_at_run_time(m) {
            Some(v) => match &v.file {
                Some(f) => Term::string(f),
                None if ctx.vm.code.module(m).is_none() => Term::atom("deleted"),
                None => Term::undefined(),
            },
            None => Term::undefined(),
        })
    });
}

/// `compile:forms(Forms, Options)`.
fn forms(_: &mut Ctx<'_>, forms: &Term, opts: &Term) -> Flow {
    let opts: Vec<Term> = match opts {
        Term::Atom(_) => vec![opts.clone()],
        _ => opts.list_to_vec().unwrap_or_default(),
    };
    let has = |name: &str| opts.iter().any(|o| o.is_atom(Atom::new(name)));
    let return_errors = has("return") || has("return_errors");
    let return_warnings = has("return") || has("return_warnings");
    let compiled = forms_to_source(forms).and_then(|src| {
        let path = format!("{FORMS_DIR}/{}.erl", src.module.name());
        let program = parse(&src.text, &path);
        match first_error(&program) {
            Some(e) => Err(e),
            None => Ok((src.module, src.text)),
        }
    });
    match compiled {
        Ok((module, text)) => {
            let mut bytes = MAGIC.to_vec();
            bytes.extend_from_slice(module.name().as_bytes());
            bytes.push(b'\n');
            bytes.extend_from_slice(text.as_bytes());
            let mut out = vec![Term::atom("ok"), Term::Atom(module), Term::binary(bytes)];
            if return_warnings {
                out.push(Term::Nil);
            }
            Flow::Value(Term::tuple(out))
        }
        // Valid forms racewit cannot write out: the BEAM would compile them.
        Err(e) if e.unsupported => Flow::ParkWith(
            crate::library::ParkReason::Unsupported,
            format!("compile:forms/2 of {}", e.what),
        ),
        Err(e) => {
            if !return_errors {
                return Flow::Value(Term::atom("error"));
            }
            let location = match e.line {
                Some(l) => Term::Int(l),
                None => Term::atom("none"),
            };
            let info = Term::tuple(vec![
                location,
                Term::atom("compile"),
                Term::tuple(vec![Term::atom("racewit"), Term::string(&e.what)]),
            ]);
            let errors = Term::list(vec![Term::tuple(vec![
                Term::string(""),
                Term::list(vec![info]),
            ])]);
            Flow::Value(Term::tuple(vec![Term::atom("error"), errors, Term::Nil]))
        }
    }
}

/// The first error the syntax crate found in a module made from forms.
fn first_error(program: &Program) -> Option<FormError> {
    let d = program
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error && d.code != DiagnosticCode::E020MissingInclude)?;
    Some(FormError {
        line: None,
        what: d.message.clone(),
        unsupported: false,
    })
}

/// The program of a module's text, parsed once per OS process (the text
/// decides it whole, so every run that makes the same module shares it).
fn parse(text: &str, path: &str) -> Arc<Program> {
    type Cache = Mutex<std::collections::HashMap<(String, String), Arc<Program>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (path.to_string(), text.to_string());
    if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return p.clone();
    }
    let program = Arc::new(racewit_syntax::load_source(path, text));
    let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
    if guard.len() >= 1024 {
        guard.clear();
    }
    guard.insert(key, program.clone());
    program
}

/// The program a binary holds, if it is one `compile:forms` made.
enum Binary {
    Module(Atom, Arc<Program>),
    /// A BEAM object file: racewit cannot run one.
    Beam,
    Bad,
}

fn read_binary(bin: &Term) -> Binary {
    let Some(bytes) = bin.as_bytes() else {
        return Binary::Bad;
    };
    if bytes.starts_with(b"FOR1") {
        return Binary::Beam;
    }
    let Some((name, text)) = bytes
        .strip_prefix(MAGIC)
        .and_then(|t| std::str::from_utf8(t).ok())
        .and_then(|t| t.split_once('\n'))
    else {
        return Binary::Bad;
    };
    let program = parse(text, &format!("{FORMS_DIR}/{name}.erl"));
    match program.modules.keys().next() {
        Some(m) if program.modules.len() == 1 => Binary::Module(Atom::new(m), program),
        _ => Binary::Bad,
    }
}

/// `code:load_binary(Module, File, Binary)`: as OTP 25's code server does,
/// a module that is loaded has its old code purged first (killing the
/// processes that run it), then the binary is loaded.
fn load_binary(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let file = match &a[1] {
        Term::Atom(f) => Some(f.name().to_string()),
        f => f.as_charlist(),
    };
    let (Some(module), Some(file), true) = (a[0].as_atom(), file, matches!(a[2], Term::Bin(_)))
    else {
        return Flow::error(Term::atom("function_clause"));
    };
    let call = format!("code:load_binary({}, ...)", module.name());
    if ctx.vm.code.module(module).is_some() {
        kill_old_code(ctx, module);
    }
    load(ctx, module, file, &a[2], &call)
}

/// `erlang:load_module(Module, Binary)`: `{error, not_purged}` while the
/// module has old code.
fn load_module(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let (Some(module), true) = (a[0].as_atom(), matches!(a[1], Term::Bin(_))) else {
        return Flow::badarg();
    };
    let call = format!("erlang:load_module({}, ...)", module.name());
    if ctx.vm.code.old_code(module).is_some() {
        emit(ctx, module, format!("{call} -> {{error, not_purged}}"));
        return Flow::Value(error(Term::atom("not_purged")));
    }
    load(ctx, module, String::new(), &a[1], &call)
}

fn load(ctx: &mut Ctx<'_>, module: Atom, file: String, bin: &Term, call: &str) -> Flow {
    if crate::library::is_preloaded(module.name())
        || crate::library::modelled_api(module.name()).is_some()
    {
        emit(
            ctx,
            module,
            format!("{call} -> {{error, sticky_directory}}"),
        );
        return Flow::Value(error(Term::atom("sticky_directory")));
    }
    match read_binary(bin) {
        Binary::Module(name, program) if name == module => {
            emit(
                ctx,
                module,
                format!("{call} -> {{module, {}}}", module.name()),
            );
            let table = ctx.vm.code.with_loaded(module, &program, file);
            set_code(ctx, table);
            Flow::Value(Term::tuple(vec![Term::atom("module"), Term::Atom(module)]))
        }
        Binary::Beam => Flow::ParkWith(
            crate::library::ParkReason::Unsupported,
            format!(
                "{call} of BEAM object code (racewit loads the binaries its compile:forms/1,2 \
                 makes)"
            ),
        ),
        _ => {
            emit(ctx, module, format!("{call} -> {{error, badfile}}"));
            Flow::Value(error(Term::atom("badfile")))
        }
    }
}

/// `code:purge/1` (kills what runs the old code; `true` when it killed
/// some) and `code:soft_purge/1` (`false`, purging nothing, while some
/// process runs it).
fn purge(ctx: &mut Ctx<'_>, a: &[Term], soft: bool) -> Flow {
    let Some(module) = a[0].as_atom() else {
        return Flow::error(Term::atom("function_clause"));
    };
    let name = if soft { "soft_purge" } else { "purge" };
    let Some(old) = ctx.vm.code.old_code(module) else {
        emit(
            ctx,
            module,
            format!("code:{name}({}) -> {}", module.name(), soft),
        );
        return Flow::Value(Term::bool(soft));
    };
    let running = ctx.vm.processes_in_code(old);
    if soft && !running.is_empty() {
        emit(
            ctx,
            module,
            format!("code:soft_purge({}) -> false", module.name()),
        );
        return Flow::Value(Term::bool(false));
    }
    let killed = !running.is_empty();
    kill_old_code(ctx, module);
    let answer = if soft { true } else { killed };
    emit(
        ctx,
        module,
        format!("code:{name}({}) -> {answer}", module.name()),
    );
    Flow::Value(Term::bool(answer))
}

/// Kills the processes running `module`'s old code and drops it.
fn kill_old_code(ctx: &mut Ctx<'_>, module: Atom) {
    let Some(old) = ctx.vm.code.old_code(module) else {
        return;
    };
    let me = ctx.pid();
    for pid in ctx.vm.processes_in_code(old) {
        ctx.vm.exit_signal(me, pid, Term::Atom(Atom::KILL), false);
    }
    let table = ctx.vm.code.with_purged(module);
    set_code(ctx, table);
}

enum Deleted {
    Yes,
    NotLoaded,
    OldCode,
}

fn delete(ctx: &mut Ctx<'_>, module: Atom, call: &str, answer: fn(Deleted) -> Flow) -> Flow {
    let outcome = if ctx.vm.code.old_code(module).is_some() {
        Deleted::OldCode
    } else if ctx.vm.code.module(module).is_none()
        || crate::library::is_preloaded(module.name())
        || crate::library::modelled_api(module.name()).is_some()
    {
        Deleted::NotLoaded
    } else {
        Deleted::Yes
    };
    if let Deleted::Yes = outcome {
        let table = ctx.vm.code.with_deleted(module);
        set_code(ctx, table);
    }
    let flow = answer(outcome);
    let shown = match &flow {
        Flow::Value(v) => crate::format::brief(v),
        _ => "badarg".to_string(),
    };
    emit(ctx, module, format!("{call}({}) -> {shown}", module.name()));
    flow
}

fn set_code(ctx: &mut Ctx<'_>, table: crate::code::CodeTable) {
    ctx.vm.code = Arc::new(table);
    ctx.vm.last_export = None;
}

fn emit(ctx: &mut Ctx<'_>, module: Atom, text: String) {
    ctx.emit_access(
        EventKind::Local,
        text,
        SharedItem::Code(module.name().to_string()),
        Access::Write,
    );
}

fn error(reason: Term) -> Term {
    Term::tuple(vec![Term::atom("error"), reason])
}
