//! `file`'s functions over the run-local files of `crate::files`: names
//! made absolute against the working directory, raw descriptors as OTP's
//! `#file_descriptor{module = prim_file}`, and a file opened without `raw`
//! served by an io device process (`prelude/racewit_file_io.erl`), as
//! OTP's `file_io_server` serves it. A step that looks at or changes a
//! path is a visible one with the path as its shared item (creating or
//! removing a name also writes its directory, whose listing changed), so
//! the search orders file operations of different processes on one path
//! as it orders ETS operations on one key. What needs the host's real
//! files parks the caller, naming the call and the path.

use crate::atom::Atom;
use crate::bif::{Ctx, Flow, Table, chardata_string, iolist_bytes, tuple2};
use crate::event::{Access, EventKind, SharedItem};
use crate::files::{Answer, Cwd, Entry, Lookup, NeedsHost, OpenMode, Whence, normalize, parent};
use crate::library::ParkReason;
use crate::term::Term;

pub fn register(t: &mut Table) {
    t.ctx("file", "get_cwd", 0, |ctx, _| {
        Flow::Value(tuple2(Term::ok(), Term::string(&cwd_path(ctx))))
    });
    t.ctx("file", "open", 2, open);
    t.ctx("file", "close", 1, |ctx, a| on_handle(ctx, "close", a));
    t.ctx("file", "write", 2, |ctx, a| on_handle(ctx, "write", a));
    t.ctx("file", "read", 2, |ctx, a| on_handle(ctx, "read", a));
    t.ctx("file", "read_line", 1, |ctx, a| {
        on_handle(ctx, "read_line", a)
    });
    t.ctx("file", "position", 2, |ctx, a| {
        on_handle(ctx, "position", a)
    });
    t.ctx("file", "sync", 1, |ctx, a| on_handle(ctx, "sync", a));
    t.ctx("file", "datasync", 1, |ctx, a| {
        on_handle(ctx, "datasync", a)
    });
    t.ctx("file", "read_file", 1, read_file);
    t.ctx("file", "write_file", 2, |ctx, a| {
        write_file(ctx, &a[0], &a[1], &Term::Nil)
    });
    t.ctx("file", "write_file", 3, |ctx, a| {
        write_file(ctx, &a[0], &a[1], &a[2])
    });
    t.ctx("file", "read_file_info", 1, |ctx, a| {
        file_info(ctx, "read_file_info", &a[0], &Term::Nil)
    });
    t.ctx("file", "read_file_info", 2, |ctx, a| {
        file_info(ctx, "read_file_info", &a[0], &a[1])
    });
    t.ctx("file", "read_link_info", 1, |ctx, a| {
        file_info(ctx, "read_link_info", &a[0], &Term::Nil)
    });
    t.ctx("file", "read_link_info", 2, |ctx, a| {
        file_info(ctx, "read_link_info", &a[0], &a[1])
    });
    t.ctx("file", "make_dir", 1, |ctx, a| {
        change(ctx, "make_dir", &a[0], None)
    });
    t.ctx("file", "del_dir", 1, |ctx, a| {
        change(ctx, "del_dir", &a[0], None)
    });
    t.ctx("file", "del_dir_r", 1, |ctx, a| {
        change(ctx, "del_dir_r", &a[0], None)
    });
    t.ctx("file", "delete", 1, |ctx, a| {
        change(ctx, "delete", &a[0], None)
    });
    t.ctx("file", "rename", 2, |ctx, a| {
        change(ctx, "rename", &a[0], Some(&a[1]))
    });
    t.ctx("file", "list_dir", 1, list_dir);
    // The io device's side: the handle a file opened without `raw` holds.
    t.ctx("racewit_file_io", "handle", 3, |ctx, a| {
        let [op, fd, arg] = a else {
            return Flow::badarg();
        };
        let Some(op) = op.as_atom() else {
            return Flow::badarg();
        };
        raw_op(ctx, op.name(), fd, Some(arg), false)
    });
}

/// The working directory: the one racewit runs in (`/` with no loader).
fn cwd_path(ctx: &Ctx<'_>) -> String {
    ctx.vm
        .code
        .libraries
        .cwd
        .clone()
        .unwrap_or_else(|| "/".to_string())
}

/// The working directory as the loader saw it (see [`Cwd`]).
fn cwd_of(libs: &crate::library::Libraries) -> Cwd<'_> {
    Cwd {
        path: libs.cwd.as_deref().unwrap_or("/"),
        names: libs.cwd_names.as_deref(),
    }
}

/// A file name (a string, a deep list of characters, a binary or an atom)
/// as an absolute, normalized path.
fn path_arg(ctx: &Ctx<'_>, name: &Term) -> Option<String> {
    let mut s = String::new();
    match name {
        Term::Atom(a) => s.push_str(a.name()),
        other => chardata_string(other, &mut s).ok()?,
    }
    if s.is_empty() || s.contains('\0') {
        return None;
    }
    Some(normalize(&cwd_path(ctx), &s))
}

fn error(reason: &str) -> Term {
    tuple2(Term::atom("error"), Term::atom(reason))
}

fn now(ctx: &mut Ctx<'_>) -> i64 {
    crate::bif::clock::system_us(ctx).div_euclid(1_000_000)
}

/// The caller parks: `file:F/N` needs the host's files at `path`.
fn host(call: &str, path: &str) -> Flow {
    Flow::ParkWith(ParkReason::Host, format!("{call} of {path:?}"))
}

/// A visible step on the paths given.
fn emit(ctx: &mut Ctx<'_>, text: String, items: &[(&str, Access)]) {
    let ev = ctx.emit(EventKind::Local, text);
    for (path, access) in items {
        ev.accesses
            .push((SharedItem::File(path.to_string()), *access));
    }
    if let Some((path, access)) = items.first() {
        ev.item = Some(SharedItem::File(path.to_string()));
        ev.access = Some(*access);
    }
}

/// `Ok` as the value, an error as `{error, Reason}`.
fn answer<T>(a: Answer<T>, ok: impl FnOnce(T) -> Term) -> Result<Term, NeedsHost> {
    match a {
        Ok(Ok(v)) => Ok(ok(v)),
        Ok(Err(e)) => Ok(error(e)),
        Err(NeedsHost) => Err(NeedsHost),
    }
}

/// `file:open/2`.
fn open(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Some(path) = path_arg(ctx, &a[0]) else {
        return Flow::Value(error("badarg"));
    };
    let Some(modes) = a[1]
        .list_len()
        .map(|_| a[1].list_iter().cloned().collect::<Vec<_>>())
    else {
        return Flow::Value(error("badarg"));
    };
    let mut mode = OpenMode::default();
    let mut raw = false;
    for m in &modes {
        let name = match m {
            Term::Atom(x) => x.name(),
            Term::Tuple(t) => match t.first() {
                Some(Term::Atom(x)) => x.name(),
                _ => continue,
            },
            _ => continue,
        };
        match name {
            "read" => mode.read = true,
            "write" => mode.write = true,
            "append" => mode.append = true,
            "exclusive" => mode.exclusive = true,
            "binary" => mode.binary = true,
            "raw" => raw = true,
            "compressed" | "compressed_one" | "ram" => {
                return Flow::ParkWith(ParkReason::Unsupported, format!("file:open/2 with {name}"));
            }
            _ => {}
        }
    }
    let libs = ctx.vm.code.libraries.clone();
    let cwd = cwd_of(&libs);
    let now = now(ctx);
    let result = ctx.vm.world.files.open(cwd, &path, mode, now);
    let Ok(result) = result else {
        return host("file:open/2", &path);
    };
    let dir = parent(&path).unwrap_or("/").to_string();
    let writes = mode.write || mode.append;
    let items: Vec<(&str, Access)> = if writes {
        vec![(&path, Access::Write), (&dir, Access::Write)]
    } else {
        vec![(&path, Access::Read)]
    };
    let text = match &result {
        Ok(_) => format!("file:open({path:?}, {}) -> ok", crate::format::brief(&a[1])),
        Err(e) => format!(
            "file:open({path:?}, {}) -> {{error,{e}}}",
            crate::format::brief(&a[1])
        ),
    };
    emit(ctx, text, &items);
    let id = match result {
        Ok(id) => id,
        Err(e) => return Flow::Value(error(e)),
    };
    let fd = descriptor(ctx, id);
    if raw {
        return Flow::Value(tuple2(Term::ok(), fd));
    }
    // A file opened without raw: an io device process holds the descriptor.
    let target = ctx
        .vm
        .resolve(Atom::new("racewit_file_io"), Atom::new("start"), 2);
    Flow::Call(target, vec![fd, Term::bool(mode.binary)])
}

/// A raw descriptor as OTP 25's: `{file_descriptor, prim_file, #{handle
/// => H, owner => Pid}}` (the handle an integer here, a reference there).
fn descriptor(ctx: &Ctx<'_>, id: u64) -> Term {
    Term::tuple(vec![
        Term::atom("file_descriptor"),
        Term::atom("prim_file"),
        Term::map(vec![
            (Term::atom("handle"), Term::Int(id as i64)),
            (Term::atom("owner"), Term::Pid(ctx.pid())),
        ]),
    ])
}

/// The handle number of a raw descriptor, and the process that opened it.
fn handle_of(fd: &Term) -> Option<(u64, crate::term::Pid)> {
    let t = fd.as_tuple()?;
    let [Term::Atom(tag), Term::Atom(m), Term::Map(data)] = t else {
        return None;
    };
    if tag.name() != "file_descriptor" || m.name() != "prim_file" {
        return None;
    }
    let id = match data.get(&crate::term::MapKey(Term::atom("handle")))? {
        Term::Int(i) => u64::try_from(*i).ok()?,
        _ => return None,
    };
    match data.get(&crate::term::MapKey(Term::atom("owner")))? {
        Term::Pid(p) => Some((id, *p)),
        _ => None,
    }
}

/// `file:close/1`, `write/2`, ... on a descriptor: a raw one here, an io
/// device's through its process.
fn on_handle(ctx: &mut Ctx<'_>, op: &str, a: &[Term]) -> Flow {
    match &a[0] {
        Term::Pid(_) => {
            let arg = a.get(1).cloned().unwrap_or(Term::Nil);
            let target = ctx
                .vm
                .resolve(Atom::new("racewit_file_io"), Atom::new("request"), 3);
            Flow::Call(target, vec![a[0].clone(), Term::atom(op), arg])
        }
        fd => raw_op(ctx, op, fd, a.get(1), true),
    }
}

/// One operation on a raw descriptor; `owned`: only the process that
/// opened it may use it (`not_on_controlling_process` otherwise, as OTP's
/// prim_file raises), as for every caller but a file's own io device.
fn raw_op(ctx: &mut Ctx<'_>, op: &str, fd: &Term, arg: Option<&Term>, owned: bool) -> Flow {
    let Some((id, owner)) = handle_of(fd) else {
        return Flow::badarg();
    };
    if owned && owner != ctx.pid() {
        return Flow::error(Term::atom("not_on_controlling_process"));
    }
    let path = ctx.vm.world.files.handle_path(id).map(str::to_string);
    let binary = ctx.vm.world.files.handle_binary(id);
    let now = now(ctx);
    let files = &mut ctx.vm.world.files;
    let (value, access) = match op {
        "close" => (files.close(id).map(|()| Term::ok()), Access::Read),
        "sync" | "datasync" => (
            files.handle_path(id).map(|_| Term::ok()).ok_or("einval"),
            Access::Read,
        ),
        "write" => {
            let mut bytes = Vec::new();
            if iolist_bytes(arg.unwrap_or(&Term::Nil), &mut bytes).is_err() {
                return Flow::Value(error("badarg"));
            }
            (
                files.write(id, &bytes, now).map(|()| Term::ok()),
                Access::Write,
            )
        }
        "read" | "read_line" => {
            let got = if op == "read" {
                match arg {
                    Some(Term::Int(n)) if *n >= 0 => files.read(id, *n as usize),
                    _ => return Flow::Value(error("badarg")),
                }
            } else {
                files.read_line(id)
            };
            let value = got.map(|data| match data {
                None => Term::atom("eof"),
                Some(b) if binary => tuple2(Term::ok(), Term::binary(b)),
                Some(b) => tuple2(
                    Term::ok(),
                    Term::list(b.into_iter().map(|c| Term::Int(c as i64)).collect()),
                ),
            });
            (value, Access::Read)
        }
        "position" => {
            let (whence, offset) = match arg {
                Some(Term::Int(n)) => (Whence::Bof, *n),
                Some(Term::Atom(a)) if a.name() == "bof" => (Whence::Bof, 0),
                Some(Term::Atom(a)) if a.name() == "cur" => (Whence::Cur, 0),
                Some(Term::Atom(a)) if a.name() == "eof" => (Whence::Eof, 0),
                Some(Term::Tuple(t)) => match &t[..] {
                    [Term::Atom(w), Term::Int(n)] => match w.name() {
                        "bof" => (Whence::Bof, *n),
                        "cur" => (Whence::Cur, *n),
                        "eof" => (Whence::Eof, *n),
                        _ => return Flow::Value(error("einval")),
                    },
                    _ => return Flow::Value(error("einval")),
                },
                _ => return Flow::Value(error("einval")),
            };
            let at = files.position(id, whence, offset);
            (
                at.map(|n| tuple2(Term::ok(), Term::Int(n as i64))),
                Access::Read,
            )
        }
        _ => return Flow::badarg(),
    };
    let value = value.unwrap_or_else(error);
    let shown = path.clone().unwrap_or_else(|| format!("handle {id}"));
    emit(
        ctx,
        format!("file:{op}({shown:?}) -> {}", crate::format::brief(&value)),
        &[(&shown, access)],
    );
    Flow::Value(value)
}

/// `file:read_file/1`.
fn read_file(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Some(path) = path_arg(ctx, &a[0]) else {
        return Flow::Value(error("badarg"));
    };
    let value = match ctx
        .vm
        .world
        .files
        .lookup(cwd_of(&ctx.vm.code.libraries.clone()), &path)
    {
        Lookup::Present(Entry::File(f)) => tuple2(Term::ok(), Term::binary(f.bytes.to_vec())),
        Lookup::Present(Entry::Dir { .. }) => error("eisdir"),
        Lookup::Absent => error("enoent"),
        Lookup::Host => return host("file:read_file/1", &path),
    };
    emit(
        ctx,
        format!(
            "file:read_file({path:?}) -> {}",
            crate::format::brief(&value)
        ),
        &[(&path, Access::Read)],
    );
    Flow::Value(value)
}

/// `file:write_file/2,3`: open, write and close in one step.
fn write_file(ctx: &mut Ctx<'_>, name: &Term, data: &Term, modes: &Term) -> Flow {
    let Some(path) = path_arg(ctx, name) else {
        return Flow::Value(error("badarg"));
    };
    let mut bytes = Vec::new();
    if iolist_bytes(data, &mut bytes).is_err() {
        return Flow::Value(error("badarg"));
    }
    let append = modes
        .list_iter()
        .any(|m| m.as_atom().is_some_and(|a| a.name() == "append"));
    let exclusive = modes
        .list_iter()
        .any(|m| m.as_atom().is_some_and(|a| a.name() == "exclusive"));
    let mode = OpenMode {
        write: true,
        append,
        exclusive,
        ..OpenMode::default()
    };
    let libs = ctx.vm.code.libraries.clone();
    let cwd = cwd_of(&libs);
    let now = now(ctx);
    let files = &mut ctx.vm.world.files;
    let value = match files.open(cwd, &path, mode, now) {
        Err(NeedsHost) => return host("file:write_file/2", &path),
        Ok(Err(e)) => error(e),
        Ok(Ok(id)) => {
            let w = files.write(id, &bytes, now);
            let _ = files.close(id);
            w.map(|()| Term::ok()).unwrap_or_else(error)
        }
    };
    let dir = parent(&path).unwrap_or("/").to_string();
    emit(
        ctx,
        format!(
            "file:write_file({path:?}, {} bytes) -> {}",
            bytes.len(),
            crate::format::brief(&value)
        ),
        &[(&path, Access::Write), (&dir, Access::Write)],
    );
    Flow::Value(value)
}

/// `file:read_file_info/1,2` and `read_link_info/1,2` (the model has no
/// symbolic links): a `#file_info{}` record, its times in the option
/// `{time, local | universal | posix}` (local by default; the model's
/// time zone is UTC).
fn file_info(ctx: &mut Ctx<'_>, call: &str, name: &Term, opts: &Term) -> Flow {
    let Some(path) = path_arg(ctx, name) else {
        return Flow::Value(error("badarg"));
    };
    let posix = opts.list_iter().any(|o| match o.as_tuple() {
        Some([Term::Atom(k), Term::Atom(v)]) => k.name() == "time" && v.name() == "posix",
        _ => false,
    });
    let value = match ctx
        .vm
        .world
        .files
        .lookup(cwd_of(&ctx.vm.code.libraries.clone()), &path)
    {
        Lookup::Present(e) => tuple2(Term::ok(), info_record(&e, posix)),
        Lookup::Absent => error("enoent"),
        Lookup::Host => return host(&format!("file:{call}/1"), &path),
    };
    emit(
        ctx,
        format!("file:{call}({path:?}) -> {}", crate::format::brief(&value)),
        &[(&path, Access::Read)],
    );
    Flow::Value(value)
}

/// `#file_info{size, type, access, atime, mtime, ctime, mode, links,
/// major_device, minor_device, inode, uid, gid}`.
fn info_record(e: &Entry, posix: bool) -> Term {
    let (kind, size, inode, mtime, ctime, mode) = match e {
        Entry::Dir { inode, mtime } => ("directory", 4096, *inode, *mtime, *mtime, 0o40755),
        Entry::File(f) => (
            "regular",
            f.bytes.len() as i64,
            f.inode,
            f.mtime,
            f.ctime,
            0o100644,
        ),
    };
    let time = |secs: i64| {
        if posix {
            Term::Int(secs)
        } else {
            let (d, t) = crate::bif::clock::date_time(secs);
            tuple2(d, t)
        }
    };
    Term::tuple(vec![
        Term::atom("file_info"),
        Term::Int(size),
        Term::atom(kind),
        Term::atom("read_write"),
        time(mtime),
        time(mtime),
        time(ctime),
        Term::Int(mode),
        Term::Int(if kind == "directory" { 2 } else { 1 }),
        Term::Int(0),
        Term::Int(0),
        Term::Int(inode as i64),
        Term::Int(0),
        Term::Int(0),
    ])
}

/// `file:make_dir/1`, `del_dir/1`, `delete/1`, `rename/2`: a change of a
/// name (and so of its directory's listing).
fn change(ctx: &mut Ctx<'_>, op: &str, name: &Term, to: Option<&Term>) -> Flow {
    let Some(path) = path_arg(ctx, name) else {
        return Flow::Value(error("badarg"));
    };
    let target = match to {
        Some(t) => match path_arg(ctx, t) {
            Some(p) => Some(p),
            None => return Flow::Value(error("badarg")),
        },
        None => None,
    };
    let libs = ctx.vm.code.libraries.clone();
    let cwd = cwd_of(&libs);
    let now = now(ctx);
    let files = &mut ctx.vm.world.files;
    let result = match (op, &target) {
        ("make_dir", _) => files.make_dir(cwd, &path, now),
        ("del_dir", _) => files.del_dir(cwd, &path),
        ("del_dir_r", _) => files.del_dir_r(cwd, &path),
        ("delete", _) => files.delete(cwd, &path),
        (_, Some(t)) => files.rename(cwd, &path, t),
        _ => return Flow::badarg(),
    };
    let arity = if target.is_some() { 2 } else { 1 };
    let Ok(value) = answer(result, |()| Term::ok()) else {
        return host(&format!("file:{op}/{arity}"), &path);
    };
    let mut paths = vec![path.clone()];
    paths.extend(target.clone());
    let dirs: Vec<String> = paths
        .iter()
        .map(|p| parent(p).unwrap_or("/").to_string())
        .collect();
    let mut items: Vec<(&str, Access)> =
        paths.iter().map(|p| (p.as_str(), Access::Write)).collect();
    items.extend(dirs.iter().map(|d| (d.as_str(), Access::Write)));
    let shown = match &target {
        Some(t) => format!("{path:?}, {t:?}"),
        None => format!("{path:?}"),
    };
    emit(
        ctx,
        format!("file:{op}({shown}) -> {}", crate::format::brief(&value)),
        &items,
    );
    Flow::Value(value)
}

/// `file:list_dir/1`: the names as strings, sorted.
fn list_dir(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Some(path) = path_arg(ctx, &a[0]) else {
        return Flow::Value(error("badarg"));
    };
    let listed = ctx
        .vm
        .world
        .files
        .list_dir(cwd_of(&ctx.vm.code.libraries.clone()), &path);
    let Ok(value) = answer(listed, |names| {
        tuple2(
            Term::ok(),
            Term::list(names.iter().map(|n| Term::string(n)).collect()),
        )
    }) else {
        return host("file:list_dir/1", &path);
    };
    emit(
        ctx,
        format!(
            "file:list_dir({path:?}) -> {}",
            crate::format::brief(&value)
        ),
        &[(&path, Access::Read)],
    );
    Flow::Value(value)
}
