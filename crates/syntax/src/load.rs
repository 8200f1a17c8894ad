//! Loading files and directories into a [`Program`], in parallel, deterministically.
//!
//! Each `.erl` file goes through lex → preprocess → parse → lower on the rayon
//! pool, one form at a time (only the module's IR grows with its size; a
//! form's tokens and syntax tree are freed once it is lowered); headers are
//! read and lexed once per load (shared cache). File ids do
//! not depend on the thread count: module files get `0..n` in sorted path
//! order, then headers `n..` in sorted path order (headers get provisional ids
//! while loading; every span is renumbered in a final pass).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::ir::{Module, Program};
use crate::pp::include::{HEADER_ID_BASE, decode_text};
use crate::pp::{PpEnv, PpStream};
use crate::read::{MAX_MODULE_BYTES, read_regular_file};
use crate::source::{FileId, LineDirective, SourceDb, SourceFile, Span};

/// Where includes and include_libs are searched, and predefined macros.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// `-I` directories for `-include` (after the including file's own directory).
    pub include_dirs: Vec<PathBuf>,
    /// Library roots for `-include_lib("app/include/x.hrl")` (each holds `app` or `app-VSN` dirs).
    pub lib_dirs: Vec<PathBuf>,
    /// `-D` macros: name and optional value text.
    pub defines: Vec<(String, Option<String>)>,
    /// Resolve includes exactly as epp does with these options. Off (the
    /// default), a plain header name that is not on the search path is
    /// also looked for under the module's application (`src/**`,
    /// `include/**`) and taken when one file has that name: what a build's
    /// `-I` options would have found.
    pub epp_includes_only: bool,
}

/// Load `.erl` files (directories are walked recursively, skipping `_build`
/// and `.git`; a file named explicitly is loaded whatever its extension).
/// Directories that could not be read and symlink loops met on the way are
/// diagnostics of the program (on the directory's path).
pub fn load_paths(paths: &[PathBuf], opts: &LoadOptions) -> Program {
    let walk = walk_paths(paths);
    let mut inputs: Vec<Input> = walk.files.into_iter().map(Input::Path).collect();
    inputs.extend(walk.problems.into_iter().map(|(p, w)| Input::Problem(p, w)));
    inputs.sort_by(|a, b| a.path().cmp(b.path()));
    load_inputs(inputs, opts)
}

/// Load one module from text in memory (for tests): `path` names it in spans,
/// and its directory is where its includes are searched.
pub fn load_source(path: &str, text: &str) -> Program {
    let inputs = vec![Input::Text(PathBuf::from(path), Arc::from(text))];
    load_inputs(inputs, &LoadOptions::default())
}

/// Load several modules from text in memory, as if they were files.
pub fn load_sources(files: &[(&str, &str)], opts: &LoadOptions) -> Program {
    let mut inputs: Vec<Input> = files
        .iter()
        .map(|(p, t)| Input::Text(PathBuf::from(p), Arc::from(*t)))
        .collect();
    inputs.sort_by(|a, b| a.path().cmp(b.path()));
    load_inputs(inputs, opts)
}

/// The `.erl` files under `paths`, sorted, each file once.
pub fn collect_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    walk_paths(paths).files
}

/// What walking the paths found.
#[derive(Debug, Default)]
pub struct Walk {
    /// Files to load, sorted, each once: a file reached under two names
    /// (a relative and an absolute path, a symlink) is kept under the
    /// first name met.
    pub files: Vec<PathBuf>,
    /// Directories not walked, and why.
    pub problems: Vec<(PathBuf, WalkProblem)>,
}

/// Why a directory was not walked.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum WalkProblem {
    /// It could not be listed (the error).
    Unreadable(String),
    /// A symlink back to a directory being walked (that directory).
    Loop(PathBuf),
}

/// Walk `paths`: directories recursively, following symlinks, each
/// directory once. Files and directories are named by their real path when
/// they have one inside the walk: every directory reachable without a
/// symlink is walked first, then the symlinks met on the way, in order (a
/// symlink to a directory already walked, or to one of its own ancestors,
/// is not walked again; the latter is a [`WalkProblem::Loop`]). Other paths
/// are taken as given.
pub fn walk_paths(paths: &[PathBuf]) -> Walk {
    let mut w = Walker::default();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(meta) if meta.is_dir() => {
                let key = file_key(&meta, p);
                if w.dirs_seen.insert(key.clone()) {
                    w.walk(p, &mut vec![(key, p.clone())]);
                }
            }
            Ok(meta) => w.file(p.clone(), Some(file_key(&meta, p))),
            // Reported when it is read.
            Err(_) => w.file(p.clone(), None),
        }
    }
    let mut next = 0;
    while next < w.links.len() {
        let (path, mut stack) = w.links[next].clone();
        next += 1;
        w.entry(path, &mut stack, true);
    }
    let mut files = w.files;
    files.sort();
    let mut problems = w.problems;
    problems.sort();
    Walk { files, problems }
}

/// What identifies a file or directory whatever it is called.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum FileKey {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn file_key(meta: &std::fs::Metadata, path: &Path) -> FileKey {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        FileKey::Inode(meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        FileKey::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// The directories being walked, from a root down, by identity and path.
type Stack = Vec<(FileKey, PathBuf)>;

#[derive(Default)]
struct Walker {
    files: Vec<PathBuf>,
    problems: Vec<(PathBuf, WalkProblem)>,
    files_seen: rustc_hash::FxHashSet<FileKey>,
    dirs_seen: rustc_hash::FxHashSet<FileKey>,
    /// Symlinks met, to follow once every real directory is walked: the
    /// link and the directories above it.
    links: Vec<(PathBuf, Stack)>,
}

impl Walker {
    fn file(&mut self, path: PathBuf, key: Option<FileKey>) {
        let key = key.unwrap_or_else(|| FileKey::Path(path.clone()));
        if self.files_seen.insert(key) {
            self.files.push(path);
        }
    }

    /// `stack`: the directories being walked, from a root down to `dir`.
    fn walk(&mut self, dir: &Path, stack: &mut Stack) {
        let rd = match std::fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => {
                self.problems
                    .push((dir.to_path_buf(), WalkProblem::Unreadable(e.to_string())));
                return;
            }
        };
        let mut entries = Vec::new();
        for e in rd {
            match e {
                Ok(e) => entries.push(e),
                Err(e) => {
                    self.problems
                        .push((dir.to_path_buf(), WalkProblem::Unreadable(e.to_string())));
                    return;
                }
            }
        }
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            if e.file_type().is_ok_and(|t| t.is_symlink()) {
                self.links.push((path, stack.clone()));
            } else {
                self.entry(path, stack, false);
            }
        }
    }

    /// One entry of a directory being walked (`linked`: reached through a
    /// symlink, which is followed).
    fn entry(&mut self, path: PathBuf, stack: &mut Stack, linked: bool) {
        let is_erl = path.extension().is_some_and(|x| x == "erl");
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            // A dangling link, or no permission to look: a module is
            // reported when it is read; anything else is not ours.
            Err(_) => {
                if is_erl {
                    self.file(path, None);
                }
                return;
            }
        };
        if meta.is_dir() {
            if path
                .file_name()
                .is_some_and(|n| n == "_build" || n == ".git")
            {
                return;
            }
            let key = file_key(&meta, &path);
            if linked && let Some((_, ancestor)) = stack.iter().find(|(k, _)| *k == key) {
                self.problems
                    .push((path, WalkProblem::Loop(ancestor.clone())));
                return;
            }
            // Walked already, under its real name or another link.
            if !self.dirs_seen.insert(key.clone()) {
                return;
            }
            stack.push((key, path.clone()));
            self.walk(&path, stack);
            stack.pop();
        } else if is_erl {
            let key = file_key(&meta, &path);
            self.file(path, Some(key));
        }
    }
}

enum Input {
    Path(PathBuf),
    Text(PathBuf, Arc<str>),
    /// A directory that was not walked.
    Problem(PathBuf, WalkProblem),
}

impl Input {
    fn path(&self) -> &Path {
        match self {
            Input::Path(p) | Input::Text(p, _) | Input::Problem(p, _) => p,
        }
    }
}

/// What one module file produced.
struct FileResult {
    source: SourceFile,
    module: Option<Module>,
    diagnostics: Vec<Diagnostic>,
    /// `-file` attributes met in included headers (provisional header ids).
    header_directives: Vec<(FileId, LineDirective)>,
}

fn load_inputs(inputs: Vec<Input>, opts: &LoadOptions) -> Program {
    let mut env = PpEnv::new(
        opts.include_dirs.clone(),
        opts.lib_dirs.clone(),
        &opts.defines,
    );
    env.app_headers = !opts.epp_includes_only;
    let results: Vec<FileResult> = inputs
        .into_par_iter()
        .enumerate()
        .map(|(i, input)| load_one(FileId(i as u32), input, &env))
        .collect();
    assemble(results, &env)
}

fn load_one(id: FileId, input: Input, env: &PpEnv) -> FileResult {
    let unread = |p: PathBuf, d: Diagnostic| FileResult {
        source: SourceFile::new(p, Arc::from("")),
        module: None,
        diagnostics: vec![d],
        header_directives: Vec::new(),
    };
    let at = Span::new(id, 0, 0);
    let (path, text) = match input {
        Input::Text(p, t) => (p, t),
        Input::Path(p) => match read_regular_file(&p, MAX_MODULE_BYTES) {
            Ok(bytes) => (p, decode_text(bytes)),
            Err(e) => {
                let d = Diagnostic::error(
                    DiagnosticCode::E001UnreadableFile,
                    at,
                    format!("cannot read {}: {e}", p.display()),
                );
                return unread(p, d);
            }
        },
        Input::Problem(p, WalkProblem::Unreadable(e)) => {
            let d = Diagnostic::error(
                DiagnosticCode::E001UnreadableFile,
                at,
                format!("cannot read directory {}: {e}", p.display()),
            );
            return unread(p, d);
        }
        Input::Problem(p, WalkProblem::Loop(ancestor)) => {
            let d = Diagnostic::warning(
                DiagnosticCode::W002SymlinkLoop,
                at,
                format!(
                    "{} leads back to {} (a symlink loop): not walked again",
                    p.display(),
                    ancestor.display()
                ),
            );
            return unread(p, d);
        }
    };
    let mut source = SourceFile::new(path, text);
    // Form by form: only the current form's tokens and syntax tree are
    // held, so memory follows the module's IR, not its token count.
    let mut parse_diags = Vec::new();
    let mut lowerer = crate::lower::ModuleLowerer::new(id);
    let mut stream = PpStream::new(id, &source, env);
    while let Some(tokens) = stream.next_form() {
        let n = tokens.len();
        let (ast, diags) = crate::parse::parse_file(tokens);
        stream.release_form();
        parse_diags.extend(diags);
        for form in &ast.forms {
            lowerer.add_form_of(form, n);
        }
    }
    let pp = stream.finish();
    let mut diagnostics = pp.diagnostics;
    diagnostics.append(&mut parse_diags);
    let (own, header_directives): (Vec<_>, Vec<_>) =
        pp.line_directives.into_iter().partition(|(f, _)| *f == id);
    source.set_line_directives(own.into_iter().map(|(_, d)| d).collect());
    let (mut module, lower_diags) = lowerer.finish();
    diagnostics.extend(lower_diags);
    if let Some(m) = &mut module {
        for f in &mut m.functions {
            f.test_only = f.span.file == id
                && pp
                    .test_only
                    .iter()
                    .any(|&(start, end)| start <= f.span.start && f.span.end <= end);
        }
    }
    FileResult {
        source,
        module,
        diagnostics,
        header_directives,
    }
}

/// Number the headers, renumber spans, drop duplicate modules, sort diagnostics.
fn assemble(results: Vec<FileResult>, env: &PpEnv) -> Program {
    let n_modules = results.len() as u32;
    let mut headers = env.headers.headers();
    headers.sort_by(|a, b| a.file.path.cmp(&b.file.path));
    let mut remap: FxHashMap<u32, FileId> = FxHashMap::default();
    for (rank, h) in headers.iter().enumerate() {
        remap.insert(h.id.0, FileId(n_modules + rank as u32));
    }
    let fix = |s: &mut Span| {
        if s.file.0 >= HEADER_ID_BASE
            && let Some(&id) = remap.get(&s.file.0)
        {
            s.file = id;
        }
    };

    let mut sources = SourceDb::default();
    let mut program = Program::default();
    let mut diagnostics = Vec::new();
    let mut module_paths: FxHashMap<crate::ir::Name, FileId> = FxHashMap::default();
    let mut header_directives: FxHashMap<u32, Vec<LineDirective>> = FxHashMap::default();
    for r in results {
        for (f, d) in r.header_directives {
            header_directives.entry(f.0).or_default().push(d);
        }
        let id = sources.add(r.source);
        diagnostics.extend(r.diagnostics);
        let Some(mut module) = r.module else { continue };
        crate::ir::Module::remap_spans(&mut module, &fix);
        if let Some(&first) = module_paths.get(&module.name) {
            diagnostics.push(Diagnostic::error(
                DiagnosticCode::E033DuplicateModule,
                module.span,
                format!(
                    "module '{}' is already defined in {} (this file is ignored)",
                    module.name,
                    sources.path(first).display()
                ),
            ));
            continue;
        }
        module_paths.insert(module.name.clone(), id);
        program.modules.insert(module.name.clone(), module);
    }
    for h in &headers {
        let mut file = SourceFile::new(h.file.path.clone(), h.file.text.clone());
        if let Some(ds) = header_directives.remove(&h.id.0) {
            file.set_line_directives(ds);
        }
        sources.add(file);
        diagnostics.extend(h.diagnostics.iter().cloned());
    }
    for d in &mut diagnostics {
        fix(&mut d.span);
    }
    diagnostics.sort_by_key(|d| (d.span.file, d.span.start, d.span.end));
    program.sources = sources;
    program.diagnostics = diagnostics;
    program
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Load `files` (relative path, text) from a temp dir; render modules and
    /// diagnostics as `file:line CODE` with paths relative to the dir.
    fn check(files: &[(&str, &str)], expected: &str) {
        let tmp = tempfile::tempdir().unwrap();
        for (rel, text) in files {
            write(tmp.path(), rel, text);
        }
        let prog = load_paths(&[tmp.path().to_path_buf()], &LoadOptions::default());
        let rel = |id: FileId| {
            prog.sources
                .path(id)
                .strip_prefix(tmp.path())
                .unwrap()
                .display()
                .to_string()
        };
        let mut out: Vec<String> = prog
            .modules
            .values()
            .map(|m| {
                format!(
                    "module {} in {} ({} functions)",
                    m.name,
                    rel(m.file),
                    m.functions.len()
                )
            })
            .collect();
        let files: Vec<String> = prog.sources.iter().map(|(id, _)| rel(id)).collect();
        out.push(format!("files {}", files.join(",")));
        for d in &prog.diagnostics {
            let loc = prog.sources.get(d.span.file).line_col(d.span.start);
            out.push(format!(
                "{}:{} {}",
                rel(d.span.file),
                loc.line,
                d.code.as_str()
            ));
        }
        assert_eq!(out.join("\n"), expected);
    }

    #[test]
    fn loads_a_tree_with_headers() {
        check(
            &[
                (
                    "app/src/b.erl",
                    "-module(b).\n-include(\"h.hrl\").\n-export([g/0]).\ng() -> ?H.\n",
                ),
                (
                    "app/src/a.erl",
                    "-module(a).\n-include(\"h.hrl\").\nf() -> ?H + ?MISSING.\n",
                ),
                ("app/include/h.hrl", "-define(H, 1).\n"),
                ("app/_build/default/lib/x/src/x.erl", "-module(x).\n"),
                ("app/src/notes.txt", "not erlang"),
            ],
            "module a in app/src/a.erl (1 functions)\n\
             module b in app/src/b.erl (1 functions)\n\
             files app/src/a.erl,app/src/b.erl,app/include/h.hrl\n\
             app/src/a.erl:3 E021",
        );
    }

    /// Diagnostics after `-file("Name", Line).` are reported in `Name` and
    /// renumbered as erlc 25 reports them (`gen.erl:105:8` for line 8 after
    /// `-file("gen.erl", 100).` on line 3; a multi-line attribute counts from
    /// the line of its `file` atom), in a module and in a header alike.
    #[test]
    fn file_attributes_rename_and_renumber_diagnostics() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            "src/m.erl",
            "-module(m).\n-export([f/0]).\n-file(\"gen.erl\", 100).\nf() -> ok.\n\n\n\nh() -> X.\n\
             -file(\"other.erl\",\n  7).\nk() -> Y.\n-include(\"h.hrl\").\n",
        );
        write(
            tmp.path(),
            "src/h.hrl",
            "-file(\"orig.hrl\", 40).\nhh() ->\n  ?UNDEFINED.\n",
        );
        let prog = load_paths(&[tmp.path().to_path_buf()], &LoadOptions::default());
        let rendered: Vec<String> = prog
            .diagnostics
            .iter()
            .map(|d| format!("{} {}", prog.sources.location(d.span), d.code.as_str()))
            .collect();
        assert_eq!(
            rendered,
            [
                "gen.erl:105:8 E031",
                "other.erl:9:8 E031",
                "orig.hrl:42:4 E021"
            ]
        );
        // Physical positions stay available.
        let d = &prog.diagnostics[0];
        let file = prog.sources.get(d.span.file);
        assert_eq!(file.line_col(d.span.start).line, 8);
        assert_eq!(file.line_directives().len(), 2);
    }

    #[test]
    fn duplicate_modules_keep_the_first() {
        check(
            &[
                ("one/m.erl", "-module(m).\nf() -> 1.\n"),
                ("two/m.erl", "-module(m).\ng() -> 2.\nh() -> 3.\n"),
            ],
            "module m in one/m.erl (1 functions)\nfiles one/m.erl,two/m.erl\ntwo/m.erl:1 E033",
        );
    }

    #[test]
    fn header_spans_are_renumbered() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            "src/z.erl",
            "-module(z).\n-include(\"defs.hrl\").\n",
        );
        write(
            tmp.path(),
            "src/defs.hrl",
            "-include(\"more.hrl\").\nf() -> ok.\n",
        );
        write(tmp.path(), "src/more.hrl", "g() -> ?UNDEFINED.\n");
        let prog = load_paths(&[tmp.path().to_path_buf()], &LoadOptions::default());
        assert_eq!(prog.sources.len(), 3);
        assert!(prog.sources.path(FileId(1)).ends_with("src/defs.hrl"));
        assert!(prog.sources.path(FileId(2)).ends_with("src/more.hrl"));
        let m = prog.module("z").unwrap();
        let f = m.function("f", 0).unwrap();
        assert_eq!(f.span.file, FileId(1));
        assert_eq!(m.function("g", 0).unwrap().span.file, FileId(2));
        assert_eq!(prog.diagnostics.len(), 1);
        assert_eq!(prog.diagnostics[0].span.file, FileId(2));
        assert_eq!(prog.diagnostics[0].code, DiagnosticCode::E021UndefinedMacro);
    }

    #[test]
    fn unreadable_file_is_a_diagnostic() {
        let prog = load_paths(
            &[PathBuf::from("/nonexistent/dir/x.erl")],
            &LoadOptions::default(),
        );
        assert!(prog.modules.is_empty());
        assert_eq!(prog.diagnostics.len(), 1);
        assert_eq!(prog.diagnostics[0].code, DiagnosticCode::E001UnreadableFile);
    }

    /// A symlink back to an ancestor is a warning, walked once; a tree
    /// reachable under several links is walked once (two loops used to make
    /// the walk exponential); no module is loaded twice.
    #[cfg(unix)]
    #[test]
    fn symlink_loops_are_detected_and_each_directory_walked_once() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(root, "app/src/a.erl", "-module(a).\n");
        write(root, "app/src/deep/b.erl", "-module(b).\n");
        std::os::unix::fs::symlink(root.join("app"), root.join("app/src/up")).unwrap();
        std::os::unix::fs::symlink(root.join("app/src"), root.join("app/src/deep/back")).unwrap();
        std::os::unix::fs::symlink(root.join("app/src/deep"), root.join("app/again")).unwrap();
        let prog = load_paths(&[root.to_path_buf()], &LoadOptions::default());
        let rel = |id: FileId| {
            let p = prog.sources.path(id);
            p.strip_prefix(root).unwrap_or(p).display().to_string()
        };
        let mods: Vec<String> = prog.modules.values().map(|m| rel(m.file)).collect();
        assert_eq!(mods, ["app/src/a.erl", "app/src/deep/b.erl"]);
        let diags: Vec<String> = prog
            .diagnostics
            .iter()
            .map(|d| format!("{} {} {}", rel(d.span.file), d.code.as_str(), d.message))
            .collect();
        let root_s = root.display();
        assert_eq!(
            diags,
            [
                format!(
                    "app/src/deep/back W002 {root_s}/app/src/deep/back leads back to {root_s}/app/src (a symlink loop): not walked again"
                ),
                format!(
                    "app/src/up W002 {root_s}/app/src/up leads back to {root_s}/app (a symlink loop): not walked again"
                ),
            ]
        );
    }

    /// The same file given by a relative and an absolute path, or through a
    /// symlink, is loaded once (no E033).
    #[cfg(unix)]
    #[test]
    fn a_file_named_twice_is_loaded_once() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let a = write(root, "src/a.erl", "-module(a).\n");
        std::os::unix::fs::symlink(&a, root.join("src/alias.erl")).unwrap();
        let dotted = root.join("src/../src/a.erl");
        let prog = load_paths(
            &[root.join("src"), a.clone(), dotted, root.to_path_buf()],
            &LoadOptions::default(),
        );
        assert_eq!(prog.modules.len(), 1);
        assert_eq!(
            prog.sources.len(),
            1,
            "{:?}",
            prog.sources
                .iter()
                .map(|(_, f)| &f.path)
                .collect::<Vec<_>>()
        );
        assert!(prog.diagnostics.is_empty(), "{:?}", prog.diagnostics);
    }

    /// FIFOs and devices are never read: a module that is a FIFO or an
    /// include of `/dev/zero` gets a diagnostic at once.
    #[cfg(unix)]
    #[test]
    fn fifos_and_devices_are_not_read() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(
            root,
            "src/m.erl",
            "-module(m).\n-include(\"/dev/zero\").\n-include(\"dev.hrl\").\n",
        );
        std::os::unix::fs::symlink("/dev/zero", root.join("src/dev.hrl")).unwrap();
        let fifo = root.join("src/fifo.erl");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let prog = load_paths(&[root.to_path_buf()], &LoadOptions::default());
        let diags: Vec<String> = prog
            .diagnostics
            .iter()
            .map(|d| {
                let at = prog.sources.location(d.span).to_string();
                let at = at
                    .strip_prefix(&format!("{}/", root.display()))
                    .unwrap_or(&at)
                    .to_string();
                format!(
                    "{at} {} {}",
                    d.code.as_str(),
                    d.message.replace(&root.display().to_string(), "ROOT")
                )
            })
            .collect();
        assert_eq!(
            diags,
            [
                "src/fifo.erl:1:1 E001 cannot read ROOT/src/fifo.erl: not a regular file (a FIFO)",
                "src/m.erl:2:10 E020 can't read include file \"/dev/zero\": /dev/zero is not a regular file (a character device)",
                "src/m.erl:3:10 E020 can't read include file \"dev.hrl\": ROOT/src/dev.hrl is not a regular file (a character device)",
            ]
        );
    }

    #[test]
    fn functions_only_under_a_test_macro_are_marked() {
        let src = "-module(m).\n-export([f/0]).\nf() -> 1.\n\
                   -ifdef(TEST).\nf_test() -> 1 = f().\n\
                   -ifdef(DEBUG).\nd() -> 1.\n-endif.\ng() -> 2.\n-endif.\n\
                   -ifdef(TEST).\nh() -> 1.\n-else.\nh() -> 2.\n-endif.\n\
                   -ifdef(EUNIT).\ne() -> 1.\n-endif.\n\
                   -ifndef(TEST).\nn() -> 1.\n-endif.\nlast() -> 3.\n";
        let marked = |defines: &[&str]| {
            let opts = LoadOptions {
                defines: defines.iter().map(|d| (d.to_string(), None)).collect(),
                ..Default::default()
            };
            let prog = load_sources(&[("m.erl", src)], &opts);
            assert!(prog.diagnostics.is_empty(), "{:?}", prog.diagnostics);
            let m = prog.module("m").expect("m");
            let mut names: Vec<(String, bool)> = m
                .functions
                .iter()
                .map(|f| (f.name.to_string(), f.test_only))
                .collect();
            names.sort();
            names
        };
        let t = |n: &str, b: bool| (n.to_string(), b);
        assert_eq!(
            marked(&["TEST", "DEBUG"]),
            vec![
                t("d", true),
                t("f", false),
                t("f_test", true),
                t("g", true),
                t("h", false),
                t("last", false)
            ]
        );
        assert_eq!(
            marked(&["EUNIT"]),
            vec![
                t("e", true),
                t("f", false),
                t("h", false),
                t("last", false),
                t("n", false)
            ]
        );
    }

    #[test]
    fn load_source_in_memory() {
        let prog = load_source(
            "mem/m.erl",
            "-module(m).\n-export([f/0]).\nf() -> ?MODULE.\n",
        );
        assert!(prog.diagnostics.is_empty(), "{:?}", prog.diagnostics);
        assert!(prog.module("m").is_some());
    }

    #[test]
    fn same_ids_whatever_the_thread_count() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..12 {
            write(
                tmp.path(),
                &format!("src/m{i}.erl"),
                &format!(
                    "-module(m{i}).\n-include(\"h{}.hrl\").\nf() -> ?X.\n",
                    i % 4
                ),
            );
        }
        for i in 0..4 {
            write(
                tmp.path(),
                &format!("src/h{i}.hrl"),
                &format!("-define(X, {i}).\n-include(\"common.hrl\").\n"),
            );
        }
        write(tmp.path(), "src/common.hrl", "c() -> ?UNDEF.\n");
        let load = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| load_paths(&[tmp.path().to_path_buf()], &LoadOptions::default()))
        };
        let render = |p: &Program| {
            let files: Vec<String> = p
                .sources
                .iter()
                .map(|(_, f)| f.path.display().to_string())
                .collect();
            let diags: Vec<String> = p.diagnostics.iter().map(|d| format!("{:?}", d)).collect();
            let spans: Vec<String> = p
                .modules
                .values()
                .flat_map(|m| m.functions.iter().map(|f| format!("{:?}", f.span)))
                .collect();
            format!("{files:?}\n{diags:?}\n{spans:?}")
        };
        let one = render(&load(1));
        for _ in 0..3 {
            assert_eq!(render(&load(4)), one);
        }
    }
}
