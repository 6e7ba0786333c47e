//! Seeded random legal positions for the equivalence sweeps, in two modes:
//!
//! * [`RandomMode::Placement`]: random material of each type per side
//!   (sparse, ordinary or dense, sometimes with promoted extras), kings at
//!   least two squares apart, no pawns on ranks 1 and 8, castling rights
//!   where king and rook stand at home, now and then an en-passant square
//!   behind a pawn that could just have double-pushed and can be taken.
//!   Drawn again until the side not to move is not in check.
//! * [`RandomMode::Playout`]: a real position from `positions/` (a fixed
//!   sample of `lichess_popular_20k.epd` and `endgames_20k.epd`, embedded at
//!   compile time so nothing is read at run time) followed by 0 to 40 random
//!   legal moves, half the time preferring captures so the material thins.
//!
//! Everything comes from [`Rng`] (SplitMix64) and the legal move list sorted
//! by its encoding, so the same seed gives the same positions on every
//! machine and with either slider implementation. Every position is built
//! through the FEN parser or make(), so it passes `Position::verify()`.

use crate::movegen::legal_moves;
use crate::position::Epd;
use crate::rng::Rng;
use crate::tables::distance;
use crate::types::{Color, Piece, PieceType, Square};
use crate::{Move, Position};
use std::sync::OnceLock;

/// How a random position is made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RandomMode {
    /// Random material placed on an empty board.
    Placement,
    /// Random legal moves from a real position.
    Playout,
}

impl RandomMode {
    /// The mode's name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            RandomMode::Placement => "placement",
            RandomMode::Playout => "playout",
        }
    }
}

static LICHESS: &str = include_str!("../../../positions/lichess_popular_20k.epd");
static ENDGAMES: &str = include_str!("../../../positions/endgames_20k.epd");

/// Every how many lines of each embedded file a playout start is taken.
const SAMPLE_EVERY: usize = 20;

/// Longest random playout, in plies.
const MAX_PLAYOUT: u64 = 40;

/// The embedded playout starts: every 20th line of the opening and the
/// endgame file (about 2,000 positions), parsed once.
pub fn playout_starts() -> &'static [Position] {
    static STARTS: OnceLock<Vec<Position>> = OnceLock::new();
    STARTS.get_or_init(|| {
        [LICHESS, ENDGAMES]
            .iter()
            .flat_map(|text| text.lines().step_by(SAMPLE_EVERY))
            .filter_map(|line| Epd::parse(line).ok().map(|e| e.position().clone()))
            .collect()
    })
}

/// The seed of position `index` in a run seeded with `seed`. Each position
/// gets its own disjoint stretch of the SplitMix64 sequence (2^20 draws), so
/// position `i` is the same whatever the run's length.
pub fn position_seed(seed: u64, index: usize) -> u64 {
    seed.wrapping_add(((index as u64) << 20).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// `n` random positions from `seed`: even indices by placement, odd ones by
/// playout from the embedded starts.
pub fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let starts = playout_starts();
    (0..n).map(|i| nth_random_position(seed, i, starts)).collect()
}

/// The mode of position `index` of a run: placement for even indices.
pub const fn mode_of(index: usize) -> RandomMode {
    if index % 2 == 0 {
        RandomMode::Placement
    } else {
        RandomMode::Playout
    }
}

/// Position `index` of the run seeded with `seed` (what
/// [`random_positions`] returns at that index), playouts from `starts`.
pub fn nth_random_position(seed: u64, index: usize, starts: &[Position]) -> Position {
    let mut rng = Rng::new(position_seed(seed, index));
    random_position(&mut rng, mode_of(index), starts)
}

/// One random position in `mode`. A playout with no starts falls back to
/// placement.
pub fn random_position(rng: &mut Rng, mode: RandomMode, starts: &[Position]) -> Position {
    match mode {
        RandomMode::Placement => random_placement(rng),
        RandomMode::Playout if starts.is_empty() => random_placement(rng),
        RandomMode::Playout => random_playout(rng, starts),
    }
}

/// Play 0 to 40 random legal moves from a random start.
pub fn random_playout(rng: &mut Rng, starts: &[Position]) -> Position {
    let mut pos = starts[rng.index(starts.len())].clone();
    pos.clear_history();
    let plies = rng.below(MAX_PLAYOUT + 1);
    let greedy = rng.chance(1, 2);
    let mut captures: Vec<Move> = Vec::with_capacity(64);
    for _ in 0..plies {
        let mut list = legal_moves(&pos);
        if list.is_empty() {
            break; // mate or stalemate: still a legal position
        }
        // Generation order is an implementation detail; the encoding is not.
        list.as_mut_slice().sort_unstable();
        captures.clear();
        captures.extend(list.iter().filter(|m| m.is_capture()));
        let m = if greedy && !captures.is_empty() && rng.chance(1, 2) {
            captures[rng.index(captures.len())]
        } else {
            list[rng.index(list.len())]
        };
        pos.make(m);
    }
    pos.clear_history();
    pos
}

/// How many of each non-pawn type a side gets at most in placement, before
/// promoted extras.
const MAX_PIECES: [(PieceType, u64); 4] =
    [(PieceType::Knight, 2), (PieceType::Bishop, 2), (PieceType::Rook, 2), (PieceType::Queen, 1)];

/// A random count in `0..=max` for a density tier: 0 sparse, 1 uniform,
/// 2 dense.
fn count_for(rng: &mut Rng, tier: u64, max: u64) -> u64 {
    match tier {
        0 => rng.below(max / 2 + 1),
        1 => rng.below(max + 1),
        _ => max - rng.below(max / 2 + 1),
    }
}

/// A random empty square, on ranks 2-7 when `pawn`.
fn empty_square(rng: &mut Rng, board: &[Piece; 64], pawn: bool) -> Square {
    loop {
        let sq = Square::from_index(rng.index(64));
        if board[sq.index()].is_empty() && !(pawn && (sq.rank() == 0 || sq.rank() == 7)) {
            return sq;
        }
    }
}

/// Random material on random squares (see the module documentation).
pub fn random_placement(rng: &mut Rng) -> Position {
    loop {
        if let Some(pos) = try_placement(rng) {
            return pos;
        }
    }
}

fn try_placement(rng: &mut Rng) -> Option<Position> {
    let mut board = [Piece::EMPTY; 64];
    let white_king = Square::from_index(rng.index(64));
    let black_king = loop {
        let sq = Square::from_index(rng.index(64));
        if distance(sq, white_king) >= 2 {
            break sq;
        }
    };
    board[white_king.index()] = Piece::new(Color::White, PieceType::King);
    board[black_king.index()] = Piece::new(Color::Black, PieceType::King);
    let tier = rng.below(3);
    for color in Color::ALL {
        let pawns = count_for(rng, tier, 8);
        for _ in 0..pawns {
            let sq = empty_square(rng, &board, true);
            board[sq.index()] = Piece::new(color, PieceType::Pawn);
        }
        let mut kinds: Vec<PieceType> = Vec::with_capacity(16);
        for (kind, max) in MAX_PIECES {
            for _ in 0..count_for(rng, tier, max) {
                kinds.push(kind);
            }
        }
        // Promoted extras, one missing pawn each.
        let mut spare = 8 - pawns;
        while spare > 0 && rng.chance(1, 5) {
            kinds.push(MAX_PIECES[rng.index(4)].0);
            spare -= 1;
        }
        for kind in kinds {
            let sq = empty_square(rng, &board, false);
            board[sq.index()] = Piece::new(color, kind);
        }
    }
    let side = if rng.chance(1, 2) { Color::White } else { Color::Black };
    let castling = random_castling(rng, &board);
    let ep = random_ep(rng, &board, side);
    let fen = to_fen(&board, side, &castling, ep);
    // The parser rejects exactly the positions with the side not to move in
    // check; anything else it says is a bug in this generator.
    match Position::from_fen(&fen) {
        Ok(pos) => Some(pos),
        Err(crate::position::FenError::OpponentInCheck { .. }) => None,
        Err(e) => panic!("random placement built an invalid FEN {fen:?}: {e}"),
    }
}

/// Each right whose king and rook stand at home, with probability 1/2.
fn random_castling(rng: &mut Rng, board: &[Piece; 64]) -> String {
    let mut s = String::new();
    for (letter, color, rook_file) in
        [('K', Color::White, 7), ('Q', Color::White, 0), ('k', Color::Black, 7), ('q', Color::Black, 0)]
    {
        let back = if color == Color::White { 0 } else { 7 };
        let king_home = board[Square::new(4, back).index()] == Piece::new(color, PieceType::King);
        let rook_home = board[Square::new(rook_file, back).index()] == Piece::new(color, PieceType::Rook);
        if king_home && rook_home && rng.chance(1, 2) {
            s.push(letter);
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// With probability 1/2, an en-passant square behind an enemy pawn that
/// could just have double-pushed (its two squares behind empty) and that a
/// pawn of the side to move stands next to.
fn random_ep(rng: &mut Rng, board: &[Piece; 64], side: Color) -> Option<Square> {
    let them = side.flip();
    // Rank the pushed pawn stands on, and the direction it came from.
    let (rank, back): (u8, i8) = if side == Color::White { (4, 1) } else { (3, -1) };
    let mut candidates = [Square::from_index(0); 8];
    let mut n = 0;
    for file in 0..8u8 {
        let pawn = Square::new(file, rank);
        if board[pawn.index()] != Piece::new(them, PieceType::Pawn) {
            continue;
        }
        let passed = Square::new(file, (rank as i8 + back) as u8);
        let start = Square::new(file, (rank as i8 + 2 * back) as u8);
        if !board[passed.index()].is_empty() || !board[start.index()].is_empty() {
            continue;
        }
        let capturer = [file.wrapping_sub(1), file + 1]
            .iter()
            .any(|&f| f < 8 && board[Square::new(f, rank).index()] == Piece::new(side, PieceType::Pawn));
        if capturer {
            candidates[n] = passed;
            n += 1;
        }
    }
    (n > 0 && rng.chance(1, 2)).then(|| candidates[rng.index(n)])
}

fn to_fen(board: &[Piece; 64], side: Color, castling: &str, ep: Option<Square>) -> String {
    let mut s = String::with_capacity(90);
    for row in 0..8 {
        let mut empty = 0;
        for file in 0..8 {
            let p = board[row * 8 + file];
            if p.is_empty() {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push(char::from(b'0' + empty));
                    empty = 0;
                }
                s.push(p.letter());
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if row < 7 {
            s.push('/');
        }
    }
    s.push_str(if side == Color::White { " w " } else { " b " });
    s.push_str(castling);
    s.push(' ');
    match ep {
        Some(sq) => s.push_str(&sq.to_string()),
        None => s.push('-'),
    }
    s.push_str(" 0 1");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_starts_all_parse() {
        let starts = playout_starts();
        let expected = LICHESS.lines().step_by(SAMPLE_EVERY).count() + ENDGAMES.lines().step_by(SAMPLE_EVERY).count();
        assert_eq!(starts.len(), expected);
        assert!(starts.len() > 1900, "{}", starts.len());
    }

    #[test]
    fn positions_are_legal_varied_and_reproducible() {
        let a = random_positions(600, 7);
        let b = random_positions(600, 7);
        let mut men = [0u32; 33];
        let (mut ep, mut castling, mut in_check) = (0, 0, 0);
        for (i, (p, q)) in a.iter().zip(&b).enumerate() {
            assert_eq!(p.to_fen(), q.to_fen(), "position {i} differs between two runs");
            p.verify().unwrap_or_else(|e| panic!("{i} {}: {e}", p.to_fen()));
            assert!(!p.king_attacked(p.side_to_move().flip()), "{}", p.to_fen());
            // The FEN round-trips, so the position is one the parser accepts.
            assert_eq!(Position::from_fen(&p.to_fen()).unwrap().to_fen(), p.to_fen());
            men[p.men() as usize] += 1;
            ep += p.ep_square().is_some() as u32;
            castling += (p.castling().bits() != 0) as u32;
            in_check += p.in_check() as u32;
        }
        // Spread: sparse, middlegame and dense positions all occur, and so do
        // the special states.
        assert!(men[2..=12].iter().sum::<u32>() > 60, "{men:?}");
        assert!(men[13..=25].iter().sum::<u32>() > 60, "{men:?}");
        assert!(men[26..=32].iter().sum::<u32>() > 30, "{men:?}");
        assert!(ep > 0 && castling > 0 && in_check > 0, "ep {ep} castling {castling} check {in_check}");
        // A different seed gives different positions.
        let c = random_positions(20, 8);
        assert!(a.iter().zip(&c).filter(|(p, q)| p.to_fen() == q.to_fen()).count() < 5);
    }

    #[test]
    fn position_i_does_not_depend_on_the_run_length() {
        let short = random_positions(10, 99);
        let long = random_positions(40, 99);
        for (p, q) in short.iter().zip(&long) {
            assert_eq!(p.to_fen(), q.to_fen());
        }
    }

    /// Pinned so a change to the generator (or to SplitMix64, or to the
    /// embedded data) is noticed: every machine must draw these.
    #[test]
    fn first_positions_of_seed_1_are_pinned() {
        let v = random_positions(3, 1);
        let fens: Vec<String> = v.iter().map(|p| p.to_fen()).collect();
        assert_eq!(fens, PINNED_SEED_1);
    }

    const PINNED_SEED_1: [&str; 3] = [
        "4BR1R/2q5/p1P1r3/1P2P2Q/pPp1Kpp1/3N1p1k/P1P1pb1n/B7 b - - 0 1",
        "5k2/1r3p2/7p/p3n1p1/P1p1P3/2P2P2/1P1R4/K3R3 b - - 6 43",
        "8/1p5P/1bp5/1k6/2N5/1P4K1/2p1p3/8 w - - 0 1",
    ];
}
