//! The statistics of the timing check (pure: unit-tested on synthetic
//! samples). Per case, each process's floor; per build, the lower
//! quartile of its processes' floors over the rounds; the ratio of the
//! candidate's to the base's with a paired bootstrap interval, and the
//! same for the base's second process (the A/A control). Cases a build
//! lacks, or that some process measured no valid floor of, cannot be
//! judged and are named.

use crate::gate::timing::sample::Sample;
use crate::gate::verdict::Verdict;
use crate::measure::case::CaseId;
use crate::measure::stats::{self, Ratio};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One case's timing comparison.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TimingCase {
    pub case: CaseId,
    pub unit: String,
    /// Lower quartiles over rounds of the per-process floors ([`PROCESS_QUANTILE`]).
    pub base: f64,
    pub candidate: f64,
    /// Candidate / base: the ratio of the builds' [`PROCESS_QUANTILE`]s
    /// of their per-process floors over rounds, interval at `level`.
    pub ratio: Ratio,
    /// Base again / base (A/A control), same level.
    pub aa: Ratio,
    pub aa_pass: bool,
    pub verdict: Verdict,
    /// Candidate / base per round its benchmark ran (the extra rounds of
    /// a noisy benchmark included).
    pub per_round: Vec<f64>,
    pub aa_per_round: Vec<f64>,
}

/// The timing check's result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TimingOutcome {
    /// Rounds of the benchmark that ran most (extra rounds included).
    pub rounds: usize,
    /// Confidence level of every interval.
    pub level: f64,
    pub threshold: f64,
    pub aa_bound: f64,
    pub cases: Vec<TimingCase>,
    /// Cases that could not be judged, each "cannot judge case X: why"
    /// (the candidate lacks it, or some process measured no valid floor).
    /// Each one fails the gate ([`crate::gate::decision::decide`]).
    pub unmatched: Vec<String>,
    /// Cases (and benchmarks) only the candidate measures, "new case X":
    /// nothing to regress from, so listed, not judged, and no failure (a
    /// renamed case still fails: its old name is missing).
    #[serde(default)]
    pub new_cases: Vec<String>,
    pub regressions: usize,
    pub aa_failures: usize,
}

impl TimingOutcome {
    pub fn too_noisy(&self) -> bool {
        self.aa_failures > 0
    }
}

/// Confidence level of each case's intervals. Per case, not family-wise:
/// a case fails only when its whole interval lies above 1 + threshold, so
/// an unchanged case must be misjudged by more than the threshold plus the
/// interval's half-width — several standard errors even at 95% — and a
/// Bonferroni level over ~80 cases would only widen every interval to
/// nearly the range of the rounds (seen here: one disturbed round then
/// decides the bound). The A/A control is judged at the same level.
pub const LEVEL: f64 = 0.95;

/// Floors of every case in one process.
pub fn floors(s: &Sample) -> BTreeMap<CaseId, (f64, String)> {
    let mut m = BTreeMap::new();
    for b in &s.benches {
        for c in &b.cases {
            let id = CaseId { bench: b.name.clone(), bucket: c.bucket.clone(), arm: c.arm.clone() };
            m.insert(id, (c.floor, b.unit.clone()));
        }
    }
    m
}

/// Which quantile of a build's per-process floors stands for the build.
/// Not the median of per-round ratios: here a neighbour slows whole
/// processes (0.2 s), up to 1.7x, in about one round of four, and a
/// ratio's interval then spans those rounds (A/A intervals reached down to
/// 0.59 on unchanged code). Slowdowns only ever add time, so the lower
/// quartile of a build's processes is its undisturbed speed as long as
/// fewer than three in four are disturbed — the floor idea again, one level
/// up (within a process the floor is the 10th percentile of samples).
pub const PROCESS_QUANTILE: f64 = 0.25;

/// Ratio `num`/`den` of the [`PROCESS_QUANTILE`] quantiles of per-round
/// values, with a paired block-bootstrap interval over rounds.
fn ratio_at(den: &[f64], num: &[f64], level: f64) -> Ratio {
    let wrap = |v: &[f64]| v.iter().map(|&x| vec![x]).collect::<Vec<_>>();
    stats::quantile_ratio_at(&wrap(den), &wrap(num), PROCESS_QUANTILE, level)
}

/// Why case `id` cannot be judged from the floors of the rounds `ran` of
/// the three builds (base, candidate, base again), or `None` when every
/// one of those processes measured a valid floor. A case one build lacks
/// is never skipped: a renamed arm would otherwise pass unjudged.
fn unjudgeable(id: &CaseId, ran: &[usize], builds: [&[BTreeMap<CaseId, (f64, String)>]; 3]) -> Option<String> {
    const WHO: [&str; 3] = ["base", "candidate", "second base (A/A)"];
    const HINT: [&str; 3] = [" (new in the candidate?)", " (removed or renamed?)", ""];
    for k in 0..3 {
        if ran.iter().all(|&r| !builds[k][r].contains_key(id)) {
            return Some(format!("the {} does not measure it{}", WHO[k], HINT[k]));
        }
    }
    let mut bad = Vec::new();
    let mut units = std::collections::BTreeSet::new();
    for &r in ran {
        for k in 0..3 {
            match builds[k][r].get(id) {
                None => bad.push(format!("the {} process of round {} did not measure it", WHO[k], r + 1)),
                Some((v, unit)) => {
                    units.insert(unit.as_str());
                    if !(v.is_finite() && *v > 0.0) {
                        bad.push(format!("the {} process of round {} measured a floor of {v}", WHO[k], r + 1));
                    }
                }
            }
        }
    }
    // Floors in different units (TSC ticks against nanoseconds: the builds
    // chose different clocks) would make a ratio of nothing.
    if units.len() > 1 {
        let list: Vec<&str> = units.into_iter().collect();
        return Some(format!(
            "its floors are in different units ({}): the builds measured with different clocks",
            list.join(", ")
        ));
    }
    if bad.is_empty() {
        return None;
    }
    let n = bad.len();
    let more = if n > 3 { format!("; and {} more", n - 3) } else { String::new() };
    bad.truncate(3);
    Some(format!("{n} of {} processes: {}{more}", 3 * ran.len(), bad.join("; ")))
}

/// Compare per case, round by round. `base`, `cand`, `aa` hold one sample
/// per round (the same rounds). `threshold` and `aa_bound` are fractions.
pub fn analyse(base: &[Sample], cand: &[Sample], aa: &[Sample], threshold: f64, aa_bound: f64) -> TimingOutcome {
    let rounds = base.len().min(cand.len()).min(aa.len());
    let b: Vec<_> = base[..rounds].iter().map(floors).collect();
    let c: Vec<_> = cand[..rounds].iter().map(floors).collect();
    let a: Vec<_> = aa[..rounds].iter().map(floors).collect();
    let mut unmatched = Vec::new();
    let mut ids = Vec::new();
    // Every case any process measured, in the order the base's processes
    // ran them (registry order), then those only other processes have.
    let mut order: Vec<CaseId> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for s in base[..rounds].iter().chain(&cand[..rounds]).chain(&aa[..rounds]) {
        for x in &s.benches {
            for c in &x.cases {
                let id = CaseId { bench: x.name.clone(), bucket: c.bucket.clone(), arm: c.arm.clone() };
                if seen.insert(id.clone()) {
                    order.push(id);
                }
            }
        }
    }
    let mut new_cases = Vec::new();
    for id in order {
        // Every round its benchmark ran in (extra rounds run only some).
        let ran: Vec<usize> = (0..rounds)
            .filter(|&r| [base, cand, aa].iter().any(|v| v[r].benches.iter().any(|x| x.name == id.bench)))
            .collect();
        if ran.iter().all(|&r| !b[r].contains_key(&id) && !a[r].contains_key(&id)) {
            new_cases.push(format!("new case {id}: only the candidate measures it (not judged)"));
            continue;
        }
        match unjudgeable(&id, &ran, [&b, &c, &a]) {
            Some(why) => unmatched.push(format!("cannot judge case {id}: {why}")),
            None => ids.push((id, ran)),
        }
    }
    let level = LEVEL;
    let mut cases = Vec::new();
    for (id, ran) in ids {
        let fb: Vec<f64> = ran.iter().map(|&r| b[r][&id].0).collect();
        let fc: Vec<f64> = ran.iter().map(|&r| c[r][&id].0).collect();
        let fa: Vec<f64> = ran.iter().map(|&r| a[r][&id].0).collect();
        let per_round: Vec<f64> = fc.iter().zip(&fb).map(|(x, y)| x / y).collect();
        let aa_per_round: Vec<f64> = fa.iter().zip(&fb).map(|(x, y)| x / y).collect();
        let ratio = ratio_at(&fb, &fc, level);
        let aa_r = ratio_at(&fb, &fa, level);
        let aa_pass = aa_r.within(1.0, aa_bound);
        let verdict = if ratio.interval[0] > 1.0 + threshold {
            Verdict::Regression
        } else if ratio.interval[1] < 1.0 - threshold {
            Verdict::Faster
        } else {
            Verdict::Ok
        };
        cases.push(TimingCase {
            unit: b[ran[0]][&id].1.clone(),
            base: stats::quantile_mut(&mut fb.clone(), PROCESS_QUANTILE),
            candidate: stats::quantile_mut(&mut fc.clone(), PROCESS_QUANTILE),
            case: id,
            ratio,
            aa: aa_r,
            aa_pass,
            verdict,
            per_round,
            aa_per_round,
        });
    }
    TimingOutcome {
        rounds,
        level,
        threshold,
        aa_bound,
        regressions: cases.iter().filter(|c| c.verdict == Verdict::Regression).count(),
        aa_failures: cases.iter().filter(|c| !c.aa_pass).count(),
        cases,
        unmatched,
        new_cases,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gate::timing::sample::{SampleBench, SampleCase, SAMPLE_SCHEMA};
    use crate::measure::calibration::ClockInfo;
    use engine::rng::Rng;

    pub(crate) fn sample(floors: &[(&str, &str, &str, f64)]) -> Sample {
        let mut benches: Vec<SampleBench> = Vec::new();
        for &(b, k, a, f) in floors {
            if benches.last().is_none_or(|x| x.name != b) {
                benches.push(SampleBench { name: b.into(), unit: "ticks per call".into(), cases: vec![] });
            }
            benches.last_mut().unwrap().cases.push(SampleCase {
                bucket: k.into(),
                arm: a.into(),
                floor: f,
                median: f * 1.1,
                samples: 100,
            });
        }
        Sample {
            schema: SAMPLE_SCHEMA.into(),
            git_commit: None,
            pinned: true,
            realtime: true,
            core: Some(1),
            clock: ClockInfo {
                kind: "tsc".into(),
                unit: "ticks".into(),
                fallback_reason: None,
                tsc_mhz: Some(2100.0),
                granularity: 26.0,
                fixed_overhead: 30.0,
                cycles_per_unit: None,
            },
            benches,
        }
    }

    /// `rounds` processes per build: per-case cost × build factor × noise.
    pub(crate) fn runs(rng: &mut Rng, rounds: usize, factor: impl Fn(usize) -> f64, noise: f64) -> Vec<Sample> {
        (0..rounds)
            .map(|_| {
                let v: Vec<(&str, &str, &str, f64)> = CASES
                    .iter()
                    .enumerate()
                    .map(|(i, &(b, k, a))| {
                        let jitter = 1.0 + noise * (rng.below(2001) as f64 / 1000.0 - 1.0);
                        (b, k, a, 100.0 * (i + 1) as f64 * factor(i) * jitter)
                    })
                    .collect();
                sample(&v)
            })
            .collect()
    }

    /// A candidate 10x slower on every case.
    pub(crate) fn ten_times_slower(rng: &mut Rng) -> Vec<Sample> {
        runs(rng, 16, |_| 10.0, 0.004)
    }

    /// A getattacksbench case the registry does not have.
    pub(crate) fn new_pext_case() -> SampleCase {
        SampleCase { bucket: "opening".into(), arm: "pext".into(), floor: 5.0, median: 5.0, samples: 1 }
    }

    pub(crate) const CASES: [(&str, &str, &str); 4] = [
        ("movegenbench", "opening", "mailbox"),
        ("movegenbench", "opening", "bitboard"),
        ("getattacksbench", "endgame", "mailbox"),
        ("getattacksbench", "endgame", "bitboard"),
    ];

    #[test]
    fn whole_disturbed_processes_neither_fail_nor_hide_a_slowdown() {
        // Seen here: a neighbour slows whole processes by up to 1.7x, about
        // one round in four, in any of the three builds' processes.
        let mut rng = Rng::new(4);
        let disturbed = |r: &mut Rng| if r.below(4) == 0 { 1.3 + r.below(41) as f64 / 100.0 } else { 1.0 };
        let noisy = |rng: &mut Rng, factor: fn(usize) -> f64| {
            let mut v = runs(rng, 16, factor, 0.004);
            for s in v.iter_mut() {
                let f = disturbed(rng);
                for b in s.benches.iter_mut() {
                    for c in b.cases.iter_mut() {
                        c.floor *= f;
                    }
                }
            }
            v
        };
        let base = noisy(&mut rng, |_| 1.0);
        let aa = noisy(&mut rng, |_| 1.0);
        let same = noisy(&mut rng, |_| 1.0);
        let t = analyse(&base, &same, &aa, 0.03, 0.06);
        assert_eq!((t.regressions, t.aa_failures), (0, 0), "{t:#?}");
        let slow = noisy(&mut rng, |i| if i == 3 { 1.05 } else { 1.0 });
        let t = analyse(&base, &slow, &aa, 0.03, 0.06);
        assert_eq!(t.regressions, 1, "{t:#?}");
        assert_eq!(t.cases[3].verdict, Verdict::Regression);
    }

    #[test]
    fn extra_rounds_of_one_benchmark_are_judged_with_their_own_count() {
        let mut rng = Rng::new(5);
        let mut three = [
            runs(&mut rng, 12, |_| 1.0, 0.004),
            runs(&mut rng, 12, |_| 1.0, 0.004),
            runs(&mut rng, 12, |_| 1.0, 0.004),
        ];
        let first = three[0][0].benches[0].name.clone();
        for v in three.iter_mut() {
            let mut extra = runs(&mut rng, 4, |_| 1.0, 0.004);
            for s in extra.iter_mut() {
                s.benches.retain(|b| b.name == first);
            }
            v.extend(extra);
        }
        let [base, cand, aa] = three;
        let t = analyse(&base, &cand, &aa, 0.03, 0.06);
        assert!(t.unmatched.is_empty(), "{:?}", t.unmatched);
        assert_eq!(t.cases.len(), 4);
        for c in &t.cases {
            assert_eq!(c.per_round.len(), if c.case.bench == first { 16 } else { 12 }, "{}", c.case);
        }
        assert_eq!((t.regressions, t.aa_failures), (0, 0));
    }
}
