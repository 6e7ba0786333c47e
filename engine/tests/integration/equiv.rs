//! Old and new forms agree on seeded random positions: the library sweep
//! over 2,000 positions (half placement, half playout), and `engine equiv`
//! end to end. The full 20,000-position run is `engine equiv --random 20000`.

use crate::cli::engine;
use engine::tools::equiv::run_equiv;
use engine::tools::randpos::{mode_of, random_positions, RandomMode};

/// Slider implementations each bitboard form is compared in.
const SLIDERS: u64 = if cfg!(target_feature = "bmi2") { 2 } else { 1 };

#[test]
fn two_thousand_random_positions_zero_differences() {
    let n = 2000;
    let positions = random_positions(n, 0xA77AC);
    let placement = (0..n).filter(|&i| mode_of(i) == RandomMode::Placement).count();
    assert_eq!(placement, n / 2);
    for (i, p) in positions.iter().enumerate() {
        p.verify().unwrap_or_else(|e| panic!("position {i} {}: {e}", p.to_fen()));
        assert!(!p.king_attacked(p.side_to_move().flip()), "position {i} {}", p.to_fen());
    }
    let report = run_equiv(&positions);
    let n = n as u64;
    let expected = [
        ("attackers", n * 64 * 2 * SLIDERS),
        ("is_attacked", n * 64 * 2 * SLIDERS),
        ("defects", n * 2),
        ("sliders", n * 64 * SLIDERS),
    ];
    for (name, compared) in expected {
        let pair = report.pairs.iter().find(|p| p.name == name).unwrap();
        assert_eq!(pair.compared, compared, "{name}");
        assert_eq!(pair.differed, 0, "{name}: first difference {:?}", pair.first);
    }
    let see = report.pairs.iter().find(|p| p.name == "see").unwrap();
    assert!(see.compared > n * 10, "{see:?}");
    assert_eq!(see.differed, 0, "{:?}", see.first);
    assert_eq!(report.differences(), 0);
}

#[test]
fn equiv_cli_json_and_text() {
    let out = engine(&["equiv", "--random", "300", "--seed", "5", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.trim().lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["positions"], 300);
    assert_eq!(v["modes"]["placement"], 150);
    assert_eq!(v["modes"]["playout"], 150);
    assert_eq!(v["differences"], 0);
    for pair in ["attackers", "is_attacked", "defects", "sliders", "see"] {
        assert!(v["pairs"][pair]["compared"].as_u64().unwrap() > 0, "{pair}");
        assert_eq!(v["pairs"][pair]["differed"], 0, "{pair}");
        assert!(v["pairs"][pair]["first"].is_null());
    }
    assert_eq!(v["pairs"]["defects"]["compared"], 600);

    let out = engine(&["equiv", "--random", "40"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("40 random positions") && text.contains("attackers"), "{text}");
}
