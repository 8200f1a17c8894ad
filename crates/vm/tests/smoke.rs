use std::sync::Arc;

use racewit_vm::run::{RunConfig, run_entry};

pub fn run(src: &str) -> String {
    let program = racewit_syntax::load_source("t.erl", src);
    for d in &program.diagnostics {
        eprintln!("diag: {d:?}");
    }
    run_entry(Arc::new(program), "t", "main", &RunConfig::default()).stdout
}

#[test]
fn hello() {
    let out = run(
        "-module(t).\n-export([main/0]).\nmain() -> io:format(\"hi ~p~n\", [[1,2,{a,\"x\"}]]), 1 + 2.\n",
    );
    assert_eq!(out, "hi [1,2,{a,\"x\"}]\n3\n");
}

#[test]
fn otp_libraries_parse_cleanly() {
    let libs = racewit_vm::run::otp_libraries();
    for l in &libs {
        let errors: Vec<_> = l
            .diagnostics
            .iter()
            .filter(|d| d.severity == racewit_syntax::Severity::Error)
            .collect();
        for e in errors.iter().take(5) {
            eprintln!("{e:?}");
        }
        assert!(errors.is_empty(), "{} errors", errors.len());
        eprintln!("modules: {:?}", l.modules.keys().collect::<Vec<_>>());
    }
}

#[test]
fn otp_queue_works() {
    let out = run(
        "-module(t).\n-export([main/0]).\nmain() -> Q = queue:in(2, queue:in(1, queue:new())), {queue:to_list(Q), sets:size(sets:from_list([a,b,a])), dict:to_list(dict:store(k, v, dict:new()))}.\n",
    );
    assert_eq!(out, "{[1,2],2,[{k,v}]}\n");
}
