//! `io:format/1,2,3`, `io:fwrite`, `io:put_chars`, `io_lib:format/2`: the
//! control sequences of `io_lib:format` (`~p ~w ~s ~n ~c ~b ~x ~e ~f ~g ~i`...).
//! Output is captured per process, never written anywhere.

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, badarg, chardata_string};
use crate::format::{atom_text, format_float, print_term_at, write_term};
use crate::term::Term;

pub fn register(t: &mut Table) {
    t.ctx("io", "format", 1, |ctx, a| out(ctx, &a[0], &Term::Nil));
    t.ctx("io", "format", 2, |ctx, a| out(ctx, &a[0], &a[1]));
    t.ctx("io", "format", 3, out_dev);
    t.ctx("io", "fwrite", 1, |ctx, a| out(ctx, &a[0], &Term::Nil));
    t.ctx("io", "fwrite", 2, |ctx, a| out(ctx, &a[0], &a[1]));
    t.ctx("io", "fwrite", 3, out_dev);
    t.ctx("io", "put_chars", 1, |ctx, a| put_chars(ctx, &a[0]));
    t.ctx("io", "put_chars", 2, |ctx, a| put_chars(ctx, &a[1]));
    t.ctx("io", "nl", 0, |ctx, _| {
        crate::bif::erlang::output(ctx, "\n".into());
        Flow::Value(Term::ok())
    });
    t.ctx("io", "write", 1, |ctx, a| {
        if let Err(e) = crate::limits::room_to_print(&a[0]) {
            return Flow::error(e);
        }
        crate::bif::erlang::output(ctx, write_term(&a[0]));
        Flow::Value(Term::ok())
    });
    t.pure("io_lib", "format", 2, |a| {
        format_term(&a[0], &a[1]).map(|s| Term::string(&s))
    });
    t.pure("io_lib", "fwrite", 2, |a| {
        format_term(&a[0], &a[1]).map(|s| Term::string(&s))
    });
    t.pure("io_lib", "write", 1, |a| {
        crate::limits::room_to_print(&a[0])?;
        Ok(Term::string(&write_term(&a[0])))
    });
    t.pure("io_lib", "printable_list", 1, |a| {
        Ok(Term::bool(
            crate::format::printable_list(&a[0], false).is_some(),
        ))
    });
    t.pure("io_lib", "printable_latin1_list", 1, |a| {
        Ok(Term::bool(
            crate::format::printable_list(&a[0], false).is_some(),
        ))
    });
    t.pure("io_lib", "printable_unicode_list", 1, |a| {
        let ok = a[0].list_to_vec().is_some_and(|v| {
            v.iter().all(|c| match c {
                Term::Int(i) => matches!(
                    *i,
                    32..=126 | 160..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF | 8..=13 | 27
                ),
                _ => false,
            })
        });
        Ok(Term::bool(ok))
    });
    t.pure("io_lib", "print", 1, |a| {
        crate::limits::room_to_print(&a[0])?;
        Ok(Term::string(&print_term_at(&a[0], 1, 80, false)))
    });
    t.pure("io_lib", "write_atom", 1, |a| match &a[0] {
        Term::Atom(x) => Ok(Term::string(&atom_text(*x))),
        _ => Err(badarg()),
    });
    t.pure("io_lib", "write_string", 1, |a| {
        let s = a[0].as_charlist().ok_or_else(badarg)?;
        let chars: Vec<u32> = s.chars().map(|c| c as u32).collect();
        Ok(Term::string(&crate::format::string_text(&chars)))
    });
}

fn out_dev(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    match &a[0] {
        Term::Atom(d)
            if d.name() == "standard_io" || d.name() == "user" || d.name() == "standard_error" =>
        {
            out(ctx, &a[1], &a[2])
        }
        Term::Pid(_) => out(ctx, &a[1], &a[2]),
        _ => Flow::Park(format!("io:format/3 to {}", write_term(&a[0]))),
    }
}

fn out(ctx: &mut Ctx<'_>, fmt: &Term, args: &Term) -> Flow {
    match format_term(fmt, args) {
        Ok(s) => {
            crate::bif::erlang::output(ctx, s);
            Flow::Value(Term::ok())
        }
        Err(e) => Flow::error(e),
    }
}

fn put_chars(ctx: &mut Ctx<'_>, data: &Term) -> Flow {
    let mut s = String::new();
    if chardata_string(data, &mut s).is_err() {
        return Flow::badarg();
    }
    crate::bif::erlang::output(ctx, s);
    Flow::Value(Term::ok())
}

fn format_term(fmt: &Term, args: &Term) -> Result<String, Term> {
    let f = match fmt {
        Term::Atom(a) => a.name().to_string(),
        other => {
            let mut s = String::new();
            chardata_string(other, &mut s)?;
            s
        }
    };
    let args = args.list_to_vec().ok_or_else(badarg)?;
    for a in &args {
        crate::limits::room_to_print(a)?;
    }
    format(&f, &args)
}

/// `io_lib:format/2` into a String.
pub fn format(fmt: &str, args: &[Term]) -> Result<String, Term> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut args = args.iter();
    let mut i = 0;
    let next = |args: &mut std::slice::Iter<'_, Term>| args.next().cloned().ok_or_else(badarg);
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '~' {
            out.push(c);
            continue;
        }
        // ~[-][Width][.Precision][.Pad][t|l]Control
        let mut left = false;
        if chars.get(i) == Some(&'-') {
            left = true;
            i += 1;
        }
        let mut width: Option<usize> = None;
        let mut precision: Option<usize> = None;
        let mut pad = ' ';
        let read_num =
            |i: &mut usize, args: &mut std::slice::Iter<'_, Term>| -> Result<Option<usize>, Term> {
                // A field may be as wide as asked: room for it first.
                let room = |n: u64| -> Result<(), Term> {
                    if n > 4096 {
                        crate::limits::room_for(n, crate::limits::CONS_WORDS)?;
                    }
                    Ok(())
                };
                if chars.get(*i) == Some(&'*') {
                    *i += 1;
                    let v = args.next().and_then(|t| t.as_int()).ok_or_else(badarg)?;
                    room(v.unsigned_abs())?;
                    return Ok(Some(v.unsigned_abs() as usize));
                }
                let start = *i;
                while *i < chars.len() && chars[*i].is_ascii_digit() {
                    *i += 1;
                }
                if *i > start {
                    let n: Option<usize> = chars[start..*i].iter().collect::<String>().parse().ok();
                    room(n.unwrap_or(usize::MAX) as u64)?;
                    Ok(n)
                } else {
                    Ok(None)
                }
            };
        width = read_num(&mut i, &mut args)?.or(width);
        if chars.get(i) == Some(&'.') {
            i += 1;
            precision = read_num(&mut i, &mut args)?;
            if chars.get(i) == Some(&'.') {
                i += 1;
                if chars.get(i) == Some(&'*') {
                    i += 1;
                    let v = next(&mut args)?;
                    pad = v
                        .as_int()
                        .and_then(|n| char::from_u32(n as u32))
                        .ok_or_else(badarg)?;
                } else {
                    pad = *chars.get(i).ok_or_else(badarg)?;
                    i += 1;
                }
            }
        }
        let mut unicode = false;
        let mut no_strings = false;
        while let Some(&m) = chars.get(i) {
            match m {
                't' => unicode = true,
                'l' => no_strings = true,
                'k' => {}
                _ => break,
            }
            i += 1;
        }
        let ctl = *chars.get(i).ok_or_else(badarg)?;
        i += 1;
        let col = out
            .rsplit('\n')
            .next()
            .map(|l| {
                l.chars()
                    .fold(0, |c, ch| if ch == '\t' { (c + 8) / 8 * 8 } else { c + 1 })
            })
            .unwrap_or(0) as i64;
        let text = match ctl {
            '~' => "~".repeat(width.unwrap_or(1)),
            'n' => "\n".repeat(width.unwrap_or(1)),
            'c' => {
                let v = next(&mut args)?;
                let ch = v
                    .as_int()
                    .and_then(|n| char::from_u32(n as u32))
                    .ok_or_else(badarg)?;
                let n = width.unwrap_or(1);
                out.push_str(&ch.to_string().repeat(n));
                continue;
            }
            's' => {
                let v = next(&mut args)?;
                let mut s = match &v {
                    Term::Atom(a) => a.name().to_string(),
                    other => {
                        let mut s = String::new();
                        chardata_string(other, &mut s)?;
                        s
                    }
                };
                if let Some(p) = precision {
                    s = s.chars().take(p).collect();
                }
                pad_to(s, width, left, pad)
            }
            'w' | 'W' => {
                let v = next(&mut args)?;
                let depth = if ctl == 'W' {
                    next(&mut args)?.as_int().ok_or_else(badarg)?
                } else {
                    -1
                };
                term_field(crate::format::write_depth(&v, depth), width, left, pad)
            }
            'p' | 'P' => {
                let v = next(&mut args)?;
                let depth = if ctl == 'P' {
                    next(&mut args)?.as_int().ok_or_else(badarg)?
                } else {
                    -1
                };
                let ll = width.map(|w| w as i64).unwrap_or(80);
                let limited = crate::format::write_depth(&v, depth);
                if depth >= 0 && limited != write_term(&v) {
                    limited
                } else if no_strings {
                    write_term(&v)
                } else {
                    print_term_at(&v, col + 1, ll, unicode)
                }
            }
            'b' | 'B' | 'x' | 'X' | '#' | '+' => {
                let v = next(&mut args)?;
                let base = precision.unwrap_or(10);
                if !(2..=36).contains(&base) {
                    return Err(badarg());
                }
                let n = v.as_big().ok_or_else(badarg)?;
                let mut digits = n.magnitude().to_str_radix(base as u32);
                if matches!(ctl, 'B' | 'X' | '#' | '+') {
                    digits = digits.to_uppercase();
                }
                let sign = if n.sign() == num_bigint::Sign::Minus {
                    "-"
                } else {
                    ""
                };
                let s = match ctl {
                    'x' | 'X' => {
                        let prefix = next(&mut args)?;
                        let mut p = String::new();
                        match &prefix {
                            Term::Atom(a) => p.push_str(a.name()),
                            other => chardata_string(other, &mut p)?,
                        }
                        format!("{sign}{p}{digits}")
                    }
                    '#' | '+' => format!("{sign}{base}#{digits}"),
                    _ => format!("{sign}{digits}"),
                };
                let s = if ctl == 'b' || ctl == 'x' || ctl == '+' {
                    if ctl == 'b' { s.to_lowercase() } else { s }
                } else {
                    s
                };
                term_field(s, width, left, pad)
            }
            'e' | 'f' | 'g' => {
                let v = next(&mut args)?;
                let Term::Float(x) = v else {
                    return Err(badarg());
                };
                let p = precision.unwrap_or(6);
                let s = match ctl {
                    'f' => crate::bif::erlang_fixed_decimals(x, p),
                    'e' => fmt_e(x, p),
                    _ => {
                        let a = x.abs();
                        let e: Option<i64> = if a < 0.1 {
                            Some(-2)
                        } else if a < 1.0 {
                            Some(-1)
                        } else if a < 10.0 {
                            Some(0)
                        } else if a < 100.0 {
                            Some(1)
                        } else if a < 1000.0 {
                            Some(2)
                        } else if a < 10000.0 {
                            Some(3)
                        } else {
                            None
                        };
                        let p = p as i64;
                        match e {
                            None if p <= 1 => fmt_e(x, 2),
                            None => fmt_e(x, p as usize),
                            Some(e) if (p <= 1 && e == -1) || (p - 1 > e && e >= -1) => {
                                crate::bif::erlang_fixed_decimals(x, (p - 1 - e) as usize)
                            }
                            Some(_) if p <= 1 => fmt_e(x, 2),
                            Some(_) => fmt_e(x, p as usize),
                        }
                    }
                };
                term_field(s, width, left, pad)
            }
            'i' => {
                next(&mut args)?;
                String::new()
            }
            _ => return Err(badarg()),
        };
        out.push_str(&text);
    }
    if args.next().is_some() {
        return Err(badarg());
    }
    let _ = format_float;
    let _ = Atom::OK;
    Ok(out)
}

/// `~e`: `P` significant digits, exponent without padding (`1.00000e+0`).
fn fmt_e(x: f64, p: usize) -> String {
    let p = p.max(2);
    let s = format!("{:.*e}", p - 1, x);
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    format!("{}e{}{}", m, if e < 0 { '-' } else { '+' }, e.abs())
}

/// A field for a term (`~w`, numbers): too long fills the field with `*`.
fn term_field(s: String, width: Option<usize>, left: bool, pad: char) -> String {
    let Some(w) = width else { return s };
    if s.chars().count() > w {
        return "*".repeat(w);
    }
    pad_to(s, width, left, pad)
}

fn pad_to(s: String, width: Option<usize>, left: bool, pad: char) -> String {
    let Some(w) = width else { return s };
    let n = s.chars().count();
    if n >= w {
        // Too long: the BEAM fills the field with '*' for numbers; strings are cut.
        return s.chars().take(w).collect();
    }
    let fill: String = std::iter::repeat_n(pad, w - n).collect();
    if left {
        format!("{s}{fill}")
    } else {
        format!("{fill}{s}")
    }
}
