#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use tempfile::TempDir;

/// Where the harness writes the files its readers take by path: one folder per fuzzing process
/// (workers must not share files), under fuzz/scratch/ because libFuzzer exits without running
/// destructors, so the folder outlives the run.
static SCRATCH: LazyLock<TempDir> = LazyLock::new(|| {
    let parent = concat!(env!("CARGO_MANIFEST_DIR"), "/scratch");
    std::fs::create_dir_all(parent).expect("fuzz/scratch can be created");
    tempfile::tempdir_in(parent).expect("a folder in fuzz/scratch")
});

fuzz_target!(|data: &[u8]| pagelevel::fuzzing::warc(data, SCRATCH.path()));
