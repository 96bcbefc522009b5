"""Roll a simulation forward in double precision."""

import jax

jax.config.update("jax_enable_x64", True)

from sim_data import host_state, put_data, step  # noqa: E402


def rollout(n_steps=4):
    data = put_data(*host_state(6, 3))
    for _ in range(n_steps):
        data = step(data)
    return data


if __name__ == "__main__":
    print(rollout()["qpos"])
