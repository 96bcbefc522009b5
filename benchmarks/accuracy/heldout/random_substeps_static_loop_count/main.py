"""Monte Carlo photon transport through a slab of scattering tissue.

Each batch of photon packets undergoes a random number of scattering events
(drawn per batch, up to a cap set by the slab's optical depth); the propagation
kernel unrolls one Python loop iteration per event.
"""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp

N_PACKETS = 64
MAX_EVENTS = 5


@dataclass
class PacketBatch:
    position: jax.Array   # (N_PACKETS, 3)
    direction: jax.Array  # (N_PACKETS, 3)
    weight: jax.Array     # (N_PACKETS,)
    n_events: int


class PencilBeamSource:
    def __init__(self, seed):
        self.key = jax.random.PRNGKey(seed)

    def next_batch(self):
        self.key, k_events = jax.random.split(self.key)
        # the number of scattering events is drawn with JAX, then made a Python int
        n_events = int(jax.random.randint(k_events, (), 1, MAX_EVENTS + 1))
        position = jnp.zeros((N_PACKETS, 3), jnp.float32)
        direction = jnp.tile(jnp.array([0.0, 0.0, 1.0], jnp.float32), (N_PACKETS, 1))
        weight = jnp.ones((N_PACKETS,), jnp.float32)
        return PacketBatch(position, direction, weight, n_events)


@partial(jax.jit, static_argnums=(4,))
def propagate(position, direction, weight, key, n_events, mu_s=10.0, albedo=0.9):
    for _ in range(n_events):
        key, k_step, k_dir = jax.random.split(key, 3)
        step = -jnp.log(jax.random.uniform(k_step, weight.shape)) / mu_s
        position = position + step[:, None] * direction
        new_dir = jax.random.normal(k_dir, direction.shape)
        direction = new_dir / jnp.linalg.norm(new_dir, axis=1, keepdims=True)
        weight = weight * albedo
    return position, direction, weight


class SlabTally:
    def __init__(self, thickness):
        self.thickness = thickness
        self.transmitted = 0.0
        self.absorbed = 0.0

    def run(self, batch, key):
        pos, _, w = propagate(batch.position, batch.direction, batch.weight, key, batch.n_events)  # expect: RTL201
        through = pos[:, 2] > self.thickness
        self.transmitted += float(jnp.sum(jnp.where(through, w, 0.0)))
        self.absorbed += float(jnp.sum(1.0 - w))
        return batch.n_events


def simulate(n_batches=5, seed=3):
    source = PencilBeamSource(seed)
    tally = SlabTally(thickness=0.2)
    key = jax.random.PRNGKey(seed + 100)
    for i in range(n_batches):
        key, sub = jax.random.split(key)
        events = tally.run(source.next_batch(), sub)  # expect: RTL201
        print(f"batch {i}: {events} scattering events")
    total = n_batches * N_PACKETS
    print(f"transmittance {tally.transmitted / total:.3f}, absorbed {tally.absorbed / total:.3f}")


if __name__ == "__main__":
    simulate()
