//! `pagelevel model-card`: the numbers of a model's card, generated from the model file.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use pagelevel::extract::MainTextModel;
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
    /// The model is a main-text model (`train-main-text`; default: the shipped
    /// `models/main-text.json`).
    #[arg(long)]
    main_text: bool,
}

/// The main-text model in `path`, or the shipped one.
fn main_text_model(path: Option<&std::path::Path>) -> anyhow::Result<MainTextModel> {
    let Some(path) = path else {
        return Ok(MainTextModel::shipped().clone());
    };
    let json = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the main-text model {}", path.display()))?;
    MainTextModel::from_json(&json)
        .with_context(|| format!("cannot use the main-text model {}", path.display()))
}

pub fn run(args: ModelCardArgs) -> anyhow::Result<Outcome> {
    let shipped_name = if args.main_text {
        "main-text.json"
    } else {
        "default.json"
    };
    let name = args
        .model
        .as_deref()
        .and_then(|path| path.file_name())
        .map_or_else(
            || shipped_name.to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
    let facts = if args.main_text {
        main_text_model(args.model.as_deref())?.card_facts(&name)
    } else {
        card_facts(&load_model(args.model.as_deref())?, &name)
    };
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
