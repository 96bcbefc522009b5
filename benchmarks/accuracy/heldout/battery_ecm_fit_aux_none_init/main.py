"""Fit a first-order Thevenin model (R0 + one RC pair) of a Li-ion cell to a current-pulse response.

The fit runs a small gradient-descent solver; its objective also returns diagnostics (RMS and worst
voltage error) that the loop logs after every update.
"""

import numpy as np
import jax.numpy as jnp

from solver import GradientDescent

OCV = 3.70  # open-circuit voltage at this state of charge, V
PULSE_A = 2.0  # discharge pulse current, A


def make_pulse_record(n=40, dt=0.5, seed=0):
    """Synthetic lab record: terminal voltage during a constant-current discharge pulse."""
    rng = np.random.default_rng(seed)
    t = np.arange(n, dtype=np.float32) * dt
    r0, r1, tau = 0.035, 0.020, 6.0
    v = OCV - PULSE_A * r0 - PULSE_A * r1 * (1.0 - np.exp(-t / tau))
    v = v + rng.normal(0.0, 2e-4, size=n)
    return jnp.asarray(t), jnp.asarray(v, dtype=jnp.float32)


def terminal_voltage(params, t):
    r0 = jnp.exp(params["log_r0"])
    r1 = jnp.exp(params["log_r1"])
    tau = jnp.exp(params["log_tau"])
    return OCV - PULSE_A * r0 - PULSE_A * r1 * (1.0 - jnp.exp(-t / tau))


def pulse_loss(params, t, v_meas):
    resid = terminal_voltage(params, t) - v_meas
    loss = jnp.mean(resid**2) * 1e4
    diagnostics = {"rmse_mv": 1e3 * jnp.sqrt(jnp.mean(resid**2)), "max_err_mv": 1e3 * jnp.max(jnp.abs(resid))}
    return loss, diagnostics


def initial_guess():
    guess = {"log_r0": 0.05, "log_r1": 0.01, "log_tau": 3.0}
    return {k: jnp.asarray(np.log(v), dtype=jnp.float32) for k, v in guess.items()}


def report(state):
    if state.aux is None:
        print(f"iter {int(state.iter_num)}: no evaluation yet")
        return
    print(
        f"iter {int(state.iter_num)}: loss {float(state.value):.4f}  "
        f"rmse {float(state.aux['rmse_mv']):.2f} mV  max {float(state.aux['max_err_mv']):.2f} mV"
    )


def fit_cell(t, v_meas, n_iter=5):
    solver = GradientDescent(pulse_loss, stepsize=0.01, has_aux=True)
    params = initial_guess()
    state = solver.init_state(params, t, v_meas)
    report(state)
    for _ in range(n_iter):
        params, state = solver.update(params, state, t, v_meas)
        report(state)
    return params


if __name__ == "__main__":
    t, v = make_pulse_record()
    fitted = fit_cell(t, v)
    print({k.removeprefix("log_"): float(jnp.exp(p)) for k, p in fitted.items()})
