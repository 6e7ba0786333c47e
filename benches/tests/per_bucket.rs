//! A positions file with fewer positions per bucket than asked: the run
//! says so on stderr and in its table, and its JSON records how many
//! positions each bucket actually held next to how many were asked for.

use boardbench::suite::density::{self, Bucket};
use boardbench::suite::report::read_report;
use std::process::Command;

#[test]
fn buckets_with_fewer_positions_than_asked_are_recorded_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    // Three real positions per bucket, from the committed game files.
    let positions = boardbench::workspace::positions_dir();
    let mut records = density::read_source(&positions.join("lichess_popular_20k.epd")).unwrap();
    records.extend(density::read_source(&positions.join("endgames_20k.epd")).unwrap());
    let mut text = String::new();
    for b in Bucket::ALL {
        let (lo, hi) = b.men();
        let mut seen = std::collections::HashSet::new();
        let picked: Vec<&str> = records
            .iter()
            .filter(|r| (lo..=hi).contains(&r.men))
            .map(|r| r.text.as_str())
            .filter(|t| seen.insert(*t))
            .take(3)
            .collect();
        assert_eq!(picked.len(), 3, "{b}");
        for t in picked {
            text.push_str(t);
            text.push('\n');
        }
    }
    let file = dir.path().join("three-each.epd");
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out");

    let run = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .args(["getattacksbench", "--quick", "--no-plots", "--rounds", "2", "--positions"])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let said = "fewer positions than the 256 per bucket asked (the sources hold no more distinct ones): \
                opening 3, middlegame 3, endgame 3";
    assert!(stderr.contains(&format!("boardbench: warning: {said}")), "{stderr}");
    assert!(stdout.contains(&format!("positions: {said}")), "{stdout}");

    let report = read_report(&out.join("latest.json")).unwrap();
    assert_eq!(report.positions.per_bucket, 256, "what was asked");
    let used: Vec<(&str, [u32; 2], usize)> =
        report.positions.buckets.iter().map(|b| (b.bucket.as_str(), b.men, b.positions)).collect();
    assert_eq!(used, [("opening", [26, 32], 3), ("middlegame", [13, 25], 3), ("endgame", [2, 12], 3)]);
    // The benchmark measured exactly those.
    for b in &report.benchmarks[0].buckets {
        assert_eq!(b.positions, 3, "{}", b.bucket);
    }
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("latest.json")).unwrap()).unwrap();
    assert_eq!(json["positions"]["buckets"][2]["positions"], 3);

    // Enough positions: no warning, no note.
    let full = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .args(["getattacksbench", "--quick", "--no-plots", "--rounds", "2", "--per-bucket", "3", "--positions"])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(full.status.success());
    assert!(!String::from_utf8_lossy(&full.stderr).contains("fewer positions"));
    assert!(!String::from_utf8_lossy(&full.stdout).contains("fewer positions"));
}
