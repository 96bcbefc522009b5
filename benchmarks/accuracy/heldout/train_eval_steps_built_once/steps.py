"""The train and eval steps of a small regression model, parameterised by the config."""

import jax
import jax.numpy as jnp


def predict(params, x):
    return jnp.tanh(x @ params["w1"]) @ params["w2"]


def train_step(config, params, batch):
    def loss(p):
        return jnp.mean((predict(p, batch["x"]) - batch["y"]) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    params = jax.tree_util.tree_map(lambda w, g: w - config.learning_rate * g, params, grads)
    return params, value


def eval_step(config, params, batch):
    err = predict(params, batch["x"]) - batch["y"]
    return {"mse": jnp.mean(err**2), "max_abs": jnp.max(jnp.abs(err)) * config.report_scale}
