//! `pagelevel train-main-text` run as a user runs it: fitted on the development pages of the
//! shared Readability set (82 modern articles, native layout, a few seconds), the model file
//! it writes is read back by `score --main-text-model`, and wrong settings or a wrong model file
//! are refused with exit code 2 and the cause.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

const LABELLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/datasets/labeled");

fn pagelevel() -> Command {
    Command::cargo_bin("pagelevel").expect("binary")
}

fn readability_page(name: &str) -> String {
    format!("{LABELLED}/readability/pages/{name}.html")
}

#[test]
fn a_model_fitted_on_development_pages_is_written_and_scores_a_page() {
    let out = tempfile::tempdir().expect("temp dir");
    let model = out.path().join("main-text.json");
    let rows = out.path().join("rows.csv");
    pagelevel()
        .args(["train-main-text", "--quiet", "--spread-share", "0.3"])
        .arg("--dataset")
        .arg(format!("readability:{LABELLED}/readability"))
        .arg("--out")
        .arg(&model)
        .arg("--rows-out")
        .arg(&rows)
        .assert()
        .success();
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&model).expect("model written"))
            .expect("JSON");
    assert_eq!(written["spread_share"], 0.3, "the flag is the model's");
    // Articles only: no page type gets a model of its own, and the every-page model does not
    // weigh repetition.
    assert!(written.get("by_page_type").is_none(), "{written}");
    let features = written["features"].as_array().expect("features");
    assert!(!features.iter().any(|name| name == "log_repeats"));
    // The labelled paragraphs, one row each, with what the model was fitted on.
    let mut reader = csv::Reader::from_path(&rows).expect("rows written");
    let header = reader.headers().expect("header").clone();
    for column in [
        "page",
        "page_type",
        "words",
        "aligned_words",
        "is_main",
        "log_repeats",
    ] {
        assert!(header.iter().any(|name| name == column), "{header:?}");
    }
    let repeats = header
        .iter()
        .position(|name| name == "log_repeats")
        .expect("column");
    let records: Vec<csv::StringRecord> = reader.records().map(|row| row.expect("row")).collect();
    // Articles have repeated blocks too (menus, share buttons): the facts are filled in.
    assert!(
        records
            .iter()
            .any(|row| row[repeats].parse::<f64>().expect("number") > 0.0)
    );
    let paragraphs = records.len() as u64;
    assert_eq!(
        Some(paragraphs),
        written["training"]["paragraphs"].as_u64(),
        "one row per paragraph fitted on"
    );
    let sets = written["training"]["sets"].as_array().expect("sets");
    assert_eq!(sets[0][0], "readability");
    // Only development pages: the set's frozen test third is never read.
    let pages = sets[0][1].as_u64().expect("pages");
    assert!((70..100).contains(&pages), "{pages} development pages");
    let output = pagelevel()
        .args(["score", "--format", "main", "--main-text-model"])
        .arg(&model)
        .arg(readability_page("mozilla-1"))
        .assert()
        .success();
    let main = String::from_utf8(output.get_output().stdout.clone()).expect("UTF-8");
    assert!(main.split_whitespace().count() > 100, "an article: {main}");
}

#[test]
fn wrong_settings_and_a_wrong_model_file_are_refused_with_their_cause() {
    let out = tempfile::tempdir().expect("temp dir");
    let model = out.path().join("main-text.json");
    let refused = pagelevel()
        .args(["train-main-text", "--spread-cut", "1.5"])
        .arg("--dataset")
        .arg(format!("readability:{LABELLED}/readability"))
        .arg("--out")
        .arg(&model)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(
        stderr.contains("--spread-cut must be between 0 and 1"),
        "{stderr}"
    );
    assert!(!Path::new(&model).exists(), "nothing written");

    std::fs::write(&model, r#"{"version": 1, "features": ["colour"]}"#).unwrap();
    let refused = pagelevel()
        .args(["score", "--format", "main", "--main-text-model"])
        .arg(&model)
        .arg(readability_page("mozilla-1"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(
        stderr.contains("main-text.json"),
        "names the file: {stderr}"
    );
    assert!(stderr.contains("main-text model"), "says why: {stderr}");
}
