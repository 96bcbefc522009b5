"""Reach-goal scenarios of a benchmark suite; each has its own time budget."""

from dataclasses import dataclass

import jax.numpy as jnp


@dataclass
class Scenario:
    name: str
    goal: tuple
    obstacle: tuple  # x, y, radius
    duration: float  # seconds of simulated time

    def arrays(self):
        return jnp.asarray(self.goal, jnp.float32), jnp.asarray(self.obstacle, jnp.float32)


SUITE = [
    Scenario("corridor", (2.0, 0.0), (1.0, 0.3, 0.2), 2.0),
    Scenario("offset", (2.0, 1.0), (1.0, 0.8, 0.3), 3.0),
    Scenario("mirror", (2.0, -1.0), (1.0, -0.8, 0.3), 3.0),
    Scenario("far", (4.0, 0.5), (2.0, 0.2, 0.4), 5.0),
]
