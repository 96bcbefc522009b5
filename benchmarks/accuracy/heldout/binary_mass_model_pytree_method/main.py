"""Grid scan of the population hyper-likelihood over posterior samples of detected events."""

import jax.numpy as jnp
import numpy as np

from population import PowerLawPeak


def event_samples(n_events=6, n_samples=200, seed=3):
    """Per-event primary-mass posterior samples (stand-in for parameter-estimation output)."""
    rng = np.random.default_rng(seed)
    centers = rng.uniform(12.0, 45.0, size=n_events)
    draws = centers[:, None] + 3.0 * rng.standard_normal((n_events, n_samples))
    return jnp.asarray(np.clip(draws, 5.5, 95.0), dtype=jnp.float32)


class HyperLikelihood:
    def __init__(self, samples, pe_prior=1.0):
        self.samples = samples
        self.pe_prior = pe_prior
        self.model = None

    def set_hyper(self, **hyper):
        # a fresh model per grid point; every field is a leaf
        self.model = PowerLawPeak(**hyper)
        return self

    def __call__(self):
        logp = self.model.log_prob(self.samples) - jnp.log(self.pe_prior)
        per_event = jnp.log(jnp.mean(jnp.exp(logp), axis=1))
        return float(per_event.sum())


def grid_scan(like, alphas, peaks):
    best = (-jnp.inf, None)
    for alpha in alphas:
        for mu in peaks:
            value = like.set_hyper(
                alpha=alpha, m_min=5.0, m_max=90.0, mu_peak=mu, sigma_peak=4.0, lam=0.1
            )()
            print(f"alpha={alpha:.2f} mu_peak={mu:.1f}: log L = {value:.2f}")
            if value > best[0]:
                best = (value, (alpha, mu))
    return best


if __name__ == "__main__":
    like = HyperLikelihood(event_samples())
    best_value, best_point = grid_scan(like, alphas=[2.0, 2.6, 3.2], peaks=[30.0, 35.0])
    print(f"best: alpha={best_point[0]:.2f}, mu_peak={best_point[1]:.1f} (log L = {best_value:.2f})")
