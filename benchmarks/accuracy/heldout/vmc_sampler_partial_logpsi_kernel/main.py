"""Variational Monte Carlo for a transverse-field Ising chain with an RBM ansatz.

The sampling kernel is chosen by name from a registry of jitted kernels; the
driver hands it the wave function as a callable (a static argument, since the
kernel calls it inside its Metropolis loop).
"""

import functools

import jax
import jax.numpy as jnp

N_SITES = 6
N_HIDDEN = 4
FIELD = 1.0


def rbm_logpsi(n_hidden, params, spins):
    theta = params["b"][:n_hidden] + spins @ params["W"][:, :n_hidden]
    return spins @ params["a"] + jnp.sum(jnp.log(jnp.cosh(theta)))


def local_energy(logpsi, params, spins):
    zz = -jnp.sum(spins * jnp.roll(spins, 1))
    flipped = spins[None, :] * (1.0 - 2.0 * jnp.eye(spins.shape[0]))
    log_ratio = jax.vmap(lambda s: logpsi(params, s))(flipped) - logpsi(params, spins)
    return zz - FIELD * jnp.sum(jnp.exp(log_ratio))


@functools.partial(jax.jit, static_argnums=0)
def metropolis_kernel(logpsi, params, spins, key):
    site_keys = jax.random.split(key, spins.shape[0])
    for i in range(spins.shape[0]):  # one sweep: propose a flip at every site
        proposal = spins.at[i].multiply(-1.0)
        log_acc = 2.0 * (logpsi(params, proposal) - logpsi(params, spins))
        accept = jnp.log(jax.random.uniform(site_keys[i])) < log_acc
        spins = jnp.where(accept, proposal, spins)
    return spins, local_energy(logpsi, params, spins)


SAMPLERS = {"metropolis": metropolis_kernel}


class VMCDriver:
    def __init__(self, n_hidden, sampler="metropolis"):
        self.n_hidden = n_hidden
        self.sample = SAMPLERS[sampler]

    def wavefunction(self):
        return functools.partial(rbm_logpsi, self.n_hidden)  # expect: RTL204

    def sweep(self, params, spins, key):
        logpsi = self.wavefunction()
        return self.sample(logpsi, params, spins, key)  # expect: RTL204


def init_params(key):
    ka, kb, kw = jax.random.split(key, 3)
    return {
        "a": 0.01 * jax.random.normal(ka, (N_SITES,)),
        "b": 0.01 * jax.random.normal(kb, (N_HIDDEN,)),
        "W": 0.01 * jax.random.normal(kw, (N_SITES, N_HIDDEN)),
    }


if __name__ == "__main__":
    key = jax.random.PRNGKey(7)
    params = init_params(key)
    spins = jnp.where(jnp.arange(N_SITES) % 2 == 0, 1.0, -1.0)
    driver = VMCDriver(N_HIDDEN)
    energies = []
    for sweep in range(5):
        key, sub = jax.random.split(key)
        spins, e_loc = driver.sweep(params, spins, sub)
        energies.append(float(e_loc))
        print(f"sweep {sweep}: E_loc = {energies[-1]:.4f}  spins = {spins.astype(int).tolist()}")
    print("mean energy per site:", sum(energies) / len(energies) / N_SITES)
