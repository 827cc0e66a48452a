//! `pagelevel score` reports what a page says about itself: its headline without the site's
//! name, its author, date, language and site, each with where it came from — on real pages of
//! the Readability set, as a user reads them from JSON lines.

mod common;

use std::path::PathBuf;

use common::{datasets, pagelevel, succeed};
use serde_json::Value;

fn readability_page(name: &str) -> PathBuf {
    datasets().join(format!("labeled/readability/pages/{name}.html"))
}

/// The `metadata` object of each page, in the order given.
fn metadata_of(pages: &[&str]) -> Vec<Value> {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(
        pagelevel(cache.path())
            .args([
                "score",
                "--format",
                "jsonl",
                "--output-fields",
                "url,metadata",
            ])
            .args(pages.iter().map(|name| readability_page(name))),
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).expect("one JSON object a line")["metadata"].clone()
        })
        .collect()
}

#[test]
fn news_articles_give_their_headline_author_date_language_and_site() {
    // Development pages of the Readability set (never its test pages).
    let [aktualne, cnet] =
        <[Value; 2]>::try_from(metadata_of(&["aktualne", "cnet"])).expect("two pages");
    assert_eq!(
        aktualne["title"],
        "West Ham hrozí gigantům, okouzlil i Linekera. Součka je snadné přehlédnout",
        "the headline without `| Aktuálně.cz`"
    );
    assert_eq!(aktualne["author"], "Aleš Vávra");
    assert_eq!(aktualne["published"], "2021-11-01T10:52:50+01:00");
    assert_eq!(aktualne["language"], "cs");
    assert_eq!(aktualne["site_name"], "Aktuálně.cz");
    assert_eq!(aktualne["sources"]["title"], "json-ld");
    assert_eq!(aktualne["sources"]["language"], "html-lang");

    assert_eq!(
        cnet["title"],
        "Zuckerberg offers peek at Facebook's acquisition strategies"
    );
    assert_eq!(cnet["author"], "Steven Musil");
    assert_eq!(cnet["published"], "2017-01-18T23:00:00-08:00");
    assert_eq!(cnet["site_name"], "CNET");
    assert!(
        cnet["canonical_url"]
            .as_str()
            .is_some_and(|url| url.starts_with("https://www.cnet.com/news/")),
        "an absolute canonical URL"
    );
    for field in ["title", "author", "published", "language", "site_name"] {
        assert!(
            cnet["sources"][field].is_string(),
            "{field} names its source"
        );
    }
}
