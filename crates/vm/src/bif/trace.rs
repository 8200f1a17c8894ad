//! What a node without tracing answers: the dynamic-trace tag BIFs
//! (`erlang:dt_*`, which OTP's `file` module calls around every request
//! to the file server) as an emulator built without VM probes answers
//! them, and `erlang:trace_delivered/1`, whose reply comes at once since no
//! trace message is ever in flight.

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, badarg};
use crate::event::{Access, EventKind, SharedItem};
use crate::term::Term;

pub fn register(t: &mut Table) {
    // No tag is ever set: reads give `undefined`, and a put (of anything)
    // gives the previous tag, `undefined`.
    t.pure("erlang", "dt_get_tag", 0, |_| Ok(Term::atom("undefined")));
    t.pure("erlang", "dt_get_tag_data", 0, |_| {
        Ok(Term::atom("undefined"))
    });
    t.pure("erlang", "dt_put_tag", 1, |_| Ok(Term::atom("undefined")));
    // Spreading returns what `dt_restore_tag/1` takes back: `true`, the only
    // value it accepts.
    t.pure("erlang", "dt_spread_tag", 1, |a| match a[0] {
        Term::Atom(Atom::TRUE | Atom::FALSE) => Ok(Term::bool(true)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "dt_restore_tag", 1, |a| match a[0] {
        Term::Atom(Atom::TRUE) => Ok(Term::bool(true)),
        _ => Err(badarg()),
    });
    t.pure("erlang", "dt_prepend_vm_tag_data", 1, |a| Ok(a[0].clone()));
    t.pure("erlang", "dt_append_vm_tag_data", 1, |a| Ok(a[0].clone()));
    t.ctx("erlang", "trace_delivered", 1, trace_delivered);
}

/// `trace_delivered(Tracee)`: a reference, and `{trace_delivered, Tracee,
/// Ref}` in the caller's mailbox (for `all` or a local pid).
fn trace_delivered(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    match &a[0] {
        Term::Pid(_) => {}
        Term::Atom(x) if x.name() == "all" => {}
        _ => return Flow::badarg(),
    }
    let reference = Term::Ref(ctx.vm.new_ref());
    let msg = Term::tuple(vec![
        Term::atom("trace_delivered"),
        a[0].clone(),
        reference.clone(),
    ]);
    let me = ctx.pid();
    ctx.emit_access(
        EventKind::Send,
        "erlang:trace_delivered(...)".into(),
        SharedItem::Mailbox(me),
        Access::Write,
    );
    if let Some(ev) = ctx.event.as_mut() {
        ev.message = Some(msg.clone());
    }
    ctx.vm.deliver(me, msg);
    Flow::Value(reference)
}
