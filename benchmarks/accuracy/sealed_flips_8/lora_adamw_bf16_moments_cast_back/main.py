"""Fine-tune a low-rank adapter so a frozen projection fits a slightly different target map."""

import jax
import jax.numpy as jnp

from trainer import Finetuner, eval_loss


def make_batches(key, target_w, n_batches=6, batch=32):
    batches = []
    for k in jax.random.split(key, n_batches):
        x = jax.random.normal(k, (batch, target_w.shape[0]), jnp.float32)
        batches.append((x, x @ target_w))
    return batches


def main():
    k_w, k_delta, k_data, k_adapter = jax.random.split(jax.random.PRNGKey(0), 4)
    frozen_w = jax.random.normal(k_w, (16, 8), jnp.float32) / 4.0
    target_w = frozen_w + 0.1 * jax.random.normal(k_delta, (16, 8), jnp.float32)
    batches = make_batches(k_data, target_w)
    tuner = Finetuner(frozen_w, k_adapter)
    losses = tuner.fit(batches)
    x, y = batches[0]
    print(f"train loss {losses[0]:.4f} -> {losses[-1]:.4f}, eval {float(eval_loss(tuner.adapter, frozen_w, x, y)):.4f}")


if __name__ == "__main__":
    main()
