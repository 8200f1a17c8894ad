//! The checksum BIFs of `erlang`: `crc32/1,2` and `crc32_combine/3` (the
//! CRC-32 of zlib, ISO-HDLC), `adler32/1,2` and `adler32_combine/3`
//! (zlib's Adler-32), `md5/1` and the `md5_init/0`, `md5_update/2`,
//! `md5_final/1` stream (RFC 1321). The MD5 here is also `crypto`'s.
//!
//! An MD5 context is an 88-byte binary, as the BEAM's (its `MD5_CTX`): the
//! four state words, the byte count and the pending partial block. The
//! layout is racewit's own; a program sees only its size.

use crate::bif::{Table, badarg, iolist_bytes};
use crate::term::Term;

pub fn register(t: &mut Table) {
    t.pure("erlang", "crc32", 1, |a| {
        Ok(Term::Int(i64::from(crc32(0, &data(&a[0])?))))
    });
    t.pure("erlang", "crc32", 2, |a| {
        let old = word(&a[0])?;
        Ok(Term::Int(i64::from(crc32(old, &data(&a[1])?))))
    });
    t.pure("erlang", "crc32_combine", 3, |a| {
        let (first, second, len) = combine_args(a)?;
        Ok(Term::Int(i64::from(crc32_combine(first, second, len))))
    });
    t.pure("erlang", "adler32", 1, |a| {
        Ok(Term::Int(i64::from(adler32(1, &data(&a[0])?))))
    });
    t.pure("erlang", "adler32", 2, |a| {
        let old = word(&a[0])?;
        Ok(Term::Int(i64::from(adler32(old, &data(&a[1])?))))
    });
    t.pure("erlang", "adler32_combine", 3, |a| {
        let (first, second, len) = combine_args(a)?;
        Ok(Term::Int(i64::from(adler32_combine(first, second, len))))
    });
    t.pure("erlang", "md5", 1, |a| {
        Ok(Term::binary(md5(&data(&a[0])?).to_vec()))
    });
    t.pure("erlang", "md5_init", 0, |_| Ok(Md5::new().to_term()));
    t.pure("erlang", "md5_update", 2, |a| {
        let mut ctx = Md5::from_term(&a[0])?;
        ctx.update(&data(&a[1])?);
        Ok(ctx.to_term())
    });
    t.pure("erlang", "md5_final", 1, |a| {
        Ok(Term::binary(Md5::from_term(&a[0])?.finish().to_vec()))
    });
}

/// The bytes of an iodata argument (a bitstring that is not whole bytes is
/// `badarg`, as a list holding anything but bytes, binaries and lists is).
fn data(t: &Term) -> Result<Vec<u8>, Term> {
    let mut out = Vec::new();
    iolist_bytes(t, &mut out)?;
    Ok(out)
}

/// An unsigned 32-bit integer argument.
fn word(t: &Term) -> Result<u32, Term> {
    t.as_int()
        .and_then(|i| u32::try_from(i).ok())
        .ok_or_else(badarg)
}

/// `(First, Second, SecondSize)` of the `*_combine/3` BIFs: two checksums
/// and a non-negative size.
fn combine_args(a: &[Term]) -> Result<(u32, u32, u64), Term> {
    let len = a[2]
        .as_int()
        .and_then(|i| u64::try_from(i).ok())
        .ok_or_else(badarg)?;
    Ok((word(&a[0])?, word(&a[1])?, len))
}

/// The reflected CRC-32 polynomial (zlib's).
const CRC_POLY: u32 = 0xEDB8_8320;

const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                CRC_POLY ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
};

/// The CRC-32 of `bytes` continuing from `crc` (0 to start).
pub(crate) fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c = CRC_TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// The CRC-32 of `A ++ B` from that of `A`, that of `B` and `B`'s size: the
/// CRC register advanced over `len` zero bytes is a linear map over GF(2),
/// applied by repeated squaring of the one-zero-bit operator.
fn crc32_combine(first: u32, second: u32, mut len: u64) -> u32 {
    // (The BEAM's answer for an empty second part: the two XORed.)
    if len == 0 {
        return first ^ second;
    }
    // The operator for one zero bit, then for two and four.
    let mut odd = [0u32; 32];
    odd[0] = CRC_POLY;
    for (n, row) in odd.iter_mut().enumerate().skip(1) {
        *row = 1 << (n - 1);
    }
    let mut even = square(&odd);
    odd = square(&even);
    let mut crc = first;
    // Each round squares the operator (8, 16, 32... zero bits, i.e. 1, 2,
    // 4... zero bytes) and applies it where `len` has a 1 bit.
    loop {
        even = square(&odd);
        if len & 1 != 0 {
            crc = times(&even, crc);
        }
        len >>= 1;
        if len == 0 {
            break;
        }
        odd = square(&even);
        if len & 1 != 0 {
            crc = times(&odd, crc);
        }
        len >>= 1;
        if len == 0 {
            break;
        }
    }
    crc ^ second
}

/// A GF(2) 32x32 matrix (one column per bit) times a vector.
fn times(matrix: &[u32; 32], mut vector: u32) -> u32 {
    let mut sum = 0;
    let mut i = 0;
    while vector != 0 {
        if vector & 1 != 0 {
            sum ^= matrix[i];
        }
        vector >>= 1;
        i += 1;
    }
    sum
}

fn square(matrix: &[u32; 32]) -> [u32; 32] {
    std::array::from_fn(|n| times(matrix, matrix[n]))
}

/// Adler-32's modulus: the largest prime below 2^16.
const ADLER_BASE: u32 = 65521;

/// The Adler-32 of `bytes` continuing from `adler` (1 to start).
fn adler32(adler: u32, bytes: &[u8]) -> u32 {
    let base = u64::from(ADLER_BASE);
    let (mut a, mut b) = (u64::from(adler & 0xFFFF), u64::from(adler >> 16));
    // Reduced every 5552 bytes (zlib's NMAX); in 64 bits the sums cannot
    // overflow, and the result is the same whatever the run length.
    for chunk in bytes.chunks(5552) {
        for &x in chunk {
            a += u64::from(x);
            b += a;
        }
        a %= base;
        b %= base;
    }
    // A starting value whose halves are not yet reduced (the BEAM accepts
    // any 32-bit integer) is reduced by the first chunk, or here when the
    // data is empty.
    if bytes.is_empty() {
        return adler;
    }
    ((b << 16) | a) as u32
}

/// The Adler-32 of `A ++ B` from that of `A`, that of `B` and `B`'s size.
fn adler32_combine(first: u32, second: u32, len: u64) -> u32 {
    // (The BEAM's answer for an empty second part: the first.)
    if len == 0 {
        return first;
    }
    let base = u64::from(ADLER_BASE);
    let rem = len % base;
    let mut sum1 = u64::from(first & 0xFFFF);
    let mut sum2 = (rem * sum1) % base;
    sum1 += u64::from(second & 0xFFFF) + base - 1;
    sum2 += u64::from(first >> 16) + u64::from(second >> 16) + base - rem;
    if sum1 >= base {
        sum1 -= base;
    }
    if sum1 >= base {
        sum1 -= base;
    }
    if sum2 >= base << 1 {
        sum2 -= base << 1;
    }
    if sum2 >= base {
        sum2 -= base;
    }
    (sum1 | (sum2 << 16)) as u32
}

/// MD5 of `bytes` at once.
pub(crate) fn md5(bytes: &[u8]) -> [u8; 16] {
    let mut m = Md5::new();
    m.update(bytes);
    m.finish()
}

/// An MD5 computation under way.
#[derive(Clone)]
struct Md5 {
    state: [u32; 4],
    /// Bytes hashed so far.
    count: u64,
    /// The bytes of the current, unfinished block (`count % 64` of them).
    block: [u8; 64],
}

/// The size of the context binary: 4 state words, the count, the block.
const MD5_CONTEXT_SIZE: usize = 16 + 8 + 64;

impl Md5 {
    fn new() -> Md5 {
        Md5 {
            state: [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476],
            count: 0,
            block: [0; 64],
        }
    }

    fn update(&mut self, mut bytes: &[u8]) {
        let mut have = (self.count % 64) as usize;
        self.count = self.count.wrapping_add(bytes.len() as u64);
        while !bytes.is_empty() {
            let take = (64 - have).min(bytes.len());
            self.block[have..have + take].copy_from_slice(&bytes[..take]);
            have += take;
            bytes = &bytes[take..];
            if have == 64 {
                let block = self.block;
                self.compress(&block);
                have = 0;
            }
        }
    }

    /// The digest: the message padded with a 1 bit, zeros to 56 bytes of a
    /// block, and its length in bits (little-endian).
    fn finish(mut self) -> [u8; 16] {
        let bits = self.count.wrapping_mul(8);
        let have = (self.count % 64) as usize;
        let pad = if have < 56 { 56 - have } else { 120 - have };
        let mut tail = vec![0u8; pad + 8];
        tail[0] = 0x80;
        tail[pad..].copy_from_slice(&bits.to_le_bytes());
        let count = self.count;
        self.update(&tail);
        self.count = count;
        let mut out = [0u8; 16];
        for (i, x) in self.state.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&x.to_le_bytes());
        }
        out
    }

    fn compress(&mut self, block: &[u8; 64]) {
        // Per-round shift amounts; the constants are floor(|sin(i + 1)| * 2^32).
        const S: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
        const K: [u32; 64] = [
            0xd76a_a478,
            0xe8c7_b756,
            0x2420_70db,
            0xc1bd_ceee,
            0xf57c_0faf,
            0x4787_c62a,
            0xa830_4613,
            0xfd46_9501,
            0x6980_98d8,
            0x8b44_f7af,
            0xffff_5bb1,
            0x895c_d7be,
            0x6b90_1122,
            0xfd98_7193,
            0xa679_438e,
            0x49b4_0821,
            0xf61e_2562,
            0xc040_b340,
            0x265e_5a51,
            0xe9b6_c7aa,
            0xd62f_105d,
            0x0244_1453,
            0xd8a1_e681,
            0xe7d3_fbc8,
            0x21e1_cde6,
            0xc337_07d6,
            0xf4d5_0d87,
            0x455a_14ed,
            0xa9e3_e905,
            0xfcef_a3f8,
            0x676f_02d9,
            0x8d2a_4c8a,
            0xfffa_3942,
            0x8771_f681,
            0x6d9d_6122,
            0xfde5_380c,
            0xa4be_ea44,
            0x4bde_cfa9,
            0xf6bb_4b60,
            0xbebf_bc70,
            0x289b_7ec6,
            0xeaa1_27fa,
            0xd4ef_3085,
            0x0488_1d05,
            0xd9d4_d039,
            0xe6db_99e5,
            0x1fa2_7cf8,
            0xc4ac_5665,
            0xf429_2244,
            0x432a_ff97,
            0xab94_23a7,
            0xfc93_a039,
            0x655b_59c3,
            0x8f0c_cc92,
            0xffef_f47d,
            0x8584_5dd1,
            0x6fa8_7e4f,
            0xfe2c_e6e0,
            0xa301_4314,
            0x4e08_11a1,
            0xf753_7e82,
            0xbd3a_f235,
            0x2ad7_d2bb,
            0xeb86_d391,
        ];
        let w: [u32; 16] = std::array::from_fn(|i| {
            u32::from_le_bytes([
                block[i * 4],
                block[i * 4 + 1],
                block[i * 4 + 2],
                block[i * 4 + 3],
            ])
        });
        let [mut a, mut b, mut c, mut d] = self.state;
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let rotated = a
                .wrapping_add(f)
                .wrapping_add(K[i])
                .wrapping_add(w[g])
                .rotate_left(S[(i / 16) * 4 + i % 4]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(rotated);
        }
        for (x, y) in self.state.iter_mut().zip([a, b, c, d]) {
            *x = x.wrapping_add(y);
        }
    }

    fn to_term(&self) -> Term {
        let mut out = Vec::with_capacity(MD5_CONTEXT_SIZE);
        for x in self.state {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.count.to_le_bytes());
        out.extend_from_slice(&self.block);
        Term::binary(out)
    }

    /// A context binary back; any other size is `badarg`, as on the BEAM.
    fn from_term(t: &Term) -> Result<Md5, Term> {
        let bytes = match t {
            Term::Bin(b) if b.is_binary() => b.to_bytes(),
            _ => return Err(badarg()),
        };
        if bytes.len() != MD5_CONTEXT_SIZE {
            return Err(badarg());
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let mut count = [0u8; 8];
        count.copy_from_slice(&bytes[16..24]);
        let mut block = [0u8; 64];
        block.copy_from_slice(&bytes[24..]);
        Ok(Md5 {
            state: [word(0), word(4), word(8), word(12)],
            count: u64::from_le_bytes(count),
            block,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn md5_matches_rfc_1321_vectors_whole_and_in_pieces() {
        let cases: [(&[u8], &str); 4] = [
            (b"", "d41d8cd98f00b204e9800998ecf8427e"),
            (b"abc", "900150983cd24fb0d6963f7d28e17f72"),
            (b"message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            (
                b"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(hex(&md5(input)), want);
            for piece in [1, 7, 63, 64] {
                let mut m = Md5::new();
                for p in input.chunks(piece) {
                    m = Md5::from_term(&m.to_term()).expect("round trip");
                    m.update(p);
                }
                assert_eq!(hex(&m.finish()), want, "pieces of {piece}");
            }
        }
    }

    #[test]
    fn crc32_and_adler32_match_known_values_and_combine() {
        assert_eq!(crc32(0, b"123456789"), 0xCBF4_3926);
        assert_eq!(adler32(1, b"Wikipedia"), 0x11E6_0398);
        let (a, b) = (
            b"The quick brown fox ".as_slice(),
            b"jumps over the lazy dog".as_slice(),
        );
        let whole = [a, b].concat();
        assert_eq!(crc32(crc32(0, a), b), crc32(0, &whole));
        assert_eq!(
            crc32_combine(crc32(0, a), crc32(0, b), b.len() as u64),
            crc32(0, &whole)
        );
        assert_eq!(
            adler32_combine(adler32(1, a), adler32(1, b), b.len() as u64),
            adler32(1, &whole)
        );
        let long = vec![0x5Au8; 100_000];
        assert_eq!(
            adler32_combine(adler32(1, a), adler32(1, &long), long.len() as u64),
            adler32(1, &[a, &long].concat())
        );
    }
}
