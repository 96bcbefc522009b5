"""Variational estimate of the Gutenberg-Richter b-value and the annual event
rate of a regional earthquake catalogue (magnitudes above completeness)."""
import jax
import jax.numpy as jnp
import numpy as np

from guide import MeanFieldNormal

MAG_COMPLETENESS = 2.5
LN10 = float(np.log(10.0))


def synthetic_catalogue(seed=7, years=6, b_true=1.1, rate_true=40.0):
    rng = np.random.RandomState(seed)
    counts = rng.poisson(rate_true, size=years).astype(np.float32)
    n = int(counts.sum())
    mags = MAG_COMPLETENESS + rng.exponential(1.0 / (b_true * LN10), size=n)
    return {"mags": jnp.asarray(mags, dtype=jnp.float32),
            "counts": jnp.asarray(counts)}


def log_joint(z, data):
    b = jnp.exp(z["log_b"])
    rate = jnp.exp(z["log_rate"])
    beta = b * LN10
    excess = data["mags"] - MAG_COMPLETENESS
    ll_mag = jnp.sum(jnp.log(beta) - beta * excess)
    ll_cnt = jnp.sum(data["counts"] * jnp.log(rate) - rate)
    prior = -0.5 * z["log_b"] ** 2 - 0.5 * ((z["log_rate"] - 3.0) / 1.5) ** 2
    return ll_mag + ll_cnt + prior


guide = MeanFieldNormal(["log_b", "log_rate"])


def neg_elbo(params, key, data, num_particles=8):
    def one(k):
        z = guide.sample(params, k)
        return log_joint(z, data) - guide.log_prob(params, z)
    return -jnp.mean(jax.vmap(one)(jax.random.split(key, num_particles)))


def adam_init(params):
    zeros = jax.tree_util.tree_map(lambda p: jnp.zeros(jnp.shape(p), jnp.float32), params)
    return {"m": zeros, "v": zeros, "t": jnp.zeros((), jnp.int32)}


@jax.jit
def svi_step(params, opt_state, key, data):
    loss, grads = jax.value_and_grad(neg_elbo)(params, key, data)
    t = opt_state["t"] + 1
    m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, opt_state["m"], grads)
    v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, opt_state["v"], grads)
    lr = 0.05
    def upd(p, m, v):
        mhat = m / (1 - 0.9 ** t)
        vhat = v / (1 - 0.999 ** t)
        return p - lr * mhat / (jnp.sqrt(vhat) + 1e-8)
    params = jax.tree_util.tree_map(upd, params, m, v)
    return params, {"m": m, "v": v, "t": t}, loss


def run_svi(data, num_steps, seed=0):
    params = guide.init_params()
    opt_state = adam_init(params)
    key = jax.random.PRNGKey(seed)
    losses = []
    for _ in range(num_steps):
        key, sub = jax.random.split(key)
        params, opt_state, loss = svi_step(params, opt_state, sub, data)
        losses.append(float(loss))
    return params, losses


if __name__ == "__main__":
    catalogue = synthetic_catalogue()
    params, losses = run_svi(catalogue, num_steps=5)
    med = guide.median(params)
    print("loss trace:", [round(l, 2) for l in losses])
    print("b-value ~ %.3f, annual rate ~ %.1f"
          % (float(jnp.exp(med["log_b"])), float(jnp.exp(med["log_rate"]))))
