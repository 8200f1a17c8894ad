//! Abstract format back to source text: the terms `erl_parse` and
//! `erl_syntax:revert/1` make (`{attribute, A, module, M}`, `{function, A,
//! Name, Arity, Clauses}`, every expression form) written out as the
//! Erlang they stand for. `compile:forms/1,2` hands the text to the syntax
//! crate, which lowers it as it lowers any source file: this module only
//! prints, every semantic rule stays in the one lowering.
//!
//! Type declarations and specs (`type`, `opaque`, `spec`, `callback`,
//! `export_type`) and `file` attributes are left out: nothing runs them.
//! A form or expression the printer does not know is a [`FormError`] that
//! names it; it is never skipped.

use crate::atom::Atom;
use crate::format::{atom_text, brief, format_float, string_text};
use crate::term::Term;

/// A module's forms as source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormsSource {
    /// What its `-module` attribute names.
    pub module: Atom,
    pub text: String,
}

/// Why forms could not be written out: the line of the form (from its
/// annotation, when it has one) and what was met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormError {
    pub line: Option<i64>,
    pub what: String,
    /// The node is valid abstract format of a construct racewit does not
    /// write out (`maybe`, map comprehensions): the BEAM may well compile
    /// it, so the caller must not answer that the forms are bad.
    pub unsupported: bool,
}

type R<T> = Result<T, FormError>;

/// `forms` (a list of abstract forms) as the text of one module.
pub fn forms_to_source(forms: &Term) -> R<FormsSource> {
    let Some(items) = forms.list_to_vec() else {
        return Err(err(None, format!("not a list of forms: {}", brief(forms))));
    };
    let mut p = Printer::default();
    let mut module = None;
    for form in &items {
        if let Some(m) = p.form(form)? {
            module.get_or_insert(m);
        }
    }
    match module {
        Some(module) => Ok(FormsSource {
            module,
            text: p.out,
        }),
        None => Err(err(None, "no module attribute among the forms".into())),
    }
}

fn err(line: Option<i64>, what: String) -> FormError {
    FormError {
        line,
        what,
        unsupported: false,
    }
}

/// The line an annotation names: `Line`, `{Line, Column}`, or a list
/// holding `{location, ...}`.
fn anno_line(anno: &Term) -> Option<i64> {
    match anno {
        Term::Int(l) => Some(*l),
        Term::Tuple(t) if t.len() == 2 => t[0].as_int(),
        Term::Cons(_) => anno.list_iter().find_map(|kv| match kv.as_tuple() {
            Some([k, v]) if k.is_atom(Atom::new("location")) => anno_line(v),
            _ => None,
        }),
        _ => None,
    }
}

/// The tag and the fields after it of a node `{Tag, Anno, ...}`.
fn node(t: &Term) -> Option<(&str, &[Term])> {
    let items = t.as_tuple()?;
    let tag = items.first()?.as_atom()?;
    Some((tag.name(), &items[1..]))
}

fn line_of(t: &Term) -> Option<i64> {
    node(t).and_then(|(_, f)| f.first()).and_then(anno_line)
}

fn unknown(kind: &str, t: &Term) -> FormError {
    FormError {
        line: line_of(t),
        what: format!("{kind} racewit cannot compile: {}", brief(t)),
        unsupported: node(t).is_some_and(|(tag, _)| UNWRITTEN.contains(&tag)),
    }
}

/// Tags of `erl_parse`'s abstract format (OTP 25 and 26) that the printer
/// does not write out.
const UNWRITTEN: &[&str] = &["maybe", "maybe_match", "else", "mc", "m_generate"];

#[derive(Default)]
struct Printer {
    out: String,
}

impl Printer {
    /// One form; the module's name when it is the `module` attribute.
    fn form(&mut self, f: &Term) -> R<Option<Atom>> {
        let Some((tag, fields)) = node(f) else {
            return Err(unknown("a form", f));
        };
        match (tag, fields) {
            ("attribute", [_, name, value]) => self.attribute(f, name, value),
            ("function", [_, name, arity, clauses]) => {
                let (Some(name), Some(_)) = (name.as_atom(), arity.as_int()) else {
                    return Err(unknown("a function form", f));
                };
                let clauses = list(clauses, f)?;
                if clauses.is_empty() {
                    return Err(unknown("a function with no clauses", f));
                }
                for (i, c) in clauses.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(";\n");
                    }
                    self.out.push_str(&atom_text(name));
                    self.clause(c, ClauseKind::Function)?;
                }
                self.out.push_str(".\n");
                Ok(None)
            }
            ("eof", _) => Ok(None),
            ("error" | "warning", [info]) => Err(err(
                info.as_tuple().and_then(|t| t.first()).and_then(anno_line),
                format!("the forms hold an {tag}: {}", brief(info)),
            )),
            _ => Err(unknown("a form", f)),
        }
    }

    fn attribute(&mut self, f: &Term, name: &Term, value: &Term) -> R<Option<Atom>> {
        let Some(name) = name.as_atom() else {
            return Err(unknown("an attribute", f));
        };
        match name.name() {
            "module" => {
                let Some(m) = value.as_atom() else {
                    return Err(unknown("a module attribute", f));
                };
                self.out.push_str(&format!("-module({}).\n", atom_text(m)));
                Ok(Some(m))
            }
            "export" => {
                let fas = function_list(value, f)?;
                self.out.push_str(&format!("-export([{fas}]).\n"));
                Ok(None)
            }
            "import" => match value.as_tuple() {
                Some([m, fs]) if m.as_atom().is_some() => {
                    let fas = function_list(fs, f)?;
                    self.out
                        .push_str(&format!("-import({}, [{fas}]).\n", brief(m)));
                    Ok(None)
                }
                _ => Err(unknown("an import attribute", f)),
            },
            "record" => {
                let Some([rname, fields]) = value.as_tuple() else {
                    return Err(unknown("a record attribute", f));
                };
                let Some(rname) = rname.as_atom() else {
                    return Err(unknown("a record attribute", f));
                };
                let mut parts = Vec::new();
                for field in list(fields, f)? {
                    let field = match node(&field) {
                        Some(("typed_record_field", [rf, _type])) => rf.clone(),
                        _ => field,
                    };
                    match node(&field) {
                        Some(("record_field", [_, n])) => parts.push(self.sub(n)?),
                        Some(("record_field", [_, n, e])) => {
                            parts.push(format!("{} = {}", self.sub(n)?, self.sub(e)?))
                        }
                        _ => return Err(unknown("a record field", &field)),
                    }
                }
                self.out.push_str(&format!(
                    "-record({}, {{{}}}).\n",
                    atom_text(rname),
                    parts.join(", ")
                ));
                Ok(None)
            }
            // Types and specs never run; nor does a file attribute.
            "type" | "opaque" | "spec" | "callback" | "export_type" | "optional_callbacks"
            | "file" => Ok(None),
            _ => {
                if !plain_term(value) {
                    return Err(unknown("an attribute", f));
                }
                self.out.push_str(&format!(
                    "-{}({}).\n",
                    atom_text(name),
                    crate::format::write_term(value)
                ));
                Ok(None)
            }
        }
    }

    /// `e` printed on its own (a sub-expression).
    fn sub(&mut self, e: &Term) -> R<String> {
        let mut inner = Printer::default();
        inner.expr(e)?;
        Ok(inner.out)
    }

    fn clause(&mut self, c: &Term, kind: ClauseKind) -> R<()> {
        let Some(("clause", [_, pats, guards, body])) = node(c) else {
            return Err(unknown("a clause", c));
        };
        let pats = list(pats, c)?;
        match kind {
            ClauseKind::Function | ClauseKind::Fun => {
                self.out.push('(');
                self.seq(&pats, ", ")?;
                self.out.push(')');
            }
            ClauseKind::Case => match pats.as_slice() {
                [p] => self.expr(p)?,
                _ => return Err(unknown("a case clause", c)),
            },
            ClauseKind::Catch => match pats.as_slice() {
                [p] => self.catch_pattern(p)?,
                _ => return Err(unknown("a catch clause", c)),
            },
            ClauseKind::If => {
                if !pats.is_empty() {
                    return Err(unknown("an if clause", c));
                }
            }
        }
        let guards = list(guards, c)?;
        if !guards.is_empty() {
            self.out
                .push_str(if kind == ClauseKind::If { "" } else { " when " });
            for (i, g) in guards.iter().enumerate() {
                if i > 0 {
                    self.out.push_str("; ");
                }
                self.seq(&list(g, c)?, ", ")?;
            }
        } else if kind == ClauseKind::If {
            return Err(unknown("an if clause with no guard", c));
        }
        self.out.push_str(" ->\n    ");
        self.body(body, c)
    }

    /// `Class:Reason:Stack` of a `try ... catch` clause.
    fn catch_pattern(&mut self, p: &Term) -> R<()> {
        match node(p) {
            Some(("tuple", [_, parts])) => {
                let parts = list(parts, p)?;
                let [class, reason, stack] = parts.as_slice() else {
                    return Err(unknown("a catch pattern", p));
                };
                self.expr(class)?;
                self.out.push(':');
                self.expr(reason)?;
                if !matches!(node(stack), Some(("var", [_, v])) if v.is_atom(Atom::new("_"))) {
                    self.out.push(':');
                    self.expr(stack)?;
                }
                Ok(())
            }
            _ => Err(unknown("a catch pattern", p)),
        }
    }

    fn body(&mut self, body: &Term, at: &Term) -> R<()> {
        let exprs = list(body, at)?;
        if exprs.is_empty() {
            return Err(unknown("an empty body", at));
        }
        self.seq(&exprs, ",\n    ")
    }

    fn seq(&mut self, items: &[Term], sep: &str) -> R<()> {
        for (i, e) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(sep);
            }
            self.expr(e)?;
        }
        Ok(())
    }

    fn clauses(&mut self, cs: &Term, at: &Term, kind: ClauseKind) -> R<()> {
        for (i, c) in list(cs, at)?.iter().enumerate() {
            if i > 0 {
                self.out.push_str(";\n");
            }
            self.clause(c, kind)?;
        }
        Ok(())
    }

    /// An expression, pattern or guard test (they share the abstract format).
    fn expr(&mut self, e: &Term) -> R<()> {
        let Some((tag, f)) = node(e) else {
            return Err(unknown("an expression", e));
        };
        match (tag, f) {
            ("var", [_, v]) => match v.as_atom() {
                Some(v) => self.out.push_str(v.name()),
                None => return Err(unknown("a variable", e)),
            },
            ("integer" | "char", [_, v]) if v.is_integer() => {
                self.out.push_str(&crate::format::write_term(v))
            }
            ("float", [_, Term::Float(x)]) => self.out.push_str(&format_float(*x)),
            ("atom", [_, Term::Atom(a)]) => self.out.push_str(&atom_text(*a)),
            ("string", [_, s]) => {
                let chars: Option<Vec<u32>> = s
                    .list_iter()
                    .map(|c| c.as_int().and_then(|c| u32::try_from(c).ok()))
                    .collect();
                match chars {
                    Some(chars) if s.is_list() => self.out.push_str(&string_text(&chars)),
                    _ => return Err(unknown("a string", e)),
                }
            }
            ("nil", [_]) => self.out.push_str("[]"),
            ("cons", [_, _, _]) => {
                self.out.push('[');
                let mut at = e;
                let mut first = true;
                loop {
                    match node(at) {
                        Some(("cons", [_, h, t])) => {
                            if !first {
                                self.out.push_str(", ");
                            }
                            first = false;
                            self.expr(h)?;
                            at = t;
                        }
                        Some(("nil", [_])) => break,
                        _ => {
                            self.out.push_str(" | ");
                            self.expr(at)?;
                            break;
                        }
                    }
                }
                self.out.push(']');
            }
            ("tuple", [_, items]) => {
                self.out.push('{');
                self.seq(&list(items, e)?, ", ")?;
                self.out.push('}');
            }
            ("map", [_, assocs]) => self.map(None, assocs, e)?,
            ("map", [_, base, assocs]) => self.map(Some(base), assocs, e)?,
            ("bin", [_, elems]) => {
                self.out.push_str("<<");
                for (i, el) in list(elems, e)?.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.bin_element(el)?;
                }
                self.out.push_str(">>");
            }
            ("match", [_, p, v]) => {
                self.out.push('(');
                self.expr(p)?;
                self.out.push_str(" = ");
                self.expr(v)?;
                self.out.push(')');
            }
            ("op", [_, Term::Atom(op), l, r]) => {
                self.out.push('(');
                self.expr(l)?;
                self.out.push_str(&format!(" {} ", op.name()));
                self.expr(r)?;
                self.out.push(')');
            }
            ("op", [_, Term::Atom(op), x]) => {
                self.out.push_str(&format!("({} ", op.name()));
                self.expr(x)?;
                self.out.push(')');
            }
            ("record", [_, Term::Atom(name), fields]) => {
                self.out.push_str(&format!("#{}", atom_text(*name)));
                self.record_fields(fields, e)?;
            }
            ("record", [_, base, Term::Atom(name), fields]) => {
                self.paren(base)?;
                self.out.push_str(&format!("#{}", atom_text(*name)));
                self.record_fields(fields, e)?;
            }
            ("record_field", [_, base, Term::Atom(name), field]) => {
                self.paren(base)?;
                self.out.push_str(&format!("#{}.", atom_text(*name)));
                self.expr(field)?;
            }
            ("record_index", [_, Term::Atom(name), field]) => {
                self.out.push_str(&format!("#{}.", atom_text(*name)));
                self.expr(field)?;
            }
            ("block", [_, body]) => {
                self.out.push_str("begin\n    ");
                self.body(body, e)?;
                self.out.push_str("\nend");
            }
            ("case", [_, x, cs]) => {
                self.out.push_str("case ");
                self.expr(x)?;
                self.out.push_str(" of\n");
                self.clauses(cs, e, ClauseKind::Case)?;
                self.out.push_str("\nend");
            }
            ("if", [_, cs]) => {
                self.out.push_str("if\n");
                self.clauses(cs, e, ClauseKind::If)?;
                self.out.push_str("\nend");
            }
            ("receive", [_, cs]) => {
                self.out.push_str("receive\n");
                self.clauses(cs, e, ClauseKind::Case)?;
                self.out.push_str("\nend");
            }
            ("receive", [_, cs, timeout, after]) => {
                self.out.push_str("receive\n");
                self.clauses(cs, e, ClauseKind::Case)?;
                self.out.push_str("\nafter ");
                self.expr(timeout)?;
                self.out.push_str(" ->\n    ");
                self.body(after, e)?;
                self.out.push_str("\nend");
            }
            ("try", [_, body, cs, handlers, after]) => {
                self.out.push_str("try\n    ");
                self.body(body, e)?;
                if !list(cs, e)?.is_empty() {
                    self.out.push_str("\nof\n");
                    self.clauses(cs, e, ClauseKind::Case)?;
                }
                if !list(handlers, e)?.is_empty() {
                    self.out.push_str("\ncatch\n");
                    self.clauses(handlers, e, ClauseKind::Catch)?;
                }
                if !list(after, e)?.is_empty() {
                    self.out.push_str("\nafter\n    ");
                    self.body(after, e)?;
                }
                self.out.push_str("\nend");
            }
            ("catch", [_, x]) => {
                self.out.push_str("(catch ");
                self.expr(x)?;
                self.out.push(')');
            }
            ("call", [_, callee, args]) => {
                match node(callee) {
                    Some(("remote", [_, m, f])) => {
                        self.callee_part(m)?;
                        self.out.push(':');
                        self.callee_part(f)?;
                    }
                    _ => self.callee_part(callee)?,
                }
                self.out.push('(');
                self.seq(&list(args, e)?, ", ")?;
                self.out.push(')');
            }
            ("lc" | "bc", [_, x, quals]) => {
                let (open, close) = if tag == "lc" {
                    ("[", "]")
                } else {
                    ("<< ", " >>")
                };
                self.out.push_str(open);
                self.expr(x)?;
                self.out.push_str(" || ");
                for (i, q) in list(quals, e)?.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    match node(q) {
                        Some(("generate", [_, p, src])) => {
                            self.expr(p)?;
                            self.out.push_str(" <- ");
                            self.expr(src)?;
                        }
                        Some(("b_generate", [_, p, src])) => {
                            self.expr(p)?;
                            self.out.push_str(" <= ");
                            self.expr(src)?;
                        }
                        _ => self.expr(q)?,
                    }
                }
                self.out.push_str(close);
            }
            ("fun", [_, what]) => self.fun(what, e)?,
            ("named_fun", [_, Term::Atom(name), cs]) => {
                self.out.push_str("fun ");
                for (i, c) in list(cs, e)?.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(";\n    ");
                    }
                    self.out.push_str(name.name());
                    self.clause(c, ClauseKind::Fun)?;
                }
                self.out.push_str("\nend");
            }
            _ => return Err(unknown("an expression", e)),
        }
        Ok(())
    }

    /// A call's module or function: an atom or variable as is, anything
    /// else in parentheses.
    fn callee_part(&mut self, x: &Term) -> R<()> {
        match node(x) {
            Some(("atom" | "var", _)) => self.expr(x),
            _ => self.paren(x),
        }
    }

    fn paren(&mut self, x: &Term) -> R<()> {
        self.out.push('(');
        self.expr(x)?;
        self.out.push(')');
        Ok(())
    }

    fn fun(&mut self, what: &Term, e: &Term) -> R<()> {
        match node(what) {
            Some(("function", [f, n])) => match (f.as_atom(), n.as_int()) {
                (Some(f), Some(n)) => self.out.push_str(&format!("fun {}/{n}", atom_text(f))),
                _ => return Err(unknown("a fun", e)),
            },
            Some(("function", [m, f, n])) => {
                self.out.push_str("fun ");
                for (i, part) in [m, f, n].into_iter().enumerate() {
                    if i > 0 {
                        self.out.push(if i == 1 { ':' } else { '/' });
                    }
                    match part {
                        Term::Atom(a) => self.out.push_str(&atom_text(*a)),
                        Term::Int(k) => self.out.push_str(&k.to_string()),
                        other => self.expr(other)?,
                    }
                }
            }
            Some(("clauses", [cs])) => {
                self.out.push_str("fun ");
                for (i, c) in list(cs, e)?.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(";\n    ");
                    }
                    self.clause(c, ClauseKind::Fun)?;
                }
                self.out.push_str("\nend");
            }
            _ => return Err(unknown("a fun", e)),
        }
        Ok(())
    }

    fn map(&mut self, base: Option<&Term>, assocs: &Term, e: &Term) -> R<()> {
        if let Some(b) = base {
            self.paren(b)?;
        }
        self.out.push_str("#{");
        for (i, a) in list(assocs, e)?.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let (op, k, v) = match node(a) {
                Some(("map_field_assoc", [_, k, v])) => ("=>", k, v),
                Some(("map_field_exact", [_, k, v])) => (":=", k, v),
                _ => return Err(unknown("a map field", a)),
            };
            self.expr(k)?;
            self.out.push_str(&format!(" {op} "));
            self.expr(v)?;
        }
        self.out.push('}');
        Ok(())
    }

    fn record_fields(&mut self, fields: &Term, e: &Term) -> R<()> {
        self.out.push('{');
        for (i, f) in list(fields, e)?.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match node(f) {
                Some(("record_field", [_, name, v])) => {
                    self.expr(name)?;
                    self.out.push_str(" = ");
                    self.expr(v)?;
                }
                _ => return Err(unknown("a record field", f)),
            }
        }
        self.out.push('}');
        Ok(())
    }

    fn bin_element(&mut self, el: &Term) -> R<()> {
        let Some(("bin_element", [_, v, size, types])) = node(el) else {
            return Err(unknown("a binary element", el));
        };
        match node(v) {
            Some(("var" | "integer" | "string" | "char" | "float" | "atom", _)) => self.expr(v)?,
            _ => self.paren(v)?,
        }
        if !size.is_atom(Atom::new("default")) {
            self.out.push(':');
            match node(size) {
                Some(("var" | "integer", _)) => self.expr(size)?,
                _ => self.paren(size)?,
            }
        }
        if !types.is_atom(Atom::new("default")) {
            let mut parts = Vec::new();
            for t in list(types, el)? {
                match &t {
                    Term::Atom(a) => parts.push(a.name().to_string()),
                    t => match t.as_tuple() {
                        Some([Term::Atom(u), Term::Int(n)]) if u.name() == "unit" => {
                            parts.push(format!("unit:{n}"))
                        }
                        _ => return Err(unknown("a binary element type", el)),
                    },
                }
            }
            self.out.push('/');
            self.out.push_str(&parts.join("-"));
        }
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ClauseKind {
    Function,
    Fun,
    Case,
    Catch,
    If,
}

fn list(t: &Term, at: &Term) -> R<Vec<Term>> {
    t.list_to_vec()
        .ok_or_else(|| unknown("a node whose list is not a proper list", at))
}

/// `[f/1, g/2]` from `[{f, 1}, {g, 2}]`.
fn function_list(t: &Term, at: &Term) -> R<String> {
    let mut out = Vec::new();
    for fa in list(t, at)? {
        match fa.as_tuple() {
            Some([Term::Atom(f), Term::Int(n)]) => out.push(format!("{}/{n}", atom_text(*f))),
            _ => return Err(unknown("a function list", at)),
        }
    }
    Ok(out.join(", "))
}

/// Whether `t` is written as a term the parser reads back (no pids,
/// references or funs).
fn plain_term(t: &Term) -> bool {
    match t {
        Term::Pid(_) | Term::Ref(_) | Term::Fun(_) => false,
        Term::Tuple(items) => items.iter().all(plain_term),
        Term::Cons(_) => t.list_iter().all(plain_term) && t.is_list(),
        Term::Map(m) => m.iter().all(|(k, v)| plain_term(&k.0) && plain_term(v)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Term {
        Term::atom(s)
    }
    fn n(tag: &str, rest: Vec<Term>) -> Term {
        let mut v = vec![a(tag), Term::Int(1)];
        v.extend(rest);
        Term::tuple(v)
    }

    #[test]
    fn a_module_prints_as_source() {
        let forms = Term::list(vec![
            n("attribute", vec![a("module"), a("mochiglobal:k")]),
            n(
                "attribute",
                vec![
                    a("export"),
                    Term::list(vec![Term::tuple(vec![a("term"), Term::Int(0)])]),
                ],
            ),
            n(
                "function",
                vec![
                    a("term"),
                    Term::Int(0),
                    Term::list(vec![n(
                        "clause",
                        vec![
                            Term::Nil,
                            Term::Nil,
                            Term::list(vec![n(
                                "tuple",
                                vec![Term::list(vec![
                                    n("integer", vec![Term::Int(-3)]),
                                    n("string", vec![Term::string("a\"b")]),
                                ])],
                            )]),
                        ],
                    )]),
                ],
            ),
            n("eof", vec![]),
        ]);
        let src = forms_to_source(&forms).expect("prints");
        assert_eq!(src.module.name(), "mochiglobal:k");
        assert_eq!(
            src.text,
            "-module('mochiglobal:k').\n-export([term/0]).\nterm() ->\n    {-3, \"a\\\"b\"}.\n"
        );
    }

    #[test]
    fn an_unknown_form_is_named() {
        let forms = Term::list(vec![
            n("attribute", vec![a("module"), a("m")]),
            n("maybe_expr", vec![Term::Nil]),
        ]);
        let e = forms_to_source(&forms).unwrap_err();
        assert_eq!(e.line, Some(1));
        assert!(
            e.what
                .starts_with("a form racewit cannot compile: {maybe_expr,1")
        );
    }
}
