//! Features of every DOM node, computed from the rendered page alone (no site context): its
//! layout box, its text, links and anchors, its tag and the roles its `class`/`id` name.
//! Chakrabarti et al. (Section 5.2) found the most telling to be closeness to the page margins,
//! links per word, the fraction of text inside anchors, anchor size, the fraction of intra-site
//! links and visible characters per HTML byte; the rest generalize in practice (tags, depth,
//! class/id roles, sentence shape of the text).
//!
//! The feature list lives in [`Feature`] / [`FEATURE_NAMES`], once. Extraction is two linear
//! passes over the arena: per text node and per element, then a reverse (bottom-up) pass that
//! adds every subtree into its parent — ids are in document order, so parents come first.

pub(crate) mod vocabulary;

use std::collections::HashSet;

use crate::layout::LaidOutPage;
use crate::page::{Child, Dom, NodeId};

pub use vocabulary::{RoleGroup, roles_of};

/// Nodes smaller than this (in px²) are "hidden": neither classified nor smoothed, their weight
/// rolled into the parent (Section 5.3).
pub const DEFAULT_HIDDEN_AREA: f64 = 2000.0;

macro_rules! features {
    ($($(#[$doc:meta])* $variant:ident = $name:literal),* $(,)?) => {
        /// One feature: its position in a feature row.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(usize)]
        pub enum Feature { $($(#[$doc])* $variant),* }
        /// Feature names, in row order: stored in model files and checked on load.
        pub const FEATURE_NAMES: &[&str] = &[$($name),*];
    };
}

// Box features are shares of the rendered page's size (px / px); text features count the
// element's whole subtree, over text nodes whose parent has a layout box. A word is a
// whitespace-separated token with a letter or digit.
features! {
    /// Page's left edge to the box's left edge, as a share of page width (0–1).
    LeftMargin = "left_margin_distance",
    /// Box's right edge to the page's right edge, as a share of page width (0–1).
    RightMargin = "right_margin_distance",
    /// Page top to the box's top, as a share of page height (0–1).
    TopMargin = "top_margin_distance",
    /// Box's bottom to the page bottom, as a share of page height (0–1).
    BottomMargin = "bottom_margin_distance",
    /// Box top in viewport heights (screens scrolled before it shows), capped at 10.
    TopInScreens = "top_in_screens",
    /// Horizontal distance of the box centre from the page centre, in half page widths (0 at
    /// the centre, 1 at an edge), capped at 2.
    CenterOffsetX = "center_offset_x",
    /// Vertical distance of the box centre from the page centre, in half page heights, capped
    /// at 2.
    CenterOffsetY = "center_offset_y",
    /// ln(1 + box area in px²).
    LogArea = "log_area",
    /// Box area as a share of the page's area (0–1).
    AreaShare = "area_share",
    /// Box width as a share of page width (0–1).
    WidthShare = "width_share",
    /// Box height as a share of page height (0–1).
    HeightShare = "height_share",
    /// ln((width + 1) / (height + 1)): positive for bars, negative for columns.
    LogAspect = "log_aspect",
    /// ln(1 + visible words in the subtree).
    LogWords = "log_words",
    /// Links in the subtree per (words + 1), capped at 5 (one of the paper's strongest).
    LinksPerWord = "links_per_word",
    /// Share of the subtree's words inside an `<a>` (0–1).
    AnchorTextFraction = "anchor_text_fraction",
    /// ln(1 + anchor words per link): anchor size; 0 without links.
    LogMeanAnchorWords = "log_mean_anchor_words",
    /// Share of the subtree's links to the page's own site (host without `www.`; relative
    /// links on a page of unknown URL count as own), 0–1; 0 without links.
    IntraSiteLinkFraction = "intra_site_link_fraction",
    /// 1 if the subtree holds a link (`<a href>`/`<area href>` with a box), else 0.
    HasLinks = "has_links",
    /// Non-whitespace visible characters per byte of the element's serialized HTML, capped
    /// at 1: markup-heavy widgets score low, prose high.
    VisibleCharsPerHtmlByte = "visible_chars_per_html_byte",
    /// Share of the subtree's words that occur in the page `<title>` (title stop words and
    /// one-letter words left out), 0–1.
    TitleOverlap = "title_overlap",
    /// ln(1 + mean words per text node that has words).
    LogWordsPerTextBlock = "log_words_per_text_block",
    /// Share of those text nodes that end like a sentence (`.`, `!`, `?`, `:` or a closing
    /// quote), 0–1.
    SentenceEndFraction = "sentence_end_fraction",
    /// ln(1 + `<img>` elements with a box in the subtree).
    LogImages = "log_images",
    /// ln(1 + `<input>`, `<select>`, `<textarea>` and `<button>` elements with a box in the
    /// subtree).
    LogFormControls = "log_form_controls",
    /// ln(1 + descendant elements), boxed or not.
    LogDescendants = "log_descendants",
    /// ln(1 + child elements).
    LogChildren = "log_children",
    /// Number of element ancestors (`<html>` is 0), capped at 60.
    Depth = "depth",
    /// Share of the page's visible words in the subtree (0–1).
    PageWordShare = "page_word_share",
    /// Share of the parent's subtree words in this subtree (0–1; the root: 1, or 0 without
    /// words).
    ParentWordShare = "parent_word_share",
    /// Page words before the element's text starts, in document order, as a share of the
    /// page's words (0–1): content sits mid-page, templates at the ends.
    TextStartPosition = "text_start_position",
    /// Page words up to the end of the element's text, as a share of the page's words (0–1).
    TextEndPosition = "text_end_position",
    /// Share of the page's links in the subtree (0–1).
    PageLinkShare = "page_link_share",
    /// 1 for `<nav>`.
    TagNav = "tag_nav",
    /// 1 for `<header>`.
    TagHeader = "tag_header",
    /// 1 for `<footer>`.
    TagFooter = "tag_footer",
    /// 1 for `<aside>`.
    TagAside = "tag_aside",
    /// 1 for `<ul>`, `<ol>`, `<dl>`, `<menu>`.
    TagList = "tag_list",
    /// 1 for `<li>`, `<dt>`, `<dd>`.
    TagListItem = "tag_list_item",
    /// 1 for `<a>`.
    TagAnchor = "tag_anchor",
    /// 1 for `<table>` and its row, cell and section elements.
    TagTable = "tag_table",
    /// 1 for `<p>`, `<blockquote>`, `<pre>`.
    TagParagraph = "tag_paragraph",
    /// 1 for `<h1>` to `<h6>`.
    TagHeading = "tag_heading",
    /// 1 for `<form>`.
    TagForm = "tag_form",
    /// 1 for `<article>` and `<main>`.
    TagArticle = "tag_article",
    /// 1 for `<section>`.
    TagSection = "tag_section",
    /// 1 for `<div>`.
    TagDiv = "tag_div",
    /// 1 if the element is, or is inside, a `<nav>`, `<header>`, `<footer>` or `<aside>`.
    InsideSemanticTemplate = "inside_nav_header_footer_aside",
    /// 1 if the element is, or is inside, an `<article>` or `<main>`.
    InsideSemanticContent = "inside_article_main",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Navigation`].
    RoleNavigation = "role_navigation",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Header`].
    RoleHeader = "role_header",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Footer`].
    RoleFooter = "role_footer",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Sidebar`].
    RoleSidebar = "role_sidebar",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Comment`].
    RoleComment = "role_comment",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Share`].
    RoleShare = "role_share",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Related`].
    RoleRelated = "role_related",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Advertising`].
    RoleAdvertising = "role_advertising",
    /// 1 if the element's own `class`/`id` names [`RoleGroup::Content`].
    RoleContent = "role_content",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Navigation`].
    InheritedNavigation = "inherited_role_navigation",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Header`].
    InheritedHeader = "inherited_role_header",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Footer`].
    InheritedFooter = "inherited_role_footer",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Sidebar`].
    InheritedSidebar = "inherited_role_sidebar",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Comment`].
    InheritedComment = "inherited_role_comment",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Share`].
    InheritedShare = "inherited_role_share",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Related`].
    InheritedRelated = "inherited_role_related",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Advertising`].
    InheritedAdvertising = "inherited_role_advertising",
    /// 1 if the element's or an ancestor's `class`/`id` names [`RoleGroup::Content`].
    InheritedContent = "inherited_role_content",
}

/// Number of features in a row.
pub const FEATURE_COUNT: usize = FEATURE_NAMES.len();

/// One node's feature values, indexed by [`Feature`].
pub type FeatureRow = [f64; FEATURE_COUNT];

/// The roles in the order of their `Role*` and `Inherited*` features.
const ROLE_ORDER: [RoleGroup; 9] = [
    RoleGroup::Navigation,
    RoleGroup::Header,
    RoleGroup::Footer,
    RoleGroup::Sidebar,
    RoleGroup::Comment,
    RoleGroup::Share,
    RoleGroup::Related,
    RoleGroup::Advertising,
    RoleGroup::Content,
];

/// Features of a page: a row and an area per element, and which elements are classified.
#[derive(Debug, Clone)]
pub struct PageFeatures {
    /// One feature row per element, indexed by [`NodeId::index`]; all zeros for elements
    /// without a layout box.
    pub rows: Vec<FeatureRow>,
    /// Box area in px² (0 without a box).
    pub area: Vec<f64>,
    /// True for elements with a layout box of at least the hidden-area threshold.
    pub classified: Vec<bool>,
}

/// Text statistics of one subtree, summed bottom-up.
#[derive(Debug, Clone, Copy, Default)]
struct TextTotals {
    words: f64,
    chars: f64,
    anchor_words: f64,
    links: f64,
    intra_site_links: f64,
    text_blocks: f64,
    sentence_blocks: f64,
    title_hits: f64,
    images: f64,
    form_controls: f64,
    descendants: f64,
}

impl TextTotals {
    fn add(&mut self, other: &TextTotals) {
        self.words += other.words;
        self.chars += other.chars;
        self.anchor_words += other.anchor_words;
        self.links += other.links;
        self.intra_site_links += other.intra_site_links;
        self.text_blocks += other.text_blocks;
        self.sentence_blocks += other.sentence_blocks;
        self.title_hits += other.title_hits;
        self.images += other.images;
        self.form_controls += other.form_controls;
        self.descendants += other.descendants + 1.0;
    }
}

/// Computes every element's features; `hidden_area` is the classification threshold in px².
pub fn extract(rendered: &LaidOutPage, hidden_area: f64) -> PageFeatures {
    let dom = &rendered.page.dom;
    let n = dom.len();
    let has_box: Vec<bool> = dom
        .ids()
        .map(|id| rendered.layout_box(id).is_some())
        .collect();
    let title_words = title_words(&rendered.page.title);
    let page_host = rendered
        .page
        .url
        .as_ref()
        .and_then(|url| site_host(url.as_str()));

    let mut totals = vec![TextTotals::default(); n];
    let mut inside_anchor = vec![false; n];
    let mut inside_template_tag = vec![false; n];
    let mut inside_content_tag = vec![false; n];
    let mut own_roles = vec![[false; 9]; n];
    let mut inherited_roles = vec![[false; 9]; n];

    // Top-down: what each element inherits from its ancestors, and its own contributions.
    for id in dom.ids() {
        let element = dom.element(id);
        let index = id.index();
        let tag = element.tag.as_str();
        if let Some(parent) = element.parent {
            let parent = parent.index();
            inside_anchor[index] = inside_anchor[parent];
            inside_template_tag[index] = inside_template_tag[parent];
            inside_content_tag[index] = inside_content_tag[parent];
            inherited_roles[index] = inherited_roles[parent];
        }
        inside_anchor[index] |= tag == "a";
        inside_template_tag[index] |= matches!(tag, "nav" | "header" | "footer" | "aside");
        inside_content_tag[index] |= matches!(tag, "article" | "main");
        for role in roles_of(element.attribute("class"), element.attribute("id")) {
            let position = ROLE_ORDER.iter().position(|r| *r == role).unwrap_or(0);
            own_roles[index][position] = true;
            inherited_roles[index][position] = true;
        }
        if !has_box[index] {
            continue;
        }
        let own = &mut totals[index];
        if let Some(link) = &element.link {
            own.links += 1.0;
            if is_intra_site(link, page_host.as_deref()) {
                own.intra_site_links += 1.0;
            }
        }
        own.images += f64::from(u8::from(tag == "img"));
        own.form_controls += f64::from(u8::from(matches!(
            tag,
            "input" | "select" | "textarea" | "button"
        )));
        for child in &element.children {
            if let Child::Text(text) = child {
                let text = &dom.texts[*text as usize].text;
                let mut words = 0.0;
                for word in text.split_whitespace() {
                    if !word.chars().any(char::is_alphanumeric) {
                        continue;
                    }
                    words += 1.0;
                    let normalized = normalize_word(word);
                    if title_words.contains(normalized.as_str()) {
                        own.title_hits += 1.0;
                    }
                }
                if words > 0.0 {
                    own.words += words;
                    own.chars += text.chars().filter(|c| !c.is_whitespace()).count() as f64;
                    own.text_blocks += 1.0;
                    let trimmed = text.trim_end();
                    if trimmed.ends_with(['.', '!', '?', ':', '"', '\u{201d}']) {
                        own.sentence_blocks += 1.0;
                    }
                    if inside_anchor[index] {
                        own.anchor_words += words;
                    }
                }
            }
        }
    }
    // Bottom-up: every subtree's totals into its parent.
    for id in dom.ids().rev() {
        if let Some(parent) = dom.element(id).parent {
            let child = totals[id.index()];
            totals[parent.index()].add(&child);
        }
    }

    // Where each element's text starts and ends in the page's reading order (as word counts):
    // main content sits mid-page, templates at the ends.
    let words_before = words_before_each_element(dom, &totals);
    let page_words = totals.first().map_or(0.0, |root| root.words).max(1.0);
    let page_links = totals.first().map_or(0.0, |root| root.links).max(1.0);

    let page_width = rendered.layout.page_width.max(1.0);
    let page_height = rendered.layout.page_height.max(1.0);
    let page_area = page_width * page_height;
    let own_and_below: Vec<f64> = totals.iter().map(|t| t.words).collect();
    let mut rows = vec![[0.0; FEATURE_COUNT]; n];
    let mut area = vec![0.0; n];
    let mut classified = vec![false; n];
    for id in dom.ids() {
        let index = id.index();
        let Some(layout_box) = rendered.layout_box(id) else {
            continue;
        };
        area[index] = layout_box.area();
        classified[index] = area[index] >= hidden_area;
        let row = &mut rows[index];
        let set = |row: &mut FeatureRow, feature: Feature, value: f64| {
            row[feature as usize] = if value.is_finite() { value } else { 0.0 };
        };
        let (x, y, w, h) = (
            layout_box.x,
            layout_box.y,
            layout_box.width.max(0.0),
            layout_box.height.max(0.0),
        );
        set(row, Feature::LeftMargin, (x / page_width).clamp(0.0, 1.0));
        set(
            row,
            Feature::RightMargin,
            ((page_width - x - w) / page_width).clamp(0.0, 1.0),
        );
        set(row, Feature::TopMargin, (y / page_height).clamp(0.0, 1.0));
        set(
            row,
            Feature::BottomMargin,
            ((page_height - y - h) / page_height).clamp(0.0, 1.0),
        );
        set(
            row,
            Feature::TopInScreens,
            (y / f64::from(rendered.layout.viewport.height)).clamp(0.0, 10.0),
        );
        set(
            row,
            Feature::CenterOffsetX,
            ((x + w / 2.0 - page_width / 2.0).abs() / (page_width / 2.0)).min(2.0),
        );
        set(
            row,
            Feature::CenterOffsetY,
            ((y + h / 2.0 - page_height / 2.0).abs() / (page_height / 2.0)).min(2.0),
        );
        set(row, Feature::LogArea, (1.0 + area[index]).ln());
        set(row, Feature::AreaShare, (area[index] / page_area).min(1.0));
        set(row, Feature::WidthShare, (w / page_width).min(1.0));
        set(row, Feature::HeightShare, (h / page_height).min(1.0));
        set(row, Feature::LogAspect, ((w + 1.0) / (h + 1.0)).ln());

        let totals = &totals[index];
        set(row, Feature::LogWords, totals.words.ln_1p());
        set(
            row,
            Feature::LinksPerWord,
            (totals.links / (totals.words + 1.0)).min(5.0),
        );
        set(
            row,
            Feature::AnchorTextFraction,
            ratio(totals.anchor_words, totals.words),
        );
        set(
            row,
            Feature::LogMeanAnchorWords,
            ratio(totals.anchor_words, totals.links).ln_1p(),
        );
        set(
            row,
            Feature::IntraSiteLinkFraction,
            ratio(totals.intra_site_links, totals.links),
        );
        set(
            row,
            Feature::HasLinks,
            f64::from(u8::from(totals.links > 0.0)),
        );
        let html_bytes = dom.element(id).html_bytes.max(1) as f64;
        set(
            row,
            Feature::VisibleCharsPerHtmlByte,
            (totals.chars / html_bytes).min(1.0),
        );
        set(
            row,
            Feature::TitleOverlap,
            ratio(totals.title_hits, totals.words),
        );
        set(
            row,
            Feature::LogWordsPerTextBlock,
            ratio(totals.words, totals.text_blocks).ln_1p(),
        );
        set(
            row,
            Feature::SentenceEndFraction,
            ratio(totals.sentence_blocks, totals.text_blocks),
        );
        set(row, Feature::LogImages, totals.images.ln_1p());
        set(row, Feature::LogFormControls, totals.form_controls.ln_1p());
        set(row, Feature::LogDescendants, totals.descendants.ln_1p());
        set(
            row,
            Feature::LogChildren,
            (dom.element_children(id).count() as f64).ln_1p(),
        );
        set(
            row,
            Feature::Depth,
            f64::from(dom.element(id).depth).min(60.0),
        );
        set(row, Feature::PageWordShare, totals.words / page_words);
        let parent_words = dom
            .element(id)
            .parent
            .map_or(totals.words, |p| own_and_below[p.index()]);
        set(
            row,
            Feature::ParentWordShare,
            ratio(totals.words, parent_words),
        );
        set(
            row,
            Feature::TextStartPosition,
            words_before[index] / page_words,
        );
        set(
            row,
            Feature::TextEndPosition,
            ((words_before[index] + totals.words) / page_words).min(1.0),
        );
        set(row, Feature::PageLinkShare, totals.links / page_links);
        set_tag_features(row, dom, id);
        set(
            row,
            Feature::InsideSemanticTemplate,
            f64::from(u8::from(inside_template_tag[index])),
        );
        set(
            row,
            Feature::InsideSemanticContent,
            f64::from(u8::from(inside_content_tag[index])),
        );
        for position in 0..ROLE_ORDER.len() {
            row[Feature::RoleNavigation as usize + position] =
                f64::from(u8::from(own_roles[index][position]));
            row[Feature::InheritedNavigation as usize + position] =
                f64::from(u8::from(inherited_roles[index][position]));
        }
    }
    PageFeatures {
        rows,
        area,
        classified,
    }
}

/// Visible words that come before each element's own start, in document order: a prefix sum,
/// since an element's subtree is the id range after it and its words are summed in `totals`.
fn words_before_each_element(dom: &Dom, totals: &[TextTotals]) -> Vec<f64> {
    // Words directly inside each element (its own text nodes), recovered from the subtree sums.
    let mut own_words: Vec<f64> = totals.iter().map(|t| t.words).collect();
    for id in dom.ids() {
        if let Some(parent) = dom.element(id).parent {
            own_words[parent.index()] -= totals[id.index()].words;
        }
    }
    // Document order of elements approximates reading order of their own text.
    let mut before = vec![0.0; dom.len()];
    let mut running = 0.0;
    for id in dom.ids() {
        before[id.index()] = running;
        running += own_words[id.index()].max(0.0);
    }
    before
}

fn set_tag_features(row: &mut FeatureRow, dom: &Dom, id: NodeId) {
    let feature = match dom.element(id).tag.as_str() {
        "nav" => Some(Feature::TagNav),
        "header" => Some(Feature::TagHeader),
        "footer" => Some(Feature::TagFooter),
        "aside" => Some(Feature::TagAside),
        "ul" | "ol" | "dl" | "menu" => Some(Feature::TagList),
        "li" | "dt" | "dd" => Some(Feature::TagListItem),
        "a" => Some(Feature::TagAnchor),
        "table" | "tbody" | "thead" | "tr" | "td" | "th" => Some(Feature::TagTable),
        "p" | "blockquote" | "pre" => Some(Feature::TagParagraph),
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => Some(Feature::TagHeading),
        "form" => Some(Feature::TagForm),
        "article" | "main" => Some(Feature::TagArticle),
        "section" => Some(Feature::TagSection),
        "div" => Some(Feature::TagDiv),
        _ => None,
    };
    if let Some(feature) = feature {
        row[feature as usize] = 1.0;
    }
}

fn ratio(part: f64, whole: f64) -> f64 {
    if whole > 0.0 { part / whole } else { 0.0 }
}

/// Lower-cases a word and strips punctuation around it.
fn normalize_word(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// The title's words, lower-cased, stop words removed.
fn title_words(title: &str) -> HashSet<String> {
    title
        .split_whitespace()
        .map(normalize_word)
        .filter(|word| word.len() > 1 && !vocabulary::STOP_WORDS.contains(&word.as_str()))
        .collect()
}

/// A URL's host without a leading `www.`; `file` URLs all count as one local site.
pub fn site_host(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    match parsed.scheme() {
        "file" => Some(String::from("file")),
        "http" | "https" => parsed
            .host_str()
            .map(|host| host.trim_start_matches("www.").to_ascii_lowercase()),
        _ => None,
    }
}

/// True for links to the page's own site. Links that did not resolve to an absolute URL
/// (relative on a page of unknown URL) are intra-site; `javascript:` and `mailto:` are not.
fn is_intra_site(link: &str, page_host: Option<&str>) -> bool {
    match url::Url::parse(link) {
        Ok(url) => match url.scheme() {
            "http" | "https" | "file" => site_host(link).as_deref() == page_host,
            _ => false,
        },
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests;
