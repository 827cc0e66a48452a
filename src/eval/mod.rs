//! Evaluation against human-labelled pages: dataset loaders (one per format), gold-to-page
//! word alignment, and the metrics of Section 6.1 of the paper (template precision/recall/F1,
//! adjusted Rand index of segmentations).

pub mod align;
pub mod metrics;
