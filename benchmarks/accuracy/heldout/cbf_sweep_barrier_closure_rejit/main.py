"""Monte Carlo sweep over CBF gains and actuator limits for an obstacle-avoidance task."""

import itertools

import jax
import jax.numpy as jnp

from scenario import make_barrier, make_cbf_controller, make_nominal_controller

DT = 0.05
GOAL = jnp.array([2.0, 2.0])
OBSTACLE = jnp.array([1.0, 1.05])
RADIUS = 0.4


def conduct_monte_carlo(alpha, control_limit, key, n_trials=8, num_steps=5):
    barrier = make_barrier(OBSTACLE, RADIUS)
    controller = make_cbf_controller(
        barrier, make_nominal_controller(GOAL), alpha, control_limit
    )

    def closed_loop_step(states):
        u = jax.vmap(controller)(states)
        next_states = states + DT * u
        return next_states, jax.vmap(barrier)(next_states)

    step = jax.jit(closed_loop_step)  # expect: RTL301
    states = 0.1 * jax.random.normal(key, (n_trials, 2))
    min_h = jnp.inf
    for _ in range(num_steps):
        states, h = step(states)
        min_h = jnp.minimum(min_h, h.min())
    dist_to_goal = jnp.linalg.norm(states - GOAL, axis=1).mean()
    return float(min_h), float(dist_to_goal)


def sweep(alphas, limits, seed=0):
    key = jax.random.PRNGKey(seed)
    results = {}
    for alpha, limit in itertools.product(alphas, limits):
        key, sub = jax.random.split(key)
        results[(alpha, limit)] = conduct_monte_carlo(alpha, limit, sub)
    return results


if __name__ == "__main__":
    table = sweep(alphas=[0.5, 2.0], limits=[1.0, 3.0])
    for (alpha, limit), (min_h, dist) in table.items():
        status = "safe" if min_h >= 0 else "VIOLATION"
        print(f"alpha={alpha:4.1f} u_max={limit:3.1f}: min h={min_h:+.3f} "
              f"goal dist={dist:.3f} {status}")
