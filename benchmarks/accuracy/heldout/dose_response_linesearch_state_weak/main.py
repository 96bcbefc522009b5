"""Fit a four-parameter Hill (log-logistic) dose-response curve to a plate of
viability measurements with a hand-rolled line-search gradient descent."""

import jax
import jax.numpy as jnp
import numpy as np

from linesearch import SearchState, backtrack, barzilai_borwein, init_search_state

DOSES_UM = np.array([0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0], dtype=np.float32)


def hill(params, log_dose):
    bottom, top, log_ec50, slope = params
    return bottom + (top - bottom) / (1.0 + jnp.exp(slope * (log_dose - log_ec50)))


def loss(params, log_dose, response):
    return jnp.mean((hill(params, log_dose) - response) ** 2)


@jax.jit
def fit_step(params, state: SearchState, log_dose, response):
    grad = jax.grad(loss)(params, log_dose, response)
    t = backtrack(loss, params, grad, state.value, state.stepsize, (log_dose, response))
    new_params = params - t * grad
    new_value, new_grad = jax.value_and_grad(loss)(new_params, log_dose, response)
    next_t = barzilai_borwein(params, new_params, grad, new_grad)
    return new_params, SearchState(
        stepsize=next_t,
        num_iter=state.num_iter + 1,
        value=new_value,
        grad_norm=jnp.linalg.norm(new_grad),
    )


@jax.jit
def ic50_report(params):
    return jnp.exp(params[2]), hill(params, jnp.log(jnp.asarray(DOSES_UM)))


def simulate_plate(seed=0, replicates=3):
    rng = np.random.default_rng(seed)
    true = np.array([0.05, 1.0, np.log(0.8), 1.3], dtype=np.float32)
    log_dose = np.tile(np.log(DOSES_UM), replicates)
    clean = np.asarray(hill(jnp.asarray(true), jnp.asarray(log_dose)))
    noisy = clean + rng.normal(0.0, 0.03, size=clean.shape).astype(np.float32)
    return jnp.asarray(log_dose), jnp.asarray(noisy)


def fit_curve(log_dose, response, n_iter=5):
    params = jnp.array([0.0, 0.9, 0.0, 1.0], dtype=jnp.float32)
    state = init_search_state(loss, params, log_dose, response)
    for _ in range(n_iter):
        params, state = fit_step(params, state, log_dose, response)
        print(f"iter {int(state.num_iter)}  mse={float(state.value):.5f}  "
              f"|g|={float(state.grad_norm):.4f}  next_t={float(state.stepsize):.3f}")
    return params


if __name__ == "__main__":
    log_dose, response = simulate_plate()
    params = fit_curve(log_dose, response)
    ic50, curve = ic50_report(params)
    print(f"IC50 ~ {float(ic50):.3f} uM, fitted curve {np.round(np.asarray(curve), 3)}")
