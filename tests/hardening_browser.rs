//! A browser call that takes longer than `--timeout` is reported as a timeout, with the limit.

mod common;

use common::pagelevel;
use predicates::prelude::*;

#[test]
fn a_page_that_hangs_the_browser_is_reported_as_a_timeout_after_the_limit() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    let page = pages.path().join("loop.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><body><p>hi</p><script>for(;;){}</script></body></html>",
    )
    .expect("write");
    pagelevel(cache.path())
        .args(["render", "--no-cache", "--javascript", "--timeout", "2"])
        .arg(&page)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("timed out after 2 s")
                .and(predicate::str::contains("never came").not()),
        );
}
