"""Train a small event/noise classifier on augmented three-component seismic windows."""

import jax
import jax.numpy as jnp
import numpy as np

from augment import TraceAugmenter

WINDOW = 64


class WindowLoader:
    def __init__(self, batch_size, seed=0):
        self.rng = np.random.default_rng(seed)
        self.batch_size = batch_size

    def batch(self):
        labels = self.rng.integers(0, 2, self.batch_size)
        t = np.linspace(0.0, 1.0, WINDOW)
        onset = np.exp(-((t - 0.5) ** 2) / 0.01) * np.sin(40 * t)
        traces = self.rng.normal(scale=0.3, size=(self.batch_size, WINDOW))
        traces += labels[:, None] * onset[None, :]
        return jnp.asarray(traces, jnp.float32), jnp.asarray(labels, jnp.float32)


def init_params(key):
    k1, _ = jax.random.split(key)
    return {"w": 0.1 * jax.random.normal(k1, (WINDOW,)), "b": jnp.zeros(())}


@jax.jit
def train_step(params, traces, labels):
    def loss_fn(p):
        logits = traces @ p["w"] + p["b"]
        return jnp.mean(jnp.logaddexp(0.0, logits) - labels * logits)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    return params, loss


def main():
    loader = WindowLoader(batch_size=32)
    augment = TraceAugmenter(seed=7)
    params = init_params(jax.random.PRNGKey(0))
    for step in range(6):
        traces, labels = loader.batch()
        traces = augment(traces, step)  # expect: RTL201
        params, loss = train_step(params, traces, labels)
        print(f"step {step}: loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
