//! Scoring without a browser: from a snapshot saved by `pagelevel render`, and from boxes a
//! library caller supplies, with no Chromium reachable (PATH empty, `PAGELEVEL_CHROMIUM`
//! pointing nowhere).

mod common;

use common::{example_page, pagelevel, refused, succeed, without_chromium};
use pagelevel::prelude::*;

#[test]
fn a_page_scores_from_its_saved_snapshot_as_from_the_browser_with_no_chromium_reachable() {
    let cache = tempfile::tempdir().expect("temp dir");
    let work = tempfile::tempdir().expect("temp dir");
    let snapshot = work.path().join("snap.json");
    succeed(
        pagelevel(cache.path())
            .args(["render", "--no-cache", "-o"])
            .arg(&snapshot)
            .arg(example_page()),
    );
    let browser = succeed(
        pagelevel(cache.path())
            .args(["score", "--format", "jsonl"])
            .arg(example_page()),
    );
    let from_snapshot = succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--format", "jsonl", "--snapshot"])
            .arg(&snapshot)
            .arg(example_page()),
    );
    let line = |bytes: &[u8]| -> serde_json::Value {
        serde_json::from_slice(bytes).expect("one JSON line")
    };
    let (browser, from_snapshot) = (line(&browser.stdout), line(&from_snapshot.stdout));
    assert!(
        from_snapshot["main_text"]
            .as_str()
            .is_some_and(|text| text.contains("GNU is a Unix-like operating system")),
        "{from_snapshot}"
    );
    for field in ["main_text", "content_text", "sections", "threshold"] {
        assert_eq!(browser[field], from_snapshot[field], "{field} differs");
    }
}

#[test]
fn a_snapshot_of_another_page_is_refused_naming_the_snapshot() {
    let cache = tempfile::tempdir().expect("temp dir");
    let work = tempfile::tempdir().expect("temp dir");
    let other = work.path().join("other.html");
    std::fs::write(&other, "<html><body><p>Another page</p></body></html>").expect("write");
    let snapshot = work.path().join("snap.json");
    succeed(
        pagelevel(cache.path())
            .args(["render", "-o"])
            .arg(&snapshot)
            .arg(&other),
    );
    let stderr = refused(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--snapshot"])
            .arg(&snapshot)
            .arg(example_page()),
    );
    assert!(
        stderr.contains("snap.json") && stderr.contains("another page"),
        "{stderr}"
    );
}

#[test]
fn without_a_snapshot_the_missing_browser_is_a_clear_error() {
    let cache = tempfile::tempdir().expect("temp dir");
    let stderr = refused(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--layout", "chromium", "--no-cache"])
            .arg(example_page()),
    );
    assert!(stderr.contains("Chromium not found"), "{stderr}");
}

/// Runs in a child process with no Chromium reachable (see the test below).
#[test]
fn supplied_boxes_score_with_the_library_alone() {
    if std::env::var_os("PAGELEVEL_NO_BROWSER_CHILD").is_none() {
        return; // the parent test runs this one in a child without Chromium
    }
    let bytes = std::fs::read(example_page()).expect("read the example page");
    let source = PageSource::from_bytes(bytes, None, None);
    let page = Page::parse(&source.bytes, None, None, &ParseLimits::default()).expect("parses");
    // A stacked layout: each element a full-width band below the previous one.
    let boxes = page
        .dom
        .ids()
        .map(|id| {
            let depth = f64::from(page.dom.element(id).depth);
            Some(LayoutBox {
                x: depth,
                y: 20.0 * f64::from(id.0),
                width: 1280.0 - 2.0 * depth,
                height: 400.0,
            })
        })
        .collect();
    let layout = Layout {
        boxes,
        unpainted: Vec::new(),
        page_width: 1280.0,
        page_height: 20.0 * page.dom.len() as f64 + 400.0,
        viewport: VIEWPORT,
    };
    let model = TemplateModel::builtin().expect("model");
    let mut scorer = Scorer::new(model, SuppliedLayout(layout), ValidParams::default());
    let scored = scorer.score(&source).expect("scores");
    assert_eq!(scored.segmented.nodes.len(), page.dom.len());
    assert!(!scored.segmented.content_text.is_empty());
    assert!(!scored.extracted.main_text.is_empty());
}

#[test]
fn the_library_scores_supplied_boxes_in_a_process_that_cannot_find_chromium() {
    let me = std::env::current_exe().expect("test binary");
    let output = std::process::Command::new(me)
        .args(["--exact", "supplied_boxes_score_with_the_library_alone"])
        .env("PAGELEVEL_NO_BROWSER_CHILD", "1")
        .env("PATH", "")
        .env("PAGELEVEL_CHROMIUM", "/nonexistent/chromium")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_native_layout_scores_a_page_with_no_chromium_reachable() {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--layout", "native", "--format", "main"])
            .arg(example_page()),
    );
    let main = String::from_utf8_lossy(&output.stdout);
    assert!(
        main.contains("GNU is a Unix-like operating system"),
        "{main}"
    );
    assert!(
        !main.contains("Copyright Infringement Notification"),
        "{main}"
    );
}

#[test]
fn a_native_snapshot_scores_back_like_the_native_layout() {
    let cache = tempfile::tempdir().expect("temp dir");
    let work = tempfile::tempdir().expect("temp dir");
    let snapshot = work.path().join("native.json");
    succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["render", "--layout", "native", "-o"])
            .arg(&snapshot)
            .arg(example_page()),
    );
    let score = |extra: &[&str]| -> serde_json::Value {
        let output = succeed(
            without_chromium(&mut pagelevel(cache.path()))
                .args(["score", "--format", "jsonl"])
                .args(extra)
                .arg(example_page()),
        );
        serde_json::from_slice(&output.stdout).expect("one JSON line")
    };
    let native = score(&["--layout", "native"]);
    let snapshot = score(&["--snapshot", snapshot.to_str().expect("utf-8 path")]);
    assert_eq!(native["main_text"], snapshot["main_text"]);
    assert_eq!(native["sections"], snapshot["sections"]);
}

#[test]
fn the_native_layout_opens_no_connection_even_to_loopback() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().expect("address").port();
    listener.set_nonblocking(true).expect("non-blocking");
    let work = tempfile::tempdir().expect("temp dir");
    let page = work.path().join("page.html");
    let remote = format!("http://127.0.0.1:{port}");
    std::fs::write(
        &page,
        format!(
            "<html><head><link rel=stylesheet href='{remote}/a.css'>\
             <style>@import url('{remote}/b.css'); body {{ background: url('{remote}/c.png') }}</style>\
             </head><body><img src='{remote}/d.png'><iframe src='{remote}/e.html'></iframe>\
             <p>Text of a page whose every resource is on a server that counts connections.</p>\
             </body></html>"
        ),
    )
    .expect("write");
    let cache = tempfile::tempdir().expect("temp dir");
    succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--layout", "native"])
            .arg(&page),
    );
    let mut connections = 0;
    while listener.accept().is_ok() {
        connections += 1;
    }
    assert_eq!(connections, 0, "the native layout reached the network");
}

#[test]
fn a_model_trained_on_chromium_layouts_refuses_native_boxes_unless_forced() {
    let cache = tempfile::tempdir().expect("temp dir");
    let chromium_model =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/chromium.json");
    let stderr = refused(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--layout", "native", "--model"])
            .arg(&chromium_model)
            .arg(example_page()),
    );
    assert!(
        stderr.contains("trained on chromium layouts") && stderr.contains("--force"),
        "{stderr}"
    );
    succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--layout", "native", "--force", "--model"])
            .arg(&chromium_model)
            .arg(example_page()),
    );
}

#[test]
fn layout_none_needs_a_model_of_its_own_and_scores_with_no_engine() {
    let cache = tempfile::tempdir().expect("temp dir");
    let stderr = refused(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--layout", "none"])
            .arg(example_page()),
    );
    assert!(
        stderr.contains("no model ships for --layout none"),
        "{stderr}"
    );
    let chromium_model =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/chromium.json");
    let output = succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args([
                "score", "--layout", "none", "--force", "--format", "jsonl", "--model",
            ])
            .arg(&chromium_model)
            .arg(example_page()),
    );
    let page: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert!(
        page["content_text"]
            .as_str()
            .is_some_and(|text| !text.is_empty())
    );
}
