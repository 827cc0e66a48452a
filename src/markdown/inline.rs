//! Inline Markdown: a paragraph's text as it is written, whitespace collapsed the way a browser
//! collapses it, and every character that Markdown would read as markup escaped, so a literal
//! `*`, `|` or `[` in the page stays text.

/// A run of inline Markdown being written: the text so far, and whether whitespace is owed
/// before it (leading) or before whatever comes next (pending).
#[derive(Debug, Default)]
pub(super) struct Inline {
    pub(super) text: String,
    /// Whitespace came before the first character: the enclosing run owes a space.
    pub(super) space_before: bool,
    /// Whitespace came after the last character: the next word owes a space.
    pub(super) pending_space: bool,
}

/// A hard line break (`<br>`): CommonMark's backslash form, visible and kept by editors that
/// strip trailing spaces.
pub(super) const HARD_BREAK: &str = "\\\n";

impl Inline {
    pub(super) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Whitespace: at most one space, and none at a line's start.
    pub(super) fn space(&mut self) {
        if self.text.is_empty() {
            self.space_before = true;
        } else {
            self.pending_space = true;
        }
    }

    /// Appends Markdown as it is (already escaped or markup), after an owed space.
    pub(super) fn push_markdown(&mut self, markdown: &str) {
        if markdown.is_empty() {
            return;
        }
        if self.pending_space && !self.text.ends_with('\n') {
            self.text.push(' ');
        }
        self.pending_space = false;
        self.text.push_str(markdown);
    }

    /// Appends a text node's text: whitespace collapsed, markup characters escaped unless
    /// `verbatim` (inside a code span).
    pub(super) fn push_text(&mut self, raw: &str, verbatim: bool) {
        if raw.starts_with(char::is_whitespace) {
            self.space();
        }
        let mut words = raw.split_whitespace().peekable();
        while let Some(word) = words.next() {
            if verbatim {
                self.push_markdown(word);
            } else {
                self.push_markdown(&escape_text(word));
            }
            if words.peek().is_some() {
                self.space();
            }
        }
        if raw.ends_with(char::is_whitespace) {
            self.space();
        }
    }

    /// A `<br>`: a hard break, except at the start of the run (nothing to break from).
    pub(super) fn hard_break(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push_str(HARD_BREAK);
            self.pending_space = false;
        }
    }

    /// The run as one paragraph: trailing breaks dropped, and each line's start escaped where
    /// Markdown would read it as a heading, quote, list item or rule.
    pub(super) fn into_paragraph(self) -> String {
        let mut text = self.text.as_str();
        while let Some(stripped) = text.strip_suffix(HARD_BREAK) {
            text = stripped;
        }
        text.split('\n')
            .map(escape_line_start)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Escapes the characters that would start markup anywhere in a line: `\`, `*`, `` ` ``, `[`,
/// `]`, `<`, `|` (a table cell's end), `~` (strikethrough), `_` where it could open or close
/// emphasis (not between two letters or digits: `snake_case` stays as it is), and `&` where it
/// would start a character reference.
pub(super) fn escape_text(word: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mut escaped = String::with_capacity(word.len() + 4);
    for (index, &c) in chars.iter().enumerate() {
        let needs_escape = match c {
            '\\' | '*' | '`' | '[' | ']' | '<' | '|' | '~' => true,
            '_' => {
                let alphanumeric_at = |at: Option<usize>| {
                    at.and_then(|at| chars.get(at))
                        .is_some_and(|c| c.is_alphanumeric())
                };
                !(alphanumeric_at(index.checked_sub(1)) && alphanumeric_at(Some(index + 1)))
            }
            '&' => starts_character_reference(&chars[index + 1..]),
            _ => false,
        };
        if needs_escape {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Plain text as a paragraph's Markdown: its characters and its line start escaped.
pub(super) fn escape_paragraph(text: &str) -> String {
    escape_line_start(&escape_text(text))
}

/// Whether the text after an `&` reads as a character reference (`amp;`, `#39;`, `#x27;`).
fn starts_character_reference(after: &[char]) -> bool {
    let name_end = after
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || *c == '#'))
        .unwrap_or(after.len());
    name_end > 0 && after.get(name_end) == Some(&';')
}

/// Escapes a line's start where Markdown would read it as block markup: `#` (heading), `>`
/// (quote), `-`/`+` and a space (list item), `1.`/`1)` and a space (ordered list item), a line
/// of `=` or `-` alone (a heading underline).
fn escape_line_start(line: &str) -> String {
    let first = line.chars().next();
    let after_first = line.get(1..).unwrap_or("");
    let is_rule =
        !line.is_empty() && (line.chars().all(|c| c == '=') || line.chars().all(|c| c == '-'));
    match first {
        Some('#') | Some('>') => format!("\\{line}"),
        Some('-') | Some('+')
            if after_first.is_empty() || after_first.starts_with(' ') || is_rule =>
        {
            format!("\\{line}")
        }
        Some('=') if is_rule => format!("\\{line}"),
        Some(c) if c.is_ascii_digit() => {
            let digits = line.chars().take_while(char::is_ascii_digit).count();
            let rest = &line[digits..];
            let is_list_marker = digits <= 9
                && (rest.starts_with(". ") || rest.starts_with(") ") || rest == "." || rest == ")");
            if is_list_marker {
                format!("{}\\{}", &line[..digits], rest)
            } else {
                line.to_string()
            }
        }
        _ => line.to_string(),
    }
}

/// `text` as a code span: a backtick fence longer than any run of backticks inside, padded with
/// a space where the text starts or ends with a backtick.
pub(super) fn code_span(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let fence = "`".repeat(longest_run(text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// The longest run of `c` in `text`.
pub(super) fn longest_run(text: &str, c: char) -> usize {
    let mut longest = 0;
    let mut current = 0;
    for found in text.chars() {
        if found == c {
            current += 1;
            longest = longest.max(current);
        } else {
            current = 0;
        }
    }
    longest
}

/// A URL as a Markdown link destination: the characters that would end or break it
/// (whitespace, parentheses, angle brackets) percent-encoded.
pub(super) fn link_destination(url: &str) -> String {
    let mut destination = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ' ' => destination.push_str("%20"),
            '(' => destination.push_str("%28"),
            ')' => destination.push_str("%29"),
            '<' => destination.push_str("%3C"),
            '>' => destination.push_str("%3E"),
            c if c.is_control() || c.is_whitespace() => {
                let mut bytes = [0; 4];
                for byte in c.encode_utf8(&mut bytes).bytes() {
                    destination.push_str(&format!("%{byte:02X}"));
                }
            }
            c => destination.push(c),
        }
    }
    destination
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_in_text_stay_text() {
        assert_eq!(escape_text("2*3"), "2\\*3");
        assert_eq!(escape_text("a|b"), "a\\|b");
        assert_eq!(escape_text("[1]"), "\\[1\\]");
        assert_eq!(escape_text("<div>"), "\\<div>");
        assert_eq!(escape_text("`x`"), "\\`x\\`");
        assert_eq!(escape_text("C:\\dir"), "C:\\\\dir");
    }

    #[test]
    fn underscores_inside_words_and_plain_ampersands_are_left_alone() {
        assert_eq!(escape_text("snake_case"), "snake_case");
        assert_eq!(escape_text("_init_"), "\\_init\\_");
        assert_eq!(escape_text("AT&T"), "AT&T");
        assert_eq!(escape_text("&amp;"), "\\&amp;");
        assert_eq!(escape_text("&#39;"), "\\&#39;");
    }

    #[test]
    fn a_line_that_would_start_block_markup_is_escaped() {
        assert_eq!(escape_line_start("# 1 hit"), "\\# 1 hit");
        assert_eq!(escape_line_start("> quoted"), "\\> quoted");
        assert_eq!(escape_line_start("- item"), "\\- item");
        assert_eq!(escape_line_start("-5 degrees"), "-5 degrees");
        assert_eq!(escape_line_start("1984. A year"), "1984\\. A year");
        assert_eq!(escape_line_start("1984 was a year"), "1984 was a year");
        assert_eq!(escape_line_start("==="), "\\===");
        assert_eq!(escape_line_start("---"), "\\---");
    }

    #[test]
    fn whitespace_collapses_across_text_nodes() {
        let mut inline = Inline::default();
        inline.push_text("  Hello\n  ", false);
        inline.push_text("world ", false);
        inline.push_text(" again", false);
        assert_eq!(inline.text, "Hello world again");
        assert!(inline.space_before);
    }

    #[test]
    fn breaks_inside_a_run_are_kept_and_trailing_ones_dropped() {
        let mut inline = Inline::default();
        inline.hard_break();
        inline.push_text("one", false);
        inline.hard_break();
        inline.push_text(" - two", false);
        inline.hard_break();
        assert_eq!(inline.into_paragraph(), "one\\\n\\- two");
    }

    #[test]
    fn code_spans_fence_past_backticks_inside() {
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x`"), "`` `x` ``");
        assert_eq!(code_span("plain"), "`plain`");
    }

    #[test]
    fn link_destinations_cannot_break_out() {
        assert_eq!(
            link_destination("https://e.org/a b(c)"),
            "https://e.org/a%20b%28c%29"
        );
    }
}
