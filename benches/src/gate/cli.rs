//! `boardbench gate` on the command line: its flags, and the checks made
//! of them before anything is built (a flag out of its range is a usage
//! error, exit 2, as clap's own refusals are).

use crate::gate::cause::PlacementPolicy;
use crate::gate::lockstep::schedule::Pairing;
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
    /// Fail a case whose candidate/base interval lies entirely above
    /// 1 + PCT/100; pass it once the interval lies entirely below (at most 100).
    #[arg(long, value_name = "PCT", default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: f64,
    /// A case is decided only while its A/A control's interval lies within
    /// 1 ± PCT/100 (at most 200) [default: the threshold].
    #[arg(long, value_name = "PCT")]
    pub aa_bound: Option<f64>,
    /// Seconds of lock-step measuring at most; cases still open then are
    /// undecided (exit 4) (at most 3600).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_BUDGET)]
    pub budget: f64,
    /// How the three workers share the machine: all on one pinned core
    /// taking turns sample by sample, or one per core at the same instant.
    #[arg(long, value_enum, default_value_t = Pairing::Turns)]
    pub pairing: Pairing,
    /// A case slower with the same instruction count (code or data placed
    /// differently): fail, or only warn.
    #[arg(long, value_enum, default_value_t = PlacementPolicy::Fail)]
    pub placement: PlacementPolicy,
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
    /// (its timing worker and gungraun), e.g.
    /// BOARDBENCH_INJECT_ATTACKER_DELAY=3 with --features inject-hook.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_env_assignment)]
    pub candidate_env: Vec<(String, String)>,
    /// Positions per bucket in the timing runs.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    pub per_bucket: u32,
    /// Only these benchmarks [default: every one both builds have].
    #[arg(long = "bench", value_name = "NAME")]
    pub benches: Vec<String>,
    /// Measure on core N (parallel pairing: and on the first other core)
    /// [default: the last core].
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
    /// Skip the timing check.
    #[arg(long)]
    pub no_timing: bool,
    /// Skip the instruction-count check (gungraun); causes are then unknown.
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
    /// Also write every visit's raw samples (JSON) to FILE.
    #[arg(long, value_name = "FILE")]
    pub samples_out: Option<PathBuf>,
    /// (development) Time this boardbench as the base instead of building one.
    #[arg(long, value_name = "FILE", hide = true, requires = "candidate_bin")]
    pub base_bin: Option<PathBuf>,
    /// (development) Time this boardbench as the candidate instead of building one.
    #[arg(long, value_name = "FILE", hide = true, requires = "base_bin")]
    pub candidate_bin: Option<PathBuf>,
}

/// Default `--threshold`, percent.
pub const DEFAULT_THRESHOLD: f64 = 1.5;

/// Default `--budget`, seconds.
pub const DEFAULT_BUDGET: f64 = 60.0;

/// Most seconds of `--budget`.
pub const MAX_BUDGET: f64 = 3600.0;

/// `NAME=VALUE` from the command line.
pub fn parse_env_assignment(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() && !name.contains(char::is_whitespace) => {
            Ok((name.to_string(), value.to_string()))
        }
        _ => Err(format!("expected NAME=VALUE, got {s:?}")),
    }
}

/// Most percent of `--threshold` and `--callgrind-limit`: at 100% a
/// routine twice as slow already passes.
pub const MAX_PERCENT: f64 = 100.0;

/// Most percent of `--aa-bound`.
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
    check_range("--budget", a.budget, MAX_BUDGET)?;
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
    // The A/A control of a case holds when two processes of the base build
    // agree on it to within the threshold: a control wider than that could
    // hide a threshold-sized change.
    Ok(a.aa_bound.unwrap_or(a.threshold))
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
        assert_eq!(check_flags(&gate_cli(&[])), Ok(DEFAULT_THRESHOLD));
        assert_eq!(check_flags(&gate_cli(&["--threshold", "100", "--budget", "3600"])), Ok(100.0));
        assert_eq!(check_flags(&gate_cli(&["--threshold", "5", "--aa-bound", "200"])), Ok(200.0));
        for (args, flag) in [
            (&["--budget", "1e18"][..], "--budget 1e18: "),
            (&["--budget", "3601"], "--budget 3601: "),
            (&["--budget", "NaN"], "--budget NaN: "),
            (&["--budget", "0"], "--budget 0: "),
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
