//! `crypto`, modelled: digests computed exactly (`hash/2` and the
//! `hash_init/update/final` stream for md5, sha, sha224, sha256, sha384,
//! sha512), and random bytes from the VM's deterministic stream
//! (`strong_rand_bytes/1`, `rand_bytes/1`, `rand_uniform/2`): the same run
//! gives the same bytes. A hash state is `{racewit_hash, Algorithm, Data}`
//! (the BEAM's is an opaque reference).

use sha2::Digest;

use crate::bif::{Ctx, Flow, Table, badarg, iolist_bytes};
use crate::term::Term;

pub fn register(t: &mut Table) {
    t.pure("crypto", "hash", 2, |a| {
        let alg = algorithm(&a[0])?;
        let mut data = Vec::new();
        iolist_bytes(&a[1], &mut data)?;
        Ok(Term::binary(digest(alg, &data)))
    });
    t.pure("crypto", "hash_init", 1, |a| {
        let alg = algorithm(&a[0])?;
        Ok(state(alg, Vec::new()))
    });
    t.pure("crypto", "hash_update", 2, |a| {
        let (alg, mut data) = open_state(&a[0])?;
        iolist_bytes(&a[1], &mut data)?;
        Ok(state(alg, data))
    });
    t.pure("crypto", "hash_final", 1, |a| {
        let (alg, data) = open_state(&a[0])?;
        Ok(Term::binary(digest(alg, &data)))
    });
    t.ctx("crypto", "strong_rand_bytes", 1, rand_bytes);
    t.ctx("crypto", "rand_bytes", 1, rand_bytes);
    t.ctx("crypto", "rand_uniform", 2, |ctx, a| {
        let (Some(lo), Some(hi)) = (a[0].as_int(), a[1].as_int()) else {
            return Flow::badarg();
        };
        if hi <= lo {
            return Flow::badarg();
        }
        let span = (hi - lo) as u64;
        Flow::Value(Term::Int(lo + (ctx.vm.world.next_random() % span) as i64))
    });
    t.pure("crypto", "start", 0, |_| Ok(Term::ok()));
    t.pure("crypto", "stop", 0, |_| Ok(Term::ok()));
    t.pure("crypto", "supports", 1, |a| {
        match a[0].as_atom().map(|x| x.name()) {
            Some("hashs") => Ok(Term::list(
                ALGORITHMS.iter().map(|(n, _)| Term::atom(n)).collect(),
            )),
            _ => Ok(Term::Nil),
        }
    });
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Alg {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
}

const ALGORITHMS: &[(&str, Alg)] = &[
    ("md5", Alg::Md5),
    ("sha", Alg::Sha1),
    ("sha224", Alg::Sha224),
    ("sha256", Alg::Sha256),
    ("sha384", Alg::Sha384),
    ("sha512", Alg::Sha512),
];

fn algorithm(t: &Term) -> Result<Alg, Term> {
    t.as_atom()
        .and_then(|name| ALGORITHMS.iter().find(|(n, _)| *n == name.name()))
        .map(|(_, a)| *a)
        .ok_or_else(|| nif_error(108, "Bad digest type"))
}

/// The error crypto's NIFs raise: `{badarg, {File, Line}, Text}` (OTP 25's
/// place in hash.c, as the BEAM reports it).
fn nif_error(line: i64, text: &str) -> Term {
    Term::tuple(vec![
        badarg(),
        Term::tuple(vec![Term::string("hash.c"), Term::Int(line)]),
        Term::string(text),
    ])
}

fn state(alg: Alg, data: Vec<u8>) -> Term {
    let name = ALGORITHMS
        .iter()
        .find(|(_, a)| *a == alg)
        .map_or("md5", |(n, _)| n);
    Term::tuple(vec![
        Term::atom("racewit_hash"),
        Term::atom(name),
        Term::binary(data),
    ])
}

fn open_state(t: &Term) -> Result<(Alg, Vec<u8>), Term> {
    match t {
        Term::Tuple(x)
            if x.len() == 3 && x[0].as_atom().is_some_and(|a| a.name() == "racewit_hash") =>
        {
            let alg = algorithm(&x[1])?;
            let mut data = Vec::new();
            iolist_bytes(&x[2], &mut data)?;
            Ok((alg, data))
        }
        _ => Err(nif_error(171, "Bad state")),
    }
}

fn digest(alg: Alg, data: &[u8]) -> Vec<u8> {
    match alg {
        Alg::Md5 => crate::bif::checksum::md5(data).to_vec(),
        Alg::Sha1 => sha1(data).to_vec(),
        Alg::Sha224 => sha2::Sha224::digest(data).to_vec(),
        Alg::Sha256 => sha2::Sha256::digest(data).to_vec(),
        Alg::Sha384 => sha2::Sha384::digest(data).to_vec(),
        Alg::Sha512 => sha2::Sha512::digest(data).to_vec(),
    }
}

fn rand_bytes(ctx: &mut Ctx<'_>, a: &[Term]) -> Flow {
    let Some(n) = a[0].as_int().filter(|n| (0..(1 << 24)).contains(n)) else {
        return Flow::badarg();
    };
    let mut out = Vec::with_capacity(n as usize);
    while out.len() < n as usize {
        let word = ctx.vm.world.next_random().to_le_bytes();
        let take = (n as usize - out.len()).min(8);
        out.extend_from_slice(&word[..take]);
    }
    Flow::Value(Term::binary(out))
}

/// The message padded as SHA-1 pads it: a 1 bit, zeros, and the length in
/// bits (big-endian).
fn padded(data: &[u8]) -> Vec<u8> {
    let mut m = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    m.push(0x80);
    while m.len() % 64 != 56 {
        m.push(0);
    }
    m.extend_from_slice(&bits.to_be_bytes());
    m
}

/// SHA-1 (FIPS 180-4).
fn sha1(data: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    for chunk in padded(data).chunks(64) {
        let mut w = [0u32; 80];
        for (i, b) in chunk.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i / 20 {
                0 => ((b & c) | (!b & d), 0x5A82_7999),
                1 => (b ^ c ^ d, 0x6ED9_EBA1),
                2 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 20];
    for (i, x) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&x.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bif::checksum::md5;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn digests_match_the_published_test_vectors() {
        assert_eq!(hex(&md5(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(hex(&md5(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            hex(&sha1(b"abc")),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
        let long = vec![b'a'; 1000];
        assert_eq!(
            hex(&sha1(&long)),
            "291e9a6c66994949b57ba5e650361e98fc36b1ba"
        );
        assert_eq!(hex(&md5(&long)), "cabe45dcc9ae5b66ba86600cca6b8ba8");
    }
}
