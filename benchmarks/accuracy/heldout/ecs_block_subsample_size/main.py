"""A random-walk Metropolis chain on an estimated likelihood, with a fresh block subsample every step."""

import jax.numpy as jnp
import numpy as np
from likelihood import estimated_loglik, point_loglik
from subsample import BlockSubsampler


def make_data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    true = np.array([1.0, -0.5, 0.25], dtype=np.float32)
    y = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-x @ true))).astype(np.float32)
    return jnp.asarray(x), jnp.asarray(y)


def run_chain(x, y, steps=6, scale=0.1, seed=1):
    theta = jnp.zeros(x.shape[1], dtype=jnp.float32)
    control = point_loglik(theta, x, y)  # expanded around the starting point
    subsampler = BlockSubsampler(x.shape[0])
    rng = np.random.default_rng(seed)
    accepted = 0
    for _ in range(steps):
        idx = subsampler.draw()
        proposal = theta + scale * jnp.asarray(rng.normal(size=theta.shape), dtype=jnp.float32)
        log_ratio = estimated_loglik(proposal, x, y, idx, control) - estimated_loglik(
            theta, x, y, idx, control
        )
        if np.log(rng.uniform()) < float(log_ratio):
            theta, accepted = proposal, accepted + 1
    return theta, accepted


if __name__ == "__main__":
    x, y = make_data()
    theta, accepted = run_chain(x, y)
    print("accepted", accepted, "theta", np.round(np.asarray(theta), 3))
