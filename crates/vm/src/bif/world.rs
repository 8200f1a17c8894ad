//! The BIFs behind the modelled outside world (`prelude/logger.erl`,
//! `application.erl`, `code.erl`, ...): a small term store for the
//! configuration OTP keeps in its servers, log capture, a process's
//! lineage (what OTP reads through group leaders), what the code server
//! knows of a module, and the node's fixed setting (`os:type/0`,
//! `erlang:pre_loaded/0`). See `crate::world` and the crate README.

use crate::bif::{Ctx, Flow, Table, chardata_string};
use crate::code::Origin;
use crate::event::EventKind;
use crate::term::{MapKey, Term};
use crate::world::LogEvent;

pub fn register(t: &mut Table) {
    t.ctx("racewit_world", "get", 2, |ctx, a| {
        Flow::Value(
            ctx.vm
                .world
                .store
                .get(&MapKey(a[0].clone()))
                .cloned()
                .unwrap_or_else(|| a[1].clone()),
        )
    });
    t.ctx("racewit_world", "put", 2, |ctx, a| {
        ctx.vm
            .world
            .store
            .insert(MapKey(a[0].clone()), a[1].clone());
        Flow::Value(Term::ok())
    });
    t.ctx("racewit_world", "log", 3, log);
    // A prelude function meeting a case it does not model: the caller
    // parks at an unsupported call, named by the text given and the term
    // that made the case.
    t.ctx("racewit_world", "unsupported", 2, |_, a| {
        let mut call = String::new();
        match chardata_string(&a[0], &mut call) {
            Ok(()) => Flow::Park(format!("{call} {}", crate::format::brief(&a[1]))),
            Err(_) => Flow::badarg(),
        }
    });
    t.ctx("racewit_world", "lineage", 1, lineage);
    t.ctx("racewit_code", "origin", 1, |ctx, a| {
        let Some(m) = a[0].as_atom() else {
            return Flow::badarg();
        };
        let origin = match ctx.vm.code.module(m) {
            Some((_, code)) => match code.origin {
                Origin::User => "user",
                Origin::Library => "library",
                Origin::Prelude => "prelude",
            },
            None if crate::bif::module_known(m) => "builtin",
            None => "false",
        };
        Flow::Value(Term::atom(origin))
    });
    t.ctx("racewit_code", "user_modules", 0, |ctx, _| {
        let mut names: Vec<&str> = ctx
            .vm
            .code
            .modules
            .iter()
            .filter(|m| m.origin == Origin::User)
            .map(|m| m.name.name())
            .collect();
        names.sort_unstable();
        names.dedup();
        Flow::Value(Term::list(names.into_iter().map(Term::atom).collect()))
    });
    t.ctx("racewit_code", "source", 1, |ctx, a| {
        let path = a[0]
            .as_atom()
            .and_then(|m| ctx.vm.code.module(m))
            .and_then(|(_, code)| code.source_path());
        Flow::Value(match path {
            Some(p) => Term::string(&p.display().to_string()),
            None => Term::undefined(),
        })
    });
    t.pure("erlang", "pre_loaded", 0, |_| {
        Ok(Term::list(
            crate::library::PRE_LOADED
                .iter()
                .map(|m| Term::atom(m))
                .collect(),
        ))
    });
    t.ctx("erlang", "module_loaded", 1, |ctx, a| {
        let Some(m) = a[0].as_atom() else {
            return Flow::badarg();
        };
        let loaded = ctx.vm.code.module(m).is_some() || crate::bif::module_known(m);
        Flow::Value(Term::bool(loaded))
    });
    t.pure("os", "type", 0, |_| {
        Ok(Term::tuple(vec![Term::atom("unix"), Term::atom("linux")]))
    });
    t.pure("os", "family", 0, |_| Ok(Term::atom("unix")));
    t.pure("os", "version", 0, |_| {
        Ok(Term::tuple(vec![Term::Int(6), Term::Int(1), Term::Int(0)]))
    });
    t.pure("os", "getpid", 0, |_| Ok(Term::string(OS_PID)));
    // os:cmd/1,2, os:putenv/2, os:unsetenv/1 are no BIFs here: a call
    // resolves to a park for the host (library::HOST_FUNCTIONS), at its site.
}

/// The emulator's OS process id in the model.
const OS_PID: &str = "4242";

/// `racewit_world:log(Level, Text, Location)`: capture one log event (a
/// visible step, like output).
fn log(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Some(level) = a[0].as_atom() else {
        return Flow::badarg();
    };
    let mut text = String::new();
    if chardata_string(&a[1], &mut text).is_err() {
        text = crate::format::write_term(&a[1]);
    }
    let location = match &a[2] {
        Term::Atom(x) if x.name() == "undefined" => None,
        other => {
            let mut s = String::new();
            chardata_string(other, &mut s).ok().map(|_| s)
        }
    };
    let shown: String = text.chars().take(120).collect();
    ctx.emit(
        EventKind::Output,
        format!("logger {}: {shown:?}", level.name()),
    );
    let pid = ctx.pid();
    ctx.vm.world.push_log(LogEvent {
        pid,
        level: level.name().to_string(),
        text,
        location,
    });
    Flow::Value(Term::ok())
}

/// `racewit_world:lineage(Pid)`: `[Pid, Parent, Grandparent, ...]`, from
/// the stable names (`P1.2.3` was spawned by `P1.2`), as far as the
/// processes exist.
fn lineage(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(pid) = a[0] else {
        return Flow::badarg();
    };
    let mut out = vec![Term::Pid(pid)];
    let mut at = pid;
    while let Some(parent) = ctx.vm.parent_of(at) {
        if !ctx.vm.process_exists(parent) {
            break;
        }
        out.push(Term::Pid(parent));
        at = parent;
    }
    Flow::Value(Term::list(out))
}
