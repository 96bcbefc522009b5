"""Sum the inertia of a shaft assembly part by part."""

import jax.numpy as jnp
from bodies import load_assembly
from inertia import inertia_tensor

SHAFT = [(2.0, 0.05, 0.6), (0.8, 0.12, 0.04), (0.8, 0.12, 0.04), (1.1, 0.08, 0.2)]

if __name__ == "__main__":
    total = jnp.zeros(3)
    for body in load_assembly(SHAFT):
        moments = inertia_tensor(body)
        total = total + moments
        print(body.part_id, [f"{float(m):.5f}" for m in moments])
    print("assembly:", [f"{float(m):.5f}" for m in total])
