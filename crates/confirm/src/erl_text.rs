//! Erlang source text of the values a harness writes: atoms quoted as the
//! compiler wants them, string literals, and the constants of the program's
//! own code.

/// An atom as Erlang source writes it (quoted when needed).
pub(crate) fn atom(name: &str) -> String {
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@')
        && !is_reserved(name);
    if plain {
        name.to_string()
    } else {
        let escaped = name.replace('\\', "\\\\").replace('\'', "\\'");
        format!("'{escaped}'")
    }
}

fn is_reserved(word: &str) -> bool {
    matches!(
        word,
        "after"
            | "and"
            | "andalso"
            | "band"
            | "begin"
            | "bnot"
            | "bor"
            | "bsl"
            | "bsr"
            | "bxor"
            | "case"
            | "catch"
            | "cond"
            | "div"
            | "end"
            | "fun"
            | "if"
            | "let"
            | "not"
            | "of"
            | "or"
            | "orelse"
            | "receive"
            | "rem"
            | "try"
            | "when"
            | "xor"
            | "maybe"
            | "else"
    )
}

/// Erlang text of a constant expression (literals, tuples, lists, binaries of strings).
pub(crate) fn const_text(
    body: &racewit_syntax::ir::Body,
    e: racewit_syntax::ir::ExprId,
) -> Option<String> {
    literal_text(body, e, false)
}

/// Erlang text of a constant expression as a value to pass: what
/// [`const_text`] reads, and map literals of constants (`#{}` and
/// `#{port => 80}`, a configuration a call site passes). Kept apart from
/// [`const_text`], which also compares calls' arguments, where a map as
/// common as `#{}` would tie calls that share nothing.
pub(crate) fn value_text(
    body: &racewit_syntax::ir::Body,
    e: racewit_syntax::ir::ExprId,
) -> Option<String> {
    literal_text(body, e, true)
}

/// Erlang text of a constant expression, with map literals of constants
/// when `maps` says so (at any depth).
fn literal_text(
    body: &racewit_syntax::ir::Body,
    e: racewit_syntax::ir::ExprId,
    maps: bool,
) -> Option<String> {
    use racewit_syntax::ir::{BinType, Expr, Literal};
    Some(match body.expr(e) {
        Expr::Map { base: None, fields } if maps => {
            let parts: Option<Vec<String>> = fields
                .iter()
                .map(|f| {
                    Some(format!(
                        "{} => {}",
                        literal_text(body, f.key, maps)?,
                        literal_text(body, f.value, maps)?
                    ))
                })
                .collect();
            format!("#{{{}}}", parts?.join(", "))
        }
        Expr::Lit(Literal::Atom(a)) => atom(a),
        Expr::Lit(Literal::Int(i)) => i.to_string(),
        Expr::Lit(Literal::BigInt(b)) => b.to_string(),
        Expr::Lit(Literal::Float(x)) => format!("{x:?}"),
        Expr::Lit(Literal::String(s)) => erlang_string(s)?,
        Expr::Nil => "[]".into(),
        Expr::Tuple(items) => {
            let parts: Option<Vec<String>> =
                items.iter().map(|&i| literal_text(body, i, maps)).collect();
            format!("{{{}}}", parts?.join(", "))
        }
        Expr::Cons(h, t) => {
            let mut parts = vec![literal_text(body, *h, maps)?];
            let mut tail = *t;
            loop {
                match body.expr(tail) {
                    Expr::Nil => break,
                    Expr::Cons(h2, t2) => {
                        parts.push(literal_text(body, *h2, maps)?);
                        tail = *t2;
                    }
                    _ => return None,
                }
            }
            format!("[{}]", parts.join(", "))
        }
        Expr::Binary(segs) => {
            let mut text = String::new();
            for seg in segs {
                if seg.size.is_some() || !matches!(seg.ty, BinType::Integer) {
                    return None;
                }
                match body.expr(seg.value) {
                    Expr::Lit(Literal::String(s)) => text.push_str(s),
                    Expr::Lit(Literal::Int(b)) if (0..=255).contains(b) => {
                        text.push(char::from(*b as u8))
                    }
                    _ => return None,
                }
            }
            format!("<<{}>>", erlang_string(&text)?)
        }
        _ => return None,
    })
}

/// A printable ASCII string as an Erlang string literal.
fn erlang_string(s: &str) -> Option<String> {
    if !s.chars().all(|c| (' '..='~').contains(&c)) {
        return None;
    }
    Some(format!(
        "\"{}\"",
        s.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// Erlang text of a constant term (a record field's default, say); `None`
/// for [`Const::NotConstant`] anywhere inside.
///
/// [`Const::NotConstant`]: racewit_syntax::ir::Const::NotConstant
pub(crate) fn const_term_text(c: &racewit_syntax::ir::Const) -> Option<String> {
    use racewit_syntax::ir::Const;
    let all =
        |items: &[Const]| -> Option<Vec<String>> { items.iter().map(const_term_text).collect() };
    Some(match c {
        Const::Atom(a) => atom(a),
        Const::Int(i) => i.to_string(),
        Const::BigInt(b) => b.clone(),
        Const::Float(x) => format!("{x:?}"),
        Const::String(s) => match erlang_string(s) {
            Some(text) => text,
            None => format!(
                "[{}]",
                s.chars()
                    .map(|c| u32::from(c).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
        Const::Nil => "[]".into(),
        Const::Cons(h, t) => {
            let mut parts = vec![const_term_text(h)?];
            let mut tail = t.as_ref();
            loop {
                match tail {
                    Const::Nil => break format!("[{}]", parts.join(", ")),
                    Const::Cons(h2, t2) => {
                        parts.push(const_term_text(h2)?);
                        tail = t2;
                    }
                    other => break format!("[{} | {}]", parts.join(", "), const_term_text(other)?),
                }
            }
        }
        Const::Tuple(items) => format!("{{{}}}", all(items)?.join(", ")),
        Const::Binary(bytes) => format!(
            "<<{}>>",
            bytes
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Const::Map(pairs) => {
            let parts: Option<Vec<String>> = pairs
                .iter()
                .map(|(k, v)| {
                    Some(format!(
                        "{} => {}",
                        const_term_text(k)?,
                        const_term_text(v)?
                    ))
                })
                .collect();
            format!("#{{{}}}", parts?.join(", "))
        }
        Const::FunRef {
            module: Some(m),
            name,
            arity,
        } => format!("fun {}:{}/{arity}", atom(m), atom(name)),
        Const::FunRef { module: None, .. } | Const::NotConstant => return None,
    })
}
