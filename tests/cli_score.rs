//! `pagelevel score` as a user runs it, on real pages: the JSON contract, the other formats,
//! the HTML report looked at in a real browser, and bad input that never takes a batch down.

mod common;

use std::path::{Path, PathBuf};

use common::{example_page, pagelevel, succeed, warc_of, warc_of_typed};
use predicates::prelude::*;
use serde_json::Value;

fn news_page() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../shared/datasets/labeled/l3s-gn1/original/01ccc7c5-a1d1-46e1-a5f7-43310df16575.html",
    )
}

fn score_json(cache: &Path, extra: &[&str]) -> Value {
    let output = succeed(
        pagelevel(cache)
            .arg("score")
            .args(extra)
            .arg(example_page()),
    );
    serde_json::from_slice(&output.stdout).expect("one JSON document")
}

#[test]
fn regions_group_the_sections_into_the_pages_few_large_blocks() {
    let cache = tempfile::tempdir().expect("temp dir");
    let page = score_json(cache.path(), &[]);
    let nodes = page["nodes"].as_array().expect("nodes");
    let id = |value: &Value| value.as_u64().expect("an element id") as usize;
    let is_within = |inner: usize, outer: usize| {
        let mut current = Some(inner);
        while let Some(node) = current {
            if node == outer {
                return true;
            }
            current = nodes[node]["parent"].as_u64().map(|parent| parent as usize);
        }
        false
    };
    let mut regions: Vec<usize> = nodes.iter().map(|node| id(&node["region"])).collect();
    for (index, &region) in regions.iter().enumerate() {
        assert!(
            is_within(index, region),
            "node {index} outside its region {region}"
        );
    }
    regions.sort_unstable();
    regions.dedup();
    let sections = page["sections"].as_array().expect("sections");
    assert!(
        (2..sections.len()).contains(&regions.len()),
        "{} regions for {} sections",
        regions.len(),
        sections.len()
    );
    for section in sections {
        assert!(regions.contains(&id(&section["region"])));
    }
    // gnu.org's footer band (copyright, licence, contact) is a region of its own.
    let footer = nodes
        .iter()
        .position(|node| node["xpath"] == "/html[1]/body[1]/div[3]/div[5]")
        .expect("the footer band");
    assert_eq!(id(&nodes[footer]["region"]), footer);
}

#[test]
fn a_report_drawn_from_boxes_frames_the_page_not_the_pictures_overflowing_it() {
    // WCXB 0595, a product page whose 2,000 px photos overflow its 1,280 px root: the frame of
    // the picture once took their width and pushed the texts beside it off the screen.
    let page = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/labeled/wcxb-dev/html/0595.html.gz");
    let (cache, out) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let report = out.path().join("report.html");
    succeed(
        pagelevel(cache.path())
            .args(["score", "--format", "text", "--report"])
            .arg(&report)
            .arg(&page),
    );
    let html = std::fs::read_to_string(&report).expect("report written");
    // The number the report writes between `before` and `after`.
    let number_between = |before: &str, after: &str| -> Option<f64> {
        html.split(before).nth(1)?.split(after).next()?.parse().ok()
    };
    let frame_width = number_between(".picture { position: relative; flex: none; width: ", "px")
        .expect("the picture's frame width");
    assert!(
        (700.0..=770.0).contains(&frame_width),
        "a frame {frame_width} px wide (the 1,280 px root at 0.6)"
    );
    let regions = number_between(" sections in ", " ").expect("the region count");
    assert!(
        regions >= 3.0,
        "{regions} regions: header, bands and footer"
    );
}

/// `score`'s JSON of a Readability page (of the development split), checked to be an article
/// with more than `least_words` words of main text, every paragraph of which is in the content
/// text.
fn scored_article_whose_main_text_is_content(name: &str, least_words: usize) -> Value {
    let page = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/labeled/readability/pages")
        .join(name);
    let cache = tempfile::tempdir().expect("dir");
    let output = succeed(pagelevel(cache.path()).args(["score"]).arg(&page));
    let scored: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert_eq!(scored["page_type"]["type"], "article");
    let content = scored["content_text"].as_str().expect("content text");
    let main = scored["main_text"].as_str().expect("main text");
    assert!(main.split_whitespace().count() > least_words, "{main}");
    for paragraph in main.split("\n\n") {
        assert!(
            content.contains(paragraph),
            "not in the content text: {paragraph}"
        );
    }
    scored
}

#[test]
fn the_main_text_of_an_article_is_always_content() {
    // Readability's quanta-1: the article's blocks are smoothed above the threshold (39 of its 45
    // main-text paragraphs were missing from the content text); the main-text model's choice
    // overrules the segmentation.
    scored_article_whose_main_text_is_content("quanta-1.html", 1000);
}

#[test]
fn what_the_main_text_of_an_article_leaves_out_is_template() {
    // Readability's cnn: an advertisement ("ADVERTISING", "inRead invented by Teads") and a
    // video teaser's countdown sit in sections smoothed under the threshold; beside an
    // article's main text they are template.
    let scored = scored_article_whose_main_text_is_content("cnn.html", 300);
    let content = scored["content_text"].as_str().expect("content text");
    for template in [
        "ADVERTISING",
        "inRead invented by Teads",
        "Your video will play in",
    ] {
        assert!(!content.contains(template), "{template} in {content}");
    }
    // A section keeps one verdict: every node of a template section is template.
    let nodes = scored["nodes"].as_array().expect("nodes");
    for section in scored["sections"].as_array().expect("sections") {
        let template = section["template"].as_bool().expect("verdict");
        for node in nodes.iter().filter(|node| node["section"] == section["id"]) {
            assert_eq!(node["template"].as_bool(), Some(template), "{node}");
        }
    }
}

#[test]
fn an_articles_picture_gallery_is_not_its_text() {
    // Readability's bug-1255978 (development): a 50-slide gallery sits between the article's
    // fifth and sixth points; a reader sees one legend at a time, and all 50 (about 2,800 words,
    // a heading each) were in the main text and its Markdown.
    let page = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/labeled/readability/pages/bug-1255978.html");
    let cache = tempfile::tempdir().expect("dir");
    let output = succeed(
        pagelevel(cache.path())
            .args(["score", "--format", "markdown"])
            .arg(&page),
    );
    let markdown = String::from_utf8(output.stdout).expect("UTF-8");
    for kept in [
        "# The seven secrets that hotel owners don't want you to know",
        "### 5\\. Beware the wall-mounted hairdryer",
        "### 6\\. Mini bars almost always lose money",
    ] {
        assert!(markdown.contains(kept), "{kept} missing from {markdown}");
    }
    for legend in ["Business news in pictures", "1/50", "United goin down"] {
        assert!(!markdown.contains(legend), "{legend} in {markdown}");
    }
}

#[test]
fn a_long_list_of_linked_names_is_not_an_articles_text() {
    // Readability's archive-of-our-own (development): under the story, one paragraph names the
    // readers who left kudos — 3,777 words, all but 11 of them links. Its length alone made it
    // likely main text, and it doubled the article (7,692 words where the story has 3,900).
    let scored = scored_article_whose_main_text_is_content("archive-of-our-own.html", 3000);
    let main = scored["main_text"].as_str().expect("main text");
    assert!(
        main.contains("Izuku was struggling to understand how he had even managed to get here"),
        "the story's first line missing from {main}"
    );
    for names in ["left kudos on this work", "StealthyPeacock, 2tarOfMyHeart"] {
        assert!(!main.contains(names), "{names} in the main text");
    }
    assert!(main.split_whitespace().count() < 4500, "{main}");
}

#[test]
fn score_gives_every_node_a_verdict_and_separates_the_gnu_article_from_the_footer() {
    let cache = tempfile::tempdir().expect("temp dir");
    let page = score_json(cache.path(), &[]);
    let nodes = page["nodes"].as_array().expect("nodes");
    let sections = page["sections"].as_array().expect("sections");
    let section_ids: Vec<u64> = sections.iter().filter_map(|s| s["id"].as_u64()).collect();
    assert_eq!(section_ids[0], 0, "the root starts the first section");
    for (index, node) in nodes.iter().enumerate() {
        assert_eq!(node["id"], index);
        for field in [
            "parent", "tag", "xpath", "box", "score", "smoothed", "template", "section",
        ] {
            assert!(node.get(field).is_some(), "node {index} lacks {field}");
        }
        assert!(section_ids.contains(&node["section"].as_u64().expect("section id")));
        if let (Some(score), Some(smoothed)) = (node["score"].as_f64(), node["smoothed"].as_f64()) {
            assert!((0.0..=1.0).contains(&score) && (0.0..=1.0).contains(&smoothed));
        }
        let parent_smoothed = node["parent"]
            .as_u64()
            .and_then(|p| nodes[p as usize]["smoothed"].as_f64());
        if let (Some(mine), Some(parent)) = (node["smoothed"].as_f64(), parent_smoothed) {
            assert!(
                mine >= parent - 1e-12,
                "node {index} smoothed below its parent"
            );
        }
    }
    assert_eq!(nodes[0]["xpath"], "/html[1]");
    for section in sections {
        for field in ["id", "score", "template", "text_chars"] {
            assert!(section.get(field).is_some(), "a section lacks {field}");
        }
    }
    let content = page["content_text"].as_str().expect("content text");
    assert!(content.contains("The GNU Project was launched in 1984 to develop the GNU system"));
    assert!(content.contains("GNU is a Unix-like operating system that is free software"));
    assert!(
        !content.contains("Copyright Infringement Notification"),
        "the footer is template"
    );
    for stage in [
        "layout",
        "parse",
        "features",
        "classify",
        "smooth",
        "segment",
        "extract",
        "total_without_layout",
    ] {
        assert!(
            page["timings_ms"][stage].as_f64().is_some(),
            "no {stage} timing"
        );
    }
}

#[test]
fn main_format_prints_the_article_without_the_language_bar_skip_links_or_footer() {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(
        pagelevel(cache.path())
            .args(["score", "--format", "main"])
            .arg(example_page()),
    );
    let main = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        main.starts_with("The GNU Operating System\n\nWhat is GNU?\n\nGNU is a Unix-like"),
        "the headline, then the article: {main}"
    );
    for boilerplate in [
        "Skip to content",
        "Deutsch [de]",
        "Copyright Infringement",
        "Accessibility",
    ] {
        assert!(!main.contains(boilerplate), "{boilerplate} in {main}");
    }
    // The same text is the JSON's main_text, beside the content text it is drawn from.
    let page = score_json(cache.path(), &[]);
    assert_eq!(page["main_text"].as_str().map(str::trim), Some(main.trim()));
    assert_eq!(page["comments"], "", "the GNU home page has no comments");
    assert_eq!(
        page["threshold"], 0.25,
        "the page has content at the default threshold"
    );
}

/// The README's first command: the bundled page's content text without its template — the
/// skip-link bar and the language bar, which the smoothing rolls into the page's root section,
/// are judged on their own (issue 23) — and with the article.
#[test]
fn the_readme_example_content_has_no_skip_link_or_language_bar_and_keeps_the_article() {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(
        pagelevel(cache.path())
            .args(["score", "--format", "text"])
            .arg(example_page()),
    );
    let content = String::from_utf8(output.stdout).expect("UTF-8");
    for template in [
        "Skip to content",
        "Accessibility",
        "Deutsch [de]",
        "English [en]",
    ] {
        assert!(!content.contains(template), "{template} in {content}");
    }
    assert!(
        content.starts_with("The GNU Operating System\n\nWhat is GNU?"),
        "{content}"
    );
    assert!(
        content
            .contains("GNU Guile is the official extension language for the GNU Operating System.")
    );
    // The skip-link bar is a section of its own, template, in the JSON too.
    let page = score_json(cache.path(), &[]);
    let skip_bar = page["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .find(|node| node["xpath"] == "/html[1]/body[1]/div[1]")
        .expect("the skip-link bar");
    assert_eq!(skip_bar["template"], true);
    assert_eq!(skip_bar["section"], skip_bar["id"]);
}

/// A Dragnet development page (a blog post with seven comments) whose article section scores
/// just above the threshold: only the comments were left as content.
#[test]
fn an_article_scored_just_above_the_threshold_is_still_the_main_text_with_comments_apart() {
    let cache = tempfile::tempdir().expect("temp dir");
    let page = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/labeled/dragnet/HTML/304.html");
    let output = succeed(pagelevel(cache.path()).arg("score").arg(&page));
    let scored: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let main = scored["main_text"].as_str().expect("main_text");
    let comments = scored["comments"].as_str().expect("comments");
    // `--format main-and-comments`: the article, then its discussion.
    let output = succeed(
        pagelevel(cache.path())
            .args(["score", "--format", "main-and-comments"])
            .arg(&page),
    );
    assert_eq!(
        String::from_utf8(output.stdout).expect("UTF-8"),
        format!("{main}\n\n{comments}\n")
    );
    assert!(
        main.starts_with("The Week: July 20, 2012\n\nRand and I are back home this week"),
        "the linked headline, then the post: {main}"
    );
    assert!(
        !main.contains("Melanie says"),
        "comments are not main text: {main}"
    );
    assert!(comments.contains("Melanie says"), "{comments}");
    assert!(comments.contains("Ho lee crap"), "{comments}");
}

#[test]
fn without_smoothing_the_smoothed_value_is_the_classifier_score() {
    let cache = tempfile::tempdir().expect("temp dir");
    let page = score_json(cache.path(), &["--no-smooth"]);
    for node in page["nodes"].as_array().expect("nodes") {
        assert_eq!(node["score"], node["smoothed"]);
    }
}

#[test]
fn text_csv_and_jsonl_formats_carry_the_same_verdicts() {
    let cache = tempfile::tempdir().expect("temp dir");
    let text = pagelevel(cache.path())
        .args(["score", "--format", "text"])
        .arg(example_page())
        .output()
        .expect("runs");
    let text = String::from_utf8(text.stdout).expect("utf-8");
    assert!(
        text.contains("\n\nThe GNU Project was launched in 1984"),
        "paragraphs are separated"
    );

    let csv = pagelevel(cache.path())
        .args(["score", "--format", "csv"])
        .arg(example_page())
        .output()
        .expect("runs");
    let csv = String::from_utf8(csv.stdout).expect("utf-8");
    let mut lines = csv.lines();
    assert!(
        lines.next().expect("header").starts_with(
            "page,id,parent,tag,xpath,x,y,width,height,score,smoothed,template,section"
        )
    );
    let json = score_json(cache.path(), &[]);
    assert_eq!(
        lines.count(),
        json["nodes"].as_array().expect("nodes").len()
    );

    let jsonl = pagelevel(cache.path())
        .args(["score", "--quiet"])
        .arg(example_page())
        .arg(news_page())
        .output()
        .expect("runs");
    assert!(jsonl.status.success());
    let lines: Vec<Value> = String::from_utf8(jsonl.stdout)
        .expect("utf-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "two pages give JSON lines by default");
    assert_eq!(lines[0]["content_text"], json["content_text"]);
    assert!(lines[1]["template_text_share"].as_f64().is_some());
}

#[test]
fn a_chromium_report_shows_the_screenshot_with_sections_outlined_in_a_real_browser() {
    use pagelevel::page::PageSource;
    use pagelevel::render::{RenderOptions, Renderer};
    let cache = tempfile::tempdir().expect("temp dir");
    let out = tempfile::tempdir().expect("temp dir");
    let report = out.path().join("report.html");
    // A cached layout must not cost the report its screenshot.
    pagelevel(cache.path())
        .args(["score", "--layout", "chromium", "--format", "text"])
        .arg(example_page())
        .assert()
        .success();
    pagelevel(cache.path())
        .args([
            "score", "--layout", "chromium", "--format", "text", "--report",
        ])
        .arg(&report)
        .arg(example_page())
        .assert()
        .success();
    let html = std::fs::read_to_string(&report).expect("report written");
    assert!(
        html.contains("data:image/jpeg;base64,"),
        "the screenshot is embedded"
    );
    // Open the report in Chromium and check what a person would see.
    let mut renderer = Renderer::new(RenderOptions {
        screenshot: true,
        ..RenderOptions::default()
    })
    .expect("chromium");
    let shown = renderer
        .render(&PageSource::from_file(&report, None).expect("read"))
        .expect("renders");
    let dom = &shown.page.dom;
    let picture = dom.first_with_tag("img").expect("screenshot img");
    let picture_box = shown.layout_box(picture).expect("the picture is laid out");
    assert!(
        picture_box.width > 700.0 && picture_box.height > 300.0,
        "{picture_box:?}"
    );
    let outlines: Vec<_> = dom
        .ids()
        .filter(|&id| {
            dom.element(id)
                .attribute("class")
                .is_some_and(|class| class.split(' ').any(|name| name == "section"))
        })
        .filter_map(|id| shown.layout_box(id))
        .collect();
    assert!(
        outlines.len() >= 5,
        "only {} section outlines",
        outlines.len()
    );
    for outline in &outlines {
        assert!(
            outline.x >= picture_box.x - 1.0
                && outline.x + outline.width <= picture_box.x + picture_box.width + 1.0
        );
    }
    // The main text is marked on the picture: its container and its paragraphs, inside it.
    let marks = |class: &str| -> Vec<_> {
        dom.ids()
            .filter(|&id| dom.element(id).attribute("class") == Some(class))
            .filter_map(|id| shown.layout_box(id))
            .collect()
    };
    let container = marks("main-container");
    assert_eq!(container.len(), 1, "one main-text container");
    let blocks = marks("main-block");
    assert!(
        blocks.len() >= 3,
        "only {} main-text paragraphs",
        blocks.len()
    );
    // The headline may sit above the container; every mark lies on the picture.
    for mark in blocks.iter().chain(&container) {
        assert!(
            mark.x >= picture_box.x - 1.0
                && mark.x + mark.width <= picture_box.x + picture_box.width + 1.0,
            "{mark:?} off the picture {picture_box:?}"
        );
    }
    // The regions, the page's few large blocks, are outlined on the picture too.
    let regions = marks("region");
    assert!(
        (3..outlines.len()).contains(&regions.len()),
        "{} regions outlined for {} sections",
        regions.len(),
        outlines.len()
    );
    for region in &regions {
        assert!(
            region.x >= picture_box.x - 1.0
                && region.x + region.width <= picture_box.x + picture_box.width + 1.0,
            "{region:?} off the picture {picture_box:?}"
        );
    }
    let side_text = dom.text(
        dom.ids()
            .find(|&id| dom.element(id).attribute("class") == Some("content main"))
            .expect("the main text panel"),
    );
    assert!(side_text.contains("What is GNU?"), "{side_text}");
    let screenshot = shown.screenshot.expect("a picture of the report");
    assert!(screenshot.len() > 20_000, "the report is not blank");
}

#[test]
fn bad_pages_in_a_batch_are_reported_by_name_and_the_rest_are_scored() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    std::fs::copy(example_page(), pages.path().join("a-good.html")).expect("copy");
    std::fs::write(pages.path().join("binary.html"), [0u8, 1, 2, 3, 255, 0, 7]).expect("write");
    std::fs::write(pages.path().join("empty.html"), b"").expect("write");
    std::fs::write(
        pages.path().join("corrupt.html.gz"),
        b"\x1f\x8b\x08 not deflate",
    )
    .expect("write");
    let huge = vec![b'a'; 50 * 1024 * 1024];
    std::fs::write(pages.path().join("huge.html"), huge).expect("write");
    let output = pagelevel(cache.path())
        .args(["score", "--format", "jsonl"])
        .arg(pages.path())
        .arg(pages.path().join("missing.html"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "some pages failed");
    let stderr = String::from_utf8_lossy(&output.stderr);
    for (name, cause) in [
        ("binary.html", "binary, not HTML"),
        ("empty.html", "empty"),
        ("huge.html", "over the limit"),
        ("missing.html", "cannot read"),
        (
            "corrupt.html.gz",
            "gzip-compressed file that does not expand",
        ),
    ] {
        assert!(
            stderr
                .lines()
                .any(|l| l.contains(name) && l.contains(cause)),
            "{name}: {stderr}"
        );
    }
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).lines().count(),
        1,
        "the good page is scored"
    );
}

#[test]
fn a_gzip_compressed_page_is_scored_as_the_page_it_expands_to() {
    // WCXB stores its pages gzip-compressed, as many crawl dumps do.
    let compressed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/labeled/wcxb-dev/html/0580.html.gz");
    let pages = tempfile::tempdir().expect("temp dir");
    let expanded = pages.path().join("0580.html");
    let mut html = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&compressed).expect("page")),
        &mut html,
    )
    .expect("gunzip");
    std::fs::write(&expanded, &html).expect("write");
    let cache = tempfile::tempdir().expect("temp dir");
    let main_text = |page: &Path| {
        let output = succeed(
            pagelevel(cache.path())
                .args(["score", "--format", "main"])
                .arg(page),
        );
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let from_compressed = main_text(&compressed);
    assert!(
        from_compressed.contains("Wool Runner"),
        "the product's text: {from_compressed}"
    );
    assert_eq!(from_compressed, main_text(&expanded));
}

#[test]
fn pages_over_the_layout_memory_budget_fail_by_name_or_lose_their_stylesheets_with_a_warning() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, contents: String| {
        std::fs::write(pages.path().join(name), contents).expect("write");
    };
    write(
        "big.html",
        format!("<body>{}", "<div>x</div>".repeat(20_000)),
    );
    write("quick.html", "<h1>News</h1><p>A short article.</p>".into());
    write(
        "site.css",
        format!("p {{ color: red }} /*{}*/", "x".repeat(3_000_000)),
    );
    write(
        "styled.html",
        "<link rel=stylesheet href=site.css><h1>News</h1><p>An article.</p>".into(),
    );
    let output = pagelevel(cache.path())
        .args(["score", "--format", "jsonl", "--max-layout-memory", "64"])
        .arg(pages.path())
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "a page failed: {stderr}");
    let line_with = |page: &str, words: &[&str]| {
        stderr
            .lines()
            .any(|line| line.contains(page) && words.iter().all(|word| line.contains(word)))
    };
    assert!(
        line_with("big.html", &["error", "20003 elements", "budget of 64 MiB"]),
        "{stderr}"
    );
    assert!(
        line_with("styled.html", &["warning", "without its stylesheets"]),
        "{stderr}"
    );
    let scored = String::from_utf8_lossy(&output.stdout).lines().count();
    assert_eq!(scored, 2, "the styled and the quick page are scored");
}

#[test]
fn a_page_over_its_layout_timeout_fails_as_timed_out_and_the_rest_are_scored() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = tempfile::tempdir().expect("temp dir");
    // 120,000 blocks take about 3 s to lay out on a 2-core machine.
    let slow = format!("<body>{}", "<div>x</div>".repeat(120_000));
    std::fs::write(pages.path().join("slow.html"), slow).expect("write");
    std::fs::write(pages.path().join("quick.html"), "<h1>News</h1><p>Text.</p>").expect("write");
    let output = pagelevel(cache.path())
        .args(["score", "--format", "jsonl", "--timeout", "1"])
        .args(["--max-layout-memory", "4096"])
        .arg(pages.path())
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "a page failed: {stderr}");
    assert!(
        stderr
            .lines()
            .any(|line| line.contains("slow.html") && line.contains("took longer than 1 s")),
        "{stderr}"
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 1);
}

#[test]
fn a_corrupt_model_or_a_bad_threshold_is_an_error_with_exit_code_2() {
    let cache = tempfile::tempdir().expect("temp dir");
    let directory = tempfile::tempdir().expect("temp dir");
    let model = directory.path().join("model.json");
    std::fs::write(&model, "{\"format\": \"something\"}").expect("write");
    pagelevel(cache.path())
        .args(["score", "--model"])
        .arg(&model)
        .arg(example_page())
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("model.json")
                .and(predicate::str::contains("not a valid pagelevel model")),
        );
    pagelevel(cache.path())
        .args(["score", "--threshold", "1.5"])
        .arg(example_page())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--threshold"));
}

#[test]
fn pages_from_a_warc_file_and_from_a_url_are_scored_from_their_bytes() {
    let cache = tempfile::tempdir().expect("temp dir");
    let directory = tempfile::tempdir().expect("temp dir");
    let body = std::fs::read(example_page()).expect("read");
    let warc = directory.path().join("crawl.warc");
    std::fs::write(
        &warc,
        warc_of(&[("http://www.gnu.org/".to_string(), body.clone())]),
    )
    .expect("write");
    let output = succeed(
        pagelevel(cache.path())
            .args(["score", "--format", "jsonl", "--quiet"])
            .arg(&warc),
    );
    let line: Value = serde_json::from_slice(&output.stdout).expect("one JSON line");
    assert_eq!(line["url"], "http://www.gnu.org/");
    assert!(
        line["content_text"]
            .as_str()
            .expect("text")
            .contains("Free software is a matter of the users")
    );

    // A one-page HTTP server on loopback: the page is fetched once, then rendered from its bytes.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    let served = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = std::sync::Arc::clone(&served);
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for mut stream in listener.incoming().flatten() {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    let url = format!("http://127.0.0.1:{port}/index.html");
    let output = succeed(pagelevel(cache.path()).args(["score", "--format", "text", &url]));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("GNU is a Unix-like operating system")
    );
    assert_eq!(
        served.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "fetched once; the browser never asks the server"
    );
}

#[test]
fn pages_of_a_warc_file_are_laid_out_with_the_stylesheets_it_archives() {
    // The sheet is archived after the page that links it, as crawls often store them.
    let page =
        br#"<html><head><title>Harbour news</title><link rel="stylesheet" href="/site.css"></head>
<body><h1>The harbour reopens</h1>
<p>The harbour reopened on Monday after three weeks of repairs to the old stone pier, and the
first ferries left on time with a full load of passengers and cargo for the islands.</p>
<p class="teaser">Subscribers read first: the mayor promised a new breakwater before winter and
a second quay for the fishing fleet, to be paid from the port's own income over ten years.</p>
</body></html>"#;
    let sheet = b".teaser { display: none }".to_vec();
    let directory = tempfile::tempdir().expect("temp dir");
    let cache = tempfile::tempdir().expect("temp dir");
    let page_record = (
        "https://news.example/harbour".to_string(),
        "text/html; charset=utf-8",
        page.to_vec(),
    );
    let sheet_record = (
        "https://news.example/site.css".to_string(),
        "text/css",
        sheet,
    );
    let content_text = |records: &[(String, &str, Vec<u8>)], name: &str| -> String {
        let warc = directory.path().join(name);
        std::fs::write(&warc, warc_of_typed(records)).expect("write");
        let output = succeed(
            pagelevel(cache.path())
                .args(["score", "--format", "jsonl", "--quiet"])
                .arg(&warc),
        );
        let lines: Vec<Value> = output
            .stdout
            .split(|&byte| byte == b'\n')
            .filter(|line| !line.is_empty())
            .map(|line| serde_json::from_slice(line).expect("a JSON line"))
            .collect();
        assert_eq!(lines.len(), 1, "one page; the stylesheet is no page");
        lines[0]["content_text"].as_str().expect("text").to_string()
    };
    let unstyled = content_text(std::slice::from_ref(&page_record), "page.warc");
    assert!(unstyled.contains("breakwater"), "{unstyled}");
    let styled = content_text(&[page_record, sheet_record], "page-and-sheet.warc");
    assert!(styled.contains("stone pier"), "{styled}");
    assert!(
        !styled.contains("breakwater"),
        "the archived sheet hides the teaser: {styled}"
    );
}

#[test]
fn a_reader_that_stops_reading_is_not_an_error() {
    let cache = tempfile::tempdir().expect("temp dir");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pagelevel"))
        .env("PAGELEVEL_CACHE", cache.path())
        .args(["score", "--format", "text"])
        .arg(example_page())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    // Close the pipe before the page is rendered, as `| head` does after its first lines.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("finishes");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn parallel_jobs_write_results_in_the_order_the_pages_were_given() {
    let cache = tempfile::tempdir().expect("temp dir");
    let pages = [news_page(), example_page(), news_page()];
    let output = succeed(
        pagelevel(cache.path())
            .args(["score", "--quiet", "--jobs", "2", "--format", "jsonl"])
            .args(&pages),
    );
    let urls: Vec<String> = String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).expect("JSON")["url"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(urls.len(), 3);
    for (url, page) in urls.iter().zip(&pages) {
        let name = page
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(url.ends_with(&name), "{url} is not {name}");
    }
}

#[test]
fn an_undeclared_shift_jis_page_is_read_as_japanese_not_as_windows_1252() {
    let pages = tempfile::tempdir().expect("temp dir");
    let cache = tempfile::tempdir().expect("temp dir");
    let article = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\
        何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。";
    let html = format!(
        "<html><head><title>猫</title></head><body><nav><a href='/'>ホーム</a></nav>\
         <article><p>{article}</p></article></body></html>"
    );
    let page = pages.path().join("neko.html");
    std::fs::write(&page, encoding_rs::SHIFT_JIS.encode(&html).0).expect("write the page");
    let output = succeed(
        pagelevel(cache.path())
            .args(["score", "--layout", "native", "--format", "main"])
            .arg(&page),
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), article);
}
