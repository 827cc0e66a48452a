//! A native layout over its time budget stops: the page fails as timed out and nothing of its
//! layout keeps running. Alone in its test binary, so the process's threads and CPU time are
//! this test's own.

use std::time::{Duration, Instant};

use pagelevel::layout::VIEWPORT;
use pagelevel::page::{Page, PageSource, ParseLimits};
use pagelevel::render::{LayoutStage, NativeBudget, NativeLayoutError, lay_out_native_within};

/// A page of `divs` one-word blocks: 20,000 take about 0.6 s to lay out on a 2-core machine,
/// 0.1 s of it parsing and styling.
fn page_of_divs(divs: usize) -> String {
    format!(
        "<!DOCTYPE html><body>{}</body>",
        "<div>x</div>".repeat(divs)
    )
}

fn threads_of_this_process() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc is mounted")
        .count()
}

/// User + system CPU time this process has used, in clock ticks.
fn cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc is mounted");
    // Fields after the command name (which may hold spaces) start after its closing ')'.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..]
        .split_whitespace()
        .collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn a_layout_over_its_time_budget_stops_and_leaves_no_thread_or_work_behind() {
    let html = page_of_divs(20_000);
    let source = PageSource::from_bytes(html.into_bytes(), None, None);
    let page = Page::parse(&source.bytes, None, None, &ParseLimits::default()).unwrap();
    // A page laid out first, so that whatever a layout keeps between pages is there before
    // counting.
    let warm_up = PageSource::from_bytes(b"<!DOCTYPE html><p>warm</p>".to_vec(), None, None);
    let warm_page = Page::parse(&warm_up.bytes, None, None, &ParseLimits::default()).unwrap();
    lay_out_native_within(&warm_page, &warm_up, VIEWPORT, &NativeBudget::default()).unwrap();
    let threads_before = threads_of_this_process();

    let budget = NativeBudget {
        time: Duration::from_millis(20),
        ..NativeBudget::default()
    };
    let started = Instant::now();
    let error = lay_out_native_within(&page, &source, VIEWPORT, &budget).unwrap_err();
    let returned_after = started.elapsed();

    let NativeLayoutError::TimedOut {
        budget: reported,
        stopped_after,
        ..
    } = error
    else {
        panic!("expected a timeout, got {error}");
    };
    assert_eq!(reported, Duration::from_millis(20));
    // 20 ms run out while the page is parsed or styled; the box layout (most of the work)
    // never starts.
    assert_ne!(stopped_after, LayoutStage::LayingOut, "stopped too late");
    assert!(
        error_message_names_the_stage(stopped_after),
        "the message names where the layout stopped"
    );
    assert_eq!(
        threads_of_this_process(),
        threads_before,
        "the layout thread is gone when the call returns ({returned_after:?})"
    );
    let ticks = cpu_ticks();
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        cpu_ticks() - ticks <= 5,
        "nothing runs on after the timeout (CPU time grew by {} ticks in 0.5 s)",
        cpu_ticks() - ticks
    );
}

fn error_message_names_the_stage(stage: LayoutStage) -> bool {
    let error = NativeLayoutError::TimedOut {
        budget: Duration::from_secs(1),
        stopped_after: stage,
        stopped_at: Duration::from_millis(1500),
    };
    let message = error.to_string();
    message.contains("longer than 1 s") && message.contains(stage.name())
}
