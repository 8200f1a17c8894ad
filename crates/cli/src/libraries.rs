//! The library code every command runs the user's program with: the
//! installed OTP's library modules (found once per process), the code of
//! dependency directories, and the application resource files of the
//! analysed applications. `run`, `check`, `explore` and `replay` all take
//! it from here, so a witness replays on the libraries it was found with.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use racewit_otp::{LibraryRequest, OtpInstall};
use racewit_vm::Libraries;

/// The installed OTP, looked for once per process.
pub fn otp() -> Option<OtpInstall> {
    static OTP: std::sync::OnceLock<Option<OtpInstall>> = std::sync::OnceLock::new();
    OTP.get_or_init(racewit_otp::discover).clone()
}

/// The libraries for a program loaded from `paths`, with the dependency
/// application directories `dep_dirs` (`deps/foo`,
/// `_build/default/lib/foo`: their code runs as library code).
pub fn load(paths: &[PathBuf], dep_dirs: &[PathBuf]) -> Arc<Libraries> {
    Arc::new(racewit_otp::load_libraries(&LibraryRequest {
        otp: otp(),
        dep_dirs: dep_dirs.to_vec(),
        app_dirs: app_dirs(paths),
        cwd: std::env::current_dir().ok(),
    }))
}

/// The libraries a witness recorded (its load record's `libraries` lines),
/// loaded again from the same places.
pub fn from_record(lines: &[String]) -> Arc<Libraries> {
    let mut request = LibraryRequest {
        cwd: std::env::current_dir().ok(),
        ..LibraryRequest::default()
    };
    for line in lines {
        if let Some(rest) = line.strip_prefix("otp ") {
            let root = rest.rsplit_once(" (OTP").map_or(rest, |(r, _)| r);
            request.otp = OtpInstall::at(Path::new(root));
        } else if let Some(dir) = line.strip_prefix("dep ") {
            request.dep_dirs.push(PathBuf::from(dir));
        } else if let Some(file) = line.strip_prefix("app ")
            && let Some(dir) = app_dir_of(Path::new(file))
        {
            request.app_dirs.push(dir);
        }
    }
    Arc::new(racewit_otp::load_libraries(&request))
}

/// The `sha256 ...` line of a load record, if any.
pub fn digest(lines: &[String]) -> Option<&str> {
    lines.iter().find_map(|l| l.strip_prefix("sha256 "))
}

/// The application directory a resource file belongs to
/// (`app/src/app.app.src`, `app/ebin/app.app`, `app/app.app.src`).
fn app_dir_of(file: &Path) -> Option<PathBuf> {
    let dir = file.parent()?;
    if dir.file_name().is_some_and(|n| n == "src" || n == "ebin") {
        dir.parent().map(Path::to_path_buf)
    } else {
        Some(dir.to_path_buf())
    }
}

/// Application directories of the analysed paths: each directory given
/// (the parent of a `src` directory or of a file), and `apps/*` under it.
fn app_dirs(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
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
        if let Ok(entries) = std::fs::read_dir(root.join("apps")) {
            let mut apps: Vec<PathBuf> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect();
            apps.sort();
            out.extend(apps);
        }
        out.push(root);
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_files_name_their_application_directory() {
        assert_eq!(
            app_dir_of(Path::new("x/my/src/my.app.src")),
            Some(PathBuf::from("x/my"))
        );
        assert_eq!(
            app_dir_of(Path::new("x/my/ebin/my.app")),
            Some(PathBuf::from("x/my"))
        );
        assert_eq!(
            app_dir_of(Path::new("x/my/my.app.src")),
            Some(PathBuf::from("x/my"))
        );
    }
}
