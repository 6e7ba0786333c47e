//! The retirement checklist: the five criteria the migration plans require
//! before the old form of a routine may be deleted, each PASS, FAIL or NOT
//! RUN with its evidence, and the verdict they add up to. Only five passes
//! make "safe to retire": a failure blocks, and so does a criterion that
//! did not run (or is missing), whatever the reason.

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// Report format name of a retirement run.
pub const SCHEMA: &str = "boardbench-retire/1";

/// How a criterion ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    Pass,
    Fail,
    NotRun,
}

impl Status {
    /// As the checklist prints it.
    pub const fn label(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::NotRun => "NOT RUN",
        }
    }
}

/// The five criteria, by number.
pub const CRITERIA: [(u8, &str); 5] = [
    (1, "20,000-position equivalence sweep clean"),
    (2, "isolated cycles per call: new faster in every bucket and on the men ladder"),
    (3, "fixed-depth curated suites no worse than the head reference"),
    (4, "match gate, new against old at a short clock: LOWER95 >= 0.5 (SPRT early stop)"),
    (5, "head reference rebuilt from the new form"),
];

/// The name of criterion `number`.
pub fn criterion_name(number: u8) -> &'static str {
    CRITERIA.iter().find(|(n, _)| *n == number).map_or("unknown criterion", |(_, name)| name)
}

/// Does criterion `number` judge the same thing whatever the routine? (The
/// curated suites and the head reference concern the new form, the
/// bitboard profile, which every routine shares; so a result of another
/// routine's run of the same commit may stand in for them.)
pub const fn routine_independent(number: u8) -> bool {
    matches!(number, 3 | 5)
}

/// One criterion's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    pub number: u8,
    pub name: String,
    pub status: Status,
    /// What was found; for NOT RUN, why it did not run.
    pub evidence: String,
    /// "this run", or the earlier run it was taken from.
    pub source: String,
    /// Seconds it took (in the run that measured it).
    pub seconds: f64,
    /// Everything measured, for programs.
    pub details: serde_json::Value,
}

impl Criterion {
    /// A result measured in this run.
    pub fn measured(number: u8, status: Status, evidence: String, seconds: f64, details: serde_json::Value) -> Self {
        Criterion {
            number,
            name: criterion_name(number).to_string(),
            status,
            evidence,
            source: "this run".to_string(),
            seconds,
            details,
        }
    }

    /// A criterion that did not run, and why.
    pub fn not_run(number: u8, reason: impl Into<String>) -> Self {
        Criterion::measured(number, Status::NotRun, reason.into(), 0.0, serde_json::Value::Null)
    }
}

/// What the checklist adds up to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Every criterion passed.
    pub safe: bool,
    /// The criteria that did not pass (failed, did not run, or missing).
    pub blocking: Vec<u8>,
    /// The verdict line.
    pub line: String,
}

/// The verdict on retiring the old form of `routine` from `criteria`: safe
/// only when each of the five is present once and passed.
pub fn verdict(routine: &str, criteria: &[Criterion]) -> Verdict {
    let mut blocking = Vec::new();
    let mut why = Vec::new();
    for (number, _) in CRITERIA {
        let found: Vec<&Criterion> = criteria.iter().filter(|c| c.number == number).collect();
        let status = match found.as_slice() {
            [one] => one.status,
            [] => {
                blocking.push(number);
                why.push(format!("{number} (missing)"));
                continue;
            }
            _ => {
                blocking.push(number);
                why.push(format!("{number} (given {} times)", found.len()));
                continue;
            }
        };
        if status != Status::Pass {
            blocking.push(number);
            why.push(format!("{number} ({})", status.label()));
        }
    }
    let safe = blocking.is_empty();
    let line = if safe {
        format!("safe to retire the old {routine}: all five criteria pass")
    } else {
        format!("not safe to retire the old {routine}: blocked by {}", why.join(", "))
    };
    Verdict { safe, blocking, line }
}

/// The checklist as text: one line per criterion (number, status, name,
/// evidence, where it came from), then the verdict.
pub fn checklist_text(criteria: &[Criterion], verdict: &Verdict) -> String {
    let mut s = String::new();
    for c in criteria {
        let from = if c.source == "this run" { format!("{:.0} s", c.seconds) } else { c.source.clone() };
        let _ = writeln!(s, "{} {:<7}  {}  [{from}]", c.number, c.status.label(), c.name);
        for line in c.evidence.lines() {
            let _ = writeln!(s, "           {line}");
        }
    }
    let _ = writeln!(s, "VERDICT: {}", verdict.line);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(status: Status) -> Vec<Criterion> {
        CRITERIA
            .iter()
            .map(|&(n, _)| Criterion::measured(n, status, format!("evidence {n}"), 1.0, serde_json::Value::Null))
            .collect()
    }

    #[test]
    fn five_passes_are_safe() {
        let v = verdict("movegen", &all(Status::Pass));
        assert!(v.safe && v.blocking.is_empty());
        assert_eq!(v.line, "safe to retire the old movegen: all five criteria pass");
    }

    /// Each criterion failing alone, or not run alone, blocks the verdict
    /// and is named in it.
    #[test]
    fn any_single_failure_or_not_run_blocks() {
        for (n, _) in CRITERIA {
            for status in [Status::Fail, Status::NotRun] {
                let mut c = all(Status::Pass);
                c[usize::from(n) - 1] = if status == Status::NotRun {
                    Criterion::not_run(n, "skipped")
                } else {
                    Criterion::measured(n, status, "bad".into(), 1.0, serde_json::Value::Null)
                };
                let v = verdict("defects", &c);
                assert!(!v.safe, "{n} {status:?}");
                assert_eq!(v.blocking, [n]);
                assert!(v.line.contains(&format!("blocked by {n} ({})", status.label())), "{}", v.line);
            }
        }
    }

    #[test]
    fn not_run_never_passes_and_missing_or_doubled_criteria_block() {
        let v = verdict("attacks", &all(Status::NotRun));
        assert!(!v.safe);
        assert_eq!(v.blocking, [1, 2, 3, 4, 5]);
        let mut c = all(Status::Pass);
        c.remove(3);
        let v = verdict("attacks", &c);
        assert_eq!((v.safe, v.blocking.as_slice()), (false, &[4][..]));
        assert!(v.line.contains("4 (missing)"), "{}", v.line);
        let mut c = all(Status::Pass);
        c.push(c[0].clone());
        let v = verdict("attacks", &c);
        assert_eq!((v.safe, v.blocking.as_slice()), (false, &[1][..]));
        assert!(v.line.contains("1 (given 2 times)"), "{}", v.line);
    }

    #[test]
    fn text_and_json_say_the_same() {
        let mut c = all(Status::Pass);
        c[1] = Criterion::measured(2, Status::Fail, "opening 1.02 [1.01, 1.03]\nladder ok".into(), 3.0, 1.into());
        c[3] = Criterion::not_run(4, "skipped (--skip 4)");
        let v = verdict("mobility-rook", &c);
        let text = checklist_text(&c, &v);
        assert!(text.contains("2 FAIL     isolated cycles per call"), "{text}");
        assert!(text.contains("           ladder ok"), "{text}");
        assert!(text.contains("4 NOT RUN  match gate") && text.contains("skipped (--skip 4)"), "{text}");
        assert!(text.ends_with("VERDICT: not safe to retire the old mobility-rook: blocked by 2 (FAIL), 4 (NOT RUN)\n"));
        let json = serde_json::to_value(&c[3]).unwrap();
        assert_eq!(json["status"], "NOT_RUN");
        let back: Criterion = serde_json::from_value(json).unwrap();
        assert_eq!(back, c[3]);
    }
}
