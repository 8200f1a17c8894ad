//! Where a unit can be entered from outside the program: the exported
//! functions (nearest ones) from which it is reachable, the entries of a
//! suspect that a harness calls.

use std::collections::BTreeSet;

use petgraph::Direction;
use petgraph::visit::EdgeRef;

use crate::callgraph::CallGraph;
use crate::units::Units;
use crate::values::UnitId;

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

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    #[test]
    fn entries_are_the_nearest_exported_callers() {
        let src = "-module(t).\n-export([a/0, b/0, c/0]).\n\
                   a() -> mid().\nb() -> mid().\nc() -> a().\nmid() -> leaf().\nleaf() -> ok.\n";
        let program = load_source("t.erl", src);
        let units = Units::new(&program);
        let flow = crate::dataflow::compute(&units, 16);
        let cg = CallGraph::build(&units, &flow);
        let leaf = units.fn_unit[units.lookup("t", "leaf", 0).expect("leaf").index()];
        let names: Vec<String> = entries(&units, &cg, leaf, 8)
            .into_iter()
            .map(|u| units.display(u))
            .collect();
        // c/0 reaches leaf/0 only through a/0, which is nearer.
        assert_eq!(names, ["t:a/0", "t:b/0"]);
        assert_eq!(entries(&units, &cg, leaf, 1).len(), 1);
    }
}
