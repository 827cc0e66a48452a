//! What the page's structured data says its main content is, when its visible text lacks it: a
//! product's description in JSON-LD (shops often show it only in a tab a script fills, or not at
//! all, while search engines read it from `<script type="application/ld+json">`).

use std::collections::HashSet;

use serde_json::Value;

use crate::metadata::decode_entities;

/// Words a JSON-LD description needs to be worth adding: fewer are a tagline.
const MIN_DESCRIPTION_WORDS: usize = 20;

/// The share of the description's distinct words the main text must already hold for the
/// description to count as shown. Chosen on WCXB's development pages with a product
/// description in JSON-LD (35; product main-text F1 .540 → .591; a service page whose
/// Organization description the page shows, .76 → .79, no page down by more than .09).
const SHOWN_SHARE: f64 = 0.5;

/// The product description of the page's JSON-LD (the longest, HTML tags removed) when it has
/// at least [`MIN_DESCRIPTION_WORDS`] words and `main_text` holds under [`SHOWN_SHARE`] of them.
pub fn missing_product_description(json_ld: &[Value], main_text: &str) -> Option<String> {
    let mut descriptions = Vec::new();
    for value in json_ld {
        collect_product_descriptions(value, &mut descriptions);
    }
    let description = descriptions
        .into_iter()
        .map(|description| plain_text(&description))
        .max_by_key(|description| description.len())?;
    let described = distinct_words(&description);
    if description.split_whitespace().count() < MIN_DESCRIPTION_WORDS {
        return None;
    }
    let shown = distinct_words(main_text);
    let held = described.intersection(&shown).count();
    ((held as f64) < SHOWN_SHARE * described.len() as f64).then_some(description)
}

fn collect_product_descriptions(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            let is_product = match map.get("@type") {
                Some(Value::String(kind)) => is_product_type(kind),
                Some(Value::Array(kinds)) => {
                    kinds.iter().filter_map(Value::as_str).any(is_product_type)
                }
                _ => false,
            };
            if is_product && let Some(Value::String(description)) = map.get("description") {
                found.push(description.clone());
            }
            map.values()
                .for_each(|inner| collect_product_descriptions(inner, found));
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_product_descriptions(item, found)),
        _ => {}
    }
}

fn is_product_type(kind: &str) -> bool {
    kind.eq_ignore_ascii_case("product") || kind.eq_ignore_ascii_case("productgroup")
}

/// Text without HTML tags (descriptions often carry `<p>` and `<br>`) or character references
/// (`&amp;`), whitespace collapsed.
fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' if in_tag => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    decode_entities(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn distinct_words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product(description: &str) -> Vec<Value> {
        vec![
            serde_json::json!({"@graph": [{"@type": ["Product"], "name": "Kettle",
            "description": description}]}),
        ]
    }

    #[test]
    fn a_product_description_the_page_does_not_show_is_added_once() {
        let description = "<p>A kettle of brushed steel that boils a litre in three minutes, \
            switches itself off when dry, and keeps the water warm for an hour afterwards &amp; \
            more.</p>";
        let added = missing_product_description(&product(description), "Kettle. Add to cart.");
        assert_eq!(
            added.as_deref(),
            Some(
                "A kettle of brushed steel that boils a litre in three minutes, switches itself \
                 off when dry, and keeps the water warm for an hour afterwards & more."
            )
        );
        let shown = added.unwrap();
        assert_eq!(
            missing_product_description(&product(description), &shown),
            None
        );
        assert_eq!(missing_product_description(&product("A kettle."), ""), None);
        let article = vec![serde_json::json!({"@type": "Article", "description": description})];
        assert_eq!(missing_product_description(&article, ""), None);
    }
}
