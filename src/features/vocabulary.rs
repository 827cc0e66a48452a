//! Hand-written word lists, in one place: class/id tokens that name a template or content role,
//! and English stop words removed before comparing a node's text with the page title.

/// A role a `class` or `id` token can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleGroup {
    /// Menus, breadcrumbs, pagination, tables of contents (`nav`, `menu`, `breadcrumb`, …).
    Navigation,
    /// The page banner: masthead, logo, branding (`header`, `masthead`, `logo`, …).
    Header,
    /// Footer, copyright and legal notes (`footer`, `copyright`, `legal`, …).
    Footer,
    /// Side columns and widgets (`sidebar`, `aside`, `widget`, `rail`, …).
    Sidebar,
    /// User comments and reply forms (`comment`, `reply`, `disqus`, …).
    Comment,
    /// Social sharing and follow buttons (`share`, `social`, `twitter`, …).
    Share,
    /// Links to other articles (`related`, `popular`, `trending`, `teaser`, …).
    Related,
    /// Advertisements and sponsored blocks (`ad`, `advert`, `sponsor`, …).
    Advertising,
    /// The page's own content (`content`, `article`, `post`, `story`, `main`, …).
    Content,
}

/// Tokens of `class`/`id` values (split at non-alphanumerics and camelCase, matched ignoring
/// ASCII case) and the role each names. These are the strong signals practitioners rely on
/// (Readability, trafilatura).
pub const ROLE_TOKENS: &[(&str, RoleGroup)] = &[
    ("nav", RoleGroup::Navigation),
    ("navbar", RoleGroup::Navigation),
    ("navigation", RoleGroup::Navigation),
    ("menu", RoleGroup::Navigation),
    ("menubar", RoleGroup::Navigation),
    ("topnav", RoleGroup::Navigation),
    ("breadcrumb", RoleGroup::Navigation),
    ("breadcrumbs", RoleGroup::Navigation),
    ("toc", RoleGroup::Navigation),
    ("pager", RoleGroup::Navigation),
    ("pagination", RoleGroup::Navigation),
    ("tabs", RoleGroup::Navigation),
    ("header", RoleGroup::Header),
    ("masthead", RoleGroup::Header),
    ("banner", RoleGroup::Header),
    ("logo", RoleGroup::Header),
    ("branding", RoleGroup::Header),
    ("topbar", RoleGroup::Header),
    ("footer", RoleGroup::Footer),
    ("foot", RoleGroup::Footer),
    ("copyright", RoleGroup::Footer),
    ("legal", RoleGroup::Footer),
    ("colophon", RoleGroup::Footer),
    ("sidebar", RoleGroup::Sidebar),
    ("side", RoleGroup::Sidebar),
    ("aside", RoleGroup::Sidebar),
    ("widget", RoleGroup::Sidebar),
    ("rail", RoleGroup::Sidebar),
    ("sphinxsidebar", RoleGroup::Sidebar),
    ("comment", RoleGroup::Comment),
    ("comments", RoleGroup::Comment),
    ("reply", RoleGroup::Comment),
    ("respond", RoleGroup::Comment),
    ("disqus", RoleGroup::Comment),
    ("share", RoleGroup::Share),
    ("sharing", RoleGroup::Share),
    ("social", RoleGroup::Share),
    ("follow", RoleGroup::Share),
    ("facebook", RoleGroup::Share),
    ("twitter", RoleGroup::Share),
    ("related", RoleGroup::Related),
    ("recommended", RoleGroup::Related),
    ("popular", RoleGroup::Related),
    ("trending", RoleGroup::Related),
    ("promo", RoleGroup::Related),
    ("teaser", RoleGroup::Related),
    ("more", RoleGroup::Related),
    ("ad", RoleGroup::Advertising),
    ("ads", RoleGroup::Advertising),
    ("advert", RoleGroup::Advertising),
    ("advertisement", RoleGroup::Advertising),
    ("sponsor", RoleGroup::Advertising),
    ("sponsored", RoleGroup::Advertising),
    ("adsense", RoleGroup::Advertising),
    ("dfp", RoleGroup::Advertising),
    ("content", RoleGroup::Content),
    ("article", RoleGroup::Content),
    ("post", RoleGroup::Content),
    ("entry", RoleGroup::Content),
    ("story", RoleGroup::Content),
    ("main", RoleGroup::Content),
    ("body", RoleGroup::Content),
    ("text", RoleGroup::Content),
    ("document", RoleGroup::Content),
];

/// Common English function words (no content of their own), removed before title overlap.
pub const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "but", "by", "can", "could", "de", "did", "do", "does", "for", "from", "had", "has", "have",
    "he", "her", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "la", "le",
    "more", "my", "new", "no", "not", "of", "on", "one", "or", "our", "out", "over", "she", "so",
    "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "up",
    "us", "was", "we", "were", "what", "when", "which", "who", "will", "with", "would", "you",
    "your",
];

/// Splits a `class` or `id` value into tokens: at every non-alphanumeric character and at
/// lower→upper camelCase boundaries (`mainNav` → `main`, `Nav`), digits dropped. Tokens are
/// slices of the value, in its case: [`ROLE_TOKENS`] are matched ignoring ASCII case, with no
/// token copied (this ran once per element and was 3% of a page's instructions when it did).
pub fn role_tokens(value: &str) -> impl Iterator<Item = &str> + '_ {
    value
        .split(|c: char| !c.is_ascii_alphabetic())
        .flat_map(camel_case_parts)
}

/// A word of ASCII letters cut before every upper-case letter that follows a lower-case one.
fn camel_case_parts(word: &str) -> impl Iterator<Item = &str> + '_ {
    let bytes = word.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let end = (start + 1..bytes.len())
            .find(|&at| bytes[at].is_ascii_uppercase() && bytes[at - 1].is_ascii_lowercase())
            .unwrap_or(bytes.len());
        let part = &word[start..end];
        start = end;
        Some(part)
    })
}

/// The role groups named by an element's `class` and `id` values.
pub fn roles_of(class: Option<&str>, id: Option<&str>) -> Vec<RoleGroup> {
    let mut roles = Vec::new();
    for value in [class, id].into_iter().flatten() {
        for token in role_tokens(value) {
            if let Some((_, role)) = ROLE_TOKENS
                .iter()
                .find(|(known, _)| known.eq_ignore_ascii_case(token))
                && !roles.contains(role)
            {
                roles.push(*role);
            }
        }
    }
    roles
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The split as first written: lower-cased copies of each token.
    fn lower_case_tokens(value: &str) -> Vec<String> {
        let mut tokens = Vec::new();
        for word in value.split(|c: char| !c.is_ascii_alphabetic()) {
            let mut current = String::new();
            let mut previous_lower = false;
            for c in word.chars() {
                if c.is_ascii_uppercase() && previous_lower {
                    tokens.push(std::mem::take(&mut current));
                }
                previous_lower = c.is_ascii_lowercase();
                current.push(c.to_ascii_lowercase());
            }
            tokens.push(current);
        }
        tokens.retain(|token| !token.is_empty());
        tokens
    }

    proptest! {
        #[test]
        fn tokens_are_the_lower_cased_split_in_the_values_case(value in "[a-zA-Zé0-9_ -]{0,24}") {
            let tokens: Vec<String> =
                role_tokens(&value).map(|token| token.to_ascii_lowercase()).collect();
            prop_assert_eq!(tokens, lower_case_tokens(&value));
        }
    }

    #[test]
    fn class_values_split_into_role_tokens_at_separators_and_camel_case() {
        let tokens: Vec<&str> = role_tokens("site-header mainNav col_2 ABc").collect();
        assert_eq!(tokens, ["site", "header", "main", "Nav", "col", "ABc"]);
    }

    #[test]
    fn roles_come_from_class_and_id_without_repeats() {
        let roles = roles_of(Some("footer-links footer"), Some("sidebarAds"));
        assert_eq!(
            roles,
            [
                RoleGroup::Footer,
                RoleGroup::Sidebar,
                RoleGroup::Advertising
            ]
        );
    }
}
