//! A match's result as numbers: wins, draws and losses of engine A, the
//! pentanomial counts of its game pairs (each opening played twice, colours
//! reversed), and from those the score with its 95% interval (the interval's
//! lower end is LOWER95), the Elo difference it implies with its interval,
//! and the normalized Elo.
//!
//! The interval is taken over pairs, not games: the two games of a pair
//! share an opening and are correlated, and the pentanomial variance counts
//! that (a trinomial one over games would overstate the spread when the
//! opening decides much of the result). A pair's score is A's points in
//! its two games over 2: 0, 1/4, 1/2, 3/4 or 1. With `p_i` the share of
//! pairs scoring `a_i`, the score is `mu = sum p_i a_i`, the variance of a
//! pair's score is `var = sum p_i (a_i - mu)^2`, and the 95% interval is
//! `mu +- 1.959964 sqrt(var / pairs)` (normal approximation).
//!
//! Logistic Elo is `-400 log10(1/mu - 1)`; its interval is the score
//! interval's ends put through the same formula. Normalized Elo (fishtest's
//! convention for pentanomial results) is `(mu - 1/2) / sqrt(2 var) *
//! 800 / ln 10`: the score's distance from a draw in units of the per-game
//! standard deviation, scaled so that near 50% and without draws it
//! matches logistic Elo.

use serde::{Deserialize, Serialize};

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of `t = (mu - 1/2) / sigma_per_game`:
/// `800 / ln 10`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// A game's outcome for engine A.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// Points: 1, 1/2 or 0, in half points (2, 1, 0).
    pub fn half_points(self) -> u8 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Counts so far, from engine A's side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pairs by A's points in the pair: 0, 1/2, 1, 3/2, 2 (LL, LD, WL+DD,
    /// WD, WW).
    pub pentanomial: [u64; 5],
}

impl Tally {
    /// Count one game.
    pub fn add_game(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Count one finished pair (its games are counted with [`add_game`](Self::add_game)).
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.pentanomial[usize::from(first.half_points() + second.half_points())] += 1;
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    /// A's points over all games (pairs or not).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
}

/// Logistic Elo of a score in (0, 1); `None` at 0 or 1 (unbounded).
pub fn logistic_elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// The expected score of a logistic Elo difference.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance of a pair's score (0, 1/4, .., 1) over `counts`.
pub fn pair_mean_variance(counts: &[f64; 5]) -> (f64, f64) {
    let n: f64 = counts.iter().sum();
    let mean = counts.iter().enumerate().map(|(i, c)| c * i as f64 / 4.0).sum::<f64>() / n;
    let var = counts.iter().enumerate().map(|(i, c)| c * (i as f64 / 4.0 - mean).powi(2)).sum::<f64>() / n;
    (mean, var)
}

/// What the pairs say about the strength difference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub pairs: u64,
    /// A's mean score per game over the pairs.
    pub score: f64,
    /// 95% interval of the score; its lower end is LOWER95.
    pub score_interval: [f64; 2],
    /// Logistic Elo of A over B; `None` where unbounded (a score of 0 or 1).
    pub elo: Option<f64>,
    /// The score interval's ends as logistic Elo (`None`: unbounded).
    pub elo_interval: [Option<f64>; 2],
    /// Normalized Elo and its 95% interval; `None` when every pair scored
    /// the same (no spread to normalise by).
    pub nelo: Option<f64>,
    pub nelo_interval: Option<[f64; 2]>,
}

impl Estimate {
    /// From the pentanomial counts; `None` before the first pair.
    pub fn of(tally: &Tally) -> Option<Estimate> {
        let pairs = tally.pairs();
        if pairs == 0 {
            return None;
        }
        let counts = tally.pentanomial.map(|c| c as f64);
        let (mean, var) = pair_mean_variance(&counts);
        let half = Z95 * (var / pairs as f64).sqrt();
        let interval = [(mean - half).max(0.0), (mean + half).min(1.0)];
        let sigma_per_game = (2.0 * var).sqrt();
        let (nelo, nelo_interval) = if sigma_per_game > 0.0 {
            let n = |s: f64| (s - 0.5) / sigma_per_game * NELO_PER_T;
            (Some(n(mean)), Some([n(mean - half), n(mean + half)]))
        } else {
            (None, None)
        };
        Some(Estimate {
            pairs,
            score: mean,
            score_interval: interval,
            elo: logistic_elo(mean),
            elo_interval: interval.map(logistic_elo),
            nelo,
            nelo_interval,
        })
    }

    /// LOWER95: the lower end of the score's 95% interval.
    pub fn lower95(&self) -> f64 {
        self.score_interval[0]
    }
}

/// An Elo figure for people: `+52.5`, or `-inf`/`+inf` where unbounded.
pub fn show_elo(elo: Option<f64>, unbounded_sign: f64) -> String {
    match elo {
        // No "-0.0" for a difference that rounds to nothing.
        Some(e) if e.abs() < 0.05 => "+0.0".to_string(),
        Some(e) => format!("{e:+.1}"),
        None if unbounded_sign < 0.0 => "-inf".to_string(),
        None => "+inf".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(pentanomial: [u64; 5]) -> Tally {
        Tally { pentanomial, ..Tally::default() }
    }

    #[test]
    fn symmetric_pairs_worked_example() {
        // LL 10, LD 20, WL+DD 40, WD 20, WW 10: 100 pairs.
        // mu = (0*10 + .25*20 + .5*40 + .75*20 + 1*10) / 100 = 50 / 100 = 0.5
        // var = (10*.25 + 20*.0625 + 40*0 + 20*.0625 + 10*.25) / 100 = 7.5 / 100 = 0.075
        // half width = 1.959964 * sqrt(0.075 / 100) = 1.959964 * 0.0273861 = 0.0536758
        // interval [0.4463242, 0.5536758]; as Elo: -400 log10(1/0.4463242 - 1)
        //   = -400 log10(1.2405222) = -400 * 0.0936070 = -37.443, and +37.443.
        // normalized Elo 0; sigma per game sqrt(0.15) = 0.3872983, so the
        //   interval is +-0.0536758 / 0.3872983 * 347.4355855 = +-48.151.
        let e = Estimate::of(&tally([10, 20, 40, 20, 10])).unwrap();
        assert_eq!(e.pairs, 100);
        assert!((e.score - 0.5).abs() < 1e-12);
        assert!((e.score_interval[0] - 0.446_324_2).abs() < 1e-6, "{:?}", e.score_interval);
        assert!((e.score_interval[1] - 0.553_675_8).abs() < 1e-6, "{:?}", e.score_interval);
        assert!((e.lower95() - 0.446_324_2).abs() < 1e-6);
        assert!(e.elo.unwrap().abs() < 1e-9);
        assert!((e.elo_interval[0].unwrap() + 37.443).abs() < 1e-3, "{:?}", e.elo_interval);
        assert!((e.elo_interval[1].unwrap() - 37.443).abs() < 1e-3, "{:?}", e.elo_interval);
        let ni = e.nelo_interval.unwrap();
        assert!(e.nelo.unwrap().abs() < 1e-9);
        assert!((ni[0] + 48.151).abs() < 1e-3 && (ni[1] - 48.151).abs() < 1e-3, "{ni:?}");
    }

    #[test]
    fn winning_pairs_worked_example() {
        // LL 5, LD 15, WL+DD 40, WD 25, WW 15: 100 pairs.
        // mu = (0 + .25*15 + .5*40 + .75*25 + 1*15) / 100 = (3.75 + 20 + 18.75 + 15) / 100 = 0.575
        // var = (5*.575^2 + 15*.325^2 + 40*.075^2 + 25*.175^2 + 15*.425^2) / 100
        //     = (1.653125 + 1.584375 + 0.225 + 0.765625 + 2.709375) / 100 = 0.069375
        // half width = 1.959964 * sqrt(0.069375 / 100) = 1.959964 * 0.0263391 = 0.0516236
        // interval [0.5233764, 0.6266236]: LOWER95 = 0.5233764 > 0.5.
        // Elo = -400 log10(1/0.575 - 1) = -400 log10(0.7391304) = 52.51.
        // nElo = 0.075 / sqrt(0.13875) * 347.4355855 = 0.075 / 0.3724916 * 347.4355855 = 69.955.
        let e = Estimate::of(&tally([5, 15, 40, 25, 15])).unwrap();
        assert!((e.score - 0.575).abs() < 1e-12);
        assert!((e.lower95() - 0.523_376_4).abs() < 1e-6, "{:?}", e.score_interval);
        assert!((e.score_interval[1] - 0.626_623_6).abs() < 1e-6, "{:?}", e.score_interval);
        assert!((e.elo.unwrap() - 52.51).abs() < 0.01, "{:?}", e.elo);
        assert!((e.nelo.unwrap() - 69.955).abs() < 1e-3, "{:?}", e.nelo);
        // The Elo interval is the score interval's ends as Elo.
        assert!((e.elo_interval[0].unwrap() - logistic_elo(e.score_interval[0]).unwrap()).abs() < 1e-12);
        assert!((logistic_score(e.elo.unwrap()) - 0.575).abs() < 1e-12);
    }

    #[test]
    fn pairs_that_all_score_alike_have_no_spread() {
        // Every pair one win and one loss (identical engines at fixed nodes
        // replay each game with colours reversed): exactly 0.5, no spread.
        let e = Estimate::of(&tally([0, 0, 100, 0, 0])).unwrap();
        assert_eq!((e.score, e.score_interval), (0.5, [0.5, 0.5]));
        assert_eq!((e.nelo, e.nelo_interval), (None, None));
        // Every pair won: a score of 1, unbounded Elo.
        let e = Estimate::of(&tally([0, 0, 0, 0, 3])).unwrap();
        assert_eq!((e.score, e.elo), (1.0, None));
        assert_eq!(show_elo(e.elo, 1.0), "+inf");
        assert_eq!(show_elo(Some(-0.0), 0.0), "+0.0");
        assert_eq!(show_elo(Some(-0.06), 0.0), "-0.1");
        assert!(Estimate::of(&Tally::default()).is_none());
    }

    #[test]
    fn games_and_pairs_are_counted_apart() {
        let mut t = Tally::default();
        for (a, b) in [(Outcome::Win, Outcome::Loss), (Outcome::Draw, Outcome::Win), (Outcome::Loss, Outcome::Loss)] {
            t.add_game(a);
            t.add_game(b);
            t.add_pair(a, b);
        }
        t.add_game(Outcome::Draw); // half a pair
        assert_eq!((t.wins, t.draws, t.losses, t.games(), t.pairs()), (2, 2, 3, 7, 3));
        assert_eq!(t.pentanomial, [1, 0, 1, 1, 0]);
        assert_eq!(t.points(), 3.0);
    }
}
