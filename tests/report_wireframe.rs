//! The HTML report with native layout, the default: no browser anywhere, the page drawn from its
//! layout boxes — blocks, frames, links and the page's own text where it sits — under the
//! section outlines, on real pages; and a hostile page's text shown as text, never as markup.

mod common;

use std::path::{Path, PathBuf};

use common::{datasets, example_page, pagelevel, succeed, without_chromium};
use pagelevel::page::{NodeId, Page, ParseLimits};

/// One drawn element of a report's wireframe: its class, its place (report px) and its text.
#[derive(Debug)]
struct Drawn {
    class: String,
    place: [f64; 4],
    text: String,
}

/// A report as its reader's browser would parse it.
struct Report {
    page: Page,
}

impl Report {
    fn read(path: &Path) -> Report {
        let bytes = std::fs::read(path).expect("the report is written");
        let limits = ParseLimits {
            max_bytes: 64 << 20,
            ..ParseLimits::default()
        };
        Report {
            page: Page::parse(&bytes, None, None, &limits).expect("the report parses"),
        }
    }

    fn with_class(&self, class: &str) -> Option<NodeId> {
        let dom = &self.page.dom;
        dom.ids()
            .find(|&id| dom.element(id).attribute("class") == Some(class))
    }

    /// The wireframe's drawn elements, in order.
    fn drawing(&self) -> Vec<Drawn> {
        let dom = &self.page.dom;
        let wireframe = self.with_class("wireframe").expect("a wireframe is drawn");
        dom.element_children(wireframe)
            .map(|id| {
                let element = dom.element(id);
                let style = element.attribute("style").unwrap_or_default();
                let number = |name: &str| -> f64 {
                    style
                        .split(';')
                        .find_map(|declaration| declaration.strip_prefix(&format!("{name}:")))
                        .and_then(|value| value.strip_suffix("px"))
                        .and_then(|value| value.parse().ok())
                        .unwrap_or_else(|| panic!("no {name} in {style:?}"))
                };
                Drawn {
                    class: element.attribute("class").unwrap_or_default().to_string(),
                    place: ["left", "top", "width", "height"].map(number),
                    text: dom.text(id),
                }
            })
            .collect()
    }
}

fn dragnet_news_page() -> PathBuf {
    datasets().join("labeled/dragnet/HTML/9.html")
}

fn docs_page() -> PathBuf {
    datasets().join("sites/django-docs-sphinx/intro/overview.html")
}

#[test]
fn a_native_report_draws_each_page_from_its_boxes_and_text_with_no_browser() {
    let (cache, out) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let pages = [
        (
            example_page(),
            "GNU is a Unix-like operating system",
            "RSS Feed",
        ),
        (
            dragnet_news_page(),
            "Michael Phelps broke the Olympic medals record",
            "iframe",
        ),
        (
            docs_page(),
            "Because Django was developed in a fast-paced newsroom environment",
            "",
        ),
    ];
    succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--quiet", "--format", "jsonl", "--report"])
            .arg(out.path())
            .args(pages.iter().map(|(page, _, _)| page)),
    );
    let mut reports: Vec<PathBuf> = std::fs::read_dir(out.path())
        .expect("the report directory")
        .map(|entry| entry.expect("entry").path())
        .collect();
    reports.sort();
    assert_eq!(reports.len(), pages.len(), "{reports:?}");
    for (path, (page, known_text, known_frame)) in reports.iter().zip(&pages) {
        let html = std::fs::read_to_string(path).expect("read");
        assert!(!html.contains("data:image/jpeg"), "no screenshot: {page:?}");
        assert!(html.contains("picture: drawn from the layout boxes"));
        let report = Report::read(path);
        let picture = report.with_class("picture").expect("the picture");
        assert!(
            report
                .page
                .dom
                .subtree(picture)
                .all(|id| report.page.dom.element(id).tag != "img"),
            "no image in the picture: {page:?}"
        );
        let drawing = report.drawing();
        let count = |class: &str| drawing.iter().filter(|d| d.class == class).count();
        let (blocks, texts, links) = (count("b"), count("t"), count("ln"));
        assert!(
            blocks >= 20 && texts >= 20 && links >= 3,
            "{page:?}: {blocks} blocks, {texts} texts, {links} link boxes"
        );
        let written: String = drawing
            .iter()
            .filter(|d| d.class.starts_with('t'))
            .map(|d| format!("{} ", d.text))
            .collect();
        assert!(written.contains(known_text), "{page:?}: {written}");
        assert!(
            report
                .page
                .dom
                .ids()
                .any(|id| report.page.dom.element(id).tag == "u"),
            "links are underlined in the text: {page:?}"
        );
        if !known_frame.is_empty() {
            assert!(
                drawing
                    .iter()
                    .any(|d| d.class.starts_with('f') && d.text == *known_frame),
                "{page:?}: no frame {known_frame}"
            );
        }
        // Everything lies on the picture: at most the screenshot's height, at 0.6 scale.
        let picture_height = 6000.0 * 0.6;
        for drawn in &drawing {
            let [left, top, width, height] = drawn.place;
            assert!(
                top >= 0.0 && top + height <= picture_height + 0.1 && width > 0.0 && left > -1.0,
                "{page:?}: {drawn:?}"
            );
        }
        // The section outlines are drawn over it, as over a screenshot.
        assert!(html.matches(r#"<div class="section"#).count() >= 3);
        // A template verdict shows on the picture whatever its colour: hatched.
        assert!(
            html.contains(r#"<div class="section template""#),
            "{page:?}"
        );
    }
}

#[test]
fn a_hostile_pages_text_is_drawn_as_text_never_as_markup() {
    let (cache, out) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let page = out.path().join("hostile.html");
    std::fs::write(
        &page,
        r#"<!DOCTYPE html><html><head><title>&lt;/title&gt;&lt;script&gt;alert(0)&lt;/script&gt;</title></head>
<body><nav><a href="/">&lt;/div&gt;&lt;img src=x onerror=alert(1)&gt;</a></nav>
<h1>Breaking &lt;script&gt;alert(2)&lt;/script&gt; news</h1>
<p>A paragraph about &lt;style&gt;body{display:none}&lt;/style&gt; and "quotes" &amp; ampersands,
long enough to be read as running text by anyone who looks at the page.</p>
<img src="missing.png" alt='"><script>alert(3)</script>' width="200" height="100">
<input value='"><script>alert(4)</script>'>
</body></html>"#,
    )
    .expect("write");
    let report_path = out.path().join("report.html");
    succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--format", "text", "--report"])
            .arg(&report_path)
            .arg(&page),
    );
    let report = Report::read(&report_path);
    let dom = &report.page.dom;
    for id in dom.ids() {
        let element = dom.element(id);
        assert!(
            !matches!(element.tag.as_str(), "script" | "img" | "iframe")
                && (element.tag != "style" || element.parent == dom.first_with_tag("head")),
            "the page's text became a <{}> element",
            element.tag
        );
        assert!(
            element
                .attributes
                .iter()
                .all(|(name, _)| !name.starts_with("on")),
            "{:?}",
            element.attributes
        );
    }
    let written: String = report
        .drawing()
        .iter()
        .map(|d| format!("{} ", d.text))
        .collect();
    for shown in [
        "</div><img src=x onerror=alert(1)>",
        "Breaking <script>alert(2)</script> news",
        "<style>body{display:none}</style> and \"quotes\" & ampersands",
        "\"><script>alert(3)</script>",
        "\"><script>alert(4)</script>",
    ] {
        assert!(written.contains(shown), "{shown:?} not drawn: {written}");
    }
}

#[test]
fn a_page_of_forty_thousand_boxes_on_one_screen_gives_a_report_of_bounded_size() {
    let (cache, out) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let page = out.path().join("grid.html");
    let cell = r#"<div style="display:inline-block;width:6px;height:6px">x</div>"#;
    std::fs::write(
        &page,
        format!("<html><body>{}</body></html>", cell.repeat(40_000)),
    )
    .expect("write");
    let report_path = out.path().join("report.html");
    succeed(
        without_chromium(&mut pagelevel(cache.path()))
            .args(["score", "--format", "jsonl", "--report"])
            .arg(&report_path)
            .arg(&page),
    );
    let size = std::fs::metadata(&report_path).expect("report").len();
    // The text panels alone hold the page's 40 000 words; the picture is capped.
    assert!(size < 3_000_000, "{size} bytes");
    let drawing = Report::read(&report_path).drawing();
    assert!(
        drawing.len() >= 1000 && drawing.len() < 40_000,
        "{}",
        drawing.len()
    );
}
