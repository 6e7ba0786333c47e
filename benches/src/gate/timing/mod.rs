//! The timing check, in lock-step. Three workers — the base's build, the
//! candidate's, and the base's again as the A/A control, each its own
//! process ([`crate::gate::lockstep`]) — measure one case at a time,
//! sample by sample in step ([`crate::gate::lockstep::schedule`]), so that
//! every base sample has a candidate sample and a control sample taken
//! under the same conditions of the machine. The gate visits every open
//! case in turn (a shuffled order each pass), a few milliseconds each;
//! after each visit the case's sequential rule ([`sequential`]) looks at
//! its visits so far ([`paired`]) and decides it or leaves it open; the
//! passes go on until every case is decided or the time budget is spent.
//! [`cases`] matches and sizes the cases; [`outcome`] is what comes out.

pub mod cases;
pub mod outcome;
pub mod paired;
pub mod sequential;

use crate::gate::lockstep::protocol::Visit;
use crate::gate::lockstep::schedule::{self, Pairing, BASE, CANDIDATE, CONTROL, WORKERS};
use crate::gate::lockstep::workers::{Limits, Spec, Workers};
use crate::gate::timing::cases::{plan_cases, Planned, WARM_CYCLES};
use crate::gate::timing::outcome::{TimingCase, TimingOutcome, WorkerInfo};
use crate::gate::timing::paired::{lag1_autocorrelation, visit_log_ratio};
use crate::gate::timing::sequential::{Judgement, Rule};
use crate::gate::verdict::Verdict;
use crate::measure::{stats, sysinfo};
use crate::output::write_atomic;
use engine::rng::Rng;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where the A/A control is placed apart from the base (same build).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ControlPlacement {
    pub stack_shift: usize,
    pub heap_offset: usize,
}

/// What the timing check runs and how.
pub(crate) struct TimingPlan<'a> {
    pub base: &'a Path,
    pub candidate: &'a Path,
    pub candidate_env: &'a [(String, String)],
    pub positions: &'a Path,
    pub per_bucket: usize,
    pub pairing: Pairing,
    pub cores: Vec<usize>,
    pub benches: &'a [String],
    pub root: &'a Path,
    pub rule: Rule,
    pub budget_s: f64,
    pub control: ControlPlacement,
    /// Write every visit's raw samples here (JSON), for a closer look.
    pub samples_out: Option<PathBuf>,
}

/// One case's visits so far.
struct Open {
    plan: Planned,
    ratio: Vec<f64>,
    control: Vec<f64>,
    base_cost: Vec<f64>,
    cand_cost: Vec<f64>,
    pairs: usize,
    judgement: Judgement,
    decided_s: Option<f64>,
    raw: Vec<serde_json::Value>,
}

/// Limit on one visit's wait: generous against a loaded machine, short
/// against a stuck worker.
fn visit_limit(expected_s: f64) -> Duration {
    Limits::DEFAULT.visit.max(Duration::from_secs_f64(50.0 * expected_s))
}

/// Run the timing check.
pub(crate) fn timing(p: &TimingPlan) -> Result<TimingOutcome, String> {
    let t_start = Instant::now();
    let specs = [
        Spec { role: "base".into(), program: p.base.to_path_buf(), env: vec![], stack_shift: 0, heap_offset: 0 },
        Spec {
            role: "candidate".into(),
            program: p.candidate.to_path_buf(),
            env: p.candidate_env.to_vec(),
            stack_shift: 0,
            heap_offset: 0,
        },
        Spec {
            role: "A/A control".into(),
            program: p.base.to_path_buf(),
            env: vec![],
            stack_shift: p.control.stack_shift,
            heap_offset: p.control.heap_offset,
        },
    ];
    let mut common: Vec<String> = vec![
        "--positions".into(),
        p.positions.display().to_string(),
        "--per-bucket".into(),
        p.per_bucket.to_string(),
        "--cores".into(),
        p.cores.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
    ];
    for b in p.benches {
        common.extend(["--bench".to_string(), b.clone()]);
    }
    let mut workers = Workers::start(&specs, &common, p.root, Limits::DEFAULT)?;
    let startup_s = t_start.elapsed().as_secs_f64();
    let hellos = workers.hellos.clone();
    let infos: Vec<WorkerInfo> = hellos
        .iter()
        .zip(&specs)
        .map(|(h, s)| WorkerInfo {
            role: s.role.clone(),
            pid: h.pid,
            git_commit: h.git_commit.clone(),
            aslr: h.aslr.clone(),
            pinned: h.pinned,
            realtime: h.realtime,
            heap_offset: h.heap_offset,
            stack_shift: s.stack_shift,
        })
        .collect();
    if let Some(w) = infos.iter().find(|w| !(w.pinned && w.realtime)) {
        eprintln!(
            "boardbench gate: warning: the {} worker runs {} {} (results are noisier)",
            w.role,
            if w.pinned { "pinned" } else { "unpinned" },
            if w.realtime { "real-time" } else { "without real-time priority" }
        );
    }
    let matched = plan_cases(&hellos);
    let mut open: Vec<Open> = matched
        .cases
        .into_iter()
        .map(|plan| Open {
            plan,
            ratio: Vec::new(),
            control: Vec::new(),
            base_cost: Vec::new(),
            cand_cost: Vec::new(),
            pairs: 0,
            judgement: Judgement::Open,
            decided_s: None,
            raw: Vec::new(),
        })
        .collect();
    eprintln!(
        "boardbench gate: timing {} cases in lock-step ({} pairing on core{} {}; workers ready in {startup_s:.1} s), \
         budget {:.0} s",
        open.len(),
        p.pairing.name(),
        if p.cores.len() > 1 { "s" } else { "" },
        p.cores.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" and "),
        p.budget_s
    );
    let t0 = Instant::now();
    let mut rng = Rng::new(0x6A7E_5EED);
    let mut passes = 0;
    'budget: loop {
        let mut order: Vec<usize> = (0..open.len()).filter(|&i| open[i].judgement == Judgement::Open).collect();
        if order.is_empty() {
            break;
        }
        for j in (1..order.len()).rev() {
            order.swap(j, rng.index(j + 1));
        }
        for &i in &order {
            if t0.elapsed().as_secs_f64() >= p.budget_s {
                break 'budget;
            }
            let o = &mut open[i];
            let offset = o.ratio.len() as u32;
            let visits: Vec<Visit> = (0..WORKERS)
                .map(|k| Visit {
                    case: o.plan.index[k],
                    reps: o.plan.reps,
                    warm: WARM_CYCLES,
                    cycles: o.plan.cycles,
                    offset,
                    pairing: p.pairing,
                })
                .collect();
            let expect: Vec<usize> = (0..WORKERS)
                .map(|k| {
                    let all = schedule::samples_of(p.pairing, k, offset, WARM_CYCLES + o.plan.cycles);
                    all - schedule::samples_of(p.pairing, k, offset, WARM_CYCLES)
                })
                .collect();
            let label = o.plan.id.to_string();
            let got = workers.visit(&label, &visits, &expect, visit_limit(o.plan.visit_s))?;
            let paired = schedule::pairs(p.pairing, offset, WARM_CYCLES, o.plan.cycles, [&got[BASE], &got[CANDIDATE], &got[CONTROL]])
                .ok_or_else(|| format!("the workers' samples of {label} do not pair up"))?;
            let (Some(r), Some(c)) = (visit_log_ratio(&paired.candidate), visit_log_ratio(&paired.control)) else {
                return Err(format!("a worker measured a sample of {label} as zero, negative or not a number"));
            };
            let per_call = (o.plan.reps * o.plan.calls as u64) as f64;
            let costs = |v: &[(f64, f64)], second: bool| {
                let mut x: Vec<f64> = v.iter().map(|&(b, o)| if second { o } else { b } / per_call).collect();
                stats::median_mut(&mut x)
            };
            o.base_cost.push(costs(&paired.candidate, false));
            o.cand_cost.push(costs(&paired.candidate, true));
            o.ratio.push(r);
            o.control.push(c);
            o.pairs += paired.candidate.len();
            if p.samples_out.is_some() {
                o.raw.push(serde_json::json!({ "visit": offset, "at_s": t0.elapsed().as_secs_f64(), "samples": got }));
            }
            o.judgement = p.rule.judge(&o.ratio, &o.control);
            if o.judgement != Judgement::Open {
                o.decided_s = Some(t0.elapsed().as_secs_f64());
            }
        }
        passes += 1;
        let left = open.iter().filter(|o| o.judgement == Judgement::Open).count();
        eprintln!(
            "boardbench gate: pass {passes}: {left} of {} cases open ({:.1} s; load {})",
            open.len(),
            t0.elapsed().as_secs_f64(),
            sysinfo::load_average().map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into())
        );
    }
    let measured_s = t0.elapsed().as_secs_f64();
    let samples_cursor: Vec<u64> = (0..WORKERS).map(|k| workers.cursor(k)).collect();
    workers.finish();
    if let Some(path) = &p.samples_out {
        let doc = serde_json::json!({
            "pairing": p.pairing,
            "samples_finished": samples_cursor,
            "cases": open.iter().map(|o| serde_json::json!({
                "case": o.plan.id, "reps": o.plan.reps, "calls": o.plan.calls, "cycles": o.plan.cycles,
                "warm": WARM_CYCLES, "visits": o.raw,
            })).collect::<Vec<_>>(),
        });
        let bytes = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
        write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    }
    let cases: Vec<TimingCase> = open.into_iter().map(|o| finish_case(o, &p.rule)).collect();
    let mut autocorrelations: Vec<f64> =
        cases.iter().map(|c| lag1_autocorrelation(&c.per_visit)).filter(|x| x.is_finite()).collect();
    let mut outcome = TimingOutcome {
        pairing: p.pairing,
        cores: p.cores.clone(),
        threshold: p.rule.threshold,
        aa_bound: p.rule.aa_bound,
        level: p.rule.level,
        budget_s: p.budget_s,
        measured_s,
        startup_s,
        passes,
        workers: infos,
        visit_autocorrelation: (!autocorrelations.is_empty()).then(|| stats::median_mut(&mut autocorrelations)),
        cases,
        unmatched: matched.unmatched,
        new_cases: matched.new_cases,
        regressions: 0,
        placement_warnings: 0,
        undecided: 0,
    };
    outcome.tally();
    Ok(outcome)
}

/// A case's visits as its report line.
fn finish_case(o: Open, rule: &Rule) -> TimingCase {
    let (ratio, aa) = rule.intervals(&o.ratio, &o.control);
    let (verdict, undecided) = match o.judgement {
        Judgement::Regression => (Verdict::Regression, None),
        Judgement::Pass => (Verdict::Ok, None),
        Judgement::Faster => (Verdict::Faster, None),
        Judgement::ControlOut => (
            Verdict::Undecided,
            Some(format!(
                "the A/A control lies outside ±{:.1}%: two processes of the base build disagree on this case",
                rule.aa_bound * 100.0
            )),
        ),
        Judgement::Open => (
            Verdict::Undecided,
            Some(if o.ratio.len() < rule.min_visits() {
                format!("the time budget ran out after {} visits ({} needed for an interval)", o.ratio.len(), rule.min_visits())
            } else {
                "the time budget ran out with the interval across the threshold (or the A/A control across its bound)"
                    .to_string()
            }),
        ),
    };
    let exp = |v: &[f64]| v.iter().map(|x| x.exp()).collect::<Vec<f64>>();
    TimingCase {
        unit: format!("{} per call", o.plan.unit),
        base: stats::median(&o.base_cost),
        candidate: stats::median(&o.cand_cost),
        ratio,
        aa,
        verdict,
        undecided,
        decided_s: o.decided_s,
        reps: o.plan.reps,
        calls: o.plan.calls,
        pairs: o.pairs,
        per_visit: exp(&o.ratio),
        aa_per_visit: exp(&o.control),
        instructions: None,
        cause: None,
        warning: false,
        case: o.plan.id,
    }
}
