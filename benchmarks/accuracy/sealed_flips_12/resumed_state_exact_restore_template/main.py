"""Train, checkpoint, and resume after a (simulated) preemption."""

import jax
import jax.numpy as jnp

from checkpoint import Checkpointer
from train import Trainer, init_state


def batches(start, n, batch=16, d=4):
    w_true = jnp.arange(1.0, d + 1.0)
    for i in range(start, start + n):
        x = jax.random.normal(jax.random.PRNGKey(i), (batch, d))
        yield x, x @ w_true


def main():
    trainer = Trainer(learning_rate=0.1)
    ckpt = Checkpointer()
    state = init_state(d=4)
    state = trainer.fit(state, batches(0, 3))
    ckpt.save(state)

    # The job is preempted here; the new process rebuilds the state from the checkpoint.
    resumed = ckpt.restore(ckpt.abstract_like(init_state(d=4)))
    resumed = trainer.fit(resumed, batches(3, 3))
    print("w", jnp.round(resumed.params["w"], 3))


if __name__ == "__main__":
    main()
