//! The HTTP response stored in a WARC `response` record's block: status line, headers, and the
//! body with its transfer and content encodings undone.
//!
//! WARC writers differ: wget and Heritrix store the bytes as received (chunked, gzipped), others
//! store the decoded body but keep the original headers. So each decoding is applied only when
//! the bytes actually look encoded, and a body that is already plain is taken as it is.

use std::io::Read;

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

/// Largest body kept after decompression; a bigger one is a decompression bomb, not a page.
pub(super) const MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;

/// A parsed HTTP response.
#[derive(Debug)]
pub(super) struct StoredResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// Why a stored response could not be turned into a page.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Undecodable {
    NoStatusLine,
    UnknownContentEncoding(String),
    CorruptContentEncoding(String),
}

impl std::fmt::Display for Undecodable {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecodable::NoStatusLine => {
                formatter.write_str("the HTTP response head has no valid status line")
            }
            Undecodable::UnknownContentEncoding(coding) => {
                write!(
                    formatter,
                    "the body's content encoding {coding:?} is not supported"
                )
            }
            Undecodable::CorruptContentEncoding(cause) => {
                write!(formatter, "the body's content encoding is corrupt: {cause}")
            }
        }
    }
}

impl StoredResponse {
    /// The value of the first header with this (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Parses the status line and headers; the body is returned still encoded.
pub(super) fn parse_response(block: &[u8]) -> Result<StoredResponse, Undecodable> {
    let (head, body) = split_head(block).ok_or(Undecodable::NoStatusLine)?;
    let head = String::from_utf8_lossy(head);
    let mut lines = head.lines();
    let status_line = lines.next().ok_or(Undecodable::NoStatusLine)?;
    let mut parts = status_line.split_whitespace();
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/") {
        return Err(Undecodable::NoStatusLine);
    }
    let status = parts
        .next()
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or(Undecodable::NoStatusLine)?;
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in lines {
        if line.starts_with([' ', '\t']) {
            // An obsolete folded continuation line (RFC 9112 §5.2) belongs to the header above.
            if let Some((_, value)) = headers.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    Ok(StoredResponse {
        status,
        headers,
        body: body.to_vec(),
    })
}

/// Undoes `Transfer-Encoding: chunked` and `Content-Encoding` where the body is still encoded.
pub(super) fn decode_body(response: &mut StoredResponse) -> Result<(), Undecodable> {
    let chunked = response
        .header("transfer-encoding")
        .is_some_and(|coding| coding.to_ascii_lowercase().contains("chunked"));
    if chunked && let Some(body) = dechunk(&response.body) {
        response.body = body;
    }
    let coding = response
        .header("content-encoding")
        .map(|coding| coding.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let body = std::mem::take(&mut response.body);
    response.body = match coding.as_str() {
        "" | "identity" | "none" => body,
        "gzip" | "x-gzip" if body.starts_with(&[0x1f, 0x8b]) => {
            inflate(MultiGzDecoder::new(body.as_slice()), &coding)?
        }
        "deflate" if looks_like_zlib(&body) => inflate(ZlibDecoder::new(body.as_slice()), &coding)?,
        "deflate" => match inflate(DeflateDecoder::new(body.as_slice()), &coding) {
            Ok(inflated) => inflated,
            // Not raw deflate either: the writer already decoded it.
            Err(_) => body,
        },
        // Headers say gzip but the bytes are not: the writer stored the decoded body.
        "gzip" | "x-gzip" => body,
        other => return Err(Undecodable::UnknownContentEncoding(other.to_string())),
    };
    Ok(())
}

fn inflate(decoder: impl Read, coding: &str) -> Result<Vec<u8>, Undecodable> {
    let mut inflated = Vec::new();
    match decoder.take(MAX_BODY_BYTES).read_to_end(&mut inflated) {
        Ok(_) => Ok(inflated),
        // A body cut short still renders in a browser; keep what decoded.
        Err(_) if !inflated.is_empty() => Ok(inflated),
        Err(error) => Err(Undecodable::CorruptContentEncoding(format!(
            "{coding}: {error}"
        ))),
    }
}

/// A zlib stream starts with a CMF byte for deflate (low nibble 8) and a check over two bytes.
fn looks_like_zlib(body: &[u8]) -> bool {
    match body {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// Splits a response at the blank line after its headers (CRLF CRLF, or bare LF LF).
fn split_head(block: &[u8]) -> Option<(&[u8], &[u8])> {
    let crlf = find(block, b"\r\n\r\n").map(|at| (at, at + 4));
    let lf = find(block, b"\n\n").map(|at| (at, at + 2));
    let (head_end, body_start) = match (crlf, lf) {
        (Some(crlf), Some(lf)) => {
            if lf.0 < crlf.0 {
                lf
            } else {
                crlf
            }
        }
        (Some(found), None) | (None, Some(found)) => found,
        // Headers with no body at all.
        (None, None) => (block.len(), block.len()),
    };
    Some((&block[..head_end], &block[body_start..]))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Decodes a chunked body (RFC 9112 §7.1). `None` when it does not start with a chunk size,
/// i.e. the writer already removed the chunking; a body cut short keeps its complete chunks.
pub(super) fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut decoded = Vec::with_capacity(body.len());
    let mut rest = body;
    let mut first = true;
    loop {
        let line_end = find(rest, b"\n")?;
        let size_line = String::from_utf8_lossy(&rest[..line_end]);
        let size_text = size_line.split(';').next().unwrap_or_default().trim();
        let size = match usize::from_str_radix(size_text, 16) {
            Ok(size) => size,
            Err(_) if first => return None,
            Err(_) => return Some(decoded),
        };
        first = false;
        rest = &rest[line_end + 1..];
        if size == 0 {
            return Some(decoded);
        }
        let take = size.min(rest.len());
        decoded.extend_from_slice(&rest[..take]);
        if take < size {
            return Some(decoded);
        }
        rest = &rest[take..];
        rest = rest
            .strip_prefix(b"\r\n")
            .or_else(|| rest.strip_prefix(b"\n"))
            .unwrap_or(rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(bytes).expect("writing to a Vec");
        encoder.finish().expect("writing to a Vec")
    }

    #[test]
    fn status_headers_and_folded_lines_are_parsed() {
        let response = parse_response(
            b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html;\r\n charset=utf-8\r\nX: 1\r\n\r\n<p>",
        )
        .expect("a valid response");
        assert_eq!(response.status, 404);
        assert_eq!(
            response.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(response.body, b"<p>");
    }

    #[test]
    fn a_block_without_a_status_line_is_undecodable() {
        assert_eq!(
            parse_response(b"<html>hello</html>").err(),
            Some(Undecodable::NoStatusLine)
        );
    }

    #[test]
    fn chunked_bodies_are_joined_and_plain_bodies_left_alone() {
        assert_eq!(
            dechunk(b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n").as_deref(),
            Some(&b"hello world"[..])
        );
        assert_eq!(dechunk(b"<html>"), None);
        assert_eq!(dechunk(b"5\r\nhel").as_deref(), Some(&b"hel"[..]));
    }

    #[test]
    fn gzip_is_undone_only_when_the_body_is_still_gzipped() {
        let mut encoded = parse_response(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n")
            .expect("a valid response");
        encoded.body = gzip(b"<html>page</html>");
        decode_body(&mut encoded).expect("valid gzip");
        assert_eq!(encoded.body, b"<html>page</html>");

        let mut already_decoded =
            parse_response(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n<html>")
                .expect("a valid response");
        decode_body(&mut already_decoded).expect("plain body");
        assert_eq!(already_decoded.body, b"<html>");
    }

    #[test]
    fn chunked_gzip_is_dechunked_then_inflated() {
        let compressed = gzip(b"<html>both</html>");
        let mut block =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n"
                .to_vec();
        block.extend_from_slice(format!("{:x}\r\n", compressed.len()).as_bytes());
        block.extend_from_slice(&compressed);
        block.extend_from_slice(b"\r\n0\r\n\r\n");
        let mut response = parse_response(&block).expect("a valid response");
        decode_body(&mut response).expect("valid encodings");
        assert_eq!(response.body, b"<html>both</html>");
    }

    #[test]
    fn brotli_is_reported_as_an_unknown_encoding() {
        let mut response =
            parse_response(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\x0b\x02")
                .expect("a valid response");
        assert_eq!(
            decode_body(&mut response),
            Err(Undecodable::UnknownContentEncoding("br".into()))
        );
    }
}
