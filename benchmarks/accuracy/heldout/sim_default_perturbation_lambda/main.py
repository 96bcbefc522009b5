"""Monte-Carlo over initial conditions: how fast does the PD loop settle?"""

import jax
import jax.numpy as jnp
from models import double_integrator, pd_controller
from simulator import execute


def settling_report(n_runs=3, dt=0.05, num_steps=60):
    key = jax.random.PRNGKey(0)
    finals = []
    for run in range(n_runs):
        key, k_x0, k_sim = jax.random.split(key, 3)
        x0 = jax.random.uniform(k_x0, (2,), minval=-1.0, maxval=1.0)
        xs = execute(x0, k_sim, double_integrator, pd_controller, dt, num_steps)
        finals.append(float(jnp.abs(xs[-1, 0])))
    return finals


if __name__ == "__main__":
    print("final position error per run:", settling_report())
