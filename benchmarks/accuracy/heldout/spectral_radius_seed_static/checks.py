"""Stability checks for the asset-pricing model: is the spectral radius below one?"""

import numpy as np
from markov import power_iteration_sr


def robust_spectral_radius(A, seeds, num_iterations=15):
    """Repeat power iteration from several random starts and report the spread."""
    estimates = [float(power_iteration_sr(A, num_iterations, seed)) for seed in seeds]  # expect: RTL201
    return float(np.mean(estimates)), float(np.ptp(estimates))
