"""Run a few hundred SVI steps, as SVI.run would."""

import jax
import jax.numpy as jnp
from svi import optimizer, svi_update

if __name__ == "__main__":
    data = 1.5 + jax.random.normal(jax.random.PRNGKey(0), (50,))
    state = optimizer.init({"loc": jnp.zeros(()), "log_scale": jnp.zeros(())})
    key = jax.random.PRNGKey(1)
    for step in range(6):
        key, sub = jax.random.split(key)
        state, loss = svi_update(state, sub, data)
    print(int(state[0]), float(loss), float(optimizer.get_params(state)["loc"]))
