//! The quality gate (trafilatura keeps a committed evaluation; so do we): `pagelevel eval` on
//! the first development pages of five shared labelled sets, as a user runs it, must not fall
//! below the floors committed in `training/reports/gate/floors.json` — template text F1 of the
//! smoothed detector, main-text F1 of the `main_text` users get, and pages with gold text but
//! an empty `main_text` or `content_text`. Test pages are never used here (the frozen split,
//! `training/reports/split/README.md`). Layouts are cached under the target directory, so only
//! the first run renders (~60 pages).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

const LABELLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/datasets/labeled");
const FLOORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/training/reports/gate/floors.json"
);

fn floors() -> Value {
    let text = std::fs::read_to_string(FLOORS).expect("floors.json is committed");
    serde_json::from_str(&text).expect("floors.json is JSON")
}

fn number(value: &Value, context: &str) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("{context} is not a number: {value}"))
}

#[test]
fn development_pages_score_at_or_above_the_committed_floors() {
    let floors = floors();
    let pages = floors["pages_per_set"].as_u64().expect("pages_per_set");
    let sets = floors["sets"].as_object().expect("sets");
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("quality-gate-layouts");
    let mut command = Command::cargo_bin("pagelevel").expect("binary");
    command
        .args([
            "eval",
            "--quiet",
            "--json",
            "--no-sitelevel",
            "--split",
            "dev",
        ])
        .arg("--limit")
        .arg(pages.to_string())
        .arg("--cache-dir")
        .arg(&cache);
    for (name, floor) in sets {
        // A set's folder is its format's name unless the floors say otherwise (wcxb-dev).
        let folder = floor.get("path").and_then(Value::as_str).unwrap_or(name);
        let path = Path::new(LABELLED).join(folder);
        command
            .arg("--dataset")
            .arg(format!("{name}:{}", path.display()));
    }
    let output = command.output().expect("eval runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut failures = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let report: Value = serde_json::from_str(line).expect("one JSON object per line");
        if report.get("mapping").is_some_and(|m| m == "strict") {
            continue;
        }
        let dataset = report["dataset"].as_str().expect("dataset");
        let name = dataset.split(':').next().expect("FORMAT:PATH");
        let floor = &floors["sets"][name];
        let measured = [
            (
                "template_text_f1",
                number(&report["variants"]["smooth"]["text"]["f1"], "text f1"),
            ),
            (
                "main_text_f1",
                number(
                    &report["output"]["pagelevel main_text"]["micro"]["f1"],
                    "main text f1",
                ),
            ),
        ];
        for (measure, value) in measured {
            let minimum = number(&floor[measure], measure);
            println!("{name} {measure}: {value:.4} (floor {minimum})");
            if value < minimum {
                failures.push(format!("{name}: {measure} {value:.4} < floor {minimum}"));
            }
        }
        for output_name in ["pagelevel main_text", "pagelevel content_text"] {
            let empty = report["output"][output_name]["empty_failures"]
                .as_u64()
                .expect("empty_failures");
            println!("{name} {output_name} empty outputs: {empty}");
            if empty > 0 {
                failures.push(format!(
                    "{name}: {empty} pages with gold text got an empty {output_name}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "below the floors: {failures:#?}");
}
