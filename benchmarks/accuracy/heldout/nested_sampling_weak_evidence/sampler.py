"""One nested-sampling step: replace the worst live point by a constrained prior draw."""

import jax
import jax.numpy as jnp
from integrator import update_integrator

N_LIVE = 16


def loglikelihood(x):
    return -0.5 * jnp.sum((x / 0.3) ** 2, axis=-1)


@jax.jit
def ns_step(live, live_logl, integrator, key):
    worst = jnp.argmin(live_logl)
    logl_dead = live_logl[worst]
    integrator = update_integrator(integrator, logl_dead, N_LIVE)
    proposals = jax.random.uniform(key, (32, live.shape[1]), minval=-1.0, maxval=1.0)
    prop_logl = loglikelihood(proposals)
    ok = prop_logl > logl_dead
    pick = jnp.argmax(ok)
    new_x = jnp.where(ok[pick], proposals[pick], live[worst])
    new_l = jnp.where(ok[pick], prop_logl[pick], logl_dead)
    return live.at[worst].set(new_x), live_logl.at[worst].set(new_l), integrator
