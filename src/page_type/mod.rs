//! Page type: what kind of page this is — an article, documentation, a service page, a forum
//! thread, a product, a collection or a listing (WCXB's seven types) — with its probability.
//! A multinomial logistic regression (`pagelevel train-page-type`, `src/train/page_type.rs`)
//! over facts of the page itself: its structured data's `@type`s and OpenGraph type, prices,
//! code, repeated blocks, headings, forms, the URL's shape, and what the main-text choice kept.
//! Versioned JSON; the shipped one (`models/page-type.json`) is compiled in.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use url::Url;

use crate::extract::Extracted;
use crate::page::{Dom, Page};

/// The seven page types, in the order of a model's classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    /// A news story, a blog post, an essay.
    Article,
    /// A grid or list of items to browse (a category, a gallery, a shop's collection).
    Collection,
    /// Reference or how-to text, often with code.
    Documentation,
    /// A discussion: a question and its answers, a thread of posts.
    Forum,
    /// A list of results or entries, each a link with a snippet.
    Listing,
    /// One product: its name, price, description and specifications.
    Product,
    /// A company's or service's page: what it offers, in several sections.
    Service,
}

impl PageType {
    /// Every type, in class order.
    pub const ALL: [PageType; 7] = [
        PageType::Article,
        PageType::Collection,
        PageType::Documentation,
        PageType::Forum,
        PageType::Listing,
        PageType::Product,
        PageType::Service,
    ];

    /// The type's name (as in JSON and WCXB's labels).
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Collection => "collection",
            PageType::Documentation => "documentation",
            PageType::Forum => "forum",
            PageType::Listing => "listing",
            PageType::Product => "product",
            PageType::Service => "service",
        }
    }

    /// The type of a name (WCXB's label), `None` for another name.
    pub fn from_name(name: &str) -> Option<PageType> {
        PageType::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// The page's type and the model's probability of it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PageTypeGuess {
    /// The most probable type.
    #[serde(rename = "type")]
    pub page_type: PageType,
    /// Its probability, 0–1.
    pub probability: f64,
}

/// How many facts a page has.
pub const PAGE_TYPE_FEATURE_COUNT: usize = 32;

/// The facts' names, as the model file lists them.
pub const PAGE_TYPE_FEATURE_NAMES: [&str; PAGE_TYPE_FEATURE_COUNT] = [
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

/// The facts of one page, in the order of [`PAGE_TYPE_FEATURE_NAMES`].
pub type PageTypeFeatures = [f64; PAGE_TYPE_FEATURE_COUNT];

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

/// The facts of a scored page for its type: `content_text` is the segmentation's content,
/// `extracted` the main-text choice.
pub fn page_type_features(
    page: &Page,
    content_text: &str,
    extracted: &Extracted,
) -> PageTypeFeatures {
    let dom = &page.dom;
    let mut features = [0.0; PAGE_TYPE_FEATURE_COUNT];
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
    let mut counts: std::collections::HashMap<(&str, &str), usize> =
        std::collections::HashMap::new();
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
fn page_url(page: &Page) -> Option<Url> {
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

/// The page-type model file's format version.
pub const PAGE_TYPE_MODEL_VERSION: u32 = 1;

/// The shipped model's JSON.
const SHIPPED: &str = include_str!("../../models/page-type.json");

/// P(type) of a page from its standardised facts: one weight row per type (softmax).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageTypeModel {
    /// [`PAGE_TYPE_MODEL_VERSION`] of the writer.
    pub version: u32,
    /// The facts' names, in order: must be this pagelevel's.
    pub features: Vec<String>,
    /// The types, in the order of `weights` and `intercepts`.
    pub classes: Vec<PageType>,
    /// Per fact: the training mean subtracted before weighting.
    pub mean: Vec<f64>,
    /// Per fact: the training standard deviation divided by.
    pub scale: Vec<f64>,
    /// Per type: one weight per standardised fact.
    pub weights: Vec<Vec<f64>>,
    /// Per type: the intercept.
    pub intercepts: Vec<f64>,
    /// Pages trained on, per type.
    pub training_pages: Vec<(PageType, usize)>,
    /// Accuracy of the same fit on held-out folds of the training pages (by domain).
    pub cross_validated_accuracy: f64,
}

/// Why a page-type model file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PageTypeModelError {
    /// Not JSON of this shape.
    #[error("not a page-type model: {0}")]
    Json(#[from] serde_json::Error),
    /// Another version, other facts, or values that are not finite.
    #[error("page-type model cannot be used: {0}")]
    Invalid(String),
}

impl PageTypeModel {
    /// The model shipped with pagelevel.
    pub fn shipped() -> &'static PageTypeModel {
        static MODEL: OnceLock<PageTypeModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            PageTypeModel::from_json(SHIPPED).expect("the shipped page-type model is valid")
        })
    }

    /// Reads and checks a model file's JSON.
    pub fn from_json(json: &str) -> Result<PageTypeModel, PageTypeModelError> {
        let model: PageTypeModel = serde_json::from_str(json)?;
        let invalid = |reason: &str| Err(PageTypeModelError::Invalid(reason.to_string()));
        if model.version != PAGE_TYPE_MODEL_VERSION {
            return invalid("another version");
        }
        if model.features != PAGE_TYPE_FEATURE_NAMES {
            return invalid("its facts are not this pagelevel's");
        }
        let rows_fit = model.weights.len() == model.classes.len()
            && model.intercepts.len() == model.classes.len()
            && !model.classes.is_empty()
            && model
                .weights
                .iter()
                .all(|row| row.len() == PAGE_TYPE_FEATURE_COUNT);
        if !rows_fit
            || model.mean.len() != PAGE_TYPE_FEATURE_COUNT
            || model.scale.len() != PAGE_TYPE_FEATURE_COUNT
        {
            return invalid("one weight row and intercept per type, one mean and scale per fact");
        }
        let numbers = model
            .weights
            .iter()
            .flatten()
            .chain(&model.intercepts)
            .chain(&model.mean)
            .chain(&model.scale);
        if numbers.clone().any(|value| !value.is_finite()) || model.scale.iter().any(|&s| s <= 0.0)
        {
            return invalid("numbers must be finite and scales positive");
        }
        Ok(model)
    }

    /// The probability of each of `classes` for a page with these facts.
    pub fn probabilities(&self, features: &PageTypeFeatures) -> Vec<f64> {
        let standardised: Vec<f64> = features
            .iter()
            .zip(&self.mean)
            .zip(&self.scale)
            .map(|((value, mean), scale)| (value - mean) / scale)
            .collect();
        let logits: Vec<f64> = self
            .weights
            .iter()
            .zip(&self.intercepts)
            .map(|(row, intercept)| {
                row.iter()
                    .zip(&standardised)
                    .map(|(w, x)| w * x)
                    .sum::<f64>()
                    + intercept
            })
            .collect();
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = logits.iter().map(|logit| (logit - top).exp()).collect();
        let total: f64 = exp.iter().sum();
        exp.iter().map(|value| value / total).collect()
    }

    /// The most probable type of a page with these facts.
    pub fn guess(&self, features: &PageTypeFeatures) -> PageTypeGuess {
        let probabilities = self.probabilities(features);
        let (best, &probability) = probabilities
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .expect("a model has classes");
        PageTypeGuess {
            page_type: self.classes[best],
            probability,
        }
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
    fn the_shipped_model_reads_and_gives_a_distribution() {
        let model = PageTypeModel::shipped();
        let probabilities = model.probabilities(&[0.0; PAGE_TYPE_FEATURE_COUNT]);
        assert_eq!(probabilities.len(), model.classes.len());
        assert!((probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let mut other = model.clone();
        other.features[0] = "colour".into();
        assert!(PageTypeModel::from_json(&serde_json::to_string(&other).unwrap()).is_err());
    }
}
