//! Streaming input and output of `pagelevel score`: JSON lines or raw HTML on standard input,
//! WARC files read record by record, `--output-fields`. Native layout keeps these fast.

mod common;

use common::{example_page, pagelevel, refused, succeed, warc_of};

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
    let work = tempfile::tempdir().expect("temp dir");
    let path = work.path().join("cut.warc");
    std::fs::write(&path, warc).expect("write");
    let cache = tempfile::tempdir().expect("temp dir");
    let output = pagelevel(cache.path())
        .args(["score", "--layout", "native", "--format", "jsonl"])
        .arg(&path)
        .output()
        .expect("runs");
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
