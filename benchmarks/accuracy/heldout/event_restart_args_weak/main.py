"""Integrate, stop at each threshold event, adjust the parameters, and restart."""

import jax.numpy as jnp
from control import modify_args
from ode import solve_until_event


def simulate(y0, t_end=20.0, dt=0.05, max_restarts=4):
    args = (1.5, 1.0)  # expect: RTL401
    t = 0.0
    events = []
    for _ in range(max_restarts):
        t_event, y = solve_until_event(y0, t, args, dt, t_end)
        t = float(t_event)
        if t >= t_end:
            break
        events.append(t)
        y0 = y
        args = modify_args(y, args)  # expect: RTL401
    return events, y0


if __name__ == "__main__":
    events, y = simulate(jnp.array([1.0, 0.6]))
    print(events, y)
