//! Mobility and attack recording for knights, bishops, rooks and queens in
//! three implementations, side by side:
//!
//! * [`mailbox`]: the old case-table ray walk. Every visited square gets
//!   the piece's bit OR-ed into its attack word, then a per-colour table
//!   indexed by the piece code there decides count / stop / x-ray.
//! * [`chain`]: an exact port with magic/PEXT probes: one probe per ray
//!   segment, and one more past each pass-through blocker, restricted to
//!   that ray. Writes accumulators, never the words.
//! * [`single_probe`]: seed 000's approximation: one probe per piece (two for
//!   the queen), mobility from first-blocker attacks, x-rays only through a
//!   directly attacked enemy queen/king (bishop: rook/queen/king).
//!
//! A [`MobilitySet`] picks one implementation per piece type. The engine
//! profiles use the static sets ([`MailboxSet`], [`ChainSet`],
//! [`SingleProbeSet`]); the command line's per-piece mixes use
//! [`DynamicSet`], function pointers chosen once. In a mix, every producer
//! also writes the other representation ("mirror") so each consumer finds a
//! complete picture; pure sets never do.

pub mod chain;
pub mod mailbox;
pub mod single_probe;

use super::attacks::Accumulators;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::sliders::{FastSliders, Sliders};
use crate::types::{Color, PieceType, Square};
use std::fmt;

/// What one piece's mobility routine reports.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct PieceMobility {
    /// Squares counted towards mobility.
    pub mobility: u8,
    /// Most mobility along a single ray (bishops, rooks).
    pub best_ray: u8,
    /// Friendly rooks met on the rook's rank / file (rooks).
    pub connected_rank: u8,
    pub connected_file: u8,
    /// Walked squares next to the enemy king (queens).
    pub king_walks: u8,
    /// Which pass-through blockers the walk went past (`THROUGH_*`).
    pub through: u8,
}

/// The walk passed a friendly battery partner.
pub const THROUGH_FRIEND: u8 = 1;
/// The walk passed an enemy piece (rook: queen/king; bishop: rook/queen/king).
pub const THROUGH_ENEMY: u8 = 2;

/// Inputs every mobility routine reads besides the position.
#[derive(Clone, Copy, Default, Debug)]
pub struct MobilityInputs {
    /// Stationary pawns of each colour (from the pawn entry).
    pub stationary: [Bitboard; 2],
    /// The squares next to each king.
    pub king_zone: [Bitboard; 2],
}

/// Write a piece's attack sets into the attack words (bitboard routines in
/// mixed configurations only).
#[inline]
pub(super) fn mirror_to_words(
    pos: &mut Position,
    color: Color,
    direct: Bitboard,
    direct_bit: u32,
    xray: Bitboard,
    xray_bit: u32,
) {
    for s in direct {
        pos.add_attack_bits(s.to_88(), color, direct_bit);
    }
    for s in xray {
        pos.add_attack_bits(s.to_88(), color, xray_bit);
    }
}

/// The most mobility along one ray, over ray directions `dirs` (see
/// `tables::RAYS`).
#[inline(always)]
pub(super) fn best_ray(mobile: Bitboard, sq: Square, dirs: std::ops::Range<usize>) -> u8 {
    dirs.map(|d| (mobile & crate::tables::RAYS[d][sq.index()]).count() as u8).max().unwrap_or(0)
}

/// Which walked squares count, for the two bitboard implementations: the
/// case table of DESIGN §4.1 as square sets. A square counts if it is in
/// `always`, or in `if_safe` and not attacked by the enemy classes the
/// piece fears.
#[derive(Copy, Clone)]
pub(super) struct Counting {
    if_safe: Bitboard,
    always: Bitboard,
}

impl Counting {
    /// The walked squares that count towards mobility.
    #[inline(always)]
    pub(super) fn mobile(self, walked: Bitboard) -> Bitboard {
        walked & (self.if_safe | self.always)
    }

    /// Bishop: empty squares and enemy pawns if safe from enemy pawns; any
    /// other enemy piece; an own pawn that can still move.
    #[inline(always)]
    pub(super) fn bishop(pos: &Position, acc: &Accumulators, inp: &MobilityInputs, color: Color) -> Counting {
        let enemy_pawns = pos.bb(color.flip(), PieceType::Pawn);
        let own_transient_pawns = pos.bb(color, PieceType::Pawn) & !inp.stationary[color.index()];
        Counting {
            if_safe: (!pos.occupied() | enemy_pawns) & !acc.unsafe_for_minor(color),
            always: (pos.color_bb(color.flip()) & !enemy_pawns) | own_transient_pawns,
        }
    }

    /// Rook: empty squares and enemy pawns and minors if safe from enemy
    /// pawns and minors; enemy rooks, queens and kings always.
    #[inline(always)]
    pub(super) fn rook(pos: &Position, acc: &Accumulators, color: Color) -> Counting {
        let enemy = color.flip();
        let enemy_majors = pos.rook_likes(enemy) | pos.bb(enemy, PieceType::King);
        Counting {
            if_safe: (!pos.occupied() | (pos.color_bb(enemy) & !enemy_majors)) & !acc.unsafe_for_rook(color),
            always: enemy_majors,
        }
    }

    /// Queen: empty squares and enemy pawns, minors and rooks if safe from
    /// all three; enemy queens and kings always.
    #[inline(always)]
    pub(super) fn queen(pos: &Position, acc: &Accumulators, color: Color) -> Counting {
        let enemy = color.flip();
        let enemy_greater = pos.bb(enemy, PieceType::Queen) | pos.bb(enemy, PieceType::King);
        Counting {
            if_safe: (!pos.occupied() | (pos.color_bb(enemy) & !enemy_greater)) & !acc.unsafe_for_queen(color),
            always: enemy_greater,
        }
    }
}

/// Record a bitboard routine's attack sets: accumulators always, the
/// attack words too when mirroring (mixed configurations).
#[inline(always)]
pub(super) fn record<const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    color: Color,
    bits: (u32, u32),
    direct: Bitboard,
    xray: Bitboard,
) {
    acc.record(color, bits.0, direct);
    if xray.is_nonempty() {
        acc.record(color, bits.1, xray);
    }
    if MIRROR {
        mirror_to_words(pos, color, direct, bits.0, xray, bits.1);
    }
}

/// A rook's report from its counted and walked squares.
#[inline(always)]
pub(super) fn rook_report(
    pos: &Position,
    color: Color,
    sq: Square,
    mobile: Bitboard,
    walked: Bitboard,
) -> PieceMobility {
    let partners = walked & pos.bb(color, PieceType::Rook);
    let on_rank = partners & Bitboard::rank(sq.rank());
    PieceMobility {
        mobility: mobile.count() as u8,
        best_ray: best_ray(mobile, sq, 0..4),
        connected_rank: on_rank.count() as u8,
        connected_file: (partners & !on_rank).count() as u8,
        ..PieceMobility::default()
    }
}

/// A queen's report: mobility and the walked squares next to the enemy king.
#[inline(always)]
pub(super) fn queen_report(pos: &Position, color: Color, mobile: Bitboard, walked: Bitboard) -> PieceMobility {
    let enemy_king_zone = crate::tables::KING_ATTACKS[pos.king_square(color.flip()).index()];
    PieceMobility {
        mobility: mobile.count() as u8,
        king_walks: (walked & enemy_king_zone).count() as u8,
        ..PieceMobility::default()
    }
}

/// Which implementation a piece type uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MobilityKind {
    Mailbox,
    Chain,
    SingleProbe,
}

impl MobilityKind {
    pub const ALL: [MobilityKind; 3] = [MobilityKind::Mailbox, MobilityKind::Chain, MobilityKind::SingleProbe];

    pub fn name(self) -> &'static str {
        match self {
            MobilityKind::Mailbox => "mailbox",
            MobilityKind::Chain => "chain",
            MobilityKind::SingleProbe => "single-probe",
        }
    }

    pub fn parse(s: &str) -> Option<MobilityKind> {
        MobilityKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl fmt::Display for MobilityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One piece's mobility routine.
pub type MobilityFn = fn(&mut Position, &mut Accumulators, &MobilityInputs, Color, Square) -> PieceMobility;

/// A choice of mobility implementation for each of N, B, R, Q.
pub trait MobilitySet: Copy {
    /// Does any piece type use the mailbox walk (so attack words are kept)?
    fn words(&self) -> bool;
    /// Does any piece type use bitboards (so accumulators are kept)?
    fn accs(&self) -> bool;
    fn knight(
        &self,
        pos: &mut Position,
        acc: &mut Accumulators,
        inp: &MobilityInputs,
        c: Color,
        sq: Square,
    ) -> PieceMobility;
    fn bishop(
        &self,
        pos: &mut Position,
        acc: &mut Accumulators,
        inp: &MobilityInputs,
        c: Color,
        sq: Square,
    ) -> PieceMobility;
    fn rook(
        &self,
        pos: &mut Position,
        acc: &mut Accumulators,
        inp: &MobilityInputs,
        c: Color,
        sq: Square,
    ) -> PieceMobility;
    fn queen(
        &self,
        pos: &mut Position,
        acc: &mut Accumulators,
        inp: &MobilityInputs,
        c: Color,
        sq: Square,
    ) -> PieceMobility;
    /// The implementation of each piece type, for reports.
    fn kinds(&self) -> [MobilityKind; 4];
}

macro_rules! static_set {
    ($name:ident, $doc:literal, $words:expr, $accs:expr, $kind:expr,
     $n:path, $b:path, $r:path, $q:path) => {
        #[doc = $doc]
        #[derive(Copy, Clone, Default, Debug)]
        pub struct $name;

        impl MobilitySet for $name {
            #[inline(always)]
            fn words(&self) -> bool {
                $words
            }
            #[inline(always)]
            fn accs(&self) -> bool {
                $accs
            }
            #[inline(always)]
            fn knight(
                &self,
                p: &mut Position,
                a: &mut Accumulators,
                i: &MobilityInputs,
                c: Color,
                s: Square,
            ) -> PieceMobility {
                $n(p, a, i, c, s)
            }
            #[inline(always)]
            fn bishop(
                &self,
                p: &mut Position,
                a: &mut Accumulators,
                i: &MobilityInputs,
                c: Color,
                s: Square,
            ) -> PieceMobility {
                $b(p, a, i, c, s)
            }
            #[inline(always)]
            fn rook(
                &self,
                p: &mut Position,
                a: &mut Accumulators,
                i: &MobilityInputs,
                c: Color,
                s: Square,
            ) -> PieceMobility {
                $r(p, a, i, c, s)
            }
            #[inline(always)]
            fn queen(
                &self,
                p: &mut Position,
                a: &mut Accumulators,
                i: &MobilityInputs,
                c: Color,
                s: Square,
            ) -> PieceMobility {
                $q(p, a, i, c, s)
            }
            fn kinds(&self) -> [MobilityKind; 4] {
                [$kind; 4]
            }
        }
    };
}

static_set!(
    MailboxSet,
    "Every piece type walks the mailbox (the old evaluation).",
    true,
    false,
    MobilityKind::Mailbox,
    mailbox::knight::<false>,
    mailbox::bishop::<false>,
    mailbox::rook::<false>,
    mailbox::queen::<false>
);
static_set!(
    ChainSet,
    "Every piece type uses probe chains (the exact bitboard port).",
    false,
    true,
    MobilityKind::Chain,
    chain::knight::<false>,
    chain::bishop::<FastSliders, false>,
    chain::rook::<FastSliders, false>,
    chain::queen::<FastSliders, false>
);
static_set!(
    SingleProbeSet,
    "Every piece type uses a single probe (seed 000's approximation).",
    false,
    true,
    MobilityKind::SingleProbe,
    chain::knight::<false>,
    single_probe::bishop::<FastSliders, false>,
    single_probe::rook::<FastSliders, false>,
    single_probe::queen::<FastSliders, false>
);

/// A per-piece-type mix chosen at run time: four function pointers, picked
/// once when the set is built.
#[derive(Copy, Clone)]
pub struct DynamicSet {
    kinds: [MobilityKind; 4],
    words: bool,
    accs: bool,
    fns: [MobilityFn; 4],
}

impl fmt::Debug for DynamicSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DynamicSet(N {}, B {}, R {}, Q {})", self.kinds[0], self.kinds[1], self.kinds[2], self.kinds[3])
    }
}

/// The routine for `kind` of piece `piece` with mirroring on or off.
fn routine<S: Sliders>(piece: PieceType, kind: MobilityKind, mirror: bool) -> MobilityFn {
    use MobilityKind::*;
    use PieceType::*;
    macro_rules! pick {
        ($($f:ident)::+) => {
            if mirror {
                $($f)::+::<true>
            } else {
                $($f)::+::<false>
            }
        };
        ($($f:ident)::+, $s:ty) => {
            if mirror {
                $($f)::+::<$s, true>
            } else {
                $($f)::+::<$s, false>
            }
        };
    }
    match (piece, kind) {
        (Knight, Mailbox) => pick!(mailbox::knight),
        (Knight, Chain | SingleProbe) => pick!(chain::knight),
        (Bishop, Mailbox) => pick!(mailbox::bishop),
        (Bishop, Chain) => pick!(chain::bishop, S),
        (Bishop, SingleProbe) => pick!(single_probe::bishop, S),
        (Rook, Mailbox) => pick!(mailbox::rook),
        (Rook, Chain) => pick!(chain::rook, S),
        (Rook, SingleProbe) => pick!(single_probe::rook, S),
        (Queen, Mailbox) => pick!(mailbox::queen),
        (Queen, Chain) => pick!(chain::queen, S),
        (Queen, SingleProbe) => pick!(single_probe::queen, S),
        (Pawn | King, _) => unreachable!("pawns and kings have no mobility routine"),
    }
}

impl DynamicSet {
    /// Knight, bishop, rook, queen implementations.
    pub fn new(kinds: [MobilityKind; 4]) -> DynamicSet {
        let words = kinds.contains(&MobilityKind::Mailbox);
        let accs = kinds.iter().any(|&k| k != MobilityKind::Mailbox);
        let mirror = words && accs;
        let pieces = [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen];
        let fns = std::array::from_fn(|i| routine::<FastSliders>(pieces[i], kinds[i], mirror));
        DynamicSet { kinds, words, accs, fns }
    }

    /// The same implementation for every piece type.
    pub fn uniform(kind: MobilityKind) -> DynamicSet {
        DynamicSet::new([kind; 4])
    }
}

impl Default for DynamicSet {
    /// Chain mobility for every piece type.
    fn default() -> DynamicSet {
        DynamicSet::uniform(MobilityKind::Chain)
    }
}

impl MobilitySet for DynamicSet {
    fn words(&self) -> bool {
        self.words
    }
    fn accs(&self) -> bool {
        self.accs
    }
    #[inline]
    fn knight(&self, p: &mut Position, a: &mut Accumulators, i: &MobilityInputs, c: Color, s: Square) -> PieceMobility {
        (self.fns[0])(p, a, i, c, s)
    }
    #[inline]
    fn bishop(&self, p: &mut Position, a: &mut Accumulators, i: &MobilityInputs, c: Color, s: Square) -> PieceMobility {
        (self.fns[1])(p, a, i, c, s)
    }
    #[inline]
    fn rook(&self, p: &mut Position, a: &mut Accumulators, i: &MobilityInputs, c: Color, s: Square) -> PieceMobility {
        (self.fns[2])(p, a, i, c, s)
    }
    #[inline]
    fn queen(&self, p: &mut Position, a: &mut Accumulators, i: &MobilityInputs, c: Color, s: Square) -> PieceMobility {
        (self.fns[3])(p, a, i, c, s)
    }
    fn kinds(&self) -> [MobilityKind; 4] {
        self.kinds
    }
}
