//! What a call site may run: its target and argument values ([`SiteVals`],
//! computed by the value analysis) resolved into the units it calls, how
//! (a call that returns, a new process, a fun handed to library code, a
//! server request), and with which arguments ([`invocations`]).
//!
//! Targets come from the static target of a site, from abstract values of
//! dynamic module/function names and of funs (`F(X)` with `F` known), from
//! `apply/2,3`, from process starts ([`crate::spawn`]) and from
//! `gen_server:call/cast` (the server's callback). A fun call runs only the
//! funs whose values can flow to it; a part of its value that names no fun
//! (a fun from outside the program, out of a message or a table) is
//! [`Callee::UnknownApply`].

use racewit_syntax::ir::{MFA, Name};
use rustc_hash::FxHashMap;

use crate::spawn::{StartShape, start_of};
use crate::units::{FnId, Units};
use crate::values::{Term, UnitId, Val, resolve};

/// Locally registered server names and the callback modules started under them.
pub type Servers = FxHashMap<Name, Vec<Name>>;

/// What a call site calls, with abstract (symbolic) values.
#[derive(Clone, Debug)]
pub enum SiteTarget {
    Static(MFA),
    Dynamic { module: Val, function: Val },
    Apply(Val),
}

/// A call site's target and argument values, in terms of its function's parameters.
#[derive(Clone, Debug)]
pub struct SiteVals {
    pub unit: UnitId,
    pub target: SiteTarget,
    /// The program's function a static target names, looked up once.
    pub callee: Option<FnId>,
    /// The argument values; for an ETS call taking a match specification
    /// written in place, one more: the set of its clause heads, each kept
    /// whole (inside the specification they would be too deep to keep).
    pub args: Vec<Val>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EdgeKind {
    /// An ordinary call: the callee returns to the site.
    Call,
    /// The callee runs in a new process started at the site.
    Spawn,
    /// A fun handed to code outside the program, which may call it before returning.
    Hof,
    /// A request handled by a server process (`gen_server:call` runs
    /// `handle_call/3` and waits for it).
    Serve,
    /// A message handled by a server process without waiting (`gen_server:cast`).
    Cast,
    /// A function creates a fun (used to find entries, not for flow).
    Creates,
}

impl EdgeKind {
    /// The caller waits for the callee and goes on after it.
    pub fn returns(self) -> bool {
        matches!(self, EdgeKind::Call | EdgeKind::Hof | EdgeKind::Serve)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    Fn(FnId),
    Closure(UnitId),
    /// A fun no value names, applied to this many arguments: nothing is
    /// followed (the path ends there, and is counted).
    UnknownApply(u32),
}

/// One thing a call site may run.
#[derive(Clone, Debug)]
pub struct Invoke {
    pub callee: Callee,
    /// Argument values, in terms of the calling function's parameters
    /// (`None`: unknown).
    pub args: Option<Vec<Val>>,
    pub kind: EdgeKind,
}

fn single_list(v: &Val) -> Option<Vec<Val>> {
    let terms = v.terms();
    match terms.as_slice() {
        [Term::List(items)] => Some(items.iter().map(|t| Val::one(t.clone())).collect()),
        [Term::Str(s)] => Some(s.chars().map(|c| Val::one(Term::Int(c as i64))).collect()),
        _ => None,
    }
}

/// The units a call site may run, given the context of its function.
pub fn invocations(
    units: &Units<'_>,
    servers: &Servers,
    limit: usize,
    module: u32,
    sv: &SiteVals,
    ctx: &[Val],
) -> Vec<Invoke> {
    let mut out = Vec::new();
    let r = |v: &Val| resolve(v, ctx, limit);
    match &sv.target {
        SiteTarget::Static(mfa) => {
            let a = &sv.args;
            if mfa.module == "erlang" && mfa.name == "apply" && mfa.arity == 3 {
                dynamic(
                    units,
                    &r(&a[0]),
                    &r(&a[1]),
                    single_list(&a[2]),
                    EdgeKind::Call,
                    &mut out,
                );
                return out;
            }
            if mfa.module == "erlang" && mfa.name == "apply" && mfa.arity == 2 {
                let args = single_list(&a[1]);
                let n = args.as_ref().map(|x| x.len() as u32);
                apply(units, module, &r(&a[0]), n, args, EdgeKind::Call, &mut out);
                return out;
            }
            if mfa.module == "gen_server"
                && matches!(
                    (mfa.name.as_str(), mfa.arity),
                    ("call", 2 | 3) | ("cast", 2)
                )
            {
                let (cb, n, kind) = if mfa.name == "call" {
                    ("handle_call", 3, EdgeKind::Serve)
                } else {
                    ("handle_cast", 2, EdgeKind::Cast)
                };
                let caller_mod = &units.module(module).name;
                let mut mods: Vec<Name> = Vec::new();
                match r(&a[0]).atoms() {
                    Some(names) => {
                        for n in names {
                            match servers.get(&n) {
                                Some(ms) => mods.extend(ms.iter().cloned()),
                                None => mods.push(n),
                            }
                        }
                    }
                    None => mods.push(caller_mod.clone()),
                }
                mods.sort();
                mods.dedup();
                // The request; the caller's pid (`From`) is unknown; the
                // state is the server's own, fed from its callbacks.
                let mut args = vec![a[1].clone()];
                if n == 3 {
                    args.push(Val::Any);
                }
                args.push(Val::bottom());
                for m in mods {
                    if let Some(g) = units.lookup(&m, cb, n) {
                        out.push(Invoke {
                            callee: Callee::Fn(g),
                            args: Some(args.clone()),
                            kind,
                        });
                    }
                }
                return out;
            }
            if let Some(start) = start_of(mfa) {
                match start.shape {
                    StartShape::Fun { fun } => {
                        if let Some(f) = a.get(fun) {
                            apply(
                                units,
                                module,
                                &r(f),
                                Some(0),
                                Some(Vec::new()),
                                EdgeKind::Spawn,
                                &mut out,
                            );
                        }
                    }
                    StartShape::Mfa { m, f, a: ai } => {
                        if let (Some(mv), Some(fv), Some(av)) = (a.get(m), a.get(f), a.get(ai)) {
                            dynamic(
                                units,
                                &r(mv),
                                &r(fv),
                                single_list(av),
                                EdgeKind::Spawn,
                                &mut out,
                            );
                        }
                    }
                    StartShape::Init { m, arg } => {
                        if let (Some(mv), Some(av)) = (a.get(m), a.get(arg)) {
                            dynamic(
                                units,
                                &r(mv),
                                &Val::atom("init"),
                                Some(vec![av.clone()]),
                                EdgeKind::Spawn,
                                &mut out,
                            );
                        }
                    }
                }
                return out;
            }
            match sv.callee {
                Some(g) => out.push(Invoke {
                    callee: Callee::Fn(g),
                    args: Some(a.clone()),
                    kind: EdgeKind::Call,
                }),
                None => {
                    // Code outside the program: it may call the funs it is given.
                    for v in a {
                        let v = r(v);
                        let mut funs = Vec::new();
                        collect_funs(&v, &mut funs);
                        for t in funs {
                            let fv = Val::one(t);
                            apply(units, module, &fv, None, None, EdgeKind::Hof, &mut out);
                        }
                    }
                }
            }
        }
        SiteTarget::Dynamic {
            module: mv,
            function: fv,
        } => {
            let (mv, fv) = (r(mv), r(fv));
            // `erlang:Spawn(Fun)` with `Spawn` one of a few known atoms:
            // each name the context gives is a call of its own, so a
            // process start or an apply reached this way is followed as
            // the static call would be.
            if let (Some(ms), Some(fs)) = (mv.atoms(), fv.atoms()) {
                let arity = sv.args.len() as u32;
                for m in &ms {
                    for f in &fs {
                        let mfa = MFA {
                            module: m.clone(),
                            name: f.clone(),
                            arity,
                        };
                        let callee = units.lookup_mfa(&mfa);
                        let one = SiteVals {
                            unit: sv.unit,
                            target: SiteTarget::Static(mfa),
                            callee,
                            args: sv.args.clone(),
                        };
                        out.extend(invocations(units, servers, limit, module, &one, ctx));
                    }
                }
                return out;
            }
            dynamic(
                units,
                &mv,
                &fv,
                Some(sv.args.clone()),
                EdgeKind::Call,
                &mut out,
            );
        }
        SiteTarget::Apply(fv) => {
            let n = sv.args.len() as u32;
            apply(
                units,
                module,
                &r(fv),
                Some(n),
                Some(sv.args.clone()),
                EdgeKind::Call,
                &mut out,
            );
        }
    }
    out
}

fn collect_funs(v: &Val, out: &mut Vec<Term>) {
    fn walk(t: &Term, out: &mut Vec<Term>) {
        match t {
            Term::Fun(_) | Term::FunRef(_) => out.push(t.clone()),
            Term::List(ts) | Term::Tuple(ts) | Term::Map(ts) => {
                ts.iter().for_each(|x| walk(x, out))
            }
            _ => {}
        }
    }
    for t in v.iter() {
        walk(t, out);
    }
}

/// Apply a fun value to `arity` arguments (`None`: any arity).
fn apply(
    units: &Units<'_>,
    _module: u32,
    fv: &Val,
    arity: Option<u32>,
    args: Option<Vec<Val>>,
    kind: EdgeKind,
    out: &mut Vec<Invoke>,
) {
    for t in fv.iter() {
        match t {
            Term::Fun(u) if arity.is_none_or(|n| n == units.unit(*u).arity) => {
                out.push(Invoke {
                    callee: Callee::Closure(*u),
                    args: args.clone(),
                    kind,
                });
            }
            Term::FunRef(mfa) => {
                if arity.is_none_or(|n| n == mfa.arity)
                    && let Some(g) = units.lookup_mfa(mfa)
                {
                    out.push(Invoke {
                        callee: Callee::Fn(g),
                        args: args.clone(),
                        kind,
                    });
                }
            }
            Term::Any | Term::Param(_) | Term::Opaque(_) => {
                if let Some(n) = arity {
                    out.push(Invoke {
                        callee: Callee::UnknownApply(n),
                        args: args.clone(),
                        kind,
                    });
                }
            }
            _ => {}
        }
    }
}

/// `M:F(Args)` with abstract `M` and `F`.
fn dynamic(
    units: &Units<'_>,
    mv: &Val,
    fv: &Val,
    args: Option<Vec<Val>>,
    kind: EdgeKind,
    out: &mut Vec<Invoke>,
) {
    let arity = args.as_ref().map(|a| a.len() as u32);
    let mut push = |g: FnId| {
        out.push(Invoke {
            callee: Callee::Fn(g),
            args: args.clone(),
            kind,
        })
    };
    match (mv.atoms(), fv.atoms()) {
        (Some(ms), Some(fs)) => {
            for m in &ms {
                for f in &fs {
                    match arity {
                        Some(n) => {
                            if let Some(g) = units.lookup(m, f, n) {
                                push(g);
                            }
                        }
                        None => {
                            for g in fns_named(units, Some(m), Some(f), None) {
                                push(g);
                            }
                        }
                    }
                }
            }
        }
        (None, Some(fs)) => {
            for f in &fs {
                for g in fns_named(units, None, Some(f), arity) {
                    push(g);
                }
            }
        }
        (Some(ms), None) => {
            for m in &ms {
                for g in fns_named(units, Some(m), None, arity) {
                    push(g);
                }
            }
        }
        (None, None) => {}
    }
}

/// Most functions an `M:F(...)` with unknown `M` may go to.
pub(crate) const MAX_BY_NAME: usize = 32;

/// Exported functions matching what is known of module, name and arity.
fn fns_named(
    units: &Units<'_>,
    m: Option<&Name>,
    f: Option<&Name>,
    arity: Option<u32>,
) -> Vec<FnId> {
    if m.is_none()
        && let (Some(f), Some(a)) = (f, arity)
    {
        let all = units.exported_named(f, a);
        // `Mod:init(Args)` in generic code could be any of hundreds of
        // callbacks: too vague to follow (the process starts and
        // `gen_server:call` that name their module are followed instead).
        return if all.len() > MAX_BY_NAME {
            Vec::new()
        } else {
            all.to_vec()
        };
    }
    let Some(m) = m else {
        // Neither module nor arity known: too vague to follow.
        return Vec::new();
    };
    let mut out = Vec::new();
    let Some(&mi) = units.module_index.get(m) else {
        return out;
    };
    let module = units.module(mi);
    for (name, &idx) in &module.function_index {
        let func = &module.functions[idx];
        if !func.exported
            || f.is_some_and(|f| *f != name.name)
            || arity.is_some_and(|a| a != name.arity)
        {
            continue;
        }
        if let Some(g) = units.lookup(&module.name, &name.name, name.arity) {
            out.push(g);
        }
    }
    out
}
