//! `erlang:*` BIFs: type tests, conversions, tuples, processes, links,
//! monitors, the registry, the process dictionary, time (deterministic).

use std::sync::Arc;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use racewit_syntax::ir::{BinOp, UnOp};

use crate::atom::Atom;
use crate::bif::{
    Ctx, Flow, Table, atom_arg, badarg, chardata_string, int_arg, iolist_bytes, list_arg, tuple2,
};
use crate::event::{Access, Class, EventKind, Exception, SharedItem};
use crate::format::{self, write_term};
use crate::process::{ProcStatus, Start};
use crate::term::{Fun, MapKey, Pid, Term, compare, exact_eq, float_to_big};
use crate::vm::AliasMode;
use crate::{arith, code::Target, limits};

type R = Result<Term, Term>;

pub fn register(t: &mut Table) {
    macro_rules! test {
        ($name:expr, $pat:pat) => {
            t.pure("erlang", $name, 1, |a| {
                Ok(Term::bool(matches!(&a[0], $pat)))
            });
        };
    }
    test!("is_atom", Term::Atom(_));
    test!("is_integer", Term::Int(_) | Term::Big(_));
    test!("is_float", Term::Float(_));
    test!("is_number", Term::Int(_) | Term::Big(_) | Term::Float(_));
    test!("is_tuple", Term::Tuple(_));
    test!("is_list", Term::Nil | Term::Cons(_));
    test!("is_map", Term::Map(_));
    test!("is_pid", Term::Pid(_));
    test!("is_reference", Term::Ref(_));
    test!("is_function", Term::Fun(_));
    test!("is_bitstring", Term::Bin(_));
    t.pure("erlang", "is_port", 1, |_| Ok(Term::bool(false)));
    t.pure("erlang", "is_binary", 1, |a| {
        Ok(Term::bool(matches!(&a[0], Term::Bin(b) if b.is_binary())))
    });
    t.pure("erlang", "is_boolean", 1, |a| {
        Ok(Term::bool(
            a[0].is_atom(Atom::TRUE) || a[0].is_atom(Atom::FALSE),
        ))
    });
    t.pure("erlang", "is_function", 2, |a| match (&a[0], &a[1]) {
        (Term::Fun(f), Term::Int(n)) => Ok(Term::bool(f.arity() as i64 == *n)),
        (_, Term::Int(_)) => Ok(Term::bool(false)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "is_record", 2, |a| match (&a[0], &a[1]) {
        (Term::Tuple(x), Term::Atom(r)) => Ok(Term::bool(!x.is_empty() && x[0].is_atom(*r))),
        (_, Term::Atom(_)) => Ok(Term::bool(false)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "is_record", 3, |a| match (&a[0], &a[1], &a[2]) {
        (Term::Tuple(x), Term::Atom(r), Term::Int(n)) => Ok(Term::bool(
            x.len() as i64 == *n && !x.is_empty() && x[0].is_atom(*r),
        )),
        (_, Term::Atom(_), Term::Int(_)) => Ok(Term::bool(false)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "is_map_key", 2, |a| match &a[1] {
        Term::Map(m) => Ok(Term::bool(m.contains_key(&MapKey(a[0].clone())))),
        other => Err(tuple2(Term::Atom(Atom::BADMAP), other.clone())),
    });
    t.pure("erlang", "map_get", 2, |a| match &a[1] {
        Term::Map(m) => m
            .get(&MapKey(a[0].clone()))
            .cloned()
            .ok_or_else(|| tuple2(Term::Atom(Atom::BADKEY), a[0].clone())),
        other => Err(tuple2(Term::Atom(Atom::BADMAP), other.clone())),
    });
    t.pure("erlang", "map_size", 1, |a| match &a[0] {
        Term::Map(m) => Ok(Term::Int(m.len() as i64)),
        other => Err(tuple2(Term::Atom(Atom::BADMAP), other.clone())),
    });
    // Operators as functions (fun erlang:'+'/2 and friends).
    for (name, op) in [
        ("+", BinOp::Add),
        ("-", BinOp::Sub),
        ("*", BinOp::Mul),
        ("/", BinOp::FDiv),
        ("div", BinOp::Div),
        ("rem", BinOp::Rem),
        ("band", BinOp::Band),
        ("bor", BinOp::Bor),
        ("bxor", BinOp::Bxor),
        ("bsl", BinOp::Bsl),
        ("bsr", BinOp::Bsr),
        ("and", BinOp::And),
        ("or", BinOp::Or),
        ("xor", BinOp::Xor),
        ("==", BinOp::Eq),
        ("/=", BinOp::NotEq),
        ("=:=", BinOp::ExactEq),
        ("=/=", BinOp::ExactNotEq),
        ("<", BinOp::Less),
        ("=<", BinOp::LessEq),
        (">", BinOp::Greater),
        (">=", BinOp::GreaterEq),
        ("++", BinOp::Append),
        ("--", BinOp::Subtract),
    ] {
        let f: fn(&[Term]) -> R = match op {
            BinOp::Add => |a| arith::binop(BinOp::Add, &a[0], &a[1]),
            BinOp::Sub => |a| arith::binop(BinOp::Sub, &a[0], &a[1]),
            BinOp::Mul => |a| arith::binop(BinOp::Mul, &a[0], &a[1]),
            BinOp::FDiv => |a| arith::binop(BinOp::FDiv, &a[0], &a[1]),
            BinOp::Div => |a| arith::binop(BinOp::Div, &a[0], &a[1]),
            BinOp::Rem => |a| arith::binop(BinOp::Rem, &a[0], &a[1]),
            BinOp::Band => |a| arith::binop(BinOp::Band, &a[0], &a[1]),
            BinOp::Bor => |a| arith::binop(BinOp::Bor, &a[0], &a[1]),
            BinOp::Bxor => |a| arith::binop(BinOp::Bxor, &a[0], &a[1]),
            BinOp::Bsl => |a| arith::binop(BinOp::Bsl, &a[0], &a[1]),
            BinOp::Bsr => |a| arith::binop(BinOp::Bsr, &a[0], &a[1]),
            BinOp::And => |a| arith::binop(BinOp::And, &a[0], &a[1]),
            BinOp::Or => |a| arith::binop(BinOp::Or, &a[0], &a[1]),
            BinOp::Xor => |a| arith::binop(BinOp::Xor, &a[0], &a[1]),
            BinOp::Eq => |a| arith::binop(BinOp::Eq, &a[0], &a[1]),
            BinOp::NotEq => |a| arith::binop(BinOp::NotEq, &a[0], &a[1]),
            BinOp::ExactEq => |a| arith::binop(BinOp::ExactEq, &a[0], &a[1]),
            BinOp::ExactNotEq => |a| arith::binop(BinOp::ExactNotEq, &a[0], &a[1]),
            BinOp::Less => |a| arith::binop(BinOp::Less, &a[0], &a[1]),
            BinOp::LessEq => |a| arith::binop(BinOp::LessEq, &a[0], &a[1]),
            BinOp::Greater => |a| arith::binop(BinOp::Greater, &a[0], &a[1]),
            BinOp::GreaterEq => |a| arith::binop(BinOp::GreaterEq, &a[0], &a[1]),
            BinOp::Append => |a| arith::binop(BinOp::Append, &a[0], &a[1]),
            BinOp::Subtract => |a| arith::binop(BinOp::Subtract, &a[0], &a[1]),
        };
        t.pure("erlang", name, 2, f);
    }
    t.pure("erlang", "-", 1, |a| arith::unop(UnOp::Neg, &a[0]));
    t.pure("erlang", "+", 1, |a| arith::unop(UnOp::Plus, &a[0]));
    t.pure("erlang", "not", 1, |a| arith::unop(UnOp::Not, &a[0]));
    t.pure("erlang", "bnot", 1, |a| arith::unop(UnOp::Bnot, &a[0]));

    t.pure("erlang", "abs", 1, |a| arith::abs(&a[0]));
    t.pure("erlang", "element", 2, |a| match (&a[0], &a[1]) {
        (Term::Int(i), Term::Tuple(t)) if *i >= 1 && (*i as usize) <= t.len() => {
            Ok(t[*i as usize - 1].clone())
        }
        _ => Err(badarg()),
    });
    t.pure("erlang", "setelement", 3, |a| match (&a[0], &a[1]) {
        (Term::Int(i), Term::Tuple(t)) if *i >= 1 && (*i as usize) <= t.len() => {
            let mut v = t.to_vec();
            v[*i as usize - 1] = a[2].clone();
            Ok(Term::tuple(v))
        }
        _ => Err(badarg()),
    });
    t.pure("erlang", "tuple_size", 1, |a| match &a[0] {
        Term::Tuple(t) => Ok(Term::Int(t.len() as i64)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "size", 1, |a| match &a[0] {
        Term::Tuple(t) => Ok(Term::Int(t.len() as i64)),
        Term::Bin(b) => Ok(Term::Int(b.len.div_ceil(8) as i64)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "byte_size", 1, |a| match &a[0] {
        Term::Bin(b) => Ok(Term::Int(b.len.div_ceil(8) as i64)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "bit_size", 1, |a| match &a[0] {
        Term::Bin(b) => Ok(Term::Int(b.len as i64)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "length", 1, |a| {
        a[0].list_len()
            .map(|n| Term::Int(n as i64))
            .ok_or_else(badarg)
    });
    t.pure("erlang", "hd", 1, |a| match &a[0] {
        Term::Cons(c) => Ok(c.head.clone()),
        _ => Err(badarg()),
    });
    t.pure("erlang", "tl", 1, |a| match &a[0] {
        Term::Cons(c) => Ok(c.tail.clone()),
        _ => Err(badarg()),
    });
    t.pure("erlang", "trunc", 1, |a| round_with(&a[0], f64::trunc));
    t.pure("erlang", "round", 1, |a| round_with(&a[0], f64::round));
    t.pure("erlang", "floor", 1, |a| round_with(&a[0], f64::floor));
    t.pure("erlang", "ceil", 1, |a| round_with(&a[0], f64::ceil));
    t.pure("erlang", "float", 1, |a| {
        match arith::number_to_f64(&a[0]) {
            Some(f) if a[0].is_number() && f.is_finite() => Ok(Term::Float(f)),
            _ => Err(badarg()),
        }
    });
    t.pure("erlang", "max", 2, |a| {
        Ok(
            if compare(&a[0], &a[1], false) == std::cmp::Ordering::Less {
                a[1].clone()
            } else {
                a[0].clone()
            },
        )
    });
    t.pure("erlang", "min", 2, |a| {
        Ok(
            if compare(&a[0], &a[1], false) == std::cmp::Ordering::Greater {
                a[1].clone()
            } else {
                a[0].clone()
            },
        )
    });
    t.pure("erlang", "integer_to_list", 1, |a| match &a[0] {
        Term::Int(_) | Term::Big(_) => {
            digits_room(&a[0], limits::CONS_WORDS)?;
            Ok(Term::string(&a[0].as_big().unwrap_or_default().to_string()))
        }
        _ => Err(badarg()),
    });
    t.pure("erlang", "integer_to_list", 2, |a| {
        digits_room(&a[0], limits::CONS_WORDS)?;
        int_to_base(&a[0], &a[1]).map(|s| Term::string(&s))
    });
    t.pure("erlang", "integer_to_binary", 1, |a| match &a[0] {
        Term::Int(_) | Term::Big(_) => Ok(Term::binary(
            a[0].as_big().unwrap_or_default().to_string().into_bytes(),
        )),
        _ => Err(badarg()),
    });
    t.pure("erlang", "integer_to_binary", 2, |a| {
        int_to_base(&a[0], &a[1]).map(|s| Term::binary(s.into_bytes()))
    });
    t.pure("erlang", "list_to_integer", 1, |a| {
        parse_int(&a[0].as_charlist().ok_or_else(badarg)?, 10)
    });
    t.pure("erlang", "list_to_integer", 2, |a| {
        parse_int(
            &a[0].as_charlist().ok_or_else(badarg)?,
            int_arg(&a[1])? as u32,
        )
    });
    t.pure("erlang", "binary_to_integer", 1, |a| {
        parse_int(
            &String::from_utf8(a[0].as_bytes().ok_or_else(badarg)?).map_err(|_| badarg())?,
            10,
        )
    });
    t.pure("erlang", "binary_to_integer", 2, |a| {
        let s = String::from_utf8(a[0].as_bytes().ok_or_else(badarg)?).map_err(|_| badarg())?;
        parse_int(&s, int_arg(&a[1])? as u32)
    });
    t.pure("erlang", "list_to_float", 1, |a| {
        parse_float(&a[0].as_charlist().ok_or_else(badarg)?)
    });
    t.pure("erlang", "binary_to_float", 1, |a| {
        parse_float(&String::from_utf8(a[0].as_bytes().ok_or_else(badarg)?).map_err(|_| badarg())?)
    });
    t.pure("erlang", "float_to_list", 1, |a| match &a[0] {
        Term::Float(f) => Ok(Term::string(&format::float_to_list_default(*f))),
        _ => Err(badarg()),
    });
    t.pure("erlang", "float_to_list", 2, |a| {
        float_to_opts(&a[0], &a[1]).map(|s| Term::string(&s))
    });
    t.pure("erlang", "float_to_binary", 1, |a| match &a[0] {
        Term::Float(f) => Ok(Term::binary(format::float_to_list_default(*f).into_bytes())),
        _ => Err(badarg()),
    });
    t.pure("erlang", "float_to_binary", 2, |a| {
        float_to_opts(&a[0], &a[1]).map(|s| Term::binary(s.into_bytes()))
    });
    t.pure("erlang", "atom_to_list", 1, |a| {
        Ok(Term::string(atom_arg(&a[0])?.name()))
    });
    t.pure("erlang", "atom_to_binary", 1, |a| {
        Ok(Term::binary(atom_arg(&a[0])?.name().as_bytes().to_vec()))
    });
    t.pure("erlang", "atom_to_binary", 2, |a| {
        Ok(Term::binary(atom_arg(&a[0])?.name().as_bytes().to_vec()))
    });
    t.ctx("erlang", "list_to_atom", 1, |ctx, a| {
        let Some(s) = a[0].as_charlist() else {
            return Flow::badarg();
        };
        match ctx.make_atom(&s) {
            Ok(atom) => Flow::Value(Term::Atom(atom)),
            Err(flow) => flow,
        }
    });
    t.pure("erlang", "make_tuple", 3, |a| {
        let n = tuple_size_arg(&a[0])?;
        limits::room(limits::tuple_words(n as usize))?;
        let mut v = vec![a[1].clone(); n as usize];
        for init in list_arg(&a[2])? {
            match &init {
                Term::Tuple(t) if t.len() == 2 => match t[0] {
                    Term::Int(i) if i >= 1 && i <= n => v[i as usize - 1] = t[1].clone(),
                    _ => return Err(badarg()),
                },
                _ => return Err(badarg()),
            }
        }
        Ok(Term::tuple(v))
    });
    t.pure("erlang", "binary_part", 2, |a| match &a[1] {
        Term::Tuple(t) if t.len() == 2 => binary_part(&a[0], &t[0], &t[1]),
        _ => Err(badarg()),
    });
    t.ctx("erlang", "is_builtin", 3, |_, a| {
        match (&a[0], &a[1], &a[2]) {
            (Term::Atom(m), Term::Atom(f), Term::Int(n)) => Flow::Value(Term::bool(
                crate::bif::lookup(*m, *f, *n as u32).is_some() && m.name() == "erlang",
            )),
            _ => Flow::badarg(),
        }
    });
    t.pure("erlang", "list_to_existing_atom", 1, |a| {
        let s = a[0].as_charlist().ok_or_else(badarg)?;
        Atom::existing(&s).map(Term::Atom).ok_or_else(badarg)
    });
    t.ctx("erlang", "binary_to_atom", 1, |ctx, a| {
        bin_to_atom(ctx, &a[0], &Term::atom("utf8"))
    });
    t.ctx("erlang", "binary_to_atom", 2, |ctx, a| {
        bin_to_atom(ctx, &a[0], &a[1])
    });
    t.pure("erlang", "binary_to_existing_atom", 1, |a| {
        existing_atom(&a[0], &Term::atom("utf8"))
    });
    t.pure("erlang", "binary_to_existing_atom", 2, |a| {
        existing_atom(&a[0], &a[1])
    });
    t.pure("erlang", "binary_to_list", 1, |a| {
        let Term::Bin(b) = &a[0] else {
            return Err(badarg());
        };
        limits::room_for(b.len as u64 / 8, limits::CONS_WORDS)?;
        Ok(Term::list(
            a[0].as_bytes()
                .ok_or_else(badarg)?
                .into_iter()
                .map(|b| Term::Int(b as i64))
                .collect(),
        ))
    });
    t.pure("erlang", "binary_to_list", 3, |a| {
        let b = a[0].as_bytes().ok_or_else(badarg)?;
        let (s, e) = (int_arg(&a[1])?, int_arg(&a[2])?);
        if s < 1 || e < s || e as usize > b.len() {
            return Err(badarg());
        }
        limits::room_for((e - s + 1) as u64, limits::CONS_WORDS)?;
        Ok(Term::list(
            b[s as usize - 1..e as usize]
                .iter()
                .map(|&x| Term::Int(x as i64))
                .collect(),
        ))
    });
    t.pure("erlang", "bitstring_to_list", 1, |a| match &a[0] {
        Term::Bin(b) => {
            limits::room_for(b.len as u64 / 8 + 1, limits::CONS_WORDS)?;
            let bytes = b.to_bytes();
            let full = b.len / 8;
            let mut items: Vec<Term> = bytes[..full].iter().map(|&x| Term::Int(x as i64)).collect();
            if b.len % 8 != 0 {
                items.push(Term::Bin(Arc::new(b.sub(full * 8, b.len % 8))));
            }
            Ok(Term::list(items))
        }
        _ => Err(badarg()),
    });
    t.pure("erlang", "list_to_binary", 1, |a| {
        let mut out = Vec::new();
        iolist_bytes(&a[0], &mut out)?;
        Ok(Term::binary(out))
    });
    t.pure("erlang", "iolist_to_binary", 1, |a| {
        let mut out = Vec::new();
        iolist_bytes(&a[0], &mut out)?;
        Ok(Term::binary(out))
    });
    t.pure("erlang", "iolist_size", 1, |a| {
        Ok(Term::Int(iolist_len(&a[0])? as i64))
    });
    t.pure("erlang", "list_to_bitstring", 1, |a| {
        let mut w = crate::pattern::BitWriter::default();
        bitlist(&a[0], &mut w)?;
        Ok(Term::Bin(Arc::new(w.finish())))
    });
    t.pure("erlang", "tuple_to_list", 1, |a| match &a[0] {
        Term::Tuple(t) => Ok(Term::list(t.to_vec())),
        _ => Err(badarg()),
    });
    t.pure("erlang", "list_to_tuple", 1, |a| {
        let items = list_arg(&a[0])?;
        if items.len() > limits::MAX_TUPLE_SIZE {
            return Err(badarg());
        }
        Ok(Term::tuple(items))
    });
    t.pure("erlang", "make_tuple", 2, |a| {
        let n = tuple_size_arg(&a[0])?;
        limits::room(limits::tuple_words(n as usize))?;
        Ok(Term::tuple(vec![a[1].clone(); n as usize]))
    });
    t.pure("erlang", "append_element", 2, |a| match &a[0] {
        Term::Tuple(t) if t.len() < limits::MAX_TUPLE_SIZE => {
            let mut v = t.to_vec();
            v.push(a[1].clone());
            Ok(Term::tuple(v))
        }
        _ => Err(badarg()),
    });
    t.pure("erlang", "delete_element", 2, |a| match (&a[0], &a[1]) {
        (Term::Int(i), Term::Tuple(t)) if *i >= 1 && (*i as usize) <= t.len() => {
            let mut v = t.to_vec();
            v.remove(*i as usize - 1);
            Ok(Term::tuple(v))
        }
        _ => Err(badarg()),
    });
    t.pure("erlang", "insert_element", 3, |a| match (&a[0], &a[1]) {
        (Term::Int(i), Term::Tuple(t))
            if *i >= 1 && (*i as usize) <= t.len() + 1 && t.len() < limits::MAX_TUPLE_SIZE =>
        {
            let mut v = t.to_vec();
            v.insert(*i as usize - 1, a[2].clone());
            Ok(Term::tuple(v))
        }
        _ => Err(badarg()),
    });
    t.pure("erlang", "binary_part", 3, |a| {
        binary_part(&a[0], &a[1], &a[2])
    });
    t.pure("erlang", "split_binary", 2, |a| {
        let b = a[0].as_bytes().ok_or_else(badarg)?;
        let n = int_arg(&a[1])?;
        if n < 0 || n as usize > b.len() {
            return Err(badarg());
        }
        Ok(tuple2(
            Term::binary(b[..n as usize].to_vec()),
            Term::binary(b[n as usize..].to_vec()),
        ))
    });
    t.pure("erlang", "node", 0, |_| Ok(Term::Atom(Atom::NONODE)));
    t.pure("erlang", "node", 1, |_| Ok(Term::Atom(Atom::NONODE)));
    t.pure("erlang", "nodes", 0, |_| Ok(Term::Nil));
    t.pure("erlang", "nodes", 1, |_| Ok(Term::Nil));
    t.pure("erlang", "is_alive", 0, |_| Ok(Term::bool(false)));
    t.pure("erlang", "phash2", 1, |a| {
        Ok(Term::Int((hash_term(&a[0]) % (1 << 27)) as i64))
    });
    t.pure("erlang", "phash2", 2, |a| {
        let n = int_arg(&a[1])?;
        if n < 1 {
            return Err(badarg());
        }
        Ok(Term::Int((hash_term(&a[0]) % n as u64) as i64))
    });
    t.pure("erlang", "phash", 2, |a| {
        let n = int_arg(&a[1])?;
        if n < 1 {
            return Err(badarg());
        }
        Ok(Term::Int((hash_term(&a[0]) % n as u64) as i64 + 1))
    });
    t.pure("erlang", "fun_to_list", 1, |a| {
        Ok(Term::string(&write_term(&a[0])))
    });
    t.pure("erlang", "list_to_pid", 1, |a| {
        // `<0.N.0>` as `pid_to_list/1` writes it (one node).
        let s = a[0].as_charlist().ok_or_else(badarg)?;
        let n: u32 = s
            .strip_prefix("<0.")
            .and_then(|r| r.strip_suffix(".0>"))
            .and_then(|n| n.parse().ok())
            .ok_or_else(badarg)?;
        Ok(Term::Pid(if n < 80 {
            Pid(crate::term::SYSTEM_PID_BASE + n)
        } else {
            Pid(n - 80)
        }))
    });
    t.pure("erlang", "pid_to_list", 1, |a| match &a[0] {
        Term::Pid(_) => Ok(Term::string(&write_term(&a[0]))),
        _ => Err(badarg()),
    });
    t.pure("erlang", "ref_to_list", 1, |a| {
        Ok(Term::string(&write_term(&a[0])))
    });
    t.pure("erlang", "garbage_collect", 0, |_| Ok(Term::bool(true)));
    t.pure("erlang", "fun_info", 2, fun_info);
    // A BIF on the BEAM (`file`'s source has a stub): it wins over the
    // source when a program carries OTP's `file`.
    t.pure("file", "native_name_encoding", 0, |_| {
        Ok(Term::atom("utf8"))
    });
    t.ctx("erlang", "fun_info", 1, |_ctx, a| {
        // An external fun's items are all known; a local fun's also hold
        // the compiler's index and uniq values, which racewit does not have.
        match &a[0] {
            Term::Fun(f) if matches!(&**f, Fun::Export { .. }) => {
                let items: Result<Vec<Term>, Term> = ["module", "name", "arity", "env", "type"]
                    .into_iter()
                    .map(|k| fun_info(&[a[0].clone(), Term::atom(k)]))
                    .collect();
                match items {
                    Ok(items) => Flow::Value(Term::list(items)),
                    Err(e) => Flow::error(e),
                }
            }
            Term::Fun(_) => Flow::Park("erlang:fun_info/1 of a local fun".into()),
            _ => Flow::badarg(),
        }
    });
    t.pure("erlang", "make_fun", 3, |a| {
        match (&a[0], &a[1], a[2].as_int()) {
            (Term::Atom(module), Term::Atom(name), Some(arity @ 0..=255)) => {
                Ok(Term::Fun(std::sync::Arc::new(crate::term::Fun::Export {
                    module: *module,
                    name: *name,
                    arity: arity as u32,
                })))
            }
            _ => Err(badarg()),
        }
    });
    t.pure("erlang", "error", 1, |a| Err(a[0].clone()));
    t.ctx("erlang", "error", 2, |_, a| Flow::error(a[0].clone()));
    t.ctx("erlang", "error", 3, |_, a| Flow::error(a[0].clone()));
    // "Works exactly like error/1,2", as OTP documents it.
    t.pure("erlang", "nif_error", 1, |a| Err(a[0].clone()));
    t.ctx("erlang", "nif_error", 2, |_, a| Flow::error(a[0].clone()));
    t.ctx("erlang", "exit", 1, |_, a| {
        Flow::Raise(Exception::exit(a[0].clone()))
    });
    t.ctx("erlang", "throw", 1, |_, a| {
        Flow::Raise(Exception::throw(a[0].clone()))
    });
    t.ctx("erlang", "raise", 3, |_, a| {
        let class = match a[0].as_atom() {
            Some(Atom::ERROR) => Class::Error,
            Some(Atom::EXIT) => Class::Exit,
            Some(Atom::THROW) => Class::Throw,
            _ => return Flow::Value(Term::Atom(Atom::BADARG)),
        };
        Flow::Raise(Exception {
            class,
            reason: a[1].clone(),
            stack: a[2].clone(),
        })
    });
    t.ctx("erlang", "apply", 2, |_, a| match a[1].list_to_vec() {
        Some(args) => Flow::Apply(a[0].clone(), args),
        None => Flow::badarg(),
    });
    t.ctx("erlang", "apply", 3, |ctx, a| {
        match (&a[0], &a[1], a[2].list_to_vec()) {
            (Term::Atom(m), Term::Atom(f), Some(args)) => {
                Flow::Call(ctx.vm.resolve(*m, *f, args.len() as u32), args)
            }
            _ => Flow::badarg(),
        }
    });
    t.ctx("erlang", "function_exported", 3, |ctx, a| {
        match (&a[0], &a[1], &a[2]) {
            (Term::Atom(m), Term::Atom(f), Term::Int(n)) => Flow::Value(Term::bool(matches!(
                ctx.vm.resolve(*m, *f, *n as u32),
                Target::Code { .. } | Target::Bif(_) | Target::ModuleInfo { .. }
            ))),
            _ => Flow::badarg(),
        }
    });
    t.ctx("erlang", "self", 0, |ctx, _| {
        Flow::Value(Term::Pid(ctx.pid()))
    });
    t.ctx("erlang", "make_ref", 0, |ctx, _| {
        Flow::Value(Term::Ref(ctx.vm.new_ref()))
    });
    t.ctx("erlang", "unique_integer", 0, |ctx, _| {
        ctx.vm.unique += 1;
        Flow::Value(Term::Int(ctx.vm.unique as i64))
    });
    t.ctx("erlang", "unique_integer", 1, |ctx, _| {
        ctx.vm.unique += 1;
        Flow::Value(Term::Int(ctx.vm.unique as i64))
    });
    t.ctx("erlang", "statistics", 1, |ctx, a| {
        match a[0].as_atom().map(|a| a.name()) {
            Some("runtime" | "wall_clock") => {
                let c = crate::bif::clock::elapsed_ms(ctx);
                Flow::Value(tuple2(Term::Int(c), Term::Int(0)))
            }
            Some("reductions") => {
                Flow::Value(tuple2(Term::Int(ctx.vm.reductions as i64), Term::Int(0)))
            }
            _ => Flow::badarg(),
        }
    });
    t.ctx("erlang", "spawn", 1, |ctx, a| {
        spawn(
            ctx,
            Start::Apply(a[0].clone(), vec![]),
            fun_mfa(&a[0]),
            false,
            false,
        )
    });
    t.ctx("erlang", "spawn", 3, |ctx, a| {
        spawn_mfa(ctx, a, false, false)
    });
    t.ctx("erlang", "spawn_link", 1, |ctx, a| {
        spawn(
            ctx,
            Start::Apply(a[0].clone(), vec![]),
            fun_mfa(&a[0]),
            true,
            false,
        )
    });
    t.ctx("erlang", "spawn_link", 3, |ctx, a| {
        spawn_mfa(ctx, a, true, false)
    });
    t.ctx("erlang", "spawn_monitor", 1, |ctx, a| {
        spawn(
            ctx,
            Start::Apply(a[0].clone(), vec![]),
            fun_mfa(&a[0]),
            false,
            true,
        )
    });
    t.ctx("erlang", "spawn_monitor", 3, |ctx, a| {
        spawn_mfa(ctx, a, false, true)
    });
    t.ctx("erlang", "spawn_opt", 4, |ctx, a| {
        let opts = a[3].list_to_vec().unwrap_or_default();
        let link = opts.iter().any(|o| o.is_atom(Atom::new("link")));
        let mon = opts.iter().any(|o| o.is_atom(Atom::new("monitor")));
        spawn_mfa(ctx, &a[..3], link, mon)
    });
    t.ctx("erlang", "spawn_opt", 2, |ctx, a| {
        let opts = a[1].list_to_vec().unwrap_or_default();
        let link = opts.iter().any(|o| o.is_atom(Atom::new("link")));
        let mon = opts.iter().any(|o| o.is_atom(Atom::new("monitor")));
        spawn(
            ctx,
            Start::Apply(a[0].clone(), vec![]),
            fun_mfa(&a[0]),
            link,
            mon,
        )
    });
    // The same with a node first. This run is one node: the local spawn
    // on it, and a call for another parks, named.
    for arity in [2, 4] {
        t.ctx("erlang", "spawn", arity, |_, a| on_node(a, "spawn"));
        t.ctx("erlang", "spawn_link", arity, |_, a| {
            on_node(a, "spawn_link")
        });
        t.ctx("erlang", "spawn_monitor", arity, |_, a| {
            on_node(a, "spawn_monitor")
        });
    }
    for arity in [3, 5] {
        t.ctx("erlang", "spawn_opt", arity, |_, a| on_node(a, "spawn_opt"));
    }
    t.ctx("erlang", "link", 1, link);
    t.ctx("erlang", "unlink", 1, unlink);
    t.ctx("erlang", "monitor", 2, monitor);
    t.ctx("erlang", "alias", 0, alias);
    t.ctx("erlang", "alias", 1, alias);
    t.ctx("erlang", "unalias", 1, unalias);
    t.ctx("erlang", "monitor", 3, monitor);
    t.ctx("erlang", "demonitor", 1, demonitor);
    t.ctx("erlang", "demonitor", 2, demonitor);
    t.ctx("erlang", "exit", 2, exit2);
    t.ctx("erlang", "register", 2, register_name);
    t.ctx("erlang", "unregister", 1, unregister);
    t.ctx("erlang", "whereis", 1, whereis);
    t.ctx("erlang", "registered", 0, registered);
    t.ctx("erlang", "send", 2, send);
    t.ctx("erlang", "send", 3, |ctx, a| match send(ctx, a) {
        Flow::Value(_) => Flow::Value(Term::ok()),
        other => other,
    });
    t.ctx("erlang", "process_flag", 2, process_flag);
    t.ctx("erlang", "is_process_alive", 1, |ctx, a| match a[0] {
        Term::Pid(p) => {
            let alive = ctx.is_alive(p);
            ctx.emit_access(
                EventKind::Local,
                format!("erlang:is_process_alive({}) -> {}", ctx.name_of(p), alive),
                SharedItem::Process(p),
                Access::Read,
            );
            Flow::Value(Term::bool(alive))
        }
        _ => Flow::badarg(),
    });
    t.ctx("erlang", "processes", 0, |ctx, _| {
        let me = ctx.pid();
        let system =
            (0..crate::world::SYSTEM.len()).map(|i| Term::Pid(crate::world::system_pid(i)));
        let v = system
            .chain(
                ctx.vm
                    .procs
                    .iter()
                    .filter(|p| (p.pid == me || p.is_alive()) && !ctx.vm.is_timer(p.pid))
                    .map(|p| Term::Pid(p.pid)),
            )
            .collect();
        Flow::Value(Term::list(v))
    });
    t.ctx("erlang", "process_info", 2, process_info);
    t.ctx("erlang", "process_info", 1, |ctx, a| {
        let items = [
            "registered_name",
            "current_function",
            "initial_call",
            "status",
            "message_queue_len",
            "links",
            "dictionary",
            "trap_exit",
            "priority",
            "group_leader",
            "heap_size",
            "stack_size",
            "reductions",
        ];
        let list = Term::list(items.iter().map(|i| Term::atom(i)).collect());
        match process_info(ctx, &[a[0].clone(), list]) {
            Flow::Value(Term::Cons(c)) => {
                // registered_name is left out when there is none.
                let v: Vec<Term> = Term::Cons(c)
                    .list_iter()
                    .filter(|t| !matches!(t, Term::Tuple(x) if x[0].is_atom(Atom::new("registered_name")) && matches!(x[1], Term::Nil)))
                    .cloned()
                    .collect();
                Flow::Value(Term::list(v))
            }
            other => other,
        }
    });
    t.ctx("erlang", "put", 2, |ctx, a| {
        ctx.vm.note_alloc(6);
        let old = ctx.proc.dict.insert(MapKey(a[0].clone()), a[1].clone());
        Flow::Value(old.unwrap_or_else(Term::undefined))
    });
    t.ctx("erlang", "get", 1, |ctx, a| {
        Flow::Value(
            ctx.proc
                .dict
                .get(&MapKey(a[0].clone()))
                .cloned()
                .unwrap_or_else(Term::undefined),
        )
    });
    t.ctx("erlang", "get", 0, |ctx, _| {
        Flow::Value(Term::list(
            ctx.proc
                .dict
                .iter()
                .map(|(k, v)| tuple2(k.0.clone(), v.clone()))
                .collect(),
        ))
    });
    t.ctx("erlang", "get_keys", 0, |ctx, _| {
        Flow::Value(Term::list(
            ctx.proc.dict.keys().map(|k| k.0.clone()).collect(),
        ))
    });
    t.ctx("erlang", "get_keys", 1, |ctx, a| {
        Flow::Value(Term::list(
            ctx.proc
                .dict
                .iter()
                .filter(|(_, v)| exact_eq(v, &a[0]))
                .map(|(k, _)| k.0.clone())
                .collect(),
        ))
    });
    t.ctx("erlang", "erase", 1, |ctx, a| {
        Flow::Value(
            ctx.proc
                .dict
                .remove(&MapKey(a[0].clone()))
                .unwrap_or_else(Term::undefined),
        )
    });
    t.ctx("erlang", "erase", 0, |ctx, _| {
        let all = Term::list(
            ctx.proc
                .dict
                .iter()
                .map(|(k, v)| tuple2(k.0.clone(), v.clone()))
                .collect(),
        );
        ctx.proc.dict = imbl::OrdMap::new();
        Flow::Value(all)
    });
    t.ctx("erlang", "group_leader", 0, |ctx, _| {
        Flow::Value(Term::Pid(ctx.proc.group_leader))
    });
    t.ctx("erlang", "group_leader", 2, |ctx, a| {
        let (Term::Pid(leader), Term::Pid(of)) = (&a[0], &a[1]) else {
            return Flow::badarg();
        };
        if !ctx.is_alive(*of) {
            return Flow::badarg();
        }
        let (leader, of) = (*leader, *of);
        let text = format!("group_leader({}, {})", ctx.name_of(leader), ctx.name_of(of));
        ctx.emit_access(
            EventKind::Local,
            text,
            SharedItem::Process(of),
            Access::Write,
        );
        if of == ctx.pid() {
            ctx.proc.group_leader = leader;
        } else if let Some(p) = ctx.vm.proc_mut(of) {
            p.group_leader = leader;
        }
        Flow::Value(Term::bool(true))
    });
    t.ctx("erlang", "yield", 0, |ctx, _| {
        ctx.emit(EventKind::Local, "erlang:yield()".into());
        Flow::Value(Term::bool(true))
    });
    t.ctx("erlang", "halt", 0, |ctx, _| halt(ctx, &Term::Int(0), None));
    t.ctx("erlang", "halt", 1, |ctx, a| halt(ctx, &a[0], None));
    t.ctx("erlang", "halt", 2, |ctx, a| halt(ctx, &a[0], Some(&a[1])));
    t.ctx("erlang", "display", 1, |ctx, a| {
        if let Err(e) = limits::room_to_print(&a[0]) {
            return Flow::error(e);
        }
        let text = format!("{}\n", write_term(&a[0]));
        output(ctx, text);
        Flow::Value(Term::bool(true))
    });
    t.ctx("erlang", "system_info", 1, |ctx, a| {
        match a[0].as_atom().map(|a| a.name()) {
            // One scheduler, which every process runs on (`scheduler_id`:
            // folsom's counters pick a slot by it).
            Some("schedulers" | "schedulers_online" | "logical_processors" | "scheduler_id") => {
                Flow::Value(Term::Int(1))
            }
            Some("otp_release") => Flow::Value(Term::string("25")),
            Some("process_count") => Flow::Value(Term::Int(
                (ctx.vm.alive + crate::world::SYSTEM.len()) as i64,
            )),
            Some("wordsize") => Flow::Value(Term::Int(8)),
            // What OTP 25's emulator answers on any 64-bit host.
            Some("smp_support" | "threads" | "time_correction") => Flow::Value(Term::bool(true)),
            Some("debug_compiled") => Flow::Value(Term::bool(false)),
            Some("machine") => Flow::Value(Term::string("BEAM")),
            Some("heap_type") => Flow::Value(Term::atom("private")),
            Some("compat_rel") => Flow::Value(Term::Int(25)),
            Some("multi_scheduling") => Flow::Value(Term::atom("enabled")),
            Some("build_type") => Flow::Value(Term::atom("opt")),
            Some("time_warp_mode") => Flow::Value(Term::atom("no_time_warp")),
            Some("thread_pool_size") => Flow::Value(Term::Int(1)),
            // A node that is not distributed.
            Some("creation") => Flow::Value(Term::Int(0)),
            Some("sequential_tracer") => Flow::Value(Term::tuple(vec![
                Term::atom("sequential_tracer"),
                Term::bool(false),
            ])),
            None => match &a[0] {
                Term::Tuple(t)
                    if t.len() == 2
                        && t[0].as_atom().is_some_and(|x| x.name() == "wordsize")
                        && t[1]
                            .as_atom()
                            .is_some_and(|x| matches!(x.name(), "internal" | "external")) =>
                {
                    Flow::Value(Term::Int(8))
                }
                Term::Tuple(t)
                    if t.len() == 2 && t[0].as_atom().is_some_and(|x| x.name() == "wordsize") =>
                {
                    Flow::badarg()
                }
                _ => Flow::Park(format!("erlang:system_info({})", write_term(&a[0]))),
            },
            _ => Flow::Park(format!("erlang:system_info({})", write_term(&a[0]))),
        }
    });
    t.ctx("erlang", "hibernate", 3, |ctx, a| {
        match (&a[0], &a[1], a[2].list_to_vec()) {
            (Term::Atom(m), Term::Atom(f), Some(args)) => {
                ctx.proc.frames.clear();
                ctx.proc.handlers.clear();
                ctx.proc.clear_stack();
                Flow::Call(ctx.vm.resolve(*m, *f, args.len() as u32), args)
            }
            _ => Flow::badarg(),
        }
    });
}

pub(crate) fn output(ctx: &mut Ctx<'_>, text: String) {
    let pid = ctx.pid();
    let shown: String = text.chars().take(120).collect();
    ctx.emit(EventKind::Output, format!("output {:?}", shown));
    ctx.vm.push_output(pid, text);
}

fn round_with(t: &Term, f: fn(f64) -> f64) -> R {
    match t {
        Term::Int(_) | Term::Big(_) => Ok(t.clone()),
        Term::Float(x) => {
            let r = f(*x);
            if r.abs() < 9.0e18 {
                Ok(Term::Int(r as i64))
            } else {
                Ok(Term::from_big(float_to_big(r)))
            }
        }
        _ => Err(badarg()),
    }
}

/// Room for the text of an integer (at most one digit per bit and a sign),
/// `per_digit` words each.
fn digits_room(v: &Term, per_digit: u64) -> Result<(), Term> {
    if let Term::Big(b) = v {
        limits::room_for(b.bits() + 2, per_digit)?;
    }
    Ok(())
}

fn int_to_base(v: &Term, base: &Term) -> Result<String, Term> {
    let b = v.as_big().ok_or_else(badarg)?;
    let base = int_arg(base)?;
    if !(2..=36).contains(&base) {
        return Err(badarg());
    }
    Ok(b.to_str_radix(base as u32).to_uppercase())
}

fn parse_int(s: &str, base: u32) -> R {
    if !(2..=36).contains(&base) {
        return Err(badarg());
    }
    let t = s.strip_prefix('+').unwrap_or(s);
    if t.is_empty() || t == "-" {
        return Err(badarg());
    }
    BigInt::parse_bytes(t.as_bytes(), base)
        .map(Term::from_big)
        .ok_or_else(badarg)
}

fn parse_float(s: &str) -> R {
    // Erlang requires digits on both sides of the point.
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mant, _) = body.split_once(['e', 'E']).unwrap_or((body, ""));
    let ok = mant.split_once('.').is_some_and(|(a, b)| {
        !a.is_empty() && !b.is_empty() && a.bytes().all(|c| c.is_ascii_digit())
    });
    if !ok {
        return Err(badarg());
    }
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(Term::Float(f)),
        _ => Err(badarg()),
    }
}

fn float_to_opts(v: &Term, opts: &Term) -> Result<String, Term> {
    let Term::Float(f) = v else {
        return Err(badarg());
    };
    let opts = list_arg(opts)?;
    let mut compact = false;
    for o in &opts {
        if o.is_atom(Atom::new("compact")) {
            compact = true;
        }
        if o.is_atom(Atom::new("short")) {
            return Ok(format::format_float(*f));
        }
    }
    for o in &opts {
        if let Term::Tuple(t) = o
            && t.len() == 2
        {
            let n = int_arg(&t[1])?.clamp(0, 253) as usize;
            match t[0].as_atom().map(|a| a.name()) {
                Some("decimals") => {
                    let mut s = format::fixed_decimals(*f, n);
                    if compact && s.contains('.') {
                        while s.ends_with('0') && !s.ends_with(".0") {
                            s.pop();
                        }
                    }
                    return Ok(s);
                }
                Some("scientific") => {
                    let s = format!("{:.*e}", n, f);
                    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
                    let e: i32 = e.parse().unwrap_or(0);
                    return Ok(format!(
                        "{}e{}{:02}",
                        m,
                        if e < 0 { '-' } else { '+' },
                        e.abs()
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(format::float_to_list_default(*f))
}

fn bitlist(t: &Term, w: &mut crate::pattern::BitWriter) -> Result<(), Term> {
    match t {
        Term::Bin(b) => {
            w.push_bits(b);
            Ok(())
        }
        Term::Nil => Ok(()),
        Term::Cons(c) => {
            match &c.head {
                Term::Int(i) if (0..=255).contains(i) => w.push_bytes(&[*i as u8]),
                h @ (Term::Cons(_) | Term::Nil | Term::Bin(_)) => bitlist(h, w)?,
                _ => return Err(badarg()),
            }
            bitlist(&c.tail, w)
        }
        _ => Err(badarg()),
    }
}

/// The text of an atom in binary `t` with encoding `enc` (`utf8`,
/// `unicode` or `latin1`).
fn atom_text_of(t: &Term, enc: &Term) -> Result<String, Term> {
    let b = t.as_bytes().ok_or_else(badarg)?;
    match enc.as_atom().map(|a| a.name()) {
        Some("utf8" | "unicode") => String::from_utf8(b).map_err(|_| badarg()),
        Some("latin1") => Ok(b.iter().map(|&c| c as char).collect()),
        _ => Err(badarg()),
    }
}

fn bin_to_atom(ctx: &mut Ctx<'_>, t: &Term, enc: &Term) -> Flow {
    match atom_text_of(t, enc) {
        Ok(s) => match ctx.make_atom(&s) {
            Ok(atom) => Flow::Value(Term::Atom(atom)),
            Err(flow) => flow,
        },
        Err(e) => Flow::error(e),
    }
}

fn existing_atom(t: &Term, enc: &Term) -> R {
    let s = atom_text_of(t, enc)?;
    Atom::existing(&s).map(Term::Atom).ok_or_else(badarg)
}

/// The size argument of `make_tuple/2,3`: `badarg` beyond the largest tuple.
fn tuple_size_arg(t: &Term) -> Result<i64, Term> {
    match t {
        Term::Int(n) if (0..=limits::MAX_TUPLE_SIZE as i64).contains(n) => Ok(*n),
        _ => Err(badarg()),
    }
}

/// `iolist_size/1`: the bytes of an iolist, counted without building them.
fn iolist_len(t: &Term) -> Result<u64, Term> {
    let mut n: u64 = 0;
    let mut stack: Vec<&Term> = vec![t];
    while let Some(cur) = stack.pop() {
        match cur {
            Term::Bin(b) if b.is_binary() => n += b.len as u64 / 8,
            Term::Nil => {}
            Term::Cons(c) => {
                match &c.head {
                    Term::Int(i) if (0..=255).contains(i) => n += 1,
                    h @ (Term::Cons(_) | Term::Nil | Term::Bin(_)) => stack.push(h),
                    _ => return Err(badarg()),
                }
                stack.push(&c.tail);
            }
            _ => return Err(badarg()),
        }
    }
    Ok(n)
}

fn binary_part(b: &Term, s: &Term, l: &Term) -> R {
    let bytes = b.as_bytes().ok_or_else(badarg)?;
    let (s, l) = (int_arg(s)?, int_arg(l)?);
    let (from, to) = if l >= 0 { (s, s + l) } else { (s + l, s) };
    if from < 0 || to as usize > bytes.len() {
        return Err(badarg());
    }
    Ok(Term::binary(bytes[from as usize..to as usize].to_vec()))
}

fn fun_info(a: &[Term]) -> R {
    let Term::Fun(f) = &a[0] else {
        return Err(badarg());
    };
    let item = atom_arg(&a[1])?;
    let v = match item.name() {
        "arity" => Term::Int(f.arity() as i64),
        "module" => Term::Atom(match &**f {
            Fun::Closure { module, .. }
            | Fun::Local { module, .. }
            | Fun::Export { module, .. } => *module,
        }),
        "name" => match &**f {
            Fun::Export { name, .. } | Fun::Local { name, .. } => Term::Atom(*name),
            Fun::Closure { index, .. } => Term::atom(&format!("-fun-{index}-")),
        },
        "type" => Term::atom(if matches!(&**f, Fun::Export { .. }) {
            "external"
        } else {
            "local"
        }),
        "env" => match &**f {
            Fun::Closure { env, .. } => Term::list(env.clone()),
            _ => Term::Nil,
        },
        _ => return Err(badarg()),
    };
    Ok(tuple2(Term::Atom(item), v))
}

/// A deterministic structural hash (not the BEAM's phash2 values).
pub fn hash_term(t: &Term) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    let mut mix = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x100000001b3);
    };
    fn walk(t: &Term, mix: &mut dyn FnMut(u64)) {
        match t {
            Term::Int(i) => mix(*i as u64),
            Term::Big(b) => {
                for d in b.to_u64_digits().1 {
                    mix(d)
                }
            }
            Term::Float(f) => mix(f.to_bits()),
            Term::Atom(a) => {
                for b in a.name().bytes() {
                    mix(b as u64)
                }
            }
            Term::Ref(r) => mix(*r),
            Term::Pid(p) => mix(p.0 as u64 + 7),
            Term::Fun(_) => mix(99),
            Term::Tuple(items) => {
                mix(items.len() as u64 + 1000);
                for i in items.iter() {
                    walk(i, mix)
                }
            }
            Term::Map(m) => {
                for (k, v) in m.iter() {
                    walk(&k.0, mix);
                    walk(v, mix);
                }
            }
            Term::Nil => mix(5),
            Term::Cons(_) => {
                for x in t.list_iter() {
                    walk(x, mix)
                }
            }
            Term::Bin(b) => {
                for x in b.to_bytes() {
                    mix(x as u64)
                }
            }
        }
    }
    walk(t, &mut mix);
    h >> 1
}

pub(super) fn fun_mfa(f: &Term) -> Term {
    match f {
        Term::Fun(fun) => match &**fun {
            Fun::Export {
                module,
                name,
                arity,
            } => Term::tuple(vec![
                Term::Atom(*module),
                Term::Atom(*name),
                Term::Int(*arity as i64),
            ]),
            Fun::Local {
                module,
                name,
                arity,
                ..
            } => Term::tuple(vec![
                Term::Atom(*module),
                Term::Atom(*name),
                Term::Int(*arity as i64),
            ]),
            Fun::Closure {
                module,
                index,
                arity,
                ..
            } => Term::tuple(vec![
                Term::Atom(*module),
                Term::atom(&format!("-fun-{index}-")),
                Term::Int(*arity as i64),
            ]),
        },
        _ => Term::Nil,
    }
}

fn spawn_mfa(ctx: &mut Ctx<'_>, a: &[Term], link: bool, mon: bool) -> Flow {
    let (Term::Atom(m), Term::Atom(f), Some(args)) = (&a[0], &a[1], a[2].list_to_vec()) else {
        return Flow::badarg();
    };
    let target = ctx.vm.resolve(*m, *f, args.len() as u32);
    let mfa = Term::tuple(vec![
        Term::Atom(*m),
        Term::Atom(*f),
        Term::Int(args.len() as i64),
    ]);
    spawn(ctx, Start::Call(target, args), mfa, link, mon)
}

fn spawn(ctx: &mut Ctx<'_>, start: Start, initial: Term, link: bool, mon: bool) -> Flow {
    if let Start::Apply(f, _) = &start
        && !matches!(f, Term::Fun(fun) if fun.arity() == 0)
    {
        return Flow::badarg();
    }
    let verb = match (link, mon) {
        (true, _) => "spawn_link",
        (_, true) => "spawn_monitor",
        _ => "spawn",
    };
    let monitor = if mon { Monitor::New } else { Monitor::No };
    match start_child(ctx, start, initial, verb, link, monitor) {
        Ok((pid, Some(r))) => Flow::Value(tuple2(Term::Pid(pid), Term::Ref(r))),
        Ok((pid, None)) => Flow::Value(Term::Pid(pid)),
        Err(stop) => stop,
    }
}

/// `spawn*(Node, ...)`: on this node, the spawn without the node; another
/// node is not there to run it (racewit runs one node): the caller parks.
fn on_node(a: &[Term], name: &str) -> Flow {
    let Term::Atom(node) = &a[0] else {
        return Flow::badarg();
    };
    let arity = a.len() as u32;
    if *node != Atom::NONODE {
        return Flow::ParkWith(
            crate::library::ParkReason::Unsupported,
            format!(
                "erlang:{name}/{arity} on node {}: racewit runs one node",
                format::atom_text(*node)
            ),
        );
    }
    let local = crate::bif::lookup(Atom::ERLANG, Atom::new(name), arity - 1)
        .expect("every spawn with a node has its local form");
    Flow::Call(Target::Bif(local), a[1..].to_vec())
}

/// Whether a new process is monitored by its parent, and under which
/// reference.
pub(super) enum Monitor {
    No,
    /// Under a reference made for it (after the process).
    New,
    /// Under a reference the caller already made (`spawn_request`'s).
    With(u64),
}

/// Start a child of the calling process: the spawn event (named `verb`),
/// the link and the monitor. The child's pid and the monitor's reference;
/// `Err` ends the run at the process limit.
pub(super) fn start_child(
    ctx: &mut Ctx<'_>,
    start: Start,
    initial: Term,
    verb: &str,
    link: bool,
    monitor: Monitor,
) -> Result<(Pid, Option<u64>), Flow> {
    let Some(pid) = ctx.vm.spawn_child(ctx.proc, start, initial) else {
        return Err(ctx.too_many_processes());
    };
    let me = ctx.pid();
    let child_name = ctx.vm.process_name(pid).to_string();
    ctx.emit_access(
        EventKind::Spawn,
        format!("{verb} -> {child_name}"),
        SharedItem::Process(pid),
        Access::Write,
    );
    if link {
        ctx.proc.links.insert(pid);
        if let Some(c) = ctx.vm.proc_mut(pid) {
            c.links.insert(me);
        }
    }
    let r = match monitor {
        Monitor::No => return Ok((pid, None)),
        Monitor::New => ctx.vm.new_ref(),
        Monitor::With(r) => r,
    };
    ctx.proc.monitors.insert(r, pid);
    if let Some(c) = ctx.vm.proc_mut(pid) {
        c.monitored_by.insert(r, (me, None));
    }
    Ok((pid, Some(r)))
}

fn link(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(other) = a[0] else {
        return Flow::badarg();
    };
    let me = ctx.pid();
    let text = format!("link({})", ctx.name_of(other));
    ctx.emit_access(
        EventKind::Link,
        text,
        SharedItem::Process(other),
        Access::Write,
    );
    if other == me {
        return Flow::Value(Term::bool(true));
    }
    if !ctx.vm.is_alive(other) {
        // link/1 returns true, then the noproc exit signal arrives: a trapping
        // caller gets {'EXIT', Pid, noproc}, any other dies with noproc.
        if ctx.proc.trap_exit {
            ctx.proc.mailbox.push_back(Term::tuple(vec![
                Term::Atom(Atom::EXIT_UPPER),
                Term::Pid(other),
                Term::Atom(Atom::NOPROC),
            ]));
            return Flow::Value(Term::bool(true));
        }
        return Flow::error(Term::Atom(Atom::NOPROC));
    }
    ctx.proc.links.insert(other);
    if let Some(o) = ctx.vm.proc_mut(other) {
        o.links.insert(me);
    }
    Flow::Value(Term::bool(true))
}

fn unlink(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(other) = a[0] else {
        return Flow::badarg();
    };
    let me = ctx.pid();
    let text = format!("unlink({})", ctx.name_of(other));
    ctx.emit_access(
        EventKind::Unlink,
        text,
        SharedItem::Process(other),
        Access::Write,
    );
    ctx.proc.links.remove(&other);
    if let Some(o) = ctx.vm.proc_mut(other) {
        o.links.remove(&me);
    }
    Flow::Value(Term::bool(true))
}

/// The options of `monitor/3`: `{tag, Tag}` (the `'DOWN'` message's first
/// element) and `{alias, Mode}` (the monitor's reference is also an alias
/// of the caller: `explicit_unalias` or `demonitor`; `reply_demonitor`,
/// which also removes the monitor when the reply comes, is valid but not
/// modelled, a call racewit cannot run); anything else is `badarg`.
fn monitor_options(opts: Option<&Term>) -> Result<(Option<Term>, Option<AliasMode>), Flow> {
    let Some(opts) = opts else {
        return Ok((None, None));
    };
    let items = opts.list_to_vec().ok_or_else(Flow::badarg)?;
    let mut tag = None;
    let mut alias = None;
    for o in items {
        match o.as_tuple() {
            Some([Term::Atom(k), v]) if k.name() == "tag" => tag = Some(v.clone()),
            Some([Term::Atom(k), Term::Atom(v)]) if k.name() == "alias" => match v.name() {
                "explicit_unalias" => alias = Some(AliasMode::Explicit),
                "demonitor" => alias = Some(AliasMode::Demonitor),
                "reply_demonitor" => {
                    return Err(Flow::Park(
                        "erlang:monitor/3 with the option {alias, reply_demonitor}".into(),
                    ));
                }
                _ => return Err(Flow::badarg()),
            },
            _ => return Err(Flow::badarg()),
        }
    }
    Ok((tag, alias))
}

/// `alias/0,1`: a new alias of the caller; the options are
/// `explicit_unalias` (the default) and `reply`.
fn alias(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let mut mode = AliasMode::Explicit;
    if let Some(opts) = a.first() {
        let Some(items) = opts.list_to_vec() else {
            return Flow::badarg();
        };
        for o in items {
            match o.as_atom().map(|x| x.name()) {
                Some("explicit_unalias") => {}
                Some("reply") => mode = AliasMode::ReplyOnce,
                _ => return Flow::badarg(),
            }
        }
    }
    let r = ctx.vm.new_ref();
    let me = ctx.pid();
    ctx.vm.aliases.insert(r, (me, mode));
    Flow::Value(Term::Ref(r))
}

/// `unalias/1`: ends an alias of the caller; whether it was active. A
/// step of its own: a message sent through the alias before it arrives,
/// one sent after it is dropped.
fn unalias(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Ref(r) = a[0] else {
        return Flow::badarg();
    };
    let was = ctx.vm.unalias(ctx.proc, r);
    let me = ctx.pid();
    ctx.emit_access(
        EventKind::Local,
        format!("unalias({}) -> {was}", format::brief(&a[0])),
        SharedItem::Mailbox(me),
        Access::Write,
    );
    Flow::Value(Term::bool(was))
}

fn monitor(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    if !a[0].is_atom(Atom::PROCESS) {
        return Flow::badarg();
    }
    if !matches!(&a[1], Term::Pid(_) | Term::Atom(_))
        && !matches!(a[1].as_tuple(), Some([Term::Atom(_), Term::Atom(_)]))
    {
        return Flow::badarg();
    }
    let (tag, alias) = match monitor_options(a.get(2)) {
        Ok(options) => options,
        Err(flow) => return flow,
    };
    let me = ctx.pid();
    if alias.is_some() && matches!(a[1], Term::Pid(p) if p == me) {
        return Flow::Park(
            "erlang:monitor/3 of the calling process itself with the alias option".into(),
        );
    }
    let r = ctx.vm.new_ref();
    if let Some(mode) = alias {
        ctx.vm.aliases.insert(r, (me, mode));
    }
    let by_name = match &a[1] {
        Term::Atom(n) => Some(*n),
        Term::Tuple(t) if t.len() == 2 => t[0].as_atom(),
        _ => None,
    };
    let (target, item) = match &a[1] {
        Term::Pid(p) => (Some(*p), SharedItem::Process(*p)),
        Term::Atom(n) => (
            ctx.vm.registry.get(n).copied(),
            SharedItem::Registry(n.name().into()),
        ),
        Term::Tuple(t) if t.len() == 2 => match t[0].as_atom() {
            Some(n) => (
                ctx.vm.registry.get(&n).copied(),
                SharedItem::Registry(n.name().into()),
            ),
            None => return Flow::badarg(),
        },
        _ => return Flow::badarg(),
    };
    ctx.emit_access(
        EventKind::Monitor,
        format!("monitor({})", format::brief(&a[1])),
        item,
        Access::Read,
    );
    match target {
        Some(p) if ctx.is_alive(p) && p != me => {
            ctx.proc.monitors.insert(r, p);
            if let Some(o) = ctx.vm.proc_mut(p) {
                o.monitored_by.insert(r, (me, by_name));
                if let Some(tag) = tag {
                    o.monitor_tags.insert(r, tag);
                }
            }
        }
        Some(p) if p == me => {}
        _ => {
            let reason = Term::Atom(Atom::NOPROC);
            let who = match target {
                Some(p) => Term::Pid(p),
                None => match &a[1] {
                    Term::Atom(n) => tuple2(Term::Atom(*n), Term::Atom(Atom::NONODE)),
                    other => other.clone(),
                },
            };
            ctx.proc.mailbox.push_back(Term::tuple(vec![
                tag.unwrap_or(Term::Atom(Atom::DOWN)),
                Term::Ref(r),
                Term::Atom(Atom::PROCESS),
                who,
                reason,
            ]));
        }
    }
    Flow::Value(Term::Ref(r))
}

fn demonitor(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Ref(r) = a[0] else {
        return Flow::badarg();
    };
    // Options: a proper list of `flush` and `info`.
    let opts = match a.get(1) {
        None => Vec::new(),
        Some(o) => match o.list_to_vec() {
            Some(v)
                if v.iter()
                    .all(|x| matches!(x.as_atom().map(|a| a.name()), Some("flush" | "info"))) =>
            {
                v
            }
            _ => return Flow::badarg(),
        },
    };
    let flush = opts.iter().any(|x| x.is_atom(Atom::new("flush")));
    let info = opts.iter().any(|x| x.is_atom(Atom::new("info")));
    let me = ctx.pid();
    let found = ctx.proc.monitors.contains_key(&r);
    if let Some(target) = ctx.proc.monitors.remove(&r) {
        ctx.emit_access(
            EventKind::Demonitor,
            "demonitor".into(),
            SharedItem::Process(target),
            Access::Write,
        );
        // The monitor's alias ends with it: ordered with the messages sent
        // through it.
        if matches!(ctx.vm.aliases.get(&r), Some(&(owner, AliasMode::Demonitor)) if owner == me)
            && let Some(ev) = ctx.event.as_mut()
        {
            ev.accesses.push((SharedItem::Mailbox(me), Access::Write));
        }
        if target != me
            && let Some(o) = ctx.vm.proc_mut(target)
        {
            o.monitored_by.remove(&r);
            o.monitor_tags.remove(&r);
        }
    }
    if flush {
        ctx.proc.mailbox.retain(|m| match m {
            Term::Tuple(t) => {
                !(t.len() == 5 && t[0].is_atom(Atom::DOWN) && exact_eq(&t[1], &Term::Ref(r)))
            }
            _ => true,
        });
    }
    Flow::Value(Term::bool(!info || found))
}

fn exit2(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(to) = a[0] else {
        return Flow::badarg();
    };
    let me = ctx.pid();
    let text = format!("exit({}, {})", ctx.name_of(to), format::brief(&a[1]));
    ctx.emit_access(
        EventKind::Exit,
        text,
        SharedItem::Process(to),
        Access::Write,
    );
    if to == me {
        let r = &a[1];
        if r.is_atom(Atom::KILL) {
            return Flow::Exit(Term::Atom(Atom::KILLED));
        }
        if ctx.proc.trap_exit {
            ctx.proc.mailbox.push_back(Term::tuple(vec![
                Term::Atom(Atom::EXIT_UPPER),
                Term::Pid(me),
                r.clone(),
            ]));
            return Flow::Value(Term::bool(true));
        }
        return Flow::Exit(r.clone());
    }
    ctx.vm.exit_signal(me, to, a[1].clone(), false);
    Flow::Value(Term::bool(true))
}

fn register_name(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let (Term::Atom(name), Term::Pid(pid)) = (&a[0], &a[1]) else {
        if let Term::Atom(n) = &a[0] {
            ctx.emit_access(
                EventKind::Registry,
                format!(
                    "erlang:register({}, {}) -> badarg",
                    format::brief(&a[0]),
                    format::brief(&a[1])
                ),
                SharedItem::Registry(n.name().into()),
                Access::Write,
            );
        }
        return Flow::badarg();
    };
    let who = ctx.name_of(*pid);
    let text = format!("erlang:register({}, {})", format::atom_text(*name), who);
    ctx.emit_access(
        EventKind::Registry,
        text,
        SharedItem::Registry(name.name().into()),
        Access::Write,
    );
    let me = ctx.pid();
    let held = if *pid == me {
        ctx.proc.registered
    } else {
        ctx.vm.proc(*pid).and_then(|p| p.registered)
    };
    let already_named = held.is_some();
    // What the answer also depends on: the name the process holds (freed
    // by `unregister` or its exit), and whether another process lives.
    if let Some(ev) = ctx.event.as_mut() {
        if let Some(h) = held {
            ev.accesses
                .push((SharedItem::Registry(h.name().into()), Access::Read));
        }
        if *pid != me {
            ev.accesses.push((SharedItem::Process(*pid), Access::Read));
        }
    }
    // A standard process racewit stands in for gives its name to the
    // program's own server of it (its tables go with it: the program's
    // server makes its own).
    if !already_named
        && ctx.is_alive(*pid)
        && let Some(tables) = ctx.vm.retire_stand_in(*name)
        && let Some(ev) = ctx.event.as_mut()
    {
        for t in tables {
            ev.accesses.push((
                SharedItem::Ets {
                    table: t.name().to_string(),
                    key: None,
                },
                Access::Write,
            ));
        }
    }
    if name.name() == "undefined"
        || ctx.vm.registry.contains_key(name)
        || !ctx.is_alive(*pid)
        || already_named
    {
        if let Some(ev) = ctx.event.as_mut() {
            ev.text.push_str(" -> badarg");
            // A write that fails changes nothing: it only observed the
            // registry. (Whether the badarg then crashes the process is for
            // the caller to see.)
            ev.access = Some(Access::Read);
            if let Some(first) = ev.accesses.first_mut() {
                first.1 = Access::Read;
            }
        }
        return Flow::badarg();
    }
    ctx.vm.registry.insert(*name, *pid);
    if *pid == me {
        ctx.proc.registered = Some(*name);
    } else if let Some(p) = ctx.vm.proc_mut(*pid) {
        p.registered = Some(*name);
    }
    if let Some(ev) = ctx.event.as_mut() {
        ev.text.push_str(" -> true");
    }
    Flow::Value(Term::bool(true))
}

fn unregister(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Atom(name) = a[0] else {
        return Flow::badarg();
    };
    let text = format!("erlang:unregister({})", format::atom_text(name));
    ctx.emit_access(
        EventKind::Registry,
        text,
        SharedItem::Registry(name.name().into()),
        Access::Write,
    );
    let Some(pid) = ctx.vm.registry.remove(&name) else {
        if let Some(ev) = ctx.event.as_mut() {
            ev.text.push_str(" -> badarg");
            // A write that fails changes nothing: it only observed the
            // registry. (Whether the badarg then crashes the process is for
            // the caller to see.)
            ev.access = Some(Access::Read);
            if let Some(last) = ev.accesses.last_mut() {
                last.1 = Access::Read;
            }
        }
        return Flow::badarg();
    };
    if pid == ctx.pid() {
        ctx.proc.registered = None;
    } else {
        // The holder's exit no longer frees the name: ordered with it.
        if let Some(ev) = ctx.event.as_mut() {
            ev.accesses.push((SharedItem::Process(pid), Access::Read));
        }
        if let Some(p) = ctx.vm.proc_mut(pid) {
            p.registered = None;
        }
    }
    Flow::Value(Term::bool(true))
}

fn whereis(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Atom(name) = a[0] else {
        return Flow::badarg();
    };
    let v = ctx.vm.registry.get(&name).copied();
    let shown = match v {
        Some(p) => ctx.name_of(p),
        None => "undefined".into(),
    };
    let text = format!("erlang:whereis({}) -> {}", format::atom_text(name), shown);
    ctx.emit_access(
        EventKind::Registry,
        text,
        SharedItem::Registry(name.name().into()),
        Access::Read,
    );
    Flow::Value(v.map(Term::Pid).unwrap_or_else(Term::undefined))
}

fn registered(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    let mut names: Vec<Atom> = ctx.vm.registry.keys().copied().collect();
    names.sort_by(|a, b| a.name().cmp(b.name()));
    // Reads every name: the item is the whole registry (the empty name).
    ctx.emit_access(
        EventKind::Registry,
        "erlang:registered()".into(),
        SharedItem::Registry("".into()),
        Access::Read,
    );
    Flow::Value(Term::list(names.into_iter().map(Term::Atom).collect()))
}

pub(crate) fn send(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let dest = &a[0];
    let msg = a[1].clone();
    let target = match dest {
        Term::Pid(p) => Some(*p),
        Term::Atom(n) => ctx.vm.registry.get(n).copied(),
        Term::Tuple(t) if t.len() == 2 => t[0]
            .as_atom()
            .and_then(|n| ctx.vm.registry.get(&n).copied()),
        Term::Ref(r) => match ctx.vm.alias_target(ctx.proc.pid, &ctx.proc.monitors, *r) {
            Some((owner, true)) => Some(owner),
            Some((owner, false)) => {
                // An ended alias: dropped, after whatever ended it.
                let text = format!("{} ! {}", format::brief(dest), format::brief(&msg));
                ctx.emit_access(
                    EventKind::Send,
                    text,
                    SharedItem::Mailbox(owner),
                    Access::Write,
                );
                return Flow::Value(msg);
            }
            None => None,
        },
        _ => return Flow::badarg(),
    };
    if let Some((why, call)) = target.and_then(crate::world::parked_request) {
        return Flow::ParkWith(why, call);
    }
    let text = format!("{} ! {}", format::brief(dest), format::brief(&msg));
    match target {
        Some(p) => {
            ctx.emit_access(EventKind::Send, text, SharedItem::Mailbox(p), Access::Write);
            if let Some(ev) = ctx.event.as_mut() {
                ev.message = Some(msg.clone());
            }
            ctx.vm.deliver(p, msg.clone());
            Flow::Value(msg)
        }
        None => {
            if let Term::Atom(n) = dest {
                ctx.emit_access(
                    EventKind::Send,
                    text,
                    SharedItem::Registry(n.name().into()),
                    Access::Read,
                );
                return Flow::badarg();
            }
            if let Term::Tuple(_) = dest {
                // {Name, Node} with no such name: silently dropped.
                ctx.emit(EventKind::Send, text);
                return Flow::Value(msg);
            }
            ctx.emit(EventKind::Send, text);
            Flow::Value(msg)
        }
    }
}

fn process_flag(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    match a[0].as_atom().map(|x| x.name()) {
        Some("trap_exit") => match arith::as_bool(&a[1]) {
            Some(b) => {
                let old = ctx.proc.trap_exit;
                ctx.proc.trap_exit = b;
                // A step of its own: an exit signal that comes after it
                // and before the process's next action is a message, one
                // that comes before kills the process.
                let me = ctx.proc.pid;
                ctx.emit_access(
                    EventKind::Local,
                    format!("process_flag(trap_exit, {b}) -> {old}"),
                    SharedItem::Process(me),
                    Access::Write,
                );
                Flow::Value(Term::bool(old))
            }
            None => Flow::badarg(),
        },
        Some("monitor_nodes") => node_monitors(ctx, &a[1]),
        Some("priority") => Flow::Value(Term::atom("normal")),
        Some("min_heap_size" | "min_bin_vheap_size" | "fullsweep_after" | "message_queue_data") => {
            Flow::Value(Term::Int(0))
        }
        Some("sensitive") => Flow::Value(Term::bool(false)),
        // `{monitor_nodes, Options}` (what `net_kernel:monitor_nodes/2` sets).
        None if matches!(&a[0], Term::Tuple(t) if t.len() == 2
            && t[0].as_atom().is_some_and(|x| x.name() == "monitor_nodes")
            && t[1].list_to_vec().is_some()) =>
        {
            node_monitors(ctx, &a[1])
        }
        _ => Flow::badarg(),
    }
}

/// `process_flag(monitor_nodes, Bool)`: the subscriptions before the call.
fn node_monitors(ctx: &mut Ctx<'_>, on: &Term) -> Flow {
    let Some(on) = arith::as_bool(on) else {
        return Flow::badarg();
    };
    let before = ctx.proc.node_monitors;
    ctx.proc.node_monitors = if on { before.saturating_add(1) } else { 0 };
    Flow::Value(Term::Int(i64::from(before)))
}

fn process_info(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Term::Pid(pid) = a[0] else {
        return Flow::badarg();
    };
    ctx.emit_access(
        EventKind::Local,
        format!("process_info({})", ctx.name_of(pid)),
        SharedItem::Process(pid),
        Access::Read,
    );
    let one = |ctx: &Ctx<'_>, item: Atom| -> Result<Option<Term>, ()> {
        let v = process_item(ctx, pid, item.name());
        match v {
            Item::Value(v) => Ok(Some(v)),
            Item::Gone => Ok(None),
            Item::Unknown => Err(()),
        }
    };
    match &a[1] {
        Term::Atom(item) => match one(ctx, *item) {
            Ok(Some(Term::Nil)) if item.name() == "registered_name" => Flow::Value(Term::Nil),
            Ok(Some(v)) => Flow::Value(tuple2(Term::Atom(*item), v)),
            Ok(None) => Flow::Value(Term::undefined()),
            Err(()) => Flow::badarg(),
        },
        Term::Cons(_) | Term::Nil => {
            let Some(items) = a[1].list_to_vec() else {
                return Flow::badarg();
            };
            let mut out = Vec::new();
            for it in items {
                let Term::Atom(n) = it else {
                    return Flow::badarg();
                };
                match one(ctx, n) {
                    Ok(Some(v)) => out.push(tuple2(Term::Atom(n), v)),
                    Ok(None) => return Flow::Value(Term::undefined()),
                    Err(()) => return Flow::badarg(),
                }
            }
            Flow::Value(Term::list(out))
        }
        _ => Flow::badarg(),
    }
}

/// What `process_info/2` finds for one item.
enum Item {
    Value(Term),
    /// The process is gone (`undefined`).
    Gone,
    /// Not an item (`badarg`).
    Unknown,
}

/// `erlang:halt/0,1,2`: the run ends at this step, as a terminal event the
/// scheduler sees; no process steps again. Status: a non-negative integer,
/// a string (a crash dump's slogan) or `abort`; options `[{flush, B}]`.
fn halt(ctx: &mut Ctx<'_>, status: &Term, opts: Option<&Term>) -> Flow {
    let valid = match status {
        Term::Int(n) => *n >= 0,
        Term::Atom(a) => a.name() == "abort",
        other => other.as_charlist().is_some(),
    };
    let opts_ok = opts.is_none_or(|o| {
        o.list_to_vec().is_some_and(|v| {
            v.iter().all(|x| {
                matches!(x.as_tuple(), Some([Term::Atom(k), Term::Atom(b)])
                    if k.name() == "flush" && matches!(*b, Atom::TRUE | Atom::FALSE))
            })
        })
    });
    if !valid || !opts_ok {
        return Flow::badarg();
    }
    ctx.emit(
        EventKind::Halt,
        format!("erlang:halt({})", format::brief(status)),
    );
    ctx.vm.halted = Some(status.clone());
    Flow::Value(Term::ok())
}

fn mfa(m: &str, f: &str, a: i64) -> Term {
    Term::tuple(vec![Term::atom(m), Term::atom(f), Term::Int(a)])
}

/// One `process_info/2` item of `pid` (the caller, another process of the
/// program, or one of the node's system processes).
fn process_item(ctx: &Ctx<'_>, pid: Pid, item: &str) -> Item {
    const KNOWN: &[&str] = &[
        "registered_name",
        "current_function",
        "initial_call",
        "status",
        "message_queue_len",
        "messages",
        "links",
        "monitors",
        "monitored_by",
        "dictionary",
        "trap_exit",
        "priority",
        "group_leader",
        "error_handler",
        "heap_size",
        "total_heap_size",
        "stack_size",
        "reductions",
        "memory",
        "garbage_collection",
        "suspending",
    ];
    if !KNOWN.contains(&item) {
        return Item::Unknown;
    }
    if let Some(sp) = crate::world::system_process(pid) {
        return Item::Value(match item {
            "registered_name" => Term::atom(sp.name),
            "current_function" => mfa(sp.current.0, sp.current.1, sp.current.2),
            "initial_call" => mfa(sp.initial.0, sp.initial.1, sp.initial.2),
            "status" => Term::atom("waiting"),
            "trap_exit" => Term::bool(true),
            "priority" => Term::atom("normal"),
            "group_leader" => Term::Pid(crate::world::system_pid(0)),
            "error_handler" => Term::atom("error_handler"),
            "message_queue_len" | "heap_size" | "total_heap_size" | "stack_size" | "reductions"
            | "memory" => Term::Int(0),
            _ => Term::Nil,
        });
    }
    let me = ctx.pid();
    let p = if pid == me {
        &*ctx.proc
    } else {
        match ctx.vm.proc(pid) {
            Some(p) => p,
            None => return Item::Gone,
        }
    };
    if !p.is_alive() {
        return Item::Gone;
    }
    Item::Value(match item {
        "registered_name" => match p.registered {
            Some(n) => Term::Atom(n),
            None => Term::Nil,
        },
        "message_queue_len" => Term::Int(p.mailbox.len() as i64),
        "messages" => Term::list(p.mailbox.iter().cloned().collect()),
        "links" => Term::list(p.links.iter().map(|l| Term::Pid(*l)).collect()),
        "dictionary" => Term::list(
            p.dict
                .iter()
                .map(|(k, v)| tuple2(k.0.clone(), v.clone()))
                .collect(),
        ),
        "trap_exit" => Term::bool(p.trap_exit),
        // The caller is running; another process of the program is
        // runnable, or waiting in `receive` (or stopped at a call racewit
        // cannot run: waiting for ever).
        "status" => Term::atom(if pid == me {
            "running"
        } else {
            match p.status {
                ProcStatus::Runnable => "runnable",
                _ => "waiting",
            }
        }),
        "initial_call" => p.initial_call.clone(),
        // The function of the top frame (the caller's own, for the
        // caller: a BIF has no frame); not started yet, its initial call.
        "current_function" => match p.frames.last() {
            Some(fr) => {
                let m = &ctx.vm.code.modules[fr.module as usize];
                let fc = ctx.vm.code.func(fr.module, fr.function);
                Term::tuple(vec![
                    Term::Atom(m.name),
                    Term::Atom(fc.name),
                    Term::Int(fc.arity as i64),
                ])
            }
            None => p.initial_call.clone(),
        },
        "monitors" => Term::list(
            p.monitors
                .values()
                .map(|t| tuple2(Term::Atom(Atom::PROCESS), Term::Pid(*t)))
                .collect(),
        ),
        "monitored_by" => Term::list(p.monitored_by.values().map(|t| Term::Pid(t.0)).collect()),
        "group_leader" => Term::Pid(p.group_leader),
        "priority" => Term::atom("normal"),
        "error_handler" => Term::atom("error_handler"),
        "suspending" | "garbage_collection" => Term::Nil,
        // Sizes the BEAM's memory layout decides: not modelled.
        _ => Term::Int(0),
    })
}

#[allow(dead_code)]
fn is_zero(b: &BigInt) -> bool {
    b.is_zero() || b.abs().is_zero() || b.to_i64() == Some(0)
}

#[allow(dead_code)]
fn chardata(t: &Term) -> Result<String, Term> {
    let mut s = String::new();
    chardata_string(t, &mut s)?;
    Ok(s)
}

#[allow(dead_code)]
fn pid_term(p: Pid) -> Term {
    Term::Pid(p)
}
