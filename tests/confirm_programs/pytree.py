"""RTL403 positive: an optional entry of a batch dict is sometimes missing."""

import jax
import jax.numpy as jnp


@jax.jit
def step(batch):  # site: step
    out = batch["x"] * 2
    if "mask" in batch:
        out = out * batch["mask"]
    return out


def main():
    x = jnp.ones(4)
    for i in range(4):
        batch = (
            {"x": x, "mask": x} if i == 3 else {"x": x}
        )  # finding: RTL403 site=step param=batch expect=confirmed
        step(batch)
    print("pytree done")


if __name__ == "__main__":
    main()
