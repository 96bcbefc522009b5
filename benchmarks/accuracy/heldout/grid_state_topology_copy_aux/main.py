"""Track bus voltage angles through an hourly load profile with a relaxed DC power flow."""

import jax
import jax.numpy as jnp
import numpy as np

from grid import GridState, Topology

LINES = [(0, 1, 10.0), (1, 2, 8.0), (2, 3, 12.0), (3, 0, 9.0), (1, 3, 5.0)]


@jax.jit
def relax_flow(state):
    b = state.topology.susceptance_matrix()
    b = b.at[0, :].set(0.0).at[0, 0].set(1.0)  # bus 0 is the slack bus
    rhs = state.injections.at[0].set(0.0)
    angles = state.angles
    for _ in range(20):
        angles = angles + 0.05 * (rhs - b @ angles)
    return GridState(angles, state.injections, state.topology)


def hourly_injections(hours, seed=0):
    rng = np.random.default_rng(seed)
    base = np.array([0.0, -0.8, 0.5, -0.4], np.float32)
    for hour in range(hours):
        yield jnp.asarray(base * (1.0 + 0.1 * rng.normal(size=4)), jnp.float32)


def main():
    topology = Topology(4, LINES)
    state = GridState(jnp.zeros(4, jnp.float32), jnp.zeros(4, jnp.float32), topology)
    for hour, injections in enumerate(hourly_injections(5)):
        state = relax_flow(state.with_injections(injections))
        print(f"hour {hour}: angles {np.round(np.asarray(state.angles), 4)}")


if __name__ == "__main__":
    main()
