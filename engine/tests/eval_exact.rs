//! The evaluation's exactness and symmetry: the chain mobility reproduces
//! the mailbox walk in every term (each piece type toggled on its own and all
//! together), and every position scores the same as its colour mirror.

use engine::defects::MailboxDefects;
use engine::eval::trace::Trace;
use engine::eval::weights::Weights;
use engine::eval::{DynamicSet, EvalConfig, Evaluation, MobilityKind};
use engine::randpos::random_positions;
use engine::Position;

fn trace(kinds: [MobilityKind; 4], pos: &Position) -> Trace {
    let mut e = Evaluation::<DynamicSet, MailboxDefects>::new(
        DynamicSet::new(kinds),
        Weights::default(),
        EvalConfig::default(),
    );
    e.trace(&mut pos.clone())
}

fn toggles() -> Vec<[MobilityKind; 4]> {
    use MobilityKind::{Chain as C, Mailbox as M};
    vec![[C, M, M, M], [M, C, M, M], [M, M, C, M], [M, M, M, C], [C, C, C, C]]
}

#[test]
fn chain_equals_mailbox_in_every_term() {
    let positions = random_positions(2000, 0xE7A1);
    let mut compared = 0;
    for pos in &positions {
        let base = trace([MobilityKind::Mailbox; 4], pos);
        for kinds in toggles() {
            let t = trace(kinds, pos);
            assert_eq!(t, base, "{kinds:?} differs on {}", pos.to_fen());
            compared += 1;
        }
    }
    assert_eq!(compared, 10_000);
}

#[test]
fn colour_mirror_scores_the_same_for_every_mobility_implementation() {
    let positions = random_positions(3000, 0x5EE1);
    for kind in MobilityKind::ALL {
        for pos in &positions {
            let mirror = pos.color_mirror();
            assert_eq!(mirror.color_mirror().to_fen(), pos.to_fen());
            let a = trace([kind; 4], pos);
            let b = trace([kind; 4], &mirror);
            assert_eq!(a.side_to_move, b.side_to_move, "{kind} {} vs {}", pos.to_fen(), mirror.to_fen());
            for (i, term) in a.terms.iter().enumerate() {
                assert_eq!(term[0], b.terms[i][1], "{kind} term {i} on {}", pos.to_fen());
                assert_eq!(term[1], b.terms[i][0], "{kind} term {i} on {}", pos.to_fen());
            }
        }
    }
}

#[test]
fn material_table_hits_score_what_recomputing_scores() {
    // The same positions traced twice through one evaluator (the second
    // trace reads every material entry back from the table) and once with
    // the table off (every entry recomputed from the position).
    let positions = random_positions(2000, 0x3A7E);
    let evaluator = |material_hash_bytes| {
        Evaluation::<DynamicSet, MailboxDefects>::new(
            DynamicSet::new([MobilityKind::Chain; 4]),
            Weights::default(),
            EvalConfig { material_hash_bytes, ..EvalConfig::default() },
        )
    };
    let (mut cached, mut off) = (evaluator(EvalConfig::default().material_hash_bytes), evaluator(0));
    for pos in &positions {
        cached.trace(&mut pos.clone());
    }
    let mut distinct = std::collections::HashSet::new();
    for pos in &positions {
        distinct.insert(pos.material_key());
        let hit = cached.trace(&mut pos.clone());
        assert_eq!(hit, off.trace(&mut pos.clone()), "{}", pos.to_fen());
    }
    assert!(distinct.len() > 100, "only {} material signatures", distinct.len());
}
