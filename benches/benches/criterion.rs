//! `cargo bench --bench criterion`: criterion 0.8 benchmarks of the same
//! routines (every arm of every registered benchmark) on each density
//! bucket, measured in TSC ticks through boardbench's clock (the one fenced
//! reader, `engine::tsc`); on a machine without a usable TSC it counts
//! monotonic nanoseconds and says so. The cases come from the registry
//! (`boardbench::suite::cases`): each benchmark's own arms, filters and
//! inputs, so a new benchmark joins without code here. Short measurement
//! times keep the whole target near two minutes. Criterion never fails on
//! a regression: this is for its reports, the cycles target is the one
//! with controls.

use boardbench::measure::clock::{Clock, Measurement as _, Reading};
use boardbench::suite::density::{self, PositionSet, Sizes};
use boardbench::suite::{benchmarks, cases};
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkId, Criterion, Throughput};
use std::time::Duration;

/// Criterion's view of boardbench's clock: TSC ticks (or nanoseconds where
/// there is no usable TSC).
struct Ticks(Clock);

impl Measurement for Ticks {
    type Intermediate = Reading;
    type Value = u64;

    fn start(&self) -> Reading {
        self.0.start()
    }
    fn end(&self, r: Reading) -> u64 {
        self.0.end(r) as u64
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        match self.0 {
            Clock::Tsc(_) => &TickFormatter("ticks"),
            Clock::Monotonic(_) => &TickFormatter("ns"),
        }
    }
}

struct TickFormatter(&'static str);

impl ValueFormatter for TickFormatter {
    fn scale_values(&self, _typical: f64, _values: &mut [f64]) -> &'static str {
        self.0
    }
    fn scale_throughputs(&self, _typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        if let Throughput::Elements(n) = throughput {
            for v in values.iter_mut() {
                *v /= *n as f64;
            }
        }
        if self.0 == "ticks" {
            "ticks/call"
        } else {
            "ns/call"
        }
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        self.0
    }
}

/// 64 positions per bucket of the suite's seeded selection, no ladder.
fn positions() -> Result<PositionSet, String> {
    let dir = boardbench::workspace::positions_dir();
    let sizes = Sizes { per_bucket: 64, per_count: 0, ..Sizes::default() };
    density::select(&density::default_sources(&dir), None, sizes).map_err(|e| e.to_string())
}

fn main() {
    let (clock, why) = Clock::choose(true);
    if let Some(why) = why {
        eprintln!("criterion: no usable TSC ({why}); measuring nanoseconds");
    }
    let set = positions().unwrap_or_else(|e| {
        eprintln!("criterion: {e}");
        std::process::exit(1);
    });
    let mut c = Criterion::default()
        .with_measurement(Ticks(clock))
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(900))
        .sample_size(20)
        .configure_from_args();
    for entry in benchmarks::REGISTRY {
        let mut prepared = cases::prepare_all(entry, &set).unwrap_or_else(|e| {
            eprintln!("criterion: {e}");
            std::process::exit(1);
        });
        // A group per bucket (the cases come bucket by bucket, arm by arm).
        let mut at = 0;
        while at < prepared.len() {
            let bucket = prepared[at].0.bucket.clone();
            let end = at + prepared[at..].iter().take_while(|(id, _)| id.bucket == bucket).count();
            let mut g = c.benchmark_group(format!("{}/{}", entry.name, bucket));
            g.throughput(Throughput::Elements(prepared[at].1.calls() as u64));
            for (id, case) in &mut prepared[at..end] {
                g.bench_function(BenchmarkId::from_parameter(&id.arm), |b| b.iter(|| case.pass()));
            }
            g.finish();
            at = end;
        }
    }
    c.final_summary();
}
