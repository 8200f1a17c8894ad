//! The scheduler-facing interface: steps, events, names, statuses, forks, budgets.

use std::sync::Arc;

use racewit_vm::{
    Access, Event, EventKind, Pid, ProcStatus, SharedItem, Term, Vm, VmConfig, VmError,
};

fn vm(src: &str) -> Vm {
    let program = racewit_syntax::load_source("t.erl", src);
    Vm::new(Arc::new(program), VmConfig::default())
}

/// Step the lowest enabled process until none is enabled; returns the events' texts.
fn run_all(vm: &mut Vm) -> Vec<String> {
    let mut texts = Vec::new();
    for _ in 0..10_000 {
        let Some(&p) = vm.enabled().first() else {
            break;
        };
        match vm.step(p) {
            Ok(ev) => texts.push(format!("{} {}", vm.process_name(ev.pid), ev.text)),
            Err(e) => {
                texts.push(format!("error {e}"));
                break;
            }
        }
    }
    texts
}

#[test]
fn process_names_follow_spawn_order_per_parent() {
    let mut vm = vm("-module(t).\n-export([main/0, child/0]).\n\
        main() -> spawn(t, child, []), spawn(fun() -> ok end), ok.\n\
        child() -> spawn(fun() -> ok end), ok.\n");
    let p1 = vm.spawn_entry("t", "main", vec![]);
    run_all(&mut vm);
    let names: Vec<String> = vm
        .processes()
        .iter()
        .map(|p| vm.process_name(*p).to_string())
        .collect();
    assert_eq!(names, ["P1", "P1.1", "P1.2", "P1.1.1"]);
    assert_eq!(vm.process_result(p1), Some(Term::atom("ok")));
    assert!(
        vm.processes()
            .iter()
            .all(|p| matches!(vm.process_status(*p), ProcStatus::Exited(_)))
    );
}

#[test]
fn whereis_is_a_registry_read_event() {
    let mut vm = vm("-module(t).\n-export([main/0]).\nmain() -> whereis(ct_master), ok.\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    let ev = vm.step(p).expect("step");
    assert_eq!(ev.kind, EventKind::Registry);
    assert_eq!(ev.text, "erlang:whereis(ct_master) -> undefined");
    assert_eq!(ev.item, Some(SharedItem::Registry("ct_master".into())));
    assert_eq!(ev.access, Some(Access::Read));
    assert!(ev.site.is_some() && ev.span.is_some());
}

#[test]
fn failed_register_is_an_event_then_badarg() {
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> register(a, self()), catch register(a, self()).\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    let first = vm.step(p).expect("first");
    assert_eq!(first.access, Some(Access::Write));
    let second = vm.step(p).expect("second");
    assert_eq!(second.item, Some(SharedItem::Registry("a".into())));
    // A caught failed write changed nothing: it counts as a read of the name.
    assert_eq!(second.access, Some(Access::Read));
    assert!(second.text.ends_with("-> badarg"), "{}", second.text);
    run_all(&mut vm);
    let r = vm.process_result(p).expect("returned");
    assert_eq!(vm.format_term(&r), "{'EXIT',{badarg,[{t,main,0,[]}]}}");
}

#[test]
fn a_refused_ets_write_is_a_read_then_badarg() {
    // A write to another process's protected table, and one to a table that
    // does not exist, change nothing: like a failed register, each reads.
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> T = ets:new(tab, [named_table, protected]),\n\
            Self = self(),\n\
            spawn(fun() -> Self ! {r, catch ets:insert(T, {k, 1})} end),\n\
            receive {r, _} -> ok end,\n\
            catch ets:delete(gone, k), ok.\n");
    vm.spawn_entry("t", "main", vec![]);
    let mut evs = Vec::new();
    for _ in 0..100 {
        let Some(&p) = vm.enabled().first() else {
            break;
        };
        evs.push(vm.step(p).expect("step"));
    }
    let writes: Vec<&Event> = evs
        .iter()
        .filter(|e| e.kind == EventKind::Ets && e.text.ends_with("-> badarg"))
        .collect();
    assert_eq!(writes.len(), 2, "{evs:#?}");
    for e in writes {
        assert_eq!(e.access, Some(Access::Read), "{}", e.text);
    }
}

#[test]
fn ets_events_name_table_and_key() {
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> ets:new(tab, [named_table, public]), ets:insert(tab, {k, 1}), ets:lookup(tab, k), ok.\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    let evs: Vec<_> = (0..3).map(|_| vm.step(p).expect("step")).collect();
    assert_eq!(
        evs[1].item,
        Some(SharedItem::Ets {
            table: "tab".into(),
            key: Some("k".into())
        })
    );
    assert_eq!(evs[1].access, Some(Access::Write));
    assert_eq!(evs[2].access, Some(Access::Read));
    assert_eq!(evs[2].text, "ets:lookup(tab, k) -> [{k,1}]");
}

#[test]
fn a_fork_is_independent_of_its_parent() {
    let mut a = vm("-module(t).\n-export([main/0, w/1]).\n\
        main() -> ets:new(tab, [named_table, public]), spawn(t, w, [1]), spawn(t, w, [2]), ok.\n\
        w(N) -> ets:insert(tab, {last, N}).\n");
    a.spawn_entry("t", "main", vec![]);
    while !a.enabled().is_empty() && a.enabled().len() < 3 {
        let p = a.enabled()[0];
        a.step(p).expect("step");
    }
    let mut b = a.clone();
    // Opposite orders of the two writers.
    for vm in [&mut a] {
        for name in ["P1.1", "P1.2"] {
            let p = vm
                .processes()
                .into_iter()
                .find(|p| &*vm.process_name(*p) == name)
                .expect("exists");
            while vm.can_step(p) {
                vm.step(p).expect("step");
            }
        }
    }
    for name in ["P1.2", "P1.1"] {
        let p = b
            .processes()
            .into_iter()
            .find(|p| &*b.process_name(*p) == name)
            .expect("exists");
        while b.can_step(p) {
            b.step(p).expect("step");
        }
    }
    assert!(
        a.shared_state_digest().contains("{last,2}"),
        "{}",
        a.shared_state_digest()
    );
    assert!(
        b.shared_state_digest().contains("{last,1}"),
        "{}",
        b.shared_state_digest()
    );
}

#[test]
fn deep_stacks_span_register_chunks() {
    // 300,000 frames cross many register chunks: values come back down
    // across chunk boundaries, a throw from the bottom unwinds to catches
    // in lower chunks, and a fork in the middle runs on independently.
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> {sum(300000), catch dive(300000), nest(3)}.\n\
        sum(0) -> 0; sum(N) -> N + sum(N - 1).\n\
        dive(0) -> throw(bottom); dive(N) -> [N | dive(N - 1)].\n\
        nest(0) -> 0;\n\
        nest(K) -> 1 + (try dive(100000) catch throw:bottom -> nest(K - 1) end).\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    run_all(&mut vm);
    let want = Term::tuple(vec![
        Term::Int(300_000 * 300_001 / 2),
        Term::atom("bottom"),
        Term::Int(3),
    ]);
    assert_eq!(vm.process_result(p), Some(want));
}

#[test]
fn deep_body_recursion_and_budgeted_loops() {
    let mut vm = vm("-module(t).\n-export([main/0, spin/0]).\n\
        main() -> len(lists:seq(1, 1000000)).\n\
        len([]) -> 0; len([_|T]) -> 1 + len(T).\n\
        spin() -> spin().\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    run_all(&mut vm);
    assert_eq!(vm.process_result(p), Some(Term::Int(1_000_000)));

    let program = racewit_syntax::load_source(
        "t.erl",
        "-module(t).\n-export([spin/0]).\nspin() -> spin().\n",
    );
    let config = VmConfig {
        max_reductions: 100_000,
        ..VmConfig::default()
    };
    let mut vm = Vm::new(Arc::new(program), config);
    let p = vm.spawn_entry("t", "spin", vec![]);
    assert!(matches!(vm.step(p), Err(VmError::BudgetExhausted { .. })));
}

#[test]
fn unsupported_calls_park_the_process_only() {
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> Self = self(), spawn(fun() -> Self ! done end),\n  file:read_file(\"x\").\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    let texts = run_all(&mut vm);
    match vm.process_status(p) {
        ProcStatus::Parked {
            call,
            location,
            reason,
        } => {
            // The path taken against the working directory (`/` here).
            assert_eq!(call, "file:read_file/1 of \"/x\"");
            assert_eq!(location, "t.erl:4");
            assert_eq!(reason, racewit_vm::ParkReason::Host);
        }
        other => panic!("not parked: {other:?} {texts:?}"),
    }
    let child = vm.processes()[1];
    assert!(matches!(vm.process_status(child), ProcStatus::Exited(_)));
}

#[test]
fn a_function_missing_from_a_partial_stand_in_parks() {
    // racewit's `global` and `mnesia` are partial stand-ins: what they lack
    // is unsupported, not undef. The prelude's `lists` stands in for OTP's
    // when no OTP was found: what it lacks and OTP 25's `lists` exports
    // needs OTP; what OTP 25's `lists` does not export either is undef.
    // OTP's complete `lists`, loaded from source, raises undef.
    use racewit_vm::ParkReason;
    let otp = racewit_otp::installed();
    let none = racewit_vm::Libraries::none();
    // The cases on OTP's `lists` and export tables need an installed OTP;
    // the stand-in cases run everywhere.
    let have_otp = racewit_otp::discover().is_some();
    if !have_otp {
        eprintln!(
            "notice: Erlang/OTP is not installed (OTP's lists and export tables); \
             the three cases on OTP's modules are skipped, the stand-in cases run"
        );
    }
    for (call, libs, parked) in [
        (
            "global:whereis_name(x), global:info()",
            &none,
            Some(("global:info/0", ParkReason::Unsupported)),
        ),
        (
            "mnesia:start(), mnesia:info()",
            &none,
            Some(("mnesia:info/0", ParkReason::Unsupported)),
        ),
        (
            "catch lists:enumerate(1, [a])",
            &none,
            Some(("lists:enumerate/2", ParkReason::NoOtp)),
        ),
        ("catch lists:no_such_function()", &none, None),
        ("catch (list_to_atom(\"made_up_mod\")):f()", &none, None),
        ("catch lists:no_such_function()", &otp, None),
        (
            "gen_leader:start_link(a, b)",
            &otp,
            Some(("gen_leader:start_link/2", ParkReason::NotLoaded)),
        ),
        ("catch (list_to_atom(\"made_up_mod\")):f()", &otp, None),
    ] {
        if !have_otp && std::ptr::eq(libs, &otp) {
            continue;
        }
        let program = racewit_syntax::load_source(
            "t.erl",
            &format!("-module(t).\n-export([main/0]).\nmain() -> {call}.\n"),
        );
        let config = VmConfig {
            libraries: libs.clone(),
            ..VmConfig::default()
        };
        let mut vm = Vm::new(Arc::new(program), config);
        let p = vm.spawn_entry("t", "main", vec![]);
        let texts = run_all(&mut vm);
        match (vm.process_status(p), parked) {
            (
                ProcStatus::Parked {
                    call: got, reason, ..
                },
                Some((want, why)),
            ) => {
                assert_eq!(got, want);
                assert_eq!(reason, why, "{call}");
            }
            (ProcStatus::Exited(_), None) => {
                let result = vm.process_result(p).map(|t| vm.format_term(&t));
                assert!(
                    result.as_deref().is_some_and(|r| r.contains("undef")),
                    "{result:?}"
                );
            }
            (other, _) => panic!("{call}: {other:?} {texts:?}"),
        }
    }
}

#[test]
fn a_module_only_racewit_names_is_undef_and_one_the_program_names_is_not_loaded() {
    // `m:f(Reader)` calls `Reader:read_config/1`. When the program itself
    // writes the atom (`lib:f(made_up_reader)` in t.erl), the module is a
    // dependency nobody loaded: the caller parks, not loaded. When only
    // racewit's generated code (a harness, loaded from GENERATED_DIR)
    // passes it, the program names no such module: undef, as on the BEAM.
    // `racewit`, the name of racewit's own BIF module, is no module of the
    // program's either.
    use racewit_vm::ParkReason;
    let lib = "-module(lib).\n-export([f/1]).\nf(Reader) -> Reader:read_config(x).\n";
    for (reader, from_harness, parked) in [
        ("made_up_reader", false, true),
        ("made_up_reader", true, false),
        ("racewit", true, false),
    ] {
        let mut program = racewit_syntax::load_source("lib.erl", lib);
        let path = if from_harness {
            format!("{}/t.erl", racewit_vm::code::GENERATED_DIR)
        } else {
            "t.erl".to_string()
        };
        program.absorb(racewit_syntax::load_source(
            &path,
            &format!("-module(t).\n-export([main/0]).\nmain() -> catch lib:f({reader}).\n"),
        ));
        let mut vm = Vm::new(Arc::new(program), VmConfig::default());
        let p = vm.spawn_entry("t", "main", vec![]);
        let texts = run_all(&mut vm);
        let call = format!("{reader}:read_config/1");
        match vm.process_status(p) {
            ProcStatus::Parked {
                call: got, reason, ..
            } if parked => {
                assert_eq!(got, call);
                assert_eq!(reason, ParkReason::NotLoaded);
            }
            ProcStatus::Exited(_) if !parked => {
                let result = vm.process_result(p).map(|t| vm.format_term(&t));
                assert!(
                    result.as_deref().is_some_and(|r| r.contains("undef")),
                    "{reader} from the harness: {result:?}"
                );
            }
            other => panic!("{reader} (from the harness: {from_harness}): {other:?} {texts:?}"),
        }
    }
}

#[test]
fn receive_timeouts_are_choices() {
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> receive x -> got after 100 -> timeout end.\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    let ev = vm.step(p).expect("blocks");
    assert_eq!(ev.kind, EventKind::Blocked);
    assert!(matches!(vm.process_status(p), ProcStatus::Waiting { .. }));
    assert_eq!(vm.enabled(), vec![p]);
    let ev = vm.step(p).expect("fires");
    assert_eq!(ev.kind, EventKind::Timeout);
    run_all(&mut vm);
    assert_eq!(vm.process_result(p), Some(Term::atom("timeout")));
}

#[test]
fn a_mnesia_transaction_is_one_step() {
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> mnesia:start(), mnesia:create_table(c, [{attributes, [k, v]}]),\n\
        mnesia:transaction(fun() -> [] = mnesia:read(c, x), mnesia:write({c, x, 1}) end).\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    let _create = vm.step(p).expect("create");
    let tx = vm.step(p).expect("transaction");
    assert_eq!(tx.kind, EventKind::Mnesia);
    let accesses: Vec<_> = tx.accesses.iter().map(|(i, a)| (i.clone(), *a)).collect();
    let lock = SharedItem::Mnesia {
        table: "transaction lock".into(),
        key: None,
    };
    let record = SharedItem::Mnesia {
        table: "c".into(),
        key: Some("x".into()),
    };
    // The read, the write, and the commit releasing the lock the read took.
    assert_eq!(
        accesses,
        [
            (record.clone(), Access::Read),
            (record, Access::Write),
            (lock, Access::Write)
        ],
        "{}",
        tx.text
    );
    run_all(&mut vm);
    let r = vm.process_result(p).expect("returned");
    assert_eq!(vm.format_term(&r), "{atomic,ok}");
}

#[test]
fn a_dirty_operation_inside_a_transaction_is_a_step_of_its_own() {
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> mnesia:start(), mnesia:create_table(c, [{attributes, [k, v]}]),\n\
        mnesia:transaction(fun() -> [] = mnesia:dirty_read(c, x), mnesia:dirty_write({c, x, 1}) end).\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    let _create = vm.step(p).expect("create");
    let read = vm.step(p).expect("dirty read");
    assert!(
        read.text.ends_with("mnesia:dirty_read(c, x)"),
        "{}",
        read.text
    );
    assert_eq!(read.access, Some(Access::Read));
    let write = vm.step(p).expect("dirty write");
    assert_eq!(write.text, "mnesia:dirty_write({c,x,1})");
    run_all(&mut vm);
    let r = vm.process_result(p).expect("returned");
    assert_eq!(vm.format_term(&r), "{atomic,ok}");
}

#[test]
fn deeply_nested_iolists_do_not_use_the_rust_stack() {
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> L = lists:foldl(fun(X, A) -> [A, X] end, [], lists:duplicate(300000, $a)),\n\
        {byte_size(iolist_to_binary(L)), length(lists:flatten(L))}.\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    run_all(&mut vm);
    let r = vm.process_result(p).expect("returned");
    assert_eq!(vm.format_term(&r), "{300000,300000}");
    drop(vm);
}

/// A function the hot loop entered without pushing its frame (it had made
/// no call yet) still appears in the stack of an exception it raises, and
/// the budget counts its call.
#[test]
fn frames_not_yet_pushed_appear_in_stacks_and_budgets() {
    let mut vm = vm("-module(t).\n-export([main/0]).\n\
        main() -> 1 + outer(a).\n\
        outer(X) -> 2 * leaf(X).\n\
        leaf(X) -> X + 1.\n");
    let p = vm.spawn_entry("t", "main", vec![]);
    run_all(&mut vm);
    let crash = vm.process_crash(p).expect("badarith crash");
    assert_eq!(vm.write_term(&crash.reason), "badarith");
    assert_eq!(
        vm.write_term(&crash.stack),
        "[{t,leaf,1,[]},{t,outer,1,[]},{t,main,0,[]}]"
    );

    // main, count and 5 leaf calls: the sixth leaf call is over a budget of 6.
    let program = Arc::new(racewit_syntax::load_source(
        "t.erl",
        "-module(t).\n-export([main/0]).\nmain() -> count(10, 0).\n\
         count(0, A) -> A;\ncount(N, A) -> count(N - 1, A + leaf(N)).\nleaf(X) -> X.\n",
    ));
    for (budget, done) in [(6, false), (40, true)] {
        let (vm, p, out) = step_main_with_budget(&program, budget);
        assert_eq!(out.is_ok(), done, "budget {budget}: {out:?}");
        if done {
            assert_eq!(vm.process_result(p), Some(Term::Int(55)));
        }
    }
}

/// A call whose one argument is `N - 1` just computed gets the integer
/// straight from the hot loop; every call still counts against the budget,
/// and a run stopped by it there is the same as one stopped anywhere else.
#[test]
fn integer_argument_calls_count_against_the_budget() {
    // main, depth(10) .. depth(1), and depth(0) answered by its clause: 12
    // calls; down(10) .. down(0) in a tail loop: 11 more.
    let program = Arc::new(racewit_syntax::load_source(
        "t.erl",
        "-module(t).\n-export([main/0]).\nmain() -> down(depth(10)).\n\
         depth(0) -> 0;\ndepth(N) -> 1 + depth(N - 1).\n\
         down(0) -> done;\ndown(N) -> down(N - 1).\n",
    ));
    let mut least = None;
    for budget in 1..40 {
        let (vm, p, out) = step_main_with_budget(&program, budget);
        match (&out, least) {
            (Ok(_), None) => {
                assert_eq!(vm.process_result(p), Some(Term::atom("done")));
                least = Some(budget);
            }
            (Ok(_), Some(_)) => {}
            (Err(e), None) => assert!(format!("{e:?}").contains("udget"), "{e:?}"),
            (Err(e), Some(l)) => panic!("budget {budget} failed after {l} passed: {e:?}"),
        }
    }
    assert_eq!(least, Some(23));
}

/// One step of `t:main/0` in a fresh VM whose runs have `budget` reductions.
fn step_main_with_budget(
    program: &Arc<racewit_syntax::ir::Program>,
    budget: u64,
) -> (Vm, Pid, Result<Event, VmError>) {
    let config = VmConfig {
        max_reductions: budget,
        ..VmConfig::default()
    };
    let mut vm = Vm::new(program.clone(), config);
    let p = vm.spawn_entry("t", "main", vec![]);
    let out = vm.step(p);
    (vm, p, out)
}
