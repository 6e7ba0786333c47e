//! The evaluation's weights in one table (the "DNA"): every number the
//! evaluation multiplies or looks up, with this project's own values. It can
//! be dumped to JSON and loaded back (`engine evaldna dump|load FILE`).
//!
//! Square tables are written from White's point of view in the board's own
//! index order (a8 first, h1 last); Black reads them with `flip_rank`.

use serde::{Deserialize, Serialize};
use std::path::Path;
use thiserror::Error;

/// Serde for fixed-size arrays of any length (serde derives only up to 32).
mod fixed {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer, const N: usize>(a: &[i32; N], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(a.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<[i32; N], D::Error> {
        let v = Vec::<i32>::deserialize(d)?;
        let len = v.len();
        v.try_into().map_err(|_| D::Error::custom(format!("expected {N} numbers, found {len}")))
    }
}

/// Every weight of the evaluation. Field names say what they score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    // ----- material and balance -----
    /// Pawn, knight, bishop, rook, queen.
    pub material: [i32; 5],
    /// Bonus for the side ahead in pieces, by how many pieces (minors and
    /// majors) the other side still has (capped at 7).
    #[serde(with = "fixed")]
    pub bad_trade_pieces: [i32; 8],
    /// Penalty for the side ahead in material, by its own pawn count: trading
    /// pawns when ahead brings the draw closer.
    #[serde(with = "fixed")]
    pub pawn_trade_when_ahead: [i32; 9],
    /// Bishop pair, by pawns on the board (0..=16).
    #[serde(with = "fixed")]
    pub bishop_pair: [i32; 17],
    /// A lone bishop (no other pieces) with pawns on both wings.
    pub lone_bishop_both_wings: i32,

    // ----- piece-square tables (White's view, a8 first) -----
    /// Pawns by square.
    #[serde(with = "fixed")]
    pub pawn_square: [i32; 64],
    /// Knights by square.
    #[serde(with = "fixed")]
    pub knight_square: [i32; 64],
    /// Bishops by square.
    #[serde(with = "fixed")]
    pub bishop_square: [i32; 64],
    /// Rooks by square.
    #[serde(with = "fixed")]
    pub rook_square: [i32; 64],
    /// Queens by square.
    #[serde(with = "fixed")]
    pub queen_square: [i32; 64],

    // ----- pawn structure -----
    /// Penalty per isolated pawn (no own pawn on an adjacent file that can support it).
    pub pawn_isolated: i32,
    /// Extra penalty for an isolated pawn on a half-open file.
    pub pawn_isolated_half_open: i32,
    /// Extra penalty for an isolated pawn that is also doubled.
    pub pawn_isolated_doubled: i32,
    /// Per extra pawn on a file, by the number of majors (rooks and queens)
    /// on the board, capped at 4: fewer majors, worse doubled pawns.
    #[serde(with = "fixed")]
    pub pawn_doubled: [i32; 5],
    /// Bonus per pawn whose stop square an own pawn attacks (a duo).
    pub pawn_duo: i32,
    /// Penalty per backward pawn.
    pub pawn_backward: i32,
    /// Extra penalty for a backward pawn on a half-open file.
    pub pawn_backward_half_open: i32,
    /// By relative rank.
    #[serde(with = "fixed")]
    pub passer_rank: [i32; 8],
    /// Candidate passer, by relative rank.
    #[serde(with = "fixed")]
    pub candidate_rank: [i32; 8],
    /// Passer with an own passer beside or diagonally behind it, by relative rank.
    #[serde(with = "fixed")]
    pub passer_connected: [i32; 8],
    /// Passer defended by an own pawn, by relative rank.
    #[serde(with = "fixed")]
    pub passer_supported: [i32; 8],
    /// Per file of distance between an outside passer and the enemy pawns.
    pub passer_outside: i32,

    // ----- passers with full attack information -----
    /// By relative rank: an enemy piece stands on the stop square.
    #[serde(with = "fixed")]
    pub passer_blockaded: [i32; 8],
    /// By relative rank: the stop square is free and not enemy-controlled.
    #[serde(with = "fixed")]
    pub passer_stop_free: [i32; 8],
    /// By relative rank, per step the own king is nearer the stop square
    /// than the enemy king; scaled up as the enemy army shrinks.
    #[serde(with = "fixed")]
    pub passer_king_distance: [i32; 8],
    /// The passer's side has more non-pawns than the enemy.
    pub passer_more_pieces: i32,
    /// A passer the bare enemy king cannot catch (rule of the square).
    pub passer_unstoppable: i32,

    // ----- knights -----
    /// By closedness (rammed pairs + unmoved pawns / 2, capped at 15).
    #[serde(with = "fixed")]
    pub knight_closed: [i32; 16],
    /// Outpost by king distance to the enemy king.
    #[serde(with = "fixed")]
    pub knight_outpost: [i32; 8],
    /// Extra outpost bonus when an own pawn defends the knight.
    pub knight_outpost_supported: i32,
    /// Tropism (not on an outpost), by distance to the enemy king.
    #[serde(with = "fixed")]
    pub knight_tropism: [i32; 8],
    /// A knight on the stop square of an enemy stationary pawn.
    pub knight_blockade: i32,
    /// A knight on a file without own pawns.
    pub knight_no_own_pawn_on_file: i32,
    /// By mobility (0..=8).
    #[serde(with = "fixed")]
    pub knight_mobility: [i32; 9],

    // ----- bishops -----
    /// Per own stationary pawn on the bishop's shade, times this square
    /// weight of the pawn (White's view).
    #[serde(with = "fixed")]
    pub bishop_bad_pawn_square: [i32; 64],
    /// Penalty per own transient pawn on the bishop's shade (lighter than a stationary one).
    pub bishop_own_transient_pawn: i32,
    /// Penalty per pawn-defended enemy transient pawn on the bishop's shade.
    pub bishop_defended_enemy_transient_pawn: i32,
    /// Per step of closedness.
    pub bishop_closed: i32,
    /// An outpost no enemy pawn can attack, by distance to the enemy king.
    #[serde(with = "fixed")]
    pub bishop_outpost: [i32; 8],
    /// By mobility (0..=13).
    #[serde(with = "fixed")]
    pub bishop_mobility: [i32; 14],
    /// Best single-ray mobility.
    #[serde(with = "fixed")]
    pub bishop_best_ray: [i32; 8],

    // ----- rooks -----
    /// On a file with no pawns.
    pub rook_open_file: i32,
    /// On a file with enemy pawns only.
    pub rook_half_open_file: i32,
    /// On an open or half-open file, by file distance to the enemy king.
    #[serde(with = "fixed")]
    pub rook_file_near_king: [i32; 8],
    /// On a file with an enemy passer.
    pub rook_enemy_passer_file: i32,
    /// By the own passer's relative rank.
    #[serde(with = "fixed")]
    pub rook_behind_own_passer: [i32; 8],
    /// Penalty by the own passer's relative rank when the rook stands in front of it.
    #[serde(with = "fixed")]
    pub rook_in_front_of_own_passer: [i32; 8],
    /// On the 7th or 8th with the enemy king on its back rank.
    pub rook_seventh: i32,
    /// By pawns on the board (0..=16): rooks gain as pawns come off.
    #[serde(with = "fixed")]
    pub rook_pawns: [i32; 17],
    /// By mobility (0..=14), scaled up as the enemy army shrinks.
    #[serde(with = "fixed")]
    pub rook_mobility: [i32; 15],
    /// Best single-ray mobility.
    #[serde(with = "fixed")]
    pub rook_best_ray: [i32; 8],
    /// Per friendly rook met on the rook's rank.
    pub rook_connected_rank: i32,
    /// Per friendly rook met on the rook's file.
    pub rook_connected_file: i32,
    /// Low mobility with the own king boxing the rook in on the back rank.
    pub rook_trapped: i32,

    // ----- queens -----
    /// Per own minor still at home, when the queen has left home before
    /// castling.
    pub queen_early: i32,
    /// By distance to the enemy king.
    #[serde(with = "fixed")]
    pub queen_tropism: [i32; 8],
    /// By mobility (0..=27).
    #[serde(with = "fixed")]
    pub queen_mobility: [i32; 28],
    /// Per walked square next to the enemy king.
    pub queen_king_ring_walk: i32,

    // ----- kings -----
    /// Danger base by king square (White's view) when the enemy has much
    /// material: higher off the back rank.
    #[serde(with = "fixed")]
    pub king_square_danger: [i32; 64],
    /// Danger per ring square the enemy attacks.
    pub king_ring_attacked: i32,
    /// Extra danger per attacked ring square in front of the king.
    pub king_ring_front: i32,
    /// Extra danger per attacked empty ring square.
    pub king_ring_empty: i32,
    /// Extra danger per attacked ring square holding an enemy piece.
    pub king_ring_enemy_piece: i32,
    /// Extra danger per attacked square next to the king that only the king defends.
    pub king_ring_king_alone: i32,
    /// Danger per ring square the enemy attacks through a piece (x-ray).
    pub king_ring_xray: i32,
    /// Danger per open file (no pawns) at or next to the king.
    pub king_open_file: i32,
    /// Danger per file at or next to the king with enemy pawns only.
    pub king_half_open_file: i32,
    /// Enemy storming pawn on the king's or an adjacent file, by its rank
    /// distance to the king (0..=7).
    #[serde(with = "fixed")]
    pub king_storm: [i32; 8],
    /// Own shield pawn one rank in front, subtracted from danger.
    pub king_shield_near: i32,
    /// Own shield pawn two ranks in front, subtracted from danger.
    pub king_shield_far: i32,
    /// By the set of attacker classes (bits: pawn 1, minor 2, rook 4,
    /// queen 8, king 16) hitting the ring.
    #[serde(with = "fixed")]
    pub king_attack_pattern: [i32; 32],
    /// Added when the pattern weight is at least `king_strong_pattern` and
    /// the king has at most one flight square.
    pub king_few_flights: i32,
    /// The pattern weight from which few flight squares add [`king_few_flights`](Self::king_few_flights).
    pub king_strong_pattern: i32,
    /// The steep, saturating map from the danger counter to a penalty.
    #[serde(with = "fixed")]
    pub king_danger: [i32; 64],
    /// Endgame centralisation (White's view).
    #[serde(with = "fixed")]
    pub king_center: [i32; 64],
    /// Per step the king is nearer an own passer's stop square than the
    /// enemy king (endgame).
    pub king_passer_escort: i32,
    /// Pawn endings: per step of king-distance advantage to the pawns.
    pub king_pawn_race: i32,
    /// Uncastled with pieces on the board: penalty per own minor at home.
    pub king_uncastled_minor_home: i32,
    /// Uncastled with pieces on the board: penalty for having lost the castling rights.
    pub king_lost_castling: i32,

    // ----- lazy evaluation -----
    /// Smallest lazy-exit margin; the margin adapts from recent full evaluations and starts at twice this.
    pub lazy_margin_min: i32,
    /// By king-safety defect count (0..=15): margin widening, for kings
    /// exposed enough that the king terms may stray past the adaptive margin.
    #[serde(with = "fixed")]
    pub lazy_defect_margin: [i32; 16],
    /// Per passer's relative rank: margin widening.
    #[serde(with = "fixed")]
    pub lazy_passer_margin: [i32; 8],
}

/// Loading a DNA file failed.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why reading failed.
        source: std::io::Error,
    },
    /// The file is not a weights table in JSON.
    #[error("weights file {path} is not a valid weights table: {source}")]
    Parse {
        /// The file.
        path: String,
        /// Where and why parsing failed.
        source: serde_json::Error,
    },
    /// The table is well formed but a value is out of range.
    #[error("weights file {path}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// The value and what is wrong with it.
        reason: String,
    },
}

/// A table from a function of (row, file) in the board's order (row 0 = rank 8).
fn square_table(f: impl Fn(i32, i32) -> i32) -> [i32; 64] {
    std::array::from_fn(|i| f((i / 8) as i32, (i % 8) as i32))
}

/// Distance of a file or row index (0..7) from the centre line, 0..3.
fn off_center(x: i32) -> i32 {
    if x < 4 {
        3 - x
    } else {
        x - 4
    }
}

impl Default for Weights {
    fn default() -> Weights {
        // Rank from White's side: row 7 is rank 1.
        let rank = |row: i32| 7 - row;
        Weights {
            material: [100, 325, 330, 500, 975],
            bad_trade_pieces: [60, 45, 35, 25, 18, 12, 6, 0],
            pawn_trade_when_ahead: [40, 28, 18, 10, 5, 2, 0, 0, 0],
            bishop_pair: std::array::from_fn(|p| 60 - 2 * p as i32),
            lone_bishop_both_wings: 12,

            pawn_square: square_table(|row, file| {
                let r = rank(row);
                if r == 0 || r == 7 {
                    0
                } else {
                    let center = 3 - off_center(file);
                    center * (r.min(4) - 1) * 2
                }
            }),
            knight_square: square_table(|row, file| {
                12 - 6 * off_center(file).max(off_center(row)) - 2 * off_center(file).min(off_center(row))
            }),
            bishop_square: square_table(|row, file| 8 - 3 * off_center(file).max(off_center(row))),
            rook_square: square_table(|_, file| 4 - 2 * off_center(file)),
            queen_square: square_table(|row, file| 4 - off_center(file) - off_center(row)),

            pawn_isolated: 12,
            pawn_isolated_half_open: 8,
            pawn_isolated_doubled: 6,
            pawn_doubled: [26, 20, 16, 12, 10],
            pawn_duo: 4,
            pawn_backward: 10,
            pawn_backward_half_open: 6,
            passer_rank: [0, 6, 10, 18, 32, 55, 90, 0],
            candidate_rank: [0, 3, 5, 8, 13, 20, 0, 0],
            passer_connected: [0, 0, 4, 8, 14, 24, 38, 0],
            passer_supported: [0, 0, 3, 6, 10, 16, 26, 0],
            passer_outside: 4,

            passer_blockaded: [0, 0, 4, 8, 12, 20, 30, 0],
            passer_stop_free: [0, 0, 3, 6, 12, 20, 34, 0],
            passer_king_distance: [0, 0, 1, 2, 3, 5, 7, 0],
            passer_more_pieces: 10,
            passer_unstoppable: 600,

            knight_closed: std::array::from_fn(|i| 2 * i as i32),
            knight_outpost: [0, 22, 18, 14, 10, 6, 4, 2],
            knight_outpost_supported: 8,
            knight_tropism: [0, 10, 8, 5, 2, 0, -2, -4],
            knight_blockade: 10,
            knight_no_own_pawn_on_file: -4,
            knight_mobility: [-22, -14, -7, -2, 2, 6, 9, 11, 12],

            bishop_bad_pawn_square: square_table(|row, file| 3 - off_center(file).max(off_center(row)).min(2)),
            bishop_own_transient_pawn: 1,
            bishop_defended_enemy_transient_pawn: 2,
            bishop_closed: 2,
            bishop_outpost: [0, 18, 15, 12, 8, 5, 3, 2],
            bishop_mobility: [-25, -15, -7, -2, 2, 6, 10, 13, 16, 18, 20, 21, 22, 23],
            bishop_best_ray: [0, 1, 3, 5, 6, 7, 8, 8],

            rook_open_file: 20,
            rook_half_open_file: 10,
            rook_file_near_king: [14, 10, 5, 2, 0, 0, 0, 0],
            rook_enemy_passer_file: 8,
            rook_behind_own_passer: [0, 2, 4, 6, 10, 16, 24, 0],
            rook_in_front_of_own_passer: [0, 2, 3, 4, 6, 10, 14, 0],
            rook_seventh: 20,
            rook_pawns: std::array::from_fn(|p| 2 * (16 - p as i32)),
            rook_mobility: [-15, -10, -6, -3, 0, 3, 6, 8, 10, 12, 14, 15, 16, 17, 18],
            rook_best_ray: [0, 1, 2, 4, 5, 6, 7, 7],
            rook_connected_rank: 8,
            rook_connected_file: 12,
            rook_trapped: 40,

            queen_early: 8,
            queen_tropism: [0, 16, 12, 8, 4, 2, 0, 0],
            queen_mobility: std::array::from_fn(|m| {
                let m = m as i32;
                if m < 8 {
                    2 * m - 12
                } else {
                    4 + (m - 8) / 2
                }
            }),
            queen_king_ring_walk: 4,

            king_square_danger: square_table(|row, file| {
                let r = rank(row);
                match r {
                    0 => i32::from(off_center(file) < 2),
                    1 => 2,
                    _ => 4,
                }
            }),
            king_ring_attacked: 2,
            king_ring_front: 1,
            king_ring_empty: 1,
            king_ring_enemy_piece: 2,
            king_ring_king_alone: 1,
            king_ring_xray: 1,
            king_open_file: 3,
            king_half_open_file: 1,
            king_storm: [0, 0, 3, 2, 1, 0, 0, 0],
            king_shield_near: 2,
            king_shield_far: 1,
            king_attack_pattern: std::array::from_fn(|bits| {
                // More classes, more danger; queen and rook weigh most.
                let b = bits as i32;
                let classes = (b & 1) + (b >> 1 & 1) + (b >> 2 & 1) + (b >> 3 & 1) + (b >> 4 & 1);
                let heavy = 2 * (b >> 3 & 1) + (b >> 2 & 1);
                if classes <= 1 {
                    0
                } else {
                    classes * 2 + heavy * 2
                }
            }),
            king_few_flights: 4,
            king_strong_pattern: 8,
            king_danger: std::array::from_fn(|i| {
                let i = i as i32;
                (i * i * 3 / 4).min(520)
            }),
            king_center: square_table(|row, file| {
                24 - 8 * off_center(file).max(off_center(row)) - 2 * off_center(file).min(off_center(row))
            }),
            king_passer_escort: 6,
            king_pawn_race: 10,
            king_uncastled_minor_home: 6,
            king_lost_castling: 15,

            lazy_margin_min: 80,
            // Zero below five defects, where the adaptive margin covers the
            // king terms' spread. With the smallest margin at 80 this costs
            // 10% fewer instructions per searched position than widening
            // from one defect with 120, and plays no weaker
            // (results/history.md, 2026-12-06).
            lazy_defect_margin: std::array::from_fn(|i| {
                let i = i as i32;
                if i < 5 {
                    0
                } else {
                    (i * i * 12).min(600)
                }
            }),
            lazy_passer_margin: [0, 0, 5, 10, 20, 40, 80, 0],
        }
    }
}

impl Weights {
    /// Check values a JSON file could get wrong in ways the type cannot
    /// express: material must be positive and ordered sensibly.
    pub fn validate(&self) -> Result<(), String> {
        if self.material.iter().any(|&v| v <= 0 || v > 5000) {
            return Err(format!("material values must be within 1..=5000, got {:?}", self.material));
        }
        if self.lazy_margin_min < 0 {
            return Err("lazy_margin_min must not be negative".into());
        }
        let all: Vec<i32> = serde_json::to_value(self)
            .ok()
            .and_then(|v| serde_json::from_value::<serde_json::Map<String, serde_json::Value>>(v).ok())
            .map(|m| {
                m.values()
                    .flat_map(|v| match v {
                        serde_json::Value::Array(a) => a.iter().filter_map(|x| x.as_i64()).map(|x| x as i32).collect(),
                        other => other.as_i64().map(|x| vec![x as i32]).unwrap_or_default(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let Some(v) = all.iter().find(|v| v.unsigned_abs() > 100_000) {
            return Err(format!("weight {v} is out of range (|w| must be at most 100000)"));
        }
        Ok(())
    }

    /// The table as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("weights serialise")
    }

    /// Read and validate a DNA file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let p = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| WeightsError::Io { path: p.clone(), source })?;
        let w: Weights =
            serde_json::from_str(&text).map_err(|source| WeightsError::Parse { path: p.clone(), source })?;
        w.validate().map_err(|reason| WeightsError::Invalid { path: p, reason })?;
        Ok(w)
    }

    /// Write the table atomically (see [`crate::atomic_file::write`]): on an
    /// error `path` is as it was.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        crate::atomic_file::write(path, self.to_json().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip() {
        let w = Weights::default();
        w.validate().unwrap();
        let back: Weights = serde_json::from_str(&w.to_json()).unwrap();
        assert_eq!(back, w);
    }

    #[test]
    fn bad_tables_are_rejected_with_a_reason() {
        let mut v: serde_json::Value = serde_json::to_value(Weights::default()).unwrap();
        v["pawn_square"] = serde_json::json!([1, 2, 3]);
        let e = serde_json::from_value::<Weights>(v).unwrap_err().to_string();
        assert!(e.contains("expected 64 numbers"), "{e}");

        let mut v: serde_json::Value = serde_json::to_value(Weights::default()).unwrap();
        v["no_such_weight"] = serde_json::json!(1);
        assert!(serde_json::from_value::<Weights>(v).unwrap_err().to_string().contains("unknown field"));

        let mut w = Weights::default();
        w.material[0] = 0;
        assert!(w.validate().is_err());
        // |i32::MIN| does not fit an i32: still out of range.
        let w = Weights { pawn_isolated: i32::MIN, ..Weights::default() };
        assert!(w.validate().unwrap_err().contains("out of range"));
    }

    #[test]
    fn save_replaces_the_file_or_leaves_everything_as_it_was() {
        let dir = std::env::temp_dir().join(format!("weights-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.json");
        let neighbour = dir.join("w.tmp");
        std::fs::write(&neighbour, "not ours").unwrap();
        Weights::default().save(&path).unwrap();
        assert_eq!(Weights::load(&path).unwrap(), Weights::default());
        assert_eq!(std::fs::read_to_string(&neighbour).unwrap(), "not ours");
        // Saving onto a directory fails and leaves no temporary file.
        let sub = dir.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        assert!(Weights::default().save(&sub).is_err());
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["sub", "w.json", "w.tmp"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
