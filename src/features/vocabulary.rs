//! Hand-written word lists, in one place: class/id tokens that name a template or content role,
//! and English stop words removed before comparing a node's text with the page title.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

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

/// The whole text of an advertisement's label, as sites print it above or inside the slot
/// (matched ignoring case, with the punctuation around it): a word of its own between an
/// article's paragraphs, which reads like a short paragraph of the article to every feature but
/// its meaning.
pub const ADVERTISING_LABELS: &[&str] = &[
    "ad",
    "ads",
    "advert",
    "advertisement",
    "advertisements",
    "advertising",
    "sponsored",
    "sponsored content",
    "paid content",
    "anzeige",
    "werbung",
    "publicité",
    "publicidad",
    "pubblicità",
    "reklama",
    "advertisement - scroll to continue",
    "story continues below advertisement",
    "article continues below advertisement",
    "article continues below this ad",
    "continue reading below",
];

/// Whether `text` is nothing but an advertisement's label ([`ADVERTISING_LABELS`]).
pub fn is_advertising_label(text: &str) -> bool {
    let trimmed = text.trim_matches(|c: char| !c.is_alphanumeric());
    // The longest label is 37 bytes: a longer text is not one, and needs no lower-cased copy.
    if trimmed.is_empty() || trimmed.len() > 40 {
        return false;
    }
    let words: Vec<String> = trimmed.split_whitespace().map(str::to_lowercase).collect();
    let normalised = words.join(" ");
    ADVERTISING_LABELS.contains(&normalised.as_str())
}

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

/// Splits a `class` or `id` value into tokens: each class name without a page builder's prefix
/// ([`without_builder_kind`]), at every non-alphanumeric character and at lower→upper camelCase
/// boundaries (`mainNav` → `main`, `Nav`), digits dropped. A run of letters and digits where a
/// letter follows a digit (`b3ad4`, `e3e5ad`) is a generated hash, not words: it gives no tokens
/// (split at its digits it would read `ad`, an advertisement). Tokens are slices of the value,
/// in its case: [`ROLE_TOKENS`] are matched ignoring ASCII case, with no token copied (this ran
/// once per element and was 3% of a page's instructions when it did).
pub fn role_tokens(value: &str) -> impl Iterator<Item = &str> + '_ {
    value
        .split_ascii_whitespace()
        .map(without_builder_kind)
        .flat_map(|name| name.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|run| !looks_generated(run))
        .flat_map(|run| run.split(|c: char| c.is_ascii_digit()))
        .flat_map(camel_case_parts)
}

/// Whether a run of ASCII letters and digits has a letter after a digit: a hash or generated
/// id (`b3ad4`, `x9f2k`), where a word with a number (`teaser2`, `col`) has none.
fn looks_generated(run: &str) -> bool {
    run.as_bytes()
        .windows(2)
        .any(|pair| pair[0].is_ascii_digit() && pair[1].is_ascii_alphabetic())
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

/// Prefixes a page builder puts on the class of every block it lays out, whatever the block
/// holds: Elementor wraps each heading, text and image of a page in an `elementor-widget`
/// (`elementor-widget-container`, `elementor-widget-text-editor`). That "widget" names the
/// builder's kind of block, not a sidebar's widget; what follows it still names a role
/// (`elementor-widget-nav-menu`).
const BUILDER_BLOCK_PREFIXES: &[&str] = &["elementor-widget"];

/// `name` without the page-builder prefix it starts with, if any.
fn without_builder_kind(name: &str) -> &str {
    BUILDER_BLOCK_PREFIXES
        .iter()
        .find_map(|prefix| {
            name.get(..prefix.len())
                .filter(|head| head.eq_ignore_ascii_case(prefix))
                .map(|_| &name[prefix.len()..])
        })
        .unwrap_or(name)
}

/// Class names a page builder gives each block it lays out beside a plain `widget`:
/// SiteOrigin's Page Builder sets every heading and text of a page as `so-panel widget
/// widget_text`. There "widget" names the builder's kind of block, not a sidebar's widget
/// (WCXB's development pages 0226 and 4572: their article's sections, all but the first, were
/// taken for a sidebar).
const BUILDER_PANELS: &[&str] = &["so-panel"];

/// Whether a `class` value names a page builder's block ([`BUILDER_PANELS`]).
pub fn names_a_builder_panel(class: Option<&str>) -> bool {
    class.is_some_and(|value| {
        value.split_ascii_whitespace().any(|name| {
            BUILDER_PANELS
                .iter()
                .any(|panel| name.eq_ignore_ascii_case(panel))
        })
    })
}

/// The role groups named by an element's `class` and `id` values.
pub fn roles_of(class: Option<&str>, id: Option<&str>) -> Vec<RoleGroup> {
    roles_in_block(class, id, false)
}

/// [`roles_of`] an element inside a page builder's block (`in_builder_panel`, or one itself),
/// where every `widget` is the builder's kind of block: SiteOrigin's panels hold its editor's
/// `so-widget-sow-editor` and WordPress's own `textwidget custom-html-widget`.
pub fn roles_in_block(
    class: Option<&str>,
    id: Option<&str>,
    in_builder_panel: bool,
) -> Vec<RoleGroup> {
    let builder_block = in_builder_panel || names_a_builder_panel(class);
    let tokens = [class, id].into_iter().flatten().flat_map(role_tokens);
    roles_of_tokens(tokens, builder_block)
}

/// [`roles_in_block`] of the [`role_tokens`] of an element's `class` and `id`, already read
/// (`builder_block`: in a page builder's block, or one itself).
pub fn roles_of_tokens<'a>(
    tokens: impl IntoIterator<Item = &'a str>,
    builder_block: bool,
) -> Vec<RoleGroup> {
    let mut roles = Vec::new();
    for token in tokens {
        if builder_block && token.eq_ignore_ascii_case("widget") {
            continue;
        }
        if let Some(role) = role_of_token(token)
            && !roles.contains(&role)
        {
            roles.push(role);
        }
    }
    roles
}

/// The role group a token of [`role_tokens`] names ([`ROLE_TOKENS`], ASCII case ignored; the
/// first entry wins). Looked up, not searched: every element's tokens are read, twice a page.
fn role_of_token(token: &str) -> Option<RoleGroup> {
    static BY_NAME: OnceLock<(FxHashMap<&'static str, RoleGroup>, usize)> = OnceLock::new();
    let (by_name, longest) = BY_NAME.get_or_init(|| {
        let mut by_name = FxHashMap::default();
        for &(name, role) in ROLE_TOKENS {
            by_name.entry(name).or_insert(role);
        }
        let longest = ROLE_TOKENS.iter().map(|(name, _)| name.len()).max();
        (by_name, longest.unwrap_or(0))
    });
    if token.len() > *longest {
        return None;
    }
    let mut buffer = [0u8; 64];
    let lower = buffer.get_mut(..token.len())?;
    lower.copy_from_slice(token.as_bytes());
    lower.make_ascii_lowercase();
    by_name.get(std::str::from_utf8(lower).ok()?).copied()
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
            // Generated runs (a letter after a digit) are the one place the split now differs.
            prop_assume!(!value.split(|c: char| !c.is_ascii_alphanumeric()).any(looks_generated));
            let tokens: Vec<String> =
                role_tokens(&value).map(|token| token.to_ascii_lowercase()).collect();
            prop_assert_eq!(tokens, lower_case_tokens(&value));
        }

        #[test]
        fn a_tokens_role_is_the_first_listed_one_of_its_name_in_any_case(
            token in "[a-zA-Z]{0,14}|(nav|Menu|FOOTER|sideBar|widget|comments)",
        ) {
            let listed = ROLE_TOKENS
                .iter()
                .find(|(known, _)| known.eq_ignore_ascii_case(&token))
                .map(|(_, role)| *role);
            prop_assert_eq!(role_of_token(&token), listed);
        }
    }

    #[test]
    fn class_values_split_into_role_tokens_at_separators_and_camel_case() {
        let tokens: Vec<&str> = role_tokens("site-header mainNav col_2 ABc teaser2").collect();
        assert_eq!(
            tokens,
            ["site", "header", "main", "Nav", "col", "ABc", "teaser"]
        );
    }

    #[test]
    fn tabs_name_no_role_their_panels_hold_a_pages_content() {
        // A product's description and a guide's steps for each system sit in tab panels.
        assert!(roles_of(Some("product-tabs tabs"), None).is_empty());
        assert_eq!(roles_of(Some("nav-tabs"), None), [RoleGroup::Navigation]);
    }

    #[test]
    fn a_generated_hash_names_no_role() {
        // Webflow's `w-node-…` ids and hashed class names read `ad` when split at digits.
        assert!(roles_of(Some("w-node-b3ad4-d9b2-c1"), Some("e3e5ad")).is_empty());
        assert_eq!(roles_of(Some("ad-slot-2"), None), [RoleGroup::Advertising]);
    }

    #[test]
    fn a_page_builders_block_is_no_sidebar_widget_but_what_follows_still_names_a_role() {
        let builder_text = Some("elementor-widget elementor-widget-text-editor");
        assert_eq!(roles_of(builder_text, None), [RoleGroup::Content]);
        let builder_menu = Some("elementor-widget-container elementor-widget-nav-menu");
        assert_eq!(roles_of(builder_menu, None), [RoleGroup::Navigation]);
        assert_eq!(
            roles_of(Some("widget widget_text"), None),
            [RoleGroup::Sidebar, RoleGroup::Content]
        );
        // SiteOrigin's blocks: a panel beside a plain `widget`.
        assert_eq!(
            roles_of(Some("so-panel widget widget_text panel-last-child"), None),
            [RoleGroup::Content]
        );
        assert_eq!(
            roles_of(Some("so-panel widget widget_nav_menu"), None),
            [RoleGroup::Navigation]
        );
    }

    #[test]
    fn an_advertisements_label_is_known_in_its_languages_but_a_sentence_about_ads_is_not() {
        for label in [
            "ADVERTISING",
            " Advertisement: ",
            "Anzeige",
            "PUBLICITÉ",
            "Sponsored content",
        ] {
            assert!(is_advertising_label(label), "{label}");
        }
        for text in [
            "Ad blockers cost publishers",
            "Advertising revenue fell 4%",
            "",
            "—",
        ] {
            assert!(!is_advertising_label(text), "{text}");
        }
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
