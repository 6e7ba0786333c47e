//! `boardbench gate` on the command line: its flags, and the checks made
//! of them before anything is built (a flag out of its range is a usage
//! error, exit 2, as clap's own refusals are).

use crate::gate::verdict::exit;
use crate::suite::benchmarks;
use std::path::PathBuf;

/// `boardbench gate` on the command line.
#[derive(clap::Args, Clone, Debug)]
pub struct GateCli {
    /// The revision to compare with (built in a cached worktree under target/gate/).
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub base: String,
    /// Build this revision as the candidate instead of the working tree.
    #[arg(long, value_name = "REV")]
    pub candidate: Option<String>,
    /// Fail when a case's ratio interval lies entirely above 1 + PCT/100
    /// (at most 100).
    #[arg(long, value_name = "PCT", default_value_t = 3.0)]
    pub threshold: f64,
    /// "Too noisy to judge" when an A/A interval leaves 1 ± PCT/100
    /// (at most 200) [default: twice the threshold].
    #[arg(long, value_name = "PCT")]
    pub aa_bound: Option<f64>,
    /// Cargo features of the candidate build (bare names mean engine/NAME),
    /// e.g. inject-instructions-attackers.
    #[arg(long, value_name = "F", value_delimiter = ',')]
    pub candidate_features: Vec<String>,
    /// Cargo features of the base build.
    #[arg(long, value_name = "F", value_delimiter = ',')]
    pub base_features: Vec<String>,
    /// Cargo features of both builds, e.g. inject-hook.
    #[arg(long, value_name = "F", value_delimiter = ',')]
    pub features: Vec<String>,
    /// An environment variable for the candidate's measuring processes
    /// (timing samples and gungraun), e.g.
    /// BOARDBENCH_INJECT_ATTACKER_DELAY=2 with --features inject-hook.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_env_assignment)]
    pub candidate_env: Vec<(String, String)>,
    /// Rounds (each: per benchmark, base, candidate, base again; at least 8).
    // Fewer rounds give no 95% interval worth the name: 4 rounds failed
    // unchanged code here (+3.4%, interval [1.033, 1.186], every case of the
    // benchmark 2-4% slower in the candidate), and passed three times next.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u32).range(8..))]
    pub rounds: u32,
    /// Seconds of measurement per benchmark per process (at most 60).
    #[arg(long, value_name = "S", default_value_t = 0.2)]
    pub seconds: f64,
    /// Positions per bucket in the timing runs.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    pub per_bucket: u32,
    /// Only these benchmarks [default: every one both builds have].
    #[arg(long = "bench", value_name = "NAME")]
    pub benches: Vec<String>,
    /// Pin the measuring processes to core N [default: the last core].
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// Skip the timing check.
    #[arg(long)]
    pub no_timing: bool,
    /// Skip the instruction-count check (gungraun).
    #[arg(long)]
    pub no_callgrind: bool,
    /// Fail on an instruction-count increase above PCT (at most 100).
    #[arg(long, value_name = "PCT", default_value_t = 1.0)]
    pub callgrind_limit: f64,
    /// Directory for the JSON report [default: results/runs].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the JSON report on stdout instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// `NAME=VALUE` from the command line.
pub fn parse_env_assignment(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() && !name.contains(char::is_whitespace) => {
            Ok((name.to_string(), value.to_string()))
        }
        _ => Err(format!("expected NAME=VALUE, got {s:?}")),
    }
}

/// Most seconds of `--seconds`: a gate runs 3 × rounds × benchmarks
/// processes of that length (a minute each is already hours), and each
/// process's timeout (120 s + 20 × S) must stay a valid `Duration`.
pub const MAX_SECONDS: f64 = 60.0;

/// Most percent of `--threshold` and `--callgrind-limit`: at 100% a
/// routine twice as slow already passes.
pub const MAX_PERCENT: f64 = 100.0;

/// Most percent of `--aa-bound`: the default is twice the threshold.
pub const MAX_AA_BOUND: f64 = 2.0 * MAX_PERCENT;

/// `v` above 0 and at most `max`, or an error naming `flag`.
pub fn check_range(flag: &str, v: f64, max: f64) -> Result<(), String> {
    if v > 0.0 && v <= max {
        Ok(())
    } else {
        // (1e18, not its nineteen digits.)
        let v = if v.abs() >= 1e9 { format!("{v:e}") } else { v.to_string() };
        Err(format!("{flag} {v}: must be a number above 0 and at most {max}"))
    }
}

/// Check what can be checked before the builds (minutes); the A/A bound in
/// percent.
pub fn check_flags(a: &GateCli) -> Result<f64, String> {
    check_range("--threshold", a.threshold, MAX_PERCENT)?;
    check_range("--seconds", a.seconds, MAX_SECONDS)?;
    check_range("--callgrind-limit", a.callgrind_limit, MAX_PERCENT)?;
    if let Some(v) = a.aa_bound {
        check_range("--aa-bound", v, MAX_AA_BOUND)?;
    }
    if a.no_timing && a.no_callgrind {
        return Err("--no-timing and --no-callgrind leave nothing to check".into());
    }
    // The candidate is the working tree this binary was built from
    // (scripts/gate.sh builds it first), so its names are this binary's;
    // another revision's are known only after its build (checked then).
    if a.candidate.is_none() {
        let known = benchmarks::names();
        if let Some(b) = a.benches.iter().find(|b| !known.contains(&b.as_str())) {
            return Err(format!("--bench {b}: no such benchmark (this build has: {})", known.join(", ")));
        }
    }
    // Twice the threshold: an A/A interval wider than that says a change of
    // the threshold's size could hide in the noise (its interval would reach
    // below 1). Seen here: with the bound at the threshold, 6 of 78 A/A
    // intervals (movegen's, ±3-5% from one process to the next) failed an
    // unchanged-code run while nothing else of ours was running.
    Ok(a.aa_bound.unwrap_or(2.0 * a.threshold))
}

/// The benchmarks both builds have (of `only`, when given), in the
/// candidate's order; "cannot judge benchmark X: why" for each one only the
/// base has (it fails the gate rather than leave a removed or renamed
/// benchmark unjudged); and "new benchmark X" for each one only the
/// candidate has (listed, not timed, no failure).
pub fn common_benches(base: &[String], cand: &[String], only: &[String]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let wanted = |n: &&String| only.is_empty() || only.contains(n);
    let both = cand.iter().filter(|n| base.contains(n)).filter(wanted).cloned().collect();
    // The wanted names of `names` that `other` lacks, each as `say` puts it.
    let lacking = |names: &[String], other: &[String], say: &dyn Fn(&String) -> String| -> Vec<String> {
        names.iter().filter(|n| !other.contains(n)).filter(wanted).map(say).collect()
    };
    let missing = lacking(base, cand, &|n| {
        format!("cannot judge benchmark {n}: the candidate has no such benchmark (removed or renamed?)")
    });
    let new = lacking(cand, base, &|n| format!("new benchmark {n}: only the candidate has it (not judged)"));
    (both, missing, new)
}

/// Say what is wrong with the flags, in the one line every error gets; the
/// usage exit status.
pub fn usage_error(why: &str) -> i32 {
    eprintln!("boardbench: {why}");
    exit::USAGE
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn gate_cli(args: &[&str]) -> GateCli {
        #[derive(clap::Parser)]
        struct Top {
            #[command(flatten)]
            gate: GateCli,
        }
        <Top as clap::Parser>::try_parse_from(std::iter::once("gate").chain(args.iter().copied())).unwrap().gate
    }

    #[test]
    fn flags_are_checked_before_building_naming_the_flag_given() {
        assert_eq!(check_flags(&gate_cli(&[])), Ok(6.0));
        assert_eq!(check_flags(&gate_cli(&["--threshold", "100", "--seconds", "60"])), Ok(200.0));
        assert_eq!(check_flags(&gate_cli(&["--threshold", "5", "--aa-bound", "200"])), Ok(200.0));
        for (args, flag) in [
            (&["--seconds", "1e18"][..], "--seconds 1e18: "),
            (&["--seconds", "61"], "--seconds 61: "),
            (&["--seconds", "NaN"], "--seconds NaN: "),
            (&["--seconds", "0"], "--seconds 0: "),
            (&["--threshold", "1e308"], "--threshold 1e308: "),
            (&["--threshold", "100.5"], "--threshold 100.5: "),
            (&["--threshold", "inf"], "--threshold inf: "),
            (&["--threshold=-3"], "--threshold -3: "),
            (&["--aa-bound", "1e308"], "--aa-bound 1e308: "),
            (&["--callgrind-limit", "1e300"], "--callgrind-limit 1e300: "),
            (&["--callgrind-limit=-1e300"], "--callgrind-limit -1e300: "),
        ] {
            let e = check_flags(&gate_cli(args)).unwrap_err();
            assert!(e.starts_with(flag) && e.contains("must be a number above 0 and at most"), "{args:?}: {e}");
        }
        let e = check_flags(&gate_cli(&["--no-timing", "--no-callgrind"])).unwrap_err();
        assert!(e.contains("nothing to check"), "{e}");
        // Benchmark names: this build's, when the candidate is the working tree.
        assert!(check_flags(&gate_cli(&["--bench", "movegenbench", "--bench", "getattacksbench"])).is_ok());
        let e = check_flags(&gate_cli(&["--bench", "movegenbench", "--bench", "nosuchbench"])).unwrap_err();
        assert!(e.starts_with("--bench nosuchbench: no such benchmark") && e.contains("movegenbench"), "{e}");
        // Another revision's names are known only after its build.
        assert!(check_flags(&gate_cli(&["--candidate", "HEAD", "--bench", "nosuchbench"])).is_ok());
    }

    #[test]
    fn benchmarks_of_one_build_only_are_named() {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (base, cand) = (v(&["a", "old", "b"]), v(&["b", "a", "new"]));
        let (both, missing, new) = common_benches(&base, &cand, &[]);
        assert_eq!(both, ["b", "a"]);
        assert_eq!(missing, ["cannot judge benchmark old: the candidate has no such benchmark (removed or renamed?)"]);
        assert_eq!(new, ["new benchmark new: only the candidate has it (not judged)"]);
        // Only those asked for.
        assert_eq!(common_benches(&base, &cand, &v(&["a"])), (v(&["a"]), vec![], vec![]));
        let (both, missing, new) = common_benches(&base, &cand, &v(&["a", "new"]));
        assert_eq!((both, missing.len(), new.len()), (v(&["a"]), 0, 1));
    }

    #[test]
    fn env_assignments_parse_or_name_the_problem() {
        assert_eq!(parse_env_assignment("A=2").unwrap(), ("A".to_string(), "2".to_string()));
        assert_eq!(parse_env_assignment("A=").unwrap(), ("A".to_string(), String::new()));
        assert_eq!(parse_env_assignment("A=b=c").unwrap(), ("A".to_string(), "b=c".to_string()));
        for bad in ["A", "=2", "A B=1", ""] {
            assert!(parse_env_assignment(bad).unwrap_err().contains("expected NAME=VALUE"), "{bad:?}");
        }
    }
}
