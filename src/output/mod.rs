//! Output formats of `pagelevel score`: the per-page JSON contract, one JSON line per page for
//! batches, one CSV row per node, one JSON line per section, the main text as Markdown, and the
//! texts alone.

mod sections;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::layout::LayoutBox;
use crate::markdown::{MarkdownOptions, markdown_paragraph, write_markdown};
use crate::metadata::Metadata;
use crate::page::NodeId;
use crate::page_type::PageTypeGuess;
use crate::pipeline::ScoredPage;
use crate::segment::Section;

pub use sections::{SectionLine, section_lines};

/// Version of the JSON and JSONL output; bump it when a field changes meaning or goes away.
pub const OUTPUT_FORMAT_VERSION: u32 = 1;

/// One element in the JSON output.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NodeOutput {
    /// The element's index in document order (`<html>` is 0).
    #[schemars(with = "u32")]
    pub id: NodeId,
    /// The parent element's id; `null` for `<html>`.
    #[schemars(with = "Option<u32>")]
    pub parent: Option<NodeId>,
    /// Lower-case tag name.
    pub tag: String,
    /// Absolute XPath, e.g. `/html/body/div[2]`.
    pub xpath: String,
    /// Border box `[x, y, width, height]` in CSS px from the document's top-left; `null`
    /// without a layout box.
    #[serde(rename = "box")]
    #[schemars(with = "Option<[f64; 4]>")]
    pub layout_box: Option<LayoutBox>,
    /// Classifier P(template) in [0, 1]; `null` for elements too small or without a box (they
    /// take their nearest scored ancestor's verdict).
    pub score: Option<f64>,
    /// Smoothed templateness in [0, 1]; `null` where `score` is.
    pub smoothed: Option<f64>,
    /// True when the element is template on this page (smoothed value ≥ `threshold`).
    pub template: bool,
    /// The id of the root of the section the element belongs to.
    #[schemars(with = "u32")]
    pub section: NodeId,
    /// The id of the root of the region the element belongs to: one of the page's few large
    /// blocks (header, content, a side column, footer), each holding one or more sections.
    #[schemars(with = "u32")]
    pub region: NodeId,
}

/// The JSON output of one page (`--format json`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct PageOutput {
    /// The output format's version: changes when a field changes meaning or goes away.
    pub format_version: u32,
    /// The page's URL (`file://` for saved pages); `null` when unknown.
    pub url: Option<String>,
    /// The page's `<title>`, whitespace collapsed.
    pub title: String,
    /// What the page says about itself (headline, author, date, language, site name, …), each
    /// field with its source.
    pub metadata: Metadata,
    /// What kind of page this is (article, collection, documentation, forum, listing, product,
    /// service) and the page-type model's probability of it.
    pub page_type: PageTypeGuess,
    /// Every element in document order.
    pub nodes: Vec<NodeOutput>,
    /// The page's sections in document order.
    pub sections: Vec<Section>,
    /// The threshold applied on this page (lower than the configured one on a page that would
    /// otherwise have no content; see `segment::ContentFloor`).
    pub threshold: f64,
    /// All visible text not marked template.
    pub content_text: String,
    /// The article or main body: the content's main region, without comments.
    pub main_text: String,
    /// The main text as Markdown: headings, lists, tables, quotes, code, emphasis (link targets
    /// and images with `--links` / `--images`).
    pub main_markdown: String,
    /// User comments, apart from the main text.
    pub comments: String,
    /// Share of the page's visible text characters that are template, in [0, 1].
    pub template_text_share: f64,
    /// Milliseconds per stage: parse, layout (0 from a cache or snapshot), features, classify,
    /// smooth, segment, extract, and total_without_layout.
    pub timings_ms: BTreeMap<&'static str, f64>,
}

/// One line of the JSONL output (`--format jsonl`, the default for batches): no per-element
/// data.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PageLine {
    /// The output format's version: changes when a field changes meaning or goes away.
    pub format_version: u32,
    /// The page's URL; `null` when unknown.
    pub url: Option<String>,
    /// The page's `<title>`.
    pub title: String,
    /// What the page says about itself (headline, author, date, language, site name, …), each
    /// field with its source.
    pub metadata: Metadata,
    /// What kind of page this is, and the model's probability of it.
    pub page_type: PageTypeGuess,
    /// The threshold applied on this page.
    pub threshold: f64,
    /// All visible text not marked template.
    pub content_text: String,
    /// The article or main body, headed by its headline, without comments.
    pub main_text: String,
    /// The main text as Markdown (see `--format json`'s `main_markdown`).
    pub main_markdown: String,
    /// User comments, apart from the main text.
    pub comments: String,
    /// Share of the page's visible text characters that are template, in [0, 1].
    pub template_text_share: f64,
    /// The page's sections in document order.
    pub sections: Vec<Section>,
}

/// The JSON Schema of the objects `format` writes: a page with its elements (`json`), a section
/// (`sections`), else a page's line (`jsonl`).
pub fn output_schema(format: OutputFormat) -> String {
    let schema = match format {
        OutputFormat::Json => schemars::schema_for!(PageOutput),
        OutputFormat::Sections => schemars::schema_for!(SectionLine),
        _ => schemars::schema_for!(PageLine),
    };
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}

/// Per-stage timings, and the total of every stage but layout.
pub fn timings(scored: &ScoredPage) -> BTreeMap<&'static str, f64> {
    let stages = &scored.timings;
    let after_layout = [
        ("features", stages.features_ms),
        ("classify", stages.classify_ms),
        ("smooth", stages.smooth_ms),
        ("segment", stages.segment_ms),
        ("extract", stages.extract_ms),
    ];
    let mut timings: BTreeMap<&'static str, f64> = after_layout.into_iter().collect();
    timings.insert("parse", stages.parse_ms);
    timings.insert("layout", stages.layout_ms);
    timings.insert(
        "total_without_layout",
        stages.parse_ms + after_layout.iter().map(|(_, ms)| ms).sum::<f64>(),
    );
    timings
}

/// The main text of a scored page as Markdown.
pub fn main_markdown(scored: &ScoredPage, options: MarkdownOptions) -> String {
    let extracted = &scored.extracted;
    let mut markdown = markdown_of(
        scored,
        &extracted.main_text_nodes,
        &extracted.main_images,
        options,
    );
    if let Some(structured) = &extracted.structured_text {
        if !markdown.is_empty() {
            markdown.truncate(markdown.trim_end().len());
            markdown.push_str("\n\n");
        }
        markdown.push_str(&markdown_paragraph(structured));
        markdown.push('\n');
    }
    markdown
}

/// The user comments of a scored page as Markdown (their pictures are avatars: none).
pub fn comments_markdown(scored: &ScoredPage, options: MarkdownOptions) -> String {
    markdown_of(scored, &scored.extracted.comment_text_nodes, &[], options)
}

/// The Markdown of some of a scored page's text nodes and pictures.
fn markdown_of(
    scored: &ScoredPage,
    text_nodes: &[u32],
    images: &[NodeId],
    options: MarkdownOptions,
) -> String {
    let page = &scored.laid_out.page;
    write_markdown(
        &page.dom,
        text_nodes,
        images,
        page.base_url().as_ref(),
        options,
    )
}

/// The full JSON output of a page, its Markdown written with `markdown`.
pub fn page_output(scored: &ScoredPage, markdown: MarkdownOptions) -> PageOutput {
    let dom = &scored.laid_out.page.dom;
    let xpaths = dom.xpaths();
    let nodes = dom
        .ids()
        .zip(xpaths)
        .map(|(id, xpath)| {
            let verdict = scored.segmented.nodes[id.index()];
            NodeOutput {
                id,
                parent: dom.element(id).parent,
                tag: dom.element(id).tag.clone(),
                xpath,
                layout_box: scored.laid_out.layout_box(id),
                score: verdict.score,
                smoothed: verdict.smoothed,
                template: verdict.template,
                section: verdict.section,
                region: verdict.region,
            }
        })
        .collect();
    PageOutput {
        format_version: OUTPUT_FORMAT_VERSION,
        url: scored.laid_out.page.url.as_ref().map(|url| url.to_string()),
        title: scored.laid_out.page.title.clone(),
        metadata: scored.metadata.clone(),
        page_type: scored.page_type,
        nodes,
        sections: scored.segmented.sections.clone(),
        threshold: scored.segmented.threshold,
        content_text: scored.segmented.content_text.clone(),
        main_text: scored.extracted.main_text.clone(),
        main_markdown: main_markdown(scored, markdown),
        comments: scored.extracted.comments.clone(),
        template_text_share: scored.segmented.template_text_share,
        timings_ms: timings(scored),
    }
}

/// The JSONL line of a page, its Markdown written with `markdown`.
pub fn page_line(scored: &ScoredPage, markdown: MarkdownOptions) -> PageLine {
    PageLine {
        format_version: OUTPUT_FORMAT_VERSION,
        url: scored.laid_out.page.url.as_ref().map(|url| url.to_string()),
        title: scored.laid_out.page.title.clone(),
        metadata: scored.metadata.clone(),
        page_type: scored.page_type,
        threshold: scored.segmented.threshold,
        content_text: scored.segmented.content_text.clone(),
        main_text: scored.extracted.main_text.clone(),
        main_markdown: main_markdown(scored, markdown),
        comments: scored.extracted.comments.clone(),
        template_text_share: scored.segmented.template_text_share,
        sections: scored.segmented.sections.clone(),
    }
}

/// One CSV row per element (`--format csv`); the columns mean what [`NodeOutput`]'s fields do.
#[derive(Debug, Serialize)]
pub struct NodeRow<'a> {
    /// The page's path or URL.
    pub page: &'a str,
    /// The element's id.
    pub id: u32,
    /// The parent's id (empty for `<html>`).
    pub parent: Option<u32>,
    /// Lower-case tag name.
    pub tag: &'a str,
    /// Absolute XPath.
    pub xpath: String,
    /// Border box left, CSS px (empty without a box).
    pub x: Option<f64>,
    /// Border box top, CSS px.
    pub y: Option<f64>,
    /// Border box width, CSS px.
    pub width: Option<f64>,
    /// Border box height, CSS px.
    pub height: Option<f64>,
    /// Classifier P(template).
    pub score: Option<f64>,
    /// Smoothed templateness.
    pub smoothed: Option<f64>,
    /// Template on this page.
    pub template: bool,
    /// The id of the element's section root.
    pub section: u32,
    /// The id of the element's region root.
    pub region: u32,
}

/// Writes a page's nodes as CSV rows (the header is written once by the writer).
pub fn write_csv_rows<W: std::io::Write>(
    writer: &mut csv::Writer<W>,
    page_name: &str,
    scored: &ScoredPage,
) -> csv::Result<()> {
    let dom = &scored.laid_out.page.dom;
    for (id, xpath) in dom.ids().zip(dom.xpaths()) {
        let verdict = scored.segmented.nodes[id.index()];
        let layout_box = scored.laid_out.layout_box(id);
        writer.serialize(NodeRow {
            page: page_name,
            id: id.0,
            parent: dom.element(id).parent.map(|p| p.0),
            tag: &dom.element(id).tag,
            xpath,
            x: layout_box.map(|b| b.x),
            y: layout_box.map(|b| b.y),
            width: layout_box.map(|b| b.width),
            height: layout_box.map(|b| b.height),
            score: verdict.score,
            smoothed: verdict.smoothed,
            template: verdict.template,
            section: verdict.section.0,
            region: verdict.region.0,
        })?;
    }
    Ok(())
}

/// The formats `pagelevel score` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Everything about one page: nodes, sections, texts, timings (one JSON object per line).
    Json,
    /// One line per page: url, texts, template share, sections.
    Jsonl,
    /// One row per node, every page under one header.
    Csv,
    /// The content text alone (everything not template).
    Text,
    /// The main text alone (the article or main body, without comments).
    Main,
    /// The main text, then a blank line and the user comments when the page has some.
    MainAndComments,
    /// The main text as Markdown; with [`MarkdownOutput::comments`], the comments after it
    /// under their own heading.
    Markdown,
    /// One JSON line per section: its text, Markdown, templateness, verdict and role.
    Sections,
}

/// `object` with only `fields`, in the order asked for (so a reader sees the columns it named).
fn only_fields(object: &serde_json::Value, fields: &[String]) -> String {
    let kept: Vec<String> = fields
        .iter()
        .filter_map(|field| {
            object
                .get(field)
                .map(|value| format!("{}:{value}", serde_json::Value::from(field.as_str())))
        })
        .collect();
    format!("{{{}}}", kept.join(","))
}

/// How Markdown is written: what it keeps beside the text, and whether comments follow the main
/// text in `--format markdown`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MarkdownOutput {
    /// Links and images kept or not.
    pub options: MarkdownOptions,
    /// `--format markdown` writes the comments after the main text.
    pub comments: bool,
}

/// The heading comments are written under in `--format markdown --comments`.
const COMMENTS_HEADING: &str = "## Comments";

/// Writes scored pages one after another in one format.
pub struct OutputWriter<W: std::io::Write> {
    format: OutputFormat,
    sink: Sink<W>,
    /// Top-level fields kept in JSON and JSONL output; all when `None`.
    fields: Option<Vec<String>>,
    markdown: MarkdownOutput,
}

enum Sink<W: std::io::Write> {
    Plain(W),
    /// One CSV writer for the whole run, so the header comes once.
    Csv(Box<csv::Writer<W>>),
}

impl<W: std::io::Write> OutputWriter<W> {
    /// A writer of `format` into `sink`.
    pub fn new(format: OutputFormat, sink: W) -> OutputWriter<W> {
        let sink = match format {
            OutputFormat::Csv => Sink::Csv(Box::new(csv::Writer::from_writer(sink))),
            _ => Sink::Plain(sink),
        };
        OutputWriter {
            format,
            sink,
            fields: None,
            markdown: MarkdownOutput::default(),
        }
    }

    /// The same writer writing Markdown (the `markdown` format, `main_markdown` fields, the
    /// sections' Markdown) with `markdown`.
    pub fn with_markdown(mut self, markdown: MarkdownOutput) -> OutputWriter<W> {
        self.markdown = markdown;
        self
    }

    /// The same writer keeping only `fields` of each JSON or JSONL object; a name that is not
    /// a field of the format is refused, naming the fields there are.
    pub fn with_fields(mut self, fields: &[String]) -> Result<OutputWriter<W>, String> {
        let schema: serde_json::Value =
            serde_json::from_str(&output_schema(self.format)).map_err(|error| error.to_string())?;
        let known: Vec<&str> = schema["properties"]
            .as_object()
            .map(|properties| properties.keys().map(String::as_str).collect())
            .unwrap_or_default();
        if let Some(unknown) = fields.iter().find(|field| !known.contains(&field.as_str())) {
            return Err(format!(
                "--output-fields: `{unknown}` is not an output field; the fields are {}",
                known.join(", ")
            ));
        }
        self.fields = Some(fields.to_vec());
        Ok(self)
    }

    /// Writes one page; `name` is its path or URL (the `page` column of CSV).
    pub fn write(&mut self, name: &str, scored: &ScoredPage) -> std::io::Result<()> {
        let sink = match &mut self.sink {
            Sink::Csv(writer) => {
                return write_csv_rows(writer, name, scored).map_err(std::io::Error::other);
            }
            Sink::Plain(sink) => sink,
        };
        if let (Some(fields), OutputFormat::Json | OutputFormat::Jsonl) =
            (&self.fields, self.format)
        {
            let options = self.markdown.options;
            let json = match self.format {
                OutputFormat::Json => serde_json::to_value(page_output(scored, options))?,
                _ => serde_json::to_value(page_line(scored, options))?,
            };
            return writeln!(sink, "{}", only_fields(&json, fields));
        }
        let options = self.markdown.options;
        match self.format {
            OutputFormat::Json => serde_json::to_writer(&mut *sink, &page_output(scored, options))?,
            OutputFormat::Jsonl => serde_json::to_writer(&mut *sink, &page_line(scored, options))?,
            OutputFormat::Markdown => {
                sink.write_all(main_markdown(scored, options).as_bytes())?;
                let comments = match self.markdown.comments {
                    true => comments_markdown(scored, options),
                    false => String::new(),
                };
                if !comments.is_empty() {
                    write!(sink, "\n\n{COMMENTS_HEADING}\n\n{comments}")?;
                }
            }
            OutputFormat::Sections => {
                // One line per section, no line of its own for the page.
                for line in section_lines(name, scored, options) {
                    match &self.fields {
                        Some(fields) => {
                            let json = serde_json::to_value(&line)?;
                            write!(sink, "{}", only_fields(&json, fields))?;
                        }
                        None => serde_json::to_writer(&mut *sink, &line)?,
                    }
                    sink.write_all(b"\n")?;
                }
                return Ok(());
            }
            OutputFormat::Text => sink.write_all(scored.segmented.content_text.as_bytes())?,
            OutputFormat::Main => sink.write_all(scored.extracted.main_text.as_bytes())?,
            OutputFormat::MainAndComments => {
                sink.write_all(scored.extracted.main_text.as_bytes())?;
                if !scored.extracted.comments.is_empty() {
                    sink.write_all(b"\n\n")?;
                    sink.write_all(scored.extracted.comments.as_bytes())?;
                }
            }
            OutputFormat::Csv => {}
        }
        sink.write_all(b"\n")
    }

    /// Flushes what is buffered.
    pub fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Plain(sink) => sink.flush(),
            Sink::Csv(writer) => writer.flush(),
        }
    }
}
