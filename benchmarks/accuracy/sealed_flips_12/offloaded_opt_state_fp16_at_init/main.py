"""Pre-train a tiny model with the optimizer state offloaded to save accelerator memory."""

import jax
import jax.numpy as jnp

from config import TrainConfig
from trainer import build_train_state, make_train_step


def data(n=5, batch=8, d=16):
    for i in range(n):
        x = jax.random.normal(jax.random.PRNGKey(i), (batch, d))
        yield x, jnp.roll(x, 1, axis=-1)


def main():
    cfg = TrainConfig(d_model=16, learning_rate=1e-2, offload_optimizer_state=True)
    state = build_train_state(cfg, jax.random.PRNGKey(0))
    train_step = make_train_step(cfg)
    for i, (x, y) in enumerate(data()):
        state, metrics = train_step(state, x, y)
        print(f"step {i}: loss {float(metrics['loss']):.4f}")


if __name__ == "__main__":
    main()
