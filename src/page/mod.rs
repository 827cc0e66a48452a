//! Decoding and parsing: page bytes → Unicode text → html5ever → the arena [`Dom`].
//!
//! Parsing never fails on bad markup (html5ever repairs it as browsers do). It fails only when a
//! page is beyond the [`ParseLimits`] budget — too many bytes, elements or levels — and then says
//! which limit and how to raise it, instead of hanging on a hostile page.

mod decode;
mod dom;
mod files;
mod serialize;
mod sink;
mod source;
mod streamed;
mod stylesheets;

use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{ParseOpts, parse_document};
use thiserror::Error;
use url::Url;

pub use decode::{DecodedText, EncodingEvidence, charset_name, decode, decode_at};
pub(crate) use dom::INLINE_ELEMENTS;
pub use dom::{Child, Dom, Element, NodeId, TextNode, collapse_whitespace, inline_style_hides};
pub use files::{html_files_under, is_html_file};
pub use serialize::{MarkupSink, SerializeOptions, serialize, write_markup};
pub use source::{PageSource, UnknownCharset};
pub use stylesheets::{
    ArchivedStylesheet, ArchivedStylesheets, MAX_ARCHIVED_STYLESHEET_BYTES, linked_stylesheet_urls,
};

use sink::{ArenaSink, Budget};

/// Size budget for one page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseLimits {
    /// Largest accepted input, in bytes. The largest real pages in our datasets are ~5 MB.
    pub max_bytes: usize,
    /// Most elements accepted.
    pub max_elements: usize,
    /// Deepest nesting accepted. html5ever's scope checks walk the open-element stack, so parse
    /// time grows with elements × depth; the cap keeps a 100k-deep page to well under a second.
    pub max_depth: u32,
}

impl Default for ParseLimits {
    fn default() -> Self {
        ParseLimits {
            max_bytes: 16 * 1024 * 1024,
            max_elements: 300_000,
            max_depth: 5_000,
        }
    }
}

/// Why a page could not be parsed.
#[derive(Debug, Error)]
pub enum PageError {
    /// The input is longer than [`ParseLimits::max_bytes`]; checked before decoding.
    #[error(
        "the page is {bytes} bytes, over the limit of {limit} bytes (raise it with --max-bytes)"
    )]
    TooLarge {
        /// Size of the input in bytes.
        bytes: usize,
        /// The byte limit.
        limit: usize,
    },
    /// Parsing created more than [`ParseLimits::max_elements`] elements; parsing stops there.
    #[error("the page has more than {limit} elements (raise the limit with --max-elements)")]
    TooManyElements {
        /// The element limit.
        limit: usize,
    },
    /// Elements nest deeper than [`ParseLimits::max_depth`]; parsing stops there.
    #[error(
        "the page nests elements deeper than {limit} levels (raise the limit with --max-depth)"
    )]
    TooDeep {
        /// The depth limit, in levels.
        limit: u32,
    },
    /// The input has no bytes at all.
    #[error("the page is empty (0 bytes)")]
    Empty,
    /// The first bytes (holds how many were checked) hold a NUL or several other control bytes
    /// no text has, and the input does not start with a UTF-16 BOM: an image, archive or other
    /// binary file.
    #[error(
        "the file looks binary, not HTML (a NUL or control bytes no text has in its first {0} bytes)"
    )]
    Binary(usize),
}

/// A parsed page: its DOM plus what was learnt while decoding it.
#[derive(Debug, Clone)]
pub struct Page {
    /// Where the page came from, used to resolve links; `None` when unknown.
    pub url: Option<Url>,
    /// The encoding the bytes were decoded from.
    pub encoding: &'static str,
    /// Text of the `<title>`, whitespace collapsed.
    pub title: String,
    /// The parsed document: every element in document order, with text and resolved links.
    pub dom: Dom,
}

/// How many leading bytes are checked when telling binary files from HTML.
const BINARY_SNIFF_BYTES: usize = 1024;

/// How many of WHATWG MIME Sniffing's "binary data bytes" (control bytes other than tab, line
/// feeds, form feed and ESC) in those bytes make a file binary. None of the 5,484 HTML files of
/// the shared datasets has one in its first 1,024 bytes (a few have some further on); random
/// bytes have ~110 there, and a NUL in the first 1,024 only 98% of the time — the rest were
/// scored as pages.
const BINARY_CONTROL_BYTES: usize = 8;

/// Whether `sniffed`, a file's first bytes (not UTF-16), look like binary data.
fn looks_binary(sniffed: &[u8]) -> bool {
    let is_binary_data_byte =
        |byte: &u8| matches!(byte, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F);
    sniffed.contains(&0)
        || sniffed
            .iter()
            .filter(|byte| is_binary_data_byte(byte))
            .count()
            >= BINARY_CONTROL_BYTES
}

/// Input is fed to the parser in chunks of this many bytes so the budget is checked often.
const CHUNK_BYTES: usize = 16 * 1024;

impl Page {
    /// The URL the page's relative references (images, links) resolve against: its
    /// `<base href>`, else its own URL; `None` when neither is known.
    pub fn base_url(&self) -> Option<Url> {
        document_base(&self.dom, self.url.as_ref())
    }

    /// Decodes and parses a page. `url` resolves relative links (a `<base href>` wins over it)
    /// and hints at the encoding of an undeclared page (its top-level domain);
    /// `http_charset` is the transport charset ([`PageSource::http_charset`]), which overrides
    /// the page's `<meta charset>` (see [`decode_at`] for the whole order).
    pub fn parse(
        bytes: &[u8],
        url: Option<Url>,
        http_charset: Option<&str>,
        limits: &ParseLimits,
    ) -> Result<Page, PageError> {
        if bytes.is_empty() {
            return Err(PageError::Empty);
        }
        if bytes.len() > limits.max_bytes {
            return Err(PageError::TooLarge {
                bytes: bytes.len(),
                limit: limits.max_bytes,
            });
        }
        let sniffed = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
        let is_utf16 = sniffed.starts_with(&[0xFF, 0xFE]) || sniffed.starts_with(&[0xFE, 0xFF]);
        if !is_utf16 && looks_binary(sniffed) {
            return Err(PageError::Binary(BINARY_SNIFF_BYTES));
        }
        let decoded = decode_at(bytes, http_charset, url.as_ref());
        let mut dom = parse_html(&close_unclosed_title(&decoded.text), limits)?;
        resolve_links(&mut dom, url.as_ref());
        let title = dom
            .first_with_tag("title")
            .map(|title| dom.own_text(title))
            .unwrap_or_default();
        Ok(Page {
            url,
            encoding: decoded.encoding,
            title,
            dom,
        })
    }
}

/// A `<title>` never closed swallows the rest of the page as its text (the title element's
/// content model is raw text to its end tag), leaving a DOM of four elements and nothing to
/// read. Browsers do the same, but such a page was meant to have a one-line title: it is
/// closed at the end of its first line or at the next `<`, whichever comes first.
fn close_unclosed_title(text: &str) -> std::borrow::Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    let Some(start) = lower.find("<title") else {
        return text.into();
    };
    let Some(open_end) = lower[start..].find('>').map(|end| start + end + 1) else {
        return text.into();
    };
    if lower[open_end..].contains("</title") {
        return text.into();
    }
    let end = lower[open_end..]
        .find(['\n', '<'])
        .map_or(text.len(), |end| open_end + end);
    format!("{}</title>{}", &text[..end], &text[end..]).into()
}

/// Parses Unicode HTML into the arena, stopping as soon as the budget is exceeded.
fn parse_html(text: &str, limits: &ParseLimits) -> Result<Dom, PageError> {
    let budget = Budget::default();
    let mut options = ParseOpts::default();
    // Pages render with scripting off by default, so <noscript> content is markup, not text.
    options.tree_builder.scripting_enabled = false;
    let mut parser = parse_document(ArenaSink::new(&budget), options);
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + CHUNK_BYTES).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        parser.process(StrTendril::from_slice(&text[start..end]));
        start = end;
        if budget.elements.get() > limits.max_elements {
            return Err(PageError::TooManyElements {
                limit: limits.max_elements,
            });
        }
        if budget.max_depth.get() > limits.max_depth {
            return Err(PageError::TooDeep {
                limit: limits.max_depth,
            });
        }
    }
    let mut raw = parser.finish();
    streamed::move_streamed_blocks(&mut raw, limits.max_depth as usize);
    Ok(Dom::from_raw(&raw))
}

/// Resolves every `<a href>`/`<area href>` against the first `<base href>` (itself resolved
/// against the page URL), else the page URL. Unresolvable hrefs (no base, relative) stay as
/// written; `javascript:` and fragment-only links are kept too — features decide what they mean.
fn resolve_links(dom: &mut Dom, page_url: Option<&Url>) {
    let base = document_base(dom, page_url);
    for element in &mut dom.elements {
        if element.tag != "a" && element.tag != "area" {
            continue;
        }
        if let Some(href) = element.attribute("href") {
            let href = href.trim();
            element.link = Some(match &base {
                Some(base) => base
                    .join(href)
                    .map_or_else(|_| href.to_string(), String::from),
                None => href.to_string(),
            });
        }
    }
}

/// The URL relative references of the page resolve against: the first `<base href>` (itself
/// resolved against the page URL), else the page URL.
fn document_base(dom: &Dom, page_url: Option<&Url>) -> Option<Url> {
    dom.ids()
        .find(|&id| dom.element(id).tag == "base" && dom.element(id).attribute("href").is_some())
        .and_then(|id| dom.element(id).attribute("href"))
        .and_then(|href| match page_url {
            Some(url) => url.join(href.trim()).ok(),
            None => Url::parse(href.trim()).ok(),
        })
        .or_else(|| page_url.cloned())
}

#[cfg(test)]
mod tests;
