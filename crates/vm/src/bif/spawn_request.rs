//! `erlang:spawn_request/1..5` and `spawn_request_abandon/1`: the
//! asynchronous spawn that `erpc` (and `rpc` over it) is built on.
//!
//! racewit's node is not distributed, so a request for another node gets
//! the reply a node that is not alive gets on the BEAM, `{ReplyTag, ReqId,
//! error, noconnection}`, and links nothing and monitors nothing. A request
//! for this node spawns at once: the reply (when the `reply` option asks for
//! it) is in the caller's mailbox when the call returns, so
//! `spawn_request_abandon/1` always finds the request answered (`false`).
//! As on the BEAM, what is wrong with the options or the argument list is
//! answered by an error reply (`badopt`; `noconnection` for an argument
//! list that is not a proper list, which is what OTP 25 answers), while a
//! bad node, module, function, fun or option list is `badarg` at once.

use crate::atom::Atom;
use crate::bif::erlang::{Monitor, start_child};
use crate::bif::{Ctx, Flow, Table};
use crate::process::Start;
use crate::term::Term;

pub fn register(t: &mut Table) {
    for arity in 1..=5 {
        t.ctx("erlang", "spawn_request", arity, spawn_request);
    }
    t.ctx("erlang", "spawn_request_abandon", 1, |_, a| match a[0] {
        Term::Ref(_) => Flow::Value(Term::bool(false)),
        _ => Flow::badarg(),
    });
}

/// What the request spawns.
enum Body {
    Fun(Term),
    Mfa(Atom, Atom, Term),
}

/// A request's arguments in one shape: the node, the body, the options.
fn shape(a: &[Term]) -> Option<(Option<&Term>, Body, Option<&Term>)> {
    let is_fun = |t: &Term| matches!(t, Term::Fun(_));
    let mfa = |m: &Term, f: &Term, args: &Term| match (m, f) {
        (Term::Atom(m), Term::Atom(f)) => Some(Body::Mfa(*m, *f, args.clone())),
        _ => None,
    };
    match a {
        [f] => Some((None, Body::Fun(f.clone()), None)),
        [f, opts] if is_fun(f) => Some((None, Body::Fun(f.clone()), Some(opts))),
        [node, f] => Some((Some(node), Body::Fun(f.clone()), None)),
        [node, f, opts] if is_fun(f) => Some((Some(node), Body::Fun(f.clone()), Some(opts))),
        [m, f, args] => Some((None, mfa(m, f, args)?, None)),
        // (Node, M, F, A) has an atom third; (M, F, A, Opts) a list.
        [node, m, f @ Term::Atom(_), args] => Some((Some(node), mfa(m, f, args)?, None)),
        [m, f, args, opts] => Some((None, mfa(m, f, args)?, Some(opts))),
        [node, m, f, args, opts] => Some((Some(node), mfa(m, f, args)?, Some(opts))),
        _ => None,
    }
}

/// Which replies the caller asked for (`{reply, ...}`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reply {
    Yes,
    No,
    ErrorOnly,
    SuccessOnly,
}

struct Options {
    link: bool,
    monitor: bool,
    reply: Reply,
    tag: Term,
    /// An option the BEAM refuses (answered by `badopt`).
    bad: bool,
}

fn options(list: &[Term]) -> Options {
    let mut o = Options {
        link: false,
        monitor: false,
        reply: Reply::Yes,
        tag: Term::atom("spawn_reply"),
        bad: false,
    };
    for opt in list {
        match opt {
            Term::Atom(a) => match a.name() {
                "link" => o.link = true,
                "monitor" => o.monitor = true,
                _ => o.bad = true,
            },
            _ => match opt.as_tuple() {
                Some([Term::Atom(k), v]) => match (k.name(), v) {
                    ("reply", Term::Atom(r)) => match r.name() {
                        "yes" => o.reply = Reply::Yes,
                        "no" => o.reply = Reply::No,
                        "error_only" => o.reply = Reply::ErrorOnly,
                        "success_only" => o.reply = Reply::SuccessOnly,
                        _ => o.bad = true,
                    },
                    ("reply_tag", tag) => o.tag = tag.clone(),
                    ("monitor", opts) if opts.list_to_vec().is_some() => o.monitor = true,
                    // Spawn options that change nothing racewit models.
                    (
                        "priority" | "fullsweep_after" | "min_heap_size" | "min_bin_vheap_size"
                        | "max_heap_size" | "message_queue_data",
                        _,
                    ) => {}
                    _ => o.bad = true,
                },
                _ => o.bad = true,
            },
        }
    }
    o
}

fn spawn_request(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Some((node, body, opts)) = shape(a) else {
        return Flow::badarg();
    };
    if node.is_some_and(|n| !matches!(n, Term::Atom(_))) {
        return Flow::badarg();
    }
    if let Body::Fun(f) = &body
        && !matches!(f, Term::Fun(fun) if fun.arity() == 0)
    {
        return Flow::badarg();
    }
    let Some(opts) = opts.map_or(Some(Vec::new()), Term::list_to_vec) else {
        return Flow::badarg();
    };
    let opts = options(&opts);
    let req = ctx.vm.new_ref();
    let here = node.is_none_or(|n| n.is_atom(Atom::NONODE));
    let args = match &body {
        Body::Mfa(_, _, args) => args.list_to_vec(),
        Body::Fun(_) => Some(Vec::new()),
    };
    let refused = if opts.bad {
        Some("badopt")
    } else if !here || args.is_none() {
        Some("noconnection")
    } else {
        None
    };
    if let Some(why) = refused {
        if matches!(opts.reply, Reply::Yes | Reply::ErrorOnly) {
            reply(ctx, opts.tag, req, "error", Term::atom(why));
        }
        return Flow::Value(Term::Ref(req));
    }
    let args = args.unwrap_or_default();
    let (start, initial) = match body {
        Body::Fun(f) => {
            let initial = super::erlang::fun_mfa(&f);
            (Start::Apply(f, Vec::new()), initial)
        }
        Body::Mfa(m, f, _) => {
            let initial = Term::tuple(vec![
                Term::Atom(m),
                Term::Atom(f),
                Term::Int(args.len() as i64),
            ]);
            (
                Start::Call(ctx.vm.resolve(m, f, args.len() as u32), args),
                initial,
            )
        }
    };
    // The monitor's reference is the request's: 'DOWN' carries ReqId.
    let monitor = if opts.monitor {
        Monitor::With(req)
    } else {
        Monitor::No
    };
    let pid = match start_child(ctx, start, initial, "spawn_request", opts.link, monitor) {
        Ok((pid, _)) => pid,
        Err(stop) => return stop,
    };
    if matches!(opts.reply, Reply::Yes | Reply::SuccessOnly) {
        reply(ctx, opts.tag, req, "ok", Term::Pid(pid));
    }
    Flow::Value(Term::Ref(req))
}

/// `{Tag, ReqId, Status, Value}` into the caller's own mailbox.
fn reply(ctx: &mut Ctx<'_>, tag: Term, req: u64, status: &str, value: Term) {
    let msg = Term::tuple(vec![tag, Term::Ref(req), Term::atom(status), value]);
    ctx.proc.mailbox.push_back(msg);
}
