//! The fuzzing harness the engine's and boardbench's fuzz suites share
//! (`engine/tests/fuzz`, `benches/tests/fuzz`, which includes this file):
//! seeded `proptest` runs, one seed per target, failures shrunk and
//! reported with their input, and three guards.
//!
//! * A watchdog aborts the run, printing the input, when a target makes no
//!   progress for [`HANG_LIMIT`].
//! * The global allocator (this module's [`CountingAllocator`]) flags any
//!   single allocation over [`MAX_ALLOCATION`] bytes, and each case checks
//!   that live heap memory stays under [`MAX_LIVE`] bytes. These checks are
//!   process-wide while the targets run in parallel test threads: a
//!   failure names the input of the case that noticed it, so rerun that
//!   target alone to be sure of the culprit.
//!
//! `BOARDBENCH_FUZZ_CASES` sets the inputs per target ([`cases`]),
//! `BOARDBENCH_FUZZ_SEED` the seed.

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A target that makes no progress for this long has hung.
const HANG_LIMIT: Duration = Duration::from_secs(60);
/// No input may make the program ask for one block larger than this. The
/// largest fixed blocks are the engine's evaluation caches (about 20 MiB);
/// the engine's UCI target keeps the transposition table, whose size a
/// user chooses, at 8 MiB; boardbench's inputs are a few KiB.
const MAX_ALLOCATION: usize = 64 << 20;
/// Live heap memory of the whole test process, all targets together.
const MAX_LIVE: usize = 1 << 30;

/// The system allocator, counting live bytes and remembering the largest
/// block asked for beyond [`MAX_ALLOCATION`] (a panic inside the allocator
/// would abort, so the cases check the record instead).
struct CountingAllocator;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static OVERSIZED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; only counters are
// added.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        note_allocation(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

fn note_allocation(size: usize) {
    LIVE.fetch_add(size, Ordering::Relaxed);
    if size > MAX_ALLOCATION {
        OVERSIZED.fetch_max(size, Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Inputs per target: `BOARDBENCH_FUZZ_CASES`, else `quick`.
pub fn cases(quick: u32) -> u32 {
    match std::env::var("BOARDBENCH_FUZZ_CASES") {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("BOARDBENCH_FUZZ_CASES={v:?} is not a whole number")),
        Err(_) => quick,
    }
}

fn seed() -> u64 {
    match std::env::var("BOARDBENCH_FUZZ_SEED") {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("BOARDBENCH_FUZZ_SEED={v:?} is not a whole number")),
        Err(_) => 0x0b0a_4dbe_2c4f_0037,
    }
}

/// What a target's property function returns.
pub type CaseResult = Result<(), TestCaseError>;

/// `Err` with `message` unless `ok`.
pub fn ensure(ok: bool, message: impl FnOnce() -> String) -> CaseResult {
    if ok {
        Ok(())
    } else {
        Err(TestCaseError::fail(message()))
    }
}

/// Run `property` on `cases` inputs from `strategy` under the guards, and
/// print the count and time. Panics with the shrunk input on a failure.
pub fn run_target<S>(name: &str, cases: u32, strategy: S, property: impl Fn(&S::Value) -> CaseResult)
where
    S: Strategy,
    S::Value: Clone + Debug + Send + 'static,
{
    // One seed per target, so each target's inputs do not depend on the
    // others' (or on the order the test threads run in).
    let mut seed_bytes = [0u8; 16];
    seed_bytes[..8].copy_from_slice(&seed().to_le_bytes());
    for (i, b) in name.bytes().enumerate() {
        seed_bytes[8 + i % 8] ^= b.rotate_left(i as u32);
    }
    let config = Config { cases, failure_persistence: None, max_shrink_iters: 2_000, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::XorShift, &seed_bytes));

    let watch = Arc::new(Watch::new());
    let watchdog = {
        let watch = watch.clone();
        let name = name.to_string();
        std::thread::spawn(move || watch.guard(&name))
    };
    let started = Instant::now();
    let result = runner.run(&strategy, |input| {
        watch.enter(&input);
        OVERSIZED.store(0, Ordering::Relaxed);
        property(&input)?;
        let oversized = OVERSIZED.swap(0, Ordering::Relaxed);
        ensure(oversized == 0, || format!("an allocation of {oversized} bytes (over {MAX_ALLOCATION})"))?;
        let live = LIVE.load(Ordering::Relaxed);
        ensure(live <= MAX_LIVE, || format!("{live} bytes of live heap (over {MAX_LIVE})"))
    });
    watch.done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
    let seconds = started.elapsed().as_secs_f64();
    match result {
        Ok(()) => eprintln!("fuzz {name}: {cases} inputs in {seconds:.1} s, no failure"),
        Err(TestError::Fail(reason, input)) => panic!("fuzz {name}: {reason}\nshrunk input: {input:?}"),
        Err(TestError::Abort(reason)) => panic!("fuzz {name}: aborted: {reason}"),
    }
}

/// Progress of one target, watched by its watchdog thread: the case count
/// and the input being run.
struct Watch<V> {
    cases: AtomicU64,
    current: Mutex<Option<V>>,
    done: AtomicBool,
}

impl<V: Clone + Debug> Watch<V> {
    fn new() -> Watch<V> {
        Watch { cases: AtomicU64::new(0), current: Mutex::new(None), done: AtomicBool::new(false) }
    }

    fn enter(&self, input: &V) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(input.clone());
        self.cases.fetch_add(1, Ordering::Relaxed);
    }

    /// Abort the process when no case finishes within [`HANG_LIMIT`].
    fn guard(&self, name: &str) {
        let (mut last, mut since) = (u64::MAX, Instant::now());
        while !self.done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(200));
            let now = self.cases.load(Ordering::Relaxed);
            if now != last {
                (last, since) = (now, Instant::now());
            } else if since.elapsed() > HANG_LIMIT {
                let current = self.current.lock().unwrap_or_else(|e| e.into_inner());
                eprintln!("fuzz {name}: case {now} has run for over {HANG_LIMIT:?}, a hang, on input {current:.4000?}");
                std::process::abort();
            }
        }
    }
}
