//! The gate from start to finish: check the flags, take the cache's lock,
//! resolve and build both revisions, run the timing check and the
//! instruction check on the benchmarks both builds have, decide, write the
//! JSON report atomically, print the tables.

use crate::gate::builds::{bench_names, build, prepare_worktree, resolve_commit, BuildInfo, Lock};
use crate::gate::cause;
use crate::gate::cli::{check_flags, common_benches, usage_error, GateCli};
use crate::gate::decision::decide;
use crate::gate::instructions::cases::CALLGRIND_PER_BUCKET;
use crate::gate::instructions::{callgrind_preflight, counts, CallgrindSetup};
use crate::gate::lockstep::schedule::Pairing;
use crate::gate::lockstep::workers::check_protocol;
use crate::gate::positions::{select_positions, write_positions};
use crate::gate::report::{summary_line, tables, GateReport, REPORT_SCHEMA};
use crate::gate::timing::sequential::{Rule, LEVEL};
use crate::gate::timing::{timing, TimingPlan};
use crate::gate::verdict::exit;
use crate::measure::{pin, sysinfo};
use crate::output::{self, print_out, write_atomic};
use crate::workspace::{self, git};
use std::time::Instant;

/// Run the gate; the exit status.
pub fn gate_main(a: &GateCli) -> Result<i32, String> {
    let started = Instant::now();
    let date_secs = sysinfo::now_secs();
    let load_start = sysinfo::load_average();
    // A bad flag is a usage error (exit 2), as clap's refusals are; only
    // what goes wrong after the flags are accepted exits 1.
    let aa_bound = match check_flags(a) {
        Ok(bound) => bound,
        Err(e) => return Ok(usage_error(&e)),
    };
    let core = match pin::choose_core(a.core) {
        Ok(core) => core,
        Err(e) => return Ok(usage_error(&e)),
    };
    let cores = match cores_for(a.pairing, core) {
        Ok(cores) => cores,
        Err(e) => return Ok(usage_error(&e)),
    };
    if a.base_bin.is_some() && !a.no_callgrind {
        return Ok(usage_error("--base-bin and --candidate-bin time given binaries: pass --no-callgrind too"));
    }
    if !a.no_callgrind {
        callgrind_preflight()?;
    }
    let root = workspace::root();
    let out_dir = a.out.clone().unwrap_or_else(workspace::results_dir);
    output::check_writable(&out_dir).map_err(|e| format!("output directory: {e}"))?;
    let cache = workspace::target_dir().join("gate");
    let _lock = Lock::take(&cache)?;
    let base_commit = resolve_commit(&root, &a.base)?;
    let cand_commit = a.candidate.as_deref().map(|c| resolve_commit(&root, c)).transpose()?;
    let short = |c: &str| c[..c.len().min(10)].to_string();
    let base_src = cache.join("base");
    prepare_worktree(&root, &base_src, &base_commit)?;
    let mut base = BuildInfo {
        role: "base".into(),
        label: format!("{} ({})", a.base, short(&base_commit)),
        commit: Some(base_commit.clone()),
        features: [&a.features[..], &a.base_features[..]].concat(),
        env: Vec::new(),
        source: base_src,
        target_dir: cache.join("base-target"),
        build_s: 0.0,
    };
    let cand_src = match &cand_commit {
        Some(c) => {
            let d = cache.join("candidate");
            prepare_worktree(&root, &d, c)?;
            d
        }
        None => root.clone(),
    };
    let dirty = cand_commit.is_none()
        && git(&root, &["status", "--porcelain", "--untracked-files=no"]).is_ok_and(|s| !s.is_empty());
    let mut cand = BuildInfo {
        role: "candidate".into(),
        label: match (&cand_commit, &a.candidate) {
            (Some(c), Some(r)) => format!("{r} ({})", short(c)),
            _ => format!("working tree{}", if dirty { " (uncommitted changes)" } else { "" }),
        },
        commit: cand_commit.clone(),
        features: [&a.features[..], &a.candidate_features[..]].concat(),
        env: a.candidate_env.clone(),
        source: cand_src,
        target_dir: cache.join("candidate-target"),
        build_s: 0.0,
    };
    for b in [&mut base, &mut cand] {
        if !b.features.is_empty() {
            b.label.push_str(&format!(" + features {}", b.features.join(",")));
        }
        for (k, v) in &b.env {
            b.label.push_str(&format!(" + {k}={v}"));
        }
    }
    let (base_bin, cand_bin) = match (&a.base_bin, &a.candidate_bin) {
        (Some(b), Some(c)) => (b.clone(), c.clone()),
        _ => (build(&mut base, !a.no_callgrind)?, build(&mut cand, !a.no_callgrind)?),
    };
    if !a.no_timing {
        check_protocol("base", &base.label, &base_bin)?;
        check_protocol("candidate", &cand.label, &cand_bin)?;
    }
    // Benchmarks both builds have.
    let base_names = bench_names(&base_bin)?;
    let cand_names = bench_names(&cand_bin)?;
    for b in &a.benches {
        if !cand_names.contains(b) {
            return Err(format!(
                "--bench {b}: the candidate has no such benchmark (it has: {})",
                cand_names.join(", ")
            ));
        }
    }
    let (benches, missing, new_benches) = common_benches(&base_names, &cand_names, &a.benches);
    if benches.is_empty() {
        return Err("the base and the candidate have no benchmark in common".into());
    }
    let mut timing_out = None;
    let t_timing = Instant::now();
    if !a.no_timing {
        let set = select_positions(a.per_bucket as usize)?;
        let positions = cache.join(format!("positions-{}.epd", a.per_bucket));
        write_positions(&positions, &set)?;
        let plan = TimingPlan {
            base: &base_bin,
            candidate: &cand_bin,
            candidate_env: &cand.env,
            positions: &positions,
            per_bucket: a.per_bucket as usize,
            pairing: a.pairing,
            cores: cores.clone(),
            benches: &benches,
            root: &root,
            rule: Rule { threshold: a.threshold / 100.0, aa_bound: aa_bound / 100.0, level: LEVEL },
            budget_s: a.budget,
            scratch: &cache,
            samples_out: a.samples_out.clone(),
        };
        timing_out = Some(timing(&plan)?);
    }
    if let Some(t) = &mut timing_out {
        t.unmatched.extend(missing);
        t.new_cases.extend(new_benches);
    }
    let timing_s = t_timing.elapsed().as_secs_f64();
    let mut counts_out = None;
    let t_counts = Instant::now();
    if !a.no_callgrind {
        let set = select_positions(CALLGRIND_PER_BUCKET)?;
        let positions = cache.join(format!("positions-{CALLGRIND_PER_BUCKET}.epd"));
        write_positions(&positions, &set)?;
        let setup = CallgrindSetup {
            root: &cand.source,
            home: cache.join("gungraun"),
            positions,
            cases_file: cache.join("callgrind-cases.tsv"),
        };
        counts_out = Some(counts(&base, &base_bin, &cand, &cand_bin, &setup, a.callgrind_limit, &a.benches)?);
    }
    let counts_s = t_counts.elapsed().as_secs_f64();
    if let Some(t) = &mut timing_out {
        cause::mark(t, counts_out.as_ref(), a.placement);
    }
    let (status, verdict) = decide(timing_out.as_ref(), counts_out.as_ref());
    let report = GateReport {
        schema: REPORT_SCHEMA.into(),
        date: sysinfo::iso8601(date_secs),
        duration_s: started.elapsed().as_secs_f64(),
        command_line: sysinfo::command_line(),
        cpu_model: sysinfo::cpu_model(),
        load_average_start: load_start,
        load_average_end: sysinfo::load_average(),
        core,
        placement: a.placement,
        base,
        candidate: cand,
        timing: timing_out,
        timing_s,
        counts: counts_out,
        counts_s,
        verdict: verdict.into(),
        exit_status: status,
    };
    let bytes = serde_json::to_vec_pretty(&report).map_err(|e| e.to_string())?;
    let stamp = format!("gate-{}-{}", sysinfo::iso8601(date_secs).replace([':', '-'], ""), short(&base_commit));
    write_atomic(&out_dir.join(format!("{stamp}.json")), &bytes).map_err(|e| e.to_string())?;
    write_atomic(&out_dir.join("gate-latest.json"), &bytes).map_err(|e| e.to_string())?;
    if a.json {
        print_out(&format!("{}\n", serde_json::to_string(&report).map_err(|e| e.to_string())?))?;
    } else {
        print_out(&format!("{}JSON:  {}\n", tables(&report), out_dir.join(format!("{stamp}.json")).display()))?;
    }
    if status != exit::PASS {
        eprintln!("boardbench: {}", summary_line(&report));
    }
    Ok(status)
}

/// The cores of `pairing`: `core`, and for parallel pairing the first
/// other core this process may use.
fn cores_for(pairing: Pairing, core: usize) -> Result<Vec<usize>, String> {
    match pairing {
        Pairing::Turns => Ok(vec![core]),
        Pairing::Parallel => {
            let mut ids: Vec<usize> = core_affinity::get_core_ids().unwrap_or_default().iter().map(|c| c.id).collect();
            ids.sort_unstable();
            match ids.into_iter().find(|&c| c != core) {
                Some(other) => Ok(vec![core, other]),
                None => Err("--pairing parallel needs two cores; this process may use one".into()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::cli::tests::gate_cli;

    /// benches/docs/gate.md: "2 usage", "1 error (bad revision, build failure, ...)".
    /// A flag out of its range exits 2 like one clap refuses, before anything
    /// is built, locked or written.
    #[test]
    fn flags_out_of_range_exit_with_the_usage_status() {
        for args in [
            &["--threshold", "0"][..],
            &["--aa-bound", "201"],
            &["--budget", "3601"],
            &["--callgrind-limit", "0"],
            &["--no-timing", "--no-callgrind"],
            &["--bench", "nosuchbench", "--no-callgrind"],
            &["--core", "100000", "--no-callgrind"],
        ] {
            assert_eq!(gate_main(&gate_cli(args)), Ok(exit::USAGE), "{args:?}");
        }
    }
}
