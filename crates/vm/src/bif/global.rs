//! `global` on a single node: a second name registry whose names are any
//! term. `register_name` answers `yes`/`no` instead of raising; the names are
//! shared items the scheduler sees (`Global(name)`).

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table};
use crate::event::{Access, EventKind, SharedItem};
use crate::format::write_term;
use crate::term::{MapKey, Term};

pub fn register(t: &mut Table) {
    t.ctx("global", "whereis_name", 1, whereis_name);
    t.ctx("global", "register_name", 2, register_name);
    t.ctx("global", "register_name", 3, register_name);
    t.ctx("global", "unregister_name", 1, unregister_name);
    t.ctx("global", "re_register_name", 2, re_register_name);
    t.ctx("global", "re_register_name", 3, re_register_name);
    t.ctx("global", "registered_names", 0, registered_names);
    t.ctx("global", "send", 2, send);
}

fn item(name: &Term) -> SharedItem {
    SharedItem::Global(write_term(name))
}

/// The pid a name holds, if its process is alive (a global name dies with its process).
fn holder(ctx: &Ctx<'_>, name: &Term) -> Option<crate::term::Pid> {
    let pid = ctx.vm.global_names.get(&MapKey(name.clone())).copied()?;
    ctx.is_alive(pid).then_some(pid)
}

fn whereis_name(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let found = holder(ctx, &a[0]);
    let shown = found
        .map(|p| ctx.name_of(p))
        .unwrap_or_else(|| "undefined".into());
    let text = format!("global:whereis_name({}) -> {shown}", write_term(&a[0]));
    ctx.emit_access(EventKind::Registry, text, item(&a[0]), Access::Read);
    Flow::Value(found.map(Term::Pid).unwrap_or_else(Term::undefined))
}

fn register_name(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(pid) = a[1] else {
        return Flow::badarg();
    };
    let name = a[0].clone();
    let who = ctx.name_of(pid);
    let taken = holder(ctx, &name).is_some();
    let already = ctx
        .vm
        .global_names
        .iter()
        .any(|(k, p)| *p == pid && ctx.is_alive(*p) && k.0 != name);
    let ok = !taken && !already && ctx.is_alive(pid);
    let text = format!(
        "global:register_name({}, {who}) -> {}",
        write_term(&name),
        if ok { "yes" } else { "no" }
    );
    // A refused registration changes nothing: it only observed the name.
    let access = if ok { Access::Write } else { Access::Read };
    ctx.emit_access(EventKind::Registry, text, item(&name), access);
    if !ok {
        return Flow::Value(Term::Atom(Atom::new("no")));
    }
    ctx.vm.global_names.insert(MapKey(name), pid);
    Flow::Value(Term::Atom(Atom::new("yes")))
}

fn re_register_name(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(pid) = a[1] else {
        return Flow::badarg();
    };
    let text = format!(
        "global:re_register_name({}, {}) -> yes",
        write_term(&a[0]),
        ctx.name_of(pid)
    );
    ctx.emit_access(EventKind::Registry, text, item(&a[0]), Access::Write);
    ctx.vm.global_names.insert(MapKey(a[0].clone()), pid);
    Flow::Value(Term::Atom(Atom::new("yes")))
}

fn unregister_name(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let text = format!("global:unregister_name({}) -> ok", write_term(&a[0]));
    ctx.emit_access(EventKind::Registry, text, item(&a[0]), Access::Write);
    ctx.vm.global_names.remove(&MapKey(a[0].clone()));
    Flow::Value(Term::Atom(Atom::new("ok")))
}

fn registered_names(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    let names: Vec<Term> = ctx
        .vm
        .global_names
        .iter()
        .filter(|(_, p)| ctx.is_alive(**p))
        .map(|(k, _)| k.0.clone())
        .collect();
    ctx.emit_access(
        EventKind::Registry,
        "global:registered_names()".into(),
        SharedItem::Global(String::new()),
        Access::Read,
    );
    Flow::Value(Term::list(names))
}

/// `global:send(Name, Msg)`: to the holder, else `exit({badarg, {Name, Msg}})`.
fn send(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    match holder(ctx, &a[0]) {
        Some(pid) => super::erlang::send(ctx, &[Term::Pid(pid), a[1].clone()]),
        None => {
            let text = format!("global:send({}, _) -> badarg", write_term(&a[0]));
            ctx.emit_access(EventKind::Registry, text, item(&a[0]), Access::Read);
            Flow::Exit(Term::tuple(vec![
                Term::Atom(Atom::BADARG),
                Term::tuple(vec![a[0].clone(), a[1].clone()]),
            ]))
        }
    }
}
