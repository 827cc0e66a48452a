//! Ending on a signal: SIGINT, SIGTERM and SIGHUP stop every browser pagelevel started (killed
//! and reaped) and remove the files it had not finished (`pagelevel::staged`: `score -o`'s output, a model, training rows) before it
//! exits with the shell's code for the signal, 128 + its number (130, 143, 129), and one line on
//! standard error. A SIGKILL cannot be caught; the browsers end with pagelevel all the same
//! (`pagelevel::render::stop_all_browsers` says how).

use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;

/// How long the stop message may wait for standard error.
const STDERR_WAIT: Duration = Duration::from_secs(1);

/// The signals that end pagelevel in order, with their names.
const TERMINATING: [(libc::c_int, &str); 3] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
];

/// Takes the terminating signals on a thread of their own. Call first thing in `main`: the
/// signals are blocked in the calling thread, and every thread started later inherits that,
/// so they wait for the one thread that takes them with `sigwait` — which may then lock,
/// allocate and wait, as a signal handler may not.
pub fn stop_browsers_on_termination() {
    // SAFETY: an all-zero sigset_t is valid storage; sigemptyset initialises it.
    let mut signals: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: the set is a valid sigset_t owned here; the old mask is not asked for.
    let blocked = unsafe {
        libc::sigemptyset(&mut signals);
        for (signal, _) in TERMINATING {
            libc::sigaddset(&mut signals, signal);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &signals, std::ptr::null_mut()) == 0
    };
    if !blocked {
        return;
    }
    let taker = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            loop {
                let mut signal = 0;
                // SAFETY: both pointers are to valid, owned values.
                if unsafe { libc::sigwait(&signals, &mut signal) } == 0 {
                    stop(signal);
                }
            }
        });
    if taker.is_err() {
        // Nobody would take them: let the signals end pagelevel as they would have.
        // SAFETY: as above.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &signals, std::ptr::null_mut()) };
    }
}

/// Stops the browsers, removes the unfinished files and exits on `signal`. Standard error is
/// taken first, so that the pages
/// failing once their browser is gone add no lines after the one said here; a standard error
/// nobody reads (a full pipe) delays the exit by at most [`STDERR_WAIT`].
fn stop(signal: libc::c_int) -> ! {
    let name = TERMINATING
        .iter()
        .find(|(number, _)| *number == signal)
        .map_or("a signal", |(_, name)| name);
    let (stderr_taken, taken) = mpsc::channel();
    let (message_sender, message) = mpsc::channel::<String>();
    let (message_said, said) = mpsc::channel();
    let _ = std::thread::Builder::new()
        .name("stop-message".into())
        .spawn(move || {
            let mut stderr = std::io::stderr().lock();
            let _ = stderr_taken.send(());
            if let Ok(message) = message.recv() {
                let _ = writeln!(stderr, "{message}");
            }
            let _ = message_said.send(());
            // Holds standard error until the process exits.
            loop {
                std::thread::park();
            }
        });
    let _ = taken.recv_timeout(STDERR_WAIT);
    let closed = match pagelevel::render::stop_all_browsers() {
        0 => String::new(),
        1 => "; closed its browser".into(),
        n => format!("; closed its {n} browsers"),
    };
    pagelevel::staged::remove_unfinished();
    let _ = message_sender.send(format!("pagelevel: stopped by {name}{closed}"));
    let _ = said.recv_timeout(STDERR_WAIT);
    std::process::exit(128 + signal);
}
