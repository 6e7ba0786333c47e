//! `MaterialEval`: a small, honest evaluation for exercising the search —
//! material, a bishop pair bonus and piece-square tables tapered between
//! middlegame and endgame, with a lazy exit on material alone.
//!
//! It is not the project's evaluation ([`Evaluation`](super::Evaluation),
//! which the engine profiles use). It exists for search tests: with it, two
//! profiles that differ only in move generation, SEE and defect counting
//! must still search identical trees, whatever the evaluation does. The
//! piece-square tables are generated from simple geometric rules
//! (centralisation, advancement), not copied from any engine.

use crate::bitboard::Bitboard;
use crate::eval::{EvalStats, Evaluator};
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// How far the piece-square and pair terms can move the score away from the
/// material balance before the lazy exit becomes unsafe (their sum stays
/// well inside this on real positions).
pub const LAZY_MARGIN: i32 = 250;

const BISHOP_PAIR: i32 = 30;

/// Middlegame weight of each piece type in the game phase (24 at the start).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Distance ring of a square from the centre: 0 for d4/e4/d5/e5 up to 3 on
/// the rim.
const fn ring(sq: usize) -> i32 {
    let file = (sq % 8) as i32;
    let row = (sq / 8) as i32;
    let df = (2 * file - 7).abs();
    let dr = (2 * row - 7).abs();
    let d = if df > dr { df } else { dr };
    (d - 1) / 2
}

/// Piece-square value for White's piece of `kind` on 64-index `sq` (row 0 =
/// rank 8), middlegame (`eg = false`) or endgame.
const fn square_value(kind: usize, sq: usize, eg: bool) -> i32 {
    let file = (sq % 8) as i32;
    let rank = 7 - (sq / 8) as i32; // 0 = rank 1
    let r = ring(sq);
    match kind {
        0 => {
            if rank == 0 || rank == 7 {
                0
            } else if eg {
                (rank - 1) * (rank - 1) * 4
            } else {
                let central = if (file == 3 || file == 4) && rank >= 3 { 10 } else { 0 };
                (rank - 1) * 3 + central
            }
        }
        1 => 12 - 8 * r,
        2 => 8 - 5 * r,
        3 => {
            if eg {
                0
            } else if rank == 6 {
                15
            } else if file == 3 || file == 4 {
                4
            } else {
                0
            }
        }
        4 => 4 - 3 * r,
        _ => {
            if eg {
                12 - 10 * r
            } else if rank == 0 && (file <= 2 || file >= 6) {
                12
            } else {
                -8 * rank
            }
        }
    }
}

const fn build_tables(eg: bool) -> [[i32; 64]; 6] {
    let mut t = [[0; 64]; 6];
    let mut kind = 0;
    while kind < 6 {
        let mut sq = 0;
        while sq < 64 {
            t[kind][sq] = square_value(kind, sq, eg);
            sq += 1;
        }
        kind += 1;
    }
    t
}

static PST_MG: [[i32; 64]; 6] = build_tables(false);
static PST_EG: [[i32; 64]; 6] = build_tables(true);

/// Material + piece-square tables with a lazy exit (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct MaterialEval {
    stats: EvalStats,
}

impl MaterialEval {
    /// Material balance from White's point of view.
    #[inline]
    fn material(pos: &Position) -> i32 {
        let mut score = 0;
        for kind in [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
            let diff = pos.count(Color::White, kind) as i32 - pos.count(Color::Black, kind) as i32;
            score += diff * kind.value();
        }
        for color in Color::ALL {
            if pos.count(color, PieceType::Bishop) >= 2 {
                score += color.sign() * BISHOP_PAIR;
            }
        }
        score
    }

    /// Tapered piece-square sum from White's point of view.
    #[inline]
    fn squares(pos: &Position) -> i32 {
        let (mut mg, mut eg, mut phase) = (0, 0, 0);
        for color in Color::ALL {
            let sign = color.sign();
            for kind in PieceType::ALL {
                let bb: Bitboard = pos.bb(color, kind);
                phase += PHASE_WEIGHT[kind.index()] * bb.count() as i32;
                for sq in bb {
                    let i = match color {
                        Color::White => sq.index(),
                        Color::Black => Square::flip_rank(sq).index(),
                    };
                    mg += sign * PST_MG[kind.index()][i];
                    eg += sign * PST_EG[kind.index()][i];
                }
            }
        }
        let phase = phase.min(MAX_PHASE);
        (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl Evaluator for MaterialEval {
    #[inline]
    fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32 {
        let sign = pos.side_to_move().sign();
        let material = sign * Self::material(pos);
        if material + LAZY_MARGIN <= alpha {
            self.stats.lazy += 1;
            return material + LAZY_MARGIN;
        }
        if material - LAZY_MARGIN >= beta {
            self.stats.lazy += 1;
            return material - LAZY_MARGIN;
        }
        self.stats.full += 1;
        material + sign * Self::squares(pos)
    }

    fn clear(&mut self) {}

    fn stats(&self) -> EvalStats {
        self.stats
    }

    fn en_prise(&self) -> Bitboard {
        Bitboard::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIDE: (i32, i32) = (-100_000, 100_000);

    fn eval(fen: &str) -> i32 {
        let mut pos = Position::from_fen(fen).unwrap();
        MaterialEval::default().evaluate(&mut pos, WIDE.0, WIDE.1)
    }

    #[test]
    fn start_position_is_level_and_colours_are_symmetric() {
        assert_eq!(eval(crate::position::START_FEN), 0);
        // The same position with colours and side to move swapped.
        let a = eval("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = eval("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(a, b);
    }

    #[test]
    fn material_dominates_and_is_side_relative() {
        let white_up_rook = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        let black_to_move = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1";
        assert!(eval(white_up_rook) > 400);
        assert!(eval(black_to_move) < -400);
        // A centralised knight beats one on the rim.
        assert!(eval("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/N7/8/8/4K3 w - - 0 1"));
        // Passed pawns gain value as they advance in the endgame.
        assert!(eval("4k3/P7/8/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/P7/8/4K3 w - - 0 1"));
    }

    #[test]
    fn lazy_exit_only_outside_the_window() {
        let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap();
        let mut e = MaterialEval::default();
        let full = e.evaluate(&mut pos, WIDE.0, WIDE.1);
        assert_eq!(e.stats(), EvalStats { lazy: 0, hash_hits: 0, full: 1 });
        // Far above beta: a lazy exit with a score that still fails high.
        let lazy = e.evaluate(&mut pos, -10, 10);
        assert!(lazy >= 10);
        assert_eq!(e.stats().lazy, 1);
        // A window around the true score forces the full evaluation.
        assert_eq!(e.evaluate(&mut pos, full - 1, full + 1), full);
        assert_eq!(e.stats().full, 2);
        assert!(e.en_prise().is_empty());
    }
}
