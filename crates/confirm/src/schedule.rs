//! A schedule is data: which process took each step, by stable name.

use serde::{Deserialize, Serialize};

/// Version of the schedule encoding; bumped on any change of meaning.
pub const SCHEDULE_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    pub version: u32,
    /// The seed of a random search that produced it, if any.
    pub seed: Option<u64>,
    /// One process name per step (`P1`, `P1.2`, ...). Serialized compactly as
    /// runs: `"P1*3 P1.1 P1.2*2"`.
    #[serde(with = "compact_steps")]
    pub steps: Vec<String>,
}

impl Schedule {
    pub fn new(steps: Vec<String>, seed: Option<u64>) -> Self {
        Schedule {
            version: SCHEDULE_VERSION,
            seed,
            steps,
        }
    }

    /// Where the schedule switches from a process that could have gone on.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// Encodes steps as space-separated runs `NAME` or `NAME*COUNT`.
pub fn encode_steps(steps: &[String]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < steps.len() {
        let mut j = i + 1;
        while j < steps.len() && steps[j] == steps[i] {
            j += 1;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&steps[i]);
        if j - i > 1 {
            out.push('*');
            out.push_str(&(j - i).to_string());
        }
        i = j;
    }
    out
}

/// The most steps a decoded schedule may have: more than any run racewit
/// explores keeps (runs are cut far below); a longer one was made by
/// something else, and is refused before it is expanded.
pub const MAX_SCHEDULE_STEPS: usize = 5_000_000;

/// Decodes [`encode_steps`]' form (at most [`MAX_SCHEDULE_STEPS`] steps).
pub fn decode_steps(text: &str) -> Result<Vec<String>, String> {
    let mut steps = Vec::new();
    for run in text.split_whitespace() {
        let (name, count) = match run.split_once('*') {
            Some((n, c)) => (
                n,
                c.parse::<usize>()
                    .map_err(|_| format!("bad repeat count in schedule run `{run}`"))?,
            ),
            None => (run, 1),
        };
        if name.is_empty() || !name.starts_with('P') {
            return Err(format!("bad process name in schedule run `{run}`"));
        }
        if count > MAX_SCHEDULE_STEPS - steps.len() {
            return Err(format!(
                "a schedule of more than {MAX_SCHEDULE_STEPS} steps (at `{run}`), more than \
                 any run racewit explores"
            ));
        }
        steps.extend(std::iter::repeat_n(name.to_string(), count));
    }
    Ok(steps)
}

mod compact_steps {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(steps: &[String], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::encode_steps(steps))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        let text = String::deserialize(d)?;
        super::decode_steps(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_round_trip_compactly() {
        let steps: Vec<String> = ["P1", "P1", "P1", "P1.1", "P1.2", "P1.2", "P1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let text = encode_steps(&steps);
        assert_eq!(text, "P1*3 P1.1 P1.2*2 P1");
        assert_eq!(decode_steps(&text).unwrap(), steps);
        assert!(decode_steps("P1*x").is_err());
        assert!(decode_steps("P1*4000000000000").is_err());
        assert!(decode_steps("P1*4999999 P2 P3").is_err());
        assert_eq!(
            decode_steps("P1*4999999 P2").map(|s| s.len()),
            Ok(5_000_000)
        );
        assert!(decode_steps("Q1").is_err());
    }
}
