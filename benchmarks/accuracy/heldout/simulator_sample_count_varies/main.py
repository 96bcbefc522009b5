"""Simulation-based training: draw a fresh simulated data set every step."""

import jax.numpy as jnp
from estimator import train_step
from simulator import GaussianSimulator

if __name__ == "__main__":
    sim = GaussianSimulator()
    weights = jnp.zeros((3, 2))
    for step in range(8):
        theta, data = sim.sample()
        weights, loss = train_step(weights, theta, data)
        print(step, data["y"].shape[0], round(loss, 4))
