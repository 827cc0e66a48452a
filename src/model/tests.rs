use rand::SeedableRng;
use rand::rngs::StdRng;

use super::*;
use crate::features::{FEATURE_COUNT, Feature};

fn node(links_per_word: f64, area: f64, template: bool) -> LabelledNode {
    let mut row = [0.0; FEATURE_COUNT];
    row[Feature::LinksPerWord as usize] = links_per_word;
    row[Feature::LogArea as usize] = area.ln();
    LabelledNode {
        row,
        area,
        template,
        site: 0,
    }
}

/// Link-heavy nodes are template, text nodes are not, at every size.
fn separable_nodes() -> Vec<LabelledNode> {
    let mut nodes = Vec::new();
    for i in 0..400 {
        let area = 2_000.0 + (i as f64) * 1_000.0;
        let jitter = (i % 7) as f64 * 0.01;
        nodes.push(node(0.8 + jitter, area, true));
        nodes.push(node(0.05 + jitter, area, false));
    }
    nodes
}

#[test]
fn a_fitted_model_gives_the_probability_of_template_whatever_class_linfa_calls_positive() {
    let nodes = separable_nodes();
    let model =
        fit_model(&nodes, &FitOptions::default(), TrainingSummary::default()).expect("fits");
    assert_eq!(model.buckets.len(), 4);
    let link_list = node(0.9, 50_000.0, true);
    let article = node(0.02, 50_000.0, false);
    assert!(model.bucket_for(50_000.0).probability(&link_list.row) > 0.9);
    assert!(model.bucket_for(50_000.0).probability(&article.row) < 0.1);
    let metrics = evaluate_model(&model, &nodes);
    assert!(
        metrics
            .iter()
            .all(|bucket| bucket.accuracy > 0.99 && bucket.auc > 0.99),
        "{metrics:?}"
    );
}

#[test]
fn buckets_split_the_training_areas_at_their_quartiles() {
    let model = fit_model(
        &separable_nodes(),
        &FitOptions::default(),
        TrainingSummary::default(),
    )
    .expect("fits");
    let counts: Vec<usize> = model.buckets.iter().map(|b| b.training.nodes).collect();
    assert_eq!(counts, [200, 200, 200, 200]);
    assert_eq!(model.buckets[0].min_area, 2_000.0);
    assert!(model.buckets[3].max_area.is_none());
}

#[test]
fn a_saved_model_loads_back_identical() {
    let model = fit_model(
        &separable_nodes(),
        &FitOptions::default(),
        TrainingSummary::default(),
    )
    .expect("fits");
    let directory = tempfile::tempdir().expect("temp dir");
    let path = directory.path().join("model.json");
    model.save(&path).expect("saves");
    assert_eq!(TemplateModel::load(&path).expect("loads"), model);
}

#[test]
fn a_newer_version_a_corrupt_file_and_other_features_are_refused_with_the_reason() {
    let model = fit_model(
        &separable_nodes(),
        &FitOptions::default(),
        TrainingSummary::default(),
    )
    .expect("fits");
    let mut json: serde_json::Value = serde_json::to_value(&model).expect("json");
    json["format_version"] = 99.into();
    let error = TemplateModel::from_json(&json.to_string(), "m.json").unwrap_err();
    assert!(error.to_string().contains("format version 99"), "{error}");

    let error = TemplateModel::from_json("{not json", "m.json").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("m.json is not a valid pagelevel model"),
        "{error}"
    );

    json["format_version"] = MODEL_FORMAT_VERSION.into();
    json["feature_names"][3] = "something_else".into();
    let error = TemplateModel::from_json(&json.to_string(), "m.json").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("feature 3 is \"something_else\""),
        "{error}"
    );
}

#[test]
fn auc_counts_ties_as_half() {
    assert_eq!(fit::roc_auc(&[(0.1, false), (0.9, true)]), 1.0);
    assert_eq!(fit::roc_auc(&[(0.5, false), (0.5, true)]), 0.5);
    assert_eq!(fit::roc_auc(&[(0.9, false), (0.1, true)]), 0.0);
}

#[test]
fn site_balancing_cuts_every_site_down_to_the_median_site_in_the_bucket() {
    let mut nodes = Vec::new();
    for (site, count) in [(0, 5), (1, 100), (2, 12), (3, 40), (4, 300)] {
        for i in 0..count {
            nodes.push(LabelledNode {
                site,
                ..node(0.1, 5_000.0, i % 2 == 0)
            });
        }
    }
    let members: Vec<&LabelledNode> = nodes.iter().collect();
    let per_site = |sample: &[&LabelledNode]| -> Vec<usize> {
        (0..5)
            .map(|site| sample.iter().filter(|n| n.site == site).count())
            .collect()
    };
    let sample = fit::sites_balanced(&members, &mut StdRng::seed_from_u64(7));
    assert_eq!(per_site(&sample), [5, 40, 12, 40, 40]);
    let again = fit::sites_balanced(&members, &mut StdRng::seed_from_u64(7));
    assert!(
        sample.iter().zip(&again).all(|(a, b)| std::ptr::eq(*a, *b)),
        "the same seed draws the same nodes"
    );
}

#[test]
fn with_equal_site_weight_one_large_site_no_longer_outvotes_the_others() {
    // Three sites call link lists template; one site ten times their size calls them content.
    let mut nodes = Vec::new();
    for site in 0..4 {
        let (count, links_are_template) = if site == 3 {
            (2_000, false)
        } else {
            (200, true)
        };
        for i in 0..count {
            let area = 2_000.0 + (i % 400) as f64 * 1_000.0;
            let jitter = (i % 7) as f64 * 0.01;
            nodes.push(LabelledNode {
                site,
                ..node(0.8 + jitter, area, links_are_template)
            });
            nodes.push(LabelledNode {
                site,
                ..node(0.05 + jitter, area, !links_are_template)
            });
        }
    }
    let link_list = node(0.85, 50_000.0, true).row;
    let p_template = |site_balance: SiteBalance| {
        let options = FitOptions {
            site_balance,
            ..FitOptions::default()
        };
        fit_model(&nodes, &options, TrainingSummary::default())
            .expect("fits")
            .bucket_for(50_000.0)
            .probability(&link_list)
    };
    assert!(p_template(SiteBalance::Equal) > 0.5);
    assert!(p_template(SiteBalance::None) < 0.5);
}

/// The shipped model as JSON, to damage one field at a time.
fn builtin_json() -> serde_json::Value {
    serde_json::to_value(TemplateModel::builtin().expect("built-in model")).expect("json")
}

/// The load error of `json`, as a user reads it.
fn refusal(json: &serde_json::Value) -> String {
    TemplateModel::from_json(&json.to_string(), "m.json")
        .expect_err("refused")
        .to_string()
}

#[test]
fn a_model_with_overflowing_or_absurd_numbers_is_refused_at_load_naming_field_and_bucket() {
    let mut json = builtin_json();
    json["buckets"][1]["coefficients"][2] = 1e308.into();
    let error = refusal(&json);
    assert!(
        error.contains("bucket 1") && error.contains("coefficients[2]") && error.contains("1e308"),
        "{error}"
    );

    let mut json = builtin_json();
    json["buckets"][0]["intercept"] = (-2e6).into();
    let error = refusal(&json);
    assert!(
        error.contains("bucket 0") && error.contains("intercept"),
        "{error}"
    );

    let mut json = builtin_json();
    json["buckets"][3]["standardization"]["mean"][0] = 5e7.into();
    let error = refusal(&json);
    assert!(
        error.contains("bucket 3") && error.contains("standardization.mean[0]"),
        "{error}"
    );

    for scale in [0.0, -1.0, 1e-300] {
        let mut json = builtin_json();
        json["buckets"][2]["standardization"]["scale"][4] = scale.into();
        let error = refusal(&json);
        assert!(
            error.contains("bucket 2") && error.contains("standardization.scale[4]"),
            "{error}"
        );
    }
}

#[test]
fn a_model_with_bad_bucket_ranges_or_hidden_area_is_refused_at_load() {
    let mut json = builtin_json();
    json["buckets"][1]["max_area"] = json["buckets"][1]["min_area"].clone();
    let error = refusal(&json);
    assert!(
        error.contains("bucket 1") && error.contains("max_area"),
        "{error}"
    );

    let mut json = builtin_json();
    json["buckets"][2]["min_area"] = 3_000.0.into();
    let error = refusal(&json);
    assert!(
        error.contains("bucket 2") && error.contains("overlapping"),
        "{error}"
    );

    let mut json = builtin_json();
    json["buckets"][1]["max_area"] = serde_json::Value::Null;
    let error = refusal(&json);
    assert!(
        error.contains("bucket 1") && error.contains("unbounded"),
        "{error}"
    );

    for hidden in [-1.0, 2e7] {
        let mut json = builtin_json();
        json["hidden_area"] = hidden.into();
        let error = refusal(&json);
        assert!(error.contains("hidden_area"), "{error}");
    }
}

#[test]
fn the_shipped_models_pass_the_load_checks() {
    TemplateModel::builtin_for(LayoutEngine::Chromium).expect("chromium model");
    TemplateModel::builtin_for(LayoutEngine::Native).expect("native model");
}

/// The error and its causes as `pagelevel` prints them: `a: b: c`.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        text.push_str(&format!(": {inner}"));
        cause = inner.source();
    }
    text
}

#[test]
fn a_missing_model_file_is_reported_with_its_cause_once() {
    let directory = tempfile::tempdir().expect("temp dir");
    let path = directory.path().join("missing.json");
    let error = TemplateModel::load(&path).expect_err("missing");
    let text = with_causes(&error);
    assert!(text.contains("missing.json"), "{text}");
    assert_eq!(text.matches("No such file").count(), 1, "{text}");
}

#[test]
fn a_model_cannot_be_trained_for_a_directory_that_does_not_exist() {
    let directory = tempfile::tempdir().expect("temp dir");
    let path = directory.path().join("no/such/dir/model.json");
    let error = TemplateModel::check_writable(&path).expect_err("refused");
    assert!(
        error.to_string().contains("no/such/dir/model.json"),
        "{error}"
    );
    TemplateModel::check_writable(&directory.path().join("model.json")).expect("writable");
    assert_eq!(
        std::fs::read_dir(directory.path()).expect("list").count(),
        0
    );
}

/// Set in the child process of the test below, which saves under a small file-size limit.
const SAVE_UNDER_LIMIT: &str = "PAGELEVEL_TEST_SAVE_UNDER_FILE_LIMIT";

#[test]
fn a_save_that_fails_part_way_leaves_the_previous_model_whole() {
    let model = TemplateModel::builtin().expect("built-in model");
    if let Some(path) = std::env::var_os(SAVE_UNDER_LIMIT) {
        // The child: writing more than the limit fails with EFBIG (SIGXFSZ is ignored).
        model
            .save(Path::new(&path))
            .expect_err("the write exceeds the file-size limit");
        return;
    }
    let directory = tempfile::tempdir().expect("temp dir");
    let path = directory.path().join("model.json");
    let previous = "{\"the previous model\": true}\n";
    std::fs::write(&path, previous).expect("write");
    // The child's output goes to pipes: the file-size limit applies to every file it writes,
    // and a caller's stdout may be a file already past the limit (as in CI's log).
    let child = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 8; exec \"$0\" \"$@\"")
        .arg(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "model::tests::a_save_that_fails_part_way_leaves_the_previous_model_whole",
            "--test-threads=1",
        ])
        .env(SAVE_UNDER_LIMIT, &path)
        .output()
        .expect("the child runs");
    assert!(
        child.status.success(),
        "the child's save did not fail as expected: {}{}",
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    assert_eq!(std::fs::read_to_string(&path).expect("read"), previous);
    assert_eq!(
        std::fs::read_dir(directory.path()).expect("list").count(),
        1
    );
}
