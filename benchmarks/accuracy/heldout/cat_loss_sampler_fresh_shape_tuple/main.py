"""Annual aggregate losses of a reinsurance portfolio, one Monte Carlo run per peril.

Each peril is a compound frequency-severity process: a random number of events per simulated
year and a lognormal severity per event. Years are simulated as a padded (years x max_events) table, whose
shape the sampler needs at compile time.
"""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class SimulationSpec:
    horizon_years: float = 50.0
    scenarios_per_year: int = 4
    max_events: int = 12
    tail_level: float = 0.99


@dataclass
class Peril:
    name: str
    frequency: float  # expected events per year
    log_mean: float  # lognormal severity parameters (losses in $M)
    log_sd: float


@partial(jax.jit, static_argnames=("shape",))
def sample_annual_losses(key, frequency, log_mean, log_sd, shape):
    n_years, max_events = shape
    k_occ, k_sev = jax.random.split(key)
    # Binomial thinning: each of the max_events slots of a year holds an event with
    # probability frequency / max_events (close to Poisson when frequency << max_events).
    occurred = jax.random.uniform(k_occ, shape) < frequency / max_events
    severities = jnp.exp(log_mean + log_sd * jax.random.normal(k_sev, shape))
    return jnp.sum(jnp.where(occurred, severities, 0.0), axis=1)


@partial(jax.jit, static_argnums=1)
def tail_metrics(annual_losses, level):
    var = jnp.quantile(annual_losses, level)
    tvar = jnp.sum(jnp.where(annual_losses >= var, annual_losses, 0.0)) / jnp.maximum(
        jnp.sum(annual_losses >= var), 1
    )
    return jnp.mean(annual_losses), var, tvar


class CatalogueModel:
    def __init__(self, spec):
        self.spec = spec

    def table_shape(self):
        n_years = int(self.spec.horizon_years * self.spec.scenarios_per_year)
        return (n_years, self.spec.max_events)

    def simulate(self, key, peril):
        return sample_annual_losses(
            key, peril.frequency, peril.log_mean, peril.log_sd, shape=self.table_shape()
        )

    def report(self, key, perils):
        rows = {}
        for peril in perils:
            key, sub = jax.random.split(key)
            losses = self.simulate(sub, peril)
            mean, var, tvar = tail_metrics(losses, self.spec.tail_level)
            rows[peril.name] = (float(mean), float(var), float(tvar))
        return rows


def main():
    perils = [
        Peril("river flood", frequency=1.5, log_mean=1.0, log_sd=0.8),
        Peril("windstorm", frequency=3.0, log_mean=0.5, log_sd=1.1),
        Peril("earthquake", frequency=0.2, log_mean=2.5, log_sd=1.4),
        Peril("hail", frequency=4.0, log_mean=-0.5, log_sd=0.6),
    ]
    model = CatalogueModel(SimulationSpec())
    for name, (mean, var, tvar) in model.report(jax.random.PRNGKey(7), perils).items():
        print(f"{name:12s} mean {mean:7.2f}  VaR99 {var:7.2f}  TVaR99 {tvar:7.2f}")


if __name__ == "__main__":
    main()
