//! Mobility and attack recording for knights, bishops, rooks and queens in
//! three implementations, side by side:
//!
//! * [`mailbox`]: the old case-table ray walk. Every visited square gets
//!   the piece's bit OR-ed into its attack word, then a per-colour table
//!   indexed by the piece code there decides count / stop / x-ray.
//! * [`chain`]: an exact port with magic/PEXT probes: one probe for the
//!   direct attacks, and one over the board without the pass-through
//!   blockers for the squares walked past them. Writes accumulators, never
//!   the words.
//! * [`single_probe`]: seed 000's approximation: one probe per piece (two for
//!   the queen), mobility from first-blocker attacks, x-rays only through a
//!   directly attacked enemy queen/king (bishop: rook/queen/king).
//!
//! A [`MobilitySet`] picks one implementation per piece type. The engine
//! profiles use static sets, each routine monomorphised ([`MailboxSet`],
//! [`ChainSet`], [`SingleProbeSet`], and the chain sets with one piece
//! type's mobility in mailbox form, such as [`ChainWithMailboxKnight`]); the
//! command line's per-piece mixes use [`DynamicSet`], function pointers
//! chosen once. In a mix, every producer also writes the other
//! representation ("mirror") so each consumer finds a complete picture;
//! pure sets never do. [`cuts`]: the chain routines with the plans' cut
//! candidates left out, reached only through a [`DynamicSet`].

pub mod chain;
pub mod cuts;
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
    /// Friendly rooks met on the rook's rank (rooks).
    pub connected_rank: u8,
    /// Friendly rooks met on the rook's file (rooks).
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

impl MobilityInputs {
    /// The inputs the evaluation passes: `stationary` from the pawn entry
    /// ([`crate::eval::pawns::PawnEntry::stationary`]) and each king's zone.
    pub fn new(pos: &Position, stationary: [Bitboard; 2]) -> MobilityInputs {
        MobilityInputs {
            stationary,
            king_zone: Color::ALL.map(|c| crate::tables::KING_ATTACKS[pos.king_square(c).index()]),
        }
    }
}

/// Measurement support (boardbench's `mobilitybench`): the attack state the
/// evaluation has in place when it reaches the mobility of `kind` (knight,
/// bishop, rook or queen), so one piece type's routines can be timed on
/// their own. Both stores are written: the attack words of `pos` are cleared
/// and rebuilt by the mailbox routines, and the returned accumulators by the
/// chain routines, for pawns and every attacker class the evaluation
/// records before `kind`'s (minors, then rooks, then queens; knights and
/// bishops are one class, so their state is pawns only). That is all a
/// routine reads: "unsafe" masks look only at lower classes
/// ([`attacks`](super::attacks)).
/// A routine run on this state returns what it returns inside the
/// evaluation, and running it again only re-ORs its own class's bits, so
/// repeated calls see the same state. Allocation-free.
///
/// # Panics
///
/// For pawns and kings, which have no mobility routine.
pub fn attack_state_before(pos: &mut Position, inputs: &MobilityInputs, kind: PieceType) -> Accumulators {
    let mut acc = Accumulators::default();
    let mut unused = Accumulators::default();
    pos.clear_attack_words();
    super::attacks::record_pawn_attacks(pos, &mut acc, true, true);
    let earlier: &[PieceType] = match kind {
        PieceType::Knight | PieceType::Bishop => &[],
        PieceType::Rook => &[PieceType::Knight, PieceType::Bishop],
        PieceType::Queen => &[PieceType::Knight, PieceType::Bishop, PieceType::Rook],
        PieceType::Pawn | PieceType::King => panic!("attack_state_before: {kind:?} has no mobility routine"),
    };
    for &k in earlier {
        let (words, accs) = (routine::<FastSliders>(k, MobilityKind::Mailbox, false), chain_routine(k));
        for c in Color::ALL {
            for sq in pos.bb(c, k) {
                words(pos, &mut unused, inputs, c, sq);
                accs(pos, &mut acc, inputs, c, sq);
            }
        }
    }
    acc
}

/// The chain routine of `kind` (exact, so its direct sets equal the walk's).
fn chain_routine(kind: PieceType) -> MobilityFn {
    routine::<FastSliders>(kind, MobilityKind::Chain, false)
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
/// mailbox walk's case table (ARCHITECTURE.md, "Evaluation") as square
/// sets. A square counts if it is in
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
    /// The old case-table ray walk over the mailbox.
    Mailbox,
    /// The exact port as chains of magic/PEXT probes.
    Chain,
    /// Seed 000's single-probe approximation.
    SingleProbe,
}

impl MobilityKind {
    /// The three implementations.
    pub const ALL: [MobilityKind; 3] = [MobilityKind::Mailbox, MobilityKind::Chain, MobilityKind::SingleProbe];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            MobilityKind::Mailbox => "mailbox",
            MobilityKind::Chain => "chain",
            MobilityKind::SingleProbe => "single-probe",
        }
    }

    /// The implementation of this name, if any.
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
    /// The mobility of `c`'s knight on `sq`, recording its attacks.
    fn knight(
        &self,
        pos: &mut Position,
        acc: &mut Accumulators,
        inp: &MobilityInputs,
        c: Color,
        sq: Square,
    ) -> PieceMobility;
    /// The mobility of `c`'s bishop on `sq`, recording its attacks.
    fn bishop(
        &self,
        pos: &mut Position,
        acc: &mut Accumulators,
        inp: &MobilityInputs,
        c: Color,
        sq: Square,
    ) -> PieceMobility;
    /// The mobility of `c`'s rook on `sq`, recording its attacks.
    fn rook(
        &self,
        pos: &mut Position,
        acc: &mut Accumulators,
        inp: &MobilityInputs,
        c: Color,
        sq: Square,
    ) -> PieceMobility;
    /// The mobility of `c`'s queen on `sq`, recording its attacks.
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

/// Does a set with these implementations (N, B, R, Q) walk the mailbox for
/// any piece type, so the attack words are kept?
pub const fn uses_words(kinds: [MobilityKind; 4]) -> bool {
    let mut i = 0;
    while i < 4 {
        if matches!(kinds[i], MobilityKind::Mailbox) {
            return true;
        }
        i += 1;
    }
    false
}

/// Does a set with these implementations use bitboards for any piece type,
/// so the accumulators are kept?
pub const fn uses_accs(kinds: [MobilityKind; 4]) -> bool {
    let mut i = 0;
    while i < 4 {
        if !matches!(kinds[i], MobilityKind::Mailbox) {
            return true;
        }
        i += 1;
    }
    false
}

/// Must every routine of a set with these implementations also write the
/// other representation? Only in a mix of the two: each consumer then finds
/// a complete picture in the one it reads.
pub const fn mirrors(kinds: [MobilityKind; 4]) -> bool {
    uses_words(kinds) && uses_accs(kinds)
}

/// The routine of implementation `$kind` for piece `$piece`, mirroring when
/// `$mirror`; chain and single probe share the knight's (one square set, no
/// rays).
macro_rules! static_routine {
    (knight, Mailbox, $mirror:expr) => {
        mailbox::knight::<{ $mirror }>
    };
    (knight, $kind:ident, $mirror:expr) => {
        chain::knight::<{ $mirror }>
    };
    ($piece:ident, Mailbox, $mirror:expr) => {
        mailbox::$piece::<{ $mirror }>
    };
    ($piece:ident, Chain, $mirror:expr) => {
        chain::$piece::<FastSliders, { $mirror }>
    };
    ($piece:ident, SingleProbe, $mirror:expr) => {
        single_probe::$piece::<FastSliders, { $mirror }>
    };
}

/// A mobility set fixed at compile time: one [`MobilityKind`] per piece
/// type (knight, bishop, rook, queen), each routine monomorphised, no
/// function pointer. A mix mirrors as [`DynamicSet`] does.
macro_rules! static_set {
    ($(#[$doc:meta])* $name:ident: $n:ident, $b:ident, $r:ident, $q:ident;) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Default, Debug)]
        pub struct $name;

        impl $name {
            /// The implementation of each piece type: N, B, R, Q.
            pub const KINDS: [MobilityKind; 4] =
                [MobilityKind::$n, MobilityKind::$b, MobilityKind::$r, MobilityKind::$q];
        }

        impl MobilitySet for $name {
            #[inline(always)]
            fn words(&self) -> bool {
                const { uses_words($name::KINDS) }
            }
            #[inline(always)]
            fn accs(&self) -> bool {
                const { uses_accs($name::KINDS) }
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
                static_routine!(knight, $n, mirrors($name::KINDS))(p, a, i, c, s)
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
                static_routine!(bishop, $b, mirrors($name::KINDS))(p, a, i, c, s)
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
                static_routine!(rook, $r, mirrors($name::KINDS))(p, a, i, c, s)
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
                static_routine!(queen, $q, mirrors($name::KINDS))(p, a, i, c, s)
            }
            fn kinds(&self) -> [MobilityKind; 4] {
                $name::KINDS
            }
        }
    };
}

static_set! {
    /// Every piece type walks the mailbox (the old evaluation).
    MailboxSet: Mailbox, Mailbox, Mailbox, Mailbox;
}
static_set! {
    /// Every piece type uses probe chains (the exact bitboard port).
    ChainSet: Chain, Chain, Chain, Chain;
}
static_set! {
    /// Every piece type uses a single probe (seed 000's approximation).
    SingleProbeSet: SingleProbe, SingleProbe, SingleProbe, SingleProbe;
}
static_set! {
    /// Probe chains, but the knight's mobility walks the mailbox.
    ChainWithMailboxKnight: Mailbox, Chain, Chain, Chain;
}
static_set! {
    /// Probe chains, but the bishop's mobility walks the mailbox.
    ChainWithMailboxBishop: Chain, Mailbox, Chain, Chain;
}
static_set! {
    /// Probe chains, but the rook's mobility walks the mailbox.
    ChainWithMailboxRook: Chain, Chain, Mailbox, Chain;
}
static_set! {
    /// Probe chains, but the queen's mobility walks the mailbox.
    ChainWithMailboxQueen: Chain, Chain, Chain, Mailbox;
}

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
        let (words, accs, mirror) = (uses_words(kinds), uses_accs(kinds), mirrors(kinds));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defects::MailboxDefects;
    use crate::eval::weights::Weights;
    use crate::eval::{pawns, EvalConfig, Evaluation};

    /// Every piece's routine, run on [`attack_state_before`], returns what
    /// the evaluation's trace recorded for it, for each implementation; and
    /// a second run on the state the first left behind returns it again.
    #[test]
    fn attack_state_before_reproduces_the_evaluation() {
        let mut positions = crate::tools::randpos::random_positions(400, 0xB0A2D);
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "1r2r1k1/p1q2ppp/2pb1n2/8/3P4/1QN1B3/PP3PPP/2RR2K1 b - - 0 1",
            "3q1rk1/5ppp/8/3Q4/8/8/1B3PPP/3R2K1 w - - 0 1",
        ] {
            positions.push(Position::from_fen(fen).unwrap());
        }
        let mut checked = 0;
        for kind in MobilityKind::ALL {
            let mut eval = Evaluation::<DynamicSet, MailboxDefects>::new(
                DynamicSet::uniform(kind),
                Weights::default(),
                EvalConfig::default(),
            );
            for pos in &positions {
                let trace = eval.trace(&mut pos.clone());
                let mut p = pos.clone();
                let entry = pawns::evaluate_pawns(&p, &Weights::default());
                let inputs = MobilityInputs::new(&p, entry.stationary);
                for piece in [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
                    let mut acc = attack_state_before(&mut p, &inputs, piece);
                    let f = routine::<FastSliders>(piece, kind, false);
                    for _ in 0..2 {
                        for c in Color::ALL {
                            for sq in p.bb(c, piece) {
                                let want = trace.piece_at(sq).expect("traced").mobility;
                                assert_eq!(
                                    f(&mut p, &mut acc, &inputs, c, sq),
                                    want,
                                    "{kind} {piece:?} {sq} in {}",
                                    pos.to_fen()
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
