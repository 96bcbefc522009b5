"""Privately estimate 2-way marginals of a census-like table from noisy measurements.

Each round takes a fresh set of noisy measurements (a new privacy budget slice),
rebuilds the loss objects, runs a few gradient steps on the marginal table and
logs all losses through one jitted evaluation that takes the losses as an argument.
"""
import jax
import jax.numpy as jnp

from losses import METRICS, measure

CLIQUES = (("age", "income"), ("income", "region"), ("age", "region"))
SIZES = {"age": 4, "income": 3, "region": 5}


def true_tables(key):
    tables = {}
    for clique in CLIQUES:
        key, sub = jax.random.split(key)
        shape = tuple(SIZES[a] for a in clique)
        tables[clique] = 100.0 * jax.random.dirichlet(sub, jnp.ones(shape[0] * shape[1])).reshape(shape)
    return tables


@jax.jit
def evaluate_losses(loss_fns, marginals):
    """One compiled pass over every loss: the loss objects are traced pytree arguments."""
    return jnp.stack([loss(marginals) for loss in loss_fns])


@jax.jit
def gradient_step(marginals, loss_fns, lr):
    def total(m):
        return sum(loss(m) for loss in loss_fns)

    grads = jax.grad(total)(marginals)
    return jax.tree_util.tree_map(lambda m, g: jnp.maximum(m - lr * g, 0.0), marginals, grads)


def flatten(tables):
    return jnp.concatenate([tables[c].ravel() for c in CLIQUES])


def make_logger(evaluate, truth):
    rows = []

    def log(round_idx, loss_fns, marginals):
        values = evaluate(loss_fns, marginals)
        flat_model, flat_truth = flatten(marginals), flatten(truth)
        gaps = {name: float(fn(flat_model, flat_truth)) for name, fn in METRICS.items()}
        rows.append((round_idx, float(values.sum()), gaps))
        return rows[-1]

    return log


def estimate(truth, callback, rounds=4, steps=3, stddev=2.0, lr=0.5):
    key = jax.random.PRNGKey(7)
    marginals = {c: jnp.full(truth[c].shape, 5.0) for c in CLIQUES}
    for r in range(rounds):
        key, sub = jax.random.split(key)
        loss_fns = measure(sub, truth, CLIQUES, stddev)
        for _ in range(steps):
            marginals = gradient_step(marginals, loss_fns, lr)
        print(callback(r, loss_fns, marginals))
    return marginals


if __name__ == "__main__":
    truth = true_tables(jax.random.PRNGKey(0))
    estimate(truth, make_logger(evaluate_losses, truth))
