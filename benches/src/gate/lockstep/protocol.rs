//! The messages of the lock-step protocol, one JSON object per line: the
//! gate's commands on a worker's stdin, the worker's hello and samples on
//! its stdout. (Coordination within a visit goes through the shared page;
//! measurements only through these messages.)

use crate::gate::lockstep::schedule::Pairing;
use crate::measure::case::CaseId;
use serde::{Deserialize, Serialize};

/// The hidden subcommand of a worker.
pub const WORKER_SUBCOMMAND: &str = "gate-worker";

/// What `gate-worker --protocol` prints: the version its build speaks.
pub fn protocol_line(version: u32) -> String {
    format!("boardbench gate-worker protocol {version}")
}

/// A worker's first message: what it measures and how.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Hello {
    pub protocol: u32,
    pub pid: u32,
    /// Unit of every sample ("ticks", "ns").
    pub unit: String,
    /// Clock units per microsecond.
    pub units_per_us: f64,
    /// Address randomisation of the worker ("off", "on", "unknown").
    pub aslr: String,
    pub pinned: bool,
    pub realtime: bool,
    /// Bytes of heap the worker set aside before preparing its cases (its
    /// own data placement).
    pub heap_offset: usize,
    /// Seconds from the worker's start to its hello: preparing the cases,
    /// calibrating the clock, timing a pass of each case.
    pub ready_s: f64,
    pub cases: Vec<CaseInfo>,
}

/// One case a worker can measure.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CaseInfo {
    pub id: CaseId,
    /// Calls per pass (one per input).
    pub calls: usize,
    /// Clock units of one pass (median of a few, warm).
    pub pass_units: f64,
}

/// A command to a worker.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    Visit(Visit),
    /// Exit.
    Quit,
}

/// Measure one case for a number of cycles in lock-step with the others.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Visit {
    /// The case's index in this worker's hello.
    pub case: usize,
    /// Passes over the inputs per timed sample (the same in every worker).
    pub reps: u64,
    /// Cycles run first and not sent back.
    pub warm: u32,
    /// Cycles whose samples are sent back.
    pub cycles: u32,
    /// The row of the balanced orders the visit starts at.
    pub offset: u32,
    pub pairing: Pairing,
}

/// A worker's message on stdout.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Message {
    Hello(Hello),
    /// A visit's samples: clock units of each timed sample (`reps` passes),
    /// in the order of the worker's steps.
    Samples {
        case: usize,
        units: Vec<f64>,
    },
}

/// One message as its line (without the newline).
pub fn to_line<T: Serialize>(m: &T) -> String {
    serde_json::to_string(m).expect("protocol messages serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_as_lines() {
        let v = Command::Visit(Visit { case: 3, reps: 8, warm: 2, cycles: 40, offset: 5, pairing: Pairing::Turns });
        let line = to_line(&v);
        assert!(!line.contains('\n'));
        assert_eq!(serde_json::from_str::<Command>(&line).unwrap(), v);
        assert_eq!(serde_json::from_str::<Command>(&to_line(&Command::Quit)).unwrap(), Command::Quit);
        let m = Message::Samples { case: 1, units: vec![1.5, 2.0] };
        assert_eq!(serde_json::from_str::<Message>(&to_line(&m)).unwrap(), m);
        assert_eq!(protocol_line(1), "boardbench gate-worker protocol 1");
    }
}
