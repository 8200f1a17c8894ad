//! rebar3 projects: `rebar.config` read as Erlang terms (with the syntax
//! crate's own lexer and parser: no Erlang needed), as rebar3 reads it for
//! `rebar3 eunit`/`rebar3 ct`, that is with the `test` profile applied:
//!
//! - `erl_opts`: `{i, Dir}` (relative to the root, as rebar3 runs from
//!   there), `{d, M}`, `{d, M, V}`, `{src_dirs, Dirs}`,
//!   `{extra_src_dirs, Dirs}`; the test profile's `erl_opts` come first
//!   and `{d, 'TEST'}` is added unless defined;
//! - `src_dirs` (default `["src"]`, walked recursively unless
//!   `{recursive, false}`) and `extra_src_dirs` (the test profile adds
//!   `test`, not recursive, unless named);
//! - `project_app_dirs` (default `["apps/*", "lib/*", "."]`): an
//!   application is a directory with `src/*.app.src` (or `.app.src.script`,
//!   or `ebin/*.app`); its own `rebar.config` adds to the root's;
//! - the include path of each application as rebar3 gives erlc: its
//!   `include/`, its source directories and the application directory;
//! - library roots for `-include_lib`: `_checkouts`, the directories
//!   holding the applications, `_build/test/lib`, `_build/default/lib`,
//!   `deps`.
//!
//! Not read: `rebar.config.script` (reported), other profiles, and options
//! that change code but are not macros (`export_all`, parse transforms in
//! `erl_opts`). A file that does not read as terms is a diagnostic; the
//! terms around the error are still used.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use racewit_syntax::ir::Const;
use racewit_syntax::source::SourceFile;
use racewit_syntax::{FileId, Severity};

use super::layout::{ConfigDiagnostic, Project, join, subdirs};
use super::term::to_erlang;

/// One `rebar.config`: its terms with the test profile applied.
#[derive(Default)]
struct Config {
    /// `erl_opts`, the test profile's first.
    erl_opts: Vec<Const>,
    /// `src_dirs` (top level and in `erl_opts`): directory, recursive.
    src_dirs: Vec<(String, bool)>,
    extra_src_dirs: Vec<(String, bool)>,
    project_app_dirs: Vec<String>,
}

pub(super) fn discover(project: &mut Project) {
    let root = project.root.clone();
    let top = read(project, &join(&root, "rebar.config"));
    let top = Config::with_test_profile(&top, true);
    let patterns = if top.project_app_dirs.is_empty() {
        vec!["apps/*".to_string(), "lib/*".to_string(), ".".to_string()]
    } else {
        top.project_app_dirs.clone()
    };
    let mut apps: Vec<(String, PathBuf)> = Vec::new();
    for pattern in &patterns {
        let candidates = match pattern.strip_suffix("/*") {
            Some(dir) => subdirs(&join(&root, dir)),
            None => vec![join(&root, pattern)],
        };
        for dir in candidates {
            if let Some(name) = app_name(&dir)
                && !apps.iter().any(|(_, d)| super::layout::same_dir(d, &dir))
            {
                apps.push((name, dir));
            }
        }
    }
    let root_is_app = apps.iter().any(|(_, d)| super::layout::same_dir(d, &root));
    // A root with sources but no `.app.src` still holds the code.
    if !root_is_app && apps.is_empty() && join(&root, "src").is_dir() {
        let name = super::layout::dir_name(&root);
        apps.push((name, root.clone()));
    }
    for (_, dir) in apps.clone() {
        let own = if super::layout::same_dir(&dir, &root) {
            None
        } else {
            let path = dir.join("rebar.config");
            path.is_file().then(|| read(project, &path))
        };
        let config = match &own {
            Some(terms) => Config::with_test_profile(terms, false).under(&top),
            None => top.clone_config(),
        };
        add_app(project, &root, &dir, &config);
    }
    // An umbrella's own test directory and extra source directories.
    if !root_is_app {
        for (d, recursive) in &top.extra_src_dirs {
            project.source(join(&root, d), *recursive);
        }
    }
    project.include(root.clone());
    project.lib(join(&root, "_checkouts"));
    for (_, dir) in &apps {
        if let Some(parent) = dir.parent()
            && !super::layout::same_dir(parent, &root)
            && !super::layout::same_dir(dir, &root)
        {
            project.lib(parent.to_path_buf());
        }
    }
    project.lib(join(&root, "_build/test/lib"));
    project.lib(join(&root, "_build/default/lib"));
    project.lib(join(&root, "deps"));
    project.apps = apps;
}

/// The sources, include directories and macros of one application.
fn add_app(project: &mut Project, root: &Path, dir: &Path, config: &Config) {
    for (d, recursive) in config.src_dirs.iter().chain(&config.extra_src_dirs) {
        project.source(join(dir, d), *recursive);
    }
    project.include(join(dir, "include"));
    for (d, _) in config.src_dirs.iter().chain(&config.extra_src_dirs) {
        project.include(join(dir, d));
    }
    project.include(dir.to_path_buf());
    for opt in &config.erl_opts {
        let Const::Tuple(v) = opt else { continue };
        match v.as_slice() {
            [Const::Atom(i), d] if i == "i" => {
                if let Some(d) = string(d) {
                    project.include(join(root, d));
                }
            }
            [Const::Atom(d), name] if d == "d" => {
                if let Some(name) = macro_name(name) {
                    define(project, name, None);
                }
            }
            [Const::Atom(d), name, value] if d == "d" => {
                let Some(name) = macro_name(name) else {
                    continue;
                };
                match to_erlang(value) {
                    Some(text) => define(project, name, Some(text)),
                    None => project.warn(
                        join(root, "rebar.config"),
                        format!("the value of macro '{name}' is not a constant: not defined"),
                    ),
                }
            }
            _ => {}
        }
    }
}

/// A macro, unless one of that name is defined already (the test
/// profile's, then an application's own, come first).
fn define(project: &mut Project, name: String, value: Option<String>) {
    if !project.defines.iter().any(|(n, _)| *n == name) {
        project.defines.push((name, value));
    }
}

fn macro_name(c: &Const) -> Option<String> {
    match c {
        Const::Atom(a) => Some(a.to_string()),
        c => string(c).map(str::to_string),
    }
}

/// The name of the application in `dir`, if it is one: from its
/// `src/NAME.app.src` (or `.app.src.script`) or `ebin/NAME.app`.
fn app_name(dir: &Path) -> Option<String> {
    let from = |sub: &str, suffixes: &[&str]| -> Option<String> {
        let rd = std::fs::read_dir(dir.join(sub)).ok()?;
        let mut names: Vec<String> = rd
            .flatten()
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                suffixes
                    .iter()
                    .find_map(|s| n.strip_suffix(s).map(str::to_string))
            })
            .collect();
        names.sort();
        names.into_iter().next()
    };
    from("src", &[".app.src", ".app.src.script"]).or_else(|| from("ebin", &[".app"]))
}

/// The terms of a `rebar.config`; what could not be read becomes a
/// diagnostic of the project. A `rebar.config.script` next to it is not
/// run (a warning).
fn read(project: &mut Project, path: &Path) -> Vec<Const> {
    let script = path.with_extension("config.script");
    if script.is_file() {
        project.warn(
            script.clone(),
            "rebar.config.script is not run: racewit reads rebar.config alone",
        );
    }
    if !path.exists() {
        return Vec::new();
    }
    let bytes = match racewit_syntax::read::read_regular_file(path, 1 << 20) {
        Ok(b) => b,
        Err(e) => {
            project.diagnostics.push(ConfigDiagnostic {
                path: path.to_path_buf(),
                line: 1,
                column: 1,
                code: racewit_syntax::DiagnosticCode::E001UnreadableFile,
                severity: Severity::Error,
                message: format!("cannot read {}: {e}", path.display()),
            });
            return Vec::new();
        }
    };
    let text = racewit_syntax::pp::include::decode_text(bytes);
    let (terms, diags) = racewit_syntax::consult::consult(FileId(0), &text);
    let file = SourceFile::new(path.to_path_buf(), Arc::clone(&text));
    for d in diags {
        let at = file.line_col(d.span.start);
        project.diagnostics.push(ConfigDiagnostic {
            path: path.to_path_buf(),
            line: at.line,
            column: at.column,
            code: d.code,
            severity: d.severity,
            message: d.message,
        });
    }
    terms.into_iter().map(|(c, _)| c).collect()
}

impl Config {
    /// The settings of `terms` with the test profile applied (`top`: the
    /// root's configuration, which adds `{d, 'TEST'}` and `test/`).
    fn with_test_profile(terms: &[Const], top: bool) -> Config {
        let base = proplist(terms.iter());
        let profile: Vec<(String, &Const)> = base
            .iter()
            .find(|(k, _)| k == "profiles")
            .and_then(|(_, v)| list(v))
            .map(|profiles| proplist(profiles.into_iter()))
            .and_then(|ps| ps.into_iter().find(|(k, _)| k == "test"))
            .and_then(|(_, v)| list(v))
            .map(|opts| proplist(opts.into_iter()))
            .unwrap_or_default();
        let values = |opts: &[(String, &Const)], key: &str| -> Vec<Const> {
            opts.iter()
                .filter(|(k, _)| k == key)
                .filter_map(|(_, v)| list(v))
                .flatten()
                .cloned()
                .collect()
        };
        let mut erl_opts = values(&profile, "erl_opts");
        let defines_test = erl_opts.iter().any(|o| {
            matches!(o, Const::Tuple(v) if matches!(v.as_slice(),
                [Const::Atom(d), Const::Atom(t)] | [Const::Atom(d), Const::Atom(t), _]
                    if d == "d" && t == "TEST"))
        });
        if top && !defines_test {
            erl_opts.insert(
                0,
                Const::Tuple(vec![Const::Atom("d".into()), Const::Atom("TEST".into())]),
            );
        }
        erl_opts.extend(values(&base, "erl_opts"));
        let dirs = |key: &str| -> Vec<(String, bool)> {
            let mut out = Vec::new();
            let mut entries = values(&base, key);
            entries.extend(values(&profile, key));
            for opt in &erl_opts {
                if let Const::Tuple(v) = opt
                    && let [Const::Atom(k), l] = v.as_slice()
                    && k == key
                    && let Some(items) = list(l)
                {
                    entries.extend(items.into_iter().cloned());
                }
            }
            for e in &entries {
                if let Some(d) = src_dir(e)
                    && !out.iter().any(|(x, _): &(String, bool)| *x == d.0)
                {
                    out.push(d);
                }
            }
            out
        };
        let mut src_dirs = dirs("src_dirs");
        if src_dirs.is_empty() {
            src_dirs.push(("src".to_string(), true));
        }
        let mut extra_src_dirs = dirs("extra_src_dirs");
        if top && !extra_src_dirs.iter().any(|(d, _)| d == "test") {
            extra_src_dirs.push(("test".to_string(), false));
        }
        let project_app_dirs = values(&base, "project_app_dirs")
            .iter()
            .filter_map(|c| string(c).map(str::to_string))
            .collect();
        Config {
            erl_opts,
            src_dirs,
            extra_src_dirs,
            project_app_dirs,
        }
    }

    /// An application's own configuration over the root's: its options
    /// first, its source directories when it names any.
    fn under(self, top: &Config) -> Config {
        let mut erl_opts = self.erl_opts;
        erl_opts.extend(top.erl_opts.iter().cloned());
        let explicit_src = !(self.src_dirs.len() == 1 && self.src_dirs[0].0 == "src");
        Config {
            erl_opts,
            src_dirs: if explicit_src {
                self.src_dirs
            } else {
                top.src_dirs.clone()
            },
            extra_src_dirs: {
                let mut extra = top.extra_src_dirs.clone();
                for d in self.extra_src_dirs {
                    if !extra.iter().any(|(x, _)| *x == d.0) {
                        extra.push(d);
                    }
                }
                extra
            },
            project_app_dirs: Vec::new(),
        }
    }

    fn clone_config(&self) -> Config {
        Config {
            erl_opts: self.erl_opts.clone(),
            src_dirs: self.src_dirs.clone(),
            extra_src_dirs: self.extra_src_dirs.clone(),
            project_app_dirs: self.project_app_dirs.clone(),
        }
    }
}

/// `{Key, Value}` and `Key` entries, in order (a bare `Key` stands for
/// `{Key, true}`; no key read here takes a boolean, so it reads as `[]`).
fn proplist<'a>(items: impl Iterator<Item = &'a Const>) -> Vec<(String, &'a Const)> {
    static TRUE: Const = Const::Nil;
    items
        .filter_map(|c| match c {
            Const::Tuple(v) => match v.as_slice() {
                [Const::Atom(k), v] => Some((k.to_string(), v)),
                _ => None,
            },
            Const::Atom(k) => Some((k.to_string(), &TRUE)),
            _ => None,
        })
        .collect()
}

/// The elements of a proper list (a string is not one here).
fn list(c: &Const) -> Option<Vec<&Const>> {
    let mut out = Vec::new();
    let mut cur = c;
    loop {
        match cur {
            Const::Nil => return Some(out),
            Const::Cons(h, t) => {
                out.push(&**h);
                cur = t;
            }
            _ => return None,
        }
    }
}

/// A directory name: a string (or an atom, or a binary).
fn string(c: &Const) -> Option<&str> {
    match c {
        Const::String(s) => Some(s),
        Const::Atom(a) => Some(a),
        Const::Binary(b) => std::str::from_utf8(b).ok(),
        _ => None,
    }
}

/// `"dir"` or `{"dir", [recursive | {recursive, Bool}]}`.
fn src_dir(c: &Const) -> Option<(String, bool)> {
    if let Some(d) = string(c) {
        return Some((d.to_string(), true));
    }
    let Const::Tuple(v) = c else { return None };
    let [d, opts] = v.as_slice() else { return None };
    let d = string(d)?;
    let mut recursive = true;
    for o in list(opts).unwrap_or_default() {
        match o {
            Const::Atom(a) if a == "recursive" => recursive = true,
            Const::Tuple(t) => {
                if let [Const::Atom(k), Const::Atom(b)] = t.as_slice()
                    && k == "recursive"
                {
                    recursive = b == "true";
                }
            }
            _ => {}
        }
    }
    Some((d.to_string(), recursive))
}
