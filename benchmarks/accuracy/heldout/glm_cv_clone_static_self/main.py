"""Pick the ridge strength of a spike-count GLM by K-fold cross-validation.

Each fold fits a fresh copy of the estimator, the way scikit-learn's ``clone`` does in
``GridSearchCV``/``cross_val_score``.
"""

import numpy as np

from glm import PoissonGLM


def clone(estimator):
    """A new, unfitted estimator with the same hyper-parameters."""
    return type(estimator)(**estimator.get_params())


def kfold_indices(n_samples, n_folds):
    folds = np.array_split(np.arange(n_samples), n_folds)
    for k in range(n_folds):
        train = np.concatenate([f for j, f in enumerate(folds) if j != k])
        yield train, folds[k]


def cross_val_score(estimator, X, y, n_folds=3):
    scores = []
    for train, test in kfold_indices(len(y), n_folds):
        fold_model = clone(estimator)
        fold_model.fit(X[train], y[train])  # expect: RTL204
        scores.append(fold_model.score(X[test], y[test]))
    return float(np.mean(scores))


def simulate_session(n_bins=120, n_features=4, seed=0):
    """Stimulus features and Poisson spike counts of one recorded neuron."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_bins, n_features)).astype(np.float32)
    true_w = np.array([0.6, -0.4, 0.0, 0.2], dtype=np.float32)
    y = rng.poisson(np.exp(X @ true_w - 0.5)).astype(np.float32)
    return X, y


def main():
    X, y = simulate_session()
    results = {}
    for alpha in (0.01, 1.0):
        results[alpha] = cross_val_score(PoissonGLM(alpha=alpha), X, y, n_folds=3)
        print(f"alpha={alpha:g}  cv pseudo-R2={results[alpha]:.3f}")
    best = max(results, key=results.get)
    print("best alpha", best)


if __name__ == "__main__":
    main()
