"""Integrate a reaction chain and check mass conservation in float64."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from kinetics import ReactionChain  # noqa: E402
from solver import Heun  # noqa: E402


def mass_drift(saved):
    totals = [float(jnp.sum(y.astype(jnp.float64))) for y in saved]
    return max(abs(total - totals[0]) for total in totals)


def main():
    chain = ReactionChain()
    solver = Heun(chain.vector_field)
    final, saved = solver.solve(chain.initial_concentrations(), 0.0, 2.0, 0.1, chain.rates)
    print("final concentrations:", final.y.tolist(), "dtype:", final.y.dtype)
    print("mass drift:", mass_drift(saved))


if __name__ == "__main__":
    main()
