//! The facts a page's type is guessed from: its structured data's `@type`s and OpenGraph type,
//! prices, code, the URL's shape, counts of elements, names in its class attributes (cards,
//! carts, pagination, posts…), phrases (result counts, sort controls, calls to action) and what
//! the main-text choice kept.

use std::collections::HashMap;

use url::Url;

use crate::extract::Extracted;
use crate::page::{Dom, Page};

/// Names in `class` and `id` attributes, by group: a class token counts when it is the name, or
/// holds it as a `-`-separated part (`product-card`, `site-pagination`, `post-body`).
const CLASS_GROUPS: [(&str, &[&str]); 8] = [
    (
        "class_product",
        &[
            "product", "price", "cart", "sku", "variant", "buy", "checkout", "basket",
        ],
    ),
    (
        "class_pagination",
        &[
            "pagination",
            "pager",
            "paging",
            "page-numbers",
            "load-more",
            "loadmore",
        ],
    ),
    (
        "class_docs",
        &[
            "sidebar",
            "toc",
            "docs",
            "doc",
            "sphinx",
            "theme-doc",
            "api",
            "wiki",
        ],
    ),
    (
        "class_hero",
        &[
            "hero",
            "banner",
            "cta",
            "testimonial",
            "pricing",
            "feature",
            "features",
            "plan",
            "plans",
        ],
    ),
    (
        "class_post",
        &[
            "comment",
            "comments",
            "reply",
            "replies",
            "post",
            "posts",
            "message",
            "thread",
            "topic",
            "avatar",
            "vote",
            "user",
            "author",
            "username",
            "signature",
        ],
    ),
    (
        "class_card",
        &[
            "card", "cards", "grid", "tile", "item", "items", "result", "results", "listing",
            "teaser",
        ],
    ),
    (
        "class_filter",
        &["filter", "filters", "facet", "facets", "sort", "refine"],
    ),
    (
        "class_article",
        &[
            "article", "entry", "story", "byline", "headline", "content", "prose",
        ],
    ),
];

/// Elements counted (log of 1 + count), by the fact's name.
const COUNTED_TAGS: [(&str, &str); 22] = [
    ("log_paragraphs", "p"),
    ("log_tables", "table"),
    ("log_navs", "nav"),
    ("log_sections", "section"),
    ("log_inputs", "input"),
    ("log_forms", "form"),
    ("log_pre", "pre"),
    ("log_h1", "h1"),
    ("log_list_items", "li"),
    ("log_definition_lists", "dl"),
    ("log_asides", "aside"),
    ("log_footers", "footer"),
    ("log_headers", "header"),
    ("log_iframes", "iframe"),
    ("log_svgs", "svg"),
    ("log_videos", "video"),
    ("log_quotes", "blockquote"),
    ("log_figures", "figure"),
    ("log_textareas", "textarea"),
    ("log_labels", "label"),
    ("log_spans", "span"),
    ("log_divs", "div"),
];

/// Words a count of results is followed by ("1,204 results", "36 products").
const RESULT_NOUNS: [&str; 7] = [
    "results", "items", "products", "listings", "jobs", "homes", "articles",
];

/// Phrases of a service page's calls to action.
const CALLS_TO_ACTION: [&str; 9] = [
    "get started",
    "contact us",
    "book a",
    "request a",
    "free trial",
    "sign up",
    "get a quote",
    "schedule",
    "learn more",
];

/// The facts' names, in order: the first facts, class groups, counted tags, phrases.
pub fn fact_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = BASIC_FACT_NAMES.to_vec();
    names.extend(CLASS_GROUPS.iter().map(|(name, _)| *name));
    names.extend(COUNTED_TAGS.iter().map(|(name, _)| *name));
    names.extend(["results_count", "sort_or_filter", "calls_to_action"]);
    names
}

/// The facts of a scored page for its type, in the order of [`fact_names`]: `content_text` is
/// the segmentation's content, `extracted` the main-text choice.
pub fn page_facts(page: &Page, content_text: &str, extracted: &Extracted) -> Vec<f64> {
    let mut facts = basic_facts(page, content_text, extracted).to_vec();
    let dom = &page.dom;
    let ln = |count: usize| (count as f64).ln_1p();
    let mut tag_counts: HashMap<&str, usize> = HashMap::new();
    let mut group_counts = [0usize; CLASS_GROUPS.len()];
    for id in dom.ids() {
        let element = dom.element(id);
        *tag_counts.entry(element.tag.as_str()).or_default() += 1;
        for name in ["class", "id"] {
            let Some(value) = element.attribute(name) else {
                continue;
            };
            for token in value.split(|c: char| c.is_whitespace() || c == '_') {
                if token.is_empty() {
                    continue;
                }
                let token = token.to_ascii_lowercase();
                for (count, (_, words)) in group_counts.iter_mut().zip(CLASS_GROUPS) {
                    if words.iter().any(|word| names_part(&token, word)) {
                        *count += 1;
                    }
                }
            }
        }
    }
    facts.extend(group_counts.iter().map(|&count| ln(count)));
    facts.extend(
        COUNTED_TAGS
            .iter()
            .map(|(_, tag)| ln(tag_counts.get(tag).copied().unwrap_or(0))),
    );
    let text = visible_text_lowercase(dom);
    facts.push(f64::from(mentions_result_count(&text)));
    facts.push(f64::from(
        ["sort by", "filter by", "showing"]
            .iter()
            .any(|phrase| text.contains(phrase)),
    ));
    facts.push(ln(CALLS_TO_ACTION
        .iter()
        .map(|phrase| text.matches(phrase).count())
        .sum()));
    facts
}

/// Whether a class token is `word` or holds it as a `-`-separated part.
fn names_part(token: &str, word: &str) -> bool {
    token == word
        || token
            .strip_prefix(word)
            .is_some_and(|rest| rest.starts_with('-'))
        || token
            .strip_suffix(word)
            .is_some_and(|rest| rest.ends_with('-'))
        || token.contains(&format!("-{word}-"))
}

/// Every text node of the page, lower-cased, joined by spaces.
fn visible_text_lowercase(dom: &Dom) -> String {
    let mut text = String::new();
    for node in &dom.texts {
        text.push_str(&node.text.to_lowercase());
        text.push(' ');
    }
    text
}

/// "1,204 results", "36 products": a number followed by a noun of results.
fn mentions_result_count(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).any(|pair| {
        pair[0].chars().next().is_some_and(|c| c.is_ascii_digit())
            && pair[0]
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
            && RESULT_NOUNS.contains(&pair[1].trim_end_matches(|c: char| !c.is_alphanumeric()))
    })
}

/// How many facts of the first kind (structured data, URL, counts, the main-text choice).
const BASIC_FACT_COUNT: usize = 32;

/// The first facts' names.
const BASIC_FACT_NAMES: [&str; BASIC_FACT_COUNT] = [
    "ld_article",
    "ld_product",
    "ld_forum",
    "ld_list",
    "ld_documentation",
    "ld_service",
    "og_article",
    "og_product",
    "log_prices",
    "code_share",
    "log_articles",
    "log_headings",
    "log_times",
    "log_buttons",
    "log_images",
    "log_words",
    "main_share",
    "log_main_paragraphs",
    "log_main_words_per_paragraph",
    "content_link_share",
    "url_depth",
    "url_date",
    "url_article",
    "url_documentation",
    "url_product",
    "url_forum",
    "url_list",
    "log_links",
    "list_item_share",
    "log_repeated_blocks",
    "forum_words",
    "shop_words",
];

/// schema.org `@type`s that say what the page is, by the feature they raise.
const LD_TYPES: [(usize, &[&str]); 6] = [
    (
        0,
        &[
            "article",
            "newsarticle",
            "blogposting",
            "reportage",
            "opinionnewsarticle",
        ],
    ),
    (1, &["product", "offer", "aggregateoffer", "productgroup"]),
    (
        2,
        &[
            "discussionforumposting",
            "qapage",
            "question",
            "answer",
            "socialmediaposting",
        ],
    ),
    (
        3,
        &[
            "itemlist",
            "collectionpage",
            "searchresultspage",
            "offercatalog",
        ],
    ),
    (
        4,
        &["techarticle", "apireference", "softwaresourcecode", "howto"],
    ),
    (
        5,
        &[
            "service",
            "localbusiness",
            "professionalservice",
            "faqpage",
            "organization",
        ],
    ),
];

/// URL path segments that say what the page is, by the feature they raise.
const URL_WORDS: [(usize, &[&str]); 5] = [
    (
        22,
        &[
            "news", "blog", "blogs", "article", "articles", "story", "stories", "post", "posts",
        ],
    ),
    (
        23,
        &[
            "docs",
            "doc",
            "documentation",
            "guide",
            "guides",
            "reference",
            "api",
            "manual",
            "learn",
            "tutorial",
            "wiki",
        ],
    ),
    (
        24,
        &[
            "product", "products", "p", "dp", "item", "shop", "buy", "store",
        ],
    ),
    (
        25,
        &[
            "forum",
            "forums",
            "thread",
            "threads",
            "t",
            "topic",
            "topics",
            "questions",
            "discussion",
            "community",
            "r",
            "comments",
        ],
    ),
    (
        26,
        &[
            "category",
            "categories",
            "collections",
            "collection",
            "tag",
            "tags",
            "search",
            "list",
            "s",
            "c",
            "browse",
        ],
    ),
];

/// The first facts of a scored page.
fn basic_facts(page: &Page, content_text: &str, extracted: &Extracted) -> [f64; BASIC_FACT_COUNT] {
    let dom = &page.dom;
    let mut features = [0.0; BASIC_FACT_COUNT];
    for kind in json_ld_types(dom) {
        for (feature, names) in LD_TYPES {
            if names.contains(&kind.as_str()) {
                features[feature] = 1.0;
            }
        }
    }
    let mut counts = ElementCounts::default();
    for id in dom.ids() {
        let element = dom.element(id);
        match element.tag.as_str() {
            "article" => counts.articles += 1,
            "h2" | "h3" => counts.headings += 1,
            "time" => counts.times += 1,
            "button" | "select" => counts.buttons += 1,
            "img" => counts.images += 1,
            "meta" => {
                let property = element.attribute("property").unwrap_or("");
                let content = element.attribute("content").unwrap_or("");
                if property == "og:type" {
                    features[6] = f64::from(content.eq_ignore_ascii_case("article"));
                    features[7] = f64::from(content.to_ascii_lowercase().contains("product"));
                } else if property.starts_with("product:price") {
                    features[7] = 1.0;
                }
            }
            _ => {}
        }
    }
    let in_code = dom.within(|element| matches!(element.tag.as_str(), "pre" | "code"));
    let (mut words, mut code_words) = (0usize, 0usize);
    for text in &dom.texts {
        let count = text.text.split_whitespace().count();
        words += count;
        if in_code[text.parent.index()] {
            code_words += count;
        }
    }
    let content_words = content_text.split_whitespace().count();
    let main_words = extracted.main_text.split_whitespace().count();
    let main_paragraphs = extracted.main_blocks.len();
    let ln = |count: usize| (count as f64).ln_1p();
    features[8] = ln(price_mentions(content_text));
    features[9] = code_words as f64 / words.max(1) as f64;
    features[10] = ln(counts.articles);
    features[11] = ln(counts.headings);
    features[12] = ln(counts.times);
    features[13] = ln(counts.buttons);
    features[14] = ln(counts.images);
    features[15] = ln(words);
    features[16] = main_words as f64 / content_words.max(1) as f64;
    features[17] = ln(main_paragraphs);
    features[18] = ln(main_words / main_paragraphs.max(1));
    features[19] = link_share(dom);
    if let Some(url) = page_url(page) {
        let segments: Vec<String> = url
            .path_segments()
            .map(|segments| {
                segments
                    .filter(|segment| !segment.is_empty())
                    .map(str::to_ascii_lowercase)
                    .collect()
            })
            .unwrap_or_default();
        features[20] = ln(segments.len());
        features[21] = f64::from(segments.iter().any(|segment| {
            segment.len() == 4
                && segment.starts_with("20")
                && segment.chars().all(|c| c.is_ascii_digit())
        }));
        for (feature, names) in URL_WORDS {
            if segments
                .iter()
                .any(|segment| names.contains(&segment.as_str()))
            {
                features[feature] = 1.0;
            }
        }
    }
    features[27] = ln(dom.ids().filter(|&id| dom.element(id).tag == "a").count());
    let in_list_item = dom.within(|element| element.tag == "li");
    let list_words: usize = dom
        .texts
        .iter()
        .filter(|text| in_list_item[text.parent.index()])
        .map(|text| text.text.split_whitespace().count())
        .sum();
    features[28] = list_words as f64 / words.max(1) as f64;
    features[29] = ln(most_repeated_block(dom));
    let lowered = content_text.to_lowercase();
    let per_thousand = |phrases: &[&str]| {
        let found: usize = phrases
            .iter()
            .map(|phrase| lowered.matches(phrase).count())
            .sum();
        (1000.0 * found as f64 / content_words.max(1) as f64).ln_1p()
    };
    features[30] = per_thousand(&[
        "reply", "replies", "posted", "joined", "quote", "upvote", "views",
    ]);
    features[31] = per_thousand(&[
        "add to cart",
        "add to bag",
        "in stock",
        "sku",
        "quantity",
        "buy now",
        "shipping",
        "reviews",
    ]);
    features
}

/// How many elements share the most common (tag, class) among elements that have a class and
/// hold text of their own words: a listing's cards, a thread's posts.
fn most_repeated_block(dom: &Dom) -> usize {
    let mut counts: HashMap<(&str, &str), usize> = HashMap::new();
    for id in dom.ids() {
        let element = dom.element(id);
        if let Some(class) = element.attribute("class")
            && !class.trim().is_empty()
            && matches!(
                element.tag.as_str(),
                "div" | "li" | "article" | "section" | "tr"
            )
        {
            *counts.entry((element.tag.as_str(), class)).or_default() += 1;
        }
    }
    counts.into_values().max().unwrap_or(0)
}

#[derive(Default)]
struct ElementCounts {
    articles: usize,
    headings: usize,
    times: usize,
    buttons: usize,
    images: usize,
}

/// The page's URL: where it came from, else its canonical link or `og:url`.
pub(super) fn page_url(page: &Page) -> Option<Url> {
    if let Some(url) = &page.url
        && matches!(url.scheme(), "http" | "https")
    {
        return Some(url.clone());
    }
    let dom = &page.dom;
    dom.ids().find_map(|id| {
        let element = dom.element(id);
        let href = match element.tag.as_str() {
            "link"
                if element
                    .attribute("rel")
                    .is_some_and(|rel| rel.eq_ignore_ascii_case("canonical")) =>
            {
                element.attribute("href")
            }
            "meta" if element.attribute("property") == Some("og:url") => {
                element.attribute("content")
            }
            _ => None,
        }?;
        Url::parse(href.trim()).ok()
    })
}

/// The share of the page's words that are link text.
fn link_share(dom: &Dom) -> f64 {
    let in_link = dom.within_links();
    let (mut words, mut linked) = (0usize, 0usize);
    for text in &dom.texts {
        let count = text.text.split_whitespace().count();
        words += count;
        if in_link[text.parent.index()] {
            linked += count;
        }
    }
    linked as f64 / words.max(1) as f64
}

/// Amounts of money in the text: a currency sign next to a digit ("$19.99", "19,99 €").
fn price_mentions(text: &str) -> usize {
    let characters: Vec<char> = text.chars().collect();
    characters
        .iter()
        .enumerate()
        .filter(|&(at, &character)| {
            matches!(character, '$' | '€' | '£' | '¥' | '₹')
                && (characters.get(at + 1).is_some_and(char::is_ascii_digit)
                    || at
                        .checked_sub(1)
                        .and_then(|before| characters.get(before))
                        .is_some_and(|before| before.is_ascii_digit() || *before == ' ')
                        && at
                            .checked_sub(2)
                            .and_then(|before| characters.get(before))
                            .is_some_and(char::is_ascii_digit))
        })
        .count()
}

/// The lower-cased `@type`s of the page's JSON-LD.
fn json_ld_types(dom: &Dom) -> Vec<String> {
    let mut types = Vec::new();
    for value in crate::extract::json_ld(dom) {
        collect_types(&value, &mut types);
    }
    types
}

fn collect_types(value: &serde_json::Value, types: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                if key == "@type" {
                    match inner {
                        serde_json::Value::String(kind) => types.push(kind.to_ascii_lowercase()),
                        serde_json::Value::Array(kinds) => types.extend(
                            kinds
                                .iter()
                                .filter_map(serde_json::Value::as_str)
                                .map(str::to_ascii_lowercase),
                        ),
                        _ => {}
                    }
                } else {
                    collect_types(inner, types);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|item| collect_types(item, types)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_amounts_next_to_a_currency_sign() {
        assert_eq!(
            price_mentions("Now $19.99, was $25 — or 19,99 € in Europe"),
            3
        );
        assert_eq!(price_mentions("Save money: pay with $ or €"), 0);
    }

    #[test]
    fn types_are_read_from_nested_json_ld_and_arrays() {
        let value: serde_json::Value = serde_json::from_str(
            r#"{"@graph": [{"@type": ["Product", "Thing"], "offers": {"@type": "Offer"}}]}"#,
        )
        .unwrap();
        let mut types = Vec::new();
        collect_types(&value, &mut types);
        assert_eq!(types, ["product", "thing", "offer"]);
    }

    #[test]
    fn class_names_count_as_parts_and_result_counts_need_a_noun() {
        assert!(names_part("product-card", "product"));
        assert!(names_part("site-pagination", "pagination"));
        assert!(names_part("js-post-body", "post"));
        assert!(!names_part("postal", "post"));
        assert!(mentions_result_count("showing 1,204 results for shoes"));
        assert!(!mentions_result_count("in 2024 the results were"));
    }

    #[test]
    fn every_fact_has_a_name() {
        assert_eq!(
            fact_names().len(),
            BASIC_FACT_COUNT + CLASS_GROUPS.len() + COUNTED_TAGS.len() + 3
        );
    }
}
