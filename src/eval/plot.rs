//! The sweep's figures as SVG line charts (the paper's Figures 2 and 3: a measure against the
//! factor multiplied into the penalty, on a log axis), and their PNG rendering by headless
//! Chromium when it is available.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use super::summary::{DatasetReport, VariantReport};

/// One chart file.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// File name without extension.
    pub name: String,
    /// The chart as a complete SVG document.
    pub svg: String,
}

/// A named line of (x, y) points.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The line's legend text.
    pub label: String,
    /// (penalty multiplier, measure) pairs; x is drawn on a log axis.
    pub points: Vec<(f64, f64)>,
}

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 460.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 230.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A line chart with a log-scaled x axis (ticks at the data's x values) and a 0–1 y axis.
pub fn line_chart(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let mut xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .filter(|x| *x > 0.0)
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let (low, high) = match (xs.first(), xs.last()) {
        (Some(&low), Some(&high)) if high > low => (low.ln(), high.ln()),
        (Some(&x), _) => (x.ln() - 1.0, x.ln() + 1.0),
        _ => (0.0, 1.0),
    };
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x_at = |x: f64| LEFT + (x.ln() - low) / (high - low) * plot_width;
    let y_at = |y: f64| TOP + (1.0 - y.clamp(0.0, 1.0)) * plot_height;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="13">"#
    );
    let _ = write!(
        svg,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/><text x="{}" y="28" font-size="16" text-anchor="middle">{}</text>"#,
        LEFT + plot_width / 2.0,
        escape(title)
    );
    for step in 0..=10 {
        let y = f64::from(step) / 10.0;
        let _ = write!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{y0}" y2="{y0}" stroke="#e5e5e5"/><text x="{}" y="{}" text-anchor="end">{y:.1}</text>"##,
            LEFT + plot_width,
            LEFT - 8.0,
            y_at(y) + 4.0,
            y0 = y_at(y),
        );
    }
    for &x in &xs {
        let _ = write!(
            svg,
            r##"<line x1="{x0:.1}" x2="{x0:.1}" y1="{TOP}" y2="{}" stroke="#e5e5e5"/><text x="{x0:.1}" y="{}" text-anchor="middle">{x}</text>"##,
            TOP + plot_height,
            TOP + plot_height + 20.0,
            x0 = x_at(x),
        );
    }
    let _ = write!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{plot_width}" height="{plot_height}" fill="none" stroke="black"/><text x="{}" y="{}" text-anchor="middle">{}</text><text transform="translate(20 {}) rotate(-90)" text-anchor="middle">{}</text>"#,
        LEFT + plot_width / 2.0,
        HEIGHT - 15.0,
        escape(x_label),
        TOP + plot_height / 2.0,
        escape(y_label)
    );
    for (index, line) in series.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let points: Vec<String> = line
            .points
            .iter()
            .filter(|(x, _)| *x > 0.0)
            .map(|&(x, y)| format!("{:.1},{:.1}", x_at(x), y_at(y)))
            .collect();
        let _ = write!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            points.join(" ")
        );
        for point in &points {
            if let Some((x, y)) = point.split_once(',') {
                let _ = write!(svg, r#"<circle cx="{x}" cy="{y}" r="3" fill="{colour}"/>"#);
            }
        }
        let legend_y = TOP + 10.0 + index as f64 * 20.0;
        let legend_x = LEFT + plot_width + 15.0;
        let _ = write!(
            svg,
            r#"<line x1="{legend_x}" x2="{}" y1="{legend_y}" y2="{legend_y}" stroke="{colour}" stroke-width="3"/><text x="{}" y="{}">{}</text>"#,
            legend_x + 20.0,
            legend_x + 26.0,
            legend_y + 4.0,
            escape(&line.label)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The sweep's points of one measure at the dataset's own threshold, by penalty multiplier.
fn measure_series(
    report: &DatasetReport,
    label: String,
    measure: impl Fn(&VariantReport) -> Option<f64>,
) -> Option<Series> {
    let points: Vec<(f64, f64)> = report
        .sweep
        .iter()
        .filter(|point| point.variant == "smooth")
        .filter(|point| (point.threshold - report.threshold).abs() < 1e-9)
        .filter_map(|point| Some((point.multiplier?, measure(&point.scores)?)))
        .collect();
    (!points.is_empty()).then_some(Series { label, points })
}

/// A file-name-safe form of a label.
fn slug(text: &str) -> String {
    let mut slug: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    while slug.contains("--") {
        slug = slug.replace("--", "-");
    }
    slug.trim_matches('-').to_string()
}

/// Figure 2 per dataset (template F1 over Text, AT and Links against the penalty multiplier),
/// Figure 2 over all datasets (text F1), and Figure 3 (ARI against the multiplier).
pub fn sweep_figures(reports: &[DatasetReport]) -> Vec<Figure> {
    let x_label = "factor multiplied into the penalty";
    let mut figures = Vec::new();
    for report in reports {
        let name = report
            .dataset
            .split(':')
            .next()
            .unwrap_or("dataset")
            .to_string()
            + report
                .mapping
                .map(|m| format!("-{m}"))
                .as_deref()
                .unwrap_or("");
        let series: Vec<Series> = [
            measure_series(report, "Text".into(), |v| v.text.f1),
            measure_series(report, "Anchor text".into(), |v| v.anchor_text.f1),
            measure_series(report, "Links".into(), |v| v.links.f1),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !series.is_empty() {
            figures.push(Figure {
                name: format!("figure2-{}", slug(&name)),
                svg: line_chart(
                    &format!("Template detection F1: {name}"),
                    x_label,
                    "F1 (template)",
                    &series,
                ),
            });
        }
    }
    let short_name = |report: &DatasetReport| {
        let format = report.dataset.split(':').next().unwrap_or("dataset");
        match report.mapping {
            Some(mapping) => format!("{format} ({mapping})"),
            None => format.to_string(),
        }
    };
    let text: Vec<Series> = reports
        .iter()
        .filter_map(|r| measure_series(r, short_name(r), |v| v.text.f1))
        .collect();
    if !text.is_empty() {
        figures.push(Figure {
            name: "figure2-text-f1-all".into(),
            svg: line_chart(
                "Template detection F1 (text) by dataset",
                x_label,
                "F1 (template)",
                &text,
            ),
        });
    }
    let mut ari = Vec::new();
    for report in reports {
        let name = short_name(report);
        let level1 = measure_series(report, format!("{name} Smooth L1"), |v| v.ari);
        let level2 = measure_series(report, format!("{name} Smooth L1+2"), |v| v.ari_level2);
        // Basic and Basic+Merge do not depend on the penalty: flat lines for reference, as in
        // the paper's Figure 1.
        if let Some(smooth) = &level1 {
            for (key, title) in [("basic", "Basic"), ("merge", "Basic+Merge")] {
                if let Some(value) = report.variants.get(key).and_then(|v| v.ari) {
                    ari.push(Series {
                        label: format!("{name} {title} L1"),
                        points: smooth.points.iter().map(|&(x, _)| (x, value)).collect(),
                    });
                }
            }
        }
        ari.extend(level1);
        ari.extend(level2);
    }
    if !ari.is_empty() {
        figures.push(Figure {
            name: "figure3-ari".into(),
            svg: line_chart(
                "Segmentation accuracy (adjusted Rand index)",
                x_label,
                "ARI",
                &ari,
            ),
        });
    }
    figures
}

/// Renders `svg_path` to a PNG beside it with headless Chromium; does nothing when Chromium is
/// missing or fails (the SVG is the primary output).
pub fn try_png(svg_path: &Path) {
    let Ok(chromium) = crate::render::find_chromium(None) else {
        return;
    };
    let png = svg_path.with_extension("png");
    let Ok(absolute) = svg_path.canonicalize() else {
        return;
    };
    let _ = Command::new(chromium)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
            &format!("--window-size={},{}", WIDTH as u32, HEIGHT as u32),
            &format!("--screenshot={}", png.display()),
        ])
        .arg(format!("file://{}", absolute.display()))
        .output();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_has_one_line_and_legend_entry_per_series_and_log_x_ticks() {
        let svg = line_chart(
            "F1 <test>",
            "x",
            "y",
            &[
                Series {
                    label: "Text".into(),
                    points: vec![(0.1, 0.5), (1.0, 0.6), (10.0, 0.4)],
                },
                Series {
                    label: "Links".into(),
                    points: vec![(0.1, 0.7), (10.0, 0.8)],
                },
            ],
        );
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains(">Text<") && svg.contains(">Links<"));
        assert!(svg.contains("F1 &lt;test&gt;"));
        // Ticks at 0.1, 1 and 10 are evenly spaced on the log axis.
        assert!(svg.contains(r#"x1="70.0" x2="70.0""#));
        assert!(svg.contains(r#"x1="300.0" x2="300.0""#));
    }
}
