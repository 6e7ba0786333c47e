//! `boardbench nps`: whole-engine nodes per second, ours beside Crafty's and
//! Stockfish's own `bench`, measured in one job on one core.
//!
//! Every run is a separate process pinned to the same core (the pin is set
//! before `exec`, so threads inherit it), each in a fresh temporary working
//! directory. A round runs every engine once; the order inside a round
//! follows a first-order balanced (Williams) design, so that with two
//! engines it is AB, BA, AB, … and with more every engine runs in every
//! position and after every other engine equally often: load that drifts
//! over the job hits all engines alike. Each run records the engine's own
//! node count and NPS, its CPU time (user + system, from `wait4`) against
//! wall time, and the load average before and after.
//!
//! Per engine: median, min and max NPS. Per pair ours/theirs: the median
//! over rounds of the per-round NPS ratio, with a bootstrap 95% interval
//! (rounds resampled; the two runs of a round are neighbours in time, so
//! drift cancels in their ratio). Whole-process timings swing up to 2x here
//! under load from other jobs: quote these ratios, measured in
//! one job, not one absolute figure.
//!
//! With `--crafty`, Crafty also searches our bench positions to a fixed
//! depth (`crafty-positions`), so the two engines are timed on the same
//! positions, and its search summaries say how many of the nodes it counts
//! are moves it made and then pruned unsearched. Our engine counts nodes
//! the same way (one per move made, and one per move pruned, made or not)
//! and its bench says how many were pruned moves, so the ratios are given both counted against counted and searched
//! positions against searched positions (`ours P searched /
//! crafty-positions searched`). Each position is searched from a clean
//! state: Crafty 23 gets `new` before each, in one process; Crafty 25,
//! which refuses `new`, a fresh process per position (its version is read
//! from the banner of a start-and-quit before the first round). A run of
//! several processes is timed by Crafty's own clock as before (its
//! summaries' `time=`); its CPU and wall times are the processes' sums.
//!
//! By part: [`cli`] (flags and their checks), [`run`] (the rounds of
//! processes), [`report`] (JSON, ratios, table, plot).

pub mod cli;
pub mod report;
pub mod run;

use crate::measure::sysinfo;
use crate::output::print_out;

/// Run from the command line: the table (or JSON) on stdout; exit status.
pub fn main(c: &cli::NpsCli) -> Result<i32, String> {
    let a = c.resolve(sysinfo::command_line())?;
    let r = run::run(&a)?;
    if c.json {
        print_out(&format!("{}\n", serde_json::to_string(&r).map_err(|e| e.to_string())?))?;
    } else {
        let mut text = format!("{}JSON:  {}\n", report::table(&r), a.out.join("nps-latest.json").display());
        if let Some(p) = r.plots.iter().find(|p| p.ends_with(".png")) {
            text.push_str(&format!("plot:  {}\n", a.out.join(p).display()));
        }
        print_out(&text)?;
    }
    Ok(0)
}
