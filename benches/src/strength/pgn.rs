//! A played game as PGN: the seven standard tags plus `FEN`/`SetUp` (every
//! game starts from an opening position), `TimeControl`, `Termination` and
//! `PlyCount`; the moves in SAN, each with a comment in the form match
//! runners use (`{+0.31/9 0.104s}`: the mover's score in pawns from its own
//! view, or `+M3`, its depth, its time); the ending in words as a final
//! comment (with the offender's last output after a forfeit). Lines are
//! wrapped at 79 characters.

use super::game::GameRecord;
use super::uci_engine::EngineScore;
use engine::Color;

/// Tags that are not in the game record.
pub struct PgnHeader<'a> {
    pub event: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    /// `pair.game`, e.g. `12.2`.
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    /// `base+inc` in seconds, or `-` without a clock.
    pub time_control: &'a str,
}

/// A tag value with `\` and `"` escaped.
fn tag(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Comment text that cannot close the comment early.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")").replace('{', "("))
}

fn show_score(score: Option<EngineScore>) -> String {
    match score {
        Some(EngineScore::Cp(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
        Some(EngineScore::Mate(n)) if n >= 0 => format!("+M{n}"),
        Some(EngineScore::Mate(n)) => format!("-M{}", -n),
        None => "?".to_string(),
    }
}

/// The whole game as PGN text, ending with a blank line.
pub fn game_pgn(game: &GameRecord, header: &PgnHeader) -> String {
    let mut out = String::new();
    for (name, value) in [
        ("Event", header.event),
        ("Site", "boardbench match"),
        ("Date", header.date),
        ("Round", header.round),
        ("White", header.white),
        ("Black", header.black),
        ("Result", game.result.pgn()),
        ("FEN", &game.opening_fen),
        ("SetUp", "1"),
        ("TimeControl", header.time_control),
        ("Termination", game.ending.pgn_termination()),
    ] {
        out.push_str(&tag(name, value));
    }
    out.push_str(&tag("PlyCount", &game.moves.len().to_string()));
    out.push('\n');

    // Move numbers from the opening's own.
    let mut fields = game.opening_fen.split_whitespace().skip(1);
    let mut side = if fields.next() == Some("b") { Color::Black } else { Color::White };
    let mut number: u32 = game.opening_fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        if side == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.clone());
        let depth = m.depth.map_or("?".to_string(), |d| d.to_string());
        tokens.push(comment(&format!("{}/{depth} {:.3}s", show_score(m.score), m.ms / 1000.0)));
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
    let mut last = game.detail.clone();
    if let Some(f) = &game.forfeit {
        if !f.last_output.is_empty() {
            last.push_str("; last output: ");
            last.push_str(&f.last_output.join(" | "));
        }
    }
    tokens.push(comment(&last));
    tokens.push(game.result.pgn().to_string());

    // Wrap at 79 columns (a long comment may stand alone on a longer line).
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::super::game::{Ending, Forfeit, GameResult, MoveRecord};
    use super::*;

    fn mv(san: &str, score: Option<EngineScore>) -> MoveRecord {
        MoveRecord {
            uci: String::new(),
            san: san.into(),
            score,
            depth: Some(5),
            nodes: None,
            ms: 104.4,
            clock_ms: None,
        }
    }

    #[test]
    fn black_to_move_opening_with_a_forfeit() {
        let game = GameRecord {
            opening_line: 7,
            opening_fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            moves: vec![
                mv("e5", Some(EngineScore::Cp(-31))),
                mv("Nf3", Some(EngineScore::Cp(25))),
                mv("Nc6", Some(EngineScore::Mate(-2))),
            ],
            result: GameResult::BlackWins,
            ending: Ending::Crash,
            detail: "White crashed {exited with status 3}".into(),
            forfeit: Some(Forfeit { side: "white", last_output: vec!["info depth 1".into(), "[stderr] boom".into()] }),
            final_fen: String::new(),
            seconds: 0.3,
            needs_restart: None,
        };
        let header = PgnHeader {
            event: "A vs \"B\"",
            date: "2025.01.02",
            round: "4.2",
            white: "bitboard",
            black: "mailbox",
            time_control: "1+0.01",
        };
        let text = game_pgn(&game, &header);
        assert!(text.starts_with("[Event \"A vs \\\"B\\\"\"]\n[Site \"boardbench match\"]\n[Date \"2025.01.02\"]\n"));
        assert!(
            text.contains("[Result \"0-1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n")
        );
        assert!(text.contains("[Termination \"abandoned\"]\n[PlyCount \"3\"]\n\n"));
        let moves: String = text.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            moves,
            "1... e5 {-0.31/5 0.104s} 2. Nf3 {+0.25/5 0.104s} Nc6 {-M2/5 0.104s} \
             {White crashed (exited with status 3); last output: info depth 1 | [stderr] boom} 0-1"
        );
        // Only a tag or a comment too long for any line is longer.
        assert!(text.lines().all(|l| l.len() <= 79 || l.starts_with('[') || l.starts_with('{')), "{text}");
        assert!(text.ends_with("0-1\n\n"));
    }
}
