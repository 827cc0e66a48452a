//! Data tables are main text whole: when the main text takes some cells of a table that holds
//! data (rows and columns of short cells, no table inside), or the table sits in the main
//! container, it takes every cell. Each cell is a paragraph of its own, and a cell of one link or
//! one number reads as a link list or as no running text, so the choice alone keeps a table's
//! prose cells and drops its names and values (`extract::with_whole_data_tables`).

use crate::page::{Dom, NodeId};
use crate::text::count_words;

/// A cell longer than this is prose laid out in a table, not data (the Markdown writer writes such
/// a table as blocks, not as a grid).
pub const MAX_DATA_CELL_CHARS: usize = 400;

/// A table whose words are mostly link words is a grid of links (a directory's categories, a
/// portal's menu), not data.
const MAX_LINK_WORD_SHARE: f64 = 0.5;

/// Whether `table` holds data: at least two rows and two columns of its own, every cell at most
/// [`MAX_DATA_CELL_CHARS`] characters, under [`MAX_LINK_WORD_SHARE`] of its words in links, no
/// table nested in it, not marked presentational.
pub(super) fn is_data_table(dom: &Dom, table: NodeId, in_link: &[bool]) -> bool {
    let element = dom.element(table);
    if element
        .attribute("role")
        .is_some_and(|role| matches!(role.trim(), "presentation" | "none"))
    {
        return false;
    }
    let end = element.subtree_end;
    // Each element's cell (its nearest `<td>`/`<th>` inside the table), in one pass.
    let mut cell_of: Vec<Option<NodeId>> = vec![None; (end.0 - table.0) as usize];
    let mut rows = 0;
    let mut widest = 0;
    for id in (table.0 + 1..end.0).map(NodeId) {
        let at = (id.0 - table.0) as usize;
        match dom.element(id).tag.as_str() {
            "table" => return false,
            "tr" => {
                rows += 1;
                widest = widest.max(
                    dom.element_children(id)
                        .filter(|&cell| matches!(dom.element(cell).tag.as_str(), "td" | "th"))
                        .count(),
                );
            }
            "td" | "th" => cell_of[at] = Some(id),
            _ => {}
        }
        if cell_of[at].is_none() {
            cell_of[at] = dom
                .element(id)
                .parent
                .filter(|&parent| parent > table)
                .and_then(|parent| cell_of[(parent.0 - table.0) as usize]);
        }
    }
    if rows < 2 || widest < 2 {
        return false;
    }
    let mut cell_chars: Vec<usize> = vec![0; cell_of.len()];
    let (mut words, mut link_words) = (0, 0);
    for text in dom
        .texts
        .iter()
        .filter(|text| dom.contains(table, text.parent))
    {
        let count = count_words(&text.text);
        words += count;
        if in_link[text.parent.index()] {
            link_words += count;
        }
        if let Some(cell) = cell_of[(text.parent.0 - table.0) as usize] {
            let chars = text.text.chars().filter(|c| !c.is_whitespace()).count();
            cell_chars[(cell.0 - table.0) as usize] += chars;
            if cell_chars[(cell.0 - table.0) as usize] > MAX_DATA_CELL_CHARS {
                return false;
            }
        }
    }
    (link_words as f64) < MAX_LINK_WORD_SHARE * words as f64
}
