//! The facts a page's type is guessed from: its structured data's `@type`s and OpenGraph type,
//! prices, code, the URL's shape, counts of elements, names in its class attributes (cards,
//! carts, pagination, posts…), phrases (result counts, sort controls, calls to action) and what
//! the main-text choice kept.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
// Keys are tags and class names of one page: a fast hash, no need for DoS resistance.
use rustc_hash::FxHashMap as HashMap;

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

/// Words of a thread (per 1,000 content words, a fact).
const FORUM_WORDS: [&str; 7] = [
    "reply", "replies", "posted", "joined", "quote", "upvote", "views",
];

/// Words of a shop (per 1,000 content words, a fact).
const SHOP_WORDS: [&str; 8] = [
    "add to cart",
    "add to bag",
    "in stock",
    "sku",
    "quantity",
    "buy now",
    "shipping",
    "reviews",
];

/// Sort and filter controls of a listing.
const SORT_PHRASES: [&str; 3] = ["sort by", "filter by", "showing"];

/// The phrase groups, in the order of [`phrase_counts`]' answer.
const PHRASE_GROUPS: [&[&str]; 4] = [&FORUM_WORDS, &SHOP_WORDS, &CALLS_TO_ACTION, &SORT_PHRASES];

/// Occurrences of each group's phrases in `text`, ignoring ASCII case: one pass over the text
/// for every phrase (a page's text is read once, not once a phrase).
fn phrase_counts(text: &str) -> [usize; PHRASE_GROUPS.len()] {
    static SEARCH: OnceLock<(AhoCorasick, Vec<usize>)> = OnceLock::new();
    let (search, group_of) = SEARCH.get_or_init(|| {
        let mut phrases = Vec::new();
        let mut group_of = Vec::new();
        for (group, members) in PHRASE_GROUPS.iter().enumerate() {
            phrases.extend(members.iter().copied());
            group_of.extend(std::iter::repeat_n(group, members.len()));
        }
        // Phrases are lower case and matched against a lower-cased copy: the case-sensitive
        // automaton keeps its fast prefilter, which ASCII case folding would turn off.
        let search = AhoCorasick::builder()
            .kind(Some(AhoCorasickKind::DFA))
            .build(phrases)
            .expect("fixed phrases build");
        (search, group_of)
    });
    let mut counts = [0; PHRASE_GROUPS.len()];
    for found in search.find_iter(&text.to_ascii_lowercase()) {
        counts[group_of[found.pattern().as_usize()]] += 1;
    }
    counts
}

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
    let content_phrases = phrase_counts(content_text);
    let mut facts = basic_facts(page, content_text, &content_phrases, extracted).to_vec();
    let dom = &page.dom;
    let ln = |count: usize| (count as f64).ln_1p();
    let mut tag_counts: HashMap<&str, usize> = HashMap::default();
    let mut group_counts = [0usize; CLASS_GROUPS.len()];
    // One buffer for every token's lower-case copy: a page has thousands of tokens.
    let mut lower = String::new();
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
                lower.clear();
                lower.push_str(token);
                lower.make_ascii_lowercase();
                let groups = class_groups_of(&lower);
                for (group, count) in group_counts.iter_mut().enumerate() {
                    if groups & (1 << group) != 0 {
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
    // Filters, sort controls and result counts are often template: read the whole page's text.
    let text = page_text(dom);
    let [_, _, calls_to_action, sort_controls] = phrase_counts(&text);
    facts.push(f64::from(mentions_result_count(&text)));
    facts.push(f64::from(sort_controls > 0));
    facts.push(ln(calls_to_action));
    facts
}

/// The class groups a lower-case class token names, one bit per group of [`CLASS_GROUPS`]: a
/// word matches one of the token's `-`-separated parts, or (for the few words with a `-`) a run
/// of them. Looked up, not searched: a page has thousands of tokens.
fn class_groups_of(token: &str) -> u8 {
    static SINGLE_WORDS: OnceLock<HashMap<&'static str, u8>> = OnceLock::new();
    let single_words = SINGLE_WORDS.get_or_init(|| {
        let mut map: HashMap<&'static str, u8> = HashMap::default();
        for (group, (_, words)) in CLASS_GROUPS.iter().enumerate() {
            for word in words.iter().filter(|word| !word.contains('-')) {
                *map.entry(word).or_default() |= 1 << group;
            }
        }
        map
    });
    static HYPHENATED_WORDS: OnceLock<Vec<(&'static str, u8)>> = OnceLock::new();
    let hyphenated_words = HYPHENATED_WORDS.get_or_init(|| {
        CLASS_GROUPS
            .iter()
            .enumerate()
            .flat_map(|(group, (_, words))| {
                words
                    .iter()
                    .filter(|word| word.contains('-'))
                    .map(move |word| (*word, 1 << group))
            })
            .collect()
    });
    let mut groups = token
        .split('-')
        .filter_map(|part| single_words.get(part))
        .fold(0, |groups, bits| groups | bits);
    if token.contains('-') {
        for &(word, bit) in hyphenated_words {
            if names_part(token, word) {
                groups |= bit;
            }
        }
    }
    groups
}

/// Whether a class token is `word` or holds it as a `-`-separated part.
fn names_part(token: &str, word: &str) -> bool {
    token.match_indices(word).any(|(start, _)| {
        let end = start + word.len();
        (start == 0 || token.as_bytes()[start - 1] == b'-')
            && (end == token.len() || token.as_bytes()[end] == b'-')
    })
}

/// Runs of characters between ASCII whitespace: the facts' word count, a byte scan (the text
/// of a page is read several times over).
fn word_count(text: &str) -> usize {
    let mut words = 0;
    let mut in_word = false;
    for byte in text.bytes() {
        let space = byte.is_ascii_whitespace();
        words += usize::from(!space && !in_word);
        in_word = !space;
    }
    words
}

/// Every text node of the page, a space between them.
fn page_text(dom: &Dom) -> String {
    let mut text = String::with_capacity(dom.texts.iter().map(|node| node.text.len() + 1).sum());
    for node in &dom.texts {
        text.push_str(&node.text);
        text.push(' ');
    }
    text
}

/// "1,204 results", "36 products": a number followed by a noun of results.
fn mentions_result_count(text: &str) -> bool {
    let is_number = |word: &str| {
        word.starts_with(|c: char| c.is_ascii_digit())
            && word
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
    };
    let mut words = text.split_ascii_whitespace();
    let mut previous = words.next();
    words.any(|word| {
        let noun = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        let counted = previous.is_some_and(is_number)
            && RESULT_NOUNS
                .iter()
                .any(|result| result.eq_ignore_ascii_case(noun));
        previous = Some(word);
        counted
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
fn basic_facts(
    page: &Page,
    content_text: &str,
    content_phrases: &[usize; PHRASE_GROUPS.len()],
    extracted: &Extracted,
) -> [f64; BASIC_FACT_COUNT] {
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
    let words = TextWords::of(dom);
    let content_words = word_count(content_text);
    let main_words = word_count(&extracted.main_text);
    let main_paragraphs = extracted.main_blocks.len();
    let ln = |count: usize| (count as f64).ln_1p();
    features[8] = ln(price_mentions(content_text));
    features[9] = words.code as f64 / words.all.max(1) as f64;
    features[10] = ln(counts.articles);
    features[11] = ln(counts.headings);
    features[12] = ln(counts.times);
    features[13] = ln(counts.buttons);
    features[14] = ln(counts.images);
    features[15] = ln(words.all);
    features[16] = main_words as f64 / content_words.max(1) as f64;
    features[17] = ln(main_paragraphs);
    features[18] = ln(main_words / main_paragraphs.max(1));
    features[19] = words.linked as f64 / words.all.max(1) as f64;
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
    features[28] = words.in_list_items as f64 / words.all.max(1) as f64;
    features[29] = ln(most_repeated_block(dom));
    let per_thousand = |found: usize| (1000.0 * found as f64 / content_words.max(1) as f64).ln_1p();
    features[30] = per_thousand(content_phrases[0]);
    features[31] = per_thousand(content_phrases[1]);
    features
}

/// How many elements share the most common (tag, class) among elements that have a class and
/// hold text of their own words: a listing's cards, a thread's posts.
fn most_repeated_block(dom: &Dom) -> usize {
    let mut counts: HashMap<(&str, &str), usize> = HashMap::default();
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

/// Words of the page's text, in all and in places that tell its type: one pass over the text.
struct TextWords {
    all: usize,
    code: usize,
    linked: usize,
    in_list_items: usize,
}

impl TextWords {
    fn of(dom: &Dom) -> TextWords {
        let in_code = dom.within(|element| matches!(element.tag.as_str(), "pre" | "code"));
        let in_link = dom.within_links();
        let in_list_item = dom.within(|element| element.tag == "li");
        let mut words = TextWords {
            all: 0,
            code: 0,
            linked: 0,
            in_list_items: 0,
        };
        for text in &dom.texts {
            let count = word_count(&text.text);
            let parent = text.parent.index();
            words.all += count;
            words.code += usize::from(in_code[parent]) * count;
            words.linked += usize::from(in_link[parent]) * count;
            words.in_list_items += usize::from(in_list_item[parent]) * count;
        }
        words
    }
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
        let post = 1 << 4;
        assert_eq!(class_groups_of("js-post-body") & post, post);
        assert_eq!(class_groups_of("postal") & post, 0);
        assert_eq!(class_groups_of("page-numbers"), 1 << 1);
        assert!(mentions_result_count("Showing 1,204 Results for shoes"));
        assert_eq!(
            phrase_counts("Add to Cart · REPLY · reply · Sort by price · get started"),
            [2, 1, 1, 1]
        );
        assert_eq!(word_count("  two\twords \n"), 2);
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
