//! The inter-modular call graph over every site's [`invocations`].
//!
//! A fun call whose fun names nothing ([`Callee::UnknownApply`]) adds no
//! edge: a search reaching it counts the path it cannot follow.

use petgraph::graph::{DiGraph, NodeIndex};
use racewit_syntax::ir::MFA;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::catalog::CatSet;
use crate::dataflow::Flow;
pub use crate::invoke::{Callee, EdgeKind, Invoke, invocations};
use crate::invoke::{SiteTarget, SiteVals};
use crate::spawn::{StartShape, start_of};
use crate::units::Units;
use crate::values::UnitId;

/// A call site whose targets are not all known: a path through it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// A fun no value names (`F(X)` with `F` unknown).
    UnknownFun,
    /// `M:F(...)` or `apply(M, F, A)` naming nothing that can be followed.
    Vague,
}

/// What a site with these invocations leaves unresolved.
fn unresolved_of(sv: &SiteVals, invs: &[Invoke]) -> Option<Unresolved> {
    if invs
        .iter()
        .any(|i| matches!(i.callee, Callee::UnknownApply(_)))
    {
        return Some(Unresolved::UnknownFun);
    }
    let dynamic = match &sv.target {
        SiteTarget::Dynamic { .. } => true,
        SiteTarget::Apply(_) => return invs.is_empty().then_some(Unresolved::UnknownFun),
        SiteTarget::Static(mfa) => {
            (mfa.module == "erlang" && mfa.name == "apply")
                || start_of(mfa).is_some_and(|s| !matches!(s.shape, StartShape::Init { .. }))
        }
    };
    (dynamic && invs.is_empty()).then_some(Unresolved::Vague)
}

/// The whole-program call graph with resolved targets per call site.
pub struct CallGraph {
    pub graph: DiGraph<u32, EdgeKind>,
    /// Node of each unit (same index as units).
    pub unit_nodes: Vec<NodeIndex>,
    /// Per module, per call site: what it may run (global context).
    pub site_invokes: Vec<Vec<Vec<Invoke>>>,
    /// Per unit, the call sites (module, site, caller unit) that may call it and return.
    pub callers: Vec<Vec<(u32, racewit_syntax::ir::CallSiteId, UnitId)>>,
    /// Per unit, its own call sites in source order.
    pub unit_sites: Vec<Vec<racewit_syntax::ir::CallSiteId>>,
    /// Sites whose targets are not all known.
    pub unresolved: FxHashMap<(u32, racewit_syntax::ir::CallSiteId), Unresolved>,
}

impl CallGraph {
    pub fn build(units: &Units<'_>, flow: &Flow) -> Self {
        let mut graph = DiGraph::new();
        let unit_nodes: Vec<NodeIndex> = (0..units.units.len())
            .map(|i| graph.add_node(i as u32))
            .collect();
        let mut callers = vec![Vec::new(); units.units.len()];
        let mut unit_sites = vec![Vec::new(); units.units.len()];
        // What each site may run, computed per module in parallel.
        let computed: Vec<Vec<Vec<Invoke>>> = (0..units.modules.len())
            .into_par_iter()
            .map(|mi| {
                (0..units.modules[mi].call_sites.len())
                    .map(|si| {
                        let site = racewit_syntax::ir::CallSiteId(si as u32);
                        match flow.site(mi as u32, site) {
                            Some(sv) => invocations(
                                units,
                                &flow.servers,
                                flow.limit,
                                mi as u32,
                                sv,
                                flow.unit_ctx(units, sv.unit),
                            ),
                            None => Vec::new(),
                        }
                    })
                    .collect()
            })
            .collect();
        let mut site_invokes = Vec::with_capacity(units.modules.len());
        let mut unresolved = FxHashMap::default();
        for (mi, computed) in computed.into_iter().enumerate() {
            let mut per_site = Vec::with_capacity(computed.len());
            for (si, invs) in computed.into_iter().enumerate() {
                let site = racewit_syntax::ir::CallSiteId(si as u32);
                let Some(sv) = flow.site(mi as u32, site) else {
                    per_site.push(invs);
                    continue;
                };
                if let Some(u) = unresolved_of(sv, &invs) {
                    unresolved.insert((mi as u32, site), u);
                }
                unit_sites[sv.unit.index()].push(site);
                let from = unit_nodes[sv.unit.index()];
                for inv in &invs {
                    let to = match &inv.callee {
                        Callee::Fn(g) => unit_nodes[units.fn_unit[g.index()].index()],
                        Callee::Closure(u) => unit_nodes[u.index()],
                        Callee::UnknownApply(_) => continue,
                    };
                    graph.update_edge(from, to, inv.kind);
                    if inv.kind.returns() {
                        let target = match &inv.callee {
                            Callee::Fn(g) => units.fn_unit[g.index()],
                            Callee::Closure(u) => *u,
                            Callee::UnknownApply(_) => continue,
                        };
                        callers[target.index()].push((mi as u32, site, sv.unit));
                    }
                }
                per_site.push(invs);
            }
            site_invokes.push(per_site);
        }
        for (i, u) in units.units.iter().enumerate() {
            if u.fun.is_some() {
                let owner = units.fn_unit[u.owner.index()];
                graph.add_edge(unit_nodes[owner.index()], unit_nodes[i], EdgeKind::Creates);
            }
        }
        for c in &mut callers {
            c.sort();
            c.dedup();
        }
        CallGraph {
            graph,
            unit_nodes,
            site_invokes,
            callers,
            unit_sites,
            unresolved,
        }
    }

    pub fn invokes(&self, module: u32, site: racewit_syntax::ir::CallSiteId) -> &[Invoke] {
        self.site_invokes
            .get(module as usize)
            .and_then(|m| m.get(site.index()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Per unit, the union of `seed` masks of every unit it may reach over
    /// edges accepted by `follow`.
    pub fn propagate(&self, seed: &[CatSet], follow: fn(EdgeKind) -> bool) -> Vec<CatSet> {
        let n = self.graph.node_count();
        let mut mask = vec![CatSet::EMPTY; n];
        for (i, &s) in seed.iter().enumerate() {
            mask[self.unit_nodes[i].index()] = s;
        }
        let mut work: Vec<NodeIndex> = (0..n)
            .map(NodeIndex::new)
            .filter(|x| !mask[x.index()].is_empty())
            .collect();
        while let Some(x) = work.pop() {
            let mx = mask[x.index()];
            for e in self.graph.edges_directed(x, petgraph::Direction::Incoming) {
                if !follow(*e.weight()) {
                    continue;
                }
                let p = petgraph::visit::EdgeRef::source(&e);
                let before = mask[p.index()];
                if before | mx != before {
                    mask[p.index()] = before | mx;
                    work.push(p);
                }
            }
        }
        mask
    }

    pub fn node_mask(&self, mask: &[CatSet], callee: &Callee, units: &Units<'_>) -> CatSet {
        match callee {
            Callee::Fn(g) => mask[self.unit_nodes[units.fn_unit[g.index()].index()].index()],
            Callee::Closure(u) => mask[self.unit_nodes[u.index()].index()],
            Callee::UnknownApply(_) => CatSet::EMPTY,
        }
    }
}

/// `M:F/A` text of a static target.
pub fn mfa_text(mfa: &MFA) -> String {
    format!("{}:{}/{}", mfa.module, mfa.name, mfa.arity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    /// `(caller, kind, callee)` of every edge leaving `t:go/0`'s sites.
    fn edges_of_go(src: &str) -> (Vec<(String, EdgeKind, String)>, Vec<Unresolved>) {
        let program = load_source("t.erl", src);
        let units = Units::new(&program);
        let flow = crate::dataflow::compute(&units, 16);
        let cg = CallGraph::build(&units, &flow);
        let go = units.fn_unit[units.lookup("t", "go", 0).expect("go/0").index()];
        let module = units.unit(go).module;
        let mut out = Vec::new();
        let mut unresolved = Vec::new();
        for &site in &cg.unit_sites[go.index()] {
            for inv in cg.invokes(module, site) {
                let callee = match &inv.callee {
                    Callee::Fn(g) => units.mfa_of_fn(*g),
                    Callee::Closure(u) => units.display(*u),
                    Callee::UnknownApply(n) => format!("unknown/{n}"),
                };
                out.push((units.display(go), inv.kind, callee));
            }
            if let Some(u) = cg.unresolved.get(&(module, site)) {
                unresolved.push(*u);
            }
        }
        out.sort();
        (out, unresolved)
    }

    #[test]
    fn calls_funs_spawns_and_server_requests() {
        let src = "-module(t).\n-export([go/0, init/1, handle_call/3, handle_cast/2]).\n\
                   go() -> h(), F = fun() -> h() end, F(), spawn(fun h/0), gen_server:call(t, x).\n\
                   h() -> ok.\ninit(_) -> {ok, 0}.\nhandle_call(_, _, S) -> {reply, ok, S}.\n\
                   handle_cast(_, S) -> {noreply, S}.\n";
        let (edges, unresolved) = edges_of_go(src);
        let e = |k, c: &str| ("t:go/0".to_string(), k, c.to_string());
        assert_eq!(
            edges,
            vec![
                e(EdgeKind::Call, "t:'-go/0-fun-0-'/0"),
                e(EdgeKind::Call, "t:h/0"),
                e(EdgeKind::Spawn, "t:h/0"),
                e(EdgeKind::Serve, "t:handle_call/3"),
            ]
        );
        assert!(unresolved.is_empty());
    }

    #[test]
    fn a_fun_from_outside_is_no_edge_but_is_unresolved() {
        let src =
            "-module(t).\n-export([go/0, run/1]).\ngo() -> run(fun() -> ok end).\nrun(F) -> F().\n";
        let program = load_source("t.erl", src);
        let units = Units::new(&program);
        let flow = crate::dataflow::compute(&units, 16);
        let cg = CallGraph::build(&units, &flow);
        let run = units.fn_unit[units.lookup("t", "run", 1).expect("run/1").index()];
        let site = cg.unit_sites[run.index()][0];
        let kinds: Vec<&Callee> = cg.invokes(0, site).iter().map(|i| &i.callee).collect();
        // run/1 is exported: besides go/0's fun, any fun may come.
        assert!(kinds.iter().any(|c| matches!(c, Callee::Closure(_))));
        assert!(kinds.iter().any(|c| matches!(c, Callee::UnknownApply(0))));
        assert_eq!(cg.unresolved.get(&(0, site)), Some(&Unresolved::UnknownFun));
    }
}
