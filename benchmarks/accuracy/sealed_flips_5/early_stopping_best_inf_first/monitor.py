"""Early stopping on a validation metric, with the bookkeeping kept on device."""

import jax
import jax.numpy as jnp


@jax.jit
def track_best(best, bad_epochs, val_loss, min_delta):
    """New best loss and patience counter after one validation pass; best may not exist yet."""
    if best is None:
        return val_loss, jnp.zeros((), jnp.int32)
    improved = val_loss < best - min_delta
    best = jnp.where(improved, val_loss, best)
    bad_epochs = jnp.where(improved, 0, bad_epochs + 1)
    return best, bad_epochs


class EarlyStopping:
    def __init__(self, patience, min_delta=1e-3):
        self.patience = patience
        self.min_delta = jnp.float32(min_delta)
        self.best = jnp.full((), jnp.inf, jnp.float32)
        self.bad_epochs = jnp.zeros((), jnp.int32)

    def update(self, val_loss):
        self.best, self.bad_epochs = track_best(
            self.best, self.bad_epochs, val_loss, self.min_delta
        )
        return int(self.bad_epochs) >= self.patience
