//! What makes a page's value acceptable as metadata: bounded lengths, a name that is not a URL
//! or a handle, URLs made absolute against the page's base.

use url::Url;

use super::date::{opens_a_date, parse_date};
use crate::page::{Page, collapse_whitespace};

/// Longest title kept, in characters: a longer one is a paragraph, not a headline.
pub const MAX_TITLE_CHARS: usize = 300;
/// Longest byline kept, in characters (several names fit).
const MAX_AUTHOR_CHARS: usize = 200;
/// Most names joined into one byline from repeated tags (`citation_author`, `DC.creator`).
const MAX_JOINED_NAMES: usize = 10;
/// Longest site name kept, in characters.
pub const MAX_SITE_NAME_CHARS: usize = 120;
/// Longest description kept, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 2_000;
/// Longest URL kept, in bytes.
const MAX_URL_BYTES: usize = 2_048;

/// The value with whitespace collapsed, if it has a letter or digit and at most `max_chars`.
pub fn bounded(value: &str, max_chars: usize) -> Option<String> {
    let value = collapse_whitespace(value);
    let fits = value.chars().count() <= max_chars && value.chars().any(char::is_alphanumeric);
    fits.then_some(value)
}

/// A byline as a name: no "By"/"Written by" lead, no date after it, no URL or @handle
/// (`article:author` is often a profile URL).
pub fn clean_author(value: &str) -> Option<String> {
    let value = bounded(value, MAX_AUTHOR_CHARS)?;
    let lower = value.to_lowercase();
    if lower.contains("://") || lower.starts_with("www.") || value.starts_with('@') {
        return None;
    }
    let lead = ["written by", "posted by", "by", "par", "por", "von"]
        .iter()
        .find_map(|lead| {
            let rest = lower.strip_prefix(lead)?;
            (rest.is_empty() || rest.starts_with([' ', ':'])).then_some(lead.len())
        });
    let name = match lead {
        Some(length) => value[length..].trim_start_matches([' ', ':']),
        None => value.as_str(),
    };
    let name = without_trailing_date(name);
    name.chars()
        .any(char::is_alphabetic)
        .then(|| name.to_string())
}

/// A name without the date a byline element shows after it (`Joe Wee Monday, February 29, 2016
/// @ 11:10 PM UTC`, `Ann Lee | 5 March 2021`): the date starts at a word that can open one (a
/// number, a month or a weekday) and reads as a whole date. A byline that is a date alone is
/// left empty (`April 28, 2019 at 6:01 am`), and so is a labelled date (`Last Updated: January
/// 7, 2025`); `April Lee` is a name.
fn without_trailing_date(name: &str) -> &str {
    let word_starts = name.char_indices().filter(|&(at, c)| {
        !c.is_whitespace() && (at == 0 || name[..at].ends_with(char::is_whitespace))
    });
    for (start, _) in word_starts {
        let rest = &name[start..];
        if opens_a_date(rest.split_whitespace().next().unwrap_or_default())
            && parse_date(rest).is_some()
        {
            let before = name[..start].trim_end();
            // `Last Updated: January 7, 2025`: what a colon ends before the date is its
            // label, not a name.
            if before.ends_with(':') {
                return "";
            }
            return before.trim_end_matches(|c: char| {
                c.is_whitespace()
                    || matches!(c, ',' | '|' | '-' | '–' | '—' | '·' | '•' | ':' | '/' | '@')
            });
        }
    }
    name
}

/// Several authors as one byline, repeated names once: joined by ", ", or by "; " when a name
/// has a comma of its own (`Kooman, F.; Jong, Michiel de`: catalogue names put the family name
/// first).
pub fn join_names<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut unique: Vec<&str> = Vec::new();
    for name in names.into_iter().map(str::trim) {
        if !name.is_empty() && !unique.contains(&name) && unique.len() < MAX_JOINED_NAMES {
            unique.push(name);
        }
    }
    let separator = if unique.iter().any(|name| name.contains(',')) {
        "; "
    } else {
        ", "
    };
    unique.join(separator)
}

/// The page's base for relative URLs: its `<base href>` (resolved against the page URL), else
/// the page URL.
pub fn base_url(page: &Page) -> Option<Url> {
    let base_href = page
        .dom
        .ids()
        .filter(|&id| page.dom.element(id).tag == "base")
        .find_map(|id| page.dom.element(id).attribute("href"))
        .map(str::trim);
    match (base_href, &page.url) {
        (Some(href), Some(url)) => url.join(href).ok().or(Some(url.clone())),
        (Some(href), None) => Url::parse(href).ok(),
        (None, url) => url.clone(),
    }
}

/// The value as an absolute http(s) URL, relative ones resolved against `base`.
pub fn absolute_url(value: &str, base: Option<&Url>) -> Option<String> {
    let value = value.trim();
    if value.len() > MAX_URL_BYTES {
        return None;
    }
    let url = match base {
        Some(base) => base.join(value).ok()?,
        None => Url::parse(value).ok()?,
    };
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

/// Names a host goes by as a site: `www.ehow.com` → `ehow.com`, `ehow`.
pub fn host_names(host: &str) -> Vec<String> {
    let host = host.strip_prefix("www.").unwrap_or(host);
    let mut names = vec![host.to_string()];
    if let Some((label, _)) = host.split_once('.') {
        names.push(label.to_string());
    }
    names
}
