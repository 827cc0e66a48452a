//! Markdown of chosen text: the main text (or comments, or a section) of a scored page with the
//! structure its markup gives it — headings by level, paragraphs, ordered, unordered and nested
//! lists, tables, block quotes, code blocks, emphasis — and optionally link targets and images.
//!
//! The writer is told which text nodes to write (the ones the main text was chosen from) and
//! which images; everything else on the page is left out, and markup around nothing is dropped.
//! It walks the arena DOM once with an explicit stack (pages nest thousands of levels deep): each
//! element open on the walk is a [`Frame`] collecting the Markdown of its children, turned into
//! its own Markdown when it closes. Output is deterministic and escaped: text never reads as
//! markup.

mod inline;
mod table;

use url::Url;

use crate::page::{Child, Dom, NodeId};
use crate::text::is_block_element;

use inline::{Inline, code_span, link_destination, longest_run};
use table::{Cell, Table};

/// What the Markdown keeps beside the text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MarkdownOptions {
    /// Link targets: `[text](url)`.
    pub links: bool,
    /// Images: `![alt](url)`, the URL absolute.
    pub images: bool,
}

/// The Markdown of the text nodes `text_nodes` (indices into [`Dom::texts`]) and the images
/// `images` (`<img>` elements; written only with [`MarkdownOptions::images`]), with the page's
/// structure around them. `base` resolves image sources (`<a href>` is resolved at parse time).
pub fn write_markdown(
    dom: &Dom,
    text_nodes: &[u32],
    images: &[NodeId],
    base: Option<&Url>,
    options: MarkdownOptions,
) -> String {
    if dom.is_empty() {
        return String::new();
    }
    let mut kept_text = vec![false; dom.texts.len()];
    let mut holds_kept = vec![false; dom.len()];
    // Marks an element and its ancestors, stopping at one already marked: linear in the kept
    // nodes' paths, not in the page (a section's Markdown is written once per section).
    let mut mark = |mut id: NodeId| {
        while !holds_kept[id.index()] {
            holds_kept[id.index()] = true;
            match dom.element(id).parent {
                Some(parent) => id = parent,
                None => break,
            }
        }
    };
    for &index in text_nodes {
        if let Some(text) = dom.texts.get(index as usize) {
            kept_text[index as usize] = true;
            mark(text.parent);
        }
    }
    let mut kept_image = vec![false; dom.len()];
    if options.images {
        for &image in images {
            if image.index() < dom.len() {
                kept_image[image.index()] = true;
                mark(image);
            }
        }
    }
    let writer = Writer {
        dom,
        kept_text,
        kept_image,
        holds_kept,
        base,
        options,
    };
    writer.write()
}

struct Writer<'a> {
    dom: &'a Dom,
    kept_text: Vec<bool>,
    kept_image: Vec<bool>,
    /// Whether an element's subtree holds kept text or a kept image: the walk enters no other.
    holds_kept: Vec<bool>,
    base: Option<&'a Url>,
    options: MarkdownOptions,
}

/// What an open element becomes when it closes.
#[derive(Debug)]
enum Kind {
    /// A block with no markup of its own (`div`, `p`, `section` …): its blocks as they are.
    Container,
    Heading(usize),
    List {
        ordered: bool,
        start: u32,
        items: Vec<Vec<String>>,
    },
    Item,
    Quote,
    /// `<pre>`: its text verbatim in a fenced block.
    CodeBlock {
        language: Option<String>,
    },
    Table(Table),
    Row(Vec<Cell>),
    Cell {
        spans: bool,
    },
    /// Phrasing content, wrapped in its markup when it closes.
    Inline(Wrap),
}

#[derive(Debug, Clone, PartialEq)]
enum Wrap {
    Plain,
    Strong,
    Emphasis,
    Strike,
    Code,
    Link(String),
}

/// How text inside an element is written.
#[derive(Debug, Clone, Copy, PartialEq)]
enum TextMode {
    /// Escaped, whitespace collapsed.
    Prose,
    /// Inside a code span: not escaped, whitespace collapsed.
    InlineCode,
    /// Inside `<pre>`: as it is.
    Preformatted,
}

/// An element open on the walk and the Markdown of its children so far.
#[derive(Debug)]
struct Frame {
    kind: Kind,
    mode: TextMode,
    /// Finished blocks, in order.
    blocks: Vec<String>,
    /// Phrasing content since the last block.
    inline: Inline,
    /// A block element inside `<pre>`: its text ends a line.
    ends_line: bool,
}

impl Frame {
    fn new(kind: Kind, mode: TextMode) -> Frame {
        Frame {
            kind,
            mode,
            blocks: Vec::new(),
            inline: Inline::default(),
            ends_line: false,
        }
    }

    /// Ends the paragraph being written, if any.
    fn flush_inline(&mut self) {
        if !self.inline.is_empty() {
            let inline = std::mem::take(&mut self.inline);
            let paragraph = inline.into_paragraph();
            if !paragraph.is_empty() {
                self.blocks.push(paragraph);
            }
        } else {
            self.inline = Inline::default();
        }
    }

    /// Appends finished blocks after what is written so far.
    fn push_blocks(&mut self, blocks: Vec<String>) {
        if blocks.is_empty() {
            return;
        }
        self.flush_inline();
        self.blocks
            .extend(blocks.into_iter().filter(|block| !block.is_empty()));
    }

    /// Everything written, as blocks.
    fn into_blocks(mut self) -> Vec<String> {
        self.flush_inline();
        self.blocks
    }
}

impl Writer<'_> {
    fn write(&self) -> String {
        let root = NodeId(0);
        if !self.holds_kept[root.index()] {
            return String::new();
        }
        let mut frames = vec![self.open(root, &[])];
        // (element, index of its next child), parallel to `frames`.
        let mut walk: Vec<(NodeId, usize)> = vec![(root, 0)];
        while let Some(top) = walk.last_mut() {
            let (id, next) = *top;
            top.1 += 1;
            let child = self.dom.element(id).children.get(next).copied();
            match child {
                Some(Child::Text(index)) => {
                    // A code block is written whole: its lines of brackets alone hold no words,
                    // and a paragraph without words is never chosen.
                    if let Some(frame) = frames.last_mut()
                        && (self.kept_text[index as usize] || frame.mode == TextMode::Preformatted)
                    {
                        let text = &self.dom.texts[index as usize].text;
                        match frame.mode {
                            TextMode::Preformatted => frame.inline.text.push_str(text),
                            TextMode::InlineCode => frame.inline.push_text(text, true),
                            TextMode::Prose => frame.inline.push_text(text, false),
                        }
                    }
                }
                Some(Child::Element(child)) => {
                    let tag = self.dom.element(child).tag.as_str();
                    let in_row = matches!(
                        frames.last(),
                        Some(Frame {
                            kind: Kind::Row(_),
                            ..
                        })
                    );
                    let in_code_block = frames
                        .last()
                        .is_some_and(|frame| frame.mode == TextMode::Preformatted);
                    if tag == "br" {
                        if let Some(frame) = frames.last_mut() {
                            match frame.mode {
                                TextMode::Preformatted => frame.inline.text.push('\n'),
                                _ => frame.inline.hard_break(),
                            }
                        }
                    } else if self.kept_image[child.index()] {
                        if let Some(frame) = frames.last_mut() {
                            frame.inline.push_markdown(&self.image(child));
                        }
                    } else if self.holds_kept[child.index()]
                        || in_code_block
                        // A row's empty cells keep its columns in place.
                        || (in_row && matches!(tag, "td" | "th"))
                    {
                        frames.push(self.open(child, &frames));
                        walk.push((child, 0));
                    }
                }
                None => {
                    walk.pop();
                    let Some(frame) = frames.pop() else { break };
                    match frames.last_mut() {
                        Some(_) => close(frame, &mut frames),
                        None => return frame.into_blocks().join("\n\n"),
                    }
                }
            }
        }
        String::new()
    }

    /// The frame of an element entered inside the open `frames`.
    fn open(&self, id: NodeId, frames: &[Frame]) -> Frame {
        let element = self.dom.element(id);
        let tag = element.tag.as_str();
        let parent_mode = frames.last().map_or(TextMode::Prose, |frame| frame.mode);
        // Inside code, markup is not structure: highlighted spans and per-line blocks are text.
        if parent_mode != TextMode::Prose {
            let mut frame = Frame::new(Kind::Inline(Wrap::Plain), parent_mode);
            frame.ends_line = parent_mode == TextMode::Preformatted && is_block_element(tag);
            return frame;
        }
        let mut kind = match tag {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                Kind::Heading(usize::from(tag.as_bytes()[1] - b'0'))
            }
            "ul" | "ol" | "menu" => Kind::List {
                ordered: tag == "ol",
                start: element
                    .attribute("start")
                    .and_then(|start| start.trim().parse::<u32>().ok())
                    .map(|start| start.min(MAX_LIST_NUMBER))
                    .unwrap_or(1),
                items: Vec::new(),
            },
            "li" => Kind::Item,
            "blockquote" => Kind::Quote,
            "pre" | "listing" | "xmp" | "plaintext" => Kind::CodeBlock {
                language: self.code_language(id),
            },
            "table" => Kind::Table(Table {
                presentational: element
                    .attribute("role")
                    .is_some_and(|role| matches!(role.trim(), "presentation" | "none")),
                ..Table::default()
            }),
            "tr" => Kind::Row(Vec::new()),
            "td" | "th" => Kind::Cell {
                spans: ["colspan", "rowspan"].iter().any(|span| {
                    element
                        .attribute(span)
                        .and_then(|value| value.trim().parse::<u32>().ok())
                        .is_some_and(|value| value > 1)
                }),
            },
            "strong" | "b" => Kind::Inline(Wrap::Strong),
            "em" | "i" | "cite" | "dfn" => Kind::Inline(Wrap::Emphasis),
            "s" | "strike" | "del" => Kind::Inline(Wrap::Strike),
            "code" | "kbd" | "samp" | "tt" => Kind::Inline(Wrap::Code),
            "a" if self.options.links => match element.link.as_deref() {
                Some(url) if is_followable(url) => Kind::Inline(Wrap::Link(url.to_string())),
                _ => Kind::Inline(Wrap::Plain),
            },
            tag if is_block_element(tag) => Kind::Container,
            _ => Kind::Inline(Wrap::Plain),
        };
        // `<b><strong>x</strong></b>` is bold once: `****x****` would be no emphasis at all.
        if let Kind::Inline(wrap) = &kind
            && *wrap != Wrap::Plain
            && frames
                .iter()
                .any(|frame| matches!(&frame.kind, Kind::Inline(open) if open == wrap))
        {
            kind = Kind::Inline(Wrap::Plain);
        }
        let mode = match kind {
            Kind::CodeBlock { .. } => TextMode::Preformatted,
            Kind::Inline(Wrap::Code) => TextMode::InlineCode,
            _ => TextMode::Prose,
        };
        Frame::new(kind, mode)
    }

    /// The language of a code block from its (or its `<code>` child's) `language-*` or `lang-*`
    /// class, the convention of highlighters and CommonMark's own HTML.
    fn code_language(&self, pre: NodeId) -> Option<String> {
        let classes_of = |id: NodeId| self.dom.element(id).attribute("class").unwrap_or("");
        std::iter::once(pre)
            .chain(
                self.dom
                    .element_children(pre)
                    .filter(|&child| self.dom.element(child).tag == "code"),
            )
            .flat_map(|id| classes_of(id).split_ascii_whitespace())
            .find_map(|class| {
                class
                    .strip_prefix("language-")
                    .or_else(|| class.strip_prefix("lang-"))
            })
            .filter(|language| {
                !language.is_empty()
                    && language
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "+-#._".contains(c))
            })
            .map(str::to_string)
    }

    /// `![alt](url)` for an image, its source resolved; nothing without a usable source.
    fn image(&self, id: NodeId) -> String {
        let element = self.dom.element(id);
        let Some(source) = image_source(element, self.base) else {
            return String::new();
        };
        let mut alt = Inline::default();
        alt.push_text(element.attribute("alt").unwrap_or(""), false);
        format!("![{}]({})", alt.text, link_destination(&source))
    }
}

/// Closes `frame` into the frame now on top of `frames`.
fn close(mut frame: Frame, frames: &mut [Frame]) {
    let kind = std::mem::replace(&mut frame.kind, Kind::Container);
    match kind {
        Kind::Inline(wrap) => close_inline(frame, wrap, frames),
        Kind::Item => {
            let blocks = frame.into_blocks();
            match nearest(frames, |kind| matches!(kind, Kind::List { .. })) {
                Some(Kind::List { items, .. }) => items.push(blocks),
                _ => push_to_top(frames, list(false, 1, vec![blocks])),
            }
        }
        Kind::Cell { spans } => {
            let cell = Cell {
                blocks: frame.into_blocks(),
                spans,
            };
            match nearest(frames, |kind| matches!(kind, Kind::Row(_))) {
                Some(Kind::Row(cells)) => cells.push(cell),
                _ => push_to_top(frames, cell.blocks),
            }
        }
        Kind::Row(cells) => {
            let stray = frame.into_blocks();
            match nearest(frames, |kind| matches!(kind, Kind::Table(_))) {
                Some(Kind::Table(table)) => {
                    table.rows.push(cells);
                    if !stray.is_empty() {
                        table.rows.push(vec![Cell {
                            blocks: stray,
                            ..Cell::default()
                        }]);
                    }
                }
                _ => push_to_top(
                    frames,
                    cells
                        .into_iter()
                        .flat_map(|cell| cell.blocks)
                        .chain(stray)
                        .collect(),
                ),
            }
        }
        Kind::Table(table) => {
            if let Some(Kind::Table(outer)) = nearest(frames, |kind| matches!(kind, Kind::Table(_)))
            {
                outer.has_nested_table = true;
            }
            // A caption (or stray content) comes before the grid.
            let mut blocks = frame.into_blocks();
            blocks.extend(table.into_blocks());
            push_to_top(frames, blocks);
        }
        Kind::List {
            ordered,
            start,
            mut items,
        } => {
            // Content of the list outside its items (invalid markup) is an item of its own.
            let stray = frame.into_blocks();
            if !stray.is_empty() {
                items.push(stray);
            }
            push_to_top(frames, list(ordered, start, items));
        }
        Kind::Heading(level) => {
            let text = frame
                .into_blocks()
                .join(" ")
                .replace(inline::HARD_BREAK, " ")
                .replace('\n', " ");
            let text = text.trim();
            if !text.is_empty() {
                // A heading's trailing `#` would be read as its closing sequence.
                let text = match text.strip_suffix('#') {
                    Some(rest) => format!("{rest}\\#"),
                    None => text.to_string(),
                };
                push_to_top(frames, vec![format!("{} {text}", "#".repeat(level))]);
            }
        }
        Kind::Quote => {
            let body = frame.into_blocks().join("\n\n");
            if !body.is_empty() {
                let quoted: Vec<String> = body
                    .split('\n')
                    .map(|line| {
                        if line.is_empty() {
                            ">".to_string()
                        } else {
                            format!("> {line}")
                        }
                    })
                    .collect();
                push_to_top(frames, vec![quoted.join("\n")]);
            }
        }
        Kind::CodeBlock { language } => {
            let raw = std::mem::take(&mut frame.inline.text);
            let code = raw.strip_prefix('\n').unwrap_or(&raw).trim_end();
            if !code.trim().is_empty() {
                let fence = "`".repeat(longest_run(code, '`').max(2) + 1);
                let language = language.unwrap_or_default();
                push_to_top(frames, vec![format!("{fence}{language}\n{code}\n{fence}")]);
            }
        }
        Kind::Container => {
            let blocks = frame.into_blocks();
            push_to_top(frames, blocks);
        }
    }
}

/// Closes phrasing content: its text wrapped in its markup into the enclosing run — or, when it
/// holds blocks (a link around a card), its blocks as they are.
fn close_inline(mut frame: Frame, wrap: Wrap, frames: &mut [Frame]) {
    let Some(parent) = frames.last_mut() else {
        return;
    };
    if frame.mode == TextMode::Preformatted {
        if frame.ends_line && !frame.inline.text.ends_with('\n') {
            frame.inline.text.push('\n');
        }
        parent.inline.text.push_str(&frame.inline.text);
        return;
    }
    if !frame.blocks.is_empty() {
        let blocks = frame.into_blocks();
        parent.push_blocks(blocks);
        return;
    }
    let inner = frame.inline;
    if inner.space_before {
        parent.inline.space();
    }
    let text = inner.text.trim_end_matches(inline::HARD_BREAK);
    let wrapped = match wrap {
        _ if text.is_empty() => String::new(),
        Wrap::Plain => text.to_string(),
        Wrap::Strong => format!("**{text}**"),
        Wrap::Emphasis => format!("*{text}*"),
        Wrap::Strike => format!("~~{text}~~"),
        Wrap::Code if parent.mode == TextMode::InlineCode => text.to_string(),
        Wrap::Code => code_span(text),
        Wrap::Link(url) => format!("[{text}]({})", link_destination(&url)),
    };
    parent.inline.push_markdown(&wrapped);
    if inner.pending_space {
        parent.inline.space();
    }
}

/// The innermost open frame of a kind `wanted` accepts, as that kind.
fn nearest(frames: &mut [Frame], wanted: impl Fn(&Kind) -> bool) -> Option<&mut Kind> {
    frames
        .iter_mut()
        .rev()
        .map(|frame| &mut frame.kind)
        .find(|kind| wanted(kind))
}

fn push_to_top(frames: &mut [Frame], blocks: Vec<String>) {
    if let Some(top) = frames.last_mut() {
        top.push_blocks(blocks);
    }
}

/// A list as one block: each item's first line after its marker, its other lines indented to
/// the item's content so nested lists and paragraphs stay inside it.
/// CommonMark reads at most nine digits as a list item's number.
const MAX_LIST_NUMBER: u32 = 999_999_999;

fn list(ordered: bool, start: u32, items: Vec<Vec<String>>) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut number = start;
    for item in items {
        if item.is_empty() {
            continue;
        }
        let marker = if ordered {
            format!("{number}. ")
        } else {
            "- ".to_string()
        };
        number = (number + 1).min(MAX_LIST_NUMBER);
        let indent = " ".repeat(marker.len());
        // A nested list follows its item's text on the next line (a tight list); other blocks
        // are paragraphs of the item.
        let mut body = String::new();
        for (index, block) in item.iter().enumerate() {
            if index > 0 {
                body.push_str(if block.starts_with("- ") || starts_ordered_item(block) {
                    "\n"
                } else {
                    "\n\n"
                });
            }
            body.push_str(block);
        }
        for (index, line) in body.split('\n').enumerate() {
            lines.push(match (index, line.is_empty()) {
                (0, _) => format!("{marker}{line}"),
                (_, true) => String::new(),
                (_, false) => format!("{indent}{line}"),
            });
        }
    }
    if lines.is_empty() {
        Vec::new()
    } else {
        vec![lines.join("\n")]
    }
}

fn starts_ordered_item(block: &str) -> bool {
    let digits = block.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && block[digits..].starts_with(". ")
}

/// Whether a link target is worth writing: not a script, not empty.
fn is_followable(url: &str) -> bool {
    let url = url.trim();
    !url.is_empty()
        && !url
            .get(..11)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("javascript:"))
}

/// Plain text as one Markdown paragraph: whitespace collapsed, markup characters escaped.
pub fn markdown_paragraph(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    inline::escape_paragraph(&collapsed)
}

/// An image's source as an absolute URL: `src`, or for lazy-loaded images (a placeholder
/// `data:` source or none) `data-src`, `data-original` or the first `srcset` candidate.
pub fn image_source(element: &crate::page::Element, base: Option<&Url>) -> Option<String> {
    let usable = |value: &str| {
        let value = value.trim();
        (!value.is_empty() && !value.starts_with("data:")).then(|| value.to_string())
    };
    let source = element
        .attribute("src")
        .and_then(usable)
        .or_else(|| element.attribute("data-src").and_then(usable))
        .or_else(|| element.attribute("data-original").and_then(usable))
        .or_else(|| {
            element
                .attribute("srcset")
                .and_then(|srcset| srcset.split(',').next())
                .and_then(|candidate| candidate.split_whitespace().next())
                .and_then(usable)
        })?;
    match base {
        Some(base) => base.join(&source).ok().map(String::from),
        None => Url::parse(&source).ok().map(String::from),
    }
}

#[cfg(test)]
mod tests;
