"""Recover the gain of a compartment from the voltage it settles at under a step current."""

import jax.numpy as jnp
from fit import Fitter

if __name__ == "__main__":
    params = {
        "v_rest": jnp.float32(-65.0),
        "gain": jnp.float32(8.0),
        "tau": jnp.float32(2.0),
    }
    fitter = Fitter(params)
    fitter.fit(current=jnp.float32(1.5), target=jnp.float32(-50.0))
    print([round(v, 3) for v in fitter.history], float(fitter.params["gain"]))
