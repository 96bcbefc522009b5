"""Fit Lennard-Jones pair parameters to reference dimer energies.

Three atom-pair types (C-C, C-O, O-O) each get an epsilon and a sigma; the
parameters are refined with Adam against noisy reference energies.
"""

import jax
import jax.numpy as jnp
import numpy as np

from optim import Adam

PAIR_TYPES = ("C-C", "C-O", "O-O")


def lennard_jones(params, r, pair):
    eps = params["epsilon"][pair]
    sig = params["sigma"][pair]
    sr6 = (sig / r) ** 6
    return 4.0 * eps * (sr6**2 - sr6)


def energy_loss(params, r, pair, e_ref):
    return jnp.mean((lennard_jones(params, r, pair) - e_ref) ** 2)


def make_reference(rng, n):
    true = {"epsilon": np.array([0.36, 0.44, 0.65]), "sigma": np.array([3.40, 3.15, 2.96])}
    pair = rng.integers(0, 3, size=n)
    r = rng.uniform(3.0, 6.0, size=n)
    sr6 = (true["sigma"][pair] / r) ** 6
    e = 4.0 * true["epsilon"][pair] * (sr6**2 - sr6) + 0.005 * rng.standard_normal(n)
    return (jnp.asarray(r, jnp.float32), jnp.asarray(pair, jnp.int32), jnp.asarray(e, jnp.float32))


def build_fit_step(optimizer):
    def fit_step(step, params, slots, r, pair, e_ref):
        loss, grads = jax.value_and_grad(energy_loss)(params, r, pair, e_ref)
        params, slots = optimizer.tree_update(step, grads, params, slots)
        return params, slots, loss

    return jax.jit(fit_step)


def main():
    rng = np.random.default_rng(3)
    r, pair, e_ref = make_reference(rng, 64)
    params = {
        "epsilon": jnp.full((3,), 0.5, jnp.float32),
        "sigma": jnp.full((3,), 3.2, jnp.float32),
    }
    optimizer = Adam(learning_rate=0.02)
    slots = optimizer.tree_init(params)
    fit_step = build_fit_step(optimizer)
    for step in range(5):
        params, slots, loss = fit_step(step, params, slots, r, pair, e_ref)
        print(f"step {step}: energy mse {float(loss):.5f}")
    for name, eps, sig in zip(PAIR_TYPES, params["epsilon"], params["sigma"]):
        print(f"{name}: epsilon={float(eps):.3f} sigma={float(sig):.3f}")


if __name__ == "__main__":
    main()
