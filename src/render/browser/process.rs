//! Chromium's processes, started so that none outlives pagelevel however pagelevel ends.
//!
//! - **A session of its own.** Chromium is a tree of processes (zygotes, renderers, the GPU and
//!   network services); started with `setsid`, the browser leads a process group holding all of
//!   them, so one `kill(-group, SIGKILL)` ends the whole tree, and a Ctrl-C at a terminal reaches
//!   pagelevel alone, which then stops its browsers itself.
//! - **A parent-death signal.** After a SIGKILL nothing in pagelevel runs, so the kernel does it:
//!   the browser is started with `PR_SET_PDEATHSIG` = SIGKILL, and its children end when their
//!   connection to it closes (so do Chromium's crash handlers, which start sessions of their own;
//!   `--disable-crashpad-for-testing` would spare them but makes the network service crash).
//!   The signal fires when the *thread* that forked the browser ends, not the process: render
//!   workers and the Python binding's callers are threads that come and go, so every browser is
//!   forked by one launcher thread that lives as long as the process.
//! - **A registry of live browsers**, so that [`stop_all_browsers`] (the binary calls it on
//!   SIGINT, SIGTERM and SIGHUP) can kill and reap every one before pagelevel exits. A browser
//!   leaves the registry only when it is killed, and its leader is reaped only after that, so a
//!   group id in the registry can never name another program's processes.
//! - **Profiles** are fresh temporary directories named after the pagelevel process; those of
//!   processes that no longer exist (ended by SIGKILL) are removed at the next launch.
//! - **Nothing else in the temporary directory.** Chromium makes a directory there for its
//!   single-instance socket (`org.chromium.Chromium.XXXXXX`, linked from the profile as
//!   `SingletonSocket`) and removes it only on a clean exit, which a killed browser never has:
//!   one left per run. So the browser's `TMPDIR` is a directory of ours, removed with the
//!   browser: its profile, or, when the caller's `TMPDIR` is too long for the socket's path in
//!   a profile (Chromium aborts on a socket path over 107 bytes), a directory of the same name
//!   in `/tmp`. Whatever Chromium makes there, whenever it makes it, goes with that directory.
//!   Only when neither fits does the browser keep the caller's `TMPDIR`, and then the socket
//!   directory the profile's link names is removed before the profile.

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard, Once, OnceLock};
use std::time::{Duration, Instant};

use super::bridge::{DevToolsBridge, RelayEnd};
use super::pipe::{BrowserEnds, NoAnswer, devtools_pipe};
use crate::render::RenderError;

/// What every browser is started with, whoever calls: headless_chrome's defaults (those the
/// layouts of the datasets and the shipped models were measured with), headless, DevTools over
/// the pipe on its descriptors 3 and 4 and no port (see [`super::pipe`]), and no sandbox (it
/// refuses to run as root with one; pages run without scripts and behind the network gate).
fn base_arguments() -> impl Iterator<Item = &'static str> {
    headless_chrome::browser::DEFAULT_ARGS
        .iter()
        .copied()
        .chain([
            "--headless",
            "--remote-debugging-pipe",
            "--no-sandbox",
            "--disable-setuid-sandbox",
        ])
}

/// How a browser profile directory's name starts, before the pid of the process that made it.
const PROFILE_PREFIX: &str = "pagelevel-chromium-";

/// The link in a profile to Chromium's single-instance socket, and how the name of the directory
/// it sits in starts (Chromium's `process_singleton_posix.cc`).
const SINGLETON_SOCKET_LINK: &str = "SingletonSocket";
const SINGLETON_DIRECTORY_PREFIX: &str = "org.chromium.Chromium.";

/// The longest path of a Unix socket (`sun_path` holds 108 bytes with the terminating NUL), and
/// what Chromium adds to its temporary directory for its socket:
/// `/org.chromium.Chromium.XXXXXX/SingletonSocket`.
const MAX_SOCKET_PATH: usize = 107;
const SINGLETON_SOCKET_SUFFIX: usize = 1 + SINGLETON_DIRECTORY_PREFIX.len() + 6 + 1 + 15;

/// Where a browser's own temporary directory is made when the caller's `TMPDIR` is too long to
/// hold Chromium's socket path under a profile: short on every Unix.
const SHORT_TEMPORARY_DIRECTORY: &str = "/tmp";

/// How many of the last lines Chromium printed a launch failure quotes.
const QUOTED_LINES: usize = 3;

/// How long a failed call waits to see the browser process ended: the connection of a killed
/// browser can fail a moment before the kernel has it exited.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// How long [`stop_all_browsers`] waits for the rest of a killed browser's process group.
const GROUP_EXIT_WAIT: Duration = Duration::from_secs(2);

/// The browsers alive now (process group, the directories made for it: profile first), and
/// whether new ones are refused.
struct LiveBrowsers {
    groups: Vec<(u32, Vec<PathBuf>)>,
    stopping: bool,
}

static LIVE_BROWSERS: Mutex<LiveBrowsers> = Mutex::new(LiveBrowsers {
    groups: Vec::new(),
    stopping: false,
});

fn live_browsers() -> MutexGuard<'static, LiveBrowsers> {
    // A panic while holding the lock leaves the list itself consistent.
    LIVE_BROWSERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Sends SIGKILL to every process of the group led by `group`.
fn kill_group(group: u32) {
    if let Ok(group) = libc::pid_t::try_from(group) {
        // SAFETY: kill has no memory effects; a group that is already gone gives ESRCH.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    }
}

/// Kills every browser this process started, with all their processes, and waits for them;
/// browsers launched afterwards are refused. Returns how many browsers were running. For a
/// program about to exit on a signal: the sessions holding the browsers are left as they are.
pub fn stop_all_browsers() -> usize {
    let browsers = {
        let mut live = live_browsers();
        live.stopping = true;
        std::mem::take(&mut live.groups)
    };
    for (group, _) in &browsers {
        kill_group(*group);
    }
    let deadline = Instant::now() + GROUP_EXIT_WAIT;
    for (group, directories) in &browsers {
        let Ok(group) = libc::pid_t::try_from(*group) else {
            continue;
        };
        // SAFETY: the leader is our child and was not reaped yet (it was still registered);
        // waitpid writes only the status it is given.
        unsafe { libc::waitpid(group, std::ptr::null_mut(), 0) };
        // The others were the leader's children: init reaps them, in its own time (a second
        // or more), so they are waited for until they are dead, not until they are reaped.
        while group_has_a_running_process(group) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Some(profile) = directories.first() {
            remove_singleton_directory(profile);
        }
        for directory in directories {
            let _ = std::fs::remove_dir_all(directory);
        }
    }
    browsers.len()
}

/// Removes the browser profiles (and browsers' own temporary directories) left in the temporary
/// directory and in `/tmp` by pagelevel processes that no longer exist: a SIGKILL gives a
/// process no chance to remove its own.
fn remove_profiles_of_ended_runs() {
    let temporary = std::env::temp_dir();
    let short = Path::new(SHORT_TEMPORARY_DIRECTORY);
    remove_directories_of_ended_runs_in(&temporary);
    if temporary != short {
        remove_directories_of_ended_runs_in(short);
    }
}

fn remove_directories_of_ended_runs_in(directory: &Path) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(PROFILE_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let ended = !Path::new("/proc").join(pid.to_string()).exists();
        // Not a symbolic link: only a directory a pagelevel run made is removed.
        if ended && entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            remove_singleton_directory(&entry.path());
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Removes the directory of the single-instance socket of the browser that used `profile`, which
/// the profile's `SingletonSocket` link names: Chromium removes it only when it exits cleanly.
/// Only a real directory named as Chromium names them is removed, whatever the link says.
fn remove_singleton_directory(profile: &Path) {
    let Ok(socket) = std::fs::read_link(profile.join(SINGLETON_SOCKET_LINK)) else {
        return;
    };
    let Some(directory) = socket.parent() else {
        return;
    };
    let named_by_chromium = directory
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.starts_with(SINGLETON_DIRECTORY_PREFIX));
    let is_directory = std::fs::symlink_metadata(directory).is_ok_and(|kind| kind.is_dir());
    if named_by_chromium && is_directory {
        let _ = std::fs::remove_dir_all(directory);
    }
}

/// Whether a process of the group led by `group` is still running (not a zombie), from /proc.
fn group_has_a_running_process(group: libc::pid_t) -> bool {
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return false;
    };
    processes.flatten().any(|process| {
        let Ok(stat) = std::fs::read_to_string(process.path().join("stat")) else {
            return false;
        };
        // `pid (name) state ppid pgrp …`; the name may hold spaces and parentheses.
        let mut fields = stat
            .rsplit_once(')')
            .map_or("", |(_, rest)| rest)
            .split_whitespace();
        let (state, group_of_process) = (fields.next(), fields.nth(1));
        state != Some("Z") && group_of_process == Some(group.to_string().as_str())
    })
}

/// Whether Chromium's single-instance socket path fits under `directory` as its `TMPDIR`.
fn holds_a_socket_path(directory: &Path) -> bool {
    directory.as_os_str().len() + SINGLETON_SOCKET_SUFFIX <= MAX_SOCKET_PATH
}

/// A fresh directory named for this process (so a later run removes it once the process is
/// gone) in `parent`, or in the temporary directory.
fn directory_of_this_run(parent: Option<&Path>) -> std::io::Result<tempfile::TempDir> {
    let prefix = format!("{PROFILE_PREFIX}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    match parent {
        Some(parent) => builder.tempdir_in(parent),
        None => builder.tempdir(),
    }
}

/// The browser's own `TMPDIR` when its profile cannot be: a directory in `/tmp` if Chromium's
/// socket path fits there; `None` (the caller's `TMPDIR` stays) otherwise.
fn own_temporary_directory(profile: &Path) -> Option<tempfile::TempDir> {
    if holds_a_socket_path(profile) {
        return None;
    }
    directory_of_this_run(Some(Path::new(SHORT_TEMPORARY_DIRECTORY)))
        .ok()
        .filter(|directory| holds_a_socket_path(directory.path()))
}

/// The command that starts `chromium` with the base arguments and `arguments` in a session of
/// its own with a parent-death signal, `devtools` as its descriptors 3 and 4, `profile` as its
/// user data directory and `temporary` as its `TMPDIR` (none: the caller's).
fn browser_command(
    chromium: &Path,
    arguments: &[OsString],
    devtools: &BrowserEnds,
    profile: &Path,
    temporary: Option<&Path>,
) -> Command {
    let mut user_data_dir = OsString::from("--user-data-dir=");
    user_data_dir.push(profile);
    let mut command = Command::new(chromium);
    command
        .args(base_arguments())
        .arg(user_data_dir)
        .args(arguments)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(temporary) = temporary {
        command.env("TMPDIR", temporary);
    }
    let parent = std::process::id();
    let devtools = devtools.raw();
    // SAFETY: between fork and exec only async-signal-safe system calls are made, and the
    // error is built without allocating.
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() == -1 || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // pagelevel died before the signal was armed: nobody would ever send it.
            if u32::try_from(libc::getppid()) != Ok(parent) {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            BrowserEnds::install(devtools)
        });
    }
    command
}

/// A started Chromium: the leader of its own process group, killed with the whole group (and
/// its profile directory removed) when dropped, and driven only through its bridge.
pub struct ChromiumProcess {
    child: Child,
    // The only way to the browser's DevTools; its thread ends when the browser does.
    bridge: DevToolsBridge,
    // A fresh profile per browser (and its `TMPDIR` when Chromium's socket path fits there);
    // removed after the browser is gone.
    profile: tempfile::TempDir,
    // The browser's `TMPDIR` when its profile's path is too long for it; removed with it.
    own_temporary: Option<tempfile::TempDir>,
}

impl ChromiumProcess {
    /// Starts `chromium` with the base arguments and `arguments`, and waits at most `timeout` for
    /// it to answer on its DevTools pipe.
    pub fn launch(
        chromium: &Path,
        arguments: &[OsString],
        timeout: Duration,
    ) -> Result<ChromiumProcess, RenderError> {
        static SWEEP: Once = Once::new();
        SWEEP.call_once(remove_profiles_of_ended_runs);
        let (mut devtools, browser_ends) = devtools_pipe().map_err(|error| {
            RenderError::Launch(format!("cannot create the DevTools pipe: {error}"))
        })?;
        // The profile is made and its browser registered under the registry's lock: a stop
        // either comes first (and nothing is made) or finds them registered and removes both.
        // Made before the lock, a profile could outlive a process that exits on a signal.
        let mut live = live_browsers();
        if live.stopping {
            return Err(RenderError::Launch(
                "pagelevel is stopping; no new browser is started".into(),
            ));
        }
        let profile = directory_of_this_run(None).map_err(|error| {
            RenderError::Launch(format!(
                "cannot create a browser profile directory: {error}"
            ))
        })?;
        let own_temporary = own_temporary_directory(profile.path());
        let temporary = match &own_temporary {
            Some(directory) => Some(directory.path()),
            None => holds_a_socket_path(profile.path()).then_some(profile.path()),
        };
        let command = browser_command(
            chromium,
            arguments,
            &browser_ends,
            profile.path(),
            temporary,
        );
        let mut child = spawn_from_launcher_thread(command).map_err(|error| {
            RenderError::Launch(format!("cannot run {}: {error}", chromium.display()))
        })?;
        let directories = std::iter::once(&profile)
            .chain(&own_temporary)
            .map(|directory| directory.path().to_path_buf())
            .collect();
        live.groups.push((child.id(), directories));
        drop(live);
        // Only the browser holds these now: when it ends, its pipe reads as closed.
        drop(browser_ends);
        let last_lines = drain_standard_error(child.stderr.take())?;
        let ready = devtools.wait_until_answering(timeout);
        let bridge = match ready {
            Ok(()) => DevToolsBridge::start(devtools).map_err(|error| {
                RenderError::Launch(format!("cannot start the DevTools bridge: {error}"))
            }),
            Err(NoAnswer::TimedOut) => Err(RenderError::Launch(format!(
                "Chromium did not answer on its DevTools pipe within {} s",
                timeout.as_secs()
            ))),
            Err(NoAnswer::Closed) => Err(ended_before_answering(&mut child, &last_lines)),
        };
        let bridge = bridge.inspect_err(|_| {
            let _ = end_browser(&mut child);
            remove_singleton_directory(profile.path());
        })?;
        Ok(ChromiumProcess {
            child,
            bridge,
            profile,
            own_temporary,
        })
    }

    /// The bridge's WebSocket URL, the browser's only DevTools endpoint (it holds a secret).
    pub fn devtools_url(&self) -> &str {
        self.bridge.url()
    }

    /// Whether its DevTools client hung up first (headless_chrome closes a connection idle for
    /// its call timeout), waiting up to a moment for the bridge to see the close. Closing the
    /// pipe then ends the browser, so [`ChromiumProcess::has_exited`] alone cannot tell this
    /// from a crash.
    pub fn client_hung_up(&self) -> bool {
        self.bridge.end_within(EXIT_GRACE) == Some(RelayEnd::ClientLeft)
    }

    /// Whether the browser process has ended (killed, crashed), waiting up to a moment for the
    /// kernel to finish its exit. The process is not reaped, so its group id stays reserved.
    pub fn has_exited(&self) -> bool {
        let deadline = Instant::now() + EXIT_GRACE;
        loop {
            if self.has_exited_now() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn has_exited_now(&self) -> bool {
        let pid: libc::id_t = self.child.id();
        // SAFETY: an all-zero siginfo_t is valid; waitid fills it in. WNOWAIT leaves the process
        // a zombie, so it is still ours to reap.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            ) == 0
                && info.si_pid() != 0
        }
    }
}

/// Drains the browser's standard error on a thread of its own, so Chromium never blocks on a
/// full pipe; the returned channel gets its last lines once it is closed (the browser ended).
fn drain_standard_error(
    stderr: Option<std::process::ChildStderr>,
) -> Result<mpsc::Receiver<String>, RenderError> {
    let stderr = stderr.ok_or_else(|| RenderError::Launch("no standard error".into()))?;
    let (sender, last_lines) = mpsc::channel();
    std::thread::Builder::new()
        .name("chromium-stderr".into())
        .spawn(move || {
            let _ = sender.send(read_last_lines(BufReader::new(stderr)));
        })
        .map_err(|error| RenderError::Launch(format!("cannot start a thread: {error}")))?;
    Ok(last_lines)
}

/// The error of a browser that closed its DevTools pipe before answering: its exit status and
/// the last lines it printed.
fn ended_before_answering(child: &mut Child, last_lines: &mpsc::Receiver<String>) -> RenderError {
    let status =
        end_browser(child).map_or_else(|error| error.to_string(), |status| status.to_string());
    // Its standard error closes with the last of its processes, a moment after the leader.
    let last_lines = last_lines
        .recv_timeout(Duration::from_secs(1))
        .unwrap_or_default();
    RenderError::Launch(format!(
        "Chromium ended ({status}) before answering on its DevTools pipe{}",
        match last_lines.is_empty() {
            true => String::new(),
            false => format!("; it said: {last_lines}"),
        }
    ))
}

/// The last few non-empty lines of `stderr`, read to its end.
fn read_last_lines(stderr: impl BufRead) -> String {
    let mut last_lines: Vec<String> = Vec::new();
    for line in stderr.split(b'\n') {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line).trim().to_string();
        if !line.is_empty() {
            last_lines.push(line);
            if last_lines.len() > QUOTED_LINES {
                last_lines.remove(0);
            }
        }
    }
    last_lines.join(" / ")
}

/// Kills the process group `browser` leads and reaps `browser`; again, only its status.
fn end_browser(browser: &mut Child) -> std::io::Result<std::process::ExitStatus> {
    let group = browser.id();
    {
        let mut live = live_browsers();
        // Absent when already ended, or killed and reaped by `stop_all_browsers`.
        if let Some(position) = live.groups.iter().position(|(live, _)| *live == group) {
            live.groups.swap_remove(position);
            kill_group(group);
        }
    }
    browser.wait()
}

impl Drop for ChromiumProcess {
    fn drop(&mut self) {
        let _ = end_browser(&mut self.child);
        remove_singleton_directory(self.profile.path());
        if let Some(own_temporary) = self.own_temporary.take() {
            let _ = own_temporary.close();
        }
        // The bridge (its thread ends with the browser's pipe) and the profile go with their
        // fields, after this.
    }
}

/// A command and where to send the started child.
type SpawnRequest = (Command, mpsc::Sender<std::io::Result<Child>>);

/// Runs `command` from the one thread that starts every browser and never ends, so the
/// browser's parent-death signal fires when pagelevel ends, not when a worker thread does.
fn spawn_from_launcher_thread(command: Command) -> std::io::Result<Child> {
    static LAUNCHER: OnceLock<mpsc::Sender<SpawnRequest>> = OnceLock::new();
    let launcher = LAUNCHER.get_or_init(|| {
        let (sender, requests) = mpsc::channel::<SpawnRequest>();
        // Should the thread not start, `requests` is dropped with it and every request below
        // fails with the message there.
        let _ = std::thread::Builder::new()
            .name("chromium-launcher".into())
            .spawn(move || {
                for (mut command, reply) in requests {
                    let _ = reply.send(command.spawn());
                }
            });
        sender
    });
    let not_running = || std::io::Error::other("the browser launcher thread is not running");
    let (reply, started) = mpsc::channel();
    launcher.send((command, reply)).map_err(|_| not_running())?;
    started.recv().map_err(|_| not_running())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profiles_singleton_directory_is_removed_only_when_chromium_named_it() {
        let temporary = tempfile::tempdir().expect("dir");
        let profile_linking_to = |directory: &str| {
            let target = temporary.path().join(directory);
            std::fs::create_dir(&target).expect("mkdir");
            std::fs::write(target.join("SingletonCookie"), "1").expect("write");
            let profile = tempfile::tempdir_in(temporary.path()).expect("profile");
            std::os::unix::fs::symlink(
                target.join(SINGLETON_SOCKET_LINK),
                profile.path().join(SINGLETON_SOCKET_LINK),
            )
            .expect("link");
            (profile, target)
        };
        let (profile, chromiums) = profile_linking_to("org.chromium.Chromium.a1B2c3");
        remove_singleton_directory(profile.path());
        assert!(!chromiums.exists(), "the socket directory is removed");
        let (profile, other) = profile_linking_to("important-data");
        remove_singleton_directory(profile.path());
        assert!(
            other.join("SingletonCookie").exists(),
            "another directory is kept"
        );
        let without_link = tempfile::tempdir_in(temporary.path()).expect("profile");
        remove_singleton_directory(without_link.path());
    }

    #[test]
    fn a_browser_gets_a_temporary_directory_of_its_own_only_when_its_profile_cannot_be_it() {
        let short = tempfile::tempdir().expect("dir");
        assert!(own_temporary_directory(short.path()).is_none());
        let long = short.path().join("p".repeat(MAX_SOCKET_PATH));
        let own = own_temporary_directory(&long).expect("a directory in /tmp");
        assert!(own.path().starts_with(SHORT_TEMPORARY_DIRECTORY));
        assert!(holds_a_socket_path(own.path()));
        let name = own.path().file_name().and_then(|name| name.to_str());
        assert!(
            name.is_some_and(
                |name| name.starts_with(&format!("{PROFILE_PREFIX}{}-", std::process::id()))
            ),
            "named for the sweep of ended runs: {name:?}"
        );
    }

    #[test]
    fn a_browser_that_ends_before_answering_reports_its_last_lines() {
        let output = b"one\ntwo\n\nthree\nfour\n";
        assert_eq!(read_last_lines(&output[..]), "two / three / four");
    }
}
