"""Run the scenario suite and report how close each rollout gets to its goal."""

import jax.numpy as jnp
from scenarios import SUITE
from simulator import Simulator


def run_suite(sim, gains):
    x0 = jnp.zeros(3)
    report = {}
    for sc in SUITE:
        goal, obstacle = sc.arrays()
        xs = sim.execute(x0, goal, obstacle, gains, sc.duration)  # expect: RTL201
        report[sc.name] = float(jnp.linalg.norm(xs[-1, :2] - goal))
    return report


if __name__ == "__main__":
    gains = jnp.array([1.0, 2.0, 4.0])
    for name, miss in run_suite(Simulator(dt=0.05), gains).items():
        print(f"{name:10s} final distance {miss:.3f}")
