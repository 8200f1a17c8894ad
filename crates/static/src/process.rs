//! Which processes each unit may run in, and which of those processes
//! exist at most once at a time.
//!
//! A process is a server ([`Proc::Server`]: the callbacks of a gen_server,
//! gen_statem or gen_event module, run by the behaviour in the server's
//! process), a process started by a `spawn` at a site ([`Proc::Spawned`]:
//! a hand-written loop), or any other process ([`ProcSet::Any`]: exported
//! functions and funs that leave the program can be called from anywhere).
//! A unit runs wherever its callers run: the sets flow along calls and funs
//! handed to library code, not along process starts or requests.
//!
//! A server whose every start names it with one constant (`{local, Name}`,
//! `{global, Name}`, or a `register(Name, self())` of a name nothing
//! unregisters before `gen_server:enter_loop/3`) runs in at most one
//! process at a time; so does a spawned loop registered under a constant
//! name that blocks in a `receive` before it can do anything else.

use std::collections::{BTreeMap, BTreeSet};

use racewit_syntax::ir::Name;
use racewit_syntax::ir::{Body, CallSiteId, Expr, ExprId};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::callgraph::{CallGraph, Callee, EdgeKind};
use crate::dataflow::{Flow, SiteTarget};
use crate::server::Behaviour;
use crate::spawn::start_of;
use crate::units::Units;
use crate::values::{Origin, Term, UnitId, Val, resolve};

/// A process code can run in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Proc {
    /// The server of a callback module (module index).
    Server(u32),
    /// The process a spawn at this site starts.
    Spawned(Origin),
}

/// What code run once ([`Processes::run_once`]) is run once for: no two
/// runs for one root overlap.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Root {
    /// A start of the module (index) every start of which names it with
    /// a constant: its `init/1` and what only that calls.
    Init(u32),
    /// The process that registered itself under this name
    /// ([`holder_sites`]): the code after its `register(Name, self())`.
    Holder(Name),
}

/// The processes a unit may run in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcSet {
    /// Some of these (few) processes.
    Some(BTreeSet<Proc>),
    /// Any process.
    Any,
}

/// Most processes kept in a set before it becomes [`ProcSet::Any`].
const MAX_PROCS: usize = 4;

impl ProcSet {
    fn join(&mut self, other: &ProcSet) -> bool {
        match (&mut *self, other) {
            (ProcSet::Any, _) => false,
            (_, ProcSet::Any) => {
                *self = ProcSet::Any;
                true
            }
            (ProcSet::Some(a), ProcSet::Some(b)) => {
                let before = a.len();
                a.extend(b.iter().copied());
                if a.len() > MAX_PROCS {
                    *self = ProcSet::Any;
                    return true;
                }
                a.len() != before
            }
        }
    }

    /// The one process, if the set holds exactly one.
    pub fn only(&self) -> Option<Proc> {
        match self {
            ProcSet::Some(s) if s.len() == 1 => s.iter().next().copied(),
            _ => None,
        }
    }
}

/// Where every unit runs, and the processes that are singletons.
pub struct Processes {
    pub runs_in: Vec<ProcSet>,
    /// Units entered from outside any call of the program: callbacks,
    /// exported functions other than internal ones ([`internal_exports`]),
    /// funs let out.
    pub entered_outside: Vec<bool>,
    pub singletons: FxHashSet<Proc>,
    /// Code run once per start of a singleton ([`Root`]): `init/1` of a
    /// module every start of which names it with one constant, the code a
    /// process runs after registering itself under a name nothing
    /// unregisters, and every function or fun all of whose calls and
    /// spawns in the program come from code run once for that same root
    /// (with the `init/1` those calls start, and a singleton supervisor's
    /// child start functions). Such code does not run twice at a time (a
    /// second start of the root fails before its `init/1`; a second
    /// process cannot take the name while the first holds it). An
    /// exported function counts when the program calls it only from
    /// there: the pass takes it for an internal export.
    pub run_once: Vec<Option<Root>>,
    /// Call sites that run only in the process registered under a
    /// constant name, by a test around them ([`registered_tests`]), with
    /// that process.
    pub registered: FxHashMap<Origin, Proc>,
}

impl Processes {
    /// The one process the call site `o` of unit `u` runs in: the
    /// registered process a test around it proves, else the unit's one
    /// process.
    pub fn site_process(&self, u: UnitId, o: Origin) -> Option<Proc> {
        self.registered
            .get(&o)
            .copied()
            .or_else(|| self.runs_in[u.index()].only())
    }

    /// The one process `u` runs in, when that process exists at most once.
    pub fn confined(&self, u: UnitId) -> Option<Proc> {
        self.runs_in[u.index()]
            .only()
            .filter(|p| self.singletons.contains(p))
    }
}

/// Funs (`fun () -> ... end`, `fun f/0`) whose value leaves through a
/// channel no edge follows (a message, an ETS object, the result of an
/// exported function): they may run in any process.
fn funs_let_out(units: &Units<'_>, flow: &Flow, ets_objects: &[Val]) -> FxHashSet<UnitId> {
    let walk = |t: &Term, out: &mut FxHashSet<UnitId>| {
        fn go(units: &Units<'_>, t: &Term, out: &mut FxHashSet<UnitId>) {
            match t {
                Term::Fun(u) => {
                    out.insert(*u);
                }
                Term::FunRef(mfa) => {
                    if let Some(g) = units.lookup_mfa(mfa) {
                        out.insert(units.fn_unit[g.index()]);
                    }
                }
                Term::List(ts) | Term::Tuple(ts) | Term::Map(ts) => {
                    ts.iter().for_each(|x| go(units, x, out))
                }
                _ => {}
            }
        }
        go(units, t, out)
    };
    let mut out = FxHashSet::default();
    for v in flow.sent.iter().chain(ets_objects) {
        for t in v.iter() {
            walk(t, &mut out);
        }
    }
    // A fun an exported function returns goes to whoever called it.
    for (i, fu) in units.fn_unit.iter().enumerate() {
        if units.fns[i].1.exported {
            for t in resolve(&flow.ret[fu.index()], &flow.ctx[i], flow.limit).iter() {
                walk(t, &mut out);
            }
        }
    }
    out
}

pub fn compute(units: &Units<'_>, flow: &Flow, cg: &CallGraph) -> Processes {
    let n = units.units.len();
    let mut runs_in = vec![ProcSet::Some(BTreeSet::new()); n];
    // Values written into ETS tables (funs among them may run anywhere).
    let mut ets_objects = Vec::new();
    for per_site in &flow.sites {
        for sv in per_site.iter().flatten() {
            if let SiteTarget::Static(mfa) = &sv.target
                && mfa.module == "ets"
                && matches!(mfa.name.as_str(), "insert" | "insert_new")
                && let Some(obj) = sv.args.get(1)
            {
                ets_objects.push(resolve(obj, flow.unit_ctx(units, sv.unit), flow.limit));
            }
        }
    }
    let let_out = funs_let_out(units, flow, &ets_objects);
    let looped = entered_loops(units, flow);
    let behaviour = |mi: u32| Behaviour::of(units.module(mi)).or_else(|| looped.get(&mi).copied());
    let nameless = NamelessCalls::of(units, flow);
    let internal = internal_exports(units, cg, &nameless, &behaviour);
    // Seeds.
    let mut entered_outside = vec![false; n];
    for (i, u) in units.units.iter().enumerate() {
        let func = units.unit_function(UnitId(i as u32));
        let seed = match u.fun {
            None => match behaviour(u.module) {
                Some(b) if func.exported && b.is_callback(&func.name, func.arity) => {
                    ProcSet::Some(BTreeSet::from([Proc::Server(u.module)]))
                }
                _ if let_out.contains(&UnitId(i as u32)) => ProcSet::Any,
                _ if func.exported && !internal[i] => ProcSet::Any,
                _ => continue,
            },
            Some(_) if let_out.contains(&UnitId(i as u32)) => ProcSet::Any,
            Some(_) => continue,
        };
        runs_in[i] = seed;
        entered_outside[i] = true;
    }
    // Spawned code runs in its own process.
    for (mi, per_site) in cg.site_invokes.iter().enumerate() {
        for (si, invs) in per_site.iter().enumerate() {
            for inv in invs {
                if inv.kind != EdgeKind::Spawn {
                    continue;
                }
                let t = match inv.callee {
                    Callee::Fn(g) => units.fn_unit[g.index()],
                    Callee::Closure(u) => u,
                    Callee::UnknownApply(_) => continue,
                };
                // A process start naming a behaviour module runs its init/1
                // in the server, which is seeded already.
                let is_server = matches!(runs_in[t.index()].only(), Some(Proc::Server(_)));
                if !is_server {
                    let p = Proc::Spawned(Origin {
                        module: mi as u32,
                        site: CallSiteId(si as u32),
                    });
                    runs_in[t.index()].join(&ProcSet::Some(BTreeSet::from([p])));
                }
            }
        }
    }
    // Along calls and funs run by library code, to the fixpoint; a call
    // under a test proving the caller is a registered process runs there.
    let registered = registered_tests(units, flow, &registrars(units, flow));
    let mut work: Vec<usize> = (0..n).rev().collect();
    let mut queued = vec![true; n];
    while let Some(i) = work.pop() {
        queued[i] = false;
        let module = units.units[i].module;
        for &site in &cg.unit_sites[i] {
            let from = match registered.get(&Origin { module, site }) {
                Some(&p) => ProcSet::Some(BTreeSet::from([p])),
                None => runs_in[i].clone(),
            };
            for inv in cg.invokes(module, site) {
                if !matches!(inv.kind, EdgeKind::Call | EdgeKind::Hof) {
                    continue;
                }
                let t = match inv.callee {
                    Callee::Fn(g) => units.fn_unit[g.index()],
                    Callee::Closure(u) => u,
                    Callee::UnknownApply(_) => continue,
                };
                if runs_in[t.index()].join(&from) && !queued[t.index()] {
                    queued[t.index()] = true;
                    work.push(t.index());
                }
            }
        }
    }
    let mut registered = registered;
    for (o, p) in argument_tests(units, flow, cg, &runs_in, &registered, &entered_outside) {
        registered.entry(o).or_insert(p);
    }
    let holders = holder_sites(units, flow);
    let (singletons, started_once) = singletons(units, flow, cg, &runs_in, &holders);
    // Entered from outside the program's calls for another reason than
    // being exported: a behaviour's callback, a fun let out, a function
    // a call of an unknown module may run.
    let outside: Vec<bool> = (0..n)
        .map(|u| {
            let unit = &units.units[u];
            let func = units.unit_function(UnitId(u as u32));
            match unit.fun {
                Some(_) => entered_outside[u],
                None => {
                    (func.exported && nameless.names(&func.name, func.arity))
                        || behaviour(unit.module)
                            .is_some_and(|b| b.is_callback(&func.name, func.arity))
                }
            }
        })
        .collect();
    let run_once = run_once(
        units,
        flow,
        cg,
        &started_once,
        &outside,
        &holders,
        &nameless.sites,
    );
    Processes {
        runs_in,
        entered_outside,
        singletons,
        run_once,
        registered,
    }
}

/// Call sites that run only when a parameter of their function is an
/// atom (`if GG == true -> ...`, `case GG of true -> ...`), in a function
/// whose every call passing that atom (or a value that may be it) comes
/// from code running in one process `p`: the sites run only in `p`. A
/// caller passing its own parameter along is followed to its callers; a
/// caller passing another atom, or a value that is no atom at all (a
/// record, a list, a number, a pid, a fun), never runs the sites. An
/// exported function, a callback, a fun, or a call from a spawn or
/// library code is taken to pass anything from anywhere.
fn argument_tests(
    units: &Units<'_>,
    flow: &Flow,
    cg: &CallGraph,
    runs_in: &[ProcSet],
    registered: &FxHashMap<Origin, Proc>,
    entered_outside: &[bool],
) -> Vec<(Origin, Proc)> {
    use racewit_syntax::ir::{BinOp, Body, CaseKind, Expr, ExprId, Literal, Pat, VarId};
    // Calls into each named function: (caller unit, site), or None for
    // an edge that is not a plain call.
    let mut calls_into: FxHashMap<usize, Vec<Option<(UnitId, CallSiteId)>>> = FxHashMap::default();
    for (i, sites) in cg.unit_sites.iter().enumerate() {
        let module = units.units[i].module;
        for &site in sites {
            for inv in cg.invokes(module, site) {
                if let Callee::Fn(g) = inv.callee {
                    let call = (inv.kind == EdgeKind::Call).then_some((UnitId(i as u32), site));
                    calls_into.entry(g.index()).or_default().push(call);
                }
            }
        }
    }
    // The one process calls passing `atom` as parameter `param` of
    // function `g` come from; `Err(())` when there is no such one.
    fn from_callers(
        g: usize,
        param: usize,
        atom: &Name,
        cx: &Cx<'_, '_>,
        visiting: &mut Vec<(usize, usize)>,
    ) -> Result<Option<Proc>, ()> {
        if visiting.contains(&(g, param)) {
            // A call within the cycle runs in the process of the call
            // that entered it.
            return Ok(None);
        }
        let fu = cx.units.fn_unit[g];
        if cx.entered_outside[fu.index()] || cx.units.fns[g].1.exported {
            return Err(());
        }
        visiting.push((g, param));
        let mut found: Option<Proc> = None;
        let add = |p: Option<Proc>, found: &mut Option<Proc>| -> Result<(), ()> {
            match (p, *found) {
                (None, _) => Ok(()),
                (Some(p), Some(q)) if p != q => Err(()),
                (Some(p), _) => {
                    *found = Some(p);
                    Ok(())
                }
            }
        };
        let result = (|| {
            for call in cx.calls_into.get(&g).map(Vec::as_slice).unwrap_or_default() {
                let Some((u, site)) = *call else {
                    return Err(());
                };
                let module = cx.units.units[u.index()].module;
                let sv = cx.flow.site(module, site).ok_or(())?;
                let arg = sv.args.get(param).ok_or(())?;
                let here = Origin { module, site };
                let process = || {
                    cx.registered
                        .get(&here)
                        .copied()
                        .or_else(|| cx.runs_in[u.index()].only())
                        .ok_or(())
                };
                let Val::Set(terms) = arg else {
                    add(Some(process()?), &mut found)?;
                    continue;
                };
                for t in terms.iter() {
                    match t {
                        Term::Atom(a) if a != atom => {}
                        // A value that is no atom at all (a record, a
                        // list, a number, a pid, a fun) fails the test
                        // as another atom does: `get_own_nodes(GG) when
                        // is_boolean(GG) -> get_own_nodes(lookup(GG))`
                        // passes a record on, not the flag.
                        t if never_atom(t) => {}
                        Term::Param(j) if cx.units.units[u.index()].fun.is_none() => {
                            let caller = cx.units.unit(u).owner.index();
                            let p = from_callers(caller, *j as usize, atom, cx, visiting)?;
                            add(p, &mut found)?;
                        }
                        _ => add(Some(process()?), &mut found)?,
                    }
                }
            }
            Ok(found)
        })();
        visiting.pop();
        result
    }
    struct Cx<'a, 'p> {
        units: &'a Units<'p>,
        flow: &'a Flow,
        runs_in: &'a [ProcSet],
        registered: &'a FxHashMap<Origin, Proc>,
        entered_outside: &'a [bool],
        calls_into: FxHashMap<usize, Vec<Option<(UnitId, CallSiteId)>>>,
    }
    let cx = Cx {
        units,
        flow,
        runs_in,
        registered,
        entered_outside,
        calls_into,
    };
    // The parameter variable and atom a test `V == atom` compares.
    let var_is_atom = |body: &Body, e: ExprId| -> Option<(VarId, Name)> {
        let Expr::Op(BinOp::Eq | BinOp::ExactEq, a, b) = body.expr(e) else {
            return None;
        };
        match (body.expr(*a), body.expr(*b)) {
            (Expr::Var(v), Expr::Lit(Literal::Atom(x)))
            | (Expr::Lit(Literal::Atom(x)), Expr::Var(v)) => Some((*v, x.clone())),
            _ => None,
        }
    };
    let mut out = Vec::new();
    for (g, &(mi, func)) in units.fns.iter().enumerate() {
        let [clause] = func.clauses.as_slice() else {
            continue;
        };
        let body = &func.body;
        let cl = body.clause(*clause);
        let param_of = |v: VarId| {
            cl.pats
                .iter()
                .position(|&p| matches!(body.pat(p), Pat::Var(x) if *x == v))
        };
        // The `case`/`if` expressions of the clause outside funs.
        let mut cases = Vec::new();
        fn collect(body: &Body, e: ExprId, out: &mut Vec<ExprId>) {
            if matches!(body.expr(e), Expr::Case { .. }) {
                out.push(e);
            }
            crate::walk::for_each_child(body, e, &mut |c| collect(body, c, out));
        }
        collect(body, cl.body, &mut cases);
        for e in cases {
            let Expr::Case { kind, arg, clauses } = body.expr(e) else {
                continue;
            };
            for &c in clauses {
                let k = body.clause(c);
                let tested = match kind {
                    CaseKind::If => match k.guard.as_slice() {
                        [conj] => match conj.as_slice() {
                            [t] => var_is_atom(body, *t),
                            _ => None,
                        },
                        _ => None,
                    },
                    CaseKind::Case if k.guard.is_empty() => {
                        match (body.expr(*arg), k.pats.as_slice()) {
                            (Expr::Var(v), [p]) => match body.pat(*p) {
                                Pat::Lit(Literal::Atom(x)) => Some((*v, x.clone())),
                                _ => None,
                            },
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let Some((v, atom)) = tested else { continue };
                let Some(param) = param_of(v) else { continue };
                let Ok(Some(p)) = from_callers(g, param, &atom, &cx, &mut Vec::new()) else {
                    continue;
                };
                each_site_in(body, k.body, &mut |site| {
                    out.push((Origin { module: mi, site }, p));
                });
            }
        }
    }
    out.sort();
    out
}

/// Per atom, the processes that register under it as a local name: a
/// `gen_server`/`gen_statem`/... start or `enter_loop` under
/// `{local, Name}` (the module's server), a `register(Name, Pid)` of a pid
/// a spawn at a known site returned (that spawn's process). `None` among
/// them: some registration under the name whose process is not known, an
/// `unregister` of it (the name then passes from process to process), or
/// a server that is also started under another name or none. A process
/// registering itself (`register(Name, self())`) adds no other process:
/// while it holds the name, no other holds it.
fn registrars(units: &Units<'_>, flow: &Flow) -> BTreeMap<Name, BTreeSet<Option<Proc>>> {
    let limit = flow.limit;
    let mut out: BTreeMap<Name, BTreeSet<Option<Proc>>> = BTreeMap::new();
    // The local names each server module is started or looped under
    // (`None`: another name, a global one, or none).
    let mut server_names: BTreeMap<u32, BTreeSet<Option<Name>>> = BTreeMap::new();
    for per_site in &flow.sites {
        for sv in per_site.iter().flatten() {
            let SiteTarget::Static(mfa) = &sv.target else {
                continue;
            };
            let ctx = flow.unit_ctx(units, sv.unit);
            if mfa.module == "erlang" && mfa.name == "register" && mfa.arity == 2 {
                let pid = resolve(&sv.args[1], ctx, limit);
                let p = match pid.terms().as_slice() {
                    [Term::Spawned(o)] => Some(Proc::Spawned(*o)),
                    [Term::SelfPid] => continue,
                    _ => None,
                };
                for a in resolve(&sv.args[0], ctx, limit).atoms().unwrap_or_default() {
                    out.entry(a).or_default().insert(p);
                }
                continue;
            }
            if mfa.module == "erlang" && mfa.name == "unregister" && mfa.arity == 1 {
                for a in resolve(&sv.args[0], ctx, limit).atoms().unwrap_or_default() {
                    out.entry(a).or_default().insert(None);
                }
                continue;
            }
            let (m, name) = if let Some((_, m, name)) = Behaviour::entered_loop(mfa) {
                (m, Some(name))
            } else {
                match start_of(mfa).map(|s| s.shape) {
                    Some(crate::spawn::StartShape::Init { m: 1, .. }) => (1, Some(0)),
                    Some(crate::spawn::StartShape::Init { m, .. }) => (m, None),
                    _ => continue,
                }
            };
            let Some(mods) = sv.args.get(m) else {
                continue;
            };
            let mods: Vec<Option<u32>> = match resolve(mods, ctx, limit).atoms() {
                Some(ms) => ms
                    .iter()
                    .map(|n| units.module_index.get(n).copied())
                    .collect(),
                None => vec![None],
            };
            let names: Vec<Option<Name>> = match name.and_then(|i| sv.args.get(i)) {
                Some(v) => resolve(v, ctx, limit)
                    .iter()
                    .map(|t| match t {
                        Term::Tuple(parts) => match parts.as_slice() {
                            [Term::Atom(scope), Term::Atom(a)] if scope == "local" => {
                                Some(a.clone())
                            }
                            _ => None,
                        },
                        _ => None,
                    })
                    .collect(),
                None => vec![None],
            };
            for n in &names {
                for &mi in &mods {
                    if let Some(mi) = mi {
                        server_names.entry(mi).or_default().insert(n.clone());
                    }
                    if let Some(a) = n {
                        out.entry(a.clone())
                            .or_default()
                            .insert(mi.map(Proc::Server));
                    }
                }
            }
        }
    }
    // A server also started under another name, or none, is not always
    // the holder of the name.
    for (mi, names) in server_names {
        if names.len() > 1 || names.contains(&None) {
            for a in names.into_iter().flatten() {
                let e = out.entry(a).or_default();
                e.remove(&Some(Proc::Server(mi)));
                e.insert(None);
            }
        }
    }
    out
}

/// Every call and send site in `e` and below it, funs made there excepted
/// (a fun may run elsewhere).
/// A term that can never be an atom: a number, a string, a list, a
/// tuple (an object read from a table among them), a map, a table id, a
/// pid or a fun. Unknown values, parameters and conversions may be one.
fn never_atom(t: &Term) -> bool {
    matches!(
        t,
        Term::Int(_)
            | Term::Str(_)
            | Term::List(_)
            | Term::Tuple(_)
            | Term::Keyed(..)
            | Term::Map(_)
            | Term::Table(_)
            | Term::Spawned(_)
            | Term::SelfPid
            | Term::Fun(_)
            | Term::FunRef(_)
    )
}

fn each_site_in(body: &Body, e: ExprId, f: &mut dyn FnMut(CallSiteId)) {
    if let Expr::Call { site, .. } | Expr::Send { site, .. } = body.expr(e) {
        f(*site);
    }
    crate::walk::for_each_child(body, e, &mut |c| each_site_in(body, c, f));
}

/// For each step `register(Name, self())` (or `X = register(...)`) of the
/// sequence `e` (an expression of `body`, in module `mi`): the value of
/// `Name` and the steps that follow it, which run only once the process
/// holds the name (the call raises otherwise).
fn after_self_registers(
    units: &Units<'_>,
    flow: &Flow,
    mi: u32,
    body: &Body,
    e: &Expr,
    mut f: impl FnMut(&Val, &[ExprId]),
) {
    let Expr::Block(es) = e else {
        return;
    };
    for (i, &x) in es.iter().enumerate() {
        let x = match body.expr(x) {
            Expr::Match(_, y) => *y,
            _ => x,
        };
        let Expr::Call { site, .. } = body.expr(x) else {
            continue;
        };
        let Some(sv) = flow.site(mi, *site) else {
            continue;
        };
        let SiteTarget::Static(mfa) = &sv.target else {
            continue;
        };
        if !(mfa.module == "erlang" && mfa.name == "register" && mfa.arity == 2) {
            continue;
        }
        let ctx = flow.unit_ctx(units, sv.unit);
        if resolve(&sv.args[1], ctx, flow.limit).terms().as_slice() != [Term::SelfPid] {
            continue;
        }
        f(&resolve(&sv.args[0], ctx, flow.limit), &es[i + 1..]);
    }
}

/// Call sites under a test proving the process running them is the one
/// registered under a constant name: the `true` clause of
/// `case whereis(Name) =:= self() of` (`==`; the `false` clause of `=/=`,
/// `/=`; either operand order; `whereis/1` is no guard test, so an `if`
/// cannot make it). A name is one process at a time, so such code runs in the
/// process that registered the name, when every registration of it
/// names one known process ([`registrars`]). Likewise the steps that
/// follow a `register(Name, self())` in a sequence (it raises unless the
/// process now holds the name). Calls inside funs made there are not
/// counted (a fun may run elsewhere).
fn registered_tests(
    units: &Units<'_>,
    flow: &Flow,
    registrars: &BTreeMap<Name, BTreeSet<Option<Proc>>>,
) -> FxHashMap<Origin, Proc> {
    use racewit_syntax::ir::{BinOp, Literal, Pat};
    let mut out = FxHashMap::default();
    for &(mi, func) in units.fns.iter() {
        let body = &func.body;
        let call_to = |e: ExprId, name: &str| -> Option<Origin> {
            let Expr::Call { site, .. } = body.expr(e) else {
                return None;
            };
            let o = Origin {
                module: mi,
                site: *site,
            };
            let sv = flow.site(mi, *site)?;
            match &sv.target {
                SiteTarget::Static(m) if m.module == "erlang" && m.name == name => Some(o),
                _ => None,
            }
        };
        let holder = |name: &Val| -> Option<Proc> {
            let names = name.atoms()?;
            let [name] = names.as_slice() else {
                return None;
            };
            match registrars.get(name)?.iter().collect::<Vec<_>>().as_slice() {
                [Some(p)] => Some(*p),
                _ => None,
            }
        };
        // The process `e` tests self() to be, and whether the test is an
        // equality (else an inequality).
        let test = |e: ExprId| -> Option<(Proc, bool)> {
            let Expr::Op(op, a, b) = body.expr(e) else {
                return None;
            };
            let eq = match op {
                BinOp::Eq | BinOp::ExactEq => true,
                BinOp::NotEq | BinOp::ExactNotEq => false,
                _ => return None,
            };
            let (w, _) = [(*a, *b), (*b, *a)]
                .into_iter()
                .find(|&(w, s)| call_to(w, "whereis").is_some() && call_to(s, "self").is_some())?;
            let o = call_to(w, "whereis")?;
            let sv = flow.site(mi, o.site)?;
            let ctx = flow.unit_ctx(units, sv.unit);
            holder(&resolve(sv.args.first()?, ctx, flow.limit)).map(|p| (p, eq))
        };
        let is_atom =
            |pat, want: &str| matches!(body.pat(pat), Pat::Lit(Literal::Atom(a)) if a == want);
        let mut mark = |e: ExprId, p: Proc| {
            each_site_in(body, e, &mut |site| {
                out.insert(Origin { module: mi, site }, p);
            });
        };
        for e in body.exprs.iter() {
            if let Expr::Block(_) = e {
                after_self_registers(units, flow, mi, body, e, |name, rest| {
                    if let Some(p) = holder(name) {
                        for &y in rest {
                            mark(y, p);
                        }
                    }
                });
                continue;
            }
            let Expr::Case { arg, clauses, kind } = e else {
                continue;
            };
            for &c in clauses {
                let cl = body.clause(c);
                let proved = match kind {
                    racewit_syntax::ir::CaseKind::Case if cl.guard.is_empty() => {
                        match (test(*arg), cl.pats.as_slice()) {
                            (Some((p, true)), [pat]) if is_atom(*pat, "true") => Some(p),
                            (Some((p, false)), [pat]) if is_atom(*pat, "false") => Some(p),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                if let Some(p) = proved {
                    mark(cl.body, p);
                }
            }
        }
    }
    out
}

/// Modules a process turns into the server of by `gen_server:enter_loop`
/// (`gen_statem:enter_loop`), with the behaviour, for those declaring none
/// ([`Behaviour::of`] finds no `init/1` in a module that enters its loop
/// from a spawned function of its own).
fn entered_loops(units: &Units<'_>, flow: &Flow) -> rustc_hash::FxHashMap<u32, Behaviour> {
    let mut out = rustc_hash::FxHashMap::default();
    for per_site in &flow.sites {
        for sv in per_site.iter().flatten() {
            let SiteTarget::Static(mfa) = &sv.target else {
                continue;
            };
            let Some((b, m, _)) = Behaviour::entered_loop(mfa) else {
                continue;
            };
            let Some(mods) = sv.args.get(m) else {
                continue;
            };
            let mods = resolve(mods, flow.unit_ctx(units, sv.unit), flow.limit);
            for name in mods.atoms().unwrap_or_default() {
                if let Some(&mi) = units.module_index.get(&name) {
                    out.entry(mi).or_insert(b);
                }
            }
        }
    }
    out
}

/// Call sites that run only after their process registered itself under
/// a constant name that nothing in the program unregisters: the steps
/// that follow `register(Name, self())` in a sequence (the call raises
/// unless the process now holds the name). At most one process holds a
/// name at a time and, with no `unregister`, keeps it until it exits, so
/// this code never runs in two processes at once. Calls inside funs made
/// there are not counted (a fun may run elsewhere). An `unregister`
/// whose argument names no constant is not counted, as in
/// [`registrars`].
fn holder_sites(units: &Units<'_>, flow: &Flow) -> FxHashMap<Origin, Name> {
    let limit = flow.limit;
    let mut unregistered: FxHashSet<Name> = FxHashSet::default();
    for per_site in &flow.sites {
        for sv in per_site.iter().flatten() {
            if let SiteTarget::Static(mfa) = &sv.target
                && mfa.module == "erlang"
                && mfa.name == "unregister"
                && mfa.arity == 1
            {
                let ctx = flow.unit_ctx(units, sv.unit);
                unregistered.extend(resolve(&sv.args[0], ctx, limit).atoms().unwrap_or_default());
            }
        }
    }
    let mut out = FxHashMap::default();
    for &(mi, func) in units.fns.iter() {
        let body = &func.body;
        for e in body.exprs.iter() {
            after_self_registers(units, flow, mi, body, e, |name, rest| {
                let names = name.atoms();
                let Some([name]) = names.as_deref() else {
                    return;
                };
                if unregistered.contains(name) {
                    return;
                }
                for &y in rest {
                    each_site_in(body, y, &mut |site| {
                        out.insert(Origin { module: mi, site }, name.clone());
                    });
                }
            });
        }
    }
    out
}

/// The start functions a supervisor's `init/1` names in its child
/// specifications written in place (`{Id, {M, F, Args}, ...}` or
/// `#{start => {M, F, Args}}`, with `M`, `F` atoms and `Args` a list of
/// known length), for modules declaring `-behaviour(supervisor)` that
/// are not `simple_one_for_one` (whose children take more arguments).
/// The supervisor process calls each of them itself, one at a time (at
/// its start, on a restart, for `start_child`), and waits for it.
fn child_starts(units: &Units<'_>) -> Vec<(u32, crate::units::FnId)> {
    use racewit_syntax::ir::{Body, Expr, ExprId, Literal};
    let atom = |body: &Body, e: ExprId| match body.expr(e) {
        Expr::Lit(Literal::Atom(a)) => Some(a.clone()),
        _ => None,
    };
    let mfa = |body: &Body, e: ExprId| {
        let Expr::Tuple(parts) = body.expr(e) else {
            return None;
        };
        let [m, f, a] = parts.as_slice() else {
            return None;
        };
        Some((atom(body, *m)?, atom(body, *f)?, body.written_list_len(*a)?))
    };
    let mut out = Vec::new();
    for (mi, m) in units.modules.iter().enumerate() {
        if !m.behaviours.iter().any(|b| b == "supervisor") {
            continue;
        }
        let Some(init) = m.function("init", 1) else {
            continue;
        };
        let body = &init.body;
        let one_by_one = body
            .exprs
            .iter()
            .any(|e| matches!(e, Expr::Lit(Literal::Atom(a)) if a == "simple_one_for_one"));
        if one_by_one {
            continue;
        }
        for e in body.exprs.iter() {
            let start = match e {
                Expr::Tuple(parts) if parts.len() == 6 => mfa(body, parts[1]),
                Expr::Map { base: None, fields } => fields
                    .iter()
                    .find(|f| atom(body, f.key).is_some_and(|k| k == "start"))
                    .and_then(|f| mfa(body, f.value)),
                _ => None,
            };
            if let Some((cm, cf, ca)) = start
                && let Some(g) = units.lookup(&cm, &cf, ca)
            {
                out.push((mi as u32, g));
            }
        }
    }
    out
}

/// Exported functions of modules that are no server's callbacks which the
/// program calls and which nothing else is known to call: each runs where
/// its callers in the program run (the pass takes the export for an
/// internal one, as [`run_once`] does), so a helper the program calls only
/// from one server's callbacks runs only in that server. Not such a
/// function: one a call of an unknown module may run with no edge
/// following it (an `apply/3` whose arity is not known, a name exported
/// by too many modules to follow), one no code of the program calls (an
/// API, a test), one whose fun leaves the program.
fn internal_exports(
    units: &Units<'_>,
    cg: &CallGraph,
    nameless: &NamelessCalls,
    behaviour: &dyn Fn(u32) -> Option<Behaviour>,
) -> Vec<bool> {
    let mut called = vec![false; units.units.len()];
    for (i, sites) in cg.unit_sites.iter().enumerate() {
        let module = units.units[i].module;
        for &site in sites {
            for inv in cg.invokes(module, site) {
                if let Callee::Fn(g) = inv.callee {
                    let t = units.fn_unit[g.index()].index();
                    // A recursive call is no call from elsewhere.
                    if t != i {
                        called[t] = true;
                    }
                }
            }
        }
    }
    (0..units.units.len())
        .map(|i| {
            let unit = &units.units[i];
            let func = units.unit_function(UnitId(i as u32));
            unit.fun.is_none()
                && func.exported
                && called[i]
                && behaviour(unit.module).is_none()
                && !nameless.unfollowed(&func.name, func.arity, units)
        })
        .collect()
}

/// Calls of a function of an unknown module (`Mod:adding_handler(C)`,
/// `apply(Mod, start, [])`): the names they may run, with the arity when
/// the call shows it (a function of that name may have callers no edge
/// shows), and their sites. A call naming neither module nor function is
/// not counted.
pub struct NamelessCalls {
    pub by_name: FxHashMap<Name, BTreeSet<Option<u32>>>,
    pub sites: FxHashSet<Origin>,
}

impl NamelessCalls {
    fn of(units: &Units<'_>, flow: &Flow) -> NamelessCalls {
        // Names a call of an unknown module may run (`Mod:adding_handler(C)`,
        // `apply(Mod, start, [])`), with the arity when the call shows it: a
        // function of that name may have callers no edge shows. (A call
        // naming neither module nor function is not counted: it would make
        // no code run once.)
        let mut called_by_name: FxHashMap<Name, BTreeSet<Option<u32>>> = FxHashMap::default();
        // Sites calling a function of the program without naming its module.
        let mut nameless: FxHashSet<Origin> = FxHashSet::default();
        for (mi, per_site) in flow.sites.iter().enumerate() {
            for (si, sv) in per_site.iter().enumerate() {
                let Some(sv) = sv else { continue };
                let ctx = flow.unit_ctx(units, sv.unit);
                let (module, function, arity) = match &sv.target {
                    SiteTarget::Dynamic { module, function } => {
                        (module, function, Some(sv.args.len() as u32))
                    }
                    SiteTarget::Static(mfa)
                        if mfa.module == "erlang" && mfa.name == "apply" && mfa.arity == 3 =>
                    {
                        (&sv.args[0], &sv.args[1], None)
                    }
                    _ => continue,
                };
                if resolve(module, ctx, flow.limit).atoms().is_some() {
                    continue;
                }
                nameless.insert(Origin {
                    module: mi as u32,
                    site: CallSiteId(si as u32),
                });
                for t in resolve(function, ctx, flow.limit).iter() {
                    if let Term::Atom(a) = t {
                        called_by_name.entry(a.clone()).or_default().insert(arity);
                    }
                }
            }
        }
        NamelessCalls {
            by_name: called_by_name,
            sites: nameless,
        }
    }

    /// Whether a call of an unknown module may run `name/arity` with no
    /// call edge to show it ([`crate::invoke`] follows a known name and
    /// arity exported by few modules).
    fn unfollowed(&self, name: &Name, arity: u32, units: &Units<'_>) -> bool {
        self.by_name.get(name).is_some_and(|ars| {
            ars.iter().any(|a| match a {
                None => true,
                Some(a) => {
                    *a == arity
                        && units.exported_named(name, arity).len() > crate::invoke::MAX_BY_NAME
                }
            })
        })
    }

    /// Whether a call of an unknown module may run `name/arity`.
    fn names(&self, name: &Name, arity: u32) -> bool {
        self.by_name
            .get(name)
            .is_some_and(|ars| ars.iter().any(|a| a.is_none_or(|a| a == arity)))
    }
}

/// [`Processes::run_once`]: from the roots (the `init/1` of modules
/// started only under one constant name, the code after a process
/// registered itself), the units whose every incoming call or spawn comes
/// from code run once for one root.
///
/// A module's `init/1` runs once for a root when every start naming the
/// module (`gen_server:start_link/3,4` and the like) is in code run once
/// for it: such a start returns only after `init/1` has, so `init/1`
/// runs inside the starter's run (the behaviours' own `Mod:init(Args)`,
/// a call naming no module, is how the starts run it). A supervisor's
/// child start functions ([`child_starts`]) are called by the supervisor
/// process: run once for the supervisor's root when it is started only
/// under one constant name. A recursive call of a function by itself stays
/// within the run that entered it; but a process started from code that
/// may run many times in one run (a function calling itself, a fun
/// handed to library code such as `lists:foreach/2`, and what they call)
/// is not run once: several such processes may run at once.
fn run_once(
    units: &Units<'_>,
    flow: &Flow,
    cg: &CallGraph,
    started_once: &BTreeSet<u32>,
    outside: &[bool],
    holders: &FxHashMap<Origin, Name>,
    nameless: &FxHashSet<Origin>,
) -> Vec<Option<Root>> {
    let n = units.units.len();
    let mut out: Vec<Option<Root>> = vec![None; n];
    for &mi in started_once {
        let m = &units.module(mi).name;
        if let Some(g) = units.lookup(m, "init", 1) {
            out[units.fn_unit[g.index()].index()] = Some(Root::Init(mi));
        }
    }
    /// How a unit is entered: from a caller unit at a site, by a
    /// synchronous start of its module (`init/1` only), or by its
    /// supervisor.
    #[derive(Clone)]
    enum In {
        Site(UnitId, Origin, EdgeKind),
        Supervisor(u32),
    }
    let mut callers: Vec<Vec<In>> = vec![Vec::new(); n];
    // Code that may run many times in one run: a function calling itself,
    // a fun handed to library code, and what they call.
    let mut repeats = vec![false; n];
    for (i, sites) in cg.unit_sites.iter().enumerate() {
        let module = units.units[i].module;
        for &site in sites {
            for inv in cg.invokes(module, site) {
                let t = match inv.callee {
                    Callee::Fn(g) => units.fn_unit[g.index()],
                    Callee::Closure(u) => u,
                    Callee::UnknownApply(_) => continue,
                };
                // A recursive call stays in the run that entered it.
                if t.index() == i && inv.kind == EdgeKind::Call {
                    repeats[i] = true;
                    continue;
                }
                if inv.kind == EdgeKind::Hof {
                    repeats[t.index()] = true;
                }
                callers[t.index()].push(In::Site(
                    UnitId(i as u32),
                    Origin { module, site },
                    inv.kind,
                ));
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for u in 0..n {
            if repeats[u] {
                continue;
            }
            let from_repeating = callers[u].iter().any(|c| {
                matches!(c, In::Site(cu, _, EdgeKind::Call | EdgeKind::Hof) if repeats[cu.index()])
            });
            if from_repeating {
                repeats[u] = true;
                changed = true;
            }
        }
    }
    for (sup, g) in child_starts(units) {
        callers[units.fn_unit[g.index()].index()].push(In::Supervisor(sup));
    }
    let is_init = |u: usize| {
        let func = units.unit_function(UnitId(u as u32));
        units.units[u].fun.is_none() && func.name == "init" && func.arity == 1
    };
    // A start that returns only once the new process's `init/1` has.
    let sync_start = |o: &Origin| {
        flow.site(o.module, o.site).is_some_and(|sv| {
            matches!(&sv.target, SiteTarget::Static(mfa)
                if start_of(mfa).is_some_and(|s| matches!(s.shape, crate::spawn::StartShape::Init { .. })))
        })
    };
    changed = true;
    while changed {
        changed = false;
        for u in 0..n {
            if out[u].is_some() || callers[u].is_empty() {
                continue;
            }
            let init = is_init(u);
            if !init && outside[u] {
                continue;
            }
            let mut root: Option<Root> = None;
            let mut all = true;
            for c in &callers[u] {
                let r = match c {
                    // The behaviours' own `Mod:init(Args)`.
                    In::Site(_, o, EdgeKind::Call) if init && nameless.contains(o) => continue,
                    In::Site(_, o, kind)
                        if init && !(*kind == EdgeKind::Spawn && sync_start(o)) =>
                    {
                        None
                    }
                    // A process started from code that may run many
                    // times: several may run at once (but a synchronous
                    // start's `init/1` has returned before the next).
                    In::Site(cu, o, EdgeKind::Spawn)
                        if repeats[cu.index()] && !(init && sync_start(o)) =>
                    {
                        None
                    }
                    In::Site(cu, o, _) => holders
                        .get(o)
                        .map(|name| Root::Holder(name.clone()))
                        .or_else(|| out[cu.index()].clone()),
                    In::Supervisor(sup) => started_once.contains(sup).then_some(Root::Init(*sup)),
                };
                match (r, &root) {
                    (Some(r), None) => root = Some(r),
                    (Some(r), Some(q)) if r == *q => {}
                    _ => {
                        all = false;
                        break;
                    }
                }
            }
            if all && root.is_some() {
                out[u] = root;
                changed = true;
            }
        }
    }
    out
}

/// The processes that exist at most once at a time, and the modules every
/// start of which names them with one constant (two names are two
/// servers, each running the module's callbacks).
///
/// A process that enters a behaviour's loop itself
/// (`gen_server:enter_loop/3`) without naming itself there counts as
/// named by a constant when the call runs only after the process
/// registered itself under a constant name nothing unregisters
/// (`holders`, [`holder_sites`]): a second such process fails to
/// register, and raises, before it reaches the loop.
fn singletons(
    units: &Units<'_>,
    flow: &Flow,
    cg: &CallGraph,
    runs_in: &[ProcSet],
    holders: &FxHashMap<Origin, Name>,
) -> (FxHashSet<Proc>, BTreeSet<u32>) {
    let limit = flow.limit;
    // Per callback module: the constant names its starts give it (`None`
    // once some start names it with no constant), and whether some start
    // is a loop entered after a self-registration (its `init/1`, if any,
    // is no behaviour callback: not run once).
    type Names = Option<BTreeSet<(Name, Name)>>;
    let mut started: rustc_hash::FxHashMap<u32, (Names, bool)> = Default::default();
    let mut registered_pids: Vec<Val> = Vec::new();
    for (mi, per_site) in flow.sites.iter().enumerate() {
        for (si, sv) in per_site.iter().enumerate() {
            let Some(sv) = sv else {
                continue;
            };
            let SiteTarget::Static(mfa) = &sv.target else {
                continue;
            };
            let origin = Origin {
                module: mi as u32,
                site: CallSiteId(si as u32),
            };
            let ctx = flow.unit_ctx(units, sv.unit);
            if mfa.module == "erlang" && mfa.name == "register" && mfa.arity == 2 {
                if resolve(&sv.args[0], ctx, limit).atoms().is_some() {
                    registered_pids.push(resolve(&sv.args[1], ctx, limit));
                }
                continue;
            }
            // The `{local, Name}` / `{global, Name}` names `v` may be, when
            // each is one.
            let constant = |v: &Val| -> Names {
                let v = resolve(v, ctx, limit);
                let mut names = BTreeSet::new();
                for t in v.iter() {
                    let Term::Tuple(p) = t else { return None };
                    let [Term::Atom(scope), Term::Atom(n)] = p.as_slice() else {
                        return None;
                    };
                    if scope != "local" && scope != "global" {
                        return None;
                    }
                    names.insert((scope.clone(), n.clone()));
                }
                (!names.is_empty()).then_some(names)
            };
            let mut held = false;
            let (m, constant_name) = if let Some((_, m, name)) = Behaviour::entered_loop(mfa) {
                // The process becomes the server; under a constant name
                // only while it is registered so (the call checks), or
                // after it registered itself so.
                let named = sv.args.get(name).and_then(constant);
                let holder = holders
                    .get(&origin)
                    .filter(|_| named.is_none())
                    .map(|n| BTreeSet::from([(Name::from("local"), n.clone())]));
                held = holder.is_some();
                (m, named.or(holder))
            } else {
                let Some(start) = start_of(mfa) else {
                    continue;
                };
                let crate::spawn::StartShape::Init { m, .. } = start.shape else {
                    continue;
                };
                // The name comes first when the module is second
                // (`gen_server:start_link/4`, `supervisor:start_link/3`).
                (m, if m == 1 { constant(&sv.args[0]) } else { None })
            };
            let Some(mods) = sv.args.get(m).map(|v| resolve(v, ctx, limit)) else {
                continue;
            };
            for name in mods.atoms().unwrap_or_default() {
                if let Some(&mi) = units.module_index.get(&name) {
                    let e = started
                        .entry(mi)
                        .or_insert_with(|| (Some(BTreeSet::new()), false));
                    e.0 = match (e.0.take(), &constant_name) {
                        (Some(mut all), Some(these)) => {
                            all.extend(these.iter().cloned());
                            Some(all)
                        }
                        _ => None,
                    };
                    e.1 |= held;
                }
            }
        }
    }
    // One process at a time: every start names the module's server, and
    // with one name (two names are two servers running the same code).
    let one_name = |names: &Names| names.as_ref().is_some_and(|n| n.len() == 1);
    let mut out: FxHashSet<Proc> = started
        .iter()
        .filter(|&(_, (names, _))| one_name(names))
        .map(|(&mi, _)| Proc::Server(mi))
        .collect();
    let started_once: BTreeSet<u32> = started
        .into_iter()
        .filter(|(_, (names, held))| one_name(names) && !held)
        .map(|(mi, _)| mi)
        .collect();
    // Hand-written loops: registered under a constant name by the parent,
    // waiting in a receive before anything else (a second one, whose
    // registration fails, waits forever where nobody can reach it).
    for (mi, per_site) in cg.site_invokes.iter().enumerate() {
        for (si, invs) in per_site.iter().enumerate() {
            let o = Origin {
                module: mi as u32,
                site: CallSiteId(si as u32),
            };
            let registered = registered_pids
                .iter()
                .any(|v| crate::spawn_register::holds(v, o));
            if !registered {
                continue;
            }
            let children: Vec<UnitId> = invs
                .iter()
                .filter(|i| i.kind == EdgeKind::Spawn)
                .filter_map(|i| match i.callee {
                    Callee::Fn(g) => Some(units.fn_unit[g.index()]),
                    Callee::Closure(u) => Some(u),
                    Callee::UnknownApply(_) => None,
                })
                .collect();
            if !children.is_empty()
                && children.iter().all(|&c| {
                    receives_first(units, c, 0)
                        && runs_in[c.index()].only() == Some(Proc::Spawned(o))
                })
            {
                out.insert(Proc::Spawned(o));
            }
        }
    }
    (out, started_once)
}

/// Every clause of `u` starts with a `receive` (directly, or by calling a
/// function of its module that does, with arguments that call nothing).
fn receives_first(units: &Units<'_>, u: UnitId, depth: u32) -> bool {
    use racewit_syntax::ir::{CallTarget, Expr};
    if depth > 4 {
        return false;
    }
    let unit = units.unit(u);
    let func = units.unit_function(u);
    let body = &func.body;
    let first = |mut e| loop {
        match body.expr(e) {
            Expr::Block(es) if !es.is_empty() => e = es[0],
            _ => return e,
        }
    };
    let calls_nothing = |e| {
        matches!(
            body.expr(e),
            Expr::Var(_) | Expr::Lit(_) | Expr::Nil | Expr::Fun(_)
        )
    };
    let clauses = unit.clauses(func);
    !clauses.is_empty()
        && clauses.iter().all(|&c| {
            let cl = body.clause(c);
            if !cl.guard.is_empty() {
                return false;
            }
            match body.expr(first(cl.body)) {
                Expr::Receive { clauses, .. } => !clauses.is_empty(),
                Expr::Call { target, args, .. }
                    if let CallTarget::Local { name, arity } = &**target
                        && args.iter().all(|&a| calls_nothing(a)) =>
                {
                    let m = &units.module(unit.module).name;
                    units
                        .lookup(m, name, *arity)
                        .is_some_and(|g| receives_first(units, units.fn_unit[g.index()], depth + 1))
                }
                _ => false,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    /// Which functions of `src` run once, by name.
    fn once(src: &str) -> Vec<String> {
        let program = load_source("t.erl", src);
        let units = Units::new(&program);
        let flow = crate::dataflow::compute(&units, 16);
        let cg = CallGraph::build(&units, &flow);
        let procs = compute(&units, &flow, &cg);
        let mut out: Vec<String> = (0..units.units.len())
            .filter(|&u| procs.run_once[u].is_some())
            .map(|u| {
                let f = units.unit_function(UnitId(u as u32));
                match units.units[u].fun {
                    Some(_) => format!("fun in {}/{}", f.name, f.arity),
                    None => format!("{}/{}", f.name, f.arity),
                }
            })
            .collect();
        out.sort();
        out
    }

    /// The processes of `src`, with its units and flow.
    fn procs_of(src: &str, f: impl FnOnce(&Units<'_>, &Flow, &Processes)) {
        let program = load_source("t.erl", src);
        let units = Units::new(&program);
        let flow = crate::dataflow::compute(&units, 16);
        let cg = CallGraph::build(&units, &flow);
        let procs = compute(&units, &flow, &cg);
        f(&units, &flow, &procs)
    }

    /// The one process the calls to local function `callee` run in, per
    /// call site (the proved one, else the caller's).
    fn call_procs(flow: &Flow, procs: &Processes, callee: &str) -> Vec<Option<Proc>> {
        let mut out = Vec::new();
        for (mi, per_site) in flow.sites.iter().enumerate() {
            for (si, sv) in per_site.iter().enumerate() {
                let Some(sv) = sv else { continue };
                if matches!(&sv.target, SiteTarget::Static(m) if m.name == callee) {
                    let o = Origin {
                        module: mi as u32,
                        site: CallSiteId(si as u32),
                    };
                    out.push(procs.site_process(sv.unit, o));
                }
            }
        }
        out
    }

    const GUARDED: &str = "-module(t).\n-behaviour(gen_server).\n\
        -export([start/0, init/1, handle_call/3, handle_cast/2, make/0]).\n\
        start() -> gen_server:start({local, t}, t, [], []).\n\
        init([]) -> {ok, 0}.\n\
        handle_call(_, _, S) -> {reply, make(), S}.\n\
        handle_cast(_, S) -> {noreply, S}.\n\
        make() -> case whereis(t) =:= self() of\n\
          true -> ets:insert(tab, {k, 1});\n\
          false -> gen_server:call(t, make)\n\
        end.\n";

    #[test]
    fn code_under_a_whereis_self_test_runs_in_the_registered_server() {
        procs_of(GUARDED, |_, flow, procs| {
            let server = Proc::Server(0);
            assert_eq!(call_procs(flow, procs, "insert"), vec![Some(server)]);
            // The other clause runs wherever make/0 is called.
            assert_eq!(call_procs(flow, procs, "call"), vec![None]);
        });
        // A second start under no name: the name's holder is not always
        // that server.
        let unnamed = GUARDED.replace(
            "init([]) -> {ok, 0}.",
            "init([]) -> {ok, 0}.\nother() -> gen_server:start(t, [], []).",
        );
        procs_of(&unnamed, |_, flow, procs| {
            assert_eq!(call_procs(flow, procs, "insert"), vec![None]);
        });
        // Nor when something unregisters the name.
        let unregistered = GUARDED.replace(
            "init([]) -> {ok, 0}.",
            "init([]) -> unregister(t), {ok, 0}.",
        );
        procs_of(&unregistered, |_, flow, procs| {
            assert_eq!(call_procs(flow, procs, "insert"), vec![None]);
        });
    }

    #[test]
    fn a_loop_entered_under_a_name_is_a_singleton_server_with_its_prelude() {
        let src = "-module(t).\n\
            -export([start/0, handle_call/3, handle_cast/2]).\n\
            start() -> proc_lib:spawn(fun() -> boot() end).\n\
            boot() -> seed(), register(t, self()), fill(),\n\
              gen_server:enter_loop(t, [], 0, {local, t}).\n\
            seed() -> ok.\n\
            fill() -> ok.\n\
            handle_call(_, _, S) -> fill(), {reply, ok, S}.\n\
            handle_cast(_, S) -> {noreply, S}.\n";
        procs_of(src, |units, _flow, procs| {
            let server = Proc::Server(0);
            assert!(procs.singletons.contains(&server));
            let runs = |name: &str, arity: u32| {
                let g = units.lookup("t", name, arity).expect("function");
                procs.runs_in[units.fn_unit[g.index()].index()].only()
            };
            assert_eq!(runs("handle_call", 3), Some(server));
            // fill/0 runs after the register, in the process that becomes
            // the server; seed/0 before it, in the spawned process.
            assert_eq!(runs("fill", 0), Some(server));
            assert_ne!(runs("seed", 0), Some(server));
        });
    }

    /// A process that registers itself under a constant name and then
    /// enters the loop with `gen_server:enter_loop/3` (no name there) is
    /// a singleton server: a second one raises at the register. Its
    /// start function is no `init/1` run once (the code before the
    /// register may run in two processes).
    #[test]
    fn a_loop_entered_after_registering_itself_is_a_singleton_server() {
        let src = "-module(t).\n\
            -export([start_link/0, init/1, handle_call/3, handle_cast/2]).\n\
            start_link() -> proc_lib:start_link(t, init, [self()]).\n\
            init(Parent) -> register(t, self()), proc_lib:init_ack(Parent, {ok, self()}),\n\
              gen_server:enter_loop(t, [], 0).\n\
            handle_call(_, _, S) -> {reply, ok, S}.\n\
            handle_cast(_, S) -> {noreply, S}.\n";
        procs_of(src, |units, _flow, procs| {
            assert!(procs.singletons.contains(&Proc::Server(0)));
            let init = units.lookup("t", "init", 1).expect("init");
            assert_eq!(procs.run_once[units.fn_unit[init.index()].index()], None);
        });
        // Without the register, or with a name something unregisters,
        // two such servers may run.
        let unnamed = src.replace("register(t, self()), ", "");
        procs_of(&unnamed, |_, _, procs| {
            assert!(!procs.singletons.contains(&Proc::Server(0)));
        });
        let unregistered = src.replace(
            "handle_cast(_, S) -> {noreply, S}.",
            "handle_cast(_, S) -> unregister(t), {noreply, S}.",
        );
        procs_of(&unregistered, |_, _, procs| {
            assert!(!procs.singletons.contains(&Proc::Server(0)));
        });
    }

    #[test]
    fn a_branch_on_a_parameter_runs_where_the_calls_passing_its_atom_run() {
        let src = "-module(t).\n-behaviour(gen_server).\n\
            -export([start/0, init/1, handle_call/3, handle_cast/2, get/0]).\n\
            start() -> gen_server:start({local, t}, t, [], []).\n\
            init([]) -> conf(true), {ok, 0}.\n\
            handle_call(_, _, S) -> {reply, via(true), S}.\n\
            handle_cast(_, S) -> {noreply, S}.\n\
            get() -> via(false).\n\
            via(GG) -> conf(GG).\n\
            conf(GG) -> if GG == true -> persistent_term:put(t, 1); true -> ok end.\n";
        procs_of(src, |_, flow, procs| {
            assert_eq!(call_procs(flow, procs, "put"), vec![Some(Proc::Server(0))]);
        });
        // An exported function passing true runs anywhere.
        let leaky = src.replace("get/0]", "get/0, set/0]").replace(
            "get() -> via(false).",
            "get() -> via(false).\nset() -> via(true).",
        );
        procs_of(&leaky, |_, flow, procs| {
            assert_eq!(call_procs(flow, procs, "put"), vec![None]);
        });
    }

    const SERVER: &str = "-module(t).\n-behaviour(gen_server).\n\
        -export([start/0, init/1, handle_call/3, handle_cast/2, helper/0, api/0]).\n\
        start() -> gen_server:start({local, t}, t, [], []).\n\
        init([]) -> helper(), {ok, 0}.\n\
        helper() -> spawn(fun() -> loop() end), inner().\n\
        inner() -> ok.\n\
        loop() -> receive _ -> ok end.\n\
        handle_call(_, _, S) -> {reply, ok, S}.\n\
        handle_cast(_, S) -> {noreply, S}.\n";

    #[test]
    fn what_only_a_named_servers_init_runs_runs_once() {
        let src = format!("{SERVER}api() -> inner().\n");
        // helper/0 is exported but only init/1 calls it; inner/0 is also
        // called by api/0, which runs anywhere.
        assert_eq!(
            once(&src),
            vec!["fun in helper/0", "helper/0", "init/1", "loop/0"]
        );
    }

    #[test]
    fn an_unnamed_start_or_a_call_by_name_runs_more_than_once() {
        let unnamed = SERVER.replace(
            "gen_server:start({local, t}, t, [], [])",
            "gen_server:start(t, [], [])",
        ) + "api() -> ok.\n";
        assert!(once(&unnamed).is_empty());
        // `M:helper()` of an unknown module may call helper/0 from anywhere.
        let by_name = format!("{SERVER}api() -> M = get(m), M:helper().\n");
        assert_eq!(once(&by_name), vec!["init/1"]);
    }

    #[test]
    fn a_server_started_under_two_names_is_two_servers() {
        // Every start names the module with a constant, but two names are
        // two servers running the same callbacks: neither a singleton nor
        // an `init/1` run once. Two starts under one name are one server.
        let two = SERVER.replace("helper/0, api/0]", "helper/0, api/0, start2/0]")
            + "api() -> ok.\nstart2() -> gen_server:start({local, t2}, t, [], []).\n";
        procs_of(&two, |_, _, procs| {
            assert!(!procs.singletons.contains(&Proc::Server(0)));
        });
        assert!(once(&two).is_empty());
        let same = two.replace("{local, t2}", "{local, t}");
        procs_of(&same, |_, _, procs| {
            assert!(procs.singletons.contains(&Proc::Server(0)));
        });
        assert_eq!(
            once(&same),
            vec!["fun in helper/0", "helper/0", "init/1", "inner/0", "loop/0"]
        );
    }

    /// A coordinator that registers itself, then makes a helper only it
    /// calls; `EXTRA` added at the end.
    fn coordinator(extra: &str) -> String {
        format!(
            "-module(t).\n-export([start/0, ensure/0, go/0]).\n\
             start() -> spawn(fun go/0).\n\
             go() -> setup(), register(coord, self()), ensure(), loop().\n\
             setup() -> ok.\n\
             ensure() -> case whereis(aux) of undefined -> register(aux, spawn(fun aux/0)); _ -> ok end.\n\
             loop() -> receive _ -> loop() end.\n\
             aux() -> receive _ -> ok end.\n{extra}"
        )
    }

    #[test]
    fn what_only_a_self_registered_process_calls_runs_once() {
        // ensure/0 is exported, but the program calls it only after
        // register(coord, self()); setup/0 runs before it, anywhere.
        // loop/0 too, and aux/0, which only ensure/0 spawns.
        assert_eq!(once(&coordinator("")), vec!["aux/0", "ensure/0", "loop/0"]);
        // A name something unregisters passes to another process while
        // the first still runs.
        let handover = coordinator("-export([drop/0]).\ndrop() -> unregister(coord).\n");
        assert!(once(&handover).is_empty());
        // A call of `M:ensure()` naming no module may run it anywhere; one
        // of another arity cannot.
        let by_name = coordinator("-export([p/1]).\np(M) -> M:ensure().\n");
        assert_eq!(once(&by_name), vec!["loop/0"]);
        let other_arity = coordinator("-export([p/1]).\np(M) -> M:ensure(x).\n");
        assert_eq!(once(&other_arity), vec!["aux/0", "ensure/0", "loop/0"]);
    }

    #[test]
    fn a_process_started_from_a_loop_of_run_once_code_is_not_run_once() {
        // The coordinator's loop spawns a worker per message: workers may
        // run at once, though the loop itself runs in one process.
        let src = coordinator("worker() -> ensure().\n")
            .replace(
                "receive _ -> loop() end",
                "receive _ -> spawn(fun worker/0), loop() end",
            )
            .replace(
                "register(coord, self()), ensure(),",
                "register(coord, self()),",
            );
        assert_eq!(once(&src), vec!["loop/0"]);
        // Likewise from a fun handed to lists:foreach/2 (the fun itself
        // runs in the coordinator, one call after the other).
        let each = coordinator("").replace(
            "ensure(), loop()",
            "lists:foreach(fun(_) -> spawn(fun ensure/0) end, [1, 2]), loop()",
        );
        assert_eq!(once(&each), vec!["fun in go/0", "loop/0"]);
    }

    #[test]
    fn a_recursive_helper_of_run_once_code_runs_once() {
        let src = coordinator("")
            .replace("ensure(), loop()", "ensure(3), loop()")
            .replace("ensure/0", "ensure/1")
            .replace(
                "ensure() -> case",
                "ensure(0) -> ok;\nensure(N) -> ensure(N - 1), case",
            );
        // aux/0 is spawned at each step of the recursion: not once.
        assert_eq!(once(&src), vec!["ensure/1", "loop/0"]);
    }

    /// A named server whose `init/1` starts an unnamed worker server of
    /// module `w` (`start_worker/0`), plus `EXTRA`.
    fn with_worker(extra: &str) -> Vec<String> {
        with_worker_started(
            "start_worker() -> gen_server:start_link(w, [], []).\n",
            extra,
        )
    }

    /// [`with_worker`] with `START` defining `start_worker/0`.
    fn with_worker_started(start: &str, extra: &str) -> Vec<String> {
        let main = "-module(t).\n-behaviour(gen_server).\n\
                    -export([start/0, init/1, handle_call/3, handle_cast/2]).\n\
                    start() -> gen_server:start({local, t}, t, [], []).\n\
                    init([]) -> w:start_worker(), {ok, 0}.\n\
                    handle_call(_, _, S) -> {reply, ok, S}.\n\
                    handle_cast(_, S) -> {noreply, S}.\n";
        let worker = format!(
            "-module(w).\n-behaviour(gen_server).\n\
             -export([start_worker/0, init/1, handle_call/3, handle_cast/2]).\n\
             {start}\
             init([]) -> prep(), {{ok, 0}}.\n\
             prep() -> ok.\n\
             handle_call(_, _, S) -> {{reply, ok, S}}.\n\
             handle_cast(_, S) -> {{noreply, S}}.\n{extra}"
        );
        let mut program = load_source("t.erl", main);
        program.absorb(load_source("w.erl", &worker));
        let units = Units::new(&program);
        let flow = crate::dataflow::compute(&units, 16);
        let cg = CallGraph::build(&units, &flow);
        let procs = compute(&units, &flow, &cg);
        let mut out: Vec<String> = (0..units.units.len())
            .filter(|&u| procs.run_once[u].is_some() && units.units[u].fun.is_none())
            .map(|u| {
                let f = units.unit_function(UnitId(u as u32));
                format!(
                    "{}:{}/{}",
                    units.module(units.units[u].module).name,
                    f.name,
                    f.arity
                )
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_servers_init_started_only_from_run_once_code_runs_once() {
        // start_link/3 returns once w:init/1 has: it runs inside t's init/1.
        assert_eq!(
            with_worker(""),
            vec!["t:init/1", "w:init/1", "w:prep/0", "w:start_worker/0"]
        );
        // Another start of w from anywhere: two w:init/1 may overlap.
        let more = with_worker("-export([more/0]).\nmore() -> gen_server:start(w, [], []).\n");
        assert_eq!(more, vec!["t:init/1", "w:start_worker/0"]);
        // Started again by a recursive starter: one init/1 at a time.
        let retried = with_worker_started(
            "start_worker() -> retry(3).\nretry(0) -> error;\n\
             retry(N) -> case gen_server:start_link(w, [], []) of {ok, P} -> {ok, P}; _ -> retry(N - 1) end.\n",
            "",
        );
        assert_eq!(
            retried,
            vec![
                "t:init/1",
                "w:init/1",
                "w:prep/0",
                "w:retry/1",
                "w:start_worker/0"
            ]
        );
        // A plain spawn of w:init/1 does not wait for it.
        let spawned = with_worker("-export([more/0]).\nmore() -> spawn(w, init, [[]]).\n");
        assert_eq!(spawned, vec!["t:init/1", "w:start_worker/0"]);
    }

    /// A supervisor module (started by `START`) whose child spec names its
    /// own `start_child/0`, which registers a helper; with `FLAGS`.
    fn supervised(start: &str, flags: &str) -> Vec<String> {
        once(&format!(
            "-module(t).\n-behaviour(supervisor).\n\
             -export([start/0, init/1, start_child/0]).\n\
             start() -> {start}.\n\
             init([]) -> {{ok, {{{flags}, [{{c, {{t, start_child, []}}, permanent, 1000, worker, [t]}}]}}}}.\n\
             start_child() -> case whereis(c) of undefined -> {{ok, spawn_link(fun() -> register(c, self()), receive _ -> ok end end)}}; P -> {{ok, P}} end.\n"
        ))
    }

    #[test]
    fn a_singleton_supervisors_child_start_runs_once() {
        let named = "supervisor:start_link({local, t}, t, [])";
        assert_eq!(
            supervised(named, "{one_for_one, 1, 5}"),
            vec!["fun in start_child/0", "init/1", "start_child/0"]
        );
        // Several supervisors of the module may start children at once.
        let unnamed = "supervisor:start_link(t, [])";
        assert!(supervised(unnamed, "{one_for_one, 1, 5}").is_empty());
        // simple_one_for_one children take more arguments than the spec
        // shows: the spec names no function of the program for sure.
        assert_eq!(
            supervised(named, "{simple_one_for_one, 1, 5}"),
            vec!["init/1"]
        );
    }
}
