//! Saved references as `boardbench reference compare` reads them: parse
//! and schema check, the suite files the reference names checked by
//! their hash, the comparison with a candidate run, and its text. No text
//! panics; a rejected one gets one line. Suite files are named from a set
//! that includes a device that never ends and a folder: they must be
//! refused, not read.

use crate::json::{document, Seed};
use crate::{cases, ensure, run_target};
use boardbench::strength::reference::{compare, comparison_text, parse_run, suites_of};
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::OnceLock;

/// The committed head reference, arrays cut to three elements.
fn seed() -> &'static Seed {
    static SEED: OnceLock<Seed> = OnceLock::new();
    SEED.get_or_init(|| {
        let path = boardbench::workspace::root().join("results/reference/head.json");
        Seed::new(&std::fs::read_to_string(path).expect("results/reference/head.json"), 3)
    })
}

/// Suite file names: the real ones, and ones that must be refused.
const SUITE_FILES: [&str; 8] = [
    "positions/ringers.epd",
    "positions/hard_quick.epd",
    "/dev/zero",
    "/dev/null",
    "positions",
    "no/such/file.epd",
    "",
    "/proc/self/stat",
];

#[test]
fn reference_json() {
    let seeded = parse_run(seed().text.as_bytes(), "seed").expect("the shortened reference still parses");
    let rows = compare(&seeded, &seeded).expect("a reference compares with itself");
    assert!(comparison_text(&seeded, &seeded, &rows).contains("identical to the reference"));
    let input = (
        document(seed()),
        document(seed()),
        proptest::option::weighted(0.1, (any::<usize>(), select(&SUITE_FILES[..]))),
    );
    run_target("reference", cases(3_000), input, |(reference, candidate, suite_file)| {
        let parsed = [reference, candidate].map(|t| parse_run(t.as_bytes(), "fuzz.json"));
        for p in &parsed {
            if let Err(e) = p {
                ensure(e.starts_with("reference fuzz.json: ") && !e.contains('\n'), || format!("message {e:?}"))?;
            }
        }
        let [Ok(mut reference), Ok(candidate)] = parsed else { return Ok(()) };
        // Reading the suite files costs time: one case in ten names one.
        if let Some((i, file)) = suite_file {
            if !reference.suites.is_empty() {
                let n = reference.suites.len();
                reference.suites[i % n].file = file.to_string();
            }
            if let Err(e) = suites_of(&reference) {
                ensure(e.starts_with("suite "), || format!("message {e:?}"))?;
            }
        }
        match compare(&reference, &candidate) {
            Ok(rows) => {
                let text = comparison_text(&reference, &candidate, &rows);
                ensure(text.starts_with("reference: "), || format!("text {text:.200}"))
            }
            Err(e) => ensure(e.starts_with("suite "), || format!("message {e:?}")),
        }
    });
}
