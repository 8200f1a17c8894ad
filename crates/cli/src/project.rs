//! Where the code is: the user's paths plus the include and library
//! directories of a rebar3 / OTP project layout, found by looking.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use racewit_syntax::LoadOptions;

/// Options shared by every command that loads code.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LoadArgs {
    /// Files or directories (searched recursively for .erl files).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Extra include directory for -include (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Extra library root for -include_lib (repeatable): holds app or app-VSN dirs.
    #[arg(long = "lib-dir", value_name = "DIR")]
    pub lib_dir: Vec<PathBuf>,
    /// Define a macro, as erlc -D: NAME or NAME=VALUE (repeatable).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
}

impl LoadArgs {
    /// Checks the paths exist and builds the load options, adding the
    /// include and library directories of the project layout it finds.
    pub fn load_options(&self) -> Result<LoadOptions> {
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
        for root in self.project_roots() {
            add_layout(&root, &mut opts)
                .with_context(|| format!("reading the project layout under {}", root.display()))?;
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

    /// Directories that look like project roots: each directory path given,
    /// and for a file or a `src` directory, the parent holding it.
    fn project_roots(&self) -> Vec<PathBuf> {
        let mut roots = Vec::new();
        for p in &self.paths {
            let dir = if p.is_dir() {
                p.clone()
            } else {
                p.parent().map(Path::to_path_buf).unwrap_or_default()
            };
            let root = if dir.file_name().is_some_and(|n| n == "src") {
                dir.parent().map(Path::to_path_buf).unwrap_or(dir)
            } else {
                dir
            };
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
        roots
    }
}

/// Adds `include/`, `apps/*/include`, and the rebar3/deps library roots of one project root.
fn add_layout(root: &Path, opts: &mut LoadOptions) -> Result<()> {
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    let push_dir = |v: &mut Vec<PathBuf>, d: PathBuf| {
        if d.is_dir() && !v.contains(&d) {
            v.push(d);
        }
    };
    push_dir(&mut opts.include_dirs, root.join("include"));
    let apps = root.join("apps");
    if apps.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&apps)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for app in entries {
            push_dir(&mut opts.include_dirs, app.join("include"));
        }
        push_dir(&mut opts.lib_dirs, apps);
    }
    push_dir(&mut opts.lib_dirs, root.join("_build/default/lib"));
    push_dir(&mut opts.lib_dirs, root.join("deps"));
    Ok(())
}
