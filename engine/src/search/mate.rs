//! The search for a mate in at most N moves (UCI `go mate N`).
//!
//! The main search prunes and reduces, so a mate it misses within N moves
//! proves nothing. This one is full width and exact: the attacking side
//! tries every legal move, the defending side every legal reply, and a
//! line counts only if it ends in checkmate within the plies allowed
//! (stalemate, the fifty-move rule and insufficient material end a line
//! without mate). It deepens one move at a time, so the first mate found is
//! the shortest; when N moves are searched without one, none exists. The
//! limits (nodes, time, `stop`) still apply: a search cut short proves
//! nothing either way and says so.
//!
//! After a mate is found the search ends there. Otherwise the move played
//! comes from the ordinary search, to the same depth when no mate exists,
//! or to depth 1 when the mate search was cut short.
//!
//! Nodes are counted as the main search counts them: one per move made.

use super::attacks::AttackRoutines;
use super::{Limits, Profile, SearchInfo, SearchResult, Searcher, MATE, MAX_MATE_MOVES};
use crate::movegen::MoveGen;
use crate::moves::MoveList;
use crate::position::Position;
use std::time::Instant;

/// What a mate search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A forced mate in this many moves, the fewest there are.
    Found {
        /// Moves to mate.
        moves: u32,
    },
    /// Every line was searched: no mate in this many moves or fewer.
    NoneWithin {
        /// The longest mate ruled out.
        moves: u32,
    },
    /// Stopped by a limit or `stop` after proving there is no mate in
    /// `moves` moves or fewer (0: not even a mate in 1 was ruled out).
    Interrupted {
        /// The longest mate ruled out before the stop.
        moves: u32,
    },
}

impl std::fmt::Display for MateOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            MateOutcome::Found { moves } => write!(f, "mate in {moves} found"),
            MateOutcome::NoneWithin { moves } => write!(f, "no mate in {moves} (every line searched)"),
            MateOutcome::Interrupted { moves: 0 } => write!(f, "mate search stopped before any length was settled"),
            MateOutcome::Interrupted { moves } => {
                write!(f, "mate search stopped; no mate in {moves} or fewer, longer ones not searched")
            }
        }
    }
}

impl<P: Profile> Searcher<P> {
    /// [`go`](Self::go) with [`Limits::mate`] set to `moves`.
    pub(super) fn go_mate(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        moves: u32,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let ordinary = Limits { mate: None, ..limits.clone() };
        let mut root_moves = MoveList::new();
        P::Gen::legal(pos, &mut root_moves);
        self.restrict_root(&mut root_moves, &limits.searchmoves);
        if root_moves.is_empty() {
            return self.go(pos, &ordinary, on_info);
        }
        // A depth limit caps the plies as well: a mate in k moves is 2k - 1.
        let mut most = moves.clamp(1, MAX_MATE_MOVES);
        if let Some(depth) = limits.depth {
            most = most.min(depth.div_ceil(2)).max(1);
        }
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        let (_, hard) = super::plan_time(limits);
        self.deadline = hard.map(|d| start + d);
        self.nodes = 0;
        self.pruned = 0;
        self.next_poll = super::POLL_INTERVAL.min(self.node_limit);
        self.aborted = false;
        self.seldepth = 0;
        self.killers.clear();
        pos.reserve_history(super::MAX_PLY + 8);

        let mut settled = 0;
        for k in 1..=most {
            let plies = 2 * k as i32 - 1;
            let found = self.mate_attacker(pos, plies, 0, Some(&root_moves));
            if self.aborted {
                break;
            }
            if found {
                let pv = self.pv.moves[0][..self.pv.len[0]].to_vec();
                let score = MATE - plies;
                on_info(&SearchInfo {
                    depth: plies as u32,
                    seldepth: plies as u32,
                    score,
                    nodes: self.nodes,
                    elapsed: start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: &pv,
                });
                return SearchResult {
                    best: pv[0],
                    score,
                    depth: plies as u32,
                    seldepth: plies as u32,
                    nodes: self.nodes,
                    pruned: 0,
                    elapsed: start.elapsed(),
                    pv,
                    mate_search: Some(MateOutcome::Found { moves: k }),
                };
            }
            settled = k;
        }
        let outcome = if self.aborted {
            MateOutcome::Interrupted { moves: settled }
        } else {
            MateOutcome::NoneWithin { moves: settled }
        };
        // No mate to play: the ordinary search picks the move, with what is
        // left of the node budget and of the time (it plans its time from
        // its own start, so the time spent here comes off the move time or
        // the clock it is given).
        let mate_nodes = self.nodes;
        let mut rest = ordinary;
        rest.depth = Some(if self.aborted { 1 } else { 2 * settled - 1 });
        if let Some(n) = rest.nodes {
            rest.nodes = Some(n.saturating_sub(mate_nodes).max(1));
        }
        let spent = start.elapsed();
        if let Some(t) = rest.movetime {
            rest.movetime = Some(t.saturating_sub(spent).max(std::time::Duration::from_millis(1)));
        }
        if let Some(clock) = rest.clock.as_mut() {
            clock.time = clock.time.saturating_sub(spent);
        }
        let mut result = self.go(pos, &rest, on_info);
        result.nodes += mate_nodes;
        result.elapsed = start.elapsed();
        result.mate_search = Some(outcome);
        result
    }

    /// Can the side to move mate within `plies` (odd) plies? `root_moves`
    /// (at the root only) are the moves to try, else every legal move. On
    /// success the line is in the PV table at `ply`.
    fn mate_attacker(&mut self, pos: &mut Position, plies: i32, ply: usize, root_moves: Option<&MoveList>) -> bool {
        self.pv.len[ply] = 0;
        let list = match root_moves {
            Some(moves) => moves.clone(),
            None => {
                if pos.halfmove_clock() >= 100 || pos.insufficient_material() {
                    return false;
                }
                let mut list = MoveList::new();
                P::Gen::legal(pos, &mut list);
                list
            }
        };
        // Checks first: they mate most often and leave the defender the
        // fewest replies. With one ply left only a check can mate.
        let mut quiet = MoveList::new();
        for &m in &list {
            pos.make(m);
            self.count_node();
            let check = P::Attacks::in_check(pos);
            let mated = check && self.mate_defender(pos, plies - 1, ply + 1);
            pos.unmake();
            if self.aborted {
                return false;
            }
            if mated {
                self.pv.update(ply, m);
                return true;
            }
            if !check && plies > 1 {
                quiet.push(m);
            }
        }
        for &m in &quiet {
            pos.make(m);
            self.count_node();
            let mated = self.mate_defender(pos, plies - 1, ply + 1);
            pos.unmake();
            if self.aborted {
                return false;
            }
            if mated {
                self.pv.update(ply, m);
                return true;
            }
        }
        false
    }

    /// Is the side to move, with `plies` (even) plies left, mated by every
    /// line? On success the PV table at `ply` holds one of them.
    fn mate_defender(&mut self, pos: &mut Position, plies: i32, ply: usize) -> bool {
        self.pv.len[ply] = 0;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let mut list = MoveList::new();
        P::Gen::legal(pos, &mut list);
        if list.is_empty() {
            return P::Attacks::in_check(pos);
        }
        // Not mated now: only a reply that still leaves a mate helps, and
        // a draw by the fifty-move rule comes first.
        if plies == 0 || pos.halfmove_clock() >= 100 {
            return false;
        }
        // The reply that refuted the last sibling first: refutations repeat.
        let killer = self.killers.get(ply)[0];
        if let Some(i) = list.iter().position(|&m| m == killer) {
            list.as_mut_slice().swap(0, i);
        }
        let mut first = true;
        for &m in &list {
            pos.make(m);
            self.count_node();
            let mated = self.mate_attacker(pos, plies - 1, ply + 1, None);
            pos.unmake();
            if self.aborted {
                return false;
            }
            if !mated {
                if m != killer {
                    self.killers.record(ply, m);
                }
                return false;
            }
            if first {
                self.pv.update(ply, m);
                first = false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::search::{BitboardProfile, MailboxProfile};

    fn mate_search<P: Profile>(fen: &str, moves: u32) -> SearchResult {
        let mut pos = Position::from_fen(fen).unwrap();
        let limits = Limits { mate: Some(moves), nodes: Some(50_000_000), ..Limits::default() };
        Searcher::<P>::new(1).go(&mut pos, &limits, &mut |_| {})
    }

    /// The line must end in checkmate after exactly the reported number of
    /// plies, every move legal.
    fn assert_mating_line(fen: &str, pv: &[Move], plies: usize) {
        let mut pos = Position::from_fen(fen).unwrap();
        assert_eq!(pv.len(), plies, "{pv:?}");
        for &m in pv {
            assert!(crate::movegen::legal_moves(&pos).iter().any(|&x| x == m), "{m} illegal in {}", pos.to_fen());
            pos.make(m);
        }
        assert!(pos.in_check() && crate::movegen::legal_moves(&pos).is_empty(), "{} is no mate", pos.to_fen());
    }

    #[test]
    fn finds_the_shortest_mate() {
        // Back-rank mate in 1; mate in 2 (Qxh7+ ... ) from a classic.
        for (fen, moves) in [
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
            ("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 2),
            ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2),
        ] {
            for r in [mate_search::<BitboardProfile>(fen, 5), mate_search::<MailboxProfile>(fen, 5)] {
                assert_eq!(r.mate_search, Some(MateOutcome::Found { moves }), "{fen}");
                assert_eq!(r.score, MATE - (2 * moves as i32 - 1));
                assert_mating_line(fen, &r.pv, 2 * moves as usize - 1);
            }
        }
    }

    #[test]
    fn proves_absence_and_still_answers() {
        // Mate in 2 exists but not in 1; the start position has none in 2.
        let r = mate_search::<BitboardProfile>("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 1);
        assert_eq!(r.mate_search, Some(MateOutcome::NoneWithin { moves: 1 }));
        assert!(!r.best.is_null());
        let r = mate_search::<BitboardProfile>(crate::position::START_FEN, 2);
        assert_eq!(r.mate_search, Some(MateOutcome::NoneWithin { moves: 2 }));
        assert_eq!(r.depth, 3, "the ordinary search to the depth of a mate in 2");
        // Stalemate is no mate: Bh2 stalemates White (it covers b8), and
        // king and bishop cannot mate.
        let r = mate_search::<BitboardProfile>("K7/8/1k6/8/8/8/8/6b1 b - - 0 1", 1);
        assert_eq!(r.mate_search, Some(MateOutcome::NoneWithin { moves: 1 }));
    }

    #[test]
    fn a_node_budget_interrupts_it() {
        let mut pos = Position::startpos();
        let limits = Limits { mate: Some(4), nodes: Some(5_000), ..Limits::default() };
        let r = Searcher::<BitboardProfile>::new(1).go(&mut pos, &limits, &mut |_| {});
        assert!(matches!(r.mate_search, Some(MateOutcome::Interrupted { .. })), "{:?}", r.mate_search);
        assert!(crate::movegen::legal_moves(&pos).iter().any(|&m| m == r.best));
    }

    #[test]
    fn searchmoves_restricts_the_mating_move() {
        // Ra8# is the mate; restricted to a king move there is none in 1.
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let kf1 = *crate::movegen::legal_moves(&pos).iter().find(|m| m.uci().as_str() == "g1f1").unwrap();
        let limits = Limits { mate: Some(1), searchmoves: vec![kf1], ..Limits::default() };
        let r = Searcher::<BitboardProfile>::new(1).go(&mut pos, &limits, &mut |_| {});
        assert_eq!(r.mate_search, Some(MateOutcome::NoneWithin { moves: 1 }));
        assert_eq!(r.best, kf1);
    }
}
