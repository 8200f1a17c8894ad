//! A program ready to run ([`Image`]): the prelude and the libraries
//! compiled once per OS process, with the BIFs, and the user's modules
//! indexed on top; and the VMs made from one.

use std::sync::{Arc, OnceLock};

use racewit_syntax::ir::Program;

use crate::code::{CodeTable, Origin, compile_onto, compile_over, compile_programs};
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
        Image::layered(&[program], config)
    }

    /// Several programs on top of the prelude and libraries, as
    /// [`Image::new`] loads one: the user's and, over it, generated modules
    /// (a suspect's harnesses). The last program is the image's
    /// [`Image::program`]: its files must be every earlier program's, in
    /// the same order, then its own (so every span names the same file in
    /// all of them). Earlier programs win on name clashes.
    pub fn layered(programs: &[Arc<Program>], config: &VmConfig) -> Image {
        let base = base_code(config.prelude, &config.libraries);
        let loads: Vec<(&Arc<Program>, Origin)> =
            programs.iter().map(|p| (p, Origin::User)).collect();
        let mut code = compile_onto(&base, &loads);
        code.libraries = config.libraries.clone();
        Image {
            program: programs.last().cloned().unwrap_or_default(),
            code: Arc::new(code),
        }
    }

    /// `top`'s modules laid over this image (a suspect's harnesses over
    /// the user's program): this image's code is shared, compiled modules
    /// included, and what `top` adds is dropped with the new image. `top`'s
    /// files must be this image's program's, then its own (see
    /// [`Image::layered`]); it is the new image's [`Image::program`].
    pub fn overlay(&self, top: Arc<Program>) -> Image {
        let mut code = compile_over(&self.code, &[(&top, Origin::User)]);
        code.libraries = self.code.libraries.clone();
        Image {
            program: top,
            code: Arc::new(code),
        }
    }

    /// The program whose files every span of the image's code names (the
    /// top layer's).
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// How many modules the image has loaded (prelude and libraries
    /// included), and how many of them are compiled.
    pub fn loaded_modules(&self) -> (usize, usize) {
        let compiled = self.code.modules.iter().filter(|m| m.is_compiled()).count();
        (self.code.modules.len(), compiled)
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use racewit_syntax::ir::Program;

    use super::Image;
    use crate::vm::{Vm, VmConfig};

    /// `top_src` loaded as generated modules over `under` (its files first).
    fn over(under: &Program, path: &str, top_src: &str) -> Arc<Program> {
        let mut top = Program {
            sources: under.sources.clone(),
            ..Program::default()
        };
        top.absorb(racewit_syntax::load_source(path, top_src));
        Arc::new(top)
    }

    /// What `u:main()` prints when run from `image`.
    fn printed(image: &Image) -> String {
        let mut vm = Vm::from_image(image, VmConfig::default());
        let pid = vm.spawn_entry("u", "main", Vec::new());
        while vm.can_step(pid) {
            if vm.step(pid).is_err() {
                break;
            }
        }
        vm.output().iter().map(|(_, s)| s.as_str()).collect()
    }

    /// A module of the image entered first from an overlay compiles in the
    /// image's context: its call of a module only that overlay has stays a
    /// call of a missing module (as the image has it), in that overlay, in
    /// the next one (whose own module sits where the first one's did) and
    /// in the image. Compiled in the first overlay's context, it would
    /// print 1, then 2, then fail in the image.
    #[test]
    fn an_image_module_entered_from_an_overlay_compiles_in_the_image() {
        let user = racewit_syntax::load_source(
            "u.erl",
            "-module(u).\n-export([main/0]).\n\
             main() -> io:format(\"~p~n\", [catch h:f()]).\n",
        );
        let base = Image::new(Arc::new(user), &VmConfig::default());
        let user = base.program().clone();
        let first = base.overlay(over(
            &user,
            "h.erl",
            "-module(h).\n-export([f/0]).\nf() -> 1.\n",
        ));
        let second = base.overlay(over(
            &user,
            "k.erl",
            "-module(k).\n-export([f/0]).\nf() -> 2.\n",
        ));
        let (a, b) = (printed(&first), printed(&second));
        let image = printed(&base);
        assert_eq!((a.as_str(), b.as_str()), (image.as_str(), image.as_str()));
        assert_eq!(base.loaded_modules().0 + 1, first.loaded_modules().0);
    }
}
