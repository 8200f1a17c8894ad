//! One snapshot per module in `tests/ir/`: the lowered IR, pretty-printed,
//! followed by the diagnostics of lexing, parsing and lowering.

use racewit_syntax::lower::lower_text_for_tests;
use racewit_syntax::lower::pretty::pretty_module;

#[test]
fn ir_snapshots() {
    insta::glob!("ir/*.erl", |path| {
        let text = std::fs::read_to_string(path).expect("reading a test module");
        let (module, diags) = lower_text_for_tests(&text);
        let mut out = match module {
            Some(m) => pretty_module(&m),
            None => "%% no module\n".to_string(),
        };
        for d in diags {
            out.push_str(&format!("%% !! {d}\n"));
        }
        insta::assert_snapshot!(out);
    });
}
