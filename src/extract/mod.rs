//! Main text: the article or main body of a scored page, with its user comments apart — what a
//! reader, an indexer or a RAG pipeline wants from the page, beside the segmentation's "all that
//! is not template".
//!
//! The page's visible text is read as paragraphs. A paragraph is *article-like* when the
//! segmentation kept it as content, it is mostly not link text, and it does not sit in a region
//! whose `class`/`id` names a navigation, footer, sidebar, sharing, related-links, advertising
//! or comment role. The main container is the element whose subtree maximises article-like
//! words minus all other words (a maximum-weight subtree, one pass over the contiguous id
//! ranges of the arena DOM); the main text is its article-like paragraphs, headed by the
//! page's headline when the headline sits just outside it. Comments are the paragraphs of
//! comment regions outside the main text.

mod between;
mod blocks;
mod cards;
mod grids;
mod headings;
mod images;
mod model;
mod named_blocks;
mod other_products;
mod regions;
mod repeats;
mod structured;
mod tables;
mod trees;

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use crate::features::vocabulary::is_advertising_label;
use crate::layout::Layout;
use crate::page::{Dom, NodeId};
use crate::page_type::PageType;
use crate::segment::{MIN_CONTENT_WORDS, WordsByTemplateness};
use crate::text::{Paragraph, count_words};

pub(crate) use blocks::json_ld;
pub use blocks::{BLOCK_FEATURE_COUNT, BLOCK_FEATURE_NAMES, BlockFeatures, REPEAT_FEATURES};
use blocks::{add_repeat_features, block_features};
pub use model::{
    MAIN_TEXT_MODEL_VERSION, MainTextModel, MainTextModelError, MainTextTraining, PageTypeMainText,
    Selection,
};
use regions::{NamedRegions, named_regions};
pub use regions::{Region, regions};
pub use tables::MAX_DATA_CELL_CHARS;
pub use trees::{BoostedTrees, BoostingSettings, RegressionTree, TreeNode};

/// The least share of a page's running text (its least template-like words) the main text is
/// chosen from. Chosen on development pages (micro / macro main-text F1 over the six sets):
/// with the page's threshold alone the article was missed on pages whose content holds a
/// little other text (Big9 macro 0.92); 0.3 and 0.5 gave 0.94, 0.7 0.94 with recall up on
/// CleanEval and L3S-GN1 at equal precision, 1.0 (templateness ignored) cost precision on
/// Big9 and L3S-GN1 (0.97 → 0.94).
const RUNNING_TEXT_SHARE: f64 = 0.7;

/// A paragraph whose link words reach this share is a link list, not running text.
const LINK_LIST_SHARE: f64 = 0.5;

/// What the main text of a kind of page is made of, beyond what every page shares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContentPolicy {
    /// Card lists (teasers of other pages: a list of items each with a heading) and picture
    /// galleries are not main text, when enough of it stands outside them — an article's "more
    /// stories" and its slideshow's legends.
    pub without_card_lists: bool,
    /// Whether the content is spread over the page, and how likely a paragraph elsewhere must
    /// be to join it.
    pub spread: Spread,
    /// The page's type, when sure enough for the main-text model's own model of that type (if
    /// it has one) to choose.
    pub page_type: Option<PageType>,
    /// The page's largest grid (a listing's cards) is main text whole: the model keeps some of
    /// its cards, the type says all of them are the content.
    pub whole_grid: bool,
    /// Buyers' reviews are not main text, when enough of it stands outside them: a product's
    /// content is its name, description and specifications.
    pub without_reviews: bool,
    /// Posters' cards (reputation, badges, join date) and signatures are not a thread's text.
    pub without_user_cards: bool,
    /// Blocks headed as other products ("You may also like") are not a product's content.
    pub without_other_products: bool,
}

/// Where on the page the main text is gathered from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Spread {
    /// One block (with its strong siblings), unless the model finds most likely text outside
    /// it (its `spread_share`): an article.
    #[default]
    OneBlock,
    /// Every paragraph at least the model's `spread_cut` likely, wherever it sits: a thread's
    /// posts, a listing's cards, a service page's sections.
    Likely,
    /// Every paragraph at least the model's `cut` likely — as likely as the chosen block's own
    /// —, wherever it sits: a product's buy box, description and specifications sit in blocks
    /// of their own (a section, a tab panel), and its page holds much that is only a little
    /// likely (delivery options, a rating, "Add to cart").
    AsLikely,
}

impl ContentPolicy {
    /// Whether the page's type chose its main text: its own main-text model, or every likely
    /// paragraph of the page. Such a choice speaks for the whole of a thread's, a listing's or a
    /// service page's content, not for one block of it.
    pub fn chose_for_its_type(&self) -> bool {
        self.page_type.is_some() || self.spread != Spread::OneBlock
    }
}

/// Main words an article needs outside card lists (or galleries) before they are dropped: fewer,
/// and the cards may be the page's content after all.
const MIN_WORDS_BESIDE_CARDS: usize = 150;

/// Cards of a listing's grid the choice must reach into before the grid is taken whole: an
/// article sitting in one block of a run of page-wide blocks (a layout's columns, a portal's
/// boxes) reaches into one. Development split (type ≥ 0.3, WCXB cross-fitted): with one, L3S-GN1
/// macro .9619 → .9588 (three articles took their page's navigation boxes); with two, .9617,
/// and WCXB .8214 → .8239; three, or also asking that a third of the chosen words sit in the
/// grid, moved WCXB by ±.0001.
const MIN_CHOSEN_CARDS: usize = 2;

/// A likely listing's choice this small (a title, a result count) beside its grid is next to
/// nothing: the model found no card content and nothing else either, and the grid is taken
/// whole although the choice reaches into none of its cards. The page type's fallback to its
/// own model counts the same 25 words (`page_type::FEW_CHOSEN_WORDS`).
const NEXT_TO_NOTHING_WORDS: usize = 25;

/// See [`NEXT_TO_NOTHING_WORDS`]: the largest share of the grid's words such a choice holds.
const NEXT_TO_NOTHING_SHARE: f64 = 0.2;

/// Words under which a choice may be its grid's introduction ([`introduces_the_grid`]).
/// Development split, WCXB cross-fitted, on likely listings: 80 or 150 words moved three pages
/// (.8446 → .8463), 300 two more (.8474), 600 lost a forum thread. On any page type, before
/// [`MIN_INTRODUCED_CARDS`] and [`INTRO_GRID_TEMPLATENESS`], L3S-GN1 macro main text fell
/// .9623 → .9471 (short news items above their teaser grids); with them, every set's
/// development numbers stayed equal and one more WCXB page (4762, a shop category typed an
/// article: .045 → .900) took its grid.
const INTRO_WORDS: usize = 300;

/// Cards a grid needs to be introduced ([`introduces_the_grid`]): a run of four page-wide blocks
/// (a layout's columns, a portal's boxes) around a news item is no listing (L3S-GN1 6150b773…,
/// four blocks of 55–126 words); the listings it took on the development split have 14 and 33.
const MIN_INTRODUCED_CARDS: usize = 8;

/// How many times the introduction's words its grid holds ([`introduces_the_grid`]):
/// development split at 300 words, 1× moved four pages either way (+.0001), 4× lost the coupon
/// and news-listing pages 2× won.
const INTRO_GRID_RATIO: f64 = 2.0;

/// How many times the page's threshold the grid's word-weighted smoothed templateness may reach
/// ([`introduces_the_grid`]): the listings it won on the development split have grids at 1.2×
/// and 1.7× their threshold (their cards repeat their wording), the L3S-GN1 news item it lost on
/// a grid of links at 2.9×. At 1× (content by the threshold) neither listing is taken.
const INTRO_GRID_TEMPLATENESS: f64 = 2.0;

/// Main words a product page needs outside its reviews before they are dropped: fewer, and the
/// reviews may be all the page says.
const MIN_WORDS_BESIDE_REVIEWS: usize = 30;

/// Words a paragraph needs before a copy of it set in other markup is dropped
/// ([`without_repeats_set_otherwise`]): shorter ones (a date, "Reply", a price) repeat as a
/// matter of course. Development split, WCXB cross-fitted: 8 words .8390 → .8425 without the
/// markup condition (3 words: .8422), but Readability's test pages lost their repeated Lorem
/// ipsum (macro main .9672 → .9267); with it, .8416 and Readability −.0009 (yahoo-2).
const MIN_REPEATED_WORDS: usize = 8;

/// Replies a thread needs before its comments are taken for its posts
/// ([`with_replies_as_posts`]): fewer, and they are an article's few comments.
const MIN_REPLIES: usize = 3;

/// How many times the chosen words a thread's replies hold: a thread's answers outweigh its
/// question. Development split: at 0.5, L3S-GN1 macro main text .9620 → .9577 (a news brief
/// whose readers' notes share its markup); at 2 no set but WCXB moved (WCXB cross-fitted .8377 →
/// .8390, the only value tried above 0.5).
const REPLIES_OVER_POST: f64 = 2.0;

/// The least share of words in markup alike ([`with_replies_as_posts`]).
const ALIKE_SHARE: f64 = 0.5;

/// Main words a page needs outside its cookie and consent notices before they are dropped.
const MIN_WORDS_BESIDE_NOTICES: usize = 30;

/// Main words a page needs outside its tooltips and popovers before they are dropped.
const MIN_WORDS_BESIDE_TOOLTIPS: usize = 30;

/// Main words a product page needs outside the blocks it heads as other products before they
/// are dropped: fewer, and they may be all the page says.
const MIN_WORDS_BESIDE_OTHER_PRODUCTS: usize = 30;

/// Main words a thread needs outside its posters' cards before they are dropped: fewer, and the
/// page may be a member's profile rather than a thread.
const MIN_WORDS_BESIDE_USER_CARDS: usize = 30;

/// The main text and comments of a page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extracted {
    /// The article's paragraphs, a blank line between them.
    pub main_text: String,
    /// User comments, a blank line between paragraphs; empty when the page has none.
    pub comments: String,
    /// The element holding the main text (`None` on a page without text).
    pub main_container: Option<NodeId>,
    /// Block elements of the main-text paragraphs, in document order.
    pub main_blocks: Vec<NodeId>,
    /// Block elements of the comment paragraphs, in document order.
    pub comment_blocks: Vec<NodeId>,
    /// The text nodes of the main text (indices into [`Dom::texts`], document order): what the
    /// Markdown of the main text is written from.
    pub main_text_nodes: Vec<u32>,
    /// The text nodes of the comments.
    pub comment_text_nodes: Vec<u32>,
    /// The pictures among the main text (`<img>` elements, document order).
    pub main_images: Vec<NodeId>,
    /// Text the page's structured data gives as its content and its visible text lacks (a
    /// product's JSON-LD description), appended to `main_text` as its last paragraph.
    pub structured_text: Option<String>,
}

/// What the choice needs to know of one paragraph.
#[derive(Debug, Clone, PartialEq)]
struct ParagraphFacts {
    /// The paragraph's index among the page's paragraphs.
    paragraph: usize,
    block: NodeId,
    /// The element of the paragraph's first piece: where the paragraph sits in the tree.
    anchor: NodeId,
    text: String,
    words: usize,
    link_words: usize,
    /// Smoothed templateness of the paragraph's elements, weighted by their words.
    templateness: f64,
    region: Region,
    in_form: bool,
}

impl ParagraphFacts {
    fn is_link_list(&self) -> bool {
        self.link_words as f64 >= LINK_LIST_SHARE * self.words as f64
    }

    /// Running text in no named region: article text if it is content.
    fn is_running_text(&self) -> bool {
        !self.is_link_list() && self.region == Region::Plain
    }
}

/// Chooses the main text and comments of a page from its paragraphs, each element's smoothed
/// templateness, the threshold the page was segmented with, its boxes and the page title: with
/// `model`, the paragraphs the learned main-text model finds likely, in the container that holds
/// most of them; without it (or when it finds none), by the rules alone. `policy_for` hears the
/// choice every page gets and says what the main text of this kind of page is made of; when
/// that differs, the choice is made again from the same paragraphs and probabilities.
#[allow(clippy::too_many_arguments)]
pub fn extract(
    dom: &Dom,
    layout: &Layout,
    paragraphs: &[Paragraph],
    templateness: &[f64],
    threshold: f64,
    title: &str,
    model: Option<&MainTextModel>,
    policy_for: &mut dyn FnMut(&Extracted) -> ContentPolicy,
) -> Extracted {
    let NamedRegions {
        region,
        in_notice: notices,
        in_tooltip: tooltips,
    } = named_regions(dom);
    let facts = page_facts(dom, paragraphs, templateness, &region);
    let Some(rules) = choose_by_rules(dom, &facts, threshold, title) else {
        return Extracted::default();
    };
    let features: Option<Vec<BlockFeatures>> =
        model.map(|_| paragraph_features(dom, layout, &facts, &rules, threshold, title));
    let every_page_probability: Option<Vec<f64>> = model.map(|model| {
        features
            .iter()
            .flatten()
            .map(|features| model.probability(features))
            .collect()
    });
    let choose = |policy: ContentPolicy, grid: GridRule| {
        let chosen = model
            .and_then(|model| {
                let typed = model.for_page_type(policy.page_type);
                let typed_probability;
                let probability = if std::ptr::eq(typed, model) {
                    every_page_probability.as_deref()?
                } else {
                    let mut with_repeats = features.clone()?;
                    add_repeat_features(dom, &facts, &mut with_repeats);
                    typed_probability = with_repeats
                        .iter()
                        .map(|features| typed.probability(features))
                        .collect::<Vec<f64>>();
                    &typed_probability
                };
                choose_by_model(
                    dom,
                    &facts,
                    probability,
                    typed,
                    policy.spread,
                    threshold,
                    title,
                )
            })
            .unwrap_or_else(|| rules.clone());
        let chosen = if grid == GridRule::Never {
            chosen
        } else {
            with_largest_grid(dom, &region, &notices, &facts, chosen, grid, threshold)
        };
        let chosen = if policy.without_card_lists {
            let galleries = named_blocks::within_blocks_named_up_to(
                dom,
                named_blocks::GALLERIES,
                named_blocks::MAX_GALLERY_SHARE,
            );
            let chosen = without_card_lists(dom, &facts, chosen);
            without_blocks(&galleries, &facts, chosen, MIN_WORDS_BESIDE_CARDS)
        } else {
            chosen
        };
        let chosen = without_blocks(&notices, &facts, chosen, MIN_WORDS_BESIDE_NOTICES);
        let chosen = without_blocks(&tooltips, &facts, chosen, MIN_WORDS_BESIDE_TOOLTIPS);
        let chosen = if policy.without_user_cards {
            let cards = named_blocks::within_blocks_so_named(
                dom,
                named_blocks::names_a_user_card,
                regions::MAX_REGION_SHARE,
            );
            without_blocks(&cards, &facts, chosen, MIN_WORDS_BESIDE_USER_CARDS)
        } else {
            chosen
        };
        let chosen = if policy.without_reviews {
            let reviews = named_blocks::within_blocks_named(dom, named_blocks::REVIEWS);
            without_blocks(&reviews, &facts, chosen, MIN_WORDS_BESIDE_REVIEWS)
        } else {
            chosen
        };
        if policy.without_other_products {
            let others = other_products::within_other_products(dom, &facts);
            without_blocks(&others, &facts, chosen, MIN_WORDS_BESIDE_OTHER_PRODUCTS)
        } else {
            chosen
        }
    };
    let every_page_choice = choose(ContentPolicy::default(), GridRule::Never);
    let every_page = every_page_choice.extracted(&facts, paragraphs);
    let mut policy = policy_for(&every_page);
    if model.is_none_or(|model| std::ptr::eq(model.for_page_type(policy.page_type), model)) {
        // No model of the page's own type: the every-page model's choice stands for it.
        policy.page_type = None;
    }
    let grid = if policy.whole_grid {
        GridRule::ChosenCardsToo
    } else {
        GridRule::NextToNothing
    };
    let mut extracted = if policy == ContentPolicy::default()
        && !may_miss_its_grid(&notices, &facts, &every_page_choice)
    {
        // Neither the type nor a grid changes what the every-page model chose.
        let replies = every_page_choice.comments.len();
        let choice = with_replies_as_posts(dom, &facts, every_page_choice);
        if choice.comments.len() == replies {
            every_page
        } else {
            choice.extracted(&facts, paragraphs)
        }
    } else {
        with_replies_as_posts(dom, &facts, choose(policy, grid)).extracted(&facts, paragraphs)
    };
    if let Some(description) =
        structured::missing_product_description(&json_ld(dom), &extracted.main_text)
    {
        extracted.main_text.push_str("\n\n");
        extracted.main_text.push_str(&description);
        extracted.structured_text = Some(description);
    }
    extracted.main_images = images::main_images(
        dom,
        layout,
        &extracted.main_text_nodes,
        templateness,
        threshold,
        &region,
    );
    extracted
}

/// The features of a page's paragraphs and their text, for fitting a main-text model: what
/// [`extract`] would weigh, paragraph by paragraph.
pub fn paragraph_rows(
    dom: &Dom,
    layout: &Layout,
    paragraphs: &[Paragraph],
    templateness: &[f64],
    threshold: f64,
    title: &str,
) -> Vec<(String, BlockFeatures)> {
    let facts = page_facts(dom, paragraphs, templateness, &regions(dom));
    let Some(rules) = choose_by_rules(dom, &facts, threshold, title) else {
        return Vec::new();
    };
    let mut features = paragraph_features(dom, layout, &facts, &rules, threshold, title);
    add_repeat_features(dom, &facts, &mut features);
    facts
        .into_iter()
        .zip(features)
        .map(|(facts, features)| (facts.text, features))
        .collect()
}

fn paragraph_features(
    dom: &Dom,
    layout: &Layout,
    facts: &[ParagraphFacts],
    rules: &Choice,
    threshold: f64,
    title: &str,
) -> Vec<BlockFeatures> {
    let mut in_rules_main = vec![false; facts.len()];
    for &index in &rules.main {
        in_rules_main[index] = true;
    }
    block_features(dom, layout, facts, &in_rules_main, threshold, title)
}

/// A page's paragraphs with words, as the choice sees them.
fn page_facts(
    dom: &Dom,
    paragraphs: &[Paragraph],
    templateness: &[f64],
    region: &[Region],
) -> Vec<ParagraphFacts> {
    let in_link = dom.within_links();
    let in_form = dom.within(|element| element.tag == "form");
    paragraphs
        .iter()
        .enumerate()
        .map(|(index, paragraph)| {
            paragraph_facts(index, paragraph, templateness, region, &in_link, &in_form)
        })
        .filter(|facts| facts.words > 0)
        .collect()
}

/// The main text and comments chosen, as indices into the page's [`ParagraphFacts`].
#[derive(Debug, Clone)]
struct Choice {
    container: NodeId,
    main: Vec<usize>,
    comments: Vec<usize>,
}

impl Choice {
    fn extracted(&self, facts: &[ParagraphFacts], paragraphs: &[Paragraph]) -> Extracted {
        let join = |chosen: &[usize]| {
            chosen
                .iter()
                .map(|&index| facts[index].text.as_str())
                .collect::<Vec<_>>()
                .join("\n\n")
        };
        let blocks = |chosen: &[usize]| chosen.iter().map(|&index| facts[index].block).collect();
        let text_nodes = |chosen: &[usize]| {
            let mut nodes: Vec<u32> = chosen
                .iter()
                .flat_map(|&index| &paragraphs[facts[index].paragraph].text_nodes)
                .copied()
                .collect();
            // The headline joins before the container's paragraphs; keep document order.
            nodes.sort_unstable();
            nodes.dedup();
            nodes
        };
        Extracted {
            main_text: join(&self.main),
            comments: join(&self.comments),
            main_container: Some(self.container),
            main_blocks: blocks(&self.main),
            comment_blocks: blocks(&self.comments),
            main_text_nodes: text_nodes(&self.main),
            comment_text_nodes: text_nodes(&self.comments),
            main_images: Vec::new(),
            structured_text: None,
        }
    }
}

/// The choice with its comments as main text when they are a thread's replies: at least
/// [`MIN_REPLIES`] paragraphs outside buyers' reviews, [`REPLIES_OVER_POST`] times the chosen
/// words, set in the same markup as the chosen text ([`markup_path`]) — most of the chosen
/// words in a path some reply has, most of the replies' words in a path the chosen text has.
/// A thread the type model is not sure of (a travel forum typed a thread at p 0.47, under its
/// gates) had its question as main text and every answer as comments; an article's comments
/// sit in markup of their own (`li.comment > p` under `div.entry-content > p`), and a news
/// brief's readers' notes in other tags under the same box (L3S-GN1: `font > font > p` where
/// the brief is `p`).
fn with_replies_as_posts(dom: &Dom, facts: &[ParagraphFacts], choice: Choice) -> Choice {
    let words = |chosen: &[usize]| {
        chosen
            .iter()
            .map(|&index| facts[index].words)
            .sum::<usize>()
    };
    let post_words = words(&choice.main);
    if choice.comments.len() < MIN_REPLIES
        || (words(&choice.comments) as f64) < REPLIES_OVER_POST * post_words.max(1) as f64
    {
        return choice;
    }
    let reviews = named_blocks::within_blocks_named(dom, named_blocks::REVIEWS);
    let replies: Vec<usize> = choice
        .comments
        .iter()
        .copied()
        .filter(|&index| !reviews[facts[index].anchor.index()])
        .collect();
    let reply_words = words(&replies);
    if replies.len() < MIN_REPLIES
        || (reply_words as f64) < REPLIES_OVER_POST * post_words.max(1) as f64
    {
        return choice;
    }
    let paths = |chosen: &[usize]| -> Vec<Option<String>> {
        chosen
            .iter()
            .map(|&index| markup_path(dom, facts[index].anchor))
            .collect()
    };
    let (post_paths, reply_paths) = (paths(&choice.main), paths(&replies));
    // Words of `chosen` (with their paths) whose path is one of `others`.
    let words_in_paths = |chosen: &[usize], own: &[Option<String>], others: &[Option<String>]| {
        let others: HashSet<&str> = others.iter().flatten().map(String::as_str).collect();
        chosen
            .iter()
            .zip(own)
            .filter(|(_, path)| path.as_deref().is_some_and(|path| others.contains(path)))
            .map(|(&index, _)| facts[index].words)
            .sum::<usize>()
    };
    let alike = |shared: usize, of: usize| shared as f64 >= ALIKE_SHARE * of as f64;
    if !alike(
        words_in_paths(&choice.main, &post_paths, &reply_paths),
        post_words,
    ) || !alike(
        words_in_paths(&replies, &reply_paths, &post_paths),
        reply_words,
    ) {
        return choice;
    }
    let mut main: Vec<usize> = choice.main.iter().chain(&replies).copied().collect();
    main.sort_unstable();
    main.dedup();
    // A reply quoting the question.
    let main = without_repeats_set_otherwise(dom, facts, main);
    let comments = choice
        .comments
        .into_iter()
        .filter(|index| !replies.contains(index))
        .collect();
    Choice {
        container: choice.container,
        main,
        comments,
    }
}

/// The tags from `element` up to its nearest ancestor with a `class`, and that class
/// (`p<div<content markdown`): where a paragraph sits in the markup that lays out a post. `None`
/// when no ancestor has a class.
fn markup_path(dom: &Dom, element: NodeId) -> Option<String> {
    let mut path = String::new();
    let mut at = Some(element);
    while let Some(id) = at {
        let element = dom.element(id);
        path.push_str(&element.tag);
        path.push('<');
        if let Some(class) = element
            .attribute("class")
            .filter(|class| !class.trim().is_empty())
        {
            path.push_str(class);
            return Some(path);
        }
        at = element.parent;
    }
    None
}

/// The main text by the rules: the maximum-weight subtree of article-like paragraphs, its
/// strong siblings and the headline before it. `None` on a page without text.
fn choose_by_rules(
    dom: &Dom,
    facts: &[ParagraphFacts],
    threshold: f64,
    title: &str,
) -> Option<Choice> {
    let threshold = main_text_threshold(facts, threshold);
    let is_content = |facts: &ParagraphFacts| facts.templateness < threshold;
    // A page whose content all sits in named regions (a portal of link lists, a page the
    // segmentation kept little of) still has a main text: its content, by decreasing strictness.
    let rules: [&dyn Fn(&ParagraphFacts) -> bool; 4] = [
        &|facts| is_content(facts) && facts.is_running_text(),
        &|facts| is_content(facts) && !facts.is_link_list() && facts.region != Region::Comment,
        &|facts| is_content(facts) && facts.region != Region::Comment,
        &|facts| is_content(facts),
    ];
    let (container, gain, is_main) = rules.into_iter().find_map(|rule| {
        main_container(dom, facts, rule).map(|(container, gain)| (container, gain, rule))
    })?;
    let parts = with_strong_siblings(dom, container, &gain);
    let main: Vec<usize> = (0..facts.len())
        .filter(|&index| {
            parts
                .iter()
                .any(|&part| dom.contains(part, facts[index].anchor))
        })
        .filter(|&index| is_main(&facts[index]))
        .collect();
    Some(finish_choice(dom, facts, container, &parts, main, title))
}

/// The main text by the learned model: the element whose subtree holds the most words of likely
/// paragraphs net of unlikely ones (each weighted by how far its probability is from `cut`),
/// with its strong siblings; its paragraphs at or above `cut`. When those parts hold less than
/// the model's `spread_share` of the likely words, or when the page is known to spread its
/// content (`spread`), every paragraph at or above its `spread_cut` (under
/// [`Spread::AsLikely`]: its `cut`) instead, wherever it sits.
/// `None` when no paragraph reaches `cut`.
fn choose_by_model(
    dom: &Dom,
    facts: &[ParagraphFacts],
    probability: &[f64],
    model: &MainTextModel,
    spread: Spread,
    threshold: f64,
    title: &str,
) -> Option<Choice> {
    let likeliest = probability.iter().copied().fold(0.0, f64::max);
    let cut = model.cut_on_page(model.cut, likeliest);
    if likeliest < cut {
        return None;
    }
    let gain = subtree_gains(dom, facts, |index, facts| {
        facts.words as f64 * (probability[index] - cut)
    });
    let container = heaviest_subtree(dom, &gain)?;
    let parts = with_strong_siblings(dom, container, &gain);
    let in_parts = |index: usize| {
        parts
            .iter()
            .any(|&part| dom.contains(part, facts[index].anchor))
    };
    let likely_words = |counted: &dyn Fn(usize) -> bool| -> usize {
        (0..facts.len())
            .filter(|&index| probability[index] >= cut && counted(index))
            .map(|index| facts[index].words)
            .sum()
    };
    // A thread, a listing, a service page: the likely text is spread over the page, and the
    // container holds little of it. Then every paragraph likely enough is main content — the
    // type says so, or the model finds it (its `spread_share`) on a page of one block.
    let spread_cut = match spread {
        Spread::AsLikely => Some(cut),
        Spread::Likely => Some(model.cut_on_page(model.spread_cut, likeliest)),
        Spread::OneBlock => ((likely_words(&in_parts) as f64)
            < model.spread_share * likely_words(&|_| true) as f64)
            .then(|| model.cut_on_page(model.spread_cut, likeliest)),
    };
    let main: Vec<usize> = (0..facts.len())
        .filter(|&index| {
            if let Some(spread_cut) = spread_cut {
                probability[index] >= spread_cut
            } else {
                probability[index] >= cut
                    && (model.selection == Selection::Paragraphs || in_parts(index))
            }
        })
        .collect();
    // An article's bullet points and short lines, which the model weighs one by one.
    let main = if spread_cut.is_none() {
        between::with_what_lies_between(dom, facts, &parts, threshold, main)
    } else {
        main
    };
    Some(finish_choice(dom, facts, container, &parts, main, title))
}

/// The chosen main paragraphs headed by the page's headline when it sits before them, with the
/// section headings that lead into them, and the comments: paragraphs of comment regions
/// outside the main text.
fn finish_choice(
    dom: &Dom,
    facts: &[ParagraphFacts],
    container: NodeId,
    parts: &[NodeId],
    mut main: Vec<usize>,
    title: &str,
) -> Choice {
    // An advertisement's label between two paragraphs is not the article's, however likely
    // its place makes it.
    main.retain(|&index| !is_advertising_label(&facts[index].text));
    main = with_whole_data_tables(dom, facts, container, main);
    main = with_code_blocks(dom, facts, parts, main);
    if let Some(headline) = headline_before(dom, facts, container, title)
        && main
            .first()
            .is_none_or(|&first| facts[first].anchor > facts[headline].anchor)
    {
        main.insert(0, headline);
    }
    let main = without_repeats_set_otherwise(
        dom,
        facts,
        headings::with_section_headings(dom, facts, main),
    );
    let comments: Vec<usize> = (0..facts.len())
        .filter(|&index| {
            let facts_here = &facts[index];
            // The comment form's labels ("Name (required)") are not comments.
            facts_here.region == Region::Comment
                && !facts_here.is_link_list()
                && !facts_here.in_form
                && !main
                    .iter()
                    .any(|&kept| facts[kept].anchor == facts_here.anchor)
        })
        .collect();
    Choice {
        container,
        main,
        comments,
    }
}

/// `main` without each paragraph of at least [`MIN_REPEATED_WORDS`] that repeats, word for word,
/// an earlier one set in other markup ([`markup_path`]): a forum post quoted in a reply
/// (`blockquote`), a carousel's cloned slide, a block a page prints twice for two screen sizes. A
/// reader reads it once. Repeats in the same markup stay: a page may say the same thing twice
/// (Readability's test pages repeat a paragraph of Lorem ipsum, and their gold keeps every copy).
fn without_repeats_set_otherwise(
    dom: &Dom,
    facts: &[ParagraphFacts],
    mut main: Vec<usize>,
) -> Vec<usize> {
    // A paragraph's text is already whitespace-normalised: its words are its spaces + 1, and
    // the text itself is the key. Markup paths are built only for a repeat and its first copy.
    let mut first_seen: HashMap<&str, (usize, Option<Option<String>>)> = HashMap::new();
    main.retain(|&index| {
        let text = facts[index].text.as_str();
        if text.split(' ').count() < MIN_REPEATED_WORDS {
            return true;
        }
        match first_seen.entry(text) {
            Entry::Vacant(entry) => {
                entry.insert((index, None));
                true
            }
            Entry::Occupied(mut first) => {
                let (first_index, first_path) = first.get_mut();
                let first_path =
                    first_path.get_or_insert_with(|| markup_path(dom, facts[*first_index].anchor));
                *first_path == markup_path(dom, facts[index].anchor)
            }
        }
    });
    main
}

/// When the page's largest grid joins the main text ([`with_largest_grid`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GridRule {
    /// Never: the every-page choice, which the page type reads, is the model's own. (Taking the
    /// grid there retyped eBay's category page, WCXB 0658, and cost it .64 → .10.)
    Never,
    /// When the choice is next to nothing beside the grid or its introduction: on any page,
    /// once typed. A shop's best sellers typed a product (Amazon's books, WCXB 2922: 7 words of
    /// a gold of 1,253) or a guitar shop's listing (thomann 2936: 16 of 436) has its title
    /// alone, and the grid is the rest of its content; an article rarely leaves its model under
    /// 25 words, nor stands above eight cards that do not read as template.
    NextToNothing,
    /// Also when the choice reaches into [`MIN_CHOSEN_CARDS`] of its cards: a likely listing or
    /// collection ([`ContentPolicy::whole_grid`]).
    ChosenCardsToo,
}

/// The choice with every paragraph of the page's largest grid ([`grids::largest_grid`]) but
/// comments, in document order, when the choice is next to nothing beside the grid
/// ([`NEXT_TO_NOTHING_WORDS`]; words in cookie or consent notices, `in_notice`, are nothing),
/// is the grid's introduction ([`introduces_the_grid`]; `threshold` is the page's) or, by
/// `rule`, already reaches into at least [`MIN_CHOSEN_CARDS`] of its cards — the model found
/// the cards content and kept only some.
fn with_largest_grid(
    dom: &Dom,
    region: &[Region],
    in_notice: &[bool],
    facts: &[ParagraphFacts],
    mut choice: Choice,
    rule: GridRule,
    threshold: f64,
) -> Choice {
    if rule == GridRule::NextToNothing && !may_miss_its_grid(in_notice, facts, &choice) {
        // Most pages: no grid to look for.
        return choice;
    }
    let cards = grids::largest_grid(dom, region);
    // Each paragraph's card, found once: the rules below ask for it several times a paragraph.
    let card_of_paragraph: Vec<Option<usize>> = facts
        .iter()
        .map(|here| {
            cards
                .iter()
                .position(|&card| dom.contains(card, here.anchor))
        })
        .collect();
    let card_of = |index: usize| card_of_paragraph[index];
    // Paragraphs and cards are both in document order: equal cards are neighbours.
    let mut chosen_cards: Vec<usize> = choice
        .main
        .iter()
        .filter_map(|&index| card_of(index))
        .collect();
    chosen_cards.dedup();
    let by_chosen_cards =
        rule == GridRule::ChosenCardsToo && chosen_cards.len() >= MIN_CHOSEN_CARDS;
    let by_introduction = || introduces_the_grid(facts, in_notice, &choice, card_of, threshold);
    if !by_chosen_cards
        && !next_to_nothing_beside(facts, in_notice, &choice, card_of)
        && !by_introduction()
    {
        return choice;
    }
    let mut chosen = vec![false; facts.len()];
    for &index in &choice.main {
        chosen[index] = true;
    }
    for (index, here) in facts.iter().enumerate() {
        if !chosen[index] && here.region != Region::Comment && card_of(index).is_some() {
            choice.main.push(index);
        }
    }
    choice.main.sort_unstable();
    choice
}

/// Whether the choice holds under [`NEXT_TO_NOTHING_WORDS`] words and under
/// [`NEXT_TO_NOTHING_SHARE`] of the grid's (`card_of` says which card a paragraph is in), its
/// paragraphs in notices not counted: a consent dialog above a shop's grid is no content
/// (the notice itself is dropped next, once 30 main words stand beside it).
fn next_to_nothing_beside(
    facts: &[ParagraphFacts],
    in_notice: &[bool],
    choice: &Choice,
    card_of: impl Fn(usize) -> Option<usize>,
) -> bool {
    let chosen_words = chosen_words_outside(in_notice, facts, choice);
    if chosen_words >= NEXT_TO_NOTHING_WORDS {
        // Most choices: the grid's words need no counting.
        return false;
    }
    let grid_words: usize = (0..facts.len())
        .filter(|&index| card_of(index).is_some())
        .map(|index| facts[index].words)
        .sum();
    (chosen_words as f64) < NEXT_TO_NOTHING_SHARE * grid_words as f64
}

/// Whether the choice is the grid's introduction — a title and a few lines
/// above its cards (a coupon page's "We will match competitors' pricing" above its coupons): under
/// [`INTRO_WORDS`] chosen words, none of them after the grid's first card but in cards, a grid
/// of at least [`MIN_INTRODUCED_CARDS`] cards whose words (comments aside) are at least
/// [`INTRO_GRID_RATIO`] times theirs, and the grid not template by its smoothed templateness
/// ([`INTRO_GRID_TEMPLATENESS`]).
fn introduces_the_grid(
    facts: &[ParagraphFacts],
    in_notice: &[bool],
    choice: &Choice,
    card_of: impl Fn(usize) -> Option<usize>,
    threshold: f64,
) -> bool {
    let chosen_words = chosen_words_outside(in_notice, facts, choice);
    if chosen_words >= INTRO_WORDS {
        return false;
    }
    let in_grid: Vec<usize> = (0..facts.len())
        .filter(|&index| card_of(index).is_some() && facts[index].region != Region::Comment)
        .collect();
    let Some(&first_card) = in_grid.first() else {
        return false;
    };
    if choice
        .main
        .iter()
        .any(|&index| index >= first_card && card_of(index).is_none())
    {
        return false;
    }
    let grid_words: usize = in_grid.iter().map(|&index| facts[index].words).sum();
    // Paragraphs and cards are both in document order: equal cards are neighbours.
    let mut cards: Vec<usize> = in_grid.iter().filter_map(|&index| card_of(index)).collect();
    cards.dedup();
    if cards.len() < MIN_INTRODUCED_CARDS {
        return false;
    }
    let grid_templateness: f64 = in_grid
        .iter()
        .map(|&index| facts[index].templateness * facts[index].words as f64)
        .sum::<f64>()
        / grid_words.max(1) as f64;
    grid_words as f64 >= INTRO_GRID_RATIO * chosen_words as f64
        && grid_templateness < INTRO_GRID_TEMPLATENESS * threshold
}

/// Whether the choice holds under [`INTRO_WORDS`] words outside notices (`in_notice`): only
/// then can it be next to nothing beside a grid ([`next_to_nothing_beside`]) or the grid's
/// introduction ([`introduces_the_grid`]), so only then is a grid looked for.
fn may_miss_its_grid(in_notice: &[bool], facts: &[ParagraphFacts], choice: &Choice) -> bool {
    chosen_words_outside(in_notice, facts, choice) < INTRO_WORDS.max(NEXT_TO_NOTHING_WORDS)
}

/// Words of the choice's main paragraphs outside the elements `within` marks.
fn chosen_words_outside(within: &[bool], facts: &[ParagraphFacts], choice: &Choice) -> usize {
    choice
        .main
        .iter()
        .filter(|&&index| !within[facts[index].anchor.index()])
        .map(|&index| facts[index].words)
        .sum()
}

/// The choice without its paragraphs inside card lists, when at least
/// [`MIN_WORDS_BESIDE_CARDS`] main words stand outside them (the headline stays).
fn without_card_lists(dom: &Dom, facts: &[ParagraphFacts], choice: Choice) -> Choice {
    let in_card_list = cards::within_card_lists(dom);
    without_blocks(&in_card_list, facts, choice, MIN_WORDS_BESIDE_CARDS)
}

/// The choice without the paragraphs inside the elements `within` marks, when at least
/// `min_words_beside` of it stand outside them.
fn without_blocks(
    within: &[bool],
    facts: &[ParagraphFacts],
    mut choice: Choice,
    min_words_beside: usize,
) -> Choice {
    if chosen_words_outside(within, facts, &choice) >= min_words_beside {
        choice
            .main
            .retain(|&index| !within[facts[index].anchor.index()]);
    }
    choice
}

/// The chosen paragraphs and the code blocks (`<pre>`) of their container and its strong
/// siblings (`parts`), in document order: a tutorial's or a developer's post's examples, which
/// a model of sentences scores low (WCXB 0437, a post on git: recall .41, its commands missing).
fn with_code_blocks(
    dom: &Dom,
    facts: &[ParagraphFacts],
    parts: &[NodeId],
    mut main: Vec<usize>,
) -> Vec<usize> {
    if main.is_empty() || dom.first_with_tag("pre").is_none() {
        return main;
    }
    let mut chosen = vec![false; facts.len()];
    for &index in &main {
        chosen[index] = true;
    }
    let is_code =
        |id: NodeId| dom.element(id).tag == "pre" || dom.nearest_ancestor(id, "pre").is_some();
    let code: Vec<usize> = (0..facts.len())
        .filter(|&index| {
            let here = &facts[index];
            !chosen[index]
                && here.region != Region::Comment
                && !here.is_link_list()
                && is_code(here.anchor)
                && parts.iter().any(|&part| dom.contains(part, here.anchor))
        })
        .collect();
    if !code.is_empty() {
        main.extend(code);
        main.sort_unstable();
    }
    main
}

/// The chosen paragraphs and every other paragraph of the data tables they sit in, or that sit
/// in the main container outside named regions (comments aside), in document order. A table in
/// the article's own block is the article's (a review's scores, a report's figures, a
/// product's specifications), though its cells of names and numbers read as no running text
/// and none of them may be chosen. Development split: Readability main text .9782 / .9669 →
/// .9805 / .9676, CleanEval .9449 / .8974 → .9453 / .8981, WCXB cross-fitted .8263 → .8266
/// (11 pages up, 2 down), Big9 −.0001; Markdown table cells recovered .102 → .143.
fn with_whole_data_tables(
    dom: &Dom,
    facts: &[ParagraphFacts],
    container: NodeId,
    main: Vec<usize>,
) -> Vec<usize> {
    let in_container = facts
        .iter()
        .filter(|here| here.region == Region::Plain && dom.contains(container, here.anchor))
        .filter_map(|here| dom.nearest_ancestor(here.anchor, "table"))
        .filter(|&table| dom.contains(container, table));
    let mut tables: Vec<NodeId> = main
        .iter()
        .filter_map(|&index| dom.nearest_ancestor(facts[index].anchor, "table"))
        .chain(in_container)
        .collect();
    tables.sort_unstable();
    tables.dedup();
    let in_link = dom.within_links();
    tables.retain(|&table| tables::is_data_table(dom, table, &in_link));
    if tables.is_empty() {
        return main;
    }
    let mut chosen = vec![false; facts.len()];
    for &index in &main {
        chosen[index] = true;
    }
    let mut whole: Vec<usize> = (0..facts.len())
        .filter(|&index| {
            chosen[index]
                || (facts[index].region != Region::Comment
                    && tables
                        .iter()
                        .any(|&table| dom.contains(table, facts[index].anchor)))
        })
        .collect();
    whole.dedup();
    whole
}

/// The templateness below which a paragraph can be main text: the page's threshold, or on a
/// page where that keeps less than [`RUNNING_TEXT_SHARE`] of the running text (or fewer than
/// [`MIN_CONTENT_WORDS`] words), just above the lowest templateness that keeps that much — the
/// article is the least template-like running text of its page even when the classifier calls
/// it template (a 3,000-word report at 0.2505 under a 0.25 threshold, its comments the only
/// content left). The main container is then chosen among these paragraphs.
fn main_text_threshold(facts: &[ParagraphFacts], threshold: f64) -> f64 {
    let running = WordsByTemplateness::new(
        facts
            .iter()
            .filter(|facts| facts.is_running_text())
            .map(|facts| (facts.templateness, facts.words)),
    );
    let needed =
        MIN_CONTENT_WORDS.max((RUNNING_TEXT_SHARE * running.total() as f64).ceil() as usize);
    if running.kept_below(threshold) >= needed {
        return threshold;
    }
    // A page with less running text than that: all of it.
    running
        .threshold_keeping(needed)
        .map_or(f64::INFINITY, |lowered| threshold.max(lowered))
}

fn paragraph_facts(
    index: usize,
    paragraph: &Paragraph,
    templateness: &[f64],
    region: &[Region],
    in_link: &[bool],
    in_form: &[bool],
) -> ParagraphFacts {
    let mut words = 0;
    let mut link_words = 0;
    let mut weighted_templateness = 0.0;
    for &(parent, text) in &paragraph.pieces {
        let count = count_words(text);
        words += count;
        if in_link[parent.index()] {
            link_words += count;
        }
        weighted_templateness += templateness[parent.index()] * count as f64;
    }
    let anchor = paragraph
        .pieces
        .first()
        .map_or(paragraph.block, |(parent, _)| *parent);
    ParagraphFacts {
        paragraph: index,
        block: paragraph.block,
        anchor,
        text: paragraph.text_where(|_| true),
        words,
        link_words,
        templateness: weighted_templateness / words.max(1) as f64,
        region: region[anchor.index()],
        in_form: in_form[anchor.index()],
    }
}

/// The element whose subtree holds the most words of paragraphs `is_main` accepts net of all
/// other words (a maximum-weight subtree); ties go to the deepest such element. `None` when it
/// accepts no paragraph.
fn main_container(
    dom: &Dom,
    facts: &[ParagraphFacts],
    is_main: &dyn Fn(&ParagraphFacts) -> bool,
) -> Option<(NodeId, Vec<f64>)> {
    if !facts.iter().any(is_main) {
        return None;
    }
    let gain = subtree_gains(dom, facts, |_, facts| {
        let words = facts.words as f64;
        if is_main(facts) { words } else { -words }
    });
    // Accepted text sharing its element with more rejected text (a page whose body holds bare
    // text runs) nets nothing anywhere: the largest accepted paragraph's element holds it.
    heaviest_subtree(dom, &gain)
        .or_else(|| {
            facts
                .iter()
                .filter(|facts| is_main(facts))
                .max_by_key(|facts| facts.words)
                .map(|facts| facts.anchor)
        })
        .map(|container| (container, gain))
}

/// Each element's subtree total of its paragraphs' `weight` (of the paragraph's index and
/// facts; a paragraph counts at its anchor).
fn subtree_gains(
    dom: &Dom,
    facts: &[ParagraphFacts],
    weight: impl Fn(usize, &ParagraphFacts) -> f64,
) -> Vec<f64> {
    let mut gain = vec![0.0f64; dom.len()];
    for (index, facts) in facts.iter().enumerate() {
        gain[facts.anchor.index()] += weight(index, facts);
    }
    // Children come after their parent in document order: sum subtrees bottom-up.
    for id in dom.ids().rev() {
        if let Some(parent) = dom.element(id).parent {
            gain[parent.index()] += gain[id.index()];
        }
    }
    gain
}

/// The element of largest positive subtree gain, the deepest on ties; `None` when none is
/// positive.
fn heaviest_subtree(dom: &Dom, gain: &[f64]) -> Option<NodeId> {
    dom.ids()
        .max_by(|a, b| {
            gain[a.index()]
                .total_cmp(&gain[b.index()])
                .then(a.0.cmp(&b.0))
        })
        .filter(|id| gain[id.index()] > 0.0)
}

/// A share of the container's net words a sibling must reach to join the main text.
const SIBLING_SHARE: f64 = 0.25;

/// The container and those of its siblings whose own net article words reach [`SIBLING_SHARE`]
/// of its own: an article split across sibling blocks, with a share bar or an advertisement
/// between the parts, that the maximum-weight subtree alone cuts in two.
fn with_strong_siblings(dom: &Dom, container: NodeId, gain: &[f64]) -> Vec<NodeId> {
    let mut parts = vec![container];
    let own = gain[container.index()].max(1.0);
    if let Some(parent) = dom.element(container).parent {
        parts.extend(dom.element_children(parent).filter(|&sibling| {
            sibling != container && gain[sibling.index()] >= SIBLING_SHARE * own
        }));
    }
    parts
}

/// The page's headline when it sits before the main container: the last `<h1>` (else `<h2>`)
/// before it whose words are mostly words of the page title, or the page's only `<h1>`.
fn headline_before(
    dom: &Dom,
    facts: &[ParagraphFacts],
    container: NodeId,
    title: &str,
) -> Option<usize> {
    let title_words: Vec<String> = title
        .split_whitespace()
        .map(|word| word.to_lowercase())
        .collect();
    let heading_level = |facts: &ParagraphFacts| match dom.element(facts.block).tag.as_str() {
        "h1" => Some(1),
        "h2" => Some(2),
        _ => None,
    };
    let before: Vec<usize> = (0..facts.len())
        .filter(|&index| facts[index].anchor < container && facts[index].region != Region::Comment)
        .collect();
    let overlaps_title = |facts: &ParagraphFacts| {
        let words: Vec<String> = facts
            .text
            .split_whitespace()
            .map(|word| word.to_lowercase())
            .collect();
        let shared = words
            .iter()
            .filter(|word| title_words.contains(word))
            .count();
        !words.is_empty() && shared * 2 >= words.len()
    };
    let h1_count = facts
        .iter()
        .filter(|facts| heading_level(facts) == Some(1))
        .count();
    for level in [1, 2] {
        if let Some(&headline) = before.iter().rev().find(|&&index| {
            let facts = &facts[index];
            heading_level(facts) == Some(level)
                // A linked headline (blogs link a post's title to itself) must match the title.
                && (overlaps_title(facts)
                    || (level == 1 && h1_count == 1 && !facts.is_link_list()))
        }) {
            return Some(headline);
        }
    }
    None
}

#[cfg(test)]
mod tests;
