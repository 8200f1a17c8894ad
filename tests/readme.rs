//! The README's tour is real output: every `$ racewit ...` line in its
//! `console` blocks is run from a scratch directory that sees the bundled
//! corpus, and must print exactly what the README shows (`$ echo $?` checks
//! the exit code of the command before it).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One command of a console block and the lines the README shows after it.
struct Shown {
    line: usize,
    command: String,
    output: Vec<String>,
}

fn console_blocks(readme: &str) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    let mut inside = false;
    for (i, line) in readme.lines().enumerate() {
        if line.trim_start() == "```console" {
            inside = true;
            continue;
        }
        if inside && line.trim_start() == "```" {
            inside = false;
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            shown.push(Shown {
                line: i + 1,
                command: cmd.to_string(),
                output: Vec::new(),
            });
        } else if let Some(last) = shown.last_mut() {
            last.output.push(line.to_string());
        }
    }
    shown
}

#[test]
fn readme_tour_prints_what_it_shows() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let shown = console_blocks(&readme);
    assert!(
        shown
            .iter()
            .filter(|s| s.command.starts_with("racewit "))
            .count()
            >= 2,
        "the README's tour has racewit commands"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    std::os::unix::fs::symlink(root().join("corpus"), dir.path().join("corpus"))
        .expect("link corpus");
    let mut last_code: Option<i32> = None;
    for s in &shown {
        if s.command == "echo $?" {
            let code = last_code.expect("`echo $?` follows a command");
            assert_eq!(
                vec![code.to_string()],
                s.output,
                "README.md:{}: exit code",
                s.line
            );
            continue;
        }
        let Some(args) = s.command.strip_prefix("racewit ") else {
            panic!(
                "README.md:{}: a console line runs `{}`, not racewit",
                s.line, s.command
            );
        };
        let out = Command::new(env!("CARGO_BIN_EXE_racewit"))
            .args(args.split_whitespace())
            .current_dir(dir.path())
            .output()
            .expect("run racewit");
        last_code = out.status.code();
        let printed = String::from_utf8_lossy(&out.stdout);
        let printed: Vec<&str> = printed.lines().collect();
        assert_eq!(
            s.output, printed,
            "README.md:{}: `{}` prints something else now; update the README",
            s.line, s.command
        );
    }
}
