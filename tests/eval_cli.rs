//! `pagelevel eval` run as a user runs it: on two pages of two shared labelled sets (a gold-text
//! set and the block-labelled Kreuzer set), and on a tiny CleanEval-format copy with a page
//! that cannot be read. Layouts are cached in a per-test directory under the target dir, so
//! re-runs take well under a second of rendering.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

const LABELLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/datasets/labeled");

fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("eval-cli-layouts")
}

fn eval(arguments: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("pagelevel")
        .unwrap()
        .arg("eval")
        .arg("--cache-dir")
        .arg(cache_dir())
        .arg("--quiet")
        .args(arguments)
        .assert()
}

fn json_lines(output: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

fn assert_scores(value: &Value, context: &str) {
    for key in ["precision", "recall", "f1"] {
        let score = &value[key];
        assert!(
            score.is_null() || score.as_f64().is_some_and(|s| (0.0..=1.0).contains(&s)),
            "{context}.{key} = {score}"
        );
    }
}

#[test]
fn json_reports_every_variant_on_text_anchor_text_links_and_ari_per_dataset() {
    let dragnet = format!("dragnet:{LABELLED}/dragnet");
    let kreuzer = format!("kreuzer:{LABELLED}/kreuzer");
    let assert = eval(&[
        "--dataset",
        &dragnet,
        "--dataset",
        &kreuzer,
        "--limit",
        "2",
        "--json",
    ])
    .success();
    let reports = json_lines(&assert.get_output().stdout);
    assert_eq!(reports.len(), 2);
    for (report, dataset) in reports.iter().zip([&dragnet, &kreuzer]) {
        assert_eq!(report["dataset"], dataset.as_str());
        assert_eq!(report["pages"], 2);
        for variant in ["basic", "smooth", "merge"] {
            let scores = &report["variants"][variant];
            for measure in ["text", "anchor_text", "links"] {
                assert_scores(&scores[measure], &format!("{dataset} {variant} {measure}"));
            }
            assert!(scores.get("ari").is_some());
        }
    }
    // Gold text has no blocks; Kreuzer's nested blocks give a segmentation to compare with.
    assert!(reports[0]["variants"]["smooth"]["ari"].is_null());
    let ari = reports[1]["variants"]["smooth"]["ari"].as_f64().unwrap();
    assert!((-1.0..=1.0).contains(&ari));
}

fn copy_page(from: &Path, to: &Path, stem: &str) {
    std::fs::copy(
        from.join("input").join(format!("{stem}.html")),
        to.join("input").join(format!("{stem}.html")),
    )
    .unwrap();
    std::fs::copy(
        from.join("gold").join(format!("{stem}.txt")),
        to.join("gold").join(format!("{stem}.txt")),
    )
    .unwrap();
}

#[test]
fn a_page_that_cannot_be_read_is_listed_and_the_others_are_still_evaluated() {
    let set = tempfile::tempdir().unwrap();
    for folder in ["input", "gold"] {
        std::fs::create_dir(set.path().join(folder)).unwrap();
    }
    let cleaneval = Path::new(LABELLED).join("cleaneval");
    copy_page(&cleaneval, set.path(), "dev-1");
    // Not HTML: binary bytes are refused before rendering.
    std::fs::write(
        set.path().join("input/dev-2.html"),
        b"\x00\x01\x02\x00binary",
    )
    .unwrap();
    std::fs::write(set.path().join("gold/dev-2.txt"), "URL: http://x/\n<p>Text").unwrap();
    let report_dir = set.path().join("report");
    let spec = format!("cleaneval:{}", set.path().display());
    let assert = eval(&[
        "--dataset",
        &spec,
        "--json",
        "--report",
        report_dir.to_str().unwrap(),
    ])
    .code(1);
    let reports = json_lines(&assert.get_output().stdout);
    assert_eq!(reports[0]["pages"], 1);
    let failed = reports[0]["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["page"], "dev-2");
    assert_scores(&reports[0]["variants"]["smooth"]["main_text"], "main text");
    let pages_csv = std::fs::read_to_string(report_dir.join("pages.csv")).unwrap();
    // Basic, Basic+Merge, Smooth, and the three output texts users get.
    assert_eq!(pages_csv.lines().count(), 1 + 6, "{pages_csv}");
    assert!(pages_csv.contains(",pagelevel main_text,"), "{pages_csv}");
    assert!(
        pages_csv.contains(",pagelevel main_text+comments,"),
        "{pages_csv}"
    );
    let main_text = &reports[0]["output"]["pagelevel main_text"];
    assert_scores(&main_text["micro"], "main_text output");
    assert_eq!(main_text["empty_failures"], 0);
    assert_eq!(main_text["pages"], 1);
    let summary = std::fs::read_to_string(report_dir.join("summary.md")).unwrap();
    assert!(summary.contains("| Links |"), "{summary}");
}

#[test]
fn an_unknown_dataset_format_names_the_choices() {
    eval(&["--dataset", "webis:/nowhere"])
        .failure()
        .stderr(predicates::str::contains("l3s-gn1"));
}
