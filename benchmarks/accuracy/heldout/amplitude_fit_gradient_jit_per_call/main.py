"""Fit a resonance mass and width to toy invariant-mass data with gradient descent."""

import jax.numpy as jnp
import numpy as np

from estimator import M_HI, M_LO, UnbinnedNLL


def generate_toy(rng, n_events=400, mass=0.892, width=0.05, frac=0.7):
    n_sig = int(frac * n_events)
    sig = mass + 0.5 * width * rng.standard_cauchy(4 * n_sig)
    sig = sig[(sig > M_LO) & (sig < M_HI)][:n_sig]
    bkg = rng.uniform(M_LO, M_HI, n_events - n_sig)
    return np.concatenate([sig, bkg]).astype(np.float32)


class GradientDescentFitter:
    def __init__(self, estimator, learning_rates):
        self.estimator = estimator
        self.learning_rates = learning_rates
        self.history = []

    def step(self, params):
        grads = self.estimator.gradient(params)
        return {k: params[k] - self.learning_rates[k] * grads[k] for k in params}

    def minimize(self, params, n_steps):
        for _ in range(n_steps):
            params = self.step(params)
            self.history.append(float(self.estimator(params)))
        return params


if __name__ == "__main__":
    rng = np.random.default_rng(11)
    data = jnp.asarray(generate_toy(rng))
    phsp = jnp.asarray(rng.uniform(M_LO, M_HI, 2000).astype(np.float32))
    nll = UnbinnedNLL(data, phsp)
    start = {
        "mass": jnp.asarray(0.87, jnp.float32),
        "width": jnp.asarray(0.07, jnp.float32),
        "frac": jnp.asarray(0.5, jnp.float32),
    }
    fitter = GradientDescentFitter(nll, {"mass": 1e-6, "width": 1e-6, "frac": 1e-4})
    best = fitter.minimize(start, n_steps=5)
    print({k: round(float(v), 4) for k, v in best.items()})
    print("NLL history:", [round(h, 2) for h in fitter.history])
