"""Save and restore (step, params, optimizer state) with numpy's npz format."""

import os

import jax
import numpy as np


def save(directory, step, params, opt_state):
    path = os.path.join(directory, f"ckpt_{step:06d}.npz")
    with open(path, "wb") as f:
        np.savez(
            f,
            step=step,
            params=np.asarray(jax.device_get(params), dtype=object),
            opt_state=np.asarray(jax.device_get(opt_state), dtype=object),
        )
    return path


def latest(directory):
    files = sorted(f for f in os.listdir(directory) if f.startswith("ckpt_"))
    return os.path.join(directory, files[-1]) if files else None


def restore(path):
    with open(path, "rb") as f:
        data = np.load(f, allow_pickle=True)
        step = int(data["step"])
        params = data["params"].item()
        opt_state = data["opt_state"].tolist()  # expect: RTL403
    return step, params, opt_state
