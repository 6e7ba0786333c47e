//! Games against the engine refereed by python-chess
//! (tests/python/uci_game.py): through python-chess's UCI client with
//! `searchmoves` and `go mate`, and over a raw pipe with null moves (`0000`)
//! in the move list, python-chess checking every answer and position. Skipped, saying why, where python3
//! or python-chess is missing (`pip install chess` installs it).

use std::path::Path;
use std::process::Command;

/// Why the test cannot run here, if it cannot.
fn missing_python_chess() -> Option<String> {
    match Command::new("python3").args(["-c", "import chess, chess.engine"]).output() {
        Err(e) => Some(format!("python3 cannot be started ({e})")),
        Ok(out) if !out.status.success() => Some(format!(
            "python-chess is not installed for python3 (pip install chess): {}",
            String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
        )),
        Ok(_) => None,
    }
}

#[test]
fn python_chess_plays_games_with_null_moves_and_searchmoves() {
    if let Some(reason) = missing_python_chess() {
        eprintln!("skipped: {reason}");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/uci_game.py");
    let out = Command::new("python3")
        .arg(&script)
        .args([env!("CARGO_BIN_EXE_engine"), "2", "7"])
        .output()
        .expect("run the python-chess script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}: {stdout}{stderr}", script.display());
    assert!(stdout.starts_with("python-chess: 4 games"), "{stdout}");
    eprintln!("{}", stdout.trim());
}
