//! The match-specification BIFs: `erlang:match_spec_test/3`,
//! `ets:match_spec_compile/1`, `ets:is_compiled_ms/1` and
//! `ets:match_spec_run_r/3` (`ets:match_spec_run/2` and `ets:test_ms/2` are
//! Erlang in the prelude's `ets`, on top of these). Checking and running are
//! [`crate::match_spec`]'s.
//!
//! A compiled match specification is a reference, as on the BEAM (a magic
//! reference there): each compilation makes a new one, so two compilations
//! of one specification are not equal, and `is_reference/1` holds. The
//! reference numbers the checked source in the VM's world
//! (`World::compiled_ms`), which every process of the run shares, as a
//! magic reference works in any process it is sent to.

use crate::bif::{Ctx, Flow, Table};
use crate::format::write_term;
use crate::match_spec::{self, Dialect, Env, Subject};
use crate::term::Term;

pub fn register(t: &mut Table) {
    t.ctx("erlang", "match_spec_test", 3, match_spec_test);
    t.ctx("ets", "match_spec_compile", 1, compile);
    t.ctx("ets", "is_compiled_ms", 1, |ctx, a| {
        Flow::Value(Term::bool(compiled(ctx, &a[0]).is_some()))
    });
    t.ctx("ets", "match_spec_run_r", 3, run_r);
}

fn env(ctx: &Ctx<'_>) -> Env {
    Env {
        self_pid: Term::Pid(ctx.pid()),
        pure_bif: crate::bif::erlang_pure,
    }
}

/// `erlang:match_spec_test(Subject, Spec, table | trace)`:
/// `{ok, Result, Flags, Warnings}` or `{error, Errors}`.
fn match_spec_test(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let dialect = match a[2].as_atom().map(|x| x.name()) {
        Some("table") => Dialect::Table,
        Some("trace") if a[0].is_list() => Dialect::Trace,
        _ => return Flow::badarg(),
    };
    let errors = match_spec::check(&a[1], dialect);
    if !errors.is_empty() {
        let errors = errors
            .iter()
            .map(|e| Term::tuple(vec![Term::atom("error"), Term::string(e)]))
            .collect();
        return Flow::Value(Term::tuple(vec![Term::atom("error"), Term::list(errors)]));
    }
    // A traced call's arguments: the list's elements (an improper tail is
    // not an argument).
    let args: Vec<Term> = a[0].list_iter().cloned().collect();
    let subject = match dialect {
        Dialect::Table => Subject::Object(&a[0]),
        Dialect::Trace => Subject::Args(&args),
    };
    let env = env(ctx);
    let outcome = match_spec::run(&a[1], subject, &env);
    let (result, flags) = match outcome {
        Some(o) => {
            for t in &o.displayed {
                super::erlang::output(ctx, format!("{}\n", write_term(t)));
            }
            let mut flags = Vec::new();
            if o.return_trace {
                flags.push(Term::atom("return_trace"));
            }
            if o.exception_trace {
                flags.push(Term::atom("exception_trace"));
            }
            (o.result, flags)
        }
        None => (Term::bool(false), Vec::new()),
    };
    Flow::Value(Term::tuple(vec![
        Term::ok(),
        result,
        Term::list(flags),
        Term::Nil,
    ]))
}

/// `ets:match_spec_compile(Spec)`: a new compiled specification, or
/// `badarg` for one the table compiler rejects.
fn compile(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    if !match_spec::check(&a[0], Dialect::Table).is_empty() {
        return Flow::badarg();
    }
    let r = ctx.vm.new_ref();
    ctx.vm.world.compiled_ms.insert(r, a[0].clone());
    Flow::Value(Term::Ref(r))
}

/// The source of a compiled specification.
fn compiled(ctx: &Ctx<'_>, t: &Term) -> Option<Term> {
    match t {
        Term::Ref(r) => ctx.vm.world.compiled_ms.get(r).cloned(),
        _ => None,
    }
}

/// `ets:match_spec_run_r(Objects, Compiled, Acc)`: the results of the
/// objects that match, each put in front of `Acc` in turn.
fn run_r(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Some(spec) = compiled(ctx, &a[1]) else {
        return Flow::badarg();
    };
    let Some(objects) = a[0].list_to_vec() else {
        return Flow::badarg();
    };
    let env = env(ctx);
    let mut acc = a[2].clone();
    for o in &objects {
        if let Some(out) = match_spec::run(&spec, Subject::Object(o), &env) {
            acc = Term::cons(out.result, acc);
        }
    }
    Flow::Value(acc)
}
