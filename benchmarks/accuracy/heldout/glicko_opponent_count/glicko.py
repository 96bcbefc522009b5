"""Glicko rating update of one player from the games of one rating period."""

import jax
import jax.numpy as jnp

Q = jnp.log(10.0) / 400.0


def _attenuation(rd):
    return 1.0 / jnp.sqrt(1.0 + 3.0 * Q**2 * rd**2 / jnp.pi**2)


@jax.jit
def update_player(rating, rd, opponent_ratings, opponent_rds, scores):
    g = _attenuation(opponent_rds)
    expected = 1.0 / (1.0 + 10.0 ** (-g * (rating - opponent_ratings) / 400.0))
    d_squared = 1.0 / (Q**2 * jnp.sum(g**2 * expected * (1.0 - expected)))
    precision = 1.0 / rd**2 + 1.0 / d_squared
    new_rating = rating + Q / precision * jnp.sum(g * (scores - expected))
    return new_rating, jnp.sqrt(1.0 / precision)
