"""A jitted method with a static `self`, called on a new instance every iteration.

`self` is hashed by identity (Policy has no __eq__/__hash__), so each new Policy re-traces `act`.
The receiver at the call is the argument for `self`, so the finding sits on the call line.
"""

from functools import partial

import jax
import jax.numpy as jnp


class Policy:
    def __init__(self, temperature):
        self.temperature = temperature

    @partial(jax.jit, static_argnums=0)
    def act(self, logits):
        return jnp.argmax(logits / self.temperature)


def run(batches):
    out = []
    for logits in batches:
        policy = Policy(0.5)
        out.append(policy.act(logits))  # expect: RTL204
    return out


def run_hoisted(batches):
    policy = Policy(0.5)
    out = []
    for logits in batches:
        out.append(policy.act(logits))
    return out


def main():
    batches = [jnp.ones(3)] * 4
    run(batches)
    run_hoisted(batches)


if __name__ == "__main__":
    main()
