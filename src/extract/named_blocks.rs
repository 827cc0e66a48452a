//! Blocks a page names for what they are that are not its main text, whatever the model makes
//! of their paragraphs:
//! - **buyers' reviews** on a product page (`review`, `reviews`): what buyers say of the
//!   product, not its name, description and specifications. WCXB's product gold keeps them
//!   out: 45 of its 119 development product pages carry such blocks (≥ 30 words), and a fifth
//!   of their words occur in the gold at all. Only under a product's policy: film and product
//!   *review articles* name their body so.
//! - **picture galleries** in an article (`gallery`, `slideshow`, `carousel`): a reader sees one
//!   legend at a time, and without the page's scripts all of them are laid out — Readability's
//!   bug-1255978 took the 50 legends of its "Business news in pictures" into its main text (and
//!   53 headings into its Markdown), which Readability leaves out; on ten Big9 articles (cnn,
//!   foxnews, arstechnica, yahoo) the captions of inline galleries left the main text and its
//!   F1 rose (development macro .9509 → .9520). Only under an article's policy.
//! - **posters' cards** in a thread (`user-details`, `user-info`, `author-card`, `postprofile`,
//!   `signature`, `badges`): reputation, badge counts, post counts and join dates beside each
//!   post ("1,992 gold badges 14 silver badges"), which WCXB's thread gold leaves out: such
//!   blocks sit on 64 of its development threads (10,690 words, 29 % of them anywhere in the
//!   gold).
//!   Cross-fitted development run: forum .7124 → .7227 (20 pages up, 4 down by ≤ .023), no other
//!   set's main text or template text down. Only under a thread's policy: `author-info` wraps
//!   an article's byline and sometimes its text.
//! - **tooltips and popovers** on every page (`tooltip`, `popover`, `tippy`, `tool-tip`
//!   classes and `<tool-tip>` elements; found in the regions' pass): shown on hover or click,
//!   laid out where they are written when the page's stylesheets and scripts are missing. Their
//!   words on WCXB's development pages: 31,623 on 17 product pages (1 % in the gold: a
//!   specification's "Usually between 8–600 ohm…"), 7,428 on 39 articles (14 %). Cross-fitted
//!   development run: .8466 → .8469 (products 0612 .48 → .65; 15 pages up, 1 down: Cloudflare's
//!   plans, whose gold keeps each feature's explanation); no other set moved. `tool-tip` and
//!   `<tool-tip>` (a Shopify theme's), then: .8469 → .8473 (2990 .72 → .93, 3026 .69 → .79).
//!   Reading Tailwind's `group/tooltip` as no name (class names with `/` or `:`) won that page
//!   back but cost CleanEval's template text .0010: not kept.
//! - **cookie and consent notices** on every page (found in the regions' pass,
//!   `regions::named_regions`): "We use cookies on our website…" was the
//!   whole main text of a woodworking article (WCXB 4454). Named `consent`, `gdpr`,
//!   `cookiebot` or `onetrust`, or `cookie(s)` with a word a notice is named by (`notice`,
//!   `banner`, `bar`, `law` …): a tutorial's section `id="cookies"` is the tutorial (WCXB 0662,
//!   Flask's quickstart).

use crate::features::vocabulary::role_tokens;
use crate::page::Dom;

use super::regions::{MAX_REGION_SHARE, subtree_words};

/// `class`/`id` tokens naming buyers' reviews.
pub const REVIEWS: &[&str] = &["review", "reviews"];

/// `class`/`id` tokens naming a tooltip or popover.
const TOOLTIPS: &[&str] = &["tooltip", "popover", "tippy"];

/// `class`/`id` tokens naming a picture gallery, slideshow or carousel.
pub const GALLERIES: &[&str] = &["gallery", "slideshow", "carousel"];

/// The largest share of the page's words a gallery may hold for its name to count: more, and
/// the name is a page wrapper's (`<body class="… inline-gallery …">`, Readability's
/// bug-1255978). A gallery in an article can hold most of the page: that page's 50 legends
/// are about 2,800 of its words, beyond [`MAX_REGION_SHARE`]. Development split: 0.6, 0.8 and 0.95
/// gave the same numbers.
pub const MAX_GALLERY_SHARE: f64 = 0.9;

/// `class`/`id` tokens that alone name a cookie or consent notice.
const NOTICE_NAMES: &[&str] = &["consent", "gdpr", "cookiebot", "onetrust"];

/// Tokens naming cookies: a notice only beside one of [`NOTICE_KINDS`].
const COOKIES: &[&str] = &["cookie", "cookies"];

/// What a cookie notice's other tokens say it is.
const NOTICE_KINDS: &[&str] = &[
    "notice",
    "banner",
    "bar",
    "law",
    "popup",
    "modal",
    "message",
    "alert",
    "dialog",
    "overlay",
    "info",
    "notification",
    "accept",
];

/// Whether a `class` or `id` value names a cookie or consent notice.
pub fn names_a_notice(value: Option<&str>) -> bool {
    value.is_some_and(|value| tokens_name_a_notice(role_tokens(value)))
}

/// [`names_a_notice`] of one value's [`role_tokens`], read once: every element's names are
/// asked, on every page.
pub fn tokens_name_a_notice<'a>(tokens: impl IntoIterator<Item = &'a str>) -> bool {
    tokens_name_one_of_or_both(tokens, NOTICE_NAMES, (COOKIES, NOTICE_KINDS))
}

/// Per element: whether it is, or sits inside, a block whose `class` or `id` has one of
/// `tokens`. As with every named region, the name counts only on an element holding less
/// than [`MAX_REGION_SHARE`] of the page's words (a page wrapper named `has-reviews` is not
/// one).
pub fn within_blocks_named(dom: &Dom, tokens: &[&str]) -> Vec<bool> {
    within_blocks_named_up_to(dom, tokens, MAX_REGION_SHARE)
}

/// [`within_blocks_named`] with a name counting on elements holding less than `max_share` of
/// the page's words.
pub fn within_blocks_named_up_to(dom: &Dom, tokens: &[&str], max_share: f64) -> Vec<bool> {
    within_blocks_so_named(dom, |value| names_one_of(value, tokens), max_share)
}

/// Per element: whether it is, or sits inside, a block whose `class` or `id` value `names`
/// accepts, holding less than `max_share` of the page's words.
pub fn within_blocks_so_named(
    dom: &Dom,
    names: impl Fn(Option<&str>) -> bool,
    max_share: f64,
) -> Vec<bool> {
    let named: Vec<bool> = dom
        .ids()
        .map(|id| {
            let element = dom.element(id);
            names(element.attribute("class")) || names(element.attribute("id"))
        })
        .collect();
    let mut within = vec![false; dom.len()];
    // Most pages name no such block: their words need no counting (an article's galleries are
    // looked for on every article).
    if !named.contains(&true) {
        return within;
    }
    let words = subtree_words(dom);
    let page_words = words.first().copied().unwrap_or(0).max(1) as f64;
    for id in dom.ids() {
        within[id.index()] = dom
            .element(id)
            .parent
            .is_some_and(|parent| within[parent.index()])
            || (named[id.index()] && (words[id.index()] as f64) < max_share * page_words);
    }
    within
}

/// Tokens that, beside `user` or `author`, name a poster's card.
const CARD_KINDS: &[&str] = &["info", "details", "card", "profile", "stats", "meta"];

/// Whether a `class` or `id` value names a poster's card in a thread: their name's block with
/// reputation, badges, post counts and join date (`user-details`, `postprofile`), or their
/// signature.
pub fn names_a_user_card(value: Option<&str>) -> bool {
    value.is_some_and(|value| {
        tokens_name_one_of_or_both(
            role_tokens(value),
            &["signature", "postprofile", "userinfo", "badges"],
            (&["user", "author"], CARD_KINDS),
        )
    })
}

/// Whether `tokens` hold one of `alone`, or one of each of `both` (ASCII case ignored), read
/// in one pass.
fn tokens_name_one_of_or_both<'a>(
    tokens: impl IntoIterator<Item = &'a str>,
    alone: &[&str],
    both: (&[&str], &[&str]),
) -> bool {
    let (mut first, mut second) = (false, false);
    for token in tokens {
        if is_one_of(token, alone) {
            return true;
        }
        first |= is_one_of(token, both.0);
        second |= is_one_of(token, both.1);
    }
    first && second
}

/// Whether an element's tag or its names' `tokens` ([`role_tokens`] of its `class` and `id`)
/// say it is a tooltip or popover: one of [`TOOLTIPS`], `tool` then `tip` (`tool-tip__content`,
/// split at the hyphen), or a custom element so named (`<tool-tip>`, a Shopify theme's; WCXB
/// 2990's specification explanations).
pub fn tokens_name_a_tooltip(tag: &str, tokens: &[&str]) -> bool {
    tokens.iter().any(|&token| is_one_of(token, TOOLTIPS))
        || tokens
            .windows(2)
            .any(|pair| pair[0].eq_ignore_ascii_case("tool") && pair[1].eq_ignore_ascii_case("tip"))
        || tag == "tool-tip"
}

/// Whether `token` is one of `tokens`, ASCII case ignored.
fn is_one_of(token: &str, tokens: &[&str]) -> bool {
    tokens.iter().any(|t| token.eq_ignore_ascii_case(t))
}

/// Whether a `class` or `id` value has one of `tokens` ([`role_tokens`], ASCII case ignored).
pub fn names_one_of(value: Option<&str>, tokens: &[&str]) -> bool {
    value.is_some_and(|value| role_tokens(value).any(|token| is_one_of(token, tokens)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `names` accepts every value of `named`, none of `not_named`, and no value.
    fn assert_names(names: fn(Option<&str>) -> bool, named: &[&str], not_named: &[&str]) {
        for value in named {
            assert!(names(Some(value)), "{value} should be named");
        }
        for value in not_named {
            assert!(!names(Some(value)), "{value} should not be named");
        }
        assert!(!names(None));
    }

    #[test]
    fn a_notice_is_named_for_consent_or_for_cookies_with_what_it_is_not_for_cookies_alone() {
        assert_names(
            names_a_notice,
            &[
                "cookie-law-info-bar",
                "cookie-notice",
                "CybotCookiebotDialog",
                "onetrust-consent-sdk",
                "gdpr-wrapper",
                "cookieBanner",
            ],
            &[
                "cookies",
                "cookie-recipes",
                "chocolate-chip-cookies",
                "policy",
            ],
        );
    }

    #[test]
    fn a_posters_card_is_named_for_a_user_or_author_with_what_it_is_or_for_a_signature() {
        assert_names(
            names_a_user_card,
            &[
                "user-details",
                "user-info user-hover",
                "authorCard",
                "postprofile",
                "signature",
                "message-signature",
                "-badges",
                "userinfo",
            ],
            &[
                "user-content",
                "s-prose js-post-body",
                "author",
                "post-text",
                "info",
            ],
        );
    }
}
