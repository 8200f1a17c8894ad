//! `binary:*` and `unicode:characters_to_{binary,list}` (the common cases).

use crate::atom::Atom;
use crate::bif::{Table, badarg, chardata_string, int_arg, list_arg, tuple2};
use crate::term::Term;

type R = Result<Term, Term>;

fn bytes(t: &Term) -> Result<Vec<u8>, Term> {
    t.as_bytes().ok_or_else(badarg)
}

fn patterns(t: &Term) -> Result<Vec<Vec<u8>>, Term> {
    match t {
        Term::Tuple(x) if x.len() == 2 && x[0].is_atom(Atom::new("racewit_cp")) => patterns(&x[1]),
        Term::Bin(_) => {
            let p = bytes(t)?;
            if p.is_empty() {
                return Err(badarg());
            }
            Ok(vec![p])
        }
        _ => {
            let v: Result<Vec<Vec<u8>>, Term> = list_arg(t)?.iter().map(bytes).collect();
            let v = v?;
            if v.is_empty() || v.iter().any(|p| p.is_empty()) {
                return Err(badarg());
            }
            Ok(v)
        }
    }
}

/// Leftmost-longest matches of any pattern, non-overlapping, within `scope`.
fn find_all(
    h: &[u8],
    pats: &[Vec<u8>],
    from: usize,
    to: usize,
    global: bool,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        let best = pats
            .iter()
            .filter(|p| i + p.len() <= to && &h[i..i + p.len()] == p.as_slice())
            .map(|p| p.len())
            .max();
        match best {
            Some(len) => {
                out.push((i, len));
                if !global {
                    break;
                }
                i += len;
            }
            None => i += 1,
        }
    }
    out
}

fn opts(t: Option<&Term>, len: usize) -> Result<(bool, bool, usize, usize, Vec<Term>), Term> {
    let mut global = false;
    let mut trim = false;
    let (mut from, mut to) = (0, len);
    let mut rest = Vec::new();
    if let Some(t) = t {
        for o in list_arg(t)? {
            match &o {
                Term::Atom(a) if a.name() == "global" => global = true,
                Term::Atom(a) if a.name() == "trim" || a.name() == "trim_all" => trim = true,
                Term::Tuple(x) if x.len() == 2 && x[0].is_atom(Atom::new("scope")) => match &x[1] {
                    Term::Tuple(s) if s.len() == 2 => {
                        let (p, l) = (int_arg(&s[0])?, int_arg(&s[1])?);
                        let (a, b) = if l >= 0 { (p, p + l) } else { (p + l, p) };
                        if a < 0 || b as usize > len {
                            return Err(badarg());
                        }
                        from = a as usize;
                        to = b as usize;
                    }
                    _ => return Err(badarg()),
                },
                other => rest.push(other.clone()),
            }
        }
    }
    Ok((global, trim, from, to, rest))
}

fn split(a: &[Term]) -> R {
    let h = bytes(&a[0])?;
    let pats = patterns(&a[1])?;
    let (global, trim, from, to, rest) = opts(a.get(2), h.len())?;
    let trim_all = a
        .get(2)
        .and_then(|t| t.list_to_vec())
        .is_some_and(|v| v.iter().any(|o| o.is_atom(Atom::new("trim_all"))));
    let _ = rest;
    let ms = find_all(&h, &pats, from, to, global);
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, l) in ms {
        parts.push(h[start..i].to_vec());
        start = i + l;
    }
    parts.push(h[start..].to_vec());
    if trim_all {
        parts.retain(|p| !p.is_empty());
    } else if trim {
        while parts.last().is_some_and(|p| p.is_empty()) {
            parts.pop();
        }
    }
    Ok(Term::list(parts.into_iter().map(Term::binary).collect()))
}

fn replace(a: &[Term]) -> R {
    let h = bytes(&a[0])?;
    let pats = patterns(&a[1])?;
    let rep = bytes(&a[2])?;
    let (global, _trim, from, to, rest) = opts(a.get(3), h.len())?;
    let insert_at: Vec<usize> = rest
        .iter()
        .filter_map(|o| match o {
            Term::Tuple(x) if x.len() == 2 && x[0].is_atom(Atom::new("insert_replaced")) => {
                match &x[1] {
                    Term::Int(i) => Some(vec![*i as usize]),
                    other => other.list_to_vec().map(|v| {
                        v.iter()
                            .filter_map(|t| t.as_int())
                            .map(|i| i as usize)
                            .collect()
                    }),
                }
            }
            _ => None,
        })
        .flatten()
        .collect();
    let ms = find_all(&h, &pats, from, to, global);
    // Each match gives a copy of the replacement (with the match inserted).
    let each = rep.len() + insert_at.len() * ms.iter().map(|(_, l)| *l).max().unwrap_or(0);
    let total = (h.len() + ms.len() * each) as u64;
    crate::limits::room(total / 8 + 10)?;
    let mut out = Vec::new();
    let mut start = 0;
    for (i, l) in ms {
        out.extend_from_slice(&h[start..i]);
        let matched = &h[i..i + l];
        let mut r = rep.clone();
        for &pos in insert_at.iter().rev() {
            if pos <= r.len() {
                r.splice(pos..pos, matched.iter().copied());
            }
        }
        out.extend_from_slice(&r);
        start = i + l;
    }
    out.extend_from_slice(&h[start..]);
    Ok(Term::binary(out))
}

pub fn register(t: &mut Table) {
    t.pure("binary", "compile_pattern", 1, |a| {
        patterns(&a[0])?;
        Ok(tuple2(Term::atom("racewit_cp"), a[0].clone()))
    });
    t.pure("binary", "split", 2, split);
    t.pure("binary", "split", 3, split);
    t.pure("binary", "replace", 3, replace);
    t.pure("binary", "replace", 4, replace);
    t.pure("binary", "match", 2, |a| {
        let h = bytes(&a[0])?;
        let ms = find_all(&h, &patterns(&a[1])?, 0, h.len(), false);
        Ok(match ms.first() {
            Some((i, l)) => tuple2(Term::Int(*i as i64), Term::Int(*l as i64)),
            None => Term::Atom(Atom::NOMATCH),
        })
    });
    t.pure("binary", "match", 3, |a| {
        let h = bytes(&a[0])?;
        let (_, _, from, to, _) = opts(Some(&a[2]), h.len())?;
        let ms = find_all(&h, &patterns(&a[1])?, from, to, false);
        Ok(match ms.first() {
            Some((i, l)) => tuple2(Term::Int(*i as i64), Term::Int(*l as i64)),
            None => Term::Atom(Atom::NOMATCH),
        })
    });
    t.pure("binary", "matches", 2, |a| {
        let h = bytes(&a[0])?;
        let ms = find_all(&h, &patterns(&a[1])?, 0, h.len(), true);
        Ok(Term::list(
            ms.into_iter()
                .map(|(i, l)| tuple2(Term::Int(i as i64), Term::Int(l as i64)))
                .collect(),
        ))
    });
    t.pure("binary", "part", 3, |a| part(&a[0], &a[1], &a[2]));
    t.pure("binary", "part", 2, |a| match &a[1] {
        Term::Tuple(x) if x.len() == 2 => part(&a[0], &x[0], &x[1]),
        _ => Err(badarg()),
    });
    t.pure("binary", "at", 2, |a| {
        let h = bytes(&a[0])?;
        let i = int_arg(&a[1])?;
        h.get(usize::try_from(i).map_err(|_| badarg())?)
            .map(|b| Term::Int(*b as i64))
            .ok_or_else(badarg)
    });
    t.pure("binary", "first", 1, |a| {
        bytes(&a[0])?
            .first()
            .map(|b| Term::Int(*b as i64))
            .ok_or_else(badarg)
    });
    t.pure("binary", "last", 1, |a| {
        bytes(&a[0])?
            .last()
            .map(|b| Term::Int(*b as i64))
            .ok_or_else(badarg)
    });
    t.pure("binary", "copy", 1, |a| Ok(Term::binary(bytes(&a[0])?)));
    t.pure("binary", "copy", 2, |a| {
        let n = int_arg(&a[1])?;
        if n < 0 {
            return Err(badarg());
        }
        let b = bytes(&a[0])?;
        let total = (b.len() as u64).saturating_mul(n as u64);
        crate::limits::room(total / 8 + 10)?;
        Ok(Term::binary(b.repeat(n as usize)))
    });
    t.pure("binary", "bin_to_list", 1, |a| {
        if let Term::Bin(b) = &a[0] {
            crate::limits::room_for(b.len as u64 / 8, crate::limits::CONS_WORDS)?;
        }
        Ok(Term::list(
            bytes(&a[0])?
                .into_iter()
                .map(|b| Term::Int(b as i64))
                .collect(),
        ))
    });
    t.pure("binary", "bin_to_list", 3, |a| {
        let h = bytes(&a[0])?;
        let (p, l) = (int_arg(&a[1])?, int_arg(&a[2])?);
        let (s, e) = if l >= 0 { (p, p + l) } else { (p + l, p) };
        if s < 0 || e as usize > h.len() {
            return Err(badarg());
        }
        Ok(Term::list(
            h[s as usize..e as usize]
                .iter()
                .map(|b| Term::Int(*b as i64))
                .collect(),
        ))
    });
    t.pure("binary", "list_to_bin", 1, |a| {
        let mut out = Vec::new();
        crate::bif::iolist_bytes(&a[0], &mut out)?;
        Ok(Term::binary(out))
    });
    t.pure("binary", "decode_unsigned", 1, |a| {
        Ok(Term::from_big(num_bigint::BigInt::from_bytes_be(
            num_bigint::Sign::Plus,
            &bytes(&a[0])?,
        )))
    });
    t.pure("binary", "decode_unsigned", 2, |a| {
        let mut b = bytes(&a[0])?;
        if a[1].is_atom(Atom::new("little")) {
            b.reverse();
        }
        Ok(Term::from_big(num_bigint::BigInt::from_bytes_be(
            num_bigint::Sign::Plus,
            &b,
        )))
    });
    t.pure("binary", "encode_unsigned", 1, |a| {
        enc_unsigned(&a[0], false)
    });
    t.pure("binary", "encode_unsigned", 2, |a| {
        enc_unsigned(&a[0], a[1].is_atom(Atom::new("little")))
    });
    t.pure("binary", "encode_hex", 1, |a| {
        Ok(Term::binary(
            bytes(&a[0])?
                .iter()
                .map(|b| format!("{b:02X}"))
                .collect::<String>()
                .into_bytes(),
        ))
    });
    t.pure("binary", "encode_hex", 2, |a| {
        let lower = a[1].is_atom(Atom::new("lowercase"));
        Ok(Term::binary(
            bytes(&a[0])?
                .iter()
                .map(|b| {
                    if lower {
                        format!("{b:02x}")
                    } else {
                        format!("{b:02X}")
                    }
                })
                .collect::<String>()
                .into_bytes(),
        ))
    });
    t.pure("binary", "decode_hex", 1, |a| {
        let h = bytes(&a[0])?;
        if h.len() % 2 != 0 {
            return Err(badarg());
        }
        let s = std::str::from_utf8(&h).map_err(|_| badarg())?;
        let v: Result<Vec<u8>, Term> = (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|_| badarg()))
            .collect();
        Ok(Term::binary(v?))
    });
    t.pure("binary", "longest_common_prefix", 1, |a| {
        let bins: Result<Vec<Vec<u8>>, Term> = list_arg(&a[0])?.iter().map(bytes).collect();
        let bins = bins?;
        let first = bins.first().ok_or_else(badarg)?;
        let n = (0..first.len())
            .take_while(|&i| bins.iter().all(|b| b.get(i) == Some(&first[i])))
            .count();
        Ok(Term::Int(n as i64))
    });
    t.pure("binary", "longest_common_suffix", 1, |a| {
        let bins: Result<Vec<Vec<u8>>, Term> = list_arg(&a[0])?.iter().map(bytes).collect();
        let bins = bins?;
        let first = bins.first().ok_or_else(badarg)?;
        let n = (0..first.len())
            .take_while(|&i| {
                bins.iter()
                    .all(|b| b.len() > i && b[b.len() - 1 - i] == first[first.len() - 1 - i])
            })
            .count();
        Ok(Term::Int(n as i64))
    });
    t.pure("string", "list_to_integer", 1, |a| {
        let Some(cs) = a[0].list_to_vec() else {
            return Ok(tuple2(Term::Atom(Atom::ERROR), Term::atom("not_a_list")));
        };
        let chars: Vec<i64> = cs.iter().map(|c| c.as_int().unwrap_or(-1)).collect();
        let mut i = 0;
        if matches!(chars.first(), Some(&43) | Some(&45)) {
            i = 1;
        }
        let start = i;
        while i < chars.len() && (48..=57).contains(&chars[i]) {
            i += 1;
        }
        if i == start {
            return Ok(tuple2(Term::Atom(Atom::ERROR), Term::atom("no_integer")));
        }
        let text: String = chars[..i].iter().map(|&c| c as u8 as char).collect();
        let n = num_bigint::BigInt::parse_bytes(text.trim_start_matches('+').as_bytes(), 10)
            .ok_or_else(badarg)?;
        Ok(tuple2(Term::from_big(n), Term::list(cs[i..].to_vec())))
    });
    t.pure("string", "list_to_float", 1, |a| {
        let Some(cs) = a[0].list_to_vec() else {
            return Ok(tuple2(Term::Atom(Atom::ERROR), Term::atom("not_a_list")));
        };
        let chars: Vec<i64> = cs.iter().map(|c| c.as_int().unwrap_or(-1)).collect();
        let digits = |mut i: usize| {
            let s = i;
            while i < chars.len() && (48..=57).contains(&chars[i]) {
                i += 1;
            }
            (s, i)
        };
        let mut i = if matches!(chars.first(), Some(&43) | Some(&45)) {
            1
        } else {
            0
        };
        let (s1, e1) = digits(i);
        let no = || Ok(tuple2(Term::Atom(Atom::ERROR), Term::atom("no_float")));
        if e1 == s1 || chars.get(e1) != Some(&46) {
            return no();
        }
        let (s2, e2) = digits(e1 + 1);
        if e2 == s2 {
            return no();
        }
        i = e2;
        if matches!(chars.get(i), Some(&101) | Some(&69)) {
            let mut j = i + 1;
            if matches!(chars.get(j), Some(&43) | Some(&45)) {
                j += 1;
            }
            let (s3, e3) = digits(j);
            if e3 > s3 {
                i = e3;
            }
        }
        let text: String = chars[..i].iter().map(|&c| c as u8 as char).collect();
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(tuple2(Term::Float(f), Term::list(cs[i..].to_vec()))),
            _ => no(),
        }
    });
    t.pure("unicode", "characters_to_binary", 1, |a| {
        chars_to_binary(&a[0])
    });
    t.pure("unicode", "characters_to_binary", 2, |a| {
        chars_to_binary(&a[0])
    });
    t.pure("unicode", "characters_to_binary", 3, |a| {
        chars_to_binary(&a[0])
    });
    t.pure("unicode", "characters_to_list", 1, |a| chars_to_list(&a[0]));
    t.pure("unicode", "characters_to_list", 2, |a| chars_to_list(&a[0]));
}

fn part(b: &Term, p: &Term, l: &Term) -> R {
    let h = bytes(b)?;
    let (p, l) = (int_arg(p)?, int_arg(l)?);
    let (s, e) = if l >= 0 { (p, p + l) } else { (p + l, p) };
    if s < 0 || e as usize > h.len() {
        return Err(badarg());
    }
    Ok(Term::binary(h[s as usize..e as usize].to_vec()))
}

fn enc_unsigned(t: &Term, little: bool) -> R {
    let n = t.as_big().ok_or_else(badarg)?;
    if n.sign() == num_bigint::Sign::Minus {
        return Err(badarg());
    }
    let (_, mut b) = n.to_bytes_be();
    if b.is_empty() {
        b.push(0);
    }
    if little {
        b.reverse();
    }
    Ok(Term::binary(b))
}

fn chars_to_binary(t: &Term) -> R {
    let mut s = String::new();
    match chardata_string(t, &mut s) {
        Ok(()) => Ok(Term::binary(s.into_bytes())),
        Err(_) => {
            // Invalid input: {error, SoFar, Rest} in the BEAM; report the simple form.
            Ok(Term::tuple(vec![
                Term::Atom(Atom::ERROR),
                Term::binary(Vec::new()),
                t.clone(),
            ]))
        }
    }
}

fn chars_to_list(t: &Term) -> R {
    let mut s = String::new();
    match t {
        Term::Bin(_) => {
            let b = bytes(t)?;
            match std::str::from_utf8(&b) {
                Ok(x) => s.push_str(x),
                Err(e) => {
                    let ok = &b[..e.valid_up_to()];
                    let good: Vec<Term> = std::str::from_utf8(ok)
                        .unwrap_or("")
                        .chars()
                        .map(|c| Term::Int(c as i64))
                        .collect();
                    return Ok(Term::tuple(vec![
                        Term::Atom(Atom::ERROR),
                        Term::list(good),
                        Term::binary(b[e.valid_up_to()..].to_vec()),
                    ]));
                }
            }
        }
        _ => chardata_string(t, &mut s)?,
    }
    Ok(Term::string(&s))
}
