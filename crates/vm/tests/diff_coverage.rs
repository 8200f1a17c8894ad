//! The differential programs (tests/diff) exercise every BIF, library call
//! and error reason the VM's specification lists: each appears in at least
//! one program's source (calls) or in the BEAM's expected output (reasons).

use std::path::PathBuf;

fn read_all(dir: &str, ext: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/diff")
        .join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/diff")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("read")).into_owned())
        .collect()
}

/// Calls and options the specification names, as they are written.
const CALLS: &[&str] = &[
    "spawn(",
    "spawn_link(",
    "spawn_monitor(",
    "self()",
    " ! ",
    "after ",
    "link(",
    "unlink(",
    "monitor(process",
    "demonitor(",
    "exit(",
    "trap_exit",
    "process_flag(",
    "is_process_alive(",
    "put(",
    "get(",
    "erase(",
    "node()",
    "nodes()",
    "register(",
    "unregister(",
    "whereis(",
    "registered()",
    "io:format(",
    "io:fwrite(",
    "send_after(",
    "timer:sleep(",
    "ets:new(",
    "ordered_set",
    "duplicate_bag",
    "bag",
    "private",
    "protected",
    "named_table",
    "keypos",
    "ets:insert(",
    "ets:insert_new(",
    "ets:lookup(",
    "ets:lookup_element(",
    "ets:member(",
    "ets:delete(",
    "ets:delete_object(",
    "ets:update_counter(",
    "ets:update_element(",
    "ets:match(",
    "ets:match_object(",
    "ets:select(",
    "ets:match_spec_compile(",
    "ets:match_spec_run(",
    "ets:is_compiled_ms(",
    "ets:test_ms(",
    "ets:fun2ms(",
    "dbg:fun2ms(",
    "erlang:match_spec_test(",
    "ets:tab2list(",
    "ets:info(",
    "ets:first(",
    "ets:next(",
    "ets:last(",
    "ets:foldl(",
    "mnesia:start(",
    "mnesia:create_table(",
    "mnesia:dirty_read(",
    "mnesia:dirty_write(",
    "mnesia:dirty_delete(",
    "mnesia:dirty_update_counter(",
    "mnesia:dirty_match_object(",
    "mnesia:transaction(",
    "mnesia:read(",
    "mnesia:write(",
    "mnesia:delete(",
    "lists:",
    "maps:",
    "proplists:",
    "string:",
    "io_lib:format(",
    "monotonic_time(",
    "gen_server:start(",
    "gen_server:start_link(",
    "gen_server:call(",
    "gen_server:cast(",
    "gen_server:reply(",
    "init(",
    "handle_call(",
    "handle_cast(",
    "handle_info(",
    "terminate(",
    "supervisor:start_link(",
    "supervisor:start_child(",
    "one_for_one",
    "gen_event:",
    "catch ",
    "try ",
    "throw(",
    "error(",
    "global:",
    "persistent_term:",
    "application:get_env(",
    "global:trans(",
    "re:run(",
    "re:compile(",
    "re:replace(",
    "re:split(",
    "re:inspect(",
    "re:version(",
];

/// Exception reasons the specification names, as the BEAM prints them.
const REASONS: &[&str] = &[
    "badmatch",
    "function_clause",
    "case_clause",
    "if_clause",
    "try_clause",
    "badarg",
    "badarith",
    "undef",
    "badfun",
    "badarity",
    "noproc",
    "timeout",
];

#[test]
fn every_listed_call_and_reason_is_exercised() {
    let sources = read_all("programs", "erl");
    let outputs = read_all("expected", "out");
    let missing_calls: Vec<&str> = CALLS
        .iter()
        .copied()
        .filter(|c| !sources.contains(c))
        .collect();
    let missing_reasons: Vec<&str> = REASONS
        .iter()
        .copied()
        .filter(|r| !outputs.contains(r))
        .collect();
    assert!(
        missing_calls.is_empty(),
        "no program calls {missing_calls:?}"
    );
    assert!(
        missing_reasons.is_empty(),
        "no output shows {missing_reasons:?}"
    );
}

#[test]
fn at_least_150_programs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/diff/programs");
    let n = std::fs::read_dir(root).expect("programs").count();
    assert!(n >= 150, "{n} programs");
}
