//! Calls that make the thing a racing call works on, as the program makes
//! it first. A harness that calls `metrics:tag(counter, G)` from two
//! processes reaches nothing if no metric `counter` exists: the program
//! itself calls `metrics:new_counter(counter)` before it tags, in the same
//! clause or elsewhere with the same value. Such a call, made once before
//! the workers start with the value each worker passes, is a *preparer*.
//!
//! Candidates come from the program's text, never from names: a call made
//! earlier in a clause that then calls the entry with a shared variable or
//! constant, then any call of another exported function of the entry's
//! module with a constant the program also passes to the entry at some
//! position, and last the module's functions of the same arity that take
//! the same table argument in the same place. Which of them (if any) lets a run reach the race is left to the
//! harness's trial runs: a `delete(counter)` found the same way does not.

use racewit_syntax::ir::{Body, CallTarget, Expr, ExprId, Literal, Pat, Program, Qualifier, VarId};

use crate::callers::Callers;
use crate::erl_text::const_text;

/// The most preparers tried for one entry from each kind of evidence (an
/// earlier call, a shared constant, the same table argument).
const MAX_PREPARERS: usize = 3;

/// A call to make before the workers start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Preparer {
    pub module: String,
    pub function: String,
    /// Each argument of the call.
    pub args: Vec<PrepArg>,
    /// What makes it a preparer.
    pub why: Why,
}

/// What ties a preparer to the entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Why {
    /// The program makes the call before it calls the entry, or with a value
    /// it also passes to the entry.
    CalledFirst,
    /// A function of the entry's module taking the same table in the same
    /// place (no call site to go by).
    SameTable,
    /// It starts a server the entry calls by name (see `crate::servers`).
    StartsServer,
    /// Another function of the writing module writes the item the race is
    /// on, under a key built the same way from the same value (the entry's
    /// `put({?MODULE, Module}, ...)` beside a
    /// `[put({?MODULE, M}, ...) || M <- Modules]`).
    SameKey,
    /// Another exported function of the writing module sets the whole
    /// item the race is on from its argument, with nothing read first
    /// (`set_opts(Opts) -> persistent_term:put(?MODULE, Opts)` beside the
    /// entry's read-modify-write of the same key): what the program runs
    /// before anything reads the item. Called with a value the program
    /// passes it.
    Initialises,
    /// Another exported function of the writing module reads and writes
    /// the same item, named by the same constants (see [`item_rivals`]).
    SameItem,
    /// An exported function that reaches another read-modify-write of the
    /// item the race is on, which the static pass found as a suspect of its
    /// own (see `crate::item_writers`).
    WritesItem,
    /// The same function's clause for another operation, named by the atom
    /// at argument `at` (from 0): `table_func(new, Extra)` beside the
    /// entry's `table_func(delete, Extra)` (see [`other_clauses`]).
    OtherClause { at: usize },
    /// Another exported function of the writing module writes the item the
    /// race is on whole, as the suspect's write does, and is called with
    /// the value at argument `at` (from 0) taken from a comparison on the
    /// way to the write (see [`seeded_setters`]): a write guarded by
    /// `NewVal when NewVal < 4294967296 -> ok` is only reached from an item
    /// near that constant.
    Seeds { at: usize },
    /// Another exported function of the module of an API the entry is
    /// reached through, which the program calls with a constant that the
    /// way from the API to the race accepts (`gproc:reg({c,l,c1}, 3)`
    /// before `gproc:set_value/2`, whose way needs a `{c,l,_}` key): the
    /// item made as the program makes it (see `crate::through_api`).
    MakesItem,
    /// Another exported function of the entry's module, of the same
    /// arity, that takes its arguments as the entry does and reaches
    /// another read-modify-write of the item (see
    /// [`crate::item_writers::takes_args_alike`]): called first with
    /// values the program passes it, it makes what the entry then takes
    /// (the trace a `stop_trace` of the same arguments stops).
    Twin,
}

/// Where a preparer's argument comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PrepArg {
    /// The value the worker passes as the entry's argument (from 0).
    Entry(usize),
    /// A list holding only the value the worker passes as the entry's
    /// argument (from 0): the rival takes a list of the things it writes.
    EntryInList(usize),
    /// A constant the program passes there.
    Given(String),
    /// Nothing known: the harness picks a value as it does for its own
    /// arguments.
    Open,
}

impl Preparer {
    /// `m:f/a`, for the verdict's context.
    pub fn mfa(&self) -> String {
        format!("{}:{}/{}", self.module, self.function, self.args.len())
    }

    /// How a verdict's context names it.
    pub fn describe(&self) -> String {
        match self.why {
            Why::CalledFirst => format!(
                "after {}, which the program calls first with the same value",
                self.mfa()
            ),
            Why::SameTable => format!(
                "after {} with the same arguments, which writes the same table",
                self.mfa()
            ),
            Why::StartsServer => format!(
                "after {}, which starts a server the entry calls by name",
                self.mfa()
            ),
            Why::SameKey => format!("after {}, which writes the same key", self.mfa()),
            Why::MakesItem => format!(
                "after {}, which the program calls with a value the way to the race accepts",
                self.mfa()
            ),
            Why::SameItem => format!("{}, which reads and writes the same item", self.mfa()),
            Why::Twin => format!(
                "after {}:{}({}), which the program calls with these values and which takes \
                 its arguments as the entry does",
                crate::erl_text::atom(&self.module),
                crate::erl_text::atom(&self.function),
                self.given().join(", ")
            ),
            Why::WritesItem => format!(
                "{}, which reaches another read-modify-write of the same item",
                self.mfa()
            ),
            Why::Initialises => format!(
                "after {}, which sets the item the race is on from its argument",
                self.mfa()
            ),
            Why::Seeds { at } => {
                let value = match self.args.get(at) {
                    Some(PrepArg::Given(text)) => text.as_str(),
                    _ => "",
                };
                format!(
                    "after {} with argument {} = {value}, which sets the item the race is on \
                     so that a comparison on the way to the write goes the write's way",
                    self.mfa(),
                    at + 1
                )
            }
            Why::OtherClause { at } => {
                let op = match self.args.get(at) {
                    Some(PrepArg::Given(text)) => text.as_str(),
                    _ => "",
                };
                format!(
                    "after {} with argument {} = {op} once for each worker (the same \
                     function's other operation, as each user of the thing made it first)",
                    self.mfa(),
                    at + 1
                )
            }
        }
    }

    /// The arguments given as constants, as Erlang text.
    fn given(&self) -> Vec<&str> {
        self.args
            .iter()
            .filter_map(|a| match a {
                PrepArg::Given(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// Whether some argument is the entry's own (the call works on what
    /// the entry works on).
    pub(crate) fn shares(&self) -> bool {
        self.args
            .iter()
            .any(|a| matches!(a, PrepArg::Entry(_) | PrepArg::EntryInList(_)))
    }
}

/// What an argument of a call is, for matching it with another call's.
#[derive(Clone, PartialEq, Eq)]
enum Key {
    Var(VarId),
    Const(String),
}

fn key(body: &Body, e: ExprId) -> Option<Key> {
    match body.expr(e) {
        Expr::Var(v) => Some(Key::Var(*v)),
        _ => const_text(body, e).map(Key::Const),
    }
}

/// The expression a sequence item evaluates for its effect: `X = call(...)`,
/// `catch call(...)` and `ok = call(...)` all make the call.
fn effect(body: &Body, mut e: ExprId) -> ExprId {
    loop {
        match body.expr(e) {
            Expr::Match(_, inner) | Expr::Catch(inner) => e = *inner,
            _ => return e,
        }
    }
}

/// The preparers for `(m, f, a)` found in the program, most telling first:
/// calls made earlier in a clause that calls the entry, then calls of the
/// entry module's other exported functions with a constant the program
/// passes to the entry, then the module's functions of the same arity that
/// take the same table argument in the same place (at most
/// [`MAX_PREPARERS`] of each kind).
pub(crate) fn preparers(
    program: &Program,
    callers: &Callers,
    entry: (&str, &str, u32),
) -> Vec<Preparer> {
    preparers_where(program, callers, entry, |_| true)
}

/// The preparers for `(m, f, a)` that `keep` accepts, found and counted
/// against the quota as [`preparers`] does.
pub(crate) fn preparers_where(
    program: &Program,
    callers: &Callers,
    (m, f, a): (&str, &str, u32),
    keep: impl Fn(&Preparer) -> bool,
) -> Vec<Preparer> {
    let mut out: Vec<Preparer> = Vec::new();
    // Each kind of evidence has its own quota, so that many calls of one
    // kind do not crowd out the others.
    let mut quota = [0usize; 3];
    let mut push = |p: Preparer, kind: usize, out: &mut Vec<Preparer>| {
        if p.shares() && !out.contains(&p) && quota[kind] < MAX_PREPARERS && keep(&p) {
            quota[kind] += 1;
            out.push(p);
        }
    };
    // The constants the program passes at each position of the entry.
    let mut passed: Vec<Vec<String>> = vec![Vec::new(); a as usize];
    let mut sites: Vec<(&str, &Body, ExprId)> = Vec::new();
    for ((cm, cf, ca), e) in callers.sites(m, f, a) {
        let Some(func) = program.function(cm, cf, *ca) else {
            continue;
        };
        let body = &func.body;
        if let Expr::Call { args, .. } = body.expr(e) {
            for (j, &arg) in args.iter().enumerate().take(a as usize) {
                if let Some(text) = const_text(body, arg)
                    && !passed[j].contains(&text)
                {
                    passed[j].push(text);
                }
            }
        }
        sites.push((cm.as_str(), body, e));
    }
    // Earlier in the same sequence.
    for &(here, body, call) in &sites {
        let Expr::Call {
            args: entry_args, ..
        } = body.expr(call)
        else {
            continue;
        };
        let entry_keys: Vec<Option<Key>> = entry_args.iter().map(|&x| key(body, x)).collect();
        for items in blocks(body) {
            let Some(at) = items.iter().position(|&i| effect(body, i) == call) else {
                continue;
            };
            for &item in items[..at].iter().rev() {
                let Some(p) = preparer_at(program, here, body, effect(body, item), |k| {
                    entry_keys.iter().position(|e| e.as_ref() == Some(k))
                }) else {
                    continue;
                };
                if (p.module.as_str(), p.function.as_str(), p.args.len() as u32) != (m, f, a) {
                    push(p, 0, &mut out);
                }
            }
        }
    }
    // Anywhere, calling the entry module's other exported functions with a
    // value the program also passes to the entry.
    if let Some(module) = program.module(m) {
        for func in module.functions.iter().filter(|x| x.exported) {
            let (pf, pa) = (func.name.as_str(), func.arity);
            if (pf, pa) == (f, a) {
                continue;
            }
            for ((cm, cf, ca), e) in callers.sites(m, pf, pa) {
                let Some(caller) = program.function(cm, cf, *ca) else {
                    continue;
                };
                let body = &caller.body;
                let Some(p) = preparer_at(program, cm, body, e, |k| match k {
                    Key::Const(text) => passed.iter().position(|vs| vs.contains(text)),
                    Key::Var(_) => None,
                }) else {
                    continue;
                };
                push(p, 1, &mut out);
            }
        }
        // Last, with no call site to go by: the module's other exported
        // functions of the same arity that take the same table in the same
        // place (`inc(Tab, Counter)` beside `reset(Tab, Counter)`), called
        // with the entry's own arguments.
        let tables: Vec<usize> = (0..a as usize)
            .filter(|&i| crate::table_setup::used_as_table(program, m, f, a, i))
            .collect();
        if !tables.is_empty() {
            for func in module.functions.iter().filter(|x| x.exported) {
                let pf = func.name.as_str();
                if pf == f || func.arity != a {
                    continue;
                }
                if tables
                    .iter()
                    .all(|&i| crate::table_setup::used_as_table(program, m, pf, a, i))
                {
                    push(
                        Preparer {
                            module: m.to_string(),
                            function: pf.to_string(),
                            args: (0..a as usize).map(PrepArg::Entry).collect(),
                            why: Why::SameTable,
                        },
                        2,
                        &mut out,
                    );
                }
            }
        }
    }
    out
}

/// The atoms the clauses of `(m, f, a)` match at argument `index` (its
/// operations, when it dispatches on their names), as Erlang text, in
/// clause order.
pub(crate) fn operations(
    program: &Program,
    (m, f, a): (&str, &str, u32),
    index: usize,
) -> Vec<String> {
    let Some(func) = program.function(m, f, a) else {
        return Vec::new();
    };
    let body = &func.body;
    let mut ops: Vec<String> = Vec::new();
    for &c in &func.clauses {
        if let Some(&pat) = body.clause(c).pats.get(index)
            && let Pat::Lit(Literal::Atom(op)) = body.pat(pat)
        {
            let op = crate::erl_text::atom(op);
            if !ops.contains(&op) {
                ops.push(op);
            }
        }
    }
    ops
}

/// The other operations of a function that dispatches on an atom at
/// argument `index` (`table_func(new, Extra)`, `table_func(delete, Extra)`),
/// for an entry called with the atom `value` there (its Erlang text): each
/// other atom a clause of `(m, f, a)` matches at `index`, as a preparer
/// calling the same function with that atom and the worker's own other
/// arguments. One operation usually makes what another works on (a
/// `delete` of a thing needs its `new` first, as each user of it made it);
/// which of them, if any, lets a run reach the race is left to the
/// harness's trial runs. Only operations that may write the suspect's
/// `category` of shared state are kept.
pub(crate) fn other_clauses(
    program: &Program,
    (m, f, a): (&str, &str, u32),
    index: usize,
    value: &str,
    category: racewit_static::Category,
) -> Vec<Preparer> {
    let Some(func) = program.function(m, f, a) else {
        return Vec::new();
    };
    if !func.exported || !may_write(program, (m, f, a), category) {
        return Vec::new();
    }
    let ops = operations(program, (m, f, a), index);
    if !ops.iter().any(|op| op == value) {
        return Vec::new();
    }
    let mut out: Vec<Preparer> = Vec::new();
    for op in ops {
        let p = Preparer {
            module: m.to_string(),
            function: f.to_string(),
            args: (0..a as usize)
                .map(|k| {
                    if k == index {
                        PrepArg::Given(op.clone())
                    } else {
                        PrepArg::Entry(k)
                    }
                })
                .collect(),
            why: Why::OtherClause { at: index },
        };
        if op != value && p.shares() && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The call at `e` as a preparer, its arguments matched against the
/// entry's by `shared` (the entry's position of an equal argument).
fn preparer_at(
    program: &Program,
    here: &str,
    body: &Body,
    e: ExprId,
    shared: impl Fn(&Key) -> Option<usize>,
) -> Option<Preparer> {
    let Expr::Call { target, args, .. } = body.expr(e) else {
        return None;
    };
    let atom = |id: ExprId| match body.expr(id) {
        Expr::Lit(Literal::Atom(a)) => Some(a.to_string()),
        _ => None,
    };
    let (pm, pf) = match &**target {
        CallTarget::Local { name, .. } => (here.to_string(), name.to_string()),
        CallTarget::Remote { module, function } => (atom(*module)?, atom(*function)?),
        CallTarget::Apply { .. } => return None,
    };
    let exported = program
        .function(&pm, &pf, args.len() as u32)
        .is_some_and(|func| func.exported);
    if !exported {
        return None;
    }
    let args = args
        .iter()
        .map(|&x| match key(body, x) {
            Some(k) => match shared(&k) {
                Some(j) => PrepArg::Entry(j),
                None => match k {
                    Key::Const(text) => PrepArg::Given(text),
                    Key::Var(_) => PrepArg::Open,
                },
            },
            None => PrepArg::Open,
        })
        .collect();
    Some(Preparer {
        module: pm,
        function: pf,
        args,
        why: Why::CalledFirst,
    })
}

/// Every sequence of expressions in `body` (clause bodies, `begin ... end`).
fn blocks(body: &Body) -> impl Iterator<Item = &[ExprId]> {
    body.exprs.iter().filter_map(|e| match e {
        Expr::Block(items) => Some(items.as_slice()),
        _ => None,
    })
}

/// The writes whose key [`key_linked_rivals`] compares: the call and the
/// position of the key among its arguments (for `ets:insert/2`, the first
/// element of the tuple inserted).
fn key_of_write(m: &str, f: &str, arity: usize) -> Option<(usize, bool)> {
    Some(match (m, f, arity) {
        ("persistent_term", "put", 2) => (0, false),
        ("persistent_term", "erase", 1) => (0, false),
        ("ets", "insert", 2) => (1, true),
        ("ets", "delete", 2) => (1, false),
        ("ets", "update_counter", 3 | 4) => (1, false),
        ("ets", "update_element", 3) => (1, false),
        _ => return None,
    })
}

/// A key written out: its constant parts (`None` for the one variable part)
/// and that variable.
type KeyShape = (Vec<Option<String>>, VarId);

/// The key a write call at `e` writes, when it is a variable or a tuple
/// of constants and one variable (`{?MODULE, Module}`), with the table for
/// an ETS write (its constant name; `None` for persistent_term).
fn write_key(body: &Body, e: ExprId) -> Option<(String, Option<String>, KeyShape)> {
    let Expr::Call { target, args, .. } = body.expr(e) else {
        return None;
    };
    let CallTarget::Remote { module, function } = &**target else {
        return None;
    };
    let (m, f) = (atom_at(body, *module)?, atom_at(body, *function)?);
    let (at, in_object) = key_of_write(&m, &f, args.len())?;
    let table = if m == "ets" {
        Some(atom_at(body, args[0])?)
    } else {
        None
    };
    let mut key = *args.get(at)?;
    if in_object {
        let Expr::Tuple(items) = body.expr(key) else {
            return None;
        };
        key = *items.first()?;
    }
    let shape = match body.expr(key) {
        Expr::Var(v) => (vec![None], *v),
        Expr::Tuple(items) => {
            let mut parts = Vec::new();
            let mut var = None;
            for &x in items {
                match body.expr(x) {
                    Expr::Var(v) if var.is_none() => {
                        var = Some(*v);
                        parts.push(None);
                    }
                    _ => parts.push(Some(const_text(body, x)?)),
                }
            }
            (parts, var?)
        }
        _ => return None,
    };
    Some((format!("{m}:{f}/{}", args.len()), table, shape))
}

/// The position of the parameter bound to `var` in some clause of `func`.
pub(crate) fn param_of(func: &racewit_syntax::ir::Function, var: VarId) -> Option<usize> {
    func.clauses.iter().find_map(|&c| {
        func.body
            .clause(c)
            .pats
            .iter()
            .position(|&p| matches!(func.body.pat(p), Pat::Var(v) if *v == var))
    })
}

/// The parameter whose list a generator binding `var` walks
/// (`[... || M <- Modules]`, `Modules` a parameter).
fn generator_param(func: &racewit_syntax::ir::Function, var: VarId) -> Option<usize> {
    let body = &func.body;
    body.exprs.iter().find_map(|e| {
        let Expr::Comprehension(c) = e else {
            return None;
        };
        c.qualifiers.iter().find_map(|q| match q {
            Qualifier::Generator { pat, expr, .. }
                if matches!(body.pat(*pat), Pat::Var(v) if *v == var) =>
            {
                match body.expr(*expr) {
                    Expr::Var(list) => param_of(func, *list),
                    _ => None,
                }
            }
            _ => None,
        })
    })
}

/// Rivals of a suspect whose write puts a key made from a parameter of its
/// function (`allow(Level, Module)` putting `{?MODULE, Module}`): the other
/// exported functions of the same module that write a key built the same
/// way (the same call, the same constants, the same table), from one of
/// their own parameters or from each element of a parameter that is a list.
/// Each is called with the value the entry's worker passes for that key (in
/// a list for the latter), its other arguments left open: a writer of the
/// very item the race is on, as the program has it. The value is followed
/// from the entry to the writing function when the entry is that function
/// or calls it passing its own parameter on.
pub(crate) fn key_linked_rivals(
    program: &Program,
    entry: (&str, &str, u32),
    write: &racewit_static::Access,
) -> Vec<Preparer> {
    let wm = write.module.as_str();
    let Some(module) = program.module(wm) else {
        return Vec::new();
    };
    let Some(site) = module.call_sites.get(write.site.index()) else {
        return Vec::new();
    };
    let Some(wfunc) = module
        .function_index
        .get(&site.function)
        .and_then(|&i| module.functions.get(i))
    else {
        return Vec::new();
    };
    let Some((call, table, (parts, var))) = (0..wfunc.body.exprs.len())
        .map(|i| ExprId(i as u32))
        .find(|&e| wfunc.source_map.expr(e) == site.span)
        .and_then(|e| write_key(&wfunc.body, e))
    else {
        return Vec::new();
    };
    let Some(i) = param_of(wfunc, var) else {
        return Vec::new();
    };
    // The entry's argument that becomes the writing function's parameter.
    let (em, ef, ea) = entry;
    let from_entry = if (em, ef, ea) == (wm, wfunc.name.as_str(), wfunc.arity) {
        Some(i)
    } else {
        program.function(em, ef, ea).and_then(|efunc| {
            let body = &efunc.body;
            body.exprs.iter().find_map(|e| {
                let Expr::Call { target, args, .. } = e else {
                    return None;
                };
                let calls_w = match &**target {
                    CallTarget::Local { name, .. } => em == wm && *name == wfunc.name,
                    CallTarget::Remote { module, function } => {
                        atom_at(body, *module).as_deref() == Some(wm)
                            && atom_at(body, *function).as_deref() == Some(wfunc.name.as_str())
                    }
                    CallTarget::Apply { .. } => false,
                };
                if !calls_w || args.len() != wfunc.arity as usize {
                    return None;
                }
                match body.expr(args[i]) {
                    Expr::Var(v) => param_of(efunc, *v),
                    _ => None,
                }
            })
        })
    };
    let Some(k) = from_entry else {
        return Vec::new();
    };
    let mut out: Vec<Preparer> = Vec::new();
    for func in module.functions.iter().filter(|g| g.exported) {
        if func.name == wfunc.name && func.arity == wfunc.arity {
            continue;
        }
        let body = &func.body;
        let found = (0..body.exprs.len()).find_map(|x| {
            let (c, t, (p, u)) = write_key(body, ExprId(x as u32))?;
            if c != call || t != table || p != parts {
                return None;
            }
            match param_of(func, u) {
                Some(j) => Some((j, PrepArg::Entry(k))),
                None => generator_param(func, u).map(|j| (j, PrepArg::EntryInList(k))),
            }
        });
        if let Some((j, arg)) = found {
            let mut args = vec![PrepArg::Open; func.arity as usize];
            args[j] = arg;
            let p = Preparer {
                module: wm.to_string(),
                function: func.name.to_string(),
                args,
                why: Why::SameKey,
            };
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The calls that set the item a suspect's write writes before anything
/// reads it (see [`Why::Initialises`]): each other exported function of the
/// writing module that makes the same write call with the same constant
/// arguments where the suspect's write has constants (the same table, the
/// same key) and one of its own parameters where the suspect's write has
/// anything else (the value), and that makes no read of the suspect's read
/// call. Its arguments are left open (the harness takes a value the program
/// passes there).
pub(crate) fn initialisers(
    program: &Program,
    read: &racewit_static::Access,
    write: &racewit_static::Access,
) -> Vec<Preparer> {
    same_item_writers(program, read, write, false)
}

/// The other read-modify-writes of the item a suspect's write writes, when
/// the suspect's write names it by constants (`unset_opt/1` beside
/// `set_opt/2`, both reading the map under one persistent_term key and
/// putting back a changed copy): each other exported function of the
/// writing module that makes the suspect's read call and the same write
/// call with the same constants. Rivals of the entry (see
/// `Harness::mixed`), their arguments left open.
pub(crate) fn item_rivals(
    program: &Program,
    read: &racewit_static::Access,
    write: &racewit_static::Access,
) -> Vec<Preparer> {
    same_item_writers(program, read, write, true)
}

/// A suspect's write as its function makes it, with what the search for
/// other writers of the same item in its module needs.
struct WriteSite<'p> {
    /// The function that makes the write, and the write's call
    /// (`m:f/a`) and arguments.
    func: &'p racewit_syntax::ir::Function,
    call: String,
    args: Vec<ExprId>,
    /// The suspect's read call (`m:f/a`).
    read_call: String,
    module: &'p racewit_syntax::ir::Module,
}

impl<'p> WriteSite<'p> {
    fn of(
        program: &'p Program,
        read: &racewit_static::Access,
        write: &racewit_static::Access,
    ) -> Option<WriteSite<'p>> {
        let (func, site) = site_call(program, write)?;
        let (call, args) = remote_call(&func.body, site)?;
        let read_call = site_call(program, read)
            .and_then(|(f, e)| remote_call(&f.body, e))
            .map(|(c, _)| c)?;
        let module = program.module(write.module.as_str())?;
        Some(WriteSite {
            func,
            call,
            args,
            read_call,
            module,
        })
    }

    /// The module's other exported functions that make the suspect's read
    /// call (`reads`) or that do not, each with the remote calls it makes.
    fn others(
        &self,
        reads: bool,
    ) -> impl Iterator<Item = (&'p racewit_syntax::ir::Function, Vec<(String, Vec<ExprId>)>)> + '_
    {
        self.module
            .functions
            .iter()
            .filter(|g| g.exported && !(g.name == self.func.name && g.arity == self.func.arity))
            .filter_map(move |func| {
                let body = &func.body;
                let calls: Vec<(String, Vec<ExprId>)> = (0..body.exprs.len())
                    .filter_map(|x| remote_call(body, ExprId(x as u32)))
                    .collect();
                (calls.iter().any(|(c, _)| *c == self.read_call) == reads).then_some((func, calls))
            })
    }
}

/// The exported functions of the writing module, other than the write's
/// own, that make the suspect's write call with the same constants where
/// it has constants; with `reads`, those that also make the suspect's read
/// call (any value written), else those that make no such read and write a
/// parameter of their own where the suspect's write has no constant.
fn same_item_writers(
    program: &Program,
    read: &racewit_static::Access,
    write: &racewit_static::Access,
    reads: bool,
) -> Vec<Preparer> {
    let Some(site) = WriteSite::of(program, read, write) else {
        return Vec::new();
    };
    let consts: Vec<Option<String>> = site
        .args
        .iter()
        .map(|&x| const_text(&site.func.body, x))
        .collect();
    if consts.iter().all(Option::is_none) || consts.iter().all(Option::is_some) {
        return Vec::new();
    }
    let mut out: Vec<Preparer> = Vec::new();
    for (func, calls) in site.others(reads) {
        let body = &func.body;
        let writes = calls.iter().any(|(c, args)| {
            *c == site.call
                && args.iter().zip(&consts).all(|(&x, k)| match k {
                    Some(text) => const_text(body, x).as_ref() == Some(text),
                    None if reads => true,
                    None => matches!(body.expr(x), Expr::Var(v) if param_of(func, *v).is_some()),
                })
        });
        if writes {
            out.push(Preparer {
                module: write.module.to_string(),
                function: func.name.to_string(),
                args: vec![PrepArg::Open; func.arity as usize],
                why: if reads {
                    Why::SameItem
                } else {
                    Why::Initialises
                },
            });
        }
    }
    out
}

/// The most values a setter is seeded with (see [`seeded_setters`]).
const MAX_SEEDS: usize = 3;

/// What one element of a written term is, for matching a setter's write
/// with the suspect's.
enum Slot {
    /// A constant (the table's name).
    Const(String),
    /// A parameter of the writing function (from 0): the key the caller
    /// names.
    Param(usize),
    /// Anything else: the value the function computed.
    Value,
}

/// A write call's arguments, a tuple argument taken element by element
/// (`mnesia:dirty_write({Tab, Key, Val})` has three).
fn slots(body: &Body, args: &[ExprId]) -> Vec<ExprId> {
    args.iter()
        .flat_map(|&a| match body.expr(a) {
            Expr::Tuple(items) => items.clone(),
            _ => vec![a],
        })
        .collect()
}

/// The integers `func` compares a variable with (`NewVal < 4294967296`,
/// in a guard or an expression), in the order of the text.
fn compared_constants(func: &racewit_syntax::ir::Function) -> Vec<i64> {
    use racewit_syntax::ir::BinOp;
    let body = &func.body;
    let int = |e: ExprId| match body.expr(e) {
        Expr::Lit(Literal::Int(n)) => Some(*n),
        _ => None,
    };
    let var = |e: ExprId| matches!(body.expr(e), Expr::Var(_));
    let mut out: Vec<i64> = Vec::new();
    for e in &body.exprs {
        let Expr::Op(op, a, b) = e else {
            continue;
        };
        if !matches!(
            op,
            BinOp::Less
                | BinOp::LessEq
                | BinOp::Greater
                | BinOp::GreaterEq
                | BinOp::Eq
                | BinOp::ExactEq
                | BinOp::NotEq
                | BinOp::ExactNotEq
        ) {
            continue;
        }
        let c = match (int(*a), int(*b)) {
            (Some(c), None) if var(*b) => c,
            (None, Some(c)) if var(*a) => c,
            _ => continue,
        };
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The setters of the item a suspect's write writes whole, each called
/// with values that make a comparison on the way to the write go its way.
/// Where the write puts a value the writing function computed and compares
/// with integer constants (`case mnesia:dirty_update_counter(...) of N when
/// N < 4294967296 -> ok; N -> mnesia:dirty_write({T, Name, N rem
/// 4294967296}) end`), a run from an empty item never reaches it: the item
/// is first set near each constant `C` (to `C`, `C - 1`, `C + 1`) by
/// another exported function of the writing module that makes the same
/// write call with the same constants, the writing function's parameters
/// (the key) in the same places, and one parameter of its own where the
/// write has the computed value, and that makes no read of the suspect's
/// read call (`variable_set(Name, Val) -> mnesia:dirty_write({T, Name,
/// Val})`). The key is the entry's argument (`PrepArg::Entry`) when the
/// entry is the writing function; the value `PrepArg::Given`; the rest
/// open.
pub(crate) fn seeded_setters(
    program: &Program,
    read: &racewit_static::Access,
    write: &racewit_static::Access,
) -> Vec<Preparer> {
    let Some(site) = WriteSite::of(program, read, write) else {
        return Vec::new();
    };
    let wfunc = site.func;
    let wbody = &wfunc.body;
    let want: Vec<Slot> = slots(wbody, &site.args)
        .into_iter()
        .map(|x| match const_text(wbody, x) {
            Some(text) => Slot::Const(text),
            None => match wbody.expr(x) {
                Expr::Var(v) => param_of(wfunc, *v).map_or(Slot::Value, Slot::Param),
                _ => Slot::Value,
            },
        })
        .collect();
    if !want.iter().any(|s| matches!(s, Slot::Const(_)))
        || !want.iter().any(|s| matches!(s, Slot::Value))
    {
        return Vec::new();
    }
    let mut seeds: Vec<i64> = Vec::new();
    for c in compared_constants(wfunc) {
        for s in [Some(c), c.checked_sub(1), c.checked_add(1)]
            .into_iter()
            .flatten()
        {
            if !seeds.contains(&s) {
                seeds.push(s);
            }
        }
    }
    seeds.truncate(MAX_SEEDS);
    if seeds.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<Preparer> = Vec::new();
    for (func, calls) in site.others(false) {
        let body = &func.body;
        // The setter's arguments, and where the value goes, from its first
        // write that matches the suspect's.
        let matched = calls
            .iter()
            .filter(|(c, _)| *c == site.call)
            .find_map(|(_, args)| {
                let got = slots(body, args);
                if got.len() != want.len() {
                    return None;
                }
                let mut given = vec![PrepArg::Open; func.arity as usize];
                let mut value_at = None;
                for (&x, w) in got.iter().zip(&want) {
                    let param = || match body.expr(x) {
                        Expr::Var(v) => param_of(func, *v),
                        _ => None,
                    };
                    match w {
                        Slot::Const(text) if const_text(body, x).as_ref() == Some(text) => {}
                        Slot::Const(_) => return None,
                        Slot::Param(j) => given[param()?] = PrepArg::Entry(*j),
                        Slot::Value => {
                            value_at.get_or_insert(param()?);
                        }
                    }
                }
                Some((given, value_at?))
            });
        let Some((given, at)) = matched else {
            continue;
        };
        for s in &seeds {
            let mut args = given.clone();
            args[at] = PrepArg::Given(s.to_string());
            out.push(Preparer {
                module: write.module.to_string(),
                function: func.name.to_string(),
                args,
                why: Why::Seeds { at },
            });
        }
    }
    out
}

/// The function holding an access and the expression of its call.
pub(crate) fn site_call<'p>(
    program: &'p Program,
    access: &racewit_static::Access,
) -> Option<(&'p racewit_syntax::ir::Function, ExprId)> {
    let module = program.module(access.module.as_str())?;
    let site = module.call_sites.get(access.site.index())?;
    let func = module
        .function_index
        .get(&site.function)
        .and_then(|&i| module.functions.get(i))?;
    let e = (0..func.body.exprs.len())
        .map(|i| ExprId(i as u32))
        .find(|&e| {
            func.source_map.expr(e) == site.span && matches!(func.body.expr(e), Expr::Call { .. })
        })?;
    Some((func, e))
}

/// A call naming its module and function: `m:f/a` and its arguments.
pub(crate) fn remote_call(body: &Body, e: ExprId) -> Option<(String, Vec<ExprId>)> {
    let Expr::Call { target, args, .. } = body.expr(e) else {
        return None;
    };
    let CallTarget::Remote { module, function } = &**target else {
        return None;
    };
    let (m, f) = (atom_at(body, *module)?, atom_at(body, *function)?);
    Some((format!("{m}:{f}/{}", args.len()), args.to_vec()))
}

/// Whether a call of `(m, f, a)` may write shared state of `category`: some
/// call it makes, directly or through the program's functions it calls by
/// name (a few levels deep), is an operation of that category that writes
/// (`tag_metric` reaching `ets:update_element/3`; `get_metrics_value` reaches
/// no write).
pub(crate) fn may_write(
    program: &Program,
    (m, f, a): (&str, &str, u32),
    category: racewit_static::Category,
) -> bool {
    walk_reached(program, (m, f, a), |_, e, target| {
        let (Some((tm, tf)), Expr::Call { args, .. }) = (target, e) else {
            return false;
        };
        let callee = racewit_syntax::ir::MFA {
            module: racewit_syntax::ir::Name::new(tm),
            name: racewit_syntax::ir::Name::new(tf),
            arity: args.len() as u32,
        };
        racewit_static::catalog::classify(&callee)
            .1
            .contains(category)
    })
}

/// The most functions [`walk_reached`] looks into.
const MAX_REACHED: usize = 200;

/// Walks the expressions of `(m, f, a)` and of the program's functions it
/// calls by name, breadth first, at most [`MAX_REACHED`] functions. `visit`
/// gets each expression with its function's body and, for a call naming its
/// target, the target's module and function; returning true stops the walk,
/// and the walk then returns true.
pub(crate) fn walk_reached(
    program: &Program,
    (m, f, a): (&str, &str, u32),
    mut visit: impl FnMut(&Body, &Expr, Option<(&str, &str)>) -> bool,
) -> bool {
    let mut seen: Vec<(String, String, u32)> = vec![(m.to_string(), f.to_string(), a)];
    let mut next = 0;
    while next < seen.len() && next < MAX_REACHED {
        let (cm, cf, ca) = seen[next].clone();
        next += 1;
        let Some(func) = program.function(&cm, &cf, ca) else {
            continue;
        };
        let body = &func.body;
        for e in &body.exprs {
            let target = match e {
                Expr::Call { target, .. } => match &**target {
                    CallTarget::Local { name, .. } => Some((cm.clone(), name.to_string())),
                    CallTarget::Remote { module, function } => {
                        match (atom_at(body, *module), atom_at(body, *function)) {
                            (Some(tm), Some(tf)) => Some((tm, tf)),
                            _ => None,
                        }
                    }
                    CallTarget::Apply { .. } => None,
                },
                _ => None,
            };
            if visit(
                body,
                e,
                target.as_ref().map(|(tm, tf)| (tm.as_str(), tf.as_str())),
            ) {
                return true;
            }
            if let (Some((tm, tf)), Expr::Call { args, .. }) = (target, e) {
                let key = (tm, tf, args.len() as u32);
                if program.function(&key.0, &key.1, key.2).is_some() && !seen.contains(&key) {
                    seen.push(key);
                }
            }
        }
    }
    false
}

/// The atom an expression is, when it is an atom literal.
pub(crate) fn atom_at(body: &Body, id: ExprId) -> Option<String> {
    match body.expr(id) {
        Expr::Lit(Literal::Atom(a)) => Some(a.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::program;

    const METRICS: &str = "-module(metrics).\n\
        -export([new/1, tag/2, delete/1, value/1]).\n\
        new(Name) -> ets:insert(metrics, {Name, []}).\n\
        tag(Name, T) -> [{_, Ts}] = ets:lookup(metrics, Name), ets:insert(metrics, {Name, [T | Ts]}).\n\
        delete(Name) -> ets:delete(metrics, Name).\n\
        value(Name) -> ets:lookup(metrics, Name).\n";

    #[test]
    fn a_call_made_earlier_in_the_clause_with_the_same_variable_prepares() {
        let p = program(&[
            ("metrics", METRICS),
            (
                "user",
                "-module(user).\n-export([go/1]).\n\
                 go(N) -> ok = metrics:new(N), metrics:value(x), metrics:tag(N, blue).\n",
            ),
        ]);
        let callers = Callers::new(&p);
        let found = preparers(&p, &callers, ("metrics", "tag", 2));
        assert_eq!(
            found.first(),
            Some(&Preparer {
                module: "metrics".into(),
                function: "new".into(),
                args: vec![PrepArg::Entry(0)],
                why: Why::CalledFirst,
            })
        );
        // `metrics:value(x)` shares nothing with the tag call.
        assert!(!found.iter().any(|f| f.function == "value"));
    }

    #[test]
    fn a_call_elsewhere_with_a_constant_the_entry_gets_prepares() {
        // The test creates in one function and tags in another (an eunit
        // fixture runs them in order); the shared constant links them.
        let p = program(&[
            ("metrics", METRICS),
            (
                "metrics_tests",
                "-module(metrics_tests).\n-export([create/0, tagging/0, cleanup/0]).\n\
                 create() -> metrics:new(counter).\n\
                 tagging() -> metrics:tag(counter, \"g\").\n\
                 cleanup() -> metrics:delete(counter), metrics:delete(other).\n",
            ),
        ]);
        let callers = Callers::new(&p);
        let found = preparers(&p, &callers, ("metrics", "tag", 2));
        let names: Vec<(&str, &[PrepArg])> = found
            .iter()
            .map(|f| (f.function.as_str(), f.args.as_slice()))
            .collect();
        // Both candidates are kept in the module's order; the harness's
        // trial runs tell which one lets the tag reach its write.
        assert_eq!(
            names,
            vec![
                ("new", &[PrepArg::Entry(0)][..]),
                ("delete", &[PrepArg::Entry(0)][..]),
            ]
        );
    }

    #[test]
    fn a_setter_of_the_whole_item_initialises_it() {
        // `load/1` puts the whole map the entry updates; `unset/1` puts a
        // map it read first and `other/1` another key: neither sets it.
        let p = program(&[(
            "opts",
            "-module(opts).\n-export([load/1, set/2, unset/1, other/1]).\n\
             load(Opts) -> persistent_term:put(opts, Opts).\n\
             set(K, V) -> Opts = persistent_term:get(opts), persistent_term:put(opts, Opts#{K => V}).\n\
             unset(K) -> Opts = persistent_term:get(opts), persistent_term:put(opts, maps:remove(K, Opts)).\n\
             other(V) -> persistent_term:put(other, V).\n",
        )]);
        let analysis = racewit_static::find_suspects(&p, &racewit_static::StaticOptions::default());
        let suspect = analysis
            .suspects
            .iter()
            .find(|s| s.write.function == "opts:set/2")
            .expect("the set pair is reported");
        let found = initialisers(&p, &suspect.read, &suspect.write);
        assert_eq!(
            found,
            vec![Preparer {
                module: "opts".into(),
                function: "load".into(),
                args: vec![PrepArg::Open],
                why: Why::Initialises,
            }]
        );
        let rivals: Vec<String> = item_rivals(&p, &suspect.read, &suspect.write)
            .iter()
            .map(Preparer::mfa)
            .collect();
        assert_eq!(rivals, ["opts:unset/1"]);
    }

    #[test]
    fn a_setter_seeds_the_item_near_the_constant_the_write_is_guarded_by() {
        // `bump/2` writes only past 1000; `set/2` writes the whole record
        // from its arguments, `reset/1` a constant, `peek/1` reads first.
        let p = program(&[(
            "gauge",
            "-module(gauge).\n-export([bump/2, set/2, reset/1, peek/2]).\n\
             bump(Name, N) -> case mnesia:dirty_update_counter({gauges, Name}, N) of\n\
                 V when V < 1000 -> V;\n\
                 V -> mnesia:dirty_write({gauges, Name, V rem 1000}) end.\n\
             set(Name, V) -> mnesia:dirty_write({gauges, Name, V}).\n\
             reset(Name) -> mnesia:dirty_write({gauges, Name, 0}).\n\
             peek(Name, V) -> mnesia:dirty_update_counter({gauges, Name}, 0), \
                 mnesia:dirty_write({gauges, Name, V}).\n",
        )]);
        let analysis = racewit_static::find_suspects(&p, &racewit_static::StaticOptions::default());
        let suspect = analysis
            .suspects
            .iter()
            .find(|s| s.write.function == "gauge:bump/2")
            .expect("the bump pair is reported");
        let found = seeded_setters(&p, &suspect.read, &suspect.write);
        let seeded = |v: &str| Preparer {
            module: "gauge".into(),
            function: "set".into(),
            args: vec![PrepArg::Entry(0), PrepArg::Given(v.into())],
            why: Why::Seeds { at: 1 },
        };
        assert_eq!(found, vec![seeded("1000"), seeded("999"), seeded("1001")]);
        // With no comparison on the way, nothing is seeded.
        let q = program(&[(
            "plain",
            "-module(plain).\n-export([inc/1, set/2]).\n\
             inc(Name) -> [{t, Name, V}] = mnesia:dirty_read({t, Name}), \
                 mnesia:dirty_write({t, Name, V + 1}).\n\
             set(Name, V) -> mnesia:dirty_write({t, Name, V}).\n",
        )]);
        let analysis = racewit_static::find_suspects(&q, &racewit_static::StaticOptions::default());
        let suspect = analysis
            .suspects
            .iter()
            .find(|s| s.write.function == "plain:inc/1")
            .expect("the inc pair is reported");
        assert!(seeded_setters(&q, &suspect.read, &suspect.write).is_empty());
    }

    #[test]
    fn a_writer_of_the_same_key_from_a_list_is_a_rival() {
        // `allow/2` caches the default level under `{levels, Module}`;
        // `set_level/2` writes the same key for each module of a list,
        // `reset/1` under another key shape, `other/1` in another table.
        let p = program(&[
            (
                "levels",
                "-module(levels).\n-export([allow/2, set_level/2, reset/1]).\n\
                 allow(Level, Module) ->\n\
                 \x20   case persistent_term:get({levels, Module}, undefined) of\n\
                 \x20       undefined -> persistent_term:put({levels, Module}, 5), Level =< 5;\n\
                 \x20       L -> Level =< L\n\
                 \x20   end.\n\
                 set_level(Modules, L) -> [persistent_term:put({levels, M}, L) || M <- Modules], ok.\n\
                 reset(M) -> persistent_term:put({other, M}, 0).\n",
            ),
            (
                "front",
                "-module(front).\n-export([allow/2]).\n\
                 allow(Level, Module) -> levels:allow(Level, Module).\n",
            ),
        ]);
        let analysis = racewit_static::find_suspects(&p, &racewit_static::StaticOptions::default());
        let suspect = analysis
            .suspects
            .iter()
            .find(|s| s.write.function == "levels:allow/2")
            .expect("the allow pair is reported");
        let want = vec![Preparer {
            module: "levels".into(),
            function: "set_level".into(),
            args: vec![PrepArg::EntryInList(1), PrepArg::Open],
            why: Why::SameKey,
        }];
        assert_eq!(
            key_linked_rivals(&p, ("levels", "allow", 2), &suspect.write),
            want
        );
        // Followed from an entry that passes its own parameter on.
        assert_eq!(
            key_linked_rivals(&p, ("front", "allow", 2), &suspect.write),
            want
        );
    }

    #[test]
    fn nothing_shared_nothing_prepared() {
        let p = program(&[(
            "metrics",
            "-module(metrics).\n-export([new/1, tag/2, go/0]).\n\
             new(Name) -> ets:insert(metrics, {Name, []}).\n\
             tag(Name, T) -> ets:insert(metrics, {Name, T}).\n\
             go() -> new(a), tag(b, c).\n",
        )]);
        let callers = Callers::new(&p);
        assert_eq!(preparers(&p, &callers, ("metrics", "tag", 2)), Vec::new());
    }

    #[test]
    fn with_no_call_site_a_writer_of_the_same_table_argument_prepares() {
        let p = program(&[(
            "stats",
            "-module(stats).\n-export([inc/2, reset/2, get/1, other/2]).\n\
             inc(Tab, C) -> ets:insert(Tab, {C, 1}).\n\
             reset(Tab, C) -> [{C, V}] = ets:lookup(Tab, C), ets:insert(Tab, {C, 0}), V.\n\
             get(Tab) -> ets:tab2list(Tab).\n\
             other(X, Y) -> {X, Y}.\n",
        )]);
        let callers = Callers::new(&p);
        assert_eq!(
            preparers(&p, &callers, ("stats", "reset", 2)),
            vec![Preparer {
                module: "stats".into(),
                function: "inc".into(),
                args: vec![PrepArg::Entry(0), PrepArg::Entry(1)],
                why: Why::SameTable,
            }]
        );
    }

    #[test]
    fn a_dispatcher_s_other_operations_prepare_each_worker() {
        let p = program(&[(
            "shadow",
            "-module(shadow).\n-export([table/2, quiet/2]).\n\
             table(new, N) -> ets:insert(refs, {N, 1});\n\
             table(delete, N) -> ets:delete(refs, N);\n\
             table('the end', _) -> ok.\n\
             quiet(new, _) -> ok;\n\
             quiet(delete, _) -> ok.\n",
        )]);
        let m = ("shadow", "table", 2);
        assert_eq!(operations(&p, m, 0), ["new", "delete", "'the end'"]);
        assert!(operations(&p, m, 1).is_empty());
        let ets = racewit_static::Category::Ets;
        let found = other_clauses(&p, m, 0, "delete", ets);
        let ops: Vec<&PrepArg> = found.iter().map(|x| &x.args[0]).collect();
        assert_eq!(
            ops,
            [
                &PrepArg::Given("new".into()),
                &PrepArg::Given("'the end'".into())
            ]
        );
        assert!(
            found
                .iter()
                .all(|x| x.args[1] == PrepArg::Entry(1) && x.why == Why::OtherClause { at: 0 })
        );
        // An atom no clause takes there, and a function that writes
        // nothing of the category, have none.
        assert!(other_clauses(&p, m, 0, "rename", ets).is_empty());
        assert!(other_clauses(&p, ("shadow", "quiet", 2), 0, "delete", ets).is_empty());
    }
}
