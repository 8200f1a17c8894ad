//! Match specifications, as the BEAM's match compiler and its small
//! evaluator read them, in both dialects.
//!
//! - [`check`] finds what the BEAM's compiler rejects, with its messages in
//!   its order: what `erlang:match_spec_test/3` returns as `{error, Errors}`
//!   and what makes `ets:select/2` or `ets:match_spec_compile/1` raise
//!   `badarg`. Like the BEAM, it reports every error of the first clause
//!   that has any and stops there; a clause's function arguments, tuple
//!   elements and `and`/`or` operands are looked at last to first,
//!   `andalso`/`orelse` operands and list cells first to last, a map's
//!   values then its keys (each last to first).
//! - [`run`] runs a checked specification against a table object
//!   ([`Subject::Object`]) or a traced call's arguments ([`Subject::Args`]).
//!   A guard that fails or is not `true` fails its clause; a body
//!   expression whose call fails is `'EXIT'` where it failed. The trace
//!   dialect's result is the message (`true`, or what `{message, M}` set),
//!   with the `return_trace`/`exception_trace` flags its body set.
//!
//! Every user of match specifications goes through here: `ets:select*`,
//! `ets:match_spec_run/2`, `ets:test_ms/2`, `erlang:match_spec_test/3` and
//! mnesia's selects.
//!
//! What a run of `match_spec_test/3` cannot see on the BEAM either is
//! answered as it answers there: `{caller}` and `{caller_line}` are
//! `undefined`, no sequential trace token is set (`{get_seq_token}` is
//! `[]`, `{is_seq_trace}` is `false`), the trace control word is 0, and the
//! destructive trace forms change nothing (`enable_trace`/`disable_trace`
//! answer `true`, `trace` answers `false`, `set_seq_token` answers `[]`).
//! `{process_dump}` is the one modelled answer: a binary naming the
//! process, since the VM keeps no BEAM process dump.

use crate::arith;
use crate::atom::Atom;
use crate::ets::{match_pattern, ms_var};
use crate::format::{atom_text, write_term};
use crate::term::{Term, TermMap};
use racewit_syntax::ir::{BinOp, UnOp};

/// Which compiler flavour: ETS tables (`select`, `match_spec_run`) or call
/// tracing (`erlang:trace_pattern/3`, `dbg`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    Table,
    Trace,
}

/// The longest error text the BEAM keeps: its buffer holds 100 bytes,
/// the terminating NUL included.
const ERROR_CHARS: usize = 99;

/// The compile errors of `spec` in `dialect`, as the BEAM words them
/// (empty: the specification compiles).
pub fn check(spec: &Term, dialect: Dialect) -> Vec<String> {
    if !matches!(spec, Term::Cons(_)) {
        return vec!["Match programs are not in a list.".to_string()];
    }
    let Some(clauses) = spec.list_to_vec() else {
        return vec!["Match programs are not in a proper list.".to_string()];
    };
    let mut parts = Vec::with_capacity(clauses.len());
    for c in &clauses {
        let Some(t) = c.as_tuple().filter(|t| t.len() == 3) else {
            return vec!["Match program part is not a tuple of arity 3.".to_string()];
        };
        if dialect == Dialect::Trace && t[0].is_list() && t[0].list_to_vec().is_none() {
            return vec![clip(format!(
                "Match expression part {} is not a proper list.",
                erts_text(&t[0])
            ))];
        }
        parts.push(t);
    }
    let mut checker = Checker {
        dialect,
        errors: Vec::new(),
        bound: Vec::new(),
        guard: false,
    };
    for t in parts {
        let went_on = checker.clause(&t[0], &t[1], &t[2]);
        if !went_on || !checker.errors.is_empty() {
            break;
        }
    }
    checker.errors
}

struct Checker {
    dialect: Dialect,
    errors: Vec<String>,
    /// Variables the current clause's head binds.
    bound: Vec<u32>,
    /// In the guard (else in the body).
    guard: bool,
}

impl Checker {
    fn error(&mut self, text: String) {
        self.errors.push(clip(text));
    }

    /// One clause; `false` when the BEAM's compiler gives up at once.
    fn clause(&mut self, head: &Term, guards: &Term, body: &Term) -> bool {
        self.bound.clear();
        if !self.head(head) {
            return false;
        }
        if self.dialect == Dialect::Trace {
            let whole =
                matches!(head, Term::Atom(a) if a.name() == "_" || ms_var(a.name()).is_some());
            if !whole && !matches!(head, Term::Nil | Term::Cons(_) | Term::Tuple(_)) {
                self.error("Match head is invalid in this context.".to_string());
                return false;
            }
        }
        self.guard = true;
        self.exprs(guards);
        self.guard = false;
        if self.dialect == Dialect::Table && !matches!(body, Term::Cons(_)) {
            self.error("Body clause does not return anything.".to_string());
            return false;
        }
        self.exprs(body);
        true
    }

    /// The head's variables; `false` at a variable in a map key.
    fn head(&mut self, t: &Term) -> bool {
        match t {
            Term::Atom(a) => {
                if let Some(n) = ms_var(a.name())
                    && !self.bound.contains(&n)
                {
                    self.bound.push(n);
                }
                true
            }
            Term::Tuple(items) => items.iter().all(|x| self.head(x)),
            Term::Cons(c) => self.head(&c.head) && self.head(&c.tail),
            Term::Map(m) => {
                if m.keys().any(|k| has_variable(&k.0)) {
                    self.error("Variable found in map key.".to_string());
                    return false;
                }
                m.values().all(|v| self.head(v))
            }
            _ => true,
        }
    }

    /// A guard or body list.
    fn exprs(&mut self, l: &Term) {
        match l {
            Term::Nil => {}
            Term::Cons(_) => {
                let mut cur = l;
                while let Term::Cons(c) = cur {
                    self.expr(&c.head);
                    cur = &c.tail;
                }
                if !matches!(cur, Term::Nil) {
                    self.error("Match expression is not a proper list.".to_string());
                }
            }
            _ => self.error("Match expression is not a list.".to_string()),
        }
    }

    fn expr(&mut self, t: &Term) {
        match t {
            Term::Cons(c) => {
                self.expr(&c.head);
                self.expr(&c.tail);
            }
            Term::Tuple(items) => match &items[..] {
                [Term::Tuple(inner)] => inner.iter().rev().for_each(|x| self.expr(x)),
                [Term::Atom(a), ..] if ms_var(a.name()).is_none() => self.call(*a, t, items),
                _ => self.error(format!(
                    "{} is neither a function call, nor a tuple (tuples are written {{{{ ... }}}}).",
                    erts_text(t)
                )),
            },
            Term::Map(m) => {
                let entries: Vec<_> = m.iter().collect();
                entries.iter().rev().for_each(|(_, v)| self.expr(v));
                entries.iter().rev().for_each(|(k, _)| self.expr(&k.0));
            }
            Term::Atom(a) => {
                if let Some(n) = ms_var(a.name())
                    && !self.bound.contains(&n)
                {
                    self.error(format!("Variable ${n} is unbound."));
                }
            }
            _ => {}
        }
    }

    fn call(&mut self, name: Atom, t: &Term, items: &[Term]) {
        let args = &items[1..];
        let n = name.name();
        match n {
            "const" => {
                if args.len() != 1 {
                    self.error(format!(
                        "Special form 'const' called with more than one argument in {}.",
                        erts_text(t)
                    ));
                }
            }
            "and" | "or" | "andalso" | "andthen" | "orelse" => {
                if args.is_empty() {
                    let shown = if n == "andthen" { "andalso" } else { n };
                    self.error(format!(
                        "Special form '{shown}' called without arguments in {}.",
                        erts_text(t)
                    ));
                } else if matches!(n, "and" | "or") {
                    args.iter().rev().for_each(|x| self.expr(x));
                } else {
                    args.iter().for_each(|x| self.expr(x));
                }
            }
            "self" => {
                if !args.is_empty() {
                    self.error(format!(
                        "Special form 'self' called with arguments in {}.",
                        erts_text(t)
                    ));
                }
            }
            _ => {
                if let Some(form) = TRACE_FORMS.iter().find(|f| f.name == n) {
                    self.trace_form(form, t, args);
                } else {
                    self.guard_bif(name, args);
                }
            }
        }
    }

    fn trace_form(&mut self, form: &TraceForm, t: &Term, args: &[Term]) {
        let n = form.name;
        if self.dialect != Dialect::Trace {
            return self.error(format!("Special form '{n}' used in wrong dialect."));
        }
        if self.guard && !form.in_guard {
            return self.error(format!("Special form '{n}' called in guard context."));
        }
        if !form.arities.contains(&args.len()) {
            let what = if form.arities == [0] {
                "with arguments"
            } else {
                "with wrong number of arguments"
            };
            return self.error(format!(
                "Special form '{n}' called {what} in {}.",
                erts_text(t)
            ));
        }
        args.iter().rev().for_each(|x| self.expr(x));
    }

    fn guard_bif(&mut self, name: Atom, args: &[Term]) {
        let arity = args.len();
        let Some(b) = GUARD_BIFS
            .iter()
            .find(|b| b.name == name.name() && b.arity == arity)
        else {
            return self.error(format!(
                "Function {}/{arity} does_not_exist.",
                erts_atom(name.name())
            ));
        };
        let allowed = match (self.dialect, self.guard) {
            (Dialect::Table, _) => b.trace_only.is_none(),
            (Dialect::Trace, true) => b.trace_only != Some(TraceOnly::Body),
            (Dialect::Trace, false) => true,
        };
        if !allowed {
            return self.error(format!(
                "Function {}/{arity} cannot be called in this context.",
                erts_atom(name.name())
            ));
        }
        args.iter().rev().for_each(|x| self.expr(x));
    }
}

/// A special form of the trace dialect.
struct TraceForm {
    name: &'static str,
    /// The numbers of arguments it takes.
    arities: &'static [usize],
    in_guard: bool,
}

const TRACE_FORMS: &[TraceForm] = &[
    TraceForm {
        name: "message",
        arities: &[1],
        in_guard: false,
    },
    TraceForm {
        name: "is_seq_trace",
        arities: &[0],
        in_guard: true,
    },
    TraceForm {
        name: "set_seq_token",
        arities: &[2],
        in_guard: false,
    },
    TraceForm {
        name: "get_seq_token",
        arities: &[0],
        in_guard: false,
    },
    TraceForm {
        name: "return_trace",
        arities: &[0],
        in_guard: false,
    },
    TraceForm {
        name: "exception_trace",
        arities: &[0],
        in_guard: false,
    },
    TraceForm {
        name: "display",
        arities: &[1],
        in_guard: false,
    },
    TraceForm {
        name: "process_dump",
        arities: &[0],
        in_guard: false,
    },
    TraceForm {
        name: "enable_trace",
        arities: &[1, 2],
        in_guard: false,
    },
    TraceForm {
        name: "disable_trace",
        arities: &[1, 2],
        in_guard: false,
    },
    TraceForm {
        name: "trace",
        arities: &[2, 3],
        in_guard: false,
    },
    TraceForm {
        name: "caller",
        arities: &[0],
        in_guard: false,
    },
    TraceForm {
        name: "caller_line",
        arities: &[0],
        in_guard: false,
    },
    TraceForm {
        name: "silent",
        arities: &[1],
        in_guard: false,
    },
];

/// Where a trace-only function may be called.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TraceOnly {
    GuardAndBody,
    Body,
}

/// A function a match specification may call (OTP 25's table).
struct GuardBif {
    name: &'static str,
    arity: usize,
    trace_only: Option<TraceOnly>,
}

const fn any(name: &'static str, arity: usize) -> GuardBif {
    GuardBif {
        name,
        arity,
        trace_only: None,
    }
}

const GUARD_BIFS: &[GuardBif] = &[
    any("is_atom", 1),
    any("is_float", 1),
    any("is_integer", 1),
    any("is_list", 1),
    any("is_number", 1),
    any("is_pid", 1),
    any("is_port", 1),
    any("is_reference", 1),
    any("is_tuple", 1),
    any("is_map", 1),
    any("is_binary", 1),
    any("is_function", 1),
    any("is_record", 3),
    any("is_map_key", 2),
    any("abs", 1),
    any("element", 2),
    any("hd", 1),
    any("length", 1),
    any("map_get", 2),
    any("map_size", 1),
    any("node", 0),
    any("node", 1),
    any("round", 1),
    any("size", 1),
    any("bit_size", 1),
    any("byte_size", 1),
    any("binary_part", 2),
    any("binary_part", 3),
    any("tl", 1),
    any("trunc", 1),
    any("float", 1),
    any("+", 1),
    any("-", 1),
    any("+", 2),
    any("-", 2),
    any("*", 2),
    any("/", 2),
    any("div", 2),
    any("rem", 2),
    any("band", 2),
    any("bor", 2),
    any("bxor", 2),
    any("bnot", 1),
    any("bsl", 2),
    any("bsr", 2),
    any(">", 2),
    any(">=", 2),
    any("<", 2),
    any("=<", 2),
    any("==", 2),
    any("=:=", 2),
    any("/=", 2),
    any("=/=", 2),
    any("not", 1),
    any("xor", 2),
    GuardBif {
        name: "get_tcw",
        arity: 0,
        trace_only: Some(TraceOnly::GuardAndBody),
    },
    GuardBif {
        name: "set_tcw",
        arity: 1,
        trace_only: Some(TraceOnly::Body),
    },
    GuardBif {
        name: "set_tcw_fake",
        arity: 1,
        trace_only: Some(TraceOnly::Body),
    },
];

/// Does a head term hold a variable or `'_'`?
fn has_variable(t: &Term) -> bool {
    match t {
        Term::Atom(a) => a.name() == "_" || ms_var(a.name()).is_some(),
        Term::Tuple(items) => items.iter().any(has_variable),
        Term::Cons(c) => has_variable(&c.head) || has_variable(&c.tail),
        _ => false,
    }
}

/// An error text cut where the BEAM's buffer ends.
fn clip(mut s: String) -> String {
    if s.len() > ERROR_CHARS {
        let mut end = ERROR_CHARS;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

/// A term as the emulator's own printer (`%T`) writes it in an error text:
/// `~w` but for floats in C's `%e` form and printable lists as strings.
fn erts_text(t: &Term) -> String {
    let mut out = String::new();
    erts_into(t, &mut out);
    out
}

fn erts_into(t: &Term, out: &mut String) {
    match t {
        Term::Atom(a) => out.push_str(&erts_atom(a.name())),
        Term::Float(f) => out.push_str(&c_exponent(*f)),
        Term::Tuple(items) => {
            out.push('{');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                erts_into(x, out);
            }
            out.push('}');
        }
        Term::Cons(_) => {
            if let Some(s) = printable(t) {
                out.push('"');
                for c in s.chars() {
                    if c == '"' || c == '\\' {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push('"');
                return;
            }
            out.push('[');
            let mut cur = t;
            let mut first = true;
            while let Term::Cons(c) = cur {
                if !first {
                    out.push(',');
                }
                first = false;
                erts_into(&c.head, out);
                cur = &c.tail;
            }
            if !matches!(cur, Term::Nil) {
                out.push('|');
                erts_into(cur, out);
            }
            out.push(']');
        }
        other => out.push_str(&write_term(other)),
    }
}

/// An atom as the emulator's printer writes it: quoted unless it reads as
/// a plain atom (reserved words are not quoted, unlike `~w`).
fn erts_atom(a: &str) -> String {
    let mut chars = a.chars();
    let plain = matches!(chars.next(), Some('a'..='z'))
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@');
    if plain {
        return a.to_string();
    }
    let quoted: Term = Term::atom(a);
    atom_text(quoted.as_atom().expect("an atom"))
}

/// The text of a list of printable Latin-1 characters.
fn printable(t: &Term) -> Option<String> {
    let items = t.list_to_vec()?;
    items
        .iter()
        .map(|x| match x {
            Term::Int(c) if (32..=126).contains(c) => Some(*c as u8 as char),
            _ => None,
        })
        .collect()
}

/// C's `%e`: `1.500000e+00`.
fn c_exponent(f: f64) -> String {
    let s = format!("{f:.6e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", e.abs())
}

/// What a specification runs against.
#[derive(Clone, Copy)]
pub enum Subject<'a> {
    /// A table object (the table dialect).
    Object(&'a Term),
    /// A traced call's arguments (the trace dialect).
    Args(&'a [Term]),
}

/// What a run sees of its surroundings.
pub struct Env {
    /// `{self}`.
    pub self_pid: Term,
    /// The pure BIF `erlang:Name/Arity` a guard calls, if there is one:
    /// the interpreter's (`bif::erlang_pure`), handed in.
    pub pure_bif: GuardBifs,
}

/// Finds the pure BIF `erlang:Name/Arity` (see [`Env::pure_bif`]).
pub type GuardBifs = fn(Atom, u32) -> Option<fn(&[Term]) -> Result<Term, Term>>;

/// A clause matched: its result and what its body asked for.
#[derive(Debug)]
pub struct Outcome {
    /// The table dialect's last body value; the trace dialect's message.
    pub result: Term,
    pub return_trace: bool,
    pub exception_trace: bool,
    /// The terms `{display, T}` printed, in order.
    pub displayed: Vec<Term>,
}

/// Run a checked specification: the first clause that matches, or `None`.
pub fn run(spec: &Term, subject: Subject<'_>, env: &Env) -> Option<Outcome> {
    for clause in spec.list_iter() {
        let Some([head, guards, body]) = clause.as_tuple() else {
            continue;
        };
        let mut binds = Vec::new();
        let matched = match subject {
            Subject::Object(obj) => match_pattern(head, obj, &mut binds),
            Subject::Args(args) => match_args(head, args, &mut binds),
        };
        if !matched {
            continue;
        }
        let mut r = Run {
            env,
            subject,
            binds,
            catch: false,
            outcome: Outcome {
                result: Term::bool(true),
                return_trace: false,
                exception_trace: false,
                displayed: Vec::new(),
            },
        };
        if !guards
            .list_iter()
            .all(|g| matches!(r.eval(g), Ok(Term::Atom(Atom::TRUE))))
        {
            continue;
        }
        r.catch = true;
        for e in body.list_iter() {
            let v = r.eval(e).unwrap_or_else(|()| exit());
            if matches!(subject, Subject::Object(_)) {
                r.outcome.result = v;
            }
        }
        return Some(r.outcome);
    }
    None
}

/// A trace head against the call's arguments: a whole-list variable or
/// `'_'`, or a list (or tuple) of patterns, one per argument.
fn match_args(head: &Term, args: &[Term], binds: &mut Vec<(u32, Term)>) -> bool {
    match head {
        Term::Atom(a) if a.name() == "_" => true,
        Term::Atom(a) if ms_var(a.name()).is_some() => {
            match_pattern(head, &Term::list(args.to_vec()), binds)
        }
        Term::Tuple(items) => {
            items.len() == args.len()
                && items
                    .iter()
                    .zip(args)
                    .all(|(p, x)| match_pattern(p, x, binds))
        }
        _ => match head.list_to_vec() {
            Some(items) => {
                items.len() == args.len()
                    && items
                        .iter()
                        .zip(args)
                        .all(|(p, x)| match_pattern(p, x, binds))
            }
            None => false,
        },
    }
}

fn exit() -> Term {
    Term::atom("EXIT")
}

struct Run<'a> {
    env: &'a Env,
    subject: Subject<'a>,
    binds: Vec<(u32, Term)>,
    /// In the body, where a failed call is `'EXIT'` (in a guard it fails
    /// the clause).
    catch: bool,
    outcome: Outcome,
}

impl Run<'_> {
    fn fail(&self) -> Result<Term, ()> {
        if self.catch { Ok(exit()) } else { Err(()) }
    }

    fn eval(&mut self, e: &Term) -> Result<Term, ()> {
        match e {
            Term::Atom(a) => {
                let n = a.name();
                if n == "$_" {
                    return Ok(match self.subject {
                        Subject::Object(o) => o.clone(),
                        Subject::Args(args) => Term::list(args.to_vec()),
                    });
                }
                if n == "$$" {
                    let mut v = self.binds.clone();
                    v.sort_by_key(|(k, _)| *k);
                    return Ok(Term::list(v.into_iter().map(|(_, t)| t).collect()));
                }
                match ms_var(n) {
                    Some(k) => match self.binds.iter().find(|(x, _)| *x == k) {
                        Some((_, t)) => Ok(t.clone()),
                        None => self.fail(),
                    },
                    None => Ok(e.clone()),
                }
            }
            Term::Cons(c) => {
                let head = self.eval(&c.head)?;
                let tail = self.eval(&c.tail)?;
                Ok(Term::cons(head, tail))
            }
            Term::Map(m) => {
                let mut out = TermMap::new();
                for (k, v) in m.iter() {
                    let k = self.eval(&k.0)?;
                    let v = self.eval(v)?;
                    out.insert(crate::term::MapKey(k), v);
                }
                Ok(Term::Map(std::sync::Arc::new(out)))
            }
            Term::Tuple(items) => match &items[..] {
                [Term::Tuple(inner)] => {
                    let v: Result<Vec<Term>, ()> = inner.iter().map(|x| self.eval(x)).collect();
                    Ok(Term::tuple(v?))
                }
                [Term::Atom(f), args @ ..] => self.call(*f, args),
                _ => Ok(e.clone()),
            },
            _ => Ok(e.clone()),
        }
    }

    fn eval_all(&mut self, args: &[Term]) -> Result<Vec<Term>, ()> {
        args.iter().map(|x| self.eval(x)).collect()
    }

    fn call(&mut self, f: Atom, args: &[Term]) -> Result<Term, ()> {
        match f.name() {
            "const" => Ok(args[0].clone()),
            "and" | "or" => {
                let want = f.name() == "or";
                let mut seen = !want;
                for v in self.eval_all(args)? {
                    match v {
                        Term::Atom(Atom::TRUE) if want => seen = true,
                        Term::Atom(Atom::FALSE) if !want => seen = false,
                        Term::Atom(Atom::TRUE | Atom::FALSE) => {}
                        _ => return self.fail(),
                    }
                }
                Ok(Term::bool(seen))
            }
            "andalso" | "andthen" | "orelse" => {
                // `andalso` goes on past `true`, `orelse` past `false`.
                let go_on = f.name() != "orelse";
                let (last, first) = args.split_last().expect("checked: has arguments");
                for x in first {
                    match self.eval(x)? {
                        Term::Atom(a) if a == Atom::bool(go_on) => {}
                        Term::Atom(a) if a == Atom::bool(!go_on) => return Ok(Term::Atom(a)),
                        _ => return self.fail(),
                    }
                }
                self.eval(last)
            }
            "self" => Ok(self.env.self_pid.clone()),
            "message" => {
                let v = self.eval(&args[0])?;
                self.outcome.result = v;
                Ok(Term::bool(true))
            }
            "return_trace" => {
                self.outcome.return_trace = true;
                Ok(Term::bool(true))
            }
            "exception_trace" => {
                self.outcome.exception_trace = true;
                Ok(Term::bool(true))
            }
            "display" => {
                let v = self.eval(&args[0])?;
                self.outcome.displayed.push(v);
                Ok(Term::bool(true))
            }
            "is_seq_trace" => Ok(Term::bool(false)),
            "get_seq_token" => Ok(Term::Nil),
            "set_seq_token" => {
                self.eval_all(args)?;
                Ok(Term::Nil)
            }
            "enable_trace" | "disable_trace" | "silent" => {
                self.eval_all(args)?;
                Ok(Term::bool(true))
            }
            "trace" => {
                self.eval_all(args)?;
                Ok(Term::bool(false))
            }
            "caller" | "caller_line" => Ok(Term::undefined()),
            "process_dump" => Ok(Term::binary(
                format!(
                    "racewit: no process dump of {}\n",
                    write_term(&self.env.self_pid)
                )
                .into_bytes(),
            )),
            "get_tcw" => Ok(Term::Int(0)),
            "set_tcw" | "set_tcw_fake" => match self.eval(&args[0])? {
                Term::Int(n) if (0..=i64::from(u32::MAX)).contains(&n) => Ok(Term::Int(0)),
                _ => self.fail(),
            },
            name => {
                let vals = self.eval_all(args)?;
                match apply(self.env.pure_bif, f, name, &vals) {
                    Ok(v) => Ok(v),
                    Err(()) => self.fail(),
                }
            }
        }
    }
}

/// A guard function of [`GUARD_BIFS`] on evaluated arguments.
fn apply(pure_bif: GuardBifs, f: Atom, name: &str, args: &[Term]) -> Result<Term, ()> {
    let binop = match name {
        "+" => Some(BinOp::Add),
        "-" => Some(BinOp::Sub),
        "*" => Some(BinOp::Mul),
        "/" => Some(BinOp::FDiv),
        "div" => Some(BinOp::Div),
        "rem" => Some(BinOp::Rem),
        "band" => Some(BinOp::Band),
        "bor" => Some(BinOp::Bor),
        "bxor" => Some(BinOp::Bxor),
        "bsl" => Some(BinOp::Bsl),
        "bsr" => Some(BinOp::Bsr),
        ">" => Some(BinOp::Greater),
        "<" => Some(BinOp::Less),
        ">=" => Some(BinOp::GreaterEq),
        "=<" => Some(BinOp::LessEq),
        "==" => Some(BinOp::Eq),
        "/=" => Some(BinOp::NotEq),
        "=:=" => Some(BinOp::ExactEq),
        "=/=" => Some(BinOp::ExactNotEq),
        "xor" => Some(BinOp::Xor),
        _ => None,
    };
    if let (Some(op), [a, b]) = (binop, args) {
        return arith::binop(op, a, b).map_err(|_| ());
    }
    let unop = match name {
        "-" => Some(UnOp::Neg),
        "+" => Some(UnOp::Plus),
        "not" => Some(UnOp::Not),
        "bnot" => Some(UnOp::Bnot),
        _ => None,
    };
    if let (Some(op), [a]) = (unop, args) {
        return arith::unop(op, a).map_err(|_| ());
    }
    match pure_bif(f, args.len() as u32) {
        Some(p) => p(args).map_err(|_| ()),
        None => Err(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(clauses: Vec<Term>) -> Term {
        Term::list(clauses)
    }

    #[test]
    fn errors_are_worded_and_ordered_as_the_beam() {
        // [{{'$1','$2'}, [{'>','$9','$8'}], [{{'$7','$6'}}]}]
        let s = spec(vec![Term::tuple(vec![
            Term::tuple(vec![Term::atom("$1"), Term::atom("$2")]),
            Term::list(vec![Term::tuple(vec![
                Term::atom(">"),
                Term::atom("$9"),
                Term::atom("$8"),
            ])]),
            Term::list(vec![Term::tuple(vec![Term::tuple(vec![
                Term::atom("$7"),
                Term::atom("$6"),
            ])])]),
        ])]);
        assert_eq!(
            check(&s, Dialect::Table),
            [
                "Variable $8 is unbound.",
                "Variable $9 is unbound.",
                "Variable $6 is unbound.",
                "Variable $7 is unbound."
            ]
        );
    }

    #[test]
    fn long_error_texts_are_cut_as_the_beam_cuts_them() {
        let call = Term::tuple(vec![
            Term::atom("message"),
            Term::string("ab"),
            Term::Float(1.5),
            Term::binary(vec![1, 2]),
            Term::Int(-3),
            Term::atom("a_long_atom_to_pass_the_end"),
        ]);
        let s = spec(vec![Term::tuple(vec![
            Term::atom("_"),
            Term::Nil,
            Term::list(vec![call]),
        ])]);
        assert_eq!(
            check(&s, Dialect::Trace),
            [
                "Special form 'message' called with wrong number of arguments in {message,\"ab\",1.500000e+00,<<1,2>>,"
            ]
        );
    }

    #[test]
    fn a_body_call_that_fails_is_exit_where_it_failed() {
        // [{{'$1'}, [], [{{{'+', '$1', 1}, ok}}]}] against {a}
        let s = spec(vec![Term::tuple(vec![
            Term::tuple(vec![Term::atom("$1")]),
            Term::Nil,
            Term::list(vec![Term::tuple(vec![Term::tuple(vec![
                Term::tuple(vec![Term::atom("+"), Term::atom("$1"), Term::Int(1)]),
                Term::atom("ok"),
            ])])]),
        ])]);
        assert!(check(&s, Dialect::Table).is_empty());
        let env = Env {
            self_pid: Term::atom("self"),
            pure_bif: |_, _| None,
        };
        let obj = Term::tuple(vec![Term::atom("a")]);
        let out = run(&s, Subject::Object(&obj), &env).expect("matches");
        assert_eq!(write_term(&out.result), "{'EXIT',ok}");
    }
}
