"""Drive a point-mass robot to a waypoint with a horizon that shrinks as it gets close."""

import jax
import jax.numpy as jnp
import numpy as np

from planner import RecedingHorizonPlanner


@jax.jit
def advance(state, accel, dt):
    pos, vel = state[:2], state[2:]
    vel = vel + dt * accel
    pos = pos + dt * vel
    return jnp.concatenate([pos, vel])


def run_episode(planner, start, goal, n_cycles=5, substeps=5):
    state = jnp.asarray(start, dtype=jnp.float32)
    goal = jnp.asarray(goal, dtype=jnp.float32)
    log = []
    for cycle in range(n_cycles):
        distance = float(jnp.linalg.norm(goal - state[:2]))
        speed = float(jnp.linalg.norm(state[2:]))
        planner = planner.with_horizon_for(distance, speed)
        accel = planner.plan(state, goal)  # expect: RTL201
        for _ in range(substeps):
            state = advance(state, accel, planner.dt)
        log.append((cycle, planner.horizon, distance))
    return state, log


def main():
    planner = RecedingHorizonPlanner(dt=0.1, horizon=20)
    final, log = run_episode(planner, start=[0.0, 0.0, 0.8, 0.4], goal=[3.0, 1.5])
    for cycle, horizon, distance in log:
        print(f"cycle {cycle}: horizon={horizon:2d} distance={distance:.3f}")
    print("final state", np.round(np.asarray(final), 3))


if __name__ == "__main__":
    main()
