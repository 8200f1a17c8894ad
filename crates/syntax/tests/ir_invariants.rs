//! Structural invariants of the IR that the static pass and the VM rely on,
//! checked on every module lowered from the OTP tree and from `tests/ir/`:
//! ids in range, source maps as long as their arenas, call sites and funs
//! numbered `0..n` with each used exactly once, clause shapes, every used
//! variable bound somewhere in its body, `free_vars` sorted.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use racewit_syntax::ir::{CallTarget, Expr, Module, Pat, Qualifier};
use racewit_syntax::{LoadOptions, load_paths};

/// Problems found in one module, as readable strings.
fn check_module(m: &Module) -> Vec<String> {
    let mut errs = Vec::new();
    let mut sites_seen = vec![0u32; m.call_sites.len()];
    let mut funs_seen = vec![0u32; m.fun_count as usize];
    for (i, f) in m.functions.iter().enumerate() {
        let at = format!("{}:{}", m.name, f.fun_name());
        if m.function_index.get(&f.fun_name()) != Some(&i) {
            errs.push(format!("{at}: not in function_index at {i}"));
        }
        let (b, sm) = (&f.body, &f.source_map);
        if sm.exprs.len() != b.exprs.len()
            || sm.pats.len() != b.pats.len()
            || sm.clauses.len() != b.clauses.len()
            || sm.vars.len() != b.vars.len()
        {
            errs.push(format!("{at}: source map and arenas differ in length"));
        }
        let (ne, np, nv) = (b.exprs.len(), b.pats.len(), b.vars.len());
        let e_ok = |id: usize| id < ne;
        let mut bound: BTreeSet<u32> = BTreeSet::new();
        for p in &b.pats {
            let kids: Vec<usize> = match p {
                Pat::Var(v) => {
                    bound.insert(v.0);
                    vec![]
                }
                Pat::Cons(a, c) | Pat::Alias(a, c) => vec![a.index(), c.index()],
                Pat::Tuple(v) => v.iter().map(|p| p.index()).collect(),
                Pat::Map(kv) => kv.iter().map(|(_, p)| p.index()).collect(),
                Pat::Binary(segs) => segs.iter().map(|s| s.value.index()).collect(),
                _ => vec![],
            };
            if kids.iter().any(|&k| k >= np) {
                errs.push(format!("{at}: pattern child out of range"));
            }
        }
        for c in &f.clauses {
            match b.clauses.get(c.index()) {
                Some(cl) if cl.pats.len() as u32 == f.arity => {}
                _ => errs.push(format!("{at}: function clause with the wrong arity")),
            }
        }
        for e in &b.exprs {
            let mut ids: Vec<usize> = Vec::new();
            let mut clauses: Vec<(usize, Option<usize>)> = Vec::new();
            match e {
                Expr::Var(v) if v.index() >= nv => errs.push(format!("{at}: var out of range")),
                Expr::Cons(a, c) | Expr::Op(_, a, c) => ids.extend([a.index(), c.index()]),
                Expr::Tuple(v) | Expr::Block(v) => ids.extend(v.iter().map(|x| x.index())),
                Expr::Match(_, x) | Expr::MaybeMatch(_, x) | Expr::UnOp(_, x) | Expr::Catch(x) => {
                    ids.push(x.index())
                }
                Expr::Send { site, to, msg } => {
                    ids.extend([to.index(), msg.index()]);
                    match sites_seen.get_mut(site.index()) {
                        Some(n) => *n += 1,
                        None => errs.push(format!("{at}: send site out of range")),
                    }
                }
                Expr::Call { site, target, args } => {
                    ids.extend(args.iter().map(|x| x.index()));
                    match &**target {
                        CallTarget::Remote { module, function } => {
                            ids.extend([module.index(), function.index()])
                        }
                        CallTarget::Apply { fun } => ids.push(fun.index()),
                        CallTarget::Local { name, arity } => {
                            let here = m
                                .call_sites
                                .get(site.index())
                                .and_then(|s| s.target.as_ref());
                            if here.is_none_or(|t| &t.name != name || t.arity != *arity) {
                                errs.push(format!("{at}: local call site target differs"));
                            }
                        }
                    }
                    match sites_seen.get_mut(site.index()) {
                        Some(n) => *n += 1,
                        None => errs.push(format!("{at}: call site out of range")),
                    }
                }
                Expr::Case {
                    arg, clauses: cs, ..
                } => {
                    ids.push(arg.index());
                    clauses.extend(cs.iter().map(|c| (c.index(), Some(1))));
                }
                Expr::Receive { clauses: cs, after } => {
                    clauses.extend(cs.iter().map(|c| (c.index(), Some(1))));
                    if let Some(a) = after {
                        ids.extend([a.timeout.index(), a.body.index()]);
                    }
                }
                Expr::Try(t) => {
                    let racewit_syntax::ir::TryExpr {
                        body,
                        of_clauses,
                        catch_clauses,
                        after,
                    } = &**t;
                    ids.push(body.index());
                    ids.extend(after.iter().map(|a| a.index()));
                    clauses.extend(of_clauses.iter().map(|c| (c.index(), Some(1))));
                    clauses.extend(catch_clauses.iter().map(|c| (c.index(), Some(3))));
                }
                Expr::Fun(fe) => {
                    match funs_seen.get_mut(fe.id.0 as usize) {
                        Some(n) => *n += 1,
                        None => errs.push(format!("{at}: fun id out of range")),
                    }
                    if fe.free_vars.windows(2).any(|w| w[0] >= w[1]) {
                        errs.push(format!("{at}: free_vars not sorted"));
                    }
                    if let Some(n) = fe.name {
                        bound.insert(n.0);
                    }
                    clauses.extend(
                        fe.clauses
                            .iter()
                            .map(|c| (c.index(), Some(fe.arity as usize))),
                    );
                }
                Expr::Comprehension(c) => {
                    ids.push(c.body.index());
                    for q in &c.qualifiers {
                        match q {
                            Qualifier::Generator { expr, .. } => ids.push(expr.index()),
                            Qualifier::Zip(gens) => ids.extend(gens.iter().map(|g| g.expr.index())),
                            Qualifier::Filter(x) => ids.push(x.index()),
                        }
                    }
                }
                Expr::Maybe(m) => {
                    let racewit_syntax::ir::MaybeExpr { body, else_clauses } = &**m;
                    ids.extend(body.iter().map(|x| x.index()));
                    if let Some(cs) = else_clauses {
                        clauses.extend(cs.iter().map(|c| (c.index(), Some(1))));
                    }
                }
                _ => {}
            }
            if ids.iter().any(|&i| !e_ok(i)) {
                errs.push(format!("{at}: expression child out of range"));
            }
            for (c, want) in clauses {
                match b.clauses.get(c) {
                    Some(cl) if want.is_none_or(|n| cl.pats.len() == n) && cl.body.index() < ne => {
                    }
                    _ => errs.push(format!(
                        "{at}: clause {c} malformed (want {want:?} patterns)"
                    )),
                }
            }
        }
        for e in &b.exprs {
            if let Expr::Var(v) = e
                && !bound.contains(&v.0)
            {
                errs.push(format!(
                    "{at}: variable {} used but never bound",
                    b.vars[v.index()]
                ));
            }
        }
        for p in &b.pats {
            if let Pat::Bound(v) = p
                && !bound.contains(&v.0)
            {
                errs.push(format!(
                    "{at}: pattern compares with never-bound {}",
                    b.vars[v.index()]
                ));
            }
        }
    }
    for (i, n) in sites_seen.iter().enumerate() {
        if *n != 1 {
            errs.push(format!("{}: call site #{i} used {n} times", m.name));
        }
    }
    for (i, n) in funs_seen.iter().enumerate() {
        if *n != 1 {
            errs.push(format!("{}: fun #{i} appears {n} times", m.name));
        }
    }
    errs
}

fn erl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            erl_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "erl") {
            out.push(p);
        }
    }
}

fn check_all(paths: Vec<PathBuf>, lib_dirs: Vec<PathBuf>) -> (usize, Vec<String>) {
    let program = load_paths(
        &paths,
        &LoadOptions {
            lib_dirs,
            ..LoadOptions::default()
        },
    );
    let errs: Vec<String> = program.modules.values().flat_map(check_module).collect();
    (program.modules.len(), errs)
}

#[test]
fn test_modules_are_well_formed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ir");
    let (n, errs) = check_all(vec![dir], vec![]);
    assert!(n >= 19, "only {n} modules loaded");
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

#[test]
fn otp_modules_are_well_formed() {
    let mut files = Vec::new();
    erl_files(Path::new("/usr/lib/erlang/lib"), &mut files);
    if files.is_empty() {
        eprintln!("notice: no OTP sources under /usr/lib/erlang/lib, test skipped");
        return;
    }
    files.sort();
    let (n, errs) = check_all(files, vec![PathBuf::from("/usr/lib/erlang/lib")]);
    eprintln!("checked {n} OTP modules, {} problems", errs.len());
    let shown: Vec<&String> = errs.iter().take(60).collect();
    assert!(errs.is_empty(), "{shown:#?}");
}
