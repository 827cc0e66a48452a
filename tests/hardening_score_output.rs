//! `pagelevel score -o FILE`: FILE is replaced only by a run that finished, so a run that stops
//! with an error leaves it as it was, and no temporary file stays behind.

mod common;

use std::path::Path;

use common::{example_page, pagelevel};

fn entries(directory: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(directory)
        .expect("list")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn a_score_run_that_fails_leaves_the_previous_output_file_untouched() {
    let cache = tempfile::tempdir().expect("temp dir");
    let work = tempfile::tempdir().expect("temp dir");
    let empty = work.path().join("empty.html");
    std::fs::write(&empty, b"").expect("write");
    let out_dir = tempfile::tempdir().expect("temp dir");
    let output = out_dir.path().join("scores.json");
    std::fs::write(&output, "the previous run's scores\n").expect("write");
    pagelevel(cache.path())
        .args(["score", "--layout", "native", "-o"])
        .arg(&output)
        .arg(&empty)
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read_to_string(&output).expect("read"),
        "the previous run's scores\n"
    );
    assert_eq!(entries(out_dir.path()), ["scores.json"]);
}

#[test]
fn a_score_batch_with_some_failed_pages_still_replaces_the_output_file() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    std::fs::copy(example_page(), pages.path().join("good.html")).expect("copy");
    std::fs::write(pages.path().join("empty.html"), b"").expect("write");
    let out_dir = tempfile::tempdir().expect("temp dir");
    let output = out_dir.path().join("scores.jsonl");
    std::fs::write(&output, "the previous run's scores\n").expect("write");
    pagelevel(cache.path())
        .args(["score", "--quiet", "--layout", "native", "-o"])
        .arg(&output)
        .arg(pages.path())
        .assert()
        .code(1);
    let text = std::fs::read_to_string(&output).expect("read");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("good.html"), "{text}");
    assert_eq!(entries(out_dir.path()), ["scores.jsonl"]);
}
