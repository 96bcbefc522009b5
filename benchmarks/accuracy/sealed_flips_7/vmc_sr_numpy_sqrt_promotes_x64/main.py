"""Variational ground state of a 6-spin transverse-field Ising chain, with x64 for the energies."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from ansatz import all_configurations, init_params, log_psi  # noqa: E402
from sr import sr_step  # noqa: E402


def sample(params, key, configs, n_samples=256):
    """Exact sampling from |psi|^2 over the 64 configurations."""
    logits = 2 * jax.vmap(log_psi, in_axes=(None, 0))(params, configs)
    return configs[jax.random.categorical(key, logits, shape=(n_samples,))]


def main(iterations=12):
    configs = all_configurations()
    params = init_params(jax.random.PRNGKey(0))
    key = jax.random.PRNGKey(1)
    for it in range(iterations):
        key, sample_key = jax.random.split(key)
        params, energy = sr_step(params, sample(params, sample_key, configs))
        if it % 4 == 0:
            print(f"iteration {it:2d}: energy per spin {float(energy) / configs.shape[1]:+.4f}")
    print("parameter dtype:", jnp.asarray(params["w"]).dtype)


if __name__ == "__main__":
    main()
