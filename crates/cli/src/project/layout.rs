//! A project's root, its kind, and what loading it means.
//!
//! The root of a path is the nearest directory at or above it holding a
//! `rebar.config` (or `rebar.config.script`: rebar3), an `erlang.mk`, or a
//! `Makefile` that includes erlang.mk; a rebar3 application inside
//! `apps/` or `lib/` of a rebar3 root belongs to that root (an umbrella).
//! Roots are looked for from the absolute path, and named relative to the
//! path as it was spelled, so `.` and an absolute path find the same
//! project and the same files.

use std::fmt;
use std::path::{Path, PathBuf};

use racewit_syntax::pp::include::normalize;
use racewit_syntax::{DiagnosticCode, Severity};

/// How a project is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProjectKind {
    Rebar3,
    ErlangMk,
    /// No build configuration: directories as they are.
    Plain,
}

/// A project, as racewit loads it: with the test profile of its build
/// (rebar3's `test` profile, erlang.mk's `TEST_ERLC_OPTS`), so tests are
/// loaded as entries and `-ifdef(TEST)` code is seen.
#[derive(Clone, Debug)]
pub struct Project {
    /// The root directory, named relative to the path given (`.`: the
    /// current directory).
    pub root: PathBuf,
    pub kind: ProjectKind,
    /// The applications: name and directory.
    pub apps: Vec<(String, PathBuf)>,
    /// What loading the whole project loads: source directories (walked
    /// recursively) and the files of directories that are not (`test/`).
    pub sources: Vec<PathBuf>,
    /// Include directories for `-include`, in search order.
    pub include_dirs: Vec<PathBuf>,
    /// Library roots for `-include_lib`.
    pub lib_dirs: Vec<PathBuf>,
    /// Macros (`{d, M}` and `{d, M, V}`, `-DM=V`): name and value text.
    pub defines: Vec<(String, Option<String>)>,
    /// What reading the build configuration reported.
    pub diagnostics: Vec<ConfigDiagnostic>,
    /// The whole project is loaded (its root was given, or no path).
    pub whole: bool,
}

/// A problem in a build configuration file, at a position in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigDiagnostic {
    pub path: PathBuf,
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub column: u32,
    pub code: DiagnosticCode,
    pub severity: Severity,
    pub message: String,
}

impl fmt::Display for ConfigDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {} {}",
            self.path.display(),
            self.line,
            self.column,
            self.code.as_str(),
            self.message
        )
    }
}

impl Project {
    fn new(root: &Path, kind: ProjectKind) -> Project {
        Project {
            root: root.to_path_buf(),
            kind,
            apps: Vec::new(),
            sources: Vec::new(),
            include_dirs: Vec::new(),
            lib_dirs: Vec::new(),
            defines: Vec::new(),
            diagnostics: Vec::new(),
            whole: false,
        }
    }

    /// One line: the kind, the root, the applications and macros.
    pub fn summary(&self) -> String {
        let kind = match self.kind {
            ProjectKind::Rebar3 => "rebar3 project (test profile)",
            ProjectKind::ErlangMk => "erlang.mk project (test build)",
            ProjectKind::Plain => "directory",
        };
        let mut line = format!("project: {kind} at {}", self.root.display());
        if !self.apps.is_empty() {
            let names: Vec<&str> = self.apps.iter().map(|(n, _)| n.as_str()).collect();
            line.push_str(&format!("; apps: {}", names.join(", ")));
        }
        if !self.defines.is_empty() {
            let macros: Vec<String> = self
                .defines
                .iter()
                .map(|(n, v)| match v {
                    Some(v) => format!("{n}={v}"),
                    None => n.clone(),
                })
                .collect();
            line.push_str(&format!("; macros: {}", macros.join(" ")));
        }
        line
    }

    /// Adds an include directory, if it exists and is not there yet.
    pub(super) fn include(&mut self, dir: PathBuf) {
        if dir.is_dir() && !self.include_dirs.contains(&dir) {
            self.include_dirs.push(dir);
        }
    }

    /// Adds a library root, if it exists and is not there yet.
    pub(super) fn lib(&mut self, dir: PathBuf) {
        if dir.is_dir() && !self.lib_dirs.contains(&dir) {
            self.lib_dirs.push(dir);
        }
    }

    /// The dependencies a build of the project put beside it: each
    /// application directory (one with `src/` or `ebin/`) under a library
    /// root (`_checkouts`, `_build/test/lib`, `_build/default/lib`,
    /// `deps`) that is not one of the project's own applications, named
    /// without a `-VSN` suffix; the first root holding a name wins, as
    /// `-include_lib` finds it.
    pub fn dep_dirs(&self) -> Vec<(String, PathBuf)> {
        let mut out: Vec<(String, PathBuf)> = Vec::new();
        for lib in &self.lib_dirs {
            for dir in subdirs(lib) {
                if !dir.join("src").is_dir() && !dir.join("ebin").is_dir() {
                    continue;
                }
                let full = dir_name(&dir);
                let name = match full.rsplit_once('-') {
                    Some((n, v)) if v.starts_with(|c: char| c.is_ascii_digit()) => n.to_string(),
                    _ => full,
                };
                let own = self
                    .apps
                    .iter()
                    .any(|(n, d)| *n == name || same_dir(d, &dir));
                if own || out.iter().any(|(n, _)| *n == name) {
                    continue;
                }
                out.push((name, dir));
            }
        }
        out
    }

    /// Adds a source directory: walked whole when `recursive`, else its
    /// `.erl` files (sorted). Nothing when it does not exist.
    pub(super) fn source(&mut self, dir: PathBuf, recursive: bool) {
        if !dir.is_dir() {
            return;
        }
        if recursive {
            if !self.sources.contains(&dir) {
                self.sources.push(dir);
            }
            return;
        }
        let Ok(rd) = std::fs::read_dir(&dir) else {
            // Reported when loaded.
            self.sources.push(dir);
            return;
        };
        let mut files: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "erl"))
            .collect();
        files.sort();
        for f in files {
            if !self.sources.contains(&f) {
                self.sources.push(f);
            }
        }
    }

    pub(super) fn warn(&mut self, path: PathBuf, message: impl Into<String>) {
        self.diagnostics.push(ConfigDiagnostic {
            path,
            line: 1,
            column: 1,
            code: DiagnosticCode::W003ConfigNotUsed,
            severity: Severity::Warning,
            message: message.into(),
        });
    }
}

/// `rel` under `root`, without a leading `./` when the root is `.`.
pub(super) fn join(root: &Path, rel: impl AsRef<Path>) -> PathBuf {
    if root == Path::new(".") || root.as_os_str().is_empty() {
        normalize(rel.as_ref())
    } else {
        normalize(&root.join(rel))
    }
}

/// The directory above `dir`, as spelled from it (`src` → `.`, `.` → `..`).
fn up(dir: &Path) -> PathBuf {
    let p = normalize(&dir.join(".."));
    if p.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        p
    }
}

/// `p` as an absolute path without `.` and `..`.
fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p)
        .map(|a| normalize(&a))
        .unwrap_or_else(|_| p.to_path_buf())
}

/// Do `a` and `b` name the same directory?
pub fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => absolute(a) == absolute(b),
    }
}

/// The kind of project whose root `dir` is, if it is one.
fn kind_at(dir: &Path) -> Option<ProjectKind> {
    if dir.join("rebar.config").is_file() || dir.join("rebar.config.script").is_file() {
        return Some(ProjectKind::Rebar3);
    }
    if dir.join("erlang.mk").is_file() || erlang_mk_in(&dir.join("Makefile")) {
        return Some(ProjectKind::ErlangMk);
    }
    None
}

/// Does this Makefile include erlang.mk?
fn erlang_mk_in(makefile: &Path) -> bool {
    racewit_syntax::read::read_regular_file(makefile, 1 << 20)
        .is_ok_and(|b| String::from_utf8_lossy(&b).contains("erlang.mk"))
}

/// The root of the project holding `path`, named relative to `path`'s
/// spelling, and its kind; `None` outside any project.
pub fn find_root(path: &Path) -> Option<(PathBuf, ProjectKind)> {
    let start = if path.is_dir() {
        path.to_path_buf()
    } else {
        match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    };
    let mut spelled = start.clone();
    for dir in absolute(&start).ancestors() {
        if let Some(kind) = kind_at(dir) {
            // An application of an umbrella: the umbrella's root.
            if kind == ProjectKind::Rebar3
                && let Some(parent) = dir.parent()
                && parent
                    .file_name()
                    .is_some_and(|n| n == "apps" || n == "lib")
                && let Some(umbrella) = parent.parent()
                && kind_at(umbrella) == Some(ProjectKind::Rebar3)
            {
                return Some((up(&up(&spelled)), kind));
            }
            return Some((spelled, kind));
        }
        spelled = up(&spelled);
    }
    None
}

/// For a path outside any project: the directory that looks like its
/// root (the directory given, or the one holding the file; above `src`).
pub fn plain_root(path: &Path) -> PathBuf {
    let dir = if path.is_dir() {
        path.to_path_buf()
    } else {
        match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    };
    if dir.file_name().is_some_and(|n| n == "src") {
        up(&dir)
    } else {
        dir
    }
}

/// The project at `root`.
pub fn discover(root: &Path, kind: ProjectKind) -> Project {
    let mut project = Project::new(root, kind);
    match kind {
        ProjectKind::Rebar3 => super::rebar::discover(&mut project),
        ProjectKind::ErlangMk => super::erlang_mk::discover(&mut project),
        ProjectKind::Plain => plain(&mut project),
    }
    project
}

/// No configuration: the directory whole, `include/`, `apps/*/include`,
/// and the usual library roots.
fn plain(project: &mut Project) {
    let root = project.root.clone();
    project.sources.push(root.clone());
    project.include(join(&root, "include"));
    let apps = join(&root, "apps");
    for app in subdirs(&apps) {
        project.include(app.join("include"));
    }
    project.lib(apps);
    project.lib(join(&root, "_build/default/lib"));
    project.lib(join(&root, "deps"));
}

/// The last component of `dir`'s absolute path (`.` in `/src/myapp` is `myapp`).
pub(super) fn dir_name(dir: &Path) -> String {
    absolute(dir)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The subdirectories of `dir`, sorted (none when it cannot be read).
pub(super) fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}
