//! Named tables a harness creates before its workers run, the way the
//! program creates them: a module whose functions take the table's name
//! (`inc(Tab, Key)`) usually exports the function that makes it
//! (`init(Name) -> ets:new(Name, [named_table, public])`). Calling the API
//! on a table nobody made only shows `badarg` at the first lookup.

use racewit_syntax::ir::{Body, CallTarget, Expr, ExprId, Function, Literal, Pat, Program};

/// How deep `used_as_table` follows an argument through local calls.
const DEPTH: u32 = 3;

/// The `ets:` function an expression calls, with its arguments.
pub(crate) fn ets_call(body: &Body, e: ExprId) -> Option<(&str, &[ExprId])> {
    match body.expr(e) {
        Expr::Call { target, args, .. }
            if let CallTarget::Remote { module, function } = &**target =>
        {
            match (body.expr(*module), body.expr(*function)) {
                (Expr::Lit(Literal::Atom(m)), Expr::Lit(Literal::Atom(f))) if m == "ets" => {
                    Some((f.as_str(), &args[..]))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether `module:name/arity` uses its `index`-th argument (a variable in
/// some clause) as the table of an `ets:` call, itself or through the
/// local functions it passes the variable to (up to `DEPTH` calls deep).
pub(crate) fn used_as_table(
    program: &Program,
    module: &str,
    name: &str,
    arity: u32,
    index: usize,
) -> bool {
    used_within(program, module, name, arity, index, DEPTH)
}

fn used_within(
    program: &Program,
    module: &str,
    name: &str,
    arity: u32,
    index: usize,
    depth: u32,
) -> bool {
    let Some(func) = program.function(module, name, arity) else {
        return false;
    };
    let body = &func.body;
    func.clauses.iter().any(|&c| {
        let Some(&pat) = body.clause(c).pats.get(index) else {
            return false;
        };
        let Pat::Var(v) = body.pat(pat) else {
            return false;
        };
        let is_v = |e: ExprId| matches!(body.expr(e), Expr::Var(w) if w == v);
        (0..body.exprs.len()).any(|i| {
            let id = ExprId(i as u32);
            if let Some((f, args)) = ets_call(body, id) {
                return f != "new" && args.first().is_some_and(|&t| is_v(t));
            }
            match body.expr(id) {
                Expr::Call { target, args, .. }
                    if let CallTarget::Local {
                        name: callee,
                        arity: a,
                    } = &**target
                        && depth > 0 =>
                {
                    args.iter().enumerate().any(|(k, &arg)| {
                        is_v(arg)
                            && !(callee.as_str() == name && *a == arity && k == index)
                            && used_within(program, module, callee.as_str(), *a, k, depth - 1)
                    })
                }
                _ => false,
            }
        })
    })
}

/// An exported function of `module` that makes a named table whose name is
/// one of its arguments (`ets:new(Name, [..., named_table, ...])`, itself
/// or through a local function it passes the name to): the one with the
/// fewest arguments, then the first. Returns the function and the name
/// argument's position (from 0).
pub(crate) fn named_maker<'p>(program: &'p Program, module: &str) -> Option<(&'p Function, usize)> {
    let m = program.modules.get(module)?;
    m.functions
        .iter()
        .filter(|f| f.exported && f.arity > 0)
        .filter_map(|f| Some((f, name_param(program, module, f, DEPTH)?)))
        .min_by_key(|(f, _)| f.arity)
}

/// The argument of `f` (a variable of its first clause) that it passes as
/// the name of a named table it creates.
fn name_param(program: &Program, module: &str, f: &Function, depth: u32) -> Option<usize> {
    let body = &f.body;
    let &clause = f.clauses.first()?;
    let pats = &body.clause(clause).pats;
    let param = |e: ExprId| {
        let Expr::Var(v) = body.expr(e) else {
            return None;
        };
        pats.iter()
            .position(|&p| matches!(body.pat(p), Pat::Var(w) if w == v))
    };
    (0..body.exprs.len()).find_map(|i| {
        let id = ExprId(i as u32);
        if let Some((name, args)) = ets_call(body, id) {
            return (name == "new" && args.len() == 2 && names_table(body, args[1]))
                .then(|| param(args[0]))
                .flatten();
        }
        match body.expr(id) {
            Expr::Call { target, args, .. }
                if let CallTarget::Local { name, arity } = &**target
                    && depth > 0
                    && !(name == &f.name && *arity == f.arity) =>
            {
                let callee = program.function(module, name.as_str(), *arity)?;
                let k = name_param(program, module, callee, depth - 1)?;
                param(*args.get(k)?)
            }
            _ => None,
        }
    })
}

/// Whether a literal option list holds `named_table`.
fn names_table(body: &Body, mut list: ExprId) -> bool {
    loop {
        match body.expr(list) {
            Expr::Cons(head, tail) => {
                if matches!(body.expr(*head), Expr::Lit(Literal::Atom(a)) if a == "named_table") {
                    return true;
                }
                list = *tail;
            }
            _ => return false,
        }
    }
}

/// The table names the program's own code (not its tests) passes to
/// `maker` (`ets:new/2`, `mnesia:create_table/2`) as its first argument:
/// written as an atom there (with `None`), or passed down to it through
/// the parameters of wrapper functions (`new(Tab) -> new(Tab, [])`,
/// `new(Tab, Opts) -> ets:new(Tab, ...)`), up to [`DEPTH`] wrappers up
/// (with the function that names it, `m:f/a`). Tests make tables as a user
/// would: a table only a test makes is the user's to make.
fn created_names(
    program: &Program,
    callers: &crate::callers::Callers,
    maker: (&str, &str, u32),
) -> Vec<(String, Option<String>)> {
    let mut names = Vec::new();
    let mut seen: std::collections::BTreeSet<(String, String, u32, usize)> = Default::default();
    let mut todo = vec![(
        maker.0.to_string(),
        maker.1.to_string(),
        maker.2,
        0usize,
        0u32,
    )];
    while let Some((m, f, a, index, depth)) = todo.pop() {
        if !seen.insert((m.clone(), f.clone(), a, index)) {
            continue;
        }
        for ((cm, cf, ca), e) in callers.sites(&m, &f, a) {
            let Some(func) = program.function(cm, cf, *ca) else {
                continue;
            };
            if crate::harness::is_test_function(program, cm, cf, *ca) {
                continue;
            }
            let Expr::Call { args, .. } = func.body.expr(e) else {
                continue;
            };
            let Some(&arg) = args.get(index) else {
                continue;
            };
            if let Some(name) = crate::erl_text::const_text(&func.body, arg) {
                let through = (depth > 0).then(|| format!("{cm}:{cf}/{ca}"));
                names.push((name, through));
            } else if let Expr::Var(v) = func.body.expr(arg)
                && depth < DEPTH
                && let Some(param) = crate::prepare::param_of(func, *v)
            {
                todo.push((cm.clone(), cf.clone(), *ca, param, depth + 1));
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The tables a suspect's resource names, written as an atom at its write,
/// that no code of the program creates (no `mnesia:create_table/2`, for an ETS suspect no `ets:new/2`,
/// given that name written as an atom, directly or through wrappers: see
/// [`created_names`]): tables its user creates,
/// as a library's documentation asks, before calling it. Each with the
/// call that creates it as a user would: for mnesia
/// `mnesia:create_table(T, [{attributes, [key, val]}])`, one attribute per
/// element after the first of the record the suspect's write puts
/// (`[key, val]` when it puts none written as a tuple); for ETS a named
/// public table, `ets:new(T, [named_table, public])`.
pub(crate) fn user_tables(
    program: &Program,
    callers: &crate::callers::Callers,
    suspect: &racewit_static::Suspect,
) -> Vec<UserTable> {
    let (module, maker) = match suspect.category {
        racewit_static::Category::Mnesia => ("mnesia", "create_table"),
        racewit_static::Category::Ets => ("ets", "new"),
        _ => return Vec::new(),
    };
    let Some(tables) = &suspect.resource.table else {
        return Vec::new();
    };
    let created = created_names(program, callers, (module, maker, 2));
    // Made with the name written at the maker's call: the harness's setup
    // finds that code (the static pass names it). Made through wrappers
    // only: the harness makes the table itself, and says which code of the
    // program makes it.
    let direct: Vec<&String> = created
        .iter()
        .filter(|(_, through)| through.is_none())
        .map(|(n, _)| n)
        .collect();
    let wrapped = |t: &String| {
        created
            .iter()
            .find(|(n, through)| n == t && through.is_some())
            .and_then(|(_, through)| through.clone())
    };
    // The size of the record the write puts, when it writes one out.
    let written = crate::prepare::site_call(program, &suspect.write).and_then(|(f, e)| {
        let (_, args) = crate::prepare::remote_call(&f.body, e)?;
        args.iter().find_map(|&a| match f.body.expr(a) {
            Expr::Tuple(items) if items.len() >= 3 => {
                Some((crate::erl_text::const_text(&f.body, items[0])?, items.len()))
            }
            _ => None,
        })
    });
    // The table as the write names it, written as an atom in the code (a
    // name that only flows in from data, `proplists:get_value(db, Opts)`,
    // is the caller's to make, under whatever name it chooses).
    let named = crate::prepare::site_call(program, &suspect.write).and_then(|(f, e)| {
        let (_, args) = crate::prepare::remote_call(&f.body, e)?;
        let &first = args.first()?;
        match f.body.expr(first) {
            Expr::Tuple(items) => crate::erl_text::const_text(&f.body, *items.first()?),
            _ => crate::erl_text::const_text(&f.body, first),
        }
    });
    tables
        .values
        .iter()
        .filter(|t| named.as_ref() == Some(*t))
        .filter(|t| !direct.contains(t))
        .filter(|t| {
            t.chars()
                .next()
                .is_some_and(|c| c.is_ascii_lowercase() || c == '\'')
        })
        .map(|t| {
            let made_by = wrapped(t);
            if module == "ets" {
                return UserTable {
                    name: t.clone(),
                    create: format!("ets:new({t}, [named_table, public])"),
                    made_by,
                };
            }
            let size = match &written {
                Some((tab, n)) if tab == t => *n,
                _ => 3,
            };
            let attrs: Vec<String> = match size - 1 {
                2 => vec!["key".into(), "val".into()],
                n => std::iter::once("key".to_string())
                    .chain((1..n).map(|k| format!("val{k}")))
                    .collect(),
            };
            let call = format!(
                "mnesia:create_table({t}, [{{attributes, [{}]}}])",
                attrs.join(", ")
            );
            UserTable {
                name: t.clone(),
                create: call,
                made_by,
            }
        })
        .collect()
}

/// A table a harness makes itself before its workers run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UserTable {
    pub name: String,
    /// The call that makes it, as a user would.
    pub create: String,
    /// The function of the program that makes it through a wrapper, when
    /// one does (code the harness does not run); `None` when no code of the
    /// program makes it.
    pub made_by: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        racewit_syntax::load_source("stats.erl", src)
    }

    const STATS: &str = "-module(stats).\n\
        -export([init/1, init/2, inc/2, get/1, other/1]).\n\
        init(Name) -> init(Name, []).\n\
        init(Name, Counters) -> ets:new(Name, [public, named_table]), Counters.\n\
        inc(Tab, Key) -> do_inc(Tab, Key).\n\
        do_inc(T, K) -> catch ets:update_counter(T, K, 1).\n\
        get(Tab) -> Tab.\n\
        other(X) -> ets:new(x, [X]).\n";

    #[test]
    fn a_table_passed_on_to_a_local_function_is_used_as_a_table() {
        let p = program(STATS);
        assert!(used_as_table(&p, "stats", "inc", 2, 0));
        assert!(!used_as_table(&p, "stats", "inc", 2, 1));
        assert!(!used_as_table(&p, "stats", "get", 1, 0));
    }

    #[test]
    fn a_table_no_code_creates_is_created_as_its_user_would() {
        // `hits` is never created; `seen` is, by `init/0`.
        let p = program(
            "-module(hits).\n-export([hit/1, init/0, mark/1]).\n\
             hit(P) -> [{hits, P, N}] = mnesia:dirty_read(hits, P), \
                 mnesia:dirty_write({hits, P, N + 1, now}).\n\
             init() -> mnesia:create_table(seen, [{attributes, [k, v]}]).\n\
             mark(P) -> [] = mnesia:dirty_read(seen, P), mnesia:dirty_write({seen, P, 1}).\n",
        );
        let callers = crate::callers::Callers::new(&p);
        let analysis = racewit_static::find_suspects(&p, &racewit_static::StaticOptions::default());
        let made = |function: &str| {
            let s = analysis
                .suspects
                .iter()
                .find(|s| s.write.function == function)
                .expect("the pair is reported");
            user_tables(&p, &callers, s)
        };
        assert_eq!(
            made("hits:hit/1"),
            vec![UserTable {
                name: "hits".to_string(),
                create: "mnesia:create_table(hits, [{attributes, [key, val1, val2]}])".to_string(),
                made_by: None,
            }]
        );
        assert!(made("hits:mark/1").is_empty());
        // ETS: `stock` is never made; `seen` is.
        let q = program(
            "-module(stock).\n-export([take/1, init/0, mark/1]).\n\
             take(K) -> [{K, N}] = ets:lookup(stock, K), ets:insert(stock, {K, N - 1}).\n\
             init() -> ets:new(seen, [named_table, public]).\n\
             mark(K) -> [] = ets:lookup(seen, K), ets:insert(seen, {K, 1}).\n",
        );
        let callers = crate::callers::Callers::new(&q);
        let analysis = racewit_static::find_suspects(&q, &racewit_static::StaticOptions::default());
        let made = |function: &str| {
            let s = analysis
                .suspects
                .iter()
                .find(|s| s.write.function == function)
                .expect("the pair is reported");
            user_tables(&q, &callers, s)
        };
        assert_eq!(
            made("stock:take/1"),
            vec![UserTable {
                name: "stock".to_string(),
                create: "ets:new(stock, [named_table, public])".to_string(),
                made_by: None,
            }]
        );
        assert!(made("stock:mark/1").is_empty());
        // A table named by data (what the caller's options say) is the
        // caller's to make.
        let r = program(
            "-module(db).\n-export([add/2]).\n\
             add(Opts, K) -> T = pick(Opts), [] = ets:lookup(T, K), ets:insert(T, {K, 1}).\n\
             pick([]) -> users; pick(_) -> admins.\n",
        );
        let callers = crate::callers::Callers::new(&r);
        let analysis = racewit_static::find_suspects(&r, &racewit_static::StaticOptions::default());
        let s = analysis
            .suspects
            .iter()
            .find(|s| s.write.function == "db:add/2")
            .expect("the add pair is reported");
        assert!(
            s.resource
                .table
                .as_ref()
                .is_some_and(|t| t.values.contains(&"users".to_string()))
        );
        assert!(user_tables(&r, &callers, s).is_empty());
    }

    #[test]
    fn a_table_made_through_wrappers_is_the_programs() {
        // `allocs` is made by `sup:init/1` through two wrappers of
        // `ets:new/2`; `pantry` only by a test, through the same wrapper.
        let files = [
            (
                "src/tabs.erl",
                "-module(tabs).\n-export([new/1, new/2]).\n\
                 new(Tab) -> new(Tab, []).\n\
                 new(Tab, Opts) -> case ets:info(Tab, name) of \
                     undefined -> ets:new(Tab, [named_table | Opts]); _ -> ok end.\n",
            ),
            (
                "src/sup.erl",
                "-module(sup).\n-export([init/1]).\n\
                 init([]) -> tabs:new(allocs), {ok, {#{}, []}}.\n",
            ),
            (
                "src/res.erl",
                "-module(res).\n-export([alloc/1, take/1, test/0]).\n\
                 alloc(K) -> [] = ets:lookup(allocs, K), ets:insert(allocs, {K, 1}).\n\
                 take(K) -> [{K, N}] = ets:lookup(pantry, K), ets:insert(pantry, {K, N - 1}).\n\
                 test() -> tabs:new(pantry, [public]), take(a).\n",
            ),
        ];
        let p = racewit_syntax::load::load_sources(&files, &racewit_syntax::LoadOptions::default());
        let callers = crate::callers::Callers::new(&p);
        let analysis = racewit_static::find_suspects(&p, &racewit_static::StaticOptions::default());
        let made = |function: &str| {
            let s = analysis
                .suspects
                .iter()
                .find(|s| s.write.function == function)
                .expect("the pair is reported");
            user_tables(&p, &callers, s)
        };
        assert_eq!(
            made("res:alloc/1"),
            vec![UserTable {
                name: "allocs".to_string(),
                create: "ets:new(allocs, [named_table, public])".to_string(),
                made_by: Some("sup:init/1".to_string()),
            }]
        );
        assert_eq!(
            made("res:take/1"),
            vec![UserTable {
                name: "pantry".to_string(),
                create: "ets:new(pantry, [named_table, public])".to_string(),
                made_by: None,
            }]
        );
    }

    #[test]
    fn a_table_made_only_under_a_test_macro_is_the_users() {
        // `seed/0` makes `pantry` through the wrapper; it is no test by its
        // name, but when it sits in a taken `-ifdef(TEST)` with no other
        // branch it is the module's test code, and a harness makes the
        // table as a user would.
        let made_by = |guarded: bool| {
            let (open, close) = if guarded {
                ("-ifdef(TEST).\n", "-endif.\n")
            } else {
                ("", "")
            };
            let res = format!(
                "-module(res).\n-export([take/1, seed/0]).\n\
                 take(K) -> [{{K, N}}] = ets:lookup(pantry, K), ets:insert(pantry, {{K, N - 1}}).\n\
                 {open}seed() -> tabs:new(pantry, [public]).\n{close}"
            );
            let files = [
                (
                    "src/tabs.erl",
                    "-module(tabs).\n-export([new/2]).\n\
                     new(Tab, Opts) -> ets:new(Tab, [named_table | Opts]).\n"
                        .to_string(),
                ),
                ("src/res.erl", res),
            ];
            let files: Vec<(&str, &str)> = files.iter().map(|(p, s)| (*p, s.as_str())).collect();
            let opts = racewit_syntax::LoadOptions {
                defines: vec![("TEST".to_string(), None)],
                ..Default::default()
            };
            let p = racewit_syntax::load::load_sources(&files, &opts);
            assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
            let callers = crate::callers::Callers::new(&p);
            let analysis =
                racewit_static::find_suspects(&p, &racewit_static::StaticOptions::default());
            let s = analysis
                .suspects
                .iter()
                .find(|s| s.write.function == "res:take/1")
                .expect("the pair is reported");
            let tables = user_tables(&p, &callers, s);
            assert_eq!(tables.len(), 1, "{tables:?}");
            tables[0].made_by.clone()
        };
        assert_eq!(made_by(false), Some("res:seed/0".to_string()));
        assert_eq!(made_by(true), None);
    }

    #[test]
    fn the_maker_with_fewest_arguments_names_the_table() {
        let p = program(STATS);
        let (f, i) = named_maker(&p, "stats").expect("init/1 makes the table");
        assert_eq!((f.name.as_str(), f.arity, i), ("init", 1, 0));
        // No exported function makes a named table from an argument.
        let q = program("-module(q).\n-export([new/0]).\nnew() -> ets:new(q, [named_table]).\n");
        assert!(named_maker(&q, "q").is_none());
    }
}
