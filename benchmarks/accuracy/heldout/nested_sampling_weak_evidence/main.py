"""Run a few nested-sampling iterations and print the evidence estimate as it accumulates."""

import jax
from integrator import init_integrator
from sampler import N_LIVE, loglikelihood, ns_step

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    live = jax.random.uniform(sub, (N_LIVE, 2), minval=-1.0, maxval=1.0)
    live_logl = loglikelihood(live)
    integrator = init_integrator()
    for it in range(5):
        key, sub = jax.random.split(key)
        live, live_logl, integrator = ns_step(live, live_logl, integrator, sub)
        print(it, float(integrator.logX), float(integrator.logZ))
