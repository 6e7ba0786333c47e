//! The cases the instruction check counts: the hidden `gate-cases`
//! subcommand (a build's case list), one case's counted pass, and the
//! inputs of the gungraun bench target `gate_callgrind`. The cases
//! themselves come from the registry ([`crate::suite::cases`]).

use crate::gate::positions::{positions_from, select_positions};
use crate::measure::case::CaseId;
use crate::output::print_out;
use crate::suite::cases::{cases_text, list_cases, parse_cases, prepare};
use crate::suite::density::PositionSet;
use std::path::{Path, PathBuf};

/// Positions per bucket of the instruction counts (calls per counted pass).
pub const CALLGRIND_PER_BUCKET: usize = 32;

/// Environment of the gungraun bench target `gate_callgrind`.
pub const ENV_POSITIONS: &str = "BOARDBENCH_GATE_POSITIONS";
pub const ENV_CASES: &str = "BOARDBENCH_GATE_CASES";

/// Run one case's counted pass, after one uncounted pass (warm-up: lazily
/// built tables, caches); its checksum, or `None` where this build has no
/// such case (a benchmark, bucket or arm removed since the base).
pub fn count_case(case: &CaseId, set: &PositionSet) -> Result<Option<u64>, String> {
    let Some(mut prepared) = prepare(case, set)? else { return Ok(None) };
    prepared.warm();
    Ok(Some(prepared.pass()))
}

/// `boardbench gate-cases`: the build's cases, one per line.
#[derive(clap::Args, Clone, Debug)]
pub struct CasesCli {
    /// Positions (EPD), as the gate wrote them.
    #[arg(long, value_name = "FILE")]
    pub positions: PathBuf,
    /// Positions per bucket.
    #[arg(long, value_name = "N", default_value_t = CALLGRIND_PER_BUCKET)]
    pub per_bucket: usize,
}

/// Run `gate-cases`; the exit status.
pub fn cases_main(a: &CasesCli) -> Result<i32, String> {
    let set = positions_from(&a.positions, a.per_bucket)?;
    let (cases, without) = list_cases(&set)?;
    for w in without {
        eprintln!("boardbench: note: {w} does not measure through suite::benchmark::measure; the gate cannot count it");
    }
    print_out(&cases_text(&cases))?;
    Ok(0)
}

/// The positions and case list the `gate_callgrind` bench target uses: from
/// the gate's environment, or (run by hand) the default positions.
pub fn callgrind_inputs() -> Result<(PositionSet, Vec<CaseId>), String> {
    let set = match std::env::var_os(ENV_POSITIONS) {
        Some(f) => positions_from(Path::new(&f), CALLGRIND_PER_BUCKET)?,
        None => select_positions(CALLGRIND_PER_BUCKET)?,
    };
    let cases = match std::env::var_os(ENV_CASES) {
        Some(f) => parse_cases(
            &std::fs::read_to_string(&f).map_err(|e| format!("cannot read {}: {e}", Path::new(&f).display()))?,
        )?,
        None => list_cases(&set)?.0,
    };
    Ok((set, cases))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::benchmarks;
    use crate::suite::density::Bucket;

    #[test]
    fn the_registry_lists_every_case_and_counts_one() {
        let set = select_positions(4).unwrap();
        let (cases, without) = list_cases(&set).unwrap();
        assert!(without.is_empty(), "{without:?}");
        for e in benchmarks::REGISTRY {
            // Per-piece mobility keeps only positions with that piece: four
            // endgames may hold no queen, and that bucket is then left out.
            let filtered = e.name.starts_with("mobilitybench-");
            for b in Bucket::ALL {
                let found = cases.iter().any(|c| c.bench == e.name && c.bucket == b.name());
                assert!(found || (filtered && b == Bucket::Endgame), "{} {b}", e.name);
            }
            assert!(cases.iter().any(|c| c.bench == e.name), "{}", e.name);
        }
        let mg = cases.iter().find(|c| c.bench == "movegenbench" && c.arm == "mailbox").unwrap();
        let sum = count_case(mg, &set).unwrap().expect("found");
        assert!(sum > 0, "legal moves of 4 positions");
        let gone = CaseId { bench: "movegenbench".into(), bucket: "opening".into(), arm: "nosuch".into() };
        assert_eq!(count_case(&gone, &set).unwrap(), None);
        let gone = CaseId { bench: "nosuchbench".into(), bucket: "opening".into(), arm: "x".into() };
        assert_eq!(count_case(&gone, &set).unwrap(), None);
    }
}
