//! `pagelevel model-card`: the numbers of a model's card, generated from the model file.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use pagelevel::model::card::{CARD_BEGIN, CARD_END, card_facts, generated_block};

use super::Outcome;
use super::browser::load_model;

/// Print the generated block of a model card (format, features, buckets, training data), or
/// replace it in a card file.
#[derive(Debug, Args)]
pub struct ModelCardArgs {
    /// Model file (default: the model shipped with pagelevel).
    model: Option<PathBuf>,
    /// Replace the generated block (between its marker lines) in this card file.
    #[arg(long, value_name = "CARD")]
    update: Option<PathBuf>,
}

pub fn run(args: ModelCardArgs) -> anyhow::Result<Outcome> {
    let model = load_model(args.model.as_deref())?;
    let name = args
        .model
        .as_deref()
        .and_then(|path| path.file_name())
        .map_or_else(
            || "default.json".to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
    let facts = card_facts(&model, &name);
    let Some(card_path) = args.update else {
        print!("{facts}");
        return Ok(Outcome::Success);
    };
    let card = std::fs::read_to_string(&card_path)
        .with_context(|| format!("cannot read the card {}", card_path.display()))?;
    let Some(old) = generated_block(&card) else {
        bail!(
            "the card {} has no generated block: add the lines `{CARD_BEGIN}` and `{CARD_END}` where it goes",
            card_path.display()
        );
    };
    let updated = card.replacen(old, facts.trim_end(), 1);
    std::fs::write(&card_path, updated)
        .with_context(|| format!("cannot write the card {}", card_path.display()))?;
    Ok(Outcome::Success)
}
