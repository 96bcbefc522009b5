"""Leapfrog a tiny particle-mesh simulation, with the stages and the snapshot probe passed in as values."""

import numpy as np
import jax.numpy as jnp

import pm


class LeapfrogStepper:
    def __init__(self, stages, observers=None):
        # stages: {"force": ..., "kick": ..., "drift": ...}, all already jitted
        self.stages = stages
        self.observers = observers or {}

    def step(self, pos, vel, acc, dt):
        kick, drift, force = self.stages["kick"], self.stages["drift"], self.stages["force"]
        vel = kick(vel, acc, 0.5 * dt)
        pos = drift(pos, vel, dt)
        acc = force(pos)
        vel = kick(vel, acc, 0.5 * dt)
        return pos, vel, acc

    def run(self, pos, vel, time_steps, snapshot_every=2):
        acc = self.stages["force"](pos)
        history = {name: [] for name in self.observers}
        for i, dt in enumerate(np.diff(time_steps)):
            pos, vel, acc = self.step(pos, vel, acc, jnp.float32(dt))
            if (i + 1) % snapshot_every == 0:
                for name, probe in self.observers.items():
                    history[name].append(float(probe(pos)))
        return pos, vel, history


def initial_conditions(n=64, seed=0):
    rng = np.random.default_rng(seed)
    pos = rng.uniform(0, pm.MESH, size=(n, 3)).astype(np.float32)
    vel = rng.normal(0.0, 0.05, size=(n, 3)).astype(np.float32)
    return jnp.asarray(pos), jnp.asarray(vel)


if __name__ == "__main__":
    stepper = LeapfrogStepper(
        {"force": pm.gravity, "kick": pm.kick, "drift": pm.drift},
        observers={"pk": pm.power_spectrum},
    )
    scale_factors = np.linspace(0.1, 1.0, 6)
    pos, vel = initial_conditions()
    pos, vel, hist = stepper.run(pos, vel, scale_factors)
    print("P(k) snapshots:", [round(p, 3) for p in hist["pk"]])
