"""A quadratic emulator of an expensive aquifer drawdown model, refitted as samples arrive."""

import numpy as np


def drawdown_model(theta):
    """Stand-in for the slow groundwater code: drawdown at three wells."""
    log_k, storage = theta
    wells = np.array([10.0, 40.0, 90.0])
    return np.exp(-log_k) * np.log1p(wells / (1.0 + 10 * storage))


def features(theta):
    log_k, storage = theta[..., 0], theta[..., 1]
    one = np.ones_like(log_k)
    return np.stack([one, log_k, storage, log_k**2, log_k * storage, storage**2], -1)


def fit_emulator(design):
    """Least-squares quadratic surface through the design points, one per well."""
    thetas = np.asarray(design, np.float64)
    outputs = np.stack([drawdown_model(t) for t in thetas])
    coeffs, *_ = np.linalg.lstsq(features(thetas), outputs, rcond=None)
    return coeffs.astype(np.float32)
