use std::path::{Path, PathBuf};

use super::layout::{discover, find_root, join};
use super::*;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/projects")
        .join(rel)
        .canonicalize()
        .expect("fixture")
}

/// Paths of `project` shown relative to its root.
fn rel(project: &Project, paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| {
            p.strip_prefix(&project.root)
                .unwrap_or(p)
                .display()
                .to_string()
        })
        .collect()
}

#[test]
fn an_umbrella_is_read_as_rebar3_builds_it_for_tests() {
    let root = fixture("umbrella");
    let p = discover(&root, ProjectKind::Rebar3);
    let apps: Vec<&str> = p.apps.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(apps, ["app_a", "app_b"]);
    assert_eq!(
        rel(&p, &p.sources),
        [
            "apps/app_a/src",
            "apps/app_a/test/a_server_tests.erl",
            "apps/app_b/src",
            "tools/gen_names.erl",
            "test/umbrella_tests.erl",
        ]
    );
    assert_eq!(
        rel(&p, &p.include_dirs),
        [
            "apps/app_a/include",
            "apps/app_a/src",
            "apps/app_a/test",
            "apps/app_a",
            "shared/hrl",
            "apps/app_b/src",
            "apps/app_b",
            "",
        ]
    );
    assert_eq!(rel(&p, &p.lib_dirs), ["apps", "_build/default/lib"]);
    let defines: Vec<String> = p
        .defines
        .iter()
        .map(|(n, v)| format!("{n}={}", v.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        defines,
        [
            "TEST=",
            "TEST_ONLY=",
            "SERVER=umbrella_server",
            "RETRIES=3",
            "B_GREETING=\"hello from b\"",
        ]
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
}

#[test]
fn an_erlang_mk_project_is_read_as_make_tests_builds_it() {
    let root = fixture("erlangmk");
    let p = discover(&root, ProjectKind::ErlangMk);
    assert_eq!(p.apps[0].0, "emk_app");
    assert_eq!(rel(&p, &p.sources), ["src", "test/emk_cache_tests.erl"]);
    assert_eq!(rel(&p, &p.include_dirs), ["include", "", "priv_hrl"]);
    assert_eq!(rel(&p, &p.lib_dirs), ["deps"]);
    assert_eq!(
        p.defines,
        [
            ("TEST".to_string(), Some("1".to_string())),
            ("VERBOSE".to_string(), None)
        ]
    );
}

/// Roots are found from the absolute path and named from the spelling:
/// an application of an umbrella belongs to the umbrella.
#[test]
fn roots_are_named_from_the_path_given() {
    let umbrella = fixture("umbrella");
    let (root, kind) = find_root(&umbrella.join("apps/app_b/src/b_client.erl")).unwrap();
    assert_eq!(kind, ProjectKind::Rebar3);
    assert_eq!(root, umbrella);
    let (root, _) = find_root(&umbrella.join("apps/app_b")).unwrap();
    assert_eq!(root, umbrella);
    let (root, kind) = find_root(&fixture("erlangmk/src")).unwrap();
    assert_eq!((root, kind), (fixture("erlangmk"), ProjectKind::ErlangMk));
    assert_eq!(join(Path::new("."), "src"), PathBuf::from("src"));
    assert_eq!(
        join(Path::new(".."), "src/../include"),
        PathBuf::from("../include")
    );
}

/// `src_dirs` and `extra_src_dirs` at the top level and in `erl_opts`,
/// with options; profiles other than `test` are not read; a macro whose
/// value is not a constant is a warning.
#[test]
fn source_directories_and_macros_from_rebar_config() {
    let tmp = tempfile::tempdir().unwrap();
    let root = &tmp.path().canonicalize().unwrap();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "rebar.config",
        "{src_dirs, [\"lib\"]}.\n\
         {erl_opts, [{src_dirs, [{\"gen\", [{recursive, false}]}]}, {d, 'F', fun lists:map/2},\n\
                     {d, \"STR\", [1, a]}, {i, \"hdr\"}]}.\n\
         {extra_src_dirs, [{\"test\", [recursive]}]}.\n\
         {profiles, [{prod, [{erl_opts, [{d, 'PROD'}]}]},\n\
                     {test, [{erl_opts, [{d, 'TEST', true}]}, {extra_src_dirs, [\"bench\"]}]}]}.\n",
    );
    write("src/m.app.src", "{application, m, []}.\n");
    for f in [
        "lib/a.erl",
        "gen/b.erl",
        "gen/deep/c.erl",
        "test/t.erl",
        "test/sub/u.erl",
        "bench/x.erl",
        "hdr/h.hrl",
    ] {
        write(f, "");
    }
    let p = discover(root, ProjectKind::Rebar3);
    assert_eq!(rel(&p, &p.sources), ["lib", "gen/b.erl", "test", "bench"]);
    let defines: Vec<String> = p
        .defines
        .iter()
        .map(|(n, v)| format!("{n}={}", v.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(defines, ["TEST=true", "F=fun lists:map/2", "STR=[1, a]"]);
    assert!(p.include_dirs.contains(&root.join("hdr")));
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
}
