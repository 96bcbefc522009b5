"""Mean-field Gaussian SVI for a Bayesian linear regression, with KL annealing."""

import jax
import jax.numpy as jnp
import numpy as np

from optim import adam_init, adam_update

LEARNING_RATE = 0.05


def make_data(n=64, d=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d)).astype(np.float32)
    w_true = np.array([1.5, -0.7, 0.3], dtype=np.float32)
    y = x @ w_true + 0.1 * rng.normal(size=n).astype(np.float32)
    return jnp.asarray(x), jnp.asarray(y)


def negative_elbo(params, key, x, y, kl_weight):
    loc, log_scale = params["loc"], params["log_scale"]
    eps = jax.random.normal(key, (8,) + loc.shape)
    w = loc + jnp.exp(log_scale) * eps
    pred = jnp.einsum("nd,sd->sn", x, w)
    log_lik = -0.5 * jnp.sum((pred - y) ** 2, axis=-1) / 0.1 ** 2
    kl = jnp.sum(0.5 * (jnp.exp(2 * log_scale) + loc ** 2 - 1.0) - log_scale)
    return -jnp.mean(log_lik) + kl_weight * kl


@jax.jit
def svi_update(state, key, x, y, kl_weight):
    params = state[1]
    loss, grads = jax.value_and_grad(negative_elbo)(params, key, x, y, kl_weight)
    return adam_update(grads, state, LEARNING_RATE), loss


class SVI:
    def __init__(self, dim, warmup_steps=3):
        params = {"loc": jnp.zeros(dim), "log_scale": jnp.full((dim,), -1.0, dtype=jnp.float32)}
        self.state = adam_init(params)
        self.warmup_steps = warmup_steps
        self.num_steps = 0
        self.history = []

    def kl_weight(self):
        weight = min(1.0, (self.num_steps + 1) / self.warmup_steps)
        return jnp.asarray(weight, dtype=jnp.float32)

    def step(self, key, x, y):
        self.state, loss = svi_update(self.state, key, x, y, self.kl_weight())
        self.num_steps += 1
        self.history.append(float(loss))
        return loss


def main():
    x, y = make_data()
    svi = SVI(dim=x.shape[1])
    key = jax.random.PRNGKey(0)
    for _ in range(6):
        key, sub = jax.random.split(key)
        loss = svi.step(sub, x, y)
        print(f"step {int(svi.state[0])}: -elbo={float(loss):.2f}")
    print("posterior mean:", np.round(np.asarray(svi.state[1]["loc"]), 3))


if __name__ == "__main__":
    main()
