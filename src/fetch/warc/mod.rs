//! Reading WARC archives (ISO 28500, WARC/1.0 and 1.1), plain or as concatenated gzip members,
//! into HTML pages: the `response` records with HTTP status 200 and an HTML body.
//!
//! Archives found in the wild are often damaged — a crawl killed mid-write, a bad block on disk.
//! A record whose header or length is wrong is skipped and noted as [`WarcDamage`], and reading
//! resumes at the next line that starts a WARC record; only an archive that never starts one
//! ([`FetchError::NotWarc`]) or, for [`read_warc`], one cut short ([`FetchError::WarcTruncated`])
//! fails as a whole. [`scan_warc`] returns everything readable together with the damage.
//!
//! A scan also keeps the archive's stylesheets (`text/css` responses with status 200, the
//! first capture of each URL, at most [`MAX_ARCHIVED_STYLESHEET_BYTES`] in all), which lay its
//! pages out as they were served ([`crate::page::PageSource::stylesheets`]); a stream of pages
//! ([`stream_warc`]) keeps none, and [`warc_stylesheets`] reads them alone, for a stream.

mod gzip;
mod response;

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

use url::Url;

use super::{FetchError, FetchedPage, charset_from_content_type, is_html};
use crate::page::ArchivedStylesheets;
#[cfg(doc)]
use crate::page::MAX_ARCHIVED_STYLESHEET_BYTES;
use gzip::{Counted, GzipMembers, is_gzip};
use response::{MAX_BODY_BYTES, Undecodable, decode_body, parse_response};

/// An HTML page stored in a WARC `response` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarcPage {
    /// URL (`WARC-Target-URI`), decoded body and HTTP charset.
    pub page: FetchedPage,
    /// The stored HTTP status (always 200 for pages [`read_warc`] returns).
    pub status: u16,
    /// The stored HTTP response headers, in order.
    pub headers: Vec<(String, String)>,
    /// 1-based position of the record in the archive, counting every record.
    pub record: u64,
    /// Where the record starts in the uncompressed stream.
    pub offset: u64,
}

impl From<WarcPage> for FetchedPage {
    fn from(warc_page: WarcPage) -> FetchedPage {
        warc_page.page
    }
}

/// How many records were read but are not pages, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WarcSkips {
    /// `warcinfo`, `request`, `metadata`, `resource`, … records.
    pub not_response: usize,
    /// `revisit` records: a pointer to an earlier capture, without a body of their own.
    pub revisit: usize,
    /// Responses whose HTTP status is not 200 (redirects, errors).
    pub status_not_ok: usize,
    /// Responses that are images, scripts, style sheets (kept in [`WarcScan::stylesheets`]), …
    pub not_html: usize,
    /// Responses whose `WARC-Target-URI` is missing or not an absolute URL.
    pub bad_target_uri: usize,
    /// Responses without an HTTP status line, or with a body encoding we cannot undo (e.g. `br`).
    pub undecodable: usize,
    /// Records larger than the 64 MiB this reader keeps in memory.
    pub too_large: usize,
}

/// A damaged stretch of an archive that was skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarcDamage {
    /// 1-based number of the record being read when the damage was found.
    pub record: u64,
    /// Byte offset in the uncompressed stream where that record started.
    pub offset: u64,
    /// What was wrong.
    pub cause: String,
    /// Whether the damage is the archive ending in the middle of a record.
    pub truncated: bool,
}

/// A response that may be a page but cannot be read as one: its HTTP head has no status line,
/// its body's content encoding cannot be undone, or it is over the size this reader keeps.
/// (Responses that are not pages — not status 200, not HTML — are only counted, in [`WarcSkips`].)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableResponse {
    /// 1-based number of the record.
    pub record: u64,
    /// Byte offset in the uncompressed stream where the record starts.
    pub offset: u64,
    /// Its `WARC-Target-URI`, as written.
    pub url: Option<String>,
    /// Why it cannot be read.
    pub cause: String,
}

/// Everything readable in one archive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WarcScan {
    /// HTML pages, in archive order.
    pub pages: Vec<WarcPage>,
    /// Records read that are not pages.
    pub skipped: WarcSkips,
    /// Responses counted in `skipped` as undecodable or too large, each with its cause: a
    /// stream of pages reports them, as it reports damage, so none is lost silently.
    pub unreadable: Vec<UnreadableResponse>,
    /// The archive's stylesheets by URL (first capture), for laying its pages out.
    pub stylesheets: ArchivedStylesheets,
    /// Damaged stretches skipped, in archive order.
    pub damage: Vec<WarcDamage>,
    /// Number of records read, including skipped and damaged ones.
    pub records: u64,
}

/// Reads the HTML pages of a WARC file (`.warc` or `.warc.gz`; compression is detected from the
/// bytes). Damaged records in the middle are skipped (see [`scan_warc`] to count them); a file
/// that is not a WARC or ends inside a record is an error naming the record and its offset.
pub fn read_warc(path: &Path) -> Result<Vec<WarcPage>, FetchError> {
    read_warc_with_stylesheets(path).map(|(pages, _)| pages)
}

/// [`read_warc`], with the archive's stylesheets by URL (see [`WarcScan::stylesheets`]).
pub fn read_warc_with_stylesheets(
    path: &Path,
) -> Result<(Vec<WarcPage>, ArchivedStylesheets), FetchError> {
    let scan = scan_warc(path)?;
    if let Some(end) = scan.damage.iter().find(|damage| damage.truncated) {
        return Err(FetchError::WarcTruncated {
            path: path.to_path_buf(),
            record: end.record,
            offset: end.offset,
            cause: end.cause.clone(),
        });
    }
    Ok((scan.pages, scan.stylesheets))
}

/// Reads everything readable from a WARC file, with counts of skipped records and the damage.
pub fn scan_warc(path: &Path) -> Result<WarcScan, FetchError> {
    let file = File::open(path).map_err(|source| FetchError::WarcIo {
        path: path.to_path_buf(),
        source,
    })?;
    parse_warc(file, path)
}

/// [`scan_warc`] over any byte source; `name` is the file named in errors.
pub fn parse_warc(source: impl Read, name: &Path) -> Result<WarcScan, FetchError> {
    let mut raw = Counted::new(source);
    let head = raw.peek(2).map_err(|source| FetchError::WarcIo {
        path: name.to_path_buf(),
        source,
    })?;
    let (scan, headers_read) = if is_gzip(head) {
        RecordReader::new(Counted::new(GzipMembers::new(raw))).read_all()
    } else {
        RecordReader::new(raw).read_all()
    };
    if headers_read == 0 && !scan.damage.is_empty() {
        return Err(FetchError::NotWarc {
            path: name.to_path_buf(),
        });
    }
    Ok(scan)
}

/// The stylesheets of a WARC file (see [`WarcScan::stylesheets`]), read in a pass that keeps no
/// page: what a stream of its pages ([`stream_warc`]) is laid out with. Damage is passed over
/// here; the stream of pages reports it.
pub fn warc_stylesheets(path: &Path) -> Result<ArchivedStylesheets, FetchError> {
    let (scan, _) = RecordReader::new(Counted::new(open_records(path)?))
        .without_pages()
        .read_all();
    Ok(scan.stylesheets)
}

/// A WARC file's record stream, gunzipped when its bytes say gzip.
fn open_records(path: &Path) -> Result<Box<dyn Read + Send>, FetchError> {
    let io_error = |source| FetchError::WarcIo {
        path: path.to_path_buf(),
        source,
    };
    let mut raw = Counted::new(File::open(path).map_err(io_error)?);
    Ok(if is_gzip(raw.peek(2).map_err(io_error)?) {
        Box::new(GzipMembers::new(raw))
    } else {
        Box::new(raw)
    })
}

/// The HTML pages of a WARC file read one record at a time, so memory stays that of one
/// record however large the file. A response that cannot be read as a page
/// ([`FetchError::WarcResponseUnreadable`]) and a damaged record in the middle
/// ([`FetchError::WarcRecordDamaged`]) are errors in the stream, in archive order, and the
/// stream goes on after them, so a caller can tell the user of every record it lost; a file
/// that is not a WARC, or ends inside a record, ends the stream with that error.
pub struct WarcPages {
    reader: RecordReader<Box<dyn Read + Send>>,
    path: PathBuf,
    finished: bool,
    /// How many of the reader's unreadable responses and damaged stretches were yielded.
    unreadable_told: usize,
    damage_told: usize,
    /// The truncation that ends the stream, once the archive's end was reached.
    end: Option<FetchError>,
}

impl WarcPages {
    /// The next unreadable response or mid-archive damage not yet yielded. Damage is told once
    /// a record header has been read: before that, the file may not be a WARC at all.
    fn next_record_problem(&mut self) -> Option<FetchError> {
        let scan = &self.reader.scan;
        if let Some(response) = scan.unreadable.get(self.unreadable_told) {
            self.unreadable_told += 1;
            return Some(FetchError::WarcResponseUnreadable {
                path: self.path.clone(),
                record: response.record,
                offset: response.offset,
                url: response.url.clone().unwrap_or_else(|| "(no URL)".into()),
                cause: response.cause.clone(),
            });
        }
        if self.reader.headers_read == 0 {
            return None;
        }
        let damage = scan.damage.get(self.damage_told)?;
        if damage.truncated {
            return None;
        }
        self.damage_told += 1;
        Some(FetchError::WarcRecordDamaged {
            path: self.path.clone(),
            record: damage.record,
            offset: damage.offset,
            cause: damage.cause.clone(),
        })
    }
}

/// Opens a WARC file (`.warc` or `.warc.gz`) for [`WarcPages`].
pub fn stream_warc(path: &Path) -> Result<WarcPages, FetchError> {
    Ok(WarcPages {
        reader: RecordReader::new(Counted::new(open_records(path)?)).without_stylesheets(),
        path: path.to_path_buf(),
        finished: false,
        unreadable_told: 0,
        damage_told: 0,
        end: None,
    })
}

impl Iterator for WarcPages {
    type Item = Result<WarcPage, FetchError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(page) = self.reader.scan.pages.pop() {
                return Some(Ok(page));
            }
            if let Some(problem) = self.next_record_problem() {
                return Some(Err(problem));
            }
            if self.finished {
                return self.end.take().map(Err);
            }
            if !self.reader.step() {
                self.finished = true;
                let damage = &self.reader.scan.damage;
                if self.reader.headers_read == 0 && !damage.is_empty() {
                    return Some(Err(FetchError::NotWarc {
                        path: self.path.clone(),
                    }));
                }
                // Told last, after the problems of the records before it.
                self.end = damage.iter().find(|damage| damage.truncated).map(|end| {
                    FetchError::WarcTruncated {
                        path: self.path.clone(),
                        record: end.record,
                        offset: end.offset,
                        cause: end.cause.clone(),
                    }
                });
            }
        }
    }
}

/// Groups pages into sites by host (with the port when it is not the scheme's default), keeping
/// archive order within a site. A URL captured more than once keeps its first capture, so that
/// repeated captures do not count as several pages in site-level statistics.
pub fn group_by_host(pages: Vec<WarcPage>) -> BTreeMap<String, Vec<WarcPage>> {
    let mut sites: BTreeMap<String, Vec<WarcPage>> = BTreeMap::new();
    let mut seen = HashSet::new();
    for warc_page in pages {
        let url = &warc_page.page.url;
        let Some(host) = url.host_str() else {
            continue;
        };
        let site = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_string(),
        };
        if seen.insert(url.as_str().to_string()) {
            sites.entry(site).or_default().push(warc_page);
        }
    }
    sites
}

/// Longest WARC header line kept; longer ones are garbage, not headers.
const MAX_HEADER_LINE: usize = 64 * 1024;
/// Most header lines in one WARC record header.
const MAX_HEADER_LINES: usize = 1_000;

/// A record's header fields and where it started.
struct RecordHeader {
    number: u64,
    offset: u64,
    fields: Vec<(String, String)>,
}

impl RecordHeader {
    fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(field, _)| field.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Why reading a record stopped.
enum Broken {
    Damaged(String),
    Truncated(String),
}

struct RecordReader<R> {
    stream: Counted<R>,
    scan: WarcScan,
    /// Where a record's first line started, when it was already read while resynchronizing.
    pending_record: Option<u64>,
    headers_read: u64,
    /// Whether stylesheets are kept (a whole scan) or dropped (a stream of pages).
    keeps_stylesheets: bool,
    /// Whether pages are kept (dropped when only the stylesheets are wanted).
    keeps_pages: bool,
}

impl<R: Read> RecordReader<R> {
    fn new(stream: Counted<R>) -> Self {
        RecordReader {
            stream,
            scan: WarcScan::default(),
            pending_record: None,
            headers_read: 0,
            keeps_stylesheets: true,
            keeps_pages: true,
        }
    }

    fn without_pages(mut self) -> Self {
        self.keeps_pages = false;
        self
    }

    fn without_stylesheets(mut self) -> Self {
        self.keeps_stylesheets = false;
        self
    }

    /// Reads to the end; also returns how many record headers were read whole.
    fn read_all(mut self) -> (WarcScan, u64) {
        while self.step() {}
        (self.scan, self.headers_read)
    }

    /// Reads the next record (a page lands in `scan.pages`); false at the end of the archive,
    /// clean or truncated (then noted as damage).
    fn step(&mut self) -> bool {
        let offset = self
            .pending_record
            .unwrap_or_else(|| self.stream.consumed());
        let number = self.scan.records + 1;
        match self.read_record(number, offset) {
            Ok(true) => {
                self.scan.records = number;
                true
            }
            Ok(false) => false,
            Err(Broken::Truncated(cause)) => {
                self.scan.records = number;
                self.note_damage(number, offset, cause, true);
                false
            }
            Err(Broken::Damaged(cause)) => {
                self.scan.records = number;
                self.note_damage(number, offset, cause, false);
                self.resynchronize();
                true
            }
        }
    }

    fn note_damage(&mut self, record: u64, offset: u64, cause: String, truncated: bool) {
        self.scan.damage.push(WarcDamage {
            record,
            offset,
            cause,
            truncated,
        });
    }

    /// Reads one record; `Ok(false)` at a clean end of the archive.
    fn read_record(&mut self, number: u64, offset: u64) -> Result<bool, Broken> {
        let mut offset = offset;
        if self.pending_record.take().is_none() {
            // Records are separated by CRLF CRLF; tolerate extra blank lines between them.
            let version = loop {
                offset = self.stream.consumed();
                match self.read_line()? {
                    None => return Ok(false),
                    Some(line) if line.trim().is_empty() => continue,
                    Some(line) => break line,
                }
            };
            if !version.starts_with("WARC/") {
                return Err(Broken::Damaged(format!(
                    "expected a `WARC/1.x` record header, found {:?}",
                    abbreviate(&version)
                )));
            }
        }
        let header = RecordHeader {
            number,
            offset,
            fields: self.read_fields()?,
        };
        self.headers_read += 1;
        let length = header
            .field("content-length")
            .ok_or_else(|| Broken::Damaged("the record header has no Content-Length".into()))?;
        let length: u64 = length.trim().parse().map_err(|_| {
            Broken::Damaged(format!("the Content-Length {length:?} is not a number"))
        })?;
        let record_type = header
            .field("warc-type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        if record_type == "response" && length <= MAX_BODY_BYTES {
            let block = self.read_block(length)?;
            self.read_record_end()?;
            self.classify_response(&header, &block);
        } else {
            self.skip_block(length)?;
            self.read_record_end()?;
            if record_type == "response" {
                self.note_unreadable(
                    &header,
                    format!(
                        "the response is {length} bytes, over the {} MiB a record may have",
                        MAX_BODY_BYTES >> 20
                    ),
                );
            }
            let skipped = &mut self.scan.skipped;
            match record_type.as_str() {
                "response" => skipped.too_large += 1,
                "revisit" => skipped.revisit += 1,
                _ => skipped.not_response += 1,
            }
        }
        Ok(true)
    }

    fn read_fields(&mut self) -> Result<Vec<(String, String)>, Broken> {
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            let line = self.read_line()?.ok_or_else(|| {
                Broken::Truncated("the archive ends inside a record header".into())
            })?;
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                return Ok(fields);
            }
            if fields.len() >= MAX_HEADER_LINES {
                return Err(Broken::Damaged(format!(
                    "the record header has more than {MAX_HEADER_LINES} lines"
                )));
            }
            if line.starts_with([' ', '\t']) {
                if let Some((_, value)) = fields.last_mut() {
                    value.push(' ');
                    value.push_str(line.trim());
                }
            } else if let Some((name, value)) = line.split_once(':') {
                fields.push((name.trim().to_string(), value.trim().to_string()));
            } else {
                return Err(Broken::Damaged(format!(
                    "{:?} is not a `Name: value` header line",
                    abbreviate(line)
                )));
            }
        }
    }

    fn read_block(&mut self, length: u64) -> Result<Vec<u8>, Broken> {
        let mut block = Vec::with_capacity(usize::try_from(length).unwrap_or(0).min(1 << 20));
        let read = (&mut self.stream)
            .take(length)
            .read_to_end(&mut block)
            .map_err(stream_error)?;
        if (read as u64) < length {
            return Err(Broken::Truncated(format!(
                "the archive ends after {read} of the block's {length} bytes"
            )));
        }
        Ok(block)
    }

    fn skip_block(&mut self, length: u64) -> Result<(), Broken> {
        let skipped = io::copy(&mut (&mut self.stream).take(length), &mut io::sink())
            .map_err(stream_error)?;
        if skipped < length {
            return Err(Broken::Truncated(format!(
                "the archive ends after {skipped} of the block's {length} bytes"
            )));
        }
        Ok(())
    }

    /// The two CRLFs after a block; anything else means Content-Length was wrong.
    fn read_record_end(&mut self) -> Result<(), Broken> {
        for _ in 0..2 {
            let start = self.stream.consumed();
            match self.read_line()? {
                // A missing final separator loses nothing.
                None => return Ok(()),
                Some(line) if line.trim().is_empty() => {}
                Some(line) => {
                    if line.starts_with("WARC/1.") {
                        self.pending_record = Some(start);
                    }
                    return Err(Broken::Damaged(format!(
                        "the block is not followed by a blank line but by {:?}: its Content-Length is wrong",
                        abbreviate(&line)
                    )));
                }
            }
        }
        Ok(())
    }

    fn note_unreadable(&mut self, header: &RecordHeader, cause: String) {
        self.scan.unreadable.push(UnreadableResponse {
            record: header.number,
            offset: header.offset,
            url: header.field("warc-target-uri").map(str::to_string),
            cause,
        });
    }

    fn classify_response(&mut self, header: &RecordHeader, block: &[u8]) {
        let mut response = match parse_response(block) {
            Ok(response) => response,
            Err(why) => {
                self.scan.skipped.undecodable += 1;
                self.note_unreadable(header, why.to_string());
                return;
            }
        };
        let skipped = &mut self.scan.skipped;
        if response.status != 200 {
            skipped.status_not_ok += 1;
            return;
        }
        let Some(url) = header.field("warc-target-uri").and_then(parse_target_uri) else {
            skipped.bad_target_uri += 1;
            return;
        };
        if let Err(
            why @ (Undecodable::UnknownContentEncoding(_) | Undecodable::CorruptContentEncoding(_)),
        ) = decode_body(&mut response)
        {
            self.scan.skipped.undecodable += 1;
            self.note_unreadable(header, why.to_string());
            return;
        }
        let content_type = response.header("content-type");
        if !is_html(content_type, &response.body) {
            skipped.not_html += 1;
            if self.keeps_stylesheets && content_type.is_some_and(is_css) {
                let content_type = content_type.map(str::to_string);
                self.scan
                    .stylesheets
                    .insert(&url, response.body, content_type);
            }
            return;
        }
        if !self.keeps_pages {
            return;
        }
        let charset = content_type.and_then(charset_from_content_type);
        self.scan.pages.push(WarcPage {
            page: FetchedPage {
                url,
                bytes: response.body,
                charset,
            },
            status: response.status,
            headers: response.headers,
            record: header.number,
            offset: header.offset,
        });
    }

    /// Skips to the next line that starts a WARC record, leaving it read as the pending line.
    fn resynchronize(&mut self) {
        if self.pending_record.is_some() {
            return;
        }
        loop {
            let start = self.stream.consumed();
            match self.read_line() {
                Ok(None) => return,
                Ok(Some(line)) if line.starts_with("WARC/1.") => {
                    self.pending_record = Some(start);
                    return;
                }
                // Undecodable stretches (a corrupt gzip member) are part of what is skipped.
                Ok(Some(_)) | Err(Broken::Damaged(_)) => {}
                Err(Broken::Truncated(_)) => return,
            }
        }
    }

    /// One line, lossily decoded and cut at [`MAX_HEADER_LINE`]; `None` at the end.
    fn read_line(&mut self) -> Result<Option<String>, Broken> {
        let mut line = Vec::new();
        loop {
            let buffer = self.stream.fill_buf().map_err(stream_error)?;
            if buffer.is_empty() {
                break;
            }
            let (take, done) = match buffer.iter().position(|&byte| byte == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            };
            let room = MAX_HEADER_LINE.saturating_sub(line.len());
            line.extend_from_slice(&buffer[..take.min(room)]);
            self.stream.consume(take);
            if done {
                break;
            }
        }
        if line.is_empty() {
            return Ok(None);
        }
        Ok(Some(String::from_utf8_lossy(&line).into_owned()))
    }
}

/// A read error of the underlying stream: a cut-off gzip member is truncation, anything else
/// is damage that resynchronization may get past.
fn stream_error(error: io::Error) -> Broken {
    match error.kind() {
        io::ErrorKind::UnexpectedEof => Broken::Truncated(error.to_string()),
        _ => Broken::Damaged(error.to_string()),
    }
}

/// Whether a `Content-Type` is CSS's.
fn is_css(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("text/css"))
}

/// `WARC-Target-URI`, which WARC/1.0 writers sometimes wrap in angle brackets.
fn parse_target_uri(value: &str) -> Option<Url> {
    let value = value.trim().trim_start_matches('<').trim_end_matches('>');
    let url = Url::parse(value).ok()?;
    matches!(url.scheme(), "http" | "https").then_some(url)
}

/// The start of a line for an error message.
fn abbreviate(line: &str) -> String {
    const SHOWN: usize = 60;
    let line = line.trim_end();
    match line.char_indices().nth(SHOWN) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}
