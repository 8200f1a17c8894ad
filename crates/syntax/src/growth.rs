//! How the front end's buffers grow when one form is huge (a literal of
//! millions of elements, a function of 100,000 clauses).
//!
//! A `Vec` doubles when full; with the `racewit` binary's allocator
//! settings (freed pages are kept, not handed back) every earlier buffer
//! of the chain stays in the process's RSS: up to twice the final size on
//! top of it. Past [`BIG`] elements a buffer instead reserves eight times
//! what it holds: address space that is never touched costs no memory, and
//! the earlier buffers add at most 1.14 times the final size. The spare
//! capacity is trimmed once the buffer is complete ([`trim`]).

/// Below this many elements a buffer grows as a `Vec` does.
pub(crate) const BIG: usize = 1 << 16;

/// Pushes `x`, reserving ahead as described above.
pub(crate) fn push<T>(v: &mut Vec<T>, x: T) {
    if v.len() == v.capacity() && v.capacity() >= BIG {
        v.reserve_exact(v.capacity() * 7);
    }
    v.push(x);
}

/// `v` without its spare capacity, when it is big.
pub(crate) fn trim<T>(v: &mut Vec<T>) {
    if v.capacity() >= BIG && v.capacity() - v.len() > v.len() / 8 {
        v.shrink_to_fit();
    }
}
