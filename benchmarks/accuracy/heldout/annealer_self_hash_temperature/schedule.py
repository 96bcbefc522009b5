"""Cooling schedules."""


def geometric(t_start, factor, n_steps):
    t = t_start
    for _ in range(n_steps):
        yield t
        t *= factor
