//! What the command-line tests share: the bundled example page, the binary with its own layout
//! cache, and WARC files built in memory.
#![allow(dead_code)] // each test binary uses a different part

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The bundled example page (www.gnu.org, with its stylesheets).
pub fn example_page() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/example/gnu.org/index.html")
}

/// The shared datasets beside the repository (`../shared/datasets`, as CI lays them out). A
/// test that needs them fails here, naming the folder, rather than passing without them.
pub fn datasets() -> PathBuf {
    let datasets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    assert!(
        datasets.is_dir(),
        "the shared datasets are missing: expected {} (shared/ beside the repository)",
        datasets.display()
    );
    datasets
}

/// The `pagelevel` binary, caching layouts in `cache` (never the user's cache).
pub fn pagelevel(cache: &Path) -> Command {
    let mut command = Command::cargo_bin("pagelevel").expect("binary");
    command.env("PAGELEVEL_CACHE", cache);
    command
}

/// Makes `command` unable to find any Chromium (`PATH` empty, `PAGELEVEL_CHROMIUM` pointing
/// nowhere).
pub fn without_chromium(command: &mut Command) -> &mut Command {
    command
        .env("PATH", "")
        .env("PAGELEVEL_CHROMIUM", "/nonexistent/chromium")
}

/// A WARC file with one HTML response record per `(url, body)`.
pub fn warc_of(records: &[(String, Vec<u8>)]) -> Vec<u8> {
    let typed: Vec<(String, &str, Vec<u8>)> = records
        .iter()
        .map(|(url, body)| (url.clone(), "text/html; charset=utf-8", body.clone()))
        .collect();
    warc_of_typed(&typed)
}

/// A WARC file with one response record per `(url, content type, body)`.
pub fn warc_of_typed(records: &[(String, &str, Vec<u8>)]) -> Vec<u8> {
    let mut warc = Vec::new();
    for (url, content_type, body) in records {
        let mut http =
            format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n").into_bytes();
        http.extend_from_slice(body);
        warc.extend(warc_response(url, &http));
    }
    warc
}

/// One WARC response record of `url` whose block is `http` (status line, headers, body), as
/// written: a malformed response stays malformed.
pub fn warc_response(url: &str, http: &[u8]) -> Vec<u8> {
    let mut record = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    record.extend_from_slice(http);
    record.extend_from_slice(b"\r\n\r\n");
    record
}

/// Runs `pagelevel score ARGS… FILE` on `warc` written as `name` in a fresh folder, with a
/// fresh cache.
pub fn score_warc_bytes(name: &str, warc: &[u8], arguments: &[&str]) -> std::process::Output {
    let work = tempfile::tempdir().expect("temp dir");
    let path = work.path().join(name);
    std::fs::write(&path, warc).expect("write");
    let cache = tempfile::tempdir().expect("temp dir");
    pagelevel(cache.path())
        .arg("score")
        .args(arguments)
        .arg(&path)
        .output()
        .expect("runs")
}

/// Runs `command`, requires it to succeed (showing its error output otherwise), returns its output.
pub fn succeed(command: &mut Command) -> std::process::Output {
    let output = command.output().expect("the command runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Runs `command`, requires it to end in an error (exit code 2), returns its error output.
pub fn refused(command: &mut Command) -> String {
    let output = command.output().expect("the command runs");
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A server on loopback that accepts connections, counts them and never answers: a page that
/// links it shows whether anything was fetched.
pub fn start_black_hole() -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::Read;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    let connections = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = std::sync::Arc::clone(&connections);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            counter.fetch_add(1, Ordering::SeqCst);
            std::thread::spawn(move || {
                let mut stream = stream;
                let mut buffer = [0u8; 1024];
                while stream.read(&mut buffer).is_ok_and(|read| read > 0) {}
            });
        }
    });
    (port, connections)
}
