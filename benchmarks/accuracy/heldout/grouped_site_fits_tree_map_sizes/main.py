"""Fit a per-substation load model from region-level meter totals.

Every region is a group of substations; the model predicts each substation's
load, the predictions of a region are summed and compared with its meter.
"""
import jax
import jax.numpy as jnp
import numpy as np

from metering import N_FEATURES, load_network, split_by_region


def site_load(w, x):
    return jnp.exp(x @ w)


def region_misfit(w, x_region, meter_total):
    predicted = jnp.sum(site_load(w, x_region))
    return (jnp.log(predicted) - jnp.log(meter_total)) ** 2


def make_grouped_objective(misfit_fn):
    region_value_and_grad = jax.jit(jax.value_and_grad(misfit_fn))

    def objective(w, grouped_x, meters):
        per_region = jax.tree_util.tree_map(
            lambda x, m: region_value_and_grad(w, x, m), grouped_x, meters
        )
        losses = [loss for loss, _ in per_region]
        grads = [grad for _, grad in per_region]
        n = len(grads)
        return sum(losses) / n, jax.tree_util.tree_map(lambda *g: sum(g) / n, *grads)

    return objective


@jax.jit
def network_forecast(w, all_features):
    return site_load(w, all_features)


class Disaggregator:
    def __init__(self, learning_rate=0.2, epochs=5):
        self.learning_rate = learning_rate
        self.epochs = epochs
        self.objective = make_grouped_objective(region_misfit)

    def fit(self, features, region_of, meter):
        grouped = split_by_region(features, region_of, meter.shape[0])
        meters = list(jnp.asarray(meter))
        w = jnp.zeros((N_FEATURES,), jnp.float32)
        all_x = jnp.asarray(features)
        for epoch in range(self.epochs):
            loss, grad = self.objective(w, grouped, meters)
            w = w - self.learning_rate * grad
            total = float(jnp.sum(network_forecast(w, all_x)))
            print(f"epoch {epoch}: misfit {float(loss):.4f}, network load {total:.2f}")
        return w


if __name__ == "__main__":
    features, region_of, meter = load_network()
    w = Disaggregator().fit(features, region_of, meter)
    print("weights", np.round(np.asarray(w), 3))
