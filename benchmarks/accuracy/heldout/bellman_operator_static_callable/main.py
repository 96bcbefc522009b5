"""Reservation wage as unemployment compensation varies."""

import jax.numpy as jnp
from model import bellman_operator, make_params
from solvers import successive_approx

if __name__ == "__main__":
    for c in (15.0, 20.0, 25.0, 30.0):
        params = make_params(beta=0.96, c=c)
        v_star = successive_approx(bellman_operator, jnp.zeros(20), params)
        reservation = (1 - 0.96) * float(v_star.min())
        print(f"c={c}: reservation wage {reservation:.2f}")
