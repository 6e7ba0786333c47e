//! sliderbench: slider attacks three ways — the old 0x88 ray walk, magic
//! bitboards, PEXT — on the occupancy of each position. One call computes
//! rook and bishop attacks from all 64 squares (128 probes), so the ray
//! walk's dependence on how crowded the board is shows directly.

use crate::measure::context::Context;
use crate::suite::benchmark::run_spec;
use crate::suite::spec::{ArmSpec, Entry, Spec};
use engine::sliders::{Magic, RayWalk, Sliders};
use engine::{Bitboard, Position, Square};

/// Rook and bishop attacks from every square; checksum = total attacked squares.
#[inline(always)]
fn sweep<S: Sliders>(occ: &mut Bitboard) -> u64 {
    let occ = *occ;
    let mut n = 0u64;
    for i in 0..64 {
        let sq = Square::from_index(i);
        n += u64::from(S::rook(sq, occ).count() + S::bishop(sq, occ).count());
    }
    n
}

fn raywalk(occ: &mut Bitboard) -> u64 {
    sweep::<RayWalk>(occ)
}

fn magic(occ: &mut Bitboard) -> u64 {
    sweep::<Magic>(occ)
}

#[cfg(target_feature = "bmi2")]
fn pext(occ: &mut Bitboard) -> u64 {
    sweep::<engine::sliders::Pext>(occ)
}

fn prepare(pos: &Position) -> Bitboard {
    pos.occupied()
}

/// The benchmark.
pub fn spec() -> Spec<Bitboard> {
    #[allow(unused_mut)]
    let mut arms = vec![ArmSpec { name: "raywalk", routine: raywalk }, ArmSpec { name: "magic", routine: magic }];
    #[cfg(target_feature = "bmi2")]
    arms.push(ArmSpec { name: "pext", routine: pext });
    Spec {
        name: "sliderbench",
        about: "slider attacks: 0x88 ray walk vs magic vs PEXT",
        call: "rook + bishop attacks from all 64 squares for the position's occupancy",
        prepare,
        arms,
        must_agree: true,
    }
}

pub const ENTRY: Entry = Entry {
    name: "sliderbench",
    about: "slider attacks: ray walk / magic / PEXT",
    run: |ctx: &Context, set| run_spec(ctx, spec(), set),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arms_agree() {
        let mut occ = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap()
            .occupied();
        let spec = spec();
        let want = (spec.arms[0].routine)(&mut occ);
        assert!(want > 0);
        for a in &spec.arms {
            assert_eq!((a.routine)(&mut occ), want, "{}", a.name);
        }
    }
}
