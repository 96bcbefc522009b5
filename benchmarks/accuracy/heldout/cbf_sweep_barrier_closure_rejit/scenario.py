"""Single-integrator robot, one circular obstacle, CBF safety filter."""

import jax
import jax.numpy as jnp


def make_barrier(center, radius):
    def h(x):
        return jnp.sum((x - center) ** 2) - radius ** 2

    return h


def make_nominal_controller(goal, kp=1.0):
    def u_nom(x):
        return kp * (goal - x)

    return u_nom


def make_cbf_controller(barrier, nominal, alpha, control_limit):
    """Closed-form solution of min |u - u_nom|^2 s.t. grad_h . u + alpha h >= 0."""
    grad_h = jax.grad(barrier)

    def controller(x):
        u0 = nominal(x)
        a = grad_h(x)
        slack = jnp.dot(a, u0) + alpha * barrier(x)
        correction = jnp.where(slack < 0.0, -slack / (jnp.dot(a, a) + 1e-9), 0.0)
        return jnp.clip(u0 + correction * a, -control_limit, control_limit)

    return controller
