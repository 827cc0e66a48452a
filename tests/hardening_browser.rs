//! A browser call that takes longer than `--timeout` (render, score) is reported as a timeout,
//! with the limit; a `--timeout` that is not a sensible number of seconds is refused.

mod common;

use std::path::{Path, PathBuf};

use common::pagelevel;
use predicates::prelude::*;

/// A page whose script never ends: with `--javascript` it hangs the browser.
fn endless_script_page(directory: &Path) -> PathBuf {
    let page = directory.join("loop.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><body><p>hi</p><script>for(;;){}</script></body></html>",
    )
    .expect("write");
    page
}

#[test]
fn a_page_that_hangs_the_browser_is_reported_as_a_timeout_after_the_limit() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    let page = endless_script_page(pages.path());
    pagelevel(cache.path())
        .args([
            "render",
            "--layout",
            "chromium",
            "--no-cache",
            "--javascript",
            "--timeout",
            "2",
        ])
        .arg(&page)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("timed out after 2 s")
                .and(predicate::str::contains("never came").not()),
        );
}

#[test]
fn score_takes_a_timeout_and_a_page_that_hangs_the_browser_fails_after_it() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    let page = endless_script_page(pages.path());
    pagelevel(cache.path())
        .args([
            "score",
            "--layout",
            "chromium",
            "--no-cache",
            "--javascript",
        ])
        .args(["--timeout", "2"])
        .arg(&page)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("timed out after 2 s"));
}

#[test]
fn a_timeout_that_is_not_a_sensible_number_of_seconds_is_refused() {
    let cache = tempfile::tempdir().expect("temp dir");
    for timeout in ["0", "-3", "inf", "NaN", "soon"] {
        pagelevel(cache.path())
            .args([
                "score",
                "--layout",
                "native",
                &format!("--timeout={timeout}"),
                "x.html",
            ])
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains("invalid value")
                    .and(predicate::str::contains("--timeout <SECONDS>")),
            );
    }
}
