//! The `bench` and `suite` commands: text and JSON output, and one-line
//! errors for bad input.

use crate::cli::{engine, json, positions, rejects};

#[test]
fn bench_text_ends_with_the_openbench_line() {
    let out = engine(&["bench", "--depth", "3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.iter().filter(|l| l.starts_with("position ")).count(), 20);
    let last: Vec<&str> = lines.last().unwrap().split(' ').collect();
    assert_eq!((last.len(), last[1], last[3]), (4, "nodes", "nps"), "{text}");
    let nodes: u64 = last[0].parse().unwrap();
    let counted = lines.iter().find(|l| l.starts_with("nodes ")).unwrap();
    assert!(counted.starts_with(&format!("nodes           : {nodes} ")), "{counted}");
    let pruned = lines.iter().find(|l| l.starts_with("pruned ")).unwrap();
    let pruned: u64 = pruned.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(pruned < nodes, "{text}");
    assert!(text.contains("eval calls") && text.contains("lazy") && text.contains("full"));
}

#[test]
fn bench_json_per_position_and_totals() {
    for profile in ["mailbox", "bitboard", "single-probe", "bitboard-old-movegen", "mailbox-new-defects"] {
        let v = json(&engine(&["bench", "--depth", "3", "--profile", profile, "--json"]));
        assert_eq!(v["profile"], profile);
        let per = v["positions"].as_array().unwrap();
        assert_eq!(per.len(), 20);
        let sum: u64 = per.iter().map(|p| p["nodes"].as_u64().unwrap()).sum();
        assert_eq!(v["nodes"].as_u64().unwrap(), sum);
        let pruned: u64 = per.iter().map(|p| p["pruned"].as_u64().unwrap()).sum();
        assert_eq!(v["pruned"].as_u64().unwrap(), pruned);
        assert!(pruned > 0 && pruned < sum, "{pruned} of {sum}");
        assert!(per.iter().all(|p| p["bestmove"].as_str().unwrap().len() >= 4));
        let e = &v["eval"];
        let calls = e["calls"].as_u64().unwrap();
        assert_eq!(calls, e["lazy"].as_u64().unwrap() + e["hash_hits"].as_u64().unwrap() + e["full"].as_u64().unwrap());
        assert!(calls > 0);
    }
    let v = json(&engine(&["bench", "--depth", "2", "--positions", &positions("bk.epd"), "--json"]));
    assert_eq!(v["positions"].as_array().unwrap().len(), 24);
}

#[test]
fn suite_solves_and_reports() {
    let v = json(&engine(&["suite", &positions("bk.epd"), "--depth", "3", "--json"]));
    assert_eq!(v["total"], 24);
    let per = v["positions"].as_array().unwrap();
    let solved = per.iter().filter(|p| p["solved"].as_bool().unwrap()).count();
    assert_eq!(v["solved"].as_u64().unwrap() as usize, solved);
    assert!(per.iter().all(|p| p["id"].as_str().unwrap().starts_with("BK.")));
    // WAC.004 (a mating attack) and WAC.010 (wins material) are solved with
    // a small budget, by every profile.
    let dir = std::env::temp_dir().join(format!("engine-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let two = dir.join("two.epd");
    std::fs::write(
        &two,
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";\n\
         2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - bm Rxh7; id \"WAC.010\";\n",
    )
    .unwrap();
    for profile in ["mailbox", "bitboard", "single-probe"] {
        let v = json(&engine(&["suite", two.to_str().unwrap(), "--nodes", "200000", "--profile", profile, "--json"]));
        assert_eq!((v["solved"].as_u64(), v["total"].as_u64()), (Some(2), Some(2)), "{profile}: {v}");
    }
    // STS points.
    let sts = dir.join("sts.epd");
    std::fs::write(
        &sts,
        "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id \"STS(v1.0) Undermine.001\"; \
         c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\"; c7 \"f5 Be5+ Bf2 Bg4\"; c8 \"10 2 3 2\"; c9 \"f4f5 d4e5 d4f2 f3g4\";\n",
    )
    .unwrap();
    let v = json(&engine(&["suite", sts.to_str().unwrap(), "--depth", "2", "--json"]));
    assert_eq!(v["max_points"], 10);
    assert!(v["points"].as_u64().unwrap() <= 10);
    let text =
        String::from_utf8(engine(&["suite", two.to_str().unwrap(), "--depth", "4", "--verbose"]).stdout).unwrap();
    assert!(text.contains("WAC.004") && text.contains("solved") && text.contains("solved          : "), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_rejected_with_one_line() {
    rejects(&["bench", "--profile", "magic"], "unknown profile");
    rejects(&["bench", "--depth", "0"], "--depth 0 is out of range");
    rejects(&["bench", "--depth", "-3"], "error");
    rejects(&["bench", "--hash", "0"], "--hash: hash size 0 MiB is out of range");
    // A table larger than the machine is refused before it is allocated.
    if let Err(e @ engine::search::tt::HashSizeError::MoreThanMemory { .. }) =
        engine::search::tt::check_hash_mb(engine::search::tt::MAX_HASH_MB)
    {
        rejects(&["bench", "--hash", &engine::search::tt::MAX_HASH_MB.to_string()], &e.to_string());
    }
    rejects(&["bench", "--positions", "/no/such/file.epd"], "cannot read");
    rejects(&["suite", &positions("wac.epd")], "<--depth <DEPTH>|--nodes <NODES>>");
    rejects(&["suite", &positions("wac.epd"), "--depth", "3", "--nodes", "100"], "cannot be used with");
    rejects(&["suite", &positions("wac.epd"), "--nodes", "0"], "--nodes must be at least 1");
    rejects(&["suite", &positions("wac.epd"), "--depth", "500"], "out of range");
    rejects(&["suite", "/no/such/suite.epd", "--depth", "1"], "cannot read");
    // Positions without answers, and answers that are not legal moves.
    let dir = std::env::temp_dir().join(format!("engine-badsuite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let perft = positions("perftsuite.epd");
    rejects(&["suite", &perft, "--depth", "1"], "neither a bm nor an am");
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K2R w K - bm Rh9; id \"x\";\n").unwrap();
    rejects(&["suite", bad.to_str().unwrap(), "--depth", "1"], "x: bm \"Rh9\"");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K2R w K - bm Ra1; id \"y\";\n").unwrap();
    rejects(&["suite", bad.to_str().unwrap(), "--depth", "1"], "matches no legal move");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+; am Rh8+; id \"z\";\n").unwrap();
    rejects(&["suite", bad.to_str().unwrap(), "--depth", "1"], "z: h1h8 is both a bm and an am move");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+; c8 \"10\"; c9 \"e1e8\"; id \"w\";\n").unwrap();
    rejects(&["suite", bad.to_str().unwrap(), "--depth", "1"], "w: c9 move \"e1e8\": \"e1e8\" matches no legal move");
    std::fs::remove_dir_all(&dir).ok();
}
