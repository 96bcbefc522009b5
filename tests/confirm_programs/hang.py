"""Re-traces, then hangs: stopped by --timeout, the report keeps the confirmation."""

import time

import jax
import jax.numpy as jnp


@jax.jit
def step(x):  # site: step
    return x + 1


def main():
    for n in (2, 3, 4):
        step(jnp.ones(n))  # finding: RTL105 site=step param=x expect=confirmed
    print("hang: sleeping", flush=True)
    while True:
        time.sleep(0.1)


if __name__ == "__main__":
    main()
