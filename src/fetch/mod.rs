//! Page sources: where the bytes of the pipeline come from when they are not files on disk.
//!
//! Three sources yield the same [`FetchedPage`] (URL, bytes, HTTP charset): a WARC archive
//! ([`read_warc`], grouped into sites by [`group_by_host`]), one URL ([`fetch_page`]) and a polite
//! same-host crawl ([`crawl`]) that honours robots.txt ([`Robots`]) and samples pages at random
//! with a seed, as the paper samples 200 random pages per site (Chakrabarti et al., WWW 2007, §5).

mod crawl;
mod http;
mod robots;
mod warc;

use std::path::PathBuf;

use thiserror::Error;
use url::Url;

pub use crawl::{CrawlOptions, PoliteSession, crawl, fetch_page};
pub use http::{HttpClient, HttpOptions, HttpResponse, RedirectPolicy};
pub use robots::Robots;
pub use warc::{
    WarcDamage, WarcPage, WarcPages, WarcScan, WarcSkips, group_by_host, parse_warc, read_warc,
    read_warc_with_stylesheets, scan_warc, stream_warc, warc_stylesheets,
};

/// One page as every source yields it: enough to call [`crate::page::Page::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedPage {
    /// The page's address after redirects, used to resolve its links.
    pub url: Url,
    /// The body as served, with transfer and content encodings undone.
    pub bytes: Vec<u8>,
    /// The charset of the HTTP `Content-Type` header, when it named one.
    pub charset: Option<String>,
}

/// The `User-Agent` sent with every request, and the product token robots.txt groups are
/// matched against.
pub const USER_AGENT: &str = concat!("pagelevel/", env!("CARGO_PKG_VERSION"));

/// Why a page source failed.
#[derive(Debug, Error)]
pub enum FetchError {
    /// The WARC file could not be opened or read.
    #[error("cannot read the WARC file {path}: {source}")]
    WarcIo {
        /// The WARC file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Not a single WARC record header could be read: the file is something else.
    #[error(
        "{path} is not a WARC file: it does not start with a `WARC/1.x` record header (gzip-compressed or plain)"
    )]
    NotWarc {
        /// The file that was read.
        path: PathBuf,
    },
    /// A response of a WARC file that may be a page cannot be read as one (no HTTP status
    /// line, a content encoding that cannot be undone, too large); the stream goes on.
    #[error(
        "{path}: record {record} (at byte {offset} of the uncompressed stream), {url}, cannot be read as a page: {cause}"
    )]
    WarcResponseUnreadable {
        /// The WARC file.
        path: PathBuf,
        /// 1-based number of the record.
        record: u64,
        /// Byte offset in the uncompressed stream where the record starts.
        offset: u64,
        /// The record's `WARC-Target-URI`.
        url: String,
        /// Why.
        cause: String,
    },
    /// A record in the middle of a WARC file is damaged and was skipped; the stream goes on at
    /// the next record.
    #[error(
        "{path}: record {record} (at byte {offset} of the uncompressed stream) is damaged and was skipped: {cause}"
    )]
    WarcRecordDamaged {
        /// The WARC file.
        path: PathBuf,
        /// 1-based number of the record.
        record: u64,
        /// Byte offset in the uncompressed stream where the record starts.
        offset: u64,
        /// What was wrong.
        cause: String,
    },
    /// [`read_warc`] found the archive ending in the middle of a record.
    #[error(
        "{path} is truncated: record {record} (at byte {offset} of the uncompressed stream) ends early — {cause}; re-download the file, or use `scan_warc` to keep the records before it"
    )]
    WarcTruncated {
        /// The WARC file.
        path: PathBuf,
        /// 1-based number of the cut-off record.
        record: u64,
        /// Byte offset in the uncompressed stream where that record started.
        offset: u64,
        /// What the reader was expecting when the bytes ran out.
        cause: String,
    },
    /// A URL to fetch (or a redirect target) is not `http://` or `https://`.
    #[error("{url} is not an http:// or https:// URL")]
    UnsupportedScheme {
        /// The rejected URL.
        url: String,
    },
    /// The request failed in transport: DNS, connection, TLS or a malformed response.
    #[error("GET {url} failed: {source}")]
    Http {
        /// The URL requested.
        url: String,
        /// ureq's error.
        #[source]
        source: Box<ureq::Error>,
    },
    /// The connect, per-read or total timeout of [`HttpOptions`] ran out.
    #[error("GET {url} timed out ({phase}); raise the timeout if the server is slow")]
    Timeout {
        /// The URL requested.
        url: String,
        /// Which timeout: ureq's phase name, or `total` for the whole request with redirects.
        phase: String,
    },
    /// The body exceeded [`HttpOptions::max_body_bytes`].
    #[error("GET {url}: the body is larger than {limit} bytes")]
    TooLarge {
        /// The URL requested.
        url: String,
        /// The byte limit it exceeded.
        limit: u64,
    },
    /// A redirect chain was longer than [`HttpOptions::max_redirects`].
    #[error("GET {url}: more than {limit} redirects")]
    TooManyRedirects {
        /// The URL originally requested.
        url: String,
        /// The redirect limit.
        limit: u32,
    },
    /// Under [`RedirectPolicy::SameHost`], a redirect pointed to another host name.
    #[error("GET {url}: redirected to {target}, another host, which this request does not follow")]
    OffHostRedirect {
        /// The URL that answered with the redirect.
        url: String,
        /// Where it redirected to.
        target: String,
    },
    /// A page answered with a status other than 200 (after redirects).
    #[error("GET {url} answered HTTP {status}")]
    Status {
        /// The URL that answered.
        url: String,
        /// The HTTP status code.
        status: u16,
    },
    /// A page's `Content-Type` (and body sniffing) says it is not HTML.
    #[error("GET {url}: the response is {content_type}, not HTML")]
    NotHtml {
        /// The URL that answered.
        url: String,
        /// The `Content-Type` header, or `unknown` when there was none.
        content_type: String,
    },
    /// The start host's robots.txt answered a status outside 2xx/4xx or could not be fetched,
    /// so the crawl does not start (RFC 9309, §2.3.1.4); other origins are just skipped.
    #[error(
        "robots.txt of {origin} could not be read ({cause}); RFC 9309 says to treat the site as off limits until it can"
    )]
    RobotsUnreachable {
        /// The site's origin (`scheme://host[:port]`).
        origin: String,
        /// Why it could not be read.
        cause: String,
    },
    /// The start URL of a crawl is disallowed for our user agent by robots.txt.
    #[error("{url} is disallowed for {user_agent} by the site's robots.txt")]
    DisallowedByRobots {
        /// The disallowed URL.
        url: String,
        /// The user agent whose robots.txt group disallows it.
        user_agent: String,
    },
}

/// The `charset` parameter of a `Content-Type` value, unquoted (`text/html; charset="utf-8"`).
pub fn charset_from_content_type(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// Whether a response is an HTML page: by its `Content-Type`, or, when the server sent none, by
/// the body's first markup (as browsers sniff).
pub fn is_html(content_type: Option<&str>, body: &[u8]) -> bool {
    match content_type {
        Some(content_type) => {
            let media_type = content_type
                .split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase();
            media_type == "text/html" || media_type == "application/xhtml+xml"
        }
        None => looks_like_html(body),
    }
}

/// How many leading bytes are sniffed for markup when a response has no `Content-Type`.
const SNIFF_BYTES: usize = 512;

fn looks_like_html(body: &[u8]) -> bool {
    let head = &body[..body.len().min(SNIFF_BYTES)];
    let head = String::from_utf8_lossy(head).to_ascii_lowercase();
    let head = head.trim_start_matches('\u{feff}').trim_start();
    ["<!doctype html", "<html", "<head", "<body", "<!--"]
        .iter()
        .any(|start| head.starts_with(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charset_is_read_from_quoted_and_spaced_parameters() {
        assert_eq!(
            charset_from_content_type("text/html; charset=\"ISO-8859-1\"").as_deref(),
            Some("ISO-8859-1")
        );
        assert_eq!(
            charset_from_content_type("text/html;CHARSET = utf-8 ").as_deref(),
            Some("utf-8")
        );
        assert_eq!(charset_from_content_type("text/html"), None);
        assert_eq!(charset_from_content_type("text/html; charset="), None);
    }

    #[test]
    fn html_is_recognised_by_media_type_or_sniffed_without_one() {
        assert!(is_html(Some("text/html; charset=utf-8"), b""));
        assert!(is_html(Some("application/xhtml+xml"), b""));
        assert!(!is_html(Some("text/css"), b"<html>"));
        assert!(is_html(None, b"\xef\xbb\xbf  <!DOCTYPE html><p>"));
        assert!(!is_html(None, b"%PDF-1.4"));
    }
}
