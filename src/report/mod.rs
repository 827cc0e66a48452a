//! The HTML report of a scored page: one self-contained file showing a picture of the page with
//! each section outlined and coloured by its smoothed templateness (green: content, red:
//! template), the main text's container and paragraphs filled blue and the comments purple, a
//! legend, the section list, and the main text, comments and content text beside it — the
//! picture a person wants before trusting the numbers. The picture is Chromium's screenshot
//! when the page was laid out by Chromium just now; otherwise (native layout, a cached or
//! snapshot layout) a wireframe drawn from the layout boxes (the `wireframe` module), needing
//! no browser.

mod wireframe;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine;

use crate::layout::LayoutBox;
use crate::page::NodeId;
use crate::pipeline::ScoredPage;
use crate::render::SCREENSHOT_MAX_HEIGHT;

/// The page is shown at this fraction of its size.
const PICTURE_SCALE: f64 = 0.6;

/// Sections smaller than this (px²) are not drawn: they would be specks.
const MIN_DRAWN_AREA: f64 = 2000.0;

/// At most this many main-text and comment paragraphs are marked on the picture.
const MAX_MARKS: usize = 4000;

/// Fill of the main text's paragraphs and outline of its container.
const MAIN_COLOUR: &str = "hsl(215, 90%, 50%)";

/// Fill of the comments' paragraphs.
const COMMENT_COLOUR: &str = "hsl(285, 70%, 50%)";

/// The colour of a templateness value: hue from green (0, content) to red (1, template).
fn colour(templateness: f64) -> String {
    let hue = 120.0 * (1.0 - templateness.clamp(0.0, 1.0));
    format!("hsl({hue:.0}, 85%, 45%)")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Builds the report; `name` is shown as the page's title line.
pub fn html_report(scored: &ScoredPage, name: &str) -> String {
    let threshold = scored.segmented.threshold;
    let rendered = &scored.laid_out;
    let dom = &rendered.page.dom;
    // A wireframe is as wide as the page's root box: pictures overflowing it (a product page's
    // 2,000 px photos) would widen the picture's frame past everything drawn and push the side
    // column off the screen (the wireframe clips them). A screenshot is as wide as it was taken.
    let root_width = rendered
        .layout_box(NodeId(0))
        .map(|root| root.x + root.width);
    let width = match (&rendered.screenshot, root_width) {
        (None, Some(root_width)) if root_width > 0.0 => root_width.min(rendered.layout.page_width),
        _ => rendered.layout.page_width,
    }
    .max(1.0);
    let shown_height = rendered
        .layout
        .page_height
        .clamp(1.0, SCREENSHOT_MAX_HEIGHT);
    let mut boxes = String::new();
    for section in &scored.segmented.sections {
        let Some(layout_box) = rendered.layout_box(section.id) else {
            continue;
        };
        if layout_box.area() < MIN_DRAWN_AREA || layout_box.y >= shown_height {
            continue;
        }
        let title = format!(
            "&lt;{}&gt; #{} templateness {:.2} ({})",
            escape(&dom.element(section.id).tag),
            section.id.0,
            section.score,
            if section.template {
                "template"
            } else {
                "content"
            },
        );
        let colour = colour(section.score);
        // The verdict can differ from what the colour says where the main text overruled the
        // segmentation (an article at 0.77 is content): template sections are hatched.
        place(
            &mut boxes,
            if section.template {
                "section template"
            } else {
                "section"
            },
            layout_box,
            shown_height,
            Some(&colour),
            &title,
        );
    }
    // The regions (the page's few large blocks) outlined over their sections; the root's region
    // is the page itself.
    let mut regions: Vec<NodeId> = scored
        .segmented
        .nodes
        .iter()
        .map(|node| node.region)
        .filter(|&region| region != NodeId(0))
        .collect();
    regions.sort_unstable();
    regions.dedup();
    let region_count = regions.len() + 1;
    for region in regions {
        let Some(layout_box) = rendered.layout_box(region) else {
            continue;
        };
        if layout_box.area() < MIN_DRAWN_AREA || layout_box.y >= shown_height {
            continue;
        }
        let title = format!(
            "region: &lt;{}&gt; #{}",
            escape(&dom.element(region).tag),
            region.0
        );
        place(&mut boxes, "region", layout_box, shown_height, None, &title);
    }
    let extracted = &scored.extracted;
    // The container is drawn under its paragraphs, which are bounded in number like the
    // wireframe: a page of 40 000 one-word paragraphs would otherwise weigh megabytes.
    let marked = extracted
        .main_container
        .map(|id| (id, "main-container", MAIN_COLOUR, "main text container"))
        .into_iter()
        .chain(
            extracted
                .main_blocks
                .iter()
                .map(|&id| (id, "main-block", MAIN_COLOUR, "main text")),
        )
        .chain(
            extracted
                .comment_blocks
                .iter()
                .map(|&id| (id, "comment-block", COMMENT_COLOUR, "comments")),
        )
        .filter_map(|(id, class, colour, what)| {
            let layout_box = rendered.layout_box(id)?;
            (layout_box.y < shown_height).then_some((id, layout_box, class, colour, what))
        })
        .take(MAX_MARKS);
    for (id, layout_box, class, colour, what) in marked {
        let title = format!("&lt;{}&gt; #{} {what}", escape(&dom.element(id).tag), id.0);
        place(
            &mut boxes,
            class,
            layout_box,
            shown_height,
            Some(colour),
            &title,
        );
    }
    let (picture, picture_kind) = match &rendered.screenshot {
        Some(jpeg) => (
            format!(
                r#"<img src="data:image/jpeg;base64,{}" width="{:.0}" height="{:.0}" alt="the rendered page">"#,
                base64::engine::general_purpose::STANDARD.encode(jpeg),
                width * PICTURE_SCALE,
                shown_height * PICTURE_SCALE
            ),
            "Chromium's screenshot",
        ),
        None => (
            wireframe::wireframe(rendered, shown_height, PICTURE_SCALE),
            "drawn from the layout boxes",
        ),
    };
    let cut = match rendered.layout.page_height > shown_height {
        true => format!(
            " (its top {shown_height:.0} of {:.0} px)",
            rendered.layout.page_height
        ),
        false => String::new(),
    };
    let mut rows = String::new();
    for section in &scored.segmented.sections {
        if section.text_chars == 0 {
            continue;
        }
        let _ = write!(
            rows,
            r#"<tr><td><span class="swatch" style="background:{}"></span>{}</td><td>{}</td><td>&lt;{}&gt;</td><td>{:.2}</td><td>{}</td><td>{}</td></tr>"#,
            colour(section.score),
            section.id.0,
            section.region.0,
            escape(&dom.element(section.id).tag),
            section.score,
            if section.template {
                "template"
            } else {
                "content"
            },
            section.text_chars
        );
    }
    let as_paragraphs = |text: &str| -> String {
        if text.is_empty() {
            return r#"<p class="none">(none)</p>"#.into();
        }
        text.split("\n\n")
            .map(|paragraph| format!("<p>{}</p>", escape(paragraph)))
            .collect()
    };
    let main_text = as_paragraphs(&extracted.main_text);
    let comments = as_paragraphs(&extracted.comments);
    let paragraphs = as_paragraphs(&scored.segmented.content_text);
    format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pagelevel: {title}</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 16px; color: #222; background: #fafafa; }}
h1 {{ font-size: 18px; margin: 0 0 4px; }}
.meta {{ color: #555; margin-bottom: 12px; }}
.columns {{ display: flex; gap: 20px; align-items: flex-start; }}
.picture {{ position: relative; flex: none; width: {picture_width:.0}px; border: 1px solid #bbb; background: white; overflow: hidden; }}
.picture img {{ display: block; }}
.section {{ position: absolute; box-sizing: border-box; border: 2px solid var(--c); background: color-mix(in srgb, var(--c) 14%, transparent); }}
.section.template {{ background: repeating-linear-gradient(135deg, color-mix(in srgb, var(--c) 30%, transparent) 0 2px, transparent 2px 9px); }}
.main-block, .comment-block {{ position: absolute; box-sizing: border-box; background: color-mix(in srgb, var(--c) 30%, transparent); }}
.region {{ position: absolute; box-sizing: border-box; border: 3px solid #111; outline: 1px solid white; }}
.main-container {{ position: absolute; box-sizing: border-box; border: 4px dashed var(--c); }}
.none {{ color: #777; }}
.side {{ flex: 1; min-width: 320px; }}
.legend {{ display: flex; align-items: center; gap: 8px; margin-bottom: 12px; }}
.ramp {{ width: 160px; height: 12px; background: linear-gradient(to right, {c0}, {c5}, {c1}); border: 1px solid #999; }}
.swatch {{ display: inline-block; width: 10px; height: 10px; margin-right: 6px; border-radius: 2px; }}
table {{ border-collapse: collapse; margin-bottom: 16px; }}
td, th {{ padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; }}
.content {{ background: white; border: 1px solid #ccc; padding: 8px 14px; max-height: 900px; overflow: auto; }}
.wireframe {{ position: relative; overflow: hidden; font-family: system-ui, sans-serif; }}
.wireframe > div {{ position: absolute; box-sizing: border-box; }}
.wireframe .b {{ border: 1px solid rgba(0, 0, 0, 0.16); background: rgba(0, 0, 0, 0.025); }}
.wireframe .t {{ overflow: hidden; line-height: 1.2; color: #222; overflow-wrap: anywhere; }}
.wireframe .t u {{ color: #1558d6; }}
.wireframe .pre {{ white-space: pre; font-family: monospace; }}
.wireframe .f, .wireframe .c {{ overflow: hidden; font-size: 8px; line-height: 1.2; padding: 1px 2px; color: #445; border: 1px solid #8a94a6; }}
.wireframe .f {{ font-style: italic; background: linear-gradient(to top right, transparent calc(50% - 0.6px), #c5cbd6 50%, transparent calc(50% + 0.6px)), linear-gradient(to bottom right, transparent calc(50% - 0.6px), #c5cbd6 50%, transparent calc(50% + 0.6px)), #eef1f5; }}
.wireframe .f.l {{ border-color: #1558d6; }}
.wireframe .c {{ background: white; border-radius: 2px; }}
.wireframe .ln {{ border: 1px dashed rgba(21, 88, 214, 0.55); }}
</style></head>
<body>
<h1>{title}</h1>
<div class="meta">{name} · {page_type} page (p {page_type_probability:.2}) · {sections} sections in {region_count} regions · template share of text {share:.0}% · threshold {threshold:.2} · picture: {picture_kind}{cut}</div>
<div class="columns">
<div class="picture">{picture}{boxes}</div>
<div class="side">
<div class="legend"><span>content</span><span class="ramp"></span><span>template</span><span>(outline: smoothed templateness of each section; hatched: its verdict is template; thick black: regions, the page's large blocks)</span></div>
<div class="legend"><span class="swatch" style="background:{main_colour}"></span><span>main text (dashed: its container)</span><span class="swatch" style="background:{comment_colour}"></span><span>comments</span></div>
<h2>Sections with text</h2>
<table><tr><th>section</th><th>region</th><th>root</th><th>templateness</th><th>verdict</th><th>characters</th></tr>{rows}</table>
<h2>Main text</h2>
<div class="content main">{main_text}</div>
<h2>Comments</h2>
<div class="content comments">{comments}</div>
<h2>Content text (everything not template)</h2>
<div class="content">{paragraphs}</div>
</div></div>
</body></html>
"#,
        title = escape(if rendered.page.title.is_empty() {
            name
        } else {
            &rendered.page.title
        }),
        name = escape(name),
        page_type = scored.page_type.page_type.name(),
        page_type_probability = scored.page_type.probability,
        sections = scored.segmented.sections.len(),
        region_count = region_count,
        share = 100.0 * scored.segmented.template_text_share,
        picture_width = width * PICTURE_SCALE,
        c0 = colour(0.0),
        c5 = colour(0.5),
        c1 = colour(1.0),
        main_colour = MAIN_COLOUR,
        comment_colour = COMMENT_COLOUR,
    )
}

/// Writes a `<div>` of `class` over the picture where `layout_box` lies (cut at
/// `shown_height`), in `colour` when given, with `title` (already escaped) as its tooltip.
fn place(
    boxes: &mut String,
    class: &str,
    layout_box: LayoutBox,
    shown_height: f64,
    colour: Option<&str>,
    title: &str,
) {
    let height = layout_box.height.min(shown_height - layout_box.y);
    let colour = colour.map_or(String::new(), |colour| format!(";--c:{colour}"));
    let _ = write!(
        boxes,
        r#"<div class="{class}" style="left:{:.1}px;top:{:.1}px;width:{:.1}px;height:{:.1}px{colour}" title="{title}"></div>"#,
        layout_box.x * PICTURE_SCALE,
        layout_box.y * PICTURE_SCALE,
        layout_box.width * PICTURE_SCALE,
        height * PICTURE_SCALE,
    );
}

/// `DIR/<number>-<file stem>.html` for a page's report in a batch (numbered: two pages may
/// share a name).
pub fn batch_report_path(directory: &Path, index: usize, name: &str) -> PathBuf {
    let stem: String = Path::new(name.trim_end_matches('/'))
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    directory.join(format!("{:04}-{stem}.html", index + 1))
}
