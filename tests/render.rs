//! Rendering real and hostile pages in headless Chromium (needs Debian's `chromium`).

mod common;

use common::start_black_hole;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use pagelevel::layout::LaidOutPage;
use pagelevel::page::NodeId;
use pagelevel::page::PageSource;
use pagelevel::render::{RenderOptions, Renderer};

fn datasets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets")
}

fn renderer(options: RenderOptions) -> Renderer {
    Renderer::new(options).expect("chromium is installed (run the README's test command)")
}

fn element_with(rendered: &LaidOutPage, attribute: &str, value: &str) -> NodeId {
    let dom = &rendered.page.dom;
    dom.ids()
        .find(|&id| {
            dom.element(id)
                .attribute(attribute)
                .is_some_and(|found| found.split_whitespace().any(|token| token == value))
        })
        .unwrap_or_else(|| panic!("no element with {attribute}={value}"))
}

fn hostile_page(port: u16, directory: &Path) -> PathBuf {
    let template = include_str!("fixtures/hostile.html");
    let path = directory.join("hostile.html");
    std::fs::write(&path, template.replace("{PORT}", &port.to_string())).expect("write page");
    path
}

#[test]
fn documentation_pages_render_with_their_stylesheets_and_every_element_gets_its_box() {
    let mut renderer = renderer(RenderOptions::default());
    let page = datasets().join("sites/python3-docs-sphinx/index.html");
    let rendered = renderer
        .render(&PageSource::from_file(&page, None).expect("read"))
        .expect("renders");
    assert_eq!(rendered.layout.boxes.len(), rendered.page.dom.len());
    assert_eq!(rendered.layout.viewport.width, 1280);
    // The theme's CSS floats the sidebar into a narrow column; unstyled it would span the page.
    let sidebar = element_with(&rendered, "class", "sphinxsidebar");
    let sidebar_box = rendered
        .layout_box(sidebar)
        .expect("the sidebar is laid out");
    assert!(sidebar_box.width < 400.0, "sidebar {sidebar_box:?}");
    // <head> content has no box; the root spans the page.
    let head = rendered.page.dom.first_with_tag("head").expect("head");
    assert!(rendered.layout_box(head).is_none());
    let root = rendered.layout_box(NodeId(0)).expect("root box");
    assert_eq!(root.width, 1280.0);
    assert!(
        renderer.gate().served_requests() >= 1,
        "the stylesheets came through the gate"
    );
}

#[test]
fn kreuzer_pages_find_their_css_through_the_base_href_and_news_pages_render_unstyled() {
    let mut renderer = renderer(RenderOptions::default());
    let page = datasets().join("labeled/kreuzer/popular-www.alistapart.com/index.blocks.html");
    let mut source = PageSource::from_file(&page, None).expect("read");
    let unstyled = renderer.render(&source).expect("renders");
    source.base_href = Some("assets/www.alistapart.com/".into());
    let styled = renderer.render(&source).expect("renders");
    let body = styled.page.dom.first_with_tag("body").expect("body");
    // The site's CSS removes the browser's default 8px body margin.
    assert_eq!(styled.layout_box(body).expect("body box").x, 0.0);
    assert_eq!(unstyled.layout_box(body).expect("body box").x, 8.0);

    let news =
        datasets().join("labeled/l3s-gn1/original/01ccc7c5-a1d1-46e1-a5f7-43310df16575.html");
    let rendered = renderer
        .render(&PageSource::from_file(&news, None).expect("read"))
        .expect("renders");
    let laid_out = rendered.layout.boxes.iter().filter(|b| b.is_some()).count();
    assert!(laid_out > 100, "only {laid_out} boxes");
    assert!(rendered.layout.page_height > 1024.0);
}

#[test]
fn a_hostile_page_renders_in_seconds_and_no_request_reaches_its_server() {
    let (port, connections) = start_black_hole();
    let directory = tempfile::tempdir().expect("temp dir");
    let page = hostile_page(port, directory.path());
    let mut renderer = renderer(RenderOptions::default());
    let started = Instant::now();
    let rendered = renderer
        .render(&PageSource::from_file(&page, None).expect("read"))
        .expect("renders despite its resources");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    let headline = element_with(&rendered, "id", "headline");
    assert!(rendered.layout_box(headline).is_some());
    let img = rendered.page.dom.first_with_tag("img").expect("img");
    assert_eq!(rendered.layout_box(img).expect("img box").width, 300.0);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        connections.load(Ordering::SeqCst),
        0,
        "a request reached the server"
    );
    assert!(
        renderer.gate().refused_requests() > 0,
        "the gate saw and refused the requests"
    );
}

#[test]
fn with_javascript_on_an_endless_script_fails_its_page_once_and_the_next_page_gets_a_new_browser() {
    let (port, connections) = start_black_hole();
    let directory = tempfile::tempdir().expect("temp dir");
    let hostile = hostile_page(port, directory.path());
    let mut renderer = renderer(RenderOptions {
        javascript: true,
        call_timeout: Duration::from_secs(3),
        ..RenderOptions::default()
    });
    let started = Instant::now();
    let error = renderer
        .render(&PageSource::from_file(&hostile, None).expect("read"))
        .expect_err("an endless script cannot be measured");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "took {:?}",
        started.elapsed()
    );
    assert!(error.to_string().contains("browser"), "{error}");
    // A hung page hangs any browser: trying it again would double what it costs a batch.
    assert_eq!(
        renderer.browser_launches(),
        1,
        "the hung page was not tried again"
    );
    let good = datasets().join("sites/octave-manual-texinfo/index.html");
    let good = if good.exists() {
        good
    } else {
        first_html(&datasets().join("sites/octave-manual-texinfo"))
    };
    let rendered = renderer
        .render(&PageSource::from_file(&good, None).expect("read"))
        .expect("the browser was relaunched");
    assert!(rendered.layout_box(NodeId(0)).is_some());
    assert_eq!(
        renderer.browser_launches(),
        2,
        "the next page got a new browser"
    );
    assert_eq!(connections.load(Ordering::SeqCst), 0);
}

fn first_html(directory: &Path) -> PathBuf {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(directory)
        .expect("list")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    pages.remove(0)
}

#[test]
fn a_browser_connection_dropped_while_idle_is_relaunched_without_failing_the_page() {
    // The default call timeout, so that no call of a slow machine comes near it; the idle
    // period is then longer than it, with room to spare.
    let options = RenderOptions::default();
    let idle = options.call_timeout + Duration::from_secs(5);
    let mut renderer = renderer(options);
    let page = first_html(&datasets().join("sites/postgresql-docs-docbook"));
    let source = PageSource::from_file(&page, None).expect("read");
    renderer.render(&source).expect("renders");
    // headless_chrome closes a connection idle for the call timeout.
    std::thread::sleep(idle);
    let again = renderer
        .render(&source)
        .expect("renders after the idle period");
    assert!(again.layout_box(NodeId(0)).is_some());
    assert_eq!(
        renderer.browser_launches(),
        2,
        "the closed connection was found and the browser relaunched"
    );
}

#[test]
fn a_cached_layout_is_reused_and_matches_a_fresh_render() {
    let cache = tempfile::tempdir().expect("temp dir");
    let options = RenderOptions {
        cache: Some(pagelevel::render::LayoutCache::new(cache.path())),
        ..RenderOptions::default()
    };
    let page = datasets().join("sites/postgresql-docs-docbook");
    let page = first_html(&page);
    let source = PageSource::from_file(&page, None).expect("read");
    let mut renderer = renderer(options);
    let fresh = renderer.render(&source).expect("renders");
    let cached = renderer.render(&source).expect("renders");
    assert!(!fresh.from_cache);
    assert!(cached.from_cache);
    assert_eq!(fresh.layout, cached.layout);
}
