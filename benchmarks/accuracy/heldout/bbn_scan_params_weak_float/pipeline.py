"""A toy BBN + damping-tail pipeline: helium fraction and a damping scale from the parameters."""

import jax
import jax.numpy as jnp


@jax.jit
def predict_observables(params, ell):
    expansion = jnp.sqrt(1.0 + 0.135 * params["delta_neff"])
    neutron_lifetime = 879.4 * params["tau_n_fac"]
    y_p = 0.2471 + 0.0002 * (neutron_lifetime - 879.4) + 0.013 * (expansion - 1.0)
    damping = (params["omega_b"] + params["omega_cdm"]) * params["h"] ** 2 * (1.0 - 0.5 * y_p)
    cl = jnp.exp(-(ell / (1500.0 * damping / 0.058)) ** 2) / (ell * (ell + 1.0))
    return y_p, cl
