//! Evaluation of `-if(Expr).` and `-elif(Expr).` conditions, as `epp` does:
//! the (macro-expanded) expression must be a guard expression; `defined(M)`
//! tests a macro; an expression that raises evaluates to `false`.
//! Integers are 128-bit: an operation whose result does not fit raises.

use std::cmp::Ordering;

use smol_str::SmolStr;

use crate::token::{IntLit, Keyword, Punct, Token, TokenKind};

/// The outcome of a condition.
#[derive(Debug, PartialEq, Eq)]
pub enum CondResult {
    True,
    /// False, or the expression raised an exception (as `epp`).
    False,
    /// Not a guard expression; the message says what was expected.
    Bad(String),
}

/// Deepest nesting of a condition accepted.
const MAX_NESTING: u32 = 200;

/// A value of the condition language.
#[derive(Clone, Debug)]
enum Value {
    Int(i128),
    Float(f64),
    Atom(SmolStr),
    Tuple(Vec<Value>),
    /// A proper list (strings become lists of character codes).
    List(Vec<Value>),
}

/// Evaluation failed: `Raise` is an Erlang exception (→ false), `Bad` a
/// malformed expression.
enum Fail {
    Raise,
    Bad(String),
}

/// Evaluate `( Expr )` followed by a form-ending dot; `tokens` are already
/// macro-expanded. `is_defined` answers `defined(Name)`.
pub fn eval_condition(tokens: &[Token], is_defined: &dyn Fn(&str) -> bool) -> CondResult {
    let mut p = CondParser {
        toks: tokens,
        pos: 0,
        depth: 0,
        is_defined,
    };
    let r = (|| {
        p.expect(Punct::LParen)?;
        let v = p.expr(0)?;
        p.expect(Punct::RParen)?;
        if p.pos < p.toks.len() && !p.at_punct(Punct::Dot) {
            return Err(Fail::Bad(
                "expected `).` after the condition (one guard expression)".into(),
            ));
        }
        Ok(v)
    })();
    match r {
        Ok(Value::Atom(a)) if a == "true" => CondResult::True,
        Ok(_) | Err(Fail::Raise) => CondResult::False,
        Err(Fail::Bad(m)) => CondResult::Bad(m),
    }
}

struct CondParser<'a> {
    toks: &'a [Token],
    pos: usize,
    /// Nesting of `unary` calls (bounded: no stack overflow on deep input).
    depth: u32,
    is_defined: &'a dyn Fn(&str) -> bool,
}

#[derive(Clone, Copy)]
enum Op {
    Orelse,
    Andalso,
    Cmp(Punct),
    Append,
    Subtract,
    Add,
    Sub,
    Bor,
    Bxor,
    Bsl,
    Bsr,
    Or,
    Xor,
    Mul,
    FDiv,
    Div,
    Rem,
    Band,
    And,
}

impl CondParser<'_> {
    fn peek(&self) -> Option<&TokenKind> {
        self.toks.get(self.pos).map(|t| &t.kind)
    }

    fn at_punct(&self, p: Punct) -> bool {
        self.peek() == Some(&TokenKind::Punct(p))
    }

    fn expect(&mut self, p: Punct) -> Result<(), Fail> {
        if self.at_punct(p) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Fail::Bad(format!(
                "expected `{}` in the condition",
                p.as_str()
            )))
        }
    }

    /// The binary operator at the cursor: (op, precedence, right-assoc).
    fn binop(&self) -> Option<(Op, u8, bool)> {
        Some(match self.peek()? {
            TokenKind::Keyword(Keyword::Orelse) => (Op::Orelse, 1, true),
            TokenKind::Keyword(Keyword::Andalso) => (Op::Andalso, 2, true),
            TokenKind::Punct(
                p @ (Punct::Eq
                | Punct::NotEq
                | Punct::ExactEq
                | Punct::ExactNotEq
                | Punct::Less
                | Punct::LessEq
                | Punct::Greater
                | Punct::GreaterEq),
            ) => (Op::Cmp(*p), 3, false),
            TokenKind::Punct(Punct::PlusPlus) => (Op::Append, 4, true),
            TokenKind::Punct(Punct::MinusMinus) => (Op::Subtract, 4, true),
            TokenKind::Punct(Punct::Plus) => (Op::Add, 5, false),
            TokenKind::Punct(Punct::Minus) => (Op::Sub, 5, false),
            TokenKind::Keyword(Keyword::Bor) => (Op::Bor, 5, false),
            TokenKind::Keyword(Keyword::Bxor) => (Op::Bxor, 5, false),
            TokenKind::Keyword(Keyword::Bsl) => (Op::Bsl, 5, false),
            TokenKind::Keyword(Keyword::Bsr) => (Op::Bsr, 5, false),
            TokenKind::Keyword(Keyword::Or) => (Op::Or, 5, false),
            TokenKind::Keyword(Keyword::Xor) => (Op::Xor, 5, false),
            TokenKind::Punct(Punct::Star) => (Op::Mul, 6, false),
            TokenKind::Punct(Punct::Slash) => (Op::FDiv, 6, false),
            TokenKind::Keyword(Keyword::Div) => (Op::Div, 6, false),
            TokenKind::Keyword(Keyword::Rem) => (Op::Rem, 6, false),
            TokenKind::Keyword(Keyword::Band) => (Op::Band, 6, false),
            TokenKind::Keyword(Keyword::And) => (Op::And, 6, false),
            _ => return None,
        })
    }

    fn expr(&mut self, min_prec: u8) -> Result<Value, Fail> {
        let mut lhs = self.unary()?;
        while let Some((op, prec, right)) = self.binop() {
            if prec < min_prec {
                break;
            }
            self.pos += 1;
            let next = if right { prec } else { prec + 1 };
            // Parse the right side first (syntax errors win over exceptions),
            // then apply; `andalso`/`orelse` short-circuit as in Erlang.
            let rhs = self.expr(next);
            lhs = apply(op, lhs, rhs)?;
            if matches!(op, Op::Cmp(_)) && matches!(self.binop(), Some((Op::Cmp(_), _, _))) {
                return Err(Fail::Bad("comparison operators do not chain".into()));
            }
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Value, Fail> {
        if self.depth >= MAX_NESTING {
            return Err(Fail::Bad("the condition is nested too deeply".into()));
        }
        self.depth += 1;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Value, Fail> {
        match self.peek() {
            Some(TokenKind::Punct(Punct::Minus)) => {
                self.pos += 1;
                match self.unary()? {
                    Value::Int(i) => i.checked_neg().map(Value::Int).ok_or(Fail::Raise),
                    Value::Float(f) => Ok(Value::Float(-f)),
                    _ => Err(Fail::Raise),
                }
            }
            Some(TokenKind::Punct(Punct::Plus)) => {
                self.pos += 1;
                match self.unary()? {
                    v @ (Value::Int(_) | Value::Float(_)) => Ok(v),
                    _ => Err(Fail::Raise),
                }
            }
            Some(TokenKind::Keyword(Keyword::Not)) => {
                self.pos += 1;
                match self.unary()? {
                    Value::Atom(a) if a == "true" => Ok(atom("false")),
                    Value::Atom(a) if a == "false" => Ok(atom("true")),
                    _ => Err(Fail::Raise),
                }
            }
            Some(TokenKind::Keyword(Keyword::Bnot)) => {
                self.pos += 1;
                match self.unary()? {
                    Value::Int(i) => Ok(Value::Int(!i)),
                    _ => Err(Fail::Raise),
                }
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Value, Fail> {
        let Some(t) = self.toks.get(self.pos) else {
            return Err(Fail::Bad("the condition ends too early".into()));
        };
        self.pos += 1;
        match &t.kind {
            TokenKind::Integer(IntLit::Small(i)) => Ok(Value::Int(*i as i128)),
            TokenKind::Integer(IntLit::Big(_)) => Err(Fail::Raise),
            TokenKind::Float(f) => Ok(Value::Float(*f)),
            TokenKind::Char(c) => Ok(Value::Int(*c as i128)),
            TokenKind::String(s) => {
                let mut v: Vec<Value> = s.chars().map(|c| Value::Int(c as i128)).collect();
                // Adjacent strings concatenate.
                while let Some(TokenKind::String(s2)) = self.peek() {
                    v.extend(s2.chars().map(|c| Value::Int(c as i128)));
                    self.pos += 1;
                }
                Ok(Value::List(v))
            }
            TokenKind::Var(_) => Err(Fail::Raise), // unbound variable
            TokenKind::Atom(a) => {
                if a == "defined" && self.at_punct(Punct::LParen) {
                    let name = match self.toks.get(self.pos + 1).map(|t| &t.kind) {
                        Some(TokenKind::Atom(n) | TokenKind::Var(n)) => n.clone(),
                        _ => return Err(Fail::Bad("defined/1 takes a macro name".into())),
                    };
                    self.pos += 2;
                    self.expect(Punct::RParen)?;
                    let d = (self.is_defined)(&name);
                    return Ok(atom(if d { "true" } else { "false" }));
                }
                if self.at_punct(Punct::LParen) {
                    self.pos += 1;
                    let args = self.args(Punct::RParen)?;
                    self.call(a, args)
                } else if self.at_punct(Punct::Colon) {
                    Err(Fail::Bad("remote calls are not allowed in -if".into()))
                } else {
                    Ok(Value::Atom(a.clone()))
                }
            }
            TokenKind::Punct(Punct::LParen) => {
                let v = self.expr(0)?;
                self.expect(Punct::RParen)?;
                Ok(v)
            }
            TokenKind::Punct(Punct::LBrace) => Ok(Value::Tuple(self.args(Punct::RBrace)?)),
            TokenKind::Punct(Punct::LBracket) => {
                let mut items = Vec::new();
                if self.at_punct(Punct::RBracket) {
                    self.pos += 1;
                    return Ok(Value::List(items));
                }
                loop {
                    items.push(self.expr(0)?);
                    if self.at_punct(Punct::Comma) {
                        self.pos += 1;
                        continue;
                    }
                    if self.at_punct(Punct::Pipe) {
                        self.pos += 1;
                        let tail = self.expr(0)?;
                        self.expect(Punct::RBracket)?;
                        return match tail {
                            Value::List(t) => {
                                items.extend(t);
                                Ok(Value::List(items))
                            }
                            _ => Err(Fail::Raise),
                        };
                    }
                    self.expect(Punct::RBracket)?;
                    return Ok(Value::List(items));
                }
            }
            TokenKind::Keyword(k) => Err(Fail::Bad(format!(
                "`{}` is not allowed in a -if condition",
                k.as_str()
            ))),
            other => Err(Fail::Bad(format!(
                "unexpected `{}` in a -if condition",
                crate::lex::token_text(other)
            ))),
        }
    }

    /// Comma-separated expressions up to `close` (the opener consumed).
    fn args(&mut self, close: Punct) -> Result<Vec<Value>, Fail> {
        let mut out = Vec::new();
        if self.at_punct(close) {
            self.pos += 1;
            return Ok(out);
        }
        loop {
            out.push(self.expr(0)?);
            if self.at_punct(Punct::Comma) {
                self.pos += 1;
                continue;
            }
            self.expect(close)?;
            return Ok(out);
        }
    }

    fn call(&mut self, name: &str, args: Vec<Value>) -> Result<Value, Fail> {
        let b = |x: bool| Ok(atom(if x { "true" } else { "false" }));
        match (name, args.as_slice()) {
            ("is_atom", [v]) => b(matches!(v, Value::Atom(_))),
            ("is_integer", [v]) => b(matches!(v, Value::Int(_))),
            ("is_float", [v]) => b(matches!(v, Value::Float(_))),
            ("is_number", [v]) => b(matches!(v, Value::Int(_) | Value::Float(_))),
            ("is_list", [v]) => b(matches!(v, Value::List(_))),
            ("is_tuple", [v]) => b(matches!(v, Value::Tuple(_))),
            ("is_boolean", [Value::Atom(a)]) => b(a == "true" || a == "false"),
            ("is_boolean", [_]) => b(false),
            ("length", [Value::List(l)]) => Ok(Value::Int(l.len() as i128)),
            ("tuple_size" | "size", [Value::Tuple(t)]) => Ok(Value::Int(t.len() as i128)),
            ("abs", [Value::Int(i)]) => i.checked_abs().map(Value::Int).ok_or(Fail::Raise),
            ("abs", [Value::Float(f)]) => Ok(Value::Float(f.abs())),
            ("element", [Value::Int(i), Value::Tuple(t)]) => usize::try_from(i.saturating_sub(1))
                .ok()
                .and_then(|i| t.get(i).cloned())
                .ok_or(Fail::Raise),
            ("hd", [Value::List(l)]) => l.first().cloned().ok_or(Fail::Raise),
            ("tl", [Value::List(l)]) if !l.is_empty() => Ok(Value::List(l[1..].to_vec())),
            ("min", [x, y]) => Ok(if cmp(x, y) == Ordering::Greater {
                y.clone()
            } else {
                x.clone()
            }),
            ("max", [x, y]) => Ok(if cmp(x, y) == Ordering::Less {
                y.clone()
            } else {
                x.clone()
            }),
            ("float", [Value::Int(i)]) => Ok(Value::Float(*i as f64)),
            ("trunc", [Value::Float(f)]) => Ok(Value::Int(f.trunc() as i128)),
            ("round", [Value::Float(f)]) => Ok(Value::Int(f.round() as i128)),
            // Any other function raises (epp evaluates with no local functions).
            _ => Err(Fail::Raise),
        }
    }
}

fn atom(s: &str) -> Value {
    Value::Atom(SmolStr::new(s))
}

fn truth(v: &Value) -> Option<bool> {
    match v {
        Value::Atom(a) if a == "true" => Some(true),
        Value::Atom(a) if a == "false" => Some(false),
        _ => None,
    }
}

fn apply(op: Op, lhs: Value, rhs: Result<Value, Fail>) -> Result<Value, Fail> {
    let b = |x: bool| atom(if x { "true" } else { "false" });
    match op {
        Op::Orelse => match truth(&lhs) {
            Some(true) => match rhs {
                Err(Fail::Bad(m)) => Err(Fail::Bad(m)),
                _ => Ok(b(true)),
            },
            Some(false) => rhs,
            None => Err(Fail::Raise),
        },
        Op::Andalso => match truth(&lhs) {
            Some(false) => match rhs {
                Err(Fail::Bad(m)) => Err(Fail::Bad(m)),
                _ => Ok(b(false)),
            },
            Some(true) => rhs,
            None => Err(Fail::Raise),
        },
        _ => {
            let rhs = rhs?;
            match op {
                Op::Cmp(p) => {
                    let o = cmp(&lhs, &rhs);
                    let exact_eq = || exact(&lhs, &rhs);
                    Ok(b(match p {
                        Punct::Eq => o == Ordering::Equal,
                        Punct::NotEq => o != Ordering::Equal,
                        Punct::ExactEq => exact_eq(),
                        Punct::ExactNotEq => !exact_eq(),
                        Punct::Less => o == Ordering::Less,
                        Punct::LessEq => o != Ordering::Greater,
                        Punct::Greater => o == Ordering::Greater,
                        _ => o != Ordering::Less,
                    }))
                }
                Op::And | Op::Or | Op::Xor => match (truth(&lhs), truth(&rhs)) {
                    (Some(x), Some(y)) => Ok(b(match op {
                        Op::And => x && y,
                        Op::Or => x || y,
                        _ => x != y,
                    })),
                    _ => Err(Fail::Raise),
                },
                Op::Append => match (lhs, rhs) {
                    (Value::List(mut a), Value::List(c)) => {
                        a.extend(c);
                        Ok(Value::List(a))
                    }
                    _ => Err(Fail::Raise),
                },
                Op::Subtract => match (lhs, rhs) {
                    (Value::List(mut a), Value::List(c)) => {
                        for x in c {
                            if let Some(i) = a.iter().position(|y| exact(y, &x)) {
                                a.remove(i);
                            }
                        }
                        Ok(Value::List(a))
                    }
                    _ => Err(Fail::Raise),
                },
                _ => arith(op, lhs, rhs),
            }
        }
    }
}

fn arith(op: Op, lhs: Value, rhs: Value) -> Result<Value, Fail> {
    use Value::{Float, Int};
    let r = match (op, &lhs, &rhs) {
        (Op::FDiv, _, _) => {
            let (x, y) = (num(&lhs)?, num(&rhs)?);
            if y == 0.0 {
                return Err(Fail::Raise);
            }
            Float(x / y)
        }
        (_, Int(x), Int(y)) => {
            let (x, y) = (*x, *y);
            Int(match op {
                Op::Add => x.checked_add(y),
                Op::Sub => x.checked_sub(y),
                Op::Mul => x.checked_mul(y),
                Op::Div => x.checked_div(y),
                Op::Rem => x.checked_rem(y),
                Op::Band => Some(x & y),
                Op::Bor => Some(x | y),
                Op::Bxor => Some(x ^ y),
                Op::Bsl => u32::try_from(y).ok().and_then(|s| x.checked_shl(s)),
                Op::Bsr => u32::try_from(y).ok().map(|s| x >> s.min(127)),
                _ => None,
            }
            .ok_or(Fail::Raise)?)
        }
        (Op::Add | Op::Sub | Op::Mul, _, _) => {
            let (x, y) = (num(&lhs)?, num(&rhs)?);
            Float(match op {
                Op::Add => x + y,
                Op::Sub => x - y,
                _ => x * y,
            })
        }
        _ => return Err(Fail::Raise),
    };
    Ok(r)
}

fn num(v: &Value) -> Result<f64, Fail> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(f) => Ok(*f),
        _ => Err(Fail::Raise),
    }
}

fn rank(v: &Value) -> u8 {
    match v {
        Value::Int(_) | Value::Float(_) => 0,
        Value::Atom(_) => 1,
        Value::Tuple(_) => 2,
        Value::List(l) if l.is_empty() => 3,
        Value::List(_) => 4,
    }
}

/// Erlang term order (numbers compared by value).
fn cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            let (x, y) = (num(a).unwrap_or(0.0), num(b).unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
        (Value::Atom(x), Value::Atom(y)) => x.cmp(y),
        (Value::Tuple(x), Value::Tuple(y)) => x.len().cmp(&y.len()).then_with(|| cmp_seq(x, y)),
        (Value::List(x), Value::List(y)) => cmp_seq(x, y).then(x.len().cmp(&y.len())),
        _ => rank(a).cmp(&rank(b)),
    }
}

fn cmp_seq(x: &[Value], y: &[Value]) -> Ordering {
    for (a, b) in x.iter().zip(y) {
        let o = cmp(a, b);
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

/// `=:=`: like `==` but an integer never equals a float.
fn exact(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(_), Value::Float(_)) | (Value::Float(_), Value::Int(_)) => false,
        (Value::Tuple(x), Value::Tuple(y)) | (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| exact(a, b))
        }
        _ => cmp(a, b) == Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex::tokenize;
    use crate::source::FileId;

    fn check(cond: &str, expected: &str) {
        let (toks, diags) = tokenize(FileId(0), &format!("{cond}.\n"));
        assert!(diags.is_empty(), "{diags:?}");
        let r = eval_condition(&toks, &|m| m == "DEBUG");
        let got = match r {
            CondResult::True => "true".to_string(),
            CondResult::False => "false".to_string(),
            CondResult::Bad(m) => format!("bad: {m}"),
        };
        assert_eq!(got, expected, "condition {cond}");
    }

    #[test]
    fn arithmetic_and_comparison() {
        check("(25 >= 21)", "true");
        check("(1 + 2 * 3 == 7)", "true");
        check("(10 div 3 =:= 3 andalso 10 rem 3 =:= 1)", "true");
        check("(1 == 1.0)", "true");
        check("(1 =:= 1.0)", "false");
        check("(2 bsl 3 > 15 orelse false)", "true");
        check("((-1 < 0) and not false)", "true");
        check("(-1 < 0 and not false)", "false");
        check("(foo < {a} andalso {a} < [])", "true");
        check("(\"ab\" == [97, 98])", "true");
        check("((1 + 2) * 2 == 6)", "true");
    }

    #[test]
    fn defined_and_guards() {
        check("(defined(DEBUG))", "true");
        check("(not defined(NDEBUG))", "true");
        check("(is_atom(foo) and is_integer(3))", "true");
        check("(element(2, {a, b}) == b)", "true");
    }

    #[test]
    fn exceptions_are_false() {
        check("(1 / 0 == 1)", "false");
        check("(foo + 1 > 0)", "false");
        check("(unknown_fun(1))", "false");
        check("(X == 1)", "false");
        check("(42)", "false");
    }

    #[test]
    fn overflow_raises() {
        // Integers are 128-bit here: beyond that an operation raises (the
        // condition is false) where Erlang would go on with a bignum.
        let min = "(-(4611686018427387904 * 4611686018427387904 * 4) * 2)";
        check(&format!("({min} < 0)"), "true");
        check(&format!("(-{min} > 0)"), "false");
        check(&format!("(abs({min}) > 0)"), "false");
        check(&format!("(element({min}, {{a}}) == a)"), "false");
    }

    #[test]
    fn deep_nesting_is_bad_not_a_crash() {
        let deep = format!("({}1{})", "(".repeat(5000), ")".repeat(5000));
        check(&deep, "bad: the condition is nested too deeply");
        let negs = format!("({}1 == 1)", "- ".repeat(5000));
        check(&negs, "bad: the condition is nested too deeply");
    }

    #[test]
    fn malformed_is_bad() {
        check("(1 == )", "bad: unexpected `)` in a -if condition");
        check("(case)", "bad: `case` is not allowed in a -if condition");
        check("(1, 2)", "bad: expected `)` in the condition");
        check("(1 < 2 < 3)", "bad: comparison operators do not chain");
        check("(m:f())", "bad: remote calls are not allowed in -if");
    }
}
