//! The curated-suite head reference: every position of the curated suites
//! (see [`super::curate`]) searched to a fixed depth by a UCI engine, one
//! `ucinewgame` before each (so our engine's trees, and so its node counts,
//! are the same on every run), recording the best move, the score, the
//! nodes and whether the move solves the position (a `bm` move and no `am`
//! move). `save` keeps such a run as the reference; `compare` runs a
//! candidate the same way (same depth, same suite files, checked unchanged
//! by their hash) and reports per suite the solve counts, the positions
//! gained and lost, the best moves and node counts that changed; a lower
//! solve count in any suite is a regression.

use super::uci_engine::{EngineScore, EngineSpec, Timeouts, UciEngine};
use crate::measure::sysinfo;
use engine::tools::san::to_san;
use engine::tools::suite::load_suite;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Report format name.
pub const SCHEMA: &str = "boardbench-reference/1";
/// The curated suites, by file name under positions/.
pub const CURATED: [&str; 3] = ["ringers.epd", "confident_quick.epd", "hard_quick.epd"];
/// Default search depth.
pub const DEFAULT_DEPTH: u32 = 10;
/// Exit status of `compare` when a suite's solve count fell.
pub const EXIT_REGRESSION: i32 = 3;

/// One position's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionResult {
    pub id: String,
    pub fen: String,
    /// As the engine sent it (UCI notation).
    pub best_move: String,
    /// In SAN, or the engine's text when it is no legal move.
    pub best_move_san: String,
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub solved: bool,
    pub ms: f64,
}

/// One suite's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteResult {
    /// File name without `.epd`.
    pub name: String,
    /// As given (relative to the workspace when inside it).
    pub file: String,
    /// FNV-1a 64 of the file's bytes, hex: the suite must not change
    /// between a reference and a comparison.
    pub file_hash: String,
    pub solved: usize,
    pub positions: Vec<PositionResult>,
}

/// The engine that ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineUsed {
    pub command: Vec<String>,
    pub options: Vec<String>,
    pub id_name: Option<String>,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceRun {
    pub schema: String,
    pub date: String,
    pub git_commit: Option<String>,
    pub engine: EngineUsed,
    pub depth: u32,
    pub seconds: f64,
    pub suites: Vec<SuiteResult>,
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// `path` relative to the workspace when inside it.
fn shown(path: &Path) -> String {
    let root = crate::workspace::root();
    path.strip_prefix(&root).unwrap_or(path).display().to_string()
}

/// A suite file as stored: relative paths are taken from the workspace.
fn resolve(file: &str) -> PathBuf {
    let p = PathBuf::from(file);
    if p.is_absolute() {
        p
    } else {
        crate::workspace::root().join(p)
    }
}

/// How to run the suites.
pub struct RunSettings {
    pub core: Option<usize>,
    pub depth: u32,
    pub position_timeout: Duration,
    pub timeouts: Timeouts,
    pub quiet: bool,
}

/// Search every position of `suites` to `depth` with the engine.
pub fn run_suites(spec: &EngineSpec, suites: &[PathBuf], settings: &RunSettings) -> Result<ReferenceRun, String> {
    let mut loaded = Vec::new();
    for path in suites {
        let bytes = crate::output::read_back(path).map_err(|e| format!("suite {}: {e}", path.display()))?;
        let positions = load_suite(path).map_err(|e| format!("suite {e}"))?;
        loaded.push((path.clone(), format!("{:016x}", fnv1a64(&bytes)), positions));
    }
    let mut engine = UciEngine::start(spec, settings.core, settings.timeouts)?;
    let started = Instant::now();
    let mut results = Vec::new();
    for (path, hash, positions) in &loaded {
        let name = path.file_stem().map_or_else(|| shown(path), |s| s.to_string_lossy().into_owned());
        let suite_started = Instant::now();
        let mut out = Vec::with_capacity(positions.len());
        for p in positions {
            let fen = p.position.to_fen();
            let fail = |e: &UciEngine, what: String| {
                format!("{name} {}: the engine {what}; last output: {}", p.name, e.last_output().join(" | "))
            };
            engine.new_game().map_err(|f| fail(&engine, f.to_string()))?;
            let answer = engine
                .go(&format!("position fen {fen}"), &format!("go depth {}", settings.depth), settings.position_timeout)
                .map_err(|f| fail(&engine, f.to_string()))?;
            if answer.after_stop {
                return Err(fail(
                    &engine,
                    format!("took over {:.0} s (answered only after stop)", settings.position_timeout.as_secs_f64()),
                ));
            }
            let text = answer.bestmove.to_ascii_lowercase();
            let legal = engine::movegen::legal_moves(&p.position).iter().copied().find(|m| m.uci().as_str() == text);
            out.push(PositionResult {
                id: p.name.clone(),
                fen,
                best_move_san: legal.map_or_else(|| answer.bestmove.clone(), |m| to_san(&p.position, m)),
                best_move: answer.bestmove,
                score: answer.score,
                depth: answer.depth,
                nodes: answer.nodes,
                solved: legal.is_some_and(|m| p.is_solved_by(m)),
                ms: answer.elapsed.as_secs_f64() * 1000.0,
            });
        }
        let solved = out.iter().filter(|r| r.solved).count();
        if !settings.quiet {
            eprintln!(
                "{name}: {solved}/{} solved at depth {}, {:.1} s",
                out.len(),
                settings.depth,
                suite_started.elapsed().as_secs_f64()
            );
        }
        results.push(SuiteResult { name, file: shown(path), file_hash: hash.clone(), solved, positions: out });
    }
    Ok(ReferenceRun {
        schema: SCHEMA.to_string(),
        date: sysinfo::iso8601(sysinfo::now_secs()),
        git_commit: crate::workspace::git_state(&crate::workspace::root()).0,
        engine: EngineUsed {
            command: spec.command.clone(),
            options: spec.options.iter().map(|(n, v)| format!("{n}={v}")).collect(),
            id_name: engine.id_name.clone(),
        },
        depth: settings.depth,
        seconds: started.elapsed().as_secs_f64(),
        suites: results,
    })
}

/// Read a saved run.
pub fn read_run(path: &Path) -> Result<ReferenceRun, String> {
    let text = crate::output::read_back(path).map_err(|e| format!("reference {}: {e}", path.display()))?;
    parse_run(&text, &path.display().to_string())
}

/// A saved run from its JSON text; errors name `origin`.
pub fn parse_run(text: &[u8], origin: &str) -> Result<ReferenceRun, String> {
    let run: ReferenceRun = serde_json::from_slice(text).map_err(|e| {
        format!("reference {origin}: not a reference file: {}", crate::output::one_line(&e.to_string()))
    })?;
    if run.schema != SCHEMA {
        return Err(format!("reference {origin}: schema {:?} is not {SCHEMA:?}", run.schema));
    }
    Ok(run)
}

/// An existing file at `path` may be replaced only with `force`.
pub fn check_may_write(path: &Path, force: bool) -> Result<(), String> {
    if path.exists() && !force {
        return Err(format!(
            "{} exists (a saved reference); pass --force to replace it, or --out to save elsewhere",
            path.display()
        ));
    }
    Ok(())
}

/// Write a run atomically; an existing file is replaced only with `force`.
pub fn write_run(path: &Path, run: &ReferenceRun, force: bool) -> Result<(), String> {
    check_may_write(path, force)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let json = serde_json::to_vec_pretty(run).map_err(|e| e.to_string())?;
    crate::output::write_atomic(path, &json).map_err(|e| e.to_string())
}

/// The suite files of a saved run, checked unchanged since it was saved.
pub fn suites_of(reference: &ReferenceRun) -> Result<Vec<PathBuf>, String> {
    reference
        .suites
        .iter()
        .map(|s| {
            let path = resolve(&s.file);
            let bytes = crate::output::read_back(&path).map_err(|e| format!("suite {}: {e}", path.display()))?;
            let hash = format!("{:016x}", fnv1a64(&bytes));
            if hash != s.file_hash {
                return Err(format!(
                    "suite {} changed since the reference was saved (hash {hash}, reference {}); save a new reference",
                    s.file, s.file_hash
                ));
            }
            Ok(path)
        })
        .collect()
}

/// One suite compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuiteComparison {
    pub name: String,
    pub positions: usize,
    pub solved_reference: usize,
    pub solved_candidate: usize,
    /// Solved now, not in the reference.
    pub gained: Vec<String>,
    /// Solved in the reference, not now.
    pub lost: Vec<String>,
    /// `id: reference -> candidate` (SAN).
    pub best_move_changes: Vec<String>,
    pub nodes_reference: u64,
    pub nodes_candidate: u64,
    /// Positions whose node count differs.
    pub node_changes: usize,
    /// The largest node-count changes: `id: reference -> candidate (ratio)`.
    pub largest_node_changes: Vec<String>,
}

impl SuiteComparison {
    pub fn regressed(&self) -> bool {
        self.solved_candidate < self.solved_reference
    }
}

/// Compare a candidate run with the reference, suite by suite, position by
/// position (matched by id and FEN).
pub fn compare(reference: &ReferenceRun, candidate: &ReferenceRun) -> Result<Vec<SuiteComparison>, String> {
    let mut out = Vec::new();
    for (r, c) in reference.suites.iter().zip(&candidate.suites) {
        if r.positions.len() != c.positions.len() || r.positions.iter().zip(&c.positions).any(|(a, b)| a.fen != b.fen) {
            return Err(format!("suite {}: the candidate ran other positions than the reference", r.name));
        }
        let mut cmp = SuiteComparison {
            name: r.name.clone(),
            positions: r.positions.len(),
            solved_reference: r.solved,
            solved_candidate: c.solved,
            gained: Vec::new(),
            lost: Vec::new(),
            best_move_changes: Vec::new(),
            nodes_reference: r.positions.iter().filter_map(|p| p.nodes).sum(),
            nodes_candidate: c.positions.iter().filter_map(|p| p.nodes).sum(),
            node_changes: 0,
            largest_node_changes: Vec::new(),
        };
        let mut changes: Vec<(f64, String)> = Vec::new();
        for (a, b) in r.positions.iter().zip(&c.positions) {
            match (a.solved, b.solved) {
                (false, true) => cmp.gained.push(format!("{} ({})", a.id, b.best_move_san)),
                (true, false) => cmp.lost.push(format!("{} ({} -> {})", a.id, a.best_move_san, b.best_move_san)),
                _ => {}
            }
            if a.best_move != b.best_move {
                cmp.best_move_changes.push(format!("{}: {} -> {}", a.id, a.best_move_san, b.best_move_san));
            }
            if a.nodes != b.nodes {
                cmp.node_changes += 1;
                if let (Some(x), Some(y)) = (a.nodes, b.nodes) {
                    let ratio = y as f64 / x.max(1) as f64;
                    changes.push((ratio.ln().abs(), format!("{}: {x} -> {y} ({ratio:.2}x)", a.id)));
                }
            }
        }
        changes.sort_by(|x, y| y.0.total_cmp(&x.0));
        cmp.largest_node_changes = changes.into_iter().take(5).map(|(_, s)| s).collect();
        out.push(cmp);
    }
    Ok(out)
}

/// The comparison for people: a table, then the lists.
pub fn comparison_text(reference: &ReferenceRun, candidate: &ReferenceRun, rows: &[SuiteComparison]) -> String {
    let name = |r: &ReferenceRun| {
        let mut s = r.engine.command.join(" ");
        if !r.engine.options.is_empty() {
            let _ = write!(s, " ({})", r.engine.options.join(", "));
        }
        s
    };
    let mut s = format!(
        "reference: {} at depth {} ({})\ncandidate: {} at depth {}\n\n",
        name(reference),
        reference.depth,
        reference.date,
        name(candidate),
        candidate.depth
    );
    let _ = writeln!(
        s,
        "{:<16} {:>5} {:>7} {:>7} {:>6} {:>5} {:>11} {:>13} {:>13} {:>7} {:>12}",
        "suite",
        "pos",
        "solved",
        "now",
        "gained",
        "lost",
        "moves diff",
        "nodes ref",
        "nodes now",
        "ratio",
        "nodes diff"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<16} {:>5} {:>7} {:>7} {:>6} {:>5} {:>11} {:>13} {:>13} {:>7.3} {:>12}",
            r.name,
            r.positions,
            r.solved_reference,
            r.solved_candidate,
            r.gained.len(),
            r.lost.len(),
            r.best_move_changes.len(),
            r.nodes_reference,
            r.nodes_candidate,
            r.nodes_candidate as f64 / r.nodes_reference.max(1) as f64,
            r.node_changes
        );
    }
    for r in rows {
        let lists = [
            ("gained", &r.gained),
            ("lost", &r.lost),
            ("best move changed", &r.best_move_changes),
            ("largest node changes", &r.largest_node_changes),
        ];
        for (what, list) in lists {
            if !list.is_empty() {
                let _ = writeln!(s, "{} {what}: {}", r.name, list.join("; "));
            }
        }
    }
    let identical = rows.iter().all(|r| r.best_move_changes.is_empty() && r.node_changes == 0)
        && reference.suites.iter().zip(&candidate.suites).all(|(a, b)| {
            a.positions.iter().zip(&b.positions).all(|(x, y)| x.score == y.score && x.solved == y.solved)
        });
    if identical {
        s.push_str("identical to the reference: every best move, score and node count\n");
    }
    let regressed: Vec<&str> = rows.iter().filter(|r| r.regressed()).map(|r| r.name.as_str()).collect();
    if regressed.is_empty() {
        s.push_str("no solve-count regression\n");
    } else {
        let _ = writeln!(s, "REGRESSION: fewer positions solved in {}", regressed.join(", "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(id: &str, best: &str, nodes: u64, solved: bool) -> PositionResult {
        PositionResult {
            id: id.into(),
            fen: format!("fen of {id}"),
            best_move: best.into(),
            best_move_san: best.to_uppercase(),
            score: Some(EngineScore::Cp(10)),
            depth: Some(10),
            nodes: Some(nodes),
            solved,
            ms: 1.0,
        }
    }

    fn run(positions: Vec<PositionResult>) -> ReferenceRun {
        ReferenceRun {
            schema: SCHEMA.into(),
            date: "d".into(),
            git_commit: None,
            engine: EngineUsed { command: vec!["e".into()], options: vec![], id_name: None },
            depth: 10,
            seconds: 1.0,
            suites: vec![SuiteResult {
                name: "s".into(),
                file: "s.epd".into(),
                file_hash: "0".into(),
                solved: positions.iter().filter(|p| p.solved).count(),
                positions,
            }],
        }
    }

    #[test]
    fn gains_losses_moves_and_nodes() {
        let a = run(vec![pos("p1", "e2e4", 100, true), pos("p2", "d2d4", 200, false), pos("p3", "g1f3", 300, true)]);
        let b = run(vec![pos("p1", "e2e4", 100, true), pos("p2", "c2c4", 100, true), pos("p3", "b1c3", 600, false)]);
        let rows = compare(&a, &b).unwrap();
        let r = &rows[0];
        assert_eq!((r.solved_reference, r.solved_candidate, r.regressed()), (2, 2, false));
        assert_eq!(r.gained, ["p2 (C2C4)"]);
        assert_eq!(r.lost, ["p3 (G1F3 -> B1C3)"]);
        assert_eq!(r.best_move_changes, ["p2: D2D4 -> C2C4", "p3: G1F3 -> B1C3"]);
        assert_eq!((r.nodes_reference, r.nodes_candidate, r.node_changes), (600, 800, 2));
        assert_eq!(r.largest_node_changes, ["p2: 200 -> 100 (0.50x)", "p3: 300 -> 600 (2.00x)"]);
        let text = comparison_text(&a, &b, &rows);
        assert!(text.contains("no solve-count regression") && !text.contains("identical"), "{text}");
        // Losing one more is a regression; the same run is identical.
        let c = run(vec![pos("p1", "a2a3", 100, false), pos("p2", "d2d4", 200, false), pos("p3", "g1f3", 300, true)]);
        let rows = compare(&a, &c).unwrap();
        assert!(rows[0].regressed());
        assert!(comparison_text(&a, &c, &rows).contains("REGRESSION: fewer positions solved in s"));
        let rows = compare(&a, &a).unwrap();
        assert!(comparison_text(&a, &a, &rows).contains("identical to the reference"));
        // Other positions cannot be compared.
        let d = run(vec![pos("q1", "e2e4", 100, true)]);
        assert!(compare(&a, &d).unwrap_err().contains("other positions"));
    }

    #[test]
    fn a_saved_reference_is_not_overwritten_silently() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("head.json");
        let a = run(vec![pos("p1", "e2e4", 100, true)]);
        write_run(&path, &a, false).unwrap();
        assert_eq!(read_run(&path).unwrap(), a);
        assert!(write_run(&path, &a, false).unwrap_err().contains("exists (a saved reference); pass --force"));
        write_run(&path, &a, true).unwrap();
        std::fs::write(&path, "{}").unwrap();
        assert!(read_run(&path).unwrap_err().contains("not a reference file"));
    }

    #[test]
    fn fnv_is_the_published_function() {
        // FNV-1a 64 test vectors: "" and "a".
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
