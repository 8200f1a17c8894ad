//! racewit-otp: finds the installed Erlang/OTP and the library code a
//! program depends on, and loads what racewit's VM runs from them. The VM
//! itself reads no files: this crate does, once, and hands the result in
//! through [`racewit_vm::VmConfig::libraries`].
//!
//! Principal items:
//! - [`OtpInstall`], [`discover`]: where OTP is installed (`$RACEWIT_OTP_ROOT`,
//!   the `erl` on `PATH`, the usual install paths, kerl and asdf layouts).
//! - [`load_libraries`]: OTP's library modules that the VM runs from
//!   source ([`racewit_vm::library::OTP_LIBRARY_MODULES`]), the code of
//!   dependency directories (`deps/*`, `_build/default/lib/*`), and every
//!   application resource file (`.app`, `.app.src`), parsed into a
//!   [`Libraries`].
//! - [`app_resource_files`]: the `.app.src`/`.app` files of application
//!   directories.
//!
//! The application resources, the OTP root and release reach the VM as one
//! generated Erlang module, `racewit_apps` (see [`apps_module_source`]),
//! which the modelled application controller and code server read.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use racewit_syntax::{LoadOptions, load_paths};
use racewit_vm::Libraries;
use racewit_vm::library::OTP_LIBRARY_MODULES;
use sha2::{Digest, Sha256};

pub mod beam;

/// An installed Erlang/OTP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtpInstall {
    /// What `code:root_dir()` returns (holds `lib/` and `releases/`).
    pub root: PathBuf,
    /// The OTP release, e.g. `25`.
    pub release: String,
}

impl OtpInstall {
    /// The installation at `root`, if it looks like one (a `lib/stdlib-*`
    /// directory with sources).
    pub fn at(root: &Path) -> Option<OtpInstall> {
        let install = OtpInstall {
            root: root.to_path_buf(),
            release: String::new(),
        };
        install.app_dir("stdlib")?;
        let release = std::fs::read_dir(root.join("releases"))
            .ok()
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
            .max_by_key(|n| n.parse::<u32>().unwrap_or(0))
            .unwrap_or_default();
        Some(OtpInstall { release, ..install })
    }

    /// `lib/`, where the applications are.
    pub fn lib_dir(&self) -> PathBuf {
        self.root.join("lib")
    }

    /// The directory of application `app` (`lib/app-VSN`, the highest
    /// version when there are several).
    pub fn app_dir(&self, app: &str) -> Option<PathBuf> {
        let prefix = format!("{app}-");
        std::fs::read_dir(self.lib_dir())
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n == app || n.starts_with(&prefix))
                    && p.is_dir()
            })
            .max_by(|a, b| version_key(a).cmp(&version_key(b)))
    }

    /// Every application directory under `lib/`, by application name.
    pub fn app_dirs(&self) -> BTreeMap<String, PathBuf> {
        let mut out: BTreeMap<String, PathBuf> = BTreeMap::new();
        let Ok(entries) = std::fs::read_dir(self.lib_dir()) else {
            return out;
        };
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort_by_key(|a| version_key(a));
        for d in dirs {
            let Some(name) = d.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let app = name.split_once('-').map_or(name, |(a, _)| a).to_string();
            out.insert(app, d);
        }
        out
    }

    /// The installation's export tables (read lazily, module by module).
    pub fn exports(&self) -> Arc<beam::BeamExports> {
        let mut ebins: Vec<PathBuf> = std::fs::read_dir(&self.root)
            .ok()
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("erts-"))
            })
            .map(|p| p.join("ebin"))
            .collect();
        ebins.sort();
        ebins.extend(self.app_dirs().into_values().map(|d| d.join("ebin")));
        Arc::new(beam::BeamExports::new(ebins))
    }

    /// Names of every module of the installation (its `ebin/*.beam` files
    /// and the emulator's preloaded modules).
    pub fn module_names(&self) -> BTreeSet<String> {
        let mut names: BTreeSet<String> = PRELOADED.iter().map(|s| s.to_string()).collect();
        for dir in self.app_dirs().values() {
            let Ok(entries) = std::fs::read_dir(dir.join("ebin")) else {
                continue;
            };
            for e in entries.filter_map(|e| e.ok()) {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "beam")
                    && let Some(stem) = p.file_stem().and_then(|s| s.to_str())
                {
                    names.insert(stem.to_string());
                }
            }
        }
        names
    }
}

/// Modules preloaded in the emulator (no `.beam` in `lib/`).
const PRELOADED: &[&str] = &[
    "erlang",
    "erts_internal",
    "init",
    "prim_file",
    "prim_inet",
    "prim_zip",
    "prim_eval",
    "prim_buffer",
    "prim_net",
    "prim_socket",
    "zlib",
    "erl_prim_loader",
    "erts_code_purger",
    "erl_init",
    "erl_tracer",
    "erts_dirty_process_signal_handler",
    "erts_literal_area_collector",
    "atomics",
    "counters",
    "persistent_term",
    "socket_registry",
];

/// Sort key of `app-1.2.10`: the version's numbers, so 1.2.10 > 1.2.9.
fn version_key(p: &Path) -> Vec<u64> {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let vsn = name.split_once('-').map_or("", |(_, v)| v);
    vsn.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or(0))
        .collect()
}

/// Where to look for an installed OTP (see [`discover`]).
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// `$RACEWIT_OTP_ROOT`.
    pub env_root: Option<PathBuf>,
    /// `$PATH`.
    pub path: Option<OsString>,
    /// `$HOME` (kerl and asdf installs).
    pub home: Option<PathBuf>,
    /// Ask the `erl` on `PATH` for its root when the path alone does not
    /// tell (it starts an emulator: about a second).
    pub ask_erl: bool,
}

impl Probe {
    /// This process's environment.
    pub fn from_env() -> Probe {
        Probe {
            env_root: std::env::var_os("RACEWIT_OTP_ROOT").map(PathBuf::from),
            path: std::env::var_os("PATH"),
            home: std::env::var_os("HOME").map(PathBuf::from),
            ask_erl: true,
        }
    }
}

/// Finds the installed OTP from this process's environment (see
/// [`discover_with`]).
pub fn discover() -> Option<OtpInstall> {
    discover_with(&Probe::from_env())
}

/// Finds an installed OTP, first match wins: `$RACEWIT_OTP_ROOT` (when set
/// it is the only place looked at: a wrong value is not silently replaced);
/// the root of the `erl` on `PATH` (following its symlinks, else asking
/// it); `/usr/lib/erlang`, `/usr/local/lib/erlang`, `/opt/homebrew/lib/erlang`,
/// `/opt/erlang`; the newest kerl (`~/kerl/*`, `~/.kerl/installs/*`) or asdf
/// (`~/.asdf/installs/erlang/*`) install.
pub fn discover_with(probe: &Probe) -> Option<OtpInstall> {
    if let Some(root) = &probe.env_root {
        return OtpInstall::at(root).or_else(|| OtpInstall::at(&root.join("lib/erlang")));
    }
    if let Some(erl) = probe.path.as_ref().and_then(|p| find_on_path(p, "erl")) {
        if let Some(found) = root_of_erl(&erl) {
            return Some(found);
        }
        if probe.ask_erl
            && let Some(found) = ask_erl_root(&erl)
        {
            return Some(found);
        }
    }
    for root in [
        "/usr/lib/erlang",
        "/usr/local/lib/erlang",
        "/opt/homebrew/lib/erlang",
        "/opt/erlang",
    ] {
        if let Some(found) = OtpInstall::at(Path::new(root)) {
            return Some(found);
        }
    }
    let home = probe.home.as_ref()?;
    let mut candidates: Vec<PathBuf> = Vec::new();
    for base in ["kerl", ".kerl/installs", ".asdf/installs/erlang"] {
        if let Ok(entries) = std::fs::read_dir(home.join(base)) {
            candidates.extend(entries.filter_map(|e| e.ok()).map(|e| e.path()));
        }
    }
    candidates.sort_by_key(|p| {
        let v: Vec<u64> = p
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap_or(0))
            .collect();
        v
    });
    candidates
        .iter()
        .rev()
        .find_map(|dir| OtpInstall::at(dir).or_else(|| OtpInstall::at(&dir.join("lib/erlang"))))
}

fn find_on_path(path: &OsString, name: &str) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The root of an `erl` found on `PATH`: `bin/erl`'s parent, or, for a
/// kerl/asdf-style prefix, its `lib/erlang`, after following symlinks.
fn root_of_erl(erl: &Path) -> Option<OtpInstall> {
    let real = std::fs::canonicalize(erl).ok()?;
    let bin = real.parent()?;
    let prefix = bin.parent()?;
    OtpInstall::at(prefix).or_else(|| OtpInstall::at(&prefix.join("lib/erlang")))
}

fn ask_erl_root(erl: &Path) -> Option<OtpInstall> {
    let out = std::process::Command::new(erl)
        .args([
            "-noshell",
            "-eval",
            "io:format(\"~s\", [code:root_dir()]), halt().",
        ])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    OtpInstall::at(Path::new(text.trim()))
}

/// The application resource files of an application directory: its
/// `src/*.app.src` (or `*.app.src` in the directory itself) and
/// `ebin/*.app`; for one application, the `.app` wins (it is what a
/// release loads).
pub fn app_resource_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
    for sub in [dir.to_path_buf(), dir.join("src")] {
        for p in files_in(&sub) {
            if let Some(app) = p
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".app.src"))
            {
                found.insert(app.to_string(), p);
            }
        }
    }
    for p in files_in(&dir.join("ebin")) {
        if p.extension().is_some_and(|x| x == "app")
            && let Some(app) = p.file_stem().and_then(|s| s.to_str())
        {
            found.insert(app.to_string(), p);
        }
    }
    found.into_iter().collect()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

/// One application resource: its name, where it was read, its text, the
/// application's directory (`code:lib_dir/1`) and where it comes from.
#[derive(Clone, Debug)]
pub struct AppResource {
    pub name: String,
    pub path: PathBuf,
    pub text: String,
    pub dir: PathBuf,
    pub origin: AppOrigin,
}

/// Where an application comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppOrigin {
    /// The installed OTP: started without running its callbacks.
    Otp,
    /// A dependency directory.
    Dep,
    /// The analysed code.
    App,
}

impl AppOrigin {
    fn as_str(self) -> &'static str {
        match self {
            AppOrigin::Otp => "otp",
            AppOrigin::Dep => "dep",
            AppOrigin::App => "app",
        }
    }
}

/// What [`load_libraries`] loads.
#[derive(Clone, Debug, Default)]
pub struct LibraryRequest {
    /// The installed OTP (none: the prelude alone runs).
    pub otp: Option<OtpInstall>,
    /// Dependency application directories (`deps/foo`,
    /// `_build/default/lib/foo`): their `src/**/*.erl` runs as library
    /// code and their resource files are loaded.
    pub dep_dirs: Vec<PathBuf>,
    /// The user's own application directories: only their resource files
    /// are loaded (their code is the analysed program).
    pub app_dirs: Vec<PathBuf>,
    /// What `file:get_cwd/0` answers (the directory racewit runs in);
    /// `/` when not given.
    pub cwd: Option<PathBuf>,
}

/// Load everything `request` names into the VM's [`Libraries`]. Sources
/// that fail to parse keep their diagnostics in their program; nothing
/// here fails.
pub fn load_libraries(request: &LibraryRequest) -> Libraries {
    let mut programs = Vec::new();
    let mut record = Vec::new();
    let mut digest = Sha256::new();
    let mut resources: BTreeMap<String, AppResource> = BTreeMap::new();

    // Dependencies first: a dependency's module wins over OTP's.
    let mut dep_dirs = request.dep_dirs.clone();
    dep_dirs.sort();
    dep_dirs.dedup();
    if !dep_dirs.is_empty() {
        let srcs: Vec<PathBuf> = dep_dirs
            .iter()
            .map(|d| d.join("src"))
            .filter(|d| d.is_dir())
            .collect();
        let mut lib_dirs: Vec<PathBuf> = dep_dirs
            .iter()
            .filter_map(|d| d.parent().map(Path::to_path_buf))
            .collect();
        lib_dirs.sort();
        lib_dirs.dedup();
        if let Some(otp) = &request.otp {
            lib_dirs.push(otp.lib_dir());
        }
        let opts = LoadOptions {
            include_dirs: dep_dirs.iter().map(|d| d.join("include")).collect(),
            lib_dirs,
            defines: Vec::new(),
            epp_includes_only: false,
        };
        if !srcs.is_empty() {
            let program = load_paths(&srcs, &opts);
            hash_program_sources(&program, &mut digest);
            programs.push(Arc::new(program));
        }
        for d in &dep_dirs {
            record.push(format!("dep {}", d.display()));
        }
    }

    let mut otp_modules = None;
    let mut exports: Option<Arc<dyn racewit_vm::library::ExportTables>> = None;
    if let Some(otp) = &request.otp {
        record.push(format!(
            "otp {} (OTP {})",
            otp.root.display(),
            if otp.release.is_empty() {
                "?"
            } else {
                &otp.release
            }
        ));
        let apps = otp.app_dirs();
        let mut paths = Vec::new();
        let mut include_dirs = Vec::new();
        for (app, module) in OTP_LIBRARY_MODULES {
            let Some(dir) = apps.get(*app) else { continue };
            let file = dir.join("src").join(format!("{module}.erl"));
            if file.is_file() {
                paths.push(file);
                for inc in [dir.join("include"), dir.join("src")] {
                    if !include_dirs.contains(&inc) {
                        include_dirs.push(inc);
                    }
                }
            }
        }
        let opts = LoadOptions {
            include_dirs,
            lib_dirs: vec![otp.lib_dir()],
            defines: Vec::new(),
            epp_includes_only: false,
        };
        let program = load_paths(&paths, &opts);
        hash_program_sources(&program, &mut digest);
        programs.push(Arc::new(program));
        for (app, dir) in &apps {
            let file = dir.join("ebin").join(format!("{app}.app"));
            if file.is_file() {
                add_resource(
                    &mut resources,
                    app.clone(),
                    file,
                    dir.clone(),
                    AppOrigin::Otp,
                );
            }
        }
        otp_modules = Some(Arc::new(otp.module_names()));
        exports = Some(otp.exports());
    }

    // A dependency's resource wins over OTP's, the user's over both.
    for d in &dep_dirs {
        for (name, path) in app_resource_files(d) {
            add_resource(&mut resources, name, path, d.clone(), AppOrigin::Dep);
        }
    }
    let mut app_dirs = request.app_dirs.clone();
    app_dirs.sort();
    app_dirs.dedup();
    for d in &app_dirs {
        for (name, path) in app_resource_files(d) {
            record.push(format!("app {}", path.display()));
            add_resource(&mut resources, name, path, d.clone(), AppOrigin::App);
        }
    }

    let resources: Vec<AppResource> = resources.into_values().collect();
    let cwd = request.cwd.clone().unwrap_or_else(|| PathBuf::from("/"));
    let text = apps_module_source(request.otp.as_ref(), &resources);
    digest.update(text.as_bytes());
    let apps = racewit_syntax::load_source("racewit_apps.erl", &text);
    programs.push(Arc::new(apps));
    let hex: String = digest
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    record.push(format!("sha256 {hex}"));
    let applications = resources
        .iter()
        .map(|r| racewit_vm::library::Application {
            name: r.name.clone(),
            dir: r.dir.clone(),
            analysed: r.origin == AppOrigin::App,
            start: resource_term(&r.text).and_then(|t| start_module(&t)),
        })
        .collect();
    Libraries {
        programs,
        otp_modules,
        record,
        exports,
        applications,
        cwd: Some(cwd.display().to_string()),
        cwd_names: request.cwd.as_deref().and_then(list_names),
    }
}

/// The names in the working directory (nothing of what they hold): the
/// run-local files take any other name there as absent. `None` when it
/// cannot be listed (then every name in it is the host's).
fn list_names(dir: &Path) -> Option<Arc<std::collections::BTreeSet<String>>> {
    let names = std::fs::read_dir(dir)
        .ok()?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_, _>>()
        .ok()?;
    Some(Arc::new(names))
}

/// The callback module of an application resource term's `{mod, {M, A}}`,
/// with the text of its start arguments `A`.
fn start_module(term: &str) -> Option<(String, String)> {
    use racewit_syntax::ir::{Expr, Literal};
    let src = format!("-module(racewit_app_term).\n-export([t/0]).\nt() ->\n{term}.\n");
    let p = racewit_syntax::load_source("racewit_app_term.erl", &src);
    let f = p.function("racewit_app_term", "t", 0)?;
    let b = &f.body;
    let atom = |e| match b.expr(e) {
        Expr::Lit(Literal::Atom(a)) => Some(a.to_string()),
        _ => None,
    };
    // Any `{mod, {M, _}}` in the term: it sits in the properties list of
    // `{application, Name, [...]}`, and nowhere else in a resource file.
    b.exprs.iter().find_map(|e| match e {
        Expr::Tuple(items) if items.len() == 2 && atom(items[0]).as_deref() == Some("mod") => {
            match b.expr(items[1]) {
                Expr::Tuple(cb) if cb.len() == 2 => {
                    // The arguments' text: what follows the module name in
                    // the `{M, A}` tuple's text.
                    let span = f.source_map.expr(items[1]);
                    let tuple = src.get(span.start as usize..span.end as usize)?;
                    let inner = tuple.trim().strip_prefix('{')?.strip_suffix('}')?;
                    let (_, args) = inner.split_once(',')?;
                    let args = args.trim();
                    let m = atom(cb[0])?;
                    (!args.is_empty()).then(|| (m, args.to_string()))
                }
                _ => None,
            }
        }
        _ => None,
    })
}

/// Later resources win: the user's own over a dependency's over OTP's.
fn add_resource(
    resources: &mut BTreeMap<String, AppResource>,
    name: String,
    path: PathBuf,
    dir: PathBuf,
    origin: AppOrigin,
) {
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    resources.insert(
        name.clone(),
        AppResource {
            name,
            path,
            text,
            dir,
            origin,
        },
    );
}

fn hash_program_sources(program: &racewit_syntax::ir::Program, digest: &mut Sha256) {
    for (_, file) in program.sources.iter() {
        digest.update(file.path.display().to_string().as_bytes());
        digest.update(file.text.as_bytes());
    }
}

/// The Erlang source of `racewit_apps`, the module through which the
/// modelled application controller and code server learn about the
/// installation: `root_dir/0`, `otp_release/0`, `resource/1` (an
/// application's resource term, or `undefined`), `dir/1` (its directory,
/// or `undefined`), `all/0` (the application names).
pub fn apps_module_source(otp: Option<&OtpInstall>, resources: &[AppResource]) -> String {
    let mut s = String::new();
    s.push_str("%% Generated by racewit-otp: the applications and OTP install a run sees.\n");
    s.push_str("-module(racewit_apps).\n");
    s.push_str("-export([root_dir/0, otp_release/0, resource/1, dir/1, origin/1, all/0]).\n\n");
    let root = otp.map_or_else(
        || crate::DEFAULT_ROOT.to_string(),
        |o| o.root.display().to_string(),
    );
    let release = otp
        .map(|o| o.release.clone())
        .filter(|r| !r.is_empty())
        .unwrap_or_else(|| "25".to_string());
    s.push_str(&format!("root_dir() -> {}.\n", erl_string(&root)));
    s.push_str(&format!("otp_release() -> {}.\n\n", erl_string(&release)));
    let mut names = Vec::new();
    for r in resources {
        let Some(term) = resource_term(&r.text) else {
            continue;
        };
        names.push(erl_atom(&r.name));
        s.push_str(&format!(
            "%% {}\nresource({}) ->\n{};\n",
            r.path.display().to_string().replace('\n', " "),
            erl_atom(&r.name),
            term
        ));
    }
    s.push_str("resource(_) -> undefined.\n\n");
    for r in resources {
        s.push_str(&format!(
            "dir({}) -> {};\n",
            erl_atom(&r.name),
            erl_string(&r.dir.display().to_string())
        ));
    }
    s.push_str("dir(_) -> undefined.\n\n");
    for r in resources {
        s.push_str(&format!(
            "origin({}) -> {};\n",
            erl_atom(&r.name),
            r.origin.as_str()
        ));
    }
    s.push_str("origin(_) -> undefined.\n\n");
    s.push_str(&format!("all() -> [{}].\n", names.join(", ")));
    s
}

/// `code:root_dir()` when no OTP was found.
pub const DEFAULT_ROOT: &str = "/usr/lib/erlang";

/// A resource file's term as an expression: its text up to the final
/// `.` (comments kept: they are comments in the generated module too).
fn resource_term(text: &str) -> Option<String> {
    let body = strip_comments_tail(text);
    let t = body.trim_end();
    let t = t.strip_suffix('.')?;
    if t.trim().is_empty() {
        return None;
    }
    Some(t.to_string())
}

/// The text with trailing comment lines removed (a final `%% end` after
/// the dot would hide it).
fn strip_comments_tail(text: &str) -> &str {
    let mut end = text.len();
    loop {
        let head = text[..end].trim_end();
        match head.rfind('\n') {
            Some(i) if head[i + 1..].trim_start().starts_with('%') => end = i,
            None if head.trim_start().starts_with('%') => return "",
            _ => return head,
        }
    }
}

fn erl_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn erl_atom(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@');
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// The libraries of the OTP found from this process's environment and no
/// dependencies, loaded once per process: for tests and tools that run
/// many programs on the same installation.
pub fn installed() -> Arc<Libraries> {
    static LIBS: std::sync::OnceLock<Arc<Libraries>> = std::sync::OnceLock::new();
    LIBS.get_or_init(|| {
        Arc::new(load_libraries(&LibraryRequest {
            otp: discover(),
            ..LibraryRequest::default()
        }))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_module_is_the_mod_property() {
        assert_eq!(
            start_module(
                "{application, a, [{vsn, \"1\"}, {mod, {a_app, [{port, 80}]}}, {env, [{mod, x}]}]}"
            ),
            Some(("a_app".to_string(), "[{port, 80}]".to_string()))
        );
        assert_eq!(
            start_module("{application, b, [{mod, {b_app, []}}]}"),
            Some(("b_app".to_string(), "[]".to_string()))
        );
        assert_eq!(start_module("{application, lib, [{modules, []}]}"), None);
    }

    #[test]
    fn resource_terms_lose_their_final_dot_only() {
        assert_eq!(
            resource_term("{application, a, []}.\n%% end\n").as_deref(),
            Some("{application, a, []}")
        );
        assert_eq!(resource_term("%% nothing\n"), None);
        assert_eq!(resource_term("{a, b}"), None);
    }

    #[test]
    fn versions_sort_by_number() {
        let mut v = [
            PathBuf::from("lib/stdlib-4.2.10"),
            PathBuf::from("lib/stdlib-4.2.9"),
        ];
        v.sort_by_key(|p| version_key(p));
        assert_eq!(v[1], PathBuf::from("lib/stdlib-4.2.10"));
    }

    #[test]
    fn an_otp_root_is_found_from_the_variable_and_from_kerl_layouts() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().join("kerl/25.3");
        std::fs::create_dir_all(root.join("lib/stdlib-4.3/src")).expect("mkdir");
        std::fs::create_dir_all(root.join("releases/25")).expect("mkdir");
        let probe = Probe {
            env_root: Some(root.clone()),
            ..Probe::default()
        };
        let found = discover_with(&probe).expect("found by $RACEWIT_OTP_ROOT");
        assert_eq!(found.root, root);
        assert_eq!(found.release, "25");
        let wrong = Probe {
            env_root: Some(tmp.path().join("nowhere")),
            ..Probe::default()
        };
        assert_eq!(discover_with(&wrong), None);
        let layout = tmp.path().join("asdfhome/.asdf/installs/erlang/25.3.2");
        std::fs::create_dir_all(layout.join("lib/erlang/lib/stdlib-4.3/src")).expect("mkdir");
        let found = OtpInstall::at(&layout.join("lib/erlang")).expect("asdf layout");
        assert_eq!(found.release, "");
    }

    #[test]
    fn resource_files_prefer_ebin() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let d = tmp.path().join("myapp");
        std::fs::create_dir_all(d.join("src")).expect("mkdir");
        std::fs::create_dir_all(d.join("ebin")).expect("mkdir");
        std::fs::write(d.join("src/myapp.app.src"), "{application, myapp, []}.").expect("w");
        std::fs::write(d.join("src/other.app.src"), "{application, other, []}.").expect("w");
        std::fs::write(
            d.join("ebin/myapp.app"),
            "{application, myapp, [{vsn, \"1\"}]}.",
        )
        .expect("w");
        let found = app_resource_files(&d);
        assert_eq!(found.len(), 2);
        assert!(found[0].1.ends_with("ebin/myapp.app"));
        assert!(found[1].1.ends_with("src/other.app.src"));
    }

    #[test]
    fn the_apps_module_parses() {
        let res = vec![AppResource {
            name: "my_app".into(),
            path: PathBuf::from("src/my_app.app.src"),
            text: "%% c\n{application, my_app, [{vsn, \"1\"}]}.\n".into(),
            dir: PathBuf::from("/x/my_app"),
            origin: AppOrigin::App,
        }];
        let text = apps_module_source(None, &res);
        let p = racewit_syntax::load_source("racewit_apps.erl", &text);
        assert!(p.diagnostics.is_empty(), "{text}\n{:?}", p.diagnostics);
        assert!(p.function("racewit_apps", "resource", 1).is_some());
    }
}
