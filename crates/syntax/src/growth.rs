//! Big buffers of one huge form (a literal of millions of elements, a
//! function of 100,000 clauses): held until the form is parsed or lowered,
//! so their spare capacity (up to as much again as they hold, after a
//! `Vec` doubles) is given back once they are complete.

/// Below this many elements a buffer keeps its spare capacity.
pub(crate) const BIG: usize = 1 << 16;

/// Pushes `x`; when a big buffer is full, first makes room for `bound`
/// elements in all (an upper bound, or a good estimate, known from the
/// input) instead of doubling: with the `racewit` binary's allocator
/// settings (freed pages are kept) every buffer of a doubling chain
/// would stay in the process's memory.
pub(crate) fn push_bounded<T>(v: &mut Vec<T>, x: T, bound: usize) {
    if v.len() == v.capacity() && v.capacity() >= BIG && bound > v.len() {
        v.reserve_exact(bound - v.len());
    }
    v.push(x);
}

/// `v` without its spare capacity, when it is big.
pub(crate) fn trim<T>(v: &mut Vec<T>) {
    if v.capacity() >= BIG && v.capacity() - v.len() > v.len() / 8 {
        v.shrink_to_fit();
    }
}
