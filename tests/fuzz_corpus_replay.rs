//! The fuzzers' checked-in corpora, replayed on stable: every file of `fuzz/corpus/NAME/` goes
//! through the harness the fuzz target `NAME` runs (`pagelevel::fuzzing`), so an input that once
//! found a crash, or reached a new branch, keeps being checked by `cargo test` without nightly.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use pagelevel::fuzzing::TARGETS;

fn fuzz_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn corpus_files(target: &str) -> Vec<PathBuf> {
    let folder = fuzz_folder().join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("a readable corpus folder").path())
        .collect();
    files.sort();
    files
}

#[test]
fn every_harness_has_a_fuzz_target_and_a_corpus() {
    for (name, _) in TARGETS {
        let target = fuzz_folder()
            .join("fuzz_targets")
            .join(format!("{name}.rs"));
        assert!(target.is_file(), "no fuzz target {}", target.display());
        assert!(
            !corpus_files(name).is_empty(),
            "the corpus of {name} is empty"
        );
    }
}

#[test]
fn every_corpus_input_runs_through_its_harness_without_a_panic() {
    let scratch = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (name, harness) in TARGETS {
        for file in corpus_files(name) {
            let data = std::fs::read(&file).unwrap();
            if catch_unwind(AssertUnwindSafe(|| harness(&data, scratch.path()))).is_err() {
                failures.push(file.display().to_string());
            }
        }
    }
    assert!(failures.is_empty(), "harnesses panicked on {failures:#?}");
}
