"""Track a target moving on a straight line from noisy position fixes."""

import jax
import jax.numpy as jnp

from belief import initial_belief
from tracker import DT, track_step


def fixes(n, key):
    truth = jnp.array([0.0, 0.0]) + jnp.arange(1, n + 1)[:, None] * DT * jnp.array([1.0, 0.5])
    return truth + 0.6 * jax.random.normal(key, truth.shape)


def main(n=12):
    measurements = fixes(n, jax.random.PRNGKey(3))
    belief = initial_belief(measurements[0])
    for z in measurements[1:]:
        belief = track_step(belief, z)
    print(f"estimated velocity {belief.mean[2:].round(2).tolist()}")


if __name__ == "__main__":
    main()
