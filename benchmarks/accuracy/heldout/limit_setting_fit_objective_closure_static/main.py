"""Profile-likelihood scan of the signal strength mu for a binned search."""

import jax.numpy as jnp
import numpy as np

from stats import HistModel, minimize_nll, setup_objective


def make_analysis(seed=3):
    rng = np.random.default_rng(seed)
    bins = np.linspace(0.0, 1.0, 8)
    signal = 4.0 * np.exp(-0.5 * ((bins - 0.6) / 0.1) ** 2)
    background = 50.0 * np.exp(-2.0 * bins)
    model = HistModel(signal, background, bkg_unc=0.1 * np.ones_like(bins))
    observed = rng.poisson(background + 0.5 * signal).astype(np.float32)
    return model, jnp.asarray(observed)


class ProfileScan:
    def __init__(self, model, observed, lr=0.015):
        self.model = model
        self.observed = observed
        self.lr = lr
        self.init = jnp.zeros_like(observed)

    def profiled_nll(self, mu):
        objective = setup_objective(self.model, self.observed, mu)  # expect: RTL204
        _, nll = minimize_nll(objective, self.init, self.lr)  # expect: RTL204
        return float(nll)

    def scan(self, mus):
        return np.array([self.profiled_nll(mu) for mu in mus])


def main():
    model, observed = make_analysis()
    scanner = ProfileScan(model, observed)
    mus = [0.0, 0.5, 1.0, 1.5, 2.0]
    nlls = scanner.scan(mus)
    q = 2.0 * (nlls - nlls.min())
    for mu, qmu in zip(mus, q):
        print(f"mu={mu:.1f}  q_mu={qmu:.3f}")
    upper = max(mu for mu, qmu in zip(mus, q) if qmu < 3.84)
    print("approx. 95% CL upper limit on mu:", upper)


if __name__ == "__main__":
    main()
