"""Simulate a panel of households from one configuration and summarise the final distribution."""

import jax
import jax.numpy as jnp
import numpy as np
from model import WealthModel, wealth_path

CONFIG = {
    "model": {"w_hat": 1.0, "s_0": 0.75, "mu_y": 1.0, "sigma_y": 0.2, "mu_r": 0.05, "sigma_r": 0.3},
    "T": 50,
    "w_0": 2.0,
}


def model_from(config):
    return WealthModel(**config["model"])


def simulate_panel(config, households):
    finals = []
    for h in range(households):
        model = model_from(config)  # a new tuple per household, equal to the last one
        path = wealth_path(jax.random.PRNGKey(h), model, config["T"], jnp.float32(config["w_0"]))
        finals.append(float(path[-1]))
    return np.array(finals)


def gini(values):
    values = np.sort(values)
    n = len(values)
    return float((2 * np.arange(1, n + 1) - n - 1) @ values / (n * values.sum()))
