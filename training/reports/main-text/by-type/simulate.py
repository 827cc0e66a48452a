"""Per-page-type main-text models, simulated on WCXB's development pages in three folds by
domain (the choices behind `OWN_MODELS` and `OWN_MODEL_CUT` in src/train/main_text.rs).

    pagelevel train-main-text --main-text-model rules --dataset … --out /tmp/m.json \
        --rows-out rows.csv
    python simulate.py rows.csv

For each held-out fold, a logistic regression is fitted (scikit-learn, standardised features,
each paragraph counted 1 + words/25 times as the Rust fit does) on every other page, and the
main text of a held-out page is every paragraph at P >= cut (the spread selection). Page word F1
is computed from the rows' aligned words: tp = aligned words chosen, F1 = 2 tp / (chosen words +
gold words). Compared: one model for every page, and a model per labelled page type (fitted on
the training folds' pages of that type, or of listings and collections pooled); with the 28
features of the shipped model before repetition, and with the three repetition features."""
import json
import os
import sys
import zlib

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

rows = pd.read_csv(sys.argv[1], dtype={"page": str})
features = list(rows.columns[8:])
repeat_features = ["log_repeats", "log_repeated_block_words", "repeated_share"]
without_repeats = [name for name in features if name not in repeat_features]
rows["labelled_type"] = np.where(
    rows.set == "wcxb", rows.page.str.split("/").str[0], "article"
)
# Folds by the page's site (WCXB's metadata names it), as the page-type model's folds.
metadata = json.load(
    open(os.environ.get("WCXB_METADATA", "../shared/datasets/labeled/wcxb-dev/metadata.json"))
)["files"]
rows["fold"] = [
    zlib.crc32(str(metadata[page.split("/")[1]]["domain"] or page).encode()) % 3
    if dataset == "wcxb"
    else -1
    for dataset, page in zip(rows.set, rows.page)
]
rows["weight"] = 1 + np.minimum(rows.words, 200) // 25
TYPES = ["article", "collection", "documentation", "forum", "listing", "product", "service"]


def fit(frame, names):
    scaler = StandardScaler().fit(frame[names], sample_weight=frame.weight)
    model = LogisticRegression(max_iter=2000).fit(
        scaler.transform(frame[names]), frame.is_main, sample_weight=frame.weight
    )
    return lambda other: model.predict_proba(scaler.transform(other[names]))[:, 1]


def page_f1(frame, probability, cut):
    chosen = probability >= cut
    pages = frame.assign(
        tp=np.where(chosen, frame.aligned_words, 0), out=np.where(chosen, frame.words, 0)
    ).groupby(["set", "page"]).agg(tp=("tp", "sum"), out=("out", "sum"), gold=("gold_words", "first"))
    f1 = np.where(pages.out + pages.gold > 0, 2 * pages.tp / (pages.out + pages.gold).clip(lower=1), 1.0)
    return pd.Series(f1, index=pages.index)


def row(name, scores):
    scores = pd.concat(scores)
    kinds = scores.index.get_level_values(1).str.split("/").str[0]
    cells = " | ".join(f"{scores[kinds == kind].mean():.3f}" for kind in TYPES)
    print(f"| {name} | {cells} | {scores.mean():.3f} |")


wcxb = rows[rows.set == "wcxb"]
print("| model, cut | " + " | ".join(TYPES) + " | all |")
print("|---|" + "---:|" * (len(TYPES) + 1))
for names, label in [(without_repeats, "28 features"), (features, "31 features")]:
    for cut in [0.3, 0.5]:
        every, by_type, pooled = [], [], []
        for fold in range(3):
            train, test = rows[rows.fold != fold], wcxb[wcxb.fold == fold]
            every.append(page_f1(test, fit(train, names)(test), cut))
            for scores, groups in [
                (by_type, {}),
                (pooled, {"listing": ["listing", "collection"], "collection": ["listing", "collection"]}),
            ]:
                for kind in TYPES:
                    held = test[test.labelled_type == kind]
                    if kind in ("article", "documentation"):
                        fitted = fit(train, names)
                    else:
                        own = groups.get(kind, [kind])
                        fitted = fit(train[(train.set == "wcxb") & train.labelled_type.isin(own)], names)
                    scores.append(page_f1(held, fitted(held), cut))
        row(f"{label}, every page, {cut}", every)
        row(f"{label}, per type, {cut}", by_type)
        row(f"{label}, per type (listings with collections), {cut}", pooled)

# A cut relative to the page's likeliest paragraph (`relative_cut`), under the types' own models
# (31 features, listings with collections): every paragraph at P >= min(0.3, max(0.1, share x
# the page's highest P)); share 0: the plain cut 0.3.
print()
print("| relative cut share (types' own models, 31 features) | " + " | ".join(TYPES) + " | all |")
print("|---|" + "---:|" * (len(TYPES) + 1))
pooled_groups = {"listing": ["listing", "collection"], "collection": ["listing", "collection"]}
held_out = []
for fold in range(3):
    train, test = rows[rows.fold != fold], wcxb[wcxb.fold == fold]
    for kind in ["collection", "forum", "listing", "service"]:
        held = test[test.labelled_type == kind]
        own = pooled_groups.get(kind, [kind])
        fitted = fit(train[(train.set == "wcxb") & train.labelled_type.isin(own)], features)
        held_out.append(held.assign(p=fitted(held)))
held_out = pd.concat(held_out)
held_out["likeliest"] = held_out.groupby("page").p.transform("max")
for share in [0.0, 0.3, 0.5]:
    cut = np.minimum(0.3, np.maximum(0.1, share * held_out.likeliest)) if share else 0.3
    row(f"{share}", [page_f1(held_out, (held_out.p >= cut).astype(float).values, 0.5)])
