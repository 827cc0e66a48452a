//! Native layout is the default: every command that lays pages out (score, render, eval, train)
//! and `sample` runs with no layout flag on a machine whose only "Chromium" is a tripwire that
//! records being started, and the tripwire stays untouched; `--layout chromium` does start it.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::{datasets, example_page, pagelevel, succeed};
use pagelevel::model::TemplateModel;

/// A fake `chromium` that records every start in `started` and fails, found both on the PATH
/// and through `$PAGELEVEL_CHROMIUM`.
struct Tripwire {
    folder: tempfile::TempDir,
}

impl Tripwire {
    fn new() -> Tripwire {
        let folder = tempfile::tempdir().expect("temp dir");
        let script = folder.path().join("chromium");
        let started = folder.path().join("started");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\necho \"$@\" >> '{}'\nexit 1\n",
                started.display()
            ),
        )
        .expect("write the tripwire");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
            .expect("make it executable");
        Tripwire { folder }
    }

    /// The command with this tripwire as the only Chromium it can find.
    fn arm(&self, command: &mut assert_cmd::Command) {
        command
            .env("PATH", self.folder.path())
            .env("PAGELEVEL_CHROMIUM", self.folder.path().join("chromium"));
    }

    fn was_started(&self) -> bool {
        self.folder.path().join("started").exists()
    }
}

/// Runs `pagelevel ARGS` with the tripwire armed; requires success and no browser start.
fn runs_without_a_browser(args: &[&str], extra: &[&Path]) -> std::process::Output {
    runs_without_a_browser_with_env(args, extra, ("PAGELEVEL_TEST", Path::new("1")))
}

/// [`runs_without_a_browser`] with one more environment variable.
fn runs_without_a_browser_with_env(
    args: &[&str],
    extra: &[&Path],
    (name, value): (&str, &Path),
) -> std::process::Output {
    let tripwire = Tripwire::new();
    let cache = tempfile::tempdir().expect("temp dir");
    let mut command = pagelevel(cache.path());
    tripwire.arm(&mut command);
    command.env(name, value).args(args).args(extra);
    let output = succeed(&mut command);
    assert!(
        !tripwire.was_started(),
        "`pagelevel {}` started a browser though no --layout chromium was asked for",
        args.join(" ")
    );
    output
}

#[test]
fn score_lays_pages_out_natively_and_with_the_native_model_by_default() {
    let output = runs_without_a_browser(&["score", "--format", "json"], &[&example_page()]);
    let page: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert!(
        page["main_text"]
            .as_str()
            .is_some_and(|text| text.contains("GNU is a Unix-like operating system")),
        "{}",
        page["main_text"]
    );
    // The default model is the one trained on native layouts: a Chromium-trained model file
    // is refused for the default engine, as for any engine it was not trained on.
    let cache = tempfile::tempdir().expect("temp dir");
    let chromium_model = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/chromium.json");
    let refusal = pagelevel(cache.path())
        .arg("score")
        .arg("--model")
        .arg(&chromium_model)
        .arg(example_page())
        .output()
        .expect("runs");
    assert_eq!(refusal.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refusal.stderr).contains("trained on chromium layouts"));
    assert_eq!(
        TemplateModel::builtin().expect("built-in").layout_engine,
        pagelevel::model::LayoutEngine::Native
    );
}

#[test]
fn render_writes_a_native_snapshot_by_default() {
    let work = tempfile::tempdir().expect("temp dir");
    let snapshot = work.path().join("snapshot.json");
    runs_without_a_browser(&["render", "-o"], &[&snapshot, &example_page()]);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&snapshot).expect("snapshot")).expect("JSON");
    assert_eq!(json["layout_engine"], "native");
}

#[test]
fn eval_scores_labelled_pages_natively_by_default() {
    let labels = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/native-example");
    let spec = format!("native:{}", labels.display());
    let output = runs_without_a_browser(
        &[
            "eval",
            "--split",
            "all",
            "--json",
            "--quiet",
            "--no-sitelevel",
            "--dataset",
            &spec,
        ],
        &[],
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON line");
    assert_eq!(report["pages"], 2, "{report}");
    assert_eq!(report["failed"], serde_json::json!([]), "{report}");
}

#[test]
fn train_labels_sites_laid_out_natively_by_default() {
    let work = tempfile::tempdir().expect("temp dir");
    let sites: PathBuf = work.path().join("sites.txt");
    let shared = datasets().join("sites");
    std::fs::write(
        &sites,
        format!(
            "{}\n{}\n",
            shared.join("sqlite-website").display(),
            shared.join("httrack-website").display()
        ),
    )
    .expect("write the list");
    let model = work.path().join("model.json");
    runs_without_a_browser(
        &[
            "train",
            "--max-pages",
            "6",
            "--min-pages",
            "3",
            "--holdout-every",
            "0",
        ],
        &[Path::new("--sites"), &sites, Path::new("--out"), &model],
    );
    let trained = TemplateModel::load(&model).expect("the model loads");
    assert_eq!(
        trained.layout_engine,
        pagelevel::model::LayoutEngine::Native
    );
}

#[test]
fn sample_needs_no_browser() {
    let work = tempfile::tempdir().expect("temp dir");
    let key = work.path().join("key.html");
    std::fs::write(&key, "<html><body><a href='a.html'>A</a></body></html>").expect("write");
    std::fs::write(work.path().join("a.html"), "<html><body>A</body></html>").expect("write");
    runs_without_a_browser(&["sample", "--json", "--key"], &[&key]);
}

#[test]
fn layout_chromium_is_what_starts_a_browser() {
    let tripwire = Tripwire::new();
    let cache = tempfile::tempdir().expect("temp dir");
    let mut command = pagelevel(cache.path());
    tripwire.arm(&mut command);
    let output = command
        .args(["score", "--layout", "chromium", "--no-cache"])
        .arg(example_page())
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(
        tripwire.was_started(),
        "--layout chromium did not start the browser it names"
    );
}

#[test]
fn native_layout_without_chromiums_fonts_warns_once_naming_the_package_and_still_scores() {
    let work = tempfile::tempdir().expect("temp dir");
    let no_fonts = work.path().join("fonts.conf");
    std::fs::write(
        &no_fonts,
        "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig></fontconfig>\n",
    )
    .expect("write an empty fontconfig");
    let warning = "are not installed: native layout sets text in other fonts";
    let without = runs_without_a_browser_with_env(
        &["score", "--jobs", "2", "--format", "main"],
        &[&example_page(), &example_page()],
        ("FONTCONFIG_FILE", &no_fonts),
    );
    let stderr = String::from_utf8_lossy(&without.stderr);
    assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
    assert!(stderr.contains("Liberation Sans") && stderr.contains("fonts-liberation"));
    // With no font at all the page is still scored (its text has no width, so what comes out is
    // poor: the reason for the warning).
    assert!(!without.stdout.is_empty());
    let with = runs_without_a_browser(&["score", "--format", "main"], &[&example_page()]);
    assert!(!String::from_utf8_lossy(&with.stderr).contains(warning));
}
