//! Property test of the FEN and EPD parsers: arbitrary strings and mutated
//! real FENs never panic; whatever is accepted is a consistent position that
//! prints back to itself, and both move generators agree on it to depth 2.
//! (A bounded, seeded run; `PARSE_FUZZ_CASES` raises the count.)

use engine::movegen::{BitboardGen, MailboxGen};
use engine::position::epd::{load_file, Epd};
use engine::rng::Rng;
use engine::sliders::Magic;
use engine::tools::perft::perft;
use engine::Position;
use std::path::PathBuf;

const ALPHABET: &[u8] = b"pnbrqkPNBRQK0123456789/ wb-KQkqabcdefghx;\"D.+#=\t";

fn seeds() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../positions");
    let mut v = Vec::new();
    for file in ["perftsuite.epd", "wac.epd", "endgames_20k.epd"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        v.extend(text.lines().step_by(50).map(str::to_string));
    }
    v
}

fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut b: Vec<u8> = s.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let n = b.len();
        match rng.below(7) {
            0 if n > 0 => b[rng.index(n)] = ALPHABET[rng.index(ALPHABET.len())],
            1 if n > 0 => {
                b.remove(rng.index(n));
            }
            2 => b.insert(rng.index(n + 1), ALPHABET[rng.index(ALPHABET.len())]),
            3 if n > 1 => {
                let (i, j) = (rng.index(n), rng.index(n));
                b.swap(i, j);
            }
            4 if n > 0 => b.truncate(rng.index(n)),
            5 if n > 2 => {
                let i = rng.index(n - 1);
                let j = i + 1 + rng.index(n - i - 1);
                let seg = b[i..j].to_vec();
                b.splice(j..j, seg);
            }
            _ => b.push(rng.below(256) as u8),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn check_accepted(pos: &Position, input: &str) {
    pos.verify().unwrap_or_else(|e| panic!("{input:?}: {e}"));
    let fen = pos.to_fen();
    let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{input:?} printed as {fen:?} which fails: {e}"));
    assert_eq!(again.to_fen(), fen);
    let mb = perft::<MailboxGen>(&mut pos.clone(), 2, false);
    let bb = perft::<BitboardGen<Magic>>(&mut pos.clone(), 2, true);
    assert_eq!(mb, bb, "generators disagree on {fen}");
}

#[test]
fn parsers_never_panic_and_accept_only_consistent_positions() {
    let cases: usize = std::env::var("PARSE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(150_000);
    let seeds = seeds();
    let mut rng = Rng::new(0xF0221);
    let (mut accepted, mut rejected) = (0, 0);
    for i in 0..cases {
        let input = if i % 10 == 0 {
            // Pure noise.
            let len = rng.index(90);
            let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            let seed = &seeds[rng.index(seeds.len())];
            mutate(&mut rng, seed)
        };
        match Position::from_fen(&input) {
            Ok(pos) => {
                check_accepted(&pos, &input);
                accepted += 1;
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                rejected += 1;
            }
        }
        if let Ok(epd) = Epd::parse(&input) {
            check_accepted(epd.position(), &input);
            let _ = (epd.perft_counts(), epd.best_moves(), epd.id(), epd.comment(0));
        }
    }
    // Both outcomes must be well represented, or the mutations are too weak
    // or too strong to test anything.
    assert!(accepted > cases / 50, "accepted {accepted}");
    assert!(rejected > cases / 2, "rejected {rejected}");
}

#[test]
fn every_real_suite_parses() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../positions");
    for file in [
        "perftsuite.epd",
        "perft_tricky.epd",
        "perft_marcel.epd",
        "wac.epd",
        "ecm.epd",
        "bk.epd",
        "sts.epd",
        "arasan2024.epd",
        "lichess_popular_20k.epd",
        "endgames_20k.epd",
    ] {
        let records = load_file(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
        for r in &records {
            r.position().verify().unwrap();
        }
    }
}
