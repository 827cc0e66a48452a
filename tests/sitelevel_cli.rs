//! `pagelevel sitelevel` on real saved pages: every method finds a template shared by the pages
//! of a site, and bad input ends with a message naming the path (exit 2) or a skipped page
//! (exit 1).

use std::fs;

mod common;

use assert_cmd::Command;
use common::datasets;
use predicates::prelude::*;

const PAGES: &[&str] = &[
    "2020-08-08-qanda",
    "2020-09-14-auditions",
    "2020-07-06-positive-notes",
    "2022-01-06-auditions-registration",
];

/// A temporary copy of four news pages of the string orchestra's Gatsby site.
fn orchestra_pages() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = datasets().join("sites/euso-orchestra-gatsby");
    for page in PAGES {
        let source = site.join(page).join("index.html");
        fs::copy(source, dir.path().join(format!("{page}.html"))).expect("copy page");
    }
    dir
}

fn sitelevel() -> Command {
    Command::cargo_bin("pagelevel").expect("binary")
}

#[test]
fn every_method_splits_each_page_into_template_and_content() {
    let site = orchestra_pages();
    for method in ["frequency", "pagelets", "rtdm", "msa"] {
        let output = sitelevel()
            .args(["sitelevel", "--method", method, "--json"])
            .arg(site.path())
            .output()
            .expect("run");
        assert!(output.status.success(), "{method}: {output:?}");
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(json["method"], method);
        let pages = json["pages"].as_array().expect("pages");
        assert_eq!(pages.len(), PAGES.len(), "{method}");
        for page in pages {
            let template = page["template_text"].as_str().expect("template text");
            let content = page["content_text"].as_str().expect("content text");
            assert!(!template.is_empty(), "{method} finds no template in {page}");
            assert!(!content.is_empty(), "{method} leaves no content in {page}");
            let nodes = page["template_nodes"].as_array().expect("nodes");
            assert!(
                nodes
                    .iter()
                    .all(|xpath| xpath.as_str().is_some_and(|x| x.starts_with("/html[1]")))
            );
        }
    }
}

#[test]
fn the_readable_summary_reports_the_site_totals() {
    let site = orchestra_pages();
    sitelevel()
        .args(["sitelevel", "--method", "frequency"])
        .arg(site.path())
        .assert()
        .success()
        .stdout(
            predicate::str::contains("4 pages").and(predicate::str::contains("template share")),
        );
}

#[test]
fn a_missing_directory_is_an_error_naming_it() {
    sitelevel()
        .args([
            "sitelevel",
            "--method",
            "frequency",
            "/nonexistent/site-dir",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/site-dir"));
}

#[test]
fn a_directory_without_html_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("notes.txt"), "no pages here").expect("write");
    sitelevel()
        .args(["sitelevel", "--method", "rtdm"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds no HTML pages"));
}

#[test]
fn a_binary_page_is_reported_and_skipped() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["a", "b", "c"] {
        fs::write(
            dir.path().join(format!("{name}.html")),
            format!(
                "<html><body><ul><li><a href='/'>Home</a></li></ul><p>{name} text</p></body></html>"
            ),
        )
        .expect("write");
    }
    fs::write(dir.path().join("broken.html"), b"\x00\x01\x02binary").expect("write");
    let output = sitelevel()
        .args(["sitelevel", "--method", "frequency", "--json"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("broken.html") && stderr.contains("binary"),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["pages"].as_array().map(Vec::len), Some(3));
    assert_eq!(json["pages"][0]["template_text"], "Home");
}

#[test]
fn one_page_is_too_few_for_a_site_level_method() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(
        dir.path().join("only.html"),
        "<html><body><p>alone</p></body></html>",
    )
    .expect("write");
    sitelevel()
        .args(["sitelevel", "--method", "msa"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at least 2 pages"));
}
