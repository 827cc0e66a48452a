//! A listing's grid, whole: the largest run of sibling blocks sharing their tag and class (the
//! cards of a shop's collection, the entries of a result list) outside the page's named
//! navigation, header, footer and sidebars. The main-text model weighs each paragraph alone, and
//! a card's few linked words read like a menu's, so on a listing it keeps one card, or some of
//! them; the grid is the run they sit in (issue 27: "every card of a listing or collection").

use super::named_blocks::{names_a_notice, within_blocks_so_named};
use super::regions::Region;
use super::repeats::{Repeats, share_tag_and_class};
use crate::page::{Dom, NodeId};

/// Siblings a run needs to be a grid: fewer are a page's few sections or a short list.
const MIN_CARDS: usize = 4;

/// Words a grid needs: fewer are a row of icons or a pager.
const MIN_GRID_WORDS: usize = 20;

/// The largest share of a grid's words one card may hold: a run with one block holding most of
/// the page (the rows of a layout table, a page's top-level wrappers) is the page's frame.
const MAX_CARD_SHARE: f64 = 0.5;

/// The largest share of the page's words a cookie or consent notice may hold and still be one
/// for the grid: a consent manager's dialog lists its partners' purposes in runs of hidden
/// blocks (OneTrust's `ot-desc-cntr`), often more words than the page shows, beyond a named
/// region's share; a page wrapper named for a notice (`<body class="… cookie-banner-shown">`)
/// holds nearly all of them.
const MAX_NOTICE_SHARE: f64 = 0.9;

/// The cards of the page's largest grid — the run of at least [`MIN_CARDS`] siblings sharing tag
/// and class with most words, its parent in no named region and in no cookie or consent notice
/// ([`MAX_NOTICE_SHARE`]) — in document order; empty when the page has none.
pub(super) fn largest_grid(dom: &Dom, region: &[Region]) -> Vec<NodeId> {
    let repeats = Repeats::new(dom);
    let in_notice = within_blocks_so_named(dom, names_a_notice, MAX_NOTICE_SHARE);
    let mut largest: Option<(usize, NodeId)> = None;
    for id in dom.ids() {
        let Some(parent) = dom.element(id).parent else {
            continue;
        };
        let words = repeats.group_words(id);
        if repeats.siblings(id) >= MIN_CARDS
            && words >= MIN_GRID_WORDS
            && region[parent.index()] == Region::Plain
            && !in_notice[parent.index()]
            && !is_table_part(dom, id)
            && largest.is_none_or(|(most, _)| words > most)
        {
            let cards = cards_of_run(dom, id);
            let biggest = cards.iter().map(|&card| repeats.words(card)).max();
            if biggest.is_some_and(|biggest| biggest as f64 <= MAX_CARD_SHARE * words as f64) {
                largest = Some((words, id));
            }
        }
    }
    largest.map_or_else(Vec::new, |(_, card)| cards_of_run(dom, card))
}

/// The siblings of `card` sharing its tag and class, itself included, in document order.
fn cards_of_run(dom: &Dom, card: NodeId) -> Vec<NodeId> {
    let parent = dom.element(card).parent.expect("a card has a parent");
    dom.element_children(parent)
        .filter(|&sibling| share_tag_and_class(dom, sibling, card))
        .collect()
}

/// Rows and cells are a table's, and on pages of tables for layout, the page's frame: a data
/// table the main text reaches is taken whole elsewhere (`with_whole_data_tables`).
fn is_table_part(dom: &Dom, id: NodeId) -> bool {
    matches!(
        dom.element(id).tag.as_str(),
        "tr" | "td" | "th" | "tbody" | "thead" | "tfoot"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::regions;
    use crate::page::{Page, ParseLimits};

    fn grid_texts(html: &str) -> Vec<String> {
        let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
        let dom = &page.dom;
        largest_grid(dom, &regions(dom))
            .into_iter()
            .map(|card| dom.text(card))
            .collect()
    }

    #[test]
    fn the_largest_run_of_cards_outside_the_navigation_is_the_grid() {
        // The menu's run has more words than the grid's, but it is the page's navigation.
        let menu_item =
            "<li class=item><a href=/c>Kettles, teapots and pans of every kind</a></li>";
        let card = |name: &str| {
            format!(
                "<div class=card><a href=/p><h3>{name} kettle, steel and enamel</h3></a><span>$20</span></div>"
            )
        };
        let cards: String = ["Blue", "Red", "Green", "Steel", "Glass"]
            .iter()
            .map(|name| card(name))
            .collect();
        let intro = "Our kettles are made by hand in a small workshop by the sea. ".repeat(5);
        let html = format!(
            "<nav><ul>{}</ul></nav><main><h1>Kettles</h1><p>{intro}</p><div class=grid>{cards}\
             <div class=more>More kettles to come</div></div></main>",
            menu_item.repeat(5)
        );
        let grid = grid_texts(&html);
        assert_eq!(grid.len(), 5, "{grid:?}");
        assert!(grid[0].contains("Blue kettle") && grid[4].contains("Glass kettle"));
    }

    #[test]
    fn a_consent_dialogs_purposes_are_no_grid() {
        // A consent manager's dialog lists its partners' purposes in a run of like blocks, hidden
        // until asked for and holding more words than the shop's grid (OneTrust, WCXB 2973).
        let purpose = "<div class=ot-desc-cntr><p>Our partners store and access information \
                       on a device, such as unique identifiers in cookies, to measure content \
                       performance and understand audiences.</p></div>";
        let cards: String = ["Blue", "Red", "Green", "Steel", "Glass"]
            .iter()
            .map(|name| {
                format!(
                    "<div class=card><a href=/p>{name} kettle, steel with a wooden handle</a></div>"
                )
            })
            .collect();
        let html = format!(
            "<main><h1>Kettles</h1><div class=grid>{cards}</div></main>\
             <div id=onetrust-consent-sdk><div class=ot-pc>{}</div></div>",
            purpose.repeat(5)
        );
        let grid = grid_texts(&html);
        assert_eq!(grid.len(), 5, "{grid:?}");
        assert!(grid[0].contains("Blue kettle"));
    }

    #[test]
    fn a_layout_whose_one_block_holds_most_words_is_no_grid() {
        // Four columns of a page, one holding the article: the page's frame, not cards.
        let article = "A long report on kettles and the people who make them. ".repeat(10);
        let html = format!(
            "<div class=col><p>{article}</p></div><div class=col><a href=/a>Home</a> \
             <a href=/b>News</a></div><div class=col><a href=/c>Sport and weather</a></div>\
             <div class=col><a href=/d>Contact us</a></div>"
        );
        assert!(grid_texts(&html).is_empty());
    }

    #[test]
    fn a_page_of_three_sections_has_no_grid() {
        let section = "<section class=part><h2>What we do</h2><p>We mend kettles, teapots \
                       and every sort of pan that a kitchen holds.</p></section>";
        assert!(grid_texts(&section.repeat(3)).is_empty());
    }
}
