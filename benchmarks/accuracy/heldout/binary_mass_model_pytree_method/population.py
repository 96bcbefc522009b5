"""Primary-mass population model for merging black-hole binaries (power law + Gaussian peak)."""


import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class PowerLawPeak:
    """Hyper-parameters are leaves; only the model's label is static."""

    name = "power_law_peak"

    def __init__(self, alpha, m_min, m_max, mu_peak, sigma_peak, lam):
        self.alpha = alpha
        self.m_min = m_min
        self.m_max = m_max
        self.mu_peak = mu_peak
        self.sigma_peak = sigma_peak
        self.lam = lam

    def tree_flatten(self):
        children = (self.alpha, self.m_min, self.m_max, self.mu_peak, self.sigma_peak, self.lam)
        return children, self.name

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def _power_law(self, m):
        norm = (1.0 - self.alpha) / (self.m_max ** (1.0 - self.alpha) - self.m_min ** (1.0 - self.alpha))
        inside = (m >= self.m_min) & (m <= self.m_max)
        return jnp.where(inside, norm * m ** (-self.alpha), 0.0)

    def _peak(self, m):
        z = (m - self.mu_peak) / self.sigma_peak
        return jnp.exp(-0.5 * z**2) / (self.sigma_peak * jnp.sqrt(2 * jnp.pi))

    @jax.jit
    def log_prob(self, m):
        p = (1.0 - self.lam) * self._power_law(m) + self.lam * self._peak(m)
        return jnp.log(p + 1e-30)
