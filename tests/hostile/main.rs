//! Hostile input, end to end (issue 20): every input below is made at test
//! time, given to the `racewit` binary under an address-space limit
//! (`ulimit -v`, 4 GiB) and a watchdog, and each must end with its named
//! verdict or diagnostic (file:line:col where a file is involved), never an
//! abort, a hang or a panic.
//!
//! - `frontend`: macro argument doubling, a large module, devices, FIFOs and
//!   sockets, files over the size caps, symlink loops, an unreadable
//!   directory, one file under several names.
//! - `vm`: code that `check` runs and that allocates without bound, loops on
//!   bignums, recurses deeply, floods a mailbox, fills an ETS table, makes
//!   atoms or spawns without end.
//! - `outputs`: witness names that would collide, two runs on one output
//!   directory, a newline in a file name, a closed stdout, an unreadable
//!   file, absurd `--jobs`, control characters in names.
//! - `readback`: tampered witnesses and reports.
//!
//! Time limits are watchdogs ("it hangs"), generous for a loaded 2-core
//! machine and a debug build; speed figures live in the bench.

mod common;
mod frontend;
mod outputs;
mod readback;
mod vm;
