//! Interprocedural value flow: what each variable, call argument, function
//! result and record field may hold.
//!
//! Each named function is evaluated abstractly once per round, with its
//! parameters as [`Term::Param`] (so results are summaries that a call site
//! instantiates with its own arguments). Funs written inside a function are
//! evaluated with it (they share its variables); their own parameters are
//! `Any`, and a `Param` inside them refers to the enclosing function's
//! parameters. Between rounds, call sites feed their (resolved) arguments to
//! their callees' parameter contexts, and tuple constructions whose first
//! element is an atom feed a per-record field table that tuple patterns read
//! back (how a table id kept in a `gen_server` state record reaches the
//! callbacks). Rounds repeat until nothing changes or the evaluation budget
//! is spent.
//!
//! Within a round every evaluation reads a snapshot of the values as the
//! round began (Jacobi iteration), in parallel; the facts are merged in
//! function order, one chunk while the next is evaluated. A function whose
//! context grew earlier in the same merge re-resolves the sites that read
//! the grown parameters. So the result does not depend on thread count.

use racewit_syntax::ir::{
    Body, CallSiteId, CallTarget, CaseKind, Clause, ClauseId, Expr, ExprId, Literal, MFA, Name,
    Pat, PatId, Qualifier,
};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

pub use crate::ets::Creation;
use crate::ets::Tables;
use crate::invoke::{Callee, Invoke, invocations};
pub use crate::invoke::{SiteTarget, SiteVals};
use crate::server::Behaviour;
use crate::units::{FnId, Units};
use crate::values::{
    Opaque, OpaqueId, Origin, Term, UnitId, Val, constant_like, element, list_elements, product,
    resolve,
};

/// The most rounds of the fixpoint before giving up on further precision.
const MAX_ROUNDS: usize = 8;
/// Evaluations per function the fixpoint may spend after its third round.
const EVAL_BUDGET: usize = 3;
/// Functions evaluated together while the previous ones' facts are merged.
const MERGE_CHUNK: usize = 2048;

/// The value says only which parameter or unknown result it came from.
fn only_identities(v: &Val) -> bool {
    !v.is_bottom()
        && v.iter().all(|t| {
            matches!(
                t,
                Term::Param(_) | Term::ParamElem(..) | Term::Opaque(Opaque { derived: false, .. })
            )
        })
}

/// The value is one or more unnamed tables, each known by its `ets:new`.
fn only_tables(v: &Val) -> bool {
    !v.is_bottom() && !v.is_any() && v.iter().all(|t| matches!(t, Term::Table(_)))
}

/// Where a value stored in a data structure is looked up again.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FieldKey {
    /// A record field: record name, tuple size, 0-based position, and
    /// the field's name in the definition the module using it has (none
    /// for a tagged tuple no definition there describes): two modules'
    /// own records of one name and size with other fields (`#st{table}`
    /// and `#st{levels}`) are other records.
    Record(Name, u32, u32, Option<Name>),
    /// The value under a constant key of any map (`#{tab => T}`).
    Map(Term),
    /// The value `persistent_term:put/2` stores under a key (`Any` for a
    /// key not known), and [`FieldKey::PERSISTENT`], which a read of any
    /// key follows (a put under a new key grows it too).
    PersistentTerm(Term),
}

impl FieldKey {
    /// Read by every `persistent_term:get`: grows with every put.
    pub const PERSISTENT: FieldKey = FieldKey::PersistentTerm(Term::Wild);
}

#[derive(Default)]
struct FnFacts {
    /// Units whose results this evaluation used.
    ret_reads: Vec<UnitId>,
    /// Record fields this evaluation read.
    field_reads: Vec<FieldKey>,
    /// The evaluation used the key positions of tables.
    keypos_read: bool,
    sites: Vec<(CallSiteId, SiteVals)>,
    /// For each of `sites`: the invocations the evaluation computed in the
    /// function's context (reused to resolve the feeds in that same context).
    invokes: Vec<Option<Vec<Invoke>>>,
    returns: Vec<(UnitId, Val)>,
    fields: Vec<(FieldKey, Val)>,
    creations: Vec<(CallSiteId, bool, Val, Val)>,
    sends: Vec<Val>,
    /// What [`merge`] derives from the facts in the function's context as
    /// it stood when the round began (computed in parallel; used unless the
    /// context grew earlier in the same round).
    resolved: Option<Resolved>,
}

/// The context-dependent part of merging one function's facts.
struct Resolved {
    /// The context it was resolved in.
    ctx: Vec<Val>,
    creations: Vec<Creation>,
    sent: Vec<Val>,
    /// Per site (in the order of the facts' sites): arguments fed to each
    /// callee, in invocation order.
    feed: Vec<Vec<(FnId, Vec<Val>)>>,
}

/// The result of the value analysis.
pub struct Flow {
    pub limit: usize,
    /// Parameter values of each named function (all callers, `Any` when it escapes).
    pub ctx: Vec<Vec<Val>>,
    /// Parameter values from the program's own call sites only.
    pub internal_ctx: Vec<Vec<Val>>,
    /// Per parameter of each named function: some call passes it a
    /// constant (so a widened parameter may be any constant).
    pub fed_constant: Vec<Vec<bool>>,
    /// Result of each unit, in terms of its owner's parameters.
    pub ret: Vec<Val>,
    pub fields: FxHashMap<FieldKey, Val>,
    /// Per module, per call site.
    pub sites: Vec<Vec<Option<SiteVals>>>,
    pub creations: Vec<Creation>,
    /// Values sent in messages (resolved).
    pub sent: Vec<Val>,
    /// Locally registered server names and the callback modules started under them.
    pub servers: FxHashMap<Name, Vec<Name>>,
    /// The ETS tables created so far (as the round began), for the key
    /// position of the objects a lookup returns.
    pub tables: Tables,
    pub rounds: usize,
}

impl Flow {
    pub fn site(&self, module: u32, site: CallSiteId) -> Option<&SiteVals> {
        self.sites.get(module as usize)?.get(site.index())?.as_ref()
    }

    /// What an evaluation reads (contexts, results, fields), shared with
    /// this flow; sites, creations and sent values are left out.
    fn snapshot(&self) -> Flow {
        Flow {
            limit: self.limit,
            ctx: self.ctx.clone(),
            internal_ctx: Vec::new(),
            fed_constant: Vec::new(),
            ret: self.ret.clone(),
            fields: self.fields.clone(),
            sites: Vec::new(),
            creations: Vec::new(),
            sent: Vec::new(),
            servers: self.servers.clone(),
            tables: self.tables.clone(),
            rounds: self.rounds,
        }
    }

    /// The context to resolve a unit's values in, absent a better one.
    pub fn unit_ctx(&self, units: &Units<'_>, u: UnitId) -> &[Val] {
        &self.ctx[units.unit(u).owner.index()]
    }

    pub fn field(&self, key: &FieldKey) -> Val {
        self.fields.get(key).cloned().unwrap_or(Val::Any)
    }
}

/// Functions whose parameters can take any value: exported ones and those
/// named by a `fun f/a`.
fn escaping_fns(units: &Units<'_>) -> Vec<bool> {
    let mut open: Vec<bool> = units.fns.iter().map(|(_, f)| f.exported).collect();
    for (mi, f) in &units.fns {
        let m = units.module(*mi);
        for e in &f.body.exprs {
            if let Expr::FunRef {
                module,
                name,
                arity,
            } = e
            {
                let lit_atom = |id: ExprId| match f.body.expr(id) {
                    Expr::Lit(Literal::Atom(a)) => Some(a.clone()),
                    _ => None,
                };
                let target_mod = match module {
                    None => Some(m.name.clone()),
                    Some(id) => lit_atom(*id),
                };
                let ar = match f.body.expr(*arity) {
                    Expr::Lit(Literal::Int(i)) => Some(*i as u32),
                    _ => None,
                };
                if let (Some(tm), Some(n), Some(ar)) = (target_mod, lit_atom(*name), ar)
                    && let Some(g) = units.lookup(&tm, &n, ar)
                {
                    open[g.index()] = true;
                }
            }
        }
    }
    open
}

pub fn compute(units: &Units<'_>, limit: usize) -> Flow {
    compute_in_chunks(units, limit, MERGE_CHUNK)
}

/// [`compute`], merging `chunk` functions' facts while the next are evaluated.
fn compute_in_chunks(units: &Units<'_>, limit: usize, chunk: usize) -> Flow {
    let open = escaping_fns(units);
    let server_states = server_states(units);
    // A server's state is its own: fed from its callbacks only.
    let state_params: FxHashSet<(usize, u32)> = server_states
        .iter()
        .flat_map(|s| s.receivers.iter().map(|&(g, k)| (g.index(), k)))
        .collect();
    let ctx: Vec<Vec<Val>> = units
        .fns
        .iter()
        .zip(&open)
        .enumerate()
        .map(|(fi, ((_, f), &o))| {
            (0..units.fn_params[fi])
                .map(|i| {
                    if i >= f.arity {
                        Val::one(Term::Opaque(Opaque::new(OpaqueId::FunParam {
                            function: fi as u32,
                            index: i,
                        })))
                    } else if o && !state_params.contains(&(fi, i)) {
                        Val::one(Term::Opaque(Opaque::new(OpaqueId::Param {
                            function: fi as u32,
                            index: i,
                        })))
                    } else {
                        Val::bottom()
                    }
                })
                .collect()
        })
        .collect();
    let internal_ctx: Vec<Vec<Val>> = units
        .fn_params
        .iter()
        .map(|&n| vec![Val::bottom(); n as usize])
        .collect();
    let fed_constant = units
        .fn_params
        .iter()
        .map(|&n| vec![false; n as usize])
        .collect();
    let mut flow = Flow {
        limit,
        ctx,
        internal_ctx,
        fed_constant,
        ret: vec![Val::bottom(); units.units.len()],
        fields: stored_fields(units),
        sites: units
            .modules
            .iter()
            .map(|m| vec![None; m.call_sites.len()])
            .collect(),
        creations: Vec::new(),
        sent: Vec::new(),
        servers: FxHashMap::default(),
        tables: Tables::default(),
        rounds: 0,
    };
    let n = units.fns.len();
    let mut state = Worklist {
        dirty: vec![true; n],
        ret_readers: vec![FxHashSet::default(); units.units.len()],
        field_readers: FxHashMap::default(),
        keypos_readers: FxHashSet::default(),
        ret_grew: vec![false; units.units.len()],
        fields_grew: FxHashSet::default(),
        creations: vec![Vec::new(); n],
        sent: vec![Vec::new(); n],
        grew: vec![false; n],
        open,
    };
    let mut evaluations = 0usize;
    for round in 0..MAX_ROUNDS {
        let work: Vec<usize> = (0..n).filter(|&i| state.dirty[i]).collect();
        // Stop when done, or when the work spent says the rest is a long tail
        // (values then miss some late contributions; counted in `rounds`).
        if work.is_empty() || (round >= 3 && evaluations > EVAL_BUDGET * n) {
            break;
        }
        evaluations += work.len();
        flow.rounds = round + 1;
        for &i in &work {
            state.dirty[i] = false;
        }
        state.grew.iter_mut().for_each(|g| *g = false);
        state.ret_grew.iter_mut().for_each(|g| *g = false);
        state.fields_grew.clear();
        // Every evaluation of the round reads the values as the round began,
        // so merging the facts of one chunk (in function order) can run while
        // the next chunk is evaluated.
        let snap = flow.snapshot();
        let chunks: Vec<&[usize]> = work.chunks(chunk.max(1)).collect();
        let mut pending: Option<Vec<FnFacts>> = None;
        for k in 0..=chunks.len() {
            let merging = pending.take().map(|facts| (chunks[k - 1], facts));
            let (next, ()) = rayon::join(
                || {
                    chunks.get(k).map(|c| {
                        c.par_iter()
                            .map(|&i| {
                                let fid = FnId(i as u32);
                                let mut f = eval_function(units, &snap, fid);
                                f.resolved =
                                    Some(resolve_facts(units, &snap, fid, &f, &snap.ctx[i], true));
                                // Freed here rather than in the merge.
                                f.invokes = Vec::new();
                                f
                            })
                            .collect::<Vec<FnFacts>>()
                    })
                },
                || {
                    if let Some((ids, facts)) = merging {
                        for (&i, f) in ids.iter().zip(facts) {
                            merge(units, &mut flow, &mut state, FnId(i as u32), f);
                        }
                    }
                },
            );
            pending = next;
        }
        // Lookups return objects keyed at their table's key position: the
        // functions that read one see the tables created so far.
        let created: Vec<Creation> = state.creations.iter().flatten().cloned().collect();
        let tables = Tables::new(&created);
        if tables.keypos_differ(&flow.tables) {
            for f in &state.keypos_readers {
                state.dirty[f.index()] = true;
            }
        }
        flow.tables = tables;
        // A server's state goes from what `init/1` and its callbacks
        // return to the callbacks that receive it.
        for s in &server_states {
            let mut st = Val::bottom();
            for &g in &s.returners {
                let u = units.fn_unit[g.index()];
                let ret = resolve(&flow.ret[u.index()], &flow.ctx[g.index()], limit);
                s.behaviour.states_returned(&ret, limit, &mut st);
            }
            for &(g, k) in &s.receivers {
                let (g, k) = (g.index(), k as usize);
                if flow.ctx[g][k].join_in(&st, limit) {
                    if st.iter().any(constant_like) {
                        flow.fed_constant[g][k] = true;
                    }
                    state.dirty[g] = true;
                }
                flow.internal_ctx[g][k].join_in(&st, limit);
            }
        }
    }
    // A function no outside code can call has been fed by the program's own
    // sites only: its internal context is its context (the same joins from
    // the same start); the parameters of its funs are not fed.
    for (g, internal) in flow.internal_ctx.iter_mut().enumerate() {
        if !state.open[g] {
            let arity = units.fns[g].1.arity as usize;
            for (k, v) in internal.iter_mut().enumerate().take(arity) {
                *v = flow.ctx[g][k].clone();
            }
        }
    }
    flow.creations = state.creations.into_iter().flatten().collect();
    flow.sent = state.sent.into_iter().flatten().collect();
    flow.servers = servers(units, &flow);
    flow
}

/// A server callback module: who returns its state, who receives it.
struct ServerState {
    behaviour: Behaviour,
    /// `init/1` and the callbacks returning a new state.
    returners: Vec<FnId>,
    /// Callbacks receiving the state, with the parameter holding it.
    receivers: Vec<(FnId, u32)>,
}

/// Every server callback module of the program.
fn server_states(units: &Units<'_>) -> Vec<ServerState> {
    let mut out = Vec::new();
    for (mi, m) in units.modules.iter().enumerate() {
        let Some(b) = Behaviour::of(m) else {
            continue;
        };
        let mut s = ServerState {
            behaviour: b,
            returners: Vec::new(),
            receivers: Vec::new(),
        };
        for f in &m.functions {
            if !f.exported || !b.is_callback(&f.name, f.arity) {
                continue;
            }
            let Some(g) = units.lookup(&m.name, &f.name, f.arity) else {
                continue;
            };
            debug_assert_eq!(units.fns[g.index()].0, mi as u32);
            if f.name != "terminate" {
                s.returners.push(g);
            }
            if let Some(k) = b.state_param(&f.name, f.arity) {
                s.receivers.push((g, k));
            }
        }
        out.push(s);
    }
    out
}

/// Whether a call site may run a function of the program (a plain call to
/// code outside it cannot, except through funs, which are not fed here).
fn may_run_program_code(sv: &SiteVals) -> bool {
    match &sv.target {
        SiteTarget::Static(mfa) => {
            sv.callee.is_some()
                || (mfa.module == "erlang" && mfa.name == "apply")
                || crate::spawn::start_of(mfa).is_some()
                || mfa.module == "gen_server"
        }
        _ => true,
    }
}

/// Who to evaluate again when something changes.
struct Worklist {
    dirty: Vec<bool>,
    /// Functions that used each unit's result.
    ret_readers: Vec<FxHashSet<FnId>>,
    /// Functions that read each record field.
    field_readers: FxHashMap<FieldKey, FxHashSet<FnId>>,
    /// Functions that read the key position of a table.
    keypos_readers: FxHashSet<FnId>,
    /// Results and fields that grew during the current round's merge.
    ret_grew: Vec<bool>,
    fields_grew: FxHashSet<FieldKey>,
    creations: Vec<Vec<Creation>>,
    sent: Vec<Vec<Val>>,
    /// Functions whose parameter context grew during the current round.
    grew: Vec<bool>,
    /// Functions whose parameters take any value ([`escaping_fns`]): only
    /// their internal context differs from the full one.
    open: Vec<bool>,
}

impl Worklist {
    fn mark(&mut self, f: FnId) {
        self.dirty[f.index()] = true;
    }
}

/// Locally registered server names and the modules started under them.
fn servers(units: &Units<'_>, flow: &Flow) -> FxHashMap<Name, Vec<Name>> {
    let limit = flow.limit;
    let mut servers: std::collections::BTreeMap<Name, std::collections::BTreeSet<Name>> =
        Default::default();
    for per_site in &flow.sites {
        for sv in per_site.iter().flatten() {
            let SiteTarget::Static(mfa) = &sv.target else {
                continue;
            };
            if !(mfa.arity == 4
                && matches!(mfa.module.as_str(), "gen_server" | "gen_statem" | "gen_fsm")
                && matches!(mfa.name.as_str(), "start" | "start_link" | "start_monitor"))
            {
                continue;
            }
            let ctx = flow.unit_ctx(units, sv.unit);
            let name = resolve(&sv.args[0], ctx, limit);
            let module = resolve(&sv.args[1], ctx, limit);
            for t in name.iter() {
                if let Term::Tuple(p) = t
                    && let [Term::Atom(scope), Term::Atom(n)] = p.as_slice()
                    && scope == "local"
                {
                    for m in module.atoms().unwrap_or_default() {
                        servers.entry(n.clone()).or_default().insert(m);
                    }
                }
            }
        }
    }
    servers
        .into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}

fn merge(units: &Units<'_>, flow: &mut Flow, state: &mut Worklist, fid: FnId, mut f: FnFacts) {
    let limit = flow.limit;
    let i = fid.index();
    let mi = units.fns[i].0;
    let resolved = match f.resolved.take() {
        Some(r) if !state.grew[i] => r,
        // The context changed since the round began: resolve again what
        // reads the parameters that changed.
        Some(r) => resolve_again(units, flow, fid, &f, r),
        None => resolve_facts(units, flow, fid, &f, &flow.ctx[i], false),
    };
    // A value that grew earlier in this round's merge was read before it
    // grew: read it again next round.
    for u in f.ret_reads {
        if state.ret_grew[u.index()] {
            state.dirty[i] = true;
        }
        state.ret_readers[u.index()].insert(fid);
    }
    if f.keypos_read {
        state.keypos_readers.insert(fid);
    }
    for k in f.field_reads {
        if state.fields_grew.contains(&k) {
            state.dirty[i] = true;
        }
        state.field_readers.entry(k).or_default().insert(fid);
    }
    // Marking only sets flags: the order readers are visited in does not matter.
    for (u, v) in f.returns {
        if flow.ret[u.index()].join_in(&v, limit) {
            state.ret_grew[u.index()] = true;
            for r in &state.ret_readers[u.index()] {
                state.dirty[r.index()] = true;
            }
        }
    }
    for (k, v) in f.fields {
        let slot = flow.fields.entry(k.clone()).or_insert_with(Val::bottom);
        if !slot.join_in(&v, limit) {
            continue;
        }
        state.fields_grew.insert(k.clone());
        // A read of a persistent term follows every key's slot.
        let also = matches!(k, FieldKey::PersistentTerm(_)).then_some(&FieldKey::PERSISTENT);
        if also.is_some() {
            state.fields_grew.insert(FieldKey::PERSISTENT);
        }
        for key in std::iter::once(&k).chain(also) {
            if let Some(readers) = state.field_readers.get(key) {
                for r in readers {
                    state.dirty[r.index()] = true;
                }
            }
        }
    }
    state.creations[i] = resolved.creations;
    state.sent[i] = resolved.sent;
    for (site, sv) in f.sites {
        flow.sites[mi as usize][site.index()] = Some(sv);
    }
    for (g, args) in resolved.feed.into_iter().flatten() {
        for (k, a) in args.iter().enumerate() {
            if !flow.fed_constant[g.index()][k] && a.iter().any(constant_like) {
                flow.fed_constant[g.index()][k] = true;
            }
            if flow.ctx[g.index()][k].join_in(a, limit) {
                state.grew[g.index()] = true;
                state.mark(g);
            }
            if state.open[g.index()] {
                flow.internal_ctx[g.index()][k].join_in(a, limit);
            }
        }
    }
}

/// Creations, sends and argument feeds of one function's facts, resolved in
/// its parameter context `caller_ctx` (`reuse`: the one it was evaluated in,
/// so the invocations it found stand).
fn resolve_facts(
    units: &Units<'_>,
    flow: &Flow,
    fid: FnId,
    f: &FnFacts,
    caller_ctx: &[Val],
    reuse: bool,
) -> Resolved {
    let mi = units.fns[fid.index()].0;
    let (creations, sent) = resolve_effects(units, flow, fid, f, caller_ctx);
    let feed = f
        .sites
        .iter()
        .enumerate()
        .map(|(k, (_, sv))| match f.invokes.get(k) {
            // Computed by the evaluation in this same context.
            Some(Some(invs)) if reuse => feed_of(units, flow, invs, caller_ctx),
            _ => site_feed(units, flow, mi, sv, caller_ctx),
        })
        .collect();
    Resolved {
        ctx: caller_ctx.to_vec(),
        creations,
        sent,
        feed,
    }
}

/// Table creations and sent values of one function's facts, resolved in `caller_ctx`.
fn resolve_effects(
    units: &Units<'_>,
    flow: &Flow,
    fid: FnId,
    f: &FnFacts,
    caller_ctx: &[Val],
) -> (Vec<Creation>, Vec<Val>) {
    let limit = flow.limit;
    let mi = units.fns[fid.index()].0;
    let creations = f
        .creations
        .iter()
        .map(|(site, mnesia, name, opts)| Creation {
            origin: Origin {
                module: mi,
                site: *site,
            },
            owner: fid,
            mnesia: *mnesia,
            name: resolve(name, caller_ctx, limit),
            opts: resolve(opts, caller_ctx, limit),
        })
        .collect();
    let sent = f
        .sends
        .iter()
        .map(|v| resolve(v, caller_ctx, limit))
        .collect();
    (creations, sent)
}

/// [`resolve_facts`] in the function's current context, reusing the feeds
/// of sites whose values read no parameter that changed since `old`.
fn resolve_again(
    units: &Units<'_>,
    flow: &Flow,
    fid: FnId,
    f: &FnFacts,
    old: Resolved,
) -> Resolved {
    let ctx = &flow.ctx[fid.index()];
    let changed: Vec<bool> = ctx
        .iter()
        .enumerate()
        .map(|(k, v)| old.ctx.get(k) != Some(v))
        .collect();
    let mi = units.fns[fid.index()].0;
    let (creations, sent) = resolve_effects(units, flow, fid, f, ctx);
    let feed = f
        .sites
        .iter()
        .zip(old.feed)
        .map(|((_, sv), feed)| {
            if site_reads_params(sv, &changed) {
                site_feed(units, flow, mi, sv, ctx)
            } else {
                feed
            }
        })
        .collect();
    Resolved {
        ctx: ctx.clone(),
        creations,
        sent,
        feed,
    }
}

/// Some value of the site (target or argument) reads a parameter marked in `changed`.
fn site_reads_params(sv: &SiteVals, changed: &[bool]) -> bool {
    fn term(t: &Term, changed: &[bool]) -> bool {
        match t {
            Term::Param(k) | Term::Derived(k) | Term::ParamElem(k, _) => {
                changed.get(*k as usize).copied().unwrap_or(true)
            }
            Term::List(ts) | Term::Tuple(ts) | Term::Map(ts) => ts.iter().any(|x| term(x, changed)),
            _ => false,
        }
    }
    let val = |v: &Val| v.iter().any(|t| term(t, changed));
    let target = match &sv.target {
        SiteTarget::Static(_) => false,
        SiteTarget::Dynamic { module, function } => val(module) || val(function),
        SiteTarget::Apply(v) => val(v),
    };
    target || sv.args.iter().any(val)
}

/// The arguments a call site feeds to each function it may call, resolved
/// in `caller_ctx`, in invocation order.
fn site_feed(
    units: &Units<'_>,
    flow: &Flow,
    mi: u32,
    sv: &SiteVals,
    caller_ctx: &[Val],
) -> Vec<(FnId, Vec<Val>)> {
    if may_run_program_code(sv) {
        feed_of(
            units,
            flow,
            &invocations(units, &flow.servers, flow.limit, mi, sv, caller_ctx),
            caller_ctx,
        )
    } else {
        Vec::new()
    }
}

/// The arguments `invs` feed to the functions they call, resolved in `caller_ctx`.
fn feed_of(
    units: &Units<'_>,
    flow: &Flow,
    invs: &[Invoke],
    caller_ctx: &[Val],
) -> Vec<(FnId, Vec<Val>)> {
    let limit = flow.limit;
    let mut feed = Vec::new();
    for inv in invs {
        let g = match inv.callee {
            Callee::Fn(g) => g,
            _ => continue,
        };
        let arity = units.function(g).arity as usize;
        let args: Vec<Val> = match &inv.args {
            Some(a) if a.len() == arity => {
                a.iter().map(|v| resolve(v, caller_ctx, limit)).collect()
            }
            _ => (0..arity as u32)
                .map(|k| {
                    Val::one(Term::Opaque(Opaque::new(OpaqueId::Param {
                        function: g.0,
                        index: k,
                    })))
                })
                .collect(),
        };
        feed.push((g, args));
    }
    feed
}

struct Eval<'a, 'p> {
    units: &'a Units<'p>,
    flow: &'a Flow,
    module: u32,
    fid: FnId,
    body: &'p Body,
    env: Vec<Option<Val>>,
    /// The unit whose code is being evaluated (the function or a fun in it).
    unit: UnitId,
    facts: FnFacts,
    /// Invocations computed for the site being evaluated.
    invoked: Option<Vec<Invoke>>,
    /// Fields a record update being evaluated copies from its base record
    /// (the variables of the fields it does not set).
    copies: Vec<ExprId>,
}

/// Every record field some code of the program stores a value in (a
/// record built, or a field a record update sets), as "no value yet".
/// A field is read back before the round that stores its first value is
/// merged; it then reads as not known yet, as the result of a function not
/// evaluated yet does, instead of as any value (which, joined into what
/// the reader returns, would stay there after the field is known). A field
/// no code stores in (records that come only from outside) stays absent,
/// and reads as any value.
fn stored_fields(units: &Units<'_>) -> FxHashMap<FieldKey, Val> {
    let mut out = FxHashMap::default();
    for &(mi, f) in &units.fns {
        let body = &f.body;
        let mut copies: FxHashSet<ExprId> = FxHashSet::default();
        for e in &body.exprs {
            if let Expr::Case {
                kind: CaseKind::Record,
                clauses,
                ..
            } = e
            {
                copies.extend(update_copies(body, clauses));
            }
        }
        for e in &body.exprs {
            let Expr::Tuple(es) = e else { continue };
            let Some(Expr::Lit(Literal::Atom(r))) = es.first().map(|&x| body.expr(x)) else {
                continue;
            };
            let n = es.len() as u32;
            if !units.records.contains(&(r.clone(), n)) {
                continue;
            }
            for (i, x) in es.iter().enumerate().skip(1) {
                if !copies.contains(x) {
                    out.entry(record_field(units, mi, r, n, i as u32))
                        .or_insert_with(Val::bottom);
                }
            }
        }
    }
    out
}

/// The key of position `i` (0-based) of record `r` of tuple size `n` as
/// module `mi` writes it: named by the field its definition of `r` has
/// there, when it has one of that size.
fn record_field(units: &Units<'_>, mi: u32, r: &Name, n: u32, i: u32) -> FieldKey {
    let field = units
        .module(mi)
        .records
        .get(r)
        .filter(|d| d.fields.len() as u32 + 1 == n)
        .and_then(|d| d.fields.get((i as usize).checked_sub(1)?))
        .cloned();
    FieldKey::Record(r.clone(), n, i, field)
}

/// A value that says something: not unknown, not only identities.
fn known_value(v: &Val) -> bool {
    !v.is_any() && !only_identities(v) && !v.iter().any(|t| matches!(t, Term::Any))
}

/// The elements of a record update (`R#r{f = V}`, lowered to `case R of
/// {r, F1, ..} -> {r, .., V, ..}; _ -> r end`) that copy a field of the base
/// record: the first clause binds the field to a variable and the tuple it
/// builds puts that variable back at the same position.
fn update_copies(body: &Body, clauses: &[ClauseId]) -> Vec<ExprId> {
    let Some(&c) = clauses.first() else {
        return Vec::new();
    };
    let clause = body.clause(c);
    let (Some(&p), Expr::Tuple(es)) = (clause.pats.first(), body.expr(clause.body)) else {
        return Vec::new();
    };
    let Pat::Tuple(ps) = body.pat(p) else {
        return Vec::new();
    };
    if ps.len() != es.len() {
        return Vec::new();
    }
    ps.iter()
        .zip(es)
        .filter(|&(&q, &e)| match (body.pat(q), body.expr(e)) {
            (Pat::Var(a), Expr::Var(b)) => a == b,
            _ => false,
        })
        .map(|(_, &e)| e)
        .collect()
}

fn eval_function(units: &Units<'_>, flow: &Flow, fid: FnId) -> FnFacts {
    let (mi, func) = units.fns[fid.index()];
    let mut ev = Eval {
        units,
        flow,
        module: mi,
        fid,
        body: &func.body,
        env: vec![None; func.body.var_count()],
        unit: units.fn_unit[fid.index()],
        facts: FnFacts::default(),
        invoked: None,
        copies: Vec::new(),
    };
    let params: Vec<Val> = (0..func.arity).map(|i| Val::one(Term::Param(i))).collect();
    let ret = ev.clauses(&func.clauses, &params);
    ev.facts.returns.push((ev.unit, ret));
    ev.facts
}

impl Eval<'_, '_> {
    fn limit(&self) -> usize {
        self.flow.limit
    }

    /// An unknown value identified by the expression that produced it.
    fn opaque(&self, e: ExprId) -> Val {
        Val::one(Term::Opaque(Opaque::new(OpaqueId::Expr {
            function: self.fid.0,
            expr: e.0,
        })))
    }

    fn clauses(&mut self, clauses: &[ClauseId], args: &[Val]) -> Val {
        let mut out = Val::bottom();
        for &c in clauses {
            let clause: &Clause = self.body.clause(c);
            for (i, &p) in clause.pats.iter().enumerate() {
                let v = args.get(i).cloned().unwrap_or(Val::Any);
                self.bind(p, &v);
            }
            for conj in &clause.guard {
                for &g in conj {
                    self.expr(g);
                }
            }
            let v = self.expr(clause.body);
            out.join_in(&v, self.limit());
        }
        out
    }

    fn bind(&mut self, p: PatId, v: &Val) {
        let limit = self.limit();
        match self.body.pat(p) {
            Pat::Var(var) => {
                // An unknown value gets the variable as its identity.
                let opaque;
                let v = if v.is_any() {
                    opaque = Val::one(Term::Opaque(Opaque::new(OpaqueId::Var {
                        function: self.fid.0,
                        var: var.0,
                    })));
                    &opaque
                } else {
                    v
                };
                let slot = &mut self.env[var.index()];
                match slot {
                    Some(old) => {
                        old.join_in(v, limit);
                    }
                    None => *slot = Some(v.clone()),
                }
            }
            Pat::Tuple(ps) => {
                let ps = ps.clone();
                let record = match ps.first().map(|&p0| self.body.pat(p0)) {
                    Some(Pat::Lit(Literal::Atom(r)))
                        if self.units.records.contains(&(r.clone(), ps.len() as u32)) =>
                    {
                        Some(r.clone())
                    }
                    _ => None,
                };
                for (i, &q) in ps.iter().enumerate() {
                    let mut e = element(v, i, limit);
                    // An unknown record (a parameter fed from outside, an
                    // unknown result) still holds in this field what the
                    // program stores there; for tables, that is which
                    // creations the field may hold (how a table kept in a
                    // record handed to the caller, as `digraph` does, is
                    // known again when the record comes back).
                    let unknown_record = e.is_any() || only_identities(&e);
                    if unknown_record && let Some(r) = &record {
                        let key =
                            record_field(self.units, self.module, r, ps.len() as u32, i as u32);
                        self.facts.field_reads.push(key.clone());
                        match self.flow.fields.get(&key) {
                            Some(f) if only_tables(f) => e = f.clone(),
                            // Stored somewhere, but no value merged yet:
                            // read again when it is (a table field then
                            // reads as its tables only).
                            Some(f) if e.is_any() && f.is_bottom() => e = f.clone(),
                            Some(f) if e.is_any() => e = f.clone(),
                            _ => {}
                        }
                    }
                    self.bind(q, &e);
                }
            }
            Pat::Cons(h, t) => {
                let (h, t) = (*h, *t);
                let elems = list_elements(v, limit);
                self.bind(h, &elems);
                self.bind(t, &Val::Any);
            }
            Pat::Alias(a, b) => {
                let (a, b) = (*a, *b);
                self.bind(a, v);
                self.bind(b, v);
            }
            Pat::Map(fields) => {
                for (k, q) in fields.clone() {
                    let kv = self.expr(k);
                    let e = self.map_get(&kv, v);
                    self.bind(q, &e);
                }
            }
            Pat::Binary(segs) => {
                for s in segs.clone() {
                    if let Some(sz) = s.size {
                        self.expr(sz);
                    }
                    self.bind(s.value, &Val::Any);
                }
            }
            Pat::Missing | Pat::Wild | Pat::Bound(_) | Pat::Lit(_) | Pat::Nil => {}
        }
    }

    fn exprs(&mut self, ids: &[ExprId]) -> Vec<Val> {
        ids.iter().map(|&e| self.expr(e)).collect()
    }

    fn expr(&mut self, id: ExprId) -> Val {
        let limit = self.limit();
        let body = self.body;
        match body.expr(id) {
            Expr::Missing => self.opaque(id),
            Expr::Lit(l) => match l {
                Literal::Atom(a) => Val::one(Term::Atom(a.clone())),
                Literal::Int(i) => Val::one(Term::Int(*i)),
                Literal::String(s) if s.is_empty() => Val::one(Term::List(Vec::new())),
                Literal::String(s) => Val::one(Term::Str(s.as_ref().into())),
                Literal::BigInt(_) | Literal::Float(_) => self.opaque(id),
            },
            Expr::Var(v) => self.env[v.index()].clone().unwrap_or(Val::Any),
            Expr::Nil => Val::one(Term::List(Vec::new())),
            Expr::Cons(h, t) => {
                let hv = self.expr(*h);
                let tv = self.expr(*t);
                // A proper list of known length: prepend to each list term of the tail.
                let mut out = Vec::new();
                for tt in tv.iter() {
                    match tt {
                        Term::List(items) => {
                            for ht in hv.iter() {
                                let mut l = Vec::with_capacity(items.len() + 1);
                                l.push(ht.clone());
                                l.extend(items.iter().cloned());
                                out.push(Term::List(l));
                            }
                        }
                        _ => out.push(Term::Any),
                    }
                }
                Val::from_terms(out, limit)
            }
            Expr::Tuple(es) => {
                let vals = self.exprs(es);
                if let Some(Expr::Lit(Literal::Atom(r))) = es.first().map(|&e| body.expr(e))
                    && self.units.records.contains(&(r.clone(), es.len() as u32))
                {
                    let n = es.len() as u32;
                    let ctx = &self.flow.ctx[self.fid.index()];
                    for (i, v) in vals.iter().enumerate().skip(1) {
                        // A field a record update copies from a base record
                        // not known here holds what that record held: a
                        // value some construction of the record stored
                        // there, counted where it was stored (reading it
                        // back from an unknown record assumes as much).
                        let rv = resolve(v, ctx, limit);
                        if self.copies.contains(&es[i]) && !known_value(&rv) {
                            continue;
                        }
                        self.facts
                            .fields
                            .push((record_field(self.units, self.module, r, n, i as u32), rv));
                    }
                }
                product(&vals, limit, Term::Tuple)
            }
            Expr::Map { base, fields } => {
                let base = match base {
                    Some(b) => self.expr(*b),
                    None => Val::one(Term::Map(Vec::new())),
                };
                let mut pairs = Vec::with_capacity(fields.len());
                for f in fields {
                    let k = self.expr(f.key);
                    let v = self.expr(f.value);
                    pairs.push((k, v));
                }
                let m = self.map_put(&pairs, &base);
                if m.is_any() { self.opaque(id) } else { m }
            }
            Expr::Block(es) => {
                let mut last = Val::one(Term::Atom(Name::new("ok")));
                for &e in es {
                    last = self.expr(e);
                }
                last
            }
            Expr::Match(p, e) => {
                let v = self.expr(*e);
                self.bind(*p, &v);
                v
            }
            Expr::MaybeMatch(p, e) => {
                let v = self.expr(*e);
                self.bind(*p, &v);
                v
            }
            Expr::Op(op, a, b) => {
                let x = self.expr(*a);
                let y = self.expr(*b);
                if *op == racewit_syntax::ir::BinOp::Append {
                    let d = Val::derive_all(&[&x, &y], limit);
                    if !d.is_any() {
                        return d;
                    }
                }
                self.opaque(id)
            }
            Expr::Send { to, msg, .. } => {
                self.expr(*to);
                let m = self.expr(*msg);
                self.facts.sends.push(m.clone());
                m
            }
            Expr::Call { site, target, args } => self.call(id, *site, target, args),
            Expr::Case {
                kind: CaseKind::Record,
                arg,
                clauses,
            } => {
                // A record access or update: the second clause raises
                // `{badrecord, R}` (its body, the record's name, is no value).
                let v = self.expr(*arg);
                let mark = self.copies.len();
                self.copies.extend(update_copies(body, clauses));
                let out = self.clauses(&clauses[..clauses.len().min(1)], &[v]);
                self.copies.truncate(mark);
                out
            }
            Expr::Case { arg, clauses, .. } => {
                let v = self.expr(*arg);
                self.clauses(clauses, &[v])
            }
            Expr::Receive { clauses, after } => {
                let mut out = self.clauses(clauses, &[Val::Any]);
                if let Some(a) = after {
                    self.expr(a.timeout);
                    let v = self.expr(a.body);
                    out.join_in(&v, limit);
                }
                out
            }
            Expr::Try(t) => {
                let racewit_syntax::ir::TryExpr {
                    body: b,
                    of_clauses,
                    catch_clauses,
                    after,
                } = &**t;
                let v = self.expr(*b);
                let mut out = if of_clauses.is_empty() {
                    v
                } else {
                    self.clauses(of_clauses, &[v])
                };
                let c = self.clauses(catch_clauses, &[Val::Any, Val::Any, Val::Any]);
                out.join_in(&c, limit);
                if let Some(a) = after {
                    self.expr(*a);
                }
                out
            }
            Expr::Catch(e) => {
                let v = self.expr(*e);
                v.join(&self.opaque(id), limit)
            }
            Expr::Fun(fe) => {
                let Some(u) = self.units.closure(self.module, fe.id) else {
                    return Val::Any;
                };
                if let Some(n) = fe.name {
                    self.env[n.index()] = Some(Val::one(Term::Fun(u)));
                }
                let saved = self.unit;
                self.unit = u;
                let base = self.units.unit(u).param_base;
                let args: Vec<Val> = (0..fe.arity)
                    .map(|i| Val::one(Term::Param(base + i)))
                    .collect();
                let r = self.clauses(&fe.clauses, &args);
                self.facts.returns.push((u, r));
                self.unit = saved;
                Val::one(Term::Fun(u))
            }
            Expr::FunRef {
                module,
                name,
                arity,
            } => {
                let m = match module {
                    Some(m) => self.expr(*m),
                    None => Val::one(Term::Atom(self.units.module(self.module).name.clone())),
                };
                let n = self.expr(*name);
                let a = self.expr(*arity);
                match (m.atoms(), n.atoms(), a.iter().next()) {
                    (Some(ms), Some(ns), Some(Term::Int(ar))) if ms.len() == 1 && ns.len() == 1 => {
                        Val::one(Term::FunRef(Box::new(MFA {
                            module: ms[0].clone(),
                            name: ns[0].clone(),
                            arity: *ar as u32,
                        })))
                    }
                    _ => Val::Any,
                }
            }
            Expr::Comprehension(c) => {
                for q in &c.qualifiers {
                    match q {
                        Qualifier::Generator { pat, expr, .. } => {
                            let v = self.expr(*expr);
                            let elems = list_elements(&v, limit);
                            self.bind(*pat, &elems);
                        }
                        Qualifier::Zip(gens) => {
                            for g in gens {
                                let v = self.expr(g.expr);
                                let elems = list_elements(&v, limit);
                                self.bind(g.pat, &elems);
                            }
                        }
                        Qualifier::Filter(e) => {
                            self.expr(*e);
                        }
                    }
                }
                self.expr(c.body);
                self.opaque(id)
            }
            Expr::Maybe(m) => {
                let racewit_syntax::ir::MaybeExpr {
                    body: items,
                    else_clauses,
                } = &**m;
                let mut last = Val::Any;
                for &e in items {
                    last = self.expr(e);
                }
                if let Some(cs) = else_clauses {
                    let v = self.clauses(cs, &[Val::Any]);
                    last.join_in(&v, limit);
                } else {
                    last = self.opaque(id);
                }
                last
            }
            // A binary, a unary operator: evaluated for what they hold
            // (calls), their value not known.
            _ => {
                crate::walk::for_each_child(body, id, &mut |c| {
                    self.expr(c);
                });
                self.opaque(id)
            }
        }
    }

    /// The heads of a match specification written in place
    /// (`[{Head, Guards, Body}, ...]`), each head a whole term, when every
    /// head is made of literals and variables.
    fn spec_heads(&self, e: ExprId) -> Option<Val> {
        let limit = self.limit();
        let mut heads = Vec::new();
        let mut cur = e;
        loop {
            match self.body.expr(cur) {
                Expr::Nil => break,
                Expr::Cons(h, t) => {
                    let Expr::Tuple(parts) = self.body.expr(*h) else {
                        return None;
                    };
                    let head = parts.first().copied().filter(|_| parts.len() == 3)?;
                    heads.push(self.pure_term(head)?);
                    cur = *t;
                }
                _ => return None,
            }
        }
        Some(Val::from_terms(heads, limit))
    }

    /// The term of an expression of literals, variables (one value each),
    /// tuples and lists, evaluated without effects.
    fn pure_term(&self, e: ExprId) -> Option<Term> {
        match self.body.expr(e) {
            Expr::Lit(l) => match crate::units::literal_term(l) {
                Term::Any => None,
                t => Some(t),
            },
            Expr::Nil => Some(Term::List(Vec::new())),
            Expr::Var(v) => match self.env[v.index()].as_ref()?.terms().as_slice() {
                [t] => Some(t.clone()),
                _ => Some(Term::Any),
            },
            Expr::Tuple(es) => es
                .iter()
                .map(|&x| self.pure_term(x))
                .collect::<Option<Vec<Term>>>()
                .map(Term::Tuple),
            Expr::Cons(h, t) => {
                let h = self.pure_term(*h)?;
                match self.pure_term(*t)? {
                    Term::List(mut items) => {
                        items.insert(0, h);
                        Some(Term::List(items))
                    }
                    _ => Some(Term::Any),
                }
            }
            _ => None,
        }
    }

    /// The value under key `k` of the maps `m` may be: the map's own when
    /// it is known, else what any map holds under that key.
    fn map_get(&mut self, k: &Val, m: &Val) -> Val {
        let limit = self.limit();
        let key = match k.iter().collect::<Vec<_>>().as_slice() {
            [t] if !matches!(t, Term::Any | Term::Opaque(_)) && !k.has_param() => (*t).clone(),
            _ => return Val::Any,
        };
        let mut out = Val::bottom();
        let mut fallback = false;
        for t in m.iter() {
            match t {
                Term::Map(ts) => match Term::map_pairs(ts).find(|(mk, _)| **mk == key) {
                    Some((_, v)) => {
                        out.join_in(&Val::one(v.clone()), limit);
                    }
                    None => fallback = true,
                },
                _ => fallback = true,
            }
        }
        if fallback {
            // Nothing stored under the key yet: nothing known yet if some
            // map of the program is built with it, else a map from outside.
            let stored = self.units.map_keys.contains(&key);
            let fk = FieldKey::Map(key);
            match self.flow.fields.get(&fk) {
                Some(f) => out.join_in(f, limit),
                None if stored => false,
                None => out.join_in(&Val::Any, limit),
            };
            self.facts.field_reads.push(fk);
        }
        out
    }

    /// What `persistent_term:get` of `key` returns: the values the
    /// program's puts store under keys that may be it, when `key` is one
    /// constant some put of the program names literally; else anything (a
    /// value stored by code outside the program).
    fn persistent_get(&mut self, key: &Val) -> Val {
        let limit = self.limit();
        let ctx = &self.flow.ctx[self.fid.index()];
        let key = resolve(key, ctx, limit);
        let t = match key.terms().as_slice() {
            [t] if constant_like(t)
                && !key.has_param()
                && !matches!(t, Term::Any | Term::Wild | Term::Conv(_))
                && self.units.persistent_keys.contains(t) =>
            {
                t.clone()
            }
            _ => return Val::Any,
        };
        self.facts.field_reads.push(FieldKey::PERSISTENT);
        let mut stored: Vec<(&Term, &Val)> = self
            .flow
            .fields
            .iter()
            .filter_map(|(k, v)| match k {
                FieldKey::PersistentTerm(s) if *k != FieldKey::PERSISTENT => Some((s, v)),
                _ => None,
            })
            .filter(|(s, _)| crate::values::unify(s, &t))
            .collect();
        stored.sort_by(|a, b| a.0.cmp(b.0));
        let mut out = Val::bottom();
        for (_, v) in stored {
            out.join_in(v, limit);
        }
        out
    }

    /// Maps `base` with the `pairs` put in; what is put under a constant
    /// key is also recorded for every map (see [`Eval::map_get`]).
    fn map_put(&mut self, pairs: &[(Val, Val)], base: &Val) -> Val {
        let limit = self.limit();
        let ctx = &self.flow.ctx[self.fid.index()];
        let mut keys = Vec::with_capacity(pairs.len());
        for (k, v) in pairs {
            match k.iter().collect::<Vec<_>>().as_slice() {
                [t] if !matches!(t, Term::Any | Term::Opaque(_)) && !k.has_param() => {
                    let rv = resolve(v, ctx, limit);
                    self.facts.fields.push((FieldKey::Map((*t).clone()), rv));
                    keys.push((*t).clone());
                }
                _ => return Val::Any,
            }
        }
        let mut out = Vec::new();
        for b in base.iter() {
            let Term::Map(ts) = b else {
                return Val::Any;
            };
            // One map per choice of values (a product over the pairs).
            let mut maps: Vec<Vec<(Term, Term)>> = vec![
                Term::map_pairs(ts)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ];
            for (key, (_, v)) in keys.iter().zip(pairs) {
                let mut next = Vec::new();
                for m in &maps {
                    for vt in v.iter() {
                        let mut m2 = m.clone();
                        m2.push((key.clone(), vt.clone()));
                        next.push(m2);
                    }
                }
                if next.len() > limit {
                    return Val::Any;
                }
                maps = next;
            }
            out.extend(maps.into_iter().map(Term::map));
        }
        Val::from_terms(out, limit)
    }

    fn call(&mut self, id: ExprId, site: CallSiteId, target: &CallTarget, args: &[ExprId]) -> Val {
        let m = self.units.module(self.module);
        let st = match target {
            CallTarget::Local { name, arity } => SiteTarget::Static(MFA {
                module: m.name.clone(),
                name: name.clone(),
                arity: *arity,
            }),
            CallTarget::Remote { module, function } => {
                let mv = self.expr(*module);
                let fv = self.expr(*function);
                match m
                    .call_sites
                    .get(site.index())
                    .and_then(|s| s.target.clone())
                {
                    Some(mfa) => SiteTarget::Static(mfa),
                    None => match (mv.atoms(), fv.atoms()) {
                        (Some(ms), Some(fs)) if ms.len() == 1 && fs.len() == 1 => {
                            SiteTarget::Static(MFA {
                                module: ms[0].clone(),
                                name: fs[0].clone(),
                                arity: args.len() as u32,
                            })
                        }
                        _ => SiteTarget::Dynamic {
                            module: mv,
                            function: fv,
                        },
                    },
                }
            }
            CallTarget::Apply { fun } => SiteTarget::Apply(self.expr(*fun)),
        };
        let argv = self.exprs(args);
        let ir_static = m
            .call_sites
            .get(site.index())
            .is_some_and(|s| s.target.is_some());
        let callee = match &st {
            // The site's own static target (a local call's too): looked up already.
            SiteTarget::Static(_) if ir_static => {
                self.units.site_fns[self.module as usize][site.index()]
            }
            SiteTarget::Static(mfa) => self.units.lookup_mfa(mfa),
            _ => None,
        };
        let mut argv = argv;
        if let SiteTarget::Static(mfa) = &st
            && let Some(op) = crate::catalog::ops_of(mfa)
                .into_iter()
                .find(|o| matches!(o.shape, crate::catalog::Shape::Spec { .. }))
            && let crate::catalog::Shape::Spec { spec, .. } = op.shape
            && let Some(&e) = args.get(spec)
            && let Some(heads) = self.spec_heads(e)
        {
            argv.push(heads);
        }
        let sv = SiteVals {
            unit: self.unit,
            target: st,
            callee,
            args: argv,
        };
        let result = self.call_result(site, &sv);
        self.facts.sites.push((site, sv));
        self.facts.invokes.push(self.invoked.take());
        if result.is_any() {
            self.opaque(id)
        } else {
            result
        }
    }

    fn call_result(&mut self, site: CallSiteId, sv: &SiteVals) -> Val {
        let limit = self.limit();
        let origin = Origin {
            module: self.module,
            site,
        };
        if let SiteTarget::Static(mfa) = &sv.target {
            let a = &sv.args;
            match (mfa.module.as_str(), mfa.name.as_str(), mfa.arity) {
                ("erlang", "self", 0) => return Val::one(Term::SelfPid),
                // Fresh on every call: no other process can hold the same one
                // unless it is handed over.
                ("erlang", "make_ref", 0) | ("erlang", "unique_integer", 0 | 1) => {
                    return Val::one(Term::Unique);
                }
                ("erlang", "element", 2) => {
                    let mut out = Val::bottom();
                    for t in a[0].iter() {
                        match t {
                            Term::Int(i) if *i >= 1 => {
                                out.join_in(&element(&a[1], *i as usize - 1, limit), limit)
                            }
                            _ => return Val::Any,
                        };
                    }
                    return out;
                }
                ("ets", "new", 2) => {
                    self.facts
                        .creations
                        .push((site, false, a[0].clone(), a[1].clone()));
                    let mut out = Val::bottom();
                    for t in a[1].iter() {
                        match crate::ets::named_option(t) {
                            Some(true) => out.join_in(&a[0], limit),
                            Some(false) => out.join_in(&Val::one(Term::Table(origin)), limit),
                            None => {
                                out.join_in(&a[0], limit);
                                out.join_in(&Val::one(Term::Table(origin)), limit)
                            }
                        };
                    }
                    return out;
                }
                (
                    "erlang",
                    "pid_to_list"
                    | "list_to_atom"
                    | "list_to_existing_atom"
                    | "atom_to_list"
                    | "list_to_binary"
                    | "binary_to_atom"
                    | "binary_to_list"
                    | "term_to_binary"
                    | "iolist_to_binary"
                    | "binary_to_existing_atom"
                    | "integer_to_list"
                    | "integer_to_binary"
                    | "atom_to_binary"
                    | "ref_to_list"
                    | "phash2",
                    _,
                )
                | ("lists", "concat" | "flatten" | "append", _)
                | ("io_lib", "format", 2) => {
                    if matches!(mfa.name.as_str(), "list_to_atom" | "list_to_existing_atom")
                        && let Some(strs) = a[0]
                            .iter()
                            .map(|t| match t {
                                Term::Str(s) => Some(Term::Atom(s.clone())),
                                _ => None,
                            })
                            .collect::<Option<Vec<Term>>>()
                        && !strs.is_empty()
                    {
                        return Val::from_terms(strs, limit);
                    }
                    let refs: Vec<&Val> = a.iter().collect();
                    return Val::derive_all(&refs, limit);
                }
                // The objects of the key: `[]` or `[Obj]`, `Obj` holding the
                // key at the table's key position (1, the default, when the
                // table is not known).
                ("ets", "lookup" | "take", 2) => {
                    self.facts.keypos_read = true;
                    let ctx = &self.flow.ctx[self.fid.index()];
                    let table = resolve(&a[0], ctx, limit);
                    let mut keypos = self.flow.tables.keypos(&table);
                    if keypos.is_empty() {
                        keypos.insert(1);
                    }
                    if a[1].is_any() {
                        return Val::Any;
                    }
                    let mut objs = vec![Term::List(Vec::new())];
                    for p in keypos {
                        for k in a[1].iter() {
                            objs.push(Term::List(vec![Term::Keyed(p, Box::new(k.clone()))]));
                        }
                    }
                    return Val::from_terms(objs, limit);
                }
                ("persistent_term", "put", 2) => {
                    let ctx = &self.flow.ctx[self.fid.index()];
                    let key = resolve(&a[0], ctx, limit);
                    let value = resolve(&a[1], ctx, limit);
                    for t in key.iter() {
                        self.facts
                            .fields
                            .push((FieldKey::PersistentTerm(t.clone()), value.clone()));
                    }
                    self.facts
                        .fields
                        .push((FieldKey::PERSISTENT, Val::atom("ok")));
                    return Val::Any;
                }
                ("persistent_term", "get", 1 | 2) => {
                    let v = self.persistent_get(&a[0]);
                    return match a.get(1) {
                        Some(default) => v.join(default, limit),
                        None => v,
                    };
                }
                ("maps", "get", 2) => return self.map_get(&a[0], &a[1]),
                ("maps", "get", 3) => {
                    let v = self.map_get(&a[0], &a[1]);
                    return v.join(&a[2], limit);
                }
                ("maps", "find", 2) => {
                    let v = self.map_get(&a[0], &a[1]);
                    let ok = product(&[Val::atom("ok"), v], limit, Term::Tuple);
                    return ok.join(&Val::atom("error"), limit);
                }
                ("maps", "put" | "update", 3) => {
                    return self.map_put(&[(a[0].clone(), a[1].clone())], &a[2]);
                }
                ("mnesia", "create_table", 2) => {
                    self.facts
                        .creations
                        .push((site, true, a[0].clone(), a[1].clone()));
                    return Val::Any;
                }
                _ => {}
            }
            if let Some(start) = crate::spawn::start_of(mfa) {
                return if start.returns_pid {
                    Val::one(Term::Spawned(origin))
                } else if mfa.name == "spawn_monitor" {
                    Val::one(Term::Tuple(vec![Term::Spawned(origin), Term::Any]))
                } else {
                    Val::Any
                };
            }
        }
        if !may_run_program_code(sv) {
            return Val::Any;
        }
        let ctx = &self.flow.ctx[self.fid.index()];
        let invs = invocations(
            self.units,
            &self.flow.servers,
            self.flow.limit,
            self.module,
            sv,
            ctx,
        );
        let out = self.invoked_result(&invs);
        self.invoked = Some(invs);
        out
    }

    /// What the calls a site may make return (`Any` when one is unknown).
    fn invoked_result(&mut self, invs: &[Invoke]) -> Val {
        let limit = self.limit();
        let mut out = Val::bottom();
        let mut any_target = false;
        for inv in invs {
            if inv.kind != crate::invoke::EdgeKind::Call {
                continue;
            }
            match inv.callee {
                // What a BIF or NIF returns is not in its stub's source.
                Callee::Fn(g) if self.units.native_stub(g) => return Val::Any,
                Callee::Fn(g) => {
                    any_target = true;
                    let gu = self.units.fn_unit[g.index()];
                    self.facts.ret_reads.push(gu);
                    let r = &self.flow.ret[gu.index()];
                    let args = inv.args.as_deref().unwrap_or(&[]);
                    out.join_in(&resolve(r, args, limit), limit);
                }
                Callee::Closure(u) => {
                    any_target = true;
                    self.facts.ret_reads.push(u);
                    let r = &self.flow.ret[u.index()];
                    let owner = self.units.unit(u).owner;
                    if owner == self.fid {
                        out.join_in(r, limit);
                    } else {
                        out.join_in(&resolve(r, &self.flow.ctx[owner.index()], limit), limit);
                    }
                }
                _ => return Val::Any,
            }
        }
        if !any_target {
            return Val::Any;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    /// A BIF's or NIF's stub returns (an unknown value), so a record
    /// holding its result and a table reaches the loop that receives it;
    /// with OTP's `erlang.erl` analysed, `erlang:nif_error/1` is itself a
    /// stub that calls itself.
    #[test]
    fn a_native_stub_returns_an_unknown_value() {
        let erlang = "-module(erlang).\n-export([nif_error/1, monitor/2]).\n\
            nif_error(_) -> erlang:nif_error(undefined).\n\
            monitor(_, _) -> erlang:nif_error(undefined).\n";
        let src = "-module(t).\n-export([start/0]).\n\
            start() -> loop({st, erlang:monitor(process, self()), ets:new(t, [])}).\n\
            loop({st, _, T} = S) -> ets:lookup(T, k), loop(S).\n";
        let program = racewit_syntax::load::load_sources(
            &[("erlang.erl", erlang), ("t.erl", src)],
            &Default::default(),
        );
        let units = Units::new(&program);
        let flow = compute(&units, 16);
        let g = units.lookup("t", "loop", 1).unwrap();
        let state = &flow.ctx[g.index()][0];
        assert!(!state.is_bottom(), "{state:?}");
        assert!(matches!(
            element(state, 2, 16).iter().next(),
            Some(Term::Table(_))
        ));
        let r = units.lookup("erlang", "monitor", 2).unwrap();
        assert!(units.native_stub(r));
        assert!(!units.native_stub(g));
    }

    /// Two modules' own records of one name and size, with other fields,
    /// are two records: a table kept in one (`#st{table}`) is read back
    /// from an unknown record of that module as that table only, not
    /// mixed with what the other module stores in its `#st{levels}`.
    #[test]
    fn records_of_one_name_with_other_fields_are_other_records() {
        let q = "-module(q).\n-export([new/0, out/1]).\n-record(st, {table}).\n\
            new() -> #st{table = ets:new(q, [])}.\n\
            out(#st{table = T}) -> ets:first(T).\n";
        let c = "-module(c).\n-export([init/1]).\n-record(st, {levels = []}).\n\
            init(L) -> #st{levels = L}.\n";
        let program =
            racewit_syntax::load::load_sources(&[("q.erl", q), ("c.erl", c)], &Default::default());
        let units = Units::new(&program);
        let flow = compute(&units, 16);
        let key = |f: &str| FieldKey::Record(Name::from("st"), 2, 1, Some(Name::from(f)));
        let table = flow.field(&key("table"));
        assert!(only_tables(&table), "{table:?}");
        let levels = flow.field(&key("levels"));
        assert!(
            !levels.iter().any(|t| matches!(t, Term::Table(_))),
            "{levels:?}"
        );
    }

    /// `persistent_term:get` of a key some put of the program names
    /// returns what the puts store there (and the default); of a key no
    /// put names, anything (code outside the program may have stored it).
    #[test]
    fn a_persistent_term_read_returns_what_the_program_stores() {
        let src = "-module(t).\n-export([set/0, ready/0, get/0, other/0]).\n\
            set() -> persistent_term:put(conf, {conf, 1}).\n\
            ready() -> persistent_term:put(conf, ready).\n\
            get() -> persistent_term:get(conf, none).\n\
            other() -> persistent_term:get(elsewhere).\n";
        let program = load_source("t.erl", src);
        let units = Units::new(&program);
        let flow = compute(&units, 16);
        let ret = |f: &str| {
            let g = units.lookup("t", f, 0).unwrap();
            flow.ret[units.fn_unit[g.index()].index()].clone()
        };
        let got = ret("get");
        let mut terms = got.terms();
        terms.sort();
        let mut want = vec![
            Term::Atom("none".into()),
            Term::Atom("ready".into()),
            Term::Tuple(vec![Term::Atom("conf".into()), Term::Int(1)]),
        ];
        want.sort();
        assert_eq!(terms, want);
        // Unknown (with the call's identity), never nothing.
        let other = ret("other");
        assert!(!other.is_bottom());
        assert!(
            other
                .iter()
                .all(|t| matches!(t, Term::Any | Term::Opaque(_))),
            "{other:?}"
        );
    }

    /// The chunk size changes only what runs at the same time, not the result.
    #[test]
    fn chunked_merge_gives_the_same_values() {
        let src = "-module(t).\n-export([go/1]).\n\
            go(X) -> a(X), b({X, k}), c(X).\n\
            a(Y) -> b({Y, Y}), ets:insert(tab, {Y, 1}).\n\
            b({P, Q}) -> c(P), ets:lookup(tab, Q).\n\
            c(Z) -> d(Z, tab), Z.\n\
            d(T, N) -> ets:insert(N, {T, 0}), a(T).\n";
        let program = load_source("t.erl", src);
        let units = Units::new(&program);
        let one = compute_in_chunks(&units, 16, 1);
        let all = compute_in_chunks(&units, 16, MERGE_CHUNK);
        assert!(one.rounds > 1);
        assert_eq!(one.rounds, all.rounds);
        assert_eq!(one.ctx, all.ctx);
        assert_eq!(one.internal_ctx, all.internal_ctx);
        assert_eq!(one.ret, all.ret);
        let sites = |f: &Flow| -> Vec<Option<Vec<Val>>> {
            f.sites
                .iter()
                .flatten()
                .map(|s| s.as_ref().map(|sv| sv.args.clone()))
                .collect()
        };
        assert_eq!(sites(&one), sites(&all));
    }
}
