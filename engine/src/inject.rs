//! Deliberate, calibrated slowdowns that prove the commit gate catches a
//! regression in one routine and names it (`boardbench gate
//! --candidate-features inject-...`, see benches/README.md). Compiled only
//! with one of the `inject-*` cargo features, which are never on by
//! default; with none of them this module does not exist.
//!
//! Both act in [`crate::attackers::BitboardAttackers::build`] (the bitboard
//! SEE attacker-list builder) and nowhere else, so only the cases that call
//! it (getattacksbench's bitboard arms) change:
//!
//! * `inject-slowdown-attackers`: [`delay`] — a dependent multiply-add chain
//!   of [`ATTACKER_DELAY_STEPS`] steps, a few core cycles each, meant to add
//!   about 5% to the builder's time per call. Measured on 2026-11-30 it added
//!   30-44%, and the feature build also moved unrelated few-tick routines by
//!   6-17% (code placement): see benches/README.md, "The gate, measured here".
//! * `inject-instructions-attackers`: [`extra_instructions`] — three `nop`s
//!   per attacker-list build, nearly free in time but counted by callgrind:
//!   a getattacks call (two builds, 274-334 instructions) gains 6, about 2%.
//!   (A loop of 4 `nop`s, its counter and branch included, added 11-13%.)

/// Steps of the delay chain per attacker-list build.
pub const ATTACKER_DELAY_STEPS: u32 = 4;

/// `steps` dependent multiply-adds the optimiser cannot remove or shorten.
#[inline(always)]
pub fn delay(steps: u32) {
    let mut x = std::hint::black_box(u64::from(steps) | 1);
    for _ in 0..std::hint::black_box(steps) {
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    }
    std::hint::black_box(x);
}

/// Three extra instructions (`nop`s) that cost almost no time.
#[inline(always)]
pub fn extra_instructions() {
    // SAFETY: `nop` has no effects.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::asm!("nop", "nop", "nop", options(nomem, nostack, preserves_flags))
    };
}
