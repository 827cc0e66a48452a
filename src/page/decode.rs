//! Turning a page's bytes into text: the character encoding is taken, in order of authority, from a
//! byte-order mark, the HTTP `Content-Type` charset when known, a `<meta charset>` (or
//! `http-equiv` Content-Type) in the first 1024 bytes, and otherwise UTF-8 when the bytes are valid
//! UTF-8, else windows-1252 — the order the HTML standard's encoding sniffing uses, minus the
//! locale guess (a web archive's pages are mostly UTF-8 or Western).
//!
//! One departure, measured on our datasets: a `<meta>` declaration is overruled when the bytes are
//! valid UTF-8 and contain non-ASCII characters. Saved pages are often re-encoded to UTF-8 by the
//! crawler while keeping their old declaration (L3S-GN1 has such pages: `charset=ISO-8859-1` over
//! UTF-8 bytes, which would read as `Kosovoâ€™s`); legacy-encoded text that happens to be valid
//! UTF-8 is vanishingly rare once it has any non-ASCII byte.

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

/// How many leading bytes are searched for a `<meta charset>`, as in the HTML standard's prescan.
const PRESCAN_BYTES: usize = 1024;

/// Text of a page and the encoding it was decoded from.
#[derive(Debug, Clone)]
pub struct DecodedText {
    /// The page as Unicode text; undecodable bytes become U+FFFD.
    pub text: String,
    /// The encoding's WHATWG name, e.g. `UTF-8`, `windows-1252`, `Shift_JIS`.
    pub encoding: &'static str,
}

/// Decodes page bytes; `http_charset` is the `charset` parameter of the HTTP Content-Type, if any.
pub fn decode(bytes: &[u8], http_charset: Option<&str>) -> DecodedText {
    let encoding = Encoding::for_bom(bytes)
        .map(|(encoding, _)| encoding)
        .or_else(|| http_charset.and_then(|label| Encoding::for_label(label.trim().as_bytes())))
        .or_else(|| {
            meta_charset(&bytes[..bytes.len().min(PRESCAN_BYTES)])
                .filter(|declared| *declared == UTF_8 || !is_non_ascii_utf8(bytes))
        })
        .unwrap_or_else(|| {
            if std::str::from_utf8(bytes).is_ok() {
                UTF_8
            } else {
                WINDOWS_1252
            }
        });
    // `decode` honours a BOM over the given encoding and strips it, as browsers do.
    let (text, used, _) = encoding.decode(bytes);
    DecodedText {
        text: text.into_owned(),
        encoding: used.name(),
    }
}

/// True for valid UTF-8 that is not plain ASCII.
fn is_non_ascii_utf8(bytes: &[u8]) -> bool {
    !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok()
}

/// Finds the encoding named by a `<meta charset=…>` or `<meta http-equiv=Content-Type
/// content="…; charset=…">` in the prescan window. A page that declares UTF-16 in a meta tag is
/// read as UTF-8, as the standard requires (a real UTF-16 page has a BOM).
fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let mut from = 0;
    while let Some(offset) = find(&lower[from..], b"<meta") {
        let tag_start = from + offset;
        let tag_end = lower[tag_start..]
            .iter()
            .position(|&b| b == b'>')
            .map_or(lower.len(), |end| tag_start + end);
        let tag = &lower[tag_start..tag_end];
        if let Some(at) = find(tag, b"charset") {
            let label = charset_value(&tag[at + b"charset".len()..]);
            if let Some(encoding) = Encoding::for_label(label) {
                let is_utf16 = encoding.name().starts_with("UTF-16");
                return Some(if is_utf16 { UTF_8 } else { encoding });
            }
        }
        from = tag_end;
    }
    None
}

/// The value after `charset`: skips `=`, spaces and quotes, stops at a quote, space, `;` or `/`.
fn charset_value(after_name: &[u8]) -> &[u8] {
    let start = after_name
        .iter()
        .position(|&b| !matches!(b, b'=' | b' ' | b'"' | b'\'' | b'\t' | b'\n' | b'\r'))
        .unwrap_or(after_name.len());
    let rest = &after_name[start..];
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'"' | b'\'' | b' ' | b';' | b'/' | b'>' | b'\t' | b'\n'))
        .unwrap_or(rest.len());
    &rest[..end]
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meta_charset_decides_when_there_is_no_bom_or_header() {
        let page = b"<html><head><meta charset=\"iso-8859-1\"></head><body>caf\xe9</body></html>";
        let decoded = decode(page, None);
        assert_eq!(decoded.encoding, "windows-1252");
        assert!(decoded.text.contains("café"));
    }

    #[test]
    fn a_latin1_declaration_over_utf8_bytes_is_read_as_utf8() {
        let page = "<meta charset=ISO-8859-1><p>Kosovo\u{2019}s future</p>".as_bytes();
        let decoded = decode(page, None);
        assert_eq!(decoded.encoding, "UTF-8");
        assert!(decoded.text.contains("Kosovo\u{2019}s"));
    }

    #[test]
    fn an_http_equiv_content_type_names_the_charset() {
        let page =
            b"<meta http-equiv='Content-Type' content='text/html; charset=Shift_JIS'>\x93\xfa";
        assert_eq!(decode(page, None).encoding, "Shift_JIS");
    }

    #[test]
    fn a_bom_overrides_the_header_and_the_meta_tag() {
        let page = b"\xef\xbb\xbf<meta charset=latin1>caf\xc3\xa9";
        let decoded = decode(page, Some("koi8-r"));
        assert_eq!(decoded.encoding, "UTF-8");
        assert!(decoded.text.ends_with("café"));
    }

    #[test]
    fn the_http_header_overrides_the_meta_tag() {
        assert_eq!(
            decode(b"<meta charset=utf-8>", Some("windows-1251")).encoding,
            "windows-1251"
        );
    }

    #[test]
    fn undeclared_invalid_utf8_falls_back_to_windows_1252() {
        let decoded = decode(b"<p>\x93quoted\x94</p>", None);
        assert_eq!(decoded.encoding, "windows-1252");
        assert!(decoded.text.contains('\u{201c}'));
    }

    #[test]
    fn a_meta_tag_declaring_utf16_is_read_as_utf8() {
        assert_eq!(
            decode(b"<meta charset=utf-16><p>x</p>", None).encoding,
            "UTF-8"
        );
    }
}
