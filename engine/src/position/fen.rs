//! FEN parsing and printing. Every malformed or impossible input gets a
//! [`FenError`] that names the field and the reason; no input panics.
//! Callers that report an error quote the FEN beside it (the error itself
//! names only the field, so it stays small and comparable in tests).
//!
//! What is rejected, with python-chess (`Board.set_fen` and
//! `Board.status`) as the reference:
//!
//! * Syntax, rejected by python-chess's parser too: a placement without 8
//!   ranks of 8 squares, two digits in a row (`44`: one count per run of
//!   empty squares), the digits `0` and `9`, letters other than `pnbrqk`
//!   and `PNBRQK`, a side other than `w`/`b`, castling other than `-` or
//!   `KQkq` letters (each at most once, White's before Black's; Chess960
//!   file letters are not supported), an en-passant field that is not `-`
//!   or a square, clocks that are not plain decimal numbers, more than six
//!   fields.
//! * Validity, which python-chess reports through `status()` and this
//!   engine rejects at once because its board and search rely on it: each
//!   side exactly one king; at most 8 pawns and 16 men (pawns count, as
//!   each may still promote); no pawn on rank 1 or 8; castling rights only
//!   with the king and rook at home; an en-passant square only on the
//!   right rank, empty, behind a pawn that could just have moved two
//!   squares from an empty start square; the side not to move not in check.
//! * Stricter than python-chess: a missing side-to-move, castling or
//!   en-passant field (python-chess defaults them; EPD and UCI always send
//!   them), fullmove number 0 (python-chess reads it as 1), clocks above
//!   65535.
//! * Accepted though python-chess's `status()` flags them: three or more
//!   checkers, and a double check no single move could give. Such positions
//!   are unreachable but well defined, both move generators agree on them,
//!   and random placements (`randpos`) rely on their being accepted.

use super::{zobrist, Position, MAX_NON_PAWNS, MAX_PAWNS};
use crate::types::{CastleRights, Color, Piece, PieceType, Square, Square88};
use std::fmt::Write as _;
use thiserror::Error;

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What is wrong with a FEN string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// Nothing but blanks.
    #[error("empty FEN")]
    Empty,
    /// Not 4 to 6 blank-separated fields.
    #[error("FEN has {found} fields; expected 4 to 6 (placement, side, castling, en passant, halfmove, fullmove)")]
    FieldCount {
        /// How many fields the FEN has.
        found: usize,
    },
    /// The placement does not have 8 ranks.
    #[error("piece placement has {found} ranks; expected 8 separated by '/'")]
    RankCount {
        /// How many ranks the placement has.
        found: usize,
    },
    /// A rank does not describe 8 squares.
    #[error("piece placement: rank {rank} describes {squares} squares; expected 8")]
    RankLength {
        /// The rank, 1 to 8.
        rank: u8,
        /// How many squares it describes.
        squares: usize,
    },
    /// A letter that is no piece.
    #[error("piece placement: unknown piece letter {letter:?} on rank {rank}")]
    UnknownPiece {
        /// The letter.
        letter: char,
        /// The rank, 1 to 8.
        rank: u8,
    },
    /// An empty-square count of 0.
    #[error("piece placement: empty-square count '0' on rank {rank}")]
    ZeroEmptyCount {
        /// The rank, 1 to 8.
        rank: u8,
    },
    /// Two digits in a row in one rank (`44`): ambiguous, and rejected
    /// by python-chess.
    #[error(
        "piece placement: rank {rank} has two digits in a row ({digits:?}); write one count per run of empty squares"
    )]
    AdjacentDigits {
        /// The rank, 1 to 8.
        rank: u8,
        /// The digits as written.
        digits: String,
    },
    /// A side without a king.
    #[error("{color} has no king")]
    MissingKing {
        /// The side (`white` or `black`).
        color: &'static str,
    },
    /// A side with more than one king.
    #[error("{color} has {count} kings; expected exactly one")]
    ExtraKing {
        /// The side (`white` or `black`).
        color: &'static str,
        /// How many it has.
        count: u32,
    },
    /// More pawns than fit in the pawn list.
    #[error("{color} has {count} pawns; at most {MAX_PAWNS} are possible")]
    TooManyPawns {
        /// The side (`white` or `black`).
        color: &'static str,
        /// How many it has.
        count: u32,
    },
    /// More non-pawn pieces than fit in the piece list.
    #[error("{color} has {count} pieces; at most {MAX_NON_PAWNS} are possible")]
    TooManyPieces {
        /// The side (`white` or `black`).
        color: &'static str,
        /// How many it has.
        count: u32,
    },
    #[error(
        "{color} has {count} men (pieces and pawns together); at most {MAX_NON_PAWNS} are possible, \
         since each pawn may still promote"
    )]
    /// More men than the piece list could hold after promotions.
    TooManyMen {
        /// The side (`white` or `black`).
        color: &'static str,
        /// How many it has.
        count: u32,
    },
    /// A pawn on rank 1 or 8.
    #[error("pawn on {square}: pawns cannot stand on rank 1 or 8")]
    PawnOnBackRank {
        /// The square.
        square: Square,
    },
    /// A side to move that is not `w` or `b`.
    #[error("side to move {found:?}: expected 'w' or 'b'")]
    SideToMove {
        /// What the FEN has there.
        found: String,
    },
    /// A castling field that is not `-` or `KQkq` letters.
    #[error("castling field {found:?}: expected '-' or letters from KQkq, each at most once, White's before Black's")]
    CastlingSyntax {
        /// What the FEN has there.
        found: String,
    },
    /// A castling right whose king or rook is not at home.
    #[error("castling right '{right}' without the {missing} on its home square")]
    CastlingWithoutPiece {
        /// The right's letter (`KQkq`).
        right: char,
        /// The piece that is not at home.
        missing: &'static str,
    },
    /// An en-passant field that is not `-` or a square.
    #[error("en-passant field {found:?}: expected '-' or a square like e3")]
    EnPassantSyntax {
        /// What the FEN has there.
        found: String,
    },
    /// An en-passant square no double push can have left.
    #[error("en-passant square {square} is impossible: {reason}")]
    EnPassantImpossible {
        /// The square.
        square: Square,
        /// Why it is impossible.
        reason: &'static str,
    },
    /// A halfmove clock that is not a number in range.
    #[error("halfmove clock {found:?}: expected a number from 0 to 65535")]
    HalfmoveClock {
        /// What the FEN has there.
        found: String,
    },
    /// A fullmove number that is not a number in range.
    #[error("fullmove number {found:?}: expected a number from 1 to 65535")]
    FullmoveNumber {
        /// What the FEN has there.
        found: String,
    },
    /// The side not to move is in check.
    #[error("the side not to move ({color}) is in check")]
    OpponentInCheck {
        /// The side (`white` or `black`).
        color: &'static str,
    },
}

fn parse_placement(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    let mut pieces: Vec<(Square88, Piece)> = Vec::with_capacity(32);
    for (row, text) in ranks.iter().enumerate() {
        let rank = 8 - row as u8;
        let mut file = 0usize;
        let mut previous: Option<char> = None;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 {
                    return Err(FenError::ZeroEmptyCount { rank });
                }
                if let Some(p) = previous.filter(char::is_ascii_digit) {
                    return Err(FenError::AdjacentDigits { rank, digits: format!("{p}{ch}") });
                }
                file += d as usize;
            } else {
                let piece = Piece::from_letter(ch).ok_or(FenError::UnknownPiece { letter: ch, rank })?;
                if file < 8 {
                    pieces.push((Square88::new(file as u8, rank - 1), piece));
                }
                file += 1;
            }
            previous = Some(ch);
        }
        if file != 8 {
            return Err(FenError::RankLength { rank, squares: file });
        }
    }
    for color in Color::ALL {
        let count = |kind| pieces.iter().filter(|(_, p)| p.is(color, kind)).count() as u32;
        let kings = count(PieceType::King);
        if kings == 0 {
            return Err(FenError::MissingKing { color: color.name() });
        }
        if kings > 1 {
            return Err(FenError::ExtraKing { color: color.name(), count: kings });
        }
        let pawns = count(PieceType::Pawn);
        if pawns as usize > MAX_PAWNS {
            return Err(FenError::TooManyPawns { color: color.name(), count: pawns });
        }
        let others = pieces.iter().filter(|(_, p)| p.color() == color && p.kind() != PieceType::Pawn).count() as u32;
        if others as usize > MAX_NON_PAWNS {
            return Err(FenError::TooManyPieces { color: color.name(), count: others });
        }
        // A promotion moves a pawn into the piece list, which must hold it.
        if (pawns + others) as usize > MAX_NON_PAWNS {
            return Err(FenError::TooManyMen { color: color.name(), count: pawns + others });
        }
    }
    if let Some((sq, _)) =
        pieces.iter().find(|(sq, p)| p.kind() == PieceType::Pawn && (sq.rank() == 0 || sq.rank() == 7))
    {
        return Err(FenError::PawnOnBackRank { square: sq.to_64() });
    }
    // Kings first so each lands at index 0 of its list.
    pieces.sort_by_key(|(_, p)| p.kind() != PieceType::King);
    for (sq, piece) in pieces {
        pos.place::<true>(sq, piece);
    }
    Ok(())
}

fn parse_castling(pos: &Position, field: &str) -> Result<CastleRights, FenError> {
    if field == "-" {
        return Ok(CastleRights::NONE);
    }
    let syntax = || FenError::CastlingSyntax { found: field.to_string() };
    let mut rights = CastleRights::NONE;
    let mut wanted = Vec::with_capacity(4);
    // Syntax first, so "KX" reports the bad letter, not a missing rook.
    for ch in field.chars() {
        let (bit, color, rook_file) = match ch {
            'K' => (CastleRights::WHITE_KING, Color::White, 7),
            'Q' => (CastleRights::WHITE_QUEEN, Color::White, 0),
            'k' => (CastleRights::BLACK_KING, Color::Black, 7),
            'q' => (CastleRights::BLACK_QUEEN, Color::Black, 0),
            _ => return Err(syntax()),
        };
        // Each right once, and White's before Black's (as python-chess
        // requires): `kK` is not a FEN castling field.
        if rights.has(bit) || (color == Color::White && rights.has(CastleRights::either(Color::Black))) {
            return Err(syntax());
        }
        rights = rights.with(bit);
        wanted.push((ch, color, rook_file));
    }
    for (ch, color, rook_file) in wanted {
        let back = if color == Color::White { 0 } else { 7 };
        if !pos.piece_at(Square88::new(4, back)).is(color, PieceType::King) {
            return Err(FenError::CastlingWithoutPiece { right: ch, missing: "king" });
        }
        if !pos.piece_at(Square88::new(rook_file, back)).is(color, PieceType::Rook) {
            return Err(FenError::CastlingWithoutPiece { right: ch, missing: "rook" });
        }
    }
    Ok(rights)
}

fn parse_ep(pos: &Position, field: &str) -> Result<Option<Square88>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let square = Square::parse(field).ok_or_else(|| FenError::EnPassantSyntax { found: field.to_string() })?;
    let us = pos.side_to_move();
    let them = us.flip();
    let impossible = |reason| Err(FenError::EnPassantImpossible { square, reason });
    let expected_rank = if us == Color::White { 5 } else { 2 };
    if square.rank() != expected_rank {
        return impossible("it must be on rank 6 with White to move, rank 3 with Black to move");
    }
    let sq = square.to_88();
    let forward = crate::tables::PAWN_PUSH[them.index()];
    // The pawn that just double-pushed stands one step past the square, and
    // the square it came from is empty.
    if !pos.piece_at(sq).is_empty() {
        return impossible("the square is occupied");
    }
    if !pos.piece_at(sq.offset(forward)).is(them, PieceType::Pawn) {
        return impossible("no pawn stands in front of it that could just have moved two squares");
    }
    if !pos.piece_at(sq.offset(-forward)).is_empty() {
        return impossible("the pawn's start square is occupied");
    }
    Ok(Some(sq))
}

fn parse_number<T: std::str::FromStr + PartialOrd>(field: &str, lo: T, hi: T) -> Option<T> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse::<T>().ok().filter(|v| *v >= lo && *v <= hi)
}

impl Position {
    /// Parse a FEN. The halfmove and fullmove fields may be omitted (they
    /// default to 0 and 1), as EPD does.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() < 4 || fields.len() > 6 {
            return Err(FenError::FieldCount { found: fields.len() });
        }
        Position::from_fields(
            fields[0],
            fields[1],
            fields[2],
            fields[3],
            fields.get(4).copied(),
            fields.get(5).copied(),
        )
    }

    /// Build a position from the separate FEN fields.
    pub(crate) fn from_fields(
        placement: &str,
        side: &str,
        castling: &str,
        ep: &str,
        halfmove: Option<&str>,
        fullmove: Option<&str>,
    ) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        parse_placement(&mut pos, placement)?;
        pos.side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(FenError::SideToMove { found: side.to_string() }),
        };
        pos.state.castling = parse_castling(&pos, castling)?;
        pos.state.ep = parse_ep(&pos, ep)?;
        if let Some(h) = halfmove {
            pos.state.halfmove = parse_number(h, 0u32, u16::MAX as u32)
                .ok_or_else(|| FenError::HalfmoveClock { found: h.to_string() })?;
        }
        if let Some(f) = fullmove {
            pos.fullmove_base =
                parse_number(f, 1u16, u16::MAX).ok_or_else(|| FenError::FullmoveNumber { found: f.to_string() })?;
        }
        pos.black_at_base = pos.side == Color::Black;
        let them = pos.side.flip();
        if pos.king_attacked(them) {
            return Err(FenError::OpponentInCheck { color: them.name() });
        }
        pos.state.key = pos.compute_key();
        Ok(pos)
    }

    /// The position as a six-field FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = self.piece_at(Square88::new(file, rank));
                if p.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        write!(s, "{empty}").unwrap();
                        empty = 0;
                    }
                    s.push(p.letter());
                }
            }
            if empty > 0 {
                write!(s, "{empty}").unwrap();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Color::White { 'w' } else { 'b' };
        let ep = self.state.ep.map_or("-".to_string(), |sq| sq.to_string());
        write!(s, " {side} {} {ep} {} {}", self.state.castling, self.state.halfmove, self.fullmove_number()).unwrap();
        s
    }

    /// The same position with colours swapped and the board flipped top to
    /// bottom: White's pieces become Black's on the mirrored squares, and the
    /// other side moves. A colour-symmetric evaluation scores both the same
    /// from the side to move.
    pub fn color_mirror(&self) -> Position {
        let fen = self.to_fen();
        let f: Vec<&str> = fen.split(' ').collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect()
        };
        let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let castling = if f[2] == "-" {
            "-".to_string()
        } else {
            let c = swap(f[2]);
            // Keep the canonical KQkq order.
            "KQkq".chars().filter(|x| c.contains(*x)).collect()
        };
        let ep = match Square::parse(f[3]) {
            Some(sq) => sq.flip_rank().to_string(),
            None => "-".to_string(),
        };
        let mirrored = format!("{} {side} {castling} {ep} {} {}", placement.join("/"), f[4], f[5]);
        Position::from_fen(&mirrored).expect("the colour mirror of a legal position is legal")
    }

    /// Full key computed from scratch (the incremental key must equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = self.compute_pawn_key();
        for color in Color::ALL {
            for &sq in self.piece_list(color) {
                key ^= zobrist::piece_square(self.piece_at(sq), sq.to_64());
            }
        }
        key ^= zobrist::castling(self.state.castling);
        key ^= self.ep_key(self.state.ep, self.side);
        if self.side == Color::Black {
            key ^= zobrist::black_to_move();
        }
        key
    }

    /// Pawn key computed from scratch.
    pub fn compute_pawn_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for &sq in self.pawn_list(color) {
                key ^= zobrist::piece_square(self.piece_at(sq), sq.to_64());
            }
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for fen in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
            "8/8/8/8/8/8/8/K6k b - - 99 140",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(pos.to_fen(), fen);
            pos.verify().unwrap();
        }
    }

    #[test]
    fn castling_letters_of_one_colour_in_either_order() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w QKqk - 0 1").unwrap();
        assert_eq!(pos.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    }

    #[test]
    fn four_field_fen_defaults_clocks() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    /// A predicate recognising the expected error kind.
    pub(crate) type ExpectedError = fn(&FenError) -> bool;

    /// Each malformed input paired with the error kind it must produce.
    pub(crate) fn bad_fens() -> Vec<(&'static str, ExpectedError)> {
        use FenError as E;
        vec![
            ("", |e| matches!(e, E::Empty)),
            ("   ", |e| matches!(e, E::Empty)),
            ("8/8/8/8/8/8/8/8", |e| matches!(e, E::FieldCount { found: 1 })),
            ("4k3/8/8/8/8/8/8/4K3 w -", |e| matches!(e, E::FieldCount { found: 3 })),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", |e| matches!(e, E::FieldCount { found: 7 })),
            ("4k3/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, E::RankCount { found: 7 })),
            ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, E::RankCount { found: 9 })),
            ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", |e| matches!(e, E::RankLength { rank: 1, squares: 9 })),
            ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", |e| matches!(e, E::RankLength { rank: 1, squares: 7 })),
            ("4k3/9/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, E::RankLength { rank: 7, .. })),
            ("4k3/8/8/8/8/8/8/4KX2 w - - 0 1", |e| matches!(e, E::UnknownPiece { letter: 'X', .. })),
            ("4k3/8/8/8/8/8/8/4K2é w - - 0 1", |e| matches!(e, E::UnknownPiece { .. })),
            ("4k3/8/8/8/8/8/8/4K0 w - - 0 1", |e| matches!(e, E::ZeroEmptyCount { rank: 1 })),
            // Adjacent digits, even where they add up to 8.
            (
                "3k4/44/8/8/8/8/8/4K3 w - - 0 1",
                |e| matches!(e, E::AdjacentDigits { rank: 7, digits } if digits == "44"),
            ),
            ("4k3/8/8/8/8/8/8/4K12 w - - 0 1", |e| matches!(e, E::AdjacentDigits { rank: 1, .. })),
            ("4k3/11111111/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, E::AdjacentDigits { rank: 7, .. })),
            ("4k3/8/8/8/8/8/8/4K3~ w - - 0 1", |e| matches!(e, E::UnknownPiece { letter: '~', .. })),
            ("8/8/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, E::MissingKing { color: "black" })),
            ("4k3/8/8/8/8/8/8/8 w - - 0 1", |e| matches!(e, E::MissingKing { color: "white" })),
            ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", |e| matches!(e, E::ExtraKing { color: "white", count: 2 })),
            ("k6k/8/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, E::ExtraKing { color: "black", .. })),
            ("4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - - 0 1", |e| {
                matches!(e, E::TooManyPawns { .. } | E::PawnOnBackRank { .. })
            }),
            ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", |e| matches!(e, E::TooManyPawns { count: 9, .. })),
            ("4k3/8/8/8/QQQQQQQQ/QQQQQQQQ/8/4K3 w - - 0 1", |e| matches!(e, E::TooManyPieces { count: 17, .. })),
            // Sixteen pieces and a pawn: the promotion would not fit.
            ("4k3/P7/8/8/8/8/NNNNNNNN/NNNNNNNK w - - 0 1", |e| matches!(e, E::TooManyMen { count: 17, .. })),
            ("nnnnnnnk/nnnnnnnn/8/8/8/8/p7/4K3 b - - 0 1", |e| matches!(e, E::TooManyMen { count: 17, .. })),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", |e| matches!(e, E::PawnOnBackRank { .. })),
            ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, E::PawnOnBackRank { .. })),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", |e| matches!(e, E::SideToMove { .. })),
            ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", |e| matches!(e, E::SideToMove { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", |e| matches!(e, E::CastlingSyntax { .. })),
            ("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", |e| matches!(e, E::CastlingSyntax { .. })),
            // Black's rights before White's (python-chess refuses them too).
            ("r3k2r/8/8/8/8/8/8/R3K2R w kK - 0 1", |e| matches!(e, E::CastlingSyntax { .. })),
            ("r3k2r/8/8/8/8/8/8/R3K2R w qKQ - 0 1", |e| matches!(e, E::CastlingSyntax { .. })),
            ("r3k2r/8/8/8/8/8/8/R3K2R w K- - 0 1", |e| matches!(e, E::CastlingSyntax { .. })),
            ("r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1", |e| matches!(e, E::CastlingSyntax { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", |e| matches!(e, E::CastlingWithoutPiece { right: 'K', missing: "rook" })),
            ("4k3/8/8/8/8/8/8/3K3R w K - 0 1", |e| {
                matches!(e, E::CastlingWithoutPiece { right: 'K', missing: "king" })
            }),
            ("4k3/8/8/8/8/8/8/R3K3 w Kq - 0 1", |e| matches!(e, E::CastlingWithoutPiece { right: 'K', .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", |e| matches!(e, E::EnPassantSyntax { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - xx 0 1", |e| matches!(e, E::EnPassantSyntax { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", |e| matches!(e, E::EnPassantImpossible { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", |e| matches!(e, E::EnPassantImpossible { .. })),
            ("4k3/8/4p3/4p3/8/8/8/4K3 w - e6 0 1", |e| matches!(e, E::EnPassantImpossible { .. })),
            ("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", |e| matches!(e, E::EnPassantImpossible { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - x 1", |e| matches!(e, E::HalfmoveClock { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", |e| matches!(e, E::HalfmoveClock { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - 65536 1", |e| matches!(e, E::HalfmoveClock { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", |e| matches!(e, E::FullmoveNumber { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", |e| matches!(e, E::FullmoveNumber { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - +3 1", |e| matches!(e, E::HalfmoveClock { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 +1", |e| matches!(e, E::FullmoveNumber { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - \u{663} 1", |e| matches!(e, E::HalfmoveClock { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999", |e| matches!(e, E::FullmoveNumber { .. })),
            ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", |e| matches!(e, E::OpponentInCheck { color: "black" })),
            ("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", |e| matches!(e, E::OpponentInCheck { color: "white" })),
        ]
    }

    #[test]
    fn malformed_fens_get_the_right_error() {
        let mut checked = 0;
        for (fen, expected) in bad_fens() {
            let e = Position::from_fen(fen).expect_err(fen);
            assert!(expected(&e), "{fen:?} gave {e:?}");
            assert!(!e.to_string().is_empty());
            checked += 1;
        }
        assert!(checked >= 40, "only {checked} bad inputs checked");
    }
}
