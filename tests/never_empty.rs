//! A page with visible text never fails or comes out empty (issue 21): real pages whose text a
//! layout without scripts used to hide, one per cause, scored by the binary as a user would
//! (`score --format jsonl --jobs 2`, default native layout). `training/reports/never-empty/`
//! runs the same check over every shared page.

mod common;

use std::path::{Path, PathBuf};

use common::{datasets, pagelevel};
use flate2::read::GzDecoder;

/// A sampled page, why it used to come out empty, and words of its article.
struct Case {
    page: &'static str,
    cause: &'static str,
    article: &'static str,
}

const CASES: &[Case] = &[
    Case {
        page: "labeled/readability/pages/engadget.html",
        cause: "`html { display: none }` until a script shows it (failed: no laid-out root)",
        article: "smallest console to date",
    },
    Case {
        page: "labeled/readability/pages/seattletimes-1.html",
        cause: "`body { visibility: hidden !important }`, an anti-flicker style",
        article: "halibut schooner",
    },
    Case {
        page: "labeled/wcxb-dev/html/0103.html.gz",
        cause: "AMP's boilerplate hides the body until its script or an 8 s animation",
        article: "MBA ranking reports in aggregate",
    },
    Case {
        page: "labeled/wcxb-dev/html/0503.html.gz",
        cause: "a Discourse thread: the posts are in <noscript>",
        article: "Home Assistant is starting",
    },
    Case {
        page: "labeled/wcxb-dev/html/0155.html.gz",
        cause: "React streaming: the article in <div hidden id=\"S:0\">",
        article: "SEO tutorials from industry leaders",
    },
    Case {
        page: "labeled/wcxb-dev/html/4020.html.gz",
        cause: "a wrapper faded in from `visibility: hidden`",
        article: "Machine learning is a branch of Artificial Intelligence",
    },
];

/// The page as a file `score` reads: gzipped pages decompressed into `scratch`.
fn page_file(page: &str, scratch: &Path) -> PathBuf {
    let path = datasets().join(page);
    let Some(name) = page.strip_suffix(".gz") else {
        return path;
    };
    let file = std::fs::File::open(&path).expect("the shared page");
    let mut html = Vec::new();
    std::io::Read::read_to_end(&mut GzDecoder::new(file), &mut html).expect("gzip");
    let target = scratch.join(Path::new(name).file_name().expect("a file name"));
    std::fs::write(&target, html).expect("write the page");
    target
}

/// `(url, content_text, main_text)` of every page `score` wrote, requiring it to succeed.
fn score(arguments: &[&str], pages: &[PathBuf]) -> Vec<(String, String, String)> {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = pagelevel(cache.path())
        .args(["score", "--format", "jsonl", "--jobs", "2", "--quiet"])
        .args(arguments)
        .args(pages)
        .output()
        .expect("run pagelevel");
    assert!(
        output.status.success(),
        "score failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let field = |name: &str| row[name].as_str().unwrap_or_default().to_string();
            (field("url"), field("content_text"), field("main_text"))
        })
        .collect()
}

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

#[test]
fn pages_whose_text_waits_for_scripts_keep_their_article_in_content_and_main_text() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let pages: Vec<PathBuf> = CASES
        .iter()
        .map(|case| page_file(case.page, scratch.path()))
        .collect();
    let rows = score(&[], &pages);
    assert_eq!(rows.len(), CASES.len(), "one line per page");
    for (case, (url, content, main)) in CASES.iter().zip(&rows) {
        let page_name = Path::new(case.page).file_name().expect("name");
        let page_name = page_name.to_string_lossy();
        assert!(
            url.ends_with(page_name.trim_end_matches(".gz")),
            "{url} out of order"
        );
        for (output, text) in [("content_text", content), ("main_text", main)] {
            assert!(
                words(text) >= 50 && text.contains(case.article),
                "{} ({}): {output} has {} words, without \"{}\"",
                case.page,
                case.cause,
                words(text),
                case.article
            );
        }
    }
}

/// Kreuzer's 16kg.net: a `display: table` body (with `height: 100%`) gives Blitz's blocks below
/// it no boxes (2 of 279 elements laid out); the second layout, as blocks, shows the page.
#[test]
fn a_page_whose_table_body_lays_out_nothing_still_has_content() {
    let page = datasets().join("labeled/kreuzer/random-16kg.net/index.blocks.html");
    let rows = score(&["--base-href", "assets/16kg.net/"], &[page]);
    let (_, content, main) = &rows[0];
    assert!(words(content) >= 50, "content_text: {content:?}");
    assert!(words(main) >= 50, "main_text: {main:?}");
}
