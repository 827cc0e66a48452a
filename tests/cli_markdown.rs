//! `pagelevel score --format markdown` and `--format sections` as a user runs them on real pages:
//! the article's structure (headings, lists, tables, code) without the page's template, link
//! targets and pictures when asked, comments apart, and one line per section to filter by.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};

use common::{datasets, example_page, pagelevel, succeed};
use serde_json::Value;

fn readability_page(name: &str) -> PathBuf {
    datasets().join(format!("labeled/readability/pages/{name}.html"))
}

/// WCXB's development page `id`, unpacked into `dir` as a user would save it.
fn wcxb_page(dir: &Path, id: &str) -> PathBuf {
    let packed = datasets().join(format!("labeled/wcxb-dev/html/{id}.html.gz"));
    let mut html = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(packed).expect("page"))
        .read_to_end(&mut html)
        .expect("gzip");
    let path = dir.join(format!("{id}.html"));
    std::fs::write(&path, html).expect("write page");
    path
}

fn stdout_of(args: &[&str], page: &PathBuf) -> String {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(pagelevel(cache.path()).arg("score").args(args).arg(page));
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

#[test]
fn markdown_gives_the_gnu_article_with_its_headings_and_lists_and_none_of_the_menus() {
    let markdown = stdout_of(&["--format", "markdown"], &example_page());
    assert!(
        markdown.starts_with("# The GNU Operating System\n\n"),
        "{markdown}"
    );
    assert!(markdown.contains("\n## What is GNU?\n"));
    assert!(
        markdown.contains("\n- The freedom to run the program, for any purpose (freedom 0).\n")
    );
    assert!(markdown.contains("**GNU/Linux operating system**"));
    for template in ["Skip to content", "Deutsch", "Copyright"] {
        assert!(!markdown.contains(template), "{template} in\n{markdown}");
    }
    // The JSON carries the same Markdown.
    let json: Value = serde_json::from_str(&stdout_of(
        &["--output-fields", "main_markdown"],
        &example_page(),
    ))
    .expect("JSON");
    assert_eq!(json["main_markdown"].as_str(), Some(markdown.trim_end()));
}

#[test]
fn an_articles_bullet_points_are_a_list_with_every_item_not_only_its_sentences() {
    // A university's list of clinics (WCXB 0313): each item a name, an address, a phone number
    // and a fee, none of them a sentence. The model alone kept only the items' later lines.
    let dir = tempfile::tempdir().expect("temp dir");
    let markdown = stdout_of(&["--format", "markdown"], &wcxb_page(dir.path(), "0313"));
    for item in [
        "\n- Access Institute for Psychological Services\\\n  110 Gough St. Suite 301\\\n",
        "\n- Christian Counseling Centers\\\n",
        "\n- Well Clinic\\\n",
    ] {
        assert!(markdown.contains(item), "{item:?} in\n{markdown}");
    }
    assert!(markdown.contains("Users assume responsibility for evaluating"));
}

#[test]
fn code_blocks_are_fenced_whole_with_their_language_and_tables_are_pipe_tables() {
    let v8 = stdout_of(&["--format", "markdown"], &readability_page("v8-blog"));
    assert!(
        v8.contains("```lisp\n(func $add (param $0 i32) (param $1 i32) (result i32)\n (i32.add\n  (local.get $0)\n  (local.get $1)\n )\n)\n```"),
        "{v8}"
    );
    assert!(v8.contains("\n## Using standalone mode in Emscripten \\#\n"));
    let sre = stdout_of(
        &["--format", "markdown"],
        &readability_page("google-sre-book-1"),
    );
    assert!(
        sre.contains("| **Symptom** | **Cause** |\n| --- | --- |\n| **I’m serving HTTP 500s or 404s** | Database servers are refusing connections |\n"),
        "{sre}"
    );
}

#[test]
fn links_and_pictures_are_kept_only_when_asked_with_absolute_urls() {
    let page = readability_page("v8-blog");
    let url = "https://v8.dev/blog/emscripten-standalone-wasm";
    let plain = stdout_of(&["--format", "markdown", "--url", url], &page);
    assert!(!plain.contains("](http"), "no link targets unless asked");
    let rich = stdout_of(
        &["--format", "markdown", "--url", url, "--links", "--images"],
        &page,
    );
    assert!(rich.contains(
        "[**standalone Wasm**](https://github.com/emscripten-core/emscripten/wiki/WebAssembly-Standalone)"
    ));
    assert!(
        rich.contains("](https://v8.dev/"),
        "relative links resolved: {rich}"
    );
    assert!(
        !rich.contains("!["),
        "v8.dev's only picture is the author's avatar"
    );
    // Fixtures here are development pages of the Readability set, never its test pages.
    let breitbart = readability_page("breitbart");
    let pictured = stdout_of(&["--format", "markdown", "--images"], &breitbart);
    assert!(
        pictured.contains(
            "](http://media.breitbart.com/media/2016/11/GettyImages-621866810-640x480.jpg)"
        ),
        "the lead picture: {pictured}"
    );
    assert!(
        !stdout_of(&["--format", "markdown"], &breitbart).contains("!["),
        "no pictures unless asked"
    );
}

#[test]
fn sections_are_one_line_each_with_text_markdown_verdict_and_role() {
    let lines = stdout_of(&["--format", "sections"], &example_page());
    let sections: Vec<Value> = lines
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect();
    assert!(sections.len() >= 3, "{lines}");
    for section in &sections {
        for field in [
            "page",
            "section",
            "tag",
            "xpath",
            "templateness",
            "template",
            "role",
            "text",
            "markdown",
        ] {
            assert!(
                section.get(field).is_some(),
                "a section lacks {field}: {section}"
            );
        }
        assert!(!section["text"].as_str().unwrap_or("").is_empty());
    }
    let role_of = |needle: &str| {
        sections
            .iter()
            .find(|section| section["text"].as_str().unwrap_or("").contains(needle))
            .map(|section| (section["role"].clone(), section["template"].clone()))
    };
    assert_eq!(
        role_of("The GNU Project was launched in 1984"),
        Some((Value::from("main"), Value::from(false)))
    );
    let (_, copyright_is_template) = role_of("Copyright").expect("the footer's section");
    assert_eq!(copyright_is_template, Value::from(true));
    // Keeping the sections the page itself calls content gives the content text's words.
    let kept_by_filter: String = sections
        .iter()
        .filter(|section| section["template"] == false)
        .map(|section| section["text"].as_str().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let content: Value = serde_json::from_str(&stdout_of(
        &["--output-fields", "content_text"],
        &example_page(),
    ))
    .expect("JSON");
    let words = |text: &str| {
        let mut words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        words.sort();
        words
    };
    assert_eq!(
        words(&kept_by_filter),
        words(content["content_text"].as_str().unwrap_or(""))
    );
}

#[test]
fn comments_follow_the_markdown_under_their_own_heading_only_when_asked() {
    let page = readability_page("breitbart");
    let without = stdout_of(&["--format", "markdown"], &page);
    let with = stdout_of(&["--format", "markdown", "--comments"], &page);
    assert!(!without.contains("## Comments"));
    assert!(with.starts_with(without.trim_end()));
    assert!(with.contains("\n\n## Comments\n\n"), "{with}");
}

#[test]
fn markdown_flags_with_a_format_that_writes_no_markdown_are_refused_with_exit_code_2() {
    let cache = tempfile::tempdir().expect("temp dir");
    for (args, named) in [
        (&["--format", "text", "--links"][..], "--links"),
        (&["--format", "main", "--images"][..], "--images"),
        (&["--format", "jsonl", "--comments"][..], "--comments"),
    ] {
        let output = pagelevel(cache.path())
            .arg("score")
            .args(args)
            .arg(example_page())
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(named), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn a_lazy_loaded_picture_is_written_once_from_its_noscript_original() {
    let markdown = stdout_of(
        &["--format", "markdown", "--images"],
        &readability_page("medium-3"),
    );
    assert!(markdown.contains(
        "![Image for post](https://miro.medium.com/max/796/1*kbPh7V97eyRodSOw2-ALDw.png)"
    ));
    assert!(
        !markdown.contains("max/44/"),
        "no blurred placeholders: {markdown}"
    );
    assert_eq!(
        markdown.matches("kbPh7V97eyRodSOw2").count(),
        1,
        "{markdown}"
    );
}
