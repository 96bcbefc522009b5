"""The training loop."""

import numpy as np

from . import data, evaluate, model, optim
from .config import Config
from .model import Params


def fit(
    params: Params, x: np.ndarray, y: np.ndarray, x_val: np.ndarray, y_val: np.ndarray, cfg: Config
) -> tuple[Params, list[dict]]:
    history = []
    step = 0
    for epoch in range(cfg.epochs):
        lr = optim.lr_schedule(cfg, epoch)
        xs, ys = data.shuffle(x, y, seed=cfg.seed + epoch)
        epoch_loss, num_batches = 0.0, 0
        for xb, yb in data.batches(xs, ys, cfg.batch_size):
            loss, grads = model.train_step(params, xb, yb, cfg=cfg)
            # step is a static argument of warmup_scale: each new step value is a new cache key,
            # so warmup_scale traces and compiles at every step, long after the warm-up is over.
            grads = optim.warmup_scale(
                grads,
                step=step,  # expect: RTL201
                warmup_steps=cfg.warmup_steps,
            )
            grads, _ = optim.clip_by_global_norm(grads, cfg.max_grad_norm)
            # lr is a static argument and the schedule gives a new float every epoch: one more
            # trace and compile of sgd_update per epoch (and per distinct float, forever).
            params = optim.sgd_update(params, grads, lr=lr)  # expect: RTL202
            epoch_loss += float(loss)
            num_batches += 1
            step += 1
        val_loss = evaluate.validation_loss(params, x_val, y_val, cfg)
        history.append(
            {"epoch": epoch, "lr": lr, "train_loss": epoch_loss / num_batches, "val_loss": val_loss}
        )
        print(
            f"epoch {epoch}  lr {lr:.3f}  train loss {epoch_loss / num_batches:.4f}"
            f"  val loss {val_loss:.4f}"
        )
    return params, history
