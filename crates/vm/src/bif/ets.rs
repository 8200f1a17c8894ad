//! `ets:*`: every call is a visible read or write of a table (and key).

use crate::arith;
use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, tuple2};
use crate::ets::{Kind, Protection, Table as EtsTable, match_pattern};
use crate::event::{Access, EventKind, SharedItem};
use crate::format::brief;
use crate::match_spec::{self, Dialect, Subject};
use crate::term::{Term, exact_eq};

pub fn register(t: &mut Table) {
    t.ctx("ets", "new", 2, new);
    t.ctx("ets", "insert", 2, insert);
    t.ctx("ets", "insert_new", 2, insert_new);
    t.ctx("ets", "lookup", 2, lookup);
    t.ctx("ets", "lookup_element", 3, lookup_element);
    t.ctx("ets", "member", 2, member);
    t.ctx("ets", "delete", 1, delete_table);
    t.ctx("ets", "delete", 2, delete_key);
    t.ctx("ets", "delete_object", 2, delete_object);
    t.ctx("ets", "delete_all_objects", 1, delete_all);
    t.ctx("ets", "update_counter", 3, update_counter3);
    t.ctx("ets", "update_counter", 4, update_counter4);
    t.ctx("ets", "update_element", 3, update_element);
    t.ctx("ets", "match", 2, match2);
    t.ctx("ets", "match_object", 2, match_object);
    t.ctx("ets", "match_delete", 2, match_delete);
    t.ctx("ets", "select", 2, select);
    t.ctx("ets", "select_count", 2, select_count);
    t.ctx("ets", "select_delete", 2, select_delete);
    t.ctx("ets", "tab2list", 1, tab2list);
    t.ctx("ets", "info", 1, info1);
    t.ctx("ets", "info", 2, info2);
    t.ctx("ets", "first", 1, first);
    t.ctx("ets", "last", 1, last);
    t.ctx("ets", "next", 2, next);
    t.ctx("ets", "prev", 2, prev);
    t.ctx("ets", "take", 2, take);
    t.ctx("ets", "whereis", 1, whereis);
    t.ctx("ets", "all", 0, all);
    t.ctx("ets", "give_away", 3, give_away);
    t.ctx("ets", "rename", 2, rename);
    t.ctx("ets", "select", 3, select3);
    t.ctx("ets", "select", 1, select1);
    t.ctx("ets", "match", 1, select1);
    t.ctx("ets", "match_object", 1, select1);
    t.ctx("ets", "match", 3, |ctx, a| {
        let spec = Term::list(vec![Term::tuple(vec![
            a[1].clone(),
            Term::Nil,
            Term::list(vec![Term::atom("$$")]),
        ])]);
        select3(ctx, &[a[0].clone(), spec, a[2].clone()])
    });
    t.ctx("ets", "match_object", 3, |ctx, a| {
        let spec = Term::list(vec![Term::tuple(vec![
            a[1].clone(),
            Term::Nil,
            Term::list(vec![Term::atom("$_")]),
        ])]);
        select3(ctx, &[a[0].clone(), spec, a[2].clone()])
    });
    t.ctx("ets", "select_reverse", 2, select_reverse);
    t.ctx("ets", "setopts", 2, setopts);
    t.ctx("ets", "safe_fixtable", 2, safe_fixtable);
}

fn item(t: &EtsTable, key: Option<&Term>) -> SharedItem {
    SharedItem::Ets {
        table: t.label(),
        key: key.map(brief),
    }
}

fn args_text(args: &[Term]) -> String {
    let mut text = String::new();
    push_args(args, &mut text);
    text
}

/// Appends the arguments, each [`brief`], separated by commas.
fn push_args(args: &[Term], out: &mut String) {
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        crate::format::brief_into(a, out);
    }
}

/// Resolve the table and check access; records the event either way. A
/// call refused (no such table, or a write to another process's protected
/// or private table) changes nothing: it only reads the table's state, as a
/// `register/2` of a taken name does, so it is recorded as a read.
fn table_for(
    ctx: &mut Ctx<'_>,
    fname: &str,
    args: &[Term],
    key: Option<&Term>,
    access: Access,
) -> Result<u64, Flow> {
    let id = ctx.vm.ets.resolve(&args[0]);
    // Written in one buffer: this text is made at every ETS step.
    let mut text = String::with_capacity(64);
    text.push_str("ets:");
    text.push_str(fname);
    text.push('(');
    push_args(args, &mut text);
    text.push(')');
    let Some(id) = id else {
        let label = match &args[0] {
            Term::Atom(a) => crate::format::atom_text(*a),
            other => brief(other),
        };
        ctx.emit_access(
            EventKind::Ets,
            format!("{text} -> badarg"),
            SharedItem::Ets {
                table: label,
                key: key.map(brief),
            },
            Access::Read,
        );
        ctx.mark_absent();
        return Err(Flow::badarg());
    };
    let t = ctx.vm.ets.get(id).expect("resolved");
    let it = item(t, key);
    let owner = t.owner == ctx.pid();
    let allowed = match (t.protection, access) {
        (Protection::Public, _) => true,
        (Protection::Protected, Access::Read) => true,
        _ => owner,
    };
    ctx.emit_access(
        EventKind::Ets,
        text,
        it,
        if allowed { access } else { Access::Read },
    );
    if !allowed {
        if let Some(ev) = ctx.event.as_mut() {
            ev.text.push_str(" -> badarg");
        }
        return Err(Flow::badarg());
    }
    Ok(id)
}

fn result(ctx: &mut Ctx<'_>, v: Term) -> Flow {
    if let Some(ev) = ctx.event.as_mut() {
        let s = brief(&v);
        if s.len() <= 200 {
            ev.text.push_str(" -> ");
            ev.text.push_str(&s);
        }
    }
    Flow::Value(v)
}

fn new(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(name) = args[0] else {
        return Flow::badarg();
    };
    let Some(opts) = args[1].list_to_vec() else {
        return Flow::badarg();
    };
    let mut kind = Kind::Set;
    let mut prot = Protection::Protected;
    let mut named = false;
    let mut keypos = 1usize;
    let mut heir = None;
    for o in &opts {
        match o {
            Term::Atom(a) => match a.name() {
                "set" => kind = Kind::Set,
                "ordered_set" => kind = Kind::OrderedSet,
                "bag" => kind = Kind::Bag,
                "duplicate_bag" => kind = Kind::DuplicateBag,
                "public" => prot = Protection::Public,
                "protected" => prot = Protection::Protected,
                "private" => prot = Protection::Private,
                "named_table" => named = true,
                "compressed" => {}
                _ => return Flow::badarg(),
            },
            Term::Tuple(t) if t.len() == 2 => match (t[0].as_atom().map(|a| a.name()), &t[1]) {
                (Some("keypos"), Term::Int(n)) if *n >= 1 => keypos = *n as usize,
                (Some("read_concurrency" | "write_concurrency" | "decentralized_counters"), _) => {}
                (Some("heir"), _) => {}
                _ => return Flow::badarg(),
            },
            Term::Tuple(t) if t.len() == 3 && t[0].is_atom(Atom::new("heir")) => {
                // An heir that is gone already is no heir (as on the BEAM).
                if let Term::Pid(p) = t[1] {
                    heir = ctx.is_alive(p).then(|| (p, t[2].clone()));
                }
            }
            _ => return Flow::badarg(),
        }
    }
    let label = crate::format::atom_text(name);
    let text = format!("ets:new({}, {})", label, brief(&args[1]));
    ctx.emit_access(
        EventKind::Ets,
        text,
        SharedItem::Ets {
            table: label,
            key: None,
        },
        Access::Write,
    );
    if named && ctx.vm.ets.names.contains_key(&name) {
        if let Some(ev) = ctx.event.as_mut() {
            ev.text.push_str(" -> badarg");
        }
        return Flow::badarg();
    }
    let id = ctx.vm.new_ref();
    let mut t = EtsTable::new(id, name, named, kind, prot, ctx.pid(), keypos);
    t.heir = heir;
    let idt = t.id_term();
    if !named && let Some(ev) = ctx.event.as_mut() {
        ev.item = Some(item(&t, None));
        ev.accesses = vec![(item(&t, None), Access::Write)];
    }
    ctx.vm.ets.tables.insert(id, std::sync::Arc::new(t));
    if named {
        ctx.vm.ets.names.insert(name, id);
    }
    result(ctx, idt)
}

fn objects_arg(t: &Term) -> Option<Vec<Term>> {
    match t {
        Term::Tuple(_) => Some(vec![t.clone()]),
        Term::Nil | Term::Cons(_) => t.list_to_vec(),
        _ => None,
    }
}

fn single_key(ctx: &Ctx<'_>, args: &[Term]) -> Option<Term> {
    let objs = objects_arg(&args[1])?;
    let id = ctx.vm.ets.resolve(&args[0])?;
    let t = ctx.vm.ets.get(id)?;
    if objs.len() == 1 {
        t.key_of(&objs[0])
    } else {
        None
    }
}

/// Words of a table entry besides its object (the memory budget's count).
const ENTRY_WORDS: u64 = 8;

fn insert(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let key = single_key(ctx, args);
    let id = match table_for(ctx, "insert", args, key.as_ref(), Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let Some(objs) = objects_arg(&args[1]) else {
        return Flow::badarg();
    };
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    if objs.iter().any(|o| t.key_of(o).is_none()) {
        return Flow::badarg();
    }
    let n = objs.len() as u64;
    for o in objs {
        t.insert(o);
    }
    ctx.vm.note_alloc(ENTRY_WORDS * n);
    result(ctx, Term::bool(true))
}

fn insert_new(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let key = single_key(ctx, args);
    let id = match table_for(ctx, "insert_new", args, key.as_ref(), Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let Some(objs) = objects_arg(&args[1]) else {
        return Flow::badarg();
    };
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    if objs.iter().any(|o| t.key_of(o).is_none()) {
        return Flow::badarg();
    }
    let exists = objs.iter().any(|o| {
        let k = t.key_of(o).expect("checked");
        !t.lookup(&k).is_empty()
    });
    if exists {
        if let Some(ev) = ctx.event.as_mut() {
            // A failed insert_new only read the table.
            ev.access = Some(Access::Read);
            for a in &mut ev.accesses {
                a.1 = Access::Read;
            }
        }
        return result(ctx, Term::bool(false));
    }
    let n = objs.len() as u64;
    for o in objs {
        t.insert(o);
    }
    ctx.vm.note_alloc(ENTRY_WORDS * n);
    result(ctx, Term::bool(true))
}

fn lookup(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "lookup", args, Some(&args[1]), Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let v = ctx.vm.ets.get(id).expect("resolved").lookup(&args[1]);
    result(ctx, Term::list(v))
}

fn lookup_element(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "lookup_element", args, Some(&args[1]), Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let Term::Int(pos) = args[2] else {
        return Flow::badarg();
    };
    let t = ctx.vm.ets.get(id).expect("resolved");
    let objs = t.lookup(&args[1]);
    if objs.is_empty() || pos < 1 {
        return Flow::badarg();
    }
    let mut vals = Vec::new();
    for o in &objs {
        match o {
            Term::Tuple(items) if items.len() >= pos as usize => {
                vals.push(items[pos as usize - 1].clone())
            }
            _ => return Flow::badarg(),
        }
    }
    let v = match t.kind {
        Kind::Set | Kind::OrderedSet => vals.remove(0),
        _ => Term::list(vals),
    };
    result(ctx, v)
}

fn member(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "member", args, Some(&args[1]), Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let v = !ctx
        .vm
        .ets
        .get(id)
        .expect("resolved")
        .lookup(&args[1])
        .is_empty();
    result(ctx, Term::bool(v))
}

/// `ets:safe_fixtable/2`: this VM keeps every table in key order and
/// `next/2` finds the key after any term, present or deleted, so a
/// traversal is always as safe as a fixed one's and fixing changes
/// nothing but the answer: `true`, or `badarg` for a table the caller cannot read.
fn safe_fixtable(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    if !(args[1].is_atom(Atom::TRUE) || args[1].is_atom(Atom::FALSE)) {
        return Flow::badarg();
    }
    if let Err(f) = table_for(ctx, "safe_fixtable", args, None, Access::Read) {
        return f;
    }
    result(ctx, Term::bool(true))
}

fn delete_table(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "delete", args, None, Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    // Only the owner may delete a table that is not public... the BEAM lets the owner only for
    // protected/private, anyone for public.
    ctx.vm.ets.delete(id);
    result(ctx, Term::bool(true))
}

fn delete_key(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "delete", args, Some(&args[1]), Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    ctx.vm
        .ets
        .get_mut(id)
        .expect("resolved")
        .delete_key(&args[1]);
    result(ctx, Term::bool(true))
}

fn delete_object(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let key = ctx
        .vm
        .ets
        .resolve(&args[0])
        .and_then(|id| ctx.vm.ets.get(id))
        .and_then(|t| t.key_of(&args[1]));
    let id = match table_for(ctx, "delete_object", args, key.as_ref(), Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    ctx.vm
        .ets
        .get_mut(id)
        .expect("resolved")
        .delete_object(&args[1]);
    result(ctx, Term::bool(true))
}

fn delete_all(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "delete_all_objects", args, None, Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    t.data = imbl::OrdMap::new();
    t.size = 0;
    result(ctx, Term::bool(true))
}

fn update_counter3(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    update_counter(ctx, args, None)
}

fn update_counter4(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    update_counter(ctx, args, Some(args[3].clone()))
}

fn update_counter(ctx: &mut Ctx<'_>, args: &[Term], default: Option<Term>) -> Flow {
    let id = match table_for(ctx, "update_counter", args, Some(&args[1]), Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    if matches!(t.kind, Kind::Bag | Kind::DuplicateBag) {
        return Flow::badarg();
    }
    let mut obj = match t.lookup(&args[1]).into_iter().next() {
        Some(o) => o,
        None => match &default {
            Some(d) => {
                let Term::Tuple(items) = d else {
                    return Flow::badarg();
                };
                if items.len() < t.keypos {
                    return Flow::badarg();
                }
                let mut items = items.to_vec();
                items[t.keypos - 1] = args[1].clone();
                Term::tuple(items)
            }
            None => return Flow::badarg(),
        },
    };
    // Operations: Incr | {Pos, Incr} | {Pos, Incr, Threshold, SetValue} | [Op].
    let (ops, many) = match &args[2] {
        Term::Nil | Term::Cons(_) => (args[2].list_to_vec().unwrap_or_default(), true),
        other => (vec![other.clone()], false),
    };
    let keypos = t.keypos;
    let mut results = Vec::new();
    for op in ops {
        let (pos, incr, clamp) = match &op {
            Term::Int(_) | Term::Big(_) => (keypos + 1, op.clone(), None),
            Term::Tuple(x) if x.len() == 2 => match &x[0] {
                Term::Int(p) => (*p as usize, x[1].clone(), None),
                _ => return Flow::badarg(),
            },
            Term::Tuple(x) if x.len() == 4 => match &x[0] {
                Term::Int(p) => (
                    *p as usize,
                    x[1].clone(),
                    Some((x[2].clone(), x[3].clone())),
                ),
                _ => return Flow::badarg(),
            },
            _ => return Flow::badarg(),
        };
        let Term::Tuple(items) = &obj else {
            return Flow::badarg();
        };
        if pos == keypos || pos < 1 || pos > items.len() || !incr.is_integer() {
            return Flow::badarg();
        }
        let cur = &items[pos - 1];
        if !cur.is_integer() {
            return Flow::badarg();
        }
        let mut new = match arith::binop(racewit_syntax::ir::BinOp::Add, cur, &incr) {
            Ok(v) => v,
            Err(_) => return Flow::badarg(),
        };
        if let Some((threshold, set)) = clamp {
            let up = !matches!(
                arith::binop(racewit_syntax::ir::BinOp::Less, &incr, &Term::Int(0)),
                Ok(Term::Atom(Atom::TRUE))
            );
            let over = if up {
                arith::binop(racewit_syntax::ir::BinOp::Greater, &new, &threshold)
            } else {
                arith::binop(racewit_syntax::ir::BinOp::Less, &new, &threshold)
            };
            if matches!(over, Ok(Term::Atom(Atom::TRUE))) {
                new = set;
            }
        }
        let mut v = items.to_vec();
        v[pos - 1] = new.clone();
        obj = Term::tuple(v);
        results.push(new);
    }
    t.insert(obj);
    let v = if many {
        Term::list(results)
    } else {
        results.pop().unwrap_or(Term::Nil)
    };
    result(ctx, v)
}

fn update_element(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "update_element", args, Some(&args[1]), Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    if matches!(t.kind, Kind::Bag | Kind::DuplicateBag) {
        return Flow::badarg();
    }
    let ops = match &args[2] {
        Term::Tuple(_) => vec![args[2].clone()],
        other => match other.list_to_vec() {
            Some(v) => v,
            None => return Flow::badarg(),
        },
    };
    let Some(obj) = t.lookup(&args[1]).into_iter().next() else {
        return result(ctx, Term::bool(false));
    };
    let Term::Tuple(items) = &obj else {
        return Flow::badarg();
    };
    let mut items = items.to_vec();
    for op in ops {
        let Term::Tuple(x) = &op else {
            return Flow::badarg();
        };
        let (2, Term::Int(p)) = (x.len(), &x[0]) else {
            return Flow::badarg();
        };
        let p = *p as usize;
        if p < 1 || p > items.len() || p == t.keypos {
            return Flow::badarg();
        }
        items[p - 1] = x[1].clone();
    }
    t.insert(Term::tuple(items));
    result(ctx, Term::bool(true))
}

fn match2(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "match", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let t = ctx.vm.ets.get(id).expect("resolved");
    let mut out = Vec::new();
    for o in t.objects() {
        let mut b = Vec::new();
        if match_pattern(&args[1], &o, &mut b) {
            b.sort_by_key(|(k, _)| *k);
            out.push(Term::list(b.into_iter().map(|(_, v)| v).collect()));
        }
    }
    result(ctx, Term::list(out))
}

fn match_object(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "match_object", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let t = ctx.vm.ets.get(id).expect("resolved");
    let out: Vec<Term> = t
        .objects()
        .into_iter()
        .filter(|o| match_pattern(&args[1], o, &mut Vec::new()))
        .collect();
    result(ctx, Term::list(out))
}

fn match_delete(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "match_delete", args, None, Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    for o in t.objects() {
        if match_pattern(&args[1], &o, &mut Vec::new()) {
            t.delete_object(&o);
        }
    }
    result(ctx, Term::bool(true))
}

/// Is `spec` a match specification the BEAM's table compiler accepts
/// (`ets:select/2` and the others raise `badarg` on one it rejects)?
pub fn table_spec_ok(spec: &Term) -> bool {
    match_spec::check(spec, Dialect::Table).is_empty()
}

/// Run a checked table match specification against one object: the
/// matching clause's result, or `None`. The one evaluator of match
/// specifications is [`match_spec::run`]; this is its table-object entry.
pub fn run_match_spec(spec: &Term, obj: &Term, env: &match_spec::Env) -> Option<Term> {
    match_spec::run(spec, Subject::Object(obj), env).map(|o| o.result)
}

/// What a match specification run by `pid` sees.
pub fn ms_env(pid: crate::term::Pid) -> match_spec::Env {
    match_spec::Env {
        self_pid: Term::Pid(pid),
        pure_bif: crate::bif::erlang_pure,
    }
}

fn select_results(ctx: &Ctx<'_>, id: u64, spec: &Term) -> Result<Vec<(Term, Term)>, Flow> {
    if !table_spec_ok(spec) {
        return Err(Flow::badarg());
    }
    let env = ms_env(ctx.pid());
    let t = ctx.vm.ets.get(id).expect("resolved");
    let mut out = Vec::new();
    for o in t.objects() {
        if let Some(r) = run_match_spec(spec, &o, &env) {
            out.push((o, r));
        }
    }
    Ok(out)
}

fn select(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "select", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    match select_results(ctx, id, &args[1]) {
        Ok(v) => result(ctx, Term::list(v.into_iter().map(|(_, r)| r).collect())),
        Err(f) => f,
    }
}

fn chunk(results: Vec<Term>, n: usize) -> Term {
    if results.is_empty() {
        return end_of_table();
    }
    let mut results = results;
    let rest = if results.len() > n {
        results.split_off(n)
    } else {
        Vec::new()
    };
    let cont = if rest.is_empty() {
        end_of_table()
    } else {
        Term::tuple(vec![
            Term::atom("$racewit_select_cont"),
            Term::list(rest),
            Term::Int(n as i64),
        ])
    };
    tuple2(Term::list(results), cont)
}

fn select3(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "select", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let Term::Int(n) = args[2] else {
        return Flow::badarg();
    };
    if n < 1 {
        return Flow::badarg();
    }
    match select_results(ctx, id, &args[1]) {
        Ok(v) => result(
            ctx,
            chunk(v.into_iter().map(|(_, r)| r).collect(), n as usize),
        ),
        Err(f) => f,
    }
}

fn select1(_ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    match &args[0] {
        Term::Tuple(t) if t.len() == 3 && t[0].is_atom(Atom::new("$racewit_select_cont")) => {
            let rest = t[1].list_to_vec().unwrap_or_default();
            let n = t[2].as_int().unwrap_or(1).max(1) as usize;
            Flow::Value(chunk(rest, n))
        }
        Term::Atom(Atom::END_OF_TABLE) => Flow::Value(end_of_table()),
        _ => Flow::badarg(),
    }
}

fn select_reverse(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "select_reverse", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    match select_results(ctx, id, &args[1]) {
        Ok(v) => result(
            ctx,
            Term::list(v.into_iter().rev().map(|(_, r)| r).collect()),
        ),
        Err(f) => f,
    }
}

fn rename(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "rename", args, None, Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let Term::Atom(new) = args[1] else {
        return Flow::badarg();
    };
    let t = ctx.vm.ets.get(id).expect("resolved");
    let (named, old) = (t.named, t.name);
    if named && ctx.vm.ets.names.contains_key(&new) {
        return Flow::badarg();
    }
    if named {
        ctx.vm.ets.names.remove(&old);
        ctx.vm.ets.names.insert(new, id);
    }
    ctx.vm.ets.get_mut(id).expect("resolved").name = new;
    let v = if named {
        Term::Atom(new)
    } else {
        Term::Ref(id)
    };
    result(ctx, v)
}

fn setopts(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "setopts", args, None, Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let opts = match &args[1] {
        Term::Tuple(_) => vec![args[1].clone()],
        other => other.list_to_vec().unwrap_or_default(),
    };
    for o in opts {
        if let Term::Tuple(t) = &o {
            if t.len() == 3 && t[0].is_atom(Atom::new("heir")) {
                if let Term::Pid(p) = t[1] {
                    ctx.vm.ets.get_mut(id).expect("resolved").heir = Some((p, t[2].clone()));
                }
            } else if t.len() == 2 && t[0].is_atom(Atom::new("heir")) {
                ctx.vm.ets.get_mut(id).expect("resolved").heir = None;
            }
        }
    }
    result(ctx, Term::bool(true))
}

fn select_count(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "select_count", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    match select_results(ctx, id, &args[1]) {
        Ok(v) => {
            let n = v.iter().filter(|(_, r)| r.is_atom(Atom::TRUE)).count();
            result(ctx, Term::Int(n as i64))
        }
        Err(f) => f,
    }
}

fn select_delete(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "select_delete", args, None, Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    match select_results(ctx, id, &args[1]) {
        Ok(v) => {
            let t = ctx.vm.ets.get_mut(id).expect("resolved");
            let mut n = 0;
            for (o, r) in v {
                if r.is_atom(Atom::TRUE) {
                    t.delete_object(&o);
                    n += 1;
                }
            }
            result(ctx, Term::Int(n))
        }
        Err(f) => f,
    }
}

fn tab2list(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "tab2list", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let v = ctx.vm.ets.get(id).expect("resolved").objects();
    result(ctx, Term::list(v))
}

/// `ets:info/1`'s items, in the BEAM's order.
fn info_items(t: &EtsTable) -> Vec<(&'static str, Term)> {
    let kind = match t.kind {
        Kind::Set => "set",
        Kind::OrderedSet => "ordered_set",
        Kind::Bag => "bag",
        Kind::DuplicateBag => "duplicate_bag",
    };
    let prot = match t.protection {
        Protection::Public => "public",
        Protection::Protected => "protected",
        Protection::Private => "private",
    };
    vec![
        ("id", t.id_term()),
        ("decentralized_counters", Term::bool(false)),
        ("read_concurrency", Term::bool(false)),
        ("write_concurrency", Term::bool(false)),
        ("compressed", Term::bool(false)),
        ("memory", Term::Int(305 + 10 * t.size as i64)),
        ("owner", Term::Pid(t.owner)),
        (
            "heir",
            match &t.heir {
                Some((p, _)) => Term::Pid(*p),
                None => Term::atom("none"),
            },
        ),
        ("name", Term::Atom(t.name)),
        ("size", Term::Int(t.size as i64)),
        ("node", Term::Atom(Atom::NONODE)),
        ("named_table", Term::bool(t.named)),
        ("type", Term::atom(kind)),
        ("keypos", Term::Int(t.keypos as i64)),
        ("protection", Term::atom(prot)),
    ]
}

fn info1(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Some(id) = ctx.vm.ets.resolve(&args[0]) else {
        if matches!(args[0], Term::Atom(_) | Term::Ref(_)) {
            return no_table(ctx, "info", args);
        }
        return Flow::badarg();
    };
    let t = ctx.vm.ets.get(id).expect("resolved");
    let items = info_items(t)
        .into_iter()
        .map(|(k, v)| tuple2(Term::atom(k), v))
        .collect();
    let it = item(t, None);
    ctx.emit_access(
        EventKind::Ets,
        format!("ets:info({})", args_text(args)),
        it,
        Access::Read,
    );
    Flow::Value(Term::list(items))
}

fn info2(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Some(id) = ctx.vm.ets.resolve(&args[0]) else {
        if matches!(args[0], Term::Atom(_) | Term::Ref(_)) {
            return no_table(ctx, "info", args);
        }
        return Flow::badarg();
    };
    let Term::Atom(k) = args[1] else {
        return Flow::badarg();
    };
    let t = ctx.vm.ets.get(id).expect("resolved");
    // Items `ets:info/2` answers beyond `ets:info/1`'s (no table is ever
    // fixed here).
    let more = [
        ("fixed", Term::bool(false)),
        ("safe_fixed", Term::bool(false)),
        ("safe_fixed_monotonic_time", Term::bool(false)),
    ];
    let v = info_items(t)
        .into_iter()
        .chain(more)
        .find(|(n, _)| *n == k.name())
        .map(|(_, v)| v);
    let it = item(t, None);
    ctx.emit_access(
        EventKind::Ets,
        format!("ets:info({})", args_text(args)),
        it,
        Access::Read,
    );
    match v {
        Some(v) => result(ctx, v),
        None => Flow::badarg(),
    }
}

fn end_of_table() -> Term {
    Term::Atom(Atom::END_OF_TABLE)
}

fn first(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "first", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let v = ctx
        .vm
        .ets
        .get(id)
        .expect("resolved")
        .first()
        .unwrap_or_else(end_of_table);
    result(ctx, v)
}

fn last(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "last", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let v = ctx
        .vm
        .ets
        .get(id)
        .expect("resolved")
        .last()
        .unwrap_or_else(end_of_table);
    result(ctx, v)
}

fn next(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "next", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let v = ctx
        .vm
        .ets
        .get(id)
        .expect("resolved")
        .next(&args[1])
        .unwrap_or_else(end_of_table);
    result(ctx, v)
}

fn prev(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "prev", args, None, Access::Read) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let v = ctx
        .vm
        .ets
        .get(id)
        .expect("resolved")
        .prev(&args[1])
        .unwrap_or_else(end_of_table);
    result(ctx, v)
}

fn take(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "take", args, Some(&args[1]), Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    let v = t.lookup(&args[1]);
    t.delete_key(&args[1]);
    result(ctx, Term::list(v))
}

fn whereis(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let Term::Atom(_) = args[0] else {
        return Flow::badarg();
    };
    match ctx.vm.ets.resolve(&args[0]) {
        Some(id) => {
            let it = item(ctx.vm.ets.get(id).expect("resolved"), None);
            ctx.emit_access(
                EventKind::Ets,
                format!("ets:whereis({})", args_text(args)),
                it,
                Access::Read,
            );
            result(ctx, Term::Ref(id))
        }
        None => no_table(ctx, "whereis", args),
    }
}

/// `ets:fname(args)` asked about a table that does not exist (a name no
/// table has, or a table gone): `undefined`, and a read of the name, so
/// the search orders it with the table's creation and deletion.
fn no_table(ctx: &mut Ctx<'_>, fname: &str, args: &[Term]) -> Flow {
    let label = match &args[0] {
        Term::Atom(a) => crate::format::atom_text(*a),
        other => brief(other),
    };
    ctx.emit_access(
        EventKind::Ets,
        format!("ets:{fname}({}) -> undefined", args_text(args)),
        SharedItem::Ets {
            table: label,
            key: None,
        },
        Access::Read,
    );
    ctx.mark_absent();
    Flow::Value(Term::undefined())
}

fn all(ctx: &mut Ctx<'_>, _args: &[Term]) -> Flow {
    let v = ctx.vm.ets.tables.values().map(|t| t.id_term()).collect();
    Flow::Value(Term::list(v))
}

fn give_away(ctx: &mut Ctx<'_>, args: &[Term]) -> Flow {
    let id = match table_for(ctx, "give_away", args, None, Access::Write) {
        Ok(id) => id,
        Err(f) => return f,
    };
    let Term::Pid(to) = args[1] else {
        return Flow::badarg();
    };
    let me = ctx.pid();
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    if t.owner != me || to == me || !ctx.vm.is_alive(to) {
        return Flow::badarg();
    }
    let t = ctx.vm.ets.get_mut(id).expect("resolved");
    t.owner = to;
    let tid = t.id_term();
    ctx.vm.deliver(
        to,
        Term::tuple(vec![
            Term::atom("ETS-TRANSFER"),
            tid,
            Term::Pid(me),
            args[2].clone(),
        ]),
    );
    let _ = exact_eq;
    result(ctx, Term::bool(true))
}
