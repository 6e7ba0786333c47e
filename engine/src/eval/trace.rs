//! Per-term breakdown of one evaluation, for `engine eval` and for the
//! exact-score comparison of `engine evaldiff`. The engine's own evals use
//! [`NoTrace`], whose methods compile to nothing.

use super::king::KingInputs;
use super::mobility::PieceMobility;
use crate::bitboard::Bitboard;
use crate::types::{Color, PieceType, Square};
use serde::Serialize;

/// Every scored term, per side, in evaluation order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    Material,
    Pawns,
    DoubledPawns,
    PasserRace,
    BadTrades,
    BishopPair,
    LoneBishop,
    Knights,
    KnightMobility,
    Bishops,
    BishopMobility,
    BishopBestRay,
    Rooks,
    RookMobility,
    RookBestRay,
    RookConnected,
    RookTrapped,
    Queens,
    QueenMobility,
    QueenKingRing,
    KingSafety,
    KingUncastled,
    KingEndgame,
    Passers,
}

impl Term {
    pub const ALL: [Term; 24] = [
        Term::Material,
        Term::Pawns,
        Term::DoubledPawns,
        Term::PasserRace,
        Term::BadTrades,
        Term::BishopPair,
        Term::LoneBishop,
        Term::Knights,
        Term::KnightMobility,
        Term::Bishops,
        Term::BishopMobility,
        Term::BishopBestRay,
        Term::Rooks,
        Term::RookMobility,
        Term::RookBestRay,
        Term::RookConnected,
        Term::RookTrapped,
        Term::Queens,
        Term::QueenMobility,
        Term::QueenKingRing,
        Term::KingSafety,
        Term::KingUncastled,
        Term::KingEndgame,
        Term::Passers,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Pawns => "pawns",
            Term::DoubledPawns => "doubled_pawns",
            Term::PasserRace => "passer_race",
            Term::BadTrades => "bad_trades",
            Term::BishopPair => "bishop_pair",
            Term::LoneBishop => "lone_bishop",
            Term::Knights => "knights",
            Term::KnightMobility => "knight_mobility",
            Term::Bishops => "bishops",
            Term::BishopMobility => "bishop_mobility",
            Term::BishopBestRay => "bishop_best_ray",
            Term::Rooks => "rooks",
            Term::RookMobility => "rook_mobility",
            Term::RookBestRay => "rook_best_ray",
            Term::RookConnected => "rook_connected",
            Term::RookTrapped => "rook_trapped",
            Term::Queens => "queens",
            Term::QueenMobility => "queen_mobility",
            Term::QueenKingRing => "queen_king_ring",
            Term::KingSafety => "king_safety",
            Term::KingUncastled => "king_uncastled",
            Term::KingEndgame => "king_endgame",
            Term::Passers => "passers",
        }
    }

    /// The piece type whose mobility routine feeds this term, if any.
    pub fn mobility_piece(self) -> Option<PieceType> {
        match self {
            Term::KnightMobility => Some(PieceType::Knight),
            Term::BishopMobility | Term::BishopBestRay => Some(PieceType::Bishop),
            Term::RookMobility | Term::RookBestRay | Term::RookConnected | Term::RookTrapped => Some(PieceType::Rook),
            Term::QueenMobility | Term::QueenKingRing => Some(PieceType::Queen),
            _ => None,
        }
    }
}

/// One piece's mobility report.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceTrace {
    pub color: Color,
    pub kind: PieceType,
    pub square: Square,
    pub mobility: PieceMobility,
}

/// Receives the pieces of an evaluation as it runs.
pub trait Tracer {
    /// False for [`NoTrace`]: the evaluation then skips trace-only work.
    const ON: bool;
    fn term(&mut self, term: Term, color: Color, value: i32);
    fn piece(&mut self, piece: PieceTrace);
    fn king(&mut self, color: Color, inputs: KingInputs);
    fn scale(&mut self, delta: i32);
}

/// The engine's tracer: records nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn term(&mut self, _: Term, _: Color, _: i32) {}
    #[inline(always)]
    fn piece(&mut self, _: PieceTrace) {}
    #[inline(always)]
    fn king(&mut self, _: Color, _: KingInputs) {}
    #[inline(always)]
    fn scale(&mut self, _: i32) {}
}

/// A full breakdown of one evaluation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// `terms[t][c]`: term `t` for colour `c` (good for that colour).
    pub terms: [[i32; 2]; 24],
    /// Change made by the drawish-material scaling (White's view).
    pub scale_delta: i32,
    pub pieces: Vec<PieceTrace>,
    pub king: [KingInputs; 2],
    pub en_prise: [Bitboard; 2],
    pub trapped: [Bitboard; 2],
    /// Final score, White's view and the side to move's.
    pub white: i32,
    pub side_to_move: i32,
}

impl Trace {
    pub fn term(&self, term: Term, color: Color) -> i32 {
        self.terms[term as usize][color.index()]
    }

    /// The mobility report of the piece on `square`.
    pub fn piece_at(&self, square: Square) -> Option<&PieceTrace> {
        self.pieces.iter().find(|p| p.square == square)
    }
}

impl Tracer for Trace {
    const ON: bool = true;
    fn term(&mut self, term: Term, color: Color, value: i32) {
        self.terms[term as usize][color.index()] += value;
    }
    fn piece(&mut self, piece: PieceTrace) {
        self.pieces.push(piece);
    }
    fn king(&mut self, color: Color, inputs: KingInputs) {
        self.king[color.index()] = inputs;
    }
    fn scale(&mut self, delta: i32) {
        self.scale_delta = delta;
    }
}
