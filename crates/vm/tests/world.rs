//! The modelled outside world where the BEAM's answer depends on the host
//! (paths, the working directory, the OS process, random bytes, what was
//! logged): tested against the model's documented answers, not the BEAM.

use std::path::PathBuf;
use std::sync::Arc;

use racewit_otp::{LibraryRequest, load_libraries};
use racewit_vm::run::{RunConfig, run_entry};

fn run_with(src: &str, libraries: Arc<racewit_vm::Libraries>) -> racewit_vm::run::RunOutcome {
    let program = racewit_syntax::load_source("w.erl", src);
    let config = RunConfig {
        libraries,
        ..RunConfig::default()
    };
    run_entry(Arc::new(program), "w", "main", &config)
}

fn module(body: &str) -> String {
    format!(
        "-module(w).\n-export([main/0]).\n-include_lib(\"kernel/include/logger.hrl\").\n{body}\n"
    )
}

#[test]
fn paths_come_from_the_installation_the_loader_found() {
    let Some(otp) = racewit_otp::discover() else {
        eprintln!("no installed OTP: the paths are those of the default model");
        return;
    };
    let libs = Arc::new(load_libraries(&LibraryRequest {
        otp: Some(otp.clone()),
        cwd: Some(PathBuf::from("/work/here")),
        ..LibraryRequest::default()
    }));
    let out = run_with(
        &module(
            "main() -> {code:root_dir(), code:lib_dir(), code:lib_dir(stdlib), \
             code:priv_dir(kernel), code:which(lists), code:which(gen_server), \
             file:get_cwd(), filename:absname(\"x\"), code:is_loaded(erlang)}.",
        ),
        libs,
    );
    let root = otp.root.display().to_string();
    let stdlib = otp.app_dir("stdlib").expect("stdlib").display().to_string();
    let kernel = otp.app_dir("kernel").expect("kernel").display().to_string();
    let expected = format!(
        "{{\"{root}\",\"{root}/lib\",\"{stdlib}\",\"{kernel}/priv\",\"{stdlib}/ebin/lists.beam\",\"{stdlib}/ebin/gen_server.beam\",{{ok,\"/work/here\"}},\"/work/here/x\",{{file,preloaded}}}}"
    );
    let got: String = out.stdout.split_whitespace().collect();
    assert_eq!(got, expected.replace(' ', ""), "{}", out.stdout);
}

#[test]
fn without_an_otp_the_model_has_fixed_answers() {
    let out = run_with(
        &module(
            "main() -> {code:root_dir(), file:get_cwd(), os:getpid(), os:type(), \
             code:lib_dir(kernel), application:which_applications()}.",
        ),
        racewit_vm::Libraries::none(),
    );
    assert_eq!(
        out.stdout,
        "{\"/usr/lib/erlang\",\n {ok,\"/\"},\n \"4242\",\n {unix,linux},\n {error,bad_name},\n \
         [{stdlib,\"ERTS  CXC 138 10\",\"4.2\"},{kernel,\"ERTS  CXC 138 10\",\"8.5.3\"}]}\n"
    );
}

#[test]
fn random_bytes_repeat_run_to_run() {
    let src = module("main() -> {crypto:strong_rand_bytes(12), crypto:rand_uniform(1, 1000)}.");
    let a = run_with(&src, racewit_vm::Libraries::none()).stdout;
    let b = run_with(&src, racewit_vm::Libraries::none()).stdout;
    assert_eq!(a, b);
    assert!(a.starts_with("{<<"), "{a}");
}

#[test]
fn log_events_are_captured_with_their_process_and_location() {
    // The ?LOG_* macros are OTP's kernel/include/logger.hrl, and logger's
    // API runs from OTP's sources.
    if racewit_otp::discover().is_none() {
        eprintln!(
            "notice: Erlang/OTP is not installed (logger.hrl and logger are OTP's); skipping"
        );
        return;
    }
    let out = run_with(
        &module(
            "main() ->\n    ?LOG_WARNING(\"disk ~p% full\", [93]),\n    ?LOG_INFO(\"dropped\"),\n    \
             spawn(fun() -> logger:error(#{what => crash}) end),\n    ok.",
        ),
        racewit_otp::installed(),
    );
    let log: Vec<(String, String, String, Option<String>)> = out
        .log
        .iter()
        .map(|(p, e)| {
            (
                p.clone(),
                e.level.clone(),
                e.text.clone(),
                e.location.clone(),
            )
        })
        .collect();
    assert_eq!(
        log,
        vec![
            (
                "P1".to_string(),
                "warning".to_string(),
                "disk 93% full".to_string(),
                Some("w:main/0 line 5".to_string())
            ),
            (
                "P1.1".to_string(),
                "error".to_string(),
                "    what: crash".to_string(),
                None
            ),
        ]
    );
    // Output on stdout stays what erl prints with logger_level none.
    assert_eq!(out.stdout, "ok\n");
}

#[test]
fn a_missing_dependency_is_named_not_unsupported() {
    let out = run_with(
        &module("main() -> gen_leader:start_link(a, b, c, d, e, f)."),
        racewit_otp::installed(),
    );
    if racewit_otp::discover().is_some() {
        assert_eq!(
            out.stdout,
            "racewit: stopped at not loaded: gen_leader:start_link/6 (a dependency outside the \
             analysed paths; add deps/ or _build/default/lib, or -pa) (w.erl:4)\n"
        );
    }
    let none = run_with(
        &module("main() -> sets:new()."),
        racewit_vm::Libraries::none(),
    );
    assert!(
        none.stdout.contains("sets:new/0: needs OTP's library code"),
        "{}",
        none.stdout
    );
}

/// A function racewit's stand-in of an OTP module lacks is unsupported when
/// the real module has it, and `undef` (as on the BEAM) when the installed
/// OTP's export table says the real module lacks it too.
#[test]
fn a_stand_in_lacks_what_the_real_module_exports_not_what_it_does_not() {
    if racewit_otp::discover().is_none() {
        eprintln!("skipped: no installed OTP (the test reads global.beam's export table)");
        return;
    }
    let real = run_with(
        &module("main() -> global:info()."),
        racewit_otp::installed(),
    );
    assert!(
        real.stdout.contains("unsupported call global:info/0"),
        "{}",
        real.stdout
    );
    let made_up = run_with(
        &module("main() -> try global:no_such_function() catch error:undef -> undef end."),
        racewit_otp::installed(),
    );
    assert_eq!(made_up.stdout, "undef\n");
}

/// OTP's own logger modules (a program carrying kernel's sources has them)
/// read the primary configuration from the node's `logger` table, where
/// logger_server stores it at boot: a level and filters, no handler, as
/// racewit runs none.
#[test]
fn the_logger_table_holds_the_primary_configuration_of_a_booted_node() {
    let out = run_with(
        &module(
            "main() -> [{_, C}] = ets:lookup(logger, '$primary_config$'), \
             {maps:get(level, C), maps:get(handlers, C), ets:member(logger, '$proxy_config$')}.",
        ),
        Arc::new(racewit_vm::Libraries::default()),
    );
    assert_eq!(out.stdout.trim(), "{notice,[],true}", "{:?}", out.result);
}

/// The node's `logger` is racewit's stand-in while the program does not
/// carry kernel's logger_server. A program that does (OTP's kernel checked
/// as a program) runs its own: starting it takes the name and the table
/// from the stand-in. A program without it cannot take the name: it is
/// held, as on the BEAM.
#[test]
fn a_program_carrying_the_logger_server_runs_its_own() {
    const SERVER: &str = "-module(logger_server).\n\
        -behaviour(gen_server).\n\
        -export([start_link/0, get/0, init/1, handle_call/3, handle_cast/2]).\n\
        start_link() -> gen_server:start_link({local, logger}, ?MODULE, [], []).\n\
        get() -> gen_server:call(logger, get).\n\
        init([]) -> ets:new(logger, [named_table, protected]), \
                    ets:insert(logger, {mine, 1}), {ok, []}.\n\
        handle_call(get, _, S) -> {reply, ets:tab2list(logger), S}.\n\
        handle_cast(_, S) -> {noreply, S}.\n";
    let main = "-module(w).\n-export([main/0]).\n\
        main() -> Before = whereis(logger), {ok, P} = logger_server:start_link(), \
                  {is_pid(Before), Before =/= P, whereis(logger) =:= P, \
                   ets:info(logger, owner) =:= P, logger_server:get()}.\n";
    let program = racewit_syntax::load::load_sources(
        &[("w.erl", main), ("logger_server.erl", SERVER)],
        &racewit_syntax::LoadOptions::default(),
    );
    let config = RunConfig {
        libraries: Arc::new(racewit_vm::Libraries::default()),
        ..RunConfig::default()
    };
    let out = run_entry(Arc::new(program), "w", "main", &config);
    assert_eq!(
        out.stdout.trim(),
        "{true,true,true,true,[{mine,1}]}",
        "{:?}",
        out.result
    );
    // The name of a stand-in is not free for any other program.
    let out = run_with(
        &module("main() -> {catch register(logger, self()), ets:info(logger, owner)}."),
        Arc::new(racewit_vm::Libraries::default()),
    );
    assert_eq!(
        out.stdout.trim(),
        "{{'EXIT',{badarg,[{w,main,0,[]}]}},<0.5.0>}",
        "{:?}",
        out.result
    );
}

/// A process parked at a call racewit cannot run would go on in a real
/// node: time does not pass for the others while it is parked, so a
/// periodic tick does not run on until a budget ends the run. The run
/// stops at once and names the call.
#[test]
fn no_timeout_fires_while_a_process_is_parked() {
    let out = run_with(
        &module(
            "main() ->\n\
             \x20   spawn(fun tick/0),\n\
             \x20   os:cmd(\"true\").\n\
             tick() ->\n\
             \x20   erlang:send_after(10, self(), tick),\n\
             \x20   receive tick -> tick() end.",
        ),
        racewit_vm::Libraries::none(),
    );
    assert!(
        out.stdout.starts_with("racewit: stopped at ") && out.stdout.contains("os:cmd/1"),
        "{}",
        out.stdout
    );
}

/// The node's rpc server `rex` is registered but not run: OTP's `rpc`
/// (run from the installed OTP) reaches it for `block_call`, and the caller
/// stops there, named, instead of waiting forever for an answer that a
/// dropped message never gets. `rpc:call/5` to this node runs over
/// `erpc` and `spawn_request`, and returns.
#[test]
fn a_request_to_the_rpc_server_stops_named() {
    if racewit_otp::discover().is_none() {
        eprintln!("skipped: no installed OTP (rpc and erpc run from its sources)");
        return;
    }
    let out = run_with(
        &module(
            "main() ->\n    6 = rpc:call(node(), lists, sum, [[1, 2, 3]], 1000),\n    \
             rpc:block_call(node(), lists, sum, [[1]]).",
        ),
        racewit_otp::installed(),
    );
    assert!(
        out.stdout.starts_with(
            "racewit: stopped at unsupported call erlang:send/2 to rex, the node's rpc server"
        ),
        "{}",
        out.stdout
    );
}

/// A NIF library's Erlang side (a module with `-on_load`) is stubs calling
/// `erlang:nif_error/1`: a call of one, exported or local, would run native
/// code, and parks as touching the host instead of raising the stub's
/// error. A stub in a module without `-on_load` stands for a BIF racewit
/// lacks: unsupported.
#[test]
fn a_nif_stub_parks_named() {
    let nif = "-module(w).\n-export([main/0, digest/1]).\n-on_load(init/0).\n\
               init() -> erlang:load_nif(\"w_nif\", 0).\n\
               main() -> digest(<<1>>).\n\
               digest(B) -> digest_nif(B).\n\
               digest_nif(_) -> erlang:nif_error(not_loaded).\n";
    let out = run_with(nif, racewit_vm::Libraries::none());
    assert_eq!(
        out.parked.first().map(|p| (p.1.as_str(), p.3)),
        Some(("w:digest_nif/1", racewit_vm::ParkReason::Host)),
        "{}",
        out.stdout
    );
    let remote = "-module(w).\n-export([main/0, digest/1]).\n-on_load(init/0).\n\
                  init() -> ok.\n\
                  main() -> w:digest(<<1>>).\n\
                  digest(_) -> erlang:nif_error(undef).\n";
    let out = run_with(remote, racewit_vm::Libraries::none());
    assert_eq!(
        out.parked.first().map(|p| (p.1.as_str(), p.3)),
        Some(("w:digest/1", racewit_vm::ParkReason::Host)),
        "{}",
        out.stdout
    );
    let bif = "-module(w).\n-export([main/0, fast/1]).\n\
               main() -> w:fast(1).\n\
               fast(_) -> erlang:nif_error(undef).\n";
    let out = run_with(bif, racewit_vm::Libraries::none());
    assert_eq!(
        out.parked.first().map(|p| (p.1.as_str(), p.3)),
        Some(("w:fast/1", racewit_vm::ParkReason::Unsupported)),
        "{}",
        out.stdout
    );
}

/// crypto's stubs are `?nif_stub`: one call of a local function that calls
/// `erlang:nif_error/1` with the line. They are stubs too.
#[test]
fn a_stub_through_a_local_error_helper_parks_named() {
    let nif = "-module(w).\n-export([main/0, info/0]).\n-on_load(init/0).\n\
               init() -> ok.\n\
               main() -> w:info().\n\
               info() -> stub_error(?LINE).\n\
               stub_error(Line) -> erlang:nif_error({nif_not_loaded, module, ?MODULE, line, Line}).\n";
    let out = run_with(nif, racewit_vm::Libraries::none());
    assert_eq!(
        out.parked.first().map(|p| (p.1.as_str(), p.3)),
        Some(("w:info/0", racewit_vm::ParkReason::Host)),
        "{}",
        out.stdout
    );
}

/// A run is one node: a spawn on this node runs here (`bif_spawn_on_node`
/// holds it to the BEAM), and a spawn on another node parks, named.
#[test]
fn a_spawn_on_another_node_parks_named() {
    let out = run_with(
        &module("main() -> spawn(foo@bar, fun() -> ok end)."),
        racewit_vm::Libraries::none(),
    );
    assert_eq!(
        out.parked.first().map(|p| (p.1.as_str(), p.3)),
        Some((
            "erlang:spawn/2 on node foo@bar: racewit runs one node",
            racewit_vm::ParkReason::Unsupported
        )),
        "{}",
        out.stdout
    );
}

/// What racewit does not model of a behaviour's machinery parks, named: a
/// sys debug facility switched on, and a monitor's alias that ends with its
/// first reply.
#[test]
fn unmodelled_behaviour_machinery_parks_named() {
    let parked = |body: &str| {
        let out = run_with(&module(body), racewit_vm::Libraries::none());
        out.parked
            .first()
            .map(|p| (p.1.clone(), p.3))
            .ok_or(out.stdout)
    };
    assert_eq!(
        parked("main() -> sys:debug_options([{unknown, 1}, {log, 5}])."),
        Ok((
            "sys:debug_options/1 with the option {log,5}".to_string(),
            racewit_vm::ParkReason::Unsupported
        ))
    );
    assert_eq!(
        parked(
            "main() -> P = spawn(fun() -> receive _ -> ok end end), \
                monitor(process, P, [{alias, reply_demonitor}])."
        ),
        Ok((
            "erlang:monitor/3 with the option {alias, reply_demonitor}".to_string(),
            racewit_vm::ParkReason::Unsupported
        ))
    );
}

/// The installed OTP's libraries (OTP's `filelib` runs from source), with
/// the working directory `cwd` holding `names` (not listed when `None`);
/// `None` when no OTP is installed.
fn libraries_at(cwd: &str, names: Option<&[&str]>) -> Option<Arc<racewit_vm::Libraries>> {
    let otp = racewit_otp::discover()?;
    let mut libs = load_libraries(&LibraryRequest {
        otp: Some(otp),
        cwd: Some(PathBuf::from(cwd)),
        ..LibraryRequest::default()
    });
    libs.cwd_names = names.map(|n| Arc::new(n.iter().map(|s| s.to_string()).collect()));
    Some(Arc::new(libs))
}

/// The run-local files (`files.rs`): what only the host could answer parks,
/// naming the call and the path; /tmp starts empty; the working directory
/// and its ancestors are directories whose other contents are the host's.
#[test]
fn files_the_run_did_not_make_are_the_hosts() {
    let Some(libs) = libraries_at("/work/here", None) else {
        eprintln!("no installed OTP: OTP's filelib runs from its source; skipped");
        return;
    };
    let parked = |body: &str| {
        let out = run_with(&module(body), libs.clone());
        out.parked
            .iter()
            .map(|(_, call, _, why)| format!("{} {call}", why.as_str()))
            .collect::<Vec<_>>()
    };
    for (body, call) in [
        (
            "main() -> file:read_file(\"/etc/hosts\").",
            "file:read_file/1 of \"/etc/hosts\"",
        ),
        (
            "main() -> file:read_file_info(\"rebar.config\").",
            "file:read_file_info/1 of \"/work/here/rebar.config\"",
        ),
        (
            "main() -> file:list_dir(\"/work/here\").",
            "file:list_dir/1 of \"/work/here\"",
        ),
        (
            "main() -> file:make_dir(\"log\").",
            "file:make_dir/1 of \"/work/here/log\"",
        ),
        (
            "main() -> file:open(\"/var/log/x\", [append]).",
            "file:open/2 of \"/var/log/x\"",
        ),
        (
            "main() -> file:write_file_info(\"/tmp/x\", {}).",
            "file:write_file_info/2",
        ),
    ] {
        assert_eq!(parked(body), vec![format!("host {call}")], "{body}");
    }
    let out = run_with(
        &module(
            "main() -> {file:read_file(\"/tmp/never\"), filelib:is_dir(\"/tmp\"), \
             filelib:is_dir(\"/work\"), file:list_dir(\"/tmp\"), \
             file:write_file(\"/tmp/a\", \"x\"), file:list_dir(\"/tmp\"), \
             file:make_dir(\"/tmp/d\"), file:read_file(\"/tmp/d/none\"), \
             file:get_cwd()}.",
        ),
        libs.clone(),
    );
    assert!(out.parked.is_empty(), "{:?}", out.parked);
    assert_eq!(
        out.stdout.split_whitespace().collect::<String>(),
        "{{error,enoent},true,true,{ok,[]},ok,{ok,[\"a\"]},ok,{error,enoent},{ok,\"/work/here\"}}"
    );
}

/// With the working directory's names listed by the loader, a name it
/// does not hold is absent: a log directory a start-up makes there lives in
/// the run, while a listed name stays the host's.
#[test]
fn a_listed_working_directory_lacks_what_it_does_not_name() {
    let Some(libs) = libraries_at("/work/here", Some(&["src"])) else {
        eprintln!("no installed OTP: OTP's filelib runs from its source; skipped");
        return;
    };
    let out = run_with(
        &module(
            "main() -> io:format(\"~p~n\", [{filelib:is_dir(\"log\"), \
             filelib:ensure_dir(\"log/app/x.log\"), file:write_file(\"log/app/x.log\", \"hi\"), \
             file:read_file(\"/work/here/log/app/x.log\"), file:list_dir(\".\")}]), \
             file:read_file(\"src/a.erl\").",
        ),
        libs,
    );
    let printed = out.stdout.lines().next().unwrap_or_default();
    assert_eq!(
        printed, "{false,ok,ok,{ok,<<\"hi\">>},{ok,[\"log\",\"src\"]}}",
        "{}",
        out.stdout
    );
    let parked: Vec<String> = out.parked.iter().map(|(_, c, _, _)| c.clone()).collect();
    assert_eq!(
        parked,
        vec!["file:read_file/1 of \"/work/here/src/a.erl\"".to_string()]
    );
}

/// Each file step is visible, with its path as the shared item, so two
/// processes' operations on one path are ordered by the search; a raw
/// descriptor is its opener's alone.
#[test]
fn file_steps_are_visible_and_raw_descriptors_are_owned() {
    let program = racewit_syntax::load_source(
        "w.erl",
        &module(
            "main() -> {ok, F} = file:open(\"/tmp/o\", [write, raw]), S = self(), \
             spawn(fun() -> S ! (try file:write(F, \"x\") catch error:E -> E end) end), \
             R = receive X -> X end, {R, file:write(F, \"y\"), file:close(F), file:read_file(\"/tmp/o\")}.",
        ),
    );
    let config = RunConfig {
        trace: true,
        ..RunConfig::default()
    };
    let out = run_entry(Arc::new(program), "w", "main", &config);
    assert_eq!(
        out.stdout.split_whitespace().collect::<String>(),
        "{not_on_controlling_process,ok,ok,{ok,<<\"y\">>}}",
        "{}",
        out.stdout
    );
    let file_steps: Vec<&String> = out.trace.iter().filter(|t| t.contains("file:")).collect();
    assert!(
        file_steps
            .iter()
            .any(|t| t.contains("file:open(\"/tmp/o\"")),
        "{file_steps:?}"
    );
    assert!(
        file_steps
            .iter()
            .any(|t| t.contains("file:write(\"/tmp/o\") -> ok")),
        "{file_steps:?}"
    );
}

/// `error_logger:logfile/1` opens a log file on the host (through OTP's
/// error_logger_file_h): the caller parks, naming the call, and error_logger
/// itself is left as it was.
#[test]
fn error_logger_logfile_parks_for_the_host() {
    let out = run_with(
        &module(
            "main() -> ok = error_logger:start(), \
             io:format(\"~p~n\", [error_logger:which_report_handlers()]), \
             error_logger:logfile({open, \"/tmp/x.log\"}).",
        ),
        racewit_vm::Libraries::none(),
    );
    assert_eq!(
        out.parked.first().map(|p| (p.1.as_str(), p.3)),
        Some(("error_logger:logfile/1", racewit_vm::ParkReason::Host)),
        "{}",
        out.stdout
    );
    assert!(out.stdout.starts_with("[]\n"), "{}", out.stdout);
}
