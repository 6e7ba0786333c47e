//! mobilitybench: the evaluation's mobility routines per piece type
//! (knight, bishop, rook, queen), three ways — the old case-table ray walk
//! over the 0x88 board (writes attack words, reads "unsafe" from them), the
//! exact chain of magic/PEXT probes, and the approximate single probe
//! (both write and read eval-local accumulators). The direct measurement of
//! the bet behind the migration that the walk's per-square dispatch is what
//! costs.
//!
//! One call runs the routine of one piece type for every piece of that type
//! of both colours of one position. The attack state the routine reads is
//! built outside the timed call, once per input, by
//! `engine::eval::mobility::attack_state_before`: pawn attacks and every
//! earlier attacker class, in the attack words (for the walk) and in the
//! accumulators (for the probes) — what the evaluation has in place when it
//! reaches that piece type. A routine only ORs its own class's bits, which
//! no routine of that class reads, so calling it again on the same input
//! sees the same state and returns the same result (the engine tests this
//! against the evaluation's trace).
//!
//! Only positions holding at least one piece of the type are measured (a
//! call on the others does nothing but loop): each benchmark's buckets and
//! ladder are the default ones filtered so; a rung left empty is dropped.
//!
//! Knights have no single-probe routine of their own (the single-probe set
//! uses the chain's table lookup), so that arm runs the chain routine. The
//! chain must return what the walk returns; the single probe differs by
//! design and is not checked.

use crate::measure::context::Context;
use crate::suite::benchmark::run_arms;
use crate::suite::spec::{ArmSpec, Entry, Filter, Spec};
use engine::eval::attacks::Accumulators;
use engine::eval::mobility::{attack_state_before, chain, mailbox, single_probe, MobilityInputs, PieceMobility};
use engine::eval::pawns::evaluate_pawns;
use engine::eval::weights::Weights;
use engine::sliders::FastSliders;
use engine::types::{Color, PieceType, Square};
use engine::Position;

/// A position with the attack state one piece type's routines read.
#[derive(Clone)]
pub struct MobilityState {
    pub pos: Position,
    pub acc: Accumulators,
    pub inputs: MobilityInputs,
}

/// Every piece of type `kind` through routine `f`; the checksum folds every
/// field of every result, in board order (the same for every arm).
#[inline(always)]
fn sweep(
    s: &mut MobilityState,
    kind: PieceType,
    f: impl Fn(&mut Position, &mut Accumulators, &MobilityInputs, Color, Square) -> PieceMobility,
) -> u64 {
    let mut sum = 0u64;
    for c in Color::ALL {
        for sq in s.pos.bb(c, kind) {
            let m = f(&mut s.pos, &mut s.acc, &s.inputs, c, sq);
            let packed = u64::from(m.mobility)
                | u64::from(m.best_ray) << 8
                | u64::from(m.connected_rank) << 16
                | u64::from(m.connected_file) << 24
                | u64::from(m.king_walks) << 32
                | u64::from(m.through) << 40;
            sum = sum.wrapping_mul(0x100_0000_01B3).wrapping_add(packed + 1);
        }
    }
    sum
}

/// The attack state for `kind` on a copy of `pos`.
pub fn prepare_for(pos: &Position, kind: PieceType) -> MobilityState {
    let mut p = pos.clone();
    p.clear_history();
    let entry = evaluate_pawns(&p, &Weights::default());
    let inputs = MobilityInputs::new(&p, entry.stationary);
    let acc = attack_state_before(&mut p, &inputs, kind);
    MobilityState { pos: p, acc, inputs }
}

macro_rules! arms {
    ($kind:expr, $prepare:ident, $walk:ident, $chain:ident, $single:ident,
     $walk_fn:expr, $chain_fn:expr, $single_fn:expr) => {
        fn $prepare(pos: &Position) -> MobilityState {
            prepare_for(pos, $kind)
        }
        fn $walk(s: &mut MobilityState) -> u64 {
            sweep(s, $kind, $walk_fn)
        }
        fn $chain(s: &mut MobilityState) -> u64 {
            sweep(s, $kind, $chain_fn)
        }
        fn $single(s: &mut MobilityState) -> u64 {
            sweep(s, $kind, $single_fn)
        }
    };
}

arms!(
    PieceType::Knight,
    prepare_knight,
    knight_mailbox,
    knight_chain,
    knight_single,
    mailbox::knight::<false>,
    chain::knight::<false>,
    chain::knight::<false>
);
arms!(
    PieceType::Bishop,
    prepare_bishop,
    bishop_mailbox,
    bishop_chain,
    bishop_single,
    mailbox::bishop::<false>,
    chain::bishop::<FastSliders, false>,
    single_probe::bishop::<FastSliders, false>
);
arms!(
    PieceType::Rook,
    prepare_rook,
    rook_mailbox,
    rook_chain,
    rook_single,
    mailbox::rook::<false>,
    chain::rook::<FastSliders, false>,
    single_probe::rook::<FastSliders, false>
);
arms!(
    PieceType::Queen,
    prepare_queen,
    queen_mailbox,
    queen_chain,
    queen_single,
    mailbox::queen::<false>,
    chain::queen::<FastSliders, false>,
    single_probe::queen::<FastSliders, false>
);

/// The piece types, in evaluation order.
pub const KINDS: [PieceType; 4] = [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen];

/// The benchmark of one piece type (knight, bishop, rook or queen).
pub fn spec(kind: PieceType) -> Spec<MobilityState> {
    type R = fn(&mut MobilityState) -> u64;
    let (name, prepare, routines): (&'static str, fn(&Position) -> MobilityState, [R; 3]) = match kind {
        PieceType::Knight => ("mobilitybench-knight", prepare_knight, [knight_mailbox, knight_chain, knight_single]),
        PieceType::Bishop => ("mobilitybench-bishop", prepare_bishop, [bishop_mailbox, bishop_chain, bishop_single]),
        PieceType::Rook => ("mobilitybench-rook", prepare_rook, [rook_mailbox, rook_chain, rook_single]),
        _ => ("mobilitybench-queen", prepare_queen, [queen_mailbox, queen_chain, queen_single]),
    };
    Spec {
        name,
        about: match kind {
            PieceType::Knight => "knight mobility: mailbox walk vs table lookup (chain; single-probe runs the same)",
            PieceType::Bishop => "bishop mobility: mailbox case-table walk vs probe chain vs single probe",
            PieceType::Rook => "rook mobility: mailbox case-table walk vs probe chain vs single probe",
            _ => "queen mobility: mailbox case-table walk vs probe chain vs single probe",
        },
        call: "the mobility routine for every piece of this type of both colours, attack state in place",
        prepare,
        arms: vec![
            ArmSpec { name: "mailbox", routine: routines[0] },
            ArmSpec { name: "chain", routine: routines[1] },
            ArmSpec { name: "single-probe", routine: routines[2] },
        ],
        must_agree: true,
    }
}

/// Positions holding a piece of the type.
pub fn filter(kind: PieceType) -> Filter {
    match kind {
        PieceType::Knight => Filter { what: "with a knight", keep: |p| p.kind_bb(PieceType::Knight).is_nonempty() },
        PieceType::Bishop => Filter { what: "with a bishop", keep: |p| p.kind_bb(PieceType::Bishop).is_nonempty() },
        PieceType::Rook => Filter { what: "with a rook", keep: |p| p.kind_bb(PieceType::Rook).is_nonempty() },
        _ => Filter { what: "with a queen", keep: |p| p.kind_bb(PieceType::Queen).is_nonempty() },
    }
}

/// Measure one piece type; the single probe is not held to the chain's
/// results except for knights, where it is the chain's routine.
pub fn run(
    ctx: &Context,
    set: &crate::suite::density::PositionSet,
    kind: PieceType,
) -> Result<crate::suite::report::BenchReport, String> {
    let spec = spec(kind);
    let mut arms = spec.arms();
    for a in arms.iter_mut().filter(|a| a.name == "single-probe") {
        a.must_agree = kind == PieceType::Knight;
    }
    run_arms(ctx, &spec, &arms, set, Some(filter(kind)))
}

pub const KNIGHT: Entry = Entry {
    name: "mobilitybench-knight",
    about: "knight mobility: mailbox / chain / single-probe",
    run: |ctx: &Context, set| run(ctx, set, PieceType::Knight),
};
pub const BISHOP: Entry = Entry {
    name: "mobilitybench-bishop",
    about: "bishop mobility: mailbox / chain / single-probe",
    run: |ctx: &Context, set| run(ctx, set, PieceType::Bishop),
};
pub const ROOK: Entry = Entry {
    name: "mobilitybench-rook",
    about: "rook mobility: mailbox / chain / single-probe",
    run: |ctx: &Context, set| run(ctx, set, PieceType::Rook),
};
pub const QUEEN: Entry = Entry {
    name: "mobilitybench-queen",
    about: "queen mobility: mailbox / chain / single-probe",
    run: |ctx: &Context, set| run(ctx, set, PieceType::Queen),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_agrees_with_the_walk_on_real_positions_and_calls_repeat() {
        let set = crate::suite::benchmarks::tests::real_positions();
        for kind in KINDS {
            let spec = spec(kind);
            let f = filter(kind);
            let (mut measured, mut single_differs) = (0, 0);
            for pos in set.iter().filter(|p| (f.keep)(p)) {
                let mut s = (spec.prepare)(pos);
                let want = (spec.arms[0].routine)(&mut s);
                assert_ne!(want, 0);
                for _ in 0..2 {
                    assert_eq!((spec.arms[0].routine)(&mut s), want, "walk repeats, {kind:?} {}", pos.to_fen());
                    assert_eq!((spec.arms[1].routine)(&mut s), want, "chain, {kind:?} {}", pos.to_fen());
                }
                let single = (spec.arms[2].routine)(&mut s);
                assert_eq!((spec.arms[2].routine)(&mut s), single, "single probe repeats");
                if kind == PieceType::Knight {
                    assert_eq!(single, want);
                }
                single_differs += usize::from(single != want);
                measured += 1;
            }
            assert!(measured >= 30, "{kind:?}: {measured} positions");
            if kind != PieceType::Knight {
                // The approximation shows on real positions (batteries, x-rays).
                assert!(single_differs > 0, "{kind:?}");
            }
        }
    }

    #[test]
    fn the_state_matters() {
        // Without the enemy minors' attacks in place, a rook would count
        // squares they guard: the prepared state is what makes it right.
        let pos = Position::from_fen("3r2k1/5ppp/2n5/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let mut right = prepare_for(&pos, PieceType::Rook);
        let mut wrong = prepare_for(&pos, PieceType::Knight);
        assert_ne!(rook_mailbox(&mut right), rook_mailbox(&mut wrong));
        assert_ne!(rook_chain(&mut right), rook_chain(&mut wrong));
        assert_eq!(rook_mailbox(&mut right), rook_chain(&mut right));
    }
}
