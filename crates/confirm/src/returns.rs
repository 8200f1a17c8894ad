//! What the program does with a value one of its functions returns. A
//! harness worker calls a function and the value it returns goes to the
//! harness, which judges nothing; in the program that value goes to the
//! function's callers, and a caller that accepts only the success shape
//! (`{ok, _} = ensure_started()`) crashes on an error a lost race made
//! the function return. [`ReturnUses`] holds, for the functions a harness's
//! workers call, how each caller in the program uses the value: the
//! pattern of a match, the clauses of a `case`, returned on to its own
//! callers (up to [`DEPTH`] deep), ignored, or used some other way (not
//! judged). [`ReturnUses::judge`] then tells what the callers make of one
//! value the run returned.

use std::collections::BTreeMap;

use racewit_syntax::ir::{CaseKind, Expr, ExprId, Function, Literal, Pat, PatId, Program};
use racewit_vm::Term;

use crate::callers::{Callers, Mfa};

/// How many callers up a returned value is followed.
const DEPTH: u32 = 3;

/// A pattern, kept apart from its function's body.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    /// `_` or a variable bound here (its name, for the text).
    Any(String),
    /// A part whose match cannot be judged without the run's bindings (a
    /// variable bound earlier) or a literal racewit does not compare.
    Unknown(String),
    Atom(String),
    Int(i64),
    Float(f64),
    /// A string literal: its characters.
    Chars(Vec<char>),
    Nil,
    Cons(Box<Shape>, Box<Shape>),
    Tuple(Vec<Shape>),
    /// Any map or binary pattern: a value of another kind never matches.
    Map,
    Binary,
    Alias(Box<Shape>, Box<Shape>),
    /// A pattern that could not be parsed.
    Never,
}

/// Whether a value matches a [`Shape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    Yes,
    No,
    Maybe,
}

impl Fit {
    fn and(self, other: Fit) -> Fit {
        match (self, other) {
            (Fit::No, _) | (_, Fit::No) => Fit::No,
            (Fit::Yes, Fit::Yes) => Fit::Yes,
            _ => Fit::Maybe,
        }
    }
}

impl Shape {
    fn of(func: &Function, p: PatId) -> Shape {
        let body = &func.body;
        match body.pat(p) {
            Pat::Missing => Shape::Never,
            Pat::Wild => Shape::Any("_".into()),
            Pat::Var(v) => Shape::Any(
                body.vars
                    .get(v.index())
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "_".into()),
            ),
            Pat::Bound(v) => Shape::Unknown(
                body.vars
                    .get(v.index())
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "_".into()),
            ),
            Pat::Lit(Literal::Atom(a)) => Shape::Atom(a.to_string()),
            Pat::Lit(Literal::Int(i)) => Shape::Int(*i),
            Pat::Lit(Literal::Float(f)) => Shape::Float(*f),
            Pat::Lit(Literal::String(s)) => Shape::Chars(s.chars().collect()),
            Pat::Lit(Literal::BigInt(b)) => Shape::Unknown(b.to_string()),
            Pat::Nil => Shape::Nil,
            Pat::Cons(h, t) => {
                Shape::Cons(Box::new(Shape::of(func, *h)), Box::new(Shape::of(func, *t)))
            }
            Pat::Tuple(items) => Shape::Tuple(items.iter().map(|&i| Shape::of(func, i)).collect()),
            Pat::Map(_) => Shape::Map,
            Pat::Binary(_) => Shape::Binary,
            Pat::Alias(a, b) => {
                Shape::Alias(Box::new(Shape::of(func, *a)), Box::new(Shape::of(func, *b)))
            }
        }
    }

    fn fit(&self, v: &Term) -> Fit {
        match (self, v) {
            (Shape::Any(_), _) => Fit::Yes,
            (Shape::Unknown(_), _) => Fit::Maybe,
            (Shape::Never, _) => Fit::No,
            (Shape::Atom(a), Term::Atom(b)) => yes_if(b.name() == a),
            (Shape::Int(i), Term::Int(j)) => yes_if(i == j),
            (Shape::Float(f), Term::Float(g)) => yes_if(f == g),
            (Shape::Chars(cs), _) => chars_fit(cs, v),
            (Shape::Nil, Term::Nil) => Fit::Yes,
            (Shape::Cons(h, t), Term::Cons(c)) => h.fit(&c.head).and(t.fit(&c.tail)),
            (Shape::Tuple(items), Term::Tuple(vs)) if items.len() == vs.len() => items
                .iter()
                .zip(vs.iter())
                .fold(Fit::Yes, |acc, (p, x)| acc.and(p.fit(x))),
            (Shape::Map, Term::Map(_)) | (Shape::Binary, Term::Bin(_)) => Fit::Maybe,
            (Shape::Alias(a, b), _) => a.fit(v).and(b.fit(v)),
            // A big integer compared with a literal: not judged here.
            (Shape::Int(_), Term::Big(_)) => Fit::Maybe,
            _ => Fit::No,
        }
    }

    /// Whether the pattern takes anything (a variable or `_`).
    fn is_any(&self) -> bool {
        matches!(self, Shape::Any(_))
    }
}

fn yes_if(b: bool) -> Fit {
    if b { Fit::Yes } else { Fit::No }
}

fn chars_fit(cs: &[char], v: &Term) -> Fit {
    let mut v = v;
    for &c in cs {
        match v {
            Term::Cons(cell) => {
                if !matches!(cell.head, Term::Int(i) if i == c as i64) {
                    return Fit::No;
                }
                v = &cell.tail;
            }
            _ => return Fit::No,
        }
    }
    yes_if(matches!(v, Term::Nil))
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shape::Any(n) | Shape::Unknown(n) => {
                // Generated names of `_` variables (`_@3`) read as `_`.
                if n.contains('@') {
                    write!(f, "_")
                } else {
                    write!(f, "{n}")
                }
            }
            Shape::Atom(a) => write!(
                f,
                "{}",
                racewit_vm::format::atom_text(racewit_vm::atom::Atom::new(a))
            ),
            Shape::Int(i) => write!(f, "{i}"),
            Shape::Float(x) => write!(f, "{x:?}"),
            Shape::Chars(cs) => write!(f, "{:?}", cs.iter().collect::<String>()),
            Shape::Nil => write!(f, "[]"),
            Shape::Cons(h, t) => write!(f, "[{h} | {t}]"),
            Shape::Tuple(items) => {
                write!(f, "{{")?;
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, "}}")
            }
            Shape::Map => write!(f, "#{{...}}"),
            Shape::Binary => write!(f, "<<...>>"),
            Shape::Alias(a, b) => write!(f, "{a} = {b}"),
            Shape::Never => write!(f, "?"),
        }
    }
}

/// How one caller uses the value of one call.
#[derive(Clone, Debug)]
struct Use {
    caller: Mfa,
    /// `file.erl:12` of the match or `case` (or of the call).
    at: String,
    /// A failed match there is caught (`catch`, or the body of a `try`).
    caught: bool,
    how: How,
}

#[derive(Clone, Debug)]
enum How {
    /// `Pat = Call`: a value the pattern refuses raises `badmatch`.
    Match(Shape),
    /// `case Call of ...` (or `try Call of ...`): each clause's pattern,
    /// whether it has a guard, and where it is. No clause taking the value
    /// raises `case_clause` (`try_clause`).
    Case {
        clauses: Vec<(Shape, bool, String)>,
        error: &'static str,
    },
    /// The caller returns the value: its own callers judge it.
    Returned(Vec<Use>),
    /// The value is dropped (not the last expression of a body).
    Ignored,
    /// Any other use (an argument, an operand, a fun's result): not judged.
    Other,
}

/// What a caller in the program makes of a returned value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Judged {
    /// A caller crashes on it: `error` (`badmatch`, `case_clause`) in
    /// `caller` at `at`, whose patterns there are `accepts`.
    Crashes {
        caller: String,
        at: String,
        error: &'static str,
        accepts: String,
    },
    /// Every caller takes it: each one named, with how.
    Accepted { by: Vec<String> },
    /// The function has no caller in the program: its value goes to
    /// whoever calls the API.
    NoCaller,
    /// Some caller's use of it is not judged (it keeps it in a variable,
    /// passes it on, guards its case clauses); named.
    Unjudged { by: String },
}

impl Judged {
    /// The crash a caller would suffer on `value` (as printed): the caller
    /// and its exit reason, with where and what it accepts.
    pub(crate) fn crash(&self, value: &str) -> Option<(String, String)> {
        match self {
            Judged::Crashes {
                caller,
                at,
                error,
                accepts,
            } => Some((
                caller.clone(),
                format!("{{{error},{value}}} at {at} (it accepts only {accepts} there)"),
            )),
            _ => None,
        }
    }
}

/// For each function a harness's workers call, how the program's callers
/// use its value.
#[derive(Clone, Debug, Default)]
pub struct ReturnUses {
    uses: BTreeMap<Mfa, Vec<Use>>,
}

impl ReturnUses {
    /// The uses of the values of `functions`, from the program's calls.
    pub(crate) fn new<'a>(
        program: &Program,
        callers: &Callers,
        functions: impl IntoIterator<Item = &'a Mfa>,
    ) -> ReturnUses {
        let mut uses = BTreeMap::new();
        for mfa in functions {
            if !uses.contains_key(mfa) {
                let found = uses_of(program, callers, mfa, DEPTH, &mut vec![mfa.clone()]);
                uses.insert(mfa.clone(), found);
            }
        }
        ReturnUses { uses }
    }

    /// What the callers of `mfa` make of `value`.
    pub(crate) fn judge(&self, mfa: &Mfa, value: &Term) -> Judged {
        match self.uses.get(mfa) {
            None => Judged::NoCaller,
            Some(uses) if uses.is_empty() => Judged::NoCaller,
            Some(uses) => judge_all(uses, value),
        }
    }
}

fn mfa_text((m, f, a): &Mfa) -> String {
    format!("{m}:{f}/{a}")
}

fn judge_all(uses: &[Use], value: &Term) -> Judged {
    let mut by = Vec::new();
    let mut unjudged: Option<String> = None;
    for u in uses {
        match judge_use(u, value) {
            crash @ Judged::Crashes { .. } => return crash,
            Judged::Accepted { by: b } => by.extend(b),
            Judged::Unjudged { by } => {
                unjudged.get_or_insert(by);
            }
            Judged::NoCaller => {
                unjudged.get_or_insert(format!(
                    "{} returns it to callers outside the program",
                    mfa_text(&u.caller)
                ));
            }
        }
    }
    match unjudged {
        Some(by) => Judged::Unjudged { by },
        None => Judged::Accepted { by },
    }
}

fn judge_use(u: &Use, value: &Term) -> Judged {
    let caller = mfa_text(&u.caller);
    let crash = |error: &'static str, accepts: String| {
        if u.caught {
            Judged::Accepted {
                by: vec![format!("{caller} at {} (it catches the {error})", u.at)],
            }
        } else {
            Judged::Crashes {
                caller: caller.clone(),
                at: u.at.clone(),
                error,
                accepts,
            }
        }
    };
    match &u.how {
        How::Match(shape) => match shape.fit(value) {
            Fit::No => crash("badmatch", shape.to_string()),
            Fit::Yes if shape.is_any() => Judged::Unjudged {
                by: format!("{caller} at {} keeps it in {shape}", u.at),
            },
            Fit::Yes => Judged::Accepted {
                by: vec![format!("{caller} at {} (matches {shape})", u.at)],
            },
            Fit::Maybe => Judged::Unjudged {
                by: format!("{caller} at {} matches it with {shape}", u.at),
            },
        },
        How::Case { clauses, error } => {
            for (shape, guarded, at) in clauses {
                match shape.fit(value) {
                    Fit::No => continue,
                    Fit::Yes if !guarded => {
                        return Judged::Accepted {
                            by: vec![format!("{caller} at {at} (clause {shape})")],
                        };
                    }
                    Fit::Yes | Fit::Maybe => {
                        return Judged::Unjudged {
                            by: format!("{caller} at {at} (clause {shape}, not judged)"),
                        };
                    }
                }
            }
            let accepts: Vec<String> = clauses.iter().map(|(s, _, _)| s.to_string()).collect();
            crash(error, accepts.join(" or "))
        }
        How::Returned(inner) if inner.is_empty() => Judged::Unjudged {
            by: format!("{caller} returns it to callers outside the program"),
        },
        How::Returned(inner) => judge_all(inner, value),
        How::Ignored => Judged::Accepted {
            by: vec![format!("{caller} at {} (ignores it)", u.at)],
        },
        How::Other => Judged::Unjudged {
            by: format!("{caller} at {} uses it", u.at),
        },
    }
}

/// The uses of `mfa`'s value by its callers; `seen` stops recursion.
fn uses_of(
    program: &Program,
    callers: &Callers,
    (m, f, a): &Mfa,
    depth: u32,
    seen: &mut Vec<Mfa>,
) -> Vec<Use> {
    let mut out = Vec::new();
    for (caller, call) in callers.sites(m, f, *a) {
        let Some(func) = program.function(&caller.0, &caller.1, caller.2) else {
            continue;
        };
        let at = |e: ExprId| at(program, func, e);
        let (how, site, caught) = use_in(func, call);
        let how = match how {
            Flow::Returned => {
                if depth == 0 || seen.contains(caller) {
                    How::Other
                } else {
                    seen.push(caller.clone());
                    let inner = uses_of(program, callers, caller, depth - 1, seen);
                    seen.pop();
                    How::Returned(inner)
                }
            }
            Flow::Match(p) => How::Match(Shape::of(func, p)),
            Flow::Case(clauses, error) => How::Case {
                clauses: clauses
                    .iter()
                    .map(|&c| {
                        let cl = func.body.clause(c);
                        let shape = cl
                            .pats
                            .first()
                            .map(|&p| Shape::of(func, p))
                            .unwrap_or(Shape::Never);
                        let where_ = at_span(program, func.source_map.clause(c));
                        (shape, !cl.guard.is_empty(), where_)
                    })
                    .collect(),
                error,
            },
            Flow::Ignored => How::Ignored,
            Flow::Other => How::Other,
        };
        out.push(Use {
            caller: caller.clone(),
            at: at(site),
            caught,
            how,
        });
    }
    out
}

fn at(program: &Program, func: &Function, e: ExprId) -> String {
    at_span(program, func.source_map.expr(e))
}

fn at_span(program: &Program, span: racewit_syntax::Span) -> String {
    let loc = program.sources.location(span);
    let file = std::path::Path::new(&loc.file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or(loc.file.clone());
    format!("{file}:{}", loc.line)
}

/// Where a call's value goes in its caller's body.
enum Flow {
    Match(PatId),
    Case(Vec<racewit_syntax::ir::ClauseId>, &'static str),
    Returned,
    Ignored,
    Other,
}

/// The use of the value of the call `call` in `func`: where it ends up
/// (following it through the tail of blocks, clause bodies, `catch` and a
/// `try` without `of`), the expression that uses it, and whether a failed
/// match there is caught by an enclosing `catch` or `try` body.
fn use_in(func: &Function, call: ExprId) -> (Flow, ExprId, bool) {
    let body = &func.body;
    let mut parent: Vec<Option<ExprId>> = vec![None; body.exprs.len()];
    for i in 0..body.exprs.len() {
        let e = ExprId(i as u32);
        racewit_static::walk::for_each_child(body, e, &mut |c| {
            if let Some(slot) = parent.get_mut(c.index()) {
                *slot = Some(e);
            }
        });
    }
    let is_function_body = |e: ExprId| func.clauses.iter().any(|&c| body.clause(c).body == e);
    let caught_above = |mut e: ExprId| {
        while let Some(p) = parent[e.index()] {
            match body.expr(p) {
                Expr::Catch(_) => return true,
                Expr::Try(t) if t.body == e => return true,
                _ => {}
            }
            e = p;
        }
        false
    };
    let mut e = call;
    loop {
        let Some(p) = parent[e.index()] else {
            let flow = if is_function_body(e) {
                Flow::Returned
            } else {
                // Inside a fun, or a form the walk does not enter.
                Flow::Other
            };
            return (flow, call, false);
        };
        match body.expr(p) {
            Expr::Match(pat, x) if *x == e => return (Flow::Match(*pat), p, caught_above(p)),
            Expr::Case {
                kind: CaseKind::Case,
                arg,
                clauses,
            } if *arg == e => {
                return (
                    Flow::Case(clauses.clone(), "case_clause"),
                    p,
                    caught_above(p),
                );
            }
            // A clause body (not a guard) gives the case its value.
            Expr::Case { arg, clauses, .. }
                if *arg != e && clauses.iter().any(|&c| body.clause(c).body == e) =>
            {
                e = p;
            }
            Expr::Receive { clauses, after } => {
                let tail = clauses.iter().any(|&c| body.clause(c).body == e)
                    || after.as_ref().is_some_and(|a| a.body == e);
                if !tail {
                    return (Flow::Other, call, false);
                }
                e = p;
            }
            Expr::Block(items) => {
                if items.last() == Some(&e) {
                    e = p;
                } else {
                    return (Flow::Ignored, call, false);
                }
            }
            Expr::Catch(_) => e = p,
            Expr::Try(t) => {
                let racewit_syntax::ir::TryExpr {
                    body: b,
                    of_clauses,
                    catch_clauses,
                    after,
                } = &**t;
                if *b == e {
                    if of_clauses.is_empty() {
                        e = p;
                    } else {
                        // A value no `of` clause takes raises try_clause,
                        // which this try's catch clauses do not catch.
                        return (
                            Flow::Case(of_clauses.clone(), "try_clause"),
                            p,
                            caught_above(p),
                        );
                    }
                } else if of_clauses
                    .iter()
                    .chain(catch_clauses)
                    .any(|&c| body.clause(c).body == e)
                {
                    e = p;
                } else if *after == Some(e) {
                    return (Flow::Ignored, call, false);
                } else {
                    return (Flow::Other, call, false);
                }
            }
            _ => return (Flow::Other, call, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(src: &str, m: &str, f: &str, a: u32) -> ReturnUses {
        let program = crate::test_support::program(&[(m, src)]);
        let callers = Callers::new(&program);
        let mfa: Mfa = (m.into(), f.into(), a);
        ReturnUses::new(&program, &callers, [&mfa])
    }

    fn error_value() -> Term {
        Term::tuple(vec![
            Term::atom("error"),
            Term::tuple(vec![Term::atom("already_started"), Term::Int(1)]),
        ])
    }

    fn ok_value() -> Term {
        Term::tuple(vec![Term::atom("ok"), Term::Int(1)])
    }

    fn mfa(m: &str, f: &str, a: u32) -> Mfa {
        (m.into(), f.into(), a)
    }

    #[test]
    fn a_caller_that_insists_on_ok_crashes_on_an_error() {
        let u = uses(
            "-module(s).\n-export([ask/1, ensure/0]).\n\
             ensure() -> whereis(s).\n\
             ask(Q) ->\n    {ok, _} = ensure(),\n    Q.\n",
            "s",
            "ensure",
            0,
        );
        let judged = u.judge(&mfa("s", "ensure", 0), &error_value());
        assert_eq!(
            judged,
            Judged::Crashes {
                caller: "s:ask/1".into(),
                at: "s.erl:5".into(),
                error: "badmatch",
                accepts: "{ok, _}".into(),
            }
        );
        assert!(matches!(
            u.judge(&mfa("s", "ensure", 0), &ok_value()),
            Judged::Accepted { .. }
        ));
    }

    #[test]
    fn a_case_with_an_error_clause_handles_it() {
        let u = uses(
            "-module(s).\n-export([ask/0, ensure/0]).\n\
             ensure() -> whereis(s).\n\
             ask() ->\n    case ensure() of\n        {ok, P} -> P;\n        \
             {error, {already_started, P}} -> P\n    end.\n",
            "s",
            "ensure",
            0,
        );
        let Judged::Accepted { by } = u.judge(&mfa("s", "ensure", 0), &error_value()) else {
            panic!("not accepted");
        };
        assert_eq!(
            by,
            vec!["s:ask/0 at s.erl:7 (clause {error, {already_started, P}})".to_string()]
        );
    }

    #[test]
    fn a_case_without_the_error_clause_crashes_unless_caught() {
        let src = "-module(s).\n-export([a/0, b/0, ensure/0]).\n\
                   ensure() -> whereis(s).\n\
                   a() -> case ensure() of {ok, P} -> P end.\n\
                   b() -> catch begin {ok, P} = ensure(), P end.\n";
        let u = uses(src, "s", "ensure", 0);
        let judged = u.judge(&mfa("s", "ensure", 0), &error_value());
        assert!(
            matches!(&judged, Judged::Crashes { caller, error: "case_clause", .. } if caller == "s:a/0"),
            "{judged:?}"
        );
    }

    #[test]
    fn a_value_returned_on_is_judged_by_the_next_caller() {
        let u = uses(
            "-module(s).\n-export([top/0, mid/0, ensure/0]).\n\
             ensure() -> whereis(s).\n\
             mid() -> log, ensure().\n\
             top() -> {ok, _} = mid(), ok.\n",
            "s",
            "ensure",
            0,
        );
        let judged = u.judge(&mfa("s", "ensure", 0), &error_value());
        assert!(
            matches!(&judged, Judged::Crashes { caller, .. } if caller == "s:top/0"),
            "{judged:?}"
        );
    }

    #[test]
    fn no_caller_and_unjudged_uses_are_said_so() {
        let u = uses(
            "-module(s).\n-export([keep/0, ensure/0, lone/0]).\n\
             ensure() -> whereis(s).\n\
             lone() -> whereis(t).\n\
             keep() -> R = ensure(), io:format(\"~p\", [R]).\n",
            "s",
            "ensure",
            0,
        );
        assert!(matches!(
            u.judge(&mfa("s", "ensure", 0), &error_value()),
            Judged::Unjudged { .. }
        ));
        assert_eq!(
            u.judge(&mfa("s", "lone", 0), &error_value()),
            Judged::NoCaller
        );
    }
}
