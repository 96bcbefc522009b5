"""Train state construction and the jitted train step (Adam, written out)."""

import jax
import jax.numpy as jnp


def init_params(key, d_model):
    k1, k2 = jax.random.split(key)
    return {
        "w_in": jax.random.normal(k1, (d_model, 4 * d_model)) / jnp.sqrt(d_model),
        "w_out": jax.random.normal(k2, (4 * d_model, d_model)) / jnp.sqrt(4 * d_model),
    }


def init_opt_state(params, offload):
    mu = jax.tree.map(jnp.zeros_like, params)
    nu = jax.tree.map(jnp.zeros_like, params)
    # Offloaded or not, the moments keep the parameters' dtype (the step returns them so).
    return {"count": jnp.zeros((), jnp.int32), "mu": mu, "nu": nu}


def build_train_state(cfg, key):
    params = init_params(key, cfg.d_model)
    return {"params": params, "opt": init_opt_state(params, cfg.offload_optimizer_state)}


def _loss(params, x, y):
    h = jax.nn.relu(x @ params["w_in"])
    return jnp.mean((h @ params["w_out"] - y) ** 2)


def make_train_step(cfg, b1=0.9, b2=0.95, eps=1e-8):
    def train_step(state, x, y):
        loss, grads = jax.value_and_grad(_loss)(state["params"], x, y)
        opt = state["opt"]
        count = opt["count"] + 1
        mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, opt["mu"], grads)
        nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, opt["nu"], grads)
        c1, c2 = 1 - b1**count, 1 - b2**count
        params = jax.tree.map(
            lambda p, m, v: p - cfg.learning_rate * (m / c1) / (jnp.sqrt(v / c2) + eps),
            state["params"], mu, nu,
        )
        new_state = {"params": params, "opt": {"count": count, "mu": mu, "nu": nu}}
        return new_state, {"loss": loss}

    return jax.jit(train_step, donate_argnums=0)
