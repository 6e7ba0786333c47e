//! Per-term breakdown of one evaluation, for `engine eval` and for the
//! exact-score comparison of `engine evaldiff`. The engine's own evals use
//! [`NoTrace`], whose methods compile to nothing.

pub use super::king::KingInputs;
use super::mobility::PieceMobility;
use crate::bitboard::Bitboard;
use crate::types::{Color, PieceType, Square};
use serde::Serialize;

/// Every scored term, per side, in evaluation order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    /// Material balance, from the material table.
    Material,
    /// Pawn structure and passers, from the pawn hash.
    Pawns,
    /// Doubled pawns, by the majors on the board.
    DoubledPawns,
    /// Passers racing a bare king.
    PasserRace,
    /// Trades that favour the side behind.
    BadTrades,
    /// The bishop pair.
    BishopPair,
    /// A lone bishop with pawns on both wings.
    LoneBishop,
    /// Knights: squares, outposts, tropism (not mobility).
    Knights,
    /// Knight mobility.
    KnightMobility,
    /// Bishops: squares, good and bad, outposts (not mobility).
    Bishops,
    /// Bishop mobility.
    BishopMobility,
    /// Bishop best single-ray mobility.
    BishopBestRay,
    /// Rooks: files, passers, the seventh (not mobility).
    Rooks,
    /// Rook mobility.
    RookMobility,
    /// Rook best single-ray mobility.
    RookBestRay,
    /// Connected rooks.
    RookConnected,
    /// A rook boxed in by its own king.
    RookTrapped,
    /// Queens: early development, tropism (not mobility).
    Queens,
    /// Queen mobility.
    QueenMobility,
    /// Queen walks next to the enemy king.
    QueenKingRing,
    /// King safety: the danger counter's penalty.
    KingSafety,
    /// An uncastled king with pieces on the board.
    KingUncastled,
    /// Endgame king: centralisation, escorts, pawn races.
    KingEndgame,
    /// Passers with full attack information.
    Passers,
}

impl Term {
    /// Every term, in evaluation order.
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

    /// The term's name in reports and JSON (snake case).
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
    /// The piece's colour.
    pub color: Color,
    /// Knight, bishop, rook or queen.
    pub kind: PieceType,
    /// Where it stands.
    pub square: Square,
    /// What its mobility routine reported.
    pub mobility: PieceMobility,
}

/// Receives the pieces of an evaluation as it runs.
pub trait Tracer {
    /// False for [`NoTrace`]: the evaluation then skips trace-only work.
    const ON: bool;
    /// `value` added to `term` for `color`.
    fn term(&mut self, term: Term, color: Color, value: i32);
    /// One piece's mobility report.
    fn piece(&mut self, piece: PieceTrace);
    /// The inputs of `color`'s king danger counter.
    fn king(&mut self, color: Color, inputs: KingInputs);
    /// The change the drawish-material scaling made (White's view).
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
    /// Every knight, bishop, rook and queen's mobility report.
    pub pieces: Vec<PieceTrace>,
    /// Each side's king danger inputs (default where the enemy army is too
    /// small for the counter).
    pub king: [KingInputs; 2],
    /// Each side's pieces attacked on squares the enemy controls.
    pub en_prise: [Bitboard; 2],
    /// Each side's zero-mobility pieces under enemy attack.
    pub trapped: [Bitboard; 2],
    /// Final score, White's view.
    pub white: i32,
    /// Final score, the side to move's view.
    pub side_to_move: i32,
}

impl Trace {
    /// Term `term` for `color` (good for that colour).
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
