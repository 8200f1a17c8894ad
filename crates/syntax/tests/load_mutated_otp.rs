//! Loading never panics: real OTP files with random bytes changed, removed or
//! inserted (a fixed pseudo-random sequence, so every run is the same) go
//! through lex, preprocess, parse and lower. Skips when OTP is not installed.

use std::path::PathBuf;

use racewit_syntax::LoadOptions;
use racewit_syntax::load::{collect_files, load_sources};

/// A small deterministic generator (numerical recipes LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() as usize) % n.max(1)
    }
}

/// Bytes that stress the lexer and preprocessor most.
const INTERESTING: &[u8] = b"?()[]{}<>.,;-$\"'~#%\n \\0aZ_\xc3\xa0\xff";

fn mutate(text: &[u8], rng: &mut Lcg) -> Vec<u8> {
    let mut b = text.to_vec();
    for _ in 0..1 + rng.below(6) {
        if b.is_empty() {
            break;
        }
        let i = rng.below(b.len());
        match rng.below(4) {
            0 => b[i] = INTERESTING[rng.below(INTERESTING.len())],
            1 => {
                b.remove(i);
            }
            2 => b.insert(i, INTERESTING[rng.below(INTERESTING.len())]),
            _ => {
                // Cut the file short.
                b.truncate(i);
            }
        }
    }
    b
}

#[test]
fn mutated_otp_files_never_panic() {
    let lib = PathBuf::from("/usr/lib/erlang/lib");
    // collect_files takes a path that is not a directory as a file.
    let files = if lib.is_dir() {
        collect_files(&[lib])
    } else {
        Vec::new()
    };
    if files.is_empty() {
        eprintln!("notice: no OTP sources, test skipped");
        return;
    }
    let mut rng = Lcg(0x5eed);
    // Small and medium files from across the tree.
    let sample: Vec<PathBuf> = files
        .iter()
        .step_by(41)
        .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.len() < 60_000))
        .take(32)
        .cloned()
        .collect();
    assert!(sample.len() >= 8);
    let mut loads = 0;
    for f in &sample {
        let original = std::fs::read(f).unwrap();
        for _ in 0..10 {
            let bytes = mutate(&original, &mut rng);
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let path = f.display().to_string();
            let prog = load_sources(&[(path.as_str(), text.as_str())], &LoadOptions::default());
            for d in &prog.diagnostics {
                let src = prog.sources.get(d.span.file);
                assert!(d.span.start <= d.span.end && d.span.end as usize <= src.text.len());
            }
            loads += 1;
        }
    }
    eprintln!("{loads} mutated files loaded");
}
