"""Held-out evaluation."""

import model


def validation_loss(params, split):
    features, labels = split
    return float(model.loss(params, x=features, y=labels))  # expect: RTL404
