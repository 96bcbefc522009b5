"""A passive membrane compartment, integrated with forward Euler at a step size fixed at compile time."""

from functools import partial

import jax
import jax.numpy as jnp


def simulate(params, current, dt, duration=5.0):
    n_steps = int(round(duration / dt))

    def euler(v, _):
        dv = (-(v - params["v_rest"]) + params["gain"] * current) / params["tau"]
        v = v + dt * dv
        return v, v

    _, voltages = jax.lax.scan(euler, params["v_rest"], None, length=n_steps)
    return voltages


def final_voltage_loss(params, current, target, dt):
    return (simulate(params, current, dt)[-1] - target) ** 2


@partial(jax.jit, static_argnames=("dt",))
def train_step(params, current, target, lr, dt):
    loss, grads = jax.value_and_grad(final_voltage_loss)(params, current, target, dt)
    params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    return params, loss
