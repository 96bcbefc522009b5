"""Roll a controlled ball forward chunk by chunk, logging its peak height per chunk."""

import jax.numpy as jnp

from ball import BouncingBall
from control import rollout


def main():
    params = {"k": jnp.array([-1.0, -0.5]), "b": jnp.asarray(2.0)}
    ball = BouncingBall.create(pos=jnp.array([0.0, 0.0, 1.0]), vel=jnp.zeros(3))
    for chunk in range(5):
        ball = rollout(params, ball)
        print(f"chunk {chunk}: peak height {float(ball.positions[:, 2].max()):.3f}")


if __name__ == "__main__":
    main()
