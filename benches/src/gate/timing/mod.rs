//! The timing check, in lock-step. Three workers — the base's build, the
//! candidate's, and the base's again as the A/A control, each its own
//! process ([`crate::gate::lockstep`]) — measure one case at a time,
//! sample by sample in step ([`crate::gate::lockstep::schedule`]), so that
//! every base sample has a candidate sample and a control sample taken
//! under the same conditions of the machine. The gate visits every open
//! case in turn (a shuffled order each pass), a few milliseconds each;
//! after each visit the case's sequential rule ([`sequential`]) looks at
//! its visits so far ([`paired`]) and decides it or leaves it open; the
//! passes go on until every case is decided or the time budget is spent.
//! [`cases`] matches and sizes the cases; [`outcome`] is what comes out.

pub mod cases;
pub mod outcome;
pub mod paired;
pub mod sequential;

use crate::gate::lockstep::page::page_dir;
use crate::gate::lockstep::protocol::Visit;
use crate::gate::lockstep::schedule::{self, Pairing, BASE, CANDIDATE, CONTROL, WORKERS};
use crate::gate::lockstep::workers::{Limits, Spec, Workers};
use crate::gate::timing::cases::{plan_cases, Planned, WARM_CYCLES};
use crate::gate::timing::outcome::{TimingCase, TimingOutcome, WorkerInfo};
use crate::gate::timing::paired::{lag1_autocorrelation, visit_log_ratio};
use crate::gate::timing::sequential::{Judgement, Rule};
use crate::gate::verdict::Verdict;
use crate::measure::{stats, sysinfo};
use crate::output::write_atomic;
use engine::rng::Rng;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What the timing check runs and how.
pub(crate) struct TimingPlan<'a> {
    pub base: &'a Path,
    pub candidate: &'a Path,
    pub candidate_env: &'a [(String, String)],
    pub positions: &'a Path,
    pub per_bucket: usize,
    pub pairing: Pairing,
    pub cores: Vec<usize>,
    pub benches: &'a [String],
    pub root: &'a Path,
    pub rule: Rule,
    pub budget_s: f64,
    /// Write every visit's raw samples here (JSON), for a closer look.
    pub samples_out: Option<PathBuf>,
    /// Where the workers' copies of the binaries go when there is no
    /// tmpfs.
    pub scratch: &'a Path,
}

/// A copy of a binary, removed when dropped. Every worker of every
/// generation runs from a fresh copy: the kernel keeps one file's pages in
/// the same physical memory for every process that runs it, and where they
/// landed decides which cache sets its code and read-only tables (the magic
/// attack tables) compete for — seen here to move magic lookups by ±5%
/// from one copy of a binary to the next. A fresh copy draws that anew.
struct Copied(PathBuf);

impl Copied {
    fn of(bin: &Path, dir: &Path, tag: &str) -> Result<Copied, String> {
        let to = dir.join(format!("boardbench-gate-{}-{tag}", std::process::id()));
        std::fs::copy(bin, &to).map_err(|e| format!("cannot copy {} to {}: {e}", bin.display(), to.display()))?;
        Ok(Copied(to))
    }
}

/// Where the fresh copies go: the shared-memory tmpfs where it may run
/// programs (a container often mounts it `noexec`), else `scratch`.
fn copies_dir(scratch: &Path) -> PathBuf {
    let shm = page_dir(scratch);
    if shm != scratch && may_run_programs(&shm) {
        shm
    } else {
        scratch.to_path_buf()
    }
}

/// Whether the file system holding `dir` lets programs run from it.
#[cfg(target_os = "linux")]
fn may_run_programs(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a NUL-terminated path and a zeroed statvfs for the call to fill.
    unsafe {
        let mut fs: libc::statvfs = std::mem::zeroed();
        libc::statvfs(path.as_ptr(), &mut fs) == 0 && fs.f_flag & libc::ST_NOEXEC == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn may_run_programs(_dir: &Path) -> bool {
    false
}

/// Most pages of [`fresh_copies`]' spacer (8 MiB).
const MAX_SPACER_PAGES: u64 = 2048;

/// A generation's copies of the binaries, in slot order (base, candidate,
/// A/A control), each on physical pages of its own draw. Freed page-cache
/// pages are handed out again last-freed-first, so copies made in a fixed
/// order would land on the previous generation's pages in a fixed pattern
/// (one role keeping its own pages run after run, the others swapping):
/// one run's candidate then reads its baked-in tables through the same
/// cache sets in every generation, a bias fresh copies cannot average out.
/// A spacer file of random length written first, and the copies made in a
/// random order, draw the pages anew each generation.
fn fresh_copies(
    base: &Path,
    candidate: &Path,
    dir: &Path,
    g: usize,
    rng: &mut Rng,
) -> Result<[Copied; WORKERS], String> {
    let spacer = Copied(dir.join(format!("boardbench-gate-{}-spacer", std::process::id())));
    let pages = rng.below(MAX_SPACER_PAGES + 1) as usize;
    std::fs::write(&spacer.0, vec![0x5Au8; pages * 4096])
        .map_err(|e| format!("cannot write {}: {e}", spacer.0.display()))?;
    let mut order = [BASE, CANDIDATE, CONTROL];
    for j in (1..order.len()).rev() {
        order.swap(j, rng.index(j + 1));
    }
    let mut made: [Option<Copied>; WORKERS] = [None, None, None];
    for k in order {
        let (bin, tag) = match k {
            CANDIDATE => (candidate, "c"),
            CONTROL => (base, "a"),
            _ => (base, "b"),
        };
        made[k] = Some(Copied::of(bin, dir, &format!("{tag}{g}"))?);
    }
    drop(spacer);
    Ok(made.map(|c| c.expect("every slot copied")))
}

impl Drop for Copied {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// One case's visits so far.
struct Open {
    plan: Planned,
    ratio: Vec<f64>,
    control: Vec<f64>,
    base_cost: Vec<f64>,
    cand_cost: Vec<f64>,
    pairs: usize,
    judgement: Judgement,
    decided_s: Option<f64>,
    raw: Vec<serde_json::Value>,
}

/// Limit on one visit's wait: generous against a loaded machine, short
/// against a stuck worker.
fn visit_limit(expected_s: f64) -> Duration {
    Limits::DEFAULT.visit.max(Duration::from_secs_f64(50.0 * expected_s))
}

/// Bytes a generation's workers' stacks and heaps move, at most (random
/// multiples of 16: one draw for base and candidate, another for the A/A
/// control).
const MAX_STACK_SHIFT: u64 = 4096;
const MAX_HEAP_OFFSET: u64 = 65536;

/// One generation of workers, as the report gives it.
fn generation_info(hellos: &[crate::gate::lockstep::protocol::Hello], specs: &[Spec]) -> Vec<WorkerInfo> {
    hellos
        .iter()
        .zip(specs)
        .map(|(h, s)| WorkerInfo {
            role: s.role.clone(),
            pid: h.pid,
            aslr: h.aslr.clone(),
            pinned: h.pinned,
            realtime: h.realtime,
            heap_offset: h.heap_offset,
            stack_shift: s.stack_shift,
            ready_s: h.ready_s,
        })
        .collect()
}

/// Run the timing check: generations of workers until every case is
/// decided or the budget is spent.
pub(crate) fn timing(p: &TimingPlan) -> Result<TimingOutcome, String> {
    let t0 = Instant::now();
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut rng = Rng::new(seed);
    let copies_dir = copies_dir(p.scratch);
    let mut open: Vec<Open> = Vec::new();
    let mut unmatched = Vec::new();
    let mut new_cases = Vec::new();
    let mut workers_info = Vec::new();
    let mut generations = 0;
    let mut startup_s = 0.0;
    let mut samples_finished = [0u64; WORKERS];
    while t0.elapsed().as_secs_f64() < p.budget_s {
        let benches: Vec<String> = if generations == 0 {
            p.benches.to_vec()
        } else {
            let mut b: Vec<String> = Vec::new();
            for o in open.iter().filter(|o| o.judgement == Judgement::Open) {
                if !b.contains(&o.plan.id.bench) {
                    b.push(o.plan.id.bench.clone());
                }
            }
            b
        };
        if benches.is_empty() {
            break;
        }
        // Base and candidate share a placement, so what differs between
        // them is the commit; the A/A control draws its own, so that a case
        // whose time moves with placement alone shows it in its control.
        let mut draw_shift = || {
            (
                16 * (1 + rng.below(MAX_STACK_SHIFT / 16 - 1)) as usize,
                16 * (1 + rng.below(MAX_HEAP_OFFSET / 16 - 1)) as usize,
            )
        };
        let shift = draw_shift();
        let control_shift = draw_shift();
        let g = generations;
        // Names of one length: a worker's path is in its arguments, and
        // every byte of those moves what the worker allocates after them.
        let copies = fresh_copies(p.base, p.candidate, &copies_dir, g, &mut rng)?;
        let spec = |role: &str, k: usize, env: &[(String, String)], at: (usize, usize)| Spec {
            role: role.into(),
            program: copies[k].0.clone(),
            env: env.to_vec(),
            stack_shift: at.0,
            heap_offset: at.1,
        };
        let specs = [
            spec("base", BASE, &[], shift),
            spec("candidate", CANDIDATE, p.candidate_env, shift),
            spec("A/A control", CONTROL, &[], control_shift),
        ];
        let mut common: Vec<String> = vec![
            "--positions".into(),
            p.positions.display().to_string(),
            "--per-bucket".into(),
            p.per_bucket.to_string(),
            "--cores".into(),
            p.cores.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
        ];
        for b in &benches {
            common.extend(["--bench".to_string(), b.clone()]);
        }
        let t_start = Instant::now();
        let mut workers = Workers::start(&specs, &common, p.root, Limits::DEFAULT)?;
        startup_s += t_start.elapsed().as_secs_f64();
        let hellos = workers.hellos.clone();
        if g == 0 {
            workers_info = generation_info(&hellos, &specs);
            if let Some(w) = workers_info.iter().find(|w| !(w.pinned && w.realtime)) {
                eprintln!(
                    "boardbench gate: warning: the {} worker runs {} {} (results are noisier)",
                    w.role,
                    if w.pinned { "pinned" } else { "unpinned" },
                    if w.realtime { "real-time" } else { "without real-time priority" }
                );
            }
            let matched = plan_cases(&hellos);
            unmatched = matched.unmatched;
            new_cases = matched.new_cases;
            open = matched
                .cases
                .into_iter()
                .map(|plan| Open {
                    plan,
                    ratio: Vec::new(),
                    control: Vec::new(),
                    base_cost: Vec::new(),
                    cand_cost: Vec::new(),
                    pairs: 0,
                    judgement: Judgement::Open,
                    decided_s: None,
                    raw: Vec::new(),
                })
                .collect();
            eprintln!(
                "boardbench gate: timing {} cases in lock-step ({} pairing on core{} {}), a new generation of \
                 workers for each round of visits; budget {:.0} s",
                open.len(),
                p.pairing.name(),
                if p.cores.len() > 1 { "s" } else { "" },
                p.cores.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" and "),
                p.budget_s
            );
        }
        let mut order: Vec<usize> = (0..open.len()).filter(|&i| open[i].judgement == Judgement::Open).collect();
        for j in (1..order.len()).rev() {
            order.swap(j, rng.index(j + 1));
        }
        for &i in &order {
            if t0.elapsed().as_secs_f64() >= p.budget_s {
                break;
            }
            visit_case(&mut workers, &hellos, &mut open[i], p, t0)?;
        }
        for (k, n) in samples_finished.iter_mut().enumerate() {
            *n += workers.cursor(k);
        }
        workers.finish();
        generations += 1;
        let left = open.iter().filter(|o| o.judgement == Judgement::Open).count();
        eprintln!(
            "boardbench gate: generation {generations}: {left} of {} cases open ({:.1} s; load {})",
            open.len(),
            t0.elapsed().as_secs_f64(),
            sysinfo::load_average().map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into())
        );
        if left == 0 {
            break;
        }
    }
    let measured_s = t0.elapsed().as_secs_f64();
    if let Some(path) = &p.samples_out {
        let doc = serde_json::json!({
            "pairing": p.pairing,
            "samples_finished": samples_finished,
            "cases": open.iter().map(|o| serde_json::json!({
                "case": o.plan.id, "reps": o.plan.reps, "calls": o.plan.calls, "cycles": o.plan.cycles,
                "warm": WARM_CYCLES, "visits": o.raw,
            })).collect::<Vec<_>>(),
        });
        let bytes = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
        write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    }
    let cases: Vec<TimingCase> = open.into_iter().map(|o| finish_case(o, &p.rule)).collect();
    let mut autocorrelations: Vec<f64> =
        cases.iter().map(|c| lag1_autocorrelation(&c.per_visit)).filter(|x| x.is_finite()).collect();
    let mut outcome = TimingOutcome {
        pairing: p.pairing,
        cores: p.cores.clone(),
        threshold: p.rule.threshold,
        aa_bound: p.rule.aa_bound,
        level: p.rule.level,
        budget_s: p.budget_s,
        measured_s,
        startup_s,
        generations,
        workers: workers_info,
        visit_autocorrelation: (!autocorrelations.is_empty()).then(|| stats::median_mut(&mut autocorrelations)),
        cases,
        unmatched,
        new_cases,
        regressions: 0,
        placement_warnings: 0,
        undecided: 0,
    };
    outcome.tally();
    Ok(outcome)
}

/// One visit of case `o` by this generation's workers: its samples paired,
/// the visit's ratios added, the case judged again.
fn visit_case(
    workers: &mut Workers,
    hellos: &[crate::gate::lockstep::protocol::Hello],
    o: &mut Open,
    p: &TimingPlan,
    t0: Instant,
) -> Result<(), String> {
    let label = o.plan.id.to_string();
    let mut index = [0usize; WORKERS];
    for (k, h) in hellos.iter().enumerate() {
        index[k] = h.cases.iter().position(|c| c.id == o.plan.id).ok_or_else(|| {
            format!("a {} worker started again no longer measures {label}", crate::gate::timing::cases::ROLES[k])
        })?;
    }
    let offset = o.ratio.len() as u32;
    let visits: Vec<Visit> = (0..WORKERS)
        .map(|k| Visit {
            case: index[k],
            reps: o.plan.reps,
            warm: WARM_CYCLES,
            cycles: o.plan.cycles,
            offset,
            pairing: p.pairing,
        })
        .collect();
    let expect: Vec<usize> = (0..WORKERS)
        .map(|k| {
            let all = schedule::samples_of(p.pairing, k, offset, WARM_CYCLES + o.plan.cycles);
            all - schedule::samples_of(p.pairing, k, offset, WARM_CYCLES)
        })
        .collect();
    let got = workers.visit(&label, &visits, &expect, visit_limit(o.plan.visit_s))?;
    let paired =
        schedule::pairs(p.pairing, offset, WARM_CYCLES, o.plan.cycles, [&got[BASE], &got[CANDIDATE], &got[CONTROL]])
            .ok_or_else(|| format!("the workers' samples of {label} do not pair up"))?;
    let (Some(r), Some(c)) = (visit_log_ratio(&paired.candidate), visit_log_ratio(&paired.control)) else {
        return Err(format!("a worker measured a sample of {label} as zero, negative or not a number"));
    };
    let per_call = (o.plan.reps * o.plan.calls as u64) as f64;
    let cost = |v: &[(f64, f64)], second: bool| {
        let mut x: Vec<f64> = v.iter().map(|&(b, o)| if second { o } else { b } / per_call).collect();
        stats::median_mut(&mut x)
    };
    o.base_cost.push(cost(&paired.candidate, false));
    o.cand_cost.push(cost(&paired.candidate, true));
    o.ratio.push(r);
    o.control.push(c);
    o.pairs += paired.candidate.len();
    if p.samples_out.is_some() {
        o.raw.push(serde_json::json!({ "visit": offset, "at_s": t0.elapsed().as_secs_f64(), "samples": got }));
    }
    o.judgement = p.rule.judge(&o.ratio, &o.control);
    if o.judgement != Judgement::Open {
        o.decided_s = Some(t0.elapsed().as_secs_f64());
    }
    Ok(())
}

/// A case's visits as its report line.
fn finish_case(o: Open, rule: &Rule) -> TimingCase {
    let (ratio, aa) = rule.intervals(&o.ratio, &o.control);
    let (verdict, undecided) = match o.judgement {
        Judgement::Regression => (Verdict::Regression, None),
        Judgement::Pass => (Verdict::Ok, None),
        Judgement::Faster => (Verdict::Faster, None),
        Judgement::ControlOut => (
            Verdict::Undecided,
            Some(format!(
                "the A/A control lies outside ±{:.1}%: two processes of the base build disagree on this case",
                rule.aa_bound * 100.0
            )),
        ),
        Judgement::Open => (
            Verdict::Undecided,
            Some(if o.ratio.len() < rule.min_visits() {
                format!(
                    "the time budget ran out after {} visits ({} needed for an interval)",
                    o.ratio.len(),
                    rule.min_visits()
                )
            } else {
                "the time budget ran out with the interval across the threshold (or the A/A control across its bound)"
                    .to_string()
            }),
        ),
    };
    let exp = |v: &[f64]| v.iter().map(|x| x.exp()).collect::<Vec<f64>>();
    TimingCase {
        unit: format!("{} per call", o.plan.unit),
        base: stats::median(&o.base_cost),
        candidate: stats::median(&o.cand_cost),
        ratio,
        aa,
        verdict,
        undecided,
        decided_s: o.decided_s,
        reps: o.plan.reps,
        calls: o.plan.calls,
        pairs: o.pairs,
        per_visit: exp(&o.ratio),
        aa_per_visit: exp(&o.control),
        instructions: None,
        cause: None,
        warning: false,
        case: o.plan.id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_copies_are_whole_in_slot_order_and_leave_no_spacer() {
        let dir = std::env::temp_dir().join(format!("boardbench-fresh-copies-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (base, candidate) = (dir.join("base.bin"), dir.join("candidate.bin"));
        std::fs::write(&base, b"base build").unwrap();
        std::fs::write(&candidate, b"candidate build").unwrap();
        let mut rng = Rng::new(3);
        for g in 0..4 {
            let copies = fresh_copies(&base, &candidate, &dir, g, &mut rng).unwrap();
            let read = |k: usize| std::fs::read(&copies[k].0).unwrap();
            assert_eq!(read(BASE), b"base build");
            assert_eq!(read(CANDIDATE), b"candidate build");
            assert_eq!(read(CONTROL), b"base build");
            assert_ne!(copies[BASE].0, copies[CONTROL].0);
            let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert!(left.iter().all(|n| !n.to_string_lossy().ends_with("-spacer")), "{left:?}");
            assert_eq!(left.len(), 5, "{left:?}");
        }
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "dropped copies are removed");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
