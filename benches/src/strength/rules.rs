//! The rules that end a game by themselves, judged on the engine crate's
//! [`Position`]: checkmate, stalemate, threefold repetition, the fifty-move
//! rule and insufficient material, and whether a side still has material
//! to mate with (a flag against a side that cannot mate is a draw).
//!
//! Repetitions are counted on the position keys since the last irreversible
//! move (pawn move or capture): equal keys mean the same placement, side to
//! move, castling rights and a capturable en-passant square (the engine
//! hashes the en-passant file only when a pawn could take). Threefold and
//! fifty moves end the game at once, as match runners do (no claim needed);
//! a mate delivered on the hundredth half-move still wins, since mate is
//! judged first.

use engine::movegen::legal_moves;
use engine::{Color, Move, PieceType, Position};

/// How the rules ended a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleEnding {
    /// The side to move is mated.
    Checkmate,
    Stalemate,
    ThreefoldRepetition,
    FiftyMoves,
    InsufficientMaterial,
}

impl RuleEnding {
    pub fn describe(self) -> &'static str {
        match self {
            RuleEnding::Checkmate => "checkmate",
            RuleEnding::Stalemate => "stalemate",
            RuleEnding::ThreefoldRepetition => "threefold repetition",
            RuleEnding::FiftyMoves => "fifty-move rule",
            RuleEnding::InsufficientMaterial => "insufficient material",
        }
    }
}

/// A game in progress: the position and the keys of every position so far.
#[derive(Clone, Debug)]
pub struct GameState {
    pub position: Position,
    /// Keys from the start position on, the current one last.
    keys: Vec<u64>,
}

impl GameState {
    pub fn new(position: Position) -> GameState {
        let keys = vec![position.key()];
        GameState { position, keys }
    }

    /// Play a legal move.
    pub fn play(&mut self, m: Move) {
        self.position.make(m);
        self.keys.push(self.position.key());
    }

    /// Half-moves played from the start position.
    pub fn plies(&self) -> usize {
        self.keys.len() - 1
    }

    /// How often the current position has stood on the board since the last
    /// irreversible move (itself included).
    pub fn occurrences(&self) -> usize {
        let now = *self.keys.last().expect("the start position");
        let reversible = (self.position.halfmove_clock() as usize + 1).min(self.keys.len());
        self.keys[self.keys.len() - reversible..].iter().filter(|&&k| k == now).count()
    }

    /// The rule that ends the game here, if any.
    pub fn ending(&self) -> Option<RuleEnding> {
        let pos = &self.position;
        if legal_moves(pos).is_empty() {
            return Some(if pos.in_check() { RuleEnding::Checkmate } else { RuleEnding::Stalemate });
        }
        if pos.insufficient_material() {
            return Some(RuleEnding::InsufficientMaterial);
        }
        if self.occurrences() >= 3 {
            return Some(RuleEnding::ThreefoldRepetition);
        }
        if pos.halfmove_clock() >= 100 {
            return Some(RuleEnding::FiftyMoves);
        }
        None
    }
}

/// Whether `side` has material that could ever mate: a pawn, rook or queen,
/// or two minor pieces. (King and one minor piece cannot; the rare mates
/// that need the other side's pieces to block are not looked for, as match
/// runners do not.)
pub fn has_mating_material(pos: &Position, side: Color) -> bool {
    let count = |kind| pos.count(side, kind);
    count(PieceType::Pawn) + count(PieceType::Rook) + count(PieceType::Queen) > 0
        || count(PieceType::Knight) + count(PieceType::Bishop) >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(fen: &str) -> GameState {
        GameState::new(Position::from_fen(fen).unwrap())
    }

    /// Play moves in UCI notation.
    fn play(g: &mut GameState, moves: &str) {
        for text in moves.split_whitespace() {
            let m = legal_moves(&g.position)
                .iter()
                .copied()
                .find(|m| m.uci().as_str() == text)
                .unwrap_or_else(|| panic!("{text} is not legal in {}", g.position.to_fen()));
            g.play(m);
        }
    }

    #[test]
    fn checkmate_and_stalemate() {
        // Fool's mate: White is mated.
        let mut g = state("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        play(&mut g, "f2f3 e7e5 g2g4");
        assert_eq!(g.ending(), None);
        play(&mut g, "d8h4");
        assert_eq!(g.ending(), Some(RuleEnding::Checkmate));
        assert_eq!(g.position.side_to_move(), Color::White);
        // Black king in the corner, no move and not in check.
        assert_eq!(state("k7/8/1Q6/8/8/8/8/7K b - - 0 1").ending(), Some(RuleEnding::Stalemate));
        // The same with the queen one square off: not stalemate.
        assert_eq!(state("k7/8/2Q5/8/8/8/8/7K b - - 0 1").ending(), None);
    }

    #[test]
    fn threefold_repetition_counts_positions_not_moves() {
        let mut g = state("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
        // Knight out and back twice: the start position stands a third time.
        play(&mut g, "g1f3 e8d8 f3g1 d8e8");
        assert_eq!((g.occurrences(), g.ending()), (2, None));
        play(&mut g, "g1f3 e8d8 f3g1");
        assert_eq!(g.ending(), None);
        play(&mut g, "d8e8");
        assert_eq!((g.occurrences(), g.ending()), (3, Some(RuleEnding::ThreefoldRepetition)));
        // A pawn move in between starts the count again.
        let mut g = state("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
        play(&mut g, "g1f3 e8d8 f3g1 d8e8 e2e3 e8d8 g1f3 d8e8 f3g1");
        assert_eq!(g.occurrences(), 2);
        assert_eq!(g.ending(), None);
    }

    #[test]
    fn fifty_moves_unless_mated() {
        // 99 reversible half-moves so far; one more quiet move draws.
        let mut g = state("4k3/8/8/8/8/8/4P3/4K1N1 w - - 99 80");
        assert_eq!(g.ending(), None);
        play(&mut g, "g1f3");
        assert_eq!(g.ending(), Some(RuleEnding::FiftyMoves));
        // A pawn move resets the clock.
        let mut g = state("4k3/8/8/8/8/8/4P3/4K1N1 w - - 99 80");
        play(&mut g, "e2e4");
        assert_eq!(g.ending(), None);
        // Mate on the hundredth half-move is mate.
        let mut g = state("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
        play(&mut g, "a1a8");
        assert_eq!(g.position.halfmove_clock(), 100);
        assert_eq!(g.ending(), Some(RuleEnding::Checkmate));
    }

    #[test]
    fn insufficient_material() {
        for fen in [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",    // K v K
            "4k3/8/8/8/8/8/8/3BK3 w - - 0 1",   // K+B v K
            "4k3/8/8/8/8/8/8/3NK3 b - - 0 1",   // K+N v K
            "2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1", // bishops on the same shade (c8, d1: light)
        ] {
            assert_eq!(state(fen).ending(), Some(RuleEnding::InsufficientMaterial), "{fen}");
        }
        for fen in [
            "3bk3/8/8/8/8/8/8/3BK3 w - - 0 1", // bishops on opposite shades (d8 dark, d1 light)
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", // a pawn
            "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", // two knights
        ] {
            assert_eq!(state(fen).ending(), None, "{fen}");
        }
    }

    #[test]
    fn mating_material() {
        let pos = |fen: &str| Position::from_fen(fen).unwrap();
        assert!(!has_mating_material(&pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"), Color::White));
        assert!(!has_mating_material(&pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"), Color::Black));
        assert!(has_mating_material(&pos("4k3/8/8/8/8/8/8/2BNK3 w - - 0 1"), Color::White));
        assert!(has_mating_material(&pos("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1"), Color::Black));
    }
}
