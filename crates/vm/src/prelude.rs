//! The Erlang prelude: OTP behaviours and library modules written in Erlang
//! (`crates/vm/prelude/*.erl`), embedded and loaded through the front end.
//! BIFs the BEAM implements in C are in Rust (`bif`).

use racewit_syntax::ir::Program;

/// `(file name, source)` of every prelude module.
pub const SOURCES: &[(&str, &str)] = &[
    ("prelude/lists.erl", include_str!("../prelude/lists.erl")),
    ("prelude/maps.erl", include_str!("../prelude/maps.erl")),
    (
        "prelude/proplists.erl",
        include_str!("../prelude/proplists.erl"),
    ),
    (
        "prelude/gen_server.erl",
        include_str!("../prelude/gen_server.erl"),
    ),
    (
        "prelude/supervisor.erl",
        include_str!("../prelude/supervisor.erl"),
    ),
    (
        "prelude/gen_event.erl",
        include_str!("../prelude/gen_event.erl"),
    ),
    (
        "prelude/proc_lib.erl",
        include_str!("../prelude/proc_lib.erl"),
    ),
    ("prelude/timer.erl", include_str!("../prelude/timer.erl")),
    ("prelude/mnesia.erl", include_str!("../prelude/mnesia.erl")),
    ("prelude/global.erl", include_str!("../prelude/global.erl")),
    ("prelude/logger.erl", include_str!("../prelude/logger.erl")),
    ("prelude/code.erl", include_str!("../prelude/code.erl")),
    ("prelude/epp.erl", include_str!("../prelude/epp.erl")),
    (
        "prelude/erl_features.erl",
        include_str!("../prelude/erl_features.erl"),
    ),
    ("prelude/file.erl", include_str!("../prelude/file.erl")),
    (
        "prelude/racewit_file_io.erl",
        include_str!("../prelude/racewit_file_io.erl"),
    ),
    (
        "prelude/net_kernel.erl",
        include_str!("../prelude/net_kernel.erl"),
    ),
    (
        "prelude/application.erl",
        include_str!("../prelude/application.erl"),
    ),
    (
        "prelude/racewit_app_master.erl",
        include_str!("../prelude/racewit_app_master.erl"),
    ),
    (
        "prelude/racewit_apps.erl",
        include_str!("../prelude/racewit_apps.erl"),
    ),
    (
        "prelude/error_logger.erl",
        include_str!("../prelude/error_logger.erl"),
    ),
    ("prelude/ets.erl", include_str!("../prelude/ets.erl")),
    ("prelude/string.erl", include_str!("../prelude/string.erl")),
    ("prelude/sys.erl", include_str!("../prelude/sys.erl")),
    (
        "prelude/gen_statem.erl",
        include_str!("../prelude/gen_statem.erl"),
    ),
    (
        "prelude/racewit_statem.erl",
        include_str!("../prelude/racewit_statem.erl"),
    ),
    (
        "prelude/orddict.erl",
        include_str!("../prelude/orddict.erl"),
    ),
    (
        "prelude/ordsets.erl",
        include_str!("../prelude/ordsets.erl"),
    ),
];

/// Parse every prelude module (each file is its own [`Program`]).
pub fn load() -> Vec<Program> {
    SOURCES
        .iter()
        .map(|(path, text)| racewit_syntax::load_source(path, text))
        .collect()
}
