//! One SARIF rule (`reportingDescriptor`) per race category, with the
//! fields GitHub code scanning shows: a name to filter by, a short and a full
//! description (at most 1,024 characters each), help in text and Markdown,
//! tags, precision and problem severity. The text is the category's, from
//! `racewit_static::catalog`.

use serde_json::{Value, json};

use racewit_static::Category;
use racewit_static::catalog::RuleText;

fn help_markdown(c: Category, t: &RuleText) -> String {
    let calls = c.calls_markdown();
    format!(
        "## {name} ({code})\n\n{full}\n\nracewit pairs {calls} on the same shared item, then runs \
         your code in its deterministic VM under a bounded scheduler. A result at level `error` is \
         **CONFIRMED**: the code flow is the witness interleaving, one step per line, and \
         `racewit replay <witness>` replays it exactly. A result at level `warning` is \
         **UNCONFIRMED** within the preemption bound (or was not checked, from `racewit static`).\n\n\
         ### How to fix\n\n{fix}\n\nAfter a fix, `racewit replay <witness> --recheck` searches \
         again within the same bound.\n",
        name = t.name,
        code = c.code(),
        full = t.full,
        fix = t.fix,
    )
}

fn help_text(t: &RuleText) -> String {
    // The Markdown's backticks would read as noise in plain text.
    format!(
        "{} How to fix: {} A confirmed result carries the witness interleaving as its code flow; \
         `racewit replay WITNESS` replays it.",
        t.full, t.fix
    )
    .replace('`', "")
}

fn tags(t: &RuleText) -> Vec<&'static str> {
    let mut tags = vec![
        "concurrency",
        "race-condition",
        "correctness",
        "erlang",
        t.state_tag,
        "external/cwe/cwe-362",
    ];
    if t.check_then_act {
        tags.push("external/cwe/cwe-367");
    }
    tags
}

/// The rule for one category. Results of every rule are bugs, not style, so
/// `problem.severity` is `error`; precision is `high` because a confirmed
/// result comes with a witness that replays, and the rest are marked
/// `warning` on the result itself.
pub fn rule(c: Category) -> Value {
    let t = c.info().rule;
    json!({
        "id": c.code(),
        "name": t.name,
        "shortDescription": { "text": t.short },
        "fullDescription": { "text": t.full },
        "help": { "text": help_text(&t), "markdown": help_markdown(c, &t) },
        "defaultConfiguration": { "level": "warning" },
        "properties": {
            "category": c.as_str(),
            "tags": tags(&t),
            "precision": "high",
            "problem.severity": "error"
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_fits_github_limits() {
        for c in Category::ALL {
            let r = rule(c);
            for key in ["shortDescription", "fullDescription"] {
                let s = r[key]["text"].as_str().unwrap_or_default();
                assert!(
                    !s.is_empty() && s.len() <= 1024,
                    "{} {key}: {}",
                    c.code(),
                    s.len()
                );
                assert!(
                    !s.contains("  "),
                    "{} {key} has a double space: {s}",
                    c.code()
                );
            }
            let name = r["name"].as_str().unwrap_or_default();
            assert!(!name.is_empty() && name.len() <= 255);
            assert!(r["help"]["text"].as_str().is_some_and(|h| !h.is_empty()));
            assert!(
                r["help"]["markdown"]
                    .as_str()
                    .is_some_and(|h| h.contains(c.code()))
            );
            let tags = r["properties"]["tags"].as_array().map(Vec::len);
            assert!(tags.is_some_and(|n| (1..=10).contains(&n)), "{tags:?}");
        }
    }

    #[test]
    fn rule_names_are_distinct() {
        let mut names: Vec<&str> = Category::ALL.iter().map(|&c| c.info().rule.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Category::ALL.len());
    }
}
