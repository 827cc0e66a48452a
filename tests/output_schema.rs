//! The JSON Schema of `score`'s output is generated from the output types, checked in under
//! `src/output/schema/`, and describes what `score` really writes.

mod common;

use std::path::Path;

use common::{example_page, pagelevel, succeed};

fn schema(format: &str) -> serde_json::Value {
    let cache = tempfile::tempdir().expect("temp dir");
    let output = succeed(pagelevel(cache.path()).args(["schema", "--format", format]));
    let checked_in = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/output/schema")
        .join(if format == "json" {
            "page.json"
        } else {
            "line.json"
        });
    let expected = std::fs::read_to_string(&checked_in).expect("checked-in schema");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        expected,
        "{} is stale: regenerate it with `pagelevel schema --format {format}`",
        checked_in.display()
    );
    serde_json::from_str(&expected).expect("the schema is JSON")
}

/// Every field `score` writes is described, and every required field is written.
fn assert_describes(schema: &serde_json::Value, value: &serde_json::Value) {
    let properties = schema["properties"].as_object().expect("properties");
    let written = value.as_object().expect("an object");
    for key in written.keys() {
        assert!(properties.contains_key(key), "the schema lacks `{key}`");
    }
    for key in schema["required"].as_array().expect("required") {
        let key = key.as_str().expect("a name");
        assert!(written.contains_key(key), "the output lacks `{key}`");
    }
}

#[test]
fn the_checked_in_schemas_are_current_and_describe_the_real_output() {
    let cache = tempfile::tempdir().expect("temp dir");
    let page = succeed(pagelevel(cache.path()).arg("score").arg(example_page()));
    let page: serde_json::Value = serde_json::from_slice(&page.stdout).expect("JSON");
    let page_schema = schema("json");
    assert_describes(&page_schema, &page);
    assert_describes(&page_schema["$defs"]["NodeOutput"], &page["nodes"][0]);
    assert_describes(&page_schema["$defs"]["Section"], &page["sections"][0]);
    assert_describes(&page_schema["$defs"]["Metadata"], &page["metadata"]);
    let line = succeed(
        pagelevel(cache.path())
            .args(["score", "--format", "jsonl"])
            .arg(example_page()),
    );
    let line: serde_json::Value = serde_json::from_slice(&line.stdout).expect("JSON");
    assert_describes(&schema("jsonl"), &line);
}
