//! Labelling and fitting apart: `train --rows-out` writes the labelled nodes of real shared sites,
//! `train --rows` fits from them, and the model is the one `train --sites` fits directly.

use std::path::Path;

mod common;

use common::{datasets, pagelevel, refused, succeed};
use pagelevel::model::{LayoutEngine, TemplateModel};

/// A sites list of three small shared sites, in name order (rows are read back sorted by site
/// name, and which sites are held out follows that order).
fn sites_list(directory: &Path) -> std::path::PathBuf {
    let sites = datasets().join("sites");
    let list = directory.join("sites.txt");
    let lines: Vec<String> = ["httrack-website", "sqlite-website", "whizzy-blog-wordpress"]
        .iter()
        .map(|site| sites.join(site).display().to_string())
        .collect();
    std::fs::write(&list, lines.join("\n") + "\n").expect("write the sites list");
    list
}

#[test]
fn a_model_fitted_from_written_rows_is_the_model_fitted_from_the_sites() {
    let directory = tempfile::tempdir().expect("temp dir");
    let list = sites_list(directory.path());
    let (direct, rows, refitted) = (
        directory.path().join("direct.json"),
        directory.path().join("rows.csv"),
        directory.path().join("refitted.json"),
    );
    let train = |arguments: &[&str]| {
        let mut command = pagelevel(&directory.path().join("cache"));
        command.args(["train", "--quiet", "--layout", "native", "--max-pages", "8"]);
        command.args(["--min-pages", "3", "--holdout-every", "2"]);
        succeed(command.args(arguments));
    };
    let path = |path: &Path| path.display().to_string();
    train(&[
        "--sites",
        &path(&list),
        "--out",
        &path(&direct),
        "--rows-out",
        &path(&rows),
    ]);
    train(&["--rows", &path(&rows), "--out", &path(&refitted)]);

    let text = std::fs::read_to_string(&rows).expect("rows written");
    let header = text.lines().next().expect("a header");
    assert!(
        header.starts_with("site,domain,layout,page,area,template,"),
        "{header}"
    );
    assert!(text.lines().count() > 100, "a row per classified node");
    let direct = TemplateModel::load(&direct).expect("direct model loads");
    let refitted = TemplateModel::load(&refitted).expect("refitted model loads");
    assert_eq!(
        refitted.layout_engine,
        LayoutEngine::Native,
        "the rows' engine"
    );
    assert_eq!(refitted.training.nodes, direct.training.nodes);
    assert_eq!(refitted.training.pages, direct.training.pages);
    for (a, b) in refitted.buckets.iter().zip(&direct.buckets) {
        assert_eq!(a.coefficients, b.coefficients, "same rows, same fit");
        assert_eq!(a.intercept, b.intercept);
    }
}

#[test]
fn rows_that_are_not_training_rows_are_refused_naming_the_file() {
    let directory = tempfile::tempdir().expect("temp dir");
    let rows = directory.path().join("scores.csv");
    std::fs::write(&rows, "url,main_text\nhttps://a/,text\n").expect("write");
    let out = directory.path().join("model.json");
    let error = refused(pagelevel(directory.path()).args([
        "train",
        "--rows",
        &rows.display().to_string(),
        "--out",
        &out.display().to_string(),
    ]));
    assert!(
        error.contains("scores.csv") && error.contains("not pagelevel training rows"),
        "{error}"
    );
    assert!(!out.exists(), "no model from a failed fit");
}
