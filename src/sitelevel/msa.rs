//! Template detection by multiple sequence alignment: Geraci & Maggini, "A Fast Method for Web
//! Template Extraction via a Multi-Sequence Alignment Approach" (KDIR 2011), Section 2.
//!
//! **Tokens (Section 2).** A page is the sequence of its tags and the text snippets between
//! them, in document order. Normalization: a start tag is written `<tag name="value" …>` with its
//! attributes sorted by name and values whitespace-collapsed; an end tag is `</tag>` for elements
//! with content (an empty element's end tag adds nothing); a snippet is the visible text of one text node with whitespace collapsed;
//! every token is lowercased. In `href` and `src` values the `#fragment` and a Wayback Machine
//! capture prefix are dropped (as in `sitelevel::subtree`), so archived copies of one template agree. Text under `<script>`, `<style>`, `<noscript>`, `<template>`,
//! `<head>` and `<title>` is left out (the elements stay), and so are comments and doctype,
//! which the DOM does not keep.
//!
//! **Alignment (Section 2.1).** Needleman–Wunsch global alignment scoring +1 for a match, 0 for
//! a mismatch and −1 for a gap. The aligned output is the union of both sequences: a match gives
//! one token, a mismatch both tokens (the left one first), a gap the present token. Common
//! prefixes and suffixes are matched before the table is filled; with these scores (a mismatch
//! costs less than two gaps) that never loses an optimal alignment.
//!
//! **Distillation (Section 2.2).** `t` pages (at most [`Msa::pages`] = 16, the largest power
//! of two the site allows, chosen by a seeded random order) are paired and aligned in a binary
//! tree. Each token carries the number of pages that support it (the paper's score times `t`):
//! a match adds the two counts, anything else keeps its own. Before step `r` (r = 1, 2, …) tokens
//! supported by fewer than `2^(r−2)` pages (score below `2^(r−2)/t`) are pruned; the root keeps
//! the tokens supported by at least half the pages (score ≥ 1/2).
//!
//! **Marks.** Every page of the site is aligned with the template; a page token matched to a
//! template token is template. An element is template when its start tag and each of its own
//! visible text snippets are.

use std::collections::HashMap;

use rayon::prelude::*;

use super::rtdm::seeded_order;
use super::subtree::normalized_link;
use super::{SiteLevelError, SiteTemplateDetector, TemplateMarks, require_pages};
use crate::page::{Child, Dom, NodeId, Page, collapse_whitespace};

/// Multiple-sequence-alignment parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Msa {
    /// Pages aligned into the template (t); the paper settles on 16. Rounded down to a power
    /// of two no larger than the site.
    pub pages: usize,
    /// Seed of the random choice and pairing of the pages.
    pub seed: u64,
}

impl Default for Msa {
    fn default() -> Self {
        Msa {
            pages: 16,
            seed: 0x5eed,
        }
    }
}

/// What a token stands for in its page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenOrigin {
    StartTag(NodeId),
    EndTag,
    /// A text snippet directly inside this element.
    Text(NodeId),
}

/// A page as interned tokens, with where each came from.
struct TokenizedPage {
    tokens: Vec<u32>,
    origins: Vec<TokenOrigin>,
}

/// A template hypothesis: tokens with the number of pages supporting each.
#[derive(Debug, Clone, Default)]
struct Profile {
    tokens: Vec<u32>,
    support: Vec<u32>,
}

impl SiteTemplateDetector for Msa {
    fn name(&self) -> &'static str {
        "msa"
    }

    fn detect(&self, pages: &[Page]) -> Result<Vec<TemplateMarks>, SiteLevelError> {
        if self.pages < 2 {
            return Err(SiteLevelError::InvalidParameter(format!(
                "the alignment needs at least 2 pages (t), got {}",
                self.pages
            )));
        }
        require_pages(self.name(), pages, 2)?;
        let tokenized = tokenize_site(pages);
        let t = prev_power_of_two(self.pages.min(pages.len()));
        let order = seeded_order(pages.len(), self.seed);
        let leaves = order[..t]
            .iter()
            .map(|&page| Profile {
                tokens: tokenized[page].tokens.clone(),
                support: vec![1; tokenized[page].tokens.len()],
            })
            .collect();
        let template = distill(leaves, t);
        Ok(pages
            .par_iter()
            .zip(&tokenized)
            .map(|(page, tokenized)| mark_page(&page.dom, tokenized, &template))
            .collect())
    }
}

fn prev_power_of_two(n: usize) -> usize {
    if n.is_power_of_two() {
        n
    } else {
        n.next_power_of_two() / 2
    }
}

/// Tokenizes every page with one shared symbol table (ids in first-seen order, so stable).
fn tokenize_site(pages: &[Page]) -> Vec<TokenizedPage> {
    let mut symbols: HashMap<String, u32> = HashMap::new();
    pages
        .iter()
        .map(|page| {
            let mut tokenized = TokenizedPage {
                tokens: Vec::new(),
                origins: Vec::new(),
            };
            for (token, origin) in page_tokens(&page.dom) {
                let next = symbols.len() as u32;
                tokenized.tokens.push(*symbols.entry(token).or_insert(next));
                tokenized.origins.push(origin);
            }
            tokenized
        })
        .collect()
}

/// The normalized tokens of a page, in document order (see the module doc).
fn page_tokens(dom: &Dom) -> Vec<(String, TokenOrigin)> {
    enum Visit {
        Enter(Child),
        Leave(NodeId),
    }
    let mut tokens = Vec::new();
    if dom.is_empty() {
        return tokens;
    }
    let mut stack = vec![Visit::Enter(Child::Element(NodeId(0)))];
    while let Some(visit) = stack.pop() {
        match visit {
            Visit::Enter(Child::Element(id)) => {
                let element = dom.element(id);
                tokens.push((start_tag(dom, id), TokenOrigin::StartTag(id)));
                if !element.children.is_empty() {
                    stack.push(Visit::Leave(id));
                    stack.extend(
                        element
                            .children
                            .iter()
                            .rev()
                            .map(|&child| Visit::Enter(child)),
                    );
                }
            }
            Visit::Enter(Child::Text(index)) => {
                let text = &dom.texts[index as usize];
                if dom.is_visible_text_parent(text.parent) {
                    let snippet = collapse_whitespace(&text.text).to_lowercase();
                    if !snippet.is_empty() {
                        tokens.push((snippet, TokenOrigin::Text(text.parent)));
                    }
                }
            }
            Visit::Leave(id) => {
                tokens.push((format!("</{}>", dom.element(id).tag), TokenOrigin::EndTag));
            }
        }
    }
    tokens
}

fn start_tag(dom: &Dom, id: NodeId) -> String {
    let element = dom.element(id);
    let mut attributes: Vec<(String, String)> = element
        .attributes
        .iter()
        .map(|(name, value)| {
            let value = match name.as_str() {
                "href" | "src" => normalized_link(value),
                _ => value,
            };
            (
                name.to_lowercase(),
                collapse_whitespace(value).to_lowercase(),
            )
        })
        .collect();
    attributes.sort();
    let mut tag = format!("<{}", element.tag);
    for (name, value) in attributes {
        tag.push_str(&format!(" {name}=\"{value}\""));
    }
    tag.push('>');
    tag
}

/// The binary-tree distillation of Section 2.2 over `t` (a power of two) leaf profiles.
fn distill(mut level: Vec<Profile>, t: usize) -> Profile {
    let mut step = 1u32;
    while level.len() > 1 {
        // Before step r, prune support below 2^(r-2) pages (nothing at r = 1, 2).
        let min_support = if step >= 2 { 1u32 << (step - 2) } else { 0 };
        level = level
            .chunks(2)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|pair| match pair {
                [left, right] => merge(&prune(left, min_support), &prune(right, min_support)),
                [single] => prune(single, min_support),
                _ => Profile::default(),
            })
            .collect();
        step += 1;
    }
    let root = level.pop().unwrap_or_default();
    // The root keeps tokens with score >= 1/2, i.e. support of at least t/2 pages.
    prune(&root, (t as u32).div_ceil(2))
}

fn prune(profile: &Profile, min_support: u32) -> Profile {
    let mut pruned = Profile::default();
    for (&token, &support) in profile.tokens.iter().zip(&profile.support) {
        if support >= min_support {
            pruned.tokens.push(token);
            pruned.support.push(support);
        }
    }
    pruned
}

/// The aligned union of two profiles.
fn merge(left: &Profile, right: &Profile) -> Profile {
    let mut merged = Profile::default();
    for step in align(&left.tokens, &right.tokens) {
        match step {
            Aligned::Match(i, j) => {
                merged.tokens.push(left.tokens[i]);
                merged.support.push(left.support[i] + right.support[j]);
            }
            Aligned::Mismatch(i, j) => {
                merged.tokens.extend([left.tokens[i], right.tokens[j]]);
                merged.support.extend([left.support[i], right.support[j]]);
            }
            Aligned::LeftOnly(i) => {
                merged.tokens.push(left.tokens[i]);
                merged.support.push(left.support[i]);
            }
            Aligned::RightOnly(j) => {
                merged.tokens.push(right.tokens[j]);
                merged.support.push(right.support[j]);
            }
        }
    }
    merged
}

/// Marks the page's template elements by aligning it with the template.
fn mark_page(dom: &Dom, page: &TokenizedPage, template: &Profile) -> TemplateMarks {
    let mut matched = vec![false; page.tokens.len()];
    for step in align(&page.tokens, &template.tokens) {
        if let Aligned::Match(i, _) = step {
            matched[i] = true;
        }
    }
    let mut start_matched = vec![false; dom.len()];
    let mut text_unmatched = vec![false; dom.len()];
    for (origin, matched) in page.origins.iter().zip(matched) {
        match *origin {
            TokenOrigin::StartTag(id) => start_matched[id.index()] = matched,
            TokenOrigin::Text(id) => text_unmatched[id.index()] |= !matched,
            TokenOrigin::EndTag => {}
        }
    }
    TemplateMarks::from_flags(
        start_matched
            .iter()
            .zip(&text_unmatched)
            .map(|(&start, &unmatched_text)| start && !unmatched_text)
            .collect(),
    )
}

/// One column of an alignment, as indices into the two sequences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Aligned {
    Match(usize, usize),
    Mismatch(usize, usize),
    LeftOnly(usize),
    RightOnly(usize),
}

/// Traceback directions, two bits per cell.
const DIAGONAL: u8 = 0;
const UP: u8 = 1;
const LEFT: u8 = 2;

/// Needleman–Wunsch (+1 match, 0 mismatch, −1 gap), columns in order.
fn align(u: &[u32], v: &[u32]) -> Vec<Aligned> {
    let prefix = u.iter().zip(v).take_while(|(a, b)| a == b).count();
    let suffix = u[prefix..]
        .iter()
        .rev()
        .zip(v[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (core_u, core_v) = (&u[prefix..u.len() - suffix], &v[prefix..v.len() - suffix]);
    let mut columns: Vec<Aligned> = (0..prefix).map(|k| Aligned::Match(k, k)).collect();
    columns.extend(
        align_core(core_u, core_v)
            .into_iter()
            .map(|column| match column {
                Aligned::Match(i, j) => Aligned::Match(i + prefix, j + prefix),
                Aligned::Mismatch(i, j) => Aligned::Mismatch(i + prefix, j + prefix),
                Aligned::LeftOnly(i) => Aligned::LeftOnly(i + prefix),
                Aligned::RightOnly(j) => Aligned::RightOnly(j + prefix),
            }),
    );
    let (tail_u, tail_v) = (u.len() - suffix, v.len() - suffix);
    columns.extend((0..suffix).map(|k| Aligned::Match(tail_u + k, tail_v + k)));
    columns
}

fn align_core(u: &[u32], v: &[u32]) -> Vec<Aligned> {
    let (n, m) = (u.len(), v.len());
    let width = m + 1;
    let mut trace = vec![0u8; ((n + 1) * width).div_ceil(4)];
    let set = |trace: &mut [u8], cell: usize, direction: u8| {
        trace[cell / 4] |= direction << (2 * (cell % 4));
    };
    let get = |trace: &[u8], cell: usize| (trace[cell / 4] >> (2 * (cell % 4))) & 3;
    let mut previous: Vec<i32> = (0..=m as i32).map(|j| -j).collect();
    let mut current = vec![0i32; m + 1];
    for j in 1..=m {
        set(&mut trace, j, LEFT);
    }
    for i in 1..=n {
        current[0] = -(i as i32);
        set(&mut trace, i * width, UP);
        for j in 1..=m {
            let diagonal = previous[j - 1] + i32::from(u[i - 1] == v[j - 1]);
            let up = previous[j] - 1;
            let left = current[j - 1] - 1;
            let (score, direction) = if diagonal >= up && diagonal >= left {
                (diagonal, DIAGONAL)
            } else if up >= left {
                (up, UP)
            } else {
                (left, LEFT)
            };
            current[j] = score;
            set(&mut trace, i * width + j, direction);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    let mut columns = Vec::with_capacity(n + m);
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        match get(&trace, i * width + j) {
            DIAGONAL if i > 0 && j > 0 => {
                columns.push(if u[i - 1] == v[j - 1] {
                    Aligned::Match(i - 1, j - 1)
                } else {
                    Aligned::Mismatch(i - 1, j - 1)
                });
                (i, j) = (i - 1, j - 1);
            }
            UP if i > 0 => {
                columns.push(Aligned::LeftOnly(i - 1));
                i -= 1;
            }
            _ => {
                columns.push(Aligned::RightOnly(j - 1));
                j -= 1;
            }
        }
    }
    columns.reverse();
    columns
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use crate::sitelevel::test_site as site;

    #[test]
    fn tags_are_normalized_with_sorted_lowercased_attributes() {
        let pages = site(&["<DIV Class='Nav  Bar' id=x>Hello   World</DIV>"]);
        let tokens: Vec<String> = page_tokens(&pages[0].dom)
            .into_iter()
            .map(|(token, _)| token)
            .collect();
        assert!(tokens.contains(&"<div class=\"nav bar\" id=\"x\">".to_owned()));
        assert!(tokens.contains(&"hello world".to_owned()));
    }

    #[test]
    fn tokens_on_most_pages_are_template_and_page_text_is_not() {
        let pages = site(&[
            "<div class=nav>Menu</div><p>one</p>",
            "<div class=nav>Menu</div><p>two</p>",
            "<div class=nav>Menu</div><p>three</p>",
            "<div class=nav>Menu</div><p>four</p>",
        ]);
        let marks = Msa::default().detect(&pages).expect("detect");
        for (page, marks) in pages.iter().zip(&marks) {
            assert_eq!(marks.template_text(&page.dom), "Menu");
        }
        assert_eq!(marks[2].content_text(&pages[2].dom), "three");
    }

    fn score(u: &[u32], v: &[u32], columns: &[Aligned]) -> i32 {
        columns
            .iter()
            .map(|column| match *column {
                Aligned::Match(i, j) => i32::from(u[i] == v[j]),
                Aligned::Mismatch(..) => 0,
                _ => -1,
            })
            .sum()
    }

    proptest! {
        #[test]
        fn trimming_common_ends_never_lowers_the_alignment_score(
            u in proptest::collection::vec(0u32..4, 0..24),
            v in proptest::collection::vec(0u32..4, 0..24),
        ) {
            let trimmed = align(&u, &v);
            let full = align_core(&u, &v);
            prop_assert_eq!(score(&u, &v, &trimmed), score(&u, &v, &full));
            let lefts: Vec<usize> = trimmed.iter().filter_map(|column| match *column {
                Aligned::Match(i, _) | Aligned::Mismatch(i, _) | Aligned::LeftOnly(i) => Some(i),
                Aligned::RightOnly(_) => None,
            }).collect();
            prop_assert_eq!(lefts, (0..u.len()).collect::<Vec<_>>());
        }
    }
}
