//! `erlang:` timers: `send_after/3,4`, `start_timer/3,4`, `cancel_timer/1,2`,
//! `read_timer/1,2`, with the BEAM's options and answers.
//!
//! A timer is no process of the program: `erlang:processes/0` does not list
//! it and nothing of it can crash. It is an entry the scheduler sees (named
//! `<owner>.t<N>`, its owner's N-th timer), waiting for its deadline on the
//! virtual clock; its firing is one step, a timeout the scheduler chooses,
//! that sends the message. A timer to a pid is cancelled when that process
//! exits (or never starts if it is gone already), as on the BEAM.

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table};
use crate::event::{Access, EventKind, SharedItem};
use crate::format::brief;
use crate::process::TimerJob;
use crate::term::Term;

pub fn register(t: &mut Table) {
    t.ctx("erlang", "send_after", 3, |ctx, a| {
        start(ctx, a, None, false)
    });
    t.ctx("erlang", "send_after", 4, |ctx, a| {
        start(ctx, &a[..3], Some(&a[3]), false)
    });
    t.ctx("erlang", "start_timer", 3, |ctx, a| {
        start(ctx, a, None, true)
    });
    t.ctx("erlang", "start_timer", 4, |ctx, a| {
        start(ctx, &a[..3], Some(&a[3]), true)
    });
    t.ctx("erlang", "cancel_timer", 1, |ctx, a| {
        cancel(ctx, &a[0], None)
    });
    t.ctx("erlang", "cancel_timer", 2, |ctx, a| {
        cancel(ctx, &a[0], Some(&a[1]))
    });
    t.ctx("erlang", "read_timer", 1, |ctx, a| read(ctx, &a[0], None));
    t.ctx("erlang", "read_timer", 2, |ctx, a| {
        read(ctx, &a[0], Some(&a[1]))
    });
}

/// The options of a timer call as `(name, boolean)` pairs among `known`;
/// `None` (badarg) for anything else, including an improper list.
fn options(opts: Option<&Term>, known: &[&'static str]) -> Option<Vec<(&'static str, bool)>> {
    let Some(opts) = opts else {
        return Some(Vec::new());
    };
    let items = opts.list_to_vec()?;
    let mut out = Vec::new();
    for o in &items {
        let Term::Tuple(t) = o else { return None };
        let [Term::Atom(name), Term::Atom(v)] = &t[..] else {
            return None;
        };
        let name = known.iter().find(|k| **k == name.name())?;
        let v = match *v {
            Atom::TRUE => true,
            Atom::FALSE => false,
            _ => return None,
        };
        out.push((*name, v));
    }
    Some(out)
}

/// The last value given for option `name`, or `default`.
fn option(opts: &[(&'static str, bool)], name: &str, default: bool) -> bool {
    opts.iter()
        .rev()
        .find(|(n, _)| *n == name)
        .map_or(default, |(_, v)| *v)
}

fn start(ctx: &mut Ctx<'_>, a: &[Term], opts: Option<&Term>, wrap: bool) -> Flow {
    let Some(opts) = options(opts, &["abs"]) else {
        return Flow::badarg();
    };
    let Term::Int(time) = a[0] else {
        return Flow::badarg();
    };
    if !matches!(a[1], Term::Pid(_) | Term::Atom(_)) {
        return Flow::badarg();
    }
    // With `{abs, true}` the time is a point of monotonic time (ms).
    let after = if option(&opts, "abs", false) {
        let now = ctx.vm.vclock as i64;
        time.saturating_sub(now).max(0) as u64
    } else if time < 0 {
        return Flow::badarg();
    } else {
        time as u64
    };
    let tref = ctx.vm.new_ref();
    let msg = if wrap {
        Term::tuple(vec![
            Term::Atom(Atom::TIMEOUT),
            Term::Ref(tref),
            a[2].clone(),
        ])
    } else {
        a[2].clone()
    };
    let what = if wrap { "start_timer" } else { "send_after" };
    // A timer to a process that is gone is cancelled at once.
    if let Term::Pid(dest) = a[1]
        && !ctx.is_alive(dest)
    {
        ctx.emit_access(
            EventKind::Local,
            format!("erlang:{what}({after}, {}) -> no timer", ctx.name_of(dest)),
            SharedItem::Process(dest),
            Access::Read,
        );
        return Flow::Value(Term::Ref(tref));
    }
    let job = TimerJob {
        dest: a[1].clone(),
        msg,
        tref,
    };
    let Some(timer) = ctx.vm.start_timer(ctx.proc, job, after) else {
        return ctx.too_many_processes();
    };
    let name = ctx.name_of(timer);
    ctx.emit_access(
        EventKind::Spawn,
        format!("erlang:{what}({after}, {}) -> timer {name}", brief(&a[1])),
        SharedItem::Process(timer),
        Access::Write,
    );
    // Whether the timer starts at all depends on whether its destination
    // is alive: ordered with that process's exit.
    if let Term::Pid(dest) = a[1]
        && let Some(ev) = ctx.event.as_mut()
    {
        ev.accesses.push((SharedItem::Process(dest), Access::Read));
    }
    Flow::Value(Term::Ref(tref))
}

/// What a timer call answers: the milliseconds left, or `false`.
fn left(ms: Option<u64>) -> Term {
    match ms {
        Some(ms) => Term::Int(ms as i64),
        None => Term::bool(false),
    }
}

fn cancel(ctx: &mut Ctx<'_>, tref: &Term, opts: Option<&Term>) -> Flow {
    let (Term::Ref(r), Some(opts)) = (tref, options(opts, &["async", "info"])) else {
        return Flow::badarg();
    };
    let (is_async, info) = (option(&opts, "async", false), option(&opts, "info", true));
    let found = ctx.vm.timer_left(*r);
    let ms = found.and_then(|(_, ms)| ms);
    let result = left(ms);
    // The answer depends on whether the timer fired: an access to it.
    if let Some((timer, _)) = found {
        let name = ctx.name_of(timer);
        ctx.emit_access(
            EventKind::Local,
            format!("erlang:cancel_timer({name}) -> {}", brief(&result)),
            SharedItem::Process(timer),
            Access::Write,
        );
        ctx.vm.drop_timer(timer);
    }
    reply(ctx, "cancel_timer", tref, result, is_async, info)
}

fn read(ctx: &mut Ctx<'_>, tref: &Term, opts: Option<&Term>) -> Flow {
    let (Term::Ref(r), Some(opts)) = (tref, options(opts, &["async"])) else {
        return Flow::badarg();
    };
    let is_async = option(&opts, "async", false);
    let found = ctx.vm.timer_left(*r);
    let result = left(found.and_then(|(_, ms)| ms));
    if let Some((timer, _)) = found {
        let name = ctx.name_of(timer);
        ctx.emit_access(
            EventKind::Local,
            format!("erlang:read_timer({name}) -> {}", brief(&result)),
            SharedItem::Process(timer),
            Access::Read,
        );
    }
    reply(ctx, "read_timer", tref, result, is_async, true)
}

/// The answer, returned (`ok` when not wanted) or, asynchronously, sent to
/// the caller as `{Tag, TimerRef, Result}`.
fn reply(
    ctx: &mut Ctx<'_>,
    tag: &str,
    tref: &Term,
    result: Term,
    is_async: bool,
    info: bool,
) -> Flow {
    if !is_async {
        return Flow::Value(if info { result } else { Term::ok() });
    }
    if info {
        let msg = Term::tuple(vec![Term::atom(tag), tref.clone(), result]);
        ctx.proc.mailbox.push_back(msg);
    }
    Flow::Value(Term::ok())
}
