//! Instructions per node under callgrind: our `engine bench` search beside
//! Crafty searching the same positions.
//!
//! The deterministic half of the whole-engine comparison. A timed NPS ratio
//! on a shared host moves by several per cent from run to run; the
//! instructions a fixed-depth search executes do not move at all, so this
//! figure shows whether a change to the engine closed part of the gap even
//! when the timed runs cannot resolve it. It is not a speed: it leaves out
//! how many instructions each engine retires per cycle.
//!
//! Ours: `engine bench` under `valgrind --tool=callgrind` with collection
//! on only inside `Searcher::go`, so start-up and table clearing are left
//! out. Crafty (stripped, so it has no function to toggle on): the
//! `crafty-positions` input (the same positions, each from a clean state:
//! Crafty 23 in one process with `new` before each, Crafty 25, which
//! refuses `new`, in a fresh process per position) under callgrind, less
//! the same input without its `go` commands (start-up, table set-up, `new`,
//! `setboard`, quit: everything but the searches), counted once per process
//! the positions took. What is left is the searches and the little Crafty
//! does after each (printing its move; 25.2 also prints its evaluation
//! table, one evaluation). Both count a node per move made, and a node per
//! move they prune unsearched (Crafty makes such a move first; our
//! bitboard profile need not); our bench's `pruned` count and
//! Crafty's summaries' pruned counts (23.4's `pruned=`, 25.2's `fp=` and
//! `mcp=`) give the positions each searched too.

use crate::engines::baseline_engine::{self, CraftySearches};
use crate::engines::process::{self, Ending, Job, TempDir};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `boardbench instructions`.
#[derive(clap::Args, Debug, Clone)]
pub struct InstructionsCli {
    /// Crafty binary (25.2 built from its source, or 23.4 from Debian's
    /// non-free `crafty` package: scripts/fetch-crafty.sh); without it only
    /// our profiles are counted.
    #[arg(long, value_name = "PATH")]
    pub crafty: Option<PathBuf>,
    /// Depth (`sd`) of Crafty's searches of the positions.
    #[arg(long, value_name = "D", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub crafty_depth: u32,
    /// Our engine binary [default: `engine` beside this program].
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Our profiles to count (repeat the flag) [default: bitboard].
    #[arg(long = "engine-profile", value_name = "P")]
    pub engine_profile: Vec<String>,
    /// Another build of our engine (e.g. the commit before a change): the
    /// same profiles are counted in it, and the report gives each
    /// profile's instructions per position searched over the other
    /// build's, and whether the two searched the same tree. Build both the
    /// same way (`cargo build --release -p engine`): a workspace build
    /// unifies dependency features and alone moved a count by 1%.
    #[arg(long = "base-engine", value_name = "PATH")]
    pub base_engine: Option<PathBuf>,
    /// Depth of our `engine bench`.
    #[arg(long, value_name = "D", default_value_t = 9, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// EPD file of positions for both engines [default: the bench's built-in 20].
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// The valgrind program.
    #[arg(long, value_name = "PATH", default_value = "valgrind")]
    pub valgrind: PathBuf,
    /// Seconds one run under callgrind may take before it is killed.
    #[arg(long, value_name = "SECS", default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
    /// Print the JSON report on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// One profile of ours, counted.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct OursCount {
    pub profile: String,
    pub depth: u32,
    /// Nodes as Crafty counts them: every move made.
    pub nodes: u64,
    /// Of `nodes`, moves pruned unsearched (`None`: an engine whose
    /// bench does not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pruned: Option<u64>,
    pub instructions: u64,
}

impl OursCount {
    /// Per node as Crafty counts nodes (every move made).
    pub fn per_node(&self) -> f64 {
        self.instructions as f64 / self.nodes as f64
    }

    /// Per position searched (nodes less the moves pruned unsearched);
    /// per node for an engine that does not count pruned moves.
    pub fn per_searched_node(&self) -> f64 {
        self.instructions as f64 / self.nodes.saturating_sub(self.pruned.unwrap_or(0)).max(1) as f64
    }
}

/// Crafty, counted.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CraftyCount {
    pub depth: u32,
    /// The searches' summaries, summed (nodes as Crafty counts them).
    pub searches: CraftySearches,
    /// The positions' runs less [`startup_instructions`](Self::startup_instructions).
    pub instructions: u64,
    /// What was subtracted: the same input without its `go` commands
    /// (start, set-up, quit), once per process.
    pub startup_instructions: u64,
    /// How Crafty was reset between positions.
    #[serde(default)]
    pub reset: baseline_engine::CraftyReset,
    /// Processes the positions took (one per position when Crafty refuses `new`).
    #[serde(default = "one")]
    pub processes: usize,
}

fn one() -> usize {
    1
}

impl CraftyCount {
    /// Per node as Crafty counts nodes (every move made).
    pub fn per_counted_node(&self) -> f64 {
        self.instructions as f64 / self.searches.nodes as f64
    }

    /// Per position searched (nodes less the moves pruned unsearched).
    pub fn per_searched_node(&self) -> Option<f64> {
        self.searches.searched_nodes().map(|n| self.instructions as f64 / n as f64)
    }
}

/// The whole report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct InstructionsReport {
    /// "built-in bench" or the positions file.
    pub positions: String,
    pub position_count: usize,
    pub valgrind: String,
    pub ours: Vec<OursCount>,
    /// The `--base-engine` build's program, when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_engine: Option<String>,
    /// Its counts, profile by profile as in `ours`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub base: Vec<OursCount>,
    pub crafty: Option<CraftyCount>,
}

impl InstructionsReport {
    /// Each profile counted in both builds: (ours, the base build's).
    pub fn base_pairs(&self) -> impl Iterator<Item = (&OursCount, &OursCount)> {
        self.ours.iter().filter_map(|o| Some((o, self.base.iter().find(|b| b.profile == o.profile)?)))
    }
}

/// Run from the command line: the table (or JSON) on stdout; exit status.
pub fn main(c: &InstructionsCli) -> Result<i32, String> {
    let r = run(c)?;
    let text = if c.json { format!("{}\n", serde_json::to_string(&r).map_err(|e| e.to_string())?) } else { table(&r) };
    crate::output::print_out(&text)?;
    Ok(0)
}

/// Check the arguments, then count every engine asked for.
pub fn run(c: &InstructionsCli) -> Result<InstructionsReport, String> {
    let valgrind = process::resolve_program(&c.valgrind)
        .map_err(|e| format!("valgrind is needed (install it, or give --valgrind PATH): {e}"))?;
    let engine = match &c.engine {
        Some(p) => p.clone(),
        None => crate::workspace::engine_beside_this_program()?,
    };
    // Absolute: callgrind runs in a temporary directory.
    let engine =
        process::resolve_program(&engine).map_err(|e| format!("our engine: {e} (build it: cargo build --release)"))?;
    let crafty = match &c.crafty {
        Some(p) => Some(process::resolve_program(p).map_err(|e| format!("--crafty: {e}"))?),
        None => None,
    };
    let base_engine = match &c.base_engine {
        Some(p) => Some(process::resolve_program(p).map_err(|e| format!("--base-engine: {e}"))?),
        None => None,
    };
    let profiles = if c.engine_profile.is_empty() { vec!["bitboard".to_string()] } else { c.engine_profile.clone() };
    for p in &profiles {
        p.parse::<engine::search::ProfileKind>().map_err(|e| format!("--engine-profile: {e}"))?;
    }
    let positions = match &c.positions {
        Some(p) => Some(std::path::absolute(p).map_err(|e| format!("--positions {}: {e}", p.display()))?),
        None => None,
    };
    let fens = crate::engines::nps::run::bench_fens(positions.as_deref())?;
    let timeout = Duration::from_secs(c.timeout);

    // Every profile asked for, counted in one build of our engine.
    let count_profiles = |engine: &Path| -> Result<Vec<OursCount>, String> {
        profiles.iter().map(|p| count_ours(&valgrind, engine, p, c.depth, positions.as_deref(), timeout)).collect()
    };
    let ours = count_profiles(&engine)?;
    let base = match &base_engine {
        Some(b) => count_profiles(b).map_err(|e| format!("--base-engine {}: {e}", b.display()))?,
        None => Vec::new(),
    };
    let crafty = match &crafty {
        Some(path) => Some(count_crafty(&valgrind, path, &fens, c.crafty_depth, timeout)?),
        None => None,
    };
    Ok(InstructionsReport {
        positions: positions.map_or_else(|| "built-in bench".to_string(), |p| p.display().to_string()),
        position_count: fens.len(),
        valgrind: valgrind.display().to_string(),
        ours,
        base_engine: base_engine.map(|b| b.display().to_string()),
        base,
        crafty,
    })
}

/// One program under callgrind; its stdout and the instructions it counted.
fn callgrind(
    valgrind: &Path,
    program: &Path,
    args: &[String],
    stdin: Option<&str>,
    toggle: Option<&str>,
    label: &str,
    timeout: Duration,
) -> Result<(String, u64), String> {
    let dir = TempDir::new("boardbench-callgrind")?;
    let out = dir.path().join("callgrind.out");
    // Quiet: an error quotes the program's last lines, not valgrind's summary.
    let mut full =
        vec!["-q".to_string(), "--tool=callgrind".to_string(), format!("--callgrind-out-file={}", out.display())];
    if let Some(t) = toggle {
        full.push(format!("--toggle-collect={t}"));
    }
    full.push(program.display().to_string());
    full.extend(args.iter().cloned());
    // Crafty reads ~/.craftyrc and writes logs where it runs: both the
    // temporary directory.
    let env = [("HOME".to_string(), dir.path().display().to_string())];
    let job = Job {
        program: valgrind,
        args: &full,
        stdin,
        cwd: dir.path(),
        env: &env,
        core: None,
        realtime: false,
        timeout,
        stop_when: None,
    };
    let f = process::run(&job)?;
    match &f.ending {
        Ending::Exited(0) => {}
        Ending::TimedOut => {
            return Err(format!("{label} under callgrind ran past --timeout {} s", timeout.as_secs()));
        }
        Ending::Exited(code) => {
            return Err(format!("{label} under callgrind exited with status {code}: {}", f.last_lines(3)));
        }
        Ending::Signalled(sig) => {
            return Err(format!("{label} under callgrind was killed by signal {sig}: {}", f.last_lines(3)));
        }
        Ending::Stopped => return Err(format!("{label} under callgrind was stopped")),
    }
    let text =
        std::fs::read_to_string(&out).map_err(|e| format!("{label}: no callgrind output {}: {e}", out.display()))?;
    let instructions = callgrind_total(&text).map_err(|e| format!("{label}: {}: {e}", out.display()))?;
    Ok((f.stdout, instructions))
}

/// The total of the first event (instructions) in a callgrind output file.
pub fn callgrind_total(text: &str) -> Result<u64, String> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
        .ok_or("no \"summary:\" or \"totals:\" line")?;
    let first = line.split_whitespace().next().ok_or("an empty \"summary:\" line")?;
    first.parse().map_err(|_| format!("\"summary: {}\" is not a count of instructions", line.trim()))
}

fn count_ours(
    valgrind: &Path,
    engine: &Path,
    profile: &str,
    depth: u32,
    positions: Option<&Path>,
    timeout: Duration,
) -> Result<OursCount, String> {
    let mut args = vec!["bench", "--profile", profile, "--depth", &depth.to_string(), "--json"]
        .into_iter()
        .map(str::to_string)
        .collect::<Vec<_>>();
    if let Some(p) = positions {
        args.extend(["--positions".to_string(), p.display().to_string()]);
    }
    let label = format!("engine bench --profile {profile}");
    let (stdout, instructions) = callgrind(valgrind, engine, &args, None, Some("*Searcher*go*"), &label, timeout)?;
    let json = serde_json::from_str::<serde_json::Value>(stdout.trim()).ok();
    let nodes = json.as_ref().and_then(|v| v.get("nodes")?.as_u64()).ok_or_else(|| {
        format!("{label}: no JSON object with a \"nodes\" count on stdout: {}", process::last_lines(&stdout, "", 2))
    })?;
    if nodes == 0 || instructions == 0 {
        return Err(format!("{label}: {nodes} nodes, {instructions} instructions: nothing was searched"));
    }
    // An engine from before it pruned moves has no count.
    let pruned = json.as_ref().and_then(|v| v.get("pruned")?.as_u64());
    let pruned = baseline_engine::check_ours_pruned(pruned, nodes).map_err(|e| format!("{label}: {e}"))?;
    Ok(OursCount { profile: profile.to_string(), depth, nodes, pruned, instructions })
}

fn count_crafty(
    valgrind: &Path,
    crafty: &Path,
    fens: &[String],
    depth: u32,
    timeout: Duration,
) -> Result<CraftyCount, String> {
    let fen_refs: Vec<&str> = fens.iter().map(String::as_str).collect();
    let reset = baseline_engine::CraftyReset::for_version(baseline_engine::probe_crafty(crafty, timeout)?);
    // Crafty's clock runs under valgrind too: without a day per move its
    // default 30 s limit would stop the deeper searches early.
    let scripts = baseline_engine::crafty_positions_scripts(
        &fen_refs,
        depth,
        engine::tools::bench::BENCH_HASH_MB,
        reset,
        "st 86400\n",
    );
    let (mut stdout, mut total) = (String::new(), 0u64);
    for (i, script) in scripts.iter().enumerate() {
        let label = if scripts.len() > 1 { format!("crafty (position {})", i + 1) } else { "crafty".to_string() };
        let (out, counted) = callgrind(valgrind, crafty, &[], Some(script), None, &label, timeout)?;
        stdout.push_str(&out);
        total = total.saturating_add(counted);
    }
    let searches = baseline_engine::parse_crafty_searches(&stdout, fens.len()).map_err(|e| format!("crafty: {e}"))?;
    let finished = completed_depths(&stdout, depth);
    if finished != fens.len() {
        return Err(format!(
            "crafty: {finished} of {} searches printed a completed depth {depth} (\"{depth}->\")",
            fens.len()
        ));
    }
    // Everything but the searches, per process: one run of the first
    // script without its `go` (the processes differ only in the FEN given
    // to `setboard`).
    let setup_script = baseline_engine::without_searches(&scripts[0]);
    let (_, setup) =
        callgrind(valgrind, crafty, &[], Some(&setup_script), None, "crafty (its input without \"go\")", timeout)?;
    let startup = setup.saturating_mul(scripts.len() as u64);
    let instructions = total.checked_sub(startup).filter(|&i| i > 0).ok_or_else(|| {
        format!(
            "crafty: the searches counted {total} instructions, the same input without \"go\" {setup} \
             (times {} processes)",
            scripts.len()
        )
    })?;
    Ok(CraftyCount { depth, searches, instructions, startup_instructions: startup, reset, processes: scripts.len() })
}

/// How many of Crafty's searches finished iteration `depth`: search
/// summaries ([`baseline_engine::is_search_summary`]: `time=` with `n=` or
/// `nodes=`) with a `depth->` token since the summary
/// before. The token may follow progress text on the same line, which
/// Crafty overwrites with carriage returns, not newlines.
fn completed_depths(stdout: &str, depth: u32) -> usize {
    let tag = format!("{depth}->");
    let (mut seen, mut completed) = (false, 0);
    for line in stdout.lines() {
        let tokens = || line.split_whitespace();
        if tokens().any(|t| t == tag) {
            seen = true;
        }
        if baseline_engine::is_search_summary(line) {
            completed += usize::from(seen);
            seen = false;
        }
    }
    completed
}

/// The report as a table.
pub fn table(r: &InstructionsReport) -> String {
    let mut s = format!(
        "Instructions per node under callgrind ({} positions: {})\n\n{:<28} {:>6} {:>13} {:>16} {:>10}\n",
        r.position_count, r.positions, "engine", "depth", "nodes", "instructions", "per node"
    );
    for o in &r.ours {
        s.push_str(&count_rows(&format!("ours, {}", o.profile), o));
    }
    for o in &r.base {
        s.push_str(&count_rows(&format!("base, {}", o.profile), o));
    }
    if let Some(c) = &r.crafty {
        s.push_str(&format!(
            "{:<28} {:>6} {:>13} {:>16} {:>10.1}\n",
            "crafty, nodes it counts",
            c.depth,
            group(c.searches.nodes),
            group(c.instructions),
            c.per_counted_node()
        ));
        if let (Some(n), Some(per)) = (c.searches.searched_nodes(), c.per_searched_node()) {
            s.push_str(&format!(
                "{:<28} {:>6} {:>13} {:>16} {:>10.1}   (pruned unsearched, {} as Crafty rounds them: {} ±{})\n",
                "crafty, positions searched",
                c.depth,
                group(n),
                "",
                per,
                c.searches.pruned_fields(),
                group(c.searches.pruned.unwrap_or(0)),
                group(c.searches.pruned_rounding)
            ));
        }
        s.push_str(&format!(
            "\n(crafty: {}; its input without \"go\", {} instructions over {} process{}, subtracted)\n\
             By instructions alone, ours runs at this multiple of Crafty's node rate:\n",
            c.reset.describe(),
            group(c.startup_instructions),
            c.processes,
            if c.processes == 1 { "" } else { "es" }
        ));
        for o in &r.ours {
            // Searched positions against searched positions: ours less our
            // pruned moves too, where our bench counts them.
            let searched =
                c.per_searched_node().map_or(String::new(), |p| format!(", searched {:.3}", p / o.per_searched_node()));
            s.push_str(&format!("  {:<12} counted {:.3}{searched}\n", o.profile, c.per_counted_node() / o.per_node()));
        }
    }
    if let Some(b) = &r.base_engine {
        s.push_str(&format!("\nThis build against the base build ({b}), instructions per position searched:\n"));
        for (o, b) in r.base_pairs() {
            let ratio = o.per_searched_node() / b.per_searched_node();
            let tree = if (o.nodes, o.pruned) == (b.nodes, b.pruned) {
                format!("the same tree ({} nodes)", group(o.nodes))
            } else {
                format!(
                    "trees differ: {} nodes ({} pruned) against {} ({})",
                    group(o.nodes),
                    group(o.pruned.unwrap_or(0)),
                    group(b.nodes),
                    group(b.pruned.unwrap_or(0))
                )
            };
            s.push_str(&format!(
                "  {:<12} {:.1} against {:.1}: {ratio:.4} ({:+.1}%); {tree}\n",
                o.profile,
                o.per_searched_node(),
                b.per_searched_node(),
                (ratio - 1.0) * 100.0
            ));
        }
    }
    s
}

/// One counted profile's rows: per node, and per position searched where
/// the bench counts its pruned moves.
fn count_rows(label: &str, o: &OursCount) -> String {
    let mut s = format!(
        "{:<28} {:>6} {:>13} {:>16} {:>10.1}\n",
        label,
        o.depth,
        group(o.nodes),
        group(o.instructions),
        o.per_node()
    );
    if let Some(pruned) = o.pruned {
        s.push_str(&format!(
            "{:<28} {:>6} {:>13} {:>16} {:>10.1}   (pruned unsearched: {})\n",
            format!("{label}, searched"),
            o.depth,
            group(o.nodes - pruned),
            "",
            o.per_searched_node(),
            group(pruned)
        ));
    }
    s
}

/// A count with thousands separators.
fn group(n: u64) -> String {
    crate::engines::nps::report::thousands(n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_callgrind_total_is_the_first_event_of_summary() {
        let text = "version: 1\nevents: Ir Bc\nsummary: 1354639856 226600620\nfn=(1) main\n";
        assert_eq!(callgrind_total(text), Ok(1_354_639_856));
        assert_eq!(callgrind_total("events: Ir\ntotals: 42\n"), Ok(42));
        assert!(callgrind_total("events: Ir\n").unwrap_err().contains("no \"summary:\""));
        assert!(callgrind_total("summary: 12x\n").unwrap_err().contains("not a count"));
    }

    #[test]
    fn completed_depths_counts_only_the_asked_depth() {
        let summary = "              time=1.17  mat=0  n=21252  fh=95%  nps=18K\n";
        // Completed at 9; completed at 10 after progress text on its line
        // (carriage returns); stopped during 10.
        let out = format!(
            "   9->   1.17   0.39   1. Nc3\n{summary}\
             10     1.76   4/29*  1. Qd2  (114Knps)\r   10->   2.02  0.1  1. e4\n{summary}\
             9->   0.50  0.2  1. d4\n   10     0.90   2/30*  1. c4\n{summary}"
        );
        assert_eq!(completed_depths(&out, 9), 2);
        assert_eq!(completed_depths(&out, 10), 1);
        assert_eq!(completed_depths(&out, 1), 0);
        // A depth line with no summary after it counts for nothing.
        assert_eq!(completed_depths("  9->   1.17\n", 9), 0);
        // Crafty 25.2's summaries (`nodes=`), its depth line with the time
        // limit beside the time, and its evaluation table after the move.
        let out = "         10->   0.01/27.00    0.13   1. Nf3 Nc6\n\
                   \x20       time=0.01(100%)  nodes=36094(36.1K)  fh1=96%  pred=0  nps=3.6M\n\
                   \x20       chk=36  qchk=138  fp=3.0K  mcp=11.6K  50move=1\n\
                   White(1): Nf3\nmaterial.......  -0.05  |    comp     mg      eg   |\ntotal..........   0.53\n";
        assert_eq!(completed_depths(out, 10), 1);
        assert_eq!(completed_depths(&out.repeat(3), 10), 3);
        assert_eq!(completed_depths(out, 9), 0);
    }

    #[test]
    fn the_table_gives_both_of_craftys_rates() {
        let searches = CraftySearches {
            searches: 20,
            nodes: 3_000,
            pruned: Some(1_000),
            pruned_rounding: 10,
            time_s: 1.0,
            ..Default::default()
        };
        let r = InstructionsReport {
            positions: "built-in bench".into(),
            position_count: 20,
            valgrind: "/usr/bin/valgrind".into(),
            ours: vec![OursCount {
                profile: "bitboard".into(),
                depth: 9,
                nodes: 1_000,
                pruned: None,
                instructions: 1_500_000,
            }],
            base_engine: None,
            base: vec![],
            crafty: Some(CraftyCount {
                depth: 10,
                searches,
                instructions: 3_600_000,
                startup_instructions: 35_000,
                reset: baseline_engine::CraftyReset::ProcessPerPosition,
                processes: 20,
            }),
        };
        let t = table(&r);
        // Ours 1,500 per node; Crafty 1,200 per counted, 1,800 per searched node.
        assert!(t.contains("1500.0"), "{t}");
        assert!(t.contains("1200.0") && t.contains("1800.0"), "{t}");
        assert!(t.contains("counted 0.800, searched 1.200"), "{t}");
        assert!(t.contains("(pruned unsearched, pruned= as Crafty rounds them: 1,000 ±10)"), "{t}");
        assert!(
            t.contains("a fresh process per position") && t.contains("35,000 instructions over 20 processes"),
            "{t}"
        );
        // Ours pruning 400 of its 1,000 nodes: 2,500 per searched node.
        let mut r = r;
        r.ours[0].pruned = Some(400);
        let t = table(&r);
        assert!(t.contains("ours, bitboard, searched") && t.contains("2500.0"), "{t}");
        assert!(t.contains("counted 0.800, searched 0.720"), "{t}");
    }

    #[test]
    fn each_profile_is_given_over_the_base_builds() {
        let count = |profile: &str, nodes, pruned, instructions| OursCount {
            profile: profile.into(),
            depth: 8,
            nodes,
            pruned: Some(pruned),
            instructions,
        };
        let r = InstructionsReport {
            positions: "built-in bench".into(),
            position_count: 20,
            valgrind: "valgrind".into(),
            // 2,000 and 5,000 per position searched against 2,500 and 5,000.
            ours: vec![count("bitboard", 3_000, 1_000, 4_000_000), count("mailbox", 3_000, 1_000, 10_000_000)],
            base_engine: Some("/tmp/engine-old".into()),
            base: vec![count("mailbox", 3_200, 1_000, 11_000_000), count("bitboard", 3_000, 1_000, 5_000_000)],
            crafty: None,
        };
        let pairs: Vec<(&str, &str)> = r.base_pairs().map(|(o, b)| (o.profile.as_str(), b.profile.as_str())).collect();
        assert_eq!(pairs, [("bitboard", "bitboard"), ("mailbox", "mailbox")]);
        let t = table(&r);
        assert!(t.contains("base, bitboard, searched") && t.contains("2500.0"), "{t}");
        assert!(t.contains("against the base build (/tmp/engine-old)"), "{t}");
        assert!(t.contains("bitboard     2000.0 against 2500.0: 0.8000 (-20.0%); the same tree (3,000 nodes)"), "{t}");
        assert!(t.contains("mailbox      5000.0 against 5000.0: 1.0000 (+0.0%); trees differ: 3,000 nodes"), "{t}");
        // Without a base build the JSON carries neither field.
        let json = serde_json::to_value(InstructionsReport { base_engine: None, base: vec![], ..r }).unwrap();
        assert!(json.get("base").is_none() && json.get("base_engine").is_none(), "{json}");
    }

    #[test]
    fn a_missing_valgrind_is_named() {
        let c = InstructionsCli {
            crafty: None,
            crafty_depth: 10,
            engine: None,
            engine_profile: vec![],
            base_engine: None,
            depth: 9,
            positions: None,
            valgrind: PathBuf::from("/nonexistent/valgrind"),
            timeout: 10,
            json: false,
        };
        assert!(run(&c).unwrap_err().contains("valgrind is needed"));
    }
}
