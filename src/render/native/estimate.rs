//! What laying a page out natively will cost, estimated before layout from the parsed page and
//! its stylesheets, and the plan that keeps one layout within a memory budget.
//!
//! Blitz's memory grows with the page: each element holds its DOM node, its computed style
//! and its layout box (kilobytes), each character of visible text its shaping data, and each
//! stylesheet byte its parsed rules. One layout of 299,000 `<div>`s peaked at 1.7 GB; with
//! `--jobs N` that is N times over. The estimate is a linear model of those inputs fitted to
//! measured peaks (`training/reports/native/README.md` gives the fit and its errors), cheap
//! enough to compute for every page: one pass over the DOM and a byte scan of the stylesheets.
//!
//! Styling time grows faster than linearly with the number of style rules (Stylo's selector
//! maps: 15,000 rules style in 0.4 s, 45,000 in 15 s), so stylesheets with more rules than any
//! real page's are not applied either: bounding each stage's inputs bounds how long a layout
//! asked to stop can take to stop (`stages`).

use url::Url;

use super::web_root::{StylesheetAllowance, StylesheetSources};
use crate::page::{Child, Dom, Page};

/// The default memory budget of one layout, in MiB.
pub const DEFAULT_LAYOUT_MEMORY_MIB: u64 = 512;

/// Memory budgets a caller may set, in MiB: the engine with its fonts takes about 22 MiB before
/// any page, so under 64 would refuse nearly every page; over a TiB is a typo.
pub const LAYOUT_MEMORY_MIB_RANGE: std::ops::RangeInclusive<u64> = 64..=1024 * 1024;

/// Most style rules (counted as `{`) applied to one page: 7× the most of any page in the
/// shared datasets (2,800); styling them takes under a second even in Stylo's worst case.
pub(super) const MAX_STYLE_RULES: usize = 20_000;

/// Most stylesheet bytes one page may load, whatever its budget: 32× the largest sheet in the
/// datasets (0.5 MB), so a runaway import chain costs a bounded amount of parsing.
const MAX_STYLESHEET_BYTES: usize = 16 * 1024 * 1024;

/// Bytes of peak memory per unit of each input, and the process's own before any page (code,
/// fonts): fitted to the peaks of 86 real pages and 20 synthetic ones (up to 100,000 elements,
/// 6 MB of text, 6 MB of CSS), rounded up so that large pages are not underestimated (real
/// pages: −3% to +22%, median +5%; synthetic: −1% to +62%, text split into many paragraphs
/// costing less than the estimate).
const BYTES_PER_ELEMENT: f64 = 5_600.0;
const BYTES_PER_TEXT_BYTE: f64 = 86.0;
const BYTES_PER_STYLESHEET_BYTE: f64 = 22.0;
const BYTES_PER_STYLE_ATTRIBUTE_BYTE: f64 = 65.0;
const BYTES_PER_ATTRIBUTE_BYTE: f64 = 10.0;
const BASE_BYTES: f64 = 22.0 * 1024.0 * 1024.0;

/// The inputs that decide a layout's memory and time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LayoutCost {
    /// Elements of the page.
    pub elements: usize,
    /// Bytes of text that is laid out (not inside `<script>`, `<style>`, `<template>`).
    pub text_bytes: usize,
    /// Bytes of `style` attributes, parsed into declarations per element.
    pub style_attribute_bytes: usize,
    /// Bytes of the other attributes (names and values).
    pub attribute_bytes: usize,
    /// Bytes of the page's `<style>` elements and the stylesheets it links under its web root
    /// (`@import`s are not followed here; the stylesheet loader bounds them).
    pub stylesheet_bytes: usize,
    /// Style rules in those stylesheets (each `{`).
    pub style_rules: usize,
    /// The part of `stylesheet_bytes` in linked files.
    linked_stylesheet_bytes: usize,
    /// The part of `style_rules` in `<style>` elements.
    inline_style_rules: usize,
}

/// Elements whose text is never shaped.
const UNSHAPED_TEXT_PARENTS: &[&str] = &["script", "style", "template", "noscript", "title"];

impl LayoutCost {
    /// The cost of laying `page` out: its DOM, its `<style>` elements, and the stylesheets its
    /// `<link rel=stylesheet>` elements name (resolved against `base_url`) that `stylesheets`
    /// hold.
    pub(super) fn of(page: &Page, base_url: &Url, stylesheets: &StylesheetSources) -> LayoutCost {
        let dom = &page.dom;
        let mut cost = LayoutCost {
            elements: dom.len(),
            ..LayoutCost::default()
        };
        for (name, value) in dom.elements.iter().flat_map(|element| &element.attributes) {
            if name == "style" {
                cost.style_attribute_bytes += value.len();
            } else {
                cost.attribute_bytes += name.len() + value.len();
            }
        }
        for text in &dom.texts {
            let parent = dom.element(text.parent).tag.as_str();
            if parent == "style" {
                cost.inline_style_rules += cost.add_stylesheet(text.text.as_bytes());
            } else if !UNSHAPED_TEXT_PARENTS.contains(&parent) {
                cost.text_bytes += text.text.len();
            }
        }
        for href in linked_stylesheets(dom) {
            let css = base_url
                .join(href.trim())
                .ok()
                .and_then(|url| stylesheets.read(&url));
            if let Some(bytes) = css {
                cost.add_stylesheet(&bytes);
                cost.linked_stylesheet_bytes += bytes.len();
            }
        }
        cost
    }

    /// Counts a stylesheet; returns its rules.
    fn add_stylesheet(&mut self, css: &[u8]) -> usize {
        let rules = css.iter().filter(|&&byte| byte == b'{').count();
        self.stylesheet_bytes += css.len();
        self.style_rules += rules;
        rules
    }

    /// The same page laid out without its stylesheets.
    pub fn without_stylesheets(self) -> LayoutCost {
        LayoutCost {
            stylesheet_bytes: 0,
            style_rules: 0,
            linked_stylesheet_bytes: 0,
            inline_style_rules: 0,
            ..self
        }
    }

    /// What the stylesheets served from the web root may hold under `budget_bytes`: the linked
    /// ones counted here, and what the budget leaves beyond them for their `@import`s, within
    /// the bounds on parsing ([`MAX_STYLESHEET_BYTES`]) and styling ([`MAX_STYLE_RULES`]).
    pub(super) fn stylesheet_allowance(&self, budget_bytes: u64) -> StylesheetAllowance {
        let spare = budget_bytes.saturating_sub(self.memory_bytes());
        let bytes =
            self.linked_stylesheet_bytes + (spare as f64 / BYTES_PER_STYLESHEET_BYTE) as usize;
        StylesheetAllowance {
            bytes: bytes.min(MAX_STYLESHEET_BYTES),
            rules: MAX_STYLE_RULES.saturating_sub(self.inline_style_rules),
        }
    }

    /// Estimated peak memory of the layout, in bytes.
    pub fn memory_bytes(&self) -> u64 {
        let bytes = BASE_BYTES
            + BYTES_PER_ELEMENT * self.elements as f64
            + BYTES_PER_TEXT_BYTE * self.text_bytes as f64
            + BYTES_PER_STYLE_ATTRIBUTE_BYTE * self.style_attribute_bytes as f64
            + BYTES_PER_ATTRIBUTE_BYTE * self.attribute_bytes as f64
            + BYTES_PER_STYLESHEET_BYTE * self.stylesheet_bytes as f64;
        bytes as u64
    }
}

/// The `href` of every `<link rel=stylesheet>`.
fn linked_stylesheets(dom: &Dom) -> impl Iterator<Item = &str> {
    dom.elements
        .iter()
        .filter(|element| element.is_stylesheet_link())
        .filter_map(|element| element.attribute("href"))
}

/// How a page is laid out under a memory budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutPlan {
    /// As the page asks.
    Full,
    /// Without the page's stylesheets (`<style>`, `<link rel=stylesheet>`; inline styles
    /// stay): with them the layout would exceed the budget or style too slowly.
    WithoutStylesheets,
    /// Not at all: even without stylesheets the layout would exceed the budget.
    Refused,
}

/// The plan for a page of `cost` under `budget_bytes`.
pub(super) fn plan(cost: LayoutCost, budget_bytes: u64) -> LayoutPlan {
    if cost.memory_bytes() <= budget_bytes && cost.style_rules <= MAX_STYLE_RULES {
        LayoutPlan::Full
    } else if cost.without_stylesheets().memory_bytes() <= budget_bytes {
        LayoutPlan::WithoutStylesheets
    } else {
        LayoutPlan::Refused
    }
}

/// Removes the page's stylesheets from `dom` (the copy to lay out): `<style>` elements lose
/// their text and `<link rel=stylesheet>` elements their `href`.
pub(super) fn drop_stylesheets(dom: &mut Dom) {
    for index in 0..dom.elements.len() {
        let element = &mut dom.elements[index];
        if element.tag == "style" {
            element
                .children
                .retain(|child| matches!(child, Child::Element(_)));
        } else if element.is_stylesheet_link() {
            element.attributes.retain(|(name, _)| name != "href");
        }
    }
}
