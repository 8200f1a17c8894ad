//! `persistent_term`: a node-wide key-value store. Every key is a shared
//! item the scheduler sees (`PersistentTerm(key)`).

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table};
use crate::event::{Access, EventKind, SharedItem};
use crate::format::brief;
use crate::term::{MapKey, Term};

pub fn register(t: &mut Table) {
    t.ctx("persistent_term", "get", 1, get);
    t.ctx("persistent_term", "get", 2, get);
    t.ctx("persistent_term", "get", 0, get_all);
    t.ctx("persistent_term", "put", 2, put);
    t.ctx("persistent_term", "erase", 1, erase);
}

fn item(key: &Term) -> SharedItem {
    SharedItem::PersistentTerm(brief(key))
}

fn get(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let found = ctx.vm.persistent_terms.get(&MapKey(a[0].clone())).cloned();
    let shown = match (&found, a.get(1)) {
        (Some(v), _) => brief(v),
        (None, Some(d)) => brief(d),
        (None, None) => "badarg".into(),
    };
    let args: Vec<String> = a.iter().map(brief).collect();
    let text = format!("persistent_term:get({}) -> {shown}", args.join(", "));
    ctx.emit_access(EventKind::Local, text, item(&a[0]), Access::Read);
    match (found, a.get(1)) {
        (Some(v), _) => Flow::Value(v),
        (None, Some(d)) => Flow::Value(d.clone()),
        (None, None) => Flow::badarg(),
    }
}

fn get_all(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    let all: Vec<Term> = ctx
        .vm
        .persistent_terms
        .iter()
        .map(|(k, v)| Term::tuple(vec![k.0.clone(), v.clone()]))
        .collect();
    ctx.emit_access(
        EventKind::Local,
        "persistent_term:get()".into(),
        SharedItem::PersistentTerm(String::new()),
        Access::Read,
    );
    Flow::Value(Term::list(all))
}

fn put(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let text = format!("persistent_term:put({}, {})", brief(&a[0]), brief(&a[1]));
    ctx.emit_access(EventKind::Local, text, item(&a[0]), Access::Write);
    ctx.vm
        .persistent_terms
        .insert(MapKey(a[0].clone()), a[1].clone());
    Flow::Value(Term::Atom(Atom::new("ok")))
}

fn erase(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let existed = ctx
        .vm
        .persistent_terms
        .remove(&MapKey(a[0].clone()))
        .is_some();
    let text = format!("persistent_term:erase({}) -> {existed}", brief(&a[0]));
    ctx.emit_access(EventKind::Local, text, item(&a[0]), Access::Write);
    Flow::Value(Term::bool(existed))
}
