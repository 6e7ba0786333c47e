//! Temporary files and folders: how they are named, the list of this
//! process's own while they exist, and the removal of those a dead process
//! left behind.
//!
//! A result is first written under a hidden temporary name beside its
//! final one, `.<name>.<pid>-<start>.tmp`: the writer's process id and its
//! start time (clock ticks since boot, from `/proc/<pid>/stat`), so that a
//! later run can tell a temporary of a live writer, which it must leave
//! alone, from one of a writer that died, even when the process id has
//! since been given to another process. Names without the start time,
//! `.<name>.<pid>.tmp` (the engine's own atomic writes, and any platform
//! without `/proc`), are judged by the process id alone.
//!
//! Every temporary this process creates is listed while it exists
//! ([`create_file`], [`create_dir`]) until it is renamed into place
//! ([`rename_all`]) or discarded ([`discard`]); on SIGINT or SIGTERM
//! ([`super::interrupt`]) the listed ones are removed
//! ([`remove_all_and_hold`]). Creating, renaming and removing happen under
//! one lock, so a signal never finds a temporary half-registered, and the
//! renames of one [`super::staging::Staging`] happen all or none.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The process that owns a temporary, as its name records it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    pub pid: u32,
    /// Start time in clock ticks since boot; `None` where the name has none.
    pub start: Option<u64>,
}

impl Owner {
    /// This process.
    pub fn me() -> Owner {
        static ME: OnceLock<Owner> = OnceLock::new();
        *ME.get_or_init(|| {
            let pid = std::process::id();
            Owner { pid, start: process_state(pid).map(|(_, start)| start) }
        })
    }

    /// Whether the owner may still be running: it exists, is not a zombie,
    /// and (where both are known) started when the name says. A process
    /// that cannot be asked about counts as alive: its temporaries are
    /// left alone.
    pub fn is_alive(self) -> bool {
        if self == Owner::me() {
            return true;
        }
        let Ok(pid) = libc::pid_t::try_from(self.pid) else { return true };
        if pid <= 0 {
            return true;
        }
        // SAFETY: signal 0 only checks that the process exists.
        if unsafe { libc::kill(pid, 0) } != 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH) {
            return false;
        }
        match process_state(self.pid) {
            Some((state, _)) if state == 'Z' || state == 'X' => false,
            Some((_, start)) => self.start.is_none_or(|s| s == start),
            None => true,
        }
    }
}

/// State letter and start time (ticks since boot) of process `pid`, from
/// `/proc/<pid>/stat`.
fn process_state(pid: u32) -> Option<(char, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces and
    // parentheses itself: the fields after it start past the last ')'.
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    // Field 22 of the whole line; `state` was field 3.
    let start = fields.nth(22 - 4)?.parse().ok()?;
    Some((state, start))
}

/// The temporary name for `name` written by this process.
pub fn temp_name(name: &OsStr) -> OsString {
    let me = Owner::me();
    let mut s = OsString::from(".");
    s.push(name);
    match me.start {
        Some(start) => s.push(format!(".{}-{start}.tmp", me.pid)),
        None => s.push(format!(".{}.tmp", me.pid)),
    }
    s
}

/// The owner a temporary's file name records, or `None` when `file_name`
/// is not a temporary's (hidden, `.tmp`, a process id before it).
pub fn owner_of(file_name: &OsStr) -> Option<Owner> {
    let s = file_name.to_str()?;
    let inner = s.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (name, owner) = inner.rsplit_once('.')?;
    if name.is_empty() {
        return None;
    }
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match owner.split_once('-') {
        Some((pid, start)) if digits(pid) && digits(start) => {
            Some(Owner { pid: pid.parse().ok()?, start: Some(start.parse().ok()?) })
        }
        None if digits(owner) => Some(Owner { pid: owner.parse().ok()?, start: None }),
        _ => None,
    }
}

/// This process's temporaries, and the folders already swept.
struct Registry {
    live: Vec<PathBuf>,
    swept: Vec<PathBuf>,
}

fn registry() -> MutexGuard<'static, Registry> {
    static REGISTRY: Mutex<Registry> = Mutex::new(Registry { live: Vec::new(), swept: Vec::new() });
    // A panic elsewhere while the lock was held leaves the list usable.
    REGISTRY.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Create (or truncate) the temporary file `path` and list it.
pub fn create_file(path: &Path) -> io::Result<File> {
    let mut reg = registry();
    let file = File::create(path)?;
    reg.live.push(path.to_path_buf());
    Ok(file)
}

/// Create the temporary folder `path` and list it.
pub fn create_dir(path: &Path) -> io::Result<()> {
    let mut reg = registry();
    std::fs::create_dir(path)?;
    reg.live.push(path.to_path_buf());
    Ok(())
}

/// Remove the temporary `path` (a file or a folder) and unlist it.
pub fn discard(path: &Path) {
    let mut reg = registry();
    remove(path);
    reg.live.retain(|p| p != path);
}

/// Rename each temporary onto its final path, in order, under one lock (a
/// signal stops the process before the first or after the last). A folder
/// replaces an existing folder of the same name. Stops at the first
/// failure, naming the final path; the temporaries not renamed stay listed.
pub fn rename_all(pairs: &[(PathBuf, PathBuf)]) -> Result<(), (PathBuf, io::Error)> {
    let mut reg = registry();
    for (temporary, target) in pairs {
        replace(temporary, target).map_err(|e| (target.clone(), e))?;
        reg.live.retain(|p| p != temporary);
    }
    Ok(())
}

/// `rename(temporary, target)`; a folder over an existing folder is
/// exchanged with it atomically where the system can (the old one then
/// removed), else the old one is removed first.
fn replace(temporary: &Path, target: &Path) -> io::Result<()> {
    match std::fs::rename(temporary, target) {
        Ok(()) => Ok(()),
        Err(e) if temporary.is_dir() && target.symlink_metadata().is_ok_and(|m| m.is_dir()) => {
            if exchange(temporary, target).is_ok() {
                // The old folder now has the temporary's name.
                remove(temporary);
                return Ok(());
            }
            std::fs::remove_dir_all(target).map_err(|_| e)?;
            std::fs::rename(temporary, target)
        }
        Err(e) => Err(e),
    }
}

/// Swap two paths atomically (Linux `renameat2(RENAME_EXCHANGE)`).
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both are NUL-terminated paths that live across the call.
    let r = unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Remove a file, a link or a whole folder; quietly, as far as it goes.
fn remove(path: &Path) {
    match path.symlink_metadata() {
        Ok(m) if m.is_dir() => {
            // A file another thread creates meanwhile makes one try fail.
            for _ in 0..20 {
                if std::fs::remove_dir_all(path).is_ok() || !path.exists() {
                    break;
                }
            }
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// Remove every listed temporary and keep the lock for good: nothing can
/// be created, renamed or removed after it. For the interrupt handler,
/// which ends the process next. The count removed.
pub fn remove_all_and_hold() -> usize {
    let reg = registry();
    // Newest first: a temporary file inside a temporary folder goes before
    // its folder.
    for p in reg.live.iter().rev() {
        remove(p);
    }
    let n = reg.live.len();
    std::mem::forget(reg);
    n
}

/// Remove the temporaries in `dir` whose owners have died; the names
/// removed. Live owners' temporaries, and everything that is not a
/// temporary, are left alone.
pub fn sweep(dir: &Path) -> Vec<OsString> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name();
        if owner_of(&name).is_some_and(|o| !o.is_alive()) {
            let path = e.path();
            remove(&path);
            if path.symlink_metadata().is_err() {
                removed.push(name);
            }
        }
    }
    removed.sort();
    removed
}

/// [`sweep`] `dir` the first time this process writes there, saying on
/// stderr what it removed.
pub fn sweep_once(dir: &Path) {
    let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    {
        let mut reg = registry();
        if reg.swept.contains(&key) {
            return;
        }
        reg.swept.push(key);
    }
    let removed = sweep(dir);
    if !removed.is_empty() {
        let names: Vec<String> = removed.iter().map(|n| n.to_string_lossy().into_owned()).collect();
        eprintln!(
            "boardbench: warning: removed {} unfinished temporar{} of runs that died from {}: {}",
            removed.len(),
            if removed.len() == 1 { "y" } else { "ies" },
            dir.display(),
            names.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[test]
    fn names_round_trip_and_others_are_not_temporaries() {
        let name = temp_name(OsStr::new("20260101T000000Z-abc.json"));
        let s = name.to_str().unwrap();
        assert!(s.starts_with(".20260101T000000Z-abc.json.") && s.ends_with(".tmp"), "{s}");
        assert_eq!(owner_of(&name), Some(Owner::me()));
        assert!(Owner::me().start.is_some(), "Linux has /proc/self/stat");
        // The engine's own atomic writes: process id only.
        assert_eq!(owner_of(OsStr::new(".weights.json.4242.tmp")), Some(Owner { pid: 4242, start: None }));
        for other in
            ["latest.json", ".hidden", ".x.tmp", "..123.tmp", ".x.12a.tmp", ".x.-5.tmp", ".x.1-.tmp", "x.1.tmp", ".x.1"]
        {
            assert_eq!(owner_of(OsStr::new(other)), None, "{other}");
        }
    }

    /// A process that has ended (reaped), and its start time while it ran.
    fn dead_owner() -> Owner {
        let mut child = Command::new("sleep").arg("5").stdout(Stdio::null()).spawn().unwrap();
        let owner = Owner { pid: child.id(), start: process_state(child.id()).map(|s| s.1) };
        assert!(owner.is_alive());
        child.kill().unwrap();
        child.wait().unwrap();
        owner
    }

    #[test]
    fn sweeping_removes_dead_owners_temporaries_only() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let mut sleeper = Command::new("sleep").arg("30").spawn().unwrap();
        let live = Owner { pid: sleeper.id(), start: process_state(sleeper.id()).map(|s| s.1) };
        let dead = dead_owner();
        let me = Owner::me();
        let name = |stem: &str, o: Owner| match o.start {
            Some(s) => format!(".{stem}.{}-{s}.tmp", o.pid),
            None => format!(".{stem}.{}.tmp", o.pid),
        };
        // A live process's id with another start time: the id was reused.
        let reused = Owner { pid: live.pid, start: live.start.map(|s| s + 1) };
        let keep = [
            name("a.json", live),
            name("b.json", me),
            name("c.json", Owner { pid: live.pid, start: None }),
            "latest.json".to_string(),
            ".not-a-temporary".to_string(),
        ];
        let gone = [name("d.json", dead), name("e.json", reused), name("f.json", Owner { pid: dead.pid, start: None })];
        for n in keep.iter().chain(&gone) {
            std::fs::write(d.join(n), b"x").unwrap();
        }
        // A dead run's plot folder, with files inside.
        let folder = name("20260101T000000Z-abc", dead);
        std::fs::create_dir(d.join(&folder)).unwrap();
        std::fs::write(d.join(&folder).join("x-men.png"), b"png").unwrap();

        let removed = sweep(d);
        let mut want: Vec<OsString> = gone.iter().chain([&folder]).map(OsString::from).collect();
        want.sort();
        assert_eq!(removed, want);
        let mut left: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        let mut keep = keep.to_vec();
        keep.sort();
        assert_eq!(left, keep);
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
    }

    #[test]
    fn registered_temporaries_are_renamed_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let tmp = d.join(temp_name(OsStr::new("r.json")));
        drop(create_file(&tmp).unwrap());
        let folder = d.join(temp_name(OsStr::new("run")));
        create_dir(&folder).unwrap();
        std::fs::write(folder.join("p.svg"), b"<svg/>").unwrap();
        // An existing folder of the same name is replaced.
        std::fs::create_dir(d.join("run")).unwrap();
        std::fs::write(d.join("run").join("old.svg"), b"old").unwrap();
        rename_all(&[(tmp.clone(), d.join("r.json")), (folder.clone(), d.join("run"))]).unwrap();
        assert!(d.join("r.json").is_file() && d.join("run").join("p.svg").is_file());
        assert!(!d.join("run").join("old.svg").exists());
        let names: Vec<_> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(!registry().live.iter().any(|p| p.starts_with(d)));

        let other = d.join(temp_name(OsStr::new("s.json")));
        drop(create_file(&other).unwrap());
        discard(&other);
        assert!(!other.exists());
        assert!(!registry().live.iter().any(|p| p.starts_with(d)));
    }
}
