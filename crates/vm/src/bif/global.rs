//! `global` on one node: a second registry whose names are any term
//! (`SharedItem::Global(name as ~w)`); names go when their process dies.
//! Locks (`set_lock`, `del_lock`, `trans`, in prelude/global.erl over the
//! `racewit:global_lock/2` and `racewit:global_unlock/2` BIFs here): a lock
//! on a resource id is held by one requester id at a time, possibly from
//! several processes; a lock whose holders have all died is free.
//! Also `logger`/`error_logger` calls, accepted without output (the
//! differential runs use `-kernel logger_level none`).

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, tuple2};
use crate::event::{Access, EventKind, SharedItem};
use crate::format::brief;
use crate::term::{MapKey, Term};

fn gitem(name: &Term) -> SharedItem {
    SharedItem::Global(brief(name))
}

pub fn register(t: &mut Table) {
    t.ctx("global", "whereis_name", 1, |ctx, a| {
        let v = ctx.vm.global_names.get(&MapKey(a[0].clone())).copied();
        let shown = v
            .map(|p| ctx.name_of(p))
            .unwrap_or_else(|| "undefined".into());
        ctx.emit_access(
            EventKind::Registry,
            format!("global:whereis_name({}) -> {shown}", brief(&a[0])),
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
                brief(&a[0]),
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
            format!("global:unregister_name({})", brief(&a[0])),
            gitem(&a[0]),
            Access::Write,
        );
        ctx.vm.global_names.remove(&MapKey(a[0].clone()));
        Flow::Value(Term::ok())
    });
    t.ctx("global", "send", 2, |ctx, a| {
        let target = ctx.vm.global_names.get(&MapKey(a[0].clone())).copied();
        let text = format!("global:send({}, {})", brief(&a[0]), brief(&a[1]));
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
    t.ctx("racewit", "global_lock", 2, lock);
    t.ctx("racewit", "global_unlock", 2, unlock);

    // Logging is modelled in the prelude (`logger.erl`, `error_logger.erl`).
}

fn do_register(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(p) = a[1] else {
        return Flow::badarg();
    };
    let key = MapKey(a[0].clone());
    ctx.emit_access(
        EventKind::Registry,
        format!("global:register_name({}, {})", brief(&a[0]), ctx.name_of(p)),
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

fn lock_item(resource: &Term) -> SharedItem {
    SharedItem::Global(format!("lock {}", brief(resource)))
}

/// `racewit:global_lock(ResourceId, RequesterId)`: `true` when the lock is
/// free or already held for this requester (the caller is then one of its
/// holders), else `{held, Pid}` with a live holder, and the caller is
/// told `{'$racewit_global_free', ResourceId}` when the lock is released.
fn lock(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let key = MapKey(a[0].clone());
    let requester = MapKey(a[1].clone());
    let me = ctx.pid();
    let mut entry = ctx.vm.global_locks.get(&key).cloned().unwrap_or_default();
    entry.holders.retain(|&p| ctx.is_alive(p));
    let free = entry.holders.is_empty() || entry.requester.as_ref() == Some(&requester);
    let text = format!("global:set_lock({{{}, {}}})", brief(&a[0]), brief(&a[1]));
    if free {
        entry.requester = Some(requester);
        if !entry.holders.contains(&me) {
            entry.holders.push(me);
        }
        entry.waiters.retain(|&w| w != me);
        ctx.vm.global_locks.insert(key, entry);
        ctx.emit_access(EventKind::Registry, text, lock_item(&a[0]), Access::Write);
        return Flow::Value(Term::atom("true"));
    }
    let owner = entry.holders[0];
    if !entry.waiters.contains(&me) {
        entry.waiters.push(me);
    }
    ctx.vm.global_locks.insert(key, entry);
    // Joining the waiters changes nothing another process can see but who
    // is told at the release (a send, ordered there): a read of the lock.
    let shown = format!("{text} -> held by {}", ctx.name_of(owner));
    ctx.emit_access(EventKind::Registry, shown, lock_item(&a[0]), Access::Read);
    Flow::Value(tuple2(Term::atom("held"), Term::Pid(owner)))
}

/// `racewit:global_unlock(ResourceId, RequesterId)`: the caller no longer
/// holds the lock; when no live holder is left the waiters are told.
fn unlock(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let key = MapKey(a[0].clone());
    let me = ctx.pid();
    let text = format!("global:del_lock({{{}, {}}})", brief(&a[0]), brief(&a[1]));
    let Some(mut entry) = ctx.vm.global_locks.get(&key).cloned() else {
        ctx.emit_access(EventKind::Registry, text, lock_item(&a[0]), Access::Read);
        return Flow::Value(Term::atom("true"));
    };
    if entry.requester.as_ref() != Some(&MapKey(a[1].clone())) {
        ctx.emit_access(EventKind::Registry, text, lock_item(&a[0]), Access::Read);
        return Flow::Value(Term::atom("true"));
    }
    entry.holders.retain(|&p| p != me && ctx.is_alive(p));
    let woken = if entry.holders.is_empty() {
        let woken = std::mem::take(&mut entry.waiters);
        ctx.vm.global_locks.remove(&key);
        woken
    } else {
        ctx.vm.global_locks.insert(key, entry);
        Vec::new()
    };
    for &w in &woken {
        ctx.vm
            .deliver(w, tuple2(Term::atom("$racewit_global_free"), a[0].clone()));
    }
    ctx.emit_access(EventKind::Registry, text, lock_item(&a[0]), Access::Write);
    if let Some(ev) = ctx.event.as_mut() {
        ev.accesses.extend(
            woken
                .into_iter()
                .map(|w| (SharedItem::Mailbox(w), Access::Write)),
        );
    }
    Flow::Value(Term::atom("true"))
}
