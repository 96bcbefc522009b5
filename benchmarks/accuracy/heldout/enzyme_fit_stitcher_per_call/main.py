"""Fit vmax and km for two assay plates with the inhibition constant fixed from the literature."""

import jax.numpy as jnp
import numpy as np

from kinetics import InhibitionModel


def assay_plate(seed, vmax=2.0, km=0.8, ki=0.3):
    rng = np.random.default_rng(seed)
    substrate = np.tile(np.array([0.1, 0.2, 0.5, 1.0, 2.0, 5.0]), 2)
    inhibitor = np.repeat(np.array([0.0, 0.5]), 6)
    rate = vmax * substrate / (km * (1 + inhibitor / ki) + substrate)
    rate += 0.02 * rng.normal(size=rate.shape)
    return tuple(jnp.asarray(a, jnp.float32) for a in (substrate, inhibitor, rate))


def main():
    model = InhibitionModel(fixed={"ki": 0.3})
    for plate in range(2):
        substrate, inhibitor, rate = assay_plate(seed=plate)
        start = jnp.array([1.0, 1.0], jnp.float32)
        free, final_loss = model.fit(start, substrate, inhibitor, rate, steps=3)
        vmax, km = np.asarray(free)
        print(f"plate {plate}: vmax {vmax:.3f}, km {km:.3f}, loss {final_loss:.5f}")


if __name__ == "__main__":
    main()
