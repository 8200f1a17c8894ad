//! Dialyzer-style messages: `The call erlang:register(ct_master, pid()) might
//! fail due to a possible race condition caused by its combination with the
//! erlang:whereis(ct_master) call on line 238`.

use racewit_syntax::ir::MFA;

use crate::suspect::Category;
use crate::values::{Origin, Val};

/// A type-like placeholder for an argument whose value is not known precisely.
fn fallback(mfa: &MFA, i: usize) -> &'static str {
    match (mfa.module.as_str(), mfa.name.as_str(), i) {
        ("erlang", "register", 1) => "pid()",
        ("erlang", _, 0) | ("global", _, 0) => "atom()",
        ("global", "register_name", 1) => "pid()",
        ("ets", _, 0) => "atom() | ets:tid()",
        ("ets", "insert" | "insert_new", 1) => "tuple() | [tuple()]",
        ("ets", "delete_object", 1) => "tuple()",
        ("ets", "match" | "match_object" | "match_delete", 1) => "ets:match_pattern()",
        ("ets", "select" | "select_count" | "select_delete" | "select_replace", 1) => {
            "ets:match_spec()"
        }
        ("mnesia", "dirty_write" | "dirty_match_object", _) => "tuple()",
        ("mnesia", _, 0) => "atom()",
        ("erlang", _, _) if mfa.name.starts_with("spawn") => "fun() | atom()",
        _ => "term()",
    }
}

/// `m:f(A1, A2)` with abstract argument values.
pub fn render_call(mfa: &MFA, args: &[Val], origin: &dyn Fn(Origin) -> String) -> String {
    let rendered: Vec<String> = args
        .iter()
        .take(mfa.arity as usize)
        .enumerate()
        .map(|(i, v)| v.render_arg(fallback(mfa, i), origin))
        .collect();
    format!("{}:{}({})", mfa.module, mfa.name, rendered.join(", "))
}

/// The message of a suspect. `read_where` is ` on line N` or ` in FILE on line N`.
pub fn message(category: Category, write_call: &str, read_call: &str, read_where: &str) -> String {
    let effect = category.info().effect;
    format!(
        "The call {write_call} {effect} due to a possible race condition caused by its \
         combination with the {read_call} call{read_where}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_message_reads_like_dialyzer() {
        let reg = MFA {
            module: "erlang".into(),
            name: "register".into(),
            arity: 2,
        };
        let call = render_call(&reg, &[Val::atom("ct_master"), Val::Any], &|_| {
            String::new()
        });
        assert_eq!(call, "erlang:register(ct_master, pid())");
        let m = message(
            Category::Registry,
            &call,
            "erlang:whereis(ct_master)",
            " on line 238",
        );
        assert_eq!(
            m,
            "The call erlang:register(ct_master, pid()) might fail due to a possible race \
             condition caused by its combination with the erlang:whereis(ct_master) call on line 238"
        );
    }
}
