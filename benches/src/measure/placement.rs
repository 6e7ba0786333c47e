//! Where a measuring process's code and data land, drawn at random per
//! process so that no single layout decides a result. A routine of a few
//! dozen cycles meets different cache-set and 4 KiB-aliasing conflicts
//! depending on the addresses of its stack, its inputs and its code; one
//! process measures one layout, and only several processes with different
//! layouts show how much the layout moves the result (the between-process
//! component of an interval).
//!
//! Each measuring process gets:
//! * address-space layout randomisation on (the parent switches it on for
//!   the child: [`crate::measure::aslr::randomise_child`]): code, stack,
//!   heap and libraries at new page addresses;
//! * an environment variable of random length ([`PAD_VAR`], set by the
//!   parent): the environment sits at the top of the initial stack, so
//!   every stack address below it moves by that much;
//! * a random stack offset: the measurement runs below a random number of
//!   recursive frames ([`run_placed`]);
//! * a random heap offset: an allocation of random size, kept alive, made
//!   before any input is built (below glibc's mmap threshold, so it shifts
//!   the heap the inputs are allocated from).
//!
//! The draw ([`PlacementPlan`]) and what it gave ([`Placement`]: the
//! actual stack, heap and code addresses) are recorded per process.

use crate::measure::aslr::{self, Aslr};
use serde::{Deserialize, Serialize};
use std::hint::black_box;

/// The environment variable whose length pads a measuring process's
/// environment.
pub const PAD_VAR: &str = "BOARDBENCH_PLACEMENT_PAD";

/// Most bytes of environment padding (a page).
const MAX_ENV_PAD: u64 = 4096;
/// Most recursive frames below which a measurement runs.
const MAX_STACK_FRAMES: u64 = 128;
/// Most bytes of heap offset; well below glibc's 128 KiB mmap threshold.
const MAX_HEAP_PAD: u64 = 64 * 1024;

/// The random placement drawn for one process.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PlacementPlan {
    pub seed: u64,
    /// Bytes of [`PAD_VAR`].
    pub env_pad: usize,
    /// Recursive frames below which the measurement runs.
    pub stack_frames: usize,
    /// Bytes allocated (and kept) before any input.
    pub heap_pad: usize,
}

impl PlacementPlan {
    /// The placement drawn from `seed`.
    pub fn draw(seed: u64) -> PlacementPlan {
        let mut rng = engine::rng::Rng::new(seed);
        PlacementPlan {
            seed,
            env_pad: rng.below(MAX_ENV_PAD + 1) as usize,
            stack_frames: rng.below(MAX_STACK_FRAMES + 1) as usize,
            // Steps of 16 bytes, malloc's alignment.
            heap_pad: 16 * rng.below(MAX_HEAP_PAD / 16 + 1) as usize,
        }
    }

    /// The padding variable's value for the child's environment.
    pub fn env_value(&self) -> String {
        "x".repeat(self.env_pad)
    }
}

/// What a process's placement turned out to be.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Placement {
    pub plan: PlacementPlan,
    /// Address-space randomisation in the process.
    pub aslr: Aslr,
    /// Bytes of [`PAD_VAR`] the process found in its environment.
    pub env_pad: usize,
    /// Bytes between the stack at [`run_placed`]'s entry and the frame the
    /// measurement ran in.
    pub stack_offset: usize,
    /// Address of a local in the frame the measurement ran in.
    pub stack_address: u64,
    /// Address of the first allocation after the heap padding.
    pub heap_address: u64,
    /// Address of a function of this crate (moves with the executable's
    /// load address).
    pub code_address: u64,
}

/// Recurse `frames` times, then run `f`; returns the address of a local in
/// the innermost frame. Never inlined, and the local is used after the
/// call, so every level is a real frame.
#[inline(never)]
fn descend(frames: usize, f: &mut dyn FnMut()) -> u64 {
    let local = black_box([frames as u8; 24]);
    let here = black_box(&local) as *const _ as u64;
    let at = if frames == 0 {
        f();
        here
    } else {
        descend(frames - 1, f)
    };
    black_box(&local);
    at
}

/// Run `f` under the placement `plan`: the heap padding allocated first
/// (and kept until `f` returns), then `f` called below the drawn number of
/// frames. Returns `f`'s result and the placement it ran under.
pub fn run_placed<T>(plan: &PlacementPlan, f: impl FnOnce() -> T) -> (T, Placement) {
    let pad = black_box(vec![0x5au8; plan.heap_pad]);
    let probe = black_box(Box::new(0u64));
    let heap_address = &*probe as *const u64 as u64;
    let top = black_box(0u8);
    let top_address = &top as *const u8 as u64;
    let mut f = Some(f);
    let mut out = None;
    let stack_address = descend(plan.stack_frames, &mut || out = f.take().map(|f| f()));
    drop(black_box(pad));
    drop(probe);
    let placement = Placement {
        plan: *plan,
        aslr: aslr::state(),
        env_pad: std::env::var_os(PAD_VAR).map_or(0, |v| v.len()),
        stack_offset: top_address.saturating_sub(stack_address) as usize,
        stack_address,
        heap_address,
        code_address: descend as fn(usize, &mut dyn FnMut()) -> u64 as usize as u64,
    };
    (out.expect("f ran"), placement)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_seeded_and_within_bounds() {
        assert_eq!(PlacementPlan::draw(7), PlacementPlan::draw(7));
        let plans: Vec<PlacementPlan> = (0..200).map(PlacementPlan::draw).collect();
        assert!(plans.iter().all(|p| p.env_pad <= 4096 && p.stack_frames <= 128 && p.heap_pad <= 65536));
        assert!(plans.iter().all(|p| p.heap_pad % 16 == 0));
        // Spread over their ranges, not stuck.
        let distinct = |v: Vec<usize>| v.into_iter().collect::<std::collections::BTreeSet<_>>().len();
        assert!(distinct(plans.iter().map(|p| p.env_pad).collect()) > 150);
        assert!(distinct(plans.iter().map(|p| p.stack_frames).collect()) > 60);
        assert!(distinct(plans.iter().map(|p| p.heap_pad).collect()) > 150);
        assert_eq!(PlacementPlan { env_pad: 5, ..plans[0] }.env_value(), "xxxxx");
    }

    #[test]
    fn the_stack_offset_grows_with_the_frames_and_the_heap_moves() {
        // Inside one process: more frames put the measurement deeper.
        let at = |frames: usize, heap_pad: usize| {
            let plan = PlacementPlan { seed: 0, env_pad: 0, stack_frames: frames, heap_pad };
            let (addr, p) = run_placed(&plan, || {
                let x = black_box(1u32);
                &x as *const u32 as u64
            });
            (addr, p)
        };
        let (shallow, p0) = at(0, 0);
        let (deep, p100) = at(100, 0);
        assert!(shallow > deep, "the stack grows down: {shallow:#x} {deep:#x}");
        // At least 24 bytes per frame (the local), at most a few hundred.
        let per_frame = (p100.stack_offset - p0.stack_offset) / 100;
        assert!((24..=512).contains(&per_frame), "{per_frame} bytes per frame");
        assert!(p100.stack_address < p0.stack_address);
        assert_ne!(p0.code_address, 0);
        // The measurement's own locals lie below the recorded frame.
        assert!(deep < p100.stack_address);
    }
}
