//! Robustness run of the whole front end (walk → read → lex → preprocess →
//! parse → lower) over deterministically mutated Erlang sources written to
//! real files: every input must load without an abort or a panic and
//! within a time limit (2 s each).
//!
//! `cargo run --release -p racewit-syntax --example fuzz_load -- [INPUTS] [SEED] [DIR...]`
//! (defaults: 1,000,000 inputs, seed 1, the bundled corpus and the IR test
//! modules). Each input is one of the sources with mutations of four kinds:
//! - bytes: delete, duplicate, swap or replace a byte range; insert Erlang
//!   punctuation, keywords, macro calls or random bytes; truncate;
//! - macros: definitions with parameters and uses with mutated arguments
//!   (nested, wrong arity, unbalanced, stringified, circular), and chains
//!   that double their argument at every level (up to 30 deep, rarely);
//! - includes: headers that are themselves mutated sources, missing, a
//!   FIFO, `/dev/zero` (directly and through a symlink), a directory, over
//!   the size cap, including themselves, and `-include_lib` of an app;
//! - file kinds: besides the module, now and then a FIFO, a socket, a
//!   device, a directory, a dangling symlink or an over-cap file named as a
//!   module, or a tree with symlink loops.
//!
//! Each worker thread has its own scratch directory holding the odd files;
//! the module and its two headers are rewritten for every input.
//!
//! `RACEWIT_FUZZ_ONLY=I` runs input `I` alone (the same input as in the
//! whole run with that seed): to time or debug one input a run reported.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

/// A small, seedable generator (xorshift64*): no dependency, same inputs for the same seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const SNIPPETS: &[&[u8]] = &[
    b"(",
    b")",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b";",
    b".",
    b"->",
    b"<-",
    b"<=",
    b"=>",
    b":=",
    b"#",
    b"|",
    b"||",
    b"?",
    b"??",
    b"<<",
    b">>",
    b"end",
    b"case ",
    b" of ",
    b"receive ",
    b"after ",
    b"fun ",
    b"try ",
    b"catch ",
    b"if ",
    b"when ",
    b"begin ",
    b"maybe ",
    b"else ",
    b"-define(X, ",
    b"?MODULE",
    b"?LINE",
    b"-ifdef(A).",
    b"-endif.",
    b"-include(\"x.hrl\").",
    b"\"",
    b"'",
    b"$",
    b"%",
    b"\n",
    b"~\"",
    b"\"\"\"",
    b"#{",
    b"#r{",
    b"#r.f",
    b"2#101",
    b"16#1.8#e-3",
    b"36#z.",
    b"&&",
    b" && X <- ",
    b"<:-",
    b"-file(\"f.erl\", 9).",
    b"1.0e",
    b"_",
    b"\\",
    b"\xc2\xa0",
    b"\xff",
];

fn mutate(src: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut v = src.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = v.len();
        let at = rng.below(len + 1);
        let span = 1 + rng.below(16);
        match rng.below(7) {
            0 => {
                let end = (at + span).min(len);
                v.drain(at..end);
            }
            1 => {
                let end = (at + span).min(len);
                let copy = v[at..end].to_vec();
                v.splice(at..at, copy);
            }
            2 => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                v.splice(at..at, s.iter().copied());
            }
            3 => {
                let bytes: Vec<u8> = (0..span).map(|_| rng.next() as u8).collect();
                v.splice(at..at, bytes);
            }
            4 => v.truncate(at),
            5 if len > 0 => {
                let other = rng.below(len);
                v.swap(at.min(len - 1), other);
            }
            _ => {
                let end = (at + span).min(len);
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                v.splice(at..end, s.iter().copied());
            }
        }
    }
    v
}

fn erl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            erl_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "erl") {
            out.push(p);
        }
    }
}

/// Snippets of macro definitions and uses: `{A}` and `{B}` are replaced by
/// mutated pieces of the source, `{N}` by a small number.
const MACRO_SNIPPETS: &[&str] = &[
    "-define(M(A, B), [A | B]).\nm() -> ?M({A}, {B}).\n",
    "-define(M(A, B), {A, B, A}).\nm() -> ?M(?M({A}, x), ?M(y, {B})).\n",
    "-define(M(A), A + A).\nm() -> ?M({A}, {B}).\n",
    "-define(M(A, B), A).\nm() -> ?M({A}.\n",
    "-define(M(A, B), B).\nm() -> ?M(({A}, {B}).\n",
    "-define(S(X), ??X).\ns() -> ?S({A}).\n",
    "-define(C(X), ?C(X)).\nc() -> ?C({A}).\n",
    "-define(P, {A}).\np() -> ?P(?P, {B}).\n",
    "-define(F(X), fun() -> X end).\nf() -> ?F(begin {A} end).\n",
    "-define(N(X, X), X).\nn() -> ?N({A}, {A}).\n",
    "-ifdef(M).\n-define(M(Y), Y).\n-else.\n-define(M(Y), {Y}).\n-endif.\nq() -> ?M({B}).\n",
    "-define(LINE_AT(X), {?LINE, X, ?FUNCTION_NAME, ?MODULE_STRING}).\nl() -> ?LINE_AT({A}).\n",
];

/// Include forms: headers of every kind the scratch directory holds.
const INCLUDE_SNIPPETS: &[&str] = &[
    "-include(\"h1.hrl\").\n",
    "-include(\"h2.hrl\").\n",
    "-include(\"fifo.hrl\").\n",
    "-include(\"/dev/zero\").\n",
    "-include(\"zero.hrl\").\n",
    "-include(\"dir.hrl\").\n",
    "-include(\"big.hrl\").\n",
    "-include(\"dangling.hrl\").\n",
    "-include(\"self.hrl\").\n",
    "-include(\"missing.hrl\").\n",
    "-include(\"../include/inc.hrl\").\n",
    "-include_lib(\"app/include/lib.hrl\").\n",
    "-include_lib(\"kernel/include/file.hrl\").\n",
    "-include_lib(\"app/include/zero.hrl\").\n",
    "-include(\"$HOME/nothing.hrl\").\n",
];

/// A byte offset just after a form's end (`.` then a newline), or 0.
fn form_boundary(v: &[u8], rng: &mut Rng) -> usize {
    let ends: Vec<usize> = v
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w == b".\n")
        .map(|(i, _)| i + 2)
        .collect();
    if ends.is_empty() {
        0
    } else {
        ends[rng.below(ends.len())]
    }
}

/// A piece of `src` (up to 24 bytes), mutated, for a macro argument.
fn piece(src: &[u8], rng: &mut Rng) -> String {
    let at = rng.below(src.len().max(1));
    let len = 1 + rng.below(24);
    let bytes = mutate(&src[at.min(src.len())..(at + len).min(src.len())], rng);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `levels` macros, each doubling its argument twice over.
fn doubling_chain(levels: usize) -> String {
    let mut text = String::from("-define(D0(X), {X,X}).\n");
    for i in 1..=levels {
        text.push_str(&format!("-define(D{i}(X), ?D{}({{X,X}})).\n", i - 1));
    }
    text.push_str(&format!("d() -> ?D{levels}(a).\n"));
    text
}

fn mutate_macros(v: &mut Vec<u8>, src: &[u8], rng: &mut Rng) {
    let text = if rng.below(500) == 0 {
        doubling_chain(rng.below(31))
    } else {
        MACRO_SNIPPETS[rng.below(MACRO_SNIPPETS.len())]
            .replace("{A}", &piece(src, rng))
            .replace("{B}", &piece(src, rng))
    };
    let at = if rng.below(4) == 0 {
        rng.below(v.len() + 1)
    } else {
        form_boundary(v, rng)
    };
    v.splice(at..at, text.into_bytes());
}

fn mutate_includes(v: &mut Vec<u8>, rng: &mut Rng) {
    let s = INCLUDE_SNIPPETS[rng.below(INCLUDE_SNIPPETS.len())];
    let at = if rng.below(4) == 0 {
        rng.below(v.len() + 1)
    } else {
        form_boundary(v, rng)
    };
    v.splice(at..at, s.bytes());
}

/// One input: the module's text and its two headers' texts.
struct Input {
    module: Vec<u8>,
    h1: Vec<u8>,
    h2: Vec<u8>,
    /// An odd path loaded with the module (under `kinds/` or `loops`).
    extra: Option<&'static str>,
}

const ODD_PATHS: &[&str] = &[
    "kinds/fifo.erl",
    "kinds/sock.erl",
    "kinds/zero.erl",
    "kinds/dir.erl",
    "kinds/dangling.erl",
    "kinds/big.erl",
    "kinds",
    "loops",
];

fn make_input(sources: &[Vec<u8>], rng: &mut Rng) -> Input {
    let src = &sources[rng.below(sources.len())];
    let mut module = if rng.below(4) == 0 {
        src.clone()
    } else {
        mutate(src, rng)
    };
    for _ in 0..rng.below(3) {
        mutate_macros(&mut module, src, rng);
    }
    for _ in 0..rng.below(3) {
        mutate_includes(&mut module, rng);
    }
    let header = |rng: &mut Rng| {
        let other = &sources[rng.below(sources.len())];
        let at = rng.below(other.len().max(1));
        let mut h = mutate(
            &other[at.min(other.len())..(at + 400).min(other.len())],
            rng,
        );
        if rng.below(3) == 0 {
            mutate_macros(&mut h, other, rng);
        }
        if rng.below(4) == 0 {
            mutate_includes(&mut h, rng);
        }
        h
    };
    let h1 = header(rng);
    let h2 = header(rng);
    let extra = (rng.below(40) == 0).then(|| ODD_PATHS[rng.below(ODD_PATHS.len())]);
    Input {
        module,
        h1,
        h2,
        extra,
    }
}

/// A worker's scratch directory: `src/` holds the module and its headers
/// (rewritten per input) beside odd headers; `kinds/` odd module files;
/// `loops/` a tree with two symlink loops; `lib/app/include` a library.
struct Scratch {
    dir: tempfile::TempDir,
    /// Keeps `kinds/sock.erl` a live socket.
    _socket: std::os::unix::net::UnixListener,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("scratch directory");
        let root = dir.path();
        for d in [
            "src/dir.hrl",
            "kinds/dir.erl",
            "include",
            "lib/app/include",
            "loops/a/b",
        ] {
            std::fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        let link = |target: &str, at: &str| {
            std::os::unix::fs::symlink(target, root.join(at)).expect("symlink");
        };
        link("/dev/zero", "src/zero.hrl");
        link("/dev/zero", "kinds/zero.erl");
        link("/dev/zero", "lib/app/include/zero.hrl");
        link("nowhere", "src/dangling.hrl");
        link("nowhere", "kinds/dangling.erl");
        link("../..", "loops/a/b/up");
        link("../a", "loops/a/again");
        for fifo in ["src/fifo.hrl", "kinds/fifo.erl"] {
            let made = std::process::Command::new("mkfifo")
                .arg(root.join(fifo))
                .status();
            assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        }
        let sparse = |at: &str, len: u64| {
            let f = std::fs::File::create(root.join(at)).expect("create");
            f.set_len(len).expect("set_len");
        };
        sparse("src/big.hrl", racewit_syntax::read::MAX_HEADER_BYTES + 1);
        sparse("kinds/big.erl", racewit_syntax::read::MAX_MODULE_BYTES + 1);
        let write = |at: &str, text: &str| std::fs::write(root.join(at), text).expect("write");
        write("src/self.hrl", "-include(\"self.hrl\").\n");
        write("include/inc.hrl", "-define(INC, inc).\n");
        write(
            "lib/app/include/lib.hrl",
            "-record(lib, {a = ?MODULE, b}).\n",
        );
        write("loops/a/b/m.erl", "-module(loop_m).\n");
        let socket = std::os::unix::net::UnixListener::bind(root.join("kinds/sock.erl"))
            .expect("bind a socket");
        Scratch {
            dir,
            _socket: socket,
        }
    }

    /// Writes the input's files and loads them.
    fn load(&self, input: &Input) -> racewit_syntax::ir::Program {
        let root = self.dir.path();
        let module = root.join("src/m.erl");
        std::fs::write(&module, &input.module).expect("write the module");
        std::fs::write(root.join("src/h1.hrl"), &input.h1).expect("write a header");
        std::fs::write(root.join("src/h2.hrl"), &input.h2).expect("write a header");
        let mut paths = vec![module];
        paths.extend(input.extra.map(|p| root.join(p)));
        let opts = racewit_syntax::LoadOptions {
            include_dirs: vec![root.join("include")],
            lib_dirs: vec![root.join("lib")],
            ..Default::default()
        };
        racewit_syntax::load_paths(&paths, &opts)
    }
}

thread_local! {
    static SCRATCH: std::cell::OnceCell<Scratch> = const { std::cell::OnceCell::new() };
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inputs: u64 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dirs: Vec<PathBuf> = if args.len() > 2 {
        args[2..].iter().map(PathBuf::from).collect()
    } else {
        vec![root.join("corpus"), root.join("crates/syntax/tests/ir")]
    };
    let mut files = Vec::new();
    for d in &dirs {
        erl_files(d, &mut files);
    }
    let sources: Vec<Vec<u8>> = files.iter().filter_map(|f| std::fs::read(f).ok()).collect();
    if sources.is_empty() {
        eprintln!("no .erl files under {dirs:?}");
        std::process::exit(1);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let limit = Duration::from_secs(2);
    let panics = AtomicU64::new(0);
    let slow = AtomicU64::new(0);
    let slowest = AtomicU64::new(0);
    let slowest_input = AtomicU64::new(0);
    let diagnostics = AtomicU64::new(0);
    let odd = AtomicU64::new(0);
    let started = Instant::now();
    let only: Option<u64> = std::env::var("RACEWIT_FUZZ_ONLY")
        .ok()
        .and_then(|v| v.parse().ok());
    let range = match only {
        Some(i) => i..i + 1,
        None => 0..inputs,
    };
    let inputs = range.end - range.start;
    range.into_par_iter().for_each(|i| {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (i + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
            | 1);
        let input = make_input(&sources, &mut rng);
        if input.extra.is_some() {
            odd.fetch_add(1, Ordering::Relaxed);
        }
        let t = Instant::now();
        let loaded = SCRATCH.with(|cell| {
            let scratch = cell.get_or_init(Scratch::new);
            catch_unwind(AssertUnwindSafe(|| scratch.load(&input)))
        });
        let took = t.elapsed();
        if slowest.fetch_max(took.as_micros() as u64, Ordering::Relaxed) < took.as_micros() as u64 {
            slowest_input.store(i, Ordering::Relaxed);
        }
        match loaded {
            Ok(program) => {
                diagnostics.fetch_add(program.diagnostics.len() as u64, Ordering::Relaxed);
            }
            Err(_) => {
                if panics.fetch_add(1, Ordering::Relaxed) < 5 {
                    let base = std::env::temp_dir().join(format!("racewit-fuzz-panic-{seed}-{i}"));
                    let _ = std::fs::create_dir_all(&base);
                    let _ = std::fs::write(base.join("m.erl"), &input.module);
                    let _ = std::fs::write(base.join("h1.hrl"), &input.h1);
                    let _ = std::fs::write(base.join("h2.hrl"), &input.h2);
                    eprintln!(
                        "panic on input {i} (saved to {}; odd path: {:?})",
                        base.display(),
                        input.extra
                    );
                }
            }
        }
        if took > limit {
            slow.fetch_add(1, Ordering::Relaxed);
        }
    });
    let panics = panics.load(Ordering::Relaxed);
    let slow = slow.load(Ordering::Relaxed);
    println!(
        "{inputs} inputs from {} files, seed {seed}: {panics} panics, {slow} over {}s, \
         slowest {:.1} ms (input {}), {} with an odd path, {} diagnostics, {:.1} s",
        sources.len(),
        limit.as_secs(),
        slowest.load(Ordering::Relaxed) as f64 / 1000.0,
        slowest_input.load(Ordering::Relaxed),
        odd.load(Ordering::Relaxed),
        diagnostics.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    if panics > 0 || slow > 0 {
        std::process::exit(1);
    }
}
