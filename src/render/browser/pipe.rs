//! The DevTools pipe: Chromium started with `--remote-debugging-pipe` reads DevTools messages
//! from its file descriptor 3 and writes its answers and events to descriptor 4, each message
//! a JSON text ended by a NUL byte. Unlike `--remote-debugging-port` there is no socket at all,
//! so only the process holding the other ends — pagelevel — can drive the browser.
//!
//! Both pipes are made close-on-exec, so no other program pagelevel starts inherits them; the
//! browser's ends become 3 and 4 in its process only, between fork and exec
//! ([`BrowserEnds::install`]).

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

/// The descriptors Chromium reads its DevTools messages from and writes them to.
const BROWSER_READS_FROM: RawFd = 3;
const BROWSER_WRITES_TO: RawFd = 4;

/// What ends a DevTools message on the pipe.
pub const MESSAGE_END: u8 = 0;

/// pagelevel's ends of the two pipes.
pub struct DevToolsPipe {
    /// Messages to the browser (its descriptor 3 reads them).
    pub to_browser: File,
    /// The browser's answers and events (from its descriptor 4).
    pub from_browser: File,
}

/// The browser's ends of the two pipes, to be installed as its descriptors 3 and 4.
pub struct BrowserEnds {
    reads_from: OwnedFd,
    writes_to: OwnedFd,
}

/// Two new pipes: pagelevel's ends and the browser's.
pub fn devtools_pipe() -> std::io::Result<(DevToolsPipe, BrowserEnds)> {
    let (browser_reads_from, to_browser) = close_on_exec_pipe()?;
    let (from_browser, browser_writes_to) = close_on_exec_pipe()?;
    Ok((
        DevToolsPipe {
            to_browser: File::from(to_browser),
            from_browser: File::from(from_browser),
        },
        BrowserEnds {
            reads_from: browser_reads_from,
            writes_to: browser_writes_to,
        },
    ))
}

/// A pipe (read end, write end), both ends closed on exec.
fn close_on_exec_pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut ends: [libc::c_int; 2] = [-1, -1];
    // SAFETY: pipe2 writes two descriptors into the array it is given.
    if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } == -1 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just opened and belong to nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) })
}

impl BrowserEnds {
    /// The raw descriptors, for [`BrowserEnds::install`] in the forked child (a `pre_exec`
    /// closure must not own them: the parent closes its copies after the fork).
    pub fn raw(&self) -> (RawFd, RawFd) {
        (self.reads_from.as_raw_fd(), self.writes_to.as_raw_fd())
    }

    /// The ends as files (the browser's side, for tests standing in for it): messages to the
    /// browser are read from the first, its answers written to the second.
    #[cfg(test)]
    pub fn into_files(self) -> (File, File) {
        (File::from(self.reads_from), File::from(self.writes_to))
    }

    /// In the forked child, before exec: makes `reads_from` descriptor 3 and `writes_to`
    /// descriptor 4, both kept across exec. Only async-signal-safe calls, no allocation.
    ///
    /// The ends are first copied above 4: should one already be 3 or 4, `dup2` onto itself
    /// would keep its close-on-exec flag, or the first `dup2` would overwrite the other end.
    pub fn install((reads_from, writes_to): (RawFd, RawFd)) -> std::io::Result<()> {
        // SAFETY: fcntl and dup2 on descriptors of this (forked) process; no memory effects.
        unsafe {
            let reads_from = libc::fcntl(reads_from, libc::F_DUPFD_CLOEXEC, BROWSER_WRITES_TO + 1);
            let writes_to = libc::fcntl(writes_to, libc::F_DUPFD_CLOEXEC, BROWSER_WRITES_TO + 1);
            if reads_from == -1
                || writes_to == -1
                || libc::dup2(reads_from, BROWSER_READS_FROM) == -1
                || libc::dup2(writes_to, BROWSER_WRITES_TO) == -1
            {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// Makes `file` non-blocking (the bridge polls it).
pub fn set_non_blocking(file: &impl AsRawFd) -> std::io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl reads and sets the flags of a descriptor we hold.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags == -1 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) == -1 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Why the browser did not answer on its pipe.
#[derive(Debug, PartialEq)]
pub enum NoAnswer {
    /// It closed its end: it ended (or never started).
    Closed,
    TimedOut,
}

impl DevToolsPipe {
    /// Asks the browser for its version and waits at most `timeout` for the answer: the browser
    /// reads its pipe only once it is up, so the answer says it is ready to be driven. The
    /// answer is read here, before anyone else sees the pipe, so its message id cannot clash
    /// with the driver's.
    pub fn wait_until_answering(&mut self, timeout: Duration) -> Result<(), NoAnswer> {
        let mut question = br#"{"id":1,"method":"Browser.getVersion"}"#.to_vec();
        question.push(MESSAGE_END);
        // A pipe holds 64 KiB: this small write never waits for the reader.
        self.to_browser
            .write_all(&question)
            .map_err(|_| NoAnswer::Closed)?;
        let deadline = Instant::now() + timeout;
        let mut answer = Vec::new();
        let mut chunk = [0u8; 4096];
        while !answer.contains(&MESSAGE_END) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || !wait_readable(&self.from_browser, left) {
                return Err(NoAnswer::TimedOut);
            }
            match self.from_browser.read(&mut chunk) {
                Ok(0) | Err(_) => return Err(NoAnswer::Closed),
                Ok(read) => answer.extend_from_slice(&chunk[..read]),
            }
        }
        Ok(())
    }
}

/// Whether `file` became readable (or closed) within `timeout`.
fn wait_readable(file: &impl AsRawFd, timeout: Duration) -> bool {
    let mut poll = libc::pollfd {
        fd: file.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let millis = libc::c_int::try_from(timeout.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: poll reads and writes the one pollfd it is given.
    unsafe { libc::poll(&mut poll, 1, millis.max(1)) > 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_that_closes_its_pipe_is_told_from_one_that_is_slow() {
        let (mut pipe, ends) = devtools_pipe().expect("pipes");
        let slow = pipe.wait_until_answering(Duration::from_millis(50));
        assert_eq!(slow, Err(NoAnswer::TimedOut));
        drop(ends);
        let closed = pipe.wait_until_answering(Duration::from_secs(5));
        assert_eq!(closed, Err(NoAnswer::Closed));
    }

    #[test]
    fn a_browser_that_answers_is_ready() {
        let (mut pipe, ends) = devtools_pipe().expect("pipes");
        let answering = std::thread::spawn(move || {
            let (mut reads, mut writes) = ends.into_files();
            let mut question = [0u8; 64];
            let read = reads.read(&mut question).expect("question");
            assert_eq!(question[read - 1], MESSAGE_END);
            writes
                .write_all(b"{\"id\":1,\"result\":{}}\0")
                .expect("answer");
        });
        assert_eq!(pipe.wait_until_answering(Duration::from_secs(5)), Ok(()));
        answering.join().expect("thread");
    }
}
