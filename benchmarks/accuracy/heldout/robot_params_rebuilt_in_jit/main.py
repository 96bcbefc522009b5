"""Fit the arm's masses, then check the energy of a few poses under the fitted and scaled parameters."""

import jax.numpy as jnp
from identify import evaluate, fit_masses, robot

POSES = jnp.array([[0.3, 0.2, 0.1], [0.8, -0.4, 0.2], [1.2, 0.1, -0.3], [0.1, 0.1, 0.1]])

if __name__ == "__main__":
    true_masses = jnp.array([1.5, 1.0, 0.5])
    measured = jnp.stack([evaluate({"lengths": robot.params["lengths"], "masses": true_masses}, q) for q in POSES])
    fitted, final_loss = fit_masses(POSES, measured)
    print(fitted["masses"], float(final_loss))
    for scale in (0.9, 1.0, 1.1):
        scaled = {"masses": fitted["masses"] * scale, "lengths": robot.params["lengths"]}
        print(scale, [float(evaluate(scaled, q)) for q in POSES])
