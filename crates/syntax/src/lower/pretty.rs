//! A readable, Erlang-like rendering of the IR, for snapshots and debugging.
//!
//! Conventions: a variable prints as `Name@Id`; a pattern variable that is
//! already bound prints as `^Name@Id`; calls and sends carry their call site
//! as `#N`; funs carry their id and captured variables; a `case` shows its
//! kind when it is not a plain `case` (`case<if>`, `case<boolean>`,
//! `case<record>`).

use std::fmt::Write;

use crate::ir::{
    BinSeg, BinType, Body, CallTarget, CaseKind, ClauseId, ComprehensionKind, Const, Endian, Expr,
    ExprId, Function, GeneratorKind, Literal, MaybeExpr, Module, Pat, PatId, Qualifier, TryExpr,
    VarId,
};

/// The whole module: header, records, attributes, functions, call sites.
pub fn pretty_module(m: &Module) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "-module({}).", m.name);
    let exports: Vec<String> = m.exports.iter().map(|f| f.to_string()).collect();
    let _ = writeln!(out, "-export([{}]).", exports.join(", "));
    for b in &m.behaviours {
        let _ = writeln!(out, "-behaviour({b}).");
    }
    for a in &m.attributes {
        let _ = writeln!(out, "-{}({}).", a.name, pretty_const(&a.value));
    }
    for r in m.records.values() {
        let fields: Vec<&str> = r.fields.iter().map(|f| f.as_str()).collect();
        let _ = writeln!(out, "-record({}, {{{}}}).", r.name, fields.join(", "));
    }
    for f in &m.functions {
        out.push('\n');
        out.push_str(&pretty_function(f));
    }
    if !m.call_sites.is_empty() {
        out.push_str("\n%% call sites\n");
        for (i, s) in m.call_sites.iter().enumerate() {
            let target = s
                .target
                .as_ref()
                .map_or("dynamic".to_string(), |t| t.to_string());
            let _ = writeln!(out, "%% #{i} in {}: {target}", s.function);
        }
    }
    let _ = writeln!(out, "%% funs: {}", m.fun_count);
    out
}

/// One function, all its clauses.
pub fn pretty_function(f: &Function) -> String {
    let p = Printer { body: &f.body };
    let mut out = String::new();
    if f.exported {
        out.push_str("%% exported\n");
    }
    for (i, &c) in f.clauses.iter().enumerate() {
        out.push_str(&f.name);
        p.clause_into(&mut out, c, 0, true);
        out.push_str(if i + 1 == f.clauses.len() {
            ".\n"
        } else {
            ";\n"
        });
    }
    out
}

/// A constant as Erlang source.
pub fn pretty_const(c: &Const) -> String {
    match c {
        Const::Atom(a) => quote_atom(a),
        Const::Int(i) => i.to_string(),
        Const::BigInt(s) => s.clone(),
        Const::Float(f) => format!("{f:?}"),
        Const::String(s) => format!("{s:?}"),
        Const::Nil => "[]".to_string(),
        Const::Cons(..) => {
            let mut items = Vec::new();
            let mut cur = c;
            while let Const::Cons(h, t) = cur {
                items.push(pretty_const(h));
                cur = t;
            }
            match cur {
                Const::Nil => format!("[{}]", items.join(", ")),
                tail => format!("[{} | {}]", items.join(", "), pretty_const(tail)),
            }
        }
        Const::Tuple(v) => {
            let items: Vec<String> = v.iter().map(pretty_const).collect();
            format!("{{{}}}", items.join(", "))
        }
        Const::Binary(b) => {
            let items: Vec<String> = b.iter().map(|x| x.to_string()).collect();
            format!("<<{}>>", items.join(","))
        }
        Const::Map(kv) => {
            let items: Vec<String> = kv
                .iter()
                .map(|(k, v)| format!("{} => {}", pretty_const(k), pretty_const(v)))
                .collect();
            format!("#{{{}}}", items.join(", "))
        }
        Const::FunRef {
            module,
            name,
            arity,
        } => match module {
            Some(m) => format!("fun {m}:{name}/{arity}"),
            None => format!("fun {name}/{arity}"),
        },
        Const::NotConstant => "<not constant>".to_string(),
    }
}

fn quote_atom(a: &str) -> String {
    let plain = a.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@');
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

struct Printer<'b> {
    body: &'b Body,
}

fn indent(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push_str("    ");
    }
}

impl Printer<'_> {
    fn var(&self, v: VarId) -> String {
        let name = self.body.vars.get(v.index()).map_or("?", |n| n.as_str());
        format!("{name}@{}", v.0)
    }

    fn lit(&self, l: &Literal) -> String {
        match l {
            Literal::Atom(a) => quote_atom(a),
            Literal::Int(i) => i.to_string(),
            Literal::BigInt(b) => b.to_string(),
            Literal::Float(f) => format!("{f:?}"),
            Literal::String(s) => format!("{s:?}"),
        }
    }

    /// `(Pats) when Guard -> Body`, the body on the following lines.
    fn clause_into(&self, out: &mut String, c: ClauseId, level: usize, parens: bool) {
        let c = self.body.clause(c);
        let pats: Vec<String> = c.pats.iter().map(|&p| self.pat(p)).collect();
        if parens {
            let _ = write!(out, "({})", pats.join(", "));
        } else {
            out.push_str(&pats.join(", "));
        }
        if !c.guard.is_empty() {
            let alts: Vec<String> = c
                .guard
                .iter()
                .map(|alt| {
                    let tests: Vec<String> = alt.iter().map(|&t| self.expr(t, level + 1)).collect();
                    tests.join(", ")
                })
                .collect();
            let _ = write!(out, " when {}", alts.join("; "));
        }
        out.push_str(" ->\n");
        self.body_into(out, c.body, level + 1);
    }

    /// A clause body: a block prints one expression per line.
    fn body_into(&self, out: &mut String, e: ExprId, level: usize) {
        let items: Vec<ExprId> = match self.body.expr(e) {
            Expr::Block(v) if !v.is_empty() => v.clone(),
            _ => vec![e],
        };
        for (i, &x) in items.iter().enumerate() {
            indent(out, level);
            out.push_str(&self.expr(x, level));
            if i + 1 < items.len() {
                out.push(',');
            }
            out.push('\n');
        }
        // Trim the final newline: callers add separators.
        out.pop();
    }

    fn clauses_block(&self, out: &mut String, clauses: &[ClauseId], level: usize) {
        for (i, &c) in clauses.iter().enumerate() {
            indent(out, level);
            self.clause_into(out, c, level, false);
            if i + 1 < clauses.len() {
                out.push(';');
            }
            out.push('\n');
        }
    }

    fn list(&self, ids: &[ExprId], level: usize) -> String {
        let v: Vec<String> = ids.iter().map(|&e| self.expr(e, level)).collect();
        v.join(", ")
    }

    fn expr(&self, e: ExprId, level: usize) -> String {
        match self.body.expr(e) {
            Expr::Missing => "<missing>".to_string(),
            Expr::Lit(l) => self.lit(l),
            Expr::Var(v) => self.var(*v),
            Expr::Nil => "[]".to_string(),
            Expr::Cons(..) => {
                let mut items = Vec::new();
                let mut cur = e;
                while let Expr::Cons(h, t) = self.body.expr(cur) {
                    items.push(self.expr(*h, level));
                    cur = *t;
                }
                match self.body.expr(cur) {
                    Expr::Nil => format!("[{}]", items.join(", ")),
                    _ => format!("[{} | {}]", items.join(", "), self.expr(cur, level)),
                }
            }
            Expr::Tuple(v) => format!("{{{}}}", self.list(v, level)),
            Expr::Binary(segs) => {
                let v: Vec<String> = segs
                    .iter()
                    .map(|s| self.seg(s, |id| self.expr(id, level)))
                    .collect();
                format!("<<{}>>", v.join(", "))
            }
            Expr::Map { base, fields } => {
                let f: Vec<String> = fields
                    .iter()
                    .map(|f| {
                        let op = if f.exact { ":=" } else { "=>" };
                        format!(
                            "{} {op} {}",
                            self.expr(f.key, level),
                            self.expr(f.value, level)
                        )
                    })
                    .collect();
                let b = base.map_or(String::new(), |b| self.expr(b, level));
                format!("{b}#{{{}}}", f.join(", "))
            }
            Expr::Block(v) => {
                let mut out = "begin\n".to_string();
                self.seq_into(&mut out, v, level + 1);
                indent(&mut out, level);
                out.push_str("end");
                out
            }
            Expr::Match(p, x) => format!("{} = {}", self.pat(*p), self.expr(*x, level)),
            Expr::MaybeMatch(p, x) => format!("{} ?= {}", self.pat(*p), self.expr(*x, level)),
            Expr::Op(op, a, b) => format!(
                "({} {} {})",
                self.expr(*a, level),
                op.erlang_name(),
                self.expr(*b, level)
            ),
            Expr::UnOp(op, a) => format!("({} {})", op.erlang_name(), self.expr(*a, level)),
            Expr::Send { site, to, msg } => format!(
                "#{}({} ! {})",
                site.0,
                self.expr(*to, level),
                self.expr(*msg, level)
            ),
            Expr::Call { site, target, args } => {
                let callee = match &**target {
                    CallTarget::Local { name, arity } => format!("{}/{arity}", quote_atom(name)),
                    CallTarget::Remote { module, function } => {
                        format!(
                            "{}:{}",
                            self.expr(*module, level),
                            self.expr(*function, level)
                        )
                    }
                    CallTarget::Apply { fun } => format!("apply {}", self.expr(*fun, level)),
                };
                format!("#{} {callee}({})", site.0, self.list(args, level))
            }
            Expr::Case { kind, arg, clauses } => {
                let k = match kind {
                    CaseKind::Case => "case",
                    CaseKind::If => "case<if>",
                    CaseKind::Boolean => "case<boolean>",
                    CaseKind::Record => "case<record>",
                };
                let mut out = format!("{k} {} of\n", self.expr(*arg, level));
                self.clauses_block(&mut out, clauses, level + 1);
                indent(&mut out, level);
                out.push_str("end");
                out
            }
            Expr::Receive { clauses, after } => {
                let mut out = "receive\n".to_string();
                self.clauses_block(&mut out, clauses, level + 1);
                if let Some(a) = after {
                    indent(&mut out, level);
                    let _ = writeln!(out, "after {} ->", self.expr(a.timeout, level + 1));
                    self.body_into(&mut out, a.body, level + 1);
                    out.push('\n');
                }
                indent(&mut out, level);
                out.push_str("end");
                out
            }
            Expr::Try(t) => {
                let TryExpr {
                    body,
                    of_clauses,
                    catch_clauses,
                    after,
                } = &**t;
                let mut out = "try\n".to_string();
                self.body_into(&mut out, *body, level + 1);
                out.push('\n');
                if !of_clauses.is_empty() {
                    indent(&mut out, level);
                    out.push_str("of\n");
                    self.clauses_block(&mut out, of_clauses, level + 1);
                }
                if !catch_clauses.is_empty() {
                    indent(&mut out, level);
                    out.push_str("catch\n");
                    for (i, &c) in catch_clauses.iter().enumerate() {
                        indent(&mut out, level + 1);
                        let cl = self.body.clause(c);
                        let pats: Vec<String> = cl.pats.iter().map(|&p| self.pat(p)).collect();
                        out.push_str(&pats.join(":"));
                        if !cl.guard.is_empty() {
                            let alts: Vec<String> = cl
                                .guard
                                .iter()
                                .map(|alt| self.list(alt, level + 2))
                                .collect();
                            let _ = write!(out, " when {}", alts.join("; "));
                        }
                        out.push_str(" ->\n");
                        self.body_into(&mut out, cl.body, level + 2);
                        if i + 1 < catch_clauses.len() {
                            out.push(';');
                        }
                        out.push('\n');
                    }
                }
                if let Some(a) = after {
                    indent(&mut out, level);
                    out.push_str("after\n");
                    self.body_into(&mut out, *a, level + 1);
                    out.push('\n');
                }
                indent(&mut out, level);
                out.push_str("end");
                out
            }
            Expr::Catch(x) => format!("catch {}", self.expr(*x, level)),
            Expr::Fun(f) => {
                let free: Vec<String> = f.free_vars.iter().map(|&v| self.var(v)).collect();
                let name = f
                    .name
                    .map_or(String::new(), |v| format!(" {}", self.var(v)));
                let mut out = format!(
                    "fun<{} /{} captures [{}]>{name}\n",
                    f.id.0,
                    f.arity,
                    free.join(", ")
                );
                for (i, &c) in f.clauses.iter().enumerate() {
                    indent(&mut out, level + 1);
                    self.clause_into(&mut out, c, level + 1, true);
                    if i + 1 < f.clauses.len() {
                        out.push(';');
                    }
                    out.push('\n');
                }
                indent(&mut out, level);
                out.push_str("end");
                out
            }
            Expr::FunRef {
                module,
                name,
                arity,
            } => match module {
                Some(m) => format!(
                    "fun {}:{}/{}",
                    self.expr(*m, level),
                    self.expr(*name, level),
                    self.expr(*arity, level)
                ),
                None => format!(
                    "fun {}/{}",
                    self.expr(*name, level),
                    self.expr(*arity, level)
                ),
            },
            Expr::Comprehension(c) => {
                let (open, close) = match c.kind {
                    ComprehensionKind::List => ("[", "]"),
                    ComprehensionKind::Binary => ("<<", ">>"),
                    ComprehensionKind::Map => ("#{", "}"),
                };
                let body = match (c.kind, self.body.expr(c.body)) {
                    (ComprehensionKind::Map, Expr::Tuple(kv)) if kv.len() == 2 => {
                        format!("{} => {}", self.expr(kv[0], level), self.expr(kv[1], level))
                    }
                    _ => self.expr(c.body, level),
                };
                let quals: Vec<String> = c
                    .qualifiers
                    .iter()
                    .map(|q| match q {
                        Qualifier::Generator {
                            kind,
                            pat,
                            expr,
                            strict,
                        } => self.generator(*kind, *pat, *expr, *strict, level),
                        Qualifier::Zip(gens) => gens
                            .iter()
                            .map(|g| self.generator(g.kind, g.pat, g.expr, g.strict, level))
                            .collect::<Vec<_>>()
                            .join(" && "),
                        Qualifier::Filter(f) => self.expr(*f, level),
                    })
                    .collect();
                format!("{open}{body} || {}{close}", quals.join(", "))
            }
            Expr::Maybe(m) => {
                let MaybeExpr { body, else_clauses } = &**m;
                let mut out = "maybe\n".to_string();
                self.seq_into(&mut out, body, level + 1);
                if let Some(cs) = else_clauses {
                    indent(&mut out, level);
                    out.push_str("else\n");
                    self.clauses_block(&mut out, cs, level + 1);
                }
                indent(&mut out, level);
                out.push_str("end");
                out
            }
        }
    }

    fn seq_into(&self, out: &mut String, items: &[ExprId], level: usize) {
        for (i, &x) in items.iter().enumerate() {
            indent(out, level);
            out.push_str(&self.expr(x, level));
            if i + 1 < items.len() {
                out.push(',');
            }
            out.push('\n');
        }
    }

    fn seg<T: Copy>(&self, s: &BinSeg<T>, value: impl Fn(T) -> String) -> String {
        let mut out = value(s.value);
        if let Some(size) = s.size {
            let _ = write!(out, ":{}", self.expr(size, 0));
        }
        let ty = match s.ty {
            BinType::Integer => "integer",
            BinType::Float => "float",
            BinType::Binary => "binary",
            BinType::Bitstring => "bitstring",
            BinType::Utf8 => "utf8",
            BinType::Utf16 => "utf16",
            BinType::Utf32 => "utf32",
        };
        let mut specs = vec![ty.to_string()];
        if s.signed {
            specs.push("signed".to_string());
        }
        match s.endian {
            Endian::Big => {}
            Endian::Little => specs.push("little".to_string()),
            Endian::Native => specs.push("native".to_string()),
        }
        let default_unit = if s.ty == BinType::Binary { 8 } else { 1 };
        if s.unit != default_unit {
            specs.push(format!("unit:{}", s.unit));
        }
        if specs.len() > 1 || s.ty != BinType::Integer {
            let _ = write!(out, "/{}", specs.join("-"));
        }
        out
    }

    fn generator(
        &self,
        kind: GeneratorKind,
        pat: PatId,
        expr: ExprId,
        strict: bool,
        level: usize,
    ) -> String {
        let arrow = match (kind, strict) {
            (GeneratorKind::Binary, false) => "<=",
            (GeneratorKind::Binary, true) => "<:=",
            (_, false) => "<-",
            (_, true) => "<:-",
        };
        let k = if kind == GeneratorKind::Map {
            "map "
        } else {
            ""
        };
        format!("{k}{} {arrow} {}", self.pat(pat), self.expr(expr, level))
    }

    fn pat(&self, p: PatId) -> String {
        match self.body.pat(p) {
            Pat::Missing => "<missing>".to_string(),
            Pat::Wild => "_".to_string(),
            Pat::Var(v) => self.var(*v),
            Pat::Bound(v) => format!("^{}", self.var(*v)),
            Pat::Lit(l) => self.lit(l),
            Pat::Nil => "[]".to_string(),
            Pat::Cons(..) => {
                let mut items = Vec::new();
                let mut cur = p;
                while let Pat::Cons(h, t) = self.body.pat(cur) {
                    items.push(self.pat(*h));
                    cur = *t;
                }
                match self.body.pat(cur) {
                    Pat::Nil => format!("[{}]", items.join(", ")),
                    _ => format!("[{} | {}]", items.join(", "), self.pat(cur)),
                }
            }
            Pat::Tuple(v) => {
                let items: Vec<String> = v.iter().map(|&p| self.pat(p)).collect();
                format!("{{{}}}", items.join(", "))
            }
            Pat::Map(kv) => {
                let items: Vec<String> = kv
                    .iter()
                    .map(|&(k, v)| format!("{} := {}", self.expr(k, 0), self.pat(v)))
                    .collect();
                format!("#{{{}}}", items.join(", "))
            }
            Pat::Binary(segs) => {
                let v: Vec<String> = segs
                    .iter()
                    .map(|s| self.seg(s, |id| self.pat(id)))
                    .collect();
                format!("<<{}>>", v.join(", "))
            }
            Pat::Alias(a, b) => format!("({} = {})", self.pat(*a), self.pat(*b)),
        }
    }
}
