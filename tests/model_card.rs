//! The model card states the shipped model's numbers as `pagelevel model-card` generates them
//! from the model file, so the card cannot drift from the model.

mod common;

use common::{pagelevel, succeed};

const CARD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/README.md");
const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/default.json");

/// Each shipped model and its card.
const SHIPPED: &[(&str, &str)] = &[
    ("models/default.json", "models/README.md"),
    ("models/chromium.json", "models/chromium.md"),
];

#[test]
fn the_committed_model_cards_carry_the_numbers_generated_from_the_model_files() {
    let cache = tempfile::tempdir().expect("temp dir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (model, card) in SHIPPED {
        let generated = succeed(
            pagelevel(cache.path())
                .arg("model-card")
                .arg(root.join(model)),
        )
        .stdout;
        let generated = String::from_utf8(generated).expect("UTF-8");
        let text = std::fs::read_to_string(root.join(card)).expect("the model card");
        assert!(
            text.contains(generated.trim_end()),
            "{card} is stale: run `pagelevel model-card {model} --update {card}`"
        );
    }
}

#[test]
fn the_main_text_model_card_carries_the_numbers_generated_from_its_file() {
    let cache = tempfile::tempdir().expect("temp dir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let generated = succeed(
        pagelevel(cache.path())
            .args(["model-card", "--main-text"])
            .arg(root.join("models/main-text.json")),
    )
    .stdout;
    let generated = String::from_utf8(generated).expect("UTF-8");
    assert!(generated.contains("| in_rules_main |"), "{generated}");
    let text = std::fs::read_to_string(root.join("models/main-text.md")).expect("the card");
    assert!(
        text.contains(generated.trim_end()),
        "models/main-text.md is stale: run `pagelevel model-card --main-text models/main-text.json --update models/main-text.md`"
    );
}

#[test]
fn update_replaces_the_generated_block_of_a_card_and_refuses_a_card_without_one() {
    let cache = tempfile::tempdir().expect("temp dir");
    let folder = tempfile::tempdir().expect("temp dir");
    let card = folder.path().join("README.md");
    let stale = std::fs::read_to_string(CARD)
        .expect("the model card")
        .replace("classified nodes", "nodes of old");
    std::fs::write(&card, &stale).unwrap();
    succeed(
        pagelevel(cache.path())
            .args(["model-card", MODEL, "--update"])
            .arg(&card),
    );
    let updated = std::fs::read_to_string(&card).unwrap();
    assert_eq!(updated, std::fs::read_to_string(CARD).unwrap());
    std::fs::write(&card, "# A card without markers\n").unwrap();
    pagelevel(cache.path())
        .args(["model-card", MODEL, "--update"])
        .arg(&card)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("has no generated block"));
}
