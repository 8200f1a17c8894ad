//! erlang.mk projects, as `make tests` builds them: `src/` (recursively)
//! and `test/` (its own `.erl` files) of the root application and of each
//! application in `apps/`, with `-I include/` and `-DTEST=1` (erlang.mk
//! adds it to `TEST_ERLC_OPTS`); library roots `deps/` and `apps/`.
//! The `-D` and `-I` options written in the Makefile's `TEST_ERLC_OPTS`
//! assignments are used (a test build compiles with those, not with
//! `ERLC_OPTS`); other Makefile logic is not evaluated.

use std::path::Path;

use super::layout::{Project, join, subdirs};

pub(super) fn discover(project: &mut Project) {
    let root = project.root.clone();
    let makefile = racewit_syntax::read::read_regular_file(&join(&root, "Makefile"), 1 << 20)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let name = variable(&makefile, "PROJECT").unwrap_or_else(|| super::layout::dir_name(&root));
    let mut apps = vec![(name, root.clone())];
    for dir in subdirs(&join(&root, "apps")) {
        if dir.join("src").is_dir() {
            apps.push((super::layout::dir_name(&dir), dir));
        }
    }
    for (_, dir) in &apps {
        project.source(join(dir, "src"), true);
        project.source(join(dir, "test"), false);
        project.include(join(dir, "include"));
        project.include(dir.clone());
    }
    project.lib(join(&root, "deps"));
    project.lib(join(&root, "apps"));
    project
        .defines
        .push(("TEST".to_string(), Some("1".to_string())));
    {
        for (flag, value) in test_erlc_options(&makefile) {
            match flag {
                'D' => {
                    let (name, v) = match value.split_once('=') {
                        Some((n, v)) => (n.to_string(), Some(v.to_string())),
                        None => (value.clone(), None),
                    };
                    if !project.defines.iter().any(|(n, _)| *n == name) {
                        project.defines.push((name, v));
                    }
                }
                _ => project.include(join(&root, Path::new(&value))),
            }
        }
    }
    project.apps = apps;
}

/// The value of the first plain assignment of `name` (`=`, `?=`, `:=`).
fn variable(makefile: &str, name: &str) -> Option<String> {
    makefile.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix(name)?.trim_start();
        let value = ["?=", ":=", "="]
            .iter()
            .find_map(|op| rest.strip_prefix(op))?;
        let value = value.trim();
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// The `-DNAME[=VALUE]` and `-IDIR` (or `-I DIR`) options of the
/// `TEST_ERLC_OPTS` assignments (`=`, `?=`, `:=`, `+=`), in order.
fn test_erlc_options(makefile: &str) -> Vec<(char, String)> {
    let mut out = Vec::new();
    let mut logical = String::new();
    for line in makefile.lines() {
        if let Some(cont) = line.strip_suffix('\\') {
            logical.push_str(cont);
            logical.push(' ');
            continue;
        }
        logical.push_str(line);
        let l = std::mem::take(&mut logical);
        let Some(rest) = l.trim_start().strip_prefix("TEST_ERLC_OPTS") else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(value) = ["+=", "?=", ":=", "="]
            .iter()
            .find_map(|op| rest.strip_prefix(op))
        else {
            continue;
        };
        let mut words = value.split_whitespace();
        while let Some(w) = words.next() {
            if let Some(d) = w.strip_prefix("-D")
                && !d.is_empty()
            {
                out.push(('D', d.to_string()));
            } else if let Some(i) = w.strip_prefix("-I") {
                let dir = if i.is_empty() {
                    words.next().unwrap_or_default()
                } else {
                    i
                };
                if !dir.is_empty() {
                    out.push(('I', dir.to_string()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn test_erlc_options_are_read() {
        let mk = "PROJECT = x\nERLC_OPTS = -DPROD\nTEST_ERLC_OPTS += -DDEBUG -DLEVEL=3 \\\n  -I extra/hrl\n\
                  TEST_ERLC_OPTS ?= +debug_info -Igen\ninclude erlang.mk\n";
        assert_eq!(
            super::test_erlc_options(mk),
            [
                ('D', "DEBUG".to_string()),
                ('D', "LEVEL=3".to_string()),
                ('I', "extra/hrl".to_string()),
                ('I', "gen".to_string()),
            ]
        );
    }
}
