"""Settle a layer of rate cells towards the input current, with a configurable prior."""

from dataclasses import dataclass
from functools import partial

import jax.numpy as jnp
from dynamics import euler_step, leaky_drift, prior_drift


@dataclass
class CellConfig:
    tau: float = 10.0
    prior_scale: float = 0.0
    dt: float = 1.0


class RateCells:
    def __init__(self, size, cfg):
        self.cfg = cfg
        self.z = jnp.zeros(size)

    def drift(self):
        if self.cfg.prior_scale:
            return partial(prior_drift, tau=self.cfg.tau, prior_scale=self.cfg.prior_scale)  # expect: RTL204
        return partial(leaky_drift, tau=self.cfg.tau)  # expect: RTL204

    def advance(self, current, steps):
        for _ in range(steps):
            self.z = euler_step(self.z, current, self.cfg.dt, self.drift())  # expect: RTL204
        return self.z


if __name__ == "__main__":
    cells = RateCells(4, CellConfig(prior_scale=0.1))
    print(cells.advance(jnp.linspace(0.0, 1.0, 4), steps=5))
