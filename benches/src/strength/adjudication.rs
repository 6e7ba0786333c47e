//! Ending a decided game early: a win is adjudicated when both engines'
//! scores have been beyond a margin, for the same side, for their last K
//! moves each (`--adjudicate CP,K`); scores are what each engine reported
//! for the move it played, turned to White's view, mate scores counting as
//! beyond any margin. A move without a score breaks the streak.

use super::uci_engine::EngineScore;
use engine::Color;

/// The rule's settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WinAdjudication {
    /// Centipawns, > 0.
    pub margin_cp: i32,
    /// Consecutive moves of each engine, > 0.
    pub moves: u32,
}

impl WinAdjudication {
    /// Parse `CP,K`.
    pub fn parse(text: &str) -> Result<WinAdjudication, String> {
        let bad = || format!("--adjudicate {text:?}: expected CP,MOVES (two whole numbers above 0, e.g. 1000,5)");
        let (cp, moves) = text.split_once(',').ok_or_else(bad)?;
        let margin_cp = cp.trim().parse::<i32>().ok().filter(|&v| v > 0).ok_or_else(bad)?;
        let moves = moves.trim().parse::<u32>().ok().filter(|&v| v > 0 && v <= 1000).ok_or_else(bad)?;
        Ok(WinAdjudication { margin_cp, moves })
    }

    /// The winner, if the last `2 * moves` scores (White's view, the
    /// latest last; `None` for a move without a score) all favour one side
    /// by the margin.
    pub fn winner(&self, white_view: &[Option<i64>]) -> Option<Color> {
        let need = 2 * self.moves as usize;
        if white_view.len() < need {
            return None;
        }
        let recent = &white_view[white_view.len() - need..];
        let margin = i64::from(self.margin_cp);
        if recent.iter().all(|s| s.is_some_and(|v| v >= margin)) {
            Some(Color::White)
        } else if recent.iter().all(|s| s.is_some_and(|v| v <= -margin)) {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// A score from the mover's view as centipawns from White's, mates as
/// +-1,000,000.
pub fn white_view(score: EngineScore, mover: Color) -> i64 {
    let own = match score {
        EngineScore::Cp(cp) => i64::from(cp),
        EngineScore::Mate(n) if n > 0 => 1_000_000,
        EngineScore::Mate(_) => -1_000_000,
    };
    if mover == Color::White {
        own
    } else {
        -own
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_engines_must_agree_for_k_moves() {
        let rule = WinAdjudication::parse("500,2").unwrap();
        // White's engine says +600, Black's says -700 from its side: +700.
        let w = |cp| Some(white_view(EngineScore::Cp(cp), Color::White));
        let b = |cp| Some(white_view(EngineScore::Cp(cp), Color::Black));
        assert_eq!(rule.winner(&[w(600), b(-700), w(650)]), None, "three plies are not two moves each");
        assert_eq!(rule.winner(&[w(600), b(-700), w(650), b(-520)]), Some(Color::White));
        // One engine below the margin: no verdict.
        assert_eq!(rule.winner(&[w(600), b(-400), w(650), b(-520)]), None);
        // A move without a score breaks the streak.
        assert_eq!(rule.winner(&[w(600), None, w(650), b(-520)]), None);
        // Black winning, with a mate score.
        let m = Some(white_view(EngineScore::Mate(3), Color::Black));
        assert_eq!(rule.winner(&[w(10), w(-900), b(800), w(-600), m]), Some(Color::Black));
    }

    #[test]
    fn settings_are_checked() {
        assert_eq!(WinAdjudication::parse("1000,5").unwrap(), WinAdjudication { margin_cp: 1000, moves: 5 });
        for bad in ["1000", "0,5", "1000,0", "x,5", "-5,3"] {
            assert!(WinAdjudication::parse(bad).unwrap_err().contains("expected CP,MOVES"), "{bad}");
        }
    }
}
