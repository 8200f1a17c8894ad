//! Where the code is: the paths given on the command line or, with none,
//! the project in the current directory; and the include directories,
//! library roots and macros its build would use, read from its build
//! configuration (`rebar.config`, erlang.mk's `Makefile`) or found by
//! looking (see [`layout`]).
//!
//! Paths are resolved when the command line is parsed, so every command
//! sees the same list in [`LoadArgs::paths`] (and a witness records it).

mod erlang_mk;
mod layout;
mod rebar;
mod term;

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use racewit_syntax::LoadOptions;

pub use layout::{ConfigDiagnostic, Project, ProjectKind};

/// Options shared by every command that loads code, as given.
#[derive(clap::Args, Debug, Clone, Default)]
struct LoadFlags {
    /// Files or directories (searched recursively for .erl files); none:
    /// the project in the current directory (rebar3, erlang.mk or plain).
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Extra include directory for -include (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Extra library root for -include_lib (repeatable): holds app or app-VSN dirs.
    #[arg(long = "lib-dir", value_name = "DIR")]
    lib_dir: Vec<PathBuf>,
    /// Define a macro, as erlc -D: NAME or NAME=VALUE (repeatable).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    define: Vec<String>,
}

/// What to load, resolved from the command line (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct LoadArgs {
    /// What is loaded: the paths given, except that a project's root stands
    /// for its source directories and files; with no path, those of the
    /// project holding the current directory (or `.` itself when there is
    /// no build configuration).
    pub paths: Vec<PathBuf>,
    /// `-I` directories given.
    pub include: Vec<PathBuf>,
    /// `--lib-dir` roots given.
    pub lib_dir: Vec<PathBuf>,
    /// `-D` macros given.
    pub define: Vec<String>,
    /// The projects the paths belong to, in the order met.
    pub projects: Vec<Project>,
}

impl clap::FromArgMatches for LoadArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        LoadFlags::from_arg_matches(matches).map(LoadArgs::resolve)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = LoadArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for LoadArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        LoadFlags::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        LoadFlags::augment_args_for_update(cmd)
    }
}

impl LoadArgs {
    /// The paths to load and the projects they belong to.
    fn resolve(flags: LoadFlags) -> LoadArgs {
        let mut args = LoadArgs {
            paths: Vec::new(),
            include: flags.include,
            lib_dir: flags.lib_dir,
            define: flags.define,
            projects: Vec::new(),
        };
        if flags.paths.is_empty() {
            let here = Path::new(".");
            match layout::find_root(here) {
                Some((root, kind)) => {
                    let mut project = layout::discover(&root, kind);
                    project.whole = true;
                    args.paths.extend(project.sources.iter().cloned());
                    args.projects.push(project);
                }
                None => {
                    args.paths.push(PathBuf::from("."));
                    let mut project = layout::discover(here, ProjectKind::Plain);
                    project.whole = true;
                    args.projects.push(project);
                }
            }
            return args;
        }
        for p in flags.paths {
            // A missing path is reported by `load_options`.
            if !p.exists() {
                args.paths.push(p);
                continue;
            }
            let found = layout::find_root(&p);
            let is_root = p.is_dir()
                && found
                    .as_ref()
                    .is_some_and(|(root, _)| layout::same_dir(root, &p));
            let project = match found {
                Some((root, kind)) => args.project(&root, kind),
                None => args.project(&layout::plain_root(&p), ProjectKind::Plain),
            };
            if is_root {
                args.projects[project].whole = true;
                let sources = args.projects[project].sources.clone();
                args.paths.extend(sources);
            } else {
                args.paths.push(p);
            }
        }
        args
    }

    /// The index of the project at `root`, discovered on first use.
    fn project(&mut self, root: &Path, kind: ProjectKind) -> usize {
        if let Some(i) = self
            .projects
            .iter()
            .position(|p| layout::same_dir(&p.root, root))
        {
            return i;
        }
        self.projects.push(layout::discover(root, kind));
        self.projects.len() - 1
    }

    /// The dependency application directories of the projects
    /// ([`Project::dep_dirs`]) whose code is not loaded as the program
    /// already (a plain directory's walk takes in its `deps/`): their code
    /// runs as library code, as it does in the built project.
    pub fn dep_dirs(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for project in &self.projects {
            for (name, dir) in project.dep_dirs() {
                if names.contains(&name) || self.paths.iter().any(|p| walked(p, &dir)) {
                    continue;
                }
                names.push(name);
                out.push(dir);
            }
        }
        out
    }

    /// What reading the projects' build configuration reported (a file
    /// that is not valid Erlang terms, a value racewit cannot use), in
    /// order.
    pub fn config_diagnostics(&self) -> impl Iterator<Item = &ConfigDiagnostic> {
        self.projects.iter().flat_map(|p| p.diagnostics.iter())
    }

    /// [`LoadArgs::options`], and what reading a configuration reported
    /// printed on stderr as warnings.
    pub fn load_options(&self) -> Result<LoadOptions> {
        let opts = self.options()?;
        let mut stderr = std::io::stderr().lock();
        for d in self.config_diagnostics() {
            use std::io::Write;
            let _ = writeln!(stderr, "racewit: warning: {d}");
        }
        Ok(opts)
    }

    /// Checks the paths exist and builds the load options: the `-I`,
    /// `--lib-dir` and `-D` given, then the include directories, library
    /// roots and macros of the projects (a `-D` given wins over a macro of
    /// the same name from a configuration).
    pub fn options(&self) -> Result<LoadOptions> {
        for p in &self.paths {
            if !p.exists() {
                bail!("{}: no such file or directory", p.display());
            }
        }
        let mut opts = LoadOptions::default();
        for dir in &self.include {
            if !dir.is_dir() {
                bail!("-I {}: not a directory", dir.display());
            }
            opts.include_dirs.push(dir.clone());
        }
        for dir in &self.lib_dir {
            if !dir.is_dir() {
                bail!("--lib-dir {}: not a directory", dir.display());
            }
            opts.lib_dirs.push(dir.clone());
        }
        for project in &self.projects {
            for d in &project.include_dirs {
                if !opts.include_dirs.contains(d) {
                    opts.include_dirs.push(d.clone());
                }
            }
            for d in &project.lib_dirs {
                if !opts.lib_dirs.contains(d) {
                    opts.lib_dirs.push(d.clone());
                }
            }
            opts.defines.extend(project.defines.iter().cloned());
        }
        for d in &self.define {
            match d.split_once('=') {
                Some((name, value)) => opts
                    .defines
                    .push((name.to_string(), Some(value.to_string()))),
                None => opts.defines.push((d.clone(), None)),
            }
        }
        Ok(opts)
    }
}

/// Does loading `path` take in the files of `dir`? A directory's walk
/// skips `_build` and `.git`.
fn walked(path: &Path, dir: &Path) -> bool {
    let (Ok(path), Ok(dir)) = (std::fs::canonicalize(path), std::fs::canonicalize(dir)) else {
        return false;
    };
    dir.strip_prefix(&path).is_ok_and(|rest| {
        !rest
            .components()
            .any(|c| c.as_os_str() == "_build" || c.as_os_str() == ".git")
    })
}

#[cfg(test)]
mod tests;
