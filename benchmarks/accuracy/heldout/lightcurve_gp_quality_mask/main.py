"""Score a shared GP model on every star of the survey, after its quality cut."""

import jax.numpy as jnp
from catalog import good_points, load_survey
from gp import gp_log_likelihood

PARAMS = {"log_amp": jnp.float32(0.0), "log_scale": jnp.float32(0.3), "log_noise": jnp.float32(-2.0)}
QUALITY_CUT = 0.2

if __name__ == "__main__":
    for star in load_survey(4):
        t, y = good_points(star, QUALITY_CUT)
        ll = gp_log_likelihood(PARAMS, jnp.asarray(t), jnp.asarray(y))
        print(star.name, t.size, "points, log L =", round(float(ll), 3))
