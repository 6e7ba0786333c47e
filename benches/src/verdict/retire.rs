//! `boardbench retire ROUTINE`: may the old form of a routine be deleted?
//! The migration plans' five criteria, each gathered for the old and new
//! form of that routine alone (the profile `bitboard-old-R` against
//! `bitboard`), then the checklist and the verdict
//! ([`super::checklist`]):
//!
//! 1. the equivalence sweep of the routine on 20,000 seeded random
//!    positions ([`engine::tools::routine_equiv`]): every case equal;
//! 2. isolated cycles per call, the routine's registered benchmark run
//!    through the suite (or read from a run given with `--reuse`), judged
//!    by [`super::cycles`];
//! 3. the curated suites at the head reference's depth, searched by the new
//!    form (the bitboard profile), no suite solving fewer positions than
//!    the head reference;
//! 4. a match, new against old at a short clock: LOWER95 >= 0.5, the SPRT
//!    stopping it early;
//! 5. the head reference saved from an engine whose form of the routine is
//!    the new one (when, and from which commit, read from it and from git).
//!
//! A criterion that cannot run (no engine, no reference, a skip) is NOT
//! RUN with the reason, and blocks the verdict like a failure. `--skip N`
//! leaves criterion N out, taking it from a `--reuse` retire result of the
//! same commit when one holds it (of the same routine, or of any routine
//! for criteria 3 and 5, which concern the new form only); a suite run
//! given with `--reuse` (same commit) answers criterion 2 without
//! measuring. The result is written atomically as JSON under
//! `results/retire/`.
//!
//! `--quick` (for CI and a first look) measures criteria 2 to 4 smaller
//! than the plans ask: the suite's quick timing, a short match, the curated
//! suites cut to their first positions ([`Settings::suite_positions`]).
//! What is measured smaller can fail but not pass where its size is the
//! point (the cut suites, no worse, are NOT RUN); a short match passes only
//! when its own interval clears 0.5.

use super::checklist::{checklist_text, routine_independent, verdict, Criterion, Status, Verdict, CRITERIA, SCHEMA};
use super::forms::{form_of, profile_of, Form};
use super::games::{play, Budget, Match, Played};
use crate::measure::sysinfo;
use crate::strength::reference::{compare, read_run, run_suites, suites_of, ReferenceRun, RunSettings};
use crate::strength::uci_engine::{EngineSpec, Timeouts};
use crate::suite::report::{read_report, RunReport};
use crate::suite::run::{execute, resolve, RunArgs};
use crate::workspace;
use engine::tools::equiv::EquivReport;
use engine::tools::routine_equiv::{sliders_compared, sweep, Routine};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Positions the plans' equivalence sweep covers.
pub const SWEEP_POSITIONS: usize = 20_000;

/// Exit status when the verdict is "not safe".
pub const EXIT_NOT_SAFE: i32 = 3;

/// A retirement run, as written to JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RetireReport {
    pub schema: String,
    pub routine: String,
    pub about: String,
    pub old_profile: String,
    pub new_profile: String,
    /// UTC, ISO 8601, at the start.
    pub date: String,
    pub git_commit: Option<String>,
    pub git_dirty: Option<bool>,
    pub command_line: Vec<String>,
    pub load_average_start: Option<[f64; 3]>,
    pub load_average_end: Option<[f64; 3]>,
    pub seconds: f64,
    pub criteria: Vec<Criterion>,
    pub verdict: Verdict,
}

/// Everything a retirement run needs.
pub struct Settings {
    pub routine: Routine,
    /// The UCI engine command line (program and arguments).
    pub engine: Vec<String>,
    pub budget: Budget,
    pub games: u64,
    pub sprt: crate::strength::sprt::Sprt,
    pub openings: PathBuf,
    pub seed: u64,
    pub core: usize,
    pub accept_parity: bool,
    pub skip: BTreeSet<u8>,
    pub reuse: Vec<PathBuf>,
    /// Positions of the equivalence sweep, and their seed.
    pub positions: usize,
    pub sweep_seed: u64,
    /// The suite run of criterion 2.
    pub bench: RunArgs,
    /// Criterion 3: only the first N positions of each curated suite
    /// (`--quick`): the comparison can then fail but not pass.
    pub suite_positions: Option<usize>,
    pub reference: PathBuf,
    pub out: PathBuf,
    pub quiet: bool,
}

/// An earlier result given with `--reuse`.
enum Reused {
    Retire(PathBuf, Box<RetireReport>),
    Run(PathBuf, Box<RunReport>),
}

/// Read a `--reuse` file: a retirement result or a suite run, made at
/// `commit` (the checkout's).
fn load_reuse(path: &Path, commit: Option<&str>) -> Result<Reused, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("--reuse {}: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("--reuse {}: not JSON: {e}", path.display()))?;
    let schema = value["schema"].as_str().unwrap_or("");
    let (reused, made_at) = if schema == SCHEMA {
        let r: RetireReport = serde_json::from_value(value)
            .map_err(|e| format!("--reuse {}: not a retirement result: {e}", path.display()))?;
        let at = r.git_commit.clone();
        (Reused::Retire(path.to_path_buf(), Box::new(r)), at)
    } else if schema == crate::suite::report::SCHEMA {
        let r = read_report(path).map_err(|e| format!("--reuse {e}"))?;
        let at = r.metadata.git_commit.clone();
        (Reused::Run(path.to_path_buf(), Box::new(r)), at)
    } else {
        return Err(format!(
            "--reuse {}: schema {schema:?} is neither a retirement result ({SCHEMA}) nor a suite run ({})",
            path.display(),
            crate::suite::report::SCHEMA
        ));
    };
    match (made_at.as_deref(), commit) {
        (Some(a), Some(b)) if a == b => Ok(reused),
        (a, b) => Err(format!(
            "--reuse {}: made at commit {}, this checkout is at {}: only results of the same commit are reused",
            path.display(),
            a.unwrap_or("(unknown)"),
            b.unwrap_or("(unknown: no git)")
        )),
    }
}

/// Criterion `number` from the reused retirement results, if one holds it
/// for this routine (or, where the criterion does not depend on it, any).
fn reused_criterion(reused: &[Reused], routine: Routine, number: u8) -> Option<Criterion> {
    reused.iter().find_map(|r| {
        let Reused::Retire(path, report) = r else { return None };
        if report.routine != routine.name() && !routine_independent(number) {
            return None;
        }
        let c = report.criteria.iter().find(|c| c.number == number && c.status != Status::NotRun)?;
        let origin = if c.source == "this run" { String::new() } else { format!(", itself {}", c.source) };
        Some(Criterion {
            source: format!("from {} ({} run of {}{origin})", path.display(), report.routine, report.date),
            ..c.clone()
        })
    })
}

/// Criterion 1: the routine's equivalence sweep.
fn sweep_criterion(s: &Settings) -> Criterion {
    let start = Instant::now();
    let report = sweep(s.routine, s.positions, s.sweep_seed);
    judge_sweep(&report, s.sweep_seed, start.elapsed().as_secs_f64())
}

/// Criterion 1 from a sweep's report: FAIL when any case differs (or a
/// pair compared nothing), NOT RUN when clean over fewer than
/// [`SWEEP_POSITIONS`], PASS when clean over at least that many.
pub fn judge_sweep(report: &EquivReport, seed: u64, seconds: f64) -> Criterion {
    let mut lines = vec![format!(
        "{} random positions (seed {seed}; new forms with {} sliders):",
        report.positions,
        sliders_compared().join(" and ")
    )];
    for p in &report.pairs {
        let mut line = format!("  {}: {} cases, {} differ", p.name, p.compared, p.differed);
        if let Some(d) = &p.first {
            line.push_str(&format!("; first at position {}: {} ({})", d.position, d.fen, d.detail));
        }
        lines.push(line);
    }
    let clean = report.pairs.iter().all(|p| p.compared > 0 && p.differed == 0);
    let status = if !clean {
        Status::Fail
    } else if report.positions < SWEEP_POSITIONS {
        lines.push(format!("clean, but over fewer than the {SWEEP_POSITIONS} positions the criterion asks for"));
        Status::NotRun
    } else {
        Status::Pass
    };
    let pairs: Vec<_> = report
        .pairs
        .iter()
        .map(|p| {
            json!({"pair": p.name, "compared": p.compared, "differed": p.differed,
                   "first": p.first.as_ref().map(|d| json!({"position": d.position, "fen": d.fen, "detail": d.detail}))})
        })
        .collect();
    let details = json!({"positions": report.positions, "seed": seed, "pairs": pairs});
    Criterion::measured(1, status, lines.join("\n"), seconds, details)
}

/// Criterion 2: from a reused run that holds the benchmark, else measured.
fn cycles_criterion(s: &Settings, reused: &[Reused]) -> Criterion {
    let bench = super::cycles::target(s.routine).bench;
    let from_run = reused.iter().find_map(|r| match r {
        Reused::Run(path, run) if run.benchmarks.iter().any(|b| b.name == bench) => Some((path, run)),
        _ => None,
    });
    if let Some((path, run)) = from_run {
        let (status, evidence, details) = super::cycles::judge(&run.benchmarks, s.routine, s.accept_parity);
        let source = format!("from {} (run of {})", path.display(), run.metadata.date);
        return Criterion { source, ..Criterion::measured(2, status, evidence, 0.0, details) };
    }
    let start = Instant::now();
    let entries = match resolve(&[bench.to_string()], &[]) {
        Ok(e) => e,
        Err(e) => return Criterion::not_run(2, format!("could not run {bench}: {e}")),
    };
    // In a thread of its own: the run pins its thread and raises its
    // priority, which the suites and the match after it must not inherit.
    let run = std::thread::scope(|scope| scope.spawn(|| execute(&s.bench, &entries, sysinfo::command_line())).join());
    match run.unwrap_or_else(|_| Err("the measuring thread panicked".to_string())) {
        Ok(outcome) => {
            let (status, mut evidence, mut details) =
                super::cycles::judge(&outcome.report.benchmarks, s.routine, s.accept_parity);
            evidence.push_str(&format!("\nrun: {}", outcome.json.display()));
            details["run"] = json!(outcome.json.display().to_string());
            Criterion::measured(2, status, evidence, start.elapsed().as_secs_f64(), details)
        }
        Err(e) => Criterion::not_run(2, format!("could not run {bench}: {e}")),
    }
}

/// The engine with UCI options `options`.
fn spec(s: &Settings, options: &[(&str, &str)]) -> EngineSpec {
    EngineSpec {
        command: s.engine.clone(),
        options: options.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
    }
}

/// Criterion 3: the new form on the curated suites against the head reference.
fn suites_criterion(s: &Settings) -> Criterion {
    let start = Instant::now();
    let reference = match read_run(&s.reference) {
        Ok(r) => r,
        Err(e) => return Criterion::not_run(3, format!("no head reference to compare with: {e}")),
    };
    let suites = match suites_of(&reference) {
        Ok(v) => v,
        Err(e) => return Criterion::not_run(3, e),
    };
    let (reference, suites) = match s.suite_positions {
        None => (reference, suites),
        Some(n) => match first_positions(&reference, &suites, n, &s.out.with_extension("").display().to_string()) {
            Ok(cut) => cut,
            Err(e) => return Criterion::not_run(3, e),
        },
    };
    let new = s.routine.new_profile().name();
    let settings = RunSettings {
        core: Some(s.core),
        depth: reference.depth,
        position_timeout: Duration::from_secs(600),
        timeouts: Timeouts::default(),
        quiet: s.quiet,
    };
    let candidate = match run_suites(&spec(s, &[("Profile", new)]), &suites, &settings) {
        Ok(c) => c,
        Err(e) => return Criterion::not_run(3, format!("the new form could not search the suites: {e}")),
    };
    let rows = match compare(&reference, &candidate) {
        Ok(r) => r,
        Err(e) => return Criterion::not_run(3, e),
    };
    let mut lines = vec![format!(
        "Profile={new} at depth {} against {} ({}, {}):",
        reference.depth,
        s.reference.display(),
        reference.engine.options.join(" "),
        reference.date
    )];
    for r in &rows {
        let mut line = format!(
            "  {}: {} -> {} of {} solved; {} best moves and {} node counts differ",
            r.name,
            r.solved_reference,
            r.solved_candidate,
            r.positions,
            r.best_move_changes.len(),
            r.node_changes
        );
        if !r.lost.is_empty() {
            line.push_str(&format!("; lost: {}", r.lost.join(", ")));
        }
        lines.push(line);
    }
    let regressed: Vec<&str> = rows.iter().filter(|r| r.regressed()).map(|r| r.name.as_str()).collect();
    let status = match (regressed.is_empty(), s.suite_positions) {
        (false, _) => {
            lines.push(format!("fewer solved in: {}", regressed.join(", ")));
            Status::Fail
        }
        (true, Some(n)) => {
            lines.push(format!(
                "no worse on the first {n} positions of each suite; the criterion needs every position \
                 (run without --quick / --suite-positions)"
            ));
            Status::NotRun
        }
        (true, None) => Status::Pass,
    };
    let details = json!({"reference": s.reference.display().to_string(), "depth": reference.depth,
                         "candidate_options": [format!("Profile={new}")], "suites": rows,
                         "first_positions": s.suite_positions, "seconds": candidate.seconds});
    Criterion::measured(3, status, lines.join("\n"), start.elapsed().as_secs_f64(), details)
}

/// The reference cut to the first `n` positions of each suite, and those
/// positions written as suite files into the folder `<stem>-suites` (kept
/// beside the result, as the evidence of what was searched).
fn first_positions(
    reference: &ReferenceRun,
    suites: &[PathBuf],
    n: usize,
    stem: &str,
) -> Result<(ReferenceRun, Vec<PathBuf>), String> {
    let dir = PathBuf::from(format!("{stem}-suites"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut cut = reference.clone();
    let mut files = Vec::new();
    for (suite, path) in cut.suites.iter_mut().zip(suites) {
        let text = std::fs::read_to_string(path).map_err(|e| format!("suite {}: {e}", path.display()))?;
        // The lines the EPD loader reads (it skips blank lines and comments).
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| {
                let l = l.trim_matches(|c: char| c.is_whitespace() || c == '\0');
                !l.is_empty() && !l.starts_with('#')
            })
            .take(n)
            .collect();
        let file = dir.join(path.file_name().unwrap_or_else(|| std::ffi::OsStr::new("suite.epd")));
        crate::output::write_atomic(&file, (lines.join("\n") + "\n").as_bytes()).map_err(|e| e.to_string())?;
        suite.positions.truncate(n);
        suite.solved = suite.positions.iter().filter(|p| p.solved).count();
        files.push(file);
    }
    Ok((cut, files))
}

/// Criterion 4: the match, new (A) against old (B).
fn match_criterion(s: &Settings) -> Criterion {
    let start = Instant::now();
    let (new, old) = (s.routine.new_profile().name(), s.routine.old_profile().name());
    let folder = PathBuf::from(format!("{}-match", s.out.with_extension("").display()));
    let m = Match {
        engines: [spec(s, &[("Profile", new)]), spec(s, &[("Profile", old)])],
        names: [format!("new ({new})"), format!("old ({old})")],
        budget: s.budget,
        games: s.games,
        sprt: s.sprt,
        openings: s.openings.clone(),
        seed: s.seed,
        core: s.core,
        out_dir: folder,
        quiet: s.quiet,
    };
    let played = match play(&m) {
        Ok(p) => p,
        Err(e) => return Criterion::not_run(4, format!("the match could not be played: {e}")),
    };
    let head = format!("{new} (A) against {old} (B) at {}, up to {} games", s.budget.describe(), s.games);
    let (status, verdict) = gate(&played);
    let evidence = format!("{head}:\n{}\n{verdict}; games in {}", played.summary(), played.folder);
    let details = serde_json::to_value(&played).unwrap_or(serde_json::Value::Null);
    Criterion::measured(4, status, evidence, start.elapsed().as_secs_f64(), details)
}

/// The plans' match gate: LOWER95 >= 0.5. A score of exactly 0.5 with a
/// lower end of 0.5 (every pair scored alike, no spread) says nothing and
/// does not pass.
fn gate(played: &Played) -> (Status, String) {
    match (played.lower95, played.score) {
        (Some(l), Some(score)) if l >= 0.5 && score > 0.5 => (Status::Pass, format!("LOWER95 {l:.4} >= 0.5")),
        (Some(l), Some(score)) if l >= 0.5 => {
            (Status::Fail, format!("score {score:.3} with LOWER95 {l:.3}: every pair scored alike, no evidence"))
        }
        (Some(l), _) => (Status::Fail, format!("LOWER95 {l:.4} < 0.5{}", games_to_decide(played))),
        _ => (Status::NotRun, "no complete game pair".to_string()),
    }
}

/// What a failed match gate says about a rerun. Two runs of the same
/// 200-game match can land either side of 0.5 when the new form is only
/// somewhat faster, so a fail whose score leans to the new form names how
/// many games would put the lower end above 0.5 at the same score and
/// spread (the interval narrows as one over the root of the games). It is
/// an estimate from this match, not a promise.
fn games_to_decide(played: &Played) -> String {
    let (Some(score), Some(lower)) = (played.score, played.lower95) else { return String::new() };
    if played.sprt == "accept_h0" {
        return "; the SPRT accepted H0, so more games are not expected to change it".to_string();
    }
    if score <= 0.5 || played.games == 0 {
        return format!("; the score {score:.3} does not lean to the new form");
    }
    let needed = played.games as f64 * ((score - lower) / (score - 0.5)).powi(2);
    // Whole hundreds: the estimate is no finer than that.
    let games = (needed / 100.0).ceil() as u64 * 100;
    format!(
        "; the score {score:.3} leans to the new form: at this score and spread about {games} games \
         would show it (--games {games})"
    )
}

/// Criterion 5: the head reference's engine and when it was made.
fn reference_criterion(s: &Settings) -> Criterion {
    let start = Instant::now();
    let reference = match read_run(&s.reference) {
        Ok(r) => r,
        Err(e) => return Criterion::not_run(5, format!("no head reference: {e}")),
    };
    let root = workspace::root();
    let shown = s.reference.strip_prefix(&root).unwrap_or(&s.reference).display().to_string();
    let committed = workspace::git(&root, &["log", "-1", "--format=%h %cI", "--", &shown])
        .ok()
        .filter(|l| !l.is_empty())
        .map_or_else(|| "not committed".to_string(), |l| format!("last committed as {l}"));
    let ours = reference.engine.id_name.as_deref().is_some_and(|n| n.starts_with("boardbench"));
    let made = format!(
        "{shown}: saved {} at commit {} by `{}` with {} at depth {}; {committed}",
        reference.date,
        reference.git_commit.as_deref().map_or("(unknown)", |c| &c[..c.len().min(10)]),
        reference.engine.command.join(" "),
        if reference.engine.options.is_empty() { "no options".to_string() } else { reference.engine.options.join(" ") },
        reference.depth
    );
    let form = if ours {
        profile_of(&reference.engine.options).map(|p| (p, form_of(p, s.routine)))
    } else {
        Err(format!("the engine is not ours (id name {:?})", reference.engine.id_name.as_deref().unwrap_or("none")))
    };
    let (status, judgement) = match &form {
        Ok((p, Form::New)) => (Status::Pass, format!("profile {p}: the new form of {}", s.routine)),
        Ok((p, f)) => (
            Status::Fail,
            format!(
                "profile {p}: the {} form of {}; rebuild it from the new form: boardbench reference save --option \
                 Profile={} --force",
                f.name(),
                s.routine,
                s.routine.new_profile()
            ),
        ),
        Err(e) => (Status::Fail, e.clone()),
    };
    let details = json!({"file": shown, "date": reference.date, "git_commit": reference.git_commit,
                         "engine": reference.engine, "depth": reference.depth, "committed": committed,
                         "form": form.as_ref().ok().map(|(_, f)| f.name())});
    Criterion::measured(5, status, format!("{made}\n{judgement}"), start.elapsed().as_secs_f64(), details)
}

/// Gather the checklist, write it, print it; 0 when safe, [`EXIT_NOT_SAFE`]
/// when not.
pub fn retire(s: &Settings) -> Result<i32, String> {
    let started = Instant::now();
    let date = sysinfo::iso8601(sysinfo::now_secs());
    let load_start = sysinfo::load_average();
    let (commit, dirty) = workspace::git_state(&workspace::root());
    let reused: Vec<Reused> = s.reuse.iter().map(|p| load_reuse(p, commit.as_deref())).collect::<Result<_, _>>()?;
    if let Some(dir) = s.out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        crate::output::check_writable(dir).map_err(|e| e.to_string())?;
    }
    let mut criteria = Vec::new();
    for (number, name) in CRITERIA {
        let c = if s.skip.contains(&number) {
            reused_criterion(&reused, s.routine, number).unwrap_or_else(|| {
                Criterion::not_run(
                    number,
                    format!("skipped (--skip {number}); no --reuse result of this commit holds it for {}", s.routine),
                )
            })
        } else {
            eprintln!("boardbench: retire {}: {number}/5 {name}", s.routine);
            match number {
                1 => sweep_criterion(s),
                2 => cycles_criterion(s, &reused),
                3 => suites_criterion(s),
                4 => match_criterion(s),
                _ => reference_criterion(s),
            }
        };
        eprintln!("boardbench: retire {}: {number} {}", s.routine, c.status.label());
        criteria.push(c);
    }
    let v = verdict(s.routine.name(), &criteria);
    let report = RetireReport {
        schema: SCHEMA.to_string(),
        routine: s.routine.name().to_string(),
        about: s.routine.about().to_string(),
        old_profile: s.routine.old_profile().name().to_string(),
        new_profile: s.routine.new_profile().name().to_string(),
        date,
        git_commit: commit.clone(),
        git_dirty: dirty,
        command_line: sysinfo::command_line(),
        load_average_start: load_start,
        load_average_end: sysinfo::load_average(),
        seconds: started.elapsed().as_secs_f64(),
        criteria,
        verdict: v,
    };
    let bytes = serde_json::to_vec_pretty(&report).map_err(|e| e.to_string())?;
    crate::output::write_atomic(&s.out, &bytes).map_err(|e| e.to_string())?;
    let load = |l: Option<[f64; 3]>| l.map_or_else(|| "?".to_string(), |l| format!("{:.2}", l[0]));
    let text = format!(
        "retire {} ({}): old {}, new {}; commit {}{}; load {} -> {}; {:.0} s\n{}JSON: {}\n",
        report.routine,
        report.about,
        report.old_profile,
        report.new_profile,
        commit.as_deref().map_or("(unknown)", |c| &c[..c.len().min(10)]),
        if dirty == Some(true) { " (modified)" } else { "" },
        load(report.load_average_start),
        load(report.load_average_end),
        report.seconds,
        checklist_text(&report.criteria, &report.verdict),
        s.out.display()
    );
    crate::output::print_out(&text)?;
    Ok(if report.verdict.safe { 0 } else { EXIT_NOT_SAFE })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(routine: &str, commit: &str, statuses: [Status; 5]) -> RetireReport {
        let criteria: Vec<Criterion> = CRITERIA
            .iter()
            .zip(statuses)
            .map(|(&(n, _), st)| Criterion::measured(n, st, format!("{routine} {n}"), 1.0, json!(null)))
            .collect();
        RetireReport {
            schema: SCHEMA.into(),
            routine: routine.into(),
            about: String::new(),
            old_profile: String::new(),
            new_profile: String::new(),
            date: "2026-12-03T10:00:00Z".into(),
            git_commit: Some(commit.into()),
            git_dirty: Some(false),
            command_line: vec![],
            load_average_start: None,
            load_average_end: None,
            seconds: 1.0,
            verdict: verdict(routine, &criteria),
            criteria,
        }
    }

    fn write(dir: &Path, name: &str, r: &RetireReport) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, serde_json::to_vec(r).unwrap()).unwrap();
        p
    }

    /// A fake routine whose two forms differ: the single-probe mobility
    /// (which scores the king-ring x-rays differently) standing in as the
    /// new form of the chain. Its sweep fails criterion 1, and that alone
    /// blocks a checklist whose other four criteria pass.
    #[test]
    fn a_routine_whose_forms_differ_fails_the_sweep_and_the_verdict() {
        use engine::eval::mobility::{ChainSet, SingleProbeSet};
        use engine::tools::equiv::PairReport;
        use engine::tools::routine_equiv::compare_traces;
        let positions = engine::tools::randpos::random_positions(2_000, 1);
        let mut pair = PairReport::new("eval (fake: chain against single-probe)");
        compare_traces::<ChainSet, SingleProbeSet>(&positions, &mut pair);
        let report = EquivReport { positions: positions.len(), pairs: vec![pair] };
        let c = judge_sweep(&report, 1, 0.0);
        assert_eq!(c.status, Status::Fail, "{}", c.evidence);
        assert!(c.evidence.contains("differ; first at position"), "{}", c.evidence);
        let mut criteria = vec![c];
        criteria.extend((2..=5).map(|n| Criterion::measured(n, Status::Pass, String::new(), 0.0, json!(null))));
        let v = verdict("fake", &criteria);
        assert!(!v.safe);
        assert_eq!(v.blocking, [1]);
        assert!(v.line.contains("blocked by 1 (FAIL)"), "{}", v.line);
    }

    /// The real defects sweep: clean, so NOT RUN short of the plans'
    /// 20,000 positions and PASS at them.
    #[test]
    fn a_clean_sweep_passes_only_at_full_size() {
        let short = judge_sweep(&sweep(Routine::Defects, 500, 1), 1, 0.0);
        assert_eq!(short.status, Status::NotRun, "{}", short.evidence);
        assert!(short.evidence.contains("fewer than the 20000 positions"), "{}", short.evidence);
        let full = judge_sweep(&sweep(Routine::Defects, SWEEP_POSITIONS, 1), 1, 0.0);
        assert_eq!(full.status, Status::Pass, "{}", full.evidence);
        assert!(full.evidence.contains("defects: 40000 cases, 0 differ"), "{}", full.evidence);
    }

    #[test]
    fn the_match_gate() {
        let played = |score: f64, interval: [f64; 2]| Played {
            games: 100,
            wins: 0,
            draws: 0,
            losses: 0,
            score: Some(score),
            interval: Some(interval),
            lower95: Some(interval[0]),
            sprt: "continue".into(),
            llr: 0.0,
            stopped: String::new(),
            seconds: 1.0,
            folder: String::new(),
        };
        assert_eq!(gate(&played(0.60, [0.52, 0.68])).0, Status::Pass);
        assert_eq!(gate(&played(0.55, [0.49, 0.61])).0, Status::Fail);
        // A fail that leans to the new form says how many games would
        // decide it: 100 * (0.06 / 0.05)^2 = 144, in whole hundreds.
        let (_, why) = gate(&played(0.55, [0.49, 0.61]));
        assert!(why.contains("LOWER95 0.4900 < 0.5") && why.contains("about 200 games"), "{why}");
        // The run of 2026-12-05: defects 0.520 [0.468, 0.572] over 200 games.
        let (_, why) = gate(&Played { games: 200, ..played(0.52, [0.468, 0.572]) });
        assert!(why.contains("about 1400 games would show it (--games 1400)"), "{why}");
        // No lean, or an SPRT that accepted H0: no number.
        let (_, why) = gate(&played(0.48, [0.42, 0.54]));
        assert!(why.contains("does not lean to the new form") && !why.contains("--games"), "{why}");
        let (_, why) = gate(&Played { sprt: "accept_h0".into(), ..played(0.51, [0.45, 0.57]) });
        assert!(why.contains("SPRT accepted H0") && !why.contains("--games"), "{why}");
        // Every pair 1-1: no spread, no evidence; every pair won: evidence.
        let (status, why) = gate(&played(0.5, [0.5, 0.5]));
        assert_eq!(status, Status::Fail);
        assert!(why.contains("every pair scored alike"), "{why}");
        assert_eq!(gate(&played(1.0, [1.0, 1.0])).0, Status::Pass);
        let none = Played { score: None, interval: None, lower95: None, ..played(0.5, [0.5, 0.5]) };
        assert_eq!(gate(&none).0, Status::NotRun);
    }

    #[test]
    fn reuse_takes_only_results_of_the_same_commit() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "a.json", &report("movegen", "abc", [Status::Pass; 5]));
        assert!(load_reuse(&p, Some("abc")).is_ok());
        let e = load_reuse(&p, Some("def")).err().unwrap();
        assert!(e.contains("made at commit abc, this checkout is at def"), "{e}");
        std::fs::write(dir.path().join("b.json"), r#"{"schema": "other/1"}"#).unwrap();
        let e = load_reuse(&dir.path().join("b.json"), Some("abc")).err().unwrap();
        assert!(e.contains("neither a retirement result"), "{e}");
        assert!(load_reuse(&dir.path().join("none.json"), Some("abc")).is_err());
    }

    #[test]
    fn a_skipped_criterion_comes_from_the_same_routine_or_a_routine_independent_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut statuses = [Status::Pass; 5];
        statuses[3] = Status::NotRun;
        let p = write(dir.path(), "movegen.json", &report("movegen", "abc", statuses));
        let reused = vec![load_reuse(&p, Some("abc")).unwrap()];
        // Same routine: taken, with where it came from.
        let c = reused_criterion(&reused, Routine::Movegen, 4 - 2).unwrap();
        assert_eq!((c.number, c.status), (2, Status::Pass));
        assert!(c.source.starts_with(&format!("from {}", p.display())) && c.source.contains("movegen run"));
        // A NOT RUN is never taken.
        assert!(reused_criterion(&reused, Routine::Movegen, 4).is_none());
        // Another routine: only the suites (3) and the reference (5).
        assert!(reused_criterion(&reused, Routine::Defects, 1).is_none());
        assert!(reused_criterion(&reused, Routine::Defects, 2).is_none());
        assert_eq!(reused_criterion(&reused, Routine::Defects, 3).unwrap().evidence, "movegen 3");
        assert_eq!(reused_criterion(&reused, Routine::Defects, 5).unwrap().evidence, "movegen 5");
    }
}
