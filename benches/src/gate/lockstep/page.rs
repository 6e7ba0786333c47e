//! The shared page of the lock-step protocol: one page of shared memory (a
//! file on tmpfs that the gate creates and every worker maps) holding only
//! coordination — whose step it is, how many workers have arrived at and
//! finished the current step, each worker's sample cursor, and a stop flag.
//! No measurement passes through it: samples go back over each worker's
//! stdout after each visit of a case.
//!
//! Waiting is on a futex on the step word (shared, not process-private: the
//! workers are separate processes). Workers that share one core must sleep
//! while another takes its turn — a spinning real-time worker would keep
//! the core from the one it waits for — so every wait sleeps in slices and
//! checks the stop flag between them; workers on separate cores may spin
//! for the few microseconds a partner needs to arrive.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Version of the protocol (page layout, messages, schedule). A worker of
/// another version refuses to start, and the gate refuses a build whose
/// worker speaks another.
pub const PROTOCOL: u32 = 1;

/// First word of the page: the gate wrote it.
const MAGIC: u64 = u64::from_le_bytes(*b"bbgate\0\x01");

/// Most workers one page coordinates.
pub const MAX_WORKERS: usize = 4;

/// Bytes mapped.
const PAGE_BYTES: usize = 4096;

/// One cache line, so that words written by different processes never
/// share a line.
#[repr(C, align(64))]
struct Line<T>(T);

/// A worker's own line.
#[repr(C, align(64))]
struct Slot {
    /// Samples this worker has finished since it started.
    cursor: AtomicU64,
    /// Its process id, once it has mapped the page.
    pid: AtomicU32,
}

/// The page's layout.
#[repr(C)]
struct Shared {
    header: Line<(AtomicU64, AtomicU32, AtomicU32)>,
    /// The step that may run now (the futex word).
    step: Line<AtomicU32>,
    /// Participants that have arrived at a step (parallel pairing; never
    /// reset within a visit).
    arrived: Line<AtomicU64>,
    /// Participants that have finished a step (parallel pairing).
    finished: Line<AtomicU64>,
    /// Non-zero: stop now (the gate gave up; workers exit).
    stop: Line<AtomicU32>,
    slots: [Slot; MAX_WORKERS],
}

const _: () = assert!(std::mem::size_of::<Shared>() <= PAGE_BYTES);

/// Why a wait ended without its condition.
#[derive(Debug, PartialEq, Eq)]
pub enum WaitError {
    /// The gate set the stop flag.
    Stopped,
    /// The condition did not hold within the time allowed.
    TimedOut,
}

/// The mapped page. The creator removes the file when dropped.
#[derive(Debug)]
pub struct Page {
    shared: *const Shared,
    path: PathBuf,
    owner: bool,
}

// SAFETY: the page is only accessed through atomics; the pointer stays
// valid (mapped) until drop.
unsafe impl Send for Page {}
unsafe impl Sync for Page {}

fn os_error(what: &str, path: &Path) -> String {
    format!("{what} {}: {}", path.display(), std::io::Error::last_os_error())
}

/// Map `len` bytes of the open file `fd` shared, read-write.
fn map(fd: libc::c_int, path: &Path) -> Result<*const Shared, String> {
    // SAFETY: a fresh shared mapping of an open file; checked for failure.
    let p = unsafe {
        libc::mmap(std::ptr::null_mut(), PAGE_BYTES, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd, 0)
    };
    if p == libc::MAP_FAILED {
        return Err(os_error("cannot map", path));
    }
    Ok(p as *const Shared)
}

impl Page {
    /// A new page in `dir` (tmpfs by preference: `/dev/shm`), for
    /// `workers` workers.
    pub fn create(dir: &Path, workers: usize) -> Result<Page, String> {
        if workers == 0 || workers > MAX_WORKERS {
            return Err(format!("a page coordinates 1 to {MAX_WORKERS} workers, not {workers}"));
        }
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let path = dir.join(format!("boardbench-gate-{}-{nanos}", std::process::id()));
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| format!("{}: a path with a NUL byte", path.display()))?;
        // SAFETY: open with a valid C string; checked for failure.
        let fd =
            unsafe { libc::open(c.as_ptr(), libc::O_RDWR | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC, 0o600) };
        if fd < 0 {
            return Err(os_error("cannot create the gate's shared page", &path));
        }
        // SAFETY: our own descriptor; a fresh file sized to one page.
        let sized = unsafe { libc::ftruncate(fd, PAGE_BYTES as libc::off_t) } == 0;
        let mapped = if sized { map(fd, &path) } else { Err(os_error("cannot size", &path)) };
        // SAFETY: our own descriptor; the mapping stays after closing it.
        unsafe { libc::close(fd) };
        let shared = match mapped {
            Ok(s) => s,
            Err(e) => {
                let _ = std::fs::remove_file(&path);
                return Err(e);
            }
        };
        let page = Page { shared, path, owner: true };
        let s = page.shared();
        s.header.0 .1.store(PROTOCOL, Ordering::SeqCst);
        s.header.0 .2.store(workers as u32, Ordering::SeqCst);
        s.header.0 .0.store(MAGIC, Ordering::SeqCst);
        Ok(page)
    }

    /// Map the page the gate created at `path`.
    pub fn open(path: &Path) -> Result<Page, String> {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| format!("{}: a path with a NUL byte", path.display()))?;
        // SAFETY: open with a valid C string; checked for failure.
        let fd = unsafe { libc::open(c.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(os_error("cannot open the gate's shared page", path));
        }
        // SAFETY: a zeroed stat buffer filled by fstat on our descriptor.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        let size_ok = unsafe { libc::fstat(fd, &mut st) } == 0 && st.st_size as usize >= PAGE_BYTES;
        let mapped =
            if size_ok { map(fd, path) } else { Err(format!("{}: not a gate page (too small)", path.display())) };
        // SAFETY: our own descriptor.
        unsafe { libc::close(fd) };
        let page = Page { shared: mapped?, path: path.to_path_buf(), owner: false };
        let s = page.shared();
        if s.header.0 .0.load(Ordering::SeqCst) != MAGIC {
            return Err(format!("{}: not a gate page", path.display()));
        }
        let protocol = s.header.0 .1.load(Ordering::SeqCst);
        if protocol != PROTOCOL {
            return Err(format!("the gate speaks lock-step protocol {protocol}, this worker {PROTOCOL}"));
        }
        Ok(page)
    }

    fn shared(&self) -> &Shared {
        // SAFETY: mapped for the page's lifetime, only touched atomically.
        unsafe { &*self.shared }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Workers the page was made for.
    pub fn workers(&self) -> usize {
        self.shared().header.0 .2.load(Ordering::SeqCst) as usize
    }

    /// Start a visit: step 0, no arrivals. Only while every worker waits
    /// for its next command.
    pub fn reset_steps(&self) {
        let s = self.shared();
        s.arrived.0.store(0, Ordering::SeqCst);
        s.finished.0.store(0, Ordering::SeqCst);
        s.step.0.store(0, Ordering::SeqCst);
    }

    pub fn step(&self) -> u32 {
        self.shared().step.0.load(Ordering::SeqCst)
    }

    /// Let step `s` run: store it and wake every sleeper.
    pub fn advance_to(&self, s: u32) {
        let word = &self.shared().step.0;
        word.store(s, Ordering::SeqCst);
        futex_wake_all(word);
    }

    /// Arrive at a step shared by `per_step` participants (parallel
    /// pairing): the number of arrivals so far, this one included.
    pub fn arrive(&self) -> u64 {
        self.shared().arrived.0.fetch_add(1, Ordering::SeqCst) + 1
    }

    pub fn arrivals(&self) -> u64 {
        self.shared().arrived.0.load(Ordering::SeqCst)
    }

    /// Finish a step shared by several participants: the number finished
    /// so far, this one included.
    pub fn finish(&self) -> u64 {
        self.shared().finished.0.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Worker `k` has finished `n` samples in all.
    pub fn set_cursor(&self, k: usize, n: u64) {
        self.shared().slots[k].cursor.store(n, Ordering::SeqCst);
    }

    pub fn cursor(&self, k: usize) -> u64 {
        self.shared().slots[k].cursor.load(Ordering::SeqCst)
    }

    pub fn set_pid(&self, k: usize, pid: u32) {
        self.shared().slots[k].pid.store(pid, Ordering::SeqCst);
    }

    pub fn pid(&self, k: usize) -> u32 {
        self.shared().slots[k].pid.load(Ordering::SeqCst)
    }

    /// Tell every worker to stop, and wake the sleeping ones.
    pub fn request_stop(&self) {
        let s = self.shared();
        s.stop.0.store(1, Ordering::SeqCst);
        futex_wake_all(&s.step.0);
    }

    pub fn stopped(&self) -> bool {
        self.shared().stop.0.load(Ordering::SeqCst) != 0
    }

    /// Sleep until the step is `want` (turns on one core), checking the
    /// stop flag every `slice`; give up after `limit`.
    pub fn sleep_until_step(&self, want: u32, slice: Duration, limit: Duration) -> Result<(), WaitError> {
        let word = &self.shared().step.0;
        let start = Instant::now();
        loop {
            let now = word.load(Ordering::SeqCst);
            if now == want {
                return Ok(());
            }
            if self.stopped() {
                return Err(WaitError::Stopped);
            }
            if start.elapsed() >= limit {
                return Err(WaitError::TimedOut);
            }
            futex_wait(word, now, slice);
        }
    }

    /// Spin until `cond` holds of the page (partners on other cores, a few
    /// microseconds away), then sleep in slices as [`Page::sleep_until_step`]
    /// does; give up after `limit`.
    pub fn spin_until(&self, cond: impl Fn(&Page) -> bool, limit: Duration) -> Result<(), WaitError> {
        for _ in 0..SPINS {
            if cond(self) {
                return Ok(());
            }
            std::hint::spin_loop();
        }
        let start = Instant::now();
        loop {
            if cond(self) {
                return Ok(());
            }
            if self.stopped() {
                return Err(WaitError::Stopped);
            }
            if start.elapsed() >= limit {
                return Err(WaitError::TimedOut);
            }
            // A partner this late is asleep or descheduled: let it run.
            std::thread::yield_now();
        }
    }
}

/// Spins before [`Page::spin_until`] starts checking the clock (tens of
/// microseconds).
const SPINS: u32 = 20_000;

impl Drop for Page {
    fn drop(&mut self) {
        // SAFETY: unmapping our own mapping once; nothing uses it after.
        unsafe { libc::munmap(self.shared as *mut libc::c_void, PAGE_BYTES) };
        if self.owner {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Where the page goes: tmpfs (`/dev/shm`) where there is one, else `dir`.
pub fn page_dir(fallback: &Path) -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        fallback.to_path_buf()
    }
}

/// Sleep while `word` holds `now`, at most `slice`.
fn futex_wait(word: &AtomicU32, now: u32, slice: Duration) {
    #[cfg(target_os = "linux")]
    {
        let ts = libc::timespec { tv_sec: slice.as_secs() as libc::time_t, tv_nsec: slice.subsec_nanos() as _ };
        // SAFETY: FUTEX_WAIT on a 4-byte aligned word of a live shared
        // mapping, with a valid timeout; returns on wake, timeout, change or
        // signal, all of which the caller re-checks.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                word.as_ptr(),
                libc::FUTEX_WAIT,
                now,
                &ts as *const libc::timespec,
                std::ptr::null::<u32>(),
                0,
            )
        };
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (word, now);
        std::thread::sleep(slice.min(Duration::from_micros(50)));
    }
}

/// Wake every process sleeping on `word`.
fn futex_wake_all(word: &AtomicU32) {
    #[cfg(target_os = "linux")]
    // SAFETY: FUTEX_WAKE on a live shared word; no memory is written.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, i32::MAX, std::ptr::null::<u32>(), 0, 0)
    };
    #[cfg(not(target_os = "linux"))]
    let _ = word;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_shared_checked_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let page = Page::create(dir.path(), 3).unwrap();
        assert_eq!(page.workers(), 3);
        let other = Page::open(page.path()).unwrap();
        page.set_cursor(2, 17);
        assert_eq!(other.cursor(2), 17);
        other.advance_to(5);
        assert_eq!(page.step(), 5);
        assert_eq!(other.arrive(), 1);
        assert_eq!(page.arrive(), 2);
        page.reset_steps();
        assert_eq!((other.step(), other.arrivals()), (0, 0));
        // A sleeper wakes when its step comes, from another thread.
        let waker = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            other.advance_to(1);
            other
        });
        assert_eq!(page.sleep_until_step(1, Duration::from_millis(5), Duration::from_secs(10)), Ok(()));
        let other = waker.join().unwrap();
        // A step that never comes times out; a stop ends every wait.
        assert_eq!(
            page.sleep_until_step(9, Duration::from_millis(1), Duration::from_millis(5)),
            Err(WaitError::TimedOut)
        );
        other.request_stop();
        assert_eq!(
            page.sleep_until_step(9, Duration::from_millis(1), Duration::from_secs(10)),
            Err(WaitError::Stopped)
        );
        assert_eq!(page.spin_until(|p| p.arrivals() == 99, Duration::from_secs(10)), Err(WaitError::Stopped));
        let path = page.path().to_path_buf();
        drop(other);
        assert!(path.exists(), "only the creator removes the file");
        drop(page);
        assert!(!path.exists());
    }

    #[test]
    fn what_is_not_a_page_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        std::fs::write(&small, b"x").unwrap();
        assert!(Page::open(&small).unwrap_err().contains("not a gate page"));
        let zeros = dir.path().join("zeros");
        std::fs::write(&zeros, vec![0u8; PAGE_BYTES]).unwrap();
        assert!(Page::open(&zeros).unwrap_err().contains("not a gate page"));
        assert!(Page::open(&dir.path().join("none")).unwrap_err().contains("cannot open the gate's shared page"));
        assert!(Page::create(dir.path(), 0).is_err());
        assert!(Page::create(dir.path(), MAX_WORKERS + 1).is_err());
    }
}
