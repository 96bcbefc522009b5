"""Private marginal release for a yearly household survey.

Each wave is measured with Gaussian noise on a few 1- and 2-way marginals, and a
log-linear model over the full domain is fit to the noisy marginals by mirror descent.
"""

import jax
import jax.numpy as jnp
import numpy as np

from domain import Domain, Factor

ATTRS = ("age", "income", "region")
SHAPE = (4, 3, 2)
CLIQUES = (("age",), ("income",), ("age", "income"), ("income", "region"))

# Codebooks were only published from 2022 on; older waves are plain integer codes.
CODEBOOKS = {
    2022: (("<25", "25-44", "45-64", "65+"), ("low", "mid", "high"), ("urban", "rural")),
    2023: (("<25", "25-44", "45-64", "65+"), ("low", "mid", "high"), ("urban", "rural")),
}


def load_wave(year, n=400):
    rng = np.random.default_rng(year)
    records = np.stack([rng.integers(0, k, size=n) for k in SHAPE], axis=1)
    domain = Domain(ATTRS, SHAPE, labels=CODEBOOKS.get(year))  # expect: RTL201
    return records, domain


def histogram(records, domain, clique):
    cols = [domain.attrs.index(a) for a in clique]
    bins = [domain.shape[c] for c in cols]
    counts, _ = np.histogramdd(records[:, cols], bins=bins, range=[(0, b) for b in bins])
    return counts


def measure(records, domain, sigma, key):
    measured = []
    for clique in CLIQUES:
        key, sub = jax.random.split(key)
        counts = histogram(records, domain, clique)
        noise = sigma * np.asarray(jax.random.normal(sub, counts.shape))
        measured.append(Factor(domain.project(clique), jnp.asarray(counts + noise, dtype=jnp.float32)))
    return tuple(measured)


def marginal_loss(potentials, measured, total):
    probs = jax.nn.softmax(potentials.values.ravel()).reshape(potentials.values.shape)
    joint = Factor(potentials.domain, total * probs)
    loss = 0.0
    for m in measured:
        est = joint.project(m.domain.attrs)
        loss = loss + jnp.sum((est.values - m.values) ** 2)
    return loss / total


@jax.jit
def mirror_descent_step(potentials, measured, total, step_size):
    loss, grad = jax.value_and_grad(marginal_loss)(potentials, measured, total)
    return Factor(potentials.domain, potentials.values - step_size * grad.values), loss


class MarginalEstimator:
    def __init__(self, domain, iters=4, step_size=0.05):
        self.domain = domain
        self.iters = iters
        self.step_size = step_size

    def fit(self, measured, total):
        potentials = Factor.zeros(self.domain)
        loss = None
        for _ in range(self.iters):
            potentials, loss = mirror_descent_step(potentials, measured, total, self.step_size)
        return potentials, float(loss)


def most_likely_cell(potentials):
    code = np.unravel_index(int(jnp.argmax(potentials.values)), potentials.domain.shape)
    return ", ".join(potentials.domain.name_of(a, int(c)) for a, c in zip(potentials.domain.attrs, code))


def main():
    key = jax.random.PRNGKey(7)
    for year in (2021, 2022, 2023):
        records, domain = load_wave(year)
        key, sub = jax.random.split(key)
        measured = measure(records, domain, sigma=3.0, key=sub)
        estimator = MarginalEstimator(domain)
        potentials, loss = estimator.fit(measured, float(len(records)))
        print(f"{year}: loss {loss:.2f}, mode {most_likely_cell(potentials)}")


if __name__ == "__main__":
    main()
