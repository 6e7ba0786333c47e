//! The lock-step protocol of the timing check: the workers (each build's
//! hidden `boardbench gate-worker`), the small shared page that keeps them
//! in step sample by sample, the schedule of who measures when, the
//! messages, and the gate's side that drives them.
//!
//! By part: [`page`] (the shared page and its futex waits), [`schedule`]
//! (the pairings and their steps), [`protocol`] (messages and version),
//! [`worker`] (the subcommand), [`workers`] (starting, visiting, failing
//! cleanly).

pub mod page;
pub mod protocol;
pub mod schedule;
pub mod worker;
pub mod workers;
