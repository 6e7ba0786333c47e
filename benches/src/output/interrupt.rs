//! SIGINT, SIGTERM and SIGHUP end the program without leaving anything
//! half-written: a watcher thread, woken by the signal handler through a
//! pipe (writing to a pipe is one of the few things a handler may do),
//! kills the child processes it started ([`super::children::end_all`]:
//! engines pinned to a core would otherwise keep running), stops every
//! creation and rename of outputs, removes this process's temporaries
//! ([`super::temporaries::remove_all_and_hold`]), says so in
//! one line on stderr and ends the process by the same signal, so that a
//! shell or a parent sees it was interrupted (status 130 for Ctrl-C). The
//! measuring threads need not look for a flag: they end with the process,
//! in whatever round they were.
//!
//! Outputs already renamed into place stay: they are whole.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;

/// Write end of the wake-up pipe (-1 before [`install`]).
static WAKE: AtomicI32 = AtomicI32::new(-1);
/// The first signal caught.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn on_signal(signal: libc::c_int) {
    let _ = CAUGHT.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = 1u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is one live byte.
        unsafe { libc::write(fd, (&raw const byte).cast(), 1) };
    }
}

/// Catch SIGINT, SIGTERM and SIGHUP for the rest of the process (once;
/// later calls do nothing). A command that handles one of them itself
/// (`boardbench match` stops after the current game on Ctrl-C) installs
/// its handler afterwards, replacing this one for that signal.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let mut fds = [-1; 2];
        // SAFETY: pipe2 fills two new descriptors, closed on exec so that
        // no child process inherits them.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            eprintln!(
                "boardbench: warning: cannot watch for Ctrl-C ({}); an interrupted run may leave temporaries for the next to remove",
                std::io::Error::last_os_error()
            );
            return;
        }
        let [read, write] = fds;
        let spawned = std::thread::Builder::new().name("interrupt-watch".into()).spawn(move || watch(read));
        if spawned.is_err() {
            return;
        }
        WAKE.store(write, Ordering::SeqCst);
        for signal in SIGNALS {
            // SAFETY: installs a handler that only stores to an atomic and
            // writes one byte to a pipe.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Wait for a signal; then clean up and end the process by it.
fn watch(read: libc::c_int) {
    let mut byte = 0u8;
    loop {
        // SAFETY: reads one byte into a live buffer from our own pipe.
        let n = unsafe { libc::read(read, (&raw mut byte).cast(), 1) };
        if n == 1 {
            break;
        }
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        return;
    }
    let signal = CAUGHT.load(Ordering::SeqCst);
    // Children first: one may be writing into a temporary folder.
    let ended = super::children::end_all();
    let removed = super::temporaries::remove_all_and_hold();
    let name = match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    };
    // SAFETY: isatty only inspects descriptor 2.
    let tty = unsafe { libc::isatty(2) } == 1;
    let message = format!(
        "{}boardbench: interrupted by {name}; stopped, {ended} child process{} ended, {removed} unfinished output{} removed, nothing half-written left\n",
        if tty { "\n" } else { "" },
        if ended == 1 { "" } else { "es" },
        if removed == 1 { "" } else { "s" }
    );
    // Straight to the descriptor: another thread may hold stderr's lock.
    // SAFETY: writes a live buffer of the given length.
    unsafe { libc::write(2, message.as_ptr().cast(), message.len()) };
    // SAFETY: restores the default action and sends the signal to this
    // process, which ends it; `_exit` covers a signal that did not.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
        std::thread::sleep(std::time::Duration::from_secs(1));
        libc::_exit(128 + signal);
    }
}
