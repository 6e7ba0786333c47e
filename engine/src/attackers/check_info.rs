//! New form of "does this move give check?": the enemy king's check squares,
//! computed once per node, answer it for most moves with one bitboard test
//! instead of an attack scan of the enemy king after the move is made (the
//! old form, [`is_attacked_mailbox`](super::is_attacked_mailbox) after make,
//! and the bitboard scan [`Position::in_check`] it replaces in the bitboard
//! profile).
//!
//! A move can uncover check only from a square on a line between the enemy
//! king and one of our sliders; only such moves, and castling, en passant
//! and promotions, still take the scan after make (see
//! [`CheckInfo::gives_check`]). Finding the actual discoverers per node
//! (a walk over the sliders lined up with the king) cost more than the few
//! scans it saves.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::sliders::Sliders;
use crate::tables::{BISHOP_LINES, KNIGHT_ATTACKS, PAWN_ATTACKS, ROOK_LINES};
#[cfg(test)]
use crate::types::PieceType;
use crate::types::Square;

/// What the side to move needs to know, before moving, about checking the
/// enemy king.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CheckInfo {
    /// Per moving piece type (indexed by [`PieceType::index`]), the squares
    /// from which a piece of that type of the side to move would attack the
    /// enemy king, on the current occupancy. Empty for the king.
    squares: [Bitboard; 6],
    /// The enemy king's rook lines where we have a rook or queen on them,
    /// and its bishop lines where we have a bishop or queen on them: a move
    /// from anywhere else uncovers no check.
    uncover: Bitboard,
    /// The enemy king's square.
    king: Square,
}

impl CheckInfo {
    /// The check information of `pos`'s side to move.
    #[inline(always)]
    pub fn new<S: Sliders>(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = us.flip();
        let king = pos.king_square(them);
        let occ = pos.occupied();
        let bishop = S::bishop(king, occ);
        let rook = S::rook(king, occ);
        let squares = [
            // A pawn of ours attacks the king from where an enemy pawn on
            // the king's square would attack.
            PAWN_ATTACKS[them.index()][king.index()],
            KNIGHT_ATTACKS[king.index()],
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ];
        let rook_lines = ROOK_LINES[king.index()];
        let bishop_lines = BISHOP_LINES[king.index()];
        let mut uncover = Bitboard::EMPTY;
        if (rook_lines & pos.rook_likes(us)).is_nonempty() {
            uncover |= rook_lines;
        }
        if (bishop_lines & pos.bishop_likes(us)).is_nonempty() {
            uncover |= bishop_lines;
        }
        CheckInfo { squares, uncover, king }
    }

    /// `m` has been made in the position this information was computed
    /// for, and `after` is the position after it: does it give check?
    /// Exact for every move.
    ///
    /// A direct check by a plain move is read off the check squares. Why
    /// the occupancy before the move is good enough: the mover leaves
    /// `from`, which could only matter if `from` lay between `to` and the
    /// king on the checking line; then the piece already attacked the king
    /// along that line from `from` (nothing nearer blocks, or the line from
    /// `to` is blocked too), and the side to move cannot be giving check. A
    /// capture only fills `to`, which the mover occupies anyway. A move
    /// from a square off every line that could uncover check, and not
    /// castling, en passant or a promotion, gives no other check; the rest
    /// are scanned.
    #[inline(always)]
    pub fn gives_check(&self, after: &Position, m: Move) -> bool {
        let (from, to) = (m.from().to_64(), m.to().to_64());
        // Never wrong when it says check: castling moves the king (no check
        // squares), a promotion lands where no pawn can attack a king, en
        // passant lands as a pawn capture does.
        if self.squares[m.moved_kind().index()].has(to) {
            return true;
        }
        (self.uncover.has(from) || !Self::is_plain(m)) && after.in_check()
    }

    /// `m`, a quiet move of `before` other than castling, not yet made:
    /// would it give check? Exact, and answered without making the move,
    /// which is what lets the search prune such a move unmade.
    ///
    /// The direct check is read off the check squares as in
    /// [`gives_check`](Self::gives_check). A move from a square on one of
    /// the king's lines uncovers check when a slider of ours on that line
    /// sees the king once `from` is empty and `to` is filled; the mover is
    /// left out of the sliders, since from `to` it could only give the
    /// direct check already tested.
    #[inline(always)]
    pub fn gives_check_unmade<S: Sliders>(&self, before: &Position, m: Move) -> bool {
        debug_assert!(!m.is_tactical() && !m.is_castle(), "{m} is not a plain quiet move");
        let (from, to) = (m.from().to_64(), m.to().to_64());
        if self.squares[m.moved_kind().index()].has(to) {
            return true;
        }
        if !self.uncover.has(from) {
            return false;
        }
        let us = before.side_to_move();
        let occupied = before.occupied().without(from).with(to);
        // `from` lies on exactly one of the king's lines: a rook line or a
        // bishop line.
        if ROOK_LINES[self.king.index()].has(from) {
            (S::rook(self.king, occupied) & before.rook_likes(us).without(from)).is_nonempty()
        } else {
            (S::bishop(self.king, occupied) & before.bishop_likes(us).without(from)).is_nonempty()
        }
    }

    /// Is `m` one whose direct check the check squares answer (not
    /// castling, en passant or a promotion)?
    #[inline(always)]
    pub fn is_plain(m: Move) -> bool {
        m.flags() & (Move::FLAG_CASTLE | Move::FLAG_EN_PASSANT) == 0 && !m.is_promotion()
    }

    /// The pieces of each type that could give direct check, for tests.
    #[cfg(test)]
    fn check_squares(&self, kind: PieceType) -> Bitboard {
        self.squares[kind.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::sliders::FastSliders;
    use crate::tools::randpos::random_positions;

    /// Every legal move of `pos`: the plain test, and for quiet moves the
    /// test before make, against the scan after make. Returns (plain moves, of them checks).
    fn agree(pos: &Position) -> (usize, usize) {
        let info = CheckInfo::new::<FastSliders>(pos);
        let mut pos = pos.clone();
        let (mut plain, mut checks) = (0, 0);
        for m in legal_moves(&pos).iter().copied() {
            let unmade = (!m.is_tactical() && !m.is_castle()).then(|| info.gives_check_unmade::<FastSliders>(&pos, m));
            pos.make(m);
            let scanned = pos.in_check();
            let told = info.gives_check(&pos, m);
            pos.unmake();
            assert_eq!(told, scanned, "{m} in {}", pos.to_fen());
            if let Some(unmade) = unmade {
                assert_eq!(unmade, scanned, "{m} unmade in {}", pos.to_fen());
            }
            if CheckInfo::is_plain(m) {
                plain += 1;
                checks += scanned as usize;
            }
        }
        (plain, checks)
    }

    #[test]
    fn direct_and_discovered_checks_match_the_scan_after_make() {
        let cases = [
            // Discovered by a knight, a pawn push, the king; a pawn's
            // double push checking; a rook moving along its own line.
            "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",
            "7k/8/8/8/3P4/8/1B6/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/4K3/4R3 w - - 0 1",
            "8/8/8/3k4/8/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            // A pinned piece of ours that is also a discoverer; captures.
            "r3k3/8/8/8/8/8/8/R3K1R1 b - - 0 1",
            "rnbqkb1r/ppp2ppp/5n2/3pp3/3PP3/2N5/PPP2PPP/R1BQKBNR w KQkq - 0 4",
        ];
        let mut checks = 0;
        for fen in cases {
            checks += agree(&Position::from_fen(fen).unwrap()).1;
        }
        assert!(checks >= 6, "the cases check: {checks}");
        let (mut plain, mut checks) = (0, 0);
        for pos in random_positions(3000, 0xC4EC) {
            let (p, c) = agree(&pos);
            plain += p;
            checks += c;
        }
        assert!(plain > 50_000 && checks > 2_000, "{plain} plain moves, {checks} checks");
    }

    #[test]
    fn check_squares_of_the_king_and_pawns() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let info = CheckInfo::new::<FastSliders>(&pos);
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(info.check_squares(PieceType::King), Bitboard::EMPTY);
        assert_eq!(info.check_squares(PieceType::Pawn), Bitboard::from_square(sq("d7")).with(sq("f7")));
        assert!(info.check_squares(PieceType::Queen).has(sq("e1")));
    }
}
