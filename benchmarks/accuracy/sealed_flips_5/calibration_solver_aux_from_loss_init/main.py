"""Calibrate a thermistor's Steinhart-Hart-like response curve from reference readings, logging residual terms."""

import jax
import jax.numpy as jnp
import numpy as np

from solver import GradientSolver


def response(params, resistance):
    log_r = jnp.log(resistance)
    return params["a"] + params["b"] * log_r + params["c"] * log_r**3


def loss_with_terms(params, resistance, temperature):
    residual = response(params, resistance) - temperature
    fit = jnp.mean(residual**2)
    ridge = 1e-3 * (params["b"] ** 2 + params["c"] ** 2)
    return fit + ridge, {"fit": fit, "ridge": ridge}


solver = GradientSolver(loss_with_terms, stepsize=0.05, has_aux=True)


@jax.jit
def solver_step(params, state, resistance, temperature):
    return solver.update(params, state, resistance, temperature)


def reference_readings(seed, n=64):
    rng = np.random.default_rng(seed)
    resistance = rng.uniform(1.0, 3.0, n).astype(np.float32)
    log_r = np.log(resistance)
    temperature = 0.5 - 0.8 * log_r + 0.05 * log_r**3 + 0.01 * rng.standard_normal(n)
    return jnp.asarray(resistance), jnp.asarray(temperature.astype(np.float32))


def main(n_iters=40, seed=0):
    resistance, temperature = reference_readings(seed)
    params = {"a": jnp.zeros(()), "b": jnp.zeros(()), "c": jnp.zeros(())}
    state = solver.init_state(params, resistance, temperature)
    for _ in range(n_iters):
        params, state = solver_step(params, state, resistance, temperature)
    terms = {k: round(float(v), 5) for k, v in state.aux.items()}
    print(f"{int(state.iter_num)} iterations, loss {float(state.value):.5f}, terms {terms}")


if __name__ == "__main__":
    main()
