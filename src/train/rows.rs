//! Training rows: the labelled nodes of labelled sites as a CSV table, one row per classified
//! node, so labelling (hours of layout over a crawl, possibly on Spark executors) and fitting
//! (a minute) can run apart: `train --rows-out` writes them, `train --rows` fits from them, and
//! `spark/label_hosts.py` writes the same table from a crawl.
//!
//! Columns: `site, domain, layout, page, area, template`, then every feature in
//! [`FEATURE_NAMES`] order. A file whose header differs (another pagelevel version's features)
//! is refused, not silently misread.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{LabelledPage, LabelledSite, LabelledSites, SiteReport, TrainError};
use crate::features::{FEATURE_COUNT, FEATURE_NAMES, FeatureRow};
use crate::layout::LayoutEngine;
use crate::model::LabelledNode;
use crate::staged::StagedFile;

/// The columns before the features.
const LEADING_COLUMNS: [&str; 6] = ["site", "domain", "layout", "page", "area", "template"];

/// Every column of a training-rows table, in order.
pub fn row_columns() -> Vec<&'static str> {
    LEADING_COLUMNS
        .iter()
        .chain(FEATURE_NAMES)
        .copied()
        .collect()
}

/// One row of the table: a labelled node and where it comes from.
#[derive(Debug, Clone, Copy)]
pub struct TrainingRow<'a> {
    /// The site's report name.
    pub site: &'a str,
    /// The `[domain]` of the sites list the site is under, if any.
    pub domain: Option<&'a str>,
    /// The engine that laid the page out (a model must be used with the engine it was fitted
    /// on).
    pub layout: LayoutEngine,
    /// The page's URL or path.
    pub page: &'a str,
    /// The node's features, area and label.
    pub node: &'a LabelledNode,
}

/// The rows of one labelled site, page by page in document order.
pub fn site_rows(
    site: &LabelledSite,
    layout: LayoutEngine,
) -> impl Iterator<Item = TrainingRow<'_>> {
    site.pages.iter().flat_map(move |page| {
        page.nodes.iter().map(move |node| TrainingRow {
            site: &site.summary.site,
            domain: site.summary.domain.as_deref(),
            layout,
            page: &page.name,
            node,
        })
    })
}

/// Writes the rows of `sites` to `path` (replaced whole, never left half-written).
pub fn write_rows(
    path: &Path,
    sites: &[LabelledSite],
    layout: LayoutEngine,
) -> Result<(), TrainError> {
    let failed = |cause: String| TrainError::Rows {
        path: path.to_path_buf(),
        cause,
    };
    let staged = StagedFile::create(path).map_err(|error| failed(error.to_string()))?;
    let mut writer = csv::Writer::from_writer(staged);
    writer
        .write_record(row_columns())
        .map_err(|error| failed(error.to_string()))?;
    let mut record = csv::ByteRecord::new();
    // One buffer for every number: a crawl's rows are millions of fields.
    let mut number = String::new();
    let mut push_number = |record: &mut csv::ByteRecord, value: f64| {
        number.clear();
        let _ = write!(number, "{value}");
        record.push_field(number.as_bytes());
    };
    for row in sites.iter().flat_map(|site| site_rows(site, layout)) {
        record.clear();
        record.push_field(row.site.as_bytes());
        record.push_field(row.domain.unwrap_or("").as_bytes());
        record.push_field(row.layout.name().as_bytes());
        record.push_field(row.page.as_bytes());
        push_number(&mut record, row.node.area);
        record.push_field(if row.node.template { b"true" } else { b"false" });
        for value in row.node.row {
            push_number(&mut record, value);
        }
        writer
            .write_byte_record(&record)
            .map_err(|error| failed(error.to_string()))?;
    }
    let staged = writer
        .into_inner()
        .map_err(|error| failed(error.to_string()))?;
    staged.commit().map_err(|error| failed(error.to_string()))
}

/// Labelled sites read back from training-rows files, and the engine that laid them out.
#[derive(Debug, Clone)]
pub struct ReadRows {
    /// The sites, ordered by name (so which sites are held out does not depend on how a Spark
    /// job split its output into files); pages in the order first seen.
    pub sites: LabelledSites,
    /// The one layout engine of every row.
    pub layout: LayoutEngine,
}

/// Reads training rows from files and directories (a directory's `.csv` files, as a Spark job
/// writes them, in name order; names starting with `_` or `.` skipped).
pub fn read_rows(paths: &[PathBuf]) -> Result<ReadRows, TrainError> {
    let mut sites: BTreeMap<String, SiteBuilder> = BTreeMap::new();
    let mut layout: Option<(LayoutEngine, PathBuf)> = None;
    let mut files = 0;
    for path in paths {
        for file in row_files(path)? {
            files += 1;
            read_file(&file, &mut sites, &mut layout)?;
        }
    }
    let Some((layout, _)) = layout else {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(TrainError::Rows {
            path: paths.first().cloned().unwrap_or_default(),
            cause: format!(
                "no training rows in {} ({files} CSV files read)",
                shown.join(", ")
            ),
        });
    };
    let sites = sites
        .into_iter()
        .map(|(name, builder)| builder.finish(name))
        .collect();
    Ok(ReadRows {
        sites: LabelledSites {
            sites,
            skipped: Vec::new(),
        },
        layout,
    })
}

/// A site's pages while its rows are read.
#[derive(Default)]
struct SiteBuilder {
    domain: Option<String>,
    pages: Vec<LabelledPage>,
    page_index: BTreeMap<String, usize>,
}

impl SiteBuilder {
    fn push(&mut self, page: &str, node: LabelledNode) {
        let index = *self.page_index.entry(page.to_string()).or_insert_with(|| {
            self.pages.push(LabelledPage {
                name: page.to_string(),
                nodes: Vec::new(),
            });
            self.pages.len() - 1
        });
        self.pages[index].nodes.push(node);
    }

    fn finish(self, name: String) -> LabelledSite {
        // Rows carry no element counts or timings: those stay 0 in the report.
        let mut summary = SiteReport::new(name, self.pages.len(), 0, 0);
        summary.domain = self.domain;
        summary.count_nodes(self.pages.iter().flat_map(|page| &page.nodes));
        LabelledSite {
            summary,
            pages: self.pages,
        }
    }
}

fn row_files(path: &Path) -> Result<Vec<PathBuf>, TrainError> {
    let failed = |cause: String| TrainError::Rows {
        path: path.to_path_buf(),
        cause,
    };
    let metadata = std::fs::metadata(path).map_err(|error| failed(error.to_string()))?;
    if !metadata.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(|error| failed(error.to_string()))? {
        let file = entry.map_err(|error| failed(error.to_string()))?.path();
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        if name.ends_with(".csv") && !name.starts_with(['_', '.']) && file.is_file() {
            files.push(file);
        }
    }
    files.sort();
    Ok(files)
}

fn read_file(
    file: &Path,
    sites: &mut BTreeMap<String, SiteBuilder>,
    layout: &mut Option<(LayoutEngine, PathBuf)>,
) -> Result<(), TrainError> {
    let failed = |cause: String| TrainError::Rows {
        path: file.to_path_buf(),
        cause,
    };
    let mut reader = csv::Reader::from_path(file).map_err(|error| failed(error.to_string()))?;
    let header = reader
        .headers()
        .map_err(|error| failed(error.to_string()))?
        .clone();
    let expected = row_columns();
    if header.iter().ne(expected.iter().copied()) {
        let differs = header
            .iter()
            .zip(&expected)
            .position(|(found, wanted)| found != *wanted)
            .unwrap_or(header.len().min(expected.len()));
        return Err(failed(format!(
            "not pagelevel training rows of this version: column {} is {:?}, expected {:?} \
             ({} columns, expected {})",
            differs + 1,
            header.get(differs).unwrap_or(""),
            expected.get(differs).copied().unwrap_or(""),
            header.len(),
            expected.len()
        )));
    }
    let mut record = csv::StringRecord::new();
    let mut line = 1;
    while reader
        .read_record(&mut record)
        .map_err(|error| failed(error.to_string()))?
    {
        line += 1;
        let at_line = |cause: String| failed(format!("line {line}: {cause}"));
        let field = |index: usize| record.get(index).unwrap_or("");
        let engine = LayoutEngine::from_name(field(2)).ok_or_else(|| {
            at_line(format!(
                "layout is {:?}, not chromium, native or none",
                field(2)
            ))
        })?;
        match layout {
            Some((known, first_file)) if *known != engine => {
                return Err(at_line(format!(
                    "rows laid out by {} and by {} (in {}): a model is fitted on one engine",
                    engine.name(),
                    known.name(),
                    first_file.display()
                )));
            }
            Some(_) => {}
            None => *layout = Some((engine, file.to_path_buf())),
        }
        let number = |index: usize| -> Result<f64, String> {
            let text = field(index);
            text.parse::<f64>()
                .ok()
                .filter(|value| value.is_finite())
                .ok_or_else(|| format!("{} is {text:?}, not a finite number", expected[index]))
        };
        let area = number(4).map_err(at_line)?;
        let template = match field(5) {
            "true" | "True" | "1" => true,
            "false" | "False" | "0" => false,
            other => return Err(at_line(format!("template is {other:?}, not true or false"))),
        };
        let mut row: FeatureRow = [0.0; FEATURE_COUNT];
        for (feature, value) in row.iter_mut().enumerate() {
            *value = number(LEADING_COLUMNS.len() + feature).map_err(at_line)?;
        }
        let site = sites.entry(field(0).to_string()).or_default();
        if site.domain.is_none() && !field(1).is_empty() {
            site.domain = Some(field(1).to_string());
        }
        site.push(
            field(3),
            LabelledNode {
                row,
                area,
                template,
                site: 0,
            },
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(name: &str, pages: &[(&str, &[(f64, bool)])]) -> LabelledSite {
        let pages: Vec<LabelledPage> = pages
            .iter()
            .map(|(page, nodes)| LabelledPage {
                name: page.to_string(),
                nodes: nodes
                    .iter()
                    .enumerate()
                    .map(|(index, (area, template))| {
                        let mut row = [0.0; FEATURE_COUNT];
                        row[index % FEATURE_COUNT] = 1.0 / 3.0 + index as f64;
                        LabelledNode {
                            row,
                            area: *area,
                            template: *template,
                            site: 0,
                        }
                    })
                    .collect(),
            })
            .collect();
        let mut summary = SiteReport::new(name.to_string(), pages.len(), 0, 0);
        summary.count_nodes(pages.iter().flat_map(|page| &page.nodes));
        LabelledSite { summary, pages }
    }

    #[test]
    fn rows_read_back_give_the_same_sites_pages_and_nodes_bit_for_bit() {
        let directory = tempfile::tempdir().expect("temp dir");
        let path = directory.path().join("rows.csv");
        let mut news = site(
            "news, \"quoted\"",
            &[("https://a/1", &[(5000.0, true), (1.0e-7, false)])],
        );
        news.summary.domain = Some("news/portal".into());
        let docs = site(
            "docs",
            &[
                ("b/1.html", &[(2500.5, false)]),
                ("b/2.html", &[(3e9, true)]),
            ],
        );
        write_rows(&path, &[news.clone(), docs.clone()], LayoutEngine::Native).expect("write");
        let read = read_rows(&[path]).expect("read");
        assert_eq!(read.layout, LayoutEngine::Native);
        let names: Vec<&str> = read
            .sites
            .sites
            .iter()
            .map(|s| s.summary.site.as_str())
            .collect();
        assert_eq!(names, ["docs", "news, \"quoted\""], "sites sorted by name");
        for (got, wanted) in read.sites.sites.iter().zip([&docs, &news]) {
            assert_eq!(got.summary.domain, wanted.summary.domain);
            assert_eq!(got.summary.pages, wanted.pages.len());
            let page_names = |site: &LabelledSite| -> Vec<String> {
                site.pages.iter().map(|page| page.name.clone()).collect()
            };
            assert_eq!(page_names(got), page_names(wanted));
            for (a, b) in got.nodes().zip(wanted.nodes()) {
                assert_eq!((a.row, a.area, a.template), (b.row, b.area, b.template));
            }
            assert_eq!(got.nodes().count(), wanted.nodes().count());
        }
    }

    #[test]
    fn rows_of_another_feature_set_are_refused_naming_the_column() {
        let directory = tempfile::tempdir().expect("temp dir");
        let path = directory.path().join("old.csv");
        let mut columns = row_columns();
        columns[7] = "some_old_feature";
        std::fs::write(&path, columns.join(",") + "\n").expect("write");
        let error = read_rows(std::slice::from_ref(&path))
            .unwrap_err()
            .to_string();
        assert!(error.contains("old.csv"), "{error}");
        assert!(
            error.contains("column 8") && error.contains("some_old_feature"),
            "{error}"
        );
    }

    #[test]
    fn rows_of_two_layout_engines_are_refused() {
        let directory = tempfile::tempdir().expect("temp dir");
        let sites = [site("docs", &[("p", &[(3000.0, true)])])];
        write_rows(
            &directory.path().join("a.csv"),
            &sites,
            LayoutEngine::Native,
        )
        .expect("a");
        write_rows(
            &directory.path().join("b.csv"),
            &sites,
            LayoutEngine::Chromium,
        )
        .expect("b");
        let error = read_rows(&[directory.path().to_path_buf()])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("b.csv") && error.contains("chromium") && error.contains("native"),
            "{error}"
        );
    }

    #[test]
    fn a_non_number_feature_is_refused_with_its_line_and_column() {
        let directory = tempfile::tempdir().expect("temp dir");
        let path = directory.path().join("bad.csv");
        let mut text = row_columns().join(",") + "\n";
        let mut fields = vec!["s", "", "native", "p", "2000", "true"];
        fields.extend(std::iter::repeat_n("0", FEATURE_COUNT - 1));
        fields.push("NaN");
        text += &(fields.join(",") + "\n");
        std::fs::write(&path, text).expect("write");
        let error = read_rows(&[path]).unwrap_err().to_string();
        assert!(
            error.contains("line 2") && error.contains(FEATURE_NAMES[FEATURE_COUNT - 1]),
            "{error}"
        );
    }
}
