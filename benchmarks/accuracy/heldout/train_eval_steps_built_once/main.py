"""Train for a few steps with periodic evaluation, using the steps compiled at set-up."""

from dataclasses import dataclass

import jax
from train_utils import jit_train_and_eval_steps


@dataclass(frozen=True)
class Config:
    learning_rate: float = 0.05
    report_scale: float = 1.0
    steps: int = 6
    eval_every: int = 2


def make_batch(key, n=16):
    x = jax.random.normal(key, (n, 3))
    return {"x": x, "y": jax.numpy.sin(x[:, :1])}


if __name__ == "__main__":
    config = Config()
    k1, k2, key = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {"w1": 0.3 * jax.random.normal(k1, (3, 8)), "w2": 0.3 * jax.random.normal(k2, (8, 1))}
    p_train_step, p_eval_step = jit_train_and_eval_steps(config)
    eval_batch = make_batch(jax.random.PRNGKey(99))
    for step in range(config.steps):
        key, sub = jax.random.split(key)
        params, loss = p_train_step(params, make_batch(sub))
        if step % config.eval_every == 0:
            metrics = p_eval_step(params, eval_batch)
            print(step, round(float(loss), 4), {k: round(float(v), 4) for k, v in metrics.items()})
