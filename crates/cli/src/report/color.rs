//! Whether output is coloured, decided once per run: `--color
//! auto|always|never`, `NO_COLOR` (any non-empty value turns `auto` off),
//! `CLICOLOR_FORCE` (a value other than `0` turns `auto` on where stdout is
//! not a terminal), `TERM=dumb`. Colour is ANSI escapes, written only into
//! the human and concise formats on stdout.

use std::io::IsTerminal;
use std::sync::OnceLock;

use codespan_reporting::term::termcolor::{Buffer, Color, ColorSpec, WriteColor};

/// `--color`: `auto` colours when stdout is a terminal and `NO_COLOR` is
/// not set; `always` whatever stdout is and whatever `NO_COLOR` says.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// The `--color` flag of the commands that print warnings (`check`,
/// `static`).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ColorArgs {
    /// When to colour the human and concise output: `auto` colours when
    /// stdout is a terminal and NO_COLOR is not set (CLICOLOR_FORCE=1
    /// forces it).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// What the environment says, read once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Environment {
    /// `NO_COLOR` is set to a non-empty value.
    pub no_color: bool,
    /// `CLICOLOR_FORCE` is set to a value other than empty or `0`.
    pub force: bool,
    /// stdout is a terminal.
    pub terminal: bool,
    /// `TERM=dumb`.
    pub dumb: bool,
}

impl Environment {
    fn read() -> Environment {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Environment {
            no_color: var("NO_COLOR").is_some(),
            force: var("CLICOLOR_FORCE").is_some_and(|v| v != "0"),
            terminal: std::io::stdout().is_terminal(),
            dumb: std::env::var_os("TERM").is_some_and(|t| t == "dumb"),
        }
    }
}

/// Whether to colour, from the choice and the environment. A choice given
/// on the command line wins over the environment (no-color.org); under
/// `auto`, `NO_COLOR` wins over `CLICOLOR_FORCE`, which wins over what
/// stdout is.
pub fn decide(choice: ColorChoice, env: Environment) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => !env.no_color && (env.force || (env.terminal && !env.dumb)),
    }
}

static ENABLED: OnceLock<bool> = OnceLock::new();

/// Decides once for the run (the first call wins).
pub fn init(choice: ColorChoice) {
    let _ = ENABLED.set(decide(choice, Environment::read()));
}

/// Whether the human formats are coloured in this run (never before
/// [`init`]).
pub fn enabled() -> bool {
    ENABLED.get().copied().unwrap_or(false)
}

/// The parts of racewit's own lines that are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// A location, `path:line:col:`.
    Location,
    /// A confirmed race, or an error.
    Error,
    /// An unconfirmed warning, or a warning.
    Warning,
    /// A summary line.
    Summary,
}

fn spec(p: Paint) -> ColorSpec {
    let mut s = ColorSpec::new();
    match p {
        Paint::Location | Paint::Summary => s.set_bold(true),
        Paint::Error => s.set_fg(Some(Color::Red)).set_bold(true),
        Paint::Warning => s.set_fg(Some(Color::Yellow)).set_bold(true),
    };
    s
}

/// `text`, painted when colour is on.
pub fn paint(p: Paint, text: &str) -> String {
    paint_if(enabled(), p, text)
}

/// `text`, painted when `on`.
pub fn paint_if(on: bool, p: Paint, text: &str) -> String {
    if !on || text.is_empty() {
        return text.to_string();
    }
    let mut b = Buffer::ansi();
    // Writes into memory cannot fail.
    let _ = b.set_color(&spec(p));
    let _ = std::io::Write::write_all(&mut b, text.as_bytes());
    let _ = b.reset();
    String::from_utf8_lossy(b.as_slice()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(no_color: bool, force: bool, terminal: bool) -> Environment {
        Environment {
            no_color,
            force,
            terminal,
            dumb: false,
        }
    }

    #[test]
    fn auto_colours_a_terminal_unless_no_color() {
        assert!(decide(ColorChoice::Auto, env(false, false, true)));
        assert!(!decide(ColorChoice::Auto, env(true, false, true)));
        assert!(!decide(ColorChoice::Auto, env(false, false, false)));
        assert!(decide(ColorChoice::Auto, env(false, true, false)));
        assert!(!decide(ColorChoice::Auto, env(true, true, false)));
        let dumb = Environment {
            dumb: true,
            ..env(false, false, true)
        };
        assert!(!decide(ColorChoice::Auto, dumb));
    }

    #[test]
    fn a_flag_wins_over_the_environment() {
        assert!(decide(ColorChoice::Always, env(true, false, false)));
        assert!(!decide(ColorChoice::Never, env(false, true, true)));
    }

    #[test]
    fn painting_wraps_in_escapes_only_when_on() {
        assert_eq!(paint_if(false, Paint::Error, "x"), "x");
        let on = paint_if(true, Paint::Error, "x");
        assert!(on.starts_with("\u{1b}[") && on.contains('x') && on.ends_with("\u{1b}[0m"));
    }
}
