//! The native layout keeps one font collection for all pages of a process (each script's
//! fallback fonts filled in once): a page's boxes must not depend on which pages came before it,
//! and a page that overran its budget must not cost the next one. Real pages: two news pages
//! of the shared sets (lists, links, CSS-less 2008 markup and a modern one with a web root).

use std::path::Path;
use std::time::Duration;

use pagelevel::layout::{Layout, VIEWPORT};
use pagelevel::page::{Page, PageSource, ParseLimits};
use pagelevel::render::{NativeBudget, NativeLayoutError, lay_out_native, lay_out_native_within};

const NEWS_2008: &str =
    "../shared/datasets/labeled/l3s-gn1/original/01ccc7c5-a1d1-46e1-a5f7-43310df16575.html";
const NEWS_MODERN: &str = "../shared/datasets/labeled/dragnet/HTML/304.html";
const EXAMPLE_WITH_CSS: &str = "datasets/example/gnu.org/index.html";

fn parsed(relative: &str) -> (Page, PageSource) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let source = PageSource::from_file(&path, None).expect("the page exists");
    let page = Page::parse(
        &source.bytes,
        source.url.clone(),
        None,
        &ParseLimits::default(),
    )
    .expect("the page parses");
    (page, source)
}

fn lay_out(relative: &str) -> Layout {
    let (page, source) = parsed(relative);
    lay_out_native(&page, &source, VIEWPORT).expect("the page lays out")
}

/// Boxes and page size, compared exactly: the same engine on the same page gives the same
/// floating-point numbers, whatever ran before.
fn assert_same_layout(first: &Layout, second: &Layout, page: &str) {
    assert_eq!(first.boxes, second.boxes, "{page}: boxes differ");
    assert_eq!(
        first.unpainted, second.unpainted,
        "{page}: painted elements differ"
    );
    assert_eq!(
        (first.page_width, first.page_height),
        (second.page_width, second.page_height),
        "{page}: page size differs"
    );
}

#[test]
fn a_pages_boxes_do_not_depend_on_the_pages_laid_out_before_it() {
    // Each page first on a thread of its own: nothing came before it.
    let alone: Vec<Layout> = [NEWS_2008, NEWS_MODERN, EXAMPLE_WITH_CSS]
        .into_iter()
        .map(|page| std::thread::spawn(move || lay_out(page)).join().unwrap())
        .collect();
    // Then all of them in a row on one thread, twice, in two orders.
    let in_a_row = [
        EXAMPLE_WITH_CSS,
        NEWS_2008,
        NEWS_MODERN,
        NEWS_2008,
        EXAMPLE_WITH_CSS,
    ]
    .map(lay_out);
    assert!(alone[0].boxes.iter().flatten().count() > 100);
    assert_same_layout(&alone[0], &in_a_row[1], NEWS_2008);
    assert_same_layout(&alone[0], &in_a_row[3], NEWS_2008);
    assert_same_layout(&alone[1], &in_a_row[2], NEWS_MODERN);
    assert_same_layout(&alone[2], &in_a_row[0], EXAMPLE_WITH_CSS);
    assert_same_layout(&alone[2], &in_a_row[4], EXAMPLE_WITH_CSS);
}

#[test]
fn a_page_that_overran_its_budget_does_not_cost_the_next_page() {
    let before = lay_out(NEWS_2008);
    let (page, source) = parsed(NEWS_MODERN);
    let budget = NativeBudget {
        time: Duration::from_nanos(1),
        ..NativeBudget::default()
    };
    let overrun = lay_out_native_within(&page, &source, VIEWPORT, &budget);
    assert!(
        matches!(overrun, Err(NativeLayoutError::TimedOut { .. })),
        "no page lays out in a nanosecond: {overrun:?}"
    );
    // The stopped page leaves nothing behind: the next page gets its own budget and the
    // same boxes as before.
    let after = lay_out(NEWS_2008);
    assert_same_layout(&before, &after, NEWS_2008);
}
