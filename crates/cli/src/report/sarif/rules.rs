//! One SARIF rule (`reportingDescriptor`) per race category, with the
//! fields GitHub code scanning shows: a name to filter by, a short and a full
//! description (at most 1,024 characters each), help in text and Markdown,
//! tags, precision and problem severity.

use serde_json::{Value, json};

use racewit_static::Category;

/// What a rule says about its category.
struct RuleText {
    name: &'static str,
    short: &'static str,
    full: &'static str,
    /// The two calls, as the static pass pairs them.
    calls: &'static str,
    /// How to remove the race (Markdown).
    fix: &'static str,
    /// A tag naming the shared state.
    state_tag: &'static str,
    /// Whether the read decides the write (time of check, time of use).
    check_then_act: bool,
}

fn text(c: Category) -> RuleText {
    match c {
        Category::Registry => RuleText {
            name: "RegistryRace",
            short: "A registered name is checked, then registered, with a gap another process can use.",
            full: "A process looks a registered name up (whereis/1, registered/0) and then registers or \
                   unregisters it because of what it saw. Another process can register the same name \
                   in between: register/2 then raises badarg, or the name ends up with the wrong process.",
            calls: "`erlang:whereis/1` or `erlang:registered/0`, then `erlang:register/2` or `erlang:unregister/1`",
            fix: "Call `register/2` without checking first and handle its `badarg`, or start the \
                  process with `gen_server:start_link({local, Name}, ...)` and act on \
                  `{error, {already_started, Pid}}`; the registration is then atomic.",
            state_tag: "registry",
            check_then_act: true,
        },
        Category::Ets => RuleText {
            name: "EtsLostUpdate",
            short: "An ETS entry is read, then written from the stale value, with a gap another process can use.",
            full: "A process reads an ETS entry (ets:lookup/2, ets:lookup_element/3, ets:member/2) and \
                   later writes the same key (ets:insert/2, ets:insert_new/2, ets:delete/2) from what it \
                   read. Another process can write the key in between, and one of the two updates is lost.",
            calls: "`ets:lookup/2`, `ets:lookup_element/3` or `ets:member/2`, then `ets:insert/2`, `ets:insert_new/2` or `ets:delete/2`",
            fix: "Use one atomic operation: `ets:update_counter/3,4` for counters, `ets:insert_new/2` \
                  to claim a key, `ets:select_replace/2` as compare-and-swap, or let a single owner \
                  process do every write to the table.",
            state_tag: "ets",
            check_then_act: true,
        },
        Category::Mnesia => RuleText {
            name: "MnesiaDirtyRace",
            short: "A mnesia record is read and written with dirty operations instead of a transaction.",
            full: "A process reads a mnesia record with a dirty operation (mnesia:dirty_read/2, \
                   mnesia:dirty_match_object/2) and writes the same record with another \
                   (mnesia:dirty_write/2, mnesia:dirty_delete/2). Dirty operations take no locks, so a \
                   concurrent writer's update can be lost.",
            calls: "`mnesia:dirty_read/2` or `mnesia:dirty_match_object/2`, then `mnesia:dirty_write/2` or `mnesia:dirty_delete/2`",
            fix: "Read and write in one `mnesia:transaction/1`, taking the write lock when reading \
                  (`mnesia:read(Tab, Key, write)`), or use `mnesia:dirty_update_counter/3` for counters.",
            state_tag: "mnesia",
            check_then_act: true,
        },
        Category::SpawnRegister => RuleText {
            name: "SpawnRegisterRace",
            short: "A spawned process is registered after it may already have exited.",
            full: "A process spawns another and then registers the new pid under a name. The new \
                   process can finish or crash before register/2 runs, and register/2 then raises \
                   badarg in the parent.",
            calls: "`erlang:spawn/1,3` (or `spawn_link`), then `erlang:register/2` of the new pid",
            fix: "Let the new process register itself as its first action, or start it with a \
                  `proc_lib`/`gen_server` start function that registers `{local, Name}` before it \
                  returns.",
            state_tag: "spawn",
            check_then_act: false,
        },
        Category::Global => RuleText {
            name: "GlobalNameRace",
            short: "A global name is looked up, then registered, with a gap another process can use.",
            full: "A process looks a global name up (global:whereis_name/1) and then registers it \
                   (global:register_name/2) because it was free. Another process, possibly on another \
                   node, can take the name in between, and register_name/2 returns no.",
            calls: "`global:whereis_name/1`, then `global:register_name/2`",
            fix: "Call `global:register_name/2,3` directly and act on its `yes` or `no`, or wrap the \
                  lookup and the registration in `global:trans/2`.",
            state_tag: "global",
            check_then_act: true,
        },
        Category::PersistentTerm => RuleText {
            name: "PersistentTermRace",
            short: "A persistent term is read, then written from the stale value.",
            full: "A process reads a persistent term (persistent_term:get/1,2) and later stores the same \
                   key (persistent_term:put/2, persistent_term:erase/1) from what it read. A concurrent \
                   put in between is lost.",
            calls: "`persistent_term:get/1,2`, then `persistent_term:put/2` or `persistent_term:erase/1`",
            fix: "Make one process own the key and serialize every update through it, or keep state \
                  that changes in ETS and update it atomically.",
            state_tag: "persistent-term",
            check_then_act: true,
        },
        Category::ApplicationEnv => RuleText {
            name: "ApplicationEnvRace",
            short: "An application environment key is read, then set from what was read.",
            full: "A process reads an application environment key (application:get_env/2,3) and later \
                   sets or unsets the same key (application:set_env/3,4, application:unset_env/2,3) \
                   because of what it saw: a lazy initialisation or a flag. Another process can do the \
                   same in between, so the work runs twice or an update is lost.",
            calls: "`application:get_env/2,3`, then `application:set_env/3,4` or `application:unset_env/2,3`",
            fix: "Initialise once where the application starts (its `start/2` or a supervisor's \
                  child), or serialize the check and the set through one process.",
            state_tag: "application-env",
            check_then_act: true,
        },
    }
}

fn help_markdown(c: Category, t: &RuleText) -> String {
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
        calls = t.calls,
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
    let t = text(c);
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
        let mut names: Vec<&str> = Category::ALL.iter().map(|&c| text(c).name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Category::ALL.len());
    }
}
