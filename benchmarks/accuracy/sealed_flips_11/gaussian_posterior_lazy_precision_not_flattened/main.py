"""Track a slowly drifting target and print the log-density of each fix under the posterior."""

import jax
import jax.numpy as jnp

from tracker import Tracker


def fixes(n=6):
    key = jax.random.PRNGKey(2)
    truth = jnp.array([1.0, -0.5])
    for i in range(n):
        key, sub = jax.random.split(key)
        yield truth + 0.1 * i + 0.3 * jax.random.normal(sub, (2,))


def main():
    tracker = Tracker()
    belief = tracker.prior()
    for i, fix in enumerate(fixes()):
        belief, score = tracker.update(belief, fix)
        print(f"fix {i}: loc={belief.loc} log p={float(score):.3f}")


if __name__ == "__main__":
    main()
