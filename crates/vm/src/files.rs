//! Run-local files: the modelled file system a run writes to and reads
//! back, kept in the VM's world state (so forks and replays see the same)
//! and never on the host.
//!
//! A run starts knowing nothing of the host's files. What it knows:
//! - the root `/`, the system's temporary directory `/tmp` and the
//!   working directory (with its ancestors) exist and are directories;
//! - `/tmp` is the run's own (as a private temporary directory is under
//!   systemd's `PrivateTmp`, or in a fresh container): it starts empty, so
//!   a name in it that the run never made is absent (`enoent`);
//! - what the run itself makes (directories, files and their contents) is
//!   in [`Files::entries`], and a directory the run made holds only what
//!   the run put in it.
//!
//! - the names in the working directory, when the loader listed it
//!   (`Libraries::cwd_names`, read once per command as the application
//!   resource files are): a name it does not hold is absent, as a log
//!   directory a test makes at start-up is in a fresh checkout.
//!
//! Anything else (a listed name in the working directory, or a name
//! anywhere else on the host, that the run did not make) needs the host's
//! real contents: the operation answers [`Lookup::Host`] and the caller
//! parks (what the host holds is never read, and never assumed empty).
//!
//! One implementation of each rule: the BIFs (`bif::files`) turn names into
//! paths ([`normalize`]) and call the operations here.

use std::sync::Arc;

/// The run's private temporary directory.
pub const SCRATCH_ROOT: &str = "/tmp";

/// The run's working directory, as the loader saw it: its path and, when
/// it could list it, the names in it (their contents are never read).
#[derive(Clone, Copy, Debug)]
pub struct Cwd<'a> {
    pub path: &'a str,
    pub names: Option<&'a std::collections::BTreeSet<String>>,
}

/// A file or directory the run made.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Dir { inode: u64, mtime: i64 },
    File(FileData),
}

/// A regular file's contents and its times (seconds since the Unix epoch).
#[derive(Clone, Debug, PartialEq)]
pub struct FileData {
    pub bytes: Arc<Vec<u8>>,
    pub inode: u64,
    pub mtime: i64,
    pub ctime: i64,
}

/// What is known of a path.
#[derive(Clone, Debug, PartialEq)]
pub enum Lookup {
    /// The run made it (or it is a directory every run has).
    Present(Entry),
    /// Nothing there: a name in a directory the run owns that it never made.
    Absent,
    /// Only the host knows.
    Host,
}

/// An open file: a handle the run holds (`file:open/2`).
#[derive(Clone, Debug, PartialEq)]
pub struct Handle {
    pub path: String,
    pub inode: u64,
    pub read: bool,
    pub write: bool,
    pub append: bool,
    pub binary: bool,
    pub pos: usize,
}

/// A file operation's answer: a value, a POSIX error name (`enoent`), or
/// the host is needed.
pub type Answer<T> = Result<Result<T, &'static str>, NeedsHost>;

/// The operation needs the host's real files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeedsHost;

/// How a file is opened (`file:open/2`'s modes, as far as they matter here).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenMode {
    pub read: bool,
    pub write: bool,
    pub append: bool,
    pub exclusive: bool,
    pub binary: bool,
}

#[derive(Clone, Default)]
pub struct Files {
    /// What the run made, by absolute path.
    pub(crate) entries: imbl::OrdMap<String, Entry>,
    /// Open handles by number.
    pub(crate) handles: imbl::OrdMap<u64, Handle>,
    /// How many times the run has made each path: a path's inode comes
    /// from the path and this count alone, so it does not depend on the
    /// order in which unrelated names were made (two schedules that make
    /// the same files see the same inodes), and a file made again after
    /// a delete or rename gets a new one, as a rotating logger expects.
    made: imbl::OrdMap<String, u64>,
    next_handle: u64,
}

/// `path` made absolute against `cwd` and normalized: no `.`, no `..`
/// (textually, as `filename:absname/1` leaves them and the kernel would
/// follow them; the model has no symbolic links), no repeated or trailing
/// `/`.
pub fn normalize(cwd: &str, path: &str) -> String {
    let joined = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{cwd}/{path}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The directory holding `path` (`None` for the root).
pub fn parent(path: &str) -> Option<&str> {
    if path == "/" {
        return None;
    }
    match path.rfind('/') {
        Some(0) => Some("/"),
        Some(i) => Some(&path[..i]),
        None => None,
    }
}

/// Whether `path` is `dir` or inside it.
fn within(path: &str, dir: &str) -> bool {
    path == dir || dir == "/" || path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

impl Files {
    fn fresh_inode(&mut self, path: &str) -> u64 {
        let n = self.made.get(path).copied().unwrap_or(0) + 1;
        self.made.insert(path.to_string(), n);
        // FNV-1a over the path and the count, kept to 31 bits and never 0.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in path.bytes().chain(n.to_le_bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        (h & 0x7fff_ffff).max(1)
    }

    /// What is known of `path` (absolute, normalized), with `cwd` the
    /// run's working directory.
    pub fn lookup(&self, cwd: Cwd<'_>, path: &str) -> Lookup {
        if let Some(e) = self.entries.get(path) {
            return Lookup::Present(e.clone());
        }
        // Directories every run has: the root, /tmp, the working
        // directory and its ancestors.
        if path == "/" || path == SCRATCH_ROOT || within(cwd.path, path) {
            return Lookup::Present(Entry::Dir { inode: 0, mtime: 0 });
        }
        // The working directory's contents are the host's, even inside
        // /tmp (a project checked out under it), but for a name the
        // loader's listing of it does not hold: that name, and anything
        // under it, is not there.
        let in_tmp = within(path, SCRATCH_ROOT);
        // The nearer of the two holds the path (a working directory `/`
        // holds everything but /tmp; one under /tmp is not the run's).
        if within(path, cwd.path) && !(in_tmp && SCRATCH_ROOT.len() > cwd.path.len()) {
            let rest = &path[cwd.path.len()..];
            let first = rest.trim_start_matches('/').split('/').next().unwrap_or("");
            if cwd.names.is_some_and(|names| !names.contains(first)) {
                return Lookup::Absent;
            }
            return self.in_made_dir(path);
        }
        if in_tmp {
            // Inside the run's /tmp: absent unless the run made it.
            return Lookup::Absent;
        }
        self.in_made_dir(path)
    }

    /// A name the run did not make, outside /tmp: absent when its
    /// directory is one the run made (which holds only what the run put
    /// there), else the host's.
    fn in_made_dir(&self, path: &str) -> Lookup {
        match parent(path).and_then(|p| self.entries.get(p)) {
            Some(Entry::Dir { .. }) => Lookup::Absent,
            _ => Lookup::Host,
        }
    }

    /// Whether the directory that would hold `path` is there: `Ok(())`, or
    /// the error making an entry at `path` meets.
    fn parent_ready(&self, cwd: Cwd<'_>, path: &str) -> Answer<()> {
        let Some(dir) = parent(path) else {
            return Ok(Err("eexist"));
        };
        Ok(match self.lookup(cwd, dir) {
            Lookup::Present(Entry::Dir { .. }) => Ok(()),
            Lookup::Present(Entry::File(_)) => Err("enotdir"),
            Lookup::Absent => Err("enoent"),
            Lookup::Host => return Err(NeedsHost),
        })
    }

    /// `file:make_dir/1`.
    pub fn make_dir(&mut self, cwd: Cwd<'_>, path: &str, now: i64) -> Answer<()> {
        if let Err(e) = self.parent_ready(cwd, path)? {
            return Ok(Err(e));
        }
        match self.lookup(cwd, path) {
            Lookup::Present(_) => Ok(Err("eexist")),
            Lookup::Host => Err(NeedsHost),
            Lookup::Absent => {
                let inode = self.fresh_inode(path);
                self.entries
                    .insert(path.to_string(), Entry::Dir { inode, mtime: now });
                Ok(Ok(()))
            }
        }
    }

    /// The names directly inside a directory the run made or owns.
    fn children(&self, path: &str) -> Vec<String> {
        let prefix = if path == "/" {
            "/".to_string()
        } else {
            format!("{path}/")
        };
        self.entries
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter(|rest| !rest.is_empty() && !rest.contains('/'))
            .map(str::to_string)
            .collect()
    }

    /// Every name in `path`, when all are known: a directory the run made,
    /// its /tmp, or the working directory when the loader listed it.
    fn all_names(&self, cwd: Cwd<'_>, path: &str) -> Option<Vec<String>> {
        let mut names = self.children(path);
        if path == cwd.path {
            names.extend(cwd.names?.iter().cloned());
            names.sort();
            names.dedup();
            return Some(names);
        }
        let known = self.entries.contains_key(path)
            || (path == SCRATCH_ROOT && !(within(cwd.path, SCRATCH_ROOT) && cwd.path != "/"));
        known.then_some(names)
    }

    /// `file:list_dir/1`: the names, sorted.
    pub fn list_dir(&self, cwd: Cwd<'_>, path: &str) -> Answer<Vec<String>> {
        match self.lookup(cwd, path) {
            Lookup::Present(Entry::Dir { .. }) if self.all_names(cwd, path).is_some() => {
                Ok(Ok(self.all_names(cwd, path).unwrap_or_default()))
            }
            Lookup::Present(Entry::Dir { .. }) | Lookup::Host => Err(NeedsHost),
            Lookup::Present(Entry::File(_)) => Ok(Err("enotdir")),
            Lookup::Absent => Ok(Err("enoent")),
        }
    }

    /// `file:del_dir/1`.
    pub fn del_dir(&mut self, cwd: Cwd<'_>, path: &str) -> Answer<()> {
        match self.lookup(cwd, path) {
            Lookup::Present(Entry::Dir { .. }) if self.entries.contains_key(path) => {
                if !self.children(path).is_empty() {
                    return Ok(Err("eexist"));
                }
                self.entries.remove(path);
                Ok(Ok(()))
            }
            Lookup::Present(Entry::Dir { .. }) | Lookup::Host => Err(NeedsHost),
            Lookup::Present(Entry::File(_)) => Ok(Err("enotdir")),
            Lookup::Absent => Ok(Err("enoent")),
        }
    }

    /// `file:del_dir_r/1`: a file, or a directory the run made with all
    /// it holds.
    pub fn del_dir_r(&mut self, cwd: Cwd<'_>, path: &str) -> Answer<()> {
        match self.lookup(cwd, path) {
            Lookup::Present(_) if self.entries.contains_key(path) => {
                let prefix = format!("{path}/");
                let gone: Vec<String> = self
                    .entries
                    .keys()
                    .filter(|k| k.as_str() == path || k.starts_with(&prefix))
                    .cloned()
                    .collect();
                for k in gone {
                    self.entries.remove(&k);
                }
                Ok(Ok(()))
            }
            Lookup::Present(_) | Lookup::Host => Err(NeedsHost),
            Lookup::Absent => Ok(Err("enoent")),
        }
    }

    /// `file:delete/1`.
    pub fn delete(&mut self, cwd: Cwd<'_>, path: &str) -> Answer<()> {
        match self.lookup(cwd, path) {
            Lookup::Present(Entry::File(_)) => {
                self.entries.remove(path);
                Ok(Ok(()))
            }
            // Linux's unlink(2) of a directory: EISDIR, which OTP's
            // prim_file answers as eperm.
            Lookup::Present(Entry::Dir { .. }) => Ok(Err("eperm")),
            Lookup::Absent => Ok(Err("enoent")),
            Lookup::Host => Err(NeedsHost),
        }
    }

    /// `file:rename/2`: a file over an absent name or another file, or a
    /// directory the run made to an absent name (with what it holds).
    pub fn rename(&mut self, cwd: Cwd<'_>, from: &str, to: &str) -> Answer<()> {
        let source = match self.lookup(cwd, from) {
            Lookup::Present(e) if self.entries.contains_key(from) => e,
            Lookup::Present(_) | Lookup::Host => return Err(NeedsHost),
            Lookup::Absent => return Ok(Err("enoent")),
        };
        if let Err(e) = self.parent_ready(cwd, to)? {
            return Ok(Err(e));
        }
        if from == to {
            return Ok(Ok(()));
        }
        let target = self.lookup(cwd, to);
        match (&source, target) {
            (_, Lookup::Host) => Err(NeedsHost),
            (Entry::File(_), Lookup::Present(Entry::Dir { .. })) => Ok(Err("eisdir")),
            (Entry::Dir { .. }, Lookup::Present(Entry::File(_))) => Ok(Err("enotdir")),
            (Entry::Dir { .. }, Lookup::Present(Entry::Dir { .. })) => Ok(Err("eexist")),
            (Entry::Dir { .. }, _) if within(to, from) => Ok(Err("einval")),
            _ => {
                let prefix = format!("{from}/");
                let moved: Vec<(String, Entry)> = self
                    .entries
                    .iter()
                    .filter(|(k, _)| k.as_str() == from || k.starts_with(&prefix))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                for (k, v) in moved {
                    self.entries.remove(&k);
                    let new = format!("{to}{}", &k[from.len()..]);
                    self.entries.insert(new, v);
                }
                let ids: Vec<u64> = self
                    .handles
                    .iter()
                    .filter(|(_, h)| h.path == from || h.path.starts_with(&prefix))
                    .map(|(id, _)| *id)
                    .collect();
                for id in ids {
                    if let Some(h) = self.handles.get_mut(&id) {
                        h.path = format!("{to}{}", &h.path[from.len()..]);
                    }
                }
                Ok(Ok(()))
            }
        }
    }

    /// `file:open/2`: a new handle's number.
    pub fn open(&mut self, cwd: Cwd<'_>, path: &str, mode: OpenMode, now: i64) -> Answer<u64> {
        let writes = mode.write || mode.append;
        let inode = match self.lookup(cwd, path) {
            Lookup::Host => return Err(NeedsHost),
            Lookup::Present(Entry::Dir { .. }) => return Ok(Err("eisdir")),
            Lookup::Present(Entry::File(_)) if writes && mode.exclusive => {
                return Ok(Err("eexist"));
            }
            Lookup::Present(Entry::File(mut f)) => {
                // `write` without `read` or `append` truncates.
                if mode.write && !mode.read && !mode.append {
                    f.bytes = Arc::new(Vec::new());
                    f.mtime = now;
                    f.ctime = now;
                    let inode = f.inode;
                    self.entries.insert(path.to_string(), Entry::File(f));
                    inode
                } else {
                    f.inode
                }
            }
            Lookup::Absent if !writes => return Ok(Err("enoent")),
            Lookup::Absent => {
                if let Err(e) = self.parent_ready(cwd, path)? {
                    return Ok(Err(e));
                }
                let inode = self.fresh_inode(path);
                self.entries.insert(
                    path.to_string(),
                    Entry::File(FileData {
                        bytes: Arc::new(Vec::new()),
                        inode,
                        mtime: now,
                        ctime: now,
                    }),
                );
                inode
            }
        };
        self.next_handle += 1;
        let id = self.next_handle;
        self.handles.insert(
            id,
            Handle {
                path: path.to_string(),
                inode,
                read: mode.read || !writes,
                write: writes,
                append: mode.append,
                binary: mode.binary,
                pos: 0,
            },
        );
        Ok(Ok(id))
    }

    /// The file an open handle reads and writes, if it is still there
    /// under the handle's path (a handle to a deleted file writes nowhere
    /// the run can see again).
    fn handle_file(&self, id: u64) -> Option<(Handle, Option<FileData>)> {
        let h = self.handles.get(&id)?.clone();
        let f = match self.entries.get(&h.path) {
            Some(Entry::File(f)) if f.inode == h.inode => Some(f.clone()),
            _ => None,
        };
        Some((h, f))
    }

    /// `file:write/2` on a handle.
    pub fn write(&mut self, id: u64, data: &[u8], now: i64) -> Result<(), &'static str> {
        let Some((mut h, file)) = self.handle_file(id) else {
            return Err("einval");
        };
        if !h.write {
            return Err("ebadf");
        }
        let mut bytes = file.as_ref().map(|f| f.bytes.to_vec()).unwrap_or_default();
        let at = if h.append { bytes.len() } else { h.pos };
        if bytes.len() < at {
            bytes.resize(at, 0);
        }
        let end = at + data.len();
        if bytes.len() < end {
            bytes.resize(end, 0);
        }
        bytes[at..end].copy_from_slice(data);
        h.pos = end;
        if let Some(mut f) = file {
            f.bytes = Arc::new(bytes);
            f.mtime = now;
            f.ctime = now;
            self.entries.insert(h.path.clone(), Entry::File(f));
        }
        self.handles.insert(id, h);
        Ok(())
    }

    /// `file:read/2` on a handle: up to `n` bytes, `None` at the end.
    pub fn read(&mut self, id: u64, n: usize) -> Result<Option<Vec<u8>>, &'static str> {
        let Some((mut h, file)) = self.handle_file(id) else {
            return Err("einval");
        };
        if !h.read {
            return Err("ebadf");
        }
        let bytes = file.map(|f| f.bytes).unwrap_or_default();
        if h.pos >= bytes.len() {
            return Ok(None);
        }
        let end = (h.pos + n).min(bytes.len());
        let out = bytes[h.pos..end].to_vec();
        h.pos = end;
        self.handles.insert(id, h);
        Ok(Some(out))
    }

    /// `file:read_line/1` on a handle: through the next newline.
    pub fn read_line(&mut self, id: u64) -> Result<Option<Vec<u8>>, &'static str> {
        let Some((h, file)) = self.handle_file(id) else {
            return Err("einval");
        };
        let bytes = file.map(|f| f.bytes).unwrap_or_default();
        let rest = bytes.get(h.pos..).unwrap_or_default();
        let n = rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(rest.len(), |i| i + 1);
        self.read(id, n.max(1))
    }

    /// `file:position/2` on a handle: the new position.
    pub fn position(&mut self, id: u64, whence: Whence, offset: i64) -> Result<u64, &'static str> {
        let Some((mut h, file)) = self.handle_file(id) else {
            return Err("einval");
        };
        let size = file.map_or(0, |f| f.bytes.len()) as i64;
        let base = match whence {
            Whence::Bof => 0,
            Whence::Cur => h.pos as i64,
            Whence::Eof => size,
        };
        let at = base + offset;
        if at < 0 {
            return Err("einval");
        }
        h.pos = at as usize;
        self.handles.insert(id, h);
        Ok(at as u64)
    }

    /// `file:close/1`: `Err` when the handle was closed already.
    pub fn close(&mut self, id: u64) -> Result<(), &'static str> {
        self.handles.remove(&id).map(|_| ()).ok_or("einval")
    }

    /// The path an open handle names (for the events a BIF makes).
    pub fn handle_path(&self, id: u64) -> Option<&str> {
        self.handles.get(&id).map(|h| h.path.as_str())
    }

    /// Whether an open handle gives binaries.
    pub fn handle_binary(&self, id: u64) -> bool {
        self.handles.get(&id).is_some_and(|h| h.binary)
    }
}

/// Where `file:position/2` counts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whence {
    Bof,
    Cur,
    Eof,
}

#[cfg(test)]
mod tests {
    use super::*;

    const CWD: Cwd<'static> = Cwd {
        path: "/home/u/proj",
        names: None,
    };

    fn answer<T>(a: Answer<T>) -> Result<T, String> {
        match a {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(e.to_string()),
            Err(NeedsHost) => Err("host".into()),
        }
    }

    #[test]
    fn normalize_joins_and_folds() {
        assert_eq!(normalize(CWD.path, "log/a.log"), "/home/u/proj/log/a.log");
        assert_eq!(normalize(CWD.path, "/tmp//x/./y/../z/"), "/tmp/x/z");
        assert_eq!(normalize(CWD.path, "/.."), "/");
    }

    #[test]
    fn tmp_is_the_runs_and_the_rest_is_the_hosts() {
        let f = Files::default();
        assert_eq!(f.lookup(CWD, "/tmp/none"), Lookup::Absent);
        assert!(matches!(
            f.lookup(CWD, "/tmp"),
            Lookup::Present(Entry::Dir { .. })
        ));
        assert!(matches!(
            f.lookup(CWD, "/home/u"),
            Lookup::Present(Entry::Dir { .. })
        ));
        assert_eq!(f.lookup(CWD, "/home/u/proj/rebar.config"), Lookup::Host);
        assert_eq!(f.lookup(CWD, "/etc/passwd"), Lookup::Host);
        // A working directory under /tmp keeps the host's contents.
        let root = Cwd {
            path: "/",
            names: None,
        };
        assert_eq!(f.lookup(root, "/tmp/x"), Lookup::Absent);
        assert_eq!(f.lookup(root, "/etc"), Lookup::Host);
        let under_tmp = Cwd {
            path: "/tmp/p",
            names: None,
        };
        assert_eq!(f.lookup(under_tmp, "/tmp/p/src"), Lookup::Host);
        assert_eq!(f.lookup(under_tmp, "/tmp/q"), Lookup::Absent);
        // A listed working directory: a name it does not hold is absent.
        let names: std::collections::BTreeSet<String> = ["src".to_string()].into();
        let listed = Cwd {
            path: "/home/u/proj",
            names: Some(&names),
        };
        assert_eq!(f.lookup(listed, "/home/u/proj/src"), Lookup::Host);
        assert_eq!(f.lookup(listed, "/home/u/proj/src/a.erl"), Lookup::Host);
        assert_eq!(f.lookup(listed, "/home/u/proj/log"), Lookup::Absent);
        assert_eq!(f.lookup(listed, "/home/u/proj/log/x"), Lookup::Absent);
        let mut g = Files::default();
        assert_eq!(answer(g.make_dir(listed, "/home/u/proj/log", 1)), Ok(()));
        assert_eq!(g.lookup(listed, "/home/u/proj/log/x"), Lookup::Absent);
        assert_eq!(
            answer(g.list_dir(listed, "/home/u/proj")),
            Ok(vec!["log".to_string(), "src".to_string()])
        );
    }

    #[test]
    fn a_made_directory_holds_only_what_the_run_put_there() {
        let mut f = Files::default();
        assert_eq!(
            answer(f.make_dir(CWD, "/home/u/proj/log", 5)),
            Err("host".into())
        );
        assert_eq!(answer(f.make_dir(CWD, "/tmp/a/b", 5)), Err("enoent".into()));
        assert_eq!(answer(f.make_dir(CWD, "/tmp/a", 5)), Ok(()));
        assert_eq!(answer(f.make_dir(CWD, "/tmp/a", 5)), Err("eexist".into()));
        let h = answer(f.open(
            CWD,
            "/tmp/a/x",
            OpenMode {
                append: true,
                ..Default::default()
            },
            6,
        ))
        .unwrap();
        f.write(h, b"hello\n", 7).unwrap();
        f.write(h, b"more", 7).unwrap();
        f.close(h).unwrap();
        assert_eq!(f.close(h), Err("einval"));
        assert_eq!(answer(f.list_dir(CWD, "/tmp/a")), Ok(vec!["x".to_string()]));
        assert_eq!(answer(f.del_dir(CWD, "/tmp/a")), Err("eexist".into()));
        let r = answer(f.open(
            CWD,
            "/tmp/a/x",
            OpenMode {
                read: true,
                ..Default::default()
            },
            8,
        ))
        .unwrap();
        assert_eq!(f.read_line(r), Ok(Some(b"hello\n".to_vec())));
        assert_eq!(f.read(r, 100), Ok(Some(b"more".to_vec())));
        assert_eq!(f.read(r, 100), Ok(None));
        assert_eq!(answer(f.rename(CWD, "/tmp/a", "/tmp/b")), Ok(()));
        assert_eq!(f.lookup(CWD, "/tmp/a/x"), Lookup::Absent);
        assert!(matches!(
            f.lookup(CWD, "/tmp/b/x"),
            Lookup::Present(Entry::File(_))
        ));
        assert_eq!(answer(f.delete(CWD, "/tmp/b/x")), Ok(()));
        assert_eq!(answer(f.del_dir(CWD, "/tmp/b")), Ok(()));
        assert_eq!(answer(f.list_dir(CWD, "/tmp")), Ok(vec![]));
    }

    #[test]
    fn an_inode_depends_on_its_path_and_how_often_it_was_made() {
        let inode = |f: &Files, p: &str| match f.lookup(CWD, p) {
            Lookup::Present(Entry::File(d)) => d.inode,
            other => panic!("{other:?}"),
        };
        let w = OpenMode {
            write: true,
            ..Default::default()
        };
        let mut a = Files::default();
        answer(a.open(CWD, "/tmp/x", w, 1)).unwrap();
        answer(a.open(CWD, "/tmp/y", w, 1)).unwrap();
        let mut b = Files::default();
        answer(b.open(CWD, "/tmp/y", w, 1)).unwrap();
        answer(b.open(CWD, "/tmp/x", w, 1)).unwrap();
        assert_eq!(inode(&a, "/tmp/x"), inode(&b, "/tmp/x"));
        assert_ne!(inode(&a, "/tmp/x"), inode(&a, "/tmp/y"));
        let first = inode(&a, "/tmp/x");
        answer(a.delete(CWD, "/tmp/x")).unwrap();
        answer(a.open(CWD, "/tmp/x", w, 2)).unwrap();
        assert_ne!(inode(&a, "/tmp/x"), first);
    }

    #[test]
    fn write_truncates_and_exclusive_refuses() {
        let mut f = Files::default();
        let w = OpenMode {
            write: true,
            ..Default::default()
        };
        let h = answer(f.open(CWD, "/tmp/x", w, 1)).unwrap();
        f.write(h, b"abc", 1).unwrap();
        let h2 = answer(f.open(CWD, "/tmp/x", w, 2)).unwrap();
        assert!(
            matches!(f.lookup(CWD, "/tmp/x"), Lookup::Present(Entry::File(d)) if d.bytes.is_empty())
        );
        assert_eq!(f.position(h2, Whence::Eof, 0), Ok(0));
        let ex = OpenMode {
            write: true,
            exclusive: true,
            ..Default::default()
        };
        assert_eq!(answer(f.open(CWD, "/tmp/x", ex, 3)), Err("eexist".into()));
        assert_eq!(
            answer(f.open(
                CWD,
                "/tmp/none",
                OpenMode {
                    read: true,
                    ..Default::default()
                },
                3
            )),
            Err("enoent".into())
        );
        assert_eq!(answer(f.open(CWD, "/tmp", w, 3)), Err("eisdir".into()));
    }
}
