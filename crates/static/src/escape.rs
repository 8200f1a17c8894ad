//! Escape analysis: which funs may be called from code that does not know
//! them (candidates for an unknown `F(...)`), and which exported functions a
//! unit is reachable from (the entries of a suspect).
//!
//! A fun escapes when its value is handed to code outside the program, to a
//! new process, or to a dynamic call; when it is sent in a message, stored
//! in a record/tuple field, or returned by an exported function. A named
//! function escapes when a `fun f/a` names it, or when it is exported.

use std::collections::BTreeSet;

use petgraph::Direction;
use petgraph::visit::EdgeRef;
use racewit_syntax::ir::{Expr, Literal};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::callgraph::CallGraph;
use crate::dataflow::{Flow, SiteTarget};
use crate::units::Units;
use crate::values::{Term, UnitId, Val, resolve};

fn collect_closures(v: &Val, out: &mut BTreeSet<UnitId>) {
    fn walk(t: &Term, out: &mut BTreeSet<UnitId>) {
        match t {
            Term::Fun(u) => {
                out.insert(*u);
            }
            Term::List(ts) | Term::Tuple(ts) => ts.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    for t in v.iter() {
        walk(t, out);
    }
}

/// Library calls that run the funs they are given (or hand them to a new
/// process) without keeping them anywhere another caller could find them.
fn consumes_funs(mfa: &racewit_syntax::ir::MFA) -> bool {
    match mfa.module.as_str() {
        "lists" | "maps" | "sets" | "gb_sets" | "gb_trees" | "dict" | "orddict" | "ordsets"
        | "proplists" | "erlang" | "proc_lib" | "timer" => true,
        "mnesia" => matches!(
            mfa.name.as_str(),
            "transaction" | "activity" | "async_dirty" | "sync_dirty" | "sync_transaction" | "ets"
        ),
        "global" => mfa.name == "trans",
        _ => false,
    }
}

/// Candidates for an unknown fun call, by arity (each list sorted).
pub fn apply_candidates(units: &Units<'_>, flow: &Flow) -> FxHashMap<u32, Vec<UnitId>> {
    let limit = flow.limit;
    // Per module in parallel; the sets are merged, so the order is immaterial.
    let per_module: Vec<BTreeSet<UnitId>> = flow
        .sites
        .par_iter()
        .map(|per_site| {
            let mut escaping = BTreeSet::new();
            for sv in per_site.iter().flatten() {
                // An internal callee whose parameter takes any value (it is
                // exported, or named by a fun) lets the fun go anywhere.
                let open_params: Option<&[Val]> = match &sv.target {
                    SiteTarget::Static(mfa) if !(mfa.module == "erlang" && mfa.name == "apply") => {
                        sv.callee.map(|g| flow.ctx[g.index()].as_slice())
                    }
                    _ => None,
                };
                if let SiteTarget::Static(mfa) = &sv.target
                    && open_params.is_none()
                    && consumes_funs(mfa)
                {
                    continue;
                }
                let ctx = flow.unit_ctx(units, sv.unit);
                for (i, a) in sv.args.iter().enumerate() {
                    if let Some(params) = open_params
                        && !params.get(i).is_some_and(Val::is_any)
                    {
                        continue;
                    }
                    collect_closures(&resolve(a, ctx, limit), &mut escaping);
                }
            }
            escaping
        })
        .collect();
    let mut escaping: BTreeSet<UnitId> = BTreeSet::new();
    for m in per_module {
        escaping.extend(m);
    }
    for v in &flow.sent {
        collect_closures(v, &mut escaping);
    }
    let mut keys: Vec<_> = flow.fields.keys().collect();
    keys.sort();
    for k in keys {
        collect_closures(&flow.fields[k], &mut escaping);
    }
    for (i, fu) in units.fn_unit.iter().enumerate() {
        if units.fns[i].1.exported {
            collect_closures(
                &resolve(&flow.ret[fu.index()], &flow.ctx[i], limit),
                &mut escaping,
            );
        }
    }
    let mut by_arity: FxHashMap<u32, BTreeSet<UnitId>> = FxHashMap::default();
    for u in escaping {
        by_arity.entry(units.unit(u).arity).or_default().insert(u);
    }
    // Functions named by `fun f/a`.
    for (mi, f) in &units.fns {
        let m = units.module(*mi);
        for e in &f.body.exprs {
            let Expr::FunRef {
                module,
                name,
                arity,
            } = e
            else {
                continue;
            };
            let atom = |id| match f.body.expr(id) {
                Expr::Lit(Literal::Atom(a)) => Some(a.clone()),
                _ => None,
            };
            let tm = match module {
                None => Some(m.name.clone()),
                Some(id) => atom(*id),
            };
            let ar = match f.body.expr(*arity) {
                Expr::Lit(Literal::Int(i)) => Some(*i as u32),
                _ => None,
            };
            if let (Some(tm), Some(n), Some(ar)) = (tm, atom(*name), ar)
                && let Some(g) = units.lookup(&tm, &n, ar)
            {
                by_arity
                    .entry(ar)
                    .or_default()
                    .insert(units.fn_unit[g.index()]);
            }
        }
    }
    by_arity
        .into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}

/// The exported functions (nearest ones) from which `u` is reachable, sorted, at most `cap`.
pub fn entries(units: &Units<'_>, cg: &CallGraph, u: UnitId, cap: usize) -> Vec<UnitId> {
    let mut found = BTreeSet::new();
    let mut seen = vec![false; cg.graph.node_count()];
    let start = cg.unit_nodes[u.index()];
    let mut queue = std::collections::VecDeque::from([start]);
    seen[start.index()] = true;
    let mut steps = 0usize;
    while let Some(x) = queue.pop_front() {
        steps += 1;
        if steps > 20_000 {
            break;
        }
        let w = cg.graph[x];
        if w != u32::MAX && units.is_exported(UnitId(w)) {
            found.insert(UnitId(w));
            continue;
        }
        let mut preds: Vec<_> = cg
            .graph
            .edges_directed(x, Direction::Incoming)
            .map(|e| e.source())
            .collect();
        preds.sort();
        for p in preds {
            if !seen[p.index()] {
                seen[p.index()] = true;
                queue.push_back(p);
            }
        }
    }
    found.into_iter().take(cap).collect()
}
