//! The HTML standard's "prescan a byte stream to determine its encoding" (§13.2.3.2): the
//! `<meta charset>` or `<meta http-equiv=Content-Type content="…charset=…">` a browser finds
//! in a page's first bytes. Comments, other tags and their attributes are stepped over as the
//! standard says, so a `charset` inside a comment, a script or another meta's `content` text
//! does not count, and a `content=` charset counts only beside `http-equiv=Content-Type`.

use encoding_rs::{Encoding, REPLACEMENT, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// Bytes the standard's tokenizer treats as whitespace here (tab, LF, FF, CR, space).
fn is_space(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// The encoding a `<meta>` in `head` declares, as a browser's prescan finds it. `head` is the
/// prescan window (the standard's 1024 bytes); a tag cut off by its end does not count.
///
/// One departure, for reading text rather than running it: the `replacement` encoding (labels
/// such as `iso-2022-kr`, which a browser decodes to a single U+FFFD to stop script smuggling)
/// counts as an unknown label, so the page's text is still detected.
pub(super) fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let mut scanner = Scanner { bytes: head, at: 0 };
    while scanner.at < head.len() {
        let rest = &head[scanner.at..];
        if rest.starts_with(b"<!--") {
            // The comment ends at the first `-->`; `<!-->` is a whole comment.
            match find(&rest[2..], b"-->") {
                Some(end) => scanner.at += 2 + end + 2,
                None => return None,
            }
        } else if starts_with_ignoring_case(rest, b"<meta")
            && rest.get(5).is_some_and(|&b| is_space(b) || b == b'/')
        {
            scanner.at += 5;
            if let Some(encoding) = scanner.meta_tag()? {
                return Some(encoding);
            }
        } else if rest.starts_with(b"<")
            && (rest.get(1).is_some_and(u8::is_ascii_alphabetic)
                || (rest.get(1) == Some(&b'/') && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // Another tag: its attributes are read (a `>` inside a quoted value does not end it).
            scanner.at += rest
                .iter()
                .position(|&b| is_space(b) || b == b'>')
                .unwrap_or(rest.len());
            while scanner.attribute()?.is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            scanner.at += rest.iter().position(|&b| b == b'>')?;
        }
        scanner.at += 1;
    }
    None
}

/// The prescan's position in the window. Every method returns `None` when the window ends
/// inside what it reads, which ends the prescan with no answer.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn current(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// The attributes of one `<meta>` (the position is just after `<meta`): `Some(encoding)`
    /// when they declare one the standard's way, `Some(None)` when they do not.
    fn meta_tag(&mut self) -> Option<Option<&'static Encoding>> {
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut got_pragma = false;
        // `None`: no charset yet; `Some(true)`: from `content`, valid only with the pragma.
        let mut need_pragma: Option<bool> = None;
        // `None` until a charset is named; `Some(None)` when the first one named is unknown.
        let mut charset: Option<Option<&'static Encoding>> = None;
        while let Some((name, value)) = self.attribute()? {
            if seen.contains(&name) {
                continue;
            }
            match name.as_slice() {
                b"http-equiv" => got_pragma |= value == b"content-type",
                b"content" => {
                    if charset.is_none()
                        && let Some(encoding) = charset_in_content(&value).and_then(encoding_for)
                    {
                        charset = Some(Some(encoding));
                        need_pragma = Some(true);
                    }
                }
                b"charset" if charset.is_none() => {
                    charset = Some(encoding_for(&value));
                    need_pragma = Some(false);
                }
                _ => {}
            }
            seen.push(name);
        }
        let declared = match need_pragma {
            None => None,
            Some(true) if !got_pragma => None,
            Some(_) => charset.flatten(),
        };
        Some(declared.map(|encoding| {
            if encoding.name().starts_with("UTF-16") {
                // A page that names UTF-16 in a meta tag is ASCII-compatible bytes: a real
                // UTF-16 page has a byte-order mark.
                UTF_8
            } else if encoding == X_USER_DEFINED {
                WINDOWS_1252
            } else {
                encoding
            }
        }))
    }

    /// The standard's "get an attribute": `Some(Some((name, value)))` lower-cased, `Some(None)`
    /// at the tag's `>`.
    fn attribute(&mut self) -> Option<Option<(Vec<u8>, Vec<u8>)>> {
        while is_space(self.current()?) || self.current()? == b'/' {
            self.at += 1;
        }
        if self.current()? == b'>' {
            return Some(None);
        }
        let mut name = Vec::new();
        loop {
            let byte = self.current()?;
            match byte {
                b'=' if !name.is_empty() => break,
                b'/' | b'>' => return Some(Some((name, Vec::new()))),
                _ if is_space(byte) => {
                    while is_space(self.current()?) {
                        self.at += 1;
                    }
                    if self.current()? != b'=' {
                        return Some(Some((name, Vec::new())));
                    }
                    break;
                }
                _ => name.push(byte.to_ascii_lowercase()),
            }
            self.at += 1;
        }
        // At the `=`.
        self.at += 1;
        while is_space(self.current()?) {
            self.at += 1;
        }
        let mut value = Vec::new();
        let first = self.current()?;
        if first == b'"' || first == b'\'' {
            loop {
                self.at += 1;
                let byte = self.current()?;
                if byte == first {
                    self.at += 1;
                    return Some(Some((name, value)));
                }
                value.push(byte.to_ascii_lowercase());
            }
        }
        if first == b'>' {
            return Some(Some((name, value)));
        }
        loop {
            let byte = self.current()?;
            if is_space(byte) || byte == b'>' {
                return Some(Some((name, value)));
            }
            value.push(byte.to_ascii_lowercase());
            self.at += 1;
        }
    }
}

/// The standard's "extracting a character encoding from a meta element": the value after the
/// first `charset` followed by `=` in a `content` attribute, quoted or up to a space or `;`.
fn charset_in_content(content: &[u8]) -> Option<&[u8]> {
    let mut from = 0;
    loop {
        from += find(&content[from..], b"charset")? + b"charset".len();
        let mut at = from;
        while content.get(at).copied().is_some_and(is_space) {
            at += 1;
        }
        if content.get(at) != Some(&b'=') {
            continue;
        }
        at += 1;
        while content.get(at).copied().is_some_and(is_space) {
            at += 1;
        }
        let rest = &content[at..];
        return match rest.first()? {
            quote @ (b'"' | b'\'') => {
                let end = rest[1..].iter().position(|b| b == quote)?;
                Some(&rest[1..1 + end])
            }
            _ => {
                let end = rest
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .unwrap_or(rest.len());
                Some(&rest[..end])
            }
        };
    }
}

/// The encoding a label names, the `replacement` encoding taken as none (see [`meta_charset`]).
pub(super) fn encoding_for(label: &[u8]) -> Option<&'static Encoding> {
    Encoding::for_label(label).filter(|encoding| *encoding != REPLACEMENT)
}

/// The page up to its first `<body` tag (all of it when there is none): where a late
/// declaration may stand.
pub(super) fn head(page: &[u8]) -> &[u8] {
    let end = page
        .windows(5)
        .position(|window| window.eq_ignore_ascii_case(b"<body"))
        .unwrap_or(page.len());
    &page[..end]
}

fn starts_with_ignoring_case(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{SHIFT_JIS, WINDOWS_1251};

    #[test]
    fn both_meta_forms_declare_an_encoding() {
        assert_eq!(
            meta_charset(b"<META CharSet='KOI8-R'>"),
            Some(encoding_rs::KOI8_R)
        );
        let pragma = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=shift_jis\">";
        assert_eq!(meta_charset(pragma), Some(SHIFT_JIS));
        let content_first =
            b"<meta content='text/html;charset = \"windows-1251\"' http-equiv=content-type>";
        assert_eq!(meta_charset(content_first), Some(WINDOWS_1251));
    }

    #[test]
    fn a_content_charset_needs_the_content_type_pragma() {
        let no_pragma = b"<meta name=description content='charset=shift_jis'><p>";
        assert_eq!(meta_charset(no_pragma), None);
    }

    #[test]
    fn charsets_in_comments_and_other_tags_do_not_count() {
        let page = b"<!-- <meta charset=shift_jis> --><script data-x='<meta charset=koi8-r>'>\
            </script><meta charset=windows-1251>";
        assert_eq!(meta_charset(page), Some(WINDOWS_1251));
        assert_eq!(
            meta_charset(b"<!--><meta charset=koi8-r>"),
            Some(encoding_rs::KOI8_R)
        );
    }

    #[test]
    fn the_first_of_two_charset_attributes_wins_and_unknown_labels_are_skipped() {
        assert_eq!(
            meta_charset(b"<meta charset=windows-1251 charset=shift_jis>"),
            Some(WINDOWS_1251)
        );
        assert_eq!(
            meta_charset(b"<meta charset=no-such-thing><meta charset=shift_jis>"),
            Some(SHIFT_JIS)
        );
    }

    #[test]
    fn utf16_and_x_user_defined_and_replacement_are_mapped_as_for_reading() {
        assert_eq!(meta_charset(b"<meta charset=utf-16le>"), Some(UTF_8));
        assert_eq!(
            meta_charset(b"<meta charset=x-user-defined>"),
            Some(WINDOWS_1252)
        );
        assert_eq!(meta_charset(b"<meta charset=iso-2022-kr>"), None);
    }

    #[test]
    fn a_tag_cut_off_by_the_window_declares_nothing() {
        assert_eq!(meta_charset(b"<meta charset=\"shift_jis"), None);
        assert_eq!(meta_charset(b"<meta"), None);
    }
}
