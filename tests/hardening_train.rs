//! `pagelevel train --out`: an output that cannot be written is refused before training starts.

mod common;

use common::{example_page, pagelevel};
use predicates::prelude::*;

#[test]
fn train_refuses_an_out_path_in_a_missing_directory_before_training() {
    let cache = tempfile::tempdir().expect("temp dir");
    let work = tempfile::tempdir().expect("temp dir");
    let site = work.path().join("site");
    std::fs::create_dir_all(&site).expect("mkdir");
    for name in ["a.html", "b.html", "c.html"] {
        std::fs::copy(example_page(), site.join(name)).expect("copy");
    }
    let sites = work.path().join("sites.txt");
    std::fs::write(&sites, "site\n").expect("write");
    let out = work.path().join("no/such/dir/model.json");
    pagelevel(cache.path())
        .args(["train", "--quiet", "--layout", "native", "--sites"])
        .arg(&sites)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("cannot write model")
                .and(predicate::str::contains("no/such/dir/model.json"))
                .and(predicate::str::contains("No such file"))
                .and(predicate::str::contains("warning").not()),
        );
}
