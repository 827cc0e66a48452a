#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use tempfile::TempDir;

/// Where the harness writes the files its readers take by path; one per fuzzing process.
static SCRATCH: LazyLock<TempDir> =
    LazyLock::new(|| tempfile::tempdir().expect("a temporary directory"));

fuzz_target!(|data: &[u8]| pagelevel::fuzzing::warc(data, SCRATCH.path()));
