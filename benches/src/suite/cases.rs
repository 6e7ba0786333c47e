//! The registered benchmarks as cases (benchmark × bucket × arm), for the
//! harnesses that take one case at a time: the commit gate and the
//! criterion and callgrind targets. Each benchmark's own `run` is what
//! finds its cases, in a collecting context
//! ([`crate::measure::context::Purpose::Collect`]): the harnesses see
//! exactly the arms, filters and inputs a report run measures, and a new
//! benchmark joins them with its registry line alone. Also the text form
//! of a case list (one `bench<TAB>bucket<TAB>arm` per line) that carries a
//! list from a parent process to the processes that count under valgrind.

use crate::measure::case::{Case, CaseId};
use crate::measure::context::{Context, Options, Purpose, Want, COLLECTED};
use crate::suite::benchmarks;
use crate::suite::density::PositionSet;
use crate::suite::spec::Entry;

/// A case with its id, ready to run.
pub type PreparedCase = (CaseId, Box<dyn Case>);

/// Run `entry` on `set` collecting; what the collector gathered.
fn collect(entry: &Entry, set: &PositionSet, want: Want) -> Result<(Vec<CaseId>, Vec<PreparedCase>), String> {
    let ctx = Context::build(Options::collecting(want));
    match (entry.run)(&ctx, set) {
        Err(err) if err.ends_with(COLLECTED) => {}
        Err(err) => return Err(format!("{}: {err}", entry.name)),
        Ok(_) => {}
    }
    let Purpose::Collect(c) = ctx.purpose else { unreachable!("a collecting context") };
    Ok((c.found.into_inner(), c.prepared.into_inner()))
}

/// Every case of the registered benchmarks on `set`, in registry order. A
/// benchmark that does not measure through `suite::benchmark::measure`
/// yields none and is named in the second list.
pub fn list_cases(set: &PositionSet) -> Result<(Vec<CaseId>, Vec<String>), String> {
    let mut cases = Vec::new();
    let mut without = Vec::new();
    for e in benchmarks::REGISTRY {
        let (found, _) = collect(e, set, Want::Nothing)?;
        if found.is_empty() {
            without.push(e.name.to_string());
        }
        cases.extend(found);
    }
    Ok((cases, without))
}

/// Every case of `entry` on `set`, prepared, in its order.
pub fn prepare_all(entry: &Entry, set: &PositionSet) -> Result<Vec<PreparedCase>, String> {
    Ok(collect(entry, set, Want::Every)?.1)
}

/// Case `case` on `set`, prepared; `None` where this build has no such
/// case (a benchmark, bucket or arm removed since the list was made).
pub fn prepare(case: &CaseId, set: &PositionSet) -> Result<Option<Box<dyn Case>>, String> {
    let Some(e) = benchmarks::find(&case.bench) else { return Ok(None) };
    Ok(collect(e, set, Want::One(case.clone()))?.1.pop().map(|(_, c)| c))
}

/// Cases as lines of `bench<TAB>bucket<TAB>arm`.
pub fn cases_text(cases: &[CaseId]) -> String {
    cases.iter().map(|c| format!("{}\t{}\t{}\n", c.bench, c.bucket, c.arm)).collect()
}

/// Parse [`cases_text`].
pub fn parse_cases(text: &str) -> Result<Vec<CaseId>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            match f.as_slice() {
                [b, k, a] if !b.is_empty() && !k.is_empty() && !a.is_empty() => {
                    Ok(CaseId { bench: b.to_string(), bucket: k.to_string(), arm: a.to_string() })
                }
                _ => Err(format!("case list line {}: {l:?} is not bench<TAB>bucket<TAB>arm", i + 1)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::density::{self, Sizes};

    fn small_set() -> PositionSet {
        let dir = crate::workspace::positions_dir();
        density::select(
            &density::default_sources(&dir),
            None,
            Sizes { per_bucket: 4, per_count: 0, ..Sizes::default() },
        )
        .unwrap()
    }

    #[test]
    fn every_registered_case_is_listed_and_prepared_alike() {
        let set = small_set();
        let (cases, without) = list_cases(&set).unwrap();
        assert!(without.is_empty(), "{without:?}");
        for e in benchmarks::REGISTRY {
            let all = prepare_all(e, &set).unwrap();
            let ids: Vec<CaseId> = all.iter().map(|(id, _)| id.clone()).collect();
            let listed: Vec<CaseId> = cases.iter().filter(|c| c.bench == e.name).cloned().collect();
            assert!(!listed.is_empty(), "{}", e.name);
            assert_eq!(ids, listed, "{}", e.name);
            for (id, mut case) in all {
                assert!((1..=4).contains(&case.calls()), "{id}: {} calls", case.calls());
                // Prepared alone, the case runs the same pass.
                let mut alone = prepare(&id, &set).unwrap().expect("a listed case");
                assert_eq!(alone.calls(), case.calls(), "{id}");
                assert_eq!(alone.pass(), case.pass(), "{id}");
            }
        }
        let gone = CaseId { bench: "movegenbench".into(), bucket: "opening".into(), arm: "nosuch".into() };
        assert!(prepare(&gone, &set).unwrap().is_none());
        let gone = CaseId { bench: "nosuchbench".into(), bucket: "opening".into(), arm: "x".into() };
        assert!(prepare(&gone, &set).unwrap().is_none());
    }

    #[test]
    fn case_lists_round_trip_and_bad_lines_are_named() {
        let ids = vec![
            CaseId { bench: "a".into(), bucket: "opening".into(), arm: "x y".into() },
            CaseId { bench: "b".into(), bucket: "endgame".into(), arm: "z".into() },
        ];
        assert_eq!(parse_cases(&cases_text(&ids)).unwrap(), ids);
        assert!(parse_cases("a\tb\n").unwrap_err().contains("line 1"));
        assert!(parse_cases("a\tb\tc\nx\t\ty\n").unwrap_err().contains("line 2"));
    }
}
