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
