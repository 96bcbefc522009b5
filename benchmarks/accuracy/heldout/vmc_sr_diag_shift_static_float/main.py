"""VMC ground state of a small transverse-field Ising chain with SR updates."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.flatten_util import ravel_pytree

from sr import log_amplitude, solve_sr

N_SITES = 6
H_FIELD = 0.8
PARAM_TEMPLATE = (jnp.zeros(N_SITES, dtype=jnp.float32), jnp.asarray(0.1, dtype=jnp.float32))


def local_energy(params, spins):
    zz = -jnp.sum(spins * jnp.roll(spins, -1, axis=-1), axis=-1)
    logpsi = log_amplitude(params, spins)
    flips = spins[:, None, :] * (1 - 2 * jnp.eye(N_SITES))[None]
    ratios = jnp.exp(log_amplitude(params, flips) - logpsi[:, None])
    return zz - H_FIELD * ratios.sum(axis=-1)


@jax.jit
def sr_inputs(flat, spins):
    _, unravel = ravel_pytree(PARAM_TEMPLATE)
    e_loc = local_energy(unravel(flat), spins)
    jac = jax.vmap(lambda s: jax.grad(lambda p: log_amplitude(unravel(p), s))(flat))(spins)
    force = jnp.mean(jac * (e_loc - e_loc.mean())[:, None], axis=0)
    return e_loc, jac, force


class SRDriver:
    def __init__(self, params, lr=0.05, shift0=0.1, shift_decay=0.7, min_shift=1e-3):
        self.params = params
        self.lr = lr
        self.shift0 = shift0
        self.shift_decay = shift_decay
        self.min_shift = min_shift
        self.cg_iters = 20
        self.step_count = 0
        self._rng = np.random.default_rng(3)

    def current_shift(self):
        # Regularisation is annealed as the sampler settles, as in the SR literature.
        return max(self.shift0 * self.shift_decay ** self.step_count, self.min_shift)

    def sample(self, n=64):
        spins = self._rng.choice([-1.0, 1.0], size=(n, N_SITES)).astype(np.float32)
        return jnp.asarray(spins)

    def step(self):
        spins = self.sample()
        flat, unravel = ravel_pytree(self.params)
        e_loc, jac, force = sr_inputs(flat, spins)
        shift = self.current_shift()
        dtheta = solve_sr(jac, force, diag_shift=shift, maxiter=self.cg_iters)  # expect: RTL202
        self.params = unravel(flat - self.lr * dtheta)
        self.step_count += 1
        return float(e_loc.mean())


if __name__ == "__main__":
    driver = SRDriver(PARAM_TEMPLATE)
    for it in range(5):
        energy = driver.step()
        print(f"iter {it}  E/N = {energy / N_SITES:.4f}  shift = {driver.current_shift():.4f}")
