//! The cases the timing check judges, from the workers' hellos: those the
//! base and the candidate both measure, each with its sample size (passes
//! per timed sample) and visit length (cycles per visit) chosen from the
//! base's own timing of one pass. A case only the base measures, or one a
//! worker timed a pass of as nothing, cannot be judged (and fails the
//! gate); a case only the candidate measures is new (listed, not judged).

use crate::gate::lockstep::protocol::Hello;
use crate::gate::lockstep::schedule::{BASE, CANDIDATE, CONTROL, STEPS_PER_CYCLE, WORKERS};
use crate::measure::case::CaseId;

/// Least length of a timed sample, in microseconds: the TSC advances in
/// steps of about 10 ns here, so 20 µs reads to 0.05%.
pub const MIN_SAMPLE_US: f64 = 20.0;

/// Measuring time per visit, in microseconds: short enough that a visit
/// of every open case takes about a second (visits of one case are then
/// seconds apart, and independent), long enough that a visit's median
/// rests on tens of pairs.
pub const VISIT_US: f64 = 8_000.0;

/// Cycles per visit, at least and at most.
pub const MIN_CYCLES: u32 = 8;
pub const MAX_CYCLES: u32 = 200;

/// Cycles each visit runs first and does not keep (caches and predictors
/// after the previous case).
pub const WARM_CYCLES: u32 = 2;

/// Most passes per sample.
const MAX_REPS: u64 = 1 << 20;

/// A case to judge, sized.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    pub id: CaseId,
    /// Its index in each worker's hello.
    pub index: [usize; WORKERS],
    pub unit: String,
    pub calls: usize,
    /// Passes per timed sample (the same in every worker).
    pub reps: u64,
    /// Cycles kept per visit.
    pub cycles: u32,
    /// Expected seconds of one visit (warm-up included).
    pub visit_s: f64,
}

/// [`plan_cases`]' result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matched {
    pub cases: Vec<Planned>,
    pub unmatched: Vec<String>,
    pub new_cases: Vec<String>,
}

pub const ROLES: [&str; WORKERS] = ["base", "candidate", "A/A control"];

/// Match the workers' cases (hellos in slot order) and size them.
pub fn plan_cases(hellos: &[Hello]) -> Matched {
    let mut m = Matched::default();
    let find = |k: usize, id: &CaseId| hellos[k].cases.iter().position(|c| c.id == *id);
    for (bi, c) in hellos[BASE].cases.iter().enumerate() {
        let id = &c.id;
        let Some(ci) = find(CANDIDATE, id) else {
            m.unmatched
                .push(format!("cannot judge case {id}: the candidate does not measure it (removed or renamed?)"));
            continue;
        };
        let Some(ai) = find(CONTROL, id) else {
            m.unmatched.push(format!("cannot judge case {id}: the A/A control does not measure it"));
            continue;
        };
        let index = [bi, ci, ai];
        if let Some(k) = (0..WORKERS).find(|&k| hellos[k].unit != hellos[BASE].unit) {
            m.unmatched.push(format!(
                "cannot judge case {id}: the {} times in {} and the base in {} (the builds chose different clocks)",
                ROLES[k], hellos[k].unit, hellos[BASE].unit
            ));
            continue;
        }
        let bad = (0..WORKERS).find_map(|k| {
            let v = hellos[k].cases[index[k]].pass_units;
            (!(v.is_finite() && v > 0.0)).then(|| format!("the {} timed one pass as {v}", ROLES[k]))
        });
        if let Some(why) = bad {
            m.unmatched.push(format!("cannot judge case {id}: {why}"));
            continue;
        }
        let per_us = hellos[BASE].units_per_us;
        let pass = c.pass_units;
        let reps = ((MIN_SAMPLE_US * per_us / pass).ceil() as u64).clamp(1, MAX_REPS);
        let cycle = f64::from(STEPS_PER_CYCLE) * (reps + 1) as f64 * pass;
        let cycles = ((VISIT_US * per_us / cycle).floor() as u32).clamp(MIN_CYCLES, MAX_CYCLES);
        let visit_s = f64::from(cycles + WARM_CYCLES) * cycle / per_us / 1e6;
        m.cases.push(Planned {
            id: id.clone(),
            index,
            unit: hellos[BASE].unit.clone(),
            calls: c.calls,
            reps,
            cycles,
            visit_s,
        });
    }
    for c in &hellos[CANDIDATE].cases {
        if !hellos[BASE].cases.iter().any(|b| b.id == c.id) {
            m.new_cases.push(format!("new case {}: only the candidate measures it (not judged)", c.id));
        }
    }
    m
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gate::lockstep::protocol::CaseInfo;

    pub(crate) fn hello(cases: &[(&str, &str, &str, f64)]) -> Hello {
        Hello {
            protocol: 1,
            pid: 1,
            unit: "ticks".into(),
            units_per_us: 2000.0,
            aslr: "off".into(),
            pinned: true,
            realtime: true,
            heap_offset: 0,
            ready_s: 0.1,
            cases: cases
                .iter()
                .map(|&(b, k, a, pass)| CaseInfo {
                    id: CaseId { bench: b.into(), bucket: k.into(), arm: a.into() },
                    calls: 256,
                    pass_units: pass,
                })
                .collect(),
        }
    }

    #[test]
    fn cases_are_matched_and_sized() {
        let base =
            hello(&[("g", "opening", "mailbox", 4000.0), ("g", "opening", "old", 2000.0), ("m", "endgame", "bb", 1e6)]);
        let cand =
            hello(&[("g", "opening", "mailbox", 4100.0), ("g", "opening", "new", 2000.0), ("m", "endgame", "bb", 1e6)]);
        let m = plan_cases(&[base.clone(), cand, base.clone()]);
        assert_eq!(m.cases.len(), 2);
        assert_eq!(
            m.unmatched,
            ["cannot judge case g opening old: the candidate does not measure it (removed or renamed?)"]
        );
        assert_eq!(m.new_cases, ["new case g opening new: only the candidate measures it (not judged)"]);
        // 20 us at 2000 ticks/us is 40000 ticks: 10 passes of 4000.
        let g = &m.cases[0];
        assert_eq!((g.reps, g.index), (10, [0, 0, 0]));
        // A visit of 8 ms: 16e6 ticks / (3 x 11 x 4000) = 121 cycles.
        assert_eq!(g.cycles, 121);
        // A long pass: one pass per sample, the fewest cycles.
        let l = &m.cases[1];
        assert_eq!((l.reps, l.cycles, l.index), (1, MIN_CYCLES, [2, 2, 2]));
        // A clock of another unit, or a pass timed as nothing: not judged.
        let mut ns = hello(&[("g", "opening", "mailbox", 4000.0)]);
        ns.unit = "ns".into();
        let one = hello(&[("g", "opening", "mailbox", 4000.0)]);
        let m = plan_cases(&[one.clone(), ns, one.clone()]);
        assert!(m.cases.is_empty() && m.unmatched[0].contains("different clocks"), "{m:?}");
        let zero = hello(&[("g", "opening", "mailbox", 0.0)]);
        let m = plan_cases(&[one.clone(), one, zero]);
        assert!(m.unmatched[0].ends_with("the A/A control timed one pass as 0"), "{m:?}");
    }
}
