//! Reading source files defensively: only regular files are read, never
//! more than a size cap, and opening never waits (a FIFO or a device named
//! as a source gets a reason, not a blocking read).

use std::fs::{File, FileType};
use std::io::Read;
use std::path::Path;

/// Most bytes read from a module file (`.erl`).
pub const MAX_MODULE_BYTES: u64 = 128 << 20;
/// Most bytes read from an included file (`.hrl`): OTP's largest is 0.3 MB.
pub const MAX_HEADER_BYTES: u64 = 16 << 20;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A FIFO, socket, device or directory.
    #[error("not a regular file ({0})")]
    NotRegular(&'static str),
    #[error("too large ({size} bytes; at most {cap} are read)")]
    TooLarge { size: u64, cap: u64 },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl ReadError {
    /// The file does not exist (as opposed to existing but being refused).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// What kind of file `ft` is, for a message.
pub fn kind_of(ft: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else if ft.is_file() {
        "a regular file"
    } else {
        "not a file"
    }
}

/// The bytes of the regular file at `path` (symlinks followed), at most
/// `cap` of them.
pub fn read_regular_file(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    // `stat` first: opening a socket fails, and opening a FIFO for reading
    // would wait for a writer.
    let meta = std::fs::metadata(path)?;
    if !meta.file_type().is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta.file_type())));
    }
    let file = open_nonblocking(path)?;
    // The file may have been replaced since `stat`: check what was opened.
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta.file_type())));
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            cap,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

/// Opens for reading without waiting (`O_NONBLOCK`: a FIFO swapped in after
/// the `stat` does not block the open; regular files read as usual).
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    opts.open(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read_and_never_past_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.erl");
        std::fs::write(&f, "0123456789").unwrap();
        assert_eq!(read_regular_file(&f, 10).unwrap().len(), 10);
        assert!(matches!(
            read_regular_file(&f, 9),
            Err(ReadError::TooLarge { size: 10, cap: 9 })
        ));
        let e = read_regular_file(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file (a character device)");
        let e = read_regular_file(dir.path(), 1 << 20).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file (a directory)");
        let e = read_regular_file(&dir.path().join("none.erl"), 1).unwrap_err();
        assert!(e.is_not_found());
        let fifo = dir.path().join("fifo.erl");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = read_regular_file(&fifo, 1 << 20).unwrap_err();
            assert_eq!(e.to_string(), "not a regular file (a FIFO)");
        }
    }
}
