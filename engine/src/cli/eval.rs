//! `engine eval`, `engine evaldiff` and `engine evaldna`: one evaluation with
//! every term, the exact-score comparison of the mobility implementations,
//! and the weights table. (The cost measurements, `evalcycles` and
//! `evalablation`, are in `evalcycles.rs`.)

use super::{load_epd, parse_fen, print_json, CliError, CliResult};
use clap::{Args, Subcommand, ValueEnum};
use engine::defects::MailboxDefects;
use engine::eval::mobility::{THROUGH_ENEMY, THROUGH_FRIEND};
use engine::eval::trace::{Term, Trace};
use engine::eval::weights::Weights;
use engine::eval::{DynamicSet, EvalConfig, Evaluation, MobilityKind};
use engine::tools::randpos::random_positions;
use engine::types::Color;
use engine::Position;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A mobility implementation on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum MobilityArg {
    Mailbox,
    Chain,
    SingleProbe,
}

impl From<MobilityArg> for MobilityKind {
    fn from(a: MobilityArg) -> MobilityKind {
        match a {
            MobilityArg::Mailbox => MobilityKind::Mailbox,
            MobilityArg::Chain => MobilityKind::Chain,
            MobilityArg::SingleProbe => MobilityKind::SingleProbe,
        }
    }
}

/// Mobility choice for all piece types, with per-type overrides.
#[derive(Args, Clone)]
pub struct MobilityArgs {
    /// Mobility implementation for every piece type.
    #[arg(long, value_enum, default_value = "chain")]
    mobility: MobilityArg,
    #[arg(long, value_enum)]
    mobility_knight: Option<MobilityArg>,
    #[arg(long, value_enum)]
    mobility_bishop: Option<MobilityArg>,
    #[arg(long, value_enum)]
    mobility_rook: Option<MobilityArg>,
    #[arg(long, value_enum)]
    mobility_queen: Option<MobilityArg>,
}

impl MobilityArgs {
    pub fn kinds(&self) -> [MobilityKind; 4] {
        let all = self.mobility;
        [self.mobility_knight, self.mobility_bishop, self.mobility_rook, self.mobility_queen]
            .map(|o| o.unwrap_or(all).into())
    }
}

#[derive(Args)]
pub struct EvalArgs {
    /// Position to evaluate.
    #[arg(long)]
    fen: String,
    #[command(flatten)]
    mobility: MobilityArgs,
    /// Weights (DNA) file written by `engine evaldna dump`.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct EvalDiffArgs {
    /// EPD file of positions to compare on.
    #[arg(conflicts_with = "random", required_unless_present = "random")]
    file: Option<PathBuf>,
    /// Compare on this many seeded random positions instead.
    #[arg(long)]
    random: Option<usize>,
    /// Seed for --random.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct EvalDnaArgs {
    #[command(subcommand)]
    action: DnaAction,
}

#[derive(Subcommand)]
enum DnaAction {
    /// Write the built-in weights to FILE (atomically).
    Dump {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Read and validate FILE.
    Load {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

fn load_weights(path: &Option<PathBuf>) -> Result<Weights, CliError> {
    match path {
        None => Ok(Weights::default()),
        Some(p) => Weights::load(p).map_err(|e| CliError::input(e.to_string())),
    }
}

/// A fresh evaluator with a run-time mobility mix.
pub fn evaluator(kinds: [MobilityKind; 4], weights: Weights) -> Evaluation<DynamicSet, MailboxDefects> {
    Evaluation::new(DynamicSet::new(kinds), weights, EvalConfig::default())
}

fn terms_json(t: &Trace) -> Value {
    let mut m = Map::new();
    for term in Term::ALL {
        m.insert(term.name().into(), json!({"white": t.term(term, Color::White), "black": t.term(term, Color::Black)}));
    }
    Value::Object(m)
}

pub fn kinds_json(kinds: [MobilityKind; 4]) -> Value {
    json!({"knight": kinds[0].name(), "bishop": kinds[1].name(), "rook": kinds[2].name(), "queen": kinds[3].name()})
}

pub fn eval(a: EvalArgs) -> CliResult {
    let mut pos = parse_fen(&a.fen)?;
    let kinds = a.mobility.kinds();
    let mut e = evaluator(kinds, load_weights(&a.weights)?);
    let t = e.trace(&mut pos);
    if a.json {
        let pieces: Vec<Value> = t
            .pieces
            .iter()
            .map(|p| {
                json!({"color": p.color.name(), "piece": p.kind.letter().to_string(), "square": p.square.to_string(),
                       "mobility": p.mobility.mobility, "best_ray": p.mobility.best_ray,
                       "connected_rank": p.mobility.connected_rank, "connected_file": p.mobility.connected_file,
                       "king_walks": p.mobility.king_walks})
            })
            .collect();
        let king = |c: Color| {
            let k = t.king[c.index()];
            json!({"counter": k.counter, "ring_attacked": k.ring_attacked, "ring_xray": k.ring_xray, "pattern": k.pattern, "flights": k.flights})
        };
        print_json(&json!({
            "fen": pos.to_fen(), "side_to_move": pos.side_to_move().name(),
            "score": t.side_to_move, "white_score": t.white, "scale_delta": t.scale_delta,
            "mobility": kinds_json(kinds), "terms": terms_json(&t), "pieces": pieces,
            "king": {"white": king(Color::White), "black": king(Color::Black)},
            "records": {"en_prise": {"white": t.en_prise[0].count(), "black": t.en_prise[1].count()},
                        "trapped": {"white": t.trapped[0].count(), "black": t.trapped[1].count()}},
        }));
    } else {
        println!("{}", pos.to_fen());
        println!("mobility: N {} B {} R {} Q {}", kinds[0], kinds[1], kinds[2], kinds[3]);
        println!("{:<18} {:>7} {:>7}", "term", "white", "black");
        for term in Term::ALL {
            let (w, b) = (t.term(term, Color::White), t.term(term, Color::Black));
            if w != 0 || b != 0 {
                println!("{:<18} {w:>7} {b:>7}", term.name());
            }
        }
        if t.scale_delta != 0 {
            println!("{:<18} {:>7}", "scaling (white)", t.scale_delta);
        }
        println!("score {} (side to move, {}), {} (white)", t.side_to_move, pos.side_to_move().name(), t.white);
    }
    Ok(())
}

/// Why chain and single-probe differ somewhere.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum DiffClass {
    /// The chain walked past a friendly battery partner.
    Battery,
    /// The chain counted squares beyond an enemy queen/king (bishop:
    /// rook/queen/king).
    BeyondEnemy,
    /// King safety changed through the x-ray inputs of the ring.
    KingRingXray,
    /// Anything else: a bug.
    Other,
}

impl DiffClass {
    fn name(self) -> &'static str {
        match self {
            DiffClass::Battery => "battery",
            DiffClass::BeyondEnemy => "beyond_enemy",
            DiffClass::KingRingXray => "king_ring_xray",
            DiffClass::Other => "other",
        }
    }
}

/// Classify every term that differs between the chain and single-probe
/// traces of one position: (class, term, colour) for each.
fn classify(chain: &Trace, single: &Trace) -> Vec<(DiffClass, Term, Color)> {
    let mut out = Vec::new();
    for term in Term::ALL {
        for color in Color::ALL {
            if chain.term(term, color) == single.term(term, color) {
                continue;
            }
            let class = if let Some(kind) = term.mobility_piece() {
                // The pieces of this kind and colour whose reports differ.
                let mut through = 0u8;
                let mut any = false;
                for p in chain.pieces.iter().filter(|p| p.color == color && p.kind == kind) {
                    if single.piece_at(p.square).map(|s| s.mobility) != Some(p.mobility) {
                        any = true;
                        through |= p.mobility.through;
                    }
                }
                match (any, through) {
                    (true, t) if t & THROUGH_FRIEND != 0 => DiffClass::Battery,
                    (true, t) if t & THROUGH_ENEMY != 0 => DiffClass::BeyondEnemy,
                    _ => DiffClass::Other,
                }
            } else if term == Term::KingSafety {
                let (c, s) = (chain.king[color.index()], single.king[color.index()]);
                if c.ring_xray != s.ring_xray || c.pattern != s.pattern {
                    DiffClass::KingRingXray
                } else {
                    DiffClass::Other
                }
            } else {
                DiffClass::Other
            };
            out.push((class, term, color));
        }
    }
    out
}

/// Most random positions `evaldiff` compares: it keeps every position's
/// traces, about 1.3 KB each.
const MAX_RANDOM_POSITIONS: usize = 1_000_000;

pub fn evaldiff(a: EvalDiffArgs) -> CliResult {
    let (positions, source): (Vec<Position>, String) = match (&a.file, a.random) {
        (Some(f), _) => (load_epd(f)?.into_iter().map(|e| e.position().clone()).collect(), f.display().to_string()),
        (None, Some(n)) => {
            if n == 0 || n > MAX_RANDOM_POSITIONS {
                return Err(CliError::input(format!("--random {n}: expected 1 to {MAX_RANDOM_POSITIONS} positions")));
            }
            (random_positions(n, a.seed), format!("random {n} seed {}", a.seed))
        }
        (None, None) => return Err(CliError::input("give an EPD file or --random N")),
    };
    use MobilityKind::{Chain as C, Mailbox as M, SingleProbe as S};
    let toggles: [(&str, [MobilityKind; 4]); 5] = [
        ("knight", [C, M, M, M]),
        ("bishop", [M, C, M, M]),
        ("rook", [M, M, C, M]),
        ("queen", [M, M, M, C]),
        ("all", [C, C, C, C]),
    ];
    let mut mailbox = evaluator([M; 4], Weights::default());
    let mut toggled: Vec<_> = toggles.iter().map(|(_, k)| evaluator(*k, Weights::default())).collect();
    let mut single = evaluator([S; 4], Weights::default());
    let mut exact = vec![(0usize, 0usize); toggles.len()];
    let mut first_mismatch: Option<String> = None;
    let mut classes: BTreeMap<DiffClass, usize> = BTreeMap::new();
    let mut by_term: BTreeMap<(&'static str, &'static str), usize> = BTreeMap::new();
    let mut single_positions = 0;
    let mut first_other: Option<String> = None;
    for pos in &positions {
        let base = mailbox.trace(&mut pos.clone());
        let mut chain = None;
        for (i, e) in toggled.iter_mut().enumerate() {
            let t = e.trace(&mut pos.clone());
            exact[i].0 += 1;
            if t != base {
                exact[i].1 += 1;
                first_mismatch.get_or_insert_with(|| format!("{} ({} toggled)", pos.to_fen(), toggles[i].0));
            }
            if i == toggles.len() - 1 {
                chain = Some(t);
            }
        }
        let chain = chain.expect("the all-chain toggle runs last");
        let s = single.trace(&mut pos.clone());
        let diffs = classify(&chain, &s);
        if !diffs.is_empty() || s.side_to_move != chain.side_to_move {
            single_positions += 1;
        }
        for (class, term, _) in diffs {
            *classes.entry(class).or_default() += 1;
            *by_term.entry((class.name(), term.name())).or_default() += 1;
            if class == DiffClass::Other {
                first_other.get_or_insert_with(|| format!("{} ({})", pos.to_fen(), term.name()));
            }
        }
    }
    let mismatches: usize = exact.iter().map(|e| e.1).sum();
    let others = classes.get(&DiffClass::Other).copied().unwrap_or(0);
    if a.json {
        let exact_json: Map<String, Value> = toggles
            .iter()
            .zip(&exact)
            .map(|((n, _), (c, d))| (n.to_string(), json!({"compared": c, "differed": d})))
            .collect();
        let class_json: Map<String, Value> =
            [DiffClass::Battery, DiffClass::BeyondEnemy, DiffClass::KingRingXray, DiffClass::Other]
                .iter()
                .map(|c| (c.name().to_string(), json!(classes.get(c).copied().unwrap_or(0))))
                .collect();
        let term_json: Vec<Value> =
            by_term.iter().map(|((c, t), n)| json!({"class": c, "term": t, "count": n})).collect();
        print_json(&json!({
            "source": source, "positions": positions.len(),
            "mailbox_vs_chain": exact_json, "mailbox_vs_chain_differences": mismatches,
            "first_mismatch": first_mismatch,
            "chain_vs_single_probe": {"positions_differing": single_positions, "classes": class_json, "by_term": term_json,
                                      "first_other": first_other},
        }));
    } else {
        println!("{} positions ({source})", positions.len());
        println!("mailbox vs chain, every term:");
        for ((name, _), (c, d)) in toggles.iter().zip(&exact) {
            println!("  {name:<7} toggled: {c} compared, {d} differed");
        }
        if let Some(m) = &first_mismatch {
            println!("  first mismatch: {m}");
        }
        println!("chain vs single-probe: {single_positions} positions differ; term differences by class:");
        for c in [DiffClass::Battery, DiffClass::BeyondEnemy, DiffClass::KingRingXray, DiffClass::Other] {
            println!("  {:<15} {}", c.name(), classes.get(&c).copied().unwrap_or(0));
        }
        for ((c, t), n) in &by_term {
            println!("    {c:<15} {t:<18} {n}");
        }
        if let Some(o) = &first_other {
            println!("  first unexplained difference: {o}");
        }
    }
    if mismatches > 0 {
        return Err(CliError::failed(format!(
            "mailbox and chain differ in {mismatches} comparisons; first: {}",
            first_mismatch.unwrap_or_default()
        )));
    }
    if others > 0 {
        return Err(CliError::failed(format!(
            "{others} chain/single-probe differences are unexplained; first: {}",
            first_other.unwrap_or_default()
        )));
    }
    Ok(())
}

pub fn evaldna(a: EvalDnaArgs) -> CliResult {
    match a.action {
        DnaAction::Dump { file, json } => {
            Weights::default()
                .save(&file)
                .map_err(|e| CliError::input(format!("cannot write {}: {e}", file.display())))?;
            if json {
                print_json(&json!({"written": file.display().to_string()}));
            } else {
                println!("wrote {}", file.display());
            }
        }
        DnaAction::Load { file, json } => {
            let w = Weights::load(&file).map_err(|e| CliError::input(e.to_string()))?;
            let differs = w != Weights::default();
            if json {
                print_json(
                    &json!({"loaded": file.display().to_string(), "valid": true, "differs_from_default": differs}),
                );
            } else {
                println!(
                    "{}: valid weights table{}",
                    file.display(),
                    if differs { " (differs from the built-in one)" } else { "" }
                );
            }
        }
    }
    Ok(())
}
