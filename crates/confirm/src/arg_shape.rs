//! The kind of value a function needs for an argument, read from how its
//! code uses the argument: so that an argument the harness has to make up
//! is at least of the kind the code takes apart (a list where
//! `proplists:get_value/3` reads it, a record where the code reads a field
//! of it), instead of a blind `1`.
//!
//! What counts as use: type tests (`is_list(X)`, `is_record(X, r)`,
//! `is_function(X, 2)`), the patterns of the `case`s and matches the value
//! meets, record field access and update, map update, `element/2`, list
//! operators and generators, calls of standard library functions whose
//! argument kinds are known, the application of a fun, sending to it, and
//! passing it to another function of the program (followed a few calls
//! deep). The first use in the text that says something wins, direct uses
//! before uses through another function.
//!
//! The value made is still made up: [`Need::why`] says which use chose it.

use racewit_syntax::ir::{
    BinOp, Body, CallTarget, CaseKind, ClauseId, Const, Expr, ExprId, Function, Literal, Pat,
    PatId, Program, Qualifier, VarId,
};

use crate::erl_text::{atom, const_term_text};

/// How many calls deep a value passed on is followed.
const DEPTH: u32 = 3;

/// A kind of Erlang value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    List,
    Map,
    Binary,
    Atom,
    Integer,
    Float,
    Boolean,
    Pid,
    /// A tuple of at least this many elements.
    Tuple(usize),
    /// A fun of this arity.
    Fun(u32),
    /// A record: its name and the tuple its declared defaults make.
    Record {
        name: String,
        text: String,
    },
    /// A file name: a string naming a file under the run's own `/tmp`
    /// (which the VM's modelled file system starts empty and lets the
    /// run make files in), where the code passes the value to the
    /// standard library as a file or path name.
    FileName,
    /// A value a pattern accepts, written out.
    Value(String),
}

/// The directory made-up file names are in: the run's own `/tmp`.
const FILE_NAME_ROOT: &str = "/tmp/racewit";

impl Shape {
    /// The value of this shape the harness passes; `worker` (from 0) gives
    /// worker number `worker` a value of its own, where the shape allows
    /// several (`[1]`, `[2]`; `racewit1`, `racewit2`).
    pub(crate) fn text(&self, worker: Option<usize>) -> String {
        let n = worker.map(|w| w + 1);
        match (self, n) {
            (Shape::List, None) => "[]".into(),
            (Shape::List, Some(n)) => format!("[{n}]"),
            (Shape::Map, None) => "#{}".into(),
            (Shape::Map, Some(n)) => format!("#{{racewit => {n}}}"),
            (Shape::Binary, None) => "<<>>".into(),
            (Shape::Binary, Some(n)) => format!("<<\"racewit{n}\">>"),
            (Shape::Atom, None) => "racewit".into(),
            (Shape::Atom, Some(n)) => format!("racewit{n}"),
            (Shape::Integer, None) => "1".into(),
            (Shape::Integer, Some(n)) => n.to_string(),
            (Shape::Float, None) => "1.0".into(),
            (Shape::Float, Some(n)) => format!("{n}.0"),
            (Shape::Boolean, _) => "true".into(),
            (Shape::Pid, _) => "self()".into(),
            (Shape::Tuple(size), _) => format!("{{{}}}", vec!["1"; *size].join(", ")),
            (Shape::Fun(arity), _) => {
                format!("fun({}) -> ok end", vec!["_"; *arity as usize].join(", "))
            }
            (Shape::Record { text, .. }, _) => text.clone(),
            (Shape::FileName, None) => format!("\"{FILE_NAME_ROOT}\""),
            (Shape::FileName, Some(n)) => format!("\"{FILE_NAME_ROOT}{n}\""),
            (Shape::Value(text), _) => text.clone(),
        }
    }

    /// The kind in words, for the verdict's context (`a list`).
    pub(crate) fn describe(&self) -> String {
        match self {
            Shape::List => "a list".into(),
            Shape::Map => "a map".into(),
            Shape::Binary => "a binary".into(),
            Shape::Atom => "an atom".into(),
            Shape::Integer => "an integer".into(),
            Shape::Float => "a float".into(),
            Shape::Boolean => "a boolean".into(),
            Shape::Pid => "a pid".into(),
            Shape::Tuple(n) => format!("a tuple of {n} elements"),
            Shape::Fun(n) => format!("a fun of arity {n}"),
            Shape::Record { name, .. } => format!("a #{name}{{}} record with its defaults"),
            Shape::FileName => "a file name under the run's /tmp".into(),
            Shape::Value(text) => text.clone(),
        }
    }

    /// One word for the kind, for JSON (`list`, `record`, `pattern`).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Shape::List => "list",
            Shape::Map => "map",
            Shape::Binary => "binary",
            Shape::Atom => "atom",
            Shape::Integer => "integer",
            Shape::Float => "float",
            Shape::Boolean => "boolean",
            Shape::Pid => "pid",
            Shape::Tuple(_) => "tuple",
            Shape::Fun(_) => "fun",
            Shape::Record { .. } => "record",
            Shape::FileName => "file_name",
            Shape::Value(_) => "pattern",
        }
    }
}

/// The kind of value an argument needs, and the use that says so
/// (`proplists:get_value/3 at x.erl:12`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Need {
    pub shape: Shape,
    pub why: String,
    /// The calls the value was passed on through to that use, outermost
    /// first (`m:f/2 at x.erl:4`).
    pub through: Vec<String>,
}

impl Need {
    /// The kind and why, in words: `a list: proplists:get_value/3 at
    /// x.erl:12 needs one (passed on through m:opt/3 at x.erl:4)`.
    pub(crate) fn describe(&self) -> String {
        let mut text = format!("{}: {} needs one", self.shape.describe(), self.why);
        if !self.through.is_empty() {
            text.push_str(&format!(
                " (passed on through {})",
                self.through.join(", then ")
            ));
        }
        text
    }
}

/// What the `index`-th argument (from 0) of `m:f/a` needs, from how its
/// clauses use it (the first clause that says something).
pub(crate) fn need_of_arg(
    program: &Program,
    (m, f, a): (&str, &str, u32),
    index: usize,
) -> Option<Need> {
    let mut seen = Vec::new();
    arg_need(program, (m, f, a), index, DEPTH, &mut seen)
}

/// A value a pattern of `func` (in module `m`) accepts, with the variables
/// it binds filled by what the code needs of them (a record pattern's
/// unbound fields by the record's defaults), `1` where nothing tells.
/// `None` for a pattern no value can be written for (a binary).
pub(crate) fn pattern_value(
    program: &Program,
    m: &str,
    func: &Function,
    pat: PatId,
    guard: &[Vec<ExprId>],
) -> Option<String> {
    let mut seen = Vec::new();
    let cx = Cx {
        program,
        m,
        func,
        depth: DEPTH,
    };
    cx.pattern(pat, guard, &mut seen)
}

/// The type a clause's guard gives `var` (`is_atom(V)` → an atom).
pub(crate) fn guard_shape(body: &Body, guard: &[Vec<ExprId>], var: VarId) -> Option<Shape> {
    guard
        .iter()
        .take(1)
        .flatten()
        .find_map(|&g| type_test(body, g, var).map(|(s, _)| s))
}

/// An argument of a function: module, name, arity, position from 0.
type ArgOf = (String, String, u32, usize);

/// Arguments already followed (cycles end there).
type Seen = Vec<ArgOf>;

fn arg_need(
    program: &Program,
    (m, f, a): (&str, &str, u32),
    index: usize,
    depth: u32,
    seen: &mut Seen,
) -> Option<Need> {
    let key = (m.to_string(), f.to_string(), a, index);
    if seen.contains(&key) {
        return None;
    }
    seen.push(key);
    let func = program.function(m, f, a)?;
    let cx = Cx {
        program,
        m,
        func,
        depth,
    };
    func.clauses
        .iter()
        .find_map(|&c| {
            let &pat = func.body.clause(c).pats.get(index)?;
            let var = match func.body.pat(pat) {
                Pat::Var(v) => *v,
                Pat::Alias(x, y) => match (func.body.pat(*x), func.body.pat(*y)) {
                    (Pat::Var(v), _) | (_, Pat::Var(v)) => *v,
                    _ => return None,
                },
                _ => return None,
            };
            cx.var_need(c, var, seen)
        })
        .or_else(|| cx.structure_need(index, seen))
}

/// Stands, in an [`ArgOf`], for the element at the given position of the
/// list a callback module's `init/1` takes (see [`Cx::started_with`]).
const INIT_ELEMENT: &str = "init/1 list element";

/// What the element at `index` of the list `init/1` of `m` takes needs,
/// from the first clause whose argument is a list pattern binding a
/// variable there (`init([Prio, Opts])`).
fn init_element_need(
    program: &Program,
    m: &str,
    index: usize,
    depth: u32,
    seen: &mut Seen,
) -> Option<Need> {
    let key = (m.to_string(), INIT_ELEMENT.to_string(), 1, index);
    if seen.contains(&key) {
        return None;
    }
    seen.push(key);
    let func = program.function(m, "init", 1)?;
    let cx = Cx {
        program,
        m,
        func,
        depth,
    };
    func.clauses.iter().find_map(|&c| {
        let body = &func.body;
        let mut pat = *body.clause(c).pats.first()?;
        for _ in 0..index {
            match body.pat(pat) {
                Pat::Cons(_, tail) => pat = *tail,
                _ => return None,
            }
        }
        let Pat::Cons(head, _) = body.pat(pat) else {
            return None;
        };
        let Pat::Var(var) = body.pat(*head) else {
            return None;
        };
        cx.var_need(c, *var, seen)
    })
}

/// One function being read.
struct Cx<'p> {
    program: &'p Program,
    m: &'p str,
    func: &'p Function,
    /// Calls still to follow.
    depth: u32,
}

impl Cx<'_> {
    fn body(&self) -> &Body {
        &self.func.body
    }

    /// `file.erl:12` of an expression.
    fn at(&self, e: ExprId) -> String {
        let span = self.func.source_map.expr(e);
        let loc = self.program.sources.location(span);
        let file = std::path::Path::new(&loc.file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(loc.file.clone());
        format!("{file}:{}", loc.line)
    }

    /// When no clause binds the argument at `index` to a variable whose
    /// uses tell what it needs, and every clause takes it apart by its
    /// structure (`stanza_name(#{mongoose_acc := true, stanza := #{name :=
    /// Name}})`): a value the first clause's pattern accepts, with its
    /// variables filled as [`pattern_value`] fills them. A clause that takes
    /// anything there (`_`, a variable) or only a constant (`undefined`)
    /// says nothing of the structure the function works on.
    fn structure_need(&self, index: usize, seen: &mut Seen) -> Option<Need> {
        let body = self.body();
        let structured = |p: PatId| {
            let mut p = p;
            while let Pat::Alias(x, y) = body.pat(p) {
                p = if matches!(body.pat(*x), Pat::Var(_)) {
                    *y
                } else {
                    *x
                };
            }
            matches!(body.pat(p), Pat::Map(_) | Pat::Tuple(_) | Pat::Cons(_, _))
        };
        let pats: Vec<(ClauseId, PatId)> = self
            .func
            .clauses
            .iter()
            .filter_map(|&c| body.clause(c).pats.get(index).map(|&p| (c, p)))
            .collect();
        if pats.is_empty() || !pats.iter().all(|&(_, p)| structured(p)) {
            return None;
        }
        let (c, pat) = pats[0];
        let text = self.pattern(pat, &body.clause(c).guard, seen)?;
        Some(Need {
            shape: Shape::Value(text),
            why: format!(
                "the pattern of the clause at {}",
                self.at(body.clause(c).body)
            ),
            through: Vec::new(),
        })
    }

    /// What `var` (bound by a pattern of `clause`) needs, from its uses in
    /// the function's body: direct uses first, in text order, then the
    /// functions it is passed to.
    fn var_need(&self, clause: ClauseId, var: VarId, seen: &mut Seen) -> Option<Need> {
        let body = self.body();
        if let Some(s) = guard_shape(body, &body.clause(clause).guard, var) {
            let why = format!(
                "the guard of the clause at {}",
                self.at(body.clause(clause).body)
            );
            let shape = self.with_defaults(s, seen);
            return Some(Need {
                shape,
                why,
                through: Vec::new(),
            });
        }
        let mut direct: Vec<(u32, Need)> = Vec::new();
        // Each with whether it is a behaviour start (its hop into `init/1`
        // is no call deeper: the start runs `init/1` for its caller).
        let mut passed: Vec<(u32, ArgOf, ExprId, bool)> = Vec::new();
        for i in 0..body.exprs.len() {
            let e = ExprId(i as u32);
            let start = self.func.source_map.expr(e).start;
            if let Some(need) = self.direct_use(e, var, seen) {
                direct.push((start, need));
            } else if let Some(callee) = self.passed_to(e, var) {
                passed.push((start, callee, e, false));
            } else if let Some(init) = self.started_with(e, var) {
                passed.push((start, init, e, true));
            }
        }
        direct.sort_by_key(|(s, _)| *s);
        if let Some((_, need)) = direct.into_iter().next() {
            return Some(need);
        }
        if self.depth == 0 {
            return None;
        }
        passed.sort_by_key(|(s, _, _, _)| *s);
        passed
            .into_iter()
            .find_map(|(_, (cm, cf, ca, i), e, start)| {
                let depth = if start { self.depth } else { self.depth - 1 };
                let inner = if cf == INIT_ELEMENT {
                    init_element_need(self.program, &cm, i, depth, seen)?
                } else {
                    arg_need(self.program, (&cm, &cf, ca), i, depth, seen)?
                };
                let cf = if cf == INIT_ELEMENT { "init" } else { &cf };
                let mut through = vec![format!("{cm}:{cf}/{ca} at {}", self.at(e))];
                through.extend(inner.through);
                Some(Need {
                    shape: inner.shape,
                    why: inner.why,
                    through,
                })
            })
    }

    /// What expression `e` needs of `var`, when it uses it directly.
    fn direct_use(&self, e: ExprId, var: VarId, seen: &mut Seen) -> Option<Need> {
        let body = self.body();
        let is_var = |x: ExprId| matches!(body.expr(x), Expr::Var(v) if *v == var);
        let need = |shape: Shape, what: String| {
            Some(Need {
                shape,
                why: format!("{what} at {}", self.at(e)),
                through: Vec::new(),
            })
        };
        match body.expr(e) {
            Expr::Call { target, args, .. }
                if let CallTarget::Remote { module, function } = &**target =>
            {
                let (Expr::Lit(Literal::Atom(cm)), Expr::Lit(Literal::Atom(cf))) =
                    (body.expr(*module), body.expr(*function))
                else {
                    // `V:f(...)`: a module name.
                    return if is_var(*module) {
                        need(Shape::Atom, "a call with it as the module".into())
                    } else {
                        None
                    };
                };
                if cm == "erlang"
                    && let Some((shape, what)) = type_test(body, e, var)
                {
                    return need(self.with_defaults(shape, seen), what);
                }
                // An element of the argument list of a formatted print
                // needs what its directive prints (`~ts`: text).
                if let Some(at) = format_args_at(cm, cf, args.len())
                    && let Expr::Lit(Literal::String(fmt)) = body.expr(args[at - 1])
                    && let Some(k) = list_position(body, args[at], var)
                {
                    let shape = directive_shape(fmt, k)?;
                    return need(
                        shape,
                        format!(
                            "the `{}` at {cm}:{cf}/{}",
                            directive_text(fmt, k)?,
                            args.len()
                        ),
                    );
                }
                let pos = args.iter().position(|&x| is_var(x))?;
                let int_arg = |k: usize| match args.get(k).map(|&x| body.expr(x)) {
                    Some(Expr::Lit(Literal::Int(n))) if *n > 0 => Some(*n as usize),
                    _ => None,
                };
                let shape = match (cm.as_str(), cf.as_str(), args.len(), pos) {
                    ("erlang", "element", 2, 1) => Shape::Tuple(int_arg(0).unwrap_or(1)),
                    ("erlang", "setelement", 3, 1) => Shape::Tuple(int_arg(0).unwrap_or(1)),
                    _ => stdlib_shape(cm, cf, args.len(), pos)?,
                };
                need(shape, format!("{cm}:{cf}/{}", args.len()))
            }
            Expr::Call { target, args, .. }
                if let CallTarget::Apply { fun } = &**target
                    && is_var(*fun) =>
            {
                need(
                    Shape::Fun(args.len() as u32),
                    format!(
                        "the call of it with {} argument{}",
                        args.len(),
                        if args.len() == 1 { "" } else { "s" }
                    ),
                )
            }
            Expr::Send { to, .. } if is_var(*to) => need(Shape::Pid, "the send to it".into()),
            Expr::Op(BinOp::Append, l, _) if is_var(*l) => need(Shape::List, "`++`".into()),
            Expr::Op(BinOp::Subtract, l, r) if is_var(*l) || is_var(*r) => {
                need(Shape::List, "`--`".into())
            }
            Expr::Map { base: Some(b), .. } if is_var(*b) => {
                need(Shape::Map, "the map update".into())
            }
            Expr::Comprehension(c) => c.qualifiers.iter().find_map(|q| match q {
                Qualifier::Generator { kind, expr, .. } if is_var(*expr) => {
                    let shape = match kind {
                        racewit_syntax::ir::GeneratorKind::List => Shape::List,
                        racewit_syntax::ir::GeneratorKind::Binary => Shape::Binary,
                        racewit_syntax::ir::GeneratorKind::Map => Shape::Map,
                    };
                    need(shape, "the generator".into())
                }
                _ => None,
            }),
            Expr::Case { kind, arg, clauses } if is_var(*arg) => match kind {
                CaseKind::Record => {
                    let name = clauses.iter().find_map(|&c| {
                        let &p = body.clause(c).pats.first()?;
                        record_tag(body, p)
                    })?;
                    let text = self.record_text(&name, None, seen)?;
                    need(
                        Shape::Record { name, text },
                        "the record field access".into(),
                    )
                }
                CaseKind::Case => {
                    // A clause that takes anything: nothing is needed.
                    let open = clauses.iter().any(|&c| {
                        let cl = body.clause(c);
                        cl.guard.is_empty()
                            && cl
                                .pats
                                .first()
                                .is_some_and(|&p| matches!(body.pat(p), Pat::Var(_) | Pat::Wild))
                    });
                    if open {
                        return None;
                    }
                    let value = clauses.iter().find_map(|&c| {
                        let cl = body.clause(c);
                        self.pattern(*cl.pats.first()?, &cl.guard, seen)
                    })?;
                    need(Shape::Value(value), "the `case`".into())
                }
                CaseKind::If | CaseKind::Boolean => None,
            },
            Expr::Match(p, rhs) if is_var(*rhs) => {
                if matches!(body.pat(*p), Pat::Var(_) | Pat::Wild) {
                    return None;
                }
                let value = self.pattern(*p, &[], seen)?;
                need(Shape::Value(value), "the match".into())
            }
            _ => None,
        }
    }

    /// A record shape with the record's declared defaults, when this
    /// module defines it.
    fn with_defaults(&self, shape: Shape, seen: &mut Seen) -> Shape {
        match shape {
            Shape::Record { name, text } => {
                let text = self.record_text(&name, None, seen).unwrap_or(text);
                Shape::Record { name, text }
            }
            s => s,
        }
    }

    /// The function (and argument position) `e` passes `var` to, when `e`
    /// is a call of a function of the program named statically.
    fn passed_to(&self, e: ExprId, var: VarId) -> Option<ArgOf> {
        let body = self.body();
        let Expr::Call { target, args, .. } = body.expr(e) else {
            return None;
        };
        let pos = args
            .iter()
            .position(|&x| matches!(body.expr(x), Expr::Var(v) if *v == var))?;
        let (cm, cf) = match &**target {
            CallTarget::Local { name, .. } => (self.m.to_string(), name.to_string()),
            CallTarget::Remote { module, function } => {
                match (body.expr(*module), body.expr(*function)) {
                    (Expr::Lit(Literal::Atom(m)), Expr::Lit(Literal::Atom(f))) => {
                        (m.to_string(), f.to_string())
                    }
                    _ => return None,
                }
            }
            CallTarget::Apply { .. } => return None,
        };
        let arity = args.len() as u32;
        self.program.function(&cm, &cf, arity)?;
        Some((cm, cf, arity, pos))
    }

    /// The callback module's `init/1` that `e` starts with `var` among
    /// its arguments, when `e` is a behaviour start naming the module
    /// (`gen_server:start_link({local, N}, Mod, [A, B], Opts)`): `init/1`
    /// gets the argument term as it is, so `var` is its argument (position
    /// 0 of `init/1`) or, in a list written out, the element at that
    /// position (an [`INIT_ELEMENT`] of the module).
    fn started_with(&self, e: ExprId, var: VarId) -> Option<ArgOf> {
        let body = self.body();
        let Expr::Call { target, args, .. } = body.expr(e) else {
            return None;
        };
        let CallTarget::Remote { module, function } = &**target else {
            return None;
        };
        let (Expr::Lit(Literal::Atom(bm)), Expr::Lit(Literal::Atom(bf))) =
            (body.expr(*module), body.expr(*function))
        else {
            return None;
        };
        // Where the callback module and its argument term are: supervisor's
        // start_link(Mod, Args) / (Name, Mod, Args), the others'
        // start(Mod, Args, Opts) / (Name, Mod, Args, Opts).
        let named = match (bm.as_str(), bf.as_str()) {
            ("supervisor", "start_link") => args.len() == 3,
            ("gen_server" | "gen_statem" | "gen_fsm", f) if f.starts_with("start") => {
                args.len() == 4
            }
            _ => return None,
        };
        let (callback, term) = if named { (1, 2) } else { (0, 1) };
        let (Some(&cb), Some(&term)) = (args.get(callback), args.get(term)) else {
            return None;
        };
        let Expr::Lit(Literal::Atom(cb)) = body.expr(cb) else {
            return None;
        };
        self.program.function(cb, "init", 1)?;
        if matches!(body.expr(term), Expr::Var(v) if *v == var) {
            return Some((cb.to_string(), "init".into(), 1, 0));
        }
        let k = list_position(body, term, var)?;
        Some((cb.to_string(), INIT_ELEMENT.into(), 1, k))
    }

    /// A value pattern `pat` accepts (see [`pattern_value`]).
    fn pattern(&self, pat: PatId, guard: &[Vec<ExprId>], seen: &mut Seen) -> Option<String> {
        let body = self.body();
        Some(match body.pat(pat) {
            Pat::Missing | Pat::Binary(_) => return None,
            Pat::Wild | Pat::Bound(_) => "1".into(),
            Pat::Var(v) => self.var_value(*v, guard, seen),
            Pat::Lit(l) => lit_text(l),
            Pat::Nil => "[]".into(),
            Pat::Cons(h, t) => {
                let head = self.pattern(*h, guard, seen)?;
                // A tail nothing constrains ends the list: `[H | T]` is
                // given `[H]`, a proper list, as the program's own callers
                // pass (a made-up `1` there would make the code that
                // walks the rest fail).
                let tail = match body.pat(*t) {
                    Pat::Wild => "[]".into(),
                    _ => self.pattern(*t, guard, seen)?,
                };
                if tail == "[]" || (tail == "1" && matches!(body.pat(*t), Pat::Var(_))) {
                    format!("[{head}]")
                } else {
                    format!("[{head} | {tail}]")
                }
            }
            Pat::Tuple(items) => {
                if let Some(name) = record_tag(body, pat)
                    && let Some(text) = self.record_text(&name, Some(items), seen)
                {
                    return Some(text);
                }
                let parts: Option<Vec<String>> = items
                    .iter()
                    .map(|&p| self.pattern(p, guard, seen))
                    .collect();
                format!("{{{}}}", parts?.join(", "))
            }
            Pat::Map(fields) => {
                // The keys the pattern takes, with values their patterns
                // accept (a key that is a bound variable is left out).
                let parts: Vec<String> = fields
                    .iter()
                    .filter_map(|&(k, p)| {
                        let key = crate::erl_text::const_text(body, k)?;
                        Some(format!("{key} => {}", self.pattern(p, guard, seen)?))
                    })
                    .collect();
                format!("#{{{}}}", parts.join(", "))
            }
            Pat::Alias(a, b) => match body.pat(*a) {
                Pat::Var(_) | Pat::Wild => self.pattern(*b, guard, seen)?,
                _ => self.pattern(*a, guard, seen)?,
            },
        })
    }

    /// A value for a variable a pattern binds: its guard's type, else what
    /// its uses need, else `1`.
    fn var_value(&self, var: VarId, guard: &[Vec<ExprId>], seen: &mut Seen) -> String {
        if let Some(s) = guard_shape(self.body(), guard, var) {
            return self.with_defaults(s, seen).text(None);
        }
        if self.depth > 0 {
            let inner = Cx {
                depth: self.depth - 1,
                ..*self
            };
            if let Some(need) = inner.var_uses(var, seen) {
                return need.shape.text(None);
            }
        }
        "1".into()
    }

    /// What a variable bound inside a pattern needs from its uses (no
    /// clause guard to read first).
    fn var_uses(&self, var: VarId, seen: &mut Seen) -> Option<Need> {
        let body = self.body();
        let mut direct: Vec<(u32, Need)> = (0..body.exprs.len())
            .filter_map(|i| {
                let e = ExprId(i as u32);
                let need = self.direct_use(e, var, seen)?;
                Some((self.func.source_map.expr(e).start, need))
            })
            .collect();
        direct.sort_by_key(|(s, _)| *s);
        direct.into_iter().next().map(|(_, n)| n)
    }

    /// The record `name` of this module as a tuple: the fields a pattern
    /// binds (`items`, the tuple's patterns) by what their uses need, the
    /// others by their declared defaults (`undefined` where the default is
    /// not a constant).
    fn record_text(&self, name: &str, items: Option<&[PatId]>, seen: &mut Seen) -> Option<String> {
        let def = self.program.module(self.m)?.records.get(name)?;
        if items.is_some_and(|items| items.len() != def.fields.len() + 1) {
            return None;
        }
        let body = self.body();
        let mut parts = vec![atom(name)];
        for (k, default) in def.defaults.iter().enumerate() {
            let from_pattern = items.and_then(|items| {
                let p = items[k + 1];
                match body.pat(p) {
                    Pat::Wild => None,
                    Pat::Var(v) => {
                        let inner = (self.depth > 0).then(|| Cx {
                            depth: self.depth - 1,
                            ..*self
                        })?;
                        inner.var_uses(*v, seen).map(|n| n.shape.text(None))
                    }
                    _ => self.pattern(p, &[], seen),
                }
            });
            let text = from_pattern.unwrap_or_else(|| match default {
                Const::NotConstant => "undefined".into(),
                c => const_term_text(c).unwrap_or_else(|| "undefined".into()),
            });
            parts.push(text);
        }
        Some(format!("{{{}}}", parts.join(", ")))
    }
}

/// The record name of a tuple pattern whose first element is an atom.
fn record_tag(body: &Body, pat: PatId) -> Option<String> {
    match body.pat(pat) {
        Pat::Tuple(items) if items.len() > 1 => match body.pat(items[0]) {
            Pat::Lit(Literal::Atom(t)) => Some(t.to_string()),
            _ => None,
        },
        _ => None,
    }
}

fn lit_text(l: &Literal) -> String {
    match l {
        Literal::Atom(a) => atom(a),
        Literal::Int(i) => i.to_string(),
        Literal::BigInt(b) => b.to_string(),
        Literal::Float(x) => format!("{x:?}"),
        Literal::String(s) => format!("{s:?}"),
    }
}

/// The shape a type test `e` (`is_list(V)`, `is_function(V, 2)`,
/// `is_record(V, r)`) gives `var`, and its name.
fn type_test(body: &Body, e: ExprId, var: VarId) -> Option<(Shape, String)> {
    let Expr::Call { target, args, .. } = body.expr(e) else {
        return None;
    };
    let CallTarget::Remote { function, .. } = &**target else {
        return None;
    };
    let Expr::Lit(Literal::Atom(name)) = body.expr(*function) else {
        return None;
    };
    if !args
        .first()
        .is_some_and(|&x| matches!(body.expr(x), Expr::Var(v) if *v == var))
    {
        return None;
    }
    let shape = match (name.as_str(), args.len()) {
        ("is_list", 1) => Shape::List,
        ("is_map", 1) => Shape::Map,
        ("is_binary" | "is_bitstring", 1) => Shape::Binary,
        ("is_atom", 1) => Shape::Atom,
        ("is_integer" | "is_number", 1) => Shape::Integer,
        ("is_float", 1) => Shape::Float,
        ("is_boolean", 1) => Shape::Boolean,
        ("is_pid", 1) => Shape::Pid,
        ("is_tuple", 1) => Shape::Tuple(0),
        ("is_function", 1) => Shape::Fun(0),
        ("is_function", 2) => match body.expr(args[1]) {
            Expr::Lit(Literal::Int(n)) if (0..=255).contains(n) => Shape::Fun(*n as u32),
            _ => return None,
        },
        ("is_record", 2 | 3) => match body.expr(args[1]) {
            // The record's text is made by the caller that knows the module;
            // a bare tagged tuple of the size the test gives otherwise.
            Expr::Lit(Literal::Atom(r)) => {
                let size = match args.get(2).map(|&x| body.expr(x)) {
                    Some(Expr::Lit(Literal::Int(n))) if *n > 1 => *n as usize,
                    _ => 1,
                };
                let mut parts = vec![atom(r)];
                parts.extend(std::iter::repeat_n("undefined".to_string(), size - 1));
                Shape::Record {
                    name: r.to_string(),
                    text: format!("{{{}}}", parts.join(", ")),
                }
            }
            _ => return None,
        },
        _ => return None,
    };
    Some((shape, format!("{name}/{}", args.len())))
}

/// For a formatted print (`io:format(Dev, Fmt, Args)`,
/// `io_lib:format(Fmt, Args)`), the position of its argument list (the
/// format string is just before it).
fn format_args_at(m: &str, f: &str, arity: usize) -> Option<usize> {
    match (m, f, arity) {
        ("io", "format" | "fwrite", 2) | ("io_lib", "format" | "fwrite", 2) => Some(1),
        ("io", "format" | "fwrite", 3) => Some(2),
        _ => None,
    }
}

/// Where `var` is in a list written out (`[A, B, Var]`: 2), from 0.
fn list_position(body: &Body, mut e: ExprId, var: VarId) -> Option<usize> {
    let mut k = 0;
    loop {
        match body.expr(e) {
            Expr::Cons(head, tail) => {
                if matches!(body.expr(*head), Expr::Var(v) if *v == var) {
                    return Some(k);
                }
                k += 1;
                e = *tail;
            }
            _ => return None,
        }
    }
}

/// The directives of a format string that take arguments, in order, each
/// as its text (`~ts`) and the control character; `None` when a width or
/// precision is itself an argument (`~*c`), which shifts the count.
fn directives(fmt: &str) -> Option<Vec<(String, char)>> {
    let mut out = Vec::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '~' {
            continue;
        }
        let mut text = String::from("~");
        // Field width, precision, padding: digits and dots, the character
        // after a second dot being the pad (any character).
        let mut dots = 0;
        loop {
            match chars.peek().copied() {
                Some('*') => return None,
                Some(d) if d.is_ascii_digit() || d == '-' => {
                    text.push(d);
                    chars.next();
                }
                Some('.') => {
                    text.push('.');
                    chars.next();
                    dots += 1;
                    if dots == 2 {
                        text.extend(chars.next());
                    }
                }
                _ => break,
            }
        }
        // Modifiers.
        while let Some(m) = chars
            .peek()
            .copied()
            .filter(|m| matches!(m, 't' | 'l' | 'k' | 'K'))
        {
            text.push(m);
            chars.next();
        }
        let Some(control) = chars.next() else {
            break;
        };
        text.push(control);
        match control {
            '~' | 'n' => {}
            // Two arguments: the term and a depth.
            'W' | 'P' => {
                out.push((text.clone(), control));
                out.push((text, '*'));
            }
            _ => out.push((text, control)),
        }
    }
    Some(out)
}

/// What the `k`-th argument (from 0) of format string `fmt` must be, for
/// the directives that print one kind of value.
fn directive_shape(fmt: &str, k: usize) -> Option<Shape> {
    let (_, control) = directives(fmt)?.into_iter().nth(k)?;
    match control {
        // Text: a string (an empty one prints nothing).
        's' => Some(Shape::List),
        'c' | 'b' | 'B' | 'x' | 'X' | '#' | '+' => Some(Shape::Integer),
        'f' | 'e' | 'g' => Some(Shape::Float),
        _ => None,
    }
}

/// The text of the `k`-th directive taking an argument (`~ts`).
fn directive_text(fmt: &str, k: usize) -> Option<String> {
    directives(fmt)?.into_iter().nth(k).map(|(text, _)| text)
}

/// The kind of value standard library function `m:f/arity` needs as its
/// argument number `pos` (from 0), for the functions whose arguments are
/// of one kind.
fn stdlib_shape(m: &str, f: &str, arity: usize, pos: usize) -> Option<Shape> {
    use Shape::*;
    if takes_file_name(m, f, arity, pos) {
        return Some(FileName);
    }
    Some(match (m, f, arity, pos) {
        // proplists: the list is the last argument but for the 3-argument
        // get_value and the 1-argument functions.
        ("proplists", "get_value" | "get_all_values" | "lookup" | "lookup_all", 2, 1)
        | ("proplists", "get_value", 3, 1)
        | ("proplists", "get_bool" | "is_defined" | "delete" | "append_values", 2, 1)
        | ("proplists", "get_keys" | "compact" | "unfold" | "to_map", 1, 0)
        | ("proplists", "expand" | "normalize", 2, 1)
        | ("proplists", "split", 2, 0) => List,
        // lists: funs then lists.
        ("lists", "map" | "foreach" | "filter" | "any" | "all" | "filtermap", 2, 0)
        | ("lists", "flatmap" | "partition" | "takewhile" | "dropwhile", 2, 0)
        | ("lists", "splitwith" | "search" | "sort" | "usort", 2, 0) => Fun(arity_of(f)),
        ("lists", "foldl" | "foldr" | "mapfoldl" | "mapfoldr", 3, 0) => Fun(2),
        ("lists", "foldl" | "foldr" | "mapfoldl" | "mapfoldr", 3, 2) => List,
        ("lists", "keyfind" | "keysearch" | "keymember" | "keydelete", 3, 2)
        | ("lists", "keystore" | "keyreplace" | "keytake", 4, 2)
        | ("lists", "keysort", 2, 1)
        | ("lists", "member" | "delete" | "nth" | "nthtail" | "split" | "join", 2, 1)
        | ("lists", "append" | "subtract" | "merge" | "zip", 2, _)
        | ("lists", "sublist", 2 | 3, 0)
        | (
            "lists",
            "reverse" | "last" | "flatten" | "sum" | "max" | "min" | "sort" | "usort" | "append"
            | "concat" | "droplast" | "unzip" | "uniq" | "enumerate" | "length",
            1,
            0,
        )
        | (
            "lists",
            "map" | "foreach" | "filter" | "any" | "all" | "filtermap" | "flatmap" | "partition"
            | "takewhile" | "dropwhile" | "splitwith" | "search" | "sort" | "usort" | "reverse",
            2,
            1,
        ) => List,
        // maps: funs, then the map last (but for with/without).
        ("maps", "get" | "find" | "remove" | "is_key" | "take", 2, 1)
        | ("maps", "get", 3, 1)
        | ("maps", "put" | "update", 3, 2)
        | ("maps", "merge", 2, _)
        | ("maps", "with" | "without", 2, 1)
        | ("maps", "keys" | "values" | "to_list" | "size" | "iterator", 1, 0)
        | ("maps", "map" | "filter" | "filtermap" | "foreach", 2, 1)
        | ("maps", "fold", 3, 2)
        | ("maps", "update_with", 3 | 4, 2) => Map,
        ("maps", "with" | "without", 2, 0) | ("maps", "from_list", 1, 0) => List,
        ("maps", "map" | "filter" | "filtermap" | "foreach", 2, 0) => Fun(2),
        ("maps", "fold", 3, 0) => Fun(3),
        ("maps", "update_with", 3 | 4, 1) => Fun(1),
        // erlang BIFs.
        ("erlang", "length" | "hd" | "tl" | "list_to_tuple" | "list_to_binary", 1, 0)
        | ("erlang", "list_to_atom" | "list_to_existing_atom" | "iolist_to_binary", 1, 0)
        | ("erlang", "iolist_size", 1, 0)
        | ("erlang", "apply", 3, 2) => List,
        ("erlang", "byte_size" | "binary_to_list" | "bit_size" | "binary_to_term", 1, 0)
        | ("erlang", "binary_to_atom" | "binary_to_existing_atom", 1 | 2, 0)
        | ("erlang", "binary_part", 3, 0)
        | ("erlang", "split_binary", 2, 0) => Binary,
        ("erlang", "atom_to_list" | "atom_to_binary", 1 | 2, 0) => Atom,
        ("erlang", "apply", 3, 0 | 1) => Atom,
        ("erlang", "map_size", 1, 0) | ("erlang", "is_map_key" | "map_get", 2, 1) => Map,
        ("erlang", "tuple_size" | "tuple_to_list", 1, 0) => Tuple(0),
        ("erlang", "integer_to_list" | "integer_to_binary", 1 | 2, 0) => Integer,
        ("erlang", "link" | "unlink" | "is_process_alive", 1, 0) => Pid,
        // Strings and binaries.
        ("string", _, _, 0) => List,
        ("binary", "split" | "match" | "matches" | "replace" | "part" | "copy", _, 0)
        | ("binary", "at" | "first" | "last" | "bin_to_list" | "decode_unsigned", _, 0)
        | ("binary", "split" | "match" | "matches" | "replace", _, 1) => Binary,
        ("io_lib", "format", 2, 1) | ("io", "format", 2, 1) | ("io", "format", 3, 2) => List,
        _ => return None,
    })
}

/// Whether argument `pos` (from 0) of `m:f/arity` is a file or path name
/// (`filename:absname/1`, `file:open/2`'s first, both of `file:rename/2`).
fn takes_file_name(m: &str, f: &str, arity: usize, pos: usize) -> bool {
    let first = pos == 0;
    match (m, arity) {
        ("filename", 1) => {
            first
                && matches!(
                    f,
                    "absname"
                        | "basename"
                        | "dirname"
                        | "extension"
                        | "rootname"
                        | "split"
                        | "pathtype"
                        | "nativename"
                )
        }
        ("filename", 2) => {
            matches!(f, "absname" | "join" | "absname_join")
                || (first && matches!(f, "basename" | "rootname"))
        }
        ("file", 1) => {
            first
                && matches!(
                    f,
                    "read_file"
                        | "delete"
                        | "make_dir"
                        | "del_dir"
                        | "del_dir_r"
                        | "list_dir"
                        | "list_dir_all"
                        | "read_file_info"
                        | "read_link_info"
                        | "read_link"
                        | "consult"
                        | "eval"
                        | "script"
                )
        }
        ("file", 2) => {
            matches!(f, "rename" | "copy" | "make_link" | "make_symlink")
                || (first
                    && matches!(
                        f,
                        "open"
                            | "write_file"
                            | "read_file_info"
                            | "read_link_info"
                            | "write_file_info"
                            | "delete"
                            | "change_mode"
                    ))
        }
        ("file", 3) => first && f == "write_file",
        ("filelib", 1) => {
            first
                && matches!(
                    f,
                    "ensure_dir"
                        | "ensure_path"
                        | "is_dir"
                        | "is_file"
                        | "is_regular"
                        | "file_size"
                        | "last_modified"
                )
        }
        ("filelib", 5) => first && f == "fold_files",
        _ => false,
    }
}

/// The arity of the fun a `lists` function with a fun first calls.
fn arity_of(f: &str) -> u32 {
    match f {
        "sort" | "usort" => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        let p = racewit_syntax::load_source("t.erl", src);
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        p
    }

    /// The value and reason for argument `index` of `t:f/a`.
    fn check(src: &str, f: &str, a: u32, index: usize) -> Option<(String, String)> {
        let p = program(src);
        need_of_arg(&p, ("t", f, a), index).map(|n| (n.shape.text(None), n.describe()))
    }

    #[test]
    fn a_proplist_read_needs_a_list() {
        let src =
            "-module(t).\n-export([f/2]).\nf(K, Opts) ->\n    proplists:get_value(K, Opts, 1).\n";
        assert_eq!(
            check(src, "f", 2, 1),
            Some((
                "[]".into(),
                "a list: proplists:get_value/3 at t.erl:4 needs one".into()
            ))
        );
        // The key is used as nothing in particular.
        assert_eq!(check(src, "f", 2, 0), None);
    }

    #[test]
    fn an_argument_a_server_start_passes_to_init_takes_what_init_needs() {
        // In a list written out, as the element init/1's pattern binds.
        let src = "-module(t).\n-export([start_link/2, init/1]).\n\
            start_link(Prio, Opts) ->\n    gen_server:start_link({local, t}, t, [Prio, Opts], []).\n\
            init([_Prio, Opts]) ->\n    {ok, setup(Opts)}.\n\
            setup(Opts) ->\n    proplists:get_value(verbosity, Opts, silence).\n";
        assert_eq!(
            check(src, "start_link", 2, 1),
            Some((
                "[]".into(),
                "a list: proplists:get_value/3 at t.erl:8 needs one (passed on through \
                 t:init/1 at t.erl:4, then t:setup/1 at t.erl:6)"
                    .into()
            ))
        );
        assert_eq!(check(src, "start_link", 2, 0), None);
        // As the whole argument term.
        let src = "-module(t).\n-export([start/1, init/1]).\n\
            start(Conf) ->\n    gen_server:start(t, Conf, []).\n\
            init(Conf) ->\n    {ok, maps:get(port, Conf)}.\n";
        assert_eq!(
            check(src, "start", 1, 0).map(|(v, _)| v),
            Some("#{}".into())
        );
    }

    #[test]
    fn a_value_passed_on_takes_what_the_callee_needs() {
        let src = "-module(t).\n-export([f/1]).\nf(C) ->\n    g(1, C).\ng(_, M) ->\n    maps:get(k, M).\n";
        assert_eq!(
            check(src, "f", 1, 0),
            Some((
                "#{}".into(),
                "a map: maps:get/2 at t.erl:6 needs one (passed on through t:g/2 at t.erl:4)"
                    .into()
            ))
        );
    }

    #[test]
    fn a_value_taken_apart_by_the_callee_s_patterns_takes_the_first_clause_s_shape() {
        // mongoose_acc:stanza_name/1: every clause takes the map apart.
        let src = "-module(t).\n-export([f/1, h/1]).\nf(Acc) ->\n    case name(Acc) of <<\"iq\">> -> iq; _ -> other end.\n\
                   name(#{acc := true, stanza := #{name := N}}) -> N;\nname(#{acc := true}) -> undefined.\n\
                   h(X) ->\n    opt(X).\nopt(undefined) -> none;\nopt({some, V}) -> V.\n";
        let (text, why) = check(src, "f", 1, 0).expect("a need");
        assert_eq!(text, "#{acc => true, stanza => #{name => 1}}");
        assert!(
            why.contains("the pattern of the clause at t.erl:5"),
            "{why}"
        );
        // A clause taking only a constant there says nothing of the structure.
        assert_eq!(check(src, "h", 1, 0), None);
    }

    #[test]
    fn a_formatted_text_argument_needs_a_string() {
        let src = "-module(t).\n-export([f/3]).\n\
                   f(A, B, C) -> io:format(user, \"~w at ~5.2f: ~ts~n\", [A, B, C]), \
                   io_lib:format(\"~p\", [A]).\n";
        let (text, why) = check(src, "f", 3, 2).expect("a need");
        assert_eq!(text, "[]");
        assert!(why.contains("the `~ts` at io:format/3"), "{why}");
        let (text, why) = check(src, "f", 3, 1).expect("a need");
        assert_eq!(text, "1.0");
        assert!(why.contains("`~5.2f`"), "{why}");
        // `~w` and `~p` print anything.
        assert_eq!(check(src, "f", 3, 0), None);
        assert_eq!(
            directives("~*c ~s").map(|d| d.len()),
            None,
            "a width taken from the arguments shifts them"
        );
        assert_eq!(
            directives("~~ ~n ~.10.xs ~tP ~kp").unwrap(),
            vec![
                ("~.10.xs".to_string(), 's'),
                ("~tP".to_string(), 'P'),
                ("~tP".to_string(), '*'),
                ("~kp".to_string(), 'p'),
            ]
        );
    }

    #[test]
    fn a_value_used_as_a_file_name_is_a_name_under_the_runs_tmp() {
        let src = "-module(t).\n-export([add/2]).\n\
                   add(File, Opts) -> Path = expand(File), {Path, proplists:get_value(k, Opts)}.\n\
                   expand(P) -> filename:absname(P).\n";
        assert_eq!(
            check(src, "add", 2, 0),
            Some((
                "\"/tmp/racewit\"".into(),
                "a file name under the run's /tmp: filename:absname/1 at t.erl:4 needs one \
                 (passed on through t:expand/1 at t.erl:3)"
                    .into()
            ))
        );
        // Each worker names a file of its own.
        assert_eq!(Shape::FileName.text(Some(0)), "\"/tmp/racewit1\"");
        assert_eq!(Shape::FileName.text(Some(1)), "\"/tmp/racewit2\"");
        // Both names of a rename; a file's contents are no name.
        let src = "-module(t).\n-export([mv/2, put/2]).\n\
                   mv(A, B) -> file:rename(A, B).\nput(N, Data) -> file:write_file(N, Data).\n";
        assert_eq!(
            check(src, "mv", 2, 1).map(|(v, _)| v),
            Some("\"/tmp/racewit\"".into())
        );
        assert_eq!(
            check(src, "put", 2, 0).map(|(v, _)| v),
            Some("\"/tmp/racewit\"".into())
        );
        assert_eq!(check(src, "put", 2, 1), None);
    }

    #[test]
    fn recursion_ends() {
        let src = "-module(t).\n-export([f/1]).\nf(X) -> g(X).\ng(X) -> f(X).\n";
        assert_eq!(check(src, "f", 1, 0), None);
    }

    #[test]
    fn a_record_field_access_needs_the_record_with_its_defaults() {
        let src = "-module(t).\n-export([f/1]).\n-record(st, {a = [], b, c = {x, 1}, d = self()}).\nf(S) ->\n    S#st.a.\n";
        assert_eq!(
            check(src, "f", 1, 0).map(|(v, _)| v),
            Some("{st, [], undefined, {x, 1}, undefined}".into())
        );
    }

    #[test]
    fn a_record_pattern_fills_its_bound_fields_by_their_uses() {
        let src = "-module(t).\n-export([f/1]).\n-record(st, {a, b = 0}).\nf(#st{a = A}) ->\n    lists:reverse(A).\n";
        let p = program(src);
        let func = p.function("t", "f", 1).unwrap();
        let clause = func.body.clause(func.clauses[0]);
        assert_eq!(
            pattern_value(&p, "t", func, clause.pats[0], &clause.guard),
            Some("{st, [], 0}".into())
        );
    }

    #[test]
    fn type_tests_funs_and_cases() {
        let src = "-module(t).\n-export([f/1, g/1, h/1, k/1]).\n\
                   f(F) -> F(1, 2).\n\
                   g(X) when is_binary(X) -> X.\n\
                   h(X) -> case X of {ok, V} -> V; error -> 0 end.\n\
                   k(X) -> [Y || Y <- X].\n";
        assert_eq!(
            check(src, "f", 1, 0).map(|(v, _)| v),
            Some("fun(_, _) -> ok end".into())
        );
        assert_eq!(check(src, "g", 1, 0).map(|(v, _)| v), Some("<<>>".into()));
        assert_eq!(
            check(src, "h", 1, 0).map(|(v, _)| v),
            Some("{ok, 1}".into())
        );
        assert_eq!(check(src, "k", 1, 0).map(|(v, _)| v), Some("[]".into()));
        let src = "-module(t).\n-export([f/1]).\nf(L) -> g(L).\ng(#{level := Lv, id := {I, _}}) -> {Lv, I}.\n";
        let p = program(src);
        let func = p.function("t", "g", 1).unwrap();
        let clause = func.body.clause(func.clauses[0]);
        assert_eq!(
            pattern_value(&p, "t", func, clause.pats[0], &clause.guard),
            Some("#{level => 1, id => {1, 1}}".into())
        );
    }

    #[test]
    fn a_list_pattern_with_a_free_tail_gives_a_proper_list() {
        let src = "-module(t).\n-export([f/1]).\n\
                   f([{check, C} | T]) -> {C, T};\n\
                   f([_ | _]) -> ok;\n\
                   f([A | B]) when is_atom(B) -> {A, B}.\n";
        let p = program(src);
        let func = p.function("t", "f", 1).unwrap();
        let values: Vec<Option<String>> = func
            .clauses
            .iter()
            .map(|&c| {
                let clause = func.body.clause(c);
                pattern_value(&p, "t", func, clause.pats[0], &clause.guard)
            })
            .collect();
        assert_eq!(
            values,
            [
                Some("[{check, 1}]".to_string()),
                Some("[1]".to_string()),
                Some("[1 | racewit]".to_string())
            ]
        );
    }

    #[test]
    fn a_case_with_a_catch_all_needs_nothing() {
        let src = "-module(t).\n-export([f/1]).\nf(X) -> case X of a -> 1; _ -> 2 end.\n";
        assert_eq!(check(src, "f", 1, 0), None);
    }

    #[test]
    fn the_first_use_in_the_text_wins() {
        let src =
            "-module(t).\n-export([f/1]).\nf(X) ->\n    N = length(X),\n    maps:get(a, X) + N.\n";
        assert_eq!(
            check(src, "f", 1, 0),
            Some((
                "[]".into(),
                "a list: erlang:length/1 at t.erl:4 needs one".into()
            ))
        );
    }

    #[test]
    fn workers_get_values_of_their_own() {
        assert_eq!(Shape::List.text(Some(1)), "[2]");
        assert_eq!(Shape::Atom.text(Some(0)), "racewit1");
        assert_eq!(Shape::Fun(0).text(Some(3)), "fun() -> ok end");
    }
}
