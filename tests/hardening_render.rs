//! `pagelevel render DIR --out-dir OUT`: one snapshot per page, none overwriting another, and an
//! output directory that cannot be written refused before anything is rendered.

mod common;

use std::path::Path;

use common::{pagelevel, succeed};
use predicates::prelude::*;

/// A small page whose element count tells the snapshots apart: `items` list items.
fn page_with(items: usize) -> String {
    let list: String = (0..items).map(|i| format!("<li>item {i}</li>")).collect();
    format!("<!DOCTYPE html><html><head><title>t</title></head><body><ul>{list}</ul></body></html>")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn snapshot_nodes(path: &Path) -> usize {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|_| panic!("{} missing", path.display()));
    let snapshot: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    snapshot["nodes"].as_array().expect("nodes").len()
}

#[test]
fn render_out_dir_mirrors_the_tree_so_pages_with_the_same_name_keep_their_own_snapshot() {
    let cache = tempfile::tempdir().expect("temp dir");
    let site = tempfile::tempdir().expect("temp dir");
    write(&site.path().join("index.html"), &page_with(1));
    write(&site.path().join("news/index.html"), &page_with(2));
    write(&site.path().join("news/2024/index.html"), &page_with(3));
    let out = tempfile::tempdir().expect("temp dir");
    succeed(
        pagelevel(cache.path())
            .args(["render", "--layout", "native", "--out-dir"])
            .arg(out.path())
            .arg(site.path()),
    );
    // html, head, title, body, ul + the items
    assert_eq!(snapshot_nodes(&out.path().join("index.json")), 6);
    assert_eq!(snapshot_nodes(&out.path().join("news/index.json")), 7);
    assert_eq!(snapshot_nodes(&out.path().join("news/2024/index.json")), 8);
}

#[test]
fn render_out_dir_refuses_two_pages_that_would_share_a_snapshot_before_rendering() {
    let cache = tempfile::tempdir().expect("temp dir");
    let site = tempfile::tempdir().expect("temp dir");
    write(&site.path().join("page.html"), &page_with(1));
    write(&site.path().join("page.htm"), &page_with(2));
    let out = tempfile::tempdir().expect("temp dir");
    pagelevel(cache.path())
        .args(["render", "--layout", "native", "--out-dir"])
        .arg(out.path())
        .arg(site.path())
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("page.html")
                .and(predicate::str::contains("page.htm "))
                .and(predicate::str::contains("page.json")),
        );
    assert!(!out.path().join("page.json").exists());
}

#[test]
fn render_checks_the_out_dir_before_looking_for_a_browser() {
    let cache = tempfile::tempdir().expect("temp dir");
    let site = tempfile::tempdir().expect("temp dir");
    write(&site.path().join("index.html"), &page_with(1));
    let blocker = site.path().join("a-file");
    write(&blocker, "not a directory");
    pagelevel(cache.path())
        .args(["render", "--chromium", "/no/such/chromium", "--out-dir"])
        .arg(blocker.join("out"))
        .arg(site.path().join("index.html"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--out-dir").and(predicate::str::contains("a-file/out")));
}
