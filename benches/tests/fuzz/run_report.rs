//! Run reports as `read_report` reads them (parse, schema check), then the
//! table printed from one and its positions note: no text panics, a
//! rejected one gets one line naming the file.

use crate::json::{document, Seed};
use crate::{cases, ensure, run_target};
use boardbench::suite::report::parse_report;
use boardbench::suite::table::run_table;
use std::sync::OnceLock;

/// The committed default run, arrays cut to four elements.
fn seed() -> &'static Seed {
    static SEED: OnceLock<Seed> = OnceLock::new();
    SEED.get_or_init(|| {
        let path = boardbench::workspace::root().join("results/baseline.json");
        Seed::new(&std::fs::read_to_string(path).expect("results/baseline.json"), 4)
    })
}

#[test]
fn run_report_json() {
    // The seed itself is a report: the fuzzing starts from valid input.
    let seeded = parse_report(seed().text.as_bytes(), "seed").expect("the shortened baseline still parses");
    assert!(run_table(&seeded).contains("getattacksbench"));
    run_target("run-report", cases(3_000), document(seed()), |text| match parse_report(text.as_bytes(), "fuzz.json") {
        Ok(r) => {
            let table = run_table(&r);
            ensure(table.starts_with("clock "), || format!("table: {table:.200}"))?;
            let short = r.positions.shortfall();
            ensure(short.is_none_or(|s| table.contains(&s)), || "the shortfall is not in the table".into())
        }
        Err(e) => ensure(e.starts_with("fuzz.json: ") && !e.contains('\n'), || format!("message {e:?}")),
    });
}
