//! The library code a VM runs besides the user's program, and what a call
//! to code that is not there means.
//!
//! The VM reads no files: whoever builds the [`VmConfig`](crate::VmConfig)
//! (the CLI, through `racewit-otp`) finds the installed OTP and the
//! dependencies, parses their sources and hands them in as [`Libraries`].
//! Library modules run from their real source; the hand-written prelude
//! (`prelude/*.erl`) serves where no library module of that name is loaded.
//!
//! A call to a module that is loaded nowhere stops the calling process
//! with a [`ParkReason`] that says why, or raises `undef` as the BEAM
//! would (see [`classify_missing`]).

use std::collections::BTreeSet;
use std::sync::Arc;

use racewit_syntax::ir::Program;

/// Library programs and what is known of the installed OTP.
#[derive(Clone, Debug, Default)]
pub struct Libraries {
    /// Library modules parsed from source (OTP's own, dependencies'); on a
    /// name clash the earlier program wins. They win over the prelude.
    pub programs: Vec<Arc<Program>>,
    /// Names of every module of the installed OTP (from its `ebin`
    /// directories), when one was found.
    pub otp_modules: Option<Arc<BTreeSet<String>>>,
    /// What was loaded, one line per source (the OTP root and release,
    /// each dependency directory), for a witness's load record.
    pub record: Vec<String>,
    /// The installed OTP's export tables, asked for a module racewit only
    /// stands in for (or runs as BIFs): a function the real module lacks is
    /// `undef`, not an unsupported call.
    pub exports: Option<Arc<dyn ExportTables>>,
    /// The applications the modelled application controller knows (their
    /// resource files), in name order: what a harness may boot.
    pub applications: Vec<Application>,
    /// The working directory racewit runs in: what `file:get_cwd/0`
    /// answers and what relative file names are taken against (`/` when
    /// none was given).
    pub cwd: Option<String>,
    /// The names in the working directory when the loader listed it (the
    /// run-local files take any other name in it as absent; see
    /// `files::Cwd`). Nothing in it is read.
    pub cwd_names: Option<Arc<BTreeSet<String>>>,
}

/// An application whose resource file (`.app`, `.app.src`) was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    pub name: String,
    /// Its directory (holding `src/`, `ebin/`).
    pub dir: std::path::PathBuf,
    /// Part of the analysed code (not OTP's, not a dependency's).
    pub analysed: bool,
    /// The callback module its `{mod, {M, Args}}` names and the text of
    /// `Args`: booting it starts something (a library application has none).
    pub start: Option<(String, String)>,
}

/// A module's exports: (function name, arity).
pub type Exports = Arc<BTreeSet<(String, u32)>>;

/// The functions modules of the installed OTP export, as its `.beam` files
/// say. Implemented by whoever found the OTP (the VM reads no files).
pub trait ExportTables: Send + Sync + std::fmt::Debug {
    /// `module`'s exports, or `None` when the installed OTP has no such
    /// module or its export table cannot be read.
    fn exports(&self, module: &str) -> Option<Exports>;
}

impl Libraries {
    /// No libraries: the prelude alone runs, and nothing is known of OTP.
    pub fn none() -> Arc<Libraries> {
        static NONE: std::sync::OnceLock<Arc<Libraries>> = std::sync::OnceLock::new();
        NONE.get_or_init(|| Arc::new(Libraries::default())).clone()
    }

    /// Whether an installed OTP was found.
    pub fn has_otp(&self) -> bool {
        self.otp_modules.is_some()
    }

    /// What the installed OTP's module `module` exports, when known.
    pub fn otp_exports(&self, module: &str) -> Option<Exports> {
        self.exports.as_ref()?.exports(module)
    }
}

/// OTP modules that run on racewit's VM from their real source, by
/// application. A loader takes each one it finds in the installed OTP.
pub const OTP_LIBRARY_MODULES: &[(&str, &str)] = &[
    ("stdlib", "lists"),
    ("stdlib", "proplists"),
    ("stdlib", "orddict"),
    ("stdlib", "ordsets"),
    ("stdlib", "queue"),
    ("stdlib", "sets"),
    ("stdlib", "dict"),
    ("stdlib", "gb_trees"),
    ("stdlib", "gb_sets"),
    ("stdlib", "array"),
    ("stdlib", "calendar"),
    ("stdlib", "string"),
    ("stdlib", "unicode_util"),
    ("stdlib", "base64"),
    ("stdlib", "maps"),
    ("stdlib", "filename"),
    ("stdlib", "filelib"),
    ("stdlib", "uri_string"),
    ("stdlib", "digraph"),
    ("stdlib", "digraph_utils"),
    ("stdlib", "sofs"),
    ("stdlib", "rand"),
    ("stdlib", "random"),
    ("stdlib", "io_lib"),
    ("stdlib", "io_lib_format"),
    ("stdlib", "io_lib_pretty"),
    ("stdlib", "io_lib_fread"),
    ("stdlib", "erl_scan"),
    ("stdlib", "erl_anno"),
    ("stdlib", "unicode"),
    ("stdlib", "re"),
    ("stdlib", "qlc"),
    ("stdlib", "gen"),
    // What programs that build a module at run time call (goldrush's
    // glc_code, mochiglobal): the trees, then `compile:forms/1,2`.
    ("syntax_tools", "erl_syntax"),
    ("syntax_tools", "erl_syntax_lib"),
    ("kernel", "inet_parse"),
    ("kernel", "inet"),
    ("kernel", "erpc"),
    ("kernel", "rpc"),
];

/// An OTP application racewit's VM models instead of running: calls of its
/// API module are the VM's built-ins (`bif/`) and the prelude's model of
/// it, over a store the VM keeps, so the application's own processes and
/// internal modules never run. A program's own source of the API module is
/// never loaded over the model (see [`modelled_api`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModelledApplication {
    /// The application's name (`mnesia`).
    pub name: &'static str,
    /// The module whose calls are the model (`mnesia`).
    pub api: &'static str,
}

/// mnesia: a single-node, in-memory store (`crate::mnesia`); `mnesia:*`
/// calls are built-ins and the prelude's `mnesia` module.
pub const MNESIA: ModelledApplication = ModelledApplication {
    name: "mnesia",
    api: "mnesia",
};

/// Every application racewit models instead of running: the one list the
/// loader, the BIF table and confirmation read.
pub const MODELLED_APPLICATIONS: &[ModelledApplication] = &[MNESIA];

/// The modelled application named `name`, if racewit models it.
pub fn modelled_application(name: &str) -> Option<&'static ModelledApplication> {
    MODELLED_APPLICATIONS.iter().find(|a| a.name == name)
}

/// The modelled application whose API module is `module` (`mnesia`), if
/// any: a program's source of that module is not loaded, the model serves.
pub fn modelled_api(module: &str) -> Option<&'static ModelledApplication> {
    MODELLED_APPLICATIONS.iter().find(|a| a.api == module)
}

/// Modules whose work touches the host (files, ports, sockets, the shell,
/// native code): a call into one never runs, whatever is loaded.
pub const HOST_MODULES: &[&str] = &[
    "file",
    "prim_file",
    "file_io_server",
    "file_server",
    "ram_file",
    "erl_prim_loader",
    "gen_tcp",
    "gen_udp",
    "gen_sctp",
    "socket",
    "prim_socket",
    "prim_inet",
    "inet_tcp",
    "inet6_tcp",
    "inet_udp",
    "inet_db",
    "inet_res",
    "inet_gethost_native",
    "ssl",
    "httpc",
    "httpd",
    "ftp",
    "tftp",
    "open_port",
    "erl_ddll",
    "disk_log",
    "dets",
    "os_mon",
    "port",
];

/// Functions that touch the host inside modules that are otherwise modelled.
const HOST_FUNCTIONS: &[(&str, &str)] = &[
    ("os", "cmd"),
    // Opens a log file on the host through error_logger_file_h.
    ("error_logger", "logfile"),
    ("erlang", "open_port"),
    ("erlang", "load_nif"),
    ("erlang", "port_command"),
    ("erlang", "port_control"),
    ("erlang", "port_call"),
    ("code", "load_abs"),
    ("code", "add_path"),
    ("code", "add_patha"),
    ("code", "add_pathz"),
    ("code", "add_paths"),
    ("code", "add_pathsa"),
    ("code", "add_pathsz"),
    ("code", "del_path"),
    ("code", "set_path"),
    ("inet", "gethostname"),
    ("inet", "getaddr"),
    ("inet", "getaddrs"),
    ("inet", "gethostbyname"),
    ("inet", "gethostbyaddr"),
    ("inet", "getifaddrs"),
    ("inet", "setopts"),
    ("inet", "getopts"),
    ("inet", "peername"),
    ("inet", "sockname"),
    ("inet", "port"),
    ("inet", "close"),
];

/// Why a process stopped at a call instead of running it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParkReason {
    /// racewit's VM cannot run it: an OTP module it does not run, or a
    /// function its partial stand-in of an OTP module lacks.
    Unsupported,
    /// It would touch the host: files, ports, sockets, the shell, NIFs.
    Host,
    /// The module is loaded nowhere and is not part of OTP: a dependency
    /// outside the analysed paths.
    NotLoaded,
    /// An OTP library module, and no installed OTP was found to load it from.
    NoOtp,
    /// Not a call: the process ran [`crate::VmConfig::max_step_reductions`]
    /// reductions without a visible action (a busy loop), and is run no
    /// further; it stays alive and still takes exit signals.
    BusyLoop,
}

impl ParkReason {
    /// A stable name (`unsupported`, `host`, `not_loaded`, `no_otp`).
    pub fn as_str(self) -> &'static str {
        match self {
            ParkReason::Unsupported => "unsupported",
            ParkReason::Host => "host",
            ParkReason::NotLoaded => "not_loaded",
            ParkReason::NoOtp => "no_otp",
            ParkReason::BusyLoop => "busy_loop",
        }
    }

    /// What a user reads: `not loaded: gen_leader:start_link/6 (...)`.
    pub fn describe(self, call: &str) -> String {
        match self {
            ParkReason::Unsupported => format!("unsupported call {call}"),
            ParkReason::Host => format!("unsupported call {call} (it touches the host: never run)"),
            ParkReason::NotLoaded => format!(
                "not loaded: {call} (a dependency outside the analysed paths; add deps/ or \
                 _build/default/lib, or -pa)"
            ),
            ParkReason::NoOtp => format!(
                "{call}: needs OTP's library code, and no installed OTP was found (install \
                 Erlang/OTP or set RACEWIT_OTP_ROOT)"
            ),
            ParkReason::BusyLoop => {
                format!("{call}: run no further (it stays alive and still takes exit signals)")
            }
        }
    }
}

/// What a call to a module that is not loaded does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// `undef`, as on the BEAM: a module that exists nowhere and that no
    /// loaded code names (its name was made at run time).
    Undef,
    Park(ParkReason),
}

/// `erlang:pre_loaded()` of OTP 25, in its order: the modules the BEAM has
/// before any code is loaded, which no loaded code can replace.
pub const PRE_LOADED: &[&str] = &[
    "persistent_term",
    "counters",
    "atomics",
    "erts_dirty_process_signal_handler",
    "erts_literal_area_collector",
    "erl_tracer",
    "erts_internal",
    "erlang",
    "erl_prim_loader",
    "prim_zip",
    "prim_net",
    "prim_socket",
    "socket_registry",
    "zlib",
    "prim_file",
    "prim_inet",
    "prim_eval",
    "prim_buffer",
    "init",
    "erl_init",
    "erts_code_purger",
];

/// Is `module` preloaded in the BEAM (`erlang`, `init`, `prim_file`, ...)?
/// A program's source of one (OTP's erts/src) is never what runs: the
/// BEAM cannot load over a preloaded module, and racewit's VM implements
/// them itself.
pub fn is_preloaded(module: &str) -> bool {
    PRE_LOADED.contains(&module)
}

/// Whether a call into `module:function` touches the host.
pub fn touches_host(module: &str, function: &str) -> bool {
    HOST_MODULES.contains(&module)
        || HOST_FUNCTIONS
            .iter()
            .any(|&(m, f)| m == module && f == function)
}

/// Atoms that code uses as values, never as the name of a dependency.
const VALUE_ATOMS: &[&str] = &["undefined", "true", "false"];

/// Is `module` one of the OTP library modules racewit runs from source?
pub fn is_otp_library_module(module: &str) -> bool {
    OTP_LIBRARY_MODULES.iter().any(|&(_, m)| m == module)
}

/// A call to `module:function`, where no loaded code defines `module`.
/// `named` says whether loaded code names the module (as a call target or
/// an atom): then it is a dependency that is missing, not a typo at run
/// time. The atoms Erlang code uses as values, `undefined` (no value set)
/// and the booleans, name no dependency even where the code writes them:
/// a call on one comes from a value that was never set (a handler module
/// read from an unset application variable, say), and is `undef`, as on
/// the BEAM.
pub fn classify_missing(libs: &Libraries, module: &str, function: &str, named: bool) -> Missing {
    if touches_host(module, function) {
        return Missing::Park(ParkReason::Host);
    }
    let named = named && !VALUE_ATOMS.contains(&module);
    match &libs.otp_modules {
        Some(otp) if otp.contains(module) => Missing::Park(ParkReason::Unsupported),
        Some(_) if named => Missing::Park(ParkReason::NotLoaded),
        Some(_) => Missing::Undef,
        None if is_otp_library_module(module) => Missing::Park(ParkReason::NoOtp),
        None if named => Missing::Park(ParkReason::NotLoaded),
        // With no OTP installed, OTP 25's module names still tell a module
        // of OTP's (which the real node would have) from one that exists
        // nowhere.
        None if is_otp25_module(module) => Missing::Park(ParkReason::Unsupported),
        None => Missing::Undef,
    }
}

/// Whether OTP 25's `module` exports `function/arity`, for the modules
/// racewit runs itself, as BIFs or as the prelude's stand-ins (from
/// `otp25_exports.txt`); `None` for any other module.
pub fn otp25_exports(module: &str, function: &str, arity: u32) -> Option<bool> {
    type Table = std::collections::HashMap<&'static str, Vec<(&'static str, u32)>>;
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = Table::new();
        for line in include_str!("otp25_exports.txt").lines() {
            if line.starts_with('#') {
                continue;
            }
            let Some((m, fa)) = line.split_once(':') else {
                continue;
            };
            let Some((f, a)) = fa.rsplit_once('/') else {
                continue;
            };
            if let Ok(a) = a.parse() {
                t.entry(m).or_default().push((f, a));
            }
        }
        t
    });
    let exports = table.get(module)?;
    Some(exports.iter().any(|&(f, a)| f == function && a == arity))
}

/// Is `module` one of Erlang/OTP 25's modules (any application)? Known
/// without an installed OTP, from the list in `otp25_modules.txt`.
pub fn is_otp25_module(module: &str) -> bool {
    static NAMES: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            include_str!("otp25_modules.txt")
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect()
        })
        .contains(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn otp(names: &[&str]) -> Libraries {
        Libraries {
            otp_modules: Some(Arc::new(names.iter().map(|s| s.to_string()).collect())),
            ..Libraries::default()
        }
    }

    #[test]
    fn a_missing_module_is_named_by_what_is_known() {
        let with = otp(&["ssl", "sets", "mnesia_lib"]);
        let check =
            |libs: &Libraries, m: &str, f: &str, named: bool| classify_missing(libs, m, f, named);
        assert_eq!(
            check(&with, "mnesia_lib", "x", true),
            Missing::Park(ParkReason::Unsupported)
        );
        assert_eq!(
            check(&with, "gen_leader", "start_link", true),
            Missing::Park(ParkReason::NotLoaded)
        );
        assert_eq!(check(&with, "no_such_mod", "f", false), Missing::Undef);
        // An unset value's atom is no dependency, though the code names it.
        assert_eq!(
            check(&with, "undefined", "module_info", true),
            Missing::Undef
        );
        assert_eq!(
            check(&Libraries::default(), "undefined", "f", true),
            Missing::Undef
        );
        assert_eq!(
            check(&with, "ssl", "connect", true),
            Missing::Park(ParkReason::Host)
        );
        let without = Libraries::default();
        assert_eq!(
            check(&without, "sets", "new", true),
            Missing::Park(ParkReason::NoOtp)
        );
        assert_eq!(
            check(&without, "gen_leader", "start_link", true),
            Missing::Park(ParkReason::NotLoaded)
        );
        // A name made at run time: undef when OTP 25 has no such module,
        // as on the BEAM; unsupported when OTP has it (racewit cannot load
        // it without an installed OTP).
        assert_eq!(check(&without, "made_up", "f", false), Missing::Undef);
        assert_eq!(
            check(&without, "wxFrame", "new", false),
            Missing::Park(ParkReason::Unsupported)
        );
        assert!(is_otp25_module("gen_server") && is_otp25_module("erlang"));
        assert_eq!(otp25_exports("lists", "map", 2), Some(true));
        assert_eq!(otp25_exports("lists", "no_such_function", 0), Some(false));
        assert_eq!(otp25_exports("gen_server", "call", 3), Some(true));
        assert_eq!(otp25_exports("erlang", "=:=", 2), Some(true));
        assert_eq!(otp25_exports("erlang", "nofun", 0), Some(false));
        assert_eq!(otp25_exports("made_up", "f", 0), None);
        assert!(!is_otp25_module("made_up") && !is_otp25_module("# The module names"));
        assert_eq!(
            check(&without, "os", "cmd", false),
            Missing::Park(ParkReason::Host)
        );
    }

    #[test]
    fn reasons_read_as_the_issue_asks() {
        assert_eq!(
            ParkReason::NotLoaded.describe("gen_leader:start_link/6"),
            "not loaded: gen_leader:start_link/6 (a dependency outside the analysed paths; \
             add deps/ or _build/default/lib, or -pa)"
        );
    }
}
