//! The gate's JSON: what each `gate-sample` process prints, as the gate
//! parses it (schema checked) and analyses a round of them (base,
//! candidate, base again), with the verdict and tables made from the
//! outcome; and the gate's own report, read back, its tables, summary line
//! and verdict. No text panics.

use crate::json::{document, Seed};
use crate::{cases, ensure, run_target};
use boardbench::gate::builds::BuildInfo;
use boardbench::gate::decision::decide;
use boardbench::gate::instructions::counts::{judge_counts, CountOutcome};
use boardbench::gate::report::{summary_line, tables, GateReport, REPORT_SCHEMA};
use boardbench::gate::timing::analysis::{analyse, floors, TimingOutcome};
use boardbench::gate::timing::sample::{Sample, SAMPLE_SCHEMA};
use proptest::collection::vec;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A real `gate-sample` output (tests/fixtures/gate-sample.json).
fn sample_seed() -> &'static Seed {
    static SEED: OnceLock<Seed> = OnceLock::new();
    SEED.get_or_init(|| Seed::new(include_str!("../fixtures/gate-sample.json"), 4))
}

/// Parse as the gate does: JSON, then the schema.
fn parse_sample(text: &str) -> Option<Sample> {
    serde_json::from_str::<Sample>(text.trim()).ok().filter(|s| s.schema == SAMPLE_SCHEMA)
}

/// The sample with every floor scaled by `factor`, per round a little
/// more: rounds of one build.
fn rounds(sample: &Sample, factor: f64, n: usize) -> Vec<Sample> {
    (0..n)
        .map(|r| {
            let mut s = sample.clone();
            for c in s.benches.iter_mut().flat_map(|b| b.cases.iter_mut()) {
                c.floor *= factor * (1.0 + 0.004 * r as f64);
            }
            s
        })
        .collect()
}

fn build(role: &str) -> BuildInfo {
    BuildInfo {
        role: role.into(),
        commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
        label: format!("{role} (0123456789)"),
        features: vec![],
        env: vec![],
        source: PathBuf::from("/src"),
        target_dir: PathBuf::from("/target"),
        build_s: 1.0,
    }
}

/// A gate report around a timing outcome, with instruction counts judged
/// on its cases.
fn report(timing: TimingOutcome) -> GateReport {
    let ids: Vec<_> = timing.cases.iter().map(|c| c.case.clone()).collect();
    let base: Vec<u64> = (0..ids.len() as u64).map(|i| 1000 + i).collect();
    let cand: Vec<Option<u64>> = base.iter().enumerate().map(|(i, &b)| (i % 5 != 4).then_some(b + i as u64)).collect();
    let cases = judge_counts(&ids, &base, &cand, 0.01);
    let counts = CountOutcome {
        baseline: "mailbox".into(),
        limit: 0.01,
        calls_per_pass: 4,
        regressions: cases.iter().filter(|c| c.change.is_some_and(|x| x > 0.01)).count(),
        cases,
        new_cases: vec![],
        gungraun_status: 0,
    };
    let (exit_status, verdict) = decide(Some(&timing), Some(&counts));
    GateReport {
        schema: REPORT_SCHEMA.into(),
        date: "2026-01-01T00:00:00Z".into(),
        duration_s: 1.0,
        command_line: vec!["boardbench".into(), "gate".into()],
        cpu_model: Some("cpu".into()),
        load_average_start: Some([0.1, 0.2, 0.3]),
        load_average_end: None,
        core: 1,
        base: build("base"),
        candidate: build("candidate"),
        timing: Some(timing),
        timing_s: 1.0,
        counts: Some(counts),
        counts_s: 1.0,
        verdict: verdict.into(),
        exit_status,
    }
}

/// A gate report made by the gate's own analysis of the real sample.
fn report_seed() -> &'static Seed {
    static SEED: OnceLock<Seed> = OnceLock::new();
    SEED.get_or_init(|| {
        let sample = parse_sample(&sample_seed().text).expect("the fixture is a sample");
        let timing = analyse(&rounds(&sample, 1.0, 4), &rounds(&sample, 1.05, 4), &rounds(&sample, 1.0, 4), 0.03, 0.06);
        Seed::new(&serde_json::to_string(&report(timing)).unwrap(), 4)
    })
}

/// Everything the gate prints from a report.
fn print(r: &GateReport) -> crate::CaseResult {
    let t = tables(r);
    ensure(t.starts_with("gate: candidate "), || format!("tables {t:.200}"))?;
    let line = summary_line(r);
    ensure(line.starts_with("gate: "), || format!("summary {line:.200}"))?;
    let _ = decide(r.timing.as_ref(), r.counts.as_ref());
    Ok(())
}

#[test]
fn gate_sample_json() {
    let sample = parse_sample(&sample_seed().text).expect("the fixture is a sample");
    assert!(!floors(&sample).is_empty());
    // Three processes per round, two rounds: each text parsed; those that
    // parse analysed as the gate does.
    run_target("gate-sample", cases(2_000), vec(document(sample_seed()), 6), |texts| {
        let parsed: Vec<Sample> = texts.iter().filter_map(|t| parse_sample(t)).collect();
        let (base, rest) = parsed.split_at(parsed.len() / 3);
        let (cand, aa) = rest.split_at(rest.len() / 2);
        for s in &parsed {
            let _ = floors(s);
        }
        let timing = analyse(base, cand, aa, 0.03, 0.06);
        print(&report(timing))
    });
}

#[test]
fn gate_report_json() {
    let seeded: GateReport = serde_json::from_str(&report_seed().text).expect("the seed report parses");
    print(&seeded).unwrap();
    run_target("gate-report", cases(3_000), document(report_seed()), |text| {
        match serde_json::from_str::<GateReport>(text) {
            Ok(r) => print(&r),
            // The gate writes its report and never reads it back: only
            // what is printed from a report that parses matters.
            Err(_) => Ok(()),
        }
    });
}
