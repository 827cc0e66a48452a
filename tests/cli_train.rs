//! `pagelevel train` end to end on real shared sites: saved directories, a WARC file and a site
//! crawled from a loopback server; the model it writes, its report, and a cached re-run.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

mod common;

use assert_cmd::Command;
use common::{datasets, warc_of};
use pagelevel::model::{LayoutEngine, TemplateModel};
use predicates::prelude::*;

fn sites() -> PathBuf {
    datasets().join("sites")
}

fn html_files(directory: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(directory)
        .expect("list")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    files
}

/// Every file of the layout cache with its inode and modification time: what a store changes.
fn cache_entries(cache: &Path) -> BTreeMap<PathBuf, (u64, SystemTime)> {
    walkdir::WalkDir::new(cache)
        .into_iter()
        .flatten()
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let metadata = entry.metadata().expect("cache entry metadata");
            let modified = metadata.modified().expect("modification time");
            (entry.into_path(), (metadata.ino(), modified))
        })
        .collect()
}

/// Serves a saved site's files on loopback, with a robots.txt that forbids `/private/`.
fn serve_site(root: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut request = [0u8; 4096];
            let read = stream.read(&mut request).unwrap_or(0);
            let line = String::from_utf8_lossy(&request[..read])
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
            let (status, body) = if path == "/robots.txt" {
                ("200 OK", b"User-agent: *\nDisallow: /private/\n".to_vec())
            } else {
                let file = if path == "/" {
                    root.join("index.html")
                } else {
                    root.join(path.trim_start_matches('/'))
                };
                match std::fs::read(&file) {
                    Ok(body) => ("200 OK", body),
                    Err(_) => ("404 Not Found", b"missing".to_vec()),
                }
            };
            let kind = if path.ends_with(".txt") {
                "text/plain"
            } else {
                "text/html"
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    port
}

#[test]
fn train_labels_real_sites_from_directories_a_warc_and_a_crawl_and_writes_a_loadable_model() {
    let work = tempfile::tempdir().expect("temp dir");
    let cache = work.path().join("cache");
    let warc = work.path().join("gimp.warc");
    let gimp = html_files(&sites().join("gimp-help-docbook"));
    let records: Vec<(String, Vec<u8>)> = gimp[..8]
        .iter()
        .map(|page| {
            let name = page.file_name().expect("name").to_string_lossy();
            (
                format!("http://docs.gimp.example/{name}"),
                std::fs::read(page).expect("read"),
            )
        })
        .collect();
    std::fs::write(&warc, warc_of(&records)).expect("write warc");
    let port = serve_site(sites().join("httrack-website"));
    let list = work.path().join("sites.txt");
    std::fs::write(
        &list,
        format!(
            "# two saved sites, a WARC and a crawl\n[documentation]\n{}\n{}\n[other]\n{}\nhttp://127.0.0.1:{port}/\n{}\n",
            sites().join("postgresql-docs-docbook").display(),
            sites().join("cmake-docs-sphinx").display(),
            warc.display(),
            sites().join("euso-orchestra-gatsby").display(),
        ),
    )
    .expect("write list");
    let model = work.path().join("model.json");
    let report = work.path().join("report");
    let run = |model: &Path, layout: &str| {
        Command::cargo_bin("pagelevel")
            .expect("binary")
            .env("PAGELEVEL_CACHE", &cache)
            .args([
                "train",
                "--layout",
                layout,
                "--quiet",
                "--max-pages",
                "8",
                "--min-pages",
                "6",
                "--holdout-every",
                "2",
            ])
            .args(["--crawl-delay", "0.01", "--max-fetches", "12", "--sites"])
            .arg(&list)
            .arg("--out")
            .arg(model)
            .arg("--report")
            .arg(&report)
            .output()
            .expect("runs")
    };
    let first = run(&model, "native");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let trained = TemplateModel::load(&model).expect("the model loads");
    assert_eq!(trained.layout_engine, LayoutEngine::Native);
    assert_eq!(trained.buckets.len(), 4);
    assert_eq!(trained.training.labeler, "frequency");
    let names = &trained.training.sites;
    assert!(
        names.iter().any(|n| n.contains("docs.gimp.example")),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n.contains("127.0.0.1")), "{names:?}");
    assert!(names.contains(&"postgresql-docs-docbook".to_string()));

    let sites_csv = std::fs::read_to_string(report.join("sites.csv")).expect("sites.csv");
    assert!(
        sites_csv.starts_with("site,pages,failed_pages,elements,classified_nodes,template_share")
    );
    assert!(report.join("buckets.csv").is_file());
    let summary = std::fs::read_to_string(report.join("summary.md")).expect("summary");
    assert!(summary.contains("## Held-out sites"), "{summary}");
    assert!(summary.contains("| documentation | 2 |"), "{summary}");
    assert!(sites_csv.contains(",documentation,"), "{sites_csv}");

    // Chromium's layouts are cached (native ones are not: they take milliseconds): a
    // second run only re-labels and re-fits, and a page laid out again would have been stored
    // again (a new file renamed over the old one).
    let chromium_model = work.path().join("chromium.json");
    let first = run(&chromium_model, "chromium");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let trained = TemplateModel::load(&chromium_model).expect("the model loads");
    assert_eq!(trained.layout_engine, LayoutEngine::Chromium);
    let cached_before = cache_entries(&cache);
    assert!(!cached_before.is_empty(), "the first run fills the cache");
    let second_model = work.path().join("again.json");
    let second = run(&second_model, "chromium");
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let stored_again: Vec<PathBuf> = cache_entries(&cache)
        .into_iter()
        .filter(|(path, stamp)| cached_before.get(path) != Some(stamp))
        .map(|(path, _)| path)
        .collect();
    assert!(
        stored_again.is_empty(),
        "the second run laid {} pages out again: {stored_again:?}",
        stored_again.len()
    );
    assert_eq!(
        TemplateModel::load(&second_model).expect("loads"),
        trained,
        "same data and seed, same model"
    );
}

#[test]
fn a_sites_list_naming_a_missing_folder_is_an_error_with_exit_code_2() {
    let work = tempfile::tempdir().expect("temp dir");
    let list = work.path().join("sites.txt");
    std::fs::write(&list, "no-such-site\n").expect("write");
    Command::cargo_bin("pagelevel")
        .expect("binary")
        .args(["train", "--sites"])
        .arg(&list)
        .args(["--out"])
        .arg(work.path().join("m.json"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("sites.txt").and(predicates::str::contains("line 1")));
}
