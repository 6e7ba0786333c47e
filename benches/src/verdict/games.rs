//! Matches played for a verdict: one `boardbench match` between two
//! configurations of a UCI engine, run in-process, and what a verdict
//! reads back from its report (the games, the score with its interval,
//! LOWER95, the SPRT's decision).

use crate::strength::game::TimeControl;
use crate::strength::match_run::{run_match, Limits, MatchPlan};
use crate::strength::openings::Book;
use crate::strength::sprt::Sprt;
use crate::strength::uci_engine::{EngineSpec, Timeouts};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How the games are limited.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Budget {
    Clock(TimeControl),
    /// Nodes per move for both, with the budget jittered by up to this fraction.
    Nodes(u64, f64),
}

impl Budget {
    /// For people: `1+0.01` or `10000 nodes (jitter 0.1)`.
    pub fn describe(&self) -> String {
        match self {
            Budget::Clock(tc) => tc.pgn(),
            Budget::Nodes(n, j) => format!("{n} nodes per move (jitter {j})"),
        }
    }
}

/// A match to play.
pub struct Match {
    /// Engine A, the candidate, and engine B, the reference.
    pub engines: [EngineSpec; 2],
    pub names: [String; 2],
    pub budget: Budget,
    pub games: u64,
    pub sprt: Sprt,
    pub openings: PathBuf,
    pub seed: u64,
    pub core: usize,
    pub out_dir: PathBuf,
    pub quiet: bool,
}

/// What a verdict reads of a played match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// A's score and its 95% interval; `None` before the first whole pair.
    pub score: Option<f64>,
    pub interval: Option<[f64; 2]>,
    pub lower95: Option<f64>,
    /// `accept_h1`, `accept_h0` or `continue`.
    pub sprt: String,
    pub llr: f64,
    /// Why it stopped.
    pub stopped: String,
    pub seconds: f64,
    /// The match's folder (match.json, games.pgn).
    pub folder: String,
}

impl Played {
    /// One line: games, W/D/L, score `[interval]`, LOWER95, SPRT.
    pub fn summary(&self) -> String {
        let score = match (self.score, self.interval) {
            (Some(s), Some([lo, hi])) => format!("score {s:.3} [{lo:.3}, {hi:.3}], LOWER95 {lo:.4}"),
            _ => "no complete pair".to_string(),
        };
        let sprt = match self.sprt.as_str() {
            "accept_h1" => "SPRT H1 accepted",
            "accept_h0" => "SPRT H0 accepted",
            _ => "SPRT inconclusive",
        };
        format!(
            "{} games +{} ={} -{}: {score}; {sprt} (LLR {:.2}, stopped: {}); {:.0} s",
            self.games, self.wins, self.draws, self.losses, self.llr, self.stopped, self.seconds
        )
    }
}

/// Read the figures a verdict needs from a match report.
pub fn read_played(folder: &Path) -> Result<Played, String> {
    let path = folder.join("match.json");
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("{}: not a match report: {e}", path.display()))?;
    let count = |k: &str| v["tally"][k].as_u64().unwrap_or(0);
    let interval =
        v["estimate"]["score_interval"].as_array().and_then(|a| Some([a.first()?.as_f64()?, a.get(1)?.as_f64()?]));
    Ok(Played {
        games: v["games"].as_array().map_or(0, |g| g.len() as u64),
        wins: count("wins"),
        draws: count("draws"),
        losses: count("losses"),
        score: v["estimate"]["score"].as_f64(),
        interval,
        lower95: v["lower95"].as_f64(),
        sprt: v["sprt"]["verdict"].as_str().unwrap_or("continue").to_string(),
        llr: v["sprt"]["llr"].as_f64().unwrap_or(0.0),
        stopped: v["stopped"].as_str().unwrap_or("").to_string(),
        seconds: v["seconds"].as_f64().unwrap_or(0.0),
        folder: folder.display().to_string(),
    })
}

/// Play `m` and read its report back.
pub fn play(m: &Match) -> Result<Played, String> {
    let limits = match m.budget {
        Budget::Clock(tc) => Limits::Clock(tc),
        Budget::Nodes(n, jitter) => Limits::Nodes { a: n, b: n, jitter },
    };
    let plan = MatchPlan {
        engines: m.engines.clone(),
        names: [Some(m.names[0].clone()), Some(m.names[1].clone())],
        limits,
        time_margin: Duration::from_millis(50),
        move_timeout: Duration::from_secs(30),
        adjudication: None,
        max_moves: None,
        book: Book::load(&m.openings)?,
        seed: m.seed,
        core: Some(m.core),
        max_games: m.games,
        sprt: m.sprt,
        out_dir: m.out_dir.clone(),
        timeouts: Timeouts::default(),
        quiet: m.quiet,
    };
    run_match(&plan)?;
    read_played(&m.out_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_read_back_and_summarised() {
        let dir = tempfile::tempdir().unwrap();
        let report = serde_json::json!({
            "tally": {"wins": 5, "draws": 2, "losses": 1, "pentanomial": [0, 0, 1, 1, 2]},
            "estimate": {"pairs": 4, "score": 0.75, "score_interval": [0.6, 0.9]},
            "lower95": 0.6,
            "sprt": {"verdict": "accept_h1", "llr": 3.1},
            "stopped": "SPRT: H1 accepted",
            "seconds": 12.5,
            "games": [{}, {}, {}, {}, {}, {}, {}, {}],
        });
        std::fs::write(dir.path().join("match.json"), report.to_string()).unwrap();
        let p = read_played(dir.path()).unwrap();
        assert_eq!((p.games, p.wins, p.draws, p.losses), (8, 5, 2, 1));
        assert_eq!((p.score, p.interval, p.lower95), (Some(0.75), Some([0.6, 0.9]), Some(0.6)));
        assert_eq!(
            p.summary(),
            "8 games +5 =2 -1: score 0.750 [0.600, 0.900], LOWER95 0.6000; SPRT H1 accepted (LLR 3.10, stopped: \
             SPRT: H1 accepted); 12 s"
        );
        assert!(read_played(&dir.path().join("none")).unwrap_err().contains("cannot read"));
    }
}
