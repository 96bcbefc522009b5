"""Roll out a linear feedback controller on the chain, one jitted physics step per control step."""

import dataclasses

import jax
import jax.numpy as jnp

import physics


@jax.jit
def sim_step(model, data):
    return physics.step(model, data)


@jax.jit
def controller(gains, data):
    # PD feedback towards the upright pose; the controller sees the whole Data, as an observation function would.
    target = jnp.zeros_like(data.qpos)
    return -gains["kp"] * (data.qpos - target) - gains["kd"] * data.qvel


def rollout(model, gains, n_steps=25):
    data = physics.make_data(model)
    energy = []
    for _ in range(n_steps):
        ctrl = controller(gains, data)
        data = dataclasses.replace(data, ctrl=ctrl)
        data = sim_step(model, data)
        energy.append(float(jnp.sum(data.qvel**2)))
    return data, energy


def main():
    model = physics.make_model(n_links=4)
    gains = {"kp": jnp.float32(8.0), "kd": jnp.float32(1.5)}
    data, energy = rollout(model, gains)
    print(f"t={float(data.time):.2f}s, final kinetic proxy {energy[-1]:.4f}, |qM|={data.qM_sparse.shape[0]}")


if __name__ == "__main__":
    main()
