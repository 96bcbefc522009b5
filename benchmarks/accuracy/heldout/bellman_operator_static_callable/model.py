"""A job-search model: the Bellman operator on the value of an offer."""

import jax.numpy as jnp


def bellman_operator(v, params):
    wages, probs, beta, c = params["w"], params["q"], params["beta"], params["c"]
    reject = c + beta * jnp.dot(v, probs)
    return jnp.maximum(wages / (1 - beta), reject)


def make_params(beta, c, n=20):
    w = jnp.linspace(10.0, 60.0, n)
    q = jnp.ones(n) / n
    return {"w": w, "q": q, "beta": jnp.float32(beta), "c": jnp.float32(c)}
