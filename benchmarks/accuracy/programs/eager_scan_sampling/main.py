"""Posterior predictive draws of a Bayesian linear model, one lax.scan over sample keys per request."""

import jax
import jax.numpy as jnp


def model(params, x, key):
    w = params["w_mean"] + params["w_std"] * jax.random.normal(key, params["w_mean"].shape)
    return x @ w


def predictive(params, x, keys):
    def draw_one(carry, key):
        return carry, model(params, x, key)

    return jax.lax.scan(draw_one, None, keys)[1]  # expect: RTL301


def serve(params, requests, n_samples=8):
    key = jax.random.PRNGKey(0)
    summaries = []
    for x in requests:
        key, sub = jax.random.split(key)
        draws = predictive(params, x, jax.random.split(sub, n_samples))
        summaries.append((draws.mean(axis=0), draws.std(axis=0)))
    return summaries


if __name__ == "__main__":
    params = {"w_mean": jnp.array([1.0, -1.0]), "w_std": jnp.array([0.1, 0.2])}
    serve(params, [jnp.ones((3, 2)) * k for k in range(3)])
