"""Simulate household panels forward over working life and report mean consumption."""

import jax
import jax.numpy as jnp

from model import InitialConditions, Params, build_initial_states, simulate_period


def params_vector(p):
    return jnp.array(
        [p.interest_rate, p.wage, p.benefit, p.consume_share, p.p_keep_job, p.p_find_job],
        dtype=jnp.float32,
    )


class PanelSimulator:
    def __init__(self, params, n_periods):
        self.params = params_vector(params)
        self.n_periods = n_periods

    def run(self, init, key):
        states = build_initial_states(init)
        history = []
        for _ in range(self.n_periods):
            key, sub = jax.random.split(key)
            u = jax.random.uniform(sub, states["employed"].shape)
            states, consumption = simulate_period(self.params, states, u)
            history.append(consumption)
        return states, jnp.stack(history)


def main():
    sim = PanelSimulator(Params(), n_periods=5)
    final, consumption = sim.run(InitialConditions(), jax.random.PRNGKey(0))
    print("mean consumption by age:", consumption.mean(axis=1))
    print("final wealth:", final["wealth"])


if __name__ == "__main__":
    main()
