"""Predict residue-residue contact maps for a batch of targets, one target at a time.

Each target is featurised at its own length and sent straight to the jitted model,
so every new sequence length compiles the model again.
"""
import jax
import numpy as np

from features import make_features
from model import init_params, predict_contacts

TARGETS = [
    {"name": "T1024", "sequence": "MKTAYIAKQRQISFVKSHFSRQ"},
    {"name": "T1030", "sequence": "GSHMLEDPVAGVKLLEELQKRAGY"},
    {"name": "T1046", "sequence": "MSEQNNTEMTFQIQRIYTKDISFEAPNA"},
    {"name": "T1049", "sequence": "MADLEAVLADVSYLMAMEKSKATPAARASKK"},
]


def summarise(name, contacts, min_sep=3, threshold=0.5):
    probs = np.asarray(contacts)
    length = probs.shape[0]
    i, j = np.triu_indices(length, k=min_sep)
    top = probs[i, j]
    n_pred = int((top > threshold).sum())
    print(f"{name}: L={length:3d} predicted long-range contacts={n_pred:3d} "
          f"mean p={top.mean():.3f}")
    return n_pred


def run_targets(params, targets):
    results = {}
    for record in targets:
        feats = make_features(record)
        contacts = predict_contacts(params, feats)
        results[record["name"]] = summarise(record["name"], contacts)
    return results


if __name__ == "__main__":
    params = init_params(jax.random.PRNGKey(0))
    run_targets(params, TARGETS)
