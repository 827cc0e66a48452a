//! `pagelevel smooth` as a user runs it: JSON in, JSON out, exit 2 with a useful message on bad
//! input, and the in-process benchmark.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// Root 1 with children 0 and 2, listed out of order: the heavy low child drags nothing, the
/// high child starts its own section.
const PROBLEM: &str = r#"{"parent": [1, -1, 1], "score": [0.5, 0.5, 0.9],
    "weight": [1, 2, 1], "penalty": [0.05, 0.05, 0.05]}"#;

fn pagelevel() -> Command {
    Command::cargo_bin("pagelevel").expect("the binary is built")
}

fn output_json(assert: assert_cmd::assert::Assert) -> Value {
    serde_json::from_slice(&assert.get_output().stdout).expect("stdout is JSON")
}

fn write_temp(contents: &str) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), contents).unwrap();
    file
}

#[test]
fn smooth_reads_a_file_and_writes_smoothed_scores_cost_and_sections() {
    let file = write_temp(PROBLEM);
    let out = output_json(
        pagelevel()
            .args(["smooth", "--input"])
            .arg(file.path())
            .assert()
            .success(),
    );
    assert_eq!(out["smoothed"], serde_json::json!([0.5, 0.5, 0.9]));
    assert!((out["cost"].as_f64().unwrap() - 0.1).abs() < 1e-12);
    assert_eq!(out["sections"], serde_json::json!([1, 2]));
}

#[test]
fn smooth_reads_standard_input_and_paper_gives_the_same_answer() {
    let fast = output_json(
        pagelevel()
            .arg("smooth")
            .write_stdin(PROBLEM)
            .assert()
            .success(),
    );
    let paper = output_json(
        pagelevel()
            .args(["smooth", "--algorithm", "paper"])
            .write_stdin(PROBLEM)
            .assert()
            .success(),
    );
    assert_eq!(fast, paper);
}

#[test]
fn smooth_defaults_missing_weights_to_one() {
    let out = output_json(
        pagelevel()
            .arg("smooth")
            .write_stdin(r#"{"parent": [-1, 0], "score": [0.8, 0.2], "penalty": [0, 0]}"#)
            .assert()
            .success(),
    );
    // Unit weights: any common value in [0.2, 0.8] costs 0.6; the smallest is chosen.
    assert!((out["cost"].as_f64().unwrap() - 0.6).abs() < 1e-12);
    assert_eq!(out["smoothed"], serde_json::json!([0.2, 0.2]));
}

/// Runs `smooth` on `problem` from a file and expects exit 2 with the file's name and `cause`.
fn rejects(problem: &str, cause: &str) {
    let file = write_temp(problem);
    let name = file.path().display().to_string();
    pagelevel()
        .args(["smooth", "--input"])
        .arg(file.path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(name).and(predicate::str::contains(cause)));
}

#[test]
fn smooth_rejects_a_cycle() {
    rejects(
        r#"{"parent": [-1, 2, 1], "score": [0.1, 0.2, 0.3], "penalty": [0, 0, 0]}"#,
        "cycle",
    );
}

#[test]
fn smooth_rejects_two_roots() {
    rejects(
        r#"{"parent": [-1, -1], "score": [0.1, 0.2], "penalty": [0, 0]}"#,
        "two roots",
    );
}

#[test]
fn smooth_rejects_a_length_mismatch() {
    rejects(
        r#"{"parent": [-1, 0], "score": [0.1], "penalty": [0, 0]}"#,
        "score has 1 entries but parent has 2",
    );
}

#[test]
fn smooth_rejects_nan_which_json_cannot_carry() {
    rejects(
        r#"{"parent": [-1], "score": [NaN], "penalty": [0]}"#,
        "not a smoothing problem",
    );
}

#[test]
fn smooth_rejects_a_negative_weight() {
    rejects(
        r#"{"parent": [-1], "score": [0.5], "weight": [-1], "penalty": [0]}"#,
        "weight of node 0 is -1",
    );
}

#[test]
fn smooth_rejects_a_score_outside_the_unit_interval() {
    rejects(
        r#"{"parent": [-1, 0], "score": [0.5, 1.5], "penalty": [0, 0]}"#,
        "score of node 1 is 1.5",
    );
}

#[test]
fn smooth_rejects_a_parent_out_of_range_and_a_negative_parent() {
    rejects(
        r#"{"parent": [-1, 5], "score": [0.5, 0.5], "penalty": [0, 0]}"#,
        "node 1 has parent 5",
    );
    rejects(
        r#"{"parent": [-1, -3], "score": [0.5, 0.5], "penalty": [0, 0]}"#,
        "parent of node 1 is -3",
    );
}

#[test]
fn smooth_rejects_json_of_the_wrong_shape() {
    rejects(
        r#"{"parent": [-1], "score": [0.5]}"#,
        "missing field `penalty`",
    );
    rejects(
        r#"{"parents": [-1], "score": [0.5], "penalty": [0]}"#,
        "unknown field `parents`",
    );
    rejects("not json", "not a smoothing problem");
}

#[test]
fn smooth_names_a_file_it_cannot_read() {
    pagelevel()
        .args(["smooth", "--input", "/nonexistent/problem.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read /nonexistent/problem.json",
        ));
}

#[test]
fn smooth_bench_prints_both_times_and_their_ratio() {
    pagelevel()
        .args(["smooth", "--bench", "--nodes", "300", "--runs", "1"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("300 nodes")
                .and(predicate::str::contains("paper / fast time ratio")),
        );
}
