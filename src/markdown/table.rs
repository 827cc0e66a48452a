//! Tables: a data table as a GitHub pipe table; a table with merged cells as one text row a
//! line; a table used for layout (nested tables, cells holding lists, headings or long text, a
//! single column or row) as the blocks of its cells, in order.

use super::inline::HARD_BREAK;
// A cell's text longer than this makes its table a layout table: a data cell holds a value or a
// phrase, not an article (the rule by which the main text takes a data table whole).
use crate::extract::MAX_DATA_CELL_CHARS;

/// One cell, written.
#[derive(Debug, Default)]
pub(super) struct Cell {
    /// The cell's Markdown blocks.
    pub(super) blocks: Vec<String>,
    /// `colspan` or `rowspan` above 1: the grid is not a pipe table's.
    pub(super) spans: bool,
}

impl Cell {
    /// The cell as one line of inline Markdown.
    fn line(&self) -> String {
        self.blocks
            .iter()
            .map(|block| block.replace(HARD_BREAK, " ").replace('\n', " "))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether the cell holds what a data cell holds: short text, no block structure.
    fn is_data(&self) -> bool {
        let chars: usize = self.blocks.iter().map(|block| block.chars().count()).sum();
        chars <= MAX_DATA_CELL_CHARS
            && self.blocks.iter().all(|block| {
                !(block.starts_with('#')
                    || block.starts_with("- ")
                    || block.starts_with("> ")
                    || block.starts_with("```")
                    || block.starts_with('|')
                    || block.split('\n').count() > 1 && !block.contains(HARD_BREAK))
            })
    }
}

/// A table being written: its rows, and whether a table sits inside it.
#[derive(Debug, Default)]
pub(super) struct Table {
    pub(super) rows: Vec<Vec<Cell>>,
    pub(super) has_nested_table: bool,
    /// Marked `role="presentation"` / `"none"`: layout by the page's own word.
    pub(super) presentational: bool,
}

impl Table {
    /// The table's Markdown blocks.
    pub(super) fn into_blocks(self) -> Vec<String> {
        let rows: Vec<Vec<Cell>> = self
            .rows
            .into_iter()
            .filter(|row| row.iter().any(|cell| !cell.blocks.is_empty()))
            .collect();
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        let is_layout = self.has_nested_table
            || self.presentational
            || rows.len() < 2
            || columns < 2
            || rows.iter().flatten().any(|cell| !cell.is_data());
        if is_layout {
            return rows
                .into_iter()
                .flatten()
                .flat_map(|cell| cell.blocks)
                .collect();
        }
        if rows.iter().flatten().any(|cell| cell.spans) {
            return rows.iter().map(|row| text_row(row)).collect();
        }
        vec![pipe_table(&rows, columns)]
    }
}

/// A row of a table with merged cells: its cells' text, ` | ` between them.
fn text_row(row: &[Cell]) -> String {
    row.iter()
        .map(Cell::line)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// A GitHub pipe table: the first row is the header (GitHub tables need one), every row padded
/// to `columns` cells.
fn pipe_table(rows: &[Vec<Cell>], columns: usize) -> String {
    let line = |row: &[Cell]| {
        let mut cells: Vec<String> = row.iter().map(|cell| escape_pipes(&cell.line())).collect();
        cells.resize(columns, String::new());
        format!("| {} |", cells.join(" | "))
    };
    let mut lines = Vec::with_capacity(rows.len() + 1);
    if let Some((header, body)) = rows.split_first() {
        lines.push(line(header));
        lines.push(format!("|{}", " --- |".repeat(columns)));
        lines.extend(body.iter().map(|row| line(row)));
    }
    lines.join("\n")
}

/// A `|` not yet escaped (inside a code span, where text escapes do not apply) escaped: GitHub
/// ends a cell at any bare `|`, code span or not.
fn escape_pipes(cell: &str) -> String {
    let mut escaped = String::with_capacity(cell.len());
    let mut backslashes = 0;
    for c in cell.chars() {
        if c == '|' && backslashes % 2 == 0 {
            escaped.push('\\');
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        escaped.push(c);
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(text: &str) -> Cell {
        Cell {
            blocks: vec![text.to_string()],
            ..Cell::default()
        }
    }

    #[test]
    fn a_data_table_is_a_pipe_table_with_short_rows_padded() {
        let table = Table {
            rows: vec![
                vec![cell("Name"), cell("Age")],
                vec![cell("Ann"), cell("31")],
                vec![cell("Bob")],
            ],
            ..Table::default()
        };
        assert_eq!(
            table.into_blocks(),
            vec!["| Name | Age |\n| --- | --- |\n| Ann | 31 |\n| Bob |  |"]
        );
    }

    #[test]
    fn merged_cells_give_text_rows() {
        let mut merged = cell("Total");
        merged.spans = true;
        let table = Table {
            rows: vec![vec![cell("a"), cell("b")], vec![merged]],
            ..Table::default()
        };
        assert_eq!(table.into_blocks(), vec!["a | b", "Total"]);
    }

    #[test]
    fn a_layout_table_gives_its_cells_blocks() {
        let table = Table {
            rows: vec![
                vec![cell("# Title"), cell("Body")],
                vec![cell("x"), cell("y")],
            ],
            ..Table::default()
        };
        assert_eq!(table.into_blocks(), vec!["# Title", "Body", "x", "y"]);
    }

    #[test]
    fn bare_pipes_in_code_spans_are_escaped_in_cells() {
        assert_eq!(escape_pipes("`a|b` c\\|d"), "`a\\|b` c\\|d");
    }
}
