//! One game between two running UCI engines from an opening position: the
//! engines are asked for moves in turn (`position fen ... moves ...`, then
//! `go` with the clocks or a node budget), every move is checked against
//! the legal moves, and the game ends by the rules ([`super::rules`]), on a
//! flag, by adjudication, by the move limit, or by a forfeit.
//!
//! Clocks are kept here, not trusted to the engines: a move's time runs
//! from sending `go` to reading `bestmove`, and the increment is added
//! after the move (Fischer). An engine whose move took longer than its
//! clock plus the grace margin loses on time (a draw if the other side has
//! no mating material). With a node budget there is no clock; a move that
//! takes longer than the move timeout is a hang. A crash, a hang or an
//! illegal move loses the game for the engine that made it, and the record
//! keeps that engine's last lines of output.

use super::adjudication::{white_view, WinAdjudication};
use super::openings::Opening;
use super::rules::{has_mating_material, GameState, RuleEnding};
use super::uci_engine::{Answer, EngineScore, Fault, UciEngine};
use engine::movegen::legal_moves;
use engine::rng::Rng;
use engine::tools::san::to_san;
use engine::Color;
use serde::Serialize;
use std::time::{Duration, Instant};

/// Base time and increment, in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
}

impl TimeControl {
    /// Parse `BASE+INC` in seconds (`1+0.01`, `10`, `0.5+0`).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = |why: &str| format!("--tc {text:?}: {why} (expected BASE+INC in seconds, e.g. 2+0.02)");
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let ms = |s: &str| -> Result<u64, String> {
            let v: f64 = s.trim().parse().map_err(|_| bad(&format!("{s:?} is not a number")))?;
            if !(0.0..=86_400.0).contains(&v) {
                return Err(bad(&format!("{s} is not between 0 and 86400 seconds")));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let tc = TimeControl { base_ms: ms(base)?, increment_ms: ms(inc)? };
        if tc.base_ms == 0 {
            return Err(bad("the base time must be at least 1 ms"));
        }
        Ok(tc)
    }

    /// PGN's `TimeControl` tag: seconds, `base+inc`.
    pub fn pgn(&self) -> String {
        let s = |ms: u64| {
            let text = format!("{:.3}", ms as f64 / 1000.0);
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        format!("{}+{}", s(self.base_ms), s(self.increment_ms))
    }
}

/// What limits each move.
#[derive(Clone, Debug, PartialEq)]
pub enum Budget {
    Clock(TimeControl),
    /// Nodes per move for White and Black; each move's budget is drawn
    /// uniformly within `jitter` (a fraction) of it, from the game's seed.
    Nodes {
        nodes: [u64; 2],
        jitter: f64,
    },
}

/// Settings shared by every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub budget: Budget,
    /// How far past its clock a move may end before it loses on time.
    pub time_margin: Duration,
    /// With a node budget: the longest a move may take.
    pub move_timeout: Duration,
    pub adjudication: Option<WinAdjudication>,
    /// Drawn after this many moves of each side from the opening.
    pub max_moves: Option<u32>,
}

/// One move as played.
#[derive(Clone, Debug, Serialize)]
pub struct MoveRecord {
    pub uci: String,
    pub san: String,
    /// As the mover reported it (its own view).
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// From `go` to `bestmove`.
    pub ms: f64,
    /// The mover's clock after the move (and its increment).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(side: Color) -> GameResult {
        match side {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Why the game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    Checkmate,
    Stalemate,
    ThreefoldRepetition,
    FiftyMoves,
    InsufficientMaterial,
    MoveLimit,
    Adjudication,
    TimeForfeit,
    Hang,
    Crash,
    IllegalMove,
}

impl Ending {
    fn of_rule(rule: RuleEnding) -> Ending {
        match rule {
            RuleEnding::Checkmate => Ending::Checkmate,
            RuleEnding::Stalemate => Ending::Stalemate,
            RuleEnding::ThreefoldRepetition => Ending::ThreefoldRepetition,
            RuleEnding::FiftyMoves => Ending::FiftyMoves,
            RuleEnding::InsufficientMaterial => Ending::InsufficientMaterial,
        }
    }

    /// PGN's `Termination` tag.
    pub fn pgn_termination(self) -> &'static str {
        match self {
            Ending::Checkmate
            | Ending::Stalemate
            | Ending::ThreefoldRepetition
            | Ending::FiftyMoves
            | Ending::InsufficientMaterial => "normal",
            Ending::MoveLimit | Ending::Adjudication => "adjudication",
            Ending::TimeForfeit => "time forfeit",
            Ending::Hang | Ending::Crash => "abandoned",
            Ending::IllegalMove => "rules infraction",
        }
    }
}

/// The engine that lost by a fault, and what it said last.
#[derive(Clone, Debug, Serialize)]
pub struct Forfeit {
    /// "white" or "black".
    pub side: &'static str,
    pub last_output: Vec<String>,
}

/// A finished game.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    pub opening_line: usize,
    pub opening_fen: String,
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    pub ending: Ending,
    /// The ending in words, with the figures behind it.
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Forfeit>,
    pub final_fen: String,
    pub seconds: f64,
    /// The engine that crashed or hung and must be started again.
    #[serde(skip)]
    pub needs_restart: Option<Color>,
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn capitalised(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A uniform draw in [0, 1) from `rng`.
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// How a game stands while it is played.
struct Play<'a> {
    opening: &'a Opening,
    state: GameState,
    moves: Vec<MoveRecord>,
    white_view: Vec<Option<i64>>,
    started: Instant,
}

impl Play<'_> {
    fn finish(
        self,
        result: GameResult,
        ending: Ending,
        detail: String,
        forfeit: Option<(Color, &UciEngine)>,
        needs_restart: Option<Color>,
    ) -> GameRecord {
        GameRecord {
            opening_line: self.opening.line,
            opening_fen: self.opening.fen.clone(),
            moves: self.moves,
            result,
            ending,
            detail,
            forfeit: forfeit.map(|(side, e)| Forfeit { side: side_name(side), last_output: e.last_output() }),
            final_fen: self.state.position.to_fen(),
            seconds: self.started.elapsed().as_secs_f64(),
            needs_restart,
        }
    }

    fn position_command(&self) -> String {
        let mut s = format!("position fen {}", self.opening.fen);
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push(' ');
                s.push_str(&m.uci);
            }
        }
        s
    }
}

/// Play one game from `opening`: `white` has the white pieces, `black` the
/// black ones (either may be the first to move). `rng` draws the node
/// budgets when they are jittered.
pub fn play_game(
    white: &mut UciEngine,
    black: &mut UciEngine,
    opening: &Opening,
    settings: &GameSettings,
    rng: &mut Rng,
) -> GameRecord {
    let mut play = Play {
        opening,
        state: GameState::new(opening.position.clone()),
        moves: Vec::new(),
        white_view: Vec::new(),
        started: Instant::now(),
    };
    for (side, engine) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if let Err(fault) = engine.new_game() {
            return forfeit_by_fault(play, side, engine, &fault, "before the game (ucinewgame, isready)");
        }
    }
    let mut clock_ms: [i64; 2] = match &settings.budget {
        Budget::Clock(tc) => [tc.base_ms as i64; 2],
        Budget::Nodes { .. } => [0; 2],
    };
    loop {
        if let Some(rule) = play.state.ending() {
            let result = match rule {
                RuleEnding::Checkmate => GameResult::win_for(!play.state.position.side_to_move()),
                _ => GameResult::Draw,
            };
            return play.finish(result, Ending::of_rule(rule), rule.describe().to_string(), None, None);
        }
        // After the rules: a position drawn by them is drawn, whatever the scores.
        if let Some(rule) = &settings.adjudication {
            if let Some(winner) = rule.winner(&play.white_view) {
                let detail = format!(
                    "adjudicated: both engines scored {} ahead by at least {} cp for their last {} moves each",
                    capitalised(winner),
                    rule.margin_cp,
                    rule.moves
                );
                return play.finish(GameResult::win_for(winner), Ending::Adjudication, detail, None, None);
            }
        }
        if let Some(max) = settings.max_moves {
            if play.state.plies() >= 2 * max as usize {
                let detail = format!("move limit: drawn after {max} moves of each side");
                return play.finish(GameResult::Draw, Ending::MoveLimit, detail, None, None);
            }
        }
        let side = play.state.position.side_to_move();
        let engine: &mut UciEngine = if side == Color::White { &mut *white } else { &mut *black };
        let (go, allowed) = match &settings.budget {
            Budget::Clock(tc) => {
                let [w, b] = clock_ms.map(|t| t.max(0));
                let inc = tc.increment_ms;
                let own = clock_ms[side.index()].max(0) as u64;
                (
                    format!("go wtime {w} btime {b} winc {inc} binc {inc}"),
                    Duration::from_millis(own) + settings.time_margin,
                )
            }
            Budget::Nodes { nodes, jitter } => {
                let base = nodes[side.index()] as f64;
                let n = (base * (1.0 + jitter * (2.0 * unit(rng) - 1.0))).round().max(1.0) as u64;
                (format!("go nodes {n}"), settings.move_timeout)
            }
        };
        let answer: Answer = match engine.go(&play.position_command(), &go, allowed) {
            Ok(a) => a,
            Err(fault) => return forfeit_by_fault(play, side, engine, &fault, &format!("after {go:?}")),
        };
        let ms = answer.elapsed.as_secs_f64() * 1000.0;
        let mut clock_after = None;
        match &settings.budget {
            Budget::Clock(tc) => {
                let left = clock_ms[side.index()];
                if ms > left.max(0) as f64 + settings.time_margin.as_secs_f64() * 1000.0 {
                    let who = capitalised(side);
                    let late = format!(
                        "{who} lost on time: its move took {:.3} s with {:.3} s on its clock (grace {:.3} s){}",
                        ms / 1000.0,
                        left as f64 / 1000.0,
                        settings.time_margin.as_secs_f64(),
                        if answer.after_stop { ", answered only after stop" } else { "" }
                    );
                    if !has_mating_material(&play.state.position, !side) {
                        let detail = format!("{late}; {} cannot mate: draw", capitalised(!side));
                        return play.finish(GameResult::Draw, Ending::TimeForfeit, detail, None, None);
                    }
                    let result = GameResult::win_for(!side);
                    return play.finish(result, Ending::TimeForfeit, late, Some((side, engine)), None);
                }
                let left = (left - answer.elapsed.as_millis() as i64).max(0) + tc.increment_ms as i64;
                clock_ms[side.index()] = left;
                clock_after = Some(left as u64);
            }
            Budget::Nodes { .. } => {
                if answer.after_stop {
                    let detail = format!(
                        "{} hung: no bestmove within the move timeout of {:.3} s (answered {:.3} s after go, only after stop)",
                        capitalised(side),
                        settings.move_timeout.as_secs_f64(),
                        ms / 1000.0
                    );
                    let result = GameResult::win_for(!side);
                    return play.finish(result, Ending::Hang, detail, Some((side, engine)), None);
                }
            }
        }
        let text = answer.bestmove.to_ascii_lowercase();
        let Some(m) = legal_moves(&play.state.position).iter().copied().find(|m| m.uci().as_str() == text) else {
            let detail = format!(
                "{} played an illegal move: bestmove {:?} in {}",
                capitalised(side),
                answer.bestmove,
                play.state.position.to_fen()
            );
            return play.finish(GameResult::win_for(!side), Ending::IllegalMove, detail, Some((side, engine)), None);
        };
        let san = to_san(&play.state.position, m);
        play.state.play(m);
        play.white_view.push(answer.score.map(|s| white_view(s, side)));
        play.moves.push(MoveRecord {
            uci: text,
            san,
            score: answer.score,
            depth: answer.depth,
            nodes: answer.nodes,
            ms,
            clock_ms: clock_after,
        });
    }
}

/// The game lost by `side`'s engine for a crash or a hang.
fn forfeit_by_fault(play: Play, side: Color, engine: &UciEngine, fault: &Fault, when: &str) -> GameRecord {
    let ending = match fault {
        Fault::Crashed(_) => Ending::Crash,
        Fault::Hung(_) => Ending::Hang,
    };
    let detail = format!("{} {fault} {when}", capitalised(side));
    play.finish(GameResult::win_for(!side), ending, detail, Some((side, engine)), Some(side))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(TimeControl::parse("1+0.01").unwrap(), TimeControl { base_ms: 1000, increment_ms: 10 });
        assert_eq!(TimeControl::parse("10").unwrap(), TimeControl { base_ms: 10_000, increment_ms: 0 });
        assert_eq!(TimeControl::parse("2+0.02").unwrap().pgn(), "2+0.02");
        assert_eq!(TimeControl::parse("0.5+0").unwrap().pgn(), "0.5+0");
        assert!(TimeControl::parse("1+x").unwrap_err().contains("\"x\" is not a number"));
        assert!(TimeControl::parse("0+1").unwrap_err().contains("at least 1 ms"));
        assert!(TimeControl::parse("-1+0").unwrap_err().contains("not between 0 and 86400"));
    }
}
