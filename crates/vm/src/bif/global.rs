//! `global` on one node: a second registry whose names are any term
//! (`SharedItem::Global(name as ~w)`); names go when their process dies.
//! Also `logger`/`error_logger` calls, accepted without output (the
//! differential runs use `-kernel logger_level none`).

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, tuple2};
use crate::event::{Access, EventKind, SharedItem};
use crate::format::write_term;
use crate::term::{MapKey, Term};

fn gitem(name: &Term) -> SharedItem {
    SharedItem::Global(write_term(name))
}

pub fn register(t: &mut Table) {
    t.ctx("global", "whereis_name", 1, |ctx, a| {
        let v = ctx.vm.global_names.get(&MapKey(a[0].clone())).copied();
        let shown = v
            .map(|p| ctx.name_of(p))
            .unwrap_or_else(|| "undefined".into());
        ctx.emit_access(
            EventKind::Registry,
            format!("global:whereis_name({}) -> {shown}", write_term(&a[0])),
            gitem(&a[0]),
            Access::Read,
        );
        Flow::Value(v.map(Term::Pid).unwrap_or_else(Term::undefined))
    });
    t.ctx("global", "register_name", 2, do_register);
    t.ctx("global", "register_name", 3, do_register);
    t.ctx("global", "re_register_name", 2, |ctx, a| {
        let Term::Pid(p) = a[1] else {
            return Flow::badarg();
        };
        ctx.emit_access(
            EventKind::Registry,
            format!(
                "global:re_register_name({}, {})",
                write_term(&a[0]),
                ctx.name_of(p)
            ),
            gitem(&a[0]),
            Access::Write,
        );
        ctx.vm.global_names.insert(MapKey(a[0].clone()), p);
        Flow::Value(Term::atom("yes"))
    });
    t.ctx("global", "unregister_name", 1, |ctx, a| {
        ctx.emit_access(
            EventKind::Registry,
            format!("global:unregister_name({})", write_term(&a[0])),
            gitem(&a[0]),
            Access::Write,
        );
        ctx.vm.global_names.remove(&MapKey(a[0].clone()));
        Flow::Value(Term::ok())
    });
    t.ctx("global", "send", 2, |ctx, a| {
        let target = ctx.vm.global_names.get(&MapKey(a[0].clone())).copied();
        let text = format!("global:send({}, {})", write_term(&a[0]), write_term(&a[1]));
        match target {
            Some(p) => {
                ctx.emit_access(EventKind::Send, text, SharedItem::Mailbox(p), Access::Write);
                if let Some(ev) = ctx.event.as_mut() {
                    ev.accesses.insert(0, (gitem(&a[0]), Access::Read));
                }
                ctx.vm.deliver(p, a[1].clone());
                Flow::Value(Term::Pid(p))
            }
            None => {
                ctx.emit_access(EventKind::Send, text, gitem(&a[0]), Access::Read);
                Flow::Raise(crate::event::Exception::exit(tuple2(
                    Term::atom("badarg"),
                    tuple2(a[0].clone(), a[1].clone()),
                )))
            }
        }
    });
    t.ctx("global", "registered_names", 0, |ctx, _| {
        ctx.emit(EventKind::Registry, "global:registered_names()".into());
        Flow::Value(Term::list(
            ctx.vm.global_names.keys().map(|k| k.0.clone()).collect(),
        ))
    });
    t.ctx("global", "sync", 0, |_, _| Flow::Value(Term::ok()));
    // `global:trans/2,3,4` takes a cluster-wide lock around the fun. The
    // lock is not modelled, so a call parks the process (an unsupported
    // call) rather than run the fun without the mutual exclusion it relies on.

    // Logging is not modelled (erl runs with logger_level none): accepted, no output.
    for (m, f, n) in [
        ("logger", "info", 1),
        ("logger", "info", 2),
        ("logger", "info", 3),
        ("logger", "warning", 1),
        ("logger", "warning", 2),
        ("logger", "warning", 3),
        ("logger", "error", 1),
        ("logger", "error", 2),
        ("logger", "error", 3),
        ("logger", "debug", 1),
        ("logger", "debug", 2),
        ("logger", "debug", 3),
        ("logger", "notice", 1),
        ("logger", "notice", 2),
        ("logger", "notice", 3),
        ("error_logger", "info_msg", 1),
        ("error_logger", "info_msg", 2),
        ("error_logger", "warning_msg", 1),
        ("error_logger", "warning_msg", 2),
        ("error_logger", "error_msg", 1),
        ("error_logger", "error_msg", 2),
        ("error_logger", "info_report", 1),
        ("error_logger", "error_report", 1),
        ("error_logger", "warning_report", 1),
    ] {
        t.pure(m, f, n, |_| Ok(Term::ok()));
    }
}

fn do_register(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(p) = a[1] else {
        return Flow::badarg();
    };
    let key = MapKey(a[0].clone());
    ctx.emit_access(
        EventKind::Registry,
        format!(
            "global:register_name({}, {})",
            write_term(&a[0]),
            ctx.name_of(p)
        ),
        gitem(&a[0]),
        Access::Write,
    );
    let taken =
        ctx.vm.global_names.contains_key(&key) || ctx.vm.global_names.values().any(|q| *q == p);
    if taken || !ctx.is_alive(p) {
        if let Some(ev) = ctx.event.as_mut() {
            ev.text.push_str(" -> no");
        }
        return Flow::Value(Term::atom("no"));
    }
    ctx.vm.global_names.insert(key, p);
    let _ = Atom::OK;
    Flow::Value(Term::atom("yes"))
}
