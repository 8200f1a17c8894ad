//! Terms in a step's text as a person reads them. A witness records each
//! step's text with terms written as `~w` writes them: a binary as its
//! bytes (`<<115,49>>`), a pid as `<0.81.0>`. For people, binaries are
//! printed as `~p` prints them (`<<"s1">>` when printable, by the VM's own
//! printer), and a pid of the run as its stable name (`P1.2`), the name the
//! rest of the output uses.
//!
//! Only these two forms are rewritten, and only outside quoted atoms and
//! strings; anything else (a binary cut short by `...`, a bitstring, a
//! reference `#Ref<0.0.0.2>`, a pid not of the run) stays as written.

use std::collections::BTreeMap;

use racewit_vm::Term;

/// The run's pids by their number `N` in `<0.N.0>`, to their stable names.
pub type PidNames = BTreeMap<u32, String>;

/// `text` with its binaries and (when `names` are given) pids rewritten.
pub fn rewrite(text: &str, names: Option<&PidNames>) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Start of the text not yet copied.
    let mut copied = 0;
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'\'' | b'"') if starts_quoted(bytes, i) => {
                i = quoted_end(bytes, i, q);
            }
            b'<' if bytes.get(i + 1) == Some(&b'<') => match binary_at(bytes, i) {
                Some((data, end)) => {
                    out.push_str(&text[copied..i]);
                    let term = Term::binary(data);
                    out.push_str(&racewit_vm::format::print_term_at(&term, 1, 0, false));
                    i = end;
                    copied = end;
                }
                None => i += 2,
            },
            b'<' => match (pid_at(bytes, i), names) {
                (Some((n, end)), Some(names)) if names.contains_key(&n) => {
                    out.push_str(&text[copied..i]);
                    out.push_str(&names[&n]);
                    i = end;
                    copied = end;
                }
                _ => i += 1,
            },
            _ => i += 1,
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// Whether `text` writes a pid (`<0.N.0>`) that [`rewrite`] would name.
pub fn mentions_pid(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'\'' | b'"') if starts_quoted(bytes, i) => i = quoted_end(bytes, i, q),
            b'<' if pid_at(bytes, i).is_some() => return true,
            _ => i += 1,
        }
    }
    false
}

/// Whether the quote at `i` opens a quoted atom or a string (and is not an
/// apostrophe inside a word of plain text).
fn starts_quoted(bytes: &[u8], i: usize) -> bool {
    i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')
}

/// The index past the quote closing the one at `i` (or the end of the text).
fn quoted_end(bytes: &[u8], i: usize, quote: u8) -> usize {
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// `<<B1,B2,...>>` at `i`, each byte a decimal from 0 to 255: the bytes
/// and the index past `>>`.
fn binary_at(bytes: &[u8], i: usize) -> Option<(Vec<u8>, usize)> {
    let mut j = i + 2;
    let mut data = Vec::new();
    if bytes.get(j..j + 2) == Some(b">>") {
        return Some((data, j + 2));
    }
    loop {
        let (n, next) = decimal(bytes, j)?;
        data.push(u8::try_from(n).ok()?);
        j = next;
        match bytes.get(j)? {
            b',' => j += 1,
            b'>' if bytes.get(j + 1) == Some(&b'>') => return Some((data, j + 2)),
            _ => return None,
        }
    }
}

/// `<0.N.0>` at `i`: `N` and the index past `>`.
fn pid_at(bytes: &[u8], i: usize) -> Option<(u32, usize)> {
    if bytes.get(i + 1..i + 3) != Some(b"0.") {
        return None;
    }
    let (n, j) = decimal(bytes, i + 3)?;
    (bytes.get(j..j + 3) == Some(b".0>")).then_some((n, j + 3))
}

/// A decimal of at most 9 digits at `i`, and the index past it.
fn decimal(bytes: &[u8], i: usize) -> Option<(u32, usize)> {
    let digits = bytes[i.min(bytes.len())..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let text = std::str::from_utf8(&bytes[i..i + digits]).ok()?;
    Some((text.parse().ok()?, i + digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> PidNames {
        [(80, "P1".to_string()), (81, "P1.1".to_string())].into()
    }

    #[test]
    fn binaries_print_as_the_shell_prints_them() {
        assert_eq!(
            rewrite("ets:lookup(s, <<115,49>>) -> [{<<115,49>>,0}]", None),
            "ets:lookup(s, <<\"s1\">>) -> [{<<\"s1\">>,0}]"
        );
        assert_eq!(rewrite("<<1,2>>", None), "<<1,2>>");
        assert_eq!(rewrite("<<>>", None), "<<>>");
        assert_eq!(rewrite("<<97,10,98>>", None), "<<\"a\\nb\">>");
        assert_eq!(rewrite("{<<104,105>>}", None), "{<<\"hi\">>}");
    }

    #[test]
    fn pids_of_the_run_take_their_names() {
        assert_eq!(
            rewrite(
                "receive {'DOWN',#Ref<0.0.0.2>,process,<0.81.0>,normal}",
                Some(&names())
            ),
            "receive {'DOWN',#Ref<0.0.0.2>,process,P1.1,normal}"
        );
        assert!(mentions_pid("x <0.81.0>"));
        assert!(!mentions_pid("#Ref<0.0.0.2> '<0.81.0>'"));
        // Not of the run, or no names: as written.
        assert_eq!(rewrite("<0.99.0>", Some(&names())), "<0.99.0>");
        assert_eq!(rewrite("<0.81.0>", None), "<0.81.0>");
    }

    #[test]
    fn what_is_not_a_whole_binary_or_pid_stays() {
        for text in [
            "'<<115,49>>'",
            "\"<0.81.0>\"",
            "<<1,2:3>>",
            "<<300>>",
            "<<1,2...#00ff",
            "a < b << c",
            "x <0.81.1>",
            "it's <<104,105>>",
        ] {
            let expected = if text == "it's <<104,105>>" {
                "it's <<\"hi\">>".to_string()
            } else {
                text.to_string()
            };
            assert_eq!(rewrite(text, Some(&names())), expected, "{text}");
        }
        assert_eq!(rewrite("'a\\'b' <<104>>", None), "'a\\'b' <<\"h\">>");
    }
}
