//! Deliberate, calibrated slowdowns that prove the commit gate catches a
//! regression in one routine and names it (see benches/docs/gate.md, "The
//! gate, measured here"). Compiled only with one of the `inject-*` cargo
//! features, which are never on by default; with none of them this module
//! does not exist and the default build carries nothing of it.
//!
//! Both act in [`crate::attackers::BitboardAttackers::build`] (the bitboard
//! SEE attacker-list builder) and nowhere else, so only the cases that call
//! it (getattacksbench's bitboard arms) change:
//!
//! * `inject-hook` compiles [`attacker_delay`] into the builder: a countdown
//!   whose length comes from the environment variable
//!   [`ATTACKER_DELAY_VAR`] (0 when unset). The switch is an environment
//!   variable and not a second feature because two builds that differ in
//!   features differ in symbol hashes, so the linker lays their functions
//!   out in another order — and on this machine code placement alone moved
//!   unrelated few-tick routines by 6-17%, which the gate rightly named. One
//!   build run with and without the variable is the same machine code. The
//!   proof is `scripts/gate.sh --features inject-hook --candidate-env
//!   BOARDBENCH_INJECT_ATTACKER_DELAY=N`.
//! * `inject-instructions-attackers`: [`extra_instructions`] — three `nop`s
//!   per attacker-list build, nearly free in time but counted by callgrind:
//!   a getattacks call (two builds, 274-334 instructions) gains 6, about 2%.
//!   (A loop of 4 `nop`s, its counter and branch included, added 11-13%.)

#[cfg(feature = "inject-hook")]
use std::sync::atomic::{AtomicU32, Ordering};

/// The environment variable holding [`attacker_delay`]'s step count.
pub const ATTACKER_DELAY_VAR: &str = "BOARDBENCH_INJECT_ATTACKER_DELAY";

/// Not read from the environment yet.
#[cfg(feature = "inject-hook")]
const UNREAD: u32 = u32::MAX;

#[cfg(feature = "inject-hook")]
static ATTACKER_DELAY_STEPS: AtomicU32 = AtomicU32::new(UNREAD);

/// The step count in [`ATTACKER_DELAY_VAR`]: 0 when unset; an error naming
/// the variable when it is not a number below 1,000,000.
pub fn attacker_delay_from_env() -> Result<u32, String> {
    match std::env::var(ATTACKER_DELAY_VAR) {
        Err(std::env::VarError::NotPresent) => Ok(0),
        Ok(v) => parse_steps(&v),
        Err(e) => Err(format!("{ATTACKER_DELAY_VAR}: {e}")),
    }
}

/// A step count from 0 to 999,999, or an error naming [`ATTACKER_DELAY_VAR`].
fn parse_steps(v: &str) -> Result<u32, String> {
    match v.trim().parse::<u32>() {
        Ok(n) if n < 1_000_000 => Ok(n),
        _ => Err(format!("{ATTACKER_DELAY_VAR}={v:?}: expected a step count from 0 to 999999")),
    }
}

#[cfg(feature = "inject-hook")]
#[cold]
#[inline(never)]
fn read_attacker_delay() -> u32 {
    let n = attacker_delay_from_env().unwrap_or_else(|e| {
        // A proof-only switch read deep inside a hot routine: there is no
        // caller to hand the error to, so say what is wrong and stop.
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    ATTACKER_DELAY_STEPS.store(n, Ordering::Relaxed);
    n
}

/// Counts the configured steps down to zero, one dependent subtraction
/// (about a core cycle) each, in inline assembly so it cannot be folded.
#[cfg(feature = "inject-hook")]
#[inline(always)]
pub fn attacker_delay() {
    let mut left = ATTACKER_DELAY_STEPS.load(Ordering::Relaxed);
    if left == UNREAD {
        left = read_attacker_delay();
    }
    while left != 0 {
        // SAFETY: arithmetic on a register only.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            std::arch::asm!("sub {0:e}, 1", inout(reg) left, options(pure, nomem, nostack))
        };
        #[cfg(not(target_arch = "x86_64"))]
        {
            left = std::hint::black_box(left - 1);
        }
    }
}

/// Three extra instructions (`nop`s) that cost almost no time.
#[cfg(feature = "inject-instructions-attackers")]
#[inline(always)]
pub fn extra_instructions() {
    // SAFETY: `nop` has no effects.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::asm!("nop", "nop", "nop", options(nomem, nostack, preserves_flags))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_counts_parse_or_name_the_variable() {
        assert_eq!(parse_steps("0"), Ok(0));
        assert_eq!(parse_steps(" 2 "), Ok(2));
        assert_eq!(parse_steps("999999"), Ok(999_999));
        for bad in ["", "-1", "two", "1000000", "2.5"] {
            let e = parse_steps(bad).unwrap_err();
            assert!(e.contains(ATTACKER_DELAY_VAR) && e.contains("step count"), "{bad:?}: {e}");
        }
    }

    #[cfg(feature = "inject-hook")]
    #[test]
    fn the_delay_runs_and_returns() {
        // Unset in the test environment: the count is read once, as 0.
        attacker_delay();
        assert_ne!(ATTACKER_DELAY_STEPS.load(Ordering::Relaxed), UNREAD);
        ATTACKER_DELAY_STEPS.store(1000, Ordering::Relaxed);
        attacker_delay();
    }
}
