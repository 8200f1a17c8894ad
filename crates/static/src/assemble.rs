//! Turning search hits into [`Suspect`]s: filters, positions, paths,
//! entries, setup functions, messages and stable ids.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use racewit_syntax::ir::MFA;

use crate::callgraph::{Callee, mfa_text};
use crate::dataflow::SiteTarget;
use crate::escape;
use crate::message::{message, render_call};
use crate::ops::{Item, may_alias, may_alias_narrow};
use crate::search::{Hit, Read, World};
use crate::spawn_register::Blocking;
use crate::suspect::{
    Access, ArgHint, Category, Entry, Hop, HopKind, Resource, Suspect, ValueSet, Window,
};
use crate::units::FnId;
use crate::values::{Origin, Term, UnitId, Val, quote_atom, render_term};

pub struct Assembler<'w, 'a, 'p> {
    pub w: &'w World<'a, 'p>,
    pub max_entries: usize,
    blocking: Blocking<'a, 'p>,
}

impl<'w, 'a, 'p> Assembler<'w, 'a, 'p> {
    pub fn new(w: &'w World<'a, 'p>, max_entries: usize) -> Self {
        Assembler {
            w,
            max_entries,
            blocking: Blocking::new(w.units),
        }
    }

    fn origin_text(&self, o: Origin) -> String {
        let span = self.w.units.site_span(o.module, o.site);
        let loc = self.w.units.program.sources.location(span);
        format!("{}:{}", self.w.units.module(o.module).name, loc.line)
    }

    fn mfa_at(&self, o: Origin) -> Option<MFA> {
        match &self.w.flow.site(o.module, o.site)?.target {
            SiteTarget::Static(m) => Some(m.clone()),
            _ => None,
        }
    }

    fn access(&self, unit: UnitId, o: Origin) -> Access {
        let units = self.w.units;
        let span = units.site_span(o.module, o.site);
        let loc = units.program.sources.location(span);
        Access {
            call: self.mfa_at(o).map(|m| mfa_text(&m)).unwrap_or_default(),
            module: units.module(o.module).name.clone(),
            site: o.site,
            span,
            function: units.display(unit),
            file: loc.file,
            line: loc.line,
            column: loc.column,
        }
    }

    /// Whether a filter drops the hit (and so it is no suspect): an ETS
    /// table that is not public, unless the path goes through a server
    /// request (then the owner itself runs read and write in two requests
    /// that others can come between).
    pub fn filtered(&mut self, read: &Read, hit: &Hit) -> bool {
        if read.category != Category::SpawnRegister
            && (self.serialised(read, hit)
                || self.locked(read, hit)
                || self.started_once(read)
                || self.rechecked_by_server(read, hit))
        {
            return true;
        }
        match (read.category, &hit.read_item, &hit.write_item) {
            (Category::SpawnRegister, _, _) => {
                let mut children = Vec::new();
                for inv in self.w.cg.invokes(read.origin.module, read.origin.site) {
                    if inv.kind != crate::callgraph::EdgeKind::Spawn {
                        continue;
                    }
                    match &inv.callee {
                        Callee::Fn(g) => children.push(self.w.units.fn_unit[g.index()]),
                        Callee::Closure(u) => children.push(*u),
                        Callee::UnknownApply(_) => return false,
                    }
                }
                !children.is_empty() && children.iter().all(|&c| self.blocking.blocks_first(c))
            }
            (Category::Ets, Item::TableKey { table: t1, .. }, Item::TableKey { table: t2, .. }) => {
                let t = t1.meet(t2, self.w.limit);
                (!self.w.tables.maybe_public(&t) && !self.crosses_requests(hit))
                    || self.guarded_insert(hit.write_unit, hit.write)
                    || self.counted_after_check(read, hit)
                    || self.reservation_given_back(read, hit)
            }
            _ => false,
        }
    }

    /// The read, the write and every step between run in one process that
    /// exists at most once, and so does every write that may touch the
    /// item: nothing can come between them but that process's own code.
    ///
    /// "Exists at most once" is either the process itself (a server every
    /// start names with one constant, a registered loop) or, for ETS, the
    /// table: a table made by that kind of process belongs to one of its
    /// instances (a second instance makes its own table, or fails to make
    /// a named one), so when every write of the table runs in that kind of
    /// process, the instance that owns it is the only one that writes it,
    /// whether the table is named or held in a variable, the state or a
    /// record.
    fn serialised(&self, read: &Read, hit: &Hit) -> bool {
        let procs = &self.w.procs;
        let Some(p) = self.path_process(read, hit) else {
            return false;
        };
        let once = procs.singletons.contains(&p) || self.owned_by(p, hit);
        if !once {
            return false;
        }
        let Some(writes) = self.writes_of(read, may_alias) else {
            return false;
        };
        // After a read that found nothing, only a write that can create
        // the object can make it stale: the others do nothing to an
        // absent key, and the key stays absent while every creating
        // write waits for `p`, which is between the read and the write.
        let absent = self.after_absent(read, hit);
        writes
            .filter(|(_, o, wu, witem, _)| !self.initialising(*o, *wu, witem))
            .filter(|(_, o, ..)| {
                !absent
                    || !self.mfa_at(*o).is_some_and(|m| {
                        m.module == "ets" && crate::ets::never_creates(&m.name, m.arity)
                    })
            })
            .all(|(_, o, wu, _, _)| procs.site_process(*wu, *o) == Some(p))
    }

    /// The write runs only after the read found nothing, in the read's own
    /// run of its function ([`Assembler::under_absence`]): every run of the
    /// write follows the read finding no object.
    fn after_absent(&self, read: &Read, hit: &Hit) -> bool {
        hit.write_unit == read.unit
            && hit.write.module == read.origin.module
            && self.under_absence(read.unit, read.origin, hit.write.site)
    }

    /// A write a server makes on a client's request only after checking
    /// the item again itself: the client found the item absent and, for
    /// that alone, asked the server (the request carries nothing computed
    /// from what it read), and the server's own code writes only when its
    /// own read of exactly that item finds it absent too (or the write is
    /// an atomic read-and-write of the item, such as the server's
    /// `ets:update_counter/3`). Whatever other processes did to the item
    /// since the client's read, the write acts on the server's look, not
    /// the client's: the client's read cannot make it stale. The server's
    /// read and the write are a pair of their own, searched from that read
    /// and filtered or reported on their own terms (a server that does
    /// not serialise the item's writes leaves them a suspect).
    ///
    /// The path is the read, calls, one request, calls and the write, with
    /// no return between; the client's decision is its read's absence (the
    /// clause of a `case` on the read that matches no object, or the catch
    /// of a `try` around a read that raises for an absent item), and so is
    /// the server's, on an item that is the same value in the one run of
    /// the server's code (a constant or the same parameter, carried down
    /// the path's calls).
    fn rechecked_by_server(&self, read: &Read, hit: &Hit) -> bool {
        let w = self.w;
        let hops = &hit.hops;
        let Some(serve) = hops.iter().position(|h| h.kind == HopKind::Serve) else {
            return false;
        };
        let last = hops.len() - 1;
        let straight = |r: std::ops::Range<usize>| hops[r].iter().all(|h| h.kind == HopKind::Call);
        if hops[0].kind != HopKind::Read
            || hops[last].kind != HopKind::Write
            || serve + 1 > last
            || !straight(1..serve)
            || !straight(serve + 1..last)
            || hops[1].unit != read.unit
        {
            return false;
        }
        // The client asks only because the item was absent, and sends
        // nothing it read.
        let out = hops[1].origin.site;
        if !self.under_absence(read.unit, read.origin, out)
            || w.dep(read.unit, read.origin.site).data.contains(&out)
        {
            return false;
        }
        // The server checks the item again in one of the functions the
        // path goes down through.
        (serve + 1..=last).any(|j| {
            let unit = hops[j].unit;
            let module = w.units.unit(unit).module;
            let leave = hops[j].origin;
            let Some(ctx) = self.ctx_down(unit, &hops[j..]) else {
                return false;
            };
            let Some((_, written)) = w.item_at(read.category, hit.write, &ctx) else {
                return false;
            };
            let ident = identity_ctx(ctx.len());
            let ops = &w.site_ops[module as usize];
            (0..ops.len()).any(|si| {
                let again = Origin {
                    module,
                    site: racewit_syntax::ir::CallSiteId(si as u32),
                };
                if !ops[si].0.contains(read.category)
                    || w.flow.site(module, again.site).map(|sv| sv.unit) != Some(unit)
                {
                    return false;
                }
                if again == hit.write {
                    return w.atomic_at(read.category, again);
                }
                self.under_absence(unit, again, leave.site)
                    && w.item_at(read.category, again, &ident)
                        .is_some_and(|(_, checked)| same_in_one_run(&checked, &written))
            })
        })
    }

    /// The context of the write at the end of `down` (call hops from
    /// `unit`, then the write) in terms of `unit`'s own parameters, each
    /// kept as itself; `None` when a call's arguments are not known.
    fn ctx_down(&self, unit: UnitId, down: &[crate::search::RawHop]) -> Option<Vec<Val>> {
        let w = self.w;
        let mut cur = unit;
        let mut ctx = identity_ctx(w.global_of(unit).ctx.len());
        for h in &down[..down.len() - 1] {
            let callee = h.other?;
            if h.unit != cur {
                return None;
            }
            let args = &w.flow.site(h.origin.module, h.origin.site)?.args;
            let cu = w.units.unit(callee);
            if args.len() != cu.arity as usize {
                return None;
            }
            let resolved = args
                .iter()
                .map(|a| crate::values::resolve(a, &ctx, w.limit));
            ctx = match cu.fun {
                None => {
                    let mut c: Vec<Val> = resolved.collect();
                    c.resize(w.global_of(callee).ctx.len().max(c.len()), Val::Any);
                    c
                }
                Some(_) if cu.owner == w.units.unit(cur).owner => {
                    let base = cu.param_base as usize;
                    let mut c = ctx.clone();
                    if c.len() < base + args.len() {
                        c.resize(base + args.len(), Val::Any);
                    }
                    for (i, v) in resolved.enumerate() {
                        c[base + i] = v;
                    }
                    c
                }
                Some(_) => return None,
            };
            cur = callee;
        }
        (down.last()?.unit == cur).then_some(ctx)
    }

    /// Site `then` of `unit` runs only when the read at `read` found its
    /// item absent: in the clause of a `case` on the ETS read that matches
    /// no object (`[]` of `lookup/2`, `false` of `member/2`), or in a catch
    /// clause of a `try` whose body is the read alone, when that read
    /// raises for an absent item (`ets:lookup_element/3`,
    /// `ets:update_counter/3`, `persistent_term:get/1`; their `badarg` for
    /// a present object, a position past its end or a field that is no
    /// integer, is taken for absence too).
    fn under_absence(
        &self,
        unit: UnitId,
        read: Origin,
        then: racewit_syntax::ir::CallSiteId,
    ) -> bool {
        use racewit_syntax::ir::{Expr, Literal, Pat};
        let Some(mfa) = self.mfa_at(read) else {
            return false;
        };
        let raises = crate::catalog::raises_when_absent(&mfa)
            || (mfa.module == "ets" && mfa.name == "update_counter" && mfa.arity == 3);
        let empty = (mfa.module == "ets")
            .then(|| crate::ets::found_nothing(&mfa.name, mfa.arity))
            .flatten();
        let units = self.w.units;
        let body = &units.unit_function(unit).body;
        let is_read = |e| matches!(body.expr(e), Expr::Call { site, .. } if *site == read.site);
        let holds = |e| {
            crate::walk::any_expr(
                body,
                e,
                &mut |x| matches!(x, Expr::Call { site, .. } if *site == then),
            )
        };
        body.exprs.iter().any(|e| match e {
            Expr::Case { arg, clauses, .. } if is_read(*arg) => {
                let Some(empty) = empty else { return false };
                clauses.iter().any(|&c| {
                    let cl = body.clause(c);
                    let nothing = match (cl.pats.as_slice(), empty) {
                        ([p], crate::ets::NoObject::EmptyList) => matches!(body.pat(*p), Pat::Nil),
                        ([p], crate::ets::NoObject::False) => {
                            matches!(body.pat(*p), Pat::Lit(Literal::Atom(b)) if b == "false")
                        }
                        _ => false,
                    };
                    nothing && cl.guard.is_empty() && holds(cl.body)
                })
            }
            Expr::Try(t) if raises && t.of_clauses.is_empty() => {
                let alone = is_read(t.body)
                    || matches!(body.expr(t.body), Expr::Block(es) if es.len() == 1 && is_read(es[0]));
                alone && t.catch_clauses.iter().any(|&c| holds(body.clause(c).body))
            }
            _ => false,
        })
    }

    /// Every write of the item `read` reads, as `alias` matches items;
    /// `None` when the read's item is not known.
    fn writes_of<'s>(
        &'s self,
        read: &Read,
        alias: fn(&Item, &Item) -> bool,
    ) -> Option<impl Iterator<Item = &'s (Category, Origin, UnitId, Item, Vec<Val>)> + 's> {
        let ctx = self.w.global_ctx(read.unit);
        let (_, item) = self.w.item_at(read.category, read.origin, &ctx)?;
        let category = read.category;
        Some(
            self.w
                .writes
                .iter()
                .filter(move |(c, _, _, witem, _)| *c == category && alias(&item, witem)),
        )
    }

    /// The read and every write of its item run only once per start of
    /// one singleton ([`crate::process::Processes::run_once`]: a check
    /// and create in `init/1` of a server started under a constant name,
    /// or in what only that `init/1` calls or spawns): the check cannot
    /// run twice at a time, and nothing else writes the item.
    fn started_once(&self, read: &Read) -> bool {
        let once = &self.w.procs.run_once;
        let Some(root) = &once[read.unit.index()] else {
            return false;
        };
        // A widened parameter is taken for its identity here (as for
        // summaries): a register wrapper fed many names elsewhere is not
        // taken to write this one.
        let Some(mut writes) = self.writes_of(read, may_alias_narrow) else {
            return false;
        };
        writes.all(|(_, _, wu, _, _)| once[wu.index()].as_ref() == Some(root))
    }

    /// The one process that runs the whole path from the read to the
    /// write, when some function on it runs only in that process.
    ///
    /// A path with no process start and no request is one process's
    /// sequential run: the read's function returned to the callers the
    /// path climbs to, and the path's calls were made by the functions
    /// above them. So when any function on the path (the read's, a caller
    /// returned to, a callee entered, the write's) runs only in `p`, the
    /// whole path runs in `p`, even where the read sits in a helper that
    /// other processes call too. No function on the path may run only in
    /// processes other than `p`.
    fn path_process(&self, read: &Read, hit: &Hit) -> Option<crate::process::Proc> {
        if hit
            .hops
            .iter()
            .any(|h| matches!(h.kind, HopKind::Spawn | HopKind::Serve))
            || self.crosses_requests(hit)
        {
            return None;
        }
        let procs = &self.w.procs;
        let runs_in = &procs.runs_in;
        let mut units = vec![read.unit, hit.write_unit, hit.base_unit];
        for h in &hit.hops {
            units.push(h.unit);
            units.extend(h.other);
        }
        let mut found = None;
        // A step under a test proving which registered process runs it.
        let mut sites = vec![read.origin, hit.write];
        sites.extend(hit.hops.iter().map(|h| h.origin));
        for o in sites {
            if let Some(&q) = procs.registered.get(&o) {
                if found.is_some_and(|p| p != q) {
                    return None;
                }
                found = Some(q);
            }
        }
        for u in units {
            match &runs_in[u.index()] {
                crate::process::ProcSet::Any => {}
                crate::process::ProcSet::Some(ps) if ps.len() == 1 => {
                    let q = ps.iter().next().copied()?;
                    if found.is_some_and(|p| p != q) {
                        return None;
                    }
                    found = Some(q);
                }
                crate::process::ProcSet::Some(_) => return None,
            }
        }
        found
    }

    /// An `ets:insert_new/2` write whose result selects between the
    /// clauses of a `case`: it never overwrites an object. If another
    /// process inserted the key after the read, the call returns `false`
    /// and the code takes the branch made for that, so no stale value is
    /// written (the guard `insert_new` exists to be).
    fn guarded_insert(&self, unit: UnitId, o: Origin) -> bool {
        let is_insert_new = self
            .mfa_at(o)
            .is_some_and(|m| m.module == "ets" && m.name == "insert_new");
        if !is_insert_new {
            return false;
        }
        let units = self.w.units;
        let body = &units.function(units.unit(unit).owner).body;
        body.exprs.iter().any(|e| match e {
            racewit_syntax::ir::Expr::Case { arg, clauses, .. } => {
                clauses.len() >= 2
                    && matches!(
                        body.expr(*arg),
                        racewit_syntax::ir::Expr::Call { site, .. } if *site == o.site
                    )
            }
            _ => false,
        })
    }

    /// An `ets:update_counter` after an `ets:member` check of the same
    /// item, when no write of the program to that table removes
    /// objects (`delete`, `delete_object`, `take`, `select_delete`,
    /// `match_delete`, `delete_all_objects`, under any key of the table):
    /// a key found stays found, so
    /// the check cannot go stale in a way the update notices, and the
    /// update itself is atomic (it adds to the value in the table, not to
    /// a value read before), so no update is lost.
    fn counted_after_check(&self, read: &Read, hit: &Hit) -> bool {
        let is = |o: Origin, name: &str| {
            self.mfa_at(o)
                .is_some_and(|m| m.module == "ets" && m.name == name)
        };
        if !is(read.origin, "member") || !is(hit.write, "update_counter") {
            return false;
        }
        let ctx = self.w.global_ctx(read.unit);
        let Some((_, item)) = self.w.item_at(read.category, read.origin, &ctx) else {
            return false;
        };
        let removes = |o: Origin| {
            self.mfa_at(o).is_none_or(|m| {
                m.module != "ets"
                    || matches!(
                        m.name.as_str(),
                        "delete"
                            | "delete_object"
                            | "take"
                            | "select_delete"
                            | "match_delete"
                            | "delete_all_objects"
                    )
            })
        };
        // Any key of the table: a removal under a key the analysis cannot
        // tie to the checked one may still be that key.
        let Item::TableKey { table, .. } = &item else {
            return false;
        };
        !self
            .w
            .writes
            .iter()
            .filter(|(c, ..)| *c == read.category)
            .filter(|(_, _, _, witem, _)| match witem {
                Item::TableKey { table: t, .. } => table.may_equal_narrow(t),
                _ => true,
            })
            .any(|(_, o, ..)| removes(*o))
    }

    /// A reservation given back: the read is an `ets:update_counter` that
    /// adds a constant `d` (its answer is the object after its own change,
    /// made atomically with the read: there is no earlier value to go
    /// stale), and the write, in the same run of the same function on the
    /// same table and key, adds exactly `-d`, a constant too, so what it
    /// does does not depend on anything read (acquire a slot, and give it
    /// back when the count it got is over the limit). Whatever other
    /// processes do between the two, the reader's choice was made on a
    /// count that held its own reservation, and the give-back only undoes
    /// that reservation.
    ///
    /// That holds only when every write of the program to the table adds
    /// a constant with no threshold (such adds commute, so none is lost
    /// and none is clamped differently) or inserts a key only if it is
    /// absent: a delete would make the give-back raise `badarg`, an insert
    /// or a threshold would make it land on another count than the one it
    /// reserved.
    ///
    /// A check that is a plain read (`lookup_element`, then an update
    /// within the checked bound) reserves nothing and stays a suspect; so
    /// does a second add decided on the count (it is no give-back).
    fn reservation_given_back(&self, read: &Read, hit: &Hit) -> bool {
        let w = self.w;
        let is_update_counter = |o: Origin| {
            self.mfa_at(o).is_some_and(|m| {
                m.module == "ets" && m.name == "update_counter" && matches!(m.arity, 3 | 4)
            })
        };
        // Read and write in one frame of one function: nothing but the
        // read and the write on the path.
        if !is_update_counter(read.origin)
            || !is_update_counter(hit.write)
            || hit.write_unit != read.unit
            || hit.hops.len() != 2
        {
            return false;
        }
        let (Some(r), Some(wr)) = (
            w.flow.site(read.origin.module, read.origin.site),
            w.flow.site(hit.write.module, hit.write.site),
        ) else {
            return false;
        };
        // The same table and key: one constant, or one parameter of the
        // function (the same value in one run of it).
        let same_value = |a: &Val, b: &Val| {
            a == b
                && match a {
                    Val::Set(s) => {
                        s.len() == 1
                            && s.iter().all(|t| {
                                matches!(t, Term::Param(_) | Term::Table(_)) || constant(t)
                            })
                    }
                    Val::Any => false,
                }
        };
        if r.args.len() < 3
            || wr.args.len() < 3
            || !same_value(&r.args[0], &wr.args[0])
            || !same_value(&r.args[1], &wr.args[1])
        {
            return false;
        }
        let (Some((rp, d)), Some((wp, e))) = (plain_add(&r.args[2]), plain_add(&wr.args[2])) else {
            return false;
        };
        if d == 0 || rp != wp || e.checked_neg() != Some(d) {
            return false;
        }
        // Every write of the table only adds constants, or inserts anew.
        let ctx = w.global_ctx(read.unit);
        let Some((_, Item::TableKey { table, .. })) = w.item_at(read.category, read.origin, &ctx)
        else {
            return false;
        };
        w.writes
            .iter()
            .filter(|(c, ..)| *c == read.category)
            .filter(|(_, _, _, witem, _)| match witem {
                Item::TableKey { table: t, .. } => table.may_equal_narrow(t),
                _ => true,
            })
            .all(|(_, o, _, _, args)| match self.mfa_at(*o) {
                Some(m) if m.module == "ets" && m.name == "insert_new" => true,
                Some(m) if m.module == "ets" && m.name == "update_counter" => {
                    args.get(2).and_then(plain_add).is_some()
                }
                _ => false,
            })
    }

    /// Every table the hit's item may be was made by code that runs only
    /// in process `p` (an `ets:new` in a server's `init/1`, in a loop's
    /// own code): an unnamed table by its creation, a named one by its
    /// constant name or by the very value (a variable, a parameter of
    /// `init/1`) its `ets:new` was given as the name.
    fn owned_by(&self, p: crate::process::Proc, hit: &Hit) -> bool {
        let w = self.w;
        let (Item::TableKey { table: t1, .. }, Item::TableKey { table: t2, .. }) =
            (&hit.read_item, &hit.write_item)
        else {
            return false;
        };
        let table = t1.meet(t2, w.limit);
        if table.is_any() || table.is_bottom() {
            return false;
        }
        let in_p = |ci: usize| {
            let c = &w.flow.creations[ci];
            !c.mnesia
                && w.flow
                    .site(c.origin.module, c.origin.site)
                    .is_some_and(|sv| w.procs.runs_in[sv.unit.index()].only() == Some(p))
        };
        table.iter().all(|t| match t {
            Term::Atom(_) | Term::Table(_) => {
                let cs = w.tables.creations(&Val::one(t.clone()));
                !cs.is_empty() && cs.into_iter().all(in_p)
            }
            Term::Opaque(o) if !o.wide && !o.derived => {
                let named_so: Vec<usize> = (0..w.flow.creations.len())
                    .filter(|&ci| w.flow.creations[ci].name.iter().any(|n| n == t))
                    .collect();
                !named_so.is_empty() && named_so.into_iter().all(in_p)
            }
            _ => false,
        })
    }

    /// Some lock is held from the read to the write, and by every write
    /// that may touch the item (Eraser's lockset).
    fn locked(&self, read: &Read, hit: &Hit) -> bool {
        let w = self.w;
        let locks = &w.locks;
        let held = |u: UnitId, site| locks.held_at(u, &w.cfgs[u.index()], site);
        let mut common = held(read.unit, read.origin.site);
        if common.is_empty() || hit.hops.iter().any(|h| h.kind == HopKind::Spawn) {
            return false;
        }
        for h in &hit.hops {
            let here = held(h.unit, h.origin.site);
            common.retain(|l| here.contains(l));
            if common.is_empty() {
                return false;
            }
        }
        // A lock taken inside a function must not be let go between the
        // path's steps in that function.
        let mut by_unit: BTreeMap<UnitId, Vec<racewit_syntax::ir::CallSiteId>> = BTreeMap::new();
        for h in &hit.hops {
            by_unit.entry(h.unit).or_default().push(h.origin.site);
        }
        common.retain(|l| {
            by_unit.iter().all(|(&u, sites)| {
                locks.unit_held[u.index()].contains(l)
                    || sites
                        .windows(2)
                        .all(|p| !locks.released_between(u, &w.cfgs[u.index()], p[0], p[1], l))
            })
        });
        if common.is_empty() {
            return false;
        }
        let ctx = w.global_ctx(read.unit);
        let Some((_, item)) = w.item_at(read.category, read.origin, &ctx) else {
            return false;
        };
        w.writes
            .iter()
            .filter(|(c, ..)| *c == read.category)
            .filter(|(_, _, _, witem, _)| may_alias(&item, witem))
            .filter(|(_, o, wu, witem, _)| !self.initialising(*o, *wu, witem))
            .all(|(_, o, wu, _, _)| {
                let here = held(*wu, o.site);
                common.iter().any(|l| here.contains(l))
            })
    }

    /// A write that only fills a table its own function has just made:
    /// every path to it goes through the `ets:new` of its table, so no
    /// other process can hold the table yet (a named table that exists
    /// already makes `ets:new` raise before the write).
    fn initialising(&self, o: Origin, unit: UnitId, item: &Item) -> bool {
        let w = self.w;
        let Item::TableKey { table, .. } = item else {
            return false;
        };
        let owner = w.units.unit(unit).owner;
        let cfg = &w.cfgs[unit.index()];
        let Some(write) = cfg.node_of(o.site) else {
            return false;
        };
        w.flow.creations.iter().any(|c| {
            !c.mnesia
                && c.owner == owner
                && c.origin.module == o.module
                && creates(c, table)
                && cfg
                    .node_of(c.origin.site)
                    .is_some_and(|new| !cfg.reaches_avoiding(crate::cfg::ENTRY, write, new))
        })
    }

    fn crosses_requests(&self, hit: &Hit) -> bool {
        hit.hops.iter().any(|h| {
            h.kind == HopKind::Serve
                || self.mfa_at(h.origin).is_some_and(|m| {
                    m.module == "gen_server" && matches!(m.name.as_str(), "call" | "cast")
                })
        })
    }

    fn value_set(&self, v: &Val) -> ValueSet {
        let origin = |o: Origin| self.origin_text(o);
        match v {
            Val::Any => ValueSet {
                values: Vec::new(),
                any: true,
            },
            Val::Set(s) => {
                let any = s
                    .iter()
                    .any(|t| matches!(t, Term::Any | Term::Param(_) | Term::Opaque(_)));
                ValueSet {
                    values: s
                        .iter()
                        .filter(|t| !matches!(t, Term::Any | Term::Param(_) | Term::Opaque(_)))
                        .map(|t| render_term(t, &origin))
                        .collect(),
                    any,
                }
            }
        }
    }

    fn resource(&self, cat: Category, hit: &Hit) -> Resource {
        let limit = self.w.limit;
        let origin = |o: Origin| self.origin_text(o);
        let show = |v: &Val| v.render_set(&origin);
        match (&hit.read_item, &hit.write_item) {
            (Item::Name(a), Item::Name(b)) => {
                let n = a.meet(b, limit);
                let kind = cat.info().resource;
                let label = if cat == Category::PersistentTerm {
                    "key"
                } else {
                    "name"
                };
                Resource {
                    kind,
                    display: format!("{label} ∈ {}", show(&n)),
                    name: (label == "name").then(|| self.value_set(&n)),
                    key: (label == "key").then(|| self.value_set(&n)),
                    table: None,
                }
            }
            (Item::TableKey { table: t1, key: k1 }, Item::TableKey { table: t2, key: k2 })
                if cat == Category::ApplicationEnv =>
            {
                let app = t1.meet(t2, limit);
                let k = k1.meet(k2, limit);
                Resource {
                    kind: cat.info().resource,
                    display: format!("application ∈ {}, key ∈ {}", show(&app), show(&k)),
                    name: Some(self.value_set(&app)),
                    table: None,
                    key: Some(self.value_set(&k)),
                }
            }
            (Item::TableKey { table: t1, key: k1 }, Item::TableKey { table: t2, key: k2 }) => {
                let t = t1.meet(t2, limit);
                let k = k1.meet(k2, limit);
                Resource {
                    kind: cat.info().resource,
                    display: format!("table ∈ {}, key ∈ {}", show(&t), show(&k)),
                    name: None,
                    table: Some(self.value_set(&t)),
                    key: Some(self.value_set(&k)),
                }
            }
            (Item::Spawn(o), Item::Pid(_)) => Resource {
                kind: cat.info().resource,
                display: format!("pid ∈ {{spawned at {}}}", self.origin_text(*o)),
                name: None,
                table: None,
                key: None,
            },
            _ => Resource {
                kind: cat.info().resource,
                display: "any".to_string(),
                name: None,
                table: None,
                key: None,
            },
        }
    }

    fn hint(&self, v: &Val) -> ArgHint {
        let origin = |o: Origin| self.origin_text(o);
        match v {
            Val::Any => ArgHint::Unknown,
            Val::Set(s) if s.is_empty() => ArgHint::Unknown,
            Val::Set(s) => {
                if s.iter()
                    .any(|t| matches!(t, Term::Any | Term::Param(_) | Term::Opaque(_)))
                {
                    return ArgHint::Unknown;
                }
                if let Some(atoms) = v.atoms() {
                    return ArgHint::Atoms {
                        values: atoms.iter().map(|a| quote_atom(a)).collect(),
                    };
                }
                let ints: Option<Vec<i64>> = s
                    .iter()
                    .map(|t| match t {
                        Term::Int(i) => Some(*i),
                        _ => None,
                    })
                    .collect();
                match ints {
                    Some(values) => ArgHint::Integers { values },
                    None => ArgHint::Terms {
                        values: s.iter().map(|t| render_term(t, &origin)).collect(),
                    },
                }
            }
        }
    }

    fn entries(&self, read: &Read, hit: &Hit) -> Vec<Entry> {
        let w = self.w;
        let roots = escape::entries(w.units, w.cg, hit.base_unit, self.max_entries);
        roots
            .into_iter()
            .map(|u| {
                let owner = w.units.unit(u).owner;
                let arity = w.units.function(owner).arity as usize;
                let internal = &w.flow.internal_ctx[owner.index()];
                // Parameters the read's arguments come straight from.
                let read_params = self.read_params(read, owner);
                let args = (0..arity)
                    .map(|i| {
                        if let Some(v) = read_params.get(&(i as u32)) {
                            return self.hint(v);
                        }
                        internal.get(i).map_or(ArgHint::Unknown, |v| self.hint(v))
                    })
                    .collect();
                let func = w.units.function(owner);
                Entry {
                    mfa: MFA {
                        module: w.units.module(w.units.unit(u).module).name.clone(),
                        name: func.name.clone(),
                        arity: func.arity,
                    },
                    args,
                }
            })
            .collect()
    }

    /// When the read is in `owner` itself, parameters used directly as its
    /// arguments, with the read's resolved values for them.
    fn read_params(&self, read: &Read, owner: FnId) -> BTreeMap<u32, Val> {
        let mut out = BTreeMap::new();
        if self.w.units.unit(read.unit).owner != owner {
            return out;
        }
        let Some(sv) = self.w.flow.site(read.origin.module, read.origin.site) else {
            return out;
        };
        for a in &sv.args {
            if let Val::Set(s) = a
                && let [Term::Param(i)] = s.iter().collect::<Vec<_>>().as_slice()
            {
                out.insert(*i, Val::Any);
            }
        }
        out
    }

    fn setup(&self, cat: Category, hit: &Hit) -> Vec<String> {
        let w = self.w;
        let mut fns: BTreeSet<String> = BTreeSet::new();
        let table = match (&hit.read_item, &hit.write_item) {
            (Item::TableKey { table: t1, .. }, Item::TableKey { table: t2, .. }) => {
                t1.meet(t2, w.limit)
            }
            _ => return Vec::new(),
        };
        let creations: Vec<usize> = match cat {
            Category::Ets => w.tables.creations(&table),
            Category::Mnesia => w
                .flow
                .creations
                .iter()
                .enumerate()
                .filter(|(_, c)| c.mnesia && c.name.may_equal(&table))
                .map(|(i, _)| i)
                .collect(),
            _ => Vec::new(),
        };
        for ci in creations {
            let owner = w.flow.creations[ci].owner;
            fns.insert(w.units.mfa_of_fn(owner));
        }
        fns.into_iter().collect()
    }

    pub fn suspect(&self, read: &Read, hit: &Hit) -> Suspect {
        let w = self.w;
        let units = w.units;
        let read_acc = self.access(read.unit, read.origin);
        let write_acc = self.access(hit.write_unit, hit.write);
        let path: Vec<Hop> = hit
            .hops
            .iter()
            .map(|h| {
                let loc = units
                    .program
                    .sources
                    .location(units.site_span(h.origin.module, h.origin.site));
                Hop {
                    kind: h.kind,
                    function: units.display(h.unit),
                    call: h.other.map(|o| units.display(o)),
                    file: loc.file,
                    line: loc.line,
                    column: loc.column,
                }
            })
            .collect();
        let origin = |o: Origin| self.origin_text(o);
        let read_mfa = self.mfa_at(read.origin).unwrap_or(MFA {
            module: "erlang".into(),
            name: "apply".into(),
            arity: 0,
        });
        let write_mfa = self.mfa_at(hit.write).unwrap_or(read_mfa.clone());
        let read_call = render_call(&read_mfa, &hit.read_args, &origin);
        let write_call = render_call(&write_mfa, &hit.write_args, &origin);
        let read_where = if read_acc.file == write_acc.file {
            format!(" on line {}", read_acc.line)
        } else {
            let name = Path::new(&read_acc.file)
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_else(|| read_acc.file.clone());
            format!(" in {} on line {}", name, read_acc.line)
        };
        // The value arrives in the window at the last return hop (the
        // path climbs first, then goes down into calls), else at the read.
        let window = match hit.hops.iter().rposition(|h| h.kind == HopKind::Return) {
            Some(i) => Window {
                module: units.module(hit.hops[i].origin.module).name.clone(),
                line: path[i].line,
                shared: false,
            },
            None => Window {
                module: read_acc.module.clone(),
                line: read_acc.line,
                shared: false,
            },
        };
        Suspect {
            window,
            id: String::new(),
            category: read.category,
            code: read.category.code(),
            message: message(read.category, &write_call, &read_call, &read_where),
            resource: self.resource(read.category, hit),
            entries: self.entries(read, hit),
            setup: self.setup(read.category, hit),
            read: read_acc,
            write: write_acc,
            path,
            limits: Default::default(),
        }
    }
}

/// A term with no unknown part (no parameter, identity or wildcard).
/// A context of `n` parameters, each itself.
fn identity_ctx(n: usize) -> Vec<Val> {
    (0..n as u32).map(|k| Val::one(Term::Param(k))).collect()
}

/// Two items that are one item in a run of the code they are seen from:
/// the same table and key, each one constant or one parameter (or part of
/// one) of that code.
fn same_in_one_run(a: &Item, b: &Item) -> bool {
    let exact = |v: &Val| match v {
        Val::Set(s) => {
            s.len() == 1
                && s.iter().all(|t| {
                    matches!(t, Term::Param(_) | Term::ParamElem(..) | Term::Table(_))
                        || constant(t)
                })
        }
        Val::Any => false,
    };
    match (a, b) {
        (Item::TableKey { table: t1, key: k1 }, Item::TableKey { table: t2, key: k2 }) => {
            t1 == t2 && k1 == k2 && exact(t1) && exact(k1)
        }
        (Item::Name(n1), Item::Name(n2)) => n1 == n2 && exact(n1),
        _ => false,
    }
}

fn constant(t: &Term) -> bool {
    match t {
        Term::Atom(_) | Term::Int(_) | Term::Str(_) => true,
        Term::List(ts) | Term::Tuple(ts) => ts.iter().all(constant),
        _ => false,
    }
}

/// The operation of an `ets:update_counter` that adds a constant with no
/// threshold: `Incr` (position `None`: the one after the key) or
/// `{Pos, Incr}`; `None` for any other (a threshold, a list of
/// operations, a value not known).
fn plain_add(v: &Val) -> Option<(Option<i64>, i64)> {
    let Val::Set(s) = v else {
        return None;
    };
    match &s[..] {
        [Term::Int(i)] => Some((None, *i)),
        [Term::Tuple(ts)] => match ts.as_slice() {
            [Term::Int(p), Term::Int(i)] => Some((Some(*p), *i)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether creation `c` makes the table `table` (every table it may be).
fn creates(c: &crate::ets::Creation, table: &Val) -> bool {
    !table.is_bottom()
        && table.iter().all(|t| match t {
            Term::Table(o) => *o == c.origin,
            Term::Atom(_) => c.name.iter().all(|n| n == t),
            _ => false,
        })
}

/// Sort suspects and give them unique stable ids.
pub fn finish(mut suspects: Vec<Suspect>) -> Vec<Suspect> {
    suspects.sort_by(|a, b| {
        (
            &a.read.file,
            a.read.line,
            a.read.column,
            &a.write.file,
            a.write.line,
            a.write.column,
            a.category,
            &a.window,
        )
            .cmp(&(
                &b.read.file,
                b.read.line,
                b.read.column,
                &b.write.file,
                b.write.line,
                b.write.column,
                b.category,
                &b.window,
            ))
    });
    let base: Vec<String> = suspects
        .iter()
        .map(|s| {
            if s.read.module == s.write.module {
                format!(
                    "{}:{}:{}:{}",
                    s.category.code(),
                    s.read.module,
                    s.read.line,
                    s.write.line
                )
            } else {
                format!(
                    "{}:{}:{}:{}:{}",
                    s.category.code(),
                    s.read.module,
                    s.read.line,
                    s.write.module,
                    s.write.line
                )
            }
        })
        .collect();
    // Columns tell apart pairs whose lines are shared; the window tells
    // apart the read-modify-writes of one pair, so a pair with one window
    // keeps the id it had before windows were told apart.
    let pair = |s: &Suspect| {
        (
            s.category,
            s.read.module.clone(),
            s.read.site,
            s.write.module.clone(),
            s.write.site,
        )
    };
    let mut pairs: BTreeMap<&str, BTreeSet<_>> = BTreeMap::new();
    let mut windows: BTreeMap<_, usize> = BTreeMap::new();
    for (b, s) in base.iter().zip(&suspects) {
        pairs.entry(b).or_default().insert(pair(s));
        *windows.entry(pair(s)).or_default() += 1;
    }
    let ids: Vec<String> = base
        .iter()
        .zip(&suspects)
        .map(|(b, s)| {
            let mut id = b.clone();
            if pairs[b.as_str()].len() > 1 {
                id = format!("{id}:c{}:{}", s.read.column, s.write.column);
            }
            if windows[&pair(s)] > 1 {
                id = format!("{id}:w:{}:{}", s.window.module, s.window.line);
            }
            id
        })
        .collect();
    let shared: Vec<bool> = suspects.iter().map(|s| windows[&pair(s)] > 1).collect();
    for ((s, id), shared) in suspects.iter_mut().zip(ids).zip(shared) {
        s.id = id;
        s.window.shared = shared;
    }
    suspects
}

/// The application a file belongs to: `app` of `.../app-1.2/src/x.erl`, else
/// the file's directory name.
pub fn application_of(file: &str) -> String {
    let p = Path::new(file);
    let comps: Vec<String> = p
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    let strip = |s: &str| -> String {
        match s.rsplit_once('-') {
            Some((app, vsn))
                if !vsn.is_empty() && vsn.chars().all(|c| c.is_ascii_digit() || c == '.') =>
            {
                app.to_string()
            }
            _ => s.to_string(),
        }
    };
    if let Some(i) = comps.iter().rposition(|c| c == "src")
        && i > 0
    {
        return strip(&comps[i - 1]);
    }
    match p.parent().and_then(|d| d.file_name()) {
        Some(d) => strip(&d.to_string_lossy()),
        None => ".".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applications_from_paths() {
        assert_eq!(
            application_of("/usr/lib/erlang/lib/common_test-1.23/src/ct_master.erl"),
            "common_test"
        );
        assert_eq!(application_of("corpus/registry/a.erl"), "registry");
        assert_eq!(application_of("a.erl"), ".");
    }
}
