//! "Who attacks this square" in both representations, side by side:
//! `mailbox` scans the piece lists with the 0x88 difference table and walks
//! slider rays square by square; `bitboard` intersects leaper tables and
//! slider probes with the piece bitboards.
//!
//! Three questions are answered here, each in both forms:
//!
//! * is-square-attacked: [`is_attacked_mailbox`], [`is_attacked_bitboard`];
//! * does a move give check: the old form makes it and asks whether the
//!   enemy king is attacked; the new form, [`CheckInfo`], tests the move
//!   against the enemy king's check squares computed once per node;
//! * the attacker list SEE plays out (ARCHITECTURE.md, "Old and new
//!   routines"): an [`AttackerBuilder`]
//!   fills a [`SeeList`]. [`MailboxAttackers`] is the old `GetAttacks`
//!   (pawns, then the non-pawn list backwards so the king comes last);
//!   [`BitboardAttackers`] is built on [`who_attacks`], the per-type
//!   bitboard primitive. The two produce the same attackers in a different
//!   order, so they are compared with [`same_attackers`], which ignores
//!   order but not multiplicity.

pub(crate) mod bitboard;
pub(crate) mod check_info;
pub(crate) mod mailbox;

pub use bitboard::{is_attacked_bitboard, who_attacks, AttackerSets, BitboardAttackers};
pub use check_info::CheckInfo;
pub use mailbox::{is_attacked_mailbox, MailboxAttackers};

use crate::fixed_vec::FixedVec;
use crate::position::Position;
use crate::tables::{AV_BISHOP, AV_BLACK_PAWN, AV_KING, AV_KNIGHT, AV_QUEEN, AV_ROOK, AV_WHITE_PAWN};
use crate::types::{Color, Piece, Square88};
use std::fmt;

/// The difference-table bit of each piece code (0 for empty).
pub(crate) static PIECE_VECTOR_BIT: [u8; 14] = [
    0,
    0,
    AV_WHITE_PAWN,
    AV_BLACK_PAWN,
    AV_KNIGHT,
    AV_KNIGHT,
    AV_BISHOP,
    AV_BISHOP,
    AV_ROOK,
    AV_ROOK,
    AV_QUEEN,
    AV_QUEEN,
    AV_KING,
    AV_KING,
];

/// One attacker of a square: where it stands, what it is, and its SEE value.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct SeeEntry {
    /// Where the attacker stands.
    pub square: Square88,
    /// The attacker.
    pub piece: Piece,
    /// Its SEE value ([`PieceType::value`](crate::types::PieceType::value)).
    pub value: i32,
}

impl SeeEntry {
    /// The entry of `piece` on `square`.
    #[inline(always)]
    pub fn new(square: Square88, piece: Piece) -> SeeEntry {
        SeeEntry { square, piece, value: piece.kind().value() }
    }

    /// Cheapest first, then by square (a8 first): the order SEE plays
    /// attackers in. Unique per entry, so sorting by it is deterministic.
    #[inline(always)]
    pub fn order_key(self) -> u32 {
        (self.value as u32) << 8 | self.square.raw() as u32
    }

    /// A total order over every field, for the multiset comparison.
    #[inline(always)]
    fn identity_key(self) -> u64 {
        (self.square.raw() as u64) << 40 | (self.piece.code() as u64) << 32 | self.value as u32 as u64
    }
}

impl fmt::Debug for SeeEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}={}", self.piece.letter(), self.square, self.value)
    }
}

/// Capacity of a [`SeeList`]. A side has at most 2 pawn attackers and 16
/// non-pawns (the most a FEN may hold), so 32 leaves room for the x-ray
/// attackers SEE adds while it plays.
pub const SEE_LIST_CAPACITY: usize = 32;

/// The attackers of one square by one colour: fixed capacity, on the stack,
/// never allocates (SEE runs inside move ordering).
pub type SeeList = FixedVec<SeeEntry, SEE_LIST_CAPACITY>;

impl FixedVec<SeeEntry, SEE_LIST_CAPACITY> {
    /// Sort by [`SeeEntry::order_key`]. Insertion sort: the lists are a few
    /// entries long and the bitboard builder already emits them in order.
    #[inline]
    pub fn sort_for_see(&mut self) {
        let s = self.as_mut_slice();
        for i in 1..s.len() {
            let e = s[i];
            let key = e.order_key();
            let mut j = i;
            while j > 0 && s[j - 1].order_key() > key {
                s[j] = s[j - 1];
                j -= 1;
            }
            s[j] = e;
        }
    }

    /// Insert into a list sorted by [`SeeEntry::order_key`], keeping it so.
    #[inline]
    pub fn insert_sorted(&mut self, e: SeeEntry) {
        if self.is_full() {
            return;
        }
        let key = e.order_key();
        self.push(e);
        let s = self.as_mut_slice();
        let mut j = s.len() - 1;
        while j > 0 && s[j - 1].order_key() > key {
            s.swap(j, j - 1);
            j -= 1;
        }
    }

    /// Remove the entry standing on `square`, if any.
    #[inline]
    pub fn remove_square(&mut self, square: Square88) -> Option<SeeEntry> {
        let i = self.as_slice().iter().position(|e| e.square == square)?;
        Some(self.remove(i))
    }
}

/// Builds the attacker list of a square: every piece of
/// `color` attacking `sq`, leapers by pattern, sliders only through empty
/// squares; no x-rays, pins or en passant. `list` is cleared first. The
/// order of the entries is the builder's own; SEE sorts them.
pub trait AttackerBuilder {
    /// Name used on the command line and in results.
    const NAME: &'static str;

    /// Fill `list` with `color`'s attackers of `sq`.
    fn build(pos: &Position, sq: Square88, color: Color, list: &mut SeeList);
}

/// Do two attacker lists hold the same entries, counted with multiplicity
/// and in any order? Sorts copies on the stack; never allocates.
pub fn same_attackers(a: &SeeList, b: &SeeList) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut ka = [0u64; SEE_LIST_CAPACITY];
    let mut kb = [0u64; SEE_LIST_CAPACITY];
    for (k, e) in ka.iter_mut().zip(a.iter()) {
        *k = e.identity_key();
    }
    for (k, e) in kb.iter_mut().zip(b.iter()) {
        *k = e.identity_key();
    }
    let n = a.len();
    ka[..n].sort_unstable();
    kb[..n].sort_unstable();
    ka[..n] == kb[..n]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::sliders::{FastSliders, Magic};
    use crate::types::{PieceType, Square};

    #[test]
    fn both_forms_agree_on_suite_positions() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            crate::position::START_FEN,
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for sq in Square::all() {
                for by in Color::ALL {
                    let m = is_attacked_mailbox(&pos, sq.to_88(), by);
                    assert_eq!(m, is_attacked_bitboard::<FastSliders>(&pos, sq, by), "{fen} {sq} {by:?}");
                    assert_eq!(m, is_attacked_bitboard::<Magic>(&pos, sq, by));
                    let (mut a, mut b) = (SeeList::new(), SeeList::new());
                    MailboxAttackers::build(&pos, sq.to_88(), by, &mut a);
                    BitboardAttackers::<Magic>::build(&pos, sq.to_88(), by, &mut b);
                    assert!(same_attackers(&a, &b), "{fen} {sq} {by:?}: {a:?} vs {b:?}");
                    assert_eq!(m, !a.is_empty(), "{fen} {sq} {by:?}");
                }
            }
        }
    }

    fn entry(sq: &str, color: Color, kind: PieceType) -> SeeEntry {
        SeeEntry::new(Square::parse(sq).unwrap().to_88(), Piece::new(color, kind))
    }

    fn list(entries: &[SeeEntry]) -> SeeList {
        let mut l = SeeList::new();
        for &e in entries {
            l.push(e);
        }
        l
    }

    #[test]
    fn multiset_comparison_ignores_order_only() {
        let p = entry("d4", Color::White, PieceType::Pawn);
        let n = entry("c3", Color::White, PieceType::Knight);
        let q = entry("a8", Color::White, PieceType::Queen);
        let k = entry("e4", Color::White, PieceType::King);
        // Same entries, every order.
        let base = list(&[p, n, q, k]);
        for perm in [[p, n, q, k], [k, q, n, p], [n, p, k, q], [q, k, p, n]] {
            assert!(same_attackers(&base, &list(&perm)));
            assert!(same_attackers(&list(&perm), &base));
        }
        assert!(same_attackers(&SeeList::new(), &SeeList::new()));
        // Missing, extra, replaced.
        assert!(!same_attackers(&base, &list(&[p, n, q])));
        assert!(!same_attackers(&base, &list(&[p, n, q, k, entry("b2", Color::White, PieceType::Bishop)])));
        assert!(!same_attackers(&list(&[p]), &SeeList::new()));
        assert!(!same_attackers(&base, &list(&[p, n, q, entry("e5", Color::White, PieceType::King)])));
        // Same square, different piece or colour.
        assert!(!same_attackers(&list(&[n]), &list(&[entry("c3", Color::White, PieceType::Bishop)])));
        assert!(!same_attackers(&list(&[n]), &list(&[entry("c3", Color::Black, PieceType::Knight)])));
        // Multiplicity counts: {p, p, n} is not {p, n, n}.
        assert!(!same_attackers(&list(&[p, p, n]), &list(&[p, n, n])));
        assert!(same_attackers(&list(&[p, n, p]), &list(&[p, p, n])));
    }

    #[test]
    fn see_list_ordering_and_removal() {
        let p = entry("d4", Color::White, PieceType::Pawn);
        let n1 = entry("c3", Color::White, PieceType::Knight);
        let b = entry("b2", Color::White, PieceType::Bishop);
        let r = entry("e1", Color::White, PieceType::Rook);
        let k = entry("e4", Color::White, PieceType::King);
        let mut l = list(&[k, r, b, n1, p]);
        l.sort_for_see();
        // Knight and bishop tie at 300: c3 (row 5) comes before b2 (row 6).
        assert_eq!(l.as_slice(), &[p, n1, b, r, k]);
        let q = entry("h8", Color::White, PieceType::Queen);
        l.insert_sorted(q);
        assert_eq!(l.as_slice(), &[p, n1, b, r, q, k]);
        assert_eq!(l.remove_square(b.square), Some(b));
        assert_eq!(l.remove_square(b.square), None);
        assert_eq!(l.remove(0), p);
        assert_eq!(l.as_slice(), &[n1, r, q, k]);
        for _ in 0..100 {
            l.push(p);
        }
        assert_eq!(l.len(), SEE_LIST_CAPACITY);
    }
}
