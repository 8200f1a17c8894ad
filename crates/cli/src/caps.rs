//! Caps from outside the search: memory held by racewit (`--max-memory`) and
//! time per suspect (`--timeout`). The searches read no clock and measure no
//! memory (their budgets are steps and interleavings, so their results are
//! the same on any machine); a watcher thread here does, and stops a search
//! through its [`Cancel`] token when a cap is passed. A cap that is not hit
//! changes nothing; one that is hit gives its own named reason.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use racewit_confirm::search::{Cancel, CancelReason};

/// The caps of a run.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    pub max_memory: u64,
    pub timeout: Option<Duration>,
}

/// `2G`, `1500M`, `512K` or a number of bytes.
pub fn parse_size(text: &str) -> Result<u64> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| anyhow::anyhow!("`{text}`: expected a size such as 2G, 1500M or 512K"))?;
    let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        _ => bail!("`{text}`: expected a size such as 2G, 1500M or 512K"),
    };
    n.checked_mul(scale)
        .ok_or_else(|| anyhow::anyhow!("`{text}`: too large"))
}

/// The memory racewit may hold by default: 60% of what the machine has, or
/// of the address space the process may map (`ulimit -v`), whichever is
/// less; 2 GB where neither can be read.
pub fn default_max_memory() -> u64 {
    let total = mem_total();
    let limit = address_space_limit();
    let base = match (total, limit) {
        (Some(t), Some(l)) => t.min(l),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => 10 << 30,
    };
    base / 10 * 6
}

/// `MemTotal` of `/proc/meminfo`.
fn mem_total() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}

/// The soft limit on the address space (`ulimit -v`), from `/proc/self/limits`.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Bytes of address space the process maps now (`VmSize`, from
/// `/proc/self/statm`): what `ulimit -v` limits. It runs well above the
/// bytes allocated (thread stacks, the allocator's free pages not yet
/// given back), so under a tight `ulimit -v` it is the first to run out.
pub fn mapped_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(pages * 4096)
}

/// Bytes allocated now (live objects), as the allocator counts them; the
/// resident set stays at its high-water mark with the allocator's settings
/// (freed pages are kept for reuse), so it would not tell a search that
/// needs memory now from one that needed it earlier.
pub fn allocated_bytes() -> Option<u64> {
    use tikv_jemalloc_ctl::{epoch, stats};
    epoch::advance().ok()?;
    stats::allocated::read().ok().map(|b| b as u64)
}

/// The resident set's high-water mark (`VmHWM` of `/proc/self/status`) in
/// bytes: the peak since the process started or [`reset_peak_rss`].
pub fn peak_rss() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}

/// Gives the pages freed so far back to the system at once (the
/// allocator would within a second), then starts the resident set's
/// high-water mark over from what is resident now (Linux: `5` written to
/// `/proc/self/clear_refs`), so the next [`peak_rss`] is the peak of what
/// runs from here. Returns false where the mark cannot be reset.
#[allow(unsafe_code)] // mallctl(3): jemalloc's settings by name
pub fn reset_peak_rss() -> bool {
    use tikv_jemalloc_ctl::raw;
    let arenas = tikv_jemalloc_ctl::arenas::narenas::read().unwrap_or(0);
    for i in 0..arenas {
        // A decay time set to 0 purges the arena's free pages now; then
        // the setting of `MALLOC_CONF` again.
        let name = format!("arena.{i}.dirty_decay_ms\0");
        // SAFETY: the name is nul-terminated and the setting is an ssize_t.
        unsafe {
            let _ = raw::write::<isize>(name.as_bytes(), 0);
            let _ = raw::write::<isize>(name.as_bytes(), 1000);
        }
    }
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Watches the searches running now and stops those past a cap. `poll` is
/// called often (every 50 ms) with the running searches.
pub struct Watcher {
    caps: Caps,
    started: std::collections::BTreeMap<usize, Instant>,
    last_memory_check: Option<Instant>,
    /// Most address space racewit may map before a search is stopped:
    /// 80% of `ulimit -v`, when there is one (an allocation past the limit
    /// would abort the whole run, results of running searches lost).
    max_mapped: Option<u64>,
    /// When a search was last stopped for memory: the memory it held takes
    /// a moment to be given back, so the next look waits for that.
    last_memory_stop: Option<Instant>,
}

impl Watcher {
    pub fn new(caps: Caps) -> Watcher {
        Watcher {
            caps,
            started: Default::default(),
            last_memory_check: None,
            max_mapped: address_space_limit().map(|l| l / 10 * 8),
            last_memory_stop: None,
        }
    }

    /// Whether memory is past a cap now: bytes allocated past
    /// `--max-memory`, or address space mapped close to `ulimit -v`.
    fn memory_over(&self) -> bool {
        allocated_bytes().is_some_and(|b| b > self.caps.max_memory)
            || self
                .max_mapped
                .is_some_and(|m| mapped_bytes().is_some_and(|b| b > m))
    }

    pub fn poll(&mut self, running: &[(usize, Arc<Cancel>)]) {
        let now = Instant::now();
        self.started
            .retain(|i, _| running.iter().any(|(r, _)| r == i));
        for (i, cancel) in running {
            let since = *self.started.entry(*i).or_insert(now);
            if let Some(limit) = self.caps.timeout
                && now.duration_since(since) > limit
            {
                cancel.cancel(CancelReason::Time {
                    seconds: limit.as_secs(),
                });
            }
        }
        let due = self
            .last_memory_check
            .is_none_or(|t| now.duration_since(t) >= Duration::from_millis(100))
            && self
                .last_memory_stop
                .is_none_or(|t| now.duration_since(t) >= Duration::from_millis(1500));
        if due && !running.is_empty() {
            self.last_memory_check = Some(now);
            if self.memory_over() {
                // Which search holds the memory cannot be told: the one
                // running longest is stopped first (it has had the most
                // time to grow); the others go on, and are stopped at the
                // next look if the memory is still over.
                if let Some((_, cancel)) = running
                    .iter()
                    .filter(|(_, c)| c.reason().is_none())
                    .min_by_key(|(i, _)| self.started.get(i).copied())
                {
                    cancel.cancel(CancelReason::Memory {
                        limit_bytes: self.caps.max_memory,
                    });
                    self.last_memory_stop = Some(now);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("2G").unwrap(), 2 << 30);
        assert_eq!(parse_size("1500M").unwrap(), 1500 << 20);
        assert_eq!(parse_size("512k").unwrap(), 512 << 10);
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert!(parse_size("lots").is_err());
        assert!(parse_size("2X").is_err());
        assert!(parse_size("99999999999T").is_err());
    }

    /// The peak resident set starts over from what is resident now: 64 MB
    /// touched and freed count before the reset, not after.
    #[test]
    fn the_peak_starts_over_when_reset() {
        if !std::path::Path::new("/proc/self/clear_refs").exists() {
            eprintln!("skipped: no /proc/self/clear_refs (not Linux)");
            return;
        }
        let big = vec![1u8; 64 << 20];
        let before = peak_rss().expect("VmHWM");
        std::hint::black_box(&big);
        drop(big);
        assert!(reset_peak_rss());
        let after = peak_rss().expect("VmHWM");
        assert!(
            after + (32 << 20) < before,
            "{after} after, {before} before"
        );
    }

    #[test]
    fn a_search_past_its_time_is_stopped() {
        let mut w = Watcher::new(Caps {
            max_memory: u64::MAX,
            timeout: Some(Duration::from_millis(0)),
        });
        let c = Arc::new(Cancel::default());
        let running = vec![(3, c.clone())];
        w.poll(&running);
        std::thread::sleep(Duration::from_millis(2));
        w.poll(&running);
        assert_eq!(c.reason(), Some(&CancelReason::Time { seconds: 0 }));
    }

    #[test]
    fn the_longest_running_search_is_stopped_when_memory_is_over() {
        let mut w = Watcher::new(Caps {
            max_memory: u64::MAX,
            timeout: None,
        });
        let (a, b) = (Arc::new(Cancel::default()), Arc::new(Cancel::default()));
        w.poll(&[(1, a.clone())]);
        assert!(a.reason().is_none(), "under the cap");
        std::thread::sleep(Duration::from_millis(1));
        w.caps.max_memory = 0;
        w.last_memory_check = None;
        w.poll(&[(1, a.clone()), (2, b.clone())]);
        assert!(a.reason().is_some());
        assert!(b.reason().is_none());
    }
}

#[cfg(test)]
mod allocator_tests {
    #[test]
    fn allocated_bytes_follow_allocations() {
        let before = super::allocated_bytes().expect("jemalloc stats");
        let big = vec![1u8; 256 << 20];
        let during = super::allocated_bytes().expect("jemalloc stats");
        assert!(during >= before + (200 << 20), "{before} -> {during}");
        drop(big);
    }
}
