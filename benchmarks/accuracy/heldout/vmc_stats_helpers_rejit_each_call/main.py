"""Variational ground state of a transverse-field Ising chain with a two-parameter Jastrow ansatz.

Exact enumeration of all spin configurations stands in for the sampler; every optimisation step
builds weighted statistics of the local energy and of the log-derivatives and takes a stochastic
reconfiguration step.
"""

import itertools

import jax
import jax.numpy as jnp
import numpy as np

from stats import SampledObs

L = 6
J, H = 1.0, 0.8
CONFIGS = jnp.asarray(list(itertools.product([-1.0, 1.0], repeat=L)))


def log_psi(params, s):
    field, pair = params[0], params[1]
    return field * jnp.sum(s, axis=-1) + pair * jnp.sum(s * jnp.roll(s, 1, axis=-1), axis=-1)


@jax.jit
def local_quantities(params, configs):
    """Local energies, log-derivatives and Born weights of every configuration."""
    lp = log_psi(params, configs)
    flipped = configs[:, None, :] * (1.0 - 2.0 * jnp.eye(L))[None, :, :]
    ratios = jnp.exp(log_psi(params, flipped) - lp[:, None])
    e_loc = -J * jnp.sum(configs * jnp.roll(configs, 1, axis=-1), axis=-1) - H * jnp.sum(ratios, axis=-1)
    o_k = jnp.stack(
        [jnp.sum(configs, axis=-1), jnp.sum(configs * jnp.roll(configs, 1, axis=-1), axis=-1)], axis=-1
    )
    p = jnp.exp(2.0 * (lp - jnp.max(lp)))
    return e_loc, o_k, p / jnp.sum(p)


def sr_step(params, lr=0.1, diag_shift=1e-3):
    e_loc, o_k, weights = local_quantities(params, CONFIGS)
    energy = SampledObs(e_loc, weights)
    grads = SampledObs(o_k, weights)
    force = grads.covar(energy)
    s_matrix = grads.covar() + diag_shift * jnp.eye(2)
    update = jnp.linalg.solve(s_matrix, force)
    return params - lr * update, float(energy.mean())


def main():
    params = jnp.asarray(np.array([0.05, 0.1], dtype=np.float32))
    for step in range(4):
        params, e = sr_step(params)
        print(f"step {step}: E/L = {e / L:+.4f}")


if __name__ == "__main__":
    main()
