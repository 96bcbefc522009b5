"""Relax a stretched 12-bead chain; the force-field fitting code around it needs double precision."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from geometry import relax_step, start  # noqa: E402


def stretched_chain(n=12, spacing=1.3, key=jax.random.PRNGKey(0)):
    x = jnp.arange(n, dtype=jnp.float64) * spacing
    noise = 0.05 * jax.random.normal(key, (n, 3), dtype=jnp.float64)
    return jnp.stack([x, jnp.zeros(n), jnp.zeros(n)], axis=-1) + noise


def main(steps=40):
    carry = start(stretched_chain())
    rest_length, k_bond = jnp.float64(1.0), jnp.float64(10.0)
    for _ in range(steps):
        carry, energy = relax_step(carry, rest_length, k_bond)
    print(f"{int(carry[0])} accepted steps: bond energy {float(energy):.6f}")


if __name__ == "__main__":
    main()
