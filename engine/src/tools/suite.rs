//! Test suites: EPD files whose positions carry `bm` (best move) and/or `am`
//! (avoid move) operations, such as WAC, ECM, BK and STS. A position is
//! solved when the search's move is one of the `bm` moves and none of the
//! `am` moves. STS positions also carry scored alternatives (`c8` points,
//! `c9` the same moves in UCI notation); when present, the points of the
//! move played are reported too.

use crate::moves::Move;
use crate::position::epd::{load_file, Epd, EpdFileError};
use crate::position::Position;
use crate::search::{nps, Limits, Profile, ProfileKind, Searcher};
use crate::tools::san::{parse_move, to_san, SanError};
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

/// Why a suite file could not be used.
#[derive(Debug, Error)]
pub enum SuiteError {
    /// The file could not be read as EPD.
    #[error("{0}")]
    File(#[from] EpdFileError),
    /// A `bm` or `am` move that is not a legal move of its position.
    #[error("{0}")]
    Move(Box<BadAnswer>),
    /// A position with neither `bm` nor `am`.
    #[error("{path}: {name}: neither a bm nor an am operation")]
    NoAnswer {
        /// The suite file.
        path: PathBuf,
        /// The position's `id` (or `#n`).
        name: String,
    },
    /// `c8` points that do not pair with the `c9` moves.
    #[error("{path}: {name}: c8 points {c8:?} do not pair with c9 moves {c9:?}")]
    Points {
        /// The suite file.
        path: PathBuf,
        /// The position's `id` (or `#n`).
        name: String,
        /// The `c8` text.
        c8: String,
        /// The `c9` text.
        c9: String,
    },
    /// A `c9` move that is not a legal move of its position.
    #[error("{path}: {name}: c9 move {text:?}: {source}")]
    PointsMove {
        /// The suite file.
        path: PathBuf,
        /// The position's `id` (or `#n`).
        name: String,
        /// The move as written.
        text: String,
        /// Why it is not a legal move.
        source: SanError,
    },
    /// A move that is both a `bm` and an `am` move.
    #[error("{path}: {name}: {mv} is both a bm and an am move; the position can never be solved")]
    Contradiction {
        /// The suite file.
        path: PathBuf,
        /// The position's `id` (or `#n`).
        name: String,
        /// The move.
        mv: String,
    },
}

/// A `bm` or `am` move that names no legal move.
#[derive(Debug, Error)]
#[error("{path}: {name}: {opcode} {text:?}: {source}")]
pub struct BadAnswer {
    /// The suite file.
    pub path: PathBuf,
    /// The position's `id` (or `#n`).
    pub name: String,
    /// `bm` or `am`.
    pub opcode: String,
    /// The move as written.
    pub text: String,
    /// Why it is not a legal move.
    pub source: SanError,
}

/// One suite position with its answers resolved to legal moves.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    /// The EPD `id`, or `#n` (1-based record number) without one.
    pub name: String,
    /// The position.
    pub position: Position,
    /// The `bm` moves: any of them solves it.
    pub best: Vec<Move>,
    /// The `am` moves: none of them may be played.
    pub avoid: Vec<Move>,
    /// Scored alternatives (STS): move and points.
    pub points: Vec<(Move, u32)>,
}

impl SuitePosition {
    /// Resolve the answers of one EPD record (`index` is 0-based).
    pub fn from_epd(epd: &Epd, index: usize, path: &Path) -> Result<SuitePosition, SuiteError> {
        let name = epd.id().map(str::to_string).unwrap_or_else(|| format!("#{}", index + 1));
        let pos = epd.position();
        let resolve = |opcode: &str, texts: &[String]| -> Result<Vec<Move>, SuiteError> {
            texts
                .iter()
                .map(|t| {
                    parse_move(pos, t).map_err(|source| {
                        SuiteError::Move(Box::new(BadAnswer {
                            path: path.to_path_buf(),
                            name: name.clone(),
                            opcode: opcode.to_string(),
                            text: t.clone(),
                            source,
                        }))
                    })
                })
                .collect()
        };
        let best = resolve("bm", epd.best_moves())?;
        let avoid = resolve("am", epd.avoid_moves())?;
        if best.is_empty() && avoid.is_empty() {
            return Err(SuiteError::NoAnswer { path: path.to_path_buf(), name });
        }
        if let Some(m) = best.iter().find(|m| avoid.contains(m)) {
            return Err(SuiteError::Contradiction { path: path.to_path_buf(), name, mv: m.uci().to_string() });
        }
        let mut points = Vec::new();
        if let (Some(c8), Some(c9)) = (epd.comment(8), epd.comment(9)) {
            let bad =
                || SuiteError::Points { path: path.to_path_buf(), name: name.clone(), c8: c8.clone(), c9: c9.clone() };
            let values: Vec<&str> = c8.split_whitespace().collect();
            let moves: Vec<&str> = c9.split_whitespace().collect();
            if values.len() != moves.len() {
                return Err(bad());
            }
            for (v, m) in values.iter().zip(&moves) {
                let v = v.parse::<u32>().map_err(|_| bad())?;
                let m = parse_move(pos, m).map_err(|source| SuiteError::PointsMove {
                    path: path.to_path_buf(),
                    name: name.clone(),
                    text: m.to_string(),
                    source,
                })?;
                points.push((m, v));
            }
        }
        Ok(SuitePosition { name, position: pos.clone(), best, avoid, points })
    }

    /// Does `m` solve this position?
    pub fn is_solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }

    /// Points `m` earns, if the position is scored.
    pub fn points_for(&self, m: Move) -> Option<u32> {
        if self.points.is_empty() {
            return None;
        }
        Some(self.points.iter().find(|(p, _)| *p == m).map_or(0, |(_, v)| *v))
    }

    /// The most points any move earns (0 when unscored).
    pub fn max_points(&self) -> u32 {
        self.points.iter().map(|(_, v)| *v).max().unwrap_or(0)
    }
}

/// Load a suite file.
pub fn load_suite(path: &Path) -> Result<Vec<SuitePosition>, SuiteError> {
    load_file(path)?.iter().enumerate().map(|(i, e)| SuitePosition::from_epd(e, i, path)).collect()
}

/// What the search played in one position.
#[derive(Clone, Debug)]
pub struct SuiteOutcome {
    /// The position's name, as in [`SuitePosition::name`].
    pub name: String,
    /// The move the search played.
    pub found: Move,
    /// That move in SAN.
    pub found_san: String,
    /// The `bm` moves in SAN.
    pub expected: Vec<String>,
    /// The `am` moves in SAN.
    pub avoided: Vec<String>,
    /// Was the position solved?
    pub solved: bool,
    /// Points of the move played (STS), if the position scores alternatives.
    pub points: Option<u32>,
    /// The search's score in centipawns (side to move).
    pub score: i32,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// A whole suite run.
#[derive(Clone, Debug)]
pub struct SuiteReport {
    /// The profile that searched.
    pub profile: &'static str,
    /// One outcome per position, in file order.
    pub outcomes: Vec<SuiteOutcome>,
}

impl SuiteReport {
    /// Positions solved.
    pub fn solved(&self) -> usize {
        self.outcomes.iter().filter(|o| o.solved).count()
    }

    /// Nodes over all positions.
    pub fn nodes(&self) -> u64 {
        self.outcomes.iter().map(|o| o.nodes).sum()
    }

    /// Time over all positions.
    pub fn elapsed(&self) -> Duration {
        self.outcomes.iter().map(|o| o.elapsed).sum()
    }

    /// Nodes per second over all positions.
    pub fn nps(&self) -> u64 {
        nps(self.nodes(), self.elapsed())
    }

    /// Points earned and available over the scored positions, if any.
    pub fn points(&self, positions: &[SuitePosition]) -> Option<(u32, u32)> {
        let scored: Vec<_> = self.outcomes.iter().zip(positions).filter(|(o, _)| o.points.is_some()).collect();
        if scored.is_empty() {
            return None;
        }
        Some((
            scored.iter().map(|(o, _)| o.points.unwrap_or(0)).sum(),
            scored.iter().map(|(_, p)| p.max_points()).sum(),
        ))
    }
}

/// Search every position within `limits` with profile `P`, the tables
/// cleared before each, calling `on_outcome` as each finishes.
pub fn run_suite<P: Profile>(
    positions: &[SuitePosition],
    limits: &Limits,
    hash_mb: usize,
    on_outcome: &mut dyn FnMut(&SuiteOutcome),
) -> SuiteReport {
    let mut searcher = Searcher::<P>::new(hash_mb);
    let mut outcomes = Vec::with_capacity(positions.len());
    for sp in positions {
        let mut pos = sp.position.clone();
        searcher.clear();
        let r = searcher.go(&mut pos, limits, &mut |_| {});
        let san = |m: Move| to_san(&sp.position, m);
        let outcome = SuiteOutcome {
            name: sp.name.clone(),
            found: r.best,
            found_san: if r.best.is_null() { "(none)".into() } else { san(r.best) },
            expected: sp.best.iter().map(|&m| san(m)).collect(),
            avoided: sp.avoid.iter().map(|&m| san(m)).collect(),
            solved: sp.is_solved_by(r.best),
            points: sp.points_for(r.best),
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            elapsed: r.elapsed,
        };
        on_outcome(&outcome);
        outcomes.push(outcome);
    }
    SuiteReport { profile: P::NAME, outcomes }
}

/// [`run_suite`] for a profile chosen at run time.
pub fn suite(
    kind: ProfileKind,
    positions: &[SuitePosition],
    limits: &Limits,
    hash_mb: usize,
    on_outcome: &mut dyn FnMut(&SuiteOutcome),
) -> SuiteReport {
    with_profile!(kind, P => run_suite::<P>(positions, limits, hash_mb, on_outcome))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_points_resolve() {
        let path = Path::new("test.epd");
        let sts = Epd::parse(
            r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2"; c7 "f5 Be5+ Bf2 Bg4"; c8 "10 2 3 2"; c9 "f4f5 d4e5 d4f2 f3g4";"#,
        )
        .unwrap();
        let sp = SuitePosition::from_epd(&sts, 0, path).unwrap();
        assert_eq!(sp.name, "STS(v1.0) Undermine.001");
        let f5 = sp.best[0];
        assert_eq!(f5.uci().as_str(), "f4f5");
        assert!(sp.is_solved_by(f5));
        assert_eq!(sp.points_for(f5), Some(10));
        let bf2 = sp.points[2].0;
        assert_eq!((bf2.uci().as_str(), sp.points_for(bf2)), ("d4f2", Some(3)));
        assert!(!sp.is_solved_by(bf2));
        assert_eq!(sp.max_points(), 10);

        let am = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - am Rh8+ Kf2;").unwrap();
        let sp = SuitePosition::from_epd(&am, 4, path).unwrap();
        assert_eq!(sp.name, "#5");
        assert!(!sp.is_solved_by(sp.avoid[0]) && !sp.is_solved_by(sp.avoid[1]));
        let other = crate::movegen::legal_moves(&sp.position).iter().copied().find(|m| !sp.avoid.contains(m)).unwrap();
        assert!(sp.is_solved_by(other));
        assert_eq!(sp.points_for(other), None);
    }

    #[test]
    fn bad_answers_are_named() {
        let path = Path::new("s.epd");
        let e = SuitePosition::from_epd(&Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - bm Rh9; id \"x\";").unwrap(), 0, path)
            .unwrap_err();
        assert!(e.to_string().contains("s.epd: x: bm \"Rh9\""), "{e}");
        let e =
            SuitePosition::from_epd(&Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - id \"y\";").unwrap(), 0, path).unwrap_err();
        assert!(matches!(e, SuiteError::NoAnswer { .. }), "{e}");
        let e = SuitePosition::from_epd(
            &Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+; c8 \"10 3\"; c9 \"h1h8\";").unwrap(),
            0,
            path,
        )
        .unwrap_err();
        assert!(matches!(e, SuiteError::Points { .. }), "{e}");
    }

    #[test]
    fn every_shipped_suite_answer_resolves() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../positions");
        for (file, count) in [("wac.epd", 300), ("ecm.epd", 879), ("bk.epd", 24), ("sts.epd", 1500)] {
            let suite = load_suite(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(suite.len(), count, "{file}");
            if file == "sts.epd" {
                assert!(suite.iter().all(|p| p.max_points() == 10), "every STS position has a 10-point move");
            }
        }
    }
}
