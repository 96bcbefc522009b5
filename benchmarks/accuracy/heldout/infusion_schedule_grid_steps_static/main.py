"""Simulate plasma concentration over an irregular infusion schedule."""

import jax.numpy as jnp

from pk_model import integrate_interval

DT_HOURS = 0.25

# (start hour, infusion rate mg/h) as charted by the ward; intervals are not uniform
CHART = [(0.0, 40.0), (6.0, 0.0), (8.5, 35.0), (14.0, 0.0), (21.0, 30.0), (24.0, 0.0)]


class InfusionSchedule:
    def __init__(self, chart, horizon):
        self.chart = chart
        self.horizon = horizon

    def intervals(self):
        starts = [t for t, _ in self.chart] + [self.horizon]
        for (t_start, rate), t_end in zip(self.chart, starts[1:]):
            yield t_start, t_end, rate


def simulate(schedule, params):
    state = jnp.zeros(2, dtype=jnp.float32)
    trace = []
    for t_start, t_end, rate in schedule.intervals():
        grid = (t_start, t_end, DT_HOURS)
        state, times, conc = integrate_interval(state, jnp.float32(rate), params, grid=grid)  # expect: RTL201
        trace.append((times, conc))
    return state, trace


def main():
    params = {
        "k10": jnp.float32(0.12),
        "k12": jnp.float32(0.08),
        "k21": jnp.float32(0.05),
    }
    schedule = InfusionSchedule(CHART, horizon=30.0)
    final, trace = simulate(schedule, params)
    for times, conc in trace:
        print(f"t={float(times[-1]):5.2f}h  peak={float(conc.max()):7.2f}  end={float(conc[-1]):7.2f}")
    print("final compartments:", [round(float(v), 3) for v in final])


if __name__ == "__main__":
    main()
