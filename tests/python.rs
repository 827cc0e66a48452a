//! The Python package's tests (python/tests) and the Spark job's (spark/tests, local[2]), run
//! with pytest against the wheel `.ci/setup` installed, so the README's one test command runs
//! them too.

use std::process::Command;

fn pytest(directory: &str) {
    let root = env!("CARGO_MANIFEST_DIR");
    let output = Command::new("python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", directory])
        .current_dir(root)
        .env("PAGELEVEL_BIN", env!("CARGO_BIN_EXE_pagelevel"))
        .output()
        .expect("python3 runs (install the package with .ci/setup)");
    assert!(
        output.status.success(),
        "pytest {directory} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_python_package_passes_its_tests() {
    pytest("python/tests");
}

#[test]
fn the_spark_job_passes_its_tests_in_local_mode() {
    pytest("spark/tests");
}
