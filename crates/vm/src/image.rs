//! A program ready to run ([`Image`]): the prelude and the libraries
//! compiled once per OS process, with the BIFs, and the user's modules
//! indexed on top; and the VMs made from one.

use std::sync::{Arc, OnceLock};

use racewit_syntax::ir::Program;

use crate::code::{CodeTable, Origin, compile_onto, compile_programs};
use crate::vm::{Vm, VmConfig};

static PRELUDE: OnceLock<Vec<Arc<Program>>> = OnceLock::new();

/// The prelude modules, parsed once per process.
pub fn prelude_programs() -> &'static [Arc<Program>] {
    PRELUDE.get_or_init(|| crate::prelude::load().into_iter().map(Arc::new).collect())
}

/// The prelude and libraries compiled once per process (per set of libraries).
fn base_code(prelude: bool, libs: &Arc<crate::library::Libraries>) -> Arc<CodeTable> {
    type Cache = std::sync::Mutex<Vec<((bool, Vec<usize>), Arc<CodeTable>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let libraries = &libs.programs;
    let mut ptrs: Vec<usize> = libraries.iter().map(|l| Arc::as_ptr(l) as usize).collect();
    ptrs.push(
        libs.otp_modules
            .as_ref()
            .map_or(0, |m| Arc::as_ptr(m) as usize),
    );
    let key = (prelude, ptrs);
    let cache = CACHE.get_or_init(Default::default);
    if let Some((_, t)) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| *k == key)
    {
        return t.clone();
    }
    // OTP's own modules first: where both exist (lists, proplists...) they win
    // over the prelude's stand-ins, which serve when no OTP is installed.
    let mut programs: Vec<(&Arc<Program>, Origin)> =
        libraries.iter().map(|p| (p, Origin::Library)).collect();
    if prelude {
        programs.extend(prelude_programs().iter().map(|p| (p, Origin::Prelude)));
    }
    let mut table = compile_programs(crate::bif::names(), &programs);
    table.libraries = libs.clone();
    // Compiled here, in the base's own context: every table built on this
    // base shares these modules, so their calls must not resolve to a
    // module some user program adds on top.
    for mi in 0..table.modules.len() as u32 {
        table.functions(mi);
    }
    let table = Arc::new(table);
    let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
    guard.push((key, table.clone()));
    table
}

/// A program ready to run: its modules indexed on top of the prelude and
/// libraries, and compiled as they are first entered. Every VM made from one
/// image shares its code, so checking many suspects of one program compiles
/// each module it runs once, and only those.
#[derive(Clone)]
pub struct Image {
    program: Arc<Program>,
    code: Arc<CodeTable>,
}

impl Image {
    /// `program` on top of the prelude (unless `config` disables it) and
    /// `config.libraries`; the user's modules win on name clashes, then the
    /// libraries, then the prelude.
    pub fn new(program: Arc<Program>, config: &VmConfig) -> Image {
        let base = base_code(config.prelude, &config.libraries);
        let mut code = compile_onto(&base, &[(&program, Origin::User)]);
        code.libraries = config.libraries.clone();
        Image {
            program,
            code: Arc::new(code),
        }
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The files of the user's modules that runs of this image have entered
    /// (compiled on entry: see [`crate::code::CodeTable::functions`]), sorted.
    /// On a fresh image after one run: the modules that run executed.
    pub fn entered_files(&self) -> Vec<std::path::PathBuf> {
        self.code
            .modules
            .iter()
            .filter(|m| m.origin == crate::code::Origin::User && m.is_compiled())
            .filter_map(|m| m.source_path())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    }
}

impl Vm {
    /// A VM for `program` (plus the prelude unless disabled in `config`,
    /// and `config.libraries`).
    pub fn new(program: Arc<Program>, config: VmConfig) -> Vm {
        let image = Image::new(program, &config);
        Vm::from_image(&image, config)
    }

    /// A fresh VM running `image`'s code (shared, not copied). `config`'s
    /// code settings (`prelude`, `libraries`) are the image's; its limits
    /// are this VM's.
    pub fn from_image(image: &Image, config: VmConfig) -> Vm {
        Vm::with_code(image.program.clone(), image.code.clone(), config)
    }
}
