//! Schema.org metadata from a page's JSON-LD (`<script type="application/ld+json">`): the main
//! item (an article first, then another creative work, then a web page), its headline, authors,
//! dates, publisher, image, description and language.
//!
//! The scripts are the page's, so never trusted: a script too large, or JSON serde_json refuses
//! (it also refuses nesting deeper than 128 levels), is skipped; at most [`MAX_SCRIPTS`] scripts
//! and [`MAX_ITEMS`] items are read; values are bounded later, with every other source's.

use std::collections::HashMap;

use serde_json::Value;

use crate::page::{Child, Dom};

/// Largest script parsed, in bytes: real ones (an article body included) are under 100 KB.
const MAX_SCRIPTS_BYTES: usize = 1024 * 1024;

/// Scripts read per page.
const MAX_SCRIPTS: usize = 32;

/// Items (top-level objects, array elements, `@graph` members) read per page.
const MAX_ITEMS: usize = 256;

/// Authors named at most; more are a list of contributors, not a byline.
const MAX_AUTHORS: usize = 10;

/// What the page's JSON-LD says, each value as written (HTML entities decoded).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct StructuredData {
    /// The main item's `headline`.
    pub headline: Option<String>,
    /// The main item's `name` (Wikipedia's is the headline, its `headline` a description).
    pub name: Option<String>,
    /// The main item's `author` names, joined by ", " (not `creator`: often a user name).
    pub author: Option<String>,
    /// `datePublished`, as written.
    pub published: Option<String>,
    /// `dateCreated`, else `uploadDate`: weaker than a page's published-time tags (a CMS
    /// record's creation, often in another time zone than the page's own dates).
    pub created: Option<String>,
    /// `inLanguage` of the main item, else of any item.
    pub language: Option<String>,
    /// The main item's `publisher` name, else the `WebSite` item's name.
    pub site_name: Option<String>,
    /// The main item's `url`, else its `mainEntityOfPage`.
    pub url: Option<String>,
    /// The main item's `description`.
    pub description: Option<String>,
    /// The main item's first `image` URL.
    pub image: Option<String>,
}

/// How much an item looks like the page's main content: lower is better.
fn item_rank(types: &[&str]) -> Option<u8> {
    let article = |t: &str| {
        t.ends_with("Article")
            || matches!(
                t,
                "BlogPosting"
                    | "LiveBlogPosting"
                    | "SocialMediaPosting"
                    | "DiscussionForumPosting"
                    | "Report"
                    | "Review"
            )
    };
    let web_page = |t: &str| t.ends_with("Page");
    let not_main = |t: &str| {
        matches!(
            t,
            "WebSite"
                | "Organization"
                | "NewsMediaOrganization"
                | "Corporation"
                | "Person"
                | "BreadcrumbList"
                | "ListItem"
                | "ImageObject"
                | "SiteNavigationElement"
                | "WPHeader"
                | "WPFooter"
                | "WPSideBar"
                | "SearchAction"
                | "Place"
                | "PostalAddress"
        )
    };
    if types.iter().any(|t| article(t)) {
        Some(0)
    } else if types.iter().any(|t| web_page(t)) {
        Some(2)
    } else if types.is_empty() || types.iter().all(|t| not_main(t)) {
        None
    } else {
        Some(1)
    }
}

/// The JSON-LD metadata of a page; empty when it has none that parses.
pub fn structured_data(dom: &Dom) -> StructuredData {
    let mut items = Vec::new();
    let scripts = dom.ids().filter(|&id| {
        let element = dom.element(id);
        element.tag == "script"
            && element
                .attribute("type")
                .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("application/ld+json"))
    });
    for script in scripts.take(MAX_SCRIPTS) {
        let mut text = String::new();
        for child in &dom.element(script).children {
            if let Child::Text(index) = child {
                text.push_str(&dom.texts[*index as usize].text);
            }
        }
        if text.len() > MAX_SCRIPTS_BYTES {
            continue;
        }
        if let Some(value) = parse_lenient(&text) {
            collect_items(value, &mut items, 0);
        }
    }
    read_items(&items)
}

/// The script's JSON, also when wrapped in an HTML comment or a CDATA section (`<![CDATA[ … ]]>`,
/// `//<![CDATA[ … //]]>`), as old pages and serialized DOMs have it.
fn parse_lenient(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok().or_else(|| {
        let mut unwrapped = text.trim();
        loop {
            let before = unwrapped;
            for wrapper in ["<!--", "//", "<![CDATA["] {
                unwrapped = unwrapped
                    .strip_prefix(wrapper)
                    .unwrap_or(unwrapped)
                    .trim_start();
            }
            for wrapper in ["-->", "]]>", "//"] {
                unwrapped = unwrapped
                    .strip_suffix(wrapper)
                    .unwrap_or(unwrapped)
                    .trim_end();
            }
            if unwrapped == before {
                break;
            }
        }
        serde_json::from_str(unwrapped).ok()
    })
}

/// Top-level objects, members of arrays and of `@graph` (nested at most three levels).
fn collect_items(value: Value, items: &mut Vec<Value>, depth: u8) {
    if items.len() >= MAX_ITEMS || depth > 3 {
        return;
    }
    match value {
        Value::Array(values) => {
            for value in values {
                collect_items(value, items, depth + 1);
            }
        }
        Value::Object(mut object) => {
            let graph = object.remove("@graph");
            items.push(Value::Object(object));
            if let Some(graph) = graph {
                collect_items(graph, items, depth + 1);
            }
        }
        _ => {}
    }
}

/// The fields of the best-ranked item, references (`{"@id": …}`) resolved among the items.
fn read_items(items: &[Value]) -> StructuredData {
    let by_id: HashMap<&str, &Value> = items
        .iter()
        .filter_map(|item| Some((item.get("@id")?.as_str()?, item)))
        .collect();
    let resolve = |value: &'_ Value| -> Value {
        match value.get("@id").and_then(Value::as_str) {
            Some(id) if value.as_object().is_some_and(|o| o.len() == 1) => by_id
                .get(id)
                .map_or_else(|| value.clone(), |&item| item.clone()),
            _ => value.clone(),
        }
    };
    let main = items
        .iter()
        .filter_map(|item| Some((item_rank(&types(item))?, item)))
        .min_by_key(|(rank, _)| *rank)
        .map(|(_, item)| item);
    let website = items.iter().find(|item| types(item).contains(&"WebSite"));
    let language = main
        .and_then(|item| item.get("inLanguage"))
        .or_else(|| items.iter().find_map(|item| item.get("inLanguage")))
        .and_then(language_text);
    let Some(main) = main else {
        return StructuredData {
            site_name: website.and_then(|site| field_text(site, "name")),
            language,
            ..StructuredData::default()
        };
    };
    let first = |keys: &[&str]| keys.iter().find_map(|key| field_text(main, key));
    let author = main
        .get("author")
        .and_then(|authors| author_names(authors, &resolve));
    let site_name = main
        .get("publisher")
        .map(|publisher| resolve(first_of(publisher)))
        .and_then(|publisher| field_text(&publisher, "name"))
        .or_else(|| website.and_then(|site| field_text(site, "name")));
    let url = field_text(main, "url").or_else(|| {
        let page = main.get("mainEntityOfPage")?;
        text(page).or_else(|| field_text(page, "@id"))
    });
    let image = main.get("image").and_then(|image| {
        let image = resolve(first_of(image));
        text(&image).or_else(|| {
            ["url", "contentUrl"]
                .iter()
                .find_map(|k| field_text(&image, k))
        })
    });
    StructuredData {
        headline: first(&["headline"]),
        name: first(&["name"]),
        author,
        published: first(&["datePublished"]),
        created: first(&["dateCreated", "uploadDate"]),
        language,
        site_name,
        url,
        description: first(&["description"]),
        image,
    }
}

/// An item's `@type`s without a `schema:` or `https://schema.org/` prefix.
fn types(item: &Value) -> Vec<&str> {
    let names: Vec<&str> = match item.get("@type") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    names
        .into_iter()
        .map(|name| name.rsplit(['/', ':']).next().unwrap_or(name))
        .collect()
}

/// The first element of an array, or the value itself.
fn first_of(value: &Value) -> &Value {
    match value {
        Value::Array(values) => values.first().unwrap_or(value),
        _ => value,
    }
}

/// A string, a `{"@value": …}`, or the first of an array of them; entities decoded.
fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(decode_entities(text)),
        Value::Object(object) => object.get("@value").and_then(text),
        Value::Array(values) => values.iter().find_map(text),
        _ => None,
    }
}

fn field_text(item: &Value, key: &str) -> Option<String> {
    text(item.get(key)?)
}

/// `inLanguage` as a string, or a `Language` item's `alternateName` (its code) or `name`.
fn language_text(value: &Value) -> Option<String> {
    text(value).or_else(|| {
        let value = first_of(value);
        field_text(value, "alternateName").or_else(|| field_text(value, "name"))
    })
}

/// Author names: a string, a `Person`/`Organization` (by reference too) with a `name` (or given
/// and family names), or an array of them; joined by ", ".
fn author_names(authors: &Value, resolve: &dyn Fn(&Value) -> Value) -> Option<String> {
    let entries: Vec<&Value> = match authors {
        Value::Array(values) => values.iter().take(MAX_AUTHORS).collect(),
        value => vec![value],
    };
    let mut names: Vec<String> = Vec::new();
    for entry in entries {
        let entry = resolve(entry);
        let name = text(&entry)
            .or_else(|| field_text(&entry, "name"))
            .or_else(|| {
                let given = field_text(&entry, "givenName")?;
                Some(match field_text(&entry, "familyName") {
                    Some(family) => format!("{given} {family}"),
                    None => given,
                })
            });
        if let Some(name) = name.map(|name| name.trim().to_string())
            && !name.is_empty()
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    (!names.is_empty()).then(|| names.join(", "))
}

/// Decodes the HTML character references pages leave in JSON-LD strings (`&amp;`, `&#8217;`,
/// `&#x2019;`, the common named ones); anything else stays as written.
pub fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut decoded = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('&') {
        decoded.push_str(&rest[..start]);
        rest = &rest[start..];
        let reference = rest[1..]
            .find(';')
            .filter(|&end| end <= 10)
            .map(|end| &rest[1..=end]);
        let character = reference.and_then(|name| match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            "ndash" => Some('–'),
            "mdash" => Some('—'),
            "lsquo" => Some('‘'),
            "rsquo" => Some('’'),
            "ldquo" => Some('“'),
            "rdquo" => Some('”'),
            "hellip" => Some('…'),
            _ => {
                let number = name.strip_prefix('#')?;
                let code = match number.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => number.parse().ok()?,
                };
                char::from_u32(code)
            }
        });
        match (reference, character) {
            (Some(name), Some(character)) => {
                decoded.push(character);
                rest = &rest[name.len() + 2..];
            }
            _ => {
                decoded.push('&');
                rest = &rest[1..];
            }
        }
    }
    decoded.push_str(rest);
    decoded
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::test_dom;

    fn data(scripts: &[&str]) -> StructuredData {
        let html: String = scripts
            .iter()
            .map(|json| format!("<script type=\"application/ld+json\">{json}</script>"))
            .collect();
        structured_data(&test_dom(&html))
    }

    #[test]
    fn the_article_in_a_graph_is_the_main_item_and_its_references_are_resolved() {
        let found = data(&[r##"{"@context": "https://schema.org", "@graph": [
            {"@type": "WebSite", "@id": "#site", "name": "The Site"},
            {"@type": "Organization", "@id": "#org", "name": "Example Media"},
            {"@type": "WebPage", "name": "Page name", "url": "https://example.com/a"},
            {"@type": ["NewsArticle"], "headline": "Rain &amp; wind", "datePublished": "2021-03-05T10:00:00+01:00",
             "author": [{"@type": "Person", "name": "Ann Lee"}, "Bo Chen", {"@id": "#p3"}],
             "publisher": {"@id": "#org"}, "image": [{"@type": "ImageObject", "url": "https://example.com/i.jpg"}],
             "inLanguage": "en-GB", "mainEntityOfPage": {"@id": "https://example.com/a"}},
            {"@type": "Person", "@id": "#p3", "name": "Cy Diaz"}]}"##]);
        assert_eq!(found.headline.as_deref(), Some("Rain & wind"));
        assert_eq!(found.author.as_deref(), Some("Ann Lee, Bo Chen, Cy Diaz"));
        assert_eq!(
            found.published.as_deref(),
            Some("2021-03-05T10:00:00+01:00")
        );
        assert_eq!(found.site_name.as_deref(), Some("Example Media"));
        assert_eq!(found.image.as_deref(), Some("https://example.com/i.jpg"));
        assert_eq!(found.url.as_deref(), Some("https://example.com/a"));
        assert_eq!(found.language.as_deref(), Some("en-GB"));
    }

    #[test]
    fn a_top_level_array_and_several_scripts_are_all_read() {
        let found = data(&[
            r#"{"@type": "BreadcrumbList", "itemListElement": []}"#,
            r#"[{"@type": "WebSite", "name": "Blog of Ann"}, {"@type": "BlogPosting", "name": "Hello", "author": "Ann"}]"#,
        ]);
        assert_eq!(found.name.as_deref(), Some("Hello"));
        assert_eq!(found.author.as_deref(), Some("Ann"));
        assert_eq!(
            found.site_name.as_deref(),
            Some("Blog of Ann"),
            "no publisher: the WebSite"
        );
    }

    #[test]
    fn malformed_or_hostile_json_is_skipped_and_the_rest_still_read() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let huge = format!(
            r#"{{"@type": "Article", "headline": "{}"}}"#,
            "x".repeat(2 * MAX_SCRIPTS_BYTES)
        );
        let found = data(&[
            r#"{"@type": "Article", "headline": "broken","#,
            &deep,
            &huge,
            r#"<!-- {"@type": "Article", "headline": "Commented out"} -->"#,
            "<![CDATA[ [] ]]>",
        ]);
        assert_eq!(found.headline.as_deref(), Some("Commented out"));
        assert_eq!(
            data(&["null", "42", "\"text\"", "{}"]),
            StructuredData::default()
        );
    }

    #[test]
    fn entities_are_decoded_and_broken_ones_kept() {
        assert_eq!(
            decode_entities("Don&#8217;t &amp; &#x2019; &bogus; & x&"),
            "Don’t & ’ &bogus; & x&"
        );
        assert_eq!(decode_entities("&#99999999999;"), "&#99999999999;");
    }
}
