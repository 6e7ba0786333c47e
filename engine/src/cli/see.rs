//! `engine see` (SEE of one move) and `engine seescores` (SEE of every
//! legal capture of every position in an EPD file, one line each, so the
//! output of the two attacker builders can be diffed).

use super::{check_sliders, load_epd, parse_fen, print_json, CliError, CliResult, SlidersArg};
use clap::{Args, ValueEnum};
use engine::attackers::{BitboardAttackers, MailboxAttackers};
use engine::movegen::legal_moves;
use engine::see::{see, see_bitboard};
use engine::sliders::Magic;
#[cfg(target_feature = "bmi2")]
use engine::sliders::Pext;
use engine::{Move, Position, Square};
use serde_json::json;
use std::path::PathBuf;

/// Which attacker-list builder SEE runs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum AttackersArg {
    /// The list form over the mailbox builder (the old routine).
    Mailbox,
    /// The list form over the bitboard builder.
    Bitboard,
    /// SEE on bitboards end to end: attacker sets, no lists (the bitboard
    /// engine profiles use this).
    Native,
}

#[derive(Args)]
pub struct SeeArgs {
    /// Position.
    #[arg(long)]
    fen: String,
    /// Legal move in UCI notation (e2e4, e7e8q). A quiet move is evaluated
    /// as the exchange on its destination with the moving piece standing
    /// there: 0 when the square is safe, negative when it loses material.
    #[arg(long = "move", value_name = "UCI")]
    mv: String,
    /// Attacker-list builder.
    #[arg(long, value_enum, default_value = "bitboard")]
    attackers: AttackersArg,
    /// Slider attacks of the bitboard builder (default: the fastest built).
    #[arg(long, value_enum)]
    sliders: Option<SlidersArg>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct SeeScoresArgs {
    /// EPD file.
    file: PathBuf,
    /// Attacker-list builder.
    #[arg(long, value_enum, default_value = "bitboard")]
    attackers: AttackersArg,
    /// Slider attacks of the bitboard builder (default: the fastest built).
    #[arg(long, value_enum)]
    sliders: Option<SlidersArg>,
    /// Print one JSON object instead of one line per capture.
    #[arg(long)]
    json: bool,
}

/// SEE with the builder chosen once, before any loop.
type SeeFn = fn(&Position, Move) -> i32;

fn pick(attackers: AttackersArg, sliders: Option<SlidersArg>) -> Result<(SeeFn, String), CliError> {
    match (attackers, sliders) {
        (AttackersArg::Mailbox, Some(_)) => Err(CliError::input(
            "--sliders applies to --attackers bitboard or native only (the mailbox builder walks rays)",
        )),
        (AttackersArg::Mailbox, None) => Ok((see::<MailboxAttackers>, "mailbox".into())),
        (kind, s) => {
            let s = s.unwrap_or(if cfg!(target_feature = "bmi2") { SlidersArg::Pext } else { SlidersArg::Magic });
            check_sliders(s)?;
            let native = kind == AttackersArg::Native;
            let name = format!("bitboard-{}{}", if native { "native-" } else { "" }, s.name());
            let f: SeeFn = match (s, native) {
                (SlidersArg::Magic, false) => see::<BitboardAttackers<Magic>>,
                (SlidersArg::Magic, true) => see_bitboard::<Magic>,
                #[cfg(target_feature = "bmi2")]
                (SlidersArg::Pext, false) => see::<BitboardAttackers<Pext>>,
                #[cfg(target_feature = "bmi2")]
                (SlidersArg::Pext, true) => see_bitboard::<Pext>,
                #[cfg(not(target_feature = "bmi2"))]
                (SlidersArg::Pext, _) => unreachable!("checked above"),
            };
            Ok((f, name))
        }
    }
}

/// The legal move of `pos` written `text` in UCI notation, or why there is
/// none.
pub fn parse_uci_move(pos: &Position, text: &str) -> Result<Move, CliError> {
    let b = text.as_bytes();
    let syntax_ok = (b.len() == 4 || b.len() == 5)
        && text.is_ascii()
        && Square::parse(&text[0..2]).is_some()
        && Square::parse(&text[2..4]).is_some()
        && (b.len() == 4 || matches!(b[4], b'n' | b'b' | b'r' | b'q'));
    if !syntax_ok {
        return Err(CliError::input(format!(
            "bad move {text:?}: expected UCI notation, from and to squares plus an optional promotion letter (e2e4, e7e8q)"
        )));
    }
    legal_moves(pos).iter().copied().find(|m| m.uci().as_str() == text).ok_or_else(|| {
        CliError::input(format!(
            "move {text} is not legal in {} (side to move: {})",
            pos.to_fen(),
            pos.side_to_move().name()
        ))
    })
}

pub fn see_command(a: SeeArgs) -> CliResult {
    let pos = parse_fen(&a.fen)?;
    let (see_fn, name) = pick(a.attackers, a.sliders)?;
    let m = parse_uci_move(&pos, &a.mv)?;
    let value = see_fn(&pos, m);
    if a.json {
        print_json(&json!({
            "see": value, "move": m.to_string(), "capture": m.is_capture(), "attackers": name,
        }));
    } else {
        println!("{value}");
    }
    Ok(())
}

/// Write a listing to stdout. A reader that stops early (`| head`) is not
/// an error; any other write failure is reported, never a panic.
pub fn write_stdout(text: &str) -> CliResult {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::failed(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

/// An EPD record's name for the output: its `id` with whitespace made `_`
/// (so every line has three fields), else `#N` by record number.
pub fn record_name(id: Option<&str>, number: usize) -> String {
    match id {
        Some(id) if !id.trim().is_empty() => id.split_whitespace().collect::<Vec<_>>().join("_"),
        _ => format!("#{number}"),
    }
}

pub fn seescores(a: SeeScoresArgs) -> CliResult {
    let records = load_epd(&a.file)?;
    let (see_fn, name) = pick(a.attackers, a.sliders)?;
    let mut scores = Vec::new();
    let mut out = String::new();
    for (i, epd) in records.iter().enumerate() {
        let pos = epd.position();
        let id = record_name(epd.id(), i + 1);
        let mut captures: Vec<(String, Move)> =
            legal_moves(pos).iter().filter(|m| m.is_capture()).map(|&m| (m.to_string(), m)).collect();
        // Sorted by UCI text so the listing does not depend on the
        // generator's order.
        captures.sort();
        for (uci, m) in captures {
            let value = see_fn(pos, m);
            if a.json {
                scores.push(json!({"id": id, "move": uci, "see": value}));
            } else {
                out.push_str(&format!("{id} {uci} {value}\n"));
            }
        }
    }
    if a.json {
        print_json(&json!({
            "attackers": name, "positions": records.len(), "captures": scores.len(), "scores": scores,
        }));
        Ok(())
    } else {
        write_stdout(&out)
    }
}
