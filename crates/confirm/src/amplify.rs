//! The project's own tests as contexts for a suspect, amplified: a test
//! that reaches the suspect's read is run as it is, with the first call it
//! makes into the program's API that leads to the read made from several
//! processes at once (same arguments, same state: what the test built up to
//! that call). The test provides what a generated harness cannot: a started
//! system, created tables, real arguments.
//!
//! How: a copy of the test module under a new name, whose calls to the
//! suspect's entry functions go to a generated amplifier module instead.
//! The amplifier's first call in a process spawns the copies, waits for
//! them, and gives the test the first copy's result (or its exception); any
//! later call goes straight through. The original modules are untouched,
//! so the race's sites are the program's own.

use racewit_static::Suspect;
use racewit_syntax::ir::{CallTarget, Expr, Literal, Module, Name, Program};
use serde::{Deserialize, Serialize};

/// The most tests tried per suspect.
pub const MAX_TESTS: usize = 3;

/// A test function of the project.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestFn {
    pub module: String,
    pub function: String,
    /// An EUnit generator (`*_test_/0`), run through `racewit_eunit`.
    pub generator: bool,
}

impl TestFn {
    pub fn mfa(&self) -> String {
        format!("{}:{}/0", self.module, self.function)
    }
}

/// An amplified run of a test, as recorded in a witness (replay rebuilds the
/// same modules from it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Amplification {
    pub test: TestFn,
    /// The entry functions whose first call is amplified (`m:f/a`).
    pub targets: Vec<String>,
    /// Processes making each amplified call.
    pub copies: usize,
    /// The renamed copy of the test module.
    pub copy_module: String,
    /// The amplifier module.
    pub amplifier_module: String,
}

/// Whether a function is an EUnit test: `*_test/0`, or a generator
/// `*_test_/0`.
pub fn test_kind(name: &str, arity: u32) -> Option<bool> {
    if arity != 0 {
        return None;
    }
    if name.ends_with("_test_") {
        Some(true)
    } else if name.ends_with("_test") {
        Some(false)
    } else {
        None
    }
}

/// `m:f/a` parts.
fn split_mfa(mfa: &str) -> Option<(&str, &str, u32)> {
    let (m, rest) = mfa.split_once(':')?;
    let (f, a) = rest.rsplit_once('/')?;
    Some((m, f, a.parse().ok()?))
}

/// The entry functions a test may call to reach the suspect's read: the
/// suspect's entries that are not tests themselves.
pub fn targets(suspect: &Suspect) -> Vec<(String, String, u32)> {
    let mut out: Vec<(String, String, u32)> = suspect
        .entries
        .iter()
        .map(|e| (e.mfa.module.as_str(), e.mfa.name.as_str(), e.mfa.arity))
        .filter(|(_, f, a)| test_kind(f, *a).is_none() && *f != "test")
        .map(|(m, f, a)| (m.to_string(), f.to_string(), a))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether a call expression in module `here` targets one of `targets`.
fn call_target<'a>(
    body: &racewit_syntax::ir::Body,
    here: &str,
    target: &CallTarget,
    arity: usize,
    targets: &'a [(String, String, u32)],
) -> Option<&'a (String, String, u32)> {
    let atom = |e| match body.expr(e) {
        Expr::Lit(Literal::Atom(a)) => Some(a.as_str()),
        _ => None,
    };
    let (m, f) = match target {
        CallTarget::Local { name, .. } => (here, name.as_str()),
        CallTarget::Remote { module, function } => (atom(*module)?, atom(*function)?),
        CallTarget::Apply { .. } => return None,
    };
    targets
        .iter()
        .find(|(tm, tf, ta)| tm == m && tf == f && *ta as usize == arity)
}

/// Whether function `name/arity` of `module` calls a target, directly or
/// through local functions of its module (funs in its body included).
fn reaches(module: &Module, name: &str, targets: &[(String, String, u32)]) -> bool {
    let mut seen: Vec<(Name, u32)> = Vec::new();
    let mut todo = vec![(Name::new(name), 0u32)];
    while let Some((f, a)) = todo.pop() {
        if seen.iter().any(|(sf, sa)| *sf == f && *sa == a) || seen.len() > 200 {
            continue;
        }
        seen.push((f.clone(), a));
        let Some(func) = module.function(&f, a) else {
            continue;
        };
        for e in &func.body.exprs {
            let Expr::Call { target, args, .. } = e else {
                continue;
            };
            if call_target(&func.body, &module.name, target, args.len(), targets).is_some() {
                return true;
            }
            if let CallTarget::Local { name, arity } = &**target {
                todo.push((name.clone(), *arity));
            }
        }
    }
    false
}

/// The project's tests that reach the suspect's entries, in a stable order:
/// first those of the read's and the write's modules and their `_tests`
/// modules, then the rest; at most [`MAX_TESTS`].
pub fn tests_reaching(program: &Program, suspect: &Suspect) -> Vec<TestFn> {
    let targets = targets(suspect);
    if targets.is_empty() {
        return Vec::new();
    }
    let near = |m: &str| {
        let own = [suspect.read.module.as_str(), suspect.write.module.as_str()];
        own.iter()
            .any(|o| m == *o || m.strip_suffix("_tests") == Some(o))
    };
    let mut found: Vec<(bool, TestFn)> = Vec::new();
    for (mname, module) in &program.modules {
        for f in &module.functions {
            let Some(generator) = test_kind(&f.name, f.arity) else {
                continue;
            };
            if !f.exported || !reaches(module, &f.name, &targets) {
                continue;
            }
            found.push((
                !near(mname),
                TestFn {
                    module: mname.to_string(),
                    function: f.name.to_string(),
                    generator,
                },
            ));
        }
    }
    found.sort_by(|a, b| (a.0, &a.1.module, &a.1.function).cmp(&(b.0, &b.1.module, &b.1.function)));
    found.into_iter().map(|(_, t)| t).take(MAX_TESTS).collect()
}

/// The amplifier function's name for a target: `'m:f'`, unique per target.
fn amplifier_function(m: &str, f: &str) -> String {
    format!("{m}:{f}")
}

/// Adds the amplified copy of the test's module and its amplifier module to
/// `program`. Returns false (and adds nothing) when the test's module is not
/// loaded or a name is taken.
pub fn add_amplified(program: &mut Program, a: &Amplification) -> bool {
    let taken =
        program.module(&a.copy_module).is_some() || program.module(&a.amplifier_module).is_some();
    let Some((copy, amplifier)) = amplified(program, a).filter(|_| !taken) else {
        return false;
    };
    program.absorb(amplifier);
    program.modules.insert(copy.name.clone(), copy);
    true
}

/// [`add_amplified`] for generated modules kept apart: the test's module
/// is `program`'s, the two modules go to `top`, laid over `program`
/// (whose files `top`'s start with). A name either has is taken.
pub fn add_amplified_over(program: &Program, top: &mut Program, a: &Amplification) -> bool {
    let taken = |name: &str| program.module(name).is_some() || top.module(name).is_some();
    if taken(&a.copy_module) || taken(&a.amplifier_module) {
        return false;
    }
    let Some((copy, amplifier)) = amplified(program, a) else {
        return false;
    };
    top.absorb(amplifier);
    top.modules.insert(copy.name.clone(), copy);
    true
}

/// The amplified copy of the test's module, and the amplifier module
/// loaded on its own; `None` when the test's module is not loaded.
fn amplified(program: &Program, a: &Amplification) -> Option<(Module, Program)> {
    let original = program.module(&a.test.module)?;
    let targets: Vec<(String, String, u32)> = a
        .targets
        .iter()
        .filter_map(|t| split_mfa(t))
        .map(|(m, f, n)| (m.to_string(), f.to_string(), n))
        .collect();
    let mut copy = original.clone();
    copy.name = Name::new(&a.copy_module);
    let here = a.test.module.clone();
    for func in &mut copy.functions {
        let body = &mut func.body;
        for i in 0..body.exprs.len() {
            let Expr::Call { target, args, .. } = &body.exprs[i] else {
                continue;
            };
            let Some((m, f, _)) = call_target(body, &here, target, args.len(), &targets).cloned()
            else {
                continue;
            };
            let span = func.source_map.exprs[i];
            let module_atom = racewit_syntax::ir::ExprId(body.exprs.len() as u32);
            body.exprs
                .push(Expr::Lit(Literal::Atom(Name::new(&a.amplifier_module))));
            func.source_map.exprs.push(span);
            let function_atom = racewit_syntax::ir::ExprId(body.exprs.len() as u32);
            body.exprs
                .push(Expr::Lit(Literal::Atom(Name::new(amplifier_function(
                    &m, &f,
                )))));
            func.source_map.exprs.push(span);
            if let Expr::Call { target, .. } = &mut body.exprs[i] {
                **target = CallTarget::Remote {
                    module: module_atom,
                    function: function_atom,
                };
            }
        }
    }
    let source = amplifier_source(&a.amplifier_module, &targets, a.copies);
    let loaded = racewit_syntax::load_source(
        &format!(
            "{}/{}.erl",
            crate::confirmation::HARNESS_DIR,
            a.amplifier_module
        ),
        &source,
    );
    Some((copy, loaded))
}

/// The amplifier: one function per target, `'m:f'(A1, ...)`, which makes
/// its first call in a process from `copies` processes at once.
pub fn amplifier_source(module: &str, targets: &[(String, String, u32)], copies: usize) -> String {
    let q = |s: &str| format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"));
    let mut s = format!(
        "-module({}).\n-export([{}]).\n\n",
        q(module),
        targets
            .iter()
            .map(|(m, f, n)| format!("{}/{n}", q(&amplifier_function(m, f))))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (m, f, n) in targets {
        let args: Vec<String> = (1..=*n).map(|i| format!("A{i}")).collect();
        let args = args.join(", ");
        s.push_str(&format!(
            "{name}({args}) ->\n    \
             case get('$racewit_amplified') of\n        \
             undefined ->\n            \
             put('$racewit_amplified', true),\n            \
             amplify({copies}, fun() -> {m}:{f}({args}) end);\n        \
             _ ->\n            \
             {m}:{f}({args})\n    \
             end.\n\n",
            name = q(&amplifier_function(m, f)),
            m = q(m),
            f = q(f),
        ));
    }
    s.push_str(
        "%% Makes the call from N processes at once; the caller gets the first\n\
         %% one's result, or its exception.\n\
         amplify(N, Call) ->\n    \
         Parent = self(),\n    \
         Tag = make_ref(),\n    \
         Copies = [spawn_monitor(fun() -> Parent ! {Tag, self(), Call()} end)\n              \
         || _ <- lists:seq(1, N)],\n    \
         [First | _] = [outcome(Tag, Copy) || Copy <- Copies],\n    \
         case First of\n        \
         {value, V} -> V;\n        \
         {down, {{nocatch, T}, _}} -> throw(T);\n        \
         {down, {R, Stack}} when is_list(Stack) -> erlang:raise(error, R, Stack);\n        \
         {down, R} -> exit(R)\n    \
         end.\n\n\
         outcome(Tag, {Pid, Ref}) ->\n    \
         receive\n        \
         {Tag, Pid, V} ->\n            \
         receive {'DOWN', Ref, process, Pid, _} -> ok end,\n            \
         {value, V};\n        \
         {'DOWN', Ref, process, Pid, R} ->\n            \
         {down, R}\n    \
         end.\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_functions_by_name() {
        assert_eq!(test_kind("lost_update_test", 0), Some(false));
        assert_eq!(test_kind("sessions_test_", 0), Some(true));
        assert_eq!(test_kind("lost_update_test", 1), None);
        assert_eq!(test_kind("test", 0), None);
        assert_eq!(test_kind("testing", 0), None);
    }

    #[test]
    fn the_amplifier_is_erlang() {
        let src = amplifier_source(
            "racewit_ampx_1",
            &[
                ("sessions".into(), "touch".into(), 1),
                ("a-b".into(), "go".into(), 0),
            ],
            2,
        );
        let p = racewit_syntax::load_source("racewit_ampx_1.erl", &src);
        assert!(p.diagnostics.is_empty(), "{src}\n{:?}", p.diagnostics);
        let m = p.module("racewit_ampx_1").expect("module");
        assert!(m.function("sessions:touch", 1).is_some_and(|f| f.exported));
        assert!(m.function("a-b:go", 0).is_some_and(|f| f.exported));
    }
}
