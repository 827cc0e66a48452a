//! Text of an annotated HTML file, in document order, with the annotations that enclose it.
//!
//! L3S-GN1 wraps labelled text in `<span class="x-nc-selN">`, Kreuzer et al. put
//! `data-block`/`data-block-type` on elements, and our native format uses `data-pagelevel`. All
//! three are read the same way: walk the html5ever token stream, keep the stack of open
//! elements, and attach to every piece of text the marks of the elements around it (outermost
//! first). The files are serialised DOMs (every non-void element is closed), so a token walk
//! is exact for them; for hand-written pages it repairs the common omissions (`</p>`, `</li>`)
//! and otherwise closes an end tag's nearest open namesake, which is how browsers treat stray
//! end tags too. Building a tree would buy nothing here: only the enclosing marks are needed.

use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer,
};
use markup5ever::TokenizerResult;

/// What an annotation scheme makes of one start tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElementMark<L> {
    /// No annotation on this element.
    Plain,
    /// The element's text carries this mark (inside any marks of enclosing elements).
    Mark(L),
    /// The element's text is invisible and is not part of the page's words.
    Hidden,
}

/// A run of text under one stack of marks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkedText<L> {
    /// The text with whitespace runs collapsed to one space.
    pub text: String,
    /// Marks of the enclosing elements, outermost first; the last one is the innermost.
    pub marks: Vec<L>,
}

/// The value of attribute `name` on `tag`.
pub fn attribute<'t>(tag: &'t Tag, name: &str) -> Option<&'t str> {
    tag.attrs
        .iter()
        .find(|attr| &*attr.name.local == name)
        .map(|attr| &*attr.value)
}

/// Whether the `class` attribute of `tag` lists `class`.
pub fn has_class(tag: &Tag, class: &str) -> bool {
    attribute(tag, "class")
        .is_some_and(|classes| classes.split_ascii_whitespace().any(|c| c == class))
}

/// The text of `html` in document order, each run with the marks `mark` gives its enclosing
/// elements. Text in `<head>`-only and non-rendered elements (script, style, title, noscript,
/// template, textarea) is left out; so is text under an element marked [`ElementMark::Hidden`].
/// Adjacent text under the same marks forms one run; element boundaries other than inline ones
/// separate words with a space.
pub fn marked_text<L: Clone + PartialEq>(
    html: &str,
    mark: impl FnMut(&Tag) -> ElementMark<L>,
) -> Vec<MarkedText<L>> {
    let sink = MarkSink {
        state: RefCell::new(WalkState {
            mark,
            open: Vec::new(),
            runs: Vec::new(),
        }),
    };
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let tokenizer = Tokenizer::new(sink, Default::default());
    // The sink never asks to pause for scripts, so one feed consumes the whole input.
    while let TokenizerResult::Script(()) = tokenizer.feed(&input) {}
    tokenizer.end();
    let state = tokenizer.sink.state.into_inner();
    state
        .runs
        .into_iter()
        .filter_map(|run| {
            let text = run.text.split_whitespace().collect::<Vec<_>>().join(" ");
            (!text.is_empty()).then_some(MarkedText {
                text,
                marks: run.marks,
            })
        })
        .collect()
}

struct OpenElement<L> {
    name: String,
    mark: ElementMark<L>,
}

struct WalkState<L, F> {
    mark: F,
    open: Vec<OpenElement<L>>,
    runs: Vec<MarkedText<L>>,
}

struct MarkSink<L, F> {
    state: RefCell<WalkState<L, F>>,
}

/// Elements that never have content (HTML's void elements).
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param",
    "source", "track", "wbr",
];

/// Elements whose text a browser does not show as page text.
const NOT_RENDERED: &[&str] = &[
    "head", "script", "style", "title", "noscript", "template", "textarea", "iframe", "noembed",
    "noframes", "xmp", "select",
];

/// Elements that do not break a word: `foo<b>bar</b>` is one word on screen.
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "dfn", "em", "font", "i", "kbd",
    "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time",
    "tt", "u", "var",
];

/// Elements whose end tag is optional and which a new sibling of the same name closes.
const SELF_CLOSING_SIBLINGS: &[&str] = &["p", "li", "dt", "dd", "option", "tr", "td", "th"];

impl<L: Clone + PartialEq, F: FnMut(&Tag) -> ElementMark<L>> WalkState<L, F> {
    fn start_tag(&mut self, tag: &Tag) -> TokenSinkResult<()> {
        let name = &*tag.name;
        self.break_word(name);
        if SELF_CLOSING_SIBLINGS.contains(&name)
            && self.open.last().is_some_and(|top| top.name == name)
        {
            self.open.pop();
        }
        // Every start tag is shown to the scheme, void ones too, so that schemes numbering
        // their marks in document order count every marked element.
        let mark = (self.mark)(tag);
        if VOID.contains(&name) || tag.self_closing {
            return TokenSinkResult::Continue;
        }
        let mark = if NOT_RENDERED.contains(&name) {
            ElementMark::Hidden
        } else {
            mark
        };
        self.open.push(OpenElement {
            name: name.to_string(),
            mark,
        });
        // The tokenizer alone does not know which elements hold raw text; the tree builder
        // normally tells it, so we do.
        match name {
            "script" => TokenSinkResult::RawData(RawKind::ScriptData),
            "style" | "iframe" | "noembed" | "noframes" | "xmp" => {
                TokenSinkResult::RawData(RawKind::Rawtext)
            }
            "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
            "plaintext" => TokenSinkResult::Plaintext,
            _ => TokenSinkResult::Continue,
        }
    }

    fn end_tag(&mut self, tag: &Tag) {
        let name = &*tag.name;
        self.break_word(name);
        if let Some(position) = self.open.iter().rposition(|element| element.name == name) {
            self.open.truncate(position);
        }
    }

    fn break_word(&mut self, name: &str) {
        if !INLINE.contains(&name)
            && let Some(run) = self.runs.last_mut()
        {
            run.text.push(' ');
        }
    }

    fn text(&mut self, text: &str) {
        let mut marks = Vec::new();
        for element in &self.open {
            match &element.mark {
                ElementMark::Plain => {}
                ElementMark::Mark(mark) => marks.push(mark.clone()),
                ElementMark::Hidden => return,
            }
        }
        match self.runs.last_mut() {
            Some(run) if run.marks == marks => run.text.push_str(text),
            _ => self.runs.push(MarkedText {
                text: text.to_string(),
                marks,
            }),
        }
    }
}

impl<L: Clone + PartialEq, F: FnMut(&Tag) -> ElementMark<L>> TokenSink for MarkSink<L, F> {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        let mut state = self.state.borrow_mut();
        match token {
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => return state.start_tag(&tag),
            Token::TagToken(tag) => state.end_tag(&tag),
            Token::CharacterTokens(text) => state.text(&text),
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class_marks(tag: &Tag) -> ElementMark<String> {
        if has_class(tag, "hide") {
            ElementMark::Hidden
        } else if let Some(class) = attribute(tag, "class") {
            ElementMark::Mark(class.to_string())
        } else {
            ElementMark::Plain
        }
    }

    fn runs(html: &str) -> Vec<(String, Vec<String>)> {
        marked_text(html, class_marks)
            .into_iter()
            .map(|run| (run.text, run.marks))
            .collect()
    }

    #[test]
    fn text_carries_the_marks_of_all_enclosing_elements_innermost_last() {
        let found = runs(r#"<div class="a">one <span class="b">two</span> three</div> four"#);
        let expected = [
            ("one".to_string(), vec!["a".to_string()]),
            ("two".to_string(), vec!["a".to_string(), "b".to_string()]),
            ("three".to_string(), vec!["a".to_string()]),
            ("four".to_string(), vec![]),
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn scripts_styles_titles_and_hidden_elements_contribute_no_text() {
        let html = r#"<head><title>T</title><style>p{}</style></head><body><script>if (a<b) x="</p>";</script>
            <p>shown</p><div class="hide">hidden <b>too</b></div><noscript>no</noscript></body>"#;
        assert_eq!(runs(html), [("shown".to_string(), vec![])]);
    }

    #[test]
    fn block_boundaries_split_words_and_inline_ones_do_not() {
        let text: Vec<String> = runs("<p>one</p><p>two<b>three</b></p>")
            .into_iter()
            .map(|r| r.0)
            .collect();
        assert_eq!(text, ["one twothree"]);
    }

    #[test]
    fn omitted_end_tags_and_void_elements_do_not_leak_marks() {
        let html = r#"<ul><li class="x">one<li>two</ul><img class="y">three<br class="z">four"#;
        let found = runs(html);
        assert_eq!(found[0], ("one".to_string(), vec!["x".to_string()]));
        assert_eq!(found[1], ("two three four".to_string(), vec![]));
    }

    #[test]
    fn entities_are_decoded() {
        assert_eq!(runs("<p>Tools &amp; Services</p>")[0].0, "Tools & Services");
    }
}
