use std::sync::Arc;

use racewit_confirm::confirmation::{ConfirmOptions, start};
use racewit_confirm::system::System;

#[test]
fn print_trace() {
    let src = std::fs::read_to_string("../../corpus/registry/name_server.erl").unwrap();
    let mut program = racewit_syntax::load_source("name_server.erl", &src);
    let h = "-module(h).\n-export([run/0]).\nrun() ->\n    W = [spawn_monitor(fun() -> name_server:ensure_started() end), spawn_monitor(fun() -> name_server:ensure_started() end)],\n    [receive {'DOWN', R, process, P, _} -> ok end || {P, R} <- W],\n    ok.\n";
    program.absorb(racewit_syntax::load_source("h.erl", h));
    for d in &program.diagnostics { eprintln!("{:?}", d); }
    let program = Arc::new(program);
    let mut sys = start(&program, "h", "run", &ConfirmOptions::default());
    for _ in 0..60 {
        let en = sys.enabled();
        if en.is_empty() { break; }
        let p = en[0];
        let name = sys.name(p);
        let obs = sys.step(p).unwrap();
        eprintln!("{name} {:?} site={:?} {}", obs.access, obs.site, obs.text);
    }
}

#[test]
fn search_trace() {
    use racewit_confirm::search::Strategy;
    use racewit_confirm::search::bounded::BoundedDfs;
    use racewit_confirm::witness::RaceSites;
    let src = std::fs::read_to_string("../../corpus/registry/name_server.erl").unwrap();
    let mut program = racewit_syntax::load_source("name_server.erl", &src);
    let h = "-module(h).\n-export([run/0]).\nrun() ->\n    W = [spawn_monitor(fun() -> name_server:ensure_started() end), spawn_monitor(fun() -> name_server:ensure_started() end)],\n    [receive {'DOWN', R, process, P, _} -> ok end || {P, R} <- W],\n    ok.\n";
    program.absorb(racewit_syntax::load_source("h.erl", h));
    let program = Arc::new(program);
    let sys = start(&program, "h", "run", &ConfirmOptions::default());
    let sites = RaceSites { read_module: "name_server".into(), read_site: 0, write_module: "name_server".into(), write_site: 3, write_must_overlap: true };
    let goal = racewit_confirm::confirmation::race_goal(&sites);
    let out = BoundedDfs { stop_at_first: false, max_interleavings: 3, ..BoundedDfs::default() }.search(&sys, goal);
    eprintln!("{:?} {:?} found={}", out.stats, out.stop, out.found.len());
    let out = BoundedDfs { stop_at_first: false, max_interleavings: 3, ..BoundedDfs::default() }.search(&sys, racewit_confirm::goal::FailureGoal::default());
    for f in &out.found { eprintln!("run: {:?}", f.schedule); }
}

#[derive(Clone)]
struct All(racewit_confirm::goal::RaceGoal<racewit_confirm::vm_system::VmSystem>);
impl racewit_confirm::goal::Monitor<racewit_confirm::vm_system::VmSystem> for All {
    fn observe(&mut self, s: &racewit_confirm::vm_system::VmSystem, p: racewit_vm::Pid, o: &racewit_confirm::system::Observation<racewit_confirm::vm_system::VmItem, racewit_confirm::vm_system::Site>, i: usize) {
        self.0.observe(s, p, o, i);
        eprintln!("  obs {i} {:?} {} hold={:?}", p, o.text, self.0.hold());
    }
    fn hold(&self) -> Option<racewit_vm::Pid> { self.0.hold() }
    fn hit(&self) -> bool { false }
    fn finish(&mut self, _: &racewit_confirm::vm_system::VmSystem) -> bool { true }
}

#[test]
fn search_trace2() {
    use racewit_confirm::search::Strategy;
    use racewit_confirm::search::bounded::BoundedDfs;
    use racewit_confirm::witness::RaceSites;
    let src = std::fs::read_to_string("../../corpus/registry/name_server.erl").unwrap();
    let mut program = racewit_syntax::load_source("name_server.erl", &src);
    let h = "-module(h).\n-export([run/0]).\nrun() ->\n    W = [spawn_monitor(fun() -> name_server:ensure_started() end), spawn_monitor(fun() -> name_server:ensure_started() end)],\n    [receive {'DOWN', R, process, P, _} -> ok end || {P, R} <- W],\n    ok.\n";
    program.absorb(racewit_syntax::load_source("h.erl", h));
    let program = Arc::new(program);
    let sys = start(&program, "h", "run", &ConfirmOptions::default());
    let sites = RaceSites { read_module: "name_server".into(), read_site: 0, write_module: "name_server".into(), write_site: 3, write_must_overlap: true };
    let goal = All(racewit_confirm::confirmation::race_goal(&sites));
    let out = BoundedDfs { stop_at_first: false, max_interleavings: 1, ..BoundedDfs::default() }.search(&sys, goal);
    for f in &out.found { eprintln!("run: {:?}", f.schedule); }
}
