"""Binary black hole mass population: a truncated power law plus a Gaussian
peak. The class is a pytree (hyper-parameters are leaves, the grid size is aux
data), so its jitted method can take `self` as an ordinary traced argument."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class PowerLawPeak:
    def __init__(self, alpha, m_min, m_max, lam, mu, sigma, n_grid=64):
        self.alpha = alpha
        self.m_min = m_min
        self.m_max = m_max
        self.lam = lam
        self.mu = mu
        self.sigma = sigma
        self.n_grid = n_grid

    def tree_flatten(self):
        leaves = (self.alpha, self.m_min, self.m_max, self.lam, self.mu, self.sigma)
        return leaves, (self.n_grid,)

    @classmethod
    def tree_unflatten(cls, aux, leaves):
        return cls(*leaves, n_grid=aux[0])

    def with_hyper(self, **updates):
        params = dict(alpha=self.alpha, m_min=self.m_min, m_max=self.m_max,
                      lam=self.lam, mu=self.mu, sigma=self.sigma)
        params.update({k: jnp.asarray(v, dtype=jnp.float32) for k, v in updates.items()})
        return PowerLawPeak(**params, n_grid=self.n_grid)

    def _unnormalised(self, m):
        inside = (m >= self.m_min) & (m <= self.m_max)
        pl = jnp.where(inside, m ** (-self.alpha), 0.0)
        peak = jnp.exp(-0.5 * ((m - self.mu) / self.sigma) ** 2)
        return (1.0 - self.lam) * pl / jnp.sum(pl) + self.lam * peak / jnp.sum(peak)

    @jax.jit
    def log_rate(self, masses):
        grid = jnp.linspace(2.0, 100.0, self.n_grid)
        norm = jnp.trapezoid(self._unnormalised(grid), grid)
        return jnp.sum(jnp.log(self._unnormalised(masses) / norm + 1e-30))
