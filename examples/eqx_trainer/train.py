"""Fit the equinox regressor to a sine, then roll it out over a sequence, and print a summary.

    python examples/eqx_trainer/train.py

Each line that makes a traced function re-trace ends with `# expect: RTLxxx`;
examples_fixed/eqx_trainer/ is the same program fixed.
"""

import json

import jax
import jax.numpy as jnp
from eqx_model import loss_fn, make_model, train_step


def fit(model, x, y, steps: int):
    losses = []
    for step in range(steps):
        # filter_jit holds every non-array argument static: a new Python int each step traces anew.
        model, loss = train_step(model, x, y, step)  # expect: RTL201
        losses.append(float(loss))
    return model, losses


def rollout(model, x0, length: int):
    def body(x, _):
        nxt = model(x)
        return nxt, nxt[0]

    # Called outside jit: lax.scan traces `body`, a new closure on every call of rollout().
    _, trace = jax.lax.scan(body, x0, None, length=length)  # expect: RTL301
    return trace


def main():
    key = jax.random.PRNGKey(0)
    x = jnp.linspace(-2.0, 2.0, 64).reshape(-1, 1)
    y = jnp.sin(x)
    model, losses = fit(make_model(key), x, y, steps=6)
    starts = [jnp.array([s]) for s in (-1.0, 0.0, 1.0)]
    rollouts = [rollout(model, s, 4).tolist() for s in starts]
    summary = {"losses": losses, "final_loss": float(loss_fn(model, x, y)), "rollouts": rollouts}
    print("summary " + json.dumps(summary))


if __name__ == "__main__":
    main()
