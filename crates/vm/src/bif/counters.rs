//! `counters` and `atomics`: arrays of 64-bit integers shared by every
//! process, kept in the VM's world state. Each operation is one atomic
//! step touching one element (a shared item), so races on them are
//! searched like races on ETS.
//!
//! `counters:new/2` gives `{atomics, Ref}` and `atomics:new/2` a bare
//! reference, as on the BEAM. Counters wrap around at 64 bits; atomics do
//! too, signed by default or unsigned with `{signed, false}`.

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, list_arg};
use crate::event::{Access, EventKind, SharedItem};
use crate::term::Term;

pub fn register(t: &mut Table) {
    t.ctx("counters", "new", 2, |ctx, a| new(ctx, a, true));
    t.ctx("atomics", "new", 2, |ctx, a| new(ctx, a, false));
    t.ctx("counters", "get", 2, |ctx, a| get(ctx, a, "counters"));
    t.ctx("atomics", "get", 2, |ctx, a| get(ctx, a, "atomics"));
    t.ctx("counters", "add", 3, |ctx, a| {
        update(ctx, a, "counters:add", Op::Add, false)
    });
    t.ctx("counters", "sub", 3, |ctx, a| {
        update(ctx, a, "counters:sub", Op::Sub, false)
    });
    t.ctx("counters", "put", 3, |ctx, a| {
        update(ctx, a, "counters:put", Op::Put, false)
    });
    t.ctx("atomics", "add", 3, |ctx, a| {
        update(ctx, a, "atomics:add", Op::Add, false)
    });
    t.ctx("atomics", "sub", 3, |ctx, a| {
        update(ctx, a, "atomics:sub", Op::Sub, false)
    });
    t.ctx("atomics", "put", 3, |ctx, a| {
        update(ctx, a, "atomics:put", Op::Put, false)
    });
    t.ctx("atomics", "add_get", 3, |ctx, a| {
        update(ctx, a, "atomics:add_get", Op::Add, true)
    });
    t.ctx("atomics", "sub_get", 3, |ctx, a| {
        update(ctx, a, "atomics:sub_get", Op::Sub, true)
    });
    t.ctx("atomics", "exchange", 3, |ctx, a| {
        update(ctx, a, "atomics:exchange", Op::Exchange, false)
    });
    t.ctx("atomics", "compare_exchange", 4, compare_exchange);
    t.ctx("counters", "info", 1, |ctx, a| info(ctx, a, true));
    t.ctx("atomics", "info", 1, |ctx, a| info(ctx, a, false));
}

/// Arrays are signed unless made with `{signed, false}`; the flag is kept
/// as the array's element 0 (1 for signed), elements 1.. are the values.
fn new(ctx: &mut Ctx<'_>, a: &[Term], counters: bool) -> Flow {
    let Some(size) = a[0].as_int().filter(|n| *n >= 1 && *n < (1 << 28)) else {
        return Flow::badarg();
    };
    let Ok(opts) = list_arg(&a[1]) else {
        return Flow::badarg();
    };
    let mut signed = true;
    for o in &opts {
        match o {
            Term::Atom(x) if counters && matches!(x.name(), "atomics" | "write_concurrency") => {}
            Term::Tuple(t)
                if !counters
                    && t.len() == 2
                    && t[0].as_atom().is_some_and(|x| x.name() == "signed") =>
            {
                match t[1].as_atom().map(|x| x.name()) {
                    Some("true") => signed = true,
                    Some("false") => signed = false,
                    _ => return Flow::badarg(),
                }
            }
            _ => return Flow::badarg(),
        }
    }
    let r = ctx.vm.new_ref();
    let mut values = imbl::Vector::new();
    values.push_back(i64::from(signed));
    for _ in 0..size {
        values.push_back(0);
    }
    ctx.vm.world.arrays.insert(r, values);
    let value = if counters {
        Term::tuple(vec![Term::atom("atomics"), Term::Ref(r)])
    } else {
        Term::Ref(r)
    };
    Flow::Value(value)
}

/// The array's reference number, from `{atomics, Ref}` (counters) or `Ref`.
fn array_of(t: &Term) -> Option<u64> {
    match t {
        Term::Ref(r) => Some(*r),
        Term::Tuple(x) if x.len() == 2 && matches!(x[1], Term::Ref(_)) => match &x[1] {
            Term::Ref(r) => Some(*r),
            _ => None,
        },
        _ => None,
    }
}

/// The array and a valid 1-based index into it.
fn slot(ctx: &Ctx<'_>, a: &[Term]) -> Option<(u64, u64)> {
    let r = array_of(&a[0])?;
    let values = ctx.vm.world.arrays.get(&r)?;
    let i = a[1].as_int()?;
    (i >= 1 && (i as usize) < values.len()).then_some((r, i as u64))
}

fn get(ctx: &mut Ctx<'_>, a: &[Term], module: &str) -> Flow {
    let Some((r, i)) = slot(ctx, a) else {
        return Flow::badarg();
    };
    let v = ctx.vm.world.arrays[&r][i as usize];
    let value = as_term(ctx, r, v);
    ctx.emit_access(
        EventKind::Atomic,
        format!("{module}:get(#{r}, {i}) -> {v}"),
        SharedItem::Atomic { array: r, index: i },
        Access::Read,
    );
    Flow::Value(value)
}

/// An element as the program sees it: unsigned arrays hold u64 values.
fn as_term(ctx: &Ctx<'_>, r: u64, v: i64) -> Term {
    if ctx.vm.world.arrays[&r][0] == 0 && v < 0 {
        Term::from_big(num_bigint::BigInt::from(v as u64))
    } else {
        Term::Int(v)
    }
}

/// An integer argument as the element's 64 bits (`None` if out of range).
fn as_bits(t: &Term, signed: bool) -> Option<i64> {
    match t {
        Term::Int(n) if signed || *n >= 0 => Some(*n),
        Term::Big(b) if !signed => {
            use num_traits::ToPrimitive;
            b.to_u64().map(|u| u as i64)
        }
        _ => None,
    }
}

#[derive(Clone, Copy)]
enum Op {
    Add,
    Sub,
    Put,
    Exchange,
}

fn update(ctx: &mut Ctx<'_>, a: &[Term], name: &str, op: Op, returns_new: bool) -> Flow {
    let Some((r, i)) = slot(ctx, a) else {
        return Flow::badarg();
    };
    let signed = ctx.vm.world.arrays[&r][0] != 0;
    // `add`/`sub` take any integer that fits 64 bits, signed or not.
    let arg = match op {
        Op::Add | Op::Sub => as_bits(&a[2], true).or_else(|| as_bits(&a[2], false)),
        Op::Put | Op::Exchange => as_bits(&a[2], signed),
    };
    let Some(x) = arg else {
        return Flow::badarg();
    };
    let old = ctx.vm.world.arrays[&r][i as usize];
    let new = match op {
        Op::Add => old.wrapping_add(x),
        Op::Sub => old.wrapping_sub(x),
        Op::Put | Op::Exchange => x,
    };
    if let Some(values) = ctx.vm.world.arrays.get_mut(&r) {
        values.set(i as usize, new);
    }
    let value = match op {
        Op::Exchange => as_term(ctx, r, old),
        _ if returns_new => as_term(ctx, r, new),
        _ => Term::ok(),
    };
    // `add`/`sub`/`exchange` also read the element: one step, a write.
    let access = Access::Write;
    ctx.emit_access(
        EventKind::Atomic,
        format!(
            "{name}(#{r}, {i}, {}) -> {}",
            crate::format::write_term(&a[2]),
            crate::format::write_term(&value)
        ),
        SharedItem::Atomic { array: r, index: i },
        access,
    );
    Flow::Value(value)
}

fn compare_exchange(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Some((r, i)) = slot(ctx, a) else {
        return Flow::badarg();
    };
    let signed = ctx.vm.world.arrays[&r][0] != 0;
    let (Some(expected), Some(desired)) = (as_bits(&a[2], signed), as_bits(&a[3], signed)) else {
        return Flow::badarg();
    };
    let old = ctx.vm.world.arrays[&r][i as usize];
    let value = if old == expected {
        if let Some(values) = ctx.vm.world.arrays.get_mut(&r) {
            values.set(i as usize, desired);
        }
        Term::ok()
    } else {
        as_term(ctx, r, old)
    };
    ctx.emit_access(
        EventKind::Atomic,
        format!(
            "atomics:compare_exchange(#{r}, {i}, {}, {}) -> {}",
            crate::format::write_term(&a[2]),
            crate::format::write_term(&a[3]),
            crate::format::write_term(&value)
        ),
        SharedItem::Atomic { array: r, index: i },
        Access::Write,
    );
    Flow::Value(value)
}

/// `#{size => N, memory => Bytes, min => Min, max => Max}`.
fn info(ctx: &mut Ctx<'_>, a: &[Term], counters: bool) -> Flow {
    let Some(r) = array_of(&a[0]) else {
        return Flow::badarg();
    };
    let Some(values) = ctx.vm.world.arrays.get(&r) else {
        return Flow::badarg();
    };
    let size = values.len() as i64 - 1;
    let signed = values[0] != 0;
    let (min, max) = if signed {
        (Term::Int(i64::MIN), Term::Int(i64::MAX))
    } else {
        (
            Term::Int(0),
            Term::from_big(num_bigint::BigInt::from(u64::MAX)),
        )
    };
    // The BEAM's figure: 40 bytes of header plus 8 per element
    // (`write_concurrency` counters take a cache line per scheduler there:
    // not modelled).
    let memory = 40 + 8 * size;
    let _ = counters;
    let pairs = vec![
        (Term::Atom(Atom::new("max")), max),
        (Term::Atom(Atom::new("memory")), Term::Int(memory)),
        (Term::Atom(Atom::new("min")), min),
        (Term::Atom(Atom::new("size")), Term::Int(size)),
    ];
    let mut m = crate::term::TermMap::new();
    for (k, v) in pairs {
        m.insert(crate::term::MapKey(k), v);
    }
    Flow::Value(Term::Map(std::sync::Arc::new(m)))
}
