"""Control-barrier-function safety filter for a unicycle robot."""
import jax
import jax.numpy as jnp


def nominal_policy(state, goal, k_p):
    """Proportional go-to-goal controller: (v, omega)."""
    x, y, theta = state[0], state[1], state[2]
    dx, dy = goal[0] - x, goal[1] - y
    heading = jnp.arctan2(dy, dx)
    v = k_p * jnp.sqrt(dx * dx + dy * dy)
    omega = 2.0 * jnp.sin(heading - theta)
    return jnp.stack([v, omega])


def barrier(state, obstacle, radius):
    """h(x) >= 0 outside the obstacle disc."""
    d = state[:2] - obstacle
    return jnp.dot(d, d) - radius ** 2


def make_safety_filter(goal, obstacle, radius, alpha=1.0, k_p=0.8):
    """Build the CBF-filtered controller for the current scene."""

    def safe_control(state):
        u_nom = nominal_policy(state, goal, k_p)
        h = barrier(state, obstacle, radius)
        grad_h = jax.grad(barrier)(state, obstacle, radius)
        # unicycle dynamics: xdot = v cos(theta), ydot = v sin(theta)
        g = jnp.array([jnp.cos(state[2]), jnp.sin(state[2])])
        lg_h = grad_h[0] * g[0] + grad_h[1] * g[1]
        constraint = lg_h * u_nom[0] + alpha * h
        # closed-form projection of the single linear constraint
        correction = jnp.where(constraint < 0.0, -constraint / (lg_h * lg_h + 1e-6), 0.0)
        v = u_nom[0] + correction * lg_h
        return jnp.stack([v, u_nom[1]])

    return jax.jit(safe_control)  # expect: RTL301
