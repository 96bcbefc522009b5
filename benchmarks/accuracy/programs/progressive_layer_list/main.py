"""Progressively grown network: a new residual block is added every stage of training."""

import jax
import jax.numpy as jnp


@jax.jit
def forward(blocks, x):
    for w in blocks:
        x = x + jnp.tanh(x @ w)
    return x


class GrowingNet:
    def __init__(self, width, key):
        self.width = width
        self.key = key
        self.blocks = []

    def grow(self):
        self.key, sub = jax.random.split(self.key)
        self.blocks.append(jax.random.normal(sub, (self.width, self.width)) * 0.1)  # expect: RTL102

    def __call__(self, x):
        return forward(self.blocks, x)


def train(stages=3, steps=2):
    net = GrowingNet(4, jax.random.PRNGKey(0))
    x = jnp.ones((2, 4))
    for _ in range(stages):
        net.grow()
        for _ in range(steps):
            x = 0.5 * net(x)
    return x


if __name__ == "__main__":
    print(train())
