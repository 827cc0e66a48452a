//! `pagelevel sample`: from a key page, the pages a menu links to form the sample — on a saved
//! site and over HTTP from a local server (robots.txt obeyed).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::thread;

use assert_cmd::Command;
use predicates::prelude::*;

const MENU: &str = "<ul><li><a href='a.html'>A</a></li><li><a href='b.html'>B</a></li>\
                    <li><a href='c.html'>C</a></li><li><a href='private.html'>P</a></li></ul>";

fn page(name: &str) -> String {
    format!("<html><body>{MENU}<p>the {name} page</p></body></html>")
}

fn pagelevel() -> Command {
    Command::cargo_bin("pagelevel").expect("binary")
}

#[test]
fn a_saved_sites_menu_pages_are_the_sample() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["key", "a", "b", "c", "private"] {
        fs::write(dir.path().join(format!("{name}.html")), page(name)).expect("write");
    }
    let output = pagelevel()
        .args(["sample", "--json", "--key"])
        .arg(dir.path().join("key.html"))
        .output()
        .expect("run");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let pages: Vec<&str> = json["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .filter_map(|page| page.as_str())
        .collect();
    assert_eq!(pages.len(), 4);
    assert!(pages[0].ends_with("key.html"));
    assert!(pages[1..].iter().all(|page| !page.ends_with("key.html")));
    assert_eq!(json["loads"], 4);
}

#[test]
fn a_missing_key_page_is_an_error_naming_it() {
    pagelevel()
        .args(["sample", "--key", "/nonexistent/key.html"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/key.html"));
}

/// Serves the menu site on 127.0.0.1; robots.txt forbids /private.html.
fn serve_menu_site() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request_line = String::new();
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            let mut header = String::new();
            while reader.read_line(&mut header).is_ok_and(|read| read > 2) {
                header.clear();
            }
            let path = request_line
                .split_whitespace()
                .nth(1)
                .unwrap_or("/")
                .to_owned();
            let (status, kind, body) = match path.as_str() {
                "/robots.txt" => (
                    "200 OK",
                    "text/plain",
                    "User-agent: *\nDisallow: /private.html\n".to_owned(),
                ),
                "/key.html" | "/a.html" | "/b.html" | "/c.html" | "/private.html" => {
                    ("200 OK", "text/html; charset=utf-8", page(&path))
                }
                _ => ("404 Not Found", "text/plain", "missing".to_owned()),
            };
            let response = format!(
                "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes());
        }
    });
    format!("http://{address}")
}

#[test]
fn a_web_sample_is_crawled_politely_from_a_local_server() {
    let base = serve_menu_site();
    let output = pagelevel()
        .args([
            "sample",
            "--json",
            "--delay",
            "0",
            "--timeout",
            "5",
            "--key",
        ])
        .arg(format!("{base}/key.html"))
        .output()
        .expect("run");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let pages: Vec<String> = json["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .filter_map(|page| page.as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        pages,
        [
            format!("{base}/key.html"),
            format!("{base}/a.html"),
            format!("{base}/b.html"),
            format!("{base}/c.html")
        ]
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("private.html") || stderr.contains("robots.txt disallows"));
}
