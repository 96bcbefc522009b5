"""A one-source scene (a round Gaussian galaxy) fitted to an observation by gradient descent."""

from functools import partial

import jax
import jax.numpy as jnp

LEARNING_RATE = 0.05


def render_source(params, shape):
    yy, xx = jnp.mgrid[0 : shape[0], 0 : shape[1]].astype(jnp.float32)
    size = jnp.exp(params["log_size"])
    r2 = (xx - params["x0"]) ** 2 + (yy - params["y0"]) ** 2
    profile = jnp.exp(-0.5 * r2 / size**2) / (2 * jnp.pi * size**2)
    return jnp.exp(params["log_flux"]) * profile


def log_likelihood(params, data, weights, renderer):
    model = renderer(render_source(params, data.shape))
    return -0.5 * jnp.mean(weights * (model - data) ** 2)


@partial(jax.jit, static_argnames=("renderer",))
def _make_step(params, data, weights, renderer):
    loss, grads = jax.value_and_grad(lambda p: -log_likelihood(p, data, weights, renderer))(params)
    params = jax.tree_util.tree_map(lambda p, g: p - LEARNING_RATE * g, params, grads)
    return params, loss


class Scene:
    def __init__(self, frame, init_params):
        self.frame = frame
        self.init_params = init_params

    def fit(self, obs, max_iter=4):
        params = dict(self.init_params)
        for _ in range(max_iter):
            params, loss = _make_step(params, obs.data, obs.weights, obs.renderer)  # expect: RTL201
        return params, float(loss)
