//! `pagelevel render` as a user runs it: real pages in, snapshots out, bad input reported.

mod common;

use assert_cmd::Command;
use common::{example_page, pagelevel, succeed};
use predicates::prelude::*;

#[test]
fn render_writes_a_snapshot_with_every_element_in_document_order() {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(pagelevel(cache.path()).args(["render"]).arg(example_page()));
    let snapshot: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let nodes = snapshot["nodes"].as_array().expect("nodes array");
    assert!(nodes.len() > 100);
    assert_eq!(nodes[0]["tag"], "html");
    assert!(nodes[0]["parent"].is_null());
    for (index, node) in nodes.iter().enumerate() {
        assert_eq!(node["id"], index, "ids are document order");
        assert!(node["box"].is_null() || node["box"].as_array().is_some_and(|b| b.len() == 4));
        if index > 0 {
            assert!(
                node["parent"]
                    .as_u64()
                    .is_some_and(|parent| (parent as usize) < index)
            );
        }
    }
    let body = nodes
        .iter()
        .find(|node| node["tag"] == "body")
        .expect("body");
    // The page's own layout.css sets the body's width; unstyled it would be 1264 px wide.
    assert_eq!(body["box"][2], 1280.0);
    assert_eq!(snapshot["viewport"]["width"], 1280);
}

#[test]
fn a_batch_reports_the_bad_page_and_renders_the_rest_with_exit_code_1() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    std::fs::copy(example_page(), pages.path().join("good.html")).expect("copy");
    std::fs::write(
        pages.path().join("binary.html"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    )
    .expect("write");
    std::fs::write(pages.path().join("empty.html"), b"").expect("write");
    let out = tempfile::tempdir().expect("temp dir");
    pagelevel(cache.path())
        .args(["render", "--timings", "--out-dir"])
        .arg(out.path())
        .arg(pages.path())
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("binary.html")
                .and(predicate::str::contains("binary, not HTML")),
        )
        .stderr(predicate::str::contains("empty.html").and(predicate::str::contains("empty")))
        .stderr(predicate::str::contains("rendered 1 of 3 pages"));
    assert!(out.path().join("good.json").is_file());
}

#[test]
fn a_missing_file_is_an_error_naming_it_with_exit_code_2() {
    let cache = tempfile::tempdir().expect("temp dir");
    pagelevel(cache.path())
        .args(["render", "no/such/page.html"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/page.html"));
}

#[test]
fn a_page_over_the_size_limit_is_refused_with_the_limit_named() {
    let cache = tempfile::tempdir().expect("temp dir");
    let out = tempfile::tempdir().expect("temp dir");
    pagelevel(cache.path())
        .args(["render", "--max-bytes", "1000", "-o"])
        .arg(out.path().join("x.json"))
        .arg(example_page())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("over the limit of 1000 bytes"));
}

#[test]
fn help_explains_the_subcommands() {
    Command::cargo_bin("pagelevel")
        .expect("binary")
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("render").and(predicate::str::contains("template")));
}

#[test]
fn a_directory_without_pages_is_an_error_naming_it() {
    let cache = tempfile::tempdir().expect("temp dir");
    let empty = tempfile::tempdir().expect("temp dir");
    pagelevel(cache.path())
        .arg("render")
        .arg(empty.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds no HTML pages"));
}

#[test]
fn a_page_nested_beyond_the_depth_limit_names_the_flag_that_raises_it() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    let deep = pages.path().join("deep.html");
    std::fs::write(&deep, "<div>".repeat(6_000) + "bottom").expect("write");
    let out = pages.path().join("deep.json");
    pagelevel(cache.path())
        .args(["render", "-o"])
        .arg(&out)
        .arg(&deep)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("deeper than 5000 levels")
                .and(predicate::str::contains("--max-depth")),
        );
    pagelevel(cache.path())
        .args(["render", "--max-depth", "10000", "-o"])
        .arg(&out)
        .arg(&deep)
        .assert()
        .success();
    let snapshot: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).expect("written")).expect("JSON");
    assert!(snapshot["nodes"].as_array().expect("nodes").len() > 6_000);
}

/// A page whose paragraph lies 600 `<div>`s below `<body>`, at level 602 (`<html>` is 0).
fn six_hundred_levels_deep(directory: &std::path::Path) -> std::path::PathBuf {
    let page = directory.join("deep.html");
    let html = format!(
        "<html><head><title>deep</title></head><body>{}<p>The innermost paragraph.</p>{}</body></html>",
        "<div>".repeat(600),
        "</div>".repeat(600)
    );
    std::fs::write(&page, html).expect("write the page");
    page
}

#[test]
fn a_page_nested_past_chromiums_parser_limit_is_named_in_a_warning() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    let page = six_hundred_levels_deep(pages.path());
    let warned = |output: &std::process::Output| {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let named = stderr.contains("pagelevel: warning:") && stderr.contains("deep.html");
        (
            named && stderr.contains("602 levels deep") && stderr.contains("at most 512"),
            stderr,
        )
    };
    let chromium = succeed(
        pagelevel(cache.path())
            .args(["render", "--layout", "chromium"])
            .arg(&page),
    );
    assert!(warned(&chromium).0, "{}", warned(&chromium).1);
    let scored = succeed(
        pagelevel(cache.path())
            .args(["score", "--layout", "chromium", "--quiet"])
            .arg(&page),
    );
    assert!(warned(&scored).0, "{}", warned(&scored).1);

    // Blitz (the default) nests to any depth: no warning, and the innermost containers have
    // their height.
    let native = succeed(pagelevel(cache.path()).arg("render").arg(&page));
    assert!(!String::from_utf8_lossy(&native.stderr).contains("warning"));
    let snapshot: serde_json::Value = serde_json::from_slice(&native.stdout).expect("JSON");
    let innermost_div = snapshot["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .rfind(|node| node["tag"] == "div")
        .expect("a div");
    assert_eq!(innermost_div["depth"], 601);
    assert!(
        innermost_div["box"][3]
            .as_f64()
            .is_some_and(|height| height > 0.0)
    );
}
