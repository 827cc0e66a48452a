//! Streaming input and output of `pagelevel score`: JSON lines or raw HTML on standard input,
//! WARC files read record by record, `--output-fields`. Native layout keeps these fast.

mod common;

use common::{example_page, pagelevel, refused, score_warc_bytes, succeed, warc_of, warc_response};

fn lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[test]
fn json_lines_on_standard_input_come_out_in_order_and_a_bad_line_fails_alone() {
    let html = std::fs::read_to_string(example_page()).expect("example page");
    let input = format!(
        "{}\n{{\"url\": 5}}\n\n{}\n",
        serde_json::json!({"url": "https://www.gnu.org/", "html": html}),
        serde_json::json!({"html": "<html><body><p>A second page, with no URL.</p></body></html>"}),
    );
    let cache = tempfile::tempdir().expect("temp dir");
    let output = pagelevel(cache.path())
        .args(["score", "--layout", "native", "--jobs", "2", "-"])
        .write_stdin(input)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "one record failed");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("standard input line 2"), "{stderr}");
    let pages = lines(&output.stdout);
    assert_eq!(pages.len(), 2);
    assert_eq!(pages[0]["url"], "https://www.gnu.org/");
    assert!(
        pages[0]["main_text"]
            .as_str()
            .is_some_and(|text| text.contains("GNU is a Unix-like operating system"))
    );
    assert!(pages[1]["url"].is_null());
    assert!(
        pages[1]["main_text"]
            .as_str()
            .is_some_and(|text| text.contains("A second page"))
    );
}

#[test]
fn raw_html_on_standard_input_is_one_page() {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(
        pagelevel(cache.path())
            .args([
                "score",
                "--layout",
                "native",
                "--stdin-html",
                "--format",
                "main",
                "-",
            ])
            .write_stdin(std::fs::read(example_page()).expect("example page")),
    );
    let main = String::from_utf8_lossy(&output.stdout);
    assert!(
        main.contains("GNU is a Unix-like operating system"),
        "{main}"
    );
}

#[test]
fn output_fields_keep_the_named_fields_in_the_named_order() {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(
        pagelevel(cache.path())
            .args(["score", "--layout", "native", "--format", "jsonl"])
            .args(["--output-fields", "url,template_text_share,main_text"])
            .arg(example_page()),
    );
    let line = String::from_utf8_lossy(&output.stdout);
    assert!(line.starts_with("{\"url\":"), "{line}");
    let page: serde_json::Value = serde_json::from_str(line.trim()).expect("JSON");
    let keys: Vec<&String> = page.as_object().expect("object").keys().collect();
    assert_eq!(keys.len(), 3, "{line}");
    let stderr = refused(
        pagelevel(cache.path())
            .args(["score", "--layout", "native", "--output-fields", "url,body"])
            .arg(example_page()),
    );
    assert!(
        stderr.contains("`body`") && stderr.contains("main_text"),
        "{stderr}"
    );
}

#[test]
fn a_warc_cut_inside_a_record_scores_the_pages_before_the_cut_then_reports_it() {
    let html = std::fs::read(example_page()).expect("example page");
    let records: Vec<(String, Vec<u8>)> = (1..=3)
        .map(|n| (format!("https://www.gnu.org/{n}.html"), html.clone()))
        .collect();
    let mut warc = warc_of(&records);
    warc.truncate(warc.len() - html.len() / 2);
    let output = score_warc_bytes(
        "cut.warc",
        &warc,
        &["--layout", "native", "--format", "jsonl"],
    );
    assert_eq!(output.status.code(), Some(1));
    let pages = lines(&output.stdout);
    assert_eq!(pages.len(), 2, "the two whole records are scored");
    assert_eq!(pages[1]["url"], "https://www.gnu.org/2.html");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cut.warc") && stderr.contains("record 3"),
        "{stderr}"
    );
}

#[test]
fn records_of_a_warc_that_cannot_be_read_as_pages_are_each_reported_and_the_rest_scored() {
    let html = std::fs::read(example_page()).expect("example page");
    let good = |n: u32| warc_of(&[(format!("https://www.gnu.org/{n}.html"), html.clone())]);
    let mut warc = good(1);
    // A crawler's malformed status line, as the Spark jobs also meet it.
    warc.extend(warc_response(
        "https://www.gnu.org/2.html",
        &[
            b"HTTP/1.1 two hundred\r\nContent-Type: text/html\r\n\r\n".as_slice(),
            &html,
        ]
        .concat(),
    ));
    // A record header line that is not `Name: value`: the record is skipped.
    warc.extend(b"WARC/1.0\r\nWARC-Type response\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n");
    warc.extend(good(4));
    // An encoding no reader here undoes.
    warc.extend(warc_response(
        "https://www.gnu.org/5.html",
        &[
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\n\r\n"
                .as_slice(),
            b"\x1b\x00",
        ]
        .concat(),
    ));
    warc.extend(good(6));
    let output = score_warc_bytes(
        "mixed.warc",
        &warc,
        &["--format", "jsonl", "--output-fields", "url"],
    );
    assert_eq!(output.status.code(), Some(1), "some records failed");
    let urls: Vec<serde_json::Value> = lines(&output.stdout)
        .into_iter()
        .map(|page| page["url"].clone())
        .collect();
    assert_eq!(
        urls,
        ["1", "4", "6"].map(|n| serde_json::json!(format!("https://www.gnu.org/{n}.html"))),
        "every readable page is scored"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    for told in [
        "mixed.warc: record 2",
        "https://www.gnu.org/2.html, cannot be read as a page: the HTTP response head has no valid status line",
        "mixed.warc: record 3",
        "is damaged and was skipped",
        "https://www.gnu.org/5.html, cannot be read as a page: the body's content encoding \"br\" is not supported",
    ] {
        assert!(stderr.contains(told), "{told:?} not in {stderr}");
    }
}
