"""Hierarchical inference of the binary-black-hole primary-mass distribution
(power law + Gaussian peak) from a list of per-event posterior samples,
followed by a bootstrap over events."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.special import logsumexp

from catalog import load_events, synthetic_catalog

M_MIN, M_MAX, PEAK_WIDTH = 5.0, 80.0, 3.0


def log_population(m1, hyper):
    alpha = hyper["alpha"]
    lam = jax.nn.sigmoid(hyper["logit_peak"])
    norm = (M_MAX ** (1.0 - alpha) - M_MIN ** (1.0 - alpha)) / (1.0 - alpha)
    in_range = (m1 >= M_MIN) & (m1 <= M_MAX)
    log_pl = jnp.where(in_range, -alpha * jnp.log(m1) - jnp.log(norm), -jnp.inf)
    log_peak = jax.scipy.stats.norm.logpdf(m1, hyper["mu_peak"], PEAK_WIDTH)
    return jnp.logaddexp(jnp.log1p(-lam) + log_pl, jnp.log(lam) + log_peak)


def event_log_evidence(event, hyper):
    log_w = log_population(event["m1"], hyper) - event["log_prior"]
    log_w = jnp.where(event["mask"], log_w, -jnp.inf)
    return logsumexp(log_w) - jnp.log(jnp.sum(event["mask"]))


def log_likelihood(hyper, events):
    return sum(event_log_evidence(ev, hyper) for ev in events)


@jax.jit
def population_loglike(hyper, events):
    return log_likelihood(hyper, events)


@jax.jit
def ascent_step(hyper, events):
    grads = jax.grad(log_likelihood)(hyper, events)
    return jax.tree_util.tree_map(lambda h, g: h + 0.02 * jnp.clip(g, -5.0, 5.0), hyper, grads)


def fit(events, n_steps):
    hyper = {"alpha": jnp.float32(2.3), "mu_peak": jnp.float32(32.0),
             "logit_peak": jnp.float32(-1.5)}
    for _ in range(n_steps):
        hyper = ascent_step(hyper, events)
    return hyper


def bootstrap(events, hyper, n_boot, seed=0):
    rng = np.random.RandomState(seed)
    values = []
    for _ in range(n_boot):
        picks = rng.randint(0, len(events), size=len(events))
        resampled = [events[i] for i in picks]
        values.append(float(population_loglike(hyper, resampled)))
    return values


if __name__ == "__main__":
    events = load_events(synthetic_catalog())
    hyper = fit(events, n_steps=4)
    print("log L at fit: %.2f" % float(population_loglike(hyper, events)))
    print("alpha %.2f  mu_peak %.1f" % (float(hyper["alpha"]), float(hyper["mu_peak"])))
    print("bootstrap log L:", [round(v, 2) for v in bootstrap(events, hyper, n_boot=3)])
