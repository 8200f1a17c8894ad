//! What the node tells a process about its setting, modelled so a run
//! stays deterministic:
//! - `application` environment: a node-wide store, kept as OTP keeps it (in
//!   the `ac_tab` table under `{env, App, Key}`), so each key is a shared
//!   item (`ets ac_tab/{env,App,Key}`). Loading an application
//!   (`prelude/application.erl`) sets its `.app` environment; the caller's
//!   own application (`get_env/1`) is found there. No `sys.config` is read.
//! - the OS environment: empty when a run starts (`os:getenv/1` is
//!   `false`), then what the run's `os:putenv/2` and `os:unsetenv/1` make
//!   it; node-wide, so each variable is a shared item (`os environment
//!   NAME`; `os:getenv/0` reads them all). The host's is never read or
//!   changed.
//! - the emulator was started with no arguments (`init:get_argument/1` is
//!   `error`).

use crate::bif::{Ctx, Flow, Table, tuple2};
use crate::event::{Access, EventKind, SharedItem};
use crate::format::brief;
use crate::term::{MapKey, Term};

pub fn register(t: &mut Table) {
    t.ctx("application", "get_env", 2, |ctx, a| {
        get_env(ctx, &a[0], &a[1], None)
    });
    t.ctx("application", "get_env", 3, |ctx, a| {
        get_env(ctx, &a[0], &a[1], Some(&a[2]))
    });
    t.ctx("application", "set_env", 3, |ctx, a| {
        set_env(ctx, &a[0], &a[1], Some(&a[2]))
    });
    t.ctx("application", "set_env", 4, |ctx, a| {
        set_env(ctx, &a[0], &a[1], Some(&a[2]))
    });
    t.ctx("application", "unset_env", 2, |ctx, a| {
        set_env(ctx, &a[0], &a[1], None)
    });
    t.ctx("application", "unset_env", 3, |ctx, a| {
        set_env(ctx, &a[0], &a[1], None)
    });
    t.ctx("application", "get_all_env", 1, get_all_env);

    t.ctx("os", "getenv", 0, getenv_all);
    t.ctx("os", "getenv", 1, |ctx, a| getenv(ctx, &a[0], None));
    t.ctx("os", "getenv", 2, |ctx, a| getenv(ctx, &a[0], Some(&a[1])));
    t.ctx("os", "putenv", 2, |ctx, a| setenv(ctx, &a[0], Some(&a[1])));
    t.ctx("os", "unsetenv", 1, |ctx, a| setenv(ctx, &a[0], None));
    // A process of this node talks to its I/O server in Unicode (the flag
    // is about the connection to another node).
    t.pure("net_kernel", "dflag_unicode_io", 1, |a| match a[0] {
        Term::Pid(_) => Ok(Term::atom("true")),
        _ => Err(crate::bif::badarg()),
    });
    t.pure("init", "get_argument", 1, |_| Ok(Term::atom("error")));
    t.pure("init", "get_arguments", 0, |_| Ok(Term::Nil));
    t.pure("init", "get_plain_arguments", 0, |_| Ok(Term::Nil));
    // The object files the node loads: the BEAM's own answer, whatever
    // the host (code:objfile_extension/0 asks it).
    t.pure("init", "objfile_extension", 0, |_| {
        Ok(Term::string(".beam"))
    });
}

fn item(app: &Term, key: Option<&Term>) -> SharedItem {
    SharedItem::Ets {
        table: "ac_tab".into(),
        key: key.map(|k| format!("{{env,{},{}}}", brief(app), brief(k))),
    }
}

fn get_env(ctx: &mut Ctx<'_>, app: &Term, key: &Term, default: Option<&Term>) -> Flow {
    let found = ctx
        .vm
        .app_env
        .get(&(MapKey(app.clone()), MapKey(key.clone())))
        .cloned();
    let value = match (found, default) {
        (Some(v), None) => tuple2(Term::ok(), v),
        (Some(v), Some(_)) => v,
        (None, Some(d)) => d.clone(),
        (None, None) => Term::undefined(),
    };
    let mut args = vec![brief(app), brief(key)];
    args.extend(default.map(brief));
    let text = format!(
        "application:get_env({}) -> {}",
        args.join(", "),
        brief(&value)
    );
    ctx.emit_access(EventKind::Ets, text, item(app, Some(key)), Access::Read);
    Flow::Value(value)
}

/// `set_env` (with a value) and `unset_env` (without).
fn set_env(ctx: &mut Ctx<'_>, app: &Term, key: &Term, value: Option<&Term>) -> Flow {
    let k = (MapKey(app.clone()), MapKey(key.clone()));
    let text = match value {
        Some(v) => {
            ctx.vm.app_env.insert(k, v.clone());
            format!(
                "application:set_env({}, {}, {})",
                brief(app),
                brief(key),
                brief(v)
            )
        }
        None => {
            ctx.vm.app_env.remove(&k);
            format!("application:unset_env({}, {})", brief(app), brief(key))
        }
    };
    ctx.emit_access(EventKind::Ets, text, item(app, Some(key)), Access::Write);
    Flow::Value(Term::ok())
}

fn get_all_env(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let app = MapKey(a[0].clone());
    let all: Vec<Term> = ctx
        .vm
        .app_env
        .iter()
        .filter(|((x, _), _)| *x == app)
        .map(|((_, k), v)| tuple2(k.0.clone(), v.clone()))
        .collect();
    let text = format!("application:get_all_env({})", brief(&a[0]));
    ctx.emit_access(EventKind::Ets, text, item(&a[0], None), Access::Read);
    Flow::Value(Term::list(all))
}

fn getenv_all(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    let all: Vec<Term> = ctx
        .vm
        .os_env
        .iter()
        .map(|(k, v)| Term::string(&format!("{k}={v}")))
        .collect();
    let text = format!("os:getenv() -> {} variables", all.len());
    ctx.emit_access(
        EventKind::Local,
        text,
        SharedItem::OsEnv(String::new()),
        Access::Read,
    );
    Flow::Value(Term::list(all))
}

fn getenv(ctx: &mut Ctx<'_>, name: &Term, default: Option<&Term>) -> Flow {
    let Some(key) = name.as_charlist() else {
        return Flow::badarg();
    };
    let value = match (ctx.vm.os_env.get(&key), default) {
        (Some(v), _) => Term::string(v),
        (None, Some(d)) => d.clone(),
        (None, None) => Term::atom("false"),
    };
    let mut args = vec![brief(name)];
    args.extend(default.map(brief));
    let text = format!("os:getenv({}) -> {}", args.join(", "), brief(&value));
    ctx.emit_access(EventKind::Local, text, SharedItem::OsEnv(key), Access::Read);
    Flow::Value(value)
}

/// `os:putenv/2` (`value` given) or `os:unsetenv/1`: `true`, or `badarg`
/// for a name that holds `=`, as the BEAM refuses it.
fn setenv(ctx: &mut Ctx<'_>, name: &Term, value: Option<&Term>) -> Flow {
    let Some(key) = name.as_charlist().filter(|k| !k.contains('=')) else {
        return Flow::badarg();
    };
    let text = match value {
        Some(v) => {
            let Some(v_text) = v.as_charlist() else {
                return Flow::badarg();
            };
            ctx.vm.os_env.insert(key.clone(), v_text);
            format!("os:putenv({}, {}) -> true", brief(name), brief(v))
        }
        None => {
            ctx.vm.os_env.remove(&key);
            format!("os:unsetenv({}) -> true", brief(name))
        }
    };
    ctx.emit_access(
        EventKind::Local,
        text,
        SharedItem::OsEnv(key),
        Access::Write,
    );
    Flow::Value(Term::atom("true"))
}
