//! Opening positions for a match: one FEN or EPD position per line (EPD
//! operations are ignored, blank lines and `#` lines skipped), each checked
//! to be a legal position where the game is not already over. A match plays
//! them in a seeded shuffled order, each one twice (colours reversed),
//! starting over when a long match has used them all.

use super::rules::GameState;
use engine::position::epd::Epd;
use engine::rng::Rng;
use engine::Position;
use std::path::{Path, PathBuf};

/// The shipped openings: frequent positions of real games (28-32 men).
pub const DEFAULT_FILE: &str = "lichess_popular_20k.epd";

/// One opening.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Line number in its file (1-based).
    pub line: usize,
    /// Its FEN with both move counters.
    pub fen: String,
    pub position: Position,
}

/// The openings of one file.
#[derive(Clone, Debug)]
pub struct Book {
    pub path: PathBuf,
    pub openings: Vec<Opening>,
}

impl Book {
    /// Read and check every line; the first bad one is an error naming
    /// the file and line.
    pub fn load(path: &Path) -> Result<Book, String> {
        let bytes = crate::output::read_back(path).map_err(|e| format!("openings {}: {e}", path.display()))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("openings {}: not a text file (not UTF-8)", path.display()))?;
        let mut openings = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = || format!("openings {}:{}", path.display(), i + 1);
            let epd = Epd::parse(line).map_err(|e| format!("{}: {e}", at()))?;
            let position = epd.position().clone();
            if let Some(ending) = GameState::new(position.clone()).ending() {
                return Err(format!("{}: the game is already over there ({})", at(), ending.describe()));
            }
            openings.push(Opening { line: i + 1, fen: position.to_fen(), position });
        }
        if openings.is_empty() {
            return Err(format!("openings {}: no positions in it", path.display()));
        }
        Ok(Book { path: path.to_path_buf(), openings })
    }

    /// The order in which a match with `seed` plays the openings: a
    /// Fisher-Yates shuffle of their indexes by the engine crate's SplitMix64.
    pub fn order(&self, seed: u64) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.openings.len()).collect();
        let mut rng = Rng::new(seed);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.index(i + 1));
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.epd");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn reads_fen_and_epd_lines() {
        let (_d, p) = write(
            "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
             r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";\n",
        );
        let book = Book::load(&p).unwrap();
        assert_eq!(book.openings.len(), 2);
        assert_eq!(book.openings[0].line, 3);
        assert_eq!(book.openings[1].fen, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1");
    }

    #[test]
    fn bad_files_are_one_line_errors() {
        let e = Book::load(Path::new("/no/such/openings.epd")).unwrap_err();
        assert!(e.starts_with("openings /no/such/openings.epd: No such file"), "{e}");
        let (_d, p) = write("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen at all\n");
        let e = Book::load(&p).unwrap_err();
        assert!(e.contains("book.epd:2: "), "{e}");
        assert!(!e.contains('\n'), "{e}");
        // Mate on the board already.
        let (_d, p) = write("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n");
        assert!(Book::load(&p).unwrap_err().contains("book.epd:1: the game is already over there (checkmate)"));
        let (_d, p) = write("# nothing\n\n");
        assert!(Book::load(&p).unwrap_err().contains("no positions in it"));
        let (_d, p) = write("");
        std::fs::write(&p, [0xff, 0xfe, 0x00]).unwrap();
        assert!(Book::load(&p).unwrap_err().contains("not a text file"));
    }

    #[test]
    fn the_order_is_a_seeded_permutation() {
        let text: String = (0..8).map(|_| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n").collect();
        let (_d, p) = write(&text);
        let book = Book::load(&p).unwrap();
        let a = book.order(1);
        assert_eq!(a, book.order(1), "same seed, same order");
        assert_ne!(a, book.order(2), "another seed, another order");
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..8).collect::<Vec<_>>());
    }
}
