"""Project a few batches of float32 features to bfloat16 activations."""

import jax
import jax.numpy as jnp

from layers import OutputProjection


def main():
    key_w, key_x = jax.random.split(jax.random.PRNGKey(0))
    projection = OutputProjection(features=32, units=16, key=key_w)
    batches = jax.random.normal(key_x, (3, 4, 32), dtype=jnp.float32)
    for i, batch in enumerate(batches):
        out = projection(batch)
        print(f"batch {i}: {out.dtype} mean {float(jnp.mean(out.astype(jnp.float32))):.4f}")


if __name__ == "__main__":
    main()
