//! Robustness run of the whole front end (lex → preprocess → parse → lower)
//! over deterministically mutated Erlang sources: every input must load
//! without a panic and within a time limit.
//!
//! `cargo run --release -p racewit-syntax --example fuzz_load -- [INPUTS] [SEED] [DIR...]`
//! (defaults: 1,000,000 inputs, seed 1, the bundled corpus and the IR test modules).
//! Mutations: delete, duplicate, swap or replace a byte range; insert Erlang
//! punctuation, keywords, macro calls or random bytes; truncate.

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
    let started = Instant::now();
    (0..inputs).into_par_iter().for_each(|i| {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (i + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
            | 1);
        let src = &sources[rng.below(sources.len())];
        let input = mutate(src, &mut rng);
        let text = String::from_utf8_lossy(&input).into_owned();
        let t = Instant::now();
        let ok = catch_unwind(AssertUnwindSafe(|| {
            racewit_syntax::load_source("fuzz.erl", &text)
        }))
        .is_ok();
        let took = t.elapsed();
        slowest.fetch_max(took.as_micros() as u64, Ordering::Relaxed);
        if !ok && panics.fetch_add(1, Ordering::Relaxed) < 5 {
            let path = std::env::temp_dir().join(format!("racewit-fuzz-panic-{seed}-{i}.erl"));
            let _ = std::fs::write(&path, &input);
            eprintln!("panic on input {i} (saved to {})", path.display());
        }
        if took > limit {
            slow.fetch_add(1, Ordering::Relaxed);
        }
    });
    let panics = panics.load(Ordering::Relaxed);
    let slow = slow.load(Ordering::Relaxed);
    println!(
        "{inputs} inputs from {} files, seed {seed}: {panics} panics, {slow} over {}s, slowest {:.1} ms, {:.1} s",
        sources.len(),
        limit.as_secs(),
        slowest.load(Ordering::Relaxed) as f64 / 1000.0,
        started.elapsed().as_secs_f64()
    );
    if panics > 0 || slow > 0 {
        std::process::exit(1);
    }
}
