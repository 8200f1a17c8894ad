//! Finding and caching included files.
//!
//! - `-include("x.hrl")`: the including file's directory, then the base
//!   search path of the module being preprocessed (its `../include` and
//!   `../../include`, then the `-I` directories).
//! - `-include_lib("app/include/x.hrl")`: first like `-include`, then `app`
//!   is looked up as a library: the explicit library roots, the project's
//!   rebar3/mix roots found above the module (`_build/default/lib`,
//!   `_checkouts`, `deps`, `apps`), an enclosing directory named `app` or
//!   `app-VSN`, and the OTP library directory (highest `app-VSN` wins).
//!
//! [`HeaderCache`] reads and lexes each header once per run, whatever the
//! number of threads and modules that include it. Headers get provisional
//! file ids (`HEADER_ID_BASE + n`, in order of first use); the loader renumbers
//! them deterministically at the end.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock, RwLock};

use rustc_hash::FxHashMap;

use crate::diagnostic::Diagnostic;
use crate::lex::tokenize;
use crate::read::{MAX_HEADER_BYTES, ReadError, read_regular_file};
use crate::source::{FileId, SourceFile};
use crate::token::Token;

/// Provisional file ids of headers start here (module files are numbered
/// below it).
pub const HEADER_ID_BASE: u32 = 1 << 31;

/// A header read and lexed once.
#[derive(Debug)]
pub struct Header {
    /// Provisional id (`>= HEADER_ID_BASE`).
    pub id: FileId,
    pub file: SourceFile,
    pub tokens: Arc<Vec<Token>>,
    /// Lexer diagnostics (reported once per run, not per includer).
    pub diagnostics: Vec<Diagnostic>,
    /// The header cut into forms, `-define`s parsed (on first inclusion).
    pub(crate) forms: OnceLock<Arc<Vec<super::Form>>>,
}

/// Header file name → the files of that name (sorted).
type HeadersByName = BTreeMap<String, Vec<PathBuf>>;

/// Headers shared by every module of a load.
#[derive(Debug, Default)]
pub struct HeaderCache {
    /// Path → header, or why there is none there.
    by_path: RwLock<FxHashMap<PathBuf, Probe>>,
    all: RwLock<Vec<Arc<Header>>>,
    /// Library root → app name → app directory.
    lib_roots: RwLock<FxHashMap<PathBuf, Arc<FxHashMap<String, PathBuf>>>>,
    /// Directory → project library roots found above it.
    project_roots: RwLock<FxHashMap<PathBuf, Arc<Vec<PathBuf>>>>,
    /// Application directory → header file name → the `.hrl` files of that
    /// name under its `src/` and `include/` (sorted).
    app_headers: RwLock<FxHashMap<PathBuf, Arc<HeadersByName>>>,
}

/// What is at a path where a header is looked for.
#[derive(Debug, Clone)]
pub enum Probe {
    Found(Arc<Header>),
    /// Nothing (or a directory, which the search passes over as `epp` does).
    Missing,
    /// A file that is not read: a FIFO, device or socket, or too large.
    Refused(Arc<str>),
}

/// An include that found no header: the first candidate that exists but
/// was refused, with the reason, if any.
pub type NotFound = Option<(PathBuf, Arc<str>)>;

impl HeaderCache {
    /// The header at `path` (already normalized), read and lexed on first use.
    pub fn probe(&self, path: &Path) -> Probe {
        if let Some(h) = read_lock(&self.by_path).get(path) {
            return h.clone();
        }
        let bytes = match read_regular_file(path, MAX_HEADER_BYTES) {
            Ok(bytes) => bytes,
            Err(e) => {
                let probe = match e {
                    ReadError::NotRegular("a directory") => Probe::Missing,
                    ReadError::NotRegular(_) | ReadError::TooLarge { .. } => {
                        Probe::Refused(Arc::from(e.to_string()))
                    }
                    ReadError::Io(_) if e.is_not_found() => Probe::Missing,
                    ReadError::Io(_) => Probe::Refused(Arc::from(e.to_string())),
                };
                write_lock(&self.by_path).insert(path.to_path_buf(), probe.clone());
                return probe;
            }
        };
        let text = decode_text(bytes);
        let mut by_path = write_lock(&self.by_path);
        if let Some(p @ Probe::Found(_)) = by_path.get(path) {
            return p.clone();
        }
        let mut all = write_lock(&self.all);
        let id = FileId(HEADER_ID_BASE + all.len() as u32);
        let (tokens, diagnostics) = tokenize(id, &text);
        let header = Arc::new(Header {
            id,
            file: SourceFile::new(path.to_path_buf(), text),
            tokens: Arc::new(tokens),
            diagnostics,
            forms: OnceLock::new(),
        });
        all.push(header.clone());
        by_path.insert(path.to_path_buf(), Probe::Found(header.clone()));
        Probe::Found(header)
    }

    /// The header at `path`, if one is there and readable.
    pub fn get(&self, path: &Path) -> Option<Arc<Header>> {
        match self.probe(path) {
            Probe::Found(h) => Some(h),
            _ => None,
        }
    }

    /// Every header read so far, in provisional id order.
    pub fn headers(&self) -> Vec<Arc<Header>> {
        read_lock(&self.all).clone()
    }

    /// The header with a provisional id.
    pub fn by_id(&self, id: FileId) -> Option<Arc<Header>> {
        let i = id.0.checked_sub(HEADER_ID_BASE)? as usize;
        read_lock(&self.all).get(i).cloned()
    }

    /// App name → directory for one library root (listed once).
    fn apps_in(&self, root: &Path) -> Arc<FxHashMap<String, PathBuf>> {
        if let Some(m) = read_lock(&self.lib_roots).get(root) {
            return m.clone();
        }
        let mut best: FxHashMap<String, (Vec<u64>, PathBuf)> = FxHashMap::default();
        if let Ok(rd) = std::fs::read_dir(root) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let (app, vsn) = match name.split_once('-') {
                    Some((a, v)) => (a.to_string(), version_key(v)),
                    None => (name.clone(), Vec::new()),
                };
                let path = e.path();
                if !path.is_dir() {
                    continue;
                }
                match best.get(&app) {
                    Some((v, _)) if *v >= vsn => {}
                    _ => {
                        best.insert(app, (vsn, path));
                    }
                }
            }
        }
        let m: FxHashMap<String, PathBuf> = best.into_iter().map(|(k, (_, p))| (k, p)).collect();
        let m = Arc::new(m);
        write_lock(&self.lib_roots).insert(root.to_path_buf(), m.clone());
        m
    }

    /// rebar3/mix library roots in `dir` and above it (nearest first);
    /// `ancestors` are `dir`'s (see `SearchPath::spelled_ancestors`).
    fn project_roots(&self, dir: &Path, ancestors: &[(PathBuf, PathBuf)]) -> Arc<Vec<PathBuf>> {
        if let Some(v) = read_lock(&self.project_roots).get(dir) {
            return v.clone();
        }
        let mut roots = Vec::new();
        for (anc, _) in ancestors.iter().take(6) {
            for sub in ["_build/default/lib", "_checkouts", "deps", "apps"] {
                let p = anc.join(sub);
                if p.is_dir() {
                    roots.push(p);
                }
            }
        }
        let v = Arc::new(roots);
        write_lock(&self.project_roots).insert(dir.to_path_buf(), v.clone());
        v
    }
}

impl HeaderCache {
    /// The `.hrl` files under `app/src` and `app/include` (a few levels
    /// deep), by file name.
    fn headers_of_app(&self, app: &Path) -> Arc<HeadersByName> {
        if let Some(m) = read_lock(&self.app_headers).get(app) {
            return m.clone();
        }
        let mut found = HeadersByName::new();
        let mut pending: Vec<(PathBuf, u32)> = ["src", "include"]
            .iter()
            .map(|d| (app.join(d), 0))
            .collect();
        while let Some((dir, depth)) = pending.pop() {
            let Ok(rd) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in rd.flatten() {
                let path = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                if path.is_dir() {
                    if depth < 3 {
                        pending.push((path, depth + 1));
                    }
                } else if name.ends_with(".hrl") {
                    found.entry(name).or_default().push(path);
                }
            }
        }
        for paths in found.values_mut() {
            paths.sort();
        }
        let m = Arc::new(found);
        write_lock(&self.app_headers).insert(app.to_path_buf(), m.clone());
        m
    }
}

fn read_lock<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|e| e.into_inner())
}

fn write_lock<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|e| e.into_inner())
}

/// UTF-8 text, or Latin-1 when the bytes are not valid UTF-8 (as `epp`
/// falls back for `%% coding: latin-1` files).
pub fn decode_text(bytes: Vec<u8>) -> Arc<str> {
    match String::from_utf8(bytes) {
        Ok(s) => Arc::from(s),
        Err(e) => {
            let s: String = e.into_bytes().iter().map(|&b| b as char).collect();
            Arc::from(s)
        }
    }
}

/// `"1.2.10"` → `[1, 2, 10]` (non-numeric parts compare as 0).
fn version_key(v: &str) -> Vec<u64> {
    v.split(['.', '-'])
        .map(|p| p.parse::<u64>().unwrap_or(0))
        .collect()
}

/// Remove `.` and resolve `..` lexically (no file system access).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let can_pop = matches!(out.components().next_back(), Some(Component::Normal(_)));
                if can_pop {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `$VAR/rest` → the variable's value followed by `/rest` (as `epp`).
fn expand_var(name: &str) -> String {
    let Some(rest) = name.strip_prefix('$') else {
        return name.to_string();
    };
    let (var, tail) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    match std::env::var(var) {
        Ok(v) => format!("{v}{tail}"),
        Err(_) => name.to_string(),
    }
}

/// Where one module's includes are searched.
#[derive(Debug, Clone)]
pub struct SearchPath {
    /// After the including file's own directory: the module's `../include`,
    /// `../../include`, then the `-I` directories.
    pub dirs: Vec<PathBuf>,
    /// Library roots for `-include_lib`, in order.
    pub lib_roots: Vec<PathBuf>,
    /// The module file's directory (for project roots and enclosing apps).
    pub module_dir: PathBuf,
    /// Whether a plain header name not found is looked for under the
    /// module's application ([`PpEnv::app_headers`](super::PpEnv)).
    pub app_headers: bool,
}

impl SearchPath {
    pub fn new(module_path: &Path, include_dirs: &[PathBuf], lib_dirs: &[PathBuf]) -> Self {
        let module_dir = module_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut dirs = vec![
            normalize(&module_dir.join("../include")),
            normalize(&module_dir.join("../../include")),
        ];
        dirs.extend(include_dirs.iter().cloned());
        SearchPath {
            dirs,
            lib_roots: lib_dirs.to_vec(),
            module_dir,
            app_headers: false,
        }
    }

    /// Resolve `-include(name)` from a file in `from_dir`.
    pub fn find_include(
        &self,
        cache: &HeaderCache,
        from_dir: &Path,
        name: &str,
    ) -> Result<Arc<Header>, NotFound> {
        let mut probes = Probes::new(cache);
        match self.include_in(&mut probes, from_dir, name) {
            Some(h) => Ok(h),
            None => Err(probes.refused),
        }
    }

    fn include_in(
        &self,
        probes: &mut Probes<'_>,
        from_dir: &Path,
        name: &str,
    ) -> Option<Arc<Header>> {
        let name = expand_var(name);
        let rel = Path::new(&name);
        if rel.is_absolute() {
            return probes.at(&normalize(rel));
        }
        if let Some(h) = std::iter::once(from_dir)
            .chain(self.dirs.iter().map(PathBuf::as_path))
            .find_map(|d| probes.at(&normalize(&d.join(rel))))
        {
            return Some(h);
        }
        if self.app_headers {
            let (name, app) = self.plain_name_and_app(rel)?;
            return self
                .find_in_app(probes, &name, &app)
                .or_else(|| self.find_beside_app(probes, &name, &app));
        }
        None
    }

    /// A plain header name (no directory part) and the module's
    /// application directory (the parent of the nearest `src` above the
    /// module), where both exist.
    fn plain_name_and_app(&self, rel: &Path) -> Option<(String, PathBuf)> {
        let mut parts = rel.components();
        let (Some(Component::Normal(name)), None) = (parts.next(), parts.next()) else {
            return None;
        };
        let app = self
            .spelled_ancestors()
            .into_iter()
            .find(|(_, abs)| abs.file_name().is_some_and(|n| n == "src"))
            .map(|(spelled, _)| normalize(&spelled.join("..")))?;
        Some((name.to_string_lossy().into_owned(), app))
    }

    /// A plain header name found nowhere in the module's application: the
    /// one file of that name in the `include/` directory of an application
    /// beside it (the same library root), as OTP's own build finds
    /// `logger.hrl` for stdlib with `-I .../kernel/include`. Several
    /// applications holding one: none.
    fn find_beside_app(
        &self,
        probes: &mut Probes<'_>,
        name: &str,
        app: &Path,
    ) -> Option<Arc<Header>> {
        let root = normalize(&app.join(".."));
        let own = std::path::absolute(app).ok().map(|p| normalize(&p));
        let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .filter(|p| std::path::absolute(p).ok().map(|a| normalize(&a)) != own)
            .map(|p| p.join("include").join(name))
            .filter(|p| p.is_file())
            .collect();
        found.sort();
        match found.as_slice() {
            [only] => probes.at(&normalize(only)),
            _ => None,
        }
    }

    /// A plain header name not on the search path: the one file of that
    /// name under the module's application (`src/**`, `include/**`), as a
    /// build's `-I` options would have found it (OTP's Makefiles pass
    /// sibling source directories). Several files of that name: none.
    fn find_in_app(&self, probes: &mut Probes<'_>, name: &str, app: &Path) -> Option<Arc<Header>> {
        let headers = probes.cache.headers_of_app(app);
        match headers.get(name)?.as_slice() {
            [only] => probes.at(&normalize(only)),
            _ => None,
        }
    }

    /// The module's directory and the ones above it, each as spelled from
    /// the module's path (`src/..` is ``, then `..`) and as an absolute
    /// path: what a directory is called does not depend on how the module's
    /// path was written.
    fn spelled_ancestors(&self) -> Vec<(PathBuf, PathBuf)> {
        // A module named without a directory (`m.erl`) is in `.`.
        let dir = if self.module_dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            self.module_dir.as_path()
        };
        let absolute = std::path::absolute(dir)
            .map(|p| normalize(&p))
            .unwrap_or_else(|_| self.module_dir.clone());
        let mut spelled = self.module_dir.clone();
        let mut out = Vec::new();
        for anc in absolute.ancestors() {
            out.push((spelled.clone(), anc.to_path_buf()));
            spelled = normalize(&spelled.join(".."));
        }
        out
    }

    /// The application an `-include_lib` path names (its first component,
    /// after `$VAR` expansion), when no library root, enclosing project,
    /// enclosing directory or installed OTP holds an application of that
    /// name: the header is missing because the whole application is (a
    /// dependency not fetched, a library root not given), not because the
    /// application lacks the file.
    pub fn missing_application(&self, cache: &HeaderCache, name: &str) -> Option<String> {
        let name = expand_var(name);
        let Some(Component::Normal(app)) = Path::new(&name).components().next() else {
            return None;
        };
        let app = app.to_string_lossy().into_owned();
        let ancestors = self.spelled_ancestors();
        let in_roots = self
            .lib_roots
            .iter()
            .chain(cache.project_roots(&self.module_dir, &ancestors).iter())
            .chain(otp_lib_dirs())
            .any(|root| cache.apps_in(root).contains_key(&app));
        let enclosing = ancestors.iter().any(|(_, abs)| {
            abs.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.split_once('-').map_or(&*n, |(a, _)| a) == app
            })
        });
        (!in_roots && !enclosing).then_some(app)
    }

    /// Resolve `-include_lib(name)` from a file in `from_dir`.
    pub fn find_include_lib(
        &self,
        cache: &HeaderCache,
        from_dir: &Path,
        name: &str,
    ) -> Result<Arc<Header>, NotFound> {
        let mut probes = Probes::new(cache);
        match self.include_lib_in(&mut probes, from_dir, name) {
            Some(h) => Ok(h),
            None => Err(probes.refused),
        }
    }

    fn include_lib_in(
        &self,
        probes: &mut Probes<'_>,
        from_dir: &Path,
        name: &str,
    ) -> Option<Arc<Header>> {
        if let Some(h) = self.include_in(probes, from_dir, name) {
            return Some(h);
        }
        let name = expand_var(name);
        let mut parts = Path::new(&name).components();
        let Some(Component::Normal(app)) = parts.next() else {
            return None;
        };
        let app = app.to_string_lossy().into_owned();
        let rest = parts.as_path();
        let cache = probes.cache;
        for root in &self.lib_roots {
            if let Some(dir) = cache.apps_in(root).get(&app)
                && let Some(h) = probes.at(&normalize(&dir.join(rest)))
            {
                return Some(h);
            }
        }
        let ancestors = self.spelled_ancestors();
        for root in cache.project_roots(&self.module_dir, &ancestors).iter() {
            if let Some(dir) = cache.apps_in(root).get(&app)
                && let Some(h) = probes.at(&normalize(&dir.join(rest)))
            {
                return Some(h);
            }
        }
        for (spelled, abs) in &ancestors {
            let Some(n) = abs.file_name() else { continue };
            let n = n.to_string_lossy();
            let base = n.split_once('-').map_or(&*n, |(a, _)| a);
            if base == app
                && let Some(h) = probes.at(&normalize(&spelled.join(rest)))
            {
                return Some(h);
            }
        }
        for root in otp_lib_dirs() {
            if let Some(dir) = cache.apps_in(root).get(&app)
                && let Some(h) = probes.at(&normalize(&dir.join(rest)))
            {
                return Some(h);
            }
        }
        None
    }
}

/// The paths tried by one search, remembering the first one refused.
struct Probes<'c> {
    cache: &'c HeaderCache,
    refused: NotFound,
}

impl<'c> Probes<'c> {
    fn new(cache: &'c HeaderCache) -> Self {
        Probes {
            cache,
            refused: None,
        }
    }

    fn at(&mut self, path: &Path) -> Option<Arc<Header>> {
        match self.cache.probe(path) {
            Probe::Found(h) => Some(h),
            Probe::Missing => None,
            Probe::Refused(why) => {
                if self.refused.is_none() {
                    self.refused = Some((path.to_path_buf(), why));
                }
                None
            }
        }
    }
}

/// The OTP library directories of the installed Erlang, if any: the `lib`
/// directory next to the `bin` of the `erl` found on `PATH` (symlinks
/// resolved, so kerl/asdf installs work), then the usual install locations.
fn otp_lib_dirs() -> &'static [PathBuf] {
    static DIRS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    DIRS.get_or_init(|| {
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(path) = std::env::var_os("PATH") {
            let from_erl = std::env::split_paths(&path)
                .map(|d| d.join("erl"))
                .find(|p| p.is_file())
                .and_then(|p| std::fs::canonicalize(p).ok())
                .and_then(|p| Some(p.parent()?.parent()?.join("lib")));
            dirs.extend(from_erl);
        }
        for d in [
            "/usr/lib/erlang/lib",
            "/usr/local/lib/erlang/lib",
            "/opt/homebrew/lib/erlang/lib",
        ] {
            dirs.push(PathBuf::from(d));
        }
        let mut seen = Vec::new();
        dirs.retain(|d| {
            let keep = d.is_dir() && !seen.contains(d);
            seen.push(d.clone());
            keep
        });
        dirs
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_is_lexical() {
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d.hrl")),
            PathBuf::from("/a/c/d.hrl")
        );
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
        assert_eq!(normalize(Path::new("a/../../x")), PathBuf::from("../x"));
    }

    #[test]
    fn versions_compare_numerically() {
        assert!(version_key("1.10") > version_key("1.9"));
        assert!(version_key("4.2") > version_key("4.1.9"));
    }

    #[test]
    fn latin1_fallback() {
        assert_eq!(&*decode_text(vec![b'a', 0xe9]), "aé");
        assert_eq!(&*decode_text("é".as_bytes().to_vec()), "é");
    }
}
