"""Follow a 2 MK coronal loop as it cools."""

import jax.numpy as jnp

from ions import Ion, IonCollection
from loop import CoolingLoop


def main():
    ions = IonCollection(
        [
            Ion("fe_9", 3.2e-5, 8.0e5, 0.15, 2.0e-18),
            Ion("fe_12", 3.2e-5, 1.6e6, 0.15, 1.5e-18),
            Ion("fe_15", 3.2e-5, 2.5e6, 0.15, 1.0e-18),
            Ion("o_6", 4.9e-4, 3.0e5, 0.2, 1.0e-19),
        ]
    )
    loop = CoolingLoop(ions)
    temperature = jnp.asarray([2.0e6])
    history = loop.evolve(temperature, num_steps=12)
    print("temperature (MK):", [round(t / 1e6, 3) for t in history])


if __name__ == "__main__":
    main()
