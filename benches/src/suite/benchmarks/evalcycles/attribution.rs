//! The arithmetic of evalcycles' attribution: from the floors (or counts)
//! of the ablation variants to one row per group and the remainder, and the
//! side-by-side table of the three sources (ablation ticks, counter ticks,
//! instructions) for one bucket and implementation.
//!
//! Per group G, measured together in one runner job (or one callgrind run):
//!
//! * work = full - without_G (G's own score terms);
//! * state = without_G - without_G_state (the attack state G builds for
//!   later groups; pawn attacks have only this part);
//! * whole = work + state = full - without_G_state.
//!
//! What no group removes (the material and pawn entries, clearing the
//! attack words, glue, the call) is measured alone, by the variant that
//! leaves every group out (`inputs_only`): its own row. The unattributed
//! row is the full evaluation minus the groups' wholes and the inputs: what
//! the groups' interactions add or take away (signed). By construction the
//! rows and the remainder add up to the full evaluation.
//!
//! Intervals: each part's 95% interval comes from its own paired ratio in
//! the runner job that measured it. A sum or difference of parts takes each
//! side's half-width in quadrature (independent errors: right across jobs,
//! which run at different times; within a job the parts share their
//! baseline's noise, which a paired difference would cancel, so there the
//! combined interval is on the wide side).

use super::shapley;
use crate::suite::report::{AttributionRow, AttributionTable, Cost, Interaction, RowKind, WholeEvaluation};
use engine::eval::groups::Group;

impl Cost {
    /// A figure known exactly (a count), as a cost with an empty interval.
    pub fn exact(value: f64) -> Cost {
        Cost { value, interval: [value, value] }
    }

    /// Distance from the value down to the lower end and up to the upper.
    fn sides(&self) -> (f64, f64) {
        (self.value - self.interval[0], self.interval[1] - self.value)
    }
}

/// `Σ terms` (signs `+1`/`-1` per term) with each side's half-width in
/// quadrature.
pub fn combine(terms: &[(f64, Cost)]) -> Cost {
    let value: f64 = terms.iter().map(|(s, c)| s * c.value).sum();
    let (mut below, mut above) = (0.0f64, 0.0f64);
    for (sign, c) in terms {
        let (lo, hi) = c.sides();
        // A subtracted term's upper side lowers the result.
        let (down, up) = if *sign >= 0.0 { (lo, hi) } else { (hi, lo) };
        below += down * down;
        above += up * up;
    }
    Cost { value, interval: [value - below.sqrt(), value + above.sqrt()] }
}

/// One group's parts, measured together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroupParts {
    pub group: Group,
    /// Its own work, where the group has work ([`Group::has_work`]).
    pub work: Option<Cost>,
    /// The state it builds, where it has state ([`Group::has_state`]).
    pub state: Option<Cost>,
}

impl GroupParts {
    /// The parts of `group` from the three variants' figures measured
    /// together (exact: instruction counts).
    pub fn from_counts(group: Group, full: f64, without: Option<f64>, without_state: Option<f64>) -> GroupParts {
        GroupParts {
            group,
            work: without.map(|w| Cost::exact(full - w)),
            state: without_state.map(|s| Cost::exact(without.unwrap_or(full) - s)),
        }
    }

    /// Work plus state.
    pub fn whole(&self) -> Cost {
        let parts: Vec<(f64, Cost)> = self.work.iter().chain(&self.state).map(|c| (1.0, *c)).collect();
        combine(&parts)
    }
}

/// The groups' rows, the inputs' and the remainder of one source.
#[derive(Clone, Debug, PartialEq)]
pub struct Attributed {
    pub full: Cost,
    /// In [`Group::ALL`] order; a group never measured has no entry.
    pub groups: Vec<GroupParts>,
    /// The inputs alone (every group left out), where measured.
    pub inputs: Option<Cost>,
    /// full - Σ whole - inputs.
    pub unattributed: Cost,
}

/// Attribute `full` to `groups` and the `inputs`; the remainder is its own
/// row.
pub fn attribute(full: Cost, mut groups: Vec<GroupParts>, inputs: Option<Cost>) -> Attributed {
    groups.sort_by_key(|g| g.group);
    let mut terms = vec![(1.0, full)];
    terms.extend(groups.iter().map(|g| (-1.0, g.whole())));
    terms.extend(inputs.map(|c| (-1.0, c)));
    Attributed { full, groups, inputs, unattributed: combine(&terms) }
}

/// The median of one attribution measured in several code layouts, every
/// layout's figures scaled to the same full floor: each row the median of
/// its layouts' (of an even number, the mean of the middle two, their
/// half-widths in quadrature over two), the remainder recomputed from them.
/// The median, not the mean: a layout can put one variant on an alignment
/// cliff (the full chain evaluation at a 40-byte pad once ran 17% slower
/// than at 0, 16 and 56 bytes and than every variant at 40), and in a mean
/// that one layout moved every row by as much. A row missing from a layout
/// is missing from the median.
///
/// # Panics
///
/// With no layouts.
pub fn median_of_layouts(layouts: &[Attributed]) -> Attributed {
    let median = |costs: &[Option<Cost>]| -> Option<Cost> {
        let mut costs: Vec<Cost> = costs.iter().copied().collect::<Option<_>>()?;
        costs.sort_by(|a, b| a.value.total_cmp(&b.value));
        let n = costs.len();
        let middle = if n % 2 == 1 { &costs[n / 2..=n / 2] } else { &costs[n / 2 - 1..=n / 2] };
        let k = middle.len() as f64;
        let scaled: Vec<(f64, Cost)> = middle
            .iter()
            .map(|c| (1.0, Cost { value: c.value / k, interval: [c.interval[0] / k, c.interval[1] / k] }))
            .collect();
        Some(combine(&scaled))
    };
    let first = &layouts[0];
    let groups = first
        .groups
        .iter()
        .filter_map(|g| {
            let of: Vec<&GroupParts> =
                layouts.iter().filter_map(|a| a.groups.iter().find(|p| p.group == g.group)).collect();
            (of.len() == layouts.len()).then(|| GroupParts {
                group: g.group,
                work: median(&of.iter().map(|p| p.work).collect::<Vec<_>>()),
                state: median(&of.iter().map(|p| p.state).collect::<Vec<_>>()),
            })
        })
        .collect();
    let inputs = median(&layouts.iter().map(|a| a.inputs).collect::<Vec<_>>());
    attribute(first.full, groups, inputs)
}

/// One counter row: name, mean ticks per evaluation, floor (lowest mean of
/// a pass) if reported.
pub type CounterRow = (String, f64, Option<f64>);

/// The counters' figures of one bucket and implementation (see
/// `counters::parse`): never below zero but the unattributed row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CounterRows {
    /// Per group (by name): mean and floor.
    pub groups: Vec<CounterRow>,
    /// Per input (by name): mean and floor.
    pub inputs: Vec<CounterRow>,
    pub whole: Option<f64>,
    pub unattributed: Option<f64>,
    pub unattributed_floor: Option<f64>,
    pub pair_ticks: f64,
    /// 10th percentile of the instrumented passes (ticks per evaluation).
    pub instrumented_floor: Option<f64>,
    /// 10th percentile of the passes with the counters off, interleaved
    /// with the instrumented ones in the same process.
    pub uninstrumented_floor: Option<f64>,
}

/// The labels of the inputs the counters time on their own.
fn input_label(name: &str) -> String {
    match name {
        "material_entry" => "material entry (input)".into(),
        "pawn_entry" => "pawn entry (input)".into(),
        "clear_words" => "clearing attack words (input)".into(),
        other => format!("{other} (input)"),
    }
}

/// The side-by-side table of one bucket and implementation. Every group
/// has a row whichever sources ran; then the inputs alone (ablation and
/// instructions), the inputs the counters time one by one, and the
/// unattributed row last.
pub fn table(
    bucket: &str,
    arm: &str,
    positions: usize,
    ablation: Option<&Attributed>,
    counters: Option<&CounterRows>,
    instructions: Option<&Attributed>,
    uninstrumented_floor: Option<f64>,
) -> AttributionTable {
    let parts = |a: Option<&Attributed>, g: Group| a.and_then(|a| a.groups.iter().find(|p| p.group == g).copied());
    let counter_of = |list: fn(&CounterRows) -> &Vec<CounterRow>, name: &str| {
        counters.and_then(|c| list(c).iter().find(|(n, _, _)| n == name).map(|&(_, t, f)| (t.max(0.0), f.map(|f| f.max(0.0)))))
    };
    let mut rows: Vec<AttributionRow> = Group::ALL
        .iter()
        .map(|&g| {
            let a = parts(ablation, g);
            let c = counter_of(|c| &c.groups, g.name());
            AttributionRow {
                row: g.name().to_string(),
                label: g.label().to_string(),
                kind: RowKind::Group,
                ablation_work: a.and_then(|p| p.work),
                ablation_state: a.and_then(|p| p.state),
                ablation: a.map(|p| p.whole()),
                counter: c.map(|c| c.0),
                counter_floor: c.and_then(|c| c.1),
                instructions: parts(instructions, g).map(|p| p.whole().value),
                shapley: None,
            }
        })
        .collect();
    if ablation.is_some_and(|a| a.inputs.is_some()) || instructions.is_some_and(|a| a.inputs.is_some()) {
        rows.push(AttributionRow {
            row: "inputs".into(),
            label: "inputs alone (no group)".into(),
            kind: RowKind::Input,
            ablation_work: None,
            ablation_state: None,
            ablation: ablation.and_then(|a| a.inputs),
            counter: None,
            counter_floor: None,
            instructions: instructions.and_then(|a| a.inputs.map(|c| c.value)),
            shapley: None,
        });
    }
    if let Some(c) = counters {
        for (name, ticks, floor) in &c.inputs {
            rows.push(AttributionRow {
                row: name.clone(),
                label: input_label(name),
                kind: RowKind::Input,
                ablation_work: None,
                ablation_state: None,
                ablation: None,
                counter: Some(ticks.max(0.0)),
                counter_floor: floor.map(|f| f.max(0.0)),
                instructions: None,
                shapley: None,
            });
        }
    }
    rows.push(AttributionRow {
        row: "unattributed".into(),
        label: "unattributed (whole - rows)".into(),
        kind: RowKind::Unattributed,
        ablation_work: None,
        ablation_state: None,
        ablation: ablation.map(|a| a.unattributed),
        counter: counters.and_then(|c| c.unattributed),
        counter_floor: counters.and_then(|c| c.unattributed_floor),
        instructions: instructions.map(|a| a.unattributed.value),
        shapley: None,
    });
    let instrumented_floor = counters.and_then(|c| c.instrumented_floor);
    let counters_off_floor = counters.and_then(|c| c.uninstrumented_floor);
    AttributionTable {
        bucket: bucket.to_string(),
        arm: arm.to_string(),
        positions,
        whole: WholeEvaluation {
            ablation_floor: ablation.map(|a| a.full.value),
            uninstrumented_floor,
            instrumented_floor,
            counters_off_floor,
            instrumented_ratio: instrumented_floor.zip(counters_off_floor).map(|(i, u)| i / u),
            counter_whole: counters.and_then(|c| c.whole),
            counter_pair_ticks: counters.map(|c| c.pair_ticks),
            instructions: instructions.map(|a| a.full.value),
            unattributed_by_layout: Vec::new(),
            shapley_floor: None,
        },
        rows,
        interactions: Vec::new(),
    }
}

/// Add the Shapley shares `m` (already in the table's scale, see
/// [`shapley::Measured::scaled_to`]) to table `t`: each group's share, the
/// inputs alone (a row of its own if the table had none), the fixed-code
/// floor and the largest interactions. The remainder row gets none: the
/// shares add up to the whole by construction.
pub fn with_shapley(t: &mut AttributionTable, m: &shapley::Measured) {
    for (g, share) in Group::ALL.iter().zip(m.shares) {
        if let Some(r) = t.rows.iter_mut().find(|r| r.kind == RowKind::Group && r.row == g.name()) {
            r.shapley = Some(share);
        }
    }
    match t.rows.iter_mut().find(|r| r.row == "inputs") {
        Some(r) => r.shapley = Some(m.inputs),
        None => {
            let at = t.rows.iter().position(|r| r.kind != RowKind::Group).unwrap_or(t.rows.len());
            t.rows.insert(
                at,
                AttributionRow {
                    row: "inputs".into(),
                    label: "inputs alone (no group)".into(),
                    kind: RowKind::Input,
                    ablation_work: None,
                    ablation_state: None,
                    ablation: None,
                    counter: None,
                    counter_floor: None,
                    instructions: None,
                    shapley: Some(m.inputs),
                },
            );
        }
    }
    t.whole.shapley_floor = Some(m.floor);
    t.interactions = m
        .interactions
        .iter()
        .map(|&(a, b, ticks)| Interaction { a: a.name().to_string(), b: b.name().to_string(), ticks })
        .collect();
}

/// The groups of [`AGREE_FROM_TICKS`] or more by Shapley share, each with
/// its share and counter ticks (the counters' floor, else their mean).
pub fn compared_with_shapley(t: &AttributionTable) -> Vec<(&str, f64, f64)> {
    compared_by(t, |r| r.shapley)
}

/// The groups of [`AGREE_FROM_TICKS`] or more by `reference`, each with
/// its reference and counter ticks.
fn compared_by(t: &AttributionTable, reference: fn(&AttributionRow) -> Option<Cost>) -> Vec<(&str, f64, f64)> {
    t.rows
        .iter()
        .filter(|r| r.kind == RowKind::Group)
        .filter_map(|r| Some((r.row.as_str(), reference(r)?.value, r.counter_floor.or(r.counter)?)))
        .filter(|&(_, x, _)| x >= AGREE_FROM_TICKS)
        .collect()
}

/// The remainder's share of the ablation's full floor.
pub fn unattributed_share(t: &AttributionTable) -> Option<f64> {
    let u = t.rows.iter().find(|r| r.kind == RowKind::Unattributed)?.ablation?;
    Some(u.value / t.whole.ablation_floor?)
}

/// Groups at least this costly (ablation ticks) are held to agree with
/// the counters.
pub const AGREE_FROM_TICKS: f64 = 30.0;

/// A group's counter ticks agree with its ablation ticks: within 20%, or
/// 10 ticks, whichever is larger.
pub fn agrees(ablation: f64, counter: f64) -> bool {
    (counter - ablation).abs() <= (0.2 * ablation.abs()).max(10.0)
}

/// The groups of [`AGREE_FROM_TICKS`] or more by ablation, each with its
/// ablation and counter ticks: floors both (the counters' lowest mean of a
/// pass, else their mean), as an ablation takes floors.
pub fn compared_groups(t: &AttributionTable) -> Vec<(&str, f64, f64)> {
    compared_by(t, |r| r.ablation)
}

/// The three costliest groups by a source's figure, costliest first.
pub fn top_three(t: &AttributionTable, figure: fn(&AttributionRow) -> Option<f64>) -> Vec<&str> {
    let mut groups: Vec<(&str, f64)> =
        t.rows.iter().filter(|r| r.kind == RowKind::Group).filter_map(|r| Some((r.row.as_str(), figure(r)?))).collect();
    groups.sort_by(|a, b| b.1.total_cmp(&a.1));
    groups.into_iter().take(3).map(|(n, _)| n).collect()
}

/// Ablation ticks per instruction removed, per group, for `names`, and for
/// the whole evaluation (its ablation floor over its instructions): why the
/// ranking by ablation ticks and by instructions can differ. A group whose
/// instructions retire faster than the whole's (straight-line arithmetic)
/// ranks lower by ticks than by instructions; one whose are slower
/// (branchy walks, cache misses) ranks higher. Groups without both figures,
/// or with no instructions, are left out.
pub fn ticks_per_instruction<'a>(t: &'a AttributionTable, names: &[&'a str]) -> (Vec<(&'a str, f64)>, Option<f64>) {
    let per_group = names
        .iter()
        .filter_map(|&n| {
            let r = t.rows.iter().find(|r| r.kind == RowKind::Group && r.row == n)?;
            let i = r.instructions.filter(|&i| i > 0.0)?;
            Some((n, r.ablation?.value / i))
        })
        .collect();
    let whole = t.whole.ablation_floor.zip(t.whole.instructions.filter(|&i| i > 0.0)).map(|(f, i)| f / i);
    (per_group, whole)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn cost(value: f64, lo: f64, hi: f64) -> Cost {
        Cost { value, interval: [lo, hi] }
    }

    /// Synthetic floors: every group's rows and the remainder add up to the
    /// full evaluation, whatever the parts.
    /// Two layouts: every row is the mean of the two (the median of an
    /// even number), the intervals shrink as a mean's do, and the remainder
    /// is the mean of the remainders.
    #[test]
    fn the_median_of_two_layouts_is_the_mean_of_every_row() {
        let full = cost(1000.0, 990.0, 1010.0);
        let rooks = |work: f64, state: f64| GroupParts {
            group: Group::Rooks,
            work: Some(cost(work, work - 6.0, work + 6.0)),
            state: Some(cost(state, state - 8.0, state + 8.0)),
        };
        let hash = |work: f64| GroupParts { group: Group::Hash, work: Some(cost(work, work - 2.0, work + 2.0)), state: None };
        let one = attribute(full, vec![rooks(100.0, 40.0), hash(10.0)], Some(cost(300.0, 294.0, 306.0)));
        let two = attribute(full, vec![rooks(160.0, 20.0), hash(30.0)], Some(cost(200.0, 194.0, 206.0)));
        let m = median_of_layouts(&[one.clone(), two.clone()]);
        assert_eq!(m.full, full);
        let r = m.groups.iter().find(|g| g.group == Group::Rooks).unwrap();
        assert_eq!(r.work.unwrap().value, 130.0);
        assert_eq!(r.state.unwrap().value, 30.0);
        // Half-width 6 in each: sqrt(3² + 3²).
        let hw = r.work.unwrap().interval[1] - 130.0;
        assert!((hw - 18f64.sqrt()).abs() < 1e-9, "{hw}");
        assert_eq!(m.inputs.unwrap().value, 250.0);
        assert_eq!(m.groups.iter().find(|g| g.group == Group::Hash).unwrap().work.unwrap().value, 20.0);
        let want = (one.unattributed.value + two.unattributed.value) / 2.0;
        assert!((m.unattributed.value - want).abs() < 1e-9, "{} vs {want}", m.unattributed.value);
        // A group one layout lacks has no median.
        let partial = attribute(full, vec![hash(10.0)], None);
        let m = median_of_layouts(&[one, partial]);
        assert!(m.groups.iter().all(|g| g.group == Group::Hash) && m.inputs.is_none());
    }

    /// Four layouts, one of them on a cliff that inflates every row: the
    /// median is the mean of the middle two, untouched by the cliff; odd
    /// counts take the middle one.
    #[test]
    fn one_layout_on_a_cliff_does_not_move_the_median() {
        let full = cost(300.0, 298.0, 302.0);
        let layout = |rooks: f64, hash: f64| {
            let g = |group, v: f64| GroupParts { group, work: Some(cost(v, v - 2.0, v + 2.0)), state: None };
            attribute(full, vec![g(Group::Rooks, rooks), g(Group::Hash, hash)], Some(cost(20.0, 19.0, 21.0)))
        };
        let layouts = [layout(80.0, 10.0), layout(90.0, 12.0), layout(140.0, 60.0), layout(84.0, 11.0)];
        let m = median_of_layouts(&layouts);
        let value = |g: Group| m.groups.iter().find(|p| p.group == g).unwrap().work.unwrap().value;
        assert_eq!((value(Group::Rooks), value(Group::Hash)), (87.0, 11.5));
        // Half-width 2 in each of the middle two: sqrt(1² + 1²).
        let hw = m.groups.iter().find(|p| p.group == Group::Rooks).unwrap().work.unwrap().interval[1] - 87.0;
        assert!((hw - 2f64.sqrt()).abs() < 1e-9, "{hw}");
        assert!((m.unattributed.value - (300.0 - 87.0 - 11.5 - 20.0)).abs() < 1e-9);
        let m = median_of_layouts(&layouts[..3]);
        assert_eq!(m.groups.iter().find(|p| p.group == Group::Rooks).unwrap().work.unwrap().value, 90.0);
        // The ladder takes the same median of plain values.
        assert_eq!(crate::measure::stats::median_mut(&mut [3.0, 1.0, 2.0, 10.0]), 2.5);
        assert_eq!(crate::measure::stats::median_mut(&mut [3.0, 1.0, 2.0]), 2.0);
    }

    #[test]
    fn rows_and_the_remainder_add_up_to_the_full_evaluation() {
        let full = 1000.0;
        let mut groups = Vec::new();
        for (i, &g) in Group::ALL.iter().enumerate() {
            let without = g.has_work().then_some(full - 10.0 * (i as f64 + 1.0));
            let without_state = g.has_state().then(|| without.unwrap_or(full) - 7.5 * i as f64);
            groups.push(GroupParts::from_counts(g, full, without, without_state));
        }
        let a = attribute(Cost::exact(full), groups, Some(Cost::exact(60.0)));
        let rows: f64 = a.groups.iter().map(|g| g.whole().value).sum::<f64>() + 60.0;
        // work 10 × (1 + ... + 10) less pawn attacks' 40; state 7.5 × the
        // seven state groups' indices (3 + 4 + 5 + 6 + 7 + 8 + 9).
        assert_eq!(rows, 550.0 - 40.0 + 7.5 * 42.0 + 60.0);
        assert_eq!(rows + a.unattributed.value, full);
        assert_eq!(a.unattributed.interval, [a.unattributed.value; 2], "exact counts: no interval");
        // Every group has a row, in evaluation order.
        let order: Vec<Group> = a.groups.iter().map(|g| g.group).collect();
        assert_eq!(order, Group::ALL);
        let pawn_attacks = a.groups[Group::PawnAttacks as usize];
        assert_eq!((pawn_attacks.work, pawn_attacks.state.map(|c| c.value)), (None, Some(22.5)));
        let hash = a.groups[Group::Hash as usize];
        assert_eq!((hash.work.map(|c| c.value), hash.state), (Some(10.0), None));
        // A remainder can be negative (interactions): it is kept signed.
        let over =
            attribute(Cost::exact(50.0), vec![GroupParts::from_counts(Group::Kings, 50.0, Some(-5.0), Some(-10.0))], None);
        assert_eq!(over.unattributed.value, -10.0);
    }

    #[test]
    fn shapley_shares_fill_every_group_the_inputs_and_the_interactions() {
        // A table with no inputs row of its own (counters only).
        let mut t = table("endgame", "mailbox", 3, None, Some(&CounterRows::default()), None, Some(500.0));
        assert!(t.rows.iter().all(|r| r.row != "inputs"));
        let share = |i: usize| cost(10.0 * (i as f64 + 1.0), 9.0 * (i as f64 + 1.0), 11.0 * (i as f64 + 1.0));
        let m = shapley::Measured {
            bucket: "endgame".into(),
            kind: engine::eval::MobilityKind::Mailbox,
            floor: 600.0,
            inputs: cost(50.0, 48.0, 52.0),
            shares: std::array::from_fn(share),
            interactions: vec![(Group::Bishops, Group::Rooks, cost(30.0, 10.0, 50.0))],
        };
        with_shapley(&mut t, &m);
        for (i, g) in Group::ALL.iter().enumerate() {
            let r = t.rows.iter().find(|r| r.row == g.name()).unwrap();
            assert_eq!(r.shapley, Some(share(i)), "{g}");
        }
        let inputs = t.rows.iter().position(|r| r.row == "inputs").expect("an inputs row");
        assert_eq!(t.rows[inputs].shapley.map(|c| c.value), Some(50.0));
        assert!(t.rows[..inputs].iter().all(|r| r.kind == RowKind::Group), "after the groups");
        assert_eq!(t.rows.last().unwrap().kind, RowKind::Unattributed);
        assert_eq!(t.rows.last().unwrap().shapley, None, "shares add up by construction");
        assert_eq!(t.whole.shapley_floor, Some(600.0));
        assert_eq!((t.interactions[0].a.as_str(), t.interactions[0].b.as_str()), ("bishops", "rooks"));
        // Compared with the counters from 30 ticks of share up: none here
        // has counters.
        assert!(compared_with_shapley(&t).is_empty());
    }

    #[test]
    fn intervals_combine_in_quadrature_with_signs() {
        let a = cost(10.0, 7.0, 14.0);
        let b = cost(20.0, 16.0, 23.0);
        let sum = combine(&[(1.0, a), (1.0, b)]);
        assert_eq!(sum.value, 30.0);
        assert!((sum.interval[0] - (30.0 - 5.0)).abs() < 1e-12, "{sum:?}");
        assert!((sum.interval[1] - (30.0 - 5.0 + 10.0)).abs() < 1e-12, "{sum:?}");
        // Subtracting b: its upper side lowers the result.
        let diff = combine(&[(1.0, a), (-1.0, b)]);
        assert_eq!(diff.value, -10.0);
        assert!((diff.interval[0] - (-10.0 - (9.0f64 + 9.0).sqrt())).abs() < 1e-12, "{diff:?}");
        assert!((diff.interval[1] - (-10.0 + (16.0f64 + 16.0).sqrt())).abs() < 1e-12, "{diff:?}");
    }

    #[test]
    fn the_table_has_every_group_the_inputs_and_the_remainder() {
        let groups = vec![
            GroupParts { group: Group::Knights, work: Some(cost(30.0, 28.0, 32.0)), state: Some(cost(20.0, 19.0, 21.0)) },
            GroupParts { group: Group::Hash, work: Some(cost(5.0, 4.0, 6.0)), state: None },
        ];
        let ablation = attribute(cost(100.0, 99.0, 101.0), groups, Some(cost(10.0, 9.0, 11.0)));
        let counters = CounterRows {
            groups: vec![("knights".into(), 48.0, Some(45.0)), ("rooks".into(), -3.0, Some(-1.0))],
            inputs: vec![("pawn_entry".into(), 12.0, None)],
            whole: Some(90.0),
            unattributed: Some(-2.0),
            unattributed_floor: None,
            pair_ticks: 20.0,
            instrumented_floor: Some(115.0),
            uninstrumented_floor: Some(100.0),
        };
        let t = table("opening", "chain", 3, Some(&ablation), Some(&counters), None, Some(100.0));
        let names: Vec<&str> = t.rows.iter().map(|r| r.row.as_str()).collect();
        let mut want: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
        want.extend(["inputs", "pawn_entry", "unattributed"]);
        assert_eq!(names, want);
        let row = |n: &str| t.rows.iter().find(|r| r.row == n).unwrap();
        assert_eq!(row("knights").ablation.unwrap().value, 50.0);
        assert_eq!(row("knights").counter, Some(48.0));
        // Counter rows never go below zero; the remainder stays signed.
        assert_eq!(row("rooks").counter, Some(0.0));
        assert_eq!(row("rooks").counter_floor, Some(0.0));
        assert_eq!(row("unattributed").counter, Some(-2.0));
        assert_eq!(row("unattributed").ablation.unwrap().value, 35.0);
        assert_eq!(row("inputs").ablation.unwrap().value, 10.0);
        assert_eq!(row("inputs").counter, None);
        // Groups never measured by a source have no figure from it.
        assert_eq!(row("queens").ablation, None);
        assert_eq!(row("queens").instructions, None);
        assert_eq!(row("pawn_entry").kind, RowKind::Input);
        // The ablation rows and the remainder add up to its full floor.
        let sum: f64 = t.rows.iter().filter_map(|r| r.ablation).map(|c| c.value).sum();
        assert_eq!(sum, t.whole.ablation_floor.unwrap());
        assert_eq!(t.whole.instrumented_ratio, Some(1.15));
        assert_eq!(unattributed_share(&t), Some(0.35));
        assert_eq!(compared_groups(&t), vec![("knights", 50.0, 45.0)]);
        assert_eq!(top_three(&t, |r| r.ablation.map(|c| c.value)), vec!["knights", "hash"]);
        assert_eq!(top_three(&t, |r| r.counter), vec!["knights", "rooks"]);
    }

    /// Knights costing 100 ticks for 200 instructions and kings 50 for 500,
    /// in a whole of 1,000 ticks and 4,000 instructions; rooks with no
    /// instructions and no ablation: ranked differently by the two.
    pub(crate) fn ranked_differently() -> AttributionTable {
        let mut groups = Vec::new();
        for (g, without) in [(Group::Knights, 900.0), (Group::Kings, 950.0)] {
            groups.push(GroupParts::from_counts(g, 1000.0, Some(without), None));
        }
        let ablation = attribute(cost(1000.0, 999.0, 1001.0), groups, None);
        let mut t = table("opening", "mailbox", 3, Some(&ablation), None, None, Some(1000.0));
        for r in t.rows.iter_mut() {
            r.instructions = match r.row.as_str() {
                "knights" => Some(200.0),
                "kings" => Some(500.0),
                "rooks" => Some(0.0),
                _ => r.instructions,
            };
        }
        t.whole.instructions = Some(4000.0);
        t
    }

    #[test]
    fn ticks_per_instruction_explains_a_ranking() {
        let t = ranked_differently();
        let (per, whole) = ticks_per_instruction(&t, &["knights", "kings", "rooks"]);
        assert_eq!(per, vec![("knights", 0.5), ("kings", 0.1)]);
        assert_eq!(whole, Some(0.25));
    }

    #[test]
    fn agreement_is_within_a_fifth_or_ten_ticks() {
        assert!(agrees(100.0, 80.0) && agrees(100.0, 120.0) && !agrees(100.0, 79.0) && !agrees(100.0, 121.0));
        // Below 50 ticks, 10 ticks is the larger allowance.
        assert!(agrees(30.0, 40.0) && agrees(30.0, 20.0) && !agrees(30.0, 40.5));
    }
}
