"""Predict the decay at each measurement time and score the fit."""

import jax.numpy as jnp
from experiment import DecayExperiment

if __name__ == "__main__":
    experiment = DecayExperiment([1.0, 2.0], rate=0.7)
    predicted = experiment.predictions()
    measured = {t: y * jnp.float32(1.02) for t, y in predicted.items()}
    print(experiment.residuals(measured))
    print(DecayExperiment([1.0, 2.0], rate=0.9, last=4.0).predictions()[4.0])
