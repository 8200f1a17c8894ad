//! Running `racewit` on hostile input: under an address-space limit, with a
//! watchdog, its peak memory and thread count sampled from
//! `/proc/PID/status` while it runs.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Address space a run may use, in KiB (`ulimit -v`): a regression that
/// allocates without bound fails its test instead of taking the machine.
pub const MEMORY_LIMIT_KIB: u64 = 4 << 20;

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident memory (`VmHWM`), last sampled, in KiB.
    pub peak_kib: u64,
    /// Most threads seen at once.
    pub threads: u64,
}

impl Run {
    /// Stdout without the timing of the summary line (`seconds: S`).
    pub fn lines(&self) -> Vec<String> {
        self.stdout
            .lines()
            .map(|l| match l.find(", seconds: ") {
                Some(i) => l[..i].to_string(),
                None => l.to_string(),
            })
            .collect()
    }

    /// Stdout as JSON (`--format json`).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_racewit")
}

/// How one run is made.
pub struct Racewit<'a> {
    pub dir: &'a Path,
    pub args: Vec<String>,
    /// Run as this user (through `setpriv`): root reads anything.
    pub user: Option<u32>,
    /// The run must end within this time (else it hangs: killed, and the
    /// test fails saying so).
    pub within: Duration,
    /// A shell pipeline after racewit (`| true`), its exit code kept.
    pub pipe_to: Option<&'a str>,
}

impl<'a> Racewit<'a> {
    pub fn new(dir: &'a Path, args: &[&str]) -> Self {
        Racewit {
            dir,
            args: args.iter().map(|s| s.to_string()).collect(),
            user: None,
            within: Duration::from_secs(120),
            pipe_to: None,
        }
    }

    pub fn within(mut self, secs: u64) -> Self {
        self.within = Duration::from_secs(secs);
        self
    }

    pub fn run_as(mut self, uid: Option<u32>) -> Self {
        self.user = uid;
        self
    }

    pub fn piped_to(mut self, cmd: &'a str) -> Self {
        self.pipe_to = Some(cmd);
        self
    }

    pub fn start(&self) -> Started {
        // `sh -c 'ulimit -v N && exec racewit "$@"'`: the shell becomes
        // racewit, so its pid is racewit's. With a pipe, bash keeps racewit's
        // own exit code (PIPESTATUS) and the sampling watches bash.
        let mut script = format!("ulimit -v {MEMORY_LIMIT_KIB} && ");
        let mut prefix = String::new();
        if let Some(uid) = self.user {
            prefix = format!("setpriv --reuid={uid} --regid={uid} --clear-groups ");
        }
        match self.pipe_to {
            None => script.push_str(&format!("exec {prefix}\"$0\" \"$@\"")),
            Some(cmd) => script.push_str(&format!(
                "{prefix}\"$0\" \"$@\" | {cmd}; exit ${{PIPESTATUS[0]}}"
            )),
        }
        let child = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .arg(bin())
            .args(&self.args)
            .current_dir(self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start racewit");
        Started::new(child, self.args.clone(), self.within)
    }

    /// Runs to the end; asserts it ended by itself with 0, 1 or 2 and
    /// without a panic.
    pub fn run(&self) -> Run {
        self.start().wait()
    }
}

/// A run going on.
pub struct Started {
    child: std::process::Child,
    args: Vec<String>,
    within: Duration,
    started: Instant,
    out: std::thread::JoinHandle<String>,
    err: std::thread::JoinHandle<String>,
}

impl Started {
    fn new(mut child: std::process::Child, args: Vec<String>, within: Duration) -> Self {
        // Read the pipes on their own threads, so a full pipe never stalls the child.
        let mut out = child.stdout.take().expect("stdout");
        let mut err = child.stderr.take().expect("stderr");
        let out = std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = out.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        });
        let err = std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = err.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        });
        Started {
            child,
            args,
            within,
            started: Instant::now(),
            out,
            err,
        }
    }

    pub fn wait(mut self) -> Run {
        let (mut peak_kib, mut threads) = (0, 0);
        let pid = self.child.id();
        let status = loop {
            if let Some((hwm, n)) = sample(pid) {
                peak_kib = peak_kib.max(hwm);
                threads = threads.max(n);
            }
            if let Some(status) = self.child.try_wait().expect("wait for racewit") {
                break status;
            }
            if self.started.elapsed() > self.within {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "racewit {:?} did not finish within {:?}: it hangs",
                    self.args, self.within
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let run = Run {
            code: status.code(),
            stdout: self.out.join().expect("stdout reader"),
            stderr: self.err.join().expect("stderr reader"),
            peak_kib,
            threads,
        };
        assert!(
            matches!(run.code, Some(0..=2)),
            "racewit {:?} ended with {status:?} (an abort or a panic)\nstderr:\n{}",
            self.args,
            run.stderr
        );
        assert!(
            !run.stderr.contains("panicked"),
            "racewit {:?} panicked:\n{}",
            self.args,
            run.stderr
        );
        run
    }
}

/// `VmHWM` (KiB) and `Threads` of a live process.
fn sample(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
    };
    Some((field("VmHWM:")?, field("Threads:")?))
}

/// `racewit ARGS` in `dir` (see [`Racewit::run`]), to end within two minutes.
pub fn racewit(dir: &Path, args: &[&str]) -> Run {
    Racewit::new(dir, args).run()
}

pub fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(&p, text).expect("write");
    p
}

/// Whether the tests run as root (where file permissions do not bite).
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// The user to drop to for a permission test: `nobody` when running as
/// root (asserting `setpriv` is there to do it), else none.
pub fn unprivileged() -> Option<u32> {
    if !is_root() {
        return None;
    }
    let setpriv = Command::new("setpriv").arg("--version").output();
    assert!(
        setpriv.is_ok_and(|o| o.status.success()),
        "running as root: this test needs setpriv (util-linux) to drop to nobody"
    );
    Some(65534)
}

/// A module whose `start/0` has the classic whereis/register race on
/// `name`, after calling `before()` (which the caller defines in `extra`).
pub fn race_module(module: &str, name: &str, extra: &str) -> String {
    format!(
        "-module({module}).\n-export([start/0]).\n\
         start() ->\n    _ = before(),\n    case whereis({name}) of\n        \
         undefined -> register({name}, spawn(fun() -> receive _ -> ok end end));\n        \
         _ -> ok\n    end.\n{extra}\n"
    )
}

/// The workspace root (the corpus lives there).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}
