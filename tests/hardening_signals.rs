//! No browser outlives pagelevel: SIGINT, SIGTERM and SIGHUP stop its browsers before it exits
//! with 128 + the signal's number, and after a SIGKILL its browsers end too, none left to init.
//! Nothing of them is left in the temporary directory either: not after a batch, nor a signal,
//! nor (once the next run has swept) a SIGKILL. A page whose browser is killed under it is tried
//! again in a new browser. Needs Debian's `chromium`; Linux only (reads /proc).

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Generous bounds: they only decide how long a failing test takes to fail.
const BROWSER_START_WAIT: Duration = Duration::from_secs(120);
const EXIT_WAIT: Duration = Duration::from_secs(60);
const LEFTOVER_WAIT: Duration = Duration::from_secs(30);

/// The environment variable that marks the processes of one test run: Chromium's processes
/// that keep their environment (the browser, its crash handlers) inherit it from pagelevel.
const RUN_MARKER: &str = "PAGELEVEL_SIGNAL_TEST_RUN";

/// One process as /proc shows it.
#[derive(Debug, Clone)]
struct ProcessEntry {
    pid: u32,
    name: String,
    state: char,
    parent: u32,
    session: u32,
    start_time: u64,
    arguments: Vec<String>,
    marked_with: Option<String>,
}

fn processes() -> Vec<ProcessEntry> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|name| name.parse().ok())
        else {
            continue;
        };
        let (Ok(stat), Ok(environment), Ok(command_line)) = (
            std::fs::read_to_string(entry.path().join("stat")),
            std::fs::read(entry.path().join("environ")),
            std::fs::read(entry.path().join("cmdline")),
        ) else {
            continue;
        };
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let prefix = format!("{RUN_MARKER}=");
        found.push(ProcessEntry {
            pid,
            name: head
                .split_once('(')
                .map_or("", |(_, name)| name)
                .to_string(),
            state: fields[0].chars().next().unwrap_or('?'),
            parent: fields[1].parse().unwrap_or(0),
            session: fields[3].parse().unwrap_or(0),
            start_time: fields[19].parse().unwrap_or(0),
            arguments: command_line
                .split(|&byte| byte == 0)
                .map(|argument| String::from_utf8_lossy(argument).into_owned())
                .collect(),
            marked_with: environment
                .split(|&byte| byte == 0)
                .filter_map(|variable| std::str::from_utf8(variable).ok())
                .find_map(|variable| variable.strip_prefix(&prefix).map(str::to_string)),
        });
    }
    found
}

/// The live processes of run `marker` other than pagelevel itself: those carrying the marker,
/// their descendants and the members of their sessions (Chromium's renderers and services get a
/// cleaned environment, but stay in the browser's session).
fn processes_of_run(marker: &str, pagelevel: u32) -> Vec<ProcessEntry> {
    let all: Vec<ProcessEntry> = processes()
        .into_iter()
        .filter(|process| process.state != 'Z' && process.pid != pagelevel)
        .collect();
    let mut members: BTreeSet<u32> = all
        .iter()
        .filter(|process| process.marked_with.as_deref() == Some(marker))
        .map(|process| process.pid)
        .collect();
    loop {
        let before = members.len();
        for process in &all {
            if members.contains(&process.parent)
                || process.parent == pagelevel
                || members.contains(&process.session)
            {
                members.insert(process.pid);
            }
        }
        if members.len() == before {
            break;
        }
    }
    all.into_iter()
        .filter(|process| members.contains(&process.pid))
        .collect()
}

/// What is still running of a run: the processes it had when signalled (the same pid and start
/// time), and any of it started since.
fn leftovers(running: &[ProcessEntry], marker: &str, pagelevel: u32) -> Vec<ProcessEntry> {
    let mut left: Vec<ProcessEntry> = processes()
        .into_iter()
        .filter(|process| {
            process.state != 'Z'
                && running
                    .iter()
                    .any(|old| old.pid == process.pid && old.start_time == process.start_time)
        })
        .collect();
    for process in processes_of_run(marker, pagelevel) {
        if left.iter().all(|known| known.pid != process.pid) {
            left.push(process);
        }
    }
    left
}

fn is_chromium(process: &ProcessEntry) -> bool {
    process.name.starts_with("chrom")
}

/// The browser's own process (not a crash handler, nor a renderer, zygote or service: those
/// have a `--type`, in a command line they rewrite as one string).
fn is_browser_process(process: &ProcessEntry) -> bool {
    process.name == "chromium" && !process.arguments.join(" ").contains("--type=")
}

/// Pid and name of each process, for messages.
fn listed(processes: &[ProcessEntry]) -> Vec<String> {
    processes
        .iter()
        .map(|process| {
            format!(
                "{} {} (parent {})",
                process.pid, process.name, process.parent
            )
        })
        .collect()
}

fn poll_until<T>(limit: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(found) = check() {
            return Some(found);
        }
        if Instant::now() > deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_for_exit(child: &mut Child) -> ExitStatus {
    poll_until(EXIT_WAIT, || child.try_wait().expect("try_wait")).unwrap_or_else(|| {
        let _ = child.kill();
        panic!("pagelevel did not exit within {EXIT_WAIT:?} of the signal")
    })
}

/// Pages enough that a run is still rendering when it is signalled.
fn many_pages(directory: &Path, count: usize) {
    for index in 0..count {
        let page = format!(
            "<!DOCTYPE html><html><head><title>Page {index}</title></head><body>\
             <nav><a href=\"a.html\">Home</a> <a href=\"b.html\">About</a></nav>\
             <h1>Page {index}</h1><p>The text of page {index}, a paragraph long enough to be \
             content.</p><footer>Footer</footer></body></html>"
        );
        std::fs::write(directory.join(format!("page-{index:04}.html")), page).expect("write");
    }
}

/// `pagelevel score --layout chromium --no-cache --quiet` marked with `marker`, caching in
/// `cache`, with no standard input; the caller adds the pages and where output goes.
fn scoring(marker: &str, cache: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pagelevel"));
    command
        .args(["score", "--layout", "chromium", "--no-cache", "--quiet"])
        .env("PAGELEVEL_CACHE", cache)
        .env(RUN_MARKER, marker)
        .stdin(Stdio::null());
    command
}

/// What a directory holds: every path under it, relative to it, sorted.
fn entries(directory: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![directory.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                pending.push(path.clone());
            }
            let relative = path.strip_prefix(directory).unwrap_or(&path);
            found.push(relative.to_string_lossy().into_owned());
        }
    }
    found.sort();
    found
}

/// A run's exit status, standard error and process id, and the temporary directory (`TMPDIR`)
/// it ran with.
struct SignalledRun {
    status: ExitStatus,
    stderr: String,
    pid: u32,
    temporary: tempfile::TempDir,
}

/// Signals a run while it renders and requires that no process of it is left afterwards.
fn signal_while_rendering(signal: libc::c_int, marker: &str) -> SignalledRun {
    let (pages, work, temporary) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    many_pages(pages.path(), 400);
    let output = work.path().join("scored.jsonl");
    let mut pagelevel = scoring(marker, work.path())
        .env("TMPDIR", temporary.path())
        .arg(pages.path())
        .stdout(std::fs::File::create(&output).expect("output file"))
        .stderr(Stdio::piped())
        .spawn()
        .expect("pagelevel starts");
    let pid = pagelevel.id();
    let rendering = poll_until(BROWSER_START_WAIT, || {
        let scored_one = std::fs::metadata(&output).is_ok_and(|metadata| metadata.len() > 0);
        let browser = processes_of_run(marker, pid)
            .into_iter()
            .any(|p| is_chromium(&p));
        (scored_one && browser).then_some(())
    });
    if rendering.is_none() {
        let _ = pagelevel.kill();
        panic!("no page was scored in Chromium within {BROWSER_START_WAIT:?}");
    }
    let running = processes_of_run(marker, pid);
    // SAFETY: kill has no memory effects; the pid is our own child, not yet reaped.
    unsafe { libc::kill(pid as libc::pid_t, signal) };
    let status = wait_for_exit(&mut pagelevel);
    let mut stderr = String::new();
    if let Some(mut pipe) = pagelevel.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
    }
    let left = poll_until(LEFTOVER_WAIT, || {
        leftovers(&running, marker, pid).is_empty().then_some(())
    });
    if left.is_none() {
        let survivors = leftovers(&running, marker, pid);
        for process in &survivors {
            // SAFETY: kill has no memory effects; these are this test's own leftovers.
            unsafe { libc::kill(process.pid as libc::pid_t, libc::SIGKILL) };
        }
        panic!(
            "{} processes of the run were left {LEFTOVER_WAIT:?} after the signal ({} when \
             signalled): {:?}",
            survivors.len(),
            running.len(),
            listed(&survivors)
        );
    }
    assert!(
        running.iter().any(is_browser_process),
        "the run had a browser when signalled: {:?}",
        listed(&running)
    );
    SignalledRun {
        status,
        stderr,
        pid,
        temporary,
    }
}

fn assert_stopped_by(signal: libc::c_int, name: &str, code: i32) {
    let run = signal_while_rendering(signal, &format!("{name}-{}", std::process::id()));
    assert_eq!(run.status.code(), Some(code), "{}", run.stderr);
    let last_line = run.stderr.lines().last().unwrap_or_default();
    assert_eq!(
        last_line,
        format!("pagelevel: stopped by {name}; closed its browser")
    );
    assert_eq!(
        entries(run.temporary.path()),
        Vec::<String>::new(),
        "left in TMPDIR"
    );
}

#[test]
fn sigint_stops_the_browser_and_exits_130() {
    assert_stopped_by(libc::SIGINT, "SIGINT", 130);
}

#[test]
fn sigterm_stops_the_browser_and_exits_143() {
    assert_stopped_by(libc::SIGTERM, "SIGTERM", 143);
}

#[test]
fn sighup_stops_the_browser_and_exits_129() {
    assert_stopped_by(libc::SIGHUP, "SIGHUP", 129);
}

#[test]
fn sigkill_leaves_no_browser_behind_and_the_next_run_removes_its_profile() {
    use std::os::unix::process::ExitStatusExt;
    let marker = format!("SIGKILL-{}", std::process::id());
    let run = signal_while_rendering(libc::SIGKILL, &marker);
    assert_eq!(run.status.signal(), Some(libc::SIGKILL));
    let left_profile = format!("pagelevel-chromium-{}-", run.pid);
    assert!(
        entries(run.temporary.path())
            .iter()
            .any(|name| name.starts_with(&left_profile)),
        "a SIGKILL leaves the profile to the next run"
    );
    let pages = tempfile::tempdir().expect("dir");
    many_pages(pages.path(), 1);
    let rendered = Command::new(env!("CARGO_BIN_EXE_pagelevel"))
        .args(["render", "--layout", "chromium", "--no-cache"])
        .arg(pages.path().join("page-0000.html"))
        .env("TMPDIR", run.temporary.path())
        .output()
        .expect("pagelevel runs");
    assert!(rendered.status.success());
    assert_eq!(
        entries(run.temporary.path()),
        Vec::<String>::new(),
        "the killed run's profile and socket directory, and the new run's, are gone"
    );
}

/// Scores three pages in Chromium with `temporary` as `TMPDIR` and requires it empty afterwards.
fn assert_a_batch_leaves_nothing_in(temporary: &Path) {
    let (pages, cache) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    many_pages(pages.path(), 3);
    let marker = format!("batch-{}", std::process::id());
    let pagelevel = scoring(&marker, cache.path())
        .env("TMPDIR", temporary)
        .arg(pages.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pagelevel runs");
    let pid = pagelevel.id();
    let scored = pagelevel.wait_with_output().expect("pagelevel ends");
    assert!(
        scored.status.success(),
        "{}",
        String::from_utf8_lossy(&scored.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&scored.stdout).lines().count(), 3);
    assert_eq!(entries(temporary), Vec::<String>::new(), "left in TMPDIR");
    // A browser whose profile cannot hold its socket path gets a directory of its own in /tmp.
    let of_this_run = format!("pagelevel-chromium-{pid}-");
    let left_in_tmp: Vec<String> = std::fs::read_dir("/tmp")
        .expect("/tmp")
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&of_this_run))
        .collect();
    assert_eq!(left_in_tmp, Vec::<String>::new(), "left in /tmp");
}

#[test]
fn a_chromium_batch_leaves_nothing_in_the_temporary_directory() {
    let temporary = tempfile::tempdir().expect("dir");
    assert_a_batch_leaves_nothing_in(temporary.path());
}

#[test]
fn a_temporary_directory_too_long_to_hold_chromiums_socket_in_a_profile_is_left_empty_too() {
    // 58 bytes: the socket fits under it (Chromium needs at most 62), not under a profile in it.
    let base = tempfile::tempdir().expect("dir");
    let padding = 58usize.saturating_sub(base.path().as_os_str().len() + 1);
    let temporary = base.path().join("t".repeat(padding.max(1)));
    std::fs::create_dir(&temporary).expect("mkdir");
    assert!(temporary.as_os_str().len() <= 62, "{temporary:?}");
    assert_a_batch_leaves_nothing_in(&temporary);
}

#[test]
fn a_page_whose_browser_is_killed_is_scored_in_a_new_browser() {
    // Each page keeps the browser busy for a while (a script runs 1.5 s before the load event),
    // so the kill after the first page's output lands while the second page is in the browser.
    let (pages, cache) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let count = 5;
    for index in 0..count {
        let page = format!(
            "<!DOCTYPE html><html><body><nav><a href=\"a.html\">Home</a></nav>\
             <p>Page {index}: a paragraph of running text, long enough to count.</p>\
             <script>const until = Date.now() + 1500; while (Date.now() < until) {{}}</script>\
             </body></html>"
        );
        std::fs::write(pages.path().join(format!("page-{index}.html")), page).expect("write");
    }
    let marker = format!("kill-browser-{}", std::process::id());
    let mut pagelevel = scoring(&marker, cache.path())
        .arg("--javascript")
        .arg(pages.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pagelevel starts");
    let mut lines = BufReader::new(pagelevel.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a first page").expect("read");
    let browsers: Vec<ProcessEntry> = processes_of_run(&marker, pagelevel.id())
        .into_iter()
        .filter(is_browser_process)
        .collect();
    assert_eq!(
        browsers.len(),
        1,
        "one browser runs: {:?}",
        listed(&browsers)
    );
    // SAFETY: kill has no memory effects; the browser is this test's child's child.
    let killed = unsafe { libc::kill(browsers[0].pid as libc::pid_t, libc::SIGKILL) };
    assert_eq!(killed, 0, "the browser was killed");
    let rest: Vec<String> = lines.map(|line| line.expect("read")).collect();
    let status = wait_for_exit(&mut pagelevel);
    let mut stderr = String::new();
    if let Some(mut pipe) = pagelevel.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
    }
    assert!(status.success(), "{status}: {stderr}");
    let scored: Vec<&String> = std::iter::once(&first).chain(rest.iter()).collect();
    assert_eq!(scored.len(), count, "every page has its line: {stderr}");
    for index in 0..count {
        let name = format!("page-{index}.html");
        assert!(
            scored.iter().any(|line| line.contains(&name)),
            "{name} was scored: {stderr}"
        );
    }
}

#[test]
fn a_browser_started_on_a_thread_that_has_ended_keeps_serving() {
    // The parent-death signal follows the thread that forked the browser: a renderer made and
    // used on a worker thread must keep its browser after that thread ends.
    use pagelevel::page::PageSource;
    use pagelevel::render::{RenderOptions, Renderer};
    let pages = tempfile::tempdir().expect("dir");
    many_pages(pages.path(), 2);
    let first = PageSource::from_file(&pages.path().join("page-0000.html"), None).expect("read");
    let second = PageSource::from_file(&pages.path().join("page-0001.html"), None).expect("read");
    let mut renderer = std::thread::spawn(move || {
        let mut renderer = Renderer::new(RenderOptions::default()).expect("chromium is installed");
        renderer.render(&first).expect("renders on the worker");
        renderer
    })
    .join()
    .expect("the worker ends");
    renderer
        .render(&second)
        .expect("renders after the worker ended");
    assert_eq!(
        renderer.browser_launches(),
        1,
        "the first browser was still there"
    );
}

#[test]
fn an_interrupted_score_leaves_its_output_file_as_it_was_and_no_staged_copy() {
    let (pages, work) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    many_pages(pages.path(), 400);
    let output = work.path().join("scored.jsonl");
    std::fs::write(&output, "the previous run\n").expect("write");
    let marker = format!("staged-{}", std::process::id());
    let mut pagelevel = scoring(&marker, work.path())
        .arg("-o")
        .arg(&output)
        .arg(pages.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("pagelevel starts");
    let staged_files = || -> Vec<String> {
        std::fs::read_dir(work.path())
            .expect("list")
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect()
    };
    let pid = pagelevel.id();
    let rendering = poll_until(BROWSER_START_WAIT, || {
        let browser = processes_of_run(&marker, pid)
            .iter()
            .any(is_browser_process);
        (browser && !staged_files().is_empty()).then_some(())
    });
    if rendering.is_none() {
        let _ = pagelevel.kill();
        panic!("no browser and staged output within {BROWSER_START_WAIT:?}");
    }
    // SAFETY: kill has no memory effects; the pid is our own child, not yet reaped.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGINT) };
    let status = wait_for_exit(&mut pagelevel);
    assert_eq!(status.code(), Some(130));
    assert_eq!(
        std::fs::read_to_string(&output).expect("read"),
        "the previous run\n"
    );
    assert_eq!(
        staged_files(),
        Vec::<String>::new(),
        "no staged copy is left"
    );
}
