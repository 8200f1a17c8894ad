//! Erlang terms from a configuration written back as Erlang source, for
//! macro values (`{d, 'SERVER', {global, srv}}` defines `?SERVER` as the
//! text `{global, srv}`).

use racewit_syntax::ir::Const;

/// `c` as Erlang source text; `None` for what is not a constant.
pub fn to_erlang(c: &Const) -> Option<String> {
    let mut out = String::new();
    write(c, &mut out)?;
    Some(out)
}

fn write(c: &Const, out: &mut String) -> Option<()> {
    match c {
        Const::Atom(a) => out.push_str(&atom(a)),
        Const::Int(i) => out.push_str(&i.to_string()),
        Const::BigInt(b) => out.push_str(b),
        Const::Float(f) => out.push_str(&float(*f)?),
        Const::String(s) => out.push_str(&quoted(s, '"')),
        Const::Nil => out.push_str("[]"),
        Const::Cons(..) => {
            out.push('[');
            let mut cur = c;
            let mut first = true;
            loop {
                match cur {
                    Const::Cons(h, t) => {
                        if !first {
                            out.push_str(", ");
                        }
                        first = false;
                        write(h, out)?;
                        cur = t;
                    }
                    Const::Nil => break,
                    tail => {
                        out.push_str(" | ");
                        write(tail, out)?;
                        break;
                    }
                }
            }
            out.push(']');
        }
        Const::Tuple(v) => {
            out.push('{');
            for (i, e) in v.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write(e, out)?;
            }
            out.push('}');
        }
        Const::Binary(bytes) => {
            out.push_str("<<");
            let text: Vec<String> = bytes.iter().map(u8::to_string).collect();
            out.push_str(&text.join(","));
            out.push_str(">>");
        }
        Const::Map(kv) => {
            out.push_str("#{");
            for (i, (k, v)) in kv.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write(k, out)?;
                out.push_str(" => ");
                write(v, out)?;
            }
            out.push('}');
        }
        Const::FunRef {
            module,
            name,
            arity,
        } => {
            out.push_str("fun ");
            if let Some(m) = module {
                out.push_str(&atom(m));
                out.push(':');
            }
            out.push_str(&atom(name));
            out.push_str(&format!("/{arity}"));
        }
        Const::NotConstant => return None,
    }
    Some(())
}

/// An atom, quoted when it must be.
fn atom(a: &str) -> String {
    let mut chars = a.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@')
        && racewit_syntax::lex::keyword(a).is_none();
    if plain {
        a.to_string()
    } else {
        quoted(a, '\'')
    }
}

fn quoted(s: &str, q: char) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// A float as Erlang reads it back (digits on both sides of the point).
fn float(f: f64) -> Option<String> {
    if !f.is_finite() {
        return None;
    }
    let s = format!("{f:?}");
    Some(match s.split_once('e') {
        Some((m, e)) if !m.contains('.') => format!("{m}.0e{e}"),
        Some(_) => s,
        None if s.contains('.') => s,
        None => format!("{s}.0"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_read_back_as_themselves() {
        let text = "{global, 'My Srv', [1, -2.5e-7, \"a\\\"b\\n\" | t], #{k => <<\"xy\">>}, \
                    fun m:f/2, 'receive', 1.0e100, 123456789012345678901234567890}.";
        let (terms, diags) = racewit_syntax::consult::consult(racewit_syntax::FileId(0), text);
        assert!(diags.is_empty(), "{diags:?}");
        let written = to_erlang(&terms[0].0).unwrap();
        assert_eq!(
            written,
            "{global, 'My Srv', [1, -2.5e-7, \"a\\\"b\\n\" | t], #{k => <<120,121>>}, \
             fun m:f/2, 'receive', 1.0e100, 123456789012345678901234567890}"
        );
        let (again, _) =
            racewit_syntax::consult::consult(racewit_syntax::FileId(0), &format!("{written}."));
        assert_eq!(again[0].0, terms[0].0);
    }
}
