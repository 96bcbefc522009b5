"""MAP fit of a Bayesian linear regression per survey site, with masked padding."""

import jax
import jax.numpy as jnp

from data import load_survey


def log_posterior(params, x, y, mask):
    slope, intercept, log_sigma = params[0], params[1], params[2]
    sigma = jnp.exp(log_sigma)
    resid = (y - (intercept + slope * x)) / sigma
    loglik = jnp.sum(mask * (-0.5 * resid**2 - log_sigma))
    logprior = -0.5 * (slope**2 + intercept**2) / 10.0 - 0.5 * log_sigma**2
    return loglik + logprior


@jax.jit
def ascent_step(params, x, y, mask, lr):
    g = jax.grad(log_posterior)(params, x, y, mask)
    n_obs = jnp.maximum(mask.sum(), 1.0)
    return params + lr * g / n_obs


@jax.jit
def site_summary(params, x, y, mask):
    fitted = params[1] + params[0] * x
    rss = jnp.sum(mask * (y - fitted) ** 2)
    return rss / jnp.maximum(mask.sum() - 2.0, 1.0)


def fit_site(x, y, mask, n_steps=5, lr=0.5):
    params = jnp.zeros(3, dtype=jnp.float32)
    lr = jnp.float32(lr)
    for _ in range(n_steps):
        params = ascent_step(params, x, y, mask, lr)
    return params


def main():
    for i, (x, y, mask) in enumerate(load_survey()):
        x, y, mask = jnp.asarray(x), jnp.asarray(y), jnp.asarray(mask)
        params = fit_site(x, y, mask)
        mse = site_summary(params, x, y, mask)
        print(f"site {i}: n={int(mask.sum())} slope={float(params[0]):.3f} "
              f"intercept={float(params[1]):.3f} mse={float(mse):.3f}")


if __name__ == "__main__":
    main()
