//! Standard algebraic notation (SAN): parsing moves as EPD test suites write
//! them (`Qg6`, `Rxb2`, `f7+`, `Bxf3+`, `O-O`, `e8=Q`, `Nbd7`, `R1e2`) and
//! printing them. Parsing is lenient where suites are: check and annotation
//! suffixes (`+ # ! ?`) are ignored, castling may use zeros, the capture
//! mark and `=` before a promotion piece are optional, a missing promotion
//! piece means a queen, and long algebraic (`Ng1-f3`) and UCI (`g1f3`)
//! forms are accepted. Every result is one of the position's legal moves.

use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{PieceType, Square};
use thiserror::Error;

/// Why a move text was not understood.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SanError {
    /// Nothing but blanks.
    #[error("empty move")]
    Empty,
    /// Text that is not a move in any notation accepted.
    #[error("{text:?} is not a move in algebraic notation")]
    Syntax {
        /// The move as written.
        text: String,
    },
    /// A well-formed move that is not legal here.
    #[error("{text:?} matches no legal move in this position")]
    NoSuchMove {
        /// The move as written.
        text: String,
    },
    /// A move that fits more than one legal move.
    #[error("{text:?} is ambiguous here ({candidates})")]
    Ambiguous {
        /// The move as written.
        text: String,
        /// The legal moves it fits.
        candidates: String,
    },
}

/// Parse `text` as a UCI move (`e2e4`, `e7e8q`) if it has that shape.
fn parse_uci_shape(pos: &Position, text: &str) -> Option<Result<Move, SanError>> {
    let b = text.as_bytes();
    // ASCII first: the slices below are by byte.
    let shaped = (b.len() == 4 || b.len() == 5)
        && text.is_ascii()
        && Square::parse(&text[0..2]).is_some()
        && Square::parse(&text[2..4]).is_some()
        && (b.len() == 4 || matches!(b[4].to_ascii_lowercase(), b'q' | b'r' | b'b' | b'n'));
    if !shaped {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    Some(
        legal_moves(pos)
            .iter()
            .copied()
            .find(|m| m.uci().as_str() == lower)
            .ok_or(SanError::NoSuchMove { text: text.to_string() }),
    )
}

/// Parse a move in SAN (or, failing the SAN shape, UCI notation) and return
/// the legal move it names.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, SanError> {
    let trimmed = text.trim();
    if let Some(result) = parse_uci_shape(pos, trimmed) {
        // `b1c3`-like text is never valid SAN, so no SAN reading is lost.
        return result;
    }
    parse_san(pos, trimmed)
}

/// Parse a move in SAN.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    let original = text.trim();
    let body = original.trim_end_matches(['+', '#', '!', '?']);
    if body.is_empty() {
        return if original.is_empty() {
            Err(SanError::Empty)
        } else {
            Err(SanError::Syntax { text: original.to_string() })
        };
    }
    let syntax = || SanError::Syntax { text: original.to_string() };
    let moves = legal_moves(pos);

    let castle = match body {
        "O-O" | "0-0" => Some(6),
        "O-O-O" | "0-0-0" => Some(2),
        _ => None,
    };
    if let Some(file) = castle {
        return moves
            .iter()
            .copied()
            .find(|m| m.is_castle() && m.to().file() == file)
            .ok_or(SanError::NoSuchMove { text: original.to_string() });
    }

    let mut chars: Vec<char> = body.chars().collect();
    // Promotion suffix: `=Q`, `Q`, `(Q)`, `/Q`.
    let mut promotion = None;
    if chars.last() == Some(&')') && chars.len() >= 3 && chars[chars.len() - 3] == '(' {
        let c = chars[chars.len() - 2];
        chars.truncate(chars.len() - 3);
        chars.push(c);
    }
    if let Some(&c) = chars.last() {
        if matches!(c, 'Q' | 'R' | 'B' | 'N' | 'q' | 'r' | 'b' | 'n') && chars.len() >= 3 {
            let kind = PieceType::from_letter(c).ok_or_else(syntax)?;
            chars.pop();
            if matches!(chars.last(), Some('=') | Some('/')) {
                chars.pop();
            }
            promotion = Some(kind);
        }
    }
    // Moving piece.
    let kind = match chars.first() {
        Some(&c @ ('K' | 'Q' | 'R' | 'B' | 'N')) => {
            chars.remove(0);
            PieceType::from_letter(c).ok_or_else(syntax)?
        }
        Some('P') => {
            chars.remove(0);
            PieceType::Pawn
        }
        _ => PieceType::Pawn,
    };
    if chars.len() < 2 {
        return Err(syntax());
    }
    let to_text: String = chars[chars.len() - 2..].iter().collect();
    let to = Square::parse(&to_text).ok_or_else(syntax)?;
    chars.truncate(chars.len() - 2);
    if matches!(chars.last(), Some('x') | Some(':') | Some('-')) {
        chars.pop();
    }
    // What is left disambiguates: a file, a rank, or both.
    let (mut from_file, mut from_rank) = (None, None);
    for c in chars {
        match c {
            'a'..='h' if from_file.is_none() => from_file = Some(c as u8 - b'a'),
            '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
            _ => return Err(syntax()),
        }
    }
    if kind == PieceType::Pawn && promotion.is_none() && matches!(to.rank(), 0 | 7) {
        promotion = Some(PieceType::Queen);
    }

    let mut found: Option<Move> = None;
    let mut candidates = Vec::new();
    for &m in &moves {
        let from = m.from();
        if m.moved().kind() != kind
            || m.to().to_64() != to
            || m.promotion_kind() != promotion
            || from_file.is_some_and(|f| from.file() != f)
            || from_rank.is_some_and(|r| from.rank() != r)
        {
            continue;
        }
        candidates.push(m.uci().to_string());
        found = Some(m);
    }
    match (found, candidates.len()) {
        (Some(m), 1) => Ok(m),
        (None, _) => Err(SanError::NoSuchMove { text: original.to_string() }),
        _ => Err(SanError::Ambiguous { text: original.to_string(), candidates: candidates.join(" ") }),
    }
}

/// `m` (legal in `pos`) in SAN, with `+` or `#` when it gives check or mate.
pub fn to_san(pos: &Position, m: Move) -> String {
    let mut s = String::with_capacity(8);
    if m.is_castle() {
        s.push_str(if m.to().file() == 6 { "O-O" } else { "O-O-O" });
    } else {
        let kind = m.moved().kind();
        let to = m.to().to_64();
        if kind == PieceType::Pawn {
            if m.is_capture() {
                s.push((b'a' + m.from().file()) as char);
            }
        } else {
            s.push(kind.letter().to_ascii_uppercase());
            let rivals: Vec<Move> = legal_moves(pos)
                .iter()
                .copied()
                .filter(|o| o.moved() == m.moved() && o.to() == m.to() && o.from() != m.from())
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|o| o.from().file() == m.from().file());
                let same_rank = rivals.iter().any(|o| o.from().rank() == m.from().rank());
                if !same_file {
                    s.push((b'a' + m.from().file()) as char);
                } else if !same_rank {
                    s.push((b'1' + m.from().rank()) as char);
                } else {
                    s.push_str(&m.from().to_64().to_string());
                }
            }
        }
        if m.is_capture() {
            s.push('x');
        }
        s.push_str(&to.to_string());
        if let Some(p) = m.promotion_kind() {
            s.push('=');
            s.push(p.letter().to_ascii_uppercase());
        }
    }
    let mut after = pos.clone();
    after.make(m);
    if after.in_check() {
        s.push(if legal_moves(&after).is_empty() { '#' } else { '+' });
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn uci(p: &Position, text: &str) -> String {
        parse_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}")).uci().to_string()
    }

    #[test]
    fn suite_spellings() {
        let wac1 = pos("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
        assert_eq!(uci(&wac1, "Qg6"), "g3g6");
        let wac2 = pos("8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1");
        assert_eq!(uci(&wac2, "Rxb2"), "b3b2");
        let ecm1 = pos("2q1r1k1/1ppb4/r2p1Pp1/p4n1p/2P1n3/5NPP/PP3Q1K/2BRRB2 w - - 0 1");
        assert_eq!(uci(&ecm1, "f7+"), "f6f7");
        let ecm2 = pos("7r/1p2k3/2bpp3/p3np2/P1PR4/2N2PP1/1P4K1/3B4 b - - 0 1");
        assert_eq!(uci(&ecm2, "Bxf3+"), "c6f3");
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(uci(&castle, "O-O"), "e1g1");
        assert_eq!(uci(&castle, "0-0-0"), "e1c1");
        let promo = pos("3n4/4P3/8/8/8/8/8/k1K5 w - - 0 1");
        assert_eq!(uci(&promo, "e8=Q"), "e7e8q");
        assert_eq!(uci(&promo, "e8N"), "e7e8n");
        assert_eq!(uci(&promo, "e8"), "e7e8q");
        assert_eq!(uci(&promo, "exd8=R+"), "e7d8r");
        assert_eq!(uci(&promo, "e7d8b"), "e7d8b");
        let knights = pos("4k3/8/8/8/8/5N2/8/1N2K2N w - - 0 1");
        assert_eq!(uci(&knights, "Nbd2"), "b1d2");
        assert_eq!(uci(&knights, "Nfd2"), "f3d2");
        assert_eq!(uci(&knights, "N3d2!?"), "f3d2");
        assert_eq!(uci(&knights, "Nh1-g3"), "h1g3");
        let ep = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(uci(&ep, "exd6"), "e5d6");
        assert_eq!(uci(&ep, "ed6"), "e5d6");
    }

    #[test]
    fn errors_name_the_problem() {
        let start = Position::startpos();
        assert_eq!(parse_move(&start, " "), Err(SanError::Empty));
        assert!(matches!(parse_move(&start, "Ke2"), Err(SanError::NoSuchMove { .. })));
        assert!(matches!(parse_move(&start, "e5"), Err(SanError::NoSuchMove { .. })));
        assert!(matches!(parse_move(&start, "e2e5"), Err(SanError::NoSuchMove { .. })));
        assert!(matches!(parse_move(&start, "Zf3"), Err(SanError::Syntax { .. })));
        assert!(matches!(parse_move(&start, "N"), Err(SanError::Syntax { .. })));
        assert!(matches!(parse_move(&start, "Nj3"), Err(SanError::Syntax { .. })));
        assert!(matches!(parse_move(&start, "+"), Err(SanError::Syntax { .. })));
        // Multi-byte characters where a square's bytes would be sliced.
        for text in ["a\u{e9}1e", "K\u{e9}5", "e2\u{e9}4", "e2e\u{e9}", "\u{e9}\u{e9}"] {
            assert!(matches!(parse_move(&start, text), Err(SanError::Syntax { .. })), "{text}");
        }
        let knights = pos("4k3/8/8/8/8/5N2/8/1N2K2N w - - 0 1");
        let e = parse_move(&knights, "Nd2").unwrap_err();
        assert!(matches!(e, SanError::Ambiguous { .. }), "{e}");
        assert!(e.to_string().contains("b1d2") && e.to_string().contains("f3d2"), "{e}");
    }

    #[test]
    fn printing_round_trips_every_legal_move() {
        let fens = [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/8/8/8/8/5N2/8/1N2K2N w - - 0 1",
            "R6R/8/8/3k4/8/8/8/R3K2R w - - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        ];
        for fen in fens {
            let p = pos(fen);
            for &m in &legal_moves(&p) {
                let san = to_san(&p, m);
                assert_eq!(parse_san(&p, &san), Ok(m), "{fen}: {san}");
            }
        }
        let p = pos("R6R/8/8/3k4/8/8/8/R3K2R w - - 0 1");
        let find = |u: &str| *legal_moves(&p).iter().find(|m| m.uci().as_str() == u).unwrap();
        assert_eq!(to_san(&p, find("a8a4")), "R8a4");
        assert_eq!(to_san(&p, find("a1a4")), "R1a4");
        assert_eq!(to_san(&p, find("a8b8")), "Rab8");
        assert_eq!(to_san(&p, find("h1g1")), "Rg1");
        assert_eq!(to_san(&p, find("a1c1")), "Rc1");
        let mate = pos("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1");
        let m = parse_move(&mate, "Ra8").unwrap();
        assert_eq!(to_san(&mate, m), "Ra8#");
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(to_san(&castle, parse_move(&castle, "e1c1").unwrap()), "O-O-O");
    }
}
