//! Page type: what kind of page this is — an article, documentation, a service page, a forum
//! thread, a product, a collection or a listing (WCXB's seven types) — with its probability.
//! A multinomial logistic regression (`pagelevel train-page-type`, `src/train/page_type.rs`)
//! over facts of the page itself (`facts.rs`: structured data, prices, code, repeated blocks,
//! element counts, class names, phrases, the URL's shape, what the main-text choice kept) and
//! the words it names itself with, hashed (`words.rs`). Versioned JSON; the shipped one
//! (`models/page-type.json`) is compiled in.

mod facts;
mod words;

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::extract::{ContentPolicy, Extracted, Spread};
use crate::page::Page;

pub use facts::fact_names;
pub use words::WORD_BUCKETS;

/// What the model sees of a page: its facts (in the order of [`fact_names`]), then its
/// [`WORD_BUCKETS`] hashed words.
pub type PageTypeFeatures = Vec<f64>;

/// The features of a scored page: `content_text` is the segmentation's content, `extracted`
/// the main-text choice.
pub fn page_type_features(
    page: &Page,
    content_text: &str,
    extracted: &Extracted,
) -> PageTypeFeatures {
    let mut features = facts::page_facts(page, content_text, extracted);
    features.extend(words::word_buckets(page));
    features
}

/// The seven page types, in the order of a model's classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    /// A news story, a blog post, an essay.
    Article,
    /// A grid or list of items to browse (a category, a gallery, a shop's collection).
    Collection,
    /// Reference or how-to text, often with code.
    Documentation,
    /// A discussion: a question and its answers, a thread of posts.
    Forum,
    /// A list of results or entries, each a link with a snippet.
    Listing,
    /// One product: its name, price, description and specifications.
    Product,
    /// A company's or service's page: what it offers, in several sections.
    Service,
}

impl PageType {
    /// Every type, in class order.
    pub const ALL: [PageType; 7] = [
        PageType::Article,
        PageType::Collection,
        PageType::Documentation,
        PageType::Forum,
        PageType::Listing,
        PageType::Product,
        PageType::Service,
    ];

    /// The type's name (as in JSON and WCXB's labels).
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Collection => "collection",
            PageType::Documentation => "documentation",
            PageType::Forum => "forum",
            PageType::Listing => "listing",
            PageType::Product => "product",
            PageType::Service => "service",
        }
    }

    /// The type of a name (WCXB's label), `None` for another name.
    pub fn from_name(name: &str) -> Option<PageType> {
        PageType::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// The page's type and the model's probability of it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct PageTypeGuess {
    /// The most probable type.
    #[serde(rename = "type")]
    pub page_type: PageType,
    /// Its probability, 0–1.
    pub probability: f64,
}

/// The page-type model file's format version.
pub const PAGE_TYPE_MODEL_VERSION: u32 = 1;

/// The shipped model's JSON.
const SHIPPED: &str = include_str!("../../models/page-type.json");

/// P(type) of a page from its standardised facts: one weight row per type (softmax).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageTypeModel {
    /// [`PAGE_TYPE_MODEL_VERSION`] of the writer.
    pub version: u32,
    /// The facts' names, in order: must be this pagelevel's.
    pub features: Vec<String>,
    /// Hashed word buckets after the facts: must be [`WORD_BUCKETS`].
    pub word_buckets: usize,
    /// The types, in the order of `weights` and `intercepts`.
    pub classes: Vec<PageType>,
    /// Per feature (facts, then word buckets): the training mean subtracted before weighting.
    pub mean: Vec<f64>,
    /// Per feature: the training standard deviation divided by (for words, the inverse of the
    /// words' weight against the standardised facts).
    pub scale: Vec<f64>,
    /// Per type: one weight per standardised feature.
    pub weights: Vec<Vec<f64>>,
    /// Per type: the intercept.
    pub intercepts: Vec<f64>,
    /// Pages trained on, per type.
    pub training_pages: Vec<(PageType, usize)>,
    /// Accuracy of the same fit on held-out folds of the training pages (by domain).
    pub cross_validated_accuracy: f64,
}

/// Why a page-type model file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PageTypeModelError {
    /// Not JSON of this shape.
    #[error("not a page-type model: {0}")]
    Json(#[from] serde_json::Error),
    /// Another version, other facts, or values that are not finite.
    #[error("page-type model cannot be used: {0}")]
    Invalid(String),
}

/// The probability a thread, listing, collection or service page needs before its main text
/// is every likely paragraph of the page. Chosen on development pages with the sets the
/// page-type model never saw (L3S-GN1, Dragnet, Big9, Readability; main-text F1): at 0.6
/// L3S-GN1 lost .0034 to articles taken for threads or listings; at 0.8 L3S-GN1 lost .0005 and
/// Dragnet .0027 (dragnet/9, an article at p 0.81 for a listing); at 0.85 no article set loses,
/// while WCXB keeps most of the gain (dev macro .7938 → .8087 at 0.6, .8049 at 0.8, .7999 at
/// 0.85; optimistic: the type model was fitted on those pages). An article drops its card lists
/// whenever it is the likeliest type: that policy risks little (it needs 150 words of the
/// article's own beside them, and linked headings), and at 0.8 it missed yahoo-3 (p 0.79).
/// The same probability lets the main-text model's own model of the type choose (threads,
/// listings and collections, service pages: `src/train/main_text.rs`). Lower was tried on the
/// development split: at 0.7 and 0.6 WCXB macro rose (.8078 → .8145 → .8200, optimistic) while
/// articles taken for listings lost their text (Dragnet micro .9603 → .9512, dragnet/9 at p
/// 0.81; L3S-GN1 .9722 → .9682 at 0.6).
const SURE_OF_TYPE: f64 = 0.85;

/// A thread's own main-text model chooses from this probability on: articles are seldom taken
/// for threads (the pages that lost below 0.85 were articles taken for listings, p 0.76–0.81),
/// and the thread model gains most. Development split: WCXB forum macro .711 → .723 (all
/// .8078 → .8087), CleanEval −.0002, no other set moved.
const SURE_OF_THREAD: f64 = 0.5;

/// Products and documentation are chosen by the every-page model with trees
/// (`EVERY_PAGE_MODEL_WITH_TREES` in src/train/main_text.rs) from this probability on: the
/// model still picks one block, as for an article, so a page taken for a product loses little.
/// Development split: at 0.85 product .563, documentation .905; at 0.5 .595 and .906 (collection
/// .558 → .566, Readability micro +.0008, no other set moved); at any probability (the likeliest
/// type) product .593, CleanEval −.0001.
const SURE_OF_PRODUCT_OR_DOCS: f64 = 0.5;

/// Collections take the listings' own model (every likely card, with trees), and service pages
/// theirs, from this probability on: the articles that lost below [`SURE_OF_TYPE`] had been
/// taken for listings, not for these. Development split (with the boosted own models; WCXB
/// in-sample): collections at 0.85 .566, at 0.7 .636 with no other set moved (Kreuzer +.0003),
/// at 0.5 .687 but Big9 −.0013 (yahoo/2009-job, an article, taken for a collection) and Kreuzer
/// micro −.015; then service pages at 0.85 .776, at 0.7 .805 with no other set moved, at 0.5
/// .844 but WCXB's articles −.0007 and Readability macro −.0031.
const SURE_OF_COLLECTION_OR_SERVICE: f64 = 0.7;

/// A page whose likeliest type spreads its content over the page (a thread, a listing, a
/// collection, a service page) at this probability or more, too unsure for that type's own
/// model, still gets it when the block every page's model chose is next to nothing: fewer than
/// [`FEW_CHOSEN_WORDS`] words and under [`SMALL_CHOSEN_SHARE`] of the content text — one card
/// of a listing, a service page's slogan. The type gates stay high because articles are taken
/// for listings at 0.3–0.8 (lowering the listings' gate to 0.5 cost L3S-GN1 .017 macro); an
/// article whose main text is that small beside that much content is rare. Development split,
/// WCXB cross-fitted (`cross_fit.sh`: type and main-text models fitted without the scored
/// domains): all .8120 → .8175 (listing .567 → .611, service .770 → .785, article .931 →
/// .933); share 0.3 or no word limit also took short articles (dragnet/147's 26 words, an
/// L3S-GN1 brief of 99: L3S-GN1 −.0025 macro), 50 words dragnet/147; with 25, Dragnet −.0014
/// and CleanEval −.0015 macro (one page each), Kreuzer's home pages +.023 macro.
///
/// Listings and collections this likely also take their largest grid whole when the choice
/// reaches into two of its cards (`ContentPolicy::whole_grid`): at 0.3 WCXB cross-fitted .8214 →
/// .8239 (listing .612 → .641, collection .540 → .549), at 0.5 .8219 (most listings are typed
/// below it); the article sets moved by ≤ .0011 macro (CleanEval's dev-27, a news listing).
const LIKELY_SPREAD: f64 = 0.3;
/// A service page this likely, too unsure for its own model ([`SURE_OF_COLLECTION_OR_SERVICE`]),
/// gathers every block as likely as its chosen one ([`Spread::AsLikely`], the every-page model's
/// cut: its sections), and its main text speaks for its content as a sure type's does. Development
/// split: WCXB cross-fitted (the folds' models kept) service .7638 → .7755, all .8303 → .8315;
/// template text Kreuzer .6955 → .7021, WCXB .7717 → .7753, Readability .9277 → .9300; main text
/// Kreuzer .7511 → .7552, Readability −.0001, ARI levels 1+2 Kreuzer .6103 → .6074, no other set
/// moved. At [`LIKELY_SPREAD`] (0.3) WCXB all .8319, but two articles typed service under 0.4 (a
/// Computerworld story, BBC's fish story) took their teaser boxes (L3S-GN1 micro −.0016, Big9
/// −.0002); at 0.5, .8310.
const LIKELY_SERVICE: f64 = 0.4;
/// A collection this likely, too unsure for the listings' own model, gathers its blocks as a
/// likely service page does ([`LIKELY_SERVICE`]): a shop's category text and its products'
/// cards. Development split, WCXB cross-fitted (the folds' models kept): collection .5841 →
/// .5941, all .8315 → .8323 (collection 4329 .03 → .70; article 4809 −.04); template text
/// Kreuzer .7021 → .7046, WCXB .7753 → .7771, Big9 .9278 → .9290; main text Kreuzer micro
/// −.0005. At 0.5, collection .5953 but Kreuzer's template text .6965 (portal pages typed
/// collection at 0.5–0.6, whose main text then overrules their teaser boxes).
const LIKELY_COLLECTION: f64 = 0.6;
/// See [`LIKELY_SPREAD`].
const FEW_CHOSEN_WORDS: usize = 25;
/// See [`LIKELY_SPREAD`].
const SMALL_CHOSEN_SHARE: f64 = 0.2;

/// The probability a page's type needs before that type's own main-text model chooses.
fn sure_for_own_model(page_type: PageType) -> f64 {
    match page_type {
        PageType::Forum => SURE_OF_THREAD,
        PageType::Product | PageType::Documentation => SURE_OF_PRODUCT_OR_DOCS,
        PageType::Collection | PageType::Service => SURE_OF_COLLECTION_OR_SERVICE,
        _ => SURE_OF_TYPE,
    }
}

/// The probability from which a page of this type, unless sure enough to take every likely
/// paragraph, gathers every block as likely as its chosen one ([`Spread::AsLikely`]); `None`
/// for a type whose content is one block, or is gathered only when sure.
fn likely_enough_to_gather(page_type: PageType) -> Option<f64> {
    match page_type {
        PageType::Product => Some(SURE_OF_PRODUCT_OR_DOCS),
        PageType::Service => Some(LIKELY_SERVICE),
        PageType::Collection => Some(LIKELY_COLLECTION),
        _ => None,
    }
}

/// Whether a type's main content is spread over the page (posts, cards, sections) rather than
/// one block.
fn spreads_its_content(page_type: PageType) -> bool {
    matches!(
        page_type,
        PageType::Forum | PageType::Listing | PageType::Collection | PageType::Service
    )
}

impl PageTypeGuess {
    /// Whether the guessed type spreads its content over the page and is at least
    /// [`LIKELY_SPREAD`] likely: a page the main text may gather from everywhere.
    pub fn likely_spreads_its_content(&self) -> bool {
        spreads_its_content(self.page_type) && self.probability >= LIKELY_SPREAD
    }

    /// Whether the page likely spreads its content but its type is too unsure to choose the
    /// main text ([`ContentPolicy::chose_for_its_type`]): the main text is then one block of
    /// the page's content, chosen as an article's would be, and the segmentation keeps its
    /// verdicts where that block outgrows the content (`pipeline::stands_aside`). (A choice the
    /// type made only because that block was next to nothing counts as unsure: overruling on
    /// those pages cost Kreuzer's portals template F1 .6955 → .6863 on the development split.)
    pub fn main_text_is_one_block_of_spread_content(&self) -> bool {
        self.likely_spreads_its_content() && !self.content_policy().chose_for_its_type()
    }

    /// What the main text of a page of this type is made of: an article's is not its card lists
    /// of other stories; a thread's, a listing's, a collection's and a service page's is spread
    /// over the page (posts, cards, sections), when the type is sure ([`SURE_OF_TYPE`]); a sure
    /// type's own main-text model chooses, where the model file has one; a likely listing's or
    /// collection's grid is main text whole ([`LIKELY_SPREAD`]); a sure product's buyers'
    /// reviews and a sure thread's posters' cards are not main text.
    ///
    /// A product ([`SURE_OF_PRODUCT_OR_DOCS`]) gathers every block as likely as its chosen one
    /// ([`Spread::AsLikely`]: a description or specifications below the buy box, in a section or
    /// tab panel of their own) and, like an article, drops card lists of other products.
    /// Development split, WCXB cross-fitted, the folds' models kept: products .5999 → .6164 with
    /// the gathering alone, → .6232 with the card lists dropped (all .8283 → .8303; 14 products
    /// up, 0595-like pages whose description sits in a tab section, 6 down by a few points where
    /// the gold leaves out a brand's story or delivery blocks the model found likely); gathering
    /// at the model's lower `spread_cut`, as threads do, took "Add to cart" and delivery options
    /// (products .6103, listings −.004). No other set moved; WCXB template text .7734 → .7717.
    pub fn content_policy(&self) -> ContentPolicy {
        ContentPolicy {
            without_card_lists: matches!(self.page_type, PageType::Article | PageType::Product),
            spread: if self.probability >= SURE_OF_TYPE && spreads_its_content(self.page_type) {
                Spread::Likely
            } else if likely_enough_to_gather(self.page_type)
                .is_some_and(|least| self.probability >= least)
            {
                Spread::AsLikely
            } else {
                Spread::OneBlock
            },
            page_type: (self.probability >= sure_for_own_model(self.page_type))
                .then_some(self.page_type),
            whole_grid: matches!(self.page_type, PageType::Listing | PageType::Collection)
                && self.probability >= LIKELY_SPREAD,
            without_reviews: self.page_type == PageType::Product
                && self.probability >= sure_for_own_model(PageType::Product),
            without_other_products: self.page_type == PageType::Product
                && self.probability >= sure_for_own_model(PageType::Product),
            without_user_cards: self.page_type == PageType::Forum
                && self.probability >= sure_for_own_model(PageType::Forum),
        }
    }

    /// [`content_policy`](Self::content_policy) once every page's model has chosen `chosen`
    /// (its main text) of a page whose content text is `content`: a page that spreads its
    /// content gets its type's own model when that choice is next to nothing
    /// ([`LIKELY_SPREAD`]). The texts' words are counted only when the rest allows it.
    pub fn content_policy_after(&self, chosen: &str, content: &str) -> ContentPolicy {
        let mut policy = self.content_policy();
        let next_to_nothing = || {
            let chosen_words = chosen.split_whitespace().count();
            chosen_words < FEW_CHOSEN_WORDS
                && (chosen_words as f64)
                    < SMALL_CHOSEN_SHARE * content.split_whitespace().count() as f64
        };
        if policy.page_type.is_none()
            && spreads_its_content(self.page_type)
            && self.probability >= LIKELY_SPREAD
            && next_to_nothing()
        {
            policy.page_type = Some(self.page_type);
        }
        policy
    }
}

impl PageTypeModel {
    /// The model shipped with pagelevel.
    pub fn shipped() -> &'static PageTypeModel {
        static MODEL: OnceLock<PageTypeModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            PageTypeModel::from_json(SHIPPED).expect("the shipped page-type model is valid")
        })
    }

    /// Reads and checks a model file's JSON.
    pub fn from_json(json: &str) -> Result<PageTypeModel, PageTypeModelError> {
        let model: PageTypeModel = serde_json::from_str(json)?;
        let invalid = |reason: &str| Err(PageTypeModelError::Invalid(reason.to_string()));
        if model.version != PAGE_TYPE_MODEL_VERSION {
            return invalid("another version");
        }
        if model.features != fact_names() || model.word_buckets != WORD_BUCKETS {
            return invalid("its facts or word buckets are not this pagelevel's");
        }
        let feature_count = model.features.len() + model.word_buckets;
        let rows_fit = model.weights.len() == model.classes.len()
            && model.intercepts.len() == model.classes.len()
            && !model.classes.is_empty()
            && model.weights.iter().all(|row| row.len() == feature_count);
        if !rows_fit || model.mean.len() != feature_count || model.scale.len() != feature_count {
            return invalid(
                "one weight row and intercept per type, one mean and scale per feature",
            );
        }
        let numbers = model
            .weights
            .iter()
            .flatten()
            .chain(&model.intercepts)
            .chain(&model.mean)
            .chain(&model.scale);
        if numbers.clone().any(|value| !value.is_finite()) || model.scale.iter().any(|&s| s <= 0.0)
        {
            return invalid("numbers must be finite and scales positive");
        }
        Ok(model)
    }

    /// The probability of each of `classes` for a page with these features.
    pub fn probabilities(&self, features: &[f64]) -> Vec<f64> {
        let standardised: Vec<f64> = features
            .iter()
            .zip(&self.mean)
            .zip(&self.scale)
            .map(|((value, mean), scale)| (value - mean) / scale)
            .collect();
        let logits: Vec<f64> = self
            .weights
            .iter()
            .zip(&self.intercepts)
            .map(|(row, intercept)| {
                row.iter()
                    .zip(&standardised)
                    .map(|(w, x)| w * x)
                    .sum::<f64>()
                    + intercept
            })
            .collect();
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = logits.iter().map(|logit| (logit - top).exp()).collect();
        let total: f64 = exp.iter().sum();
        exp.iter().map(|value| value / total).collect()
    }

    /// The most probable type of a page with these features.
    pub fn guess(&self, features: &[f64]) -> PageTypeGuess {
        let probabilities = self.probabilities(features);
        let (best, &probability) = probabilities
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .expect("a model has classes");
        PageTypeGuess {
            page_type: self.classes[best],
            probability,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_model_reads_and_gives_a_distribution() {
        let model = PageTypeModel::shipped();
        let probabilities = model.probabilities(&vec![0.0; model.mean.len()]);
        assert_eq!(probabilities.len(), model.classes.len());
        assert!((probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let mut other = model.clone();
        other.features[0] = "colour".into();
        assert!(PageTypeModel::from_json(&serde_json::to_string(&other).unwrap()).is_err());
    }

    #[test]
    fn a_likely_listing_whose_chosen_block_is_next_to_nothing_gets_its_own_model() {
        let listing = PageTypeGuess {
            page_type: PageType::Listing,
            probability: 0.4,
        };
        let words = |count: usize| vec!["word"; count].join(" ");
        // One card of 12 words chosen out of 400 words of content: the cards are the content.
        assert_eq!(
            listing
                .content_policy_after(&words(12), &words(400))
                .page_type,
            Some(PageType::Listing)
        );
        // A short article's 26 words, or a fifth of a small page's content, stay as chosen.
        assert_eq!(
            listing
                .content_policy_after(&words(26), &words(400))
                .page_type,
            None
        );
        assert_eq!(
            listing
                .content_policy_after(&words(12), &words(50))
                .page_type,
            None
        );
        // Not for a type whose content is one block, nor for an unlikely listing.
        for (page_type, probability) in [(PageType::Article, 0.9), (PageType::Listing, 0.2)] {
            let guess = PageTypeGuess {
                page_type,
                probability,
            };
            assert_eq!(
                guess.content_policy_after(&words(12), &words(400)),
                guess.content_policy(),
                "{page_type:?}"
            );
        }
    }

    #[test]
    fn only_an_unsure_spread_type_leaves_the_main_text_one_block_of_the_content() {
        let guess = |page_type, probability| PageTypeGuess {
            page_type,
            probability,
        };
        // Likely a listing, too unsure for its own model: the main text is one block.
        assert!(guess(PageType::Listing, 0.5).main_text_is_one_block_of_spread_content());
        assert!(guess(PageType::Service, 0.35).main_text_is_one_block_of_spread_content());
        // A service page from 0.4 gathers its sections as likely as the chosen one.
        assert!(!guess(PageType::Service, 0.6).main_text_is_one_block_of_spread_content());
        assert!(guess(PageType::Collection, 0.55).main_text_is_one_block_of_spread_content());
        assert!(!guess(PageType::Collection, 0.65).main_text_is_one_block_of_spread_content());
        assert_eq!(
            guess(PageType::Service, 0.6).content_policy().spread,
            Spread::AsLikely
        );
        // Sure enough for the type to choose: a thread from 0.5, a listing from 0.85.
        assert!(!guess(PageType::Forum, 0.6).main_text_is_one_block_of_spread_content());
        assert!(!guess(PageType::Listing, 0.9).main_text_is_one_block_of_spread_content());
        // Not a spread type, or not likely one.
        assert!(!guess(PageType::Article, 0.5).main_text_is_one_block_of_spread_content());
        assert!(!guess(PageType::Collection, 0.2).main_text_is_one_block_of_spread_content());
    }

    #[test]
    fn a_sure_type_sets_the_content_policy_and_an_unsure_one_does_not() {
        let guess = |page_type, probability| PageTypeGuess {
            page_type,
            probability,
        };
        let article = guess(PageType::Article, 0.9).content_policy();
        assert!(article.without_card_lists && article.spread == Spread::OneBlock);
        for spread in [
            PageType::Forum,
            PageType::Listing,
            PageType::Collection,
            PageType::Service,
        ] {
            let policy = guess(spread, 0.9).content_policy();
            assert!(policy.spread == Spread::Likely && !policy.without_card_lists);
        }
        let documentation = guess(PageType::Documentation, 0.95).content_policy();
        assert!(documentation.spread == Spread::OneBlock && !documentation.without_card_lists);
        assert_eq!(documentation.page_type, Some(PageType::Documentation));
        // A product gathers its blocks as likely as the chosen one's, without card lists of
        // other products.
        let product = guess(PageType::Product, 0.6).content_policy();
        assert!(product.spread == Spread::AsLikely && product.without_card_lists);
        assert_eq!(product.page_type, Some(PageType::Product));
        assert_eq!(
            guess(PageType::Product, 0.4).content_policy().spread,
            Spread::OneBlock
        );
        // An unsure listing only takes its grid whole; below LIKELY_SPREAD, not even that.
        assert_eq!(
            guess(PageType::Listing, 0.8).content_policy(),
            ContentPolicy {
                whole_grid: true,
                ..ContentPolicy::default()
            }
        );
        assert_eq!(
            guess(PageType::Collection, 0.25).content_policy(),
            ContentPolicy::default()
        );
        assert!(!guess(PageType::Article, 0.4).content_policy().whole_grid);
        // A thread's own model chooses sooner than the spread policy applies.
        let unsure_thread = guess(PageType::Forum, 0.6).content_policy();
        assert_eq!(unsure_thread.page_type, Some(PageType::Forum));
        assert_eq!(unsure_thread.spread, Spread::OneBlock);
        assert!(unsure_thread.without_user_cards);
        assert_eq!(
            guess(PageType::Forum, 0.4).content_policy(),
            ContentPolicy::default()
        );
        // So do a collection's, a service page's, a product's and documentation's; a listing's
        // does not (articles are taken for listings at such probabilities).
        for (page_type, probability) in [
            (PageType::Collection, 0.75),
            (PageType::Service, 0.75),
            (PageType::Product, 0.6),
            (PageType::Documentation, 0.6),
        ] {
            let policy = guess(page_type, probability).content_policy();
            assert_eq!(policy.page_type, Some(page_type));
        }
        assert_eq!(
            guess(PageType::Listing, 0.75).content_policy().page_type,
            None
        );
        assert_eq!(
            guess(PageType::Collection, 0.6).content_policy().page_type,
            None
        );
    }
}
