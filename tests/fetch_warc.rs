//! WARC reading: records built in the test the way wget and Heritrix write them, plain and as
//! one gzip member per record, whole, damaged in the middle, and cut short.

use std::io::Write;
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;
use pagelevel::fetch::{
    FetchError, group_by_host, parse_warc, read_warc, read_warc_with_stylesheets, scan_warc,
};

/// One WARC record: type, target URI and block, serialized as WARC/1.1.
struct Record {
    warc_type: &'static str,
    target: &'static str,
    block: Vec<u8>,
}

impl Record {
    fn response(target: &'static str, status_line: &str, headers: &[&str], body: &[u8]) -> Self {
        let mut block = format!("{status_line}\r\n").into_bytes();
        for header in headers {
            block.extend_from_slice(format!("{header}\r\n").as_bytes());
        }
        block.extend_from_slice(b"\r\n");
        block.extend_from_slice(body);
        Record {
            warc_type: "response",
            target,
            block,
        }
    }

    fn html(target: &'static str, body: &str) -> Self {
        Record::response(
            target,
            "HTTP/1.1 200 OK",
            &[
                "Content-Type: text/html; charset=ISO-8859-1",
                "Server: test",
            ],
            body.as_bytes(),
        )
    }

    fn of_type(warc_type: &'static str, target: &'static str, block: &[u8]) -> Self {
        Record {
            warc_type,
            target,
            block: block.to_vec(),
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = format!(
            "WARC/1.1\r\nWARC-Type: {}\r\nWARC-Target-URI: {}\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n\
             WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n\
             Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            self.warc_type,
            self.target,
            self.block.len()
        )
        .into_bytes();
        bytes.extend_from_slice(&self.block);
        bytes.extend_from_slice(b"\r\n\r\n");
        bytes
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).expect("writing to a Vec");
    encoder.finish().expect("writing to a Vec")
}

fn plain_archive(records: &[Record]) -> Vec<u8> {
    records.iter().flat_map(Record::to_bytes).collect()
}

/// One gzip member per record, as the WARC standard recommends.
fn gzip_archive(records: &[Record]) -> Vec<u8> {
    records
        .iter()
        .flat_map(|record| gzip(&record.to_bytes()))
        .collect()
}

fn warcinfo() -> Record {
    Record::of_type(
        "warcinfo",
        "",
        b"software: pagelevel-test\r\nformat: WARC File Format 1.1\r\n",
    )
}

fn typical_crawl() -> Vec<Record> {
    vec![
        warcinfo(),
        Record::of_type(
            "request",
            "http://example.org/",
            b"GET / HTTP/1.1\r\nHost: example.org\r\n\r\n",
        ),
        Record::html(
            "http://example.org/",
            "<html><title>Home</title><p>home</p></html>",
        ),
        Record::response(
            "http://example.org/style.css",
            "HTTP/1.1 200 OK",
            &["Content-Type: text/css"],
            b"p { color: red }",
        ),
        Record::response(
            "http://example.org/old",
            "HTTP/1.1 301 Moved Permanently",
            &["Location: http://example.org/new"],
            b"",
        ),
        Record::of_type("revisit", "http://example.org/", b"HTTP/1.1 200 OK\r\n\r\n"),
        Record::html("http://other.example.net:8080/a", "<p>other site</p>"),
        Record::html("<http://example.org/about>", "<p>about</p>"),
    ]
}

fn write_temp(bytes: &[u8], suffix: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(suffix)
        .tempfile()
        .expect("a temporary file");
    file.write_all(bytes).expect("writing the archive");
    file
}

#[test]
fn html_responses_with_status_200_are_the_pages_of_a_plain_archive() {
    let file = write_temp(&plain_archive(&typical_crawl()), ".warc");
    let scan = scan_warc(file.path()).expect("a valid archive");
    let urls: Vec<&str> = scan
        .pages
        .iter()
        .map(|page| page.page.url.as_str())
        .collect();
    assert_eq!(
        urls,
        [
            "http://example.org/",
            "http://other.example.net:8080/a",
            "http://example.org/about"
        ]
    );
    assert_eq!(scan.records, 8);
    assert_eq!(scan.skipped.not_response, 2);
    assert_eq!(scan.skipped.revisit, 1);
    assert_eq!(scan.skipped.status_not_ok, 1);
    assert_eq!(scan.skipped.not_html, 1);
    assert!(scan.damage.is_empty());
    let home = &scan.pages[0];
    assert_eq!(
        home.page.bytes,
        b"<html><title>Home</title><p>home</p></html>"
    );
    assert_eq!(home.page.charset.as_deref(), Some("ISO-8859-1"));
    assert_eq!(home.status, 200);
    assert_eq!(home.record, 3);
    assert!(
        home.headers
            .contains(&("Server".to_string(), "test".to_string()))
    );
}

#[test]
fn a_gzip_archive_of_one_member_per_record_reads_like_the_plain_one() {
    let plain = write_temp(&plain_archive(&typical_crawl()), ".warc");
    let compressed = write_temp(&gzip_archive(&typical_crawl()), ".warc.gz");
    let from_plain = read_warc(plain.path()).expect("a valid archive");
    let from_gzip = read_warc(compressed.path()).expect("a valid archive");
    assert_eq!(from_gzip, from_plain);
}

#[test]
fn a_whole_archive_compressed_as_one_member_is_read_too() {
    let file = write_temp(&gzip(&plain_archive(&typical_crawl())), ".warc.gz");
    assert_eq!(read_warc(file.path()).expect("a valid archive").len(), 3);
}

#[test]
fn chunked_and_gzipped_http_bodies_are_decoded() {
    let page = b"<!DOCTYPE html><html><body>chunked and gzipped</body></html>";
    let compressed = gzip(page);
    let mut chunked = format!("{:x}\r\n", compressed.len()).into_bytes();
    chunked.extend_from_slice(&compressed);
    chunked.extend_from_slice(b"\r\n0\r\n\r\n");
    let record = Record::response(
        "https://example.org/encoded",
        "HTTP/1.1 200 OK",
        &[
            "Content-Type: text/html",
            "Transfer-Encoding: chunked",
            "Content-Encoding: gzip",
        ],
        &chunked,
    );
    let scan = parse_warc(
        plain_archive(&[record]).as_slice(),
        Path::new("encoded.warc"),
    )
    .expect("a valid archive");
    assert_eq!(scan.pages[0].page.bytes, page);
    assert_eq!(scan.pages[0].page.charset, None);
}

#[test]
fn a_record_with_a_wrong_length_is_skipped_and_reading_resumes_at_the_next_record() {
    let records = typical_crawl();
    let mut bytes = plain_archive(&records[..3]);
    let broken = Record::html("http://example.org/broken", "<p>broken</p>");
    let length = format!("Content-Length: {}", broken.block.len());
    let text = String::from_utf8(broken.to_bytes()).expect("ASCII record");
    bytes.extend_from_slice(text.replace(&length, "Content-Length: 12").as_bytes());
    bytes.extend_from_slice(&plain_archive(&records[6..]));
    let scan = parse_warc(bytes.as_slice(), Path::new("damaged.warc")).expect("resynchronizes");
    let urls: Vec<&str> = scan
        .pages
        .iter()
        .map(|page| page.page.url.as_str())
        .collect();
    assert_eq!(
        urls,
        [
            "http://example.org/",
            "http://other.example.net:8080/a",
            "http://example.org/about"
        ]
    );
    assert_eq!(scan.damage.len(), 1);
    assert_eq!(scan.damage[0].record, 4);
    assert_eq!(
        scan.pages[1].record, 5,
        "the record after the damage is the next one"
    );
    let resumed_at = bytes.len() - plain_archive(&records[6..]).len();
    assert_eq!(scan.pages[1].offset, resumed_at as u64);
    assert!(!scan.damage[0].truncated);
    assert!(scan.damage[0].cause.contains("Content-Length"));
}

#[test]
fn a_corrupt_gzip_member_costs_only_its_own_record() {
    let records = typical_crawl();
    let mut members: Vec<Vec<u8>> = records.iter().map(|r| gzip(&r.to_bytes())).collect();
    let middle = members[6].len() / 2;
    for byte in &mut members[6][middle..middle + 8] {
        *byte ^= 0x5a;
    }
    let bytes: Vec<u8> = members.concat();
    let scan = parse_warc(bytes.as_slice(), Path::new("corrupt.warc.gz")).expect("resynchronizes");
    let urls: Vec<&str> = scan
        .pages
        .iter()
        .map(|page| page.page.url.as_str())
        .collect();
    assert_eq!(urls, ["http://example.org/", "http://example.org/about"]);
    assert_eq!(scan.damage.len(), 1);
    assert_eq!(scan.damage[0].record, 7, "{:?}", scan.damage);
}

#[test]
fn a_truncated_archive_is_an_error_naming_the_file_record_and_offset() {
    let bytes = plain_archive(&typical_crawl());
    let file = write_temp(&bytes[..bytes.len() - 20], ".warc");
    let error = read_warc(file.path()).expect_err("the last record is cut short");
    let FetchError::WarcTruncated { record, offset, .. } = &error else {
        panic!("expected a truncation error, got {error}");
    };
    assert_eq!(*record, 8);
    let last = typical_crawl().pop().expect("a record").to_bytes();
    assert_eq!(*offset, (bytes.len() - last.len()) as u64);
    let message = error.to_string();
    assert!(
        message.contains(&file.path().display().to_string()),
        "{message}"
    );
    assert!(message.contains("record 8"), "{message}");

    let scan = scan_warc(file.path()).expect("the records before the cut are readable");
    assert_eq!(scan.pages.len(), 2);
    assert!(scan.damage[0].truncated);
}

#[test]
fn a_truncated_gzip_archive_is_an_error_too() {
    let bytes = gzip_archive(&typical_crawl());
    let file = write_temp(&bytes[..bytes.len() - 30], ".warc.gz");
    assert!(matches!(
        read_warc(file.path()),
        Err(FetchError::WarcTruncated { record: 8, .. })
    ));
}

#[test]
fn a_file_that_is_not_a_warc_is_rejected_by_name() {
    let file = write_temp(b"<html><p>just a page</p></html>\n", ".warc");
    let error = read_warc(file.path()).expect_err("not a WARC");
    assert!(matches!(error, FetchError::NotWarc { .. }));
    assert!(error.to_string().contains("is not a WARC file"));
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let error = read_warc(Path::new("/nonexistent/crawl.warc.gz")).expect_err("no such file");
    assert!(error.to_string().contains("/nonexistent/crawl.warc.gz"));
}

#[test]
fn pages_are_grouped_by_host_in_archive_order_keeping_first_captures() {
    let mut records = typical_crawl();
    records.push(Record::html("http://example.org/", "<p>second capture</p>"));
    let pages = parse_warc(plain_archive(&records).as_slice(), Path::new("sites.warc"))
        .expect("a valid archive")
        .pages;
    let sites = group_by_host(pages);
    let hosts: Vec<&str> = sites.keys().map(String::as_str).collect();
    assert_eq!(hosts, ["example.org", "other.example.net:8080"]);
    let example: Vec<&str> = sites["example.org"]
        .iter()
        .map(|page| page.page.url.path())
        .collect();
    assert_eq!(example, ["/", "/about"]);
    assert_eq!(
        sites["example.org"][0].page.bytes,
        b"<html><title>Home</title><p>home</p></html>"
    );
}

#[test]
fn a_scan_keeps_the_archived_stylesheets_by_url_and_a_stream_of_pages_keeps_none() {
    let file = write_temp(&plain_archive(&typical_crawl()), ".warc");
    let scan = scan_warc(file.path()).expect("a valid archive");
    let url = url::Url::parse("http://example.org/style.css").expect("a URL");
    let sheet = scan.stylesheets.get(&url).expect("the stylesheet is kept");
    assert_eq!(sheet.css, b"p { color: red }");
    assert_eq!(sheet.content_type.as_deref(), Some("text/css"));
    assert_eq!(
        scan.stylesheets.len(),
        1,
        "only text/css responses with status 200"
    );
    let (pages, stylesheets) = read_warc_with_stylesheets(file.path()).expect("a valid archive");
    assert_eq!((pages.len(), stylesheets), (3, scan.stylesheets));
}
