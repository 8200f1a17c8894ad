//! A small model system for testing the search without the VM: processes run
//! straight-line programs over shared integer cells.

use std::collections::BTreeMap;

use crate::system::{Access, Fate, Item, Observation, System};

#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Read cell into the process's register (site id).
    Read(&'static str, u32),
    /// Write register + delta into cell (site id).
    WriteInc(&'static str, i64, u32),
    /// Write a constant; crash if the cell is already non-zero (like `register`).
    Claim(&'static str, u32),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cell(pub &'static str);

impl Item for Cell {
    fn overlaps(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

#[derive(Clone, Debug)]
pub struct Model {
    pub programs: Vec<Vec<Op>>,
    pc: Vec<usize>,
    reg: Vec<i64>,
    crashed: Vec<Option<String>>,
    pub cells: BTreeMap<&'static str, i64>,
}

impl Model {
    pub fn new(programs: Vec<Vec<Op>>) -> Self {
        let n = programs.len();
        Model {
            programs,
            pc: vec![0; n],
            reg: vec![0; n],
            crashed: vec![None; n],
            cells: BTreeMap::new(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("model error")]
pub struct ModelError;

impl System for Model {
    type Proc = usize;
    type Item = Cell;
    type Site = u32;
    type Error = ModelError;

    fn enabled(&self) -> Vec<usize> {
        (0..self.programs.len())
            .filter(|&p| self.crashed[p].is_none() && self.pc[p] < self.programs[p].len())
            .collect()
    }

    fn step(&mut self, p: usize) -> Result<Observation<Cell, u32>, ModelError> {
        let op = self.programs[p]
            .get(self.pc[p])
            .cloned()
            .ok_or(ModelError)?;
        self.pc[p] += 1;
        let (cell, access, site) = match op {
            Op::Read(c, s) => {
                self.reg[p] = *self.cells.get(c).unwrap_or(&0);
                (c, Access::Read, s)
            }
            Op::WriteInc(c, d, s) => {
                self.cells.insert(c, self.reg[p] + d);
                (c, Access::Write, s)
            }
            Op::Claim(c, s) => {
                if *self.cells.get(c).unwrap_or(&0) != 0 {
                    self.crashed[p] = Some("badarg".into());
                } else {
                    self.cells.insert(c, 1);
                }
                (c, Access::Write, s)
            }
        };
        Ok(Observation {
            access: Some((Cell(cell), access)),
            also: Vec::new(),
            site: Some(site),
            global: false,
            text: format!("{access:?} {cell}"),
            item_label: Some(cell.to_string()),
        })
    }

    fn name(&self, p: usize) -> String {
        format!("P1.{}", p + 1)
    }

    fn by_name(&self, name: &str) -> Option<usize> {
        let n: usize = name.strip_prefix("P1.")?.parse().ok()?;
        (n >= 1 && n <= self.programs.len()).then_some(n - 1)
    }

    fn procs(&self) -> Vec<usize> {
        (0..self.programs.len()).collect()
    }

    fn fate(&self, p: usize) -> Fate {
        match &self.crashed[p] {
            Some(r) => Fate::Crashed { reason: r.clone() },
            None if self.pc[p] < self.programs[p].len() => Fate::Running,
            None => Fate::Normal,
        }
    }

    fn item_value(&self, item: &Cell) -> String {
        self.cells.get(item.0).unwrap_or(&0).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::{FailureGoal, RaceGoal};
    use crate::search::bounded::BoundedDfs;
    use crate::search::random::RandomWalk;
    use crate::search::replay::{ReplayError, replay};
    use crate::search::{StopReason, Strategy};

    fn counter(n: usize) -> Model {
        Model::new(vec![vec![Op::Read("k", 1), Op::WriteInc("k", 1, 2)]; n])
    }

    #[test]
    fn lost_update_is_found_with_one_preemption() {
        let sys = counter(2);
        let out = BoundedDfs::default().search(&sys, RaceGoal::new(1, 2, true));
        assert_eq!(out.stop, StopReason::Found);
        let f = &out.found[0];
        assert_eq!(f.preemptions, 1);
        assert_eq!(f.schedule, ["P1.1", "P1.2", "P1.2", "P1.1"]);
        assert_eq!(f.end.cells["k"], 1, "one increment was lost");
        // Steered: the very first run is the witness.
        assert_eq!(out.stats.interleavings, 1);
    }

    #[test]
    fn bound_zero_cannot_confirm_and_exhausts() {
        let dfs = BoundedDfs {
            max_preemptions: 0,
            ..BoundedDfs::default()
        };
        let out = dfs.search(&counter(2), RaceGoal::new(1, 2, true));
        assert!(out.found.is_empty());
        assert_eq!(out.stop, StopReason::Exhausted);
        // Without preemptions, only the two serial orders exist.
        assert_eq!(out.stats.interleavings, 2);
    }

    #[test]
    fn sleep_sets_cut_independent_reorderings() {
        // Two processes on different cells: all interleavings are equivalent.
        let sys = Model::new(vec![
            vec![Op::Read("a", 1), Op::WriteInc("a", 1, 2)],
            vec![Op::Read("b", 3), Op::WriteInc("b", 1, 4)],
        ]);
        let mut plain = BoundedDfs {
            stop_at_first: false,
            sleep_sets: false,
            ..BoundedDfs::default()
        };
        let full = plain.search(&sys, FailureGoal::default());
        plain.sleep_sets = true;
        let reduced = plain.search(&sys, FailureGoal::default());
        assert_eq!(full.stats.interleavings, 6, "4 steps, 2+2: C(4,2) orders");
        assert_eq!(reduced.stats.interleavings, 1);
        assert_eq!(reduced.stop, StopReason::Exhausted);
    }

    #[test]
    fn claim_race_crashes_the_second_claimer() {
        let sys = Model::new(vec![vec![Op::Read("name", 1), Op::Claim("name", 2)]; 2]);
        let out = BoundedDfs::default().search(&sys, RaceGoal::new(1, 2, true));
        let f = &out.found[0];
        assert!(matches!(f.end.fate(0), Fate::Crashed { .. }));
        let again = replay(&sys, RaceGoal::new(1, 2, true), &f.schedule).unwrap();
        assert_eq!(again.trace, f.trace);
        assert!(again.monitor.race().is_some());
    }

    #[test]
    fn replay_reports_divergence() {
        let sys = counter(2);
        let steps: Vec<String> = ["P1.1", "P1.1", "P1.1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let err = replay(&sys, FailureGoal::default(), &steps).unwrap_err();
        assert_eq!(
            err,
            ReplayError::Diverged {
                step: 2,
                expected: "P1.1".into(),
                enabled: vec!["P1.2".into()]
            }
        );
    }

    #[test]
    fn random_walk_is_reproducible_from_its_seed() {
        let sys = counter(3);
        let walk = RandomWalk {
            runs: 200,
            seed: 7,
            ..RandomWalk::default()
        };
        let a = walk.search(&sys, RaceGoal::new(1, 2, true));
        let b = walk.search(&sys, RaceGoal::new(1, 2, true));
        assert_eq!(a.found.len(), 1);
        assert_eq!(a.found[0].schedule, b.found[0].schedule);
        assert_eq!(a.stats, b.stats);
    }
}
