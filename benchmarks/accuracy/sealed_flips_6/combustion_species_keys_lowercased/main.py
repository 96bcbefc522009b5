"""Burn a lean methane-air mixture in a closed reactor and print the final composition."""

import jax.numpy as jnp

from kinetics import react
from species import read_initial_mixture

CASE = """
ch4 = 0.05
co2 = 0.0
h2o = 0.0
o2 = 0.20
"""


def main(steps=40):
    mixture = read_initial_mixture(CASE)
    rate_constant, dt = jnp.float32(60.0), jnp.float32(0.05)
    for _ in range(steps):
        mixture = react(mixture, rate_constant, dt)
    print(", ".join(f"{name} {float(value):.3f}" for name, value in sorted(mixture.items())))


if __name__ == "__main__":
    main()
