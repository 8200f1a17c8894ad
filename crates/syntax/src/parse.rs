//! Parser: preprocessed tokens to the [`crate::ast`] tree, with error recovery.
//!
//! Entry point: [`parse_file`]. Operator precedence and associativity follow
//! Erlang's grammar (`erl_parse.yrl`), loosest first:
//! `catch` (prefix); `=` `!` `?=` (right); `orelse` (right); `andalso` (right);
//! comparisons (non-associative); `++` `--` (right); `+ - bor bxor bsl bsr or xor`
//! (left); `* / div rem band and` (left); prefix `+ - bnot not`; `#`; `:`.
//!
//! Parsing never fails: a syntax error gives an `E010` diagnostic at the
//! offending token ("expected X but found Y") and parsing resumes at the next
//! clause of the same function or at the next form (after the next `.`).
//! Nesting deeper than [`MAX_DEPTH`] is reported instead of overflowing the
//! stack.

use smol_str::SmolStr;

use crate::ast::{
    AfterClause, Attribute, BinElem, CatchClause, Clause, ComprehensionKind, Expr, ExprKind, File,
    Form, FunExpr, Function, GeneratorKind, MapField, MaybeExpr, Qualifier, ReceiveExpr,
    RecordAccessExpr, RecordDecl, RecordExpr, RecordField, RecordFieldDecl, RecordIndexExpr,
    TryExpr,
};
use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::growth;
use crate::ir::{BinOp, UnOp};
use crate::source::{FileId, Span};
use crate::token::{IntLit, Keyword, Punct, Token, TokenKind};

/// Deepest nesting of expressions accepted (and longest chain of one
/// left-associative operator). Deeper input gets a diagnostic.
pub const MAX_DEPTH: u32 = 200;

/// Parse a whole file of preprocessed tokens (normally ending with
/// [`TokenKind::Eof`]; a missing `Eof` is tolerated).
pub fn parse_file(tokens: &[Token]) -> (File, Vec<Diagnostic>) {
    let mut p = Parser::new(tokens);
    let mut forms = Vec::new();
    while !p.at_eof() {
        let before = p.pos;
        forms.push(p.parse_form());
        if p.pos == before {
            p.pos += 1;
        }
    }
    (File { forms }, p.diags)
}

/// Parse a file of terms, each ending with `.` (what `file:consult/1`
/// reads, such as `rebar.config`): the terms as expressions, and syntax
/// errors (after one, reading resumes at the next `.`).
pub fn parse_terms(tokens: &[Token]) -> (Vec<Expr>, Vec<Diagnostic>) {
    let mut p = Parser::new(tokens);
    let mut terms = Vec::new();
    while !p.at_eof() {
        let before = p.pos;
        p.depth = 0;
        let term = p.parse_expr().and_then(|e| {
            if p.eat(Punct::Dot) {
                Ok(e)
            } else {
                Err(p.error_expected("'.'"))
            }
        });
        match term {
            Ok(e) => terms.push(e),
            Err(Fail) => p.skip_past_dot(),
        }
        if p.pos == before {
            p.pos += 1;
        }
    }
    (terms, p.diags)
}

/// `v` without its spare capacity when that is large (a literal of
/// millions of elements is held until it is lowered).
fn trimmed<T>(mut v: Vec<T>) -> Vec<T> {
    growth::trim(&mut v);
    v
}

/// A syntax error was reported; the caller recovers.
#[derive(Debug)]
struct Fail;

type PResult<T> = Result<T, Fail>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Assoc {
    Left,
    Right,
    Non,
}

#[derive(Clone, Copy)]
enum Infix {
    Op(BinOp),
    Match,
    MaybeMatch,
    Send,
    Andalso,
    Orelse,
}

const EOF: TokenKind = TokenKind::Eof;

struct Parser<'t> {
    toks: &'t [Token],
    pos: usize,
    diags: Vec<Diagnostic>,
    depth: u32,
    eof_span: Span,
}

impl<'t> Parser<'t> {
    fn new(toks: &'t [Token]) -> Self {
        let eof_span = match toks.last() {
            Some(t) => Span::new(t.span.file, t.span.end, t.span.end),
            None => Span::new(FileId(0), 0, 0),
        };
        Parser {
            toks,
            pos: 0,
            diags: Vec::new(),
            depth: 0,
            eof_span,
        }
    }

    // ---- token access -------------------------------------------------

    fn nth(&self, n: usize) -> &TokenKind {
        match self.toks.get(self.pos + n) {
            Some(t) => &t.kind,
            None => &EOF,
        }
    }

    fn peek(&self) -> &TokenKind {
        self.nth(0)
    }

    fn span(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(t) => t.span,
            None => self.eof_span,
        }
    }

    /// Span of the last consumed token.
    fn prev_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.span,
            None => self.span(),
        }
    }

    /// Tokens not read yet.
    fn tokens_left(&self) -> usize {
        self.toks.len().saturating_sub(self.pos)
    }

    fn at_eof(&self) -> bool {
        matches!(self.peek(), TokenKind::Eof)
    }

    fn bump(&mut self) {
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
    }

    fn at(&self, p: Punct) -> bool {
        matches!(self.peek(), TokenKind::Punct(q) if *q == p)
    }

    fn at_kw(&self, k: Keyword) -> bool {
        matches!(self.peek(), TokenKind::Keyword(q) if *q == k)
    }

    fn eat(&mut self, p: Punct) -> bool {
        if self.at(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, k: Keyword) -> bool {
        if self.at_kw(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    // ---- errors -------------------------------------------------------

    fn error_expected(&mut self, expected: &str) -> Fail {
        let found = describe(self.peek());
        let span = self.span();
        self.error_at(span, format!("expected {expected} but found {found}"))
    }

    fn error_at(&mut self, span: Span, message: String) -> Fail {
        self.diags
            .push(Diagnostic::error(DiagnosticCode::E010Syntax, span, message));
        Fail
    }

    fn expect(&mut self, p: Punct) -> PResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(self.error_expected(&quote_punct(p)))
        }
    }

    fn expect_kw(&mut self, k: Keyword) -> PResult<()> {
        if self.eat_kw(k) {
            Ok(())
        } else {
            Err(self.error_expected(&format!("'{}'", k.as_str())))
        }
    }

    fn expect_atom(&mut self, what: &str) -> PResult<(SmolStr, Span)> {
        if let TokenKind::Atom(a) = self.peek() {
            let a = a.clone();
            let s = self.span();
            self.bump();
            Ok((a, s))
        } else {
            Err(self.error_expected(what))
        }
    }

    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            let span = self.span();
            return Err(self.error_at(
                span,
                format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skip to just after the next form-ending `.` (or to the end).
    fn skip_past_dot(&mut self) {
        while !self.at_eof() {
            let dot = self.at(Punct::Dot);
            self.bump();
            if dot {
                return;
            }
        }
    }

    // ---- forms --------------------------------------------------------

    fn parse_form(&mut self) -> Form {
        let start = self.span();
        self.depth = 0;
        let result = match self.peek() {
            TokenKind::Punct(Punct::Minus) => self.parse_attribute(),
            TokenKind::Atom(_) => return self.parse_function(),
            _ => Err(self.error_expected("a function or an attribute")),
        };
        match result {
            Ok(form) => form,
            Err(Fail) => {
                self.skip_past_dot();
                Form::Error {
                    span: start.cover(self.prev_span()),
                }
            }
        }
    }

    fn parse_attribute(&mut self) -> PResult<Form> {
        let start = self.span();
        self.bump(); // '-'
        let name: SmolStr = match self.peek() {
            TokenKind::Atom(a) => a.clone(),
            TokenKind::Keyword(k) => SmolStr::new(k.as_str()),
            _ => return Err(self.error_expected("an attribute name")),
        };
        self.bump();
        match name.as_str() {
            "record" => return self.parse_record(start),
            "spec" | "type" | "opaque" | "callback" | "define" | "nominal" => {
                self.skip_past_dot();
                return Ok(Form::Skipped {
                    name,
                    span: start.cover(self.prev_span()),
                });
            }
            _ => {}
        }
        let mut args = Vec::new();
        if self.at(Punct::LParen) {
            self.bump();
            if !self.at(Punct::RParen) {
                loop {
                    args.push(self.parse_expr()?);
                    if self.eat(Punct::Comma) {
                        continue;
                    }
                    if self.at(Punct::RParen) {
                        break;
                    }
                    return Err(self.error_expected("',' or ')'"));
                }
            }
            self.bump();
        } else if !self.at(Punct::Dot) {
            args.push(self.parse_expr()?);
        }
        if !self.at(Punct::Dot) {
            return Err(self.error_expected("'.'"));
        }
        self.bump();
        Ok(Form::Attribute(Attribute {
            name,
            args,
            span: start.cover(self.prev_span()),
        }))
    }

    fn parse_record(&mut self, start: Span) -> PResult<Form> {
        self.expect(Punct::LParen)?;
        let (name, _) = self.expect_atom("a record name")?;
        self.expect(Punct::Comma)?;
        self.expect(Punct::LBrace)?;
        let mut fields = Vec::new();
        if !self.at(Punct::RBrace) {
            loop {
                let (fname, fspan) = self.expect_atom("a record field name")?;
                let default = if self.eat(Punct::Match) {
                    Some(self.parse_expr()?)
                } else {
                    None
                };
                if self.eat(Punct::ColonColon) {
                    self.skip_type()?;
                }
                fields.push(RecordFieldDecl {
                    name: fname,
                    default,
                    span: fspan.cover(self.prev_span()),
                });
                if self.eat(Punct::Comma) {
                    continue;
                }
                if self.at(Punct::RBrace) {
                    break;
                }
                return Err(self.error_expected("',' or '}'"));
            }
        }
        self.bump(); // '}'
        self.expect(Punct::RParen)?;
        if !self.at(Punct::Dot) {
            return Err(self.error_expected("'.'"));
        }
        self.bump();
        Ok(Form::Record(RecordDecl {
            name,
            fields,
            span: start.cover(self.prev_span()),
        }))
    }

    /// Skip a type up to a `,` or `}` outside brackets.
    fn skip_type(&mut self) -> PResult<()> {
        let mut depth = 0u32;
        loop {
            match self.peek() {
                TokenKind::Eof | TokenKind::Punct(Punct::Dot) => {
                    return Err(self.error_expected("',' or '}'"));
                }
                TokenKind::Punct(Punct::Comma | Punct::RBrace) if depth == 0 => return Ok(()),
                TokenKind::Punct(
                    Punct::LParen | Punct::LBracket | Punct::LBrace | Punct::BinOpen,
                ) => depth += 1,
                TokenKind::Punct(
                    Punct::RParen | Punct::RBracket | Punct::RBrace | Punct::BinClose,
                ) => {
                    if depth == 0 {
                        return Err(self.error_expected("',' or '}'"));
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn parse_function(&mut self) -> Form {
        let start = self.span();
        let name = match self.peek() {
            TokenKind::Atom(a) => a.clone(),
            _ => SmolStr::default(),
        };
        let mut clauses: Vec<Clause> = Vec::new();
        let mut arity: Option<u32> = None;
        loop {
            let clause_start = self.span();
            let clause_name = match self.peek() {
                TokenKind::Atom(a) => Some(a.clone()),
                _ => None,
            };
            let parsed = match clause_name {
                Some(n) if n == name => {
                    self.bump();
                    self.parse_fun_clause_rest(clause_start)
                }
                Some(n) => {
                    let span = self.span();
                    let a = arity.map(|a| format!("/{a}")).unwrap_or_default();
                    self.error_at(
                        span,
                        format!(
                            "function head mismatch: expected a clause of {name}{a} but found {n}"
                        ),
                    );
                    Err(None)
                }
                None => {
                    self.error_expected(&format!("a clause of {name}"));
                    Err(None)
                }
            };
            let ok = match parsed {
                Ok(c) => {
                    self.add_clause(&mut clauses, &mut arity, &name, c);
                    true
                }
                Err(partial) => {
                    if let Some(c) = partial {
                        self.add_clause(&mut clauses, &mut arity, &name, c);
                    }
                    false
                }
            };
            if ok {
                if self.eat(Punct::Semicolon) {
                    continue;
                }
                if self.eat(Punct::Dot) {
                    break;
                }
                self.error_expected("';' or '.'");
            }
            // Recover: the next `; name(` at bracket depth 0, or the end of the form.
            if self.recover_to_clause(&name) {
                continue;
            }
            break;
        }
        let span = start.cover(self.prev_span());
        match arity {
            Some(arity) => Form::Function(Function {
                name,
                arity,
                clauses: trimmed(clauses),
                span,
            }),
            None => Form::Error { span },
        }
    }

    fn add_clause(
        &mut self,
        clauses: &mut Vec<Clause>,
        arity: &mut Option<u32>,
        name: &str,
        c: Clause,
    ) {
        let n = c.pats.len() as u32;
        match *arity {
            None => {
                *arity = Some(n);
                clauses.push(c);
            }
            Some(a) if a == n => clauses.push(c),
            Some(a) => {
                self.error_at(
                    c.span,
                    format!("function head mismatch: expected {a} arguments for {name}/{a} but found {n}"),
                );
            }
        }
    }

    /// After an error inside a function: returns `true` when positioned at the
    /// start of another clause of `name`, `false` after the form's `.`.
    fn recover_to_clause(&mut self, name: &str) -> bool {
        let mut depth: i32 = 0;
        loop {
            match self.peek() {
                TokenKind::Eof => return false,
                TokenKind::Punct(Punct::Dot) => {
                    self.bump();
                    return false;
                }
                TokenKind::Punct(
                    Punct::LParen | Punct::LBracket | Punct::LBrace | Punct::BinOpen,
                ) => depth += 1,
                TokenKind::Punct(
                    Punct::RParen | Punct::RBracket | Punct::RBrace | Punct::BinClose,
                ) => depth = (depth - 1).max(0),
                TokenKind::Punct(Punct::Semicolon)
                    if depth == 0
                        && matches!(self.nth(1), TokenKind::Atom(a) if a == name)
                        && matches!(self.nth(2), TokenKind::Punct(Punct::LParen)) =>
                {
                    self.bump();
                    return true;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// `(Args) when Guard -> Body` after the function name. On failure, the
    /// clause is returned with a `Missing` body when its head was read.
    fn parse_fun_clause_rest(&mut self, start: Span) -> Result<Clause, Option<Clause>> {
        let pats = self.parse_args().map_err(|_| None)?;
        let guard = self.parse_opt_guard().map_err(|_| None)?;
        if !self.eat(Punct::Arrow) {
            let what = if guard.is_empty() {
                "'when' or '->'"
            } else {
                "',', ';' or '->'"
            };
            self.error_expected(what);
            return Err(None);
        }
        // The body's expressions read before an error are kept, then `Missing`.
        let mut body = Vec::new();
        loop {
            match self.parse_expr() {
                Ok(e) => body.push(e),
                Err(Fail) => {
                    let here = self.span();
                    body.push(Expr::missing(here));
                    return Err(Some(Clause {
                        pats,
                        guard,
                        body,
                        span: start.cover(here),
                    }));
                }
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        Ok(Clause {
            pats,
            guard,
            body,
            span: start.cover(self.prev_span()),
        })
    }

    // ---- clauses ------------------------------------------------------

    /// `( Expr, ... )`
    fn parse_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect(Punct::LParen)?;
        let mut args = Vec::new();
        if self.eat(Punct::RParen) {
            return Ok(args);
        }
        loop {
            args.push(self.parse_expr()?);
            if self.eat(Punct::Comma) {
                continue;
            }
            if self.eat(Punct::RParen) {
                return Ok(args);
            }
            return Err(self.error_expected("',' or ')'"));
        }
    }

    fn parse_opt_guard(&mut self) -> PResult<Vec<Vec<Expr>>> {
        if !self.eat_kw(Keyword::When) {
            return Ok(Vec::new());
        }
        self.parse_guard()
    }

    fn parse_guard(&mut self) -> PResult<Vec<Vec<Expr>>> {
        let mut alts = Vec::new();
        loop {
            let mut tests = Vec::new();
            loop {
                tests.push(self.parse_expr()?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            alts.push(tests);
            if !self.eat(Punct::Semicolon) {
                return Ok(alts);
            }
        }
    }

    /// `Expr, Expr, ...` (at least one).
    fn parse_exprs(&mut self) -> PResult<Vec<Expr>> {
        let mut exprs = vec![self.parse_expr()?];
        while self.eat(Punct::Comma) {
            exprs.push(self.parse_expr()?);
        }
        Ok(exprs)
    }

    fn parse_body(&mut self) -> PResult<Vec<Expr>> {
        self.expect(Punct::Arrow)?;
        self.parse_exprs()
    }

    /// `Pat when Guard -> Body; ...` up to `end` (or another closer given by
    /// `is_end`), which is not consumed.
    fn parse_cr_clauses(
        &mut self,
        closers: &str,
        is_end: fn(&TokenKind) -> bool,
    ) -> PResult<Vec<Clause>> {
        let mut clauses = Vec::new();
        loop {
            let start = self.span();
            let pat = self.parse_expr()?;
            let guard = self.parse_opt_guard()?;
            let body = self.parse_body()?;
            clauses.push(Clause {
                pats: vec![pat],
                guard,
                body,
                span: start.cover(self.prev_span()),
            });
            if self.eat(Punct::Semicolon) {
                continue;
            }
            if is_end(self.peek()) {
                return Ok(clauses);
            }
            return Err(self.error_expected(&format!("';' or {closers}")));
        }
    }

    // ---- expressions --------------------------------------------------

    fn parse_expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.parse_expr_bp(0);
        self.leave();
        r
    }

    fn parse_expr_bp(&mut self, min: u16) -> PResult<Expr> {
        if self.at_kw(Keyword::Catch) {
            let start = self.span();
            self.bump();
            let e = self.parse_expr()?;
            let span = start.cover(e.span);
            return Ok(Expr::new(ExprKind::Catch(Box::new(e)), span));
        }
        let mut lhs = self.parse_unary()?;
        let mut chain = 0u32;
        let mut last_non: Option<u16> = None;
        while let Some((op, prec, assoc)) = infix(self.peek()) {
            if prec < min {
                break;
            }
            if last_non == Some(prec) {
                return Err(self.error_expected("an operator that can follow a comparison"));
            }
            chain += 1;
            if chain + self.depth > MAX_DEPTH {
                let span = self.span();
                return Err(self.error_at(
                    span,
                    format!("operator chain too long (more than {MAX_DEPTH} operators)"),
                ));
            }
            self.bump();
            let next_min = match assoc {
                Assoc::Right => prec,
                Assoc::Left | Assoc::Non => prec + 1,
            };
            self.enter()?;
            let rhs = self.parse_expr_bp(next_min);
            self.leave();
            let rhs = rhs?;
            last_non = (assoc == Assoc::Non).then_some(prec);
            let span = lhs.span.cover(rhs.span);
            let (l, r) = (Box::new(lhs), Box::new(rhs));
            let kind = match op {
                Infix::Op(o) => ExprKind::Op(o, l, r),
                Infix::Match => ExprKind::Match(l, r),
                Infix::MaybeMatch => ExprKind::MaybeMatch(l, r),
                Infix::Send => ExprKind::Send(l, r),
                Infix::Andalso => ExprKind::Andalso(l, r),
                Infix::Orelse => ExprKind::Orelse(l, r),
            };
            lhs = Expr::new(kind, span);
        }
        Ok(lhs)
    }

    fn prefix_op(&self) -> Option<UnOp> {
        match self.peek() {
            TokenKind::Punct(Punct::Minus) => Some(UnOp::Neg),
            TokenKind::Punct(Punct::Plus) => Some(UnOp::Plus),
            TokenKind::Keyword(Keyword::Not) => Some(UnOp::Not),
            TokenKind::Keyword(Keyword::Bnot) => Some(UnOp::Bnot),
            _ => None,
        }
    }

    fn parse_unary(&mut self) -> PResult<Expr> {
        if let Some(op) = self.prefix_op() {
            let start = self.span();
            self.bump();
            self.enter()?;
            let e = self.parse_unary();
            self.leave();
            let e = e?;
            let span = start.cover(e.span);
            return Ok(Expr::new(ExprKind::UnOp(op, Box::new(e)), span));
        }
        let prim = self.parse_primary()?;
        self.parse_postfix(prim)
    }

    /// Calls, remote names, record and map operations after a primary.
    fn parse_postfix(&mut self, mut e: Expr) -> PResult<Expr> {
        let mut chain = 0u32;
        loop {
            chain += 1;
            if chain + self.depth > MAX_DEPTH {
                let span = self.span();
                return Err(self.error_at(span, "expression nested too deeply".to_string()));
            }
            match self.peek() {
                TokenKind::Punct(Punct::LParen) => {
                    let args = self.parse_args()?;
                    let span = e.span.cover(self.prev_span());
                    e = Expr::new(
                        ExprKind::Call {
                            callee: Box::new(e),
                            args,
                        },
                        span,
                    );
                }
                TokenKind::Punct(Punct::Colon) => {
                    self.bump();
                    let f = self.parse_primary()?;
                    let span = e.span.cover(f.span);
                    e = Expr::new(
                        ExprKind::Remote {
                            module: Box::new(e),
                            function: Box::new(f),
                        },
                        span,
                    );
                }
                TokenKind::Punct(Punct::Hash) => {
                    self.bump();
                    e = self.parse_hash(Some(e))?;
                }
                _ => return Ok(e),
            }
        }
    }

    /// After `#`: a map (`#{`), a record (`#r{`), a field access or index (`#r.f`).
    fn parse_hash(&mut self, base: Option<Expr>) -> PResult<Expr> {
        let start = base
            .as_ref()
            .map(|b| b.span)
            .unwrap_or_else(|| self.prev_span());
        if self.at(Punct::LBrace) {
            self.bump();
            return self.parse_map_rest(start, base);
        }
        let (name, _) = self.expect_atom("'{' or a record name after '#'")?;
        if self.eat(Punct::Period) {
            let (field, fspan) = self.expect_atom("a record field name")?;
            let span = start.cover(fspan);
            return Ok(match base {
                Some(b) => Expr::new(
                    ExprKind::RecordAccess(Box::new(RecordAccessExpr {
                        base: Box::new(b),
                        name,
                        field,
                    })),
                    span,
                ),
                None => Expr::new(
                    ExprKind::RecordIndex(Box::new(RecordIndexExpr { name, field })),
                    span,
                ),
            });
        }
        if !self.eat(Punct::LBrace) {
            return Err(self.error_expected("'{' or '.' after the record name"));
        }
        let mut fields = Vec::new();
        if !self.eat(Punct::RBrace) {
            loop {
                let fstart = self.span();
                let fname = match self.peek() {
                    TokenKind::Atom(a) => a.clone(),
                    TokenKind::Var(v) if v == "_" => v.clone(),
                    _ => return Err(self.error_expected("a record field name")),
                };
                self.bump();
                self.expect(Punct::Match)?;
                let value = self.parse_expr()?;
                fields.push(RecordField {
                    name: fname,
                    span: fstart.cover(value.span),
                    value,
                });
                if self.eat(Punct::Comma) {
                    continue;
                }
                if self.eat(Punct::RBrace) {
                    break;
                }
                return Err(self.error_expected("',' or '}'"));
            }
        }
        let span = start.cover(self.prev_span());
        Ok(Expr::new(
            ExprKind::Record(Box::new(RecordExpr {
                base: base.map(Box::new),
                name,
                fields,
            })),
            span,
        ))
    }

    /// After `#{`: fields (or a map comprehension) up to `}`.
    fn parse_map_rest(&mut self, start: Span, base: Option<Expr>) -> PResult<Expr> {
        let mut fields = Vec::new();
        if !self.eat(Punct::RBrace) {
            loop {
                let key = self.parse_expr()?;
                let exact = if self.eat(Punct::DoubleArrow) {
                    false
                } else if self.eat(Punct::ColonEq) {
                    true
                } else {
                    return Err(self.error_expected("'=>' or ':='"));
                };
                let value = self.parse_expr()?;
                if fields.is_empty() && base.is_none() && !exact && self.at(Punct::DoublePipe) {
                    self.bump();
                    let tspan = key.span.cover(value.span);
                    let body = Expr::new(ExprKind::Tuple(vec![key, value]), tspan);
                    let qualifiers = self.parse_qualifiers()?;
                    self.expect(Punct::RBrace)?;
                    let span = start.cover(self.prev_span());
                    return Ok(Expr::new(
                        ExprKind::Comprehension {
                            kind: ComprehensionKind::Map,
                            body: Box::new(body),
                            qualifiers,
                        },
                        span,
                    ));
                }
                fields.push(MapField { key, value, exact });
                if self.eat(Punct::Comma) {
                    continue;
                }
                if self.eat(Punct::RBrace) {
                    break;
                }
                return Err(self.error_expected("',' or '}'"));
            }
        }
        let span = start.cover(self.prev_span());
        Ok(Expr::new(
            ExprKind::Map {
                base: base.map(Box::new),
                fields,
            },
            span,
        ))
    }

    fn parse_primary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.parse_primary_inner();
        self.leave();
        r
    }

    fn parse_primary_inner(&mut self) -> PResult<Expr> {
        let start = self.span();
        let kind = match self.peek().clone() {
            TokenKind::Var(v) => {
                self.bump();
                ExprKind::Var(v)
            }
            // OTP 27+ enables `maybe_expr` by default, where code needs no
            // `-feature` attribute: an atom `maybe` followed by the start of
            // an expression (a syntax error otherwise) opens a maybe block.
            TokenKind::Atom(a) if a == "maybe" && starts_maybe_body(self.nth(1)) => {
                self.bump();
                self.parse_maybe_rest()?
            }
            TokenKind::Atom(a) => {
                self.bump();
                ExprKind::Atom(a)
            }
            TokenKind::Integer(i) => {
                self.bump();
                ExprKind::Int(i)
            }
            TokenKind::Float(f) => {
                self.bump();
                ExprKind::Float(f)
            }
            TokenKind::Char(c) => {
                self.bump();
                ExprKind::Char(c)
            }
            TokenKind::String(s) => {
                self.bump();
                if matches!(self.peek(), TokenKind::String(_)) {
                    let mut acc = String::from(s.as_str());
                    while let TokenKind::String(more) = self.peek() {
                        acc.push_str(more);
                        self.bump();
                    }
                    ExprKind::String(SmolStr::from(acc))
                } else {
                    ExprKind::String(s)
                }
            }
            TokenKind::Sigil { prefix, value } => {
                self.bump();
                ExprKind::Sigil { prefix, value }
            }
            TokenKind::Punct(Punct::LParen) => {
                self.bump();
                let mut e = self.parse_expr()?;
                self.expect(Punct::RParen)?;
                e.span = start.cover(self.prev_span());
                return Ok(e);
            }
            TokenKind::Punct(Punct::LBrace) => {
                self.bump();
                let mut elems = Vec::new();
                if !self.eat(Punct::RBrace) {
                    loop {
                        // Each further element takes two tokens at least.
                        let bound = elems.len() + self.tokens_left() / 2 + 1;
                        growth::push_bounded(&mut elems, self.parse_expr()?, bound);
                        if self.eat(Punct::Comma) {
                            continue;
                        }
                        if self.eat(Punct::RBrace) {
                            break;
                        }
                        return Err(self.error_expected("',' or '}'"));
                    }
                }
                ExprKind::Tuple(trimmed(elems))
            }
            TokenKind::Punct(Punct::LBracket) => {
                self.bump();
                return self.parse_list_rest(start);
            }
            TokenKind::Punct(Punct::BinOpen) => {
                self.bump();
                return self.parse_binary_rest(start);
            }
            TokenKind::Punct(Punct::Hash) => {
                self.bump();
                return self.parse_hash(None);
            }
            TokenKind::Keyword(Keyword::Case) => {
                self.bump();
                let arg = self.parse_expr()?;
                self.expect_kw(Keyword::Of)?;
                let clauses = self.parse_cr_clauses("'end'", is_end)?;
                self.bump();
                ExprKind::Case {
                    arg: Box::new(arg),
                    clauses,
                }
            }
            TokenKind::Keyword(Keyword::If) => {
                self.bump();
                let mut clauses = Vec::new();
                loop {
                    let cstart = self.span();
                    let guard = self.parse_guard()?;
                    let body = self.parse_body()?;
                    clauses.push(Clause {
                        pats: Vec::new(),
                        guard,
                        body,
                        span: cstart.cover(self.prev_span()),
                    });
                    if self.eat(Punct::Semicolon) {
                        continue;
                    }
                    if self.eat_kw(Keyword::End) {
                        break;
                    }
                    return Err(self.error_expected("';' or 'end'"));
                }
                ExprKind::If(clauses)
            }
            TokenKind::Keyword(Keyword::Receive) => {
                self.bump();
                let clauses = if self.at_kw(Keyword::After) {
                    Vec::new()
                } else {
                    self.parse_cr_clauses("'after' or 'end'", |t| {
                        matches!(t, TokenKind::Keyword(Keyword::End | Keyword::After))
                    })?
                };
                let after = if self.at_kw(Keyword::After) {
                    let astart = self.span();
                    self.bump();
                    let timeout = self.parse_expr()?;
                    let body = self.parse_body()?;
                    Some(AfterClause {
                        timeout: Box::new(timeout),
                        body,
                        span: astart.cover(self.prev_span()),
                    })
                } else {
                    None
                };
                self.expect_kw(Keyword::End)?;
                ExprKind::Receive(Box::new(ReceiveExpr { clauses, after }))
            }
            TokenKind::Keyword(Keyword::Try) => {
                self.bump();
                return self.parse_try_rest(start);
            }
            TokenKind::Keyword(Keyword::Begin) => {
                self.bump();
                let body = self.parse_exprs()?;
                self.expect_kw(Keyword::End)?;
                ExprKind::Block(body)
            }
            TokenKind::Keyword(Keyword::Maybe) => {
                self.bump();
                self.parse_maybe_rest()?
            }
            TokenKind::Keyword(Keyword::Fun) => {
                self.bump();
                return self.parse_fun_rest(start);
            }
            _ => return Err(self.error_expected("an expression")),
        };
        Ok(Expr::new(kind, start.cover(self.prev_span())))
    }

    /// After `maybe`: the body, optional `else` clauses, `end`. `else` may
    /// be the plain atom (a block opened by the atom `maybe`): nothing else
    /// can follow the body there.
    fn parse_maybe_rest(&mut self) -> PResult<ExprKind> {
        let body = self.parse_exprs()?;
        let soft_else = matches!(self.peek(), TokenKind::Atom(a) if a == "else");
        let else_clauses = if self.eat_kw(Keyword::Else) || soft_else {
            if soft_else {
                self.bump();
            }
            Some(self.parse_cr_clauses("'end'", is_end)?)
        } else {
            None
        };
        self.expect_kw(Keyword::End)?;
        Ok(ExprKind::Maybe(Box::new(MaybeExpr { body, else_clauses })))
    }

    /// After `[`.
    fn parse_list_rest(&mut self, start: Span) -> PResult<Expr> {
        if self.eat(Punct::RBracket) {
            return Ok(Expr::new(
                ExprKind::List {
                    elems: Vec::new(),
                    tail: None,
                },
                start.cover(self.prev_span()),
            ));
        }
        let first = self.parse_expr()?;
        if self.eat(Punct::DoublePipe) {
            let qualifiers = self.parse_qualifiers()?;
            self.expect(Punct::RBracket)?;
            return Ok(Expr::new(
                ExprKind::Comprehension {
                    kind: ComprehensionKind::List,
                    body: Box::new(first),
                    qualifiers,
                },
                start.cover(self.prev_span()),
            ));
        }
        let mut elems = vec![first];
        let mut tail = None;
        loop {
            if self.eat(Punct::Comma) {
                // Each further element takes two tokens at least.
                let bound = elems.len() + self.tokens_left() / 2 + 1;
                growth::push_bounded(&mut elems, self.parse_expr()?, bound);
                continue;
            }
            if self.eat(Punct::Pipe) {
                tail = Some(Box::new(self.parse_expr()?));
                self.expect(Punct::RBracket)?;
                break;
            }
            if self.eat(Punct::RBracket) {
                break;
            }
            return Err(self.error_expected("',', '|' or ']'"));
        }
        Ok(Expr::new(
            ExprKind::List {
                elems: trimmed(elems),
                tail,
            },
            start.cover(self.prev_span()),
        ))
    }

    /// Generators and filters after `||`, up to (not including) the closer.
    /// Generators joined by `&&` form one [`Qualifier::Zip`] (`&&` binds
    /// tighter than `,`); a filter among them is reported, as `erl_lint` does.
    fn parse_qualifiers(&mut self) -> PResult<Vec<Qualifier>> {
        let mut quals = Vec::new();
        loop {
            let first_start = self.span();
            let first = self.parse_qualifier()?;
            let first_span = first_start.cover(self.prev_span());
            if self.at(Punct::AndAnd) {
                let mut zipped = vec![first];
                while self.eat(Punct::AndAnd) {
                    let start = self.span();
                    let q = self.parse_qualifier()?;
                    if matches!(q, Qualifier::Filter(_)) {
                        let span = start.cover(self.prev_span());
                        self.diags.push(Diagnostic::error(
                            DiagnosticCode::E010Syntax,
                            span,
                            "only generators are allowed in a zip generator (`&&`)",
                        ));
                    }
                    zipped.push(q);
                }
                if matches!(zipped[0], Qualifier::Filter(_)) {
                    self.diags.push(Diagnostic::error(
                        DiagnosticCode::E010Syntax,
                        first_span,
                        "only generators are allowed in a zip generator (`&&`)",
                    ));
                }
                quals.push(Qualifier::Zip(zipped));
            } else {
                quals.push(first);
            }
            if !self.eat(Punct::Comma) {
                return Ok(quals);
            }
        }
    }

    /// One generator (`P <- E`, `P <= E`, `K := V <- E`, strict forms) or filter.
    fn parse_qualifier(&mut self) -> PResult<Qualifier> {
        let e = self.parse_expr()?;
        Ok(match self.peek() {
            TokenKind::Punct(
                p @ (Punct::LeftArrow
                | Punct::StrictLeftArrow
                | Punct::DoubleLeftArrow
                | Punct::StrictDoubleLeftArrow),
            ) => {
                let p = *p;
                self.bump();
                let expr = self.parse_expr()?;
                let (kind, strict) = match p {
                    Punct::LeftArrow => (GeneratorKind::List, false),
                    Punct::StrictLeftArrow => (GeneratorKind::List, true),
                    Punct::DoubleLeftArrow => (GeneratorKind::Binary, false),
                    _ => (GeneratorKind::Binary, true),
                };
                Qualifier::Generator {
                    kind,
                    strict,
                    pat: e,
                    value: None,
                    expr,
                }
            }
            TokenKind::Punct(Punct::ColonEq) => {
                self.bump();
                let value = self.parse_expr()?;
                let strict = if self.eat(Punct::LeftArrow) {
                    false
                } else if self.eat(Punct::StrictLeftArrow) {
                    true
                } else {
                    return Err(self.error_expected("'<-' after a map generator pattern"));
                };
                let expr = self.parse_expr()?;
                Qualifier::Generator {
                    kind: GeneratorKind::Map,
                    strict,
                    pat: e,
                    value: Some(value),
                    expr,
                }
            }
            _ => Qualifier::Filter(e),
        })
    }

    /// After `<<`.
    fn parse_binary_rest(&mut self, start: Span) -> PResult<Expr> {
        let mut elems = Vec::new();
        if !self.eat(Punct::BinClose) {
            loop {
                let elem = self.parse_bin_elem()?;
                if elems.is_empty() && self.eat(Punct::DoublePipe) {
                    let qualifiers = self.parse_qualifiers()?;
                    self.expect(Punct::BinClose)?;
                    let body = if elem.size.is_none() && elem.specs.is_empty() {
                        elem.value
                    } else {
                        let span = elem.span;
                        Expr::new(ExprKind::Binary(vec![elem]), span)
                    };
                    return Ok(Expr::new(
                        ExprKind::Comprehension {
                            kind: ComprehensionKind::Binary,
                            body: Box::new(body),
                            qualifiers,
                        },
                        start.cover(self.prev_span()),
                    ));
                }
                elems.push(elem);
                if self.eat(Punct::Comma) {
                    continue;
                }
                if self.eat(Punct::BinClose) {
                    break;
                }
                return Err(self.error_expected("',' or '>>'"));
            }
        }
        Ok(Expr::new(
            ExprKind::Binary(elems),
            start.cover(self.prev_span()),
        ))
    }

    fn parse_bin_elem(&mut self) -> PResult<BinElem> {
        let start = self.span();
        let value = if let Some(op) = self.prefix_op() {
            self.bump();
            let e = self.parse_primary()?;
            let span = start.cover(e.span);
            Expr::new(ExprKind::UnOp(op, Box::new(e)), span)
        } else {
            self.parse_primary()?
        };
        let size = if self.eat(Punct::Colon) {
            Some(self.parse_primary()?)
        } else {
            None
        };
        let mut specs = Vec::new();
        if self.eat(Punct::Slash) {
            loop {
                let (name, _) = self.expect_atom("a type specifier (such as integer or binary)")?;
                let n = if self.eat(Punct::Colon) {
                    match self.peek() {
                        TokenKind::Integer(IntLit::Small(n)) if (0..=256).contains(n) => {
                            let n = *n as u32;
                            self.bump();
                            Some(n)
                        }
                        _ => {
                            return Err(
                                self.error_expected("a unit size (an integer from 1 to 256)")
                            );
                        }
                    }
                } else {
                    None
                };
                specs.push((name, n));
                if !self.eat(Punct::Minus) {
                    break;
                }
            }
        }
        Ok(BinElem {
            value,
            size,
            specs,
            span: start.cover(self.prev_span()),
        })
    }

    /// After `try`.
    fn parse_try_rest(&mut self, start: Span) -> PResult<Expr> {
        let body = self.parse_exprs()?;
        let of_clauses = if self.eat_kw(Keyword::Of) {
            self.parse_cr_clauses("'catch', 'after' or 'end'", |t| {
                matches!(
                    t,
                    TokenKind::Keyword(Keyword::Catch | Keyword::After | Keyword::End)
                )
            })?
        } else {
            Vec::new()
        };
        let mut catch_clauses = Vec::new();
        if self.eat_kw(Keyword::Catch) {
            loop {
                catch_clauses.push(self.parse_catch_clause()?);
                if self.eat(Punct::Semicolon) {
                    continue;
                }
                if self.at_kw(Keyword::After) || self.at_kw(Keyword::End) {
                    break;
                }
                return Err(self.error_expected("';', 'after' or 'end'"));
            }
        }
        let after = if self.eat_kw(Keyword::After) {
            Some(self.parse_exprs()?)
        } else {
            None
        };
        if catch_clauses.is_empty() && after.is_none() {
            return Err(self.error_expected("'of', 'catch' or 'after'"));
        }
        self.expect_kw(Keyword::End)?;
        Ok(Expr::new(
            ExprKind::Try(Box::new(TryExpr {
                body,
                of_clauses,
                catch_clauses,
                after,
            })),
            start.cover(self.prev_span()),
        ))
    }

    fn parse_catch_clause(&mut self) -> PResult<CatchClause> {
        let start = self.span();
        let pat = self.parse_expr()?;
        let (class, reason, stack) = split_catch_pattern(pat);
        let guard = self.parse_opt_guard()?;
        let body = self.parse_body()?;
        Ok(CatchClause {
            class,
            reason,
            stack,
            guard,
            body,
            span: start.cover(self.prev_span()),
        })
    }

    /// After `fun`.
    fn parse_fun_rest(&mut self, start: Span) -> PResult<Expr> {
        let named = match (self.peek(), self.nth(1)) {
            (TokenKind::Var(v), TokenKind::Punct(Punct::LParen)) => Some(v.clone()),
            _ => None,
        };
        if named.is_some() || self.at(Punct::LParen) {
            let mut clauses = Vec::new();
            loop {
                let cstart = self.span();
                if let Some(n) = &named {
                    match self.peek() {
                        TokenKind::Var(v) if v == n => self.bump(),
                        _ => return Err(self.error_expected(&format!("'{n}' (the fun's name)"))),
                    }
                }
                let pats = self.parse_args()?;
                let guard = self.parse_opt_guard()?;
                let body = self.parse_body()?;
                clauses.push(Clause {
                    pats,
                    guard,
                    body,
                    span: cstart.cover(self.prev_span()),
                });
                if self.eat(Punct::Semicolon) {
                    continue;
                }
                if self.eat_kw(Keyword::End) {
                    break;
                }
                return Err(self.error_expected("';' or 'end'"));
            }
            return Ok(Expr::new(
                ExprKind::Fun(Box::new(FunExpr {
                    name: named,
                    clauses,
                })),
                start.cover(self.prev_span()),
            ));
        }
        // `fun Name/Arity` or `fun Module:Name/Arity`
        let first = self.parse_primary()?;
        let (module, name) = if self.eat(Punct::Colon) {
            (Some(Box::new(first)), self.parse_primary()?)
        } else {
            (None, first)
        };
        if !self.eat(Punct::Slash) {
            return Err(self.error_expected("'/' or '('"));
        }
        let arity = self.parse_primary()?;
        Ok(Expr::new(
            ExprKind::FunRef {
                module,
                name: Box::new(name),
                arity: Box::new(arity),
            },
            start.cover(self.prev_span()),
        ))
    }
}

/// `Class:Reason:Stack` parses as nested remote names, and
/// `Class:Reason = Alias` as a match whose left side is one.
fn split_catch_pattern(pat: Expr) -> (Option<Expr>, Expr, Option<Expr>) {
    match pat.kind {
        ExprKind::Remote { module, function } => match module.kind {
            ExprKind::Remote {
                module: class,
                function: reason,
            } => (Some(*class), *reason, Some(*function)),
            _ => (Some(*module), *function, None),
        },
        ExprKind::Match(lhs, rhs)
            if matches!(lhs.kind, ExprKind::Remote { .. } | ExprKind::Match(..)) =>
        {
            let (class, reason, stack) = split_catch_pattern(*lhs);
            let (rhs, rhs_stack) = take_stack(*rhs);
            let span = reason.span.cover(rhs.span);
            let reason = Expr::new(ExprKind::Match(Box::new(reason), Box::new(rhs)), span);
            (class, reason, stack.or(rhs_stack))
        }
        kind => (None, Expr::new(kind, pat.span), None),
    }
}

/// `Alias:Stack` at the right end of `Class:Reason = Alias:Stack`.
fn take_stack(e: Expr) -> (Expr, Option<Expr>) {
    match e.kind {
        ExprKind::Remote { module, function } => (*module, Some(*function)),
        ExprKind::Match(l, r) => {
            let (r, stack) = take_stack(*r);
            let span = l.span.cover(r.span);
            (Expr::new(ExprKind::Match(l, Box::new(r)), span), stack)
        }
        kind => (Expr::new(kind, e.span), None),
    }
}

fn is_end(t: &TokenKind) -> bool {
    matches!(t, TokenKind::Keyword(Keyword::End))
}

fn infix(t: &TokenKind) -> Option<(Infix, u16, Assoc)> {
    use Assoc::*;
    let op = |o| Infix::Op(o);
    Some(match t {
        TokenKind::Punct(p) => match p {
            Punct::Match => (Infix::Match, 100, Right),
            Punct::Bang => (Infix::Send, 100, Right),
            Punct::MaybeMatch => (Infix::MaybeMatch, 100, Right),
            Punct::Eq => (op(BinOp::Eq), 200, Non),
            Punct::NotEq => (op(BinOp::NotEq), 200, Non),
            Punct::ExactEq => (op(BinOp::ExactEq), 200, Non),
            Punct::ExactNotEq => (op(BinOp::ExactNotEq), 200, Non),
            Punct::Less => (op(BinOp::Less), 200, Non),
            Punct::LessEq => (op(BinOp::LessEq), 200, Non),
            Punct::Greater => (op(BinOp::Greater), 200, Non),
            Punct::GreaterEq => (op(BinOp::GreaterEq), 200, Non),
            Punct::PlusPlus => (op(BinOp::Append), 300, Right),
            Punct::MinusMinus => (op(BinOp::Subtract), 300, Right),
            Punct::Plus => (op(BinOp::Add), 400, Left),
            Punct::Minus => (op(BinOp::Sub), 400, Left),
            Punct::Star => (op(BinOp::Mul), 500, Left),
            Punct::Slash => (op(BinOp::FDiv), 500, Left),
            _ => return None,
        },
        TokenKind::Keyword(k) => match k {
            Keyword::Orelse => (Infix::Orelse, 150, Right),
            Keyword::Andalso => (Infix::Andalso, 160, Right),
            Keyword::Bor => (op(BinOp::Bor), 400, Left),
            Keyword::Bxor => (op(BinOp::Bxor), 400, Left),
            Keyword::Bsl => (op(BinOp::Bsl), 400, Left),
            Keyword::Bsr => (op(BinOp::Bsr), 400, Left),
            Keyword::Or => (op(BinOp::Or), 400, Left),
            Keyword::Xor => (op(BinOp::Xor), 400, Left),
            Keyword::Div => (op(BinOp::Div), 500, Left),
            Keyword::Rem => (op(BinOp::Rem), 500, Left),
            Keyword::Band => (op(BinOp::Band), 500, Left),
            Keyword::And => (op(BinOp::And), 500, Left),
            _ => return None,
        },
        _ => return None,
    })
}

fn quote_punct(p: Punct) -> String {
    format!("'{}'", p.as_str())
}

/// How a token is named in "expected X but found Y".
/// Can this token start the body of a `maybe` block opened by the atom
/// `maybe`? Tokens that may follow an atom in an expression (`(`, `:`, `#`,
/// operators, `catch` after a `try` body) are left out, so `maybe(X)`,
/// `maybe:f()` and `maybe + 1` keep their OTP 25 meaning.
fn starts_maybe_body(t: &TokenKind) -> bool {
    match t {
        TokenKind::Var(_)
        | TokenKind::Atom(_)
        | TokenKind::Integer(_)
        | TokenKind::Float(_)
        | TokenKind::Char(_)
        | TokenKind::String(_)
        | TokenKind::Sigil { .. } => true,
        TokenKind::Punct(p) => matches!(p, Punct::LBrace | Punct::LBracket | Punct::BinOpen),
        TokenKind::Keyword(k) => matches!(
            k,
            Keyword::Fun
                | Keyword::Case
                | Keyword::If
                | Keyword::Receive
                | Keyword::Try
                | Keyword::Begin
                | Keyword::Maybe
                | Keyword::Not
                | Keyword::Bnot
        ),
        _ => false,
    }
}

fn describe(t: &TokenKind) -> String {
    match t {
        TokenKind::Atom(a) => format!("atom '{a}'"),
        TokenKind::Var(v) => format!("variable {v}"),
        TokenKind::Integer(IntLit::Small(i)) => format!("integer {i}"),
        TokenKind::Integer(IntLit::Big(i)) => format!("integer {i}"),
        TokenKind::Float(f) => format!("float {f}"),
        TokenKind::Char(_) => "a character literal".to_string(),
        TokenKind::String(_) => "a string".to_string(),
        TokenKind::Sigil { .. } => "a sigil string".to_string(),
        TokenKind::Keyword(k) => format!("'{}'", k.as_str()),
        TokenKind::Punct(p) => quote_punct(*p),
        TokenKind::Eof => "end of file".to_string(),
    }
}

#[cfg(test)]
mod tests;
