//! The child processes boardbench has started and not yet waited for
//! (engines, baselines, the gate's builds and samples), so that an
//! interrupt ([`super::interrupt`]) ends them too rather than leaving them
//! running, pinned to a core, after boardbench itself has gone. Most are
//! started in a process group of their own (so that a timeout can end
//! their helpers with them), which a Ctrl-C at the terminal does not reach:
//! without this list they would outlive the run.
//!
//! A child is listed from its start ([`spawn`], which starts it under the
//! list's lock, so an interrupt never misses one being started) until it
//! has been waited for ([`forget`]). [`end_all`] kills each listed child's
//! process group and the child itself, and keeps the lock: nothing is
//! started after it.

use std::io;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};

fn listed() -> MutexGuard<'static, Vec<u32>> {
    static LISTED: Mutex<Vec<u32>> = Mutex::new(Vec::new());
    // A panic elsewhere while the lock was held leaves the list usable.
    LISTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Start `cmd` and list the child until [`forget`] is called with its id.
pub fn spawn(cmd: &mut Command) -> io::Result<Child> {
    let mut list = listed();
    let child = cmd.spawn()?;
    list.push(child.id());
    Ok(child)
}

/// Unlist the child `pid`, once it has been waited for (its id may then
/// be given to another process, which must not be killed).
pub fn forget(pid: u32) {
    listed().retain(|&p| p != pid);
}

/// What [`Command::output`] does, with the child listed while it runs and
/// in a process group of its own (so that [`end_all`] ends whatever it
/// started too): stdin closed, stdout and stderr captured.
pub fn output(cmd: &mut Command) -> io::Result<Output> {
    use std::os::unix::process::CommandExt;
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    let child = spawn(cmd)?;
    let pid = child.id();
    let result = child.wait_with_output();
    forget(pid);
    result
}

/// Kill every listed child and its process group, and hold the list for
/// good (for the interrupt handler, which ends the process next). The
/// count of children ended.
pub fn end_all() -> usize {
    let list = listed();
    for &pid in list.iter() {
        let Ok(pid) = libc::pid_t::try_from(pid) else { continue };
        // SAFETY: signals a child we started and have not waited for
        // (still ours: its id cannot have been reused), and its group,
        // which is its id where it has one of its own.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
    }
    let n = list.len();
    std::mem::forget(list);
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_are_listed_while_they_run() {
        let mut child = spawn(Command::new("sleep").arg("30")).unwrap();
        let pid = child.id();
        assert!(listed().contains(&pid));
        child.kill().unwrap();
        child.wait().unwrap();
        forget(pid);
        assert!(!listed().contains(&pid));

        let out = output(Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"])).unwrap();
        assert_eq!((out.stdout.as_slice(), out.stderr.as_slice()), (&b"out\n"[..], &b"err\n"[..]));
        assert_eq!(out.status.code(), Some(3));
    }
}
