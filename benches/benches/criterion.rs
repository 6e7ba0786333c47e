//! `cargo bench --bench criterion`: criterion 0.8 benchmarks of the same
//! routines (every arm of every registered benchmark) on each density
//! bucket, measured in TSC ticks through a criterion `Measurement` that uses
//! boardbench's fenced reads (`lfence; rdtsc; lfence` / `rdtscp; lfence`);
//! on a machine without a usable TSC it counts monotonic nanoseconds and
//! says so. Short measurement times keep the whole target near two minutes
//! (26 routines × 3 buckets). The mobility groups take only positions with
//! a piece of their type, as mobilitybench does.
//! Criterion never fails on a regression: this is for its reports, the
//! cycles target is the one with controls.

use boardbench::benchmarks::{evalcycles, getattacks, kingdefects, mobility, movegen, slider};
use boardbench::density::{self, Sizes};
use boardbench::suite::{Filter, Spec};
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// TSC ticks (or nanoseconds where there is no usable TSC).
struct Ticks {
    tsc: bool,
}

impl Measurement for Ticks {
    type Intermediate = (u64, std::time::Instant);
    type Value = u64;

    fn start(&self) -> Self::Intermediate {
        (if self.tsc { boardbench::tsc::read_start() } else { 0 }, std::time::Instant::now())
    }
    fn end(&self, i: Self::Intermediate) -> u64 {
        if self.tsc {
            boardbench::tsc::read_stop().wrapping_sub(i.0)
        } else {
            i.1.elapsed().as_nanos() as u64
        }
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
        if self.tsc {
            &TickFormatter("ticks")
        } else {
            &TickFormatter("ns")
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

fn group<I: Clone>(c: &mut Criterion<Ticks>, spec: Spec<I>, set: &density::PositionSet, filter: Option<Filter>) {
    for (bucket, chosen) in &set.buckets {
        let inputs: Vec<I> = chosen
            .iter()
            .filter(|p| filter.is_none_or(|f| (f.keep)(&p.position)))
            .map(|p| (spec.prepare)(&p.position))
            .collect();
        if inputs.is_empty() {
            continue;
        }
        let mut g = c.benchmark_group(format!("{}/{}", spec.name, bucket));
        g.throughput(Throughput::Elements(inputs.len() as u64));
        for arm in &spec.arms {
            let mut mine = inputs.clone();
            let f = arm.routine;
            g.bench_function(BenchmarkId::from_parameter(arm.name), |b| {
                b.iter(|| {
                    let mut s = 0u64;
                    for x in mine.iter_mut() {
                        s = s.wrapping_add(f(black_box(x)));
                    }
                    s
                })
            });
        }
        g.finish();
    }
}

fn main() {
    let tsc = boardbench::measurement::TscTicks::new();
    if let Err(why) = &tsc {
        eprintln!("criterion: no usable TSC ({why}); measuring nanoseconds");
    }
    let dir = boardbench::cli::default_positions_dir();
    let set = match density::select(
        &density::default_sources(&dir),
        Some(&dir.join(density::DERIVED_FILE)),
        Sizes { per_bucket: 64, per_count: 1, ..Sizes::default() },
    ) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("criterion: {e}");
            std::process::exit(1);
        }
    };
    let mut c = Criterion::default()
        .with_measurement(Ticks { tsc: tsc.is_ok() })
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(900))
        .sample_size(20)
        .configure_from_args();
    group(&mut c, slider::spec(), &set, None);
    group(&mut c, movegen::spec(), &set, None);
    group(&mut c, getattacks::spec(), &set, None);
    group(&mut c, kingdefects::spec(), &set, None);
    group(&mut c, evalcycles::spec(), &set, None);
    for kind in mobility::KINDS {
        group(&mut c, mobility::spec(kind), &set, Some(mobility::filter(kind)));
    }
    c.final_summary();
}
