//! The forward search from one read to the writes that may follow it.
//!
//! States are `(entry, CFG node)`; an entry is a unit with a context (the
//! abstract values of its owner function's parameters). Calls enter their
//! callees with the context the call site gives them, and a callee's exit
//! returns to every site that entered it with that context (a callee walked
//! once is not walked again from another site: its return is reused). The
//! read's own function, having no known caller, returns to all its callers
//! (up to [`MAX_ASCEND`] levels). Spawns and process starts enter the new
//! process's code without return. Breadth-first, so each write is reached
//! first by a shortest path, which is the one reported: one per window, the
//! function where the read's value meets the write (the read's own, or the
//! caller above it the path returned to), since a `get`/`set` pair of
//! helpers used by several functions is a separate read-modify-write in each.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use racewit_syntax::ir::{CallSiteId, MFA};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::callgraph::{CallGraph, Callee, EdgeKind, Unresolved};
use crate::catalog::{CatSet, op_of};
use crate::cfg::{Cfg, ENTRY, EXIT};
use crate::dataflow::{Flow, SiteTarget};
use crate::depend::{DepInfo, dependent};
use crate::ets::Tables;
use crate::ops::{Item, item, may_alias, may_alias_narrow};
use crate::suspect::{Category, HopKind, Limits};
use crate::units::Units;
use crate::values::{Opaque, OpaqueId, Origin, Term, UnitId, Val, resolve};

/// Levels a search may climb from the read's function to its callers.
pub const MAX_ASCEND: u8 = 3;
/// Calls a search enters with their precise context; deeper ones are
/// answered from context-free summaries of the writes they may reach.
pub const MAX_ENTER: u8 = 2;
/// Units one summary may visit.
const SUMMARY_UNITS: usize = 400;

/// Ways to sites by (unit, site).
pub type PathCache = FxHashMap<(UnitId, CallSiteId), Option<Arc<Vec<crate::feasible::Step>>>>;

/// Summaries by (unit, category bit).
pub type SummaryCache = FxHashMap<(UnitId, CatSet), Arc<Summary>>;

/// The writes of one category reachable from a unit.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// In breadth-first order (nearest first).
    pub writes: Vec<SummaryWrite>,
    /// It stopped at its size limit: writes further away are missing.
    pub cut: bool,
    /// Position of each write site in `writes`.
    pub at: FxHashMap<Origin, u32>,
}

/// A write reachable from a unit, with the calls leading to it.
#[derive(Clone, Debug)]
pub struct SummaryWrite {
    pub write: Origin,
    pub unit: UnitId,
    /// (caller unit, call site, edge kind, callee unit), outermost first.
    pub chain: Vec<(UnitId, Origin, EdgeKind, UnitId)>,
}

/// Everything the searches share.
pub struct World<'a, 'p> {
    pub units: &'a Units<'p>,
    pub flow: &'a Flow,
    pub cg: &'a CallGraph,
    pub cfgs: Vec<Cfg>,
    pub tables: Tables,
    /// Where each unit runs.
    pub procs: crate::process::Processes,
    /// The locks held at each access.
    pub locks: crate::locks::Locks,
    /// Per module, per site: (categories read, categories written).
    pub site_ops: Vec<Vec<(CatSet, CatSet)>>,
    /// Per call-graph node: categories written by it or anything it runs.
    pub write_reach: Vec<CatSet>,
    pub limit: usize,
    /// States one search may visit.
    pub budget: usize,
    /// Every write of each category with its item in the global context.
    pub writes: Vec<(Category, Origin, UnitId, Item, Vec<Val>)>,
    /// Index into `writes` by write site.
    pub write_index: FxHashMap<Origin, Vec<usize>>,
    /// Writes reachable from a unit, by (unit, category bit), shared by all searches.
    pub summaries: Mutex<SummaryCache>,
    /// Dependence on a call's result within a unit, shared by all searches.
    pub deps: Mutex<FxHashMap<(UnitId, CallSiteId), Arc<DepInfo>>>,
    /// The way to a site in a unit ([`crate::feasible::path_to`]), shared.
    pub paths: Mutex<PathCache>,
    /// The global context of each named function (see [`World::global_ctx`]),
    /// built once and hashed once for every search to share.
    pub globals: Vec<HashedCtx>,
}

/// A context with its hash computed once: searches intern contexts by
/// value, and hashing a long context at every call is what they spent most on.
#[derive(Clone, Debug)]
pub struct HashedCtx {
    pub hash: u64,
    /// A slice, not a vector: one allocation per context, and every named
    /// function has a global one.
    pub ctx: Arc<[Val]>,
}

impl HashedCtx {
    pub fn new(ctx: Vec<Val>) -> Self {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        ctx.hash(&mut h);
        HashedCtx {
            hash: h.finish(),
            ctx: Arc::from(ctx),
        }
    }
}

impl PartialEq for HashedCtx {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && (Arc::ptr_eq(&self.ctx, &other.ctx) || self.ctx == other.ctx)
    }
}

impl Eq for HashedCtx {}

impl std::hash::Hash for HashedCtx {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// The global context of every named function, in function order: the
/// values of each parameter from every call, where a parameter no call
/// feeds is an unknown value of its own, and one fed more values than are
/// kept is that same unknown value, marked wide.
pub fn global_ctxs(units: &Units<'_>, flow: &Flow) -> Vec<HashedCtx> {
    use rayon::prelude::*;
    (0..units.fns.len())
        .into_par_iter()
        .map(|f| {
            let ctx = flow.ctx[f]
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let id = OpaqueId::Param {
                        function: f as u32,
                        index: i as u32,
                    };
                    if v.is_bottom() {
                        Val::one(Term::Opaque(Opaque::new(id)))
                    } else if v.is_any() && flow.fed_constant[f][i] {
                        // Widened: the callers pass more values than are
                        // kept. The identity keeps two uses of the parameter
                        // the same value; `wide` keeps every constant.
                        Val::one(Term::Opaque(Opaque::wide(id)))
                    } else if v.is_any() {
                        // Widened with unknown values only: one value of
                        // its own still, equal to itself.
                        Val::one(Term::Opaque(Opaque::new(id)))
                    } else {
                        v.clone()
                    }
                })
                .collect();
            HashedCtx::new(ctx)
        })
        .collect()
}

/// Contexts of the units of one summary, from the call that leads into
/// it ([`Search::chain_ctx`]).
struct Along {
    start: UnitId,
    ctx: FxHashMap<UnitId, Option<Arc<[Val]>>>,
}

impl Along {
    fn new(start: UnitId, ctx: &[Val]) -> Self {
        Along {
            start,
            ctx: FxHashMap::from_iter([(start, Some(Arc::from(ctx)))]),
        }
    }
}

/// A read to search from.
#[derive(Clone, Debug)]
pub struct Read {
    pub unit: UnitId,
    pub origin: Origin,
    pub category: Category,
}

#[derive(Clone, Copy, Debug)]
enum Via {
    Start,
    Step,
    Enter(CallSiteId, EdgeKind),
    Ascend(CallSiteId),
    Spawn(CallSiteId, EdgeKind),
}

#[derive(Clone, Copy, Debug)]
struct State {
    entry: u32,
    node: u32,
    parent: u32,
    via: Via,
}

/// Which calls of an entry's unit count: all of them (the unit runs because
/// of the read), or those depending on one call's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Mode {
    All,
    Source(CallSiteId),
}

struct EntryRec {
    unit: UnitId,
    ctx: u32,
    ascend: Option<u8>,
    mode: Mode,
    /// Calls entered since the last frame that depends on the read by source.
    depth: u8,
    /// The frame whose view of the read applies (itself for a source frame).
    base: u32,
    /// For a source frame: the read's arguments in terms of this unit's
    /// parameters, and the read's item in this unit's context.
    read: Option<Arc<ReadView>>,
    returns: Vec<u32>,
    exited: Option<u32>,
}

/// A hop of a path before it is given file positions.
#[derive(Clone, Debug)]
pub struct RawHop {
    pub kind: HopKind,
    /// The unit holding the hop's call site.
    pub unit: UnitId,
    pub other: Option<UnitId>,
    pub origin: Origin,
}

/// A write found after a read.
#[derive(Clone, Debug)]
pub struct Hit {
    /// Argument values of the read and the write, each in its own context.
    pub read_args: Vec<Val>,
    pub write_args: Vec<Val>,
    pub read_item: Item,
    pub write_item: Item,
    pub write_unit: UnitId,
    pub write: Origin,
    pub hops: Vec<RawHop>,
    /// The outermost function of the path (the read's, or a caller it returned to).
    pub base_unit: UnitId,
}

impl Hit {
    /// Where the path turns from climbing to the window to going down to
    /// the write: the last `return` hop (the window's call that got the
    /// read's value), else the read.
    fn turn(&self) -> usize {
        self.hops
            .iter()
            .rposition(|h| h.kind == HopKind::Return)
            .unwrap_or(0)
    }

    /// Calls, requests and process starts on the way from the window down
    /// to the write.
    pub fn calls_below_window(&self) -> usize {
        self.hops[self.turn()..]
            .iter()
            .filter(|h| matches!(h.kind, HopKind::Call | HopKind::Serve | HopKind::Spawn))
            .count()
    }

    /// The way down from the window to the write enters a function of the
    /// way up (the read's own, one the path returned through, the window
    /// itself): the write is made by another run of the code that read (a
    /// recursion, the next turn of a loop), whose own window holds it.
    pub fn reenters_way_up(&self) -> bool {
        let turn = self.turn();
        let mut up: Vec<UnitId> = vec![self.base_unit];
        up.extend(self.hops[..=turn].iter().map(|h| h.unit));
        self.hops[turn..].iter().any(|h| {
            matches!(h.kind, HopKind::Call | HopKind::Serve | HopKind::Spawn)
                && h.other.is_some_and(|o| up.contains(&o))
        })
    }
}

pub struct Outcome {
    pub hits: Vec<Hit>,
    /// What cut the search short or ended some of its paths.
    pub limits: Limits,
}

/// The read as one frame sees it: arguments in terms of the frame's
/// parameters, the same resolved in its context, and the item.
struct ReadView {
    /// The read's arguments in terms of the frame's parameters.
    sym: Vec<Val>,
    /// The same, resolved in the frame's context.
    args: Vec<Val>,
    item: Item,
    /// The sites the path came up through (the read's, then each call
    /// returned from), each with its unit's parameters in terms of this
    /// frame's: every one must stay reachable ([`crate::feasible`]).
    conds: Vec<(UnitId, CallSiteId, Vec<Val>)>,
}

impl World<'_, '_> {
    /// The context of a unit from all its callers; a parameter no known
    /// call feeds is an unknown value of its own.
    pub fn global_ctx(&self, u: UnitId) -> Vec<Val> {
        self.global_of(u).ctx.to_vec()
    }

    /// [`World::global_ctx`], shared and hashed.
    pub fn global_of(&self, u: UnitId) -> &HashedCtx {
        &self.globals[self.units.unit(u).owner.index()]
    }

    fn site_mfa(&self, o: Origin) -> Option<&MFA> {
        match &self.flow.site(o.module, o.site)?.target {
            SiteTarget::Static(m) => Some(m),
            _ => None,
        }
    }

    /// The operation of category `cat` at `o` reads and writes atomically.
    pub fn atomic_at(&self, cat: Category, o: Origin) -> bool {
        self.site_mfa(o)
            .and_then(|m| op_of(m, cat))
            .is_some_and(|op| op.atomic)
    }

    /// The resolved arguments and the item of the operation at `o`, in context `ctx`.
    pub fn item_at(&self, cat: Category, o: Origin, ctx: &[Val]) -> Option<(Vec<Val>, Item)> {
        let sv = self.flow.site(o.module, o.site)?;
        let mfa = self.site_mfa(o)?;
        let args: Vec<Val> = sv
            .args
            .iter()
            .map(|a| resolve(a, ctx, self.limit))
            .collect();
        let op = op_of(mfa, cat)?;
        let it = item(op, mfa.arity as usize, &args, o, &self.tables, self.limit);
        Some((args, it))
    }

    /// The ETS writes of `unit` that create, in the same run as the
    /// object creation at `marker` (both run in context `ctx`), objects of
    /// another public table keyed by tuples holding the marker's key: the
    /// marker is a thing's entry (`{Name, ...}` in a registry table), the
    /// others the objects that belong to it (`{{Name, N}, 0}` in its own
    /// table). A check of the marker before its creation is a check of
    /// those objects too: two processes that both find no marker both
    /// create them, and the second creation overwrites what was written
    /// to them since the first. The objects' keys hold the marker's key
    /// as a value (one unknown value, a name a caller gives) or, where the
    /// value analysis keeps no shape of them, as the same variable of the
    /// code ([`World::objects_keyed_by_key_of`]). Indices in
    /// [`World::writes`].
    pub fn companions(&self, unit: UnitId, marker: Origin, ctx: &[Val]) -> Vec<usize> {
        let creates = |o: Origin| {
            self.site_mfa(o).is_some_and(|m| {
                m.module == "ets"
                    && matches!((m.name.as_str(), m.arity), ("insert" | "insert_new", 2))
            })
        };
        if !creates(marker) {
            return Vec::new();
        }
        let Some((_, Item::TableKey { table: t1, key: k1 })) =
            self.item_at(Category::Ets, marker, ctx)
        else {
            return Vec::new();
        };
        if k1.is_any() {
            return Vec::new();
        }
        let name = match k1.terms().as_slice() {
            [n @ Term::Opaque(_)] => Some(n.clone()),
            _ => None,
        };
        let cfg = &self.cfgs[unit.index()];
        let Some(mnode) = cfg.node_of(marker.site) else {
            return Vec::new();
        };
        let module = marker.module;
        let mut out = Vec::new();
        for &site in &self.cg.unit_sites[unit.index()] {
            let o = Origin { module, site };
            if site == marker.site || !creates(o) {
                continue;
            }
            let Some(node) = cfg.node_of(site) else {
                continue;
            };
            if !cfg.reaches_avoiding(node, mnode, u32::MAX)
                && !cfg.reaches_avoiding(mnode, node, u32::MAX)
            {
                continue;
            }
            let Some((_, Item::TableKey { table: t2, key: k2 })) =
                self.item_at(Category::Ets, o, ctx)
            else {
                continue;
            };
            let belongs =
                |k: &Term| matches!((k, &name), (Term::Tuple(es), Some(n)) if es.contains(n));
            let keyed_by_name =
                !k2.is_any() && k2.iter().next().is_some() && k2.iter().all(belongs)
                    || self.objects_keyed_by_key_of(unit, marker, o);
            if t2.is_any()
                || t1.may_equal_narrow(&t2)
                || !self.tables.maybe_public(&t2)
                || !keyed_by_name
            {
                continue;
            }
            for &j in self.write_index.get(&o).into_iter().flatten() {
                if self.writes[j].0 == Category::Ets {
                    out.push(j);
                }
            }
        }
        out
    }

    /// Read in `unit`'s code, for objects the value analysis keeps no
    /// shape of (a list comprehension's): the object inserted at `marker`
    /// is a tuple keyed by a variable, and the objects inserted at `other`
    /// (written there, or bound to a variable first) are tuples whose key
    /// is a tuple holding that same variable.
    fn objects_keyed_by_key_of(&self, unit: UnitId, marker: Origin, other: Origin) -> bool {
        use racewit_syntax::ir::{Expr, ExprId, Pat};
        let body = &self.units.unit_function(unit).body;
        let object = |o: Origin| {
            body.exprs.iter().find_map(|e| match e {
                Expr::Call { site, args, .. } if *site == o.site && args.len() == 2 => {
                    Some(args[1])
                }
                _ => None,
            })
        };
        // Through the variable the object was bound to.
        let bound = |e: ExprId| match body.expr(e) {
            Expr::Var(v) => body
                .exprs
                .iter()
                .find_map(|x| match x {
                    Expr::Match(p, rhs) if matches!(body.pat(*p), Pat::Var(u) if u == v) => {
                        Some(*rhs)
                    }
                    _ => None,
                })
                .unwrap_or(e),
            _ => e,
        };
        let (Some(m), Some(x)) = (object(marker), object(other)) else {
            return false;
        };
        let Expr::Tuple(es) = body.expr(bound(m)) else {
            return false;
        };
        let Some(&Expr::Var(name)) = es.first().map(|&k| body.expr(k)) else {
            return false;
        };
        let holds_name = |k: ExprId| {
            matches!(body.expr(k), Expr::Tuple(ks)
                if ks.iter().any(|&y| matches!(body.expr(y), Expr::Var(v) if *v == name)))
        };
        crate::walk::any_expr(
            body,
            bound(x),
            &mut |e| matches!(e, Expr::Tuple(ts) if ts.first().is_some_and(|&k| holds_name(k))),
        )
    }

    /// Writes of category `bit` reachable from `t` through calls and
    /// process starts, each with the chain of calls to it (breadth first,
    /// at most [`SUMMARY_UNITS`] units), computed once and shared.
    fn summary(&self, t: UnitId, bit: CatSet) -> Arc<Summary> {
        if let Ok(cache) = self.summaries.lock()
            && let Some(r) = cache.get(&(t, bit))
        {
            return r.clone();
        }
        let mut out = Vec::new();
        let mut parent: FxHashMap<UnitId, (UnitId, Origin, EdgeKind)> = FxHashMap::default();
        let mut queue = VecDeque::from([t]);
        let mut seen: FxHashSet<UnitId> = FxHashSet::from_iter([t]);
        let mut cut = false;
        while let Some(x) = queue.pop_front() {
            let module = self.units.unit(x).module;
            for &site in &self.cg.unit_sites[x.index()] {
                let o = Origin { module, site };
                if self.site_ops[module as usize][site.index()].1.meets(bit) {
                    let mut chain = Vec::new();
                    let mut cur = x;
                    while let Some(&(p, po, k)) = parent.get(&cur) {
                        chain.push((p, po, k, cur));
                        cur = p;
                    }
                    chain.reverse();
                    out.push(SummaryWrite {
                        write: o,
                        unit: x,
                        chain,
                    });
                }
                if seen.len() >= SUMMARY_UNITS {
                    cut = true;
                    continue;
                }
                for inv in self.cg.invokes(module, site) {
                    if !self
                        .cg
                        .node_mask(&self.write_reach, &inv.callee, self.units)
                        .meets(bit)
                    {
                        continue;
                    }
                    for &u in self.targets(&inv.callee) {
                        if seen.contains(&u) {
                            continue;
                        }
                        if seen.len() >= SUMMARY_UNITS {
                            cut = true;
                            continue;
                        }
                        seen.insert(u);
                        parent.insert(u, (x, o, inv.kind));
                        queue.push_back(u);
                    }
                }
            }
        }
        let at = out
            .iter()
            .enumerate()
            .map(|(i, sw)| (sw.write, i as u32))
            .collect();
        let r = Arc::new(Summary {
            writes: out,
            cut,
            at,
        });
        if let Ok(mut cache) = self.summaries.lock() {
            cache.insert((t, bit), r.clone());
        }
        r
    }

    fn targets<'s>(&'s self, callee: &'s Callee) -> &'s [UnitId] {
        match callee {
            Callee::Fn(g) => std::slice::from_ref(&self.units.fn_unit[g.index()]),
            Callee::Closure(u) => std::slice::from_ref(u),
            Callee::UnknownApply(_) => &[],
        }
    }

    /// The patterns and guards on the way to `site` in `unit`, computed
    /// once and shared.
    fn path_to(&self, unit: UnitId, site: CallSiteId) -> Option<Arc<Vec<crate::feasible::Step>>> {
        if let Ok(cache) = self.paths.lock()
            && let Some(p) = cache.get(&(unit, site))
        {
            return p.clone();
        }
        let u = self.units.unit(unit);
        let func = self.units.unit_function(unit);
        let p =
            crate::feasible::path_to(&func.body, u.clauses(func), u.param_base, site).map(Arc::new);
        if let Ok(mut cache) = self.paths.lock() {
            cache.insert((unit, site), p.clone());
        }
        p
    }

    /// What depends on `src`'s result in `unit`, computed once and shared.
    pub(crate) fn dep(&self, unit: UnitId, src: CallSiteId) -> Arc<DepInfo> {
        if let Ok(cache) = self.deps.lock()
            && let Some(d) = cache.get(&(unit, src))
        {
            return d.clone();
        }
        let d = self.dep_unshared(unit, src);
        if let Ok(mut cache) = self.deps.lock() {
            cache.insert((unit, src), d.clone());
        }
        d
    }

    /// [`World::dep`] computed for one search alone.
    fn dep_unshared(&self, unit: UnitId, src: CallSiteId) -> Arc<DepInfo> {
        let func = self.units.unit_function(unit);
        let module = self.units.unit(unit).module;
        let raises = self
            .site_mfa(Origin { module, site: src })
            .is_some_and(crate::catalog::raises_when_absent);
        Arc::new(dependent(
            &func.body,
            self.units.unit(unit).clauses(func),
            src,
            raises,
        ))
    }

    pub fn search(&self, read: &Read) -> Outcome {
        Search::new(self, read).run()
    }
}

struct Search<'w, 'a, 'p> {
    w: &'w World<'a, 'p>,
    read: &'w Read,
    bit: CatSet,
    read_args: Vec<Val>,
    read_item: Item,
    states: Vec<State>,
    entries: Vec<EntryRec>,
    entry_index: FxHashMap<(UnitId, u32, bool, Mode, u32), u32>,
    deps: FxHashMap<(UnitId, CallSiteId), Arc<DepInfo>>,
    ctxs: Vec<Arc<[Val]>>,
    ctx_index: FxHashMap<HashedCtx, u32>,
    /// The interned global context of each unit met so far.
    global_ids: FxHashMap<UnitId, u32>,
    visited: FxHashSet<(u32, u32)>,
    queue: VecDeque<u32>,
    /// Returns to a caller above the read, walked once everything below is
    /// (so what a function's own code reaches never depends on its callers).
    deferred: VecDeque<(u32, u32, u32, Via)>,
    limits: Limits,
    /// Unresolved sites already counted.
    unresolved_seen: FxHashSet<Origin>,
    /// Units whose cut summary was counted.
    cut_summaries: FxHashSet<UnitId>,
    hits: Vec<Hit>,
    /// Writes hit, each with its window ([`Search::window`]): a write is
    /// reported once per function where the read's value meets it.
    hit_sites: FxHashSet<(Origin, UnitId)>,
    /// Summaries already checked, by (callee unit, frame whose view of the
    /// read applies): checking one again would find only writes already hit.
    summarized: FxHashSet<(UnitId, u32)>,
    /// [`Search::aliasing`] by frame.
    aliasing: FxHashMap<u32, Arc<Vec<usize>>>,
}

impl<'w, 'a, 'p> Search<'w, 'a, 'p> {
    fn new(w: &'w World<'a, 'p>, read: &'w Read) -> Self {
        let ctx = w.global_ctx(read.unit);
        let (read_args, read_item) = w
            .item_at(read.category, read.origin, &ctx)
            .unwrap_or((Vec::new(), Item::Name(Val::Any)));
        Search {
            w,
            read,
            bit: read.category.set(),
            read_args,
            read_item,
            states: Vec::new(),
            entries: Vec::new(),
            entry_index: FxHashMap::default(),
            deps: FxHashMap::default(),
            ctxs: Vec::new(),
            ctx_index: FxHashMap::default(),
            global_ids: FxHashMap::default(),
            visited: FxHashSet::default(),
            queue: VecDeque::new(),
            deferred: VecDeque::new(),
            limits: Limits::default(),
            unresolved_seen: FxHashSet::default(),
            cut_summaries: FxHashSet::default(),
            hits: Vec::new(),
            hit_sites: FxHashSet::default(),
            summarized: FxHashSet::default(),
            aliasing: FxHashMap::default(),
        }
    }

    fn intern(&mut self, ctx: Vec<Val>) -> u32 {
        self.intern_hashed(HashedCtx::new(ctx))
    }

    fn intern_hashed(&mut self, ctx: HashedCtx) -> u32 {
        let next = self.ctxs.len() as u32;
        match self.ctx_index.entry(ctx) {
            std::collections::hash_map::Entry::Occupied(o) => *o.get(),
            std::collections::hash_map::Entry::Vacant(v) => {
                self.ctxs.push(v.key().ctx.clone());
                v.insert(next);
                next
            }
        }
    }

    /// The interned global context of `u`.
    fn global(&mut self, u: UnitId) -> u32 {
        if let Some(&c) = self.global_ids.get(&u) {
            return c;
        }
        let c = self.intern_hashed(self.w.global_of(u).clone());
        self.global_ids.insert(u, c);
        c
    }

    /// Returns the entry and whether it is new.
    fn entry(
        &mut self,
        unit: UnitId,
        c: u32,
        ascend: Option<u8>,
        mode: Mode,
        base: Option<u32>,
    ) -> (u32, bool) {
        let key = (unit, c, ascend.is_some(), mode, base.unwrap_or(u32::MAX));
        if let Some(&e) = self.entry_index.get(&key) {
            return (e, false);
        }
        let e = self.entries.len() as u32;
        self.entries.push(EntryRec {
            unit,
            ctx: c,
            ascend,
            mode,
            depth: 0,
            base: e,
            read: None,
            returns: Vec::new(),
            exited: None,
        });
        if let Some(b) = base {
            self.entries[e as usize].base = b;
        }
        self.entry_index.insert(key, e);
        (e, true)
    }

    /// Whether reaching `node` of `entry` can lead to a write: something
    /// at or after it may write, or its exit leads on (a callee returns to
    /// its caller; a frame above the read may climb further).
    fn leads_on(&mut self, entry: u32, node: u32) -> bool {
        let rec = &self.entries[entry as usize];
        let (unit, ascend, mode) = (rec.unit, rec.ascend, rec.mode);
        let Some(depth) = ascend else {
            return true;
        };
        let ahead = self.w.cfgs[unit.index()].ahead.get(node as usize);
        if ahead.is_none_or(|m| m.meets(self.bit)) {
            return true;
        }
        self.climbs(depth, unit, mode)
    }

    /// A frame above (or at) the read at `depth` returns something that
    /// depends on the read to callers it may climb to.
    fn climbs(&mut self, depth: u8, unit: UnitId, mode: Mode) -> bool {
        depth < MAX_ASCEND
            && match mode {
                Mode::Source(src) => self.dep(unit, src).ret,
                Mode::All => true,
            }
    }

    fn push(&mut self, entry: u32, node: u32, parent: u32, via: Via) {
        if !self.leads_on(entry, node) {
            return;
        }
        if self.visited.insert((entry, node)) {
            let i = self.states.len() as u32;
            self.states.push(State {
                entry,
                node,
                parent,
                via,
            });
            self.queue.push_back(i);
        }
    }

    fn push_succs(&mut self, entry: u32, node: u32, parent: u32, via: Via) {
        let unit = self.entries[entry as usize].unit;
        let w = self.w;
        let cfg = &w.cfgs[unit.index()];
        if node == ENTRY {
            // Only the clauses the arguments may run.
            let ctx = self.ctxs[self.entries[entry as usize].ctx as usize].clone();
            let base = w.units.unit(unit).param_base;
            let func = w.units.unit_function(unit);
            for (c, starts) in &cfg.clause_starts {
                if crate::feasible::clause_may_run(&func.body, *c, base, &ctx, w.limit) {
                    for &s in starts {
                        self.push(entry, s, parent, via);
                    }
                }
            }
            return;
        }
        for &s in &cfg.nodes[node as usize].succs {
            self.push(entry, s, parent, via);
        }
    }

    fn run(mut self) -> Outcome {
        let w = self.w;
        let ru = self.read.unit;
        let Some(start) = w.cfgs[ru.index()].node_of(self.read.origin.site) else {
            return Outcome {
                hits: Vec::new(),
                limits: Limits::default(),
            };
        };
        let ctx = self.global(ru);
        let (root, _) = self.entry(ru, ctx, Some(0), Mode::Source(self.read.origin.site), None);
        let sym = w
            .flow
            .site(self.read.origin.module, self.read.origin.site)
            .map(|sv| sv.args.clone())
            .unwrap_or_default();
        let n = w.flow.ctx[w.units.unit(ru).owner.index()].len() as u32;
        self.entries[root as usize].read = Some(Arc::new(ReadView {
            sym,
            args: self.read_args.clone(),
            item: self.read_item.clone(),
            conds: vec![(
                ru,
                self.read.origin.site,
                (0..n).map(|k| Val::one(Term::Param(k))).collect(),
            )],
        }));
        self.push(root, start, u32::MAX, Via::Start);
        'levels: loop {
            while let Some(s) = self.queue.pop_front() {
                if self.states.len() > w.budget {
                    self.limits.budget = 1;
                    break 'levels;
                }
                self.step(s);
            }
            // One level further up, once everything below it is walked.
            let level = std::mem::take(&mut self.deferred);
            if level.is_empty() {
                break;
            }
            for (entry, node, parent, via) in level {
                self.push_succs(entry, node, parent, via);
            }
        }
        Outcome {
            hits: self.hits,
            limits: self.limits,
        }
    }

    fn step(&mut self, s: u32) {
        let w = self.w;
        let State { entry, node, .. } = self.states[s as usize];
        let unit = self.entries[entry as usize].unit;
        let module = w.units.unit(unit).module;
        if node == EXIT {
            self.exit(s, entry, unit);
            return;
        }
        let Some(site) = w.cfgs[unit.index()].nodes[node as usize].site else {
            self.push_succs(entry, node, s, Via::Step);
            return;
        };
        let origin = Origin { module, site };
        let dependent = s != 0
            && match self.entries[entry as usize].mode {
                Mode::All => true,
                Mode::Source(src) => self.dep(unit, src).sites.contains(&site),
            };
        if !dependent {
            // Nothing done here acts on the read.
            self.push_succs(entry, node, s, Via::Step);
            return;
        }
        let ctx = self.ctxs[self.entries[entry as usize].ctx as usize].clone();
        self.check_write(s, unit, origin, &ctx);
        if let Some(u) = w.cg.unresolved.get(&(module, site))
            && self.unresolved_seen.insert(origin)
        {
            match u {
                Unresolved::UnknownFun => self.limits.unknown_funs += 1,
                Unresolved::Vague => self.limits.vague_calls += 1,
            }
        }
        let mut direct = true;
        let mut entered_any = false;
        let mut all_entered = true;
        for inv in w.cg.invokes(module, site) {
            let mask = w.cg.node_mask(&w.write_reach, &inv.callee, w.units);
            let returns = inv.kind.returns();
            if !mask.meets(self.bit) {
                if returns {
                    all_entered = false;
                }
                continue;
            }
            let targets = w.targets(&inv.callee);
            if inv.kind == EdgeKind::Hof {
                all_entered = false;
            }
            let depth = self.entries[entry as usize].depth + 1;
            if depth > MAX_ENTER {
                for &t in targets {
                    let tctx = self.callee_ctx(unit, &ctx, t, &inv.callee, inv.args.as_deref());
                    self.summarized(s, unit, origin, inv.kind, t, tctx.as_deref());
                }
                all_entered = false;
                continue;
            }
            for &t in targets {
                let tctx = match self.callee_ctx(unit, &ctx, t, &inv.callee, inv.args.as_deref()) {
                    Some(c) => self.intern(c),
                    None => self.global(t),
                };
                let base = self.entries[entry as usize].base;
                let (e, new) = self.entry(t, tctx, None, Mode::All, Some(base));
                let d = &mut self.entries[e as usize].depth;
                *d = (*d).max(depth);
                if returns {
                    entered_any = true;
                    self.entries[e as usize].returns.push(s);
                    if new {
                        self.push(e, ENTRY, s, Via::Enter(site, inv.kind));
                    } else if self.entries[e as usize].exited.is_some() {
                        // Walked before with this context: reuse its return.
                        self.push_succs(entry, node, s, Via::Step);
                    }
                } else {
                    self.push(e, ENTRY, s, Via::Spawn(site, inv.kind));
                }
            }
        }
        if entered_any && all_entered {
            direct = false;
        }
        if direct {
            self.push_succs(entry, node, s, Via::Step);
        }
    }

    fn callee_ctx(
        &self,
        caller: UnitId,
        ctx: &[Val],
        target: UnitId,
        callee: &Callee,
        args: Option<&[Val]>,
    ) -> Option<Vec<Val>> {
        let w = self.w;
        let tu = w.units.unit(target);
        match callee {
            Callee::Closure(_) => {
                let same_owner = tu.owner == w.units.unit(caller).owner;
                let args = args.filter(|a| a.len() == tu.arity as usize);
                if !same_owner && args.is_none() {
                    return None;
                }
                let mut c = if same_owner {
                    ctx.to_vec()
                } else {
                    w.global_ctx(target)
                };
                if let Some(a) = args
                    && a.len() == tu.arity as usize
                {
                    let base = tu.param_base as usize;
                    if c.len() < base + a.len() {
                        c.resize(base + a.len(), Val::Any);
                    }
                    for (i, v) in a.iter().enumerate() {
                        c[base + i] = resolve(v, ctx, w.limit);
                    }
                }
                Some(c)
            }
            Callee::Fn(_) => match args {
                Some(a) if a.len() == tu.arity as usize => {
                    let full = &w.global_of(target).ctx;
                    // An argument with no value here (a server's state, fed
                    // by its callbacks) has the callee's own.
                    let mut c: Vec<Val> = a
                        .iter()
                        .enumerate()
                        .map(|(i, v)| match resolve(v, ctx, w.limit) {
                            r if r.is_bottom() => full.get(i).cloned().unwrap_or(r),
                            r => r,
                        })
                        .collect();
                    // The callee's funs keep their own parameters.
                    c.extend(full.iter().skip(a.len()).cloned());
                    Some(c)
                }
                _ => None,
            },
            Callee::UnknownApply(_) => None,
        }
    }

    /// The read seen from a caller: its arguments re-expressed through the
    /// call at `csite` (in `cunit`) that runs `unit`; `None` when the
    /// caller's arguments cannot reach the read.
    fn lift(
        &self,
        view: &Arc<ReadView>,
        unit: UnitId,
        (cm, csite, cunit): (u32, CallSiteId, UnitId),
        cctx: &[Val],
        src: Option<CallSiteId>,
    ) -> Option<Arc<ReadView>> {
        let w = self.w;
        let u = w.units.unit(unit);
        let cu = w.units.unit(cunit);
        // The callee's parameters in terms of the caller's.
        let mut params: Vec<Val> = w.global_ctx(unit);
        if u.fun.is_some() && u.owner == cu.owner {
            params = (0..params.len() as u32)
                .map(|k| Val::one(Term::Param(k)))
                .collect();
        }
        let inv =
            w.cg.invokes(cm, csite)
                .iter()
                .find(|inv| match &inv.callee {
                    Callee::Fn(g) => w.units.fn_unit[g.index()] == unit,
                    Callee::Closure(x) => *x == unit,
                    Callee::UnknownApply(n) => *n == u.arity,
                });
        if let Some(args) = inv.and_then(|i| i.args.as_ref())
            && args.len() == u.arity as usize
        {
            let base = u.param_base as usize;
            if params.len() < base + args.len() {
                params.resize(base + args.len(), Val::Any);
            }
            for (i, a) in args.iter().enumerate() {
                params[base + i] = a.clone();
            }
        }
        let through =
            |vs: &[Val]| -> Vec<Val> { vs.iter().map(|v| resolve(v, &params, w.limit)).collect() };
        // Every site the path came up through must stay reachable with the
        // values this caller passes.
        let mut conds: Vec<(UnitId, CallSiteId, Vec<Val>)> = view
            .conds
            .iter()
            .map(|(cu, cs, ps)| (*cu, *cs, through(ps)))
            .collect();
        // The frame's own site (the read's unit already has its own).
        if let Some(src) = src.filter(|_| unit != self.read.unit) {
            conds.push((unit, src, params.clone()));
        }
        for (cu, cs, ps) in &conds {
            let concrete: Vec<Val> = ps.iter().map(|v| resolve(v, cctx, w.limit)).collect();
            if !self.may_reach(*cu, *cs, &concrete) {
                return None;
            }
        }
        let sym = through(&view.sym);
        let args: Vec<Val> = sym.iter().map(|v| resolve(v, cctx, w.limit)).collect();
        let item = match w
            .site_mfa(self.read.origin)
            .and_then(|m| op_of(m, self.read.category))
        {
            Some(op) => item(
                op,
                w.site_mfa(self.read.origin).map_or(0, |m| m.arity as usize),
                &args,
                self.read.origin,
                &w.tables,
                w.limit,
            ),
            None => view.item.clone(),
        };
        // Keep what the read's own context knew when the lift lost it.
        let item = if crate::ops::unknown(&item) {
            view.item.clone()
        } else {
            item
        };
        Some(Arc::new(ReadView {
            sym,
            args,
            item,
            conds,
        }))
    }

    /// Whether `site` of `unit` may run with parameters `params`.
    fn may_reach(&self, unit: UnitId, site: CallSiteId, params: &[Val]) -> bool {
        let w = self.w;
        let Some(steps) = w.path_to(unit, site) else {
            return true;
        };
        let func = w.units.unit_function(unit);
        crate::feasible::may_run(&func.body, &steps, params, w.limit)
    }

    /// The window of state `s`: the function where the read's value meets
    /// what `s` does, i.e. the unit of the frame whose view of the read
    /// applies (the read's own function, or the caller above it the path
    /// returned to; a callee entered from it belongs to its window). It is
    /// the path's `base_unit`, found without walking the path.
    ///
    /// Each window is its own read-modify-write: `get/1` and `set/2`
    /// helpers used by several functions give one lost update in each of
    /// them, fixed where it is, so a write is hit once per window.
    fn window(&self, s: u32) -> UnitId {
        let e = self.states[s as usize].entry;
        let base = self.entries[e as usize].base;
        self.entries[base as usize].unit
    }

    /// The read as the state `s` sees it: arguments and item.
    fn view(&self, s: u32) -> (Vec<Val>, Item) {
        let e = self.states[s as usize].entry;
        let base = self.entries[e as usize].base;
        match &self.entries[base as usize].read {
            Some(v) => (v.args.clone(), v.item.clone()),
            None => (self.read_args.clone(), self.read_item.clone()),
        }
    }

    fn dep(&mut self, unit: UnitId, src: CallSiteId) -> &DepInfo {
        let w = self.w;
        // The read's own dependence is what only its searches (one per
        // category it reads) need: sharing it would keep one per read of
        // the program for the whole pass. Those of the call sites climbed
        // through are shared by every read below them.
        let own = unit == self.read.unit && src == self.read.origin.site;
        self.deps.entry((unit, src)).or_insert_with(|| {
            if own {
                w.dep_unshared(unit, src)
            } else {
                w.dep(unit, src)
            }
        })
    }

    fn exit(&mut self, s: u32, entry: u32, unit: UnitId) {
        let w = self.w;
        let rec = &mut self.entries[entry as usize];
        if rec.exited.is_none() {
            rec.exited = Some(s);
        }
        let (ascend, mode) = (rec.ascend, rec.mode);
        if let Some(depth) = ascend {
            if let Mode::Source(src) = mode
                && !self.dep(unit, src).ret
            {
                // The caller gets nothing that depends on the read.
                return;
            }
            if depth >= MAX_ASCEND {
                return;
            }
            let view = self.entries[entry as usize].read.clone();
            let src = match mode {
                Mode::Source(s) => Some(s),
                Mode::All => None,
            };
            for &(cm, csite, cunit) in &w.cg.callers[unit.index()] {
                let Some(cnode) = w.cfgs[cunit.index()].node_of(csite) else {
                    continue;
                };
                if !w.cfgs[cunit.index()].after(cnode).meets(self.bit)
                    && !self.climbs(depth + 1, cunit, Mode::Source(csite))
                {
                    // Nothing after the call writes, and the caller's own
                    // caller cannot be reached: the caller leads nowhere.
                    continue;
                }
                let cid = self.global(cunit);
                let ctx = self.ctxs[cid as usize].clone();
                let lifted = match view.as_ref() {
                    Some(v) => match self.lift(v, unit, (cm, csite, cunit), &ctx, src) {
                        Some(l) => Some(l),
                        // The caller's arguments cannot reach the read.
                        None => continue,
                    },
                    None => None,
                };
                let (ce, new) = self.entry(cunit, cid, Some(depth + 1), Mode::Source(csite), None);
                if new {
                    self.entries[ce as usize].read = lifted;
                    if depth + 1 >= MAX_ASCEND && self.dep(cunit, csite).ret {
                        // The value goes further up than the search climbs.
                        self.limits.depth += w.cg.callers[cunit.index()].len();
                    }
                }
                self.deferred.push_back((ce, cnode, s, Via::Ascend(csite)));
            }
        } else {
            let returns = self.entries[entry as usize].returns.clone();
            for r in returns {
                let st = self.states[r as usize];
                // The path steps over the call: its inside is not part of it.
                self.push_succs(st.entry, st.node, r, Via::Step);
            }
        }
    }

    /// Writes reachable from `t`, called at state `s` (with context
    /// `tctx` when the call gives one), checked in the global context
    /// instead of walking into `t`.
    ///
    /// A write whose global item holds an unknown value of the program (a
    /// parameter of the function on the way to it, widened or not) is
    /// also looked at in the context the call gives, carried down the
    /// summary's calls to it: what the frame passes is what it writes, as
    /// when the call is entered. So a key that is one value in this
    /// frame stays that value below it, however many other callers the
    /// functions below have.
    fn summarized(
        &mut self,
        s: u32,
        unit: UnitId,
        origin: Origin,
        kind: EdgeKind,
        t: UnitId,
        tctx: Option<&[Val]>,
    ) {
        let w = self.w;
        let base = self.entries[self.states[s as usize].entry as usize].base;
        if !self.summarized.insert((t, base)) {
            return;
        }
        let (read_args, read_item) = self.view(s);
        let summary = w.summary(t, self.bit);
        if summary.cut && self.cut_summaries.insert(t) {
            self.limits.summary += 1;
        }
        // The writes this frame's view of the read may alias, in the
        // summary's order (few: most writes touch other items).
        let aliasing = self.aliasing(base, &read_item);
        let window = self.window(s);
        let mut found: Vec<(u32, usize)> = aliasing
            .iter()
            .filter(|&&i| !self.hit_sites.contains(&(w.writes[i].1, window)))
            .filter_map(|&i| summary.at.get(&w.writes[i].1).map(|&p| (p, i)))
            .collect();
        if let Some(tctx) = tctx {
            let cat = self.read.category;
            let mut along = Along::new(t, tctx);
            for (p, sw) in summary.writes.iter().enumerate() {
                for &i in w.write_index.get(&sw.write).into_iter().flatten() {
                    let (c, wo, _, item, _) = &w.writes[i];
                    if *c != cat
                        || !crate::ops::refinable(&read_item, item)
                        || aliasing.binary_search(&i).is_ok()
                        || self.hit_sites.contains(&(*wo, window))
                    {
                        continue;
                    }
                    let Some(ctx) = self.chain_ctx(&mut along, &sw.chain) else {
                        continue;
                    };
                    // Only an item the context tells exactly, equal to the
                    // read's as a widened value is to itself (its identity).
                    if w.item_at(cat, *wo, &ctx).is_some_and(|(_, here)| {
                        !crate::ops::holds_any(&here) && may_alias_narrow(&read_item, &here)
                    }) && self.may_reach(sw.unit, wo.site, &ctx)
                    {
                        found.push((p as u32, i));
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        // What a found write creates together with the item: each
        // companion write ([`World::companions`]) is a write of the race,
        // reported on the item the read checked.
        let mut along = tctx.map(|c| Along::new(t, c));
        let mut companions: Vec<(u32, usize, Item)> = Vec::new();
        if self.read.category == Category::Ets {
            for &(p, i) in &found {
                let sw = &summary.writes[p as usize];
                let ctx = match along.as_mut() {
                    Some(a) => self.chain_ctx(a, &sw.chain),
                    None => None,
                }
                .unwrap_or_else(|| w.global_of(sw.unit).ctx.clone());
                for j in w.companions(sw.unit, sw.write, &ctx) {
                    let o = w.writes[j].1;
                    if let Some(&q) = summary.at.get(&o)
                        && !self.hit_sites.contains(&(o, window))
                    {
                        companions.push((q, j, w.writes[i].3.clone()));
                    }
                }
            }
        }
        let found = (found.into_iter().map(|(p, i)| (p, i, None)))
            .chain(companions.into_iter().map(|(q, j, it)| (q, j, Some(it))))
            .collect::<Vec<_>>();
        for (p, i, marker) in found {
            let sw = &summary.writes[p as usize];
            let (_, wo, wu, item, args) = &w.writes[i];
            if self.hit_sites.contains(&(*wo, window)) {
                continue;
            }
            let item = marker.as_ref().unwrap_or(item);
            let chain = &sw.chain;
            self.hit_sites.insert((*wo, window));
            let (mut hops, base_unit) = self.path(s, unit, origin);
            // Replace the final write hop (at the call) with the chain to the write.
            hops.pop();
            let hop_kind = |k: EdgeKind| match k {
                EdgeKind::Spawn => HopKind::Spawn,
                EdgeKind::Serve | EdgeKind::Cast => HopKind::Serve,
                _ => HopKind::Call,
            };
            hops.push(RawHop {
                kind: hop_kind(kind),
                unit,
                other: Some(t),
                origin,
            });
            for &(caller, o, k, callee) in chain {
                hops.push(RawHop {
                    kind: hop_kind(k),
                    unit: caller,
                    other: Some(callee),
                    origin: o,
                });
            }
            hops.push(RawHop {
                kind: HopKind::Write,
                unit: *wu,
                other: None,
                origin: *wo,
            });
            self.hits.push(Hit {
                read_args: read_args.clone(),
                write_args: args.clone(),
                read_item: read_item.clone(),
                write_item: item.clone(),
                write_unit: *wu,
                write: *wo,
                hops,
                base_unit,
            });
        }
    }

    /// The context of the last callee of `chain` (calls from the unit
    /// `along` starts at, outermost first) in the context `along` starts
    /// with; `None` when a call on the way gives its callee no context of
    /// its own or cannot run in its caller's context (the patterns and
    /// guards on the way to it refuse what the caller was given).
    /// Contexts are kept in `along` by unit: a summary's calls form a
    /// tree, so each unit has one way from the start.
    fn chain_ctx(
        &self,
        along: &mut Along,
        chain: &[(UnitId, Origin, EdgeKind, UnitId)],
    ) -> Option<Arc<[Val]>> {
        let w = self.w;
        let mut ctx = along.ctx.get(&along.start).cloned().flatten()?;
        for &(caller, o, _, callee) in chain {
            if let Some(known) = along.ctx.get(&callee) {
                ctx = known.clone()?;
                continue;
            }
            let next =
                w.cg.invokes(o.module, o.site)
                    .iter()
                    .find(|inv| w.targets(&inv.callee).contains(&callee))
                    .filter(|_| self.may_reach(caller, o.site, &ctx))
                    .and_then(|inv| {
                        self.callee_ctx(caller, &ctx, callee, &inv.callee, inv.args.as_deref())
                    })
                    .map(Arc::from);
            along.ctx.insert(callee, next.clone());
            ctx = next?;
        }
        Some(ctx)
    }

    /// Indices in `World::writes` of the writes of the read's category
    /// whose item may alias the read as frame `base` sees it.
    fn aliasing(&mut self, base: u32, read_item: &Item) -> Arc<Vec<usize>> {
        if let Some(a) = self.aliasing.get(&base) {
            return a.clone();
        }
        let cat = self.read.category;
        let list: Vec<usize> = (self.w.writes.iter().enumerate())
            .filter(|(_, (c, _, _, item, _))| *c == cat && may_alias_narrow(read_item, item))
            .map(|(i, _)| i)
            .collect();
        let list = Arc::new(list);
        self.aliasing.insert(base, list.clone());
        list
    }

    fn check_write(&mut self, s: u32, unit: UnitId, origin: Origin, ctx: &[Val]) {
        let w = self.w;
        let (_, writes) = w.site_ops[origin.module as usize][origin.site.index()];
        let window = self.window(s);
        if !writes.meets(self.bit) || self.hit_sites.contains(&(origin, window)) {
            return;
        }
        let Some((write_args, write_item)) = w.item_at(self.read.category, origin, ctx) else {
            return;
        };
        let (read_args, read_item) = self.view(s);
        if !may_alias(&read_item, &write_item) {
            return;
        }
        self.hit_sites.insert((origin, window));
        let (hops, base_unit) = self.path(s, unit, origin);
        debug_assert_eq!(base_unit, window);
        let companions = if self.read.category == Category::Ets {
            w.companions(unit, origin, ctx)
        } else {
            Vec::new()
        };
        self.hits.push(Hit {
            read_args: read_args.clone(),
            write_args,
            read_item: read_item.clone(),
            write_item: write_item.clone(),
            write_unit: unit,
            write: origin,
            hops,
            base_unit,
        });
        // What the write creates together with the item is written in the
        // same run: each companion is a write of the race too, reported
        // on the item the read checked.
        for j in companions {
            let (_, o, _, _, args) = &w.writes[j];
            if !self.hit_sites.insert((*o, window)) {
                continue;
            }
            let (hops, base_unit) = self.path(s, unit, *o);
            self.hits.push(Hit {
                read_args: read_args.clone(),
                write_args: args.clone(),
                read_item: read_item.clone(),
                write_item: write_item.clone(),
                write_unit: unit,
                write: *o,
                hops,
                base_unit,
            });
        }
    }

    fn path(&self, s: u32, unit: UnitId, origin: Origin) -> (Vec<RawHop>, UnitId) {
        let w = self.w;
        let mut rev = vec![RawHop {
            kind: HopKind::Write,
            unit,
            other: None,
            origin,
        }];
        let mut base = self.read.unit;
        let mut best_depth = 0u8;
        let mut cur = s;
        while cur != u32::MAX {
            let st = self.states[cur as usize];
            let here = self.entries[st.entry as usize].unit;
            let module = w.units.unit(here).module;
            if let Some(d) = self.entries[st.entry as usize].ascend
                && d > best_depth
            {
                best_depth = d;
                base = here;
            }
            let parent_unit = (st.parent != u32::MAX)
                .then(|| self.entries[self.states[st.parent as usize].entry as usize].unit);
            let hop = |kind, site, unit, other| RawHop {
                kind,
                unit,
                other,
                origin: Origin { module, site },
            };
            match st.via {
                Via::Start => rev.push(RawHop {
                    kind: HopKind::Read,
                    unit: here,
                    other: None,
                    origin: self.read.origin,
                }),
                Via::Step => {}
                Via::Enter(site, k) | Via::Spawn(site, k) => {
                    let caller = parent_unit.unwrap_or(here);
                    let cm = w.units.unit(caller).module;
                    let kind = match k {
                        EdgeKind::Spawn => HopKind::Spawn,
                        EdgeKind::Serve | EdgeKind::Cast => HopKind::Serve,
                        _ => HopKind::Call,
                    };
                    rev.push(RawHop {
                        kind,
                        unit: caller,
                        other: Some(here),
                        origin: Origin { module: cm, site },
                    });
                }
                Via::Ascend(site) => {
                    rev.push(hop(HopKind::Return, site, here, parent_unit));
                }
            }
            cur = st.parent;
        }
        rev.reverse();
        (rev, base)
    }
}
