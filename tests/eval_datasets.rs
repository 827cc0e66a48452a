//! The dataset loaders on the real shared labelled sets (`../shared/datasets/labeled`) and on the
//! native example in `datasets/native-example`.

use pagelevel::eval::annotated::{ElementMark, marked_text};
use pagelevel::eval::datasets::L3sClass;
use pagelevel::eval::{
    Dataset, DatasetSpec, EvalError, Gold, L3sMapping, LabelledPage, MainText, WordTruth,
    load_dataset, page_truth,
};
use pagelevel::text::word_tokens;

const LABELLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/datasets/labeled");

fn load(format: &str, folder: &str) -> Dataset {
    let spec: DatasetSpec = format!("{format}:{LABELLED}/{folder}").parse().unwrap();
    load_dataset(&spec).unwrap_or_else(|error| panic!("{spec}: {error}"))
}

fn page<'d>(dataset: &'d Dataset, name: &str) -> &'d LabelledPage {
    dataset
        .pages
        .iter()
        .find(|page| page.name == name)
        .unwrap_or_else(|| panic!("no page {name}"))
}

fn main_text(page: &LabelledPage) -> &MainText {
    match &page.gold {
        Gold::MainText(main) => main,
        other => panic!("{}: expected main text gold, got {other:?}", page.name),
    }
}

/// The words of a page as a plain text extraction sees them.
fn page_words(page: &LabelledPage) -> Vec<String> {
    let bytes = std::fs::read(&page.html_path).unwrap();
    let html = String::from_utf8_lossy(&bytes);
    marked_text(&html, |_| ElementMark::<()>::Plain)
        .iter()
        .flat_map(|run| word_tokens(&run.text))
        .collect()
}

fn truth(page: &LabelledPage, l3s: L3sMapping) -> Vec<WordTruth> {
    let words = page_words(page);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    page_truth(&words, &page.gold, l3s).unwrap().truth
}

fn count(truth: &[WordTruth], wanted: WordTruth) -> usize {
    truth.iter().filter(|&&t| t == wanted).count()
}

#[test]
fn cleaneval_gold_loses_its_url_line_and_markers_and_aligns_to_its_page() {
    let dataset = load("cleaneval", "cleaneval");
    assert_eq!(dataset.pages.len(), 228);
    let first = page(&dataset, "dev-1");
    assert_eq!(
        first.url.as_deref(),
        Some("http://1-las-vegas-real-estate.com/homes/sellers/list_today/")
    );
    let gold = main_text(first);
    assert!(
        gold.content
            .starts_with("If you feel it's time to start taking action"),
        "{}",
        &gold.content[..80]
    );
    assert!(
        !gold.content.contains("<p>")
            && !gold.content.contains("<h>")
            && !gold.content.contains("<l>")
    );
    let truth = truth(first, L3sMapping::Standard);
    let gold_words = word_tokens(&gold.content).len();
    assert!(
        count(&truth, WordTruth::NotTemplate) * 10 >= gold_words * 9,
        "most gold words are on the page"
    );
    assert!(
        count(&truth, WordTruth::Template) > 0,
        "the page has boilerplate"
    );
}

#[test]
fn cleanportaleval_groups_pages_by_portal() {
    let dataset = load("cleanportaleval", "cleanportaleval");
    assert_eq!(dataset.pages.len(), 71);
    let bbc = dataset
        .pages
        .iter()
        .filter(|p| p.site_group.as_deref() == Some("bbc.co.uk_news"))
        .count();
    assert_eq!(bbc, 12);
    let first = page(&dataset, "bbc.co.uk_news/bbc.co.uk_news_01");
    assert_eq!(
        first.url.as_deref(),
        Some("http://bbc.co.uk/news/business-21302969")
    );
    assert!(
        main_text(first)
            .content
            .starts_with("One couple's mission to find a better work/life balance")
    );
}

#[test]
fn dragnet_comments_are_split_at_the_marker_line() {
    let dataset = load("dragnet", "dragnet");
    assert_eq!(dataset.pages.len(), 139);
    let with_comments = dataset
        .pages
        .iter()
        .filter(|p| main_text(p).comments.is_some())
        .count();
    // The README counts 39 files by their bytes; the five UTF-16 gold files have the marker too.
    assert_eq!(with_comments, 44);
    let hubris = main_text(page(&dataset, "102"));
    assert!(
        hubris
            .content
            .starts_with("The Dangerous Hubris of the Startup World")
    );
    // A windows-1252 gold file: 0x96 is an en dash.
    assert!(
        hubris.content.contains("7 Deadly Sins – the list"),
        "{}",
        &hubris.content[..300]
    );
    assert!(!hubris.content.contains("COMMENTS") && hubris.comments.is_some());
}

#[test]
fn big9_groups_by_site_and_year_and_decodes_windows_1252_gold() {
    let dataset = load("big9", "big9");
    assert_eq!(dataset.pages.len(), 180);
    let groups: std::collections::BTreeSet<_> = dataset
        .pages
        .iter()
        .filter_map(|p| p.site_group.clone())
        .collect();
    assert_eq!(groups.len(), 36);
    let boston = page(&dataset, "arstechnica/2013-boston-1");
    assert_eq!(boston.site_group.as_deref(), Some("arstechnica-2013"));
    let gold = &main_text(boston).content;
    assert!(gold.starts_with("Boston policemen complain about new plan to watch their movements"));
    assert!(
        gold.contains("Anon officer: “No one li"),
        "smart quote decoded: {}",
        &gold[..120]
    );
}

#[test]
fn kreuzer_pages_carry_base_href_and_template_block_types() {
    let dataset = load("kreuzer", "kreuzer");
    assert_eq!(dataset.pages.len(), 138);
    let abc = page(&dataset, "popular-abcnews.go.com");
    assert_eq!(abc.url.as_deref(), Some("http://abcnews.go.com/"));
    assert_eq!(abc.base_href.as_deref(), Some("assets/abcnews.go.com/"));
    let Gold::Blocks(annotation) = &abc.gold else {
        panic!("expected block gold");
    };
    assert_eq!(
        annotation.template_types(),
        [
            "Ad",
            "Footer",
            "Header",
            "LinkList",
            "Logo",
            "Menu",
            "Searchbar"
        ]
    );
    let texts = annotation.read_blocks().unwrap();
    assert!(texts.iter().any(|t| {
        t.blocks
            .iter()
            .any(|b| b.block_type == "Header" && b.level == 1)
    }));
    let page_truth_on_itself = {
        let words = page_words(abc);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        page_truth(&words, &abc.gold, L3sMapping::Standard).unwrap()
    };
    assert!(count(&page_truth_on_itself.truth, WordTruth::Template) > 0);
    assert!(count(&page_truth_on_itself.truth, WordTruth::NotTemplate) > 0);
    let blocks = page_truth_on_itself
        .blocks
        .expect("block gold gives segments");
    assert!(blocks.iter().flatten().filter_map(|b| b.top).count() > 0);
}

#[test]
fn l3s_blocks_keep_the_assessors_classes_in_document_order() {
    let dataset = load("l3s-gn1", "l3s-gn1");
    assert_eq!(dataset.pages.len(), 281);
    let un = page(&dataset, "01ccc7c5-a1d1-46e1-a5f7-43310df16575");
    assert_eq!(
        un.url.as_deref(),
        Some("http://www.un.org/apps/news/story.asp?NewsID=25318&Cr=kosovo&Cr1=")
    );
    assert!(
        un.html_path
            .ends_with("original/01ccc7c5-a1d1-46e1-a5f7-43310df16575.html")
    );
    let Gold::TextBlocks(blocks) = &un.gold else {
        panic!("expected text blocks");
    };
    let headline = blocks
        .iter()
        .position(|b| b.class == Some(L3sClass::Headline))
        .unwrap();
    assert!(
        blocks[headline]
            .text
            .starts_with("No agreement reached on Kosovo")
    );
    let full_text = blocks
        .iter()
        .position(|b| b.class == Some(L3sClass::FullText))
        .unwrap();
    assert!(headline < full_text);
    assert!(
        blocks[..headline]
            .iter()
            .any(|b| b.text.contains("Press Room") && b.class.is_none())
    );
    let standard = truth(un, L3sMapping::Standard);
    let strict = truth(un, L3sMapping::Strict);
    assert!(count(&strict, WordTruth::Template) < count(&standard, WordTruth::Template));
    assert!(
        count(&standard, WordTruth::NotTemplate) > 200,
        "the article aligns to the original page"
    );
}

#[test]
fn native_example_loads_both_label_forms() {
    let spec: DatasetSpec = concat!(
        "native:",
        env!("CARGO_MANIFEST_DIR"),
        "/datasets/native-example"
    )
    .parse()
    .unwrap();
    let dataset = load_dataset(&spec).unwrap();
    assert_eq!(dataset.pages.len(), 2);
    let article = &dataset.pages[0];
    assert_eq!(article.site_group.as_deref(), Some("news.example.org"));
    assert_eq!(
        main_text(article).comments.as_deref(),
        Some("Mortgage holders will be disappointed again.")
    );
    let article_truth = truth(article, L3sMapping::Standard);
    let words = page_words(article);
    let template: Vec<&str> = words
        .iter()
        .zip(&article_truth)
        .filter(|(_, t)| **t == WordTruth::Template)
        .map(|(w, _)| w.as_str())
        .collect();
    assert_eq!(
        &template[..5],
        ["example", "news", "world", "business", "sport"]
    );
    let soup = &dataset.pages[1];
    let soup_words = page_words(soup);
    let soup_truth = truth(soup, L3sMapping::Standard);
    let label_of = |word: &str| soup_truth[soup_words.iter().position(|w| w == word).unwrap()];
    assert_eq!(label_of("videos"), WordTruth::Template);
    assert_eq!(label_of("lentils"), WordTruth::NotTemplate);
    assert_eq!(label_of("email"), WordTruth::Template);
    assert_eq!(label_of("tested"), WordTruth::NotTemplate);
    assert_eq!(label_of("week"), WordTruth::Template);
}

#[test]
fn a_missing_dataset_folder_is_named_in_the_error() {
    let spec: DatasetSpec = "big9:/nonexistent/big9".parse().unwrap();
    let error = load_dataset(&spec).unwrap_err();
    assert!(matches!(error, EvalError::NotADataset { .. }));
    assert!(error.to_string().contains("/nonexistent/big9"), "{error}");
    let native: DatasetSpec = "native:/nonexistent/labels.json".parse().unwrap();
    let error = load_dataset(&native).unwrap_err().to_string();
    assert!(error.contains("/nonexistent/labels.json"), "{error}");
}
