//! What the search needs from an evaluation ([`Evaluator`]), its counters
//! ([`EvalStats`]), and the project's evaluation wrapped as one
//! ([`EngineEval`]). The search is generic over the evaluator a profile
//! names, so the call is monomorphised and inlined into the search.

use super::{EvalConfig, Evaluation};
use crate::bitboard::Bitboard;
use crate::defects::DefectCounter;
use crate::eval::mobility::MobilitySet;
use crate::eval::weights::Weights;
use crate::position::Position;
use crate::types::Color;

/// How evaluations ended, counted since an evaluator was created.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalStats {
    /// Evaluations that exited early because the score was clearly outside
    /// the (alpha, beta) window.
    pub lazy: u64,
    /// Evaluations answered from the evaluation hash.
    pub hash_hits: u64,
    /// Evaluations computed in full.
    pub full: u64,
}

impl EvalStats {
    /// All evaluation calls.
    pub fn calls(&self) -> u64 {
        self.lazy + self.hash_hits + self.full
    }

    /// Counters accumulated since `earlier` (taken from the same evaluator).
    pub fn since(&self, earlier: &EvalStats) -> EvalStats {
        EvalStats {
            lazy: self.lazy - earlier.lazy,
            hash_hits: self.hash_hits - earlier.hash_hits,
            full: self.full - earlier.full,
        }
    }
}

/// What the search needs from an evaluation.
pub trait Evaluator {
    /// Score in centipawns from the side to move's point of view. May exit
    /// early ("lazy") when the score is clearly outside (alpha, beta).
    /// Takes `&mut Position` because the mailbox eval writes attack words
    /// into it.
    fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32;

    /// Forget cached state (eval and pawn hashes): new game, bench position.
    fn clear(&mut self);

    /// Counters since creation: lazy exits, eval-hash hits, full evaluations.
    fn stats(&self) -> EvalStats;

    /// Pieces of the side to move that the last call to
    /// [`evaluate`](Self::evaluate) found en prise, if that call was a full
    /// evaluation (or a hash hit that stores them); empty when unknown (a
    /// lazy exit, or an evaluator that does not record them).
    fn en_prise(&self) -> Bitboard;

    /// Score with `weights` (the "DNA") from now on, every cache forgotten.
    /// An evaluation without a weights table refuses, saying so.
    fn set_weights(&mut self, _weights: Weights) -> Result<(), String> {
        Err("this evaluation has no weights table".to_string())
    }
}

/// The project's evaluation ([`Evaluation`]) as an
/// [`Evaluator`]: mobility set `M`, defect counter `D`, default weights and
/// hash sizes. It remembers whether the last call reached the en-prise
/// records, so stale records from an earlier position are never reported.
pub struct EngineEval<M: MobilitySet, D: DefectCounter> {
    inner: Evaluation<M, D>,
    side: Color,
    records_fresh: bool,
}

impl<M: MobilitySet + Default, D: DefectCounter> Default for EngineEval<M, D> {
    fn default() -> Self {
        EngineEval {
            inner: Evaluation::new(M::default(), Weights::default(), EvalConfig::default()),
            side: Color::White,
            records_fresh: false,
        }
    }
}

impl<M: MobilitySet, D: DefectCounter> EngineEval<M, D> {
    /// Wrap an evaluation built with its own mobility set, weights or
    /// hash sizes.
    pub fn new(inner: Evaluation<M, D>) -> Self {
        EngineEval { inner, side: Color::White, records_fresh: false }
    }

    /// The wrapped evaluation.
    pub fn inner(&self) -> &Evaluation<M, D> {
        &self.inner
    }

    /// The wrapped evaluation, to reset or read its counters.
    pub fn inner_mut(&mut self) -> &mut Evaluation<M, D> {
        &mut self.inner
    }
}

impl<M: MobilitySet, D: DefectCounter> Evaluator for EngineEval<M, D> {
    #[inline(always)]
    fn evaluate(&mut self, pos: &mut Position, alpha: i32, beta: i32) -> i32 {
        let lazy_before = self.inner.stats().lazy;
        let score = self.inner.evaluate(pos, alpha, beta);
        self.records_fresh = self.inner.stats().lazy == lazy_before;
        self.side = pos.side_to_move();
        score
    }

    fn clear(&mut self) {
        self.inner.clear();
        self.records_fresh = false;
    }

    fn stats(&self) -> EvalStats {
        self.inner.stats()
    }

    #[inline(always)]
    fn en_prise(&self) -> Bitboard {
        if self.records_fresh {
            self.inner.records().en_prise[self.side.index()]
        } else {
            Bitboard::EMPTY
        }
    }

    fn set_weights(&mut self, weights: Weights) -> Result<(), String> {
        self.inner = Evaluation::new(*self.inner.set(), weights, self.inner.config());
        self.records_fresh = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defects::MailboxDefects;
    use crate::eval::MailboxSet;

    #[test]
    fn en_prise_records_are_reported_only_when_fresh() {
        // The knight on e4 is attacked by the d5 pawn.
        let mut pos = Position::from_fen("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1").unwrap();
        let mut eval = EngineEval::<MailboxSet, MailboxDefects>::default();
        eval.evaluate(&mut pos, -30_000, 30_000);
        let e4 = crate::types::Square::parse("e4").unwrap();
        assert_eq!(eval.en_prise(), Bitboard::from_square(e4));
        // The same knight, another position, a window far away: a lazy exit
        // reaches no records.
        let mut other = Position::from_fen("4k3/8/8/3p4/4N3/8/8/3K4 w - - 0 1").unwrap();
        let lazy = eval.stats().lazy;
        eval.evaluate(&mut other, 10_000, 10_001);
        assert_eq!(eval.stats().lazy, lazy + 1, "a window far away exits lazily");
        assert!(eval.en_prise().is_empty());
        // A hash hit on the first position brings its records back.
        eval.evaluate(&mut pos, -30_000, 30_000);
        assert_eq!(eval.en_prise(), Bitboard::from_square(e4));
        eval.clear();
        assert!(eval.en_prise().is_empty());
    }

    #[test]
    fn new_weights_change_the_score_and_forget_the_cached_one() {
        // White has the bishop pair, Black a bishop and a knight.
        let fen = "2b1k3/8/2n5/8/8/8/8/2B1KB2 w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let mut eval = EngineEval::<MailboxSet, MailboxDefects>::default();
        let with_pair = eval.evaluate(&mut pos, -30_000, 30_000);
        let no_pair = Weights { bishop_pair: [0; 17], ..Weights::default() };
        let mut fresh = EngineEval::<MailboxSet, MailboxDefects>::new(Evaluation::new(
            MailboxSet,
            no_pair.clone(),
            EvalConfig::default(),
        ));
        let want = fresh.evaluate(&mut pos, -30_000, 30_000);
        assert!(want < with_pair, "{want} {with_pair}");
        eval.set_weights(no_pair).unwrap();
        // The eval hash held the old score: the new one is computed.
        assert_eq!(eval.evaluate(&mut pos, -30_000, 30_000), want);
        // An evaluation without weights says so.
        let mut material = crate::eval::MaterialEval::default();
        assert!(material.set_weights(Weights::default()).unwrap_err().contains("no weights table"));
    }
}
