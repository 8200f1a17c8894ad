//! racewit-static: find read→write pairs on shared state that another process
//! can interleave with (Christakis & Sagonas, "Static Detection of Race
//! Conditions in Erlang", PADL 2010, reimplemented on racewit's core IR).
//!
//! Entry point: [`find_suspects`]`(&Program, &StaticOptions) -> Analysis`.
//!
//! Principal types (all `Serialize`; JSON uses snake_case names):
//! - [`StaticOptions`]: enabled [`Category`]s (default all), `atom_limit`
//!   (set size before widening to "any", default 16), `search_budget`
//!   (states per forward search), `max_entries` (entries per suspect).
//! - [`Analysis`]: `suspects` (sorted by read file/line/column, then write,
//!   then category; ids unique) and [`Stats`].
//! - [`Suspect`]: `id` (`R001:ct_master:238:240`: code, read module, read
//!   line, [write module,] write line, and `:cRC:WC` columns only when that is
//!   not unique), `category`, `code`, `read`/`write` ([`Access`]: `call`
//!   `"erlang:whereis/1"`, `module`, `site` (the [`CallSiteId`] within
//!   `module`), `function`, `file`/`line`/`column`; `span` is kept for Rust
//!   callers but not serialized), `resource` ([`Resource`]: `kind`, optional
//!   `name`/`table`/`key` [`ValueSet`]s, and `display` such as
//!   `table ∈ {counters}, key ∈ {hits}`), `path` ([`Hop`]s from the read to
//!   the write: `read`, `call` (entered callee), `return` (the read's function
//!   returned to this caller site), `spawn` (a new process runs the rest),
//!   `write`), `entries` ([`Entry`]: exported functions the race is reachable
//!   from, with an [`ArgHint`] per argument), `setup` (functions holding the
//!   `ets:new`/`mnesia:create_table` the race needs), `message` (Dialyzer
//!   style).
//! - [`Category`]: `registry` R001, `ets` R002, `mnesia` R003,
//!   `spawn_register` R004, `global` R005, `persistent_term` R006.
//!
//! Passes: [`units`] (functions and funs) → [`dataflow`] (abstract values,
//! interprocedural, with record fields) → [`escape`] + [`callgraph`]
//! (petgraph) → per-category relevance → [`cfg`] (pruned CFG per unit) →
//! [`walk`] (forward search from every read, in parallel) → [`assemble`]
//! (filters and reports). One file per category: [`registry`], [`ets`],
//! [`mnesia`], [`spawn_register`], [`global`], [`persistent_term`].
//!
//! Architecture invariant: output depends only on the input program and the
//! options, never on thread count or hash order (searches run in parallel but
//! each is sequential and results are sorted).

pub mod assemble;
pub mod callgraph;
pub mod cfg;
pub mod dataflow;
pub mod depend;
pub mod escape;
pub mod ets;
pub mod global;
pub mod message;
pub mod mnesia;
pub mod ops;
pub mod persistent_term;
pub mod registry;
pub mod spawn;
pub mod spawn_register;
pub mod suspect;
pub mod units;
pub mod values;
pub mod walk;

use std::collections::BTreeSet;

use racewit_syntax::ir::{CallSiteId, Program};
use rayon::prelude::*;
use rustc_hash::FxHashSet;

pub use suspect::{
    Access, Analysis, ArgHint, Category, Entry, Hop, HopKind, Resource, Stats, Suspect, ValueSet,
};

use crate::callgraph::{CallGraph, EdgeKind};
use crate::dataflow::SiteTarget;
use crate::units::Units;
use crate::values::{Origin, UnitId};
use crate::walk::{Read, World};

/// What to look for and how hard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticOptions {
    /// Enabled categories.
    pub categories: BTreeSet<Category>,
    /// Largest set of atoms (or other terms) kept before widening to "any".
    pub atom_limit: usize,
    /// States one forward search may visit before it stops (counted in stats).
    pub search_budget: usize,
    /// Entries listed per suspect.
    pub max_entries: usize,
}

impl Default for StaticOptions {
    fn default() -> Self {
        StaticOptions {
            categories: Category::ALL.into_iter().collect(),
            atom_limit: 16,
            search_budget: 50_000,
            max_entries: 8,
        }
    }
}

/// Run the static pass over a loaded program.
pub fn find_suspects(program: &Program, opts: &StaticOptions) -> Analysis {
    let mut timings = Vec::new();
    let mut clock = std::time::Instant::now();
    let mut lap = |name: &'static str| {
        let now = std::time::Instant::now();
        timings.push((name, (now - clock).as_millis()));
        eprintln!("DEBUG {name} {:?}", now - clock);
        clock = now;
    };
    let limit = opts.atom_limit.max(1);
    let enabled: u8 = opts.categories.iter().fold(0, |m, c| m | c.bit());
    let units = Units::new(program);
    let flow = dataflow::compute(&units, limit);
    lap("dataflow");
    let candidates = escape::apply_candidates(&units, &flow);
    let cg = CallGraph::build(&units, &flow, candidates);
    lap("callgraph");

    // Reads and writes per site, and per unit.
    let mut reads_seed = vec![0u8; units.units.len()];
    let mut writes_seed = vec![0u8; units.units.len()];
    let mut site_ops: Vec<Vec<(u8, u8)>> = Vec::with_capacity(units.modules.len());
    let mut reads: Vec<Read> = Vec::new();
    let mut write_count = 0usize;
    for (mi, m) in units.modules.iter().enumerate() {
        let mut per = vec![(0u8, 0u8); m.call_sites.len()];
        for (si, slot) in per.iter_mut().enumerate() {
            let site = CallSiteId(si as u32);
            let Some(sv) = flow.site(mi as u32, site) else {
                continue;
            };
            let SiteTarget::Static(mfa) = &sv.target else {
                continue;
            };
            let (r, w) = ops::classify(mfa);
            let (r, w) = (r & enabled, w & enabled);
            *slot = (r, w);
            reads_seed[sv.unit.index()] |= r;
            writes_seed[sv.unit.index()] |= w;
            if w != 0 {
                write_count += 1;
            }
            for c in Category::ALL {
                if r & c.bit() != 0 {
                    reads.push(Read {
                        unit: sv.unit,
                        origin: Origin {
                            module: mi as u32,
                            site,
                        },
                        category: c,
                    });
                }
            }
        }
        site_ops.push(per);
    }
    let write_reach = cg.propagate(&writes_seed, |k| k != EdgeKind::Creates);
    let read_reach = cg.propagate(&reads_seed, EdgeKind::returns);
    let reach: Vec<u8> = write_reach
        .iter()
        .zip(&read_reach)
        .map(|(a, b)| a | b)
        .collect();

    // Pruned CFGs.
    let cfgs: Vec<cfg::Cfg> = (0..units.units.len())
        .into_par_iter()
        .map(|i| {
            let u = UnitId(i as u32);
            let unit = units.unit(u);
            let func = units.unit_function(u);
            let module = unit.module;
            let keep = |site: CallSiteId| {
                let (r, w) = site_ops[module as usize][site.index()];
                r | w != 0
                    || cg
                        .invokes(module, site)
                        .iter()
                        .any(|inv| cg.node_mask(&reach, &inv.callee, &units) != 0)
            };
            cfg::build(&func.body, unit.clauses(func), &keep)
        })
        .collect();

    lap("cfg");
    let world = World {
        units: &units,
        flow: &flow,
        cg: &cg,
        cfgs,
        tables: ets::Tables::new(&flow.creations),
        site_ops,
        write_reach,
        limit,
        budget: opts.search_budget,
        summaries: Default::default(),
    };

    // Only reads that can reach a write of their category, directly or by returning.
    let outcomes: Vec<walk::Outcome> = reads.par_iter().map(|r| world.search(r)).collect();
    lap("search");

    let mut assembler = assemble::Assembler::new(&world, opts.max_entries);
    let mut stats = Stats {
        modules: units.modules.len(),
        functions: units.fns.len(),
        funs: units.units.len() - units.fns.len(),
        call_graph_nodes: cg.graph.node_count(),
        call_graph_edges: cg.graph.edge_count(),
        dataflow_rounds: flow.rounds,
        reads: reads.len(),
        writes: write_count,
        ..Stats::default()
    };
    let mut suspects = Vec::new();
    let mut seen: FxHashSet<(Category, Origin, Origin)> = FxHashSet::default();
    for (read, outcome) in reads.iter().zip(&outcomes) {
        if outcome.truncated {
            stats.truncated_searches += 1;
        }
        for hit in &outcome.hits {
            if !seen.insert((read.category, read.origin, hit.write)) {
                continue;
            }
            if assembler.filtered(read, hit) {
                stats.filtered += 1;
                continue;
            }
            suspects.push(assembler.suspect(read, hit));
        }
    }
    let suspects = assemble::finish(suspects);
    stats.suspects = suspects.len();
    for s in &suspects {
        *stats
            .per_category
            .entry(s.category.as_str().to_string())
            .or_default() += 1;
        *stats
            .per_application
            .entry(assemble::application_of(&s.read.file))
            .or_default()
            .entry(s.category.as_str().to_string())
            .or_default() += 1;
    }
    lap("report");
    Analysis {
        suspects,
        stats,
        timings,
    }
}
