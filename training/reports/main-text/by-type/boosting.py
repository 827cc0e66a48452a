"""Gradient-boosted trees for the page types' own main-text models, simulated on WCXB's
development pages in three folds by domain, as `simulate.py` does (the choice behind
`OWN_MODEL_BOOSTING` in src/train/main_text.rs).

    pagelevel train-main-text --main-text-model rules --dataset … --out /tmp/m.json \
        --rows-out rows.csv
    python boosting.py rows.csv

Compared, each fitted on the training folds' pages of the type (listings with collections) and
scored as every paragraph at P >= 0.3 of the held-out pages: the logistic regression; trees
alone (scikit-learn's HistGradientBoosting, from the prior); trees started from the logistic
regression's answer (GradientBoosting with the logistic regression as its `init`), as the Rust
fit does. Products are scored with their own models too, to show they do not gain."""
import sys

from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import GradientBoostingClassifier, HistGradientBoostingClassifier

sys.argv = [sys.argv[0], sys.argv[1]]
source = open(__file__.replace("boosting.py", "simulate.py")).read()
exec(source.split('wcxb = rows[rows.set == "wcxb"]')[0])  # rows, folds, fit, page_f1, row
TYPES = ["collection", "forum", "listing", "product", "service"]  # the columns `row` prints


class Logistic(BaseEstimator, ClassifierMixin):
    """The logistic regression of `fit`, as an estimator boosting can start from."""

    def fit(self, x, y, sample_weight=None):
        self.scaler = StandardScaler().fit(x, sample_weight=sample_weight)
        self.model = LogisticRegression(max_iter=2000).fit(
            self.scaler.transform(x), y, sample_weight=sample_weight)
        self.classes_ = self.model.classes_
        return self

    def predict_proba(self, x):
        return self.model.predict_proba(self.scaler.transform(x))


def trees(count, depth, from_logistic):
    def fitted(frame, names):
        if from_logistic:
            model = GradientBoostingClassifier(init=Logistic(), n_estimators=count, max_depth=depth,
                                               learning_rate=0.1, min_samples_leaf=20)
        else:
            model = HistGradientBoostingClassifier(max_iter=count, max_depth=depth,
                                                   learning_rate=0.1, early_stopping=False)
        model.fit(frame[names], frame.is_main, sample_weight=frame.weight)
        return lambda other: model.predict_proba(other[names])[:, 1]
    return fitted


wcxb = rows[rows.set == "wcxb"]
print("| own models, cut 0.3 | " + " | ".join(TYPES) + " | all |")
print("|---|" + "---:|" * (len(TYPES) + 1))
for label, fitter in [
    ("logistic", fit),
    ("100 trees, depth 4, from the prior", trees(100, 4, False)),
    ("100 trees, depth 3, from the prior", trees(100, 3, False)),
    ("100 trees, depth 4, from the logistic", trees(100, 4, True)),
    ("50 trees, depth 3, from the logistic", trees(50, 3, True)),
]:
    scores = []
    for fold in range(3):
        train, test = rows[rows.fold != fold], wcxb[wcxb.fold == fold]
        for kind in TYPES:
            held = test[test.labelled_type == kind]
            own = ["listing", "collection"] if kind in ("listing", "collection") else [kind]
            model = fitter(train[(train.set == "wcxb") & train.labelled_type.isin(own)], features)
            scores.append(page_f1(held, model(held), 0.3))
    row(label, scores)
    sys.stdout.flush()
