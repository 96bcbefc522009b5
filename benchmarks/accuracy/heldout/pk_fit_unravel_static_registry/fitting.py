"""Per-subject weighted least-squares fit with Levenberg-Marquardt steps on flattened parameters."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


@partial(jax.jit, static_argnames=("unravel", "model", "error_model"))
def lm_step(flat, t, conc, dose, damping, *, unravel, model, error_model):
    def residuals(z):
        return error_model(model(unravel(z), t, dose), conc)

    r = residuals(flat)
    jac = jax.jacfwd(residuals)(flat)
    jtj = jac.T @ jac
    step = jnp.linalg.solve(jtj + damping * jnp.diag(jnp.diag(jtj)), jac.T @ r)
    return flat - step, 0.5 * jnp.sum(r ** 2)


def fit_subject(theta0, spec, t, conc, dose, n_iter=5):
    flat, unravel = ravel_pytree(theta0)
    damping, loss = 1.0, None
    for _ in range(n_iter):
        flat, loss = lm_step(
            flat, t, conc, dose, damping, unravel=unravel, model=spec.model, error_model=spec.error
        )
        damping = max(damping * 0.3, 1e-3)
    return unravel(flat), float(loss)
