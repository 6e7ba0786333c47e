//! `boardbench pool`: one verdict from several runs of one match played at
//! the same time. A match plays on one core; on a machine with more, run
//! one per core (each with its own `--seed`, `--core` and `--out`) and pool
//! their results: the game pairs of every run are summed and the score with
//! LOWER95, the Elo and the SPRT's LLR are computed over all of them, as
//! fishtest pools its workers. The runs must be of one match: the same
//! engines and options, limits, adjudication, openings file and SPRT.
//!
//! Each run's `match.json` is rewritten as it plays (and at the end), so a
//! pool can be taken while the runs are still going; it then judges the
//! pairs played so far.

use super::match_run::{estimate_lines, outcome, EXIT_ACCEPTED, EXIT_INCONCLUSIVE, EXIT_REJECTED};
use super::score::{Estimate, Tally};
use super::sprt::{Sprt, Verdict};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `boardbench pool RUN.json RUN.json...`.
#[derive(clap::Args, Clone, Debug)]
pub struct PoolCli {
    /// The runs' `match.json` files (two or more), or the folders holding them.
    #[arg(required = true, num_args = 2.., value_name = "RUN")]
    pub runs: Vec<PathBuf>,
    /// Print the pooled result as JSON on stdout instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// One run's result, as far as pooling needs it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PooledRun {
    pub path: String,
    pub seed: Option<u64>,
    pub tally: Tally,
    /// Why (or whether) the run stopped: "running" while it plays.
    pub stopped: String,
}

/// The pooled result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pool {
    /// Engine A's and B's names, from the first run.
    pub names: [String; 2],
    pub runs: Vec<PooledRun>,
    pub tally: Tally,
    pub estimate: Option<Estimate>,
    pub sprt: Sprt,
    pub llr: f64,
    pub verdict: Verdict,
}

/// Run from the command line: the summary (or JSON) on stdout, and the
/// exit status `boardbench match` would give the pooled pairs.
pub fn main(c: &PoolCli) -> Result<i32, String> {
    let runs = c.runs.iter().map(|p| read_run(p)).collect::<Result<Vec<_>, _>>()?;
    let pool = pool(&runs)?;
    let text =
        if c.json { format!("{}\n", serde_json::to_string(&pool).map_err(|e| e.to_string())?) } else { summary(&pool) };
    crate::output::print_out(&text)?;
    Ok(match pool.verdict {
        Verdict::AcceptH1 => EXIT_ACCEPTED,
        Verdict::AcceptH0 => EXIT_REJECTED,
        Verdict::Continue => EXIT_INCONCLUSIVE,
    })
}

/// A run's file (a folder means its `match.json`), parsed.
pub fn read_run(path: &Path) -> Result<(String, Value), String> {
    let file = if path.is_dir() { path.join("match.json") } else { path.to_path_buf() };
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{shown}: {e}"))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("{shown}: not JSON: {e}"))?;
    match value.get("schema").and_then(Value::as_str) {
        Some("boardbench-match/1") => Ok((shown, value)),
        other => Err(format!(
            "{shown}: not a `boardbench match` result (schema {}, expected \"boardbench-match/1\")",
            other.map_or("missing".to_string(), |s| format!("{s:?}"))
        )),
    }
}

/// What must agree between runs of one match: the engines (command,
/// options, node budget) and every setting that changes the games, but not
/// the seed, the core or the game limit.
fn match_identity(run: &Value) -> Vec<(&'static str, Value)> {
    let engine = |i: usize| {
        let e = &run["engines"][i];
        serde_json::json!({"command": e["command"], "options": e["options"], "nodes": e["nodes"]})
    };
    let s = &run["settings"];
    vec![
        ("engine A", engine(0)),
        ("engine B", engine(1)),
        ("time control", s["time_control"].clone()),
        ("node jitter", s["nodes_jitter"].clone()),
        ("time margin", s["time_margin_ms"].clone()),
        ("adjudication", s["adjudicate"].clone()),
        ("move limit", s["max_moves"].clone()),
        ("openings file", s["openings"].clone()),
    ]
}

/// The SPRT settings a run was judged by.
fn sprt_of(path: &str, run: &Value) -> Result<Sprt, String> {
    let s = &run["sprt"];
    let settings = serde_json::json!({
        "elo0": s["elo0"], "elo1": s["elo1"], "alpha": s["alpha"], "beta": s["beta"], "model": s["model"],
    });
    serde_json::from_value(settings).map_err(|e| format!("{path}: its SPRT settings cannot be read: {e}"))
}

/// Pool runs read by [`read_run`]: checks they are runs of one match with
/// distinct seeds, then sums their pairs.
pub fn pool(runs: &[(String, Value)]) -> Result<Pool, String> {
    let Some((first_path, first)) = runs.first() else {
        return Err("no runs to pool".into());
    };
    let identity = match_identity(first);
    let sprt = sprt_of(first_path, first)?;
    let mut pooled = Vec::new();
    let mut tally = Tally::default();
    for (path, run) in runs {
        for ((what, want), (_, got)) in identity.iter().zip(match_identity(run)) {
            if *want != got {
                return Err(format!("{path}: not the same match as {first_path}: its {what} is {got}, not {want}"));
            }
        }
        if sprt_of(path, run)? != sprt {
            return Err(format!("{path}: its SPRT settings differ from {first_path}'s: {}", run["sprt"]));
        }
        let run_tally: Tally = serde_json::from_value(run["tally"].clone())
            .map_err(|e| format!("{path}: its tally cannot be read: {e}"))?;
        let seed = run["settings"]["seed"].as_u64();
        if let Some(other) = pooled.iter().find(|r: &&PooledRun| r.seed.is_some() && r.seed == seed) {
            return Err(format!(
                "{path} and {}: both played --seed {}, so the same openings in the same order: \
                 they are not independent samples (give each run its own --seed)",
                other.path,
                seed.unwrap_or_default()
            ));
        }
        tally.wins += run_tally.wins;
        tally.draws += run_tally.draws;
        tally.losses += run_tally.losses;
        for (sum, n) in tally.pentanomial.iter_mut().zip(run_tally.pentanomial) {
            *sum += n;
        }
        pooled.push(PooledRun {
            path: path.clone(),
            seed,
            tally: run_tally,
            stopped: run["stopped"].as_str().unwrap_or("unknown").to_string(),
        });
    }
    let name = |i: usize| first["engines"][i]["name"].as_str().unwrap_or("?").to_string();
    let llr = sprt.llr(&tally.pentanomial);
    Ok(Pool {
        names: [name(0), name(1)],
        runs: pooled,
        estimate: Estimate::of(&tally),
        verdict: sprt.verdict(llr),
        tally,
        sprt,
        llr,
    })
}

/// The pooled result for people.
pub fn summary(p: &Pool) -> String {
    let t = &p.tally;
    let mut s = format!("A: {}\nB: {}\n", p.names[0], p.names[1]);
    for r in &p.runs {
        s.push_str(&format!(
            "  {}: seed {}, {} games (+{} ={} -{}), {}\n",
            r.path,
            r.seed.map_or("?".to_string(), |n| n.to_string()),
            r.tally.games(),
            r.tally.wins,
            r.tally.draws,
            r.tally.losses,
            r.stopped
        ));
    }
    s.push_str(&format!(
        "pooled {} runs, games {}: A +{} ={} -{} ({:.1} points); pairs {}: LL {} LD {} WL+DD {} WD {} WW {}\n",
        p.runs.len(),
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        t.points(),
        t.pairs(),
        t.pentanomial[0],
        t.pentanomial[1],
        t.pentanomial[2],
        t.pentanomial[3],
        t.pentanomial[4]
    ));
    s.push_str(&estimate_lines(t));
    let (lower, upper) = p.sprt.bounds();
    let outcome = outcome(p.verdict, &p.sprt);
    s.push_str(&format!(
        "SPRT [{}, {}] {} Elo, alpha {} beta {}, over the pooled pairs: LLR {:.2} [{lower:.2}, {upper:.2}]: {outcome}\n",
        p.sprt.elo0, p.sprt.elo1, p.sprt.model, p.sprt.alpha, p.sprt.beta, p.llr
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strength::sprt::EloModel;

    /// Accepting H1 of a non-regression test says "not weaker", not
    /// "stronger".
    #[test]
    fn an_accepted_non_regression_test_says_not_weaker() {
        let sprt = |elo0, elo1| Sprt { elo0, elo1, alpha: 0.05, beta: 0.05, model: EloModel::Normalized };
        assert_eq!(outcome(Verdict::AcceptH1, &sprt(0.0, 5.0)), "H1 accepted: A is stronger");
        assert_eq!(
            outcome(Verdict::AcceptH1, &sprt(-10.0, 0.0)),
            "H1 accepted: A is not weaker (Elo +0 rather than -10)"
        );
        assert_eq!(outcome(Verdict::AcceptH0, &sprt(-10.0, 0.0)), "H0 accepted: H1 rejected");
    }

    /// A run's JSON as `boardbench match` writes it (the fields pooling reads).
    fn run(seed: u64, pentanomial: [u64; 5], wdl: [u64; 3]) -> Value {
        serde_json::json!({
            "schema": "boardbench-match/1",
            "engines": [
                {"name": "new", "command": ["/x/engine-new"], "options": ["Profile=bitboard"], "nodes": null},
                {"name": "old", "command": ["/x/engine-old"], "options": ["Profile=bitboard"], "nodes": null},
            ],
            "settings": {"time_control": "1+0.01", "nodes_jitter": null, "time_margin_ms": 50,
                         "adjudicate": {"margin_cp": 1000, "moves": 4}, "max_moves": null,
                         "openings": "/x/openings.epd", "seed": seed, "core": seed % 2},
            "tally": {"wins": wdl[0], "draws": wdl[1], "losses": wdl[2], "pentanomial": pentanomial},
            "sprt": {"elo0": -10.0, "elo1": 0.0, "alpha": 0.05, "beta": 0.05, "model": "normalized",
                     "bounds": [-2.94, 2.94], "llr": 0.0, "verdict": "continue"},
            "stopped": "running",
        })
    }

    #[test]
    fn the_pairs_of_every_run_are_summed_and_judged_together() {
        let a = run(7, [15, 26, 69, 38, 13], [104, 122, 96]);
        let b = run(8, [10, 20, 60, 30, 12], [80, 104, 80]);
        let p = pool(&[("a.json".into(), a.clone()), ("b.json".into(), b)]).unwrap();
        assert_eq!(p.tally.pentanomial, [25, 46, 129, 68, 25]);
        assert_eq!((p.tally.wins, p.tally.draws, p.tally.losses), (184, 226, 176));
        let sprt = Sprt { elo0: -10.0, elo1: 0.0, alpha: 0.05, beta: 0.05, model: EloModel::Normalized };
        assert_eq!(p.sprt, sprt);
        // The LLR of the summed counts, not the sum of the runs' LLRs.
        assert_eq!(p.llr, sprt.llr(&[25, 46, 129, 68, 25]));
        assert_eq!(p.estimate.as_ref().unwrap().pairs, 293);
        let text = summary(&p);
        assert!(text.contains("pooled 2 runs, games 586: A +184 =226 -176"), "{text}");
        assert!(text.contains("  a.json: seed 7, 322 games (+104 =122 -96), running"), "{text}");
        assert!(text.contains("SPRT [-10, 0] normalized Elo") && text.contains("inconclusive"), "{text}");

        // Enough pairs of the same kind decide it.
        let many = run(9, [150, 260, 690, 380, 130], [1040, 1220, 960]);
        let p = pool(&[("a.json".into(), a), ("c.json".into(), many)]).unwrap();
        assert_eq!(p.verdict, Verdict::AcceptH1, "LLR {}", p.llr);
    }

    #[test]
    fn runs_of_different_matches_or_seeds_are_refused() {
        let a = run(7, [1, 1, 1, 1, 1], [3, 4, 3]);
        let same_seed = run(7, [1, 1, 1, 1, 1], [3, 4, 3]);
        let err = pool(&[("a.json".into(), a.clone()), ("b.json".into(), same_seed)]).unwrap_err();
        assert!(err.contains("b.json and a.json: both played --seed 7"), "{err}");
        let mut other_engine = run(8, [1, 1, 1, 1, 1], [3, 4, 3]);
        other_engine["engines"][1]["options"] = serde_json::json!(["Profile=mailbox"]);
        let err = pool(&[("a.json".into(), a.clone()), ("b.json".into(), other_engine)]).unwrap_err();
        assert!(err.starts_with("b.json: not the same match as a.json: its engine B is"), "{err}");
        let mut other_tc = run(8, [1, 1, 1, 1, 1], [3, 4, 3]);
        other_tc["settings"]["time_control"] = "10+0.1".into();
        let err = pool(&[("a.json".into(), a.clone()), ("b.json".into(), other_tc)]).unwrap_err();
        assert!(err.contains("its time control is \"10+0.1\", not \"1+0.01\""), "{err}");
        let mut other_sprt = run(8, [1, 1, 1, 1, 1], [3, 4, 3]);
        other_sprt["sprt"]["elo1"] = 5.0.into();
        let err = pool(&[("a.json".into(), a), ("b.json".into(), other_sprt)]).unwrap_err();
        assert!(err.contains("b.json: its SPRT settings differ from a.json's"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_a_match_result_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("match.json");
        std::fs::write(&file, r#"{"schema": "boardbench-run/1"}"#).unwrap();
        let err = read_run(dir.path()).unwrap_err();
        assert!(err.contains("match.json: not a `boardbench match` result (schema \"boardbench-run/1\""), "{err}");
        std::fs::write(&file, "{").unwrap();
        assert!(read_run(&file).unwrap_err().contains("not JSON"));
        assert!(read_run(&dir.path().join("none.json")).unwrap_err().contains("none.json"));
    }
}
