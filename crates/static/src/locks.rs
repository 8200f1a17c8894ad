//! Locksets (Eraser): the locks held at each access. A read and a write
//! made while holding the same lock, with the lock held all the way between
//! them, where every write that may touch the item also holds it, are no
//! race: another process doing the same waits for the lock.
//!
//! Locks come from
//! - `global:trans(LockId, Fun)` (and `/3`, `/4`): `Fun` runs holding the
//!   lock on `LockId`'s resource;
//! - `global:set_lock(LockId)` (and `/2`, `/3`) up to `global:del_lock`
//!   of the same resource, within one function;
//! - `mnesia:lock({global, Key, Nodes}, write)` in a transaction, held to
//!   the transaction's end (the rest of the function).
//!
//! A lock counts only when its resource is a constant (so two sites can be
//! known to take the same one). A unit holds a lock for its whole run when
//! every call into it does ([`Locks::unit_held`], a greatest fixpoint over
//! the call graph); exported functions, callbacks and spawned code start
//! holding nothing.

use std::collections::BTreeSet;

use racewit_syntax::ir::CallSiteId;
use rustc_hash::FxHashMap;

use crate::callgraph::{CallGraph, Callee, EdgeKind};
use crate::cfg::{Cfg, ENTRY};
use crate::dataflow::{Flow, SiteTarget};
use crate::units::Units;
use crate::values::{Term, UnitId, Val, element, resolve};

/// A lock: its manager and its resource (`{global, Res}`, `{mnesia, Key}`).
pub type Lock = Term;

/// What a call does to locks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LockOp {
    /// Takes a lock held until released (or to the function's end).
    Take(Lock),
    /// Releases a lock.
    Release(Lock),
    /// Runs the fun it is given holding the lock.
    Around(Lock),
}

/// The lock operation of a call site, if any (its arguments resolved in `ctx`).
pub fn lock_op(
    mfa: &racewit_syntax::ir::MFA,
    args: &[Val],
    ctx: &[Val],
    limit: usize,
) -> Option<LockOp> {
    let arg = |i: usize| args.get(i).map(|a| resolve(a, ctx, limit));
    let global = |id: Option<Val>| -> Option<Lock> {
        let res = element(&id?, 0, limit);
        constant(&res).map(|r| Term::Tuple(vec![Term::Atom("global".into()), r]))
    };
    match (mfa.module.as_str(), mfa.name.as_str(), mfa.arity) {
        ("global", "trans", 2..=4) => global(arg(0)).map(LockOp::Around),
        ("global", "set_lock", 1..=3) => global(arg(0)).map(LockOp::Take),
        ("global", "del_lock", 1 | 2) => global(arg(0)).map(LockOp::Release),
        ("mnesia", "lock", 2) => {
            let item = arg(0)?;
            let kind = arg(1)?;
            if kind.atoms().is_none_or(|k| k.iter().any(|x| x != "write")) {
                return None;
            }
            let terms = item.terms();
            let [Term::Tuple(parts)] = terms.as_slice() else {
                return None;
            };
            match parts.as_slice() {
                [Term::Atom(g), key, _] if g == "global" => constant(&Val::one(key.clone()))
                    .map(|k| LockOp::Take(Term::Tuple(vec![Term::Atom("mnesia".into()), k]))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The one constant a value is.
fn constant(v: &Val) -> Option<Term> {
    match v.terms().as_slice() {
        [t] if crate::values::constant_like(t) && !matches!(t, Term::Any | Term::Wild) => {
            Some(t.clone())
        }
        _ => None,
    }
}

/// The locks of the program.
pub struct Locks {
    /// Locks held for the whole run of each unit.
    pub unit_held: Vec<BTreeSet<Lock>>,
    /// For units that take or release locks themselves: the locks taken in
    /// the unit and held at each CFG node, and the nodes releasing each.
    pub nodes: FxHashMap<UnitId, NodeLocks>,
    /// Lock operations by (module, site).
    pub ops: FxHashMap<(u32, CallSiteId), LockOp>,
}

#[derive(Clone, Debug, Default)]
pub struct NodeLocks {
    pub held: Vec<BTreeSet<Lock>>,
    pub releases: Vec<(u32, Lock)>,
}

/// The lock operations of every call site.
pub fn lock_sites(units: &Units<'_>, flow: &Flow) -> FxHashMap<(u32, CallSiteId), LockOp> {
    let mut out = FxHashMap::default();
    for (mi, per_site) in flow.sites.iter().enumerate() {
        for (si, sv) in per_site.iter().enumerate() {
            let Some(sv) = sv else { continue };
            let SiteTarget::Static(mfa) = &sv.target else {
                continue;
            };
            if !matches!(mfa.module.as_str(), "global" | "mnesia") {
                continue;
            }
            let ctx = flow.unit_ctx(units, sv.unit);
            if let Some(op) = lock_op(mfa, &sv.args, ctx, flow.limit) {
                out.insert((mi as u32, CallSiteId(si as u32)), op);
            }
        }
    }
    out
}

impl Locks {
    pub fn compute(
        units: &Units<'_>,
        flow: &Flow,
        cg: &CallGraph,
        cfgs: &[Cfg],
        ops: FxHashMap<(u32, CallSiteId), LockOp>,
        entered_from_outside: &dyn Fn(UnitId) -> bool,
    ) -> Locks {
        let n = units.units.len();
        // Locks taken inside each unit, per node.
        let mut nodes: FxHashMap<UnitId, NodeLocks> = FxHashMap::default();
        let mut takers: Vec<UnitId> = Vec::new();
        for (&(m, s), op) in &ops {
            if matches!(op, LockOp::Take(_) | LockOp::Release(_))
                && let Some(sv_unit) = flow.site(m, s).map(|sv| sv.unit)
            {
                takers.push(sv_unit);
            }
        }
        takers.sort();
        takers.dedup();
        for u in takers {
            let module = units.unit(u).module;
            nodes.insert(u, node_locks(&cfgs[u.index()], module, &ops));
        }
        // Incoming edges: (caller, site, callee, lock the edge adds).
        let mut incoming: Vec<Vec<(UnitId, CallSiteId, Option<Lock>)>> = vec![Vec::new(); n];
        let mut cut = vec![false; n];
        for (i, c) in cut.iter_mut().enumerate() {
            *c = entered_from_outside(UnitId(i as u32));
        }
        for (mi, per_site) in cg.site_invokes.iter().enumerate() {
            for (si, invs) in per_site.iter().enumerate() {
                let site = CallSiteId(si as u32);
                let Some(caller) = flow.site(mi as u32, site).map(|sv| sv.unit) else {
                    continue;
                };
                for inv in invs {
                    let t = match inv.callee {
                        Callee::Fn(g) => units.fn_unit[g.index()],
                        Callee::Closure(u) => u,
                        Callee::UnknownApply(_) => continue,
                    };
                    match inv.kind {
                        EdgeKind::Call | EdgeKind::Hof => {
                            let around = match (inv.kind, ops.get(&(mi as u32, site))) {
                                (EdgeKind::Hof, Some(LockOp::Around(l))) => Some(l.clone()),
                                _ => None,
                            };
                            incoming[t.index()].push((caller, site, around));
                        }
                        // A new process, a server: it holds nothing it was not given.
                        _ => cut[t.index()] = true,
                    }
                }
            }
        }
        // Greatest fixpoint: `None` is "every lock" (not yet constrained).
        let mut held: Vec<Option<BTreeSet<Lock>>> = (0..n)
            .map(|i| (cut[i] || incoming[i].is_empty()).then(BTreeSet::new))
            .collect();
        // A worklist: a unit is looked at again only when a caller's locks
        // shrank (the greatest fixpoint is the same in any order).
        let mut callees: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (t, inc) in incoming.iter().enumerate() {
            for (caller, ..) in inc {
                callees[caller.index()].push(t as u32);
            }
        }
        for c in &mut callees {
            c.sort_unstable();
            c.dedup();
        }
        let mut queued: Vec<bool> = (0..n).map(|t| !cut[t] && !incoming[t].is_empty()).collect();
        let mut work: std::collections::VecDeque<usize> = (0..n).filter(|&t| queued[t]).collect();
        while let Some(t) = work.pop_front() {
            queued[t] = false;
            {
                let mut acc: Option<BTreeSet<Lock>> = None;
                for (caller, site, around) in &incoming[t] {
                    let Some(ch) = &held[caller.index()] else {
                        continue;
                    };
                    let mut here = ch.clone();
                    if let Some(nl) = nodes.get(caller)
                        && let Some(node) = cfgs[caller.index()].node_of(*site)
                    {
                        here.extend(nl.held[node as usize].iter().cloned());
                    }
                    if let Some(l) = around {
                        here.insert(l.clone());
                    }
                    acc = Some(match acc {
                        None => here,
                        Some(a) => a.intersection(&here).cloned().collect(),
                    });
                }
                if let Some(a) = acc
                    && held[t].as_ref() != Some(&a)
                    && held[t].as_ref().is_none_or(|h| a.is_subset(h))
                {
                    held[t] = Some(a);
                    for &c in &callees[t] {
                        let c = c as usize;
                        if !queued[c] && !cut[c] {
                            queued[c] = true;
                            work.push_back(c);
                        }
                    }
                }
            }
        }
        Locks {
            unit_held: held.into_iter().map(Option::unwrap_or_default).collect(),
            nodes,
            ops,
        }
    }

    /// The locks held at a call site of `u`.
    pub fn held_at(&self, u: UnitId, cfg: &Cfg, site: CallSiteId) -> BTreeSet<Lock> {
        let mut out = self.unit_held[u.index()].clone();
        if let Some(nl) = self.nodes.get(&u)
            && let Some(node) = cfg.node_of(site)
        {
            out.extend(nl.held[node as usize].iter().cloned());
        }
        out
    }

    /// `lock`, taken inside `u`, may be released between the node of site
    /// `from` and that of `to`.
    pub fn released_between(
        &self,
        u: UnitId,
        cfg: &Cfg,
        from: CallSiteId,
        to: CallSiteId,
        lock: &Lock,
    ) -> bool {
        let Some(nl) = self.nodes.get(&u) else {
            return false;
        };
        let (Some(a), Some(b)) = (cfg.node_of(from), cfg.node_of(to)) else {
            return true;
        };
        let releasing: Vec<u32> = nl
            .releases
            .iter()
            .filter(|(_, l)| l == lock)
            .map(|(n, _)| *n)
            .collect();
        if releasing.is_empty() {
            return false;
        }
        // Some release reachable from `a` that reaches `b`.
        let reach = |start: u32| {
            let mut seen = vec![false; cfg.nodes.len()];
            let mut stack = vec![start];
            while let Some(x) = stack.pop() {
                for &s in &cfg.nodes[x as usize].succs {
                    if !seen[s as usize] {
                        seen[s as usize] = true;
                        stack.push(s);
                    }
                }
            }
            seen
        };
        let from_a = reach(a);
        releasing
            .iter()
            .any(|&r| from_a[r as usize] && (r == b || reach(r)[b as usize]))
    }
}

/// Locks taken in a unit and held at each node (a must analysis: held on
/// every path from the unit's entry), and its release nodes.
fn node_locks(cfg: &Cfg, module: u32, ops: &FxHashMap<(u32, CallSiteId), LockOp>) -> NodeLocks {
    let n = cfg.nodes.len();
    let op_at = |i: usize| cfg.nodes[i].site.and_then(|s| ops.get(&(module, s)));
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, node) in cfg.nodes.iter().enumerate() {
        for &s in &node.succs {
            preds[s as usize].push(i as u32);
        }
    }
    let transfer = |i: usize, input: &BTreeSet<Lock>| {
        let mut out = input.clone();
        match op_at(i) {
            Some(LockOp::Take(l)) => {
                out.insert(l.clone());
            }
            Some(LockOp::Release(l)) => {
                out.remove(l);
            }
            _ => {}
        }
        out
    };
    // `None`: not reached yet (top).
    let mut inp: Vec<Option<BTreeSet<Lock>>> = vec![None; n];
    inp[ENTRY as usize] = Some(BTreeSet::new());
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..n {
            if i == ENTRY as usize {
                continue;
            }
            let mut acc: Option<BTreeSet<Lock>> = None;
            for &p in &preds[i] {
                let Some(pi) = &inp[p as usize] else { continue };
                let po = transfer(p as usize, pi);
                acc = Some(match acc {
                    None => po,
                    Some(a) => a.intersection(&po).cloned().collect(),
                });
            }
            if acc.is_some() && acc != inp[i] {
                inp[i] = acc;
                changed = true;
            }
        }
    }
    // Held at a node: what is held on entering it (a take at the node
    // itself holds from the node on: the access after it).
    let held = inp.into_iter().map(Option::unwrap_or_default).collect();
    let releases = (0..n)
        .filter_map(|i| match op_at(i) {
            Some(LockOp::Release(l)) => Some((i as u32, l.clone())),
            _ => None,
        })
        .collect();
    NodeLocks { held, releases }
}
