//! `mnesia:*` dirty operations and the in-transaction operations, plus the
//! `racewit:mnesia_*` hooks the prelude's `mnesia:transaction/1` uses.

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, tuple2};
use crate::ets::{Kind, match_pattern};
use crate::event::{Access, EventKind, Exception, SharedItem};
use crate::format::brief;
use crate::term::Term;
use crate::{arith, bif};

/// The modelled application's API module: every `mnesia:*` built-in is
/// registered under it (see [`crate::library::MODELLED_APPLICATIONS`]).
const M: &str = crate::library::MNESIA.api;

pub fn register(t: &mut Table) {
    t.ctx(M, "start", 0, start);
    t.ctx(M, "stop", 0, stop);
    t.ctx(M, "create_schema", 1, ok1);
    t.ctx(M, "delete_schema", 1, ok1);
    t.ctx(M, "wait_for_tables", 2, ok2);
    t.ctx(M, "create_table", 2, create_table);
    t.ctx(M, "delete_table", 1, delete_table);
    t.ctx(M, "del_table_copy", 2, del_table_copy);
    t.ctx(M, "clear_table", 1, clear_table);
    t.ctx(M, "dirty_read", 2, dirty_read);
    t.ctx(M, "dirty_read", 1, dirty_read1);
    t.ctx(M, "dirty_write", 1, dirty_write1);
    t.ctx(M, "dirty_write", 2, dirty_write2);
    t.ctx(M, "dirty_delete", 2, dirty_delete);
    t.ctx(M, "dirty_delete", 1, dirty_delete1);
    t.ctx(M, "dirty_delete_object", 1, dirty_delete_object);
    t.ctx(M, "dirty_update_counter", 3, dirty_update_counter);
    t.ctx(M, "dirty_match_object", 1, dirty_match_object1);
    t.ctx(M, "dirty_match_object", 2, dirty_match_object2);
    t.ctx(M, "dirty_all_keys", 1, all_keys);
    t.ctx(M, "dirty_select", 2, select);
    t.ctx(M, "read", 1, tx_read1);
    t.ctx(M, "read", 2, tx_read);
    t.ctx(M, "read", 3, tx_read);
    t.ctx(M, "wread", 1, tx_read1);
    t.ctx(M, "write", 1, tx_write1);
    t.ctx(M, "write", 3, tx_write3);
    t.ctx(M, "delete", 1, tx_delete1);
    t.ctx(M, "delete", 3, tx_delete3);
    t.ctx(M, "delete_object", 1, tx_delete_object);
    t.ctx(M, "match_object", 1, tx_match_object);
    t.ctx(M, "select", 2, tx_select);
    t.ctx(M, "all_keys", 1, tx_all_keys);
    t.ctx(M, "table_info", 2, table_info);
    t.ctx(M, "system_info", 1, system_info);
    t.ctx("racewit", "mnesia_begin", 0, tx_begin);
    t.ctx(M, "is_transaction", 0, |ctx, _| {
        Flow::Value(Term::bool(ctx.proc.atomic > 0))
    });
    t.ctx(M, "dirty_update_counter", 2, |ctx, a| match &a[0] {
        Term::Tuple(x) if x.len() == 2 => {
            dirty_update_counter(ctx, &[x[0].clone(), x[1].clone(), a[1].clone()])
        }
        _ => Flow::badarg(),
    });
    t.ctx(M, "index_read", 3, |ctx, a| {
        if let Some(f) = require_tx(ctx) {
            return f;
        }
        index_read(ctx, a)
    });
    t.ctx(M, "dirty_index_read", 3, index_read);
    t.ctx(M, "dirty_index_match_object", 2, |ctx, a| {
        dirty_match_object1(ctx, &a[..1])
    });
    t.ctx(M, "index_match_object", 2, |ctx, a| {
        dirty_match_object1(ctx, &a[..1])
    });
    t.ctx(M, "match_object", 3, |ctx, a| {
        if let Some(f) = require_tx(ctx) {
            return f;
        }
        let Term::Atom(tab) = a[0] else {
            return Flow::badarg();
        };
        match_object(ctx, "match_object", a, tab, &a[1].clone())
    });
    t.ctx(M, "write_lock_table", 1, |_, _| Flow::Value(Term::ok()));
    t.ctx(M, "read_lock_table", 1, |_, _| Flow::Value(Term::ok()));
    t.ctx(M, "lock", 2, |_, _| {
        Flow::Value(Term::list(vec![Term::Atom(Atom::NONODE)]))
    });
    t.ctx(M, "add_table_index", 2, |_, _| {
        Flow::Value(tuple2(Term::Atom(Atom::ATOMIC), Term::ok()))
    });
    t.ctx(M, "dirty_first", 1, |ctx, a| key_walk(ctx, a, 0));
    t.ctx(M, "dirty_last", 1, |ctx, a| key_walk(ctx, a, 1));
    t.ctx(M, "dirty_next", 2, |ctx, a| key_walk(ctx, a, 2));
    t.ctx(M, "dirty_prev", 2, |ctx, a| key_walk(ctx, a, 3));
    t.ctx(M, "first", 1, |ctx, a| key_walk(ctx, a, 0));
    t.ctx(M, "last", 1, |ctx, a| key_walk(ctx, a, 1));
    t.ctx(M, "next", 2, |ctx, a| key_walk(ctx, a, 2));
    t.ctx(M, "prev", 2, |ctx, a| key_walk(ctx, a, 3));
    t.ctx("racewit", "mnesia_objects", 1, |ctx, a| {
        let Term::Atom(tab) = a[0] else {
            return Flow::badarg();
        };
        ev(ctx, "foldl", a, tab, None, Access::Read);
        match ctx.vm.mnesia.get(tab) {
            Some(t) => Flow::Value(Term::list(t.data.objects())),
            None => no_exists(ctx, vec![a[0].clone()]),
        }
    });
    t.ctx("racewit", "mnesia_commit", 0, tx_commit);
    t.ctx("racewit", "mnesia_abort", 0, tx_abort);
}

fn start(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    ctx.vm.mnesia.started = true;
    Flow::Value(Term::ok())
}
fn stop(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    ctx.vm.mnesia.started = false;
    Flow::Value(Term::atom("stopped"))
}
fn ok1(_: &mut Ctx<'_>, _: &[Term]) -> Flow {
    Flow::Value(Term::ok())
}
fn ok2(_: &mut Ctx<'_>, _: &[Term]) -> Flow {
    Flow::Value(Term::ok())
}

fn aborted(r: Term) -> Term {
    tuple2(Term::Atom(Atom::ABORTED), r)
}

/// A call on a mnesia table that does not exist: `{aborted, {no_exists,
/// Args}}`; its event met no table ([`crate::event::Event::absent`]).
fn no_exists(ctx: &mut Ctx<'_>, args: Vec<Term>) -> Flow {
    ctx.mark_absent();
    Flow::Raise(Exception::exit(aborted(tuple2(
        Term::atom("no_exists"),
        Term::list(args),
    ))))
}

fn create_table(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(name) = args[0] else {
        // A table is named by an atom.
        return Flow::Value(aborted(tuple2(Term::atom("bad_type"), args[0].clone())));
    };
    let Some(opts) = args[1].list_to_vec() else {
        return Flow::badarg();
    };
    let mut attrs = vec![Atom::new("key"), Atom::new("val")];
    let mut record_name = name;
    let mut kind = Kind::Set;
    // With no copies named, this node keeps the table in RAM; named copies
    // elsewhere only leave it `unknown` here.
    let mut storage: Option<Atom> = None;
    let mut copies_named = false;
    for o in &opts {
        if let Term::Tuple(t) = o
            && t.len() == 2
        {
            match t[0].as_atom().map(|a| a.name()) {
                Some(how @ ("ram_copies" | "disc_copies" | "disc_only_copies")) => {
                    let nodes = t[1].list_to_vec().unwrap_or_default();
                    copies_named |= !nodes.is_empty();
                    if nodes.iter().any(|n| n.as_atom() == Some(Atom::NONODE)) {
                        storage = Some(Atom::new(how));
                    }
                }
                Some("attributes") => {
                    attrs = t[1]
                        .list_to_vec()
                        .unwrap_or_default()
                        .iter()
                        .filter_map(|a| a.as_atom())
                        .collect()
                }
                Some("record_name") => record_name = t[1].as_atom().unwrap_or(name),
                Some("type") => {
                    kind = match t[1].as_atom().map(|a| a.name()) {
                        Some("bag") => Kind::Bag,
                        Some("ordered_set") => Kind::OrderedSet,
                        _ => Kind::Set,
                    }
                }
                _ => {}
            }
        }
    }
    ctx.emit_access(
        EventKind::Mnesia,
        format!("mnesia:create_table({}, ...)", brief(&args[0])),
        SharedItem::Mnesia {
            table: name.name().into(),
            key: None,
        },
        Access::Write,
    );
    if !ctx.vm.mnesia.started {
        return Flow::Value(aborted(tuple2(
            Term::atom("node_not_running"),
            Term::Atom(Atom::NONODE),
        )));
    }
    if ctx.vm.mnesia.get(name).is_some() {
        return Flow::Value(aborted(tuple2(
            Term::atom("already_exists"),
            Term::Atom(name),
        )));
    }
    let storage = storage.unwrap_or_else(|| {
        Atom::new(if copies_named {
            "unknown"
        } else {
            "ram_copies"
        })
    });
    ctx.vm
        .mnesia
        .create(name, record_name, attrs, kind, storage);
    Flow::Value(tuple2(Term::Atom(Atom::ATOMIC), Term::ok()))
}

fn delete_table(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(name) = args[0] else {
        return Flow::badarg();
    };
    ctx.emit_access(
        EventKind::Mnesia,
        format!("mnesia:delete_table({})", brief(&args[0])),
        SharedItem::Mnesia {
            table: name.name().into(),
            key: None,
        },
        Access::Write,
    );
    if ctx.vm.mnesia.tables.remove(&name).is_none() {
        ctx.mark_absent();
        return Flow::Value(aborted(tuple2(Term::atom("no_exists"), Term::Atom(name))));
    }
    Flow::Value(tuple2(Term::Atom(Atom::ATOMIC), Term::ok()))
}

/// `mnesia:del_table_copy(Tab, Node)`. The one node there is holds the
/// only copy of each table it keeps, so deleting this node's copy deletes
/// the table, as mnesia does with a table's last copy; a table with no
/// copy on `Node` (another node, or copies only elsewhere) answers
/// `{aborted, {badarg, Tab, unknown}}`, its storage type there.
fn del_table_copy(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let existing = match args[0] {
        Term::Atom(name) => ctx.vm.mnesia.get(name).map(|t| (name, t.storage)),
        _ => None,
    };
    if let Term::Atom(name) = args[0] {
        ctx.emit_access(
            EventKind::Mnesia,
            format!(
                "mnesia:del_table_copy({}, {})",
                brief(&args[0]),
                brief(&args[1])
            ),
            SharedItem::Mnesia {
                table: name.name().into(),
                key: None,
            },
            Access::Write,
        );
    }
    let Some((name, storage)) = existing else {
        return Flow::Value(aborted(tuple2(
            Term::atom("no_exists"),
            tuple2(args[0].clone(), Term::atom("cstruct")),
        )));
    };
    let Term::Atom(node) = args[1] else {
        return Flow::Value(aborted(Term::tuple(vec![
            Term::atom("badarg"),
            Term::Atom(name),
            args[1].clone(),
        ])));
    };
    if node != Atom::NONODE || storage.name() == "unknown" {
        return Flow::Value(aborted(Term::tuple(vec![
            Term::atom("badarg"),
            Term::Atom(name),
            Term::atom("unknown"),
        ])));
    }
    ctx.vm.mnesia.tables.remove(&name);
    Flow::Value(tuple2(Term::Atom(Atom::ATOMIC), Term::ok()))
}

fn clear_table(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(name) = args[0] else {
        return Flow::badarg();
    };
    ev(ctx, "clear_table", args, name, None, Access::Write);
    match ctx.vm.mnesia.get_mut(name) {
        Some(t) => {
            t.data.data = imbl::OrdMap::new();
            t.data.size = 0;
            Flow::Value(tuple2(Term::Atom(Atom::ATOMIC), Term::ok()))
        }
        None => {
            ctx.mark_absent();
            Flow::Value(aborted(tuple2(Term::atom("no_exists"), Term::Atom(name))))
        }
    }
}

fn ev(ctx: &mut Ctx<'_>, f: &str, args: &[Term], table: Atom, key: Option<&Term>, access: Access) {
    // A dirty operation takes no lock: inside a transaction it is still a
    // step of its own, which other processes may come before or after.
    if ctx.proc.atomic > 0 && f.starts_with("dirty_") {
        ctx.proc.yield_in_atomic = true;
    }
    let text = format!(
        "mnesia:{}({})",
        f,
        args.iter().map(brief).collect::<Vec<_>>().join(", ")
    );
    ctx.emit_access(
        EventKind::Mnesia,
        text,
        SharedItem::Mnesia {
            table: table.name().into(),
            key: key.map(brief),
        },
        access,
    );
}

fn read(ctx: &mut Ctx<'_>, f: &str, args: &[Term], tab: &Term, key: &Term) -> Flow {
    let Term::Atom(name) = tab else {
        return Flow::badarg();
    };
    ev(ctx, f, args, *name, Some(key), Access::Read);
    match ctx.vm.mnesia.get(*name) {
        Some(t) => Flow::Value(Term::list(t.data.lookup(key))),
        // In a transaction the abort names the table only.
        None if f == "read" => {
            ctx.mark_absent();
            Flow::Raise(Exception::exit(aborted(tuple2(
                Term::atom("no_exists"),
                tab.clone(),
            ))))
        }
        None => no_exists(ctx, vec![tab.clone(), key.clone()]),
    }
}

fn dirty_read(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    read(ctx, "dirty_read", args, &args[0], &args[1])
}

fn tab_key(t: &Term) -> Option<(Term, Term)> {
    match t {
        Term::Tuple(x) if x.len() == 2 => Some((x[0].clone(), x[1].clone())),
        _ => None,
    }
}

fn dirty_read1(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Some((t, k)) = tab_key(&args[0]) else {
        return Flow::badarg();
    };
    read(ctx, "dirty_read", args, &t, &k)
}

fn write(ctx: &mut Ctx<'_>, f: &str, args: &[Term], tab: Option<Atom>, rec: &Term) -> Flow {
    let Term::Tuple(items) = rec else {
        return Flow::badarg();
    };
    if items.len() < 2 {
        return Flow::badarg();
    }
    let Some(rname) = items[0].as_atom() else {
        return Flow::badarg();
    };
    let tab = tab.unwrap_or(rname);
    ev(ctx, f, args, tab, Some(&items[1]), Access::Write);
    match ctx.vm.mnesia.get_mut(tab) {
        Some(t) => {
            if t.attributes.len() + 1 != items.len() || t.record_name != rname {
                return Flow::Raise(Exception::exit(aborted(tuple2(
                    Term::atom("bad_type"),
                    rec.clone(),
                ))));
            }
            t.data.insert(rec.clone());
            Flow::Value(Term::ok())
        }
        None => {
            ctx.mark_absent();
            Flow::Raise(Exception::exit(aborted(tuple2(
                Term::atom("no_exists"),
                Term::Atom(tab),
            ))))
        }
    }
}

fn dirty_write1(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    write(ctx, "dirty_write", args, None, &args[0])
}

fn dirty_write2(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(t) = args[0] else {
        return Flow::badarg();
    };
    write(ctx, "dirty_write", args, Some(t), &args[1])
}

fn delete(ctx: &mut Ctx<'_>, f: &str, args: &[Term], tab: &Term, key: &Term) -> Flow {
    let Term::Atom(name) = tab else {
        return Flow::badarg();
    };
    ev(ctx, f, args, *name, Some(key), Access::Write);
    match ctx.vm.mnesia.get_mut(*name) {
        Some(t) => {
            t.data.delete_key(key);
            Flow::Value(Term::ok())
        }
        None => no_exists(ctx, vec![tab.clone(), key.clone()]),
    }
}

fn dirty_delete(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    delete(ctx, "dirty_delete", args, &args[0], &args[1])
}

fn dirty_delete1(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Some((t, k)) = tab_key(&args[0]) else {
        return Flow::badarg();
    };
    delete(ctx, "dirty_delete", args, &t, &k)
}

fn delete_object(ctx: &mut Ctx<'_>, f: &str, args: &[Term], rec: &Term) -> Flow {
    let Term::Tuple(items) = rec else {
        return Flow::badarg();
    };
    let (Some(tab), Some(key)) = (items.first().and_then(|t| t.as_atom()), items.get(1)) else {
        return Flow::badarg();
    };
    ev(ctx, f, args, tab, Some(key), Access::Write);
    if let Some(t) = ctx.vm.mnesia.get_mut(tab) {
        t.data.delete_object(rec);
    }
    Flow::Value(Term::ok())
}

fn dirty_delete_object(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    delete_object(ctx, "dirty_delete_object", args, &args[0])
}

fn dirty_update_counter(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(name) = args[0] else {
        return Flow::badarg();
    };
    ev(
        ctx,
        "dirty_update_counter",
        args,
        name,
        Some(&args[1]),
        Access::Write,
    );
    let Some(t) = ctx.vm.mnesia.get_mut(name) else {
        return no_exists(ctx, vec![args[0].clone(), args[1].clone()]);
    };
    let new = match t.data.lookup(&args[1]).into_iter().next() {
        Some(Term::Tuple(items)) if items.len() >= 3 => {
            match arith::binop(racewit_syntax::ir::BinOp::Add, &items[2], &args[2]) {
                Ok(v) => v,
                Err(_) => return Flow::badarg(),
            }
        }
        _ => args[2].clone(),
    };
    let rn = t.record_name;
    t.data.insert(Term::tuple(vec![
        Term::Atom(rn),
        args[1].clone(),
        new.clone(),
    ]));
    Flow::Value(new)
}

fn match_object(ctx: &mut Ctx<'_>, f: &str, args: &[Term], tab: Atom, pat: &Term) -> Flow {
    ev(ctx, f, args, tab, None, Access::Read);
    let Some(t) = ctx.vm.mnesia.get(tab) else {
        return no_exists(ctx, vec![Term::Atom(tab)]);
    };
    let v: Vec<Term> = t
        .data
        .objects()
        .into_iter()
        .filter(|o| match_pattern(pat, o, &mut Vec::new()))
        .collect();
    Flow::Value(Term::list(v))
}

fn dirty_match_object1(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Some(tab) = args[0]
        .as_tuple()
        .and_then(|t| t.first())
        .and_then(|a| a.as_atom())
    else {
        return Flow::badarg();
    };
    match_object(ctx, "dirty_match_object", args, tab, &args[0].clone())
}

fn dirty_match_object2(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(tab) = args[0] else {
        return Flow::badarg();
    };
    match_object(ctx, "dirty_match_object", args, tab, &args[1].clone())
}

fn all_keys(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(tab) = args[0] else {
        return Flow::badarg();
    };
    ev(ctx, "all_keys", args, tab, None, Access::Read);
    let Some(t) = ctx.vm.mnesia.get(tab) else {
        return no_exists(ctx, vec![args[0].clone()]);
    };
    Flow::Value(Term::list(
        t.data.data.keys().map(|k| k.term.clone()).collect(),
    ))
}

fn select(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(tab) = args[0] else {
        return Flow::badarg();
    };
    ev(ctx, "select", args, tab, None, Access::Read);
    let spec = &args[1];
    if !bif::ets::table_spec_ok(spec) {
        return Flow::badarg();
    }
    let env = bif::ets::ms_env(ctx.pid());
    let Some(t) = ctx.vm.mnesia.get(tab) else {
        return no_exists(ctx, vec![args[0].clone()]);
    };
    let out = t
        .data
        .objects()
        .iter()
        .filter_map(|o| bif::ets::run_match_spec(spec, o, &env))
        .collect();
    Flow::Value(Term::list(out))
}

fn index_read(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let (Term::Atom(tab), Term::Int(pos)) = (&a[0], &a[2]) else {
        return Flow::badarg();
    };
    ev(ctx, "index_read", a, *tab, None, Access::Read);
    let Some(t) = ctx.vm.mnesia.get(*tab) else {
        return no_exists(ctx, vec![a[0].clone()]);
    };
    let v: Vec<Term> = t
        .data
        .objects()
        .into_iter()
        .filter(|o| matches!(o, Term::Tuple(x) if x.len() >= *pos as usize && *pos >= 1 && crate::term::exact_eq(&x[*pos as usize - 1], &a[1])))
        .collect();
    Flow::Value(Term::list(v))
}

fn key_walk(ctx: &mut Ctx<'_>, a: &[Term], how: u8) -> Flow {
    let Term::Atom(tab) = a[0] else {
        return Flow::badarg();
    };
    ev(ctx, "dirty_first", a, tab, None, Access::Read);
    let Some(t) = ctx.vm.mnesia.get(tab) else {
        return no_exists(ctx, vec![a[0].clone()]);
    };
    let v = match how {
        0 => t.data.first(),
        1 => t.data.last(),
        2 => t.data.next(&a[1]),
        _ => t.data.prev(&a[1]),
    };
    Flow::Value(v.unwrap_or(Term::Atom(Atom::END_OF_TABLE)))
}

/// A transactional operation: outside a transaction (or a dirty activity)
/// it aborts with `no_transaction`. Inside one it takes the transaction
/// lock; if another process's transaction holds it (that transaction is
/// between steps, after a dirty operation), this one restarts when the
/// lock is free, as mnesia restarts a transaction that meets a held lock.
fn require_tx(ctx: &mut Ctx<'_>) -> Option<Flow> {
    let in_activity = ctx
        .proc
        .dict
        .contains_key(&crate::term::MapKey(Term::atom("$racewit_mnesia_activity")));
    if ctx.proc.atomic == 0 {
        return (!in_activity)
            .then(|| Flow::Raise(Exception::exit(aborted(Term::atom("no_transaction")))));
    }
    let me = ctx.pid();
    match ctx.vm.mnesia.tx_owner {
        Some(owner) if owner != me && ctx.is_alive(owner) => {
            if !ctx.vm.mnesia.tx_waiters.contains(&me) {
                ctx.vm.mnesia.tx_waiters.push(me);
            }
            let text = format!("mnesia: lock held by {}, restart", ctx.name_of(owner));
            ctx.emit_access(EventKind::Mnesia, text, tx_lock(), Access::Write);
            Some(Flow::Raise(Exception::exit(Term::atom(
                "$racewit_mnesia_restart",
            ))))
        }
        Some(owner) if owner == me => None,
        _ => {
            ctx.vm.mnesia.tx_owner = Some(me);
            None
        }
    }
}

fn tx_read(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    read(ctx, "read", args, &args[0], &args[1])
}
fn tx_read1(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    let Some((t, k)) = tab_key(&args[0]) else {
        return Flow::badarg();
    };
    read(ctx, "read", args, &t, &k)
}
fn tx_write1(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    write(ctx, "write", args, None, &args[0])
}
fn tx_write3(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    let Term::Atom(t) = args[0] else {
        return Flow::badarg();
    };
    write(ctx, "write", args, Some(t), &args[1])
}
fn tx_delete1(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    let Some((t, k)) = tab_key(&args[0]) else {
        return Flow::badarg();
    };
    delete(ctx, "delete", args, &t, &k)
}
fn tx_delete3(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    delete(ctx, "delete", args, &args[0], &args[1])
}
fn tx_delete_object(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    delete_object(ctx, "delete_object", args, &args[0])
}
fn tx_match_object(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    dirty_match_object1(ctx, args)
}
fn tx_select(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    select(ctx, args)
}
fn tx_all_keys(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if let Some(f) = require_tx(ctx) {
        return f;
    }
    all_keys(ctx, args)
}

fn table_info(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let (Term::Atom(tab), Term::Atom(item)) = (&args[0], &args[1]) else {
        return Flow::badarg();
    };
    let Some(t) = ctx.vm.mnesia.get(*tab) else {
        return Flow::Raise(Exception::exit(aborted(Term::tuple(vec![
            Term::atom("no_exists"),
            args[0].clone(),
            args[1].clone(),
        ]))));
    };
    let v = match item.name() {
        "attributes" => Term::list(t.attributes.iter().map(|a| Term::Atom(*a)).collect()),
        "record_name" => Term::Atom(t.record_name),
        "wild_pattern" => {
            let mut v = vec![Term::Atom(t.record_name)];
            v.extend(t.attributes.iter().map(|_| Term::atom("_")));
            Term::tuple(v)
        }
        "size" => Term::Int(t.data.size as i64),
        "arity" => Term::Int(t.attributes.len() as i64 + 1),
        "storage_type" => Term::Atom(t.storage),
        how @ ("ram_copies" | "disc_copies" | "disc_only_copies") => {
            let here = t.storage.name() == how;
            Term::list(if here {
                vec![Term::Atom(Atom::NONODE)]
            } else {
                Vec::new()
            })
        }
        "type" => Term::atom(match t.data.kind {
            Kind::Bag | Kind::DuplicateBag => "bag",
            Kind::OrderedSet => "ordered_set",
            Kind::Set => "set",
        }),
        _ => return Flow::badarg(),
    };
    Flow::Value(v)
}

fn system_info(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let v = match args[0].as_atom().map(|a| a.name()) {
        Some("running_db_nodes" | "db_nodes") => Term::list(vec![Term::Atom(Atom::NONODE)]),
        Some("tables") => Term::list(
            ctx.vm
                .mnesia
                .tables
                .keys()
                .map(|a| Term::Atom(*a))
                .collect(),
        ),
        Some("is_running") => Term::atom(if ctx.vm.mnesia.started { "yes" } else { "no" }),
        _ => return Flow::badarg(),
    };
    Flow::Value(v)
}

/// The item transactions take turns on.
fn tx_lock() -> SharedItem {
    SharedItem::Mnesia {
        table: "transaction lock".into(),
        key: None,
    }
}

/// Begins a transaction level. The lock is taken by its first
/// transactional operation (a transaction of dirty operations takes none).
fn tx_begin(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    let snap = ctx.vm.mnesia.clone();
    ctx.proc.mnesia_tx.push(snap);
    ctx.proc.atomic += 1;
    ctx.emit(EventKind::Mnesia, "mnesia:transaction begin".into());
    Flow::Value(Term::ok())
}

/// Ends a transaction level; the outermost releases the lock if it held
/// it and tells the processes waiting for it.
fn tx_end(ctx: &mut Ctx<'_>, text: &str) {
    ctx.proc.atomic = ctx.proc.atomic.saturating_sub(1);
    let me = ctx.pid();
    if ctx.proc.atomic > 0 || ctx.vm.mnesia.tx_owner != Some(me) {
        ctx.emit(EventKind::Mnesia, text.into());
        return;
    }
    ctx.vm.mnesia.tx_owner = None;
    let woken = std::mem::take(&mut ctx.vm.mnesia.tx_waiters);
    for &w in &woken {
        ctx.vm.deliver(w, Term::atom("$racewit_mnesia_free"));
    }
    ctx.emit_access(EventKind::Mnesia, text.into(), tx_lock(), Access::Write);
    if let Some(ev) = ctx.event.as_mut() {
        ev.accesses.extend(
            woken
                .into_iter()
                .map(|w| (SharedItem::Mailbox(w), Access::Write)),
        );
    }
}

fn tx_commit(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    ctx.proc.mnesia_tx.pop();
    tx_end(ctx, "commit");
    Flow::Value(Term::ok())
}

fn tx_abort(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    if let Some(mut s) = ctx.proc.mnesia_tx.pop() {
        // The lock is not part of what an abort undoes.
        s.tx_owner = ctx.vm.mnesia.tx_owner;
        s.tx_waiters = std::mem::take(&mut ctx.vm.mnesia.tx_waiters);
        ctx.vm.mnesia = s;
    }
    tx_end(ctx, "abort");
    Flow::Value(Term::ok())
}
