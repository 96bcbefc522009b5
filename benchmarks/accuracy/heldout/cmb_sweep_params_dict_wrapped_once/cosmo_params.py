"""User-facing parameter handling for a toy CMB temperature spectrum."""

import jax.numpy as jnp

PARAM_NAMES = ("omega_b", "omega_cdm", "h", "n_s", "ln10As", "tau")

DEFAULTS = {
    "omega_b": 0.02237,
    "omega_cdm": 0.1200,
    "h": 0.6736,
    "n_s": 0.9649,
    "ln10As": 3.044,
    "tau": 0.0544,
}

MAX_NU = 3


def canonical_params(user):
    """Complete, array-valued parameter dict from whatever the user passed.

    Users give plain floats, ints, NumPy scalars, or leave keys out; the
    neutrino masses come as a list of one to three species.
    """
    params = {
        name: jnp.asarray(user.get(name, DEFAULTS[name]), dtype=jnp.float32)
        for name in PARAM_NAMES
    }
    masses = [float(m) for m in user.get("m_nu", [0.06])]
    masses = masses + [0.0] * (MAX_NU - len(masses))
    params["m_nu"] = jnp.asarray(masses, dtype=jnp.float32)
    return params
