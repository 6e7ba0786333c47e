//! A benchmark as data. A [`Spec`] names its arms (function pointers over
//! a prepared input type, the first the baseline, the old form), how to
//! prepare an input from a position, and whether arms must agree; an
//! [`Entry`] is what the registry lists: a name, a line about it, and the
//! function that measures it (`suite::benchmark::run_spec` or its
//! variants). Each benchmark is one file in `benchmarks/` plus one line in
//! the registry there.

use crate::measure::context::Context;
use crate::measure::runner::{Arm, Role, Routine};
use crate::suite::density::PositionSet;
use crate::suite::report::BenchReport;
use engine::Position;

/// One implementation of the routine.
pub struct ArmSpec<I> {
    pub name: &'static str,
    pub routine: Routine<I>,
}

/// A benchmark over positions.
pub struct Spec<I> {
    pub name: &'static str,
    pub about: &'static str,
    /// What one call does.
    pub call: &'static str,
    /// Turn a position into the routine's input.
    pub prepare: fn(&Position) -> I,
    /// Implementations; the first is the baseline (the old one).
    pub arms: Vec<ArmSpec<I>>,
    /// Whether every implementation must return the baseline's checksum.
    pub must_agree: bool,
}

impl<I> Spec<I> {
    /// The arms a run measures: baseline, candidates, A/A, x2.
    pub fn arms(&self) -> Vec<Arm<I>> {
        arms_of(self, true)
    }
}

/// A registered benchmark. `run` is the only way in: a report run, the
/// gate and the per-case targets (criterion, callgrind) all call it, with
/// a context whose purpose says what it is for.
pub struct Entry {
    pub name: &'static str,
    pub about: &'static str,
    pub run: fn(&Context, &PositionSet) -> Result<BenchReport, String>,
}

/// The arms of `spec`: baseline, candidates, the A/A control, and with
/// `double` the x2 control.
pub fn arms_of<I>(spec: &Spec<I>, double: bool) -> Vec<Arm<I>> {
    let base = &spec.arms[0];
    let mut arms: Vec<Arm<I>> = spec
        .arms
        .iter()
        .enumerate()
        .map(|(i, a)| Arm {
            name: a.name.to_string(),
            routine: a.routine,
            role: if i == 0 { Role::Baseline } else { Role::Candidate },
            must_agree: spec.must_agree,
            doubled: false,
        })
        .collect();
    arms.push(Arm {
        name: format!("{} (A/A)", base.name),
        routine: base.routine,
        role: Role::AaControl,
        must_agree: true,
        doubled: false,
    });
    // Twice the calls of the baseline's own routine per counted call.
    if double {
        arms.push(Arm {
            name: format!("{} x2", base.name),
            routine: base.routine,
            role: Role::KnownDouble,
            must_agree: false,
            doubled: true,
        });
    }
    arms
}

/// Which positions a benchmark measures, when not all: those `keep`
/// accepts, described by `what` (e.g. "with a queen") in errors and reports.
#[derive(Copy, Clone)]
pub struct Filter {
    pub what: &'static str,
    pub keep: fn(&Position) -> bool,
}
