"""Mean-field normal guide for the Gutenberg-Richter catalogue model."""
import jax
import jax.numpy as jnp


class MeanFieldNormal:
    """q(z) = prod_k Normal(loc_k, exp(log_scale_k)) over named latent sites."""

    def __init__(self, sites, init_loc=0.0, init_log_scale=-2.0):  # expect: RTL401
        self.sites = tuple(sites)
        self.init_values = {}
        for name in self.sites:
            self.init_values[f"{name}_loc"] = init_loc
            self.init_values[f"{name}_log_scale"] = init_log_scale

    def init_params(self):
        # one entry per variational parameter, ready for the optimiser
        return {k: jnp.asarray(v) for k, v in self.init_values.items()}  # expect: RTL401

    def sample(self, params, key):
        keys = jax.random.split(key, len(self.sites))
        draws = {}
        for k, name in zip(keys, self.sites):
            eps = jax.random.normal(k, ())
            scale = jnp.exp(params[f"{name}_log_scale"])
            draws[name] = params[f"{name}_loc"] + scale * eps
        return draws

    def log_prob(self, params, draws):
        total = 0.0
        for name in self.sites:
            loc = params[f"{name}_loc"]
            log_scale = params[f"{name}_log_scale"]
            z = (draws[name] - loc) / jnp.exp(log_scale)
            total = total - 0.5 * z**2 - log_scale - 0.5 * jnp.log(2 * jnp.pi)
        return total

    def median(self, params):
        return {name: params[f"{name}_loc"] for name in self.sites}
