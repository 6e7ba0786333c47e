//! `boardbench load`: a co-tenant, to reproduce the gate's behaviour on a
//! busy machine. One ordinary (not real-time) process pinned to one core
//! — by default the first, the one the gate leaves free — running one
//! kind of loop for a given time:
//!
//! * `memory`: read-modify-write at random places of a 64 MiB buffer
//!   (twice this machine's 32 MiB L3): the shared cache and the memory
//!   bus are kept busy, and whatever the gate's core holds in the L3 is
//!   evicted.
//! * `branch`: data-dependent branches on random bytes (about half
//!   mispredicted), with a small table lookup per byte: the front end and
//!   the branch predictor work flat out.
//! * `compute`: a dependent chain of multiplies and adds in registers: the
//!   core is busy, the caches are left alone.

use crate::gate::cli::usage_error;
use crate::measure::pin;
use crate::output::print_out;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What the load does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LoadKind {
    Memory,
    Branch,
    Compute,
}

/// `boardbench load`.
#[derive(clap::Args, Clone, Debug)]
pub struct LoadCli {
    /// The loop: memory-thrashing, branch-heavy or compute.
    #[arg(value_enum)]
    pub kind: LoadKind,
    /// Seconds to run (at most a day).
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    pub seconds: f64,
    /// Pin to core N [default: the first core, which the gate leaves free].
    #[arg(long, value_name = "N")]
    pub core: Option<usize>,
}

/// Most seconds of `--seconds`.
const MAX_SECONDS: f64 = 86_400.0;

/// Bytes of the memory loop's buffer.
const MEMORY_BYTES: usize = 64 << 20;

/// Bytes of random data the branch loop walks.
const BRANCH_BYTES: usize = 1 << 16;

/// Iterations between looks at the clock (well under a millisecond).
const CHUNK: u64 = 1 << 14;

/// A xorshift step: a fast, unpredictable stream.
#[inline(always)]
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Run `kind` for `d`; iterations done.
pub fn run_load(kind: LoadKind, d: Duration) -> u64 {
    let start = Instant::now();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut done = 0u64;
    match kind {
        LoadKind::Memory => {
            let mut buf = vec![0u64; MEMORY_BYTES / 8];
            let mask = buf.len() - 1;
            while start.elapsed() < d {
                for _ in 0..CHUNK {
                    let i = next(&mut seed) as usize & mask;
                    buf[i] = buf[i].wrapping_add(1);
                }
                done += CHUNK;
            }
            black_box(&buf);
        }
        LoadKind::Branch => {
            let data: Vec<u8> = (0..BRANCH_BYTES).map(|_| next(&mut seed) as u8).collect();
            let table = [3u64, 1, 4, 1, 5, 9, 2, 6];
            let (mut a, mut b) = (0u64, 0u64);
            while start.elapsed() < d {
                for &x in &data {
                    if x & 1 != 0 {
                        a = a.wrapping_add(table[(x >> 5) as usize]);
                    } else if x & 2 != 0 {
                        b ^= u64::from(x);
                    } else {
                        a = a.rotate_left(1);
                    }
                }
                done += data.len() as u64;
                black_box((a, b));
            }
        }
        LoadKind::Compute => {
            let mut x = 1u64;
            while start.elapsed() < d {
                for _ in 0..CHUNK {
                    x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407));
                }
                done += CHUNK;
            }
            black_box(x);
        }
    }
    done
}

/// Run `boardbench load`; the exit status.
pub fn load_main(a: &LoadCli) -> Result<i32, String> {
    if !(a.seconds > 0.0 && a.seconds <= MAX_SECONDS) {
        return Ok(usage_error(&format!("--seconds {}: must be above 0 and at most {MAX_SECONDS}", a.seconds)));
    }
    let cores = core_affinity::get_core_ids().unwrap_or_default();
    let first = cores.iter().map(|c| c.id).min();
    let core = match a.core.or(first) {
        Some(c) => c,
        None => return Err("this OS does not report its cores, cannot pin the load".into()),
    };
    let p = match pin::pin(Some(core)) {
        Ok(p) => p,
        Err(e) => return Ok(usage_error(&e)),
    };
    let done = run_load(a.kind, Duration::from_secs_f64(a.seconds));
    print_out(&format!(
        "load {:?} on core {core}{} for {} s: {done} iterations\n",
        a.kind,
        if p.pinned { "" } else { " (not pinned: the OS refused)" },
        a.seconds
    ))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_load_runs_for_its_time_and_does_work() {
        for kind in [LoadKind::Memory, LoadKind::Branch, LoadKind::Compute] {
            let t = Instant::now();
            let done = run_load(kind, Duration::from_millis(30));
            let took = t.elapsed();
            assert!(done > 0, "{kind:?}");
            assert!(took >= Duration::from_millis(30), "{kind:?} stopped early: {took:?}");
        }
    }
}
