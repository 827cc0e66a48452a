//! Chromium's user-agent behaviour that Blitz's default sheet lacks, as one more user-agent
//! stylesheet. Author CSS overrides every rule here, as it overrides Chromium's own.
//!
//! - **Form controls**: Chromium's fonts, padding, borders and text-field widths. A search
//!   box's width decides whether a floated header fits, and a taller float narrows every block
//!   beside it, so a few pixels here move whole pages.
//! - **`<noscript>`**: Chromium parses pages with scripting on (scripts are only blocked by
//!   CSP), so `<noscript>` content is never rendered; Blitz parses with scripting off.
//! - **Empty named anchors** (`<a name=top></a>`, often alone between blocks): Chromium's line
//!   holding nothing is no line, and margins collapse through it; Blitz keeps an empty line
//!   that stops them collapsing, and everything below moves 8–16 px down. Out of the flow the
//!   anchor is where Chromium puts it (a 0×0 box at its place) and takes no line.
//! - **Closed `<details>`**: their content is laid out but takes no space (`closed_details`).
//! - **Legacy presentational attributes** Blitz does not map to CSS: `<font size>`,
//!   `cellpadding`, `cellspacing` and `<table border>`, all over the table-laid-out pages of
//!   the news datasets. Attribute values are enumerated, as CSS cannot read them as lengths.

use std::fmt::Write;

use super::closed_details::CLOSED_DETAILS_CSS;
use super::closed_panels::CLOSED_PANEL_CSS;

/// Largest `size`, `cellpadding`, `cellspacing` and `border` values given their own rule;
/// larger ones are rare enough in the datasets to be left to Blitz.
const LARGEST_SIZE: u32 = 120;
const LARGEST_TABLE_SPACING: u32 = 30;

/// `<font size=N>` as the HTML standard maps it (1 → x-small … 7 → xxx-large), with the
/// relative forms counted from 3.
const FONT_SIZES: &[&str] = &[
    "x-small",
    "x-small",
    "small",
    "medium",
    "large",
    "x-large",
    "xx-large",
    "xxx-large",
];

/// Blitz lays out each list item's outside marker as a text layout of its own, only to paint
/// it; an outside marker takes no room, so no box we read depends on it. The default marker
/// types of lists nested up to three deep (Blitz's own sheet) become `none`; author CSS that
/// names a type keeps its markers. What is lost: the default marker of an item the author
/// placed `inside` without naming a type (a bullet's width, on a rare kind of list).
const NO_OUTSIDE_MARKERS_CSS: &str = ":is(ul, ol, menu, dir), \
    :is(ul, ol, menu, dir) :is(ul, ol, menu, dir), \
    :is(ul, ol, menu, dir) :is(ul, ol, menu, dir) :is(ul, ol, menu, dir) \
    { list-style-type: none; }\n";

/// The stylesheet's text.
pub(crate) fn chromium_compat_css() -> String {
    let mut css = String::new();
    form_controls(&mut css);
    css.push_str("noscript { display: none !important; }\n");
    css.push_str(NO_OUTSIDE_MARKERS_CSS);
    css.push_str(CLOSED_DETAILS_CSS);
    css.push_str(CLOSED_PANEL_CSS);
    css.push_str("a[name]:not([href]):empty { position: absolute; }\n");
    font_sizes(&mut css);
    table_attributes(&mut css);
    css
}

/// Chromium sizes a text field as `size` average character widths plus the font's widest
/// character's excess over the average; for Liberation Sans (Arial's metrics) that is
/// `size × 0.441em + 3.06em`, fitted to Chromium's boxes. Blitz uses 300px for every field.
fn form_controls(css: &mut String) {
    const TEXT_FIELDS: &str = "input:not([type]), input[type=text i], input[type=search i], \
        input[type=email i], input[type=password i], input[type=tel i], input[type=url i], \
        input[type=number i]";
    let _ = write!(
        css,
        "input, textarea, select, button {{ font-size: 13.333px; line-height: normal; \
           letter-spacing: normal; word-spacing: normal; text-transform: none; text-indent: 0; }}\n\
         input {{ padding: 1px 2px; border: 2px inset; }}\n\
         button, input[type=submit i], input[type=reset i], input[type=button i] {{ \
           padding: 1px 6px; border: 2px outset; box-sizing: border-box; }}\n\
         :is({TEXT_FIELDS}) {{ width: calc(20 * 0.441em + 3.06em); }}\n"
    );
    for size in 1..=LARGEST_SIZE {
        let _ = writeln!(
            css,
            ":is({TEXT_FIELDS})[size=\"{size}\"] {{ width: calc({size} * 0.441em + 3.06em); }}"
        );
    }
}

fn font_sizes(css: &mut String) {
    for (size, keyword) in FONT_SIZES.iter().enumerate().skip(1) {
        let _ = writeln!(css, "font[size=\"{size}\"] {{ font-size: {keyword}; }}");
        let relative = size as i32 - 3;
        if relative != 0 {
            let _ = writeln!(
                css,
                "font[size=\"{relative:+}\"] {{ font-size: {keyword}; }}"
            );
        }
    }
}

fn table_attributes(css: &mut String) {
    const CELLS: &str = ":is(td, th)";
    for spacing in 0..=LARGEST_TABLE_SPACING {
        let _ = writeln!(
            css,
            "table[cellspacing=\"{spacing}\"] {{ border-spacing: {spacing}px; }}\n\
             table[cellpadding=\"{spacing}\"] > :is(tbody, thead, tfoot) > tr > {CELLS}, \
             table[cellpadding=\"{spacing}\"] > tr > {CELLS} {{ padding: {spacing}px; }}"
        );
        if spacing > 0 {
            let _ = writeln!(
                css,
                "table[border=\"{spacing}\"] {{ border: {spacing}px outset; }}\n\
                 table[border=\"{spacing}\"] > :is(tbody, thead, tfoot) > tr > {CELLS}, \
                 table[border=\"{spacing}\"] > tr > {CELLS} {{ border: 1px inset; }}"
            );
        }
    }
}
