//! racewit-static: find read→write pairs on shared state that another process
//! can interleave with (Christakis & Sagonas, "Static Detection of Race
//! Conditions in Erlang", PADL 2010, reimplemented on racewit's core IR).
//!
//! Entry point: [`find_suspects`]`(&Program, &StaticOptions) -> Analysis`.
//!
//! Principal types (all `Serialize`; JSON uses snake_case names):
//! - [`StaticOptions`]: enabled [`Category`]s (default all), `atom_limit`
//!   (set size before widening, default 16), `search_budget` (states per
//!   forward search), `max_entries` (entries listed per suspect),
//!   `include_tests` (report pairs in test code too).
//! - [`Analysis`]: `suspects` (sorted by read file/line/column, then write,
//!   then category; ids unique), [`Stats`] (deterministic counters, per
//!   category and per application, and every [`Limits`] a search met, in
//!   all and per function), and `timings` (wall time per pass, not
//!   serialized).
//! - [`Suspect`]: `id` (`R001:ct_master:238:240`: code, read module, read
//!   line, [write module,] write line; `:cRC:WC` columns appended only when
//!   that is not unique; `:w:M:L` the [`Window`] when one read and write
//!   have several), `category`, `code`, `read`/`write` ([`Access`]:
//!   `call` `"erlang:whereis/1"`, `module`, `site` (the `CallSiteId` within
//!   `module`), `function` (`mod:f/2` or `mod:'-f/2-fun-0-'/0`),
//!   `file`/`line`/`column` from `program.sources.location`; `span` is kept
//!   for Rust callers but not serialized), `resource` ([`Resource`]: `kind`
//!   ([`ResourceKind`]), optional `name`/`table`/`key` [`ValueSet`]s
//!   (`values` as Erlang terms, `any: true` when not known precisely),
//!   `display` such as `table ∈ {counters}, key ∈ {hits}`), `path` ([`Hop`]s
//!   from read to write, each with `kind` `read` | `call` (callee entered) |
//!   `return` (the read's function returned to this caller site) | `spawn`
//!   (a new process runs the rest) | `serve` (a `gen_server:call/cast`
//!   handled by the server) | `write`, `function`, optional `call`,
//!   position), `entries` ([`Entry`]: exported functions (an MFA) the race
//!   is reachable from, with an [`ArgHint`] per argument), `setup`
//!   (functions holding the `ets:new`/`mnesia:create_table` the race needs),
//!   `message` (Dialyzer style), `limits` (what cut the search from the
//!   read, when something did).
//! - [`Category`]: `registry` R001, `ets` R002, `mnesia` R003,
//!   `spawn_register` R004, `global` R005, `persistent_term` R006,
//!   `application_env` R007 ([`Category::parse`] accepts either form);
//!   each described once, with its operations, in [`catalog`].
//!
//! How it decides (see each module for details):
//! - Operations ([`catalog`]): one row per call that reads or writes shared
//!   state, with where its item is among the arguments; [`ops`] computes
//!   the item, [`ets`] the keys of objects, patterns and specifications.
//! - Values ([`values`], [`dataflow`]): small sets of constant-shaped terms;
//!   an unknown value carries an identity (the parameter, variable or
//!   expression it came from), so two uses race only if they are the same
//!   constant or the same identity (an alias), as in Dialyzer. A parameter
//!   fed more values than are kept keeps its identity (and, when callers
//!   pass constants, may equal any constant), whatever its callers pass:
//!   a function's own pairs never depend on how many callers it has. Tables are values: they flow
//!   through arguments, results, records, maps, tuples, lists, closures,
//!   spawn arguments, a server's state ([`server`]) and persistent terms
//!   (a `get` of a key the program's puts name); a lookup returns
//!   objects keyed by what it looked up. A record field read back from
//!   an unknown record is what the program stores in that field of the
//!   module's own definition of the record (by field name, so two
//!   modules' records of one name and size stay apart). `self()`, `make_ref()` and values
//!   derived from them are unique to a process and never race.
//! - Dependence ([`depend`]): a write counts only if it depends on the read's
//!   value (data, or control: inside a clause the read selects, after a
//!   match that fails otherwise, in a catch its failure reaches).
//!   `N = value(K), reset(K)` is no race; but after a read that raises
//!   for an absent item (`ets:lookup_element/3`), what follows runs only
//!   if the item was there, and depends on it.
//! - Search ([`search`]): forward from every read over pruned CFGs
//!   ([`cfg`](mod@cfg)), entering callees with their call-site context (only the
//!   clauses their arguments may run, [`feasible`]), returning to callers a
//!   level at a time once everything below is walked, and only to callers
//!   whose arguments can reach the read, following process starts into the
//!   new process's code and `gen_server:call` into `handle_call/3`. Calls
//!   deeper than [`search::MAX_ENTER`] are answered from shared summaries;
//!   a summarised write whose item holds an unknown value is also looked
//!   at in the context the call gives, carried down the summary's calls
//!   (only the calls whose patterns and guards accept it), and counts when
//!   that context tells its item exactly and it meets the read's (so a
//!   widened key is still the key its frame passes down). A write found
//!   that creates an ETS object brings the writes of the same run that
//!   create objects of another public table keyed by tuples holding its
//!   key (a metric's entry and its counters,
//!   [`search::World::companions`]): a check of the entry is a check of
//!   them.
//!   A fun call runs only the funs that flow to it ([`invoke`]). Every limit
//!   that ends a path or cuts the search is counted ([`Limits`]). A write
//!   is hit once per window (the function where the read's value meets
//!   it: the read's own or a caller returned to), so `get`/`set` helpers
//!   used by several functions give one suspect per function; a pair's
//!   further windows are kept when the write is at most
//!   [`search::MAX_ASCEND`] calls below the window and not reached through
//!   the code that read, and a window in test code is a test pair.
//! - Filters ([`assemble`]), each for a reason that holds on every
//!   execution: a table no other process can write (protected or private,
//!   never given away; unless the path crosses a server request); a pair
//!   run only by one process that exists once, which does every write of
//!   the item ([`process`]: serialised by its mailbox; the path's process
//!   is the one any function on it is confined to, so a read in a helper
//!   that returns into a server callback counts, or the one a step of it
//!   is proved to run in: under `case whereis(Name) =:= self() of true`
//!   or after `register(Name, self())` (the holder of a name only one
//!   server takes), under a test of a parameter against an atom that only
//!   one process's calls pass; a module whose loop
//!   `gen_server:enter_loop` enters is a server, one process at most when
//!   it registered itself under a constant name first), where "exists once"
//!   may also be the table's owner instance (a table made by that kind of
//!   process, unnamed or named by a constant or by the value its `ets:new`
//!   was given, written only there; after a read that found nothing,
//!   only writes that can create the object count: a `case` clause that
//!   matches no object, or the catch of a read that raises for an absent
//!   item); a pair under a lock
//!   every write of the item holds ([`locks`]); a write a server makes on
//!   a request that a client sent only because its read found the item
//!   absent, carrying nothing it read, when the server's own read of
//!   exactly that item finds it absent too before the write (or the write
//!   is an atomic read-and-write): the server's look decides the write, not
//!   the client's, and is a pair of its own; an `ets:insert_new` whose
//!   result selects a `case` clause (it never overwrites); an
//!   `ets:update_counter` after an `ets:member` check when nothing removes
//!   objects from the table; an `ets:update_counter` that gives back
//!   exactly what the `ets:update_counter` read added (a reservation),
//!   when every write of the table adds a constant with no threshold; `spawn`+`register` whose new
//!   process blocks in a `receive` first; a pair whose read and every
//!   write of its item run once for one root ([`process::Root`]: the
//!   `init/1` of a server started only under one constant name, or the code
//!   after a process's own `register(Name, self())` of a name nothing
//!   unregisters, and what only such code calls, spawns, starts
//!   synchronously (`init/1` of `gen_server:start_link/3`) or names in a
//!   singleton supervisor's child specifications). Pairs in test code are counted,
//!   not reported, unless `include_tests`.
//!
//! Searches share what does not depend on the read: each function's global
//! context (hashed once, [`search::HashedCtx`]), summaries, dependence
//! results and the ways to sites.
//!
//! Passes: [`units`] → [`dataflow`] (with [`invoke`]) → [`callgraph`]
//! (petgraph) → [`process`] + [`locks`] + relevance masks → [`cfg`](mod@cfg) →
//! [`search`] (parallel, one search per read) → [`assemble`]. [`walk`] is
//! the one walk over IR expressions the passes share. Modules import each
//! other in one direction only: `values`, `walk`, `spawn` at the bottom,
//! `search` and `assemble` at the top.
//!
//! Architecture invariant: output depends only on the input program and the
//! options, never on thread count or hash order (searches run in parallel
//! but each is sequential, and results are sorted).

pub mod assemble;
pub mod callgraph;
pub mod catalog;
pub mod cfg;
pub mod dataflow;
pub mod depend;
pub mod escape;
pub mod ets;
pub mod feasible;
pub mod invoke;
pub mod locks;
pub mod message;
pub mod ops;
pub mod process;
pub mod search;
pub mod server;
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
    Access, Analysis, ArgHint, Category, Entry, Hop, HopKind, Limits, Resource, ResourceKind,
    Stats, Suspect, ValueSet, Window,
};

use crate::catalog::CatSet;

use crate::callgraph::{CallGraph, EdgeKind};
use crate::dataflow::SiteTarget;
use crate::search::{Read, World};
use crate::units::Units;
use crate::values::{Origin, UnitId};

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
    /// Report pairs whose read or write is in test or example code
    /// ([`units::is_test_code`], or a function defined only under a test
    /// macro: [`units::Units::in_tests`]); such code is always analysed, as callers
    /// of the code under test and as entries.
    pub include_tests: bool,
}

impl Default for StaticOptions {
    fn default() -> Self {
        StaticOptions {
            categories: Category::ALL.into_iter().collect(),
            atom_limit: 16,
            search_budget: 2_500,
            max_entries: 8,
            include_tests: false,
        }
    }
}

/// Every write site with its item in its function's global context.
fn writes_of(
    world: &World<'_, '_>,
) -> Vec<(Category, Origin, UnitId, ops::Item, Vec<values::Val>)> {
    let mut out = Vec::new();
    for (mi, per) in world.site_ops.iter().enumerate() {
        for (si, &(_, w)) in per.iter().enumerate() {
            if w.is_empty() {
                continue;
            }
            let o = Origin {
                module: mi as u32,
                site: CallSiteId(si as u32),
            };
            let Some(sv) = world.flow.site(o.module, o.site) else {
                continue;
            };
            let ctx = world.global_ctx(sv.unit);
            for c in w.iter() {
                if let Some((args, item)) = world.item_at(c, o, &ctx) {
                    out.push((c, o, sv.unit, item, args));
                }
            }
        }
    }
    out
}

/// The program's ETS tables, with those `ets:give_away/3` may hand over.
fn tables_of(units: &Units<'_>, flow: &dataflow::Flow) -> ets::Tables {
    let mut tables = ets::Tables::new(&flow.creations);
    for per_site in &flow.sites {
        for sv in per_site.iter().flatten() {
            if let SiteTarget::Static(mfa) = &sv.target
                && mfa.module == "ets"
                && mfa.name == "give_away"
                && mfa.arity == 3
            {
                let ctx = flow.unit_ctx(units, sv.unit);
                let app = |mi: u32| {
                    let m = units.module(mi);
                    assemble::application_of(&units.program.sources.path(m.file).to_string_lossy())
                };
                let here = app(units.unit(sv.unit).module);
                tables.given_away(&values::resolve(&sv.args[0], ctx, flow.limit), |o| {
                    app(o.module) == here
                });
            }
        }
    }
    tables
}

/// Run the static pass over a loaded program.
pub fn find_suspects(program: &Program, opts: &StaticOptions) -> Analysis {
    let mut timings = Vec::new();
    let mut clock = std::time::Instant::now();
    let mut lap = |name: &'static str| {
        let now = std::time::Instant::now();
        timings.push((name, (now - clock).as_millis()));
        clock = now;
    };
    let limit = opts.atom_limit.max(1);
    let enabled: CatSet = opts.categories.iter().copied().collect();
    let units = Units::new(program);
    let flow = dataflow::compute(&units, limit);
    lap("dataflow");
    let cg = CallGraph::build(&units, &flow);
    let procs = process::compute(&units, &flow, &cg);
    let lock_ops = locks::lock_sites(&units, &flow);
    let creation_sites: FxHashSet<(u32, CallSiteId)> = flow
        .creations
        .iter()
        .map(|c| (c.origin.module, c.origin.site))
        .collect();
    lap("callgraph");

    // Reads and writes per site, and per unit.
    let mut reads_seed = vec![CatSet::EMPTY; units.units.len()];
    let mut writes_seed = vec![CatSet::EMPTY; units.units.len()];
    let mut site_ops: Vec<Vec<(CatSet, CatSet)>> = Vec::with_capacity(units.modules.len());
    let mut reads: Vec<Read> = Vec::new();
    let mut write_count = 0usize;
    for (mi, m) in units.modules.iter().enumerate() {
        let mut per = vec![(CatSet::EMPTY, CatSet::EMPTY); m.call_sites.len()];
        for (si, slot) in per.iter_mut().enumerate() {
            let site = CallSiteId(si as u32);
            let Some(sv) = flow.site(mi as u32, site) else {
                continue;
            };
            let SiteTarget::Static(mfa) = &sv.target else {
                continue;
            };
            // A module calling its own API (application's set_env/4 clauses
            // calling set_env/4) is its implementation, not a use of the
            // shared state: the caller's own call is the operation.
            if mfa.module == m.name {
                continue;
            }
            let (r, w) = catalog::classify(mfa);
            let (r, w) = (r & enabled, w & enabled);
            *slot = (r, w);
            reads_seed[sv.unit.index()] |= r;
            writes_seed[sv.unit.index()] |= w;
            if !w.is_empty() {
                write_count += 1;
            }
            for c in r.iter() {
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
        site_ops.push(per);
    }
    let write_reach = cg.propagate(&writes_seed, |k| k != EdgeKind::Creates);
    let read_reach = cg.propagate(&reads_seed, EdgeKind::returns);
    let reach: Vec<CatSet> = write_reach
        .iter()
        .zip(&read_reach)
        .map(|(&a, &b)| a | b)
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
                !(r | w).is_empty()
                    || cg.unresolved.contains_key(&(module, site))
                    || lock_ops.contains_key(&(module, site))
                    || creation_sites.contains(&(module, site))
                    || cg
                        .invokes(module, site)
                        .iter()
                        .any(|inv| !cg.node_mask(&reach, &inv.callee, &units).is_empty())
            };
            let mut c = cfg::build(&func.body, unit.clauses(func), &keep);
            c.set_ahead(&|site| {
                let (_, w) = site_ops[module as usize][site.index()];
                cg.invokes(module, site).iter().fold(w, |m, inv| {
                    m | cg.node_mask(&write_reach, &inv.callee, &units)
                })
            });
            c
        })
        .collect();

    lap("cfg");
    let locks = locks::Locks::compute(&units, &flow, &cg, &cfgs, lock_ops, &|u| {
        procs.entered_outside[u.index()]
    });
    let world = World {
        units: &units,
        flow: &flow,
        cg: &cg,
        cfgs,
        tables: tables_of(&units, &flow),
        locks,
        procs,
        site_ops,
        write_reach,
        limit,
        budget: opts.search_budget,
        writes: Vec::new(),
        write_index: Default::default(),
        summaries: Default::default(),
        deps: Default::default(),
        paths: Default::default(),
        globals: search::global_ctxs(&units, &flow),
    };
    let mut world = world;
    world.writes = writes_of(&world);
    for (i, w) in world.writes.iter().enumerate() {
        world.write_index.entry(w.1).or_default().push(i);
    }

    // Only reads that can reach a write of their category, directly or by returning.
    let outcomes: Vec<search::Outcome> = reads.par_iter().map(|r| world.search(r)).collect();
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
    let mut seen: FxHashSet<(Category, Origin, Origin, UnitId)> = FxHashSet::default();
    let mut pairs: FxHashSet<(Category, Origin, Origin)> = FxHashSet::default();
    for (read, outcome) in reads.iter().zip(&outcomes) {
        if !outcome.limits.is_zero() {
            stats.truncated_searches += outcome.limits.budget;
            stats.searches_cut += 1;
            stats.limits.add(&outcome.limits);
            stats
                .limits_per_function
                .entry(units.mfa_of_fn(units.unit(read.unit).owner))
                .or_default()
                .add(&outcome.limits);
        }
        for hit in &outcome.hits {
            if !seen.insert((read.category, read.origin, hit.write, hit.base_unit)) {
                continue;
            }
            // An atomic read-and-write (`ets:update_counter/3`) against
            // itself: no other process can come between its two halves.
            if hit.write == read.origin && world.atomic_at(read.category, read.origin) {
                continue;
            }
            let in_tests = |u: UnitId| units.in_tests(u);
            // A window in test code is the test's own read-modify-write
            // through the library's helpers.
            if !opts.include_tests
                && (in_tests(read.unit) || in_tests(hit.write_unit) || in_tests(hit.base_unit))
            {
                stats.test_pairs += 1;
                continue;
            }
            // The pair's first window (the nearest, as the search met it) is
            // always looked at. A further window is a read-modify-write of
            // its own when its function calls down to the write as near as
            // the read may be above it (a read helper, then a write helper),
            // and not through the code that read (a recursion, the next
            // turn of a loop, whose own window it is); one that calls into
            // code doing some write deep down is the same pair again.
            if !pairs.insert((read.category, read.origin, hit.write))
                && (hit.calls_below_window() > usize::from(search::MAX_ASCEND)
                    || hit.reenters_way_up())
            {
                continue;
            }
            if assembler.filtered(read, hit) {
                stats.filtered += 1;
                continue;
            }
            let mut s = assembler.suspect(read, hit);
            s.limits = outcome.limits;
            suspects.push(s);
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
    drop(assembler);
    let World { cfgs, .. } = world;
    release(flow, cfgs);
    lap("free");
    Analysis {
        suspects,
        stats,
        timings,
    }
}

/// Free the pass's largest tables on all threads: one thread alone spends
/// a noticeable part of the run on it.
fn release(flow: dataflow::Flow, cfgs: Vec<cfg::Cfg>) {
    let dataflow::Flow {
        sites,
        ctx,
        internal_ctx,
        ret,
        ..
    } = flow;
    rayon::join(
        || sites.into_par_iter().for_each(drop),
        || {
            rayon::join(
                || cfgs.into_par_iter().for_each(drop),
                || {
                    drop(ret);
                    ctx.into_par_iter()
                        .chain(internal_ctx.into_par_iter())
                        .for_each(drop)
                },
            )
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    /// `(category, read line, write line)` of each suspect in one module.
    fn check(src: &str) -> Vec<(&'static str, u32, u32)> {
        let program = load_source("t.erl", src);
        let a = find_suspects(&program, &StaticOptions::default());
        a.suspects
            .iter()
            .map(|s| (s.category.as_str(), s.read.line, s.write.line))
            .collect()
    }

    #[test]
    fn whereis_then_register_in_one_function() {
        let src = "-module(t).\n-export([start/0]).\nstart() ->\n    case whereis(srv) of\n        undefined -> register(srv, self());\n        _ -> ok\n    end.\n";
        assert_eq!(check(src), vec![("registry", 4, 5)]);
    }

    #[test]
    fn different_constant_names_are_filtered() {
        let src = "-module(t).\n-export([start/0]).\nstart() ->\n    case whereis(a) of\n        undefined -> register(b, self());\n        _ -> ok\n    end.\n";
        assert_eq!(check(src), vec![]);
    }

    #[test]
    fn register_in_a_spawned_fun_races_with_the_parent_whereis() {
        let src = "-module(t).\n-export([ensure/0]).\nensure() ->\n    case whereis(lg) of\n        undefined -> spawn(fun() -> register(lg, self()), loop() end);\n        P -> P\n    end.\nloop() -> receive stop -> ok end.\n";
        assert_eq!(check(src), vec![("registry", 4, 5)]);
    }

    #[test]
    fn a_write_that_does_not_depend_on_the_read_is_no_race() {
        let src = "-module(t).\n-export([go/0]).\nvalue() -> ets:lookup(tab, k).\nreset() -> ets:insert(tab, {k, 0}).\ngo() ->\n    _ = value(),\n    reset().\n";
        assert_eq!(check(src), vec![]);
    }

    #[test]
    fn ets_races_only_on_public_tables() {
        let body = "bump() ->\n    N = case ets:lookup(tab, k) of [] -> 0; [{k, V}] -> V end,\n    ets:insert(tab, {k, N + 1}).\n";
        let public = format!(
            "-module(t).\n-export([setup/0, bump/0]).\nsetup() -> ets:new(tab, [named_table, public]).\n{body}"
        );
        let protected = format!(
            "-module(t).\n-export([setup/0, bump/0]).\nsetup() -> ets:new(tab, [named_table, protected]).\n{body}"
        );
        assert_eq!(check(&public), vec![("ets", 5, 6)]);
        assert_eq!(check(&protected), vec![]);
    }

    #[test]
    fn keys_that_never_meet_are_filtered() {
        let src = "-module(t).\n-export([setup/0, go/0]).\nsetup() -> ets:new(tab, [named_table, public]).\ngo() ->\n    case ets:lookup(tab, hits) of\n        [] -> ets:insert(tab, {snapshot, 1});\n        _ -> ok\n    end.\n";
        assert_eq!(check(src), vec![]);
    }

    #[test]
    fn a_module_calling_its_own_api_is_not_a_second_write() {
        // As OTP's application.erl: set_env/4 clauses call set_env/4.
        let lib = "-module(application).\n-export([get_env/2, set_env/4]).\n\
                   get_env(_, _) -> undefined.\n\
                   set_env(A, K, V, T) when is_integer(T) -> set_env(A, K, V, [{timeout, T}]);\n\
                   set_env(_, _, _, _) -> ok.\n";
        let user = "-module(t).\n-export([init/0]).\ninit() ->\n\
                    case application:get_env(app, ready) of\n\
                    undefined -> application:set_env(app, ready, true, 5000);\n\
                    _ -> ok\n    end.\n";
        let mut program = load_source("application.erl", lib);
        program.absorb(load_source("t.erl", user));
        let a = find_suspects(&program, &StaticOptions::default());
        let found: Vec<_> = a
            .suspects
            .iter()
            .map(|s| (s.category.as_str(), s.read.line, s.write.module.to_string()))
            .collect();
        assert_eq!(found, vec![("application_env", 4, "t".to_string())]);
    }

    /// `bump(Tab, Key)` with `Tab` a public table from `ets:new/2` in another function.
    fn bump_with(read: &str, write: &str) -> Vec<(&'static str, u32, u32)> {
        let src = format!(
            "-module(t).\n-export([setup/0, bump/2]).\nsetup() -> ets:new(t, [public]).\n\
             bump(Tab, Key) ->\n    {read},\n    {write}.\n"
        );
        check(&src)
    }

    #[test]
    fn every_ets_read_pairs_with_every_ets_write() {
        let reads = [
            "[{Key, N}] = ets:lookup(Tab, Key)",
            "N = ets:lookup_element(Tab, Key, 2)",
            "true = ets:member(Tab, Key), N = 0",
            "[[N]] = ets:match(Tab, {Key, '$1'})",
            "[{_, N}] = ets:match_object(Tab, {Key, '_'})",
            "[N] = ets:select(Tab, [{{Key, '$1'}, [], ['$1']}])",
            "N = ets:first(Tab)",
            "N = ets:tab2list(Tab)",
            "N = ets:info(Tab, size)",
            "[{_, N}] = ets:take(Tab, Key)",
            "N = ets:update_counter(Tab, Key, 1)",
        ];
        let writes = [
            "ets:insert(Tab, {Key, N + 1})",
            "ets:insert_new(Tab, {Key, N})",
            "ets:update_element(Tab, Key, {2, N + 1})",
            "ets:update_counter(Tab, Key, N)",
            "ets:update_counter(Tab, Key, N, {Key, 0})",
            "N =/= 0 andalso ets:delete(Tab, Key)",
            "ets:delete_object(Tab, {Key, N})",
            "N =/= 0 andalso ets:take(Tab, Key) == N",
            "ets:select_delete(Tab, [{{Key, N}, [], [true]}])",
            "ets:select_replace(Tab, [{{Key, N}, [], [{{Key, N + 1}}]}])",
            "ets:match_delete(Tab, {Key, N})",
            "N =/= 0 andalso ets:delete_all_objects(Tab)",
        ];
        for r in reads {
            for w in writes {
                // An atomic update after a member check, with nothing in
                // the program removing objects: filtered (see
                // a_counter_update_after_a_member_check_is_no_lost_update).
                let expected = if r.contains("member") && w.contains("update_counter") {
                    vec![]
                } else {
                    vec![("ets", 5, 6)]
                };
                assert_eq!(bump_with(r, w), expected, "{r} -> {w}");
            }
        }
    }

    #[test]
    fn settings_of_a_table_are_no_read_of_its_objects() {
        assert_eq!(
            bump_with("N = ets:info(Tab, owner)", "ets:insert(Tab, {Key, N})"),
            vec![]
        );
    }

    #[test]
    fn an_atomic_update_is_no_pair_with_itself() {
        let src = "-module(t).\n-export([setup/0, hit/1]).\nsetup() -> ets:new(t, [named_table, public]).\n\
                   hit(K) -> ets:update_counter(t, K, 1, {K, 0}).\n";
        assert_eq!(check(src), vec![]);
    }

    #[test]
    fn a_record_update_of_a_looked_up_object_writes_its_key() {
        let src = "-module(t).\n-export([setup/0, hit/1]).\n-record(session, {id, hits = 0}).\n\
                   setup() -> ets:new(sessions, [named_table, public, {keypos, #session.id}]).\n\
                   hit(Id) ->\n    [S] = ets:lookup(sessions, Id),\n\
                   ets:insert(sessions, S#session{hits = S#session.hits + 1}).\n";
        assert_eq!(check(src), vec![("ets", 6, 7)]);
    }

    /// A module whose `bump/1` reads key `K` and writes it back, whose
    /// `reset_if/1` reads `K` then writes key `a` elsewhere, each called
    /// from `callers` functions with keys `k1`, `k2`, ... and one with `a`.
    fn with_callers(callers: usize) -> String {
        let mut src = String::from(
            "-module(t).\n-export([setup/0]).\nsetup() -> ets:new(t, [named_table, public]).\n\
             bump(K) -> [{K, N}] = ets:lookup(t, K), ets:insert(t, {K, N + 1}).\n\
             reset_if(K) -> case ets:member(t, K) of true -> reset(); false -> ok end.\n\
             reset() -> ets:insert(t, {a, 0}).\n\
             ca() -> bump(a), reset_if(a).\n",
        );
        for i in 0..callers {
            src.push_str(&format!("c{i}() -> bump(k{i}), reset_if(k{i}).\n"));
        }
        src
    }

    #[test]
    fn a_function_with_thirty_callers_keeps_its_suspects() {
        let one = check(&with_callers(1));
        assert_eq!(one, vec![("ets", 4, 4), ("ets", 5, 6)]);
        for n in [2, 15, 16, 17, 30] {
            assert_eq!(check(&with_callers(n)), one, "{n} callers");
        }
    }

    #[test]
    fn a_search_cut_by_its_budget_is_counted() {
        let program = load_source("t.erl", &with_callers(30));
        let opts = StaticOptions {
            search_budget: 2,
            ..StaticOptions::default()
        };
        let a = find_suspects(&program, &opts);
        assert!(a.stats.truncated_searches > 0);
        assert_eq!(a.stats.limits.budget, a.stats.truncated_searches);
        assert!(a.stats.limits_per_function.contains_key("t:bump/1"));
    }

    #[test]
    fn a_fun_call_runs_only_the_funs_that_flow_to_it() {
        let head = "-module(t).\n-export([setup/0, check/1, other/0]).\n\
                    setup() -> ets:new(t, [named_table, public]).\n\
                    check(F) -> case ets:lookup(t, k) of [] -> F(); _ -> ok end.\n\
                    other() -> spawn(fun() -> ets:insert(t, {k, 1}) end).\n";
        // `F` comes from outside: the path ends there, and is counted.
        let program = load_source("t.erl", head);
        let a = find_suspects(&program, &StaticOptions::default());
        assert!(a.suspects.is_empty());
        assert_eq!(a.stats.limits.unknown_funs, 1);
        assert_eq!(a.stats.limits_per_function["t:check/1"].unknown_funs, 1);
        // A fun the program passes to `check/1` is followed.
        let src = format!("{head}go() -> check(fun() -> ets:insert(t, {{k, 2}}) end).\n");
        assert_eq!(check(&src), vec![("ets", 4, 6)]);
    }

    /// `bump/2` on line 3, its table reaching it by `route` (the rest of
    /// the module, exporting `exports`, where `ACCESS` is the table's access).
    fn table_route(exports: &str, route: &str, access: &str) -> Vec<(&'static str, u32, u32)> {
        let src = format!(
            "-module(t).\n-export([{exports}]).\n\
             bump(Tab, Key) -> [{{Key, N}}] = ets:lookup(Tab, Key), ets:insert(Tab, {{Key, N + 1}}).\n{}",
            route.replace("ACCESS", access)
        );
        check(&src)
    }

    #[test]
    fn a_table_flows_to_its_uses_by_every_route() {
        let routes = [
            // An argument.
            ("go/0", "go() -> T = ets:new(t, [ACCESS]), bump(T, k).\n"),
            // A helper's result.
            (
                "go/0",
                "mk() -> ets:new(t, [ACCESS, set]).\ngo() -> bump(mk(), k).\n",
            ),
            // A record field.
            (
                "new/0, go/0",
                "-record(st, {tab}).\nnew() -> #st{tab = ets:new(t, [ACCESS])}.\ngo() -> use(new()).\nuse(#st{tab = T}) -> bump(T, k).\n",
            ),
            // A map value.
            (
                "new/0, go/0",
                "new() -> #{tab => ets:new(t, [ACCESS])}.\ngo() -> M = new(), use2(M), use3(M).\nuse2(#{tab := T}) -> bump(T, k).\nuse3(M) -> bump(maps:get(tab, M), k).\n",
            ),
            // A tuple, a list.
            (
                "go/0",
                "go() -> {_, T} = {x, ets:new(t, [ACCESS])}, [bump(X, k) || X <- [T]].\n",
            ),
            // A closure.
            (
                "go/0",
                "go() -> T = ets:new(t, [ACCESS]), spawn(fun() -> bump(T, k) end).\n",
            ),
            // A server's state, from init/1 to handle_call/3 (and to a
            // process handle_cast/2 starts, so that the server is not the
            // table's only writer).
            (
                "init/1, handle_call/3, handle_cast/2",
                "init([]) -> {ok, {state, ets:new(t, [ACCESS])}}.\nhandle_call(K, _, {state, T} = S) -> bump(T, K), {reply, ok, S}.\nhandle_cast(K, {state, T} = S) -> spawn(fun() -> bump(T, K) end), {noreply, S}.\n",
            ),
            (
                "init/1, handle_call/3, handle_cast/2",
                "init([]) -> {ok, #{tab => ets:new(t, [ACCESS])}}.\nhandle_call(K, _, #{tab := T} = S) -> bump(T, K), {reply, ok, S}.\nhandle_cast(K, #{tab := T} = S) -> spawn(fun() -> bump(T, K) end), {noreply, S}.\n",
            ),
        ];
        for (exports, r) in routes {
            assert_eq!(
                table_route(exports, r, "public"),
                vec![("ets", 3, 3)],
                "{r}"
            );
            assert_eq!(table_route(exports, r, "protected"), vec![], "{r}");
        }
        // A spawned process's arguments: `w/1` is exported (spawn/3 needs
        // it), so other code may pass it any table.
        let spawned =
            "go() -> T = ets:new(t, [ACCESS]), spawn(?MODULE, w, [T]).\nw(T) -> bump(T, j).\n";
        assert_eq!(
            table_route("go/0, w/1", spawned, "public"),
            vec![("ets", 3, 3)]
        );
    }

    /// A gen_server whose `handle_call/3` bumps a counter in a public table
    /// made in `init/1`, started by `START`, plus `EXTRA`.
    fn counter_server(start: &str, extra: &str) -> Vec<(&'static str, u32, u32)> {
        counter_server_made(start, "ets:new(t, [named_table, public])", extra)
    }

    /// [`counter_server`] whose `init/1` runs `INIT` instead of making the table.
    fn counter_server_made(start: &str, init: &str, extra: &str) -> Vec<(&'static str, u32, u32)> {
        let src = format!(
            "-module(t).\n-behaviour(gen_server).\n\
             -export([start/0, bump/1, init/1, handle_call/3, handle_cast/2]).\n\
             start() -> {start}.\n\
             bump(K) -> gen_server:call(t, {{bump, K}}).\n\
             init([]) -> {init}, {{ok, 0}}.\n\
             handle_call({{bump, K}}, _, S) ->\n    [{{K, N}}] = ets:lookup(t, K),\n    ets:insert(t, {{K, N + 1}}),\n    {{reply, N, S}}.\n\
             handle_cast(_, S) -> {{noreply, S}}.\n{extra}"
        );
        check(&src)
    }

    #[test]
    fn a_pair_serialised_in_one_server_is_filtered() {
        let named = "gen_server:start_link({local, t}, t, [], [])";
        assert_eq!(counter_server(named, ""), vec![]);
        // Several servers of the module may run at once, but the table is
        // made by init/1 under a constant name: a second server's init/1
        // fails to make it, so only the first one ever writes it.
        let unnamed = "gen_server:start_link(t, [], [])";
        assert_eq!(counter_server(unnamed, ""), vec![]);
        // The table made outside the servers: each of them writes it.
        let made_outside = "ets:new(t, [named_table, public]), gen_server:start_link(t, [], [])";
        assert_eq!(
            counter_server_made(made_outside, "ok", ""),
            vec![("ets", 8, 9)]
        );
        // Another process writes the same table.
        let client = "-export([hits/0, reset/0]).\nhits() -> bump(hits).\nreset() -> ets:insert(t, {hits, 0}).\n";
        assert_eq!(counter_server(named, client), vec![("ets", 8, 9)]);
        assert_eq!(
            counter_server(named, "-export([hits/0]).\nhits() -> bump(hits).\n"),
            vec![]
        );
    }

    /// An exported helper of a plain module `h` bumping a counter in a
    /// public table, called from the `handle_call/3` of the registered
    /// server `t`, plus `EXTRA` in `t` and `OTHER` in a third module `o`:
    /// the suspects' (module, read line, write line).
    fn server_helper(extra: &str, other: &str) -> Vec<(String, u32, u32)> {
        let h = "-module(h).\n-export([bump/1]).\n\
            bump(K) ->\n    [{K, N}] = ets:lookup(t, K),\n    ets:insert(t, {K, N + 1}).\n";
        let t = format!(
            "-module(t).\n-behaviour(gen_server).\n\
             -export([start/0, bump/1, init/1, handle_call/3, handle_cast/2]).\n\
             start() -> gen_server:start_link({{local, t}}, t, [], []).\n\
             bump(K) -> gen_server:call(t, {{bump, K}}).\n\
             init([]) -> ets:new(t, [named_table, public]), {{ok, 0}}.\n\
             handle_call({{bump, K}}, _, S) -> {{reply, h:bump(K), S}}.\n\
             handle_cast(_, S) -> {{noreply, S}}.\n{extra}"
        );
        let o = format!("-module(o).\n{other}");
        let sources = [("h.erl", h), ("t.erl", t.as_str()), ("o.erl", o.as_str())];
        let program = racewit_syntax::load::load_sources(&sources, &Default::default());
        let a = find_suspects(&program, &StaticOptions::default());
        a.suspects
            .iter()
            .map(|s| (s.read.module.to_string(), s.read.line, s.write.line))
            .collect()
    }

    #[test]
    fn an_export_called_only_from_one_servers_callbacks_runs_in_that_server() {
        assert_eq!(server_helper("", ""), vec![]);
        // Also called from another process (an exported function of `t`
        // any process may call, or of another module): a race.
        let race = vec![("h".to_string(), 4, 5)];
        let direct = "-export([quick/1]).\nquick(K) -> h:bump(K).\n";
        assert_eq!(server_helper(direct, ""), race);
        assert_eq!(server_helper("", direct), race);
        // A call naming neither module nor function is not counted (as
        // for code run once); one naming the function but no module,
        // with no arity to follow it by, may run it anywhere.
        let unknown = "-export([any/3]).\nany(M, F, A) -> apply(M, F, A).\n";
        assert_eq!(server_helper("", unknown), vec![]);
        let by_name = "-export([any/2]).\nany(M, A) -> apply(M, bump, A).\n";
        assert_eq!(server_helper("", by_name), race);
        // Spawned from another process: it runs in a process of its own.
        let spawned = "-export([go/1]).\ngo(K) -> spawn(h, bump, [K]).\n";
        assert_eq!(server_helper("", spawned), race);
        // A fun of it let out of the program: anywhere.
        let let_out = "-export([f/0]).\nf() -> fun h:bump/1.\n";
        assert_eq!(server_helper("", let_out), race);
    }

    /// A check in `check/1` and, four calls down (past the calls a
    /// search enters with their context), the insert it guards; `write`
    /// is the deep function's body, `callers` more functions calling
    /// `check/1`, each with the argument `arg(i)` gives.
    fn deep_create(write: &str, callers: usize, arg: &dyn Fn(usize) -> String) -> String {
        let mut src = String::from("-module(t).\n-export([setup/0, check/1");
        for i in 0..callers {
            src.push_str(&format!(", u{i}/1"));
        }
        src.push_str(
            "]).\nsetup() -> ets:new(reg, [named_table, public]).\n\
             check(Name) ->\n    case ets:member(reg, Name) of\n\
             \x20       false -> create(Name);\n        true -> ok\n    end.\n\
             create(Name) -> a(Name).\na(Name) -> b(Name).\nb(Name) -> c(Name).\n",
        );
        src.push_str(write);
        for i in 0..callers {
            src.push_str(&format!("u{i}(X) -> check({}).\n", arg(i)));
        }
        src
    }

    #[test]
    fn adding_callers_never_removes_a_suspect() {
        // The key widens past the atom limit with 20 callers, whether they
        // pass constants, unknown values or tuples holding both; the
        // insert four calls down still writes what the check read.
        let write = "c(Name) -> ets:insert(reg, {Name, x}).\n";
        let want = vec![("ets", 5, 12)];
        assert_eq!(check(&deep_create(write, 0, &|_| String::new())), want);
        let args: [&dyn Fn(usize) -> String; 4] = [
            &|i| format!("k{i}"),
            &|_| "X".to_string(),
            &|i| format!("{{k{i}, X}}"),
            &|i| {
                if i % 2 == 0 {
                    format!("k{i}")
                } else {
                    "X".to_string()
                }
            },
        ];
        for arg in args {
            for n in [5, 20] {
                assert_eq!(
                    check(&deep_create(write, n, arg)),
                    want,
                    "{n} callers, {}",
                    arg(1)
                );
            }
        }
    }

    #[test]
    fn a_deep_write_of_another_key_stays_apart_however_many_callers() {
        // The same shape, but the deep insert writes a key of its own
        // (another parameter, a constant the check is never given): the
        // widened check key meets neither.
        let other = "c(_Name) -> ets:insert(reg, {other, x}).\n";
        let param = "c(Name) -> d(Name, make_ref()).\nd(_, K) -> ets:insert(reg, {K, x}).\n";
        for write in [other, param] {
            for n in [0, 20] {
                assert_eq!(
                    check(&deep_create(write, n, &|_| "X".to_string())),
                    vec![],
                    "{n} callers: {write}"
                );
            }
        }
    }

    #[test]
    fn objects_created_with_a_checked_marker_are_writes_of_the_race() {
        // A client checks a metric's marker and asks the server to create
        // it, three calls deep: the server inserts the marker and the
        // metric's own counters, keyed by tuples holding its name. Both
        // inserts race with the check (two clients that find no marker
        // both create the counters, and the second resets what was added
        // since the first); an object of the counters table under another
        // key does not, nor does one made in another clause.
        let src = "-module(t).\n-behaviour(gen_server).\n\
             -export([setup/0, notify/2, start_link/0, init/1, handle_call/3, handle_cast/2]).\n\
             setup() -> ets:new(reg, [named_table, public]), ets:new(cnt, [named_table, public]).\n\
             exists(Name) -> ets:member(reg, Name).\n\
             notify(Name, V) -> add(Name, exists(Name)), inc(Name, V).\n\
             add(Name, false) -> make(Name);\nadd(_, true) -> ok.\n\
             make(Name) -> true = new(Name).\n\
             new(Name) -> gen_server:call(t, {new, Name}).\n\
             inc(Name, V) -> ets:update_counter(cnt, {Name, 0}, V).\n\
             start_link() -> gen_server:start_link({local, t}, t, [], []).\n\
             init([]) -> {ok, []}.\n\
             handle_call({new, Name}, _From, S) ->\n\
             \x20   Objs = [{{Name, N}, 0} || N <- [0, 1]],\n\
             \x20   true = ets:insert(cnt, Objs),\n\
             \x20   ets:insert(reg, {Name, counter}),\n\
             \x20   ets:insert(cnt, {other, 0}),\n\
             \x20   {reply, true, S};\n\
             handle_call({reset, Name}, _From, S) ->\n\
             \x20   ets:insert(cnt, [{{Name, N}, 0} || N <- [0, 1]]),\n\
             \x20   {reply, true, S}.\n\
             handle_cast(_, S) -> {noreply, S}.\n";
        let found = check(src);
        assert!(found.contains(&("ets", 5, 17)), "{found:?}");
        assert!(found.contains(&("ets", 5, 16)), "{found:?}");
        assert!(!found.contains(&("ets", 5, 18)), "{found:?}");
        assert!(!found.contains(&("ets", 5, 21)), "{found:?}");
    }

    #[test]
    fn an_insert_new_whose_result_picks_a_branch_is_no_stale_write() {
        let make = |write: &str| {
            check(&format!(
                "-module(t).\n-export([setup/0, add/2]).\n\
                 setup() -> ets:new(t, [named_table, public]).\n\
                 add(K, V) ->\n    case ets:member(t, K) of\n        true -> ok;\n\
                 \x20       false ->\n            {write}\n    end.\n"
            ))
        };
        // The `false` of a key inserted meanwhile has its own branch.
        assert_eq!(
            make("case ets:insert_new(t, {K, V}) of false -> add(K, V); true -> ok end"),
            vec![]
        );
        // The result is dropped: the check and the insert still race.
        assert_eq!(make("ets:insert_new(t, {K, V}), ok"), vec![("ets", 5, 8)]);
        // A plain insert overwrites what another process inserted.
        assert_eq!(make("ets:insert(t, {K, V}), ok"), vec![("ets", 5, 8)]);
    }

    #[test]
    fn a_counter_update_after_a_member_check_is_no_lost_update() {
        let make = |extra: &str| {
            check(&format!(
                "-module(t).\n-export([setup/0, add/2, drop/1]).\n\
                 setup() -> ets:new(t, [named_table, public]).\n\
                 add(K, V) ->\n    case ets:member(t, K) of\n\
                 \x20       true -> ets:update_counter(t, K, V);\n\
                 \x20       false -> ets:insert(t, {{K, V}})\n    end.\n\
                 drop(K) -> {extra}.\n"
            ))
        };
        // Nothing removes a key: the update adds to whatever is there.
        assert_eq!(make("K"), vec![("ets", 5, 7)]);
        // A delete between the check and the update makes it fail.
        assert_eq!(make("ets:delete(t, K)"), vec![("ets", 5, 6), ("ets", 5, 7)]);
    }

    #[test]
    fn a_reservation_given_back_is_no_lost_update() {
        // acquire/2 takes a slot with an atomic add and gives it back when
        // the count it got is over the limit (lines 5-8).
        let make = |give_back: &str, extra: &str| {
            check(&format!(
                "-module(t).\n-export([setup/0, acquire/2, release/1, other/1]).\n\
                 setup() -> ets:new(t, [named_table, public]).\n\
                 acquire(K, Max) ->\n    N = ets:update_counter(t, K, {{2, 1}}, {{K, 0}}),\n\
                 \x20   if N =< Max -> ok;\n\
                 \x20      true -> ets:update_counter(t, K, {give_back}), busy end.\n\
                 release(K) -> ets:update_counter(t, K, {{2, -1}}).\n\
                 other(K) -> {extra}.\n"
            ))
        };
        assert_eq!(make("{2, -1}", "K"), vec![]);
        // A second add decided on the count is no give-back: two callers
        // that both saw a count under the limit both add.
        assert_eq!(make("{2, 1}", "K"), vec![("ets", 5, 7)]);
        // An amount that depends on the read.
        assert_eq!(make("{2, -N}", "K"), vec![("ets", 5, 7)]);
        // A delete between the add and the give-back makes it raise; a
        // threshold or an insert lands it on another count.
        for other in [
            "ets:delete(t, K)",
            "ets:update_counter(t, K, {2, -1, 0, 0})",
            "ets:insert(t, {K, 0})",
        ] {
            assert!(make("{2, -1}", other).contains(&("ets", 5, 7)), "{other}");
        }
        // A plain read, then an add within the checked bound: both callers
        // may see room for one more.
        let checked = check(
            "-module(t).\n-export([setup/0, acquire/2]).\n\
             setup() -> ets:new(t, [named_table, public]).\n\
             acquire(K, Max) ->\n    N = ets:lookup_element(t, K, 2),\n\
             \x20   if N < Max -> ets:update_counter(t, K, {2, 1}), ok;\n\
             \x20      true -> busy end.\n",
        );
        assert_eq!(checked, vec![("ets", 5, 6)]);
    }

    #[test]
    fn a_helper_read_returning_into_one_server_is_serialised() {
        // `get/1` is exported and may run anywhere, but this path returns
        // from it into the server's callback: the server runs it all.
        let src = "-module(t).\n-behaviour(gen_server).\n\
                   -export([start/0, get/1, init/1, handle_call/3, handle_cast/2]).\n\
                   start() -> gen_server:start_link({local, t}, t, [], []).\n\
                   get(K) -> ets:lookup(t, K).\n\
                   init([]) -> ets:new(t, [named_table, public]), {ok, 0}.\n\
                   handle_call({bump, K}, _, S) -> [{K, N}] = get(K), {reply, set(K, N + 1), S}.\n\
                   handle_cast(_, S) -> {noreply, S}.\n\
                   set(K, N) -> ets:insert(t, {K, N}).\n";
        assert_eq!(check(src), vec![]);
        // The same helpers also used outside the server: a client's write
        // can come between the server's read and write.
        let client = src.replace("-export([start/0,", "-export([reset/1, start/0,")
            + "reset(K) -> set(K, 0).\n";
        assert_eq!(check(&client), vec![("ets", 5, 9)]);
    }

    #[test]
    fn a_spawn_named_by_a_variable_starts_a_process() {
        // `erlang:Spawn(Fun)`, `Spawn` fed `spawn` or `spawn_link` by the
        // callers: the fun runs in a new process, and registers there.
        let src = "-module(t).\n-export([call/0]).\n\
                   call() ->\n    case whereis(srv) of\n        undefined -> start(spawn);\n\
                   \x20       _ -> ok\n    end.\n\
                   start(Spawn) -> erlang:Spawn(fun() -> register(srv, self()), loop() end).\n\
                   loop() -> receive stop -> ok end.\n";
        assert_eq!(check(src), vec![("registry", 4, 8)]);
    }

    #[test]
    fn a_pair_crossing_two_requests_is_kept() {
        let src = "-module(t).\n-behaviour(gen_server).\n\
                   -export([start/0, incr/1, init/1, handle_call/3, handle_cast/2]).\n\
                   start() -> gen_server:start_link({local, t}, t, [], []).\n\
                   incr(K) -> N = gen_server:call(t, {get, K}), gen_server:call(t, {set, K, N + 1}).\n\
                   init([]) -> ets:new(t, [named_table, public]), {ok, 0}.\n\
                   handle_call({get, K}, _, S) -> [{K, N}] = ets:lookup(t, K), {reply, N, S};\n\
                   handle_call({set, K, N}, _, S) -> {reply, ets:insert(t, {K, N}), S}.\n\
                   handle_cast(_, S) -> {noreply, S}.\n";
        assert_eq!(check(src), vec![("ets", 7, 8)]);
    }

    #[test]
    fn a_hand_written_loop_registered_once_serialises_its_pairs() {
        let src = "-module(t).\n-export([start/0, bump/1]).\n\
                   start() -> ets:new(t, [named_table, public]), register(ctr, spawn(fun loop/0)).\n\
                   bump(K) -> ctr ! {bump, K}.\n\
                   loop() ->\n    receive\n        {bump, K} ->\n            [{K, N}] = ets:lookup(t, K),\n            ets:insert(t, {K, N + 1}),\n            loop()\n    end.\n";
        assert_eq!(check(src), vec![]);
        // Spawned without a name: every start/0 makes one more.
        let many = src.replace("register(ctr, spawn(fun loop/0))", "spawn(fun loop/0)");
        assert_eq!(check(&many), vec![("ets", 8, 9)]);
    }

    #[test]
    fn a_protected_table_given_away_is_not_filtered() {
        let body = "bump(K) ->\n    N = case ets:lookup(tab, K) of [] -> 0; [{K, V}] -> V end,\n    ets:insert(tab, {K, N + 1}).\n";
        let make = |opts: &str, extra: &str| {
            check(&format!(
                "-module(t).\n-export([setup/0, bump/1]).\nsetup() -> ets:new(tab, [named_table, {opts}]){extra}.\n{body}"
            ))
        };
        assert_eq!(make("protected", ""), vec![]);
        assert_eq!(
            make("protected, {heir, whereis(h), x}", ""),
            vec![("ets", 5, 6)]
        );
        assert_eq!(
            make("protected", ", ets:give_away(tab, whereis(h), x)"),
            vec![("ets", 5, 6)]
        );
    }

    #[test]
    fn a_record_update_does_not_widen_the_fields_it_copies() {
        // `touch/1` (exported) updates a record it is handed: the cache it
        // copies is what `new/0` stored, the protected table.
        let src = "-module(t).\n-export([new/0, touch/1, bump/2, get/1]).\n\
                   -record(c, {tab, n = 0}).\n\
                   new() -> #c{tab = ets:new(x, [set])}.\n\
                   touch(#c{n = N} = C) -> C#c{n = N + 1}.\n\
                   bump(K, #c{tab = T}) ->\n    [{K, V}] = ets:lookup(T, K),\n    ets:insert(T, {K, V + 1}).\n\
                   get(C) -> tab(C).\n\
                   tab(#c{} = C) -> C#c.tab.\n";
        assert_eq!(check(src), vec![]);
        // An update that sets the field to a public table is counted.
        let public = src.replace(
            "C#c{n = N + 1}",
            "C#c{n = N + 1, tab = ets:new(y, [public])}",
        );
        assert_eq!(check(&public), vec![("ets", 7, 8)]);
    }

    /// `bump/0` as `body` (on lines 5-7), plus `extra`.
    fn locked(body: &str, extra: &str) -> Vec<(&'static str, u32, u32)> {
        check(&format!(
            "-module(t).\n-export([setup/0, bump/0, reset/0]).\n\
             setup() -> ets:new(t, [named_table, public]).\n\
             reset() -> {extra}.\n{body}"
        ))
    }

    #[test]
    fn accesses_under_one_lock_are_no_pair() {
        let trans = "bump() -> global:trans({ctr, self()}, fun() ->\n\
                     [{k, N}] = ets:lookup(t, k),\n    ets:insert(t, {k, N + 1}) end).\n";
        assert_eq!(locked(trans, "ok"), vec![]);
        // A write of the same key without the lock.
        assert_eq!(locked(trans, "ets:insert(t, {k, 0})"), vec![("ets", 6, 7)]);
        // ... or under the same lock.
        let reset = "global:trans({ctr, self()}, fun() -> ets:insert(t, {k, 0}) end)";
        assert_eq!(locked(trans, reset), vec![]);
        // Another lock.
        let other = "global:trans({other, self()}, fun() -> ets:insert(t, {k, 0}) end)";
        assert_eq!(locked(trans, other), vec![("ets", 6, 7)]);
        let set = "bump() -> global:set_lock({ctr, self()}),\n\
                   [{k, N}] = ets:lookup(t, k),\n    ets:insert(t, {k, N + 1}), global:del_lock({ctr, self()}).\n";
        assert_eq!(locked(set, "ok"), vec![]);
        // Let go between the read and the write.
        let gap = "bump() -> global:set_lock({ctr, self()}),\n\
                   [{k, N}] = ets:lookup(t, k), global:del_lock({ctr, self()}), global:set_lock({ctr, self()}),\n    ets:insert(t, {k, N + 1}), global:del_lock({ctr, self()}).\n";
        assert_eq!(locked(gap, "ok"), vec![("ets", 6, 7)]);
    }

    #[test]
    fn pairs_in_test_code_are_analysed_but_not_reported() {
        let lib = "-module(ctr).\n-export([setup/0, bump/1]).\n\
                   setup() -> ets:new(ctr, [named_table, public]).\n\
                   bump(K) -> [{K, N}] = ets:lookup(ctr, K), ets:insert(ctr, {K, N + 1}).\n";
        let suite = "-module(ctr_SUITE).\n-export([t/1]).\n\
                     t(_) -> ctr:bump(k), case ets:lookup(ctr, k) of [] -> ets:insert(ctr, {k, 0}); _ -> ok end.\n";
        let mut program = load_source("src/ctr.erl", lib);
        program.absorb(load_source("test/ctr_SUITE.erl", suite));
        let run = |include_tests| {
            let opts = StaticOptions {
                include_tests,
                ..StaticOptions::default()
            };
            let a = find_suspects(&program, &opts);
            let ids: Vec<String> = a.suspects.iter().map(|s| s.id.clone()).collect();
            (ids, a.stats.test_pairs)
        };
        // The library's own pair, reachable from the suite, is reported.
        let (ids, test_pairs) = run(false);
        assert_eq!(ids, vec!["R002:ctr:4:4"]);
        assert!(test_pairs > 0);
        let (all, none) = run(true);
        assert!(all.len() > ids.len() && all.contains(&"R002:ctr:4:4".to_string()));
        assert_eq!(none, 0);
    }

    /// A counter server (registered `cs`, public table `t`): `hit(K)` on
    /// line 6 is `client`, and the server's `make(K)` on line 10 is `make`.
    fn asking_client(client: &str, make: &str) -> Vec<(&'static str, u32, u32)> {
        check(&format!(
            "-module(t).\n-behaviour(gen_server). -export([start/0, hit/1, init/1, handle_call/3]).\n\
             start() -> gen_server:start({{local, cs}}, t, [], []).\n\
             init([]) -> ets:new(t, [named_table, public]), {{ok, s}}.\n\
             handle_call({{make, K}}, _, S) -> {{reply, make(K), S}}.\n\
             hit(K) -> {client}.\n\
             \n\
             \n\
             \n\
             make(K) -> {make}.\n"
        ))
    }

    #[test]
    fn a_server_that_checks_again_before_it_writes_is_no_stale_write() {
        let ask = "try ets:update_counter(t, K, 1) catch error:badarg -> gen_server:call(cs, {make, K}) end";
        let again =
            "try ets:update_counter(t, K, 1) catch error:badarg -> ets:insert(t, {K, 1}), 1 end";
        // The client asks because it found nothing; the server looks again
        // (its own add is atomic, its insert follows its own miss).
        assert_eq!(asking_client(ask, again), vec![]);
        let member = "case ets:member(t, K) of false -> gen_server:call(cs, {make, K}); true -> ets:update_counter(t, K, 1) end";
        let lookup_again = "case ets:lookup(t, K) of [] -> ets:insert(t, {K, 1}); _ -> ok end";
        assert!(!asking_client(member, lookup_again).contains(&("ets", 6, 10)));
        // A server that does not look again, or looks at another key.
        assert_eq!(
            asking_client(ask, "ets:insert(t, {K, 1})"),
            vec![("ets", 6, 10)]
        );
        let other = "case ets:lookup(t, other) of [] -> ets:insert(t, {K, 1}); _ -> ok end";
        assert!(asking_client(ask, other).contains(&("ets", 6, 10)));
        // A client that asks because of what it found, not because it
        // found nothing: the server's look at absence does not re-decide it.
        let present = "case ets:lookup(t, K) of [{K, N}] when N > 9 -> gen_server:call(cs, {make, K}); _ -> ok end";
        assert!(asking_client(present, lookup_again).contains(&("ets", 6, 10)));
    }

    #[test]
    fn functions_only_under_a_test_macro_are_test_code() {
        let src = "-module(ctr).\n-export([setup/0, bump/1, peek/0]).\n\
                   setup() -> ets:new(ctr, [named_table, public]).\n\
                   bump(K) -> [{K, N}] = ets:lookup(ctr, K), ets:insert(ctr, {K, N + 1}).\n\
                   -ifdef(TEST).\n-export([reset_test/0]).\n\
                   reset_test() -> case ets:lookup(ctr, k) of [] -> ets:insert(ctr, {k, 0}); _ -> ok end.\n\
                   -endif.\n-ifdef(TEST).\n\
                   peek() -> case ets:lookup(ctr, j) of [] -> ets:insert(ctr, {j, 0}); _ -> ok end.\n\
                   -else.\n\
                   peek() -> case ets:lookup(ctr, j) of [] -> ets:insert(ctr, {j, 1}); _ -> ok end.\n\
                   -endif.\n";
        let run = |test: bool, include_tests| {
            let load = racewit_syntax::load::LoadOptions {
                defines: if test {
                    vec![("TEST".to_string(), None)]
                } else {
                    Vec::new()
                },
                ..Default::default()
            };
            let program = racewit_syntax::load::load_sources(&[("src/ctr.erl", src)], &load);
            let opts = StaticOptions {
                include_tests,
                ..StaticOptions::default()
            };
            let a = find_suspects(&program, &opts);
            let ids: Vec<String> = a.suspects.iter().map(|s| s.id.clone()).collect();
            (ids, a.stats.test_pairs)
        };
        // reset_test/0 (line 7) is the module's own test; peek/0 (line 10)
        // has another definition without the macro, so it is code.
        let (ids, test_pairs) = run(true, false);
        assert_eq!(ids, vec!["R002:ctr:4:4", "R002:ctr:10:10"]);
        assert!(test_pairs > 0);
        let (all, _) = run(true, true);
        assert!(all.contains(&"R002:ctr:7:7".to_string()), "{all:?}");
        // Without the macro the test is not there at all.
        let (ids, _) = run(false, false);
        assert_eq!(ids, vec!["R002:ctr:4:4", "R002:ctr:12:12"]);
    }

    /// `go(K)` on lines 4-6: `read` (binding `V`), then `write`.
    fn dependence(read: &str, write: &str) -> Vec<(&'static str, u32, u32)> {
        check(&format!(
            "-module(t).\n-export([setup/0, go/1]).\n-record(r, {{k, n = 0}}).\n\
             setup() -> ets:new(t, [named_table, public, {{keypos, 2}}]).\n\
             go(K) ->\n    {read},\n    {write}.\n"
        ))
    }

    #[test]
    fn a_write_depends_on_the_read_through_every_expression_form() {
        let read = "[#r{n = V}] = ets:lookup(t, K)";
        let read_bare = "V = ets:lookup_element(t, K, 3)";
        let writes = [
            // Record creation and update.
            (read_bare, "ets:insert(t, #r{k = K, n = V + 1})"),
            (
                "[R] = ets:lookup(t, K), V = R#r.n",
                "ets:insert(t, R#r{n = V + 1})",
            ),
            // Map creation and update.
            (read_bare, "M = #{n => V}, ets:insert(t, {r, K, M})"),
            (
                read_bare,
                "M = #{n => 0}, ets:insert(t, {r, K, M#{n := V}})",
            ),
            // Comprehensions: the generator, a filter.
            (read_bare, "[ets:insert(t, {r, K, X}) || X <- [V]]"),
            (read_bare, "[ets:insert(t, {r, K, 1}) || V > 0]"),
            // try/catch: the body's value, and a catch reached because the read failed.
            (
                read_bare,
                "try V + 1 of N -> ets:insert(t, {r, K, N}) catch _:_ -> ok end",
            ),
            (
                "ok",
                "try ets:lookup_element(t, K, 3) catch error:badarg -> ets:insert(t, {r, K, 0}) end",
            ),
            // maybe.
            (read_bare, "maybe N ?= V, ets:insert(t, {r, K, N}) end"),
            // Binaries.
            (read_bare, "ets:insert(t, {r, K, <<V:8>>})"),
            // catch.
            (read_bare, "N = (catch V + 1), ets:insert(t, {r, K, N})"),
        ];
        for (r, w) in writes {
            let found = dependence(r, w);
            assert!(
                found.iter().any(|&(c, _, _)| c == "ets"),
                "{r} -> {w}: {found:?}"
            );
        }
        // The same write not depending on the read.
        assert_eq!(
            dependence("V = ets:lookup(t, K)", "ets:insert(t, #r{k = K, n = 0})"),
            vec![]
        );
        // ... unless the read raises for an absent object: the write then
        // runs only when it was there, as after a match on a lookup.
        assert_eq!(
            dependence(read_bare, "ets:insert(t, #r{k = K, n = 0})"),
            vec![("ets", 6, 7)]
        );
        let _ = read;
    }

    /// A protected table kept in a module's own `#st{table}` record and
    /// read back from a record its exported function is given: the
    /// table is known (and no other process can write it) although
    /// another module's own `#st{levels}` record, of the same name and
    /// size, holds other values there.
    #[test]
    fn a_table_in_a_record_is_not_mixed_with_another_modules_record_of_that_name() {
        let q = "-module(q).\n-export([new/0, out/1]).\n-record(st, {table}).\n\
            new() -> #st{table = ets:new(q, [ordered_set])}.\n\
            out(#st{table = T}) ->\n\
                case ets:first(T) of\n\
                    '$end_of_table' -> [];\n\
                    K -> ets:delete(T, K), [K]\n\
                end.\n";
        let c = "-module(c).\n-export([init/1]).\n-record(st, {levels = []}).\n\
            init(L) -> #st{levels = L}.\n";
        let suspects = |sources: &[(&str, &str)]| {
            let program = racewit_syntax::load::load_sources(sources, &Default::default());
            let a = find_suspects(&program, &StaticOptions::default());
            a.suspects
                .iter()
                .map(|s| (s.read.line, s.write.line))
                .collect::<Vec<_>>()
        };
        assert_eq!(suspects(&[("q.erl", q), ("c.erl", c)]), vec![]);
        // The same with a public table is a race.
        let public = q.replace("[ordered_set]", "[ordered_set, public]");
        assert_eq!(suspects(&[("q.erl", &public), ("c.erl", c)]), vec![(6, 8)]);
    }

    /// Ids of the suspects of `src` (one module, `t.erl`).
    fn ids(src: &str) -> Vec<String> {
        let program = load_source("t.erl", src);
        let a = find_suspects(&program, &StaticOptions::default());
        a.suspects.iter().map(|s| s.id.clone()).collect()
    }

    /// `get/0` and `set/1` helpers over one persistent term (lines 3 and
    /// 4), used by the functions in `users` (from line 5 on).
    fn helpers(users: &str) -> String {
        format!(
            "-module(t).\n-export([add/1, drop/1, reset/0]).\n\
             get() -> persistent_term:get(k, []).\n\
             set(L) -> persistent_term:put(k, L).\n{users}"
        )
    }

    #[test]
    fn each_window_of_a_helper_pair_is_its_own_suspect() {
        // One function reading through get/0 and writing through set/1:
        // one window, today's id.
        let one = helpers("add(X) -> L = get(), set([X | L]).\ndrop(_) -> ok.\nreset() -> ok.\n");
        assert_eq!(ids(&one), vec!["R006:t:3:4"]);
        // Two functions doing it: two lost updates, each fixed where it
        // is, each with the line where its read's value arrives.
        let two = helpers(
            "add(X) -> L = get(), set([X | L]).\n\
             drop(X) ->\n    L = get(),\n    set(lists:delete(X, L)).\n\
             reset() -> set([]).\n",
        );
        assert_eq!(ids(&two), vec!["R006:t:3:4:w:t:5", "R006:t:3:4:w:t:7"]);
        // Each suspect is entered through its own window.
        let program = load_source("t.erl", &two);
        let a = find_suspects(&program, &StaticOptions::default());
        let entries: Vec<Vec<String>> = a
            .suspects
            .iter()
            .map(|s| s.entries.iter().map(|e| e.mfa.to_string()).collect())
            .collect();
        assert_eq!(entries, vec![vec!["t:add/1"], vec!["t:drop/1"]]);
    }

    #[test]
    fn a_window_only_reaching_the_write_deep_down_or_again_is_the_same_pair() {
        // add/1 is the read-modify-write; drop/1 reads, then calls into a
        // chain four calls deep that ends in the write: not a window of
        // its own (the pair is reported once, from its nearest window).
        let deep = helpers(
            "add(X) -> L = get(), set([X | L]).\n\
             drop(X) -> L = get(), a(lists:delete(X, L)).\n\
             a(L) -> b(L).\nb(L) -> c(L).\nc(L) -> d(L).\nd(L) -> set(L).\n\
             reset() -> ok.\n",
        );
        assert_eq!(ids(&deep), vec!["R006:t:3:4"]);
        // A loop whose next turn runs the read-modify-write again: the
        // caller's window reaches the write only through add/1 itself.
        let again = helpers(
            "add(X) -> L = get(), set([X | L]).\n\
             drop(X) -> case add(X) of ok -> ok; _ -> add(X) end.\n\
             reset() -> ok.\n",
        );
        assert_eq!(ids(&again), vec!["R006:t:3:4"]);
    }

    #[test]
    fn a_window_in_test_code_is_a_test_pair() {
        let lib = helpers("add(X) -> L = get(), set([X | L]).\ndrop(_) -> ok.\nreset() -> ok.\n");
        let suite = "-module(t_tests).\n-export([t/0]).\n\
                     t() -> L = t:get(), t:set(L).\n";
        let lib = lib.replace("-export([add/1,", "-export([get/0, set/1, add/1,");
        let mut program = load_source("src/t.erl", &lib);
        program.absorb(load_source("test/t_tests.erl", suite));
        let a = find_suspects(&program, &StaticOptions::default());
        let ids: Vec<&str> = a.suspects.iter().map(|s| s.id.as_str()).collect();
        // The library's own window; the test's is counted, not reported.
        assert_eq!(ids, vec!["R006:t:3:4"]);
        assert!(a.stats.test_pairs > 0);
    }

    #[test]
    fn categories_can_be_switched_off() {
        let src = "-module(t).\n-export([start/0]).\nstart() ->\n    case whereis(srv) of\n        undefined -> register(srv, self());\n        _ -> ok\n    end.\n";
        let program = load_source("t.erl", src);
        let mut opts = StaticOptions::default();
        opts.categories.remove(&Category::Registry);
        assert!(find_suspects(&program, &opts).suspects.is_empty());
    }
}
