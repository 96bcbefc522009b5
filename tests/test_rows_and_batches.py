"""Two ways a finding named a re-trace no fix removes (issue 36, round 37 F1 and F4).

Rows of a steady collection: a static value read off the rows a loop over a ``range`` numbers
(``p = int(filt[fp])``, ``n = int(layers[p])``), the function run again at every time step with the
same collections, traces once per distinct row and is then reused: at most one trace per row, and
whether the rows differ the source does not say (``items-alike``, held back by default). Written-out
rows are a proven bound (a warning); rows a loader gives anew at each step, a ``range`` of the run's
length, and a value carried from row to row stay errors.

A batch against a whole collection: a dtype flip between the training calls, fed batches a loop
cuts from the training set, and the validation call, fed the whole validation set, removes no trace:
the two calls differ in shape anyway. A flip between two calls fed batches of one shape stays."""

from __future__ import annotations

from pathlib import Path

from project_runs import findings_in

DECOMP = """\
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Bounds:
    begp: int = 1  # a single-site run: one vegetated patch
    endp: int = 1


def patch_filter(bounds):
    return np.arange(bounds.begp, bounds.endp + 1)
"""
FLUX = """\
from functools import partial

import jax

LAYER_COUNTS = (4, 8, 12)


@partial(jax.jit, static_argnums=(0, 1))
def _solve_patch(p, n, profile):
    return profile.at[p, :n].multiply(0.5)


def solve_fluxes(num_filter, filt, profile, layers):
    for fp in range(num_filter):
        p = int(filt[fp])
        n = int(layers[p])
        profile = _solve_patch(p, n, profile)
    return profile


def solve_layers(num_layers, profile):
    for k in range(num_layers):
        profile = _solve_patch(0, LAYER_COUNTS[k], profile)
    return profile


def solve_batch(count, cells, profile):
    for k in range(count):
        profile = _solve_patch(int(cells[k]), 3, profile)
    return profile


def solve_deepening(num_filter, filt, profile, layers):
    depth = 0
    for fp in range(num_filter):
        depth += int(layers[int(filt[fp])])
        profile = _solve_patch(0, depth, profile)
    return profile


def solve_prefixes(count, sizes, profile):
    for k in range(count):
        profile = _solve_patch(0, sizes[k], profile)
    return profile
"""
DRIVER = """\
import sys

import jax.numpy as jnp
import numpy as np

from canopy.decomp import Bounds, patch_filter
from canopy.flux import solve_batch, solve_deepening, solve_fluxes, solve_layers, solve_prefixes


def run(num_steps, cell_batches):
    filt = patch_filter(Bounds())
    layers = np.array([0, 12])
    profile = jnp.ones((2, 20))
    for step in range(num_steps):
        profile = solve_fluxes(len(filt), filt, profile, layers)
        profile = solve_layers(3, profile)
        profile = solve_deepening(len(filt), filt, profile, layers)
    for cells in cell_batches:
        profile = solve_batch(len(cells), cells, profile)
    return profile


if __name__ == "__main__":
    steps = int(sys.argv[1])
    run(steps, np.random.randint(0, 2, size=(steps, 4)))
    solve_prefixes(steps, tuple(range(1, steps + 1)), jnp.ones((2, 20)))
"""
CANOPY = {
    "canopy/__init__.py": "",
    "canopy/decomp.py": DECOMP,
    "canopy/flux.py": FLUX,
    "driver.py": DRIVER,
}


def _at(findings: list[dict], path: str, line: int) -> dict | None:
    return next((f for f in findings if f["path"] == path and f["line"] == line), None)


def test_rows_of_a_steady_filter_are_held_back_as_items_alike(tmp_path: Path) -> None:
    assert _at(findings_in(tmp_path, CANOPY), "canopy/flux.py", 17) is None
    held = _at(findings_in(tmp_path, CANOPY, "--confidence", "all"), "canopy/flux.py", 17)
    assert held is not None and held["code"] == "RTL201"
    assert (held["severity"], held["confidence"]) == ("warning", "medium")
    assert held["bound"] == "bounded: one per item of `filt`"
    (assumption,) = held["assumptions"]
    assert assumption["kind"] == "items-alike"
    assert assumption["text"] == "values read off the items of `filt`, not known to differ"
    assert assumption["line"] == 14  # the loop over the filter's rows
    assert [r["parameter"] for r in held["related"]] == ["n"]


def test_rows_that_grow_with_the_run_stay_errors_and_written_rows_are_a_bound(
    tmp_path: Path,
) -> None:
    found = {(f["path"], f["line"]): f for f in findings_in(tmp_path, CANOPY)}
    written = found[("canopy/flux.py", 23)]  # LAYER_COUNTS[k]: three rows, written out
    assert (written["severity"], written["confidence"]) == ("warning", "high")
    assert written["message"].endswith("(bounded: one per item of `LAYER_COUNTS`)")
    for line in (
        29,  # a batch of cells the loader gives at each step
        37,  # a depth carried from row to row
        43,  # a range as long as the run
    ):
        kept = found[("canopy/flux.py", line)]
        assert (kept["code"], kept["severity"], kept["assumptions"]) == ("RTL201", "error", [])
        assert "changes in the loop" in kept["message"]


STEP = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(2,))
def loss_and_grad(w, batch, kl_weight, anneal_step, mask_step):
    def loss(w):
        pred = batch["x"] @ w
        penalty = kl_weight * 0.99**anneal_step + 0.0 * mask_step
        return jnp.mean((pred - batch["y"]) ** 2) + penalty

    return jax.value_and_grad(loss)(w)
"""
TRAIN = """\
import jax
import jax.numpy as jnp

from model.step import loss_and_grad


def train_epoch(w, train, anneal_step, mask_step, batch_size, key):
    perms = jax.random.permutation(key, train["x"].shape[0])
    perms = perms[: (train["x"].shape[0] // batch_size) * batch_size].reshape((-1, batch_size))
    for perm in perms:
        batch = {"x": train["x"][perm, ...], "y": train["y"][perm, ...]}
        _, g = loss_and_grad(w, batch, 0.1, anneal_step, mask_step)
        w = w - 0.01 * g
    return w


def fit(train, valid, epochs, warmup, batch_size=25):
    key = jax.random.PRNGKey(0)
    w = jnp.zeros((4,))
    for epoch in range(epochs):
        key, sub = jax.random.split(key)
        if epoch < warmup:
            w = train_epoch(w, train, 0, 1e6, batch_size, sub)
        else:
            w = train_epoch(w, train, epoch - warmup, epoch - warmup, batch_size, sub)
        val_loss, _ = loss_and_grad(w, valid, 0.1, 1e6, 0)
    return w, val_loss


def fit_sliced(train, epochs, batch_size=25):
    w = jnp.zeros((4,))
    for epoch in range(epochs):
        for start in range(0, train["x"].shape[0] - batch_size + 1, batch_size):
            batch = {k: v[start : start + batch_size] for k, v in train.items()}
            _, g = loss_and_grad(w, batch, 0.1, epoch, epoch)
            w = w - 0.01 * g
    return w
"""
MAIN = """\
import jax.numpy as jnp

from model.data import load_split
from model.train import fit, fit_sliced

if __name__ == "__main__":
    train, valid = load_split("data.npz")
    fit(train, valid, epochs=50, warmup=10)
    fit_sliced(train, epochs=50)
"""
DATA = """\
import numpy as np


def load_split(path, fraction=0.8):
    data = np.load(path)
    cut = int(len(data["x"]) * fraction)
    return (
        {"x": data["x"][:cut], "y": data["y"][:cut]},
        {"x": data["x"][cut:], "y": data["y"][cut:]},
    )
"""
FITTING = {
    "model/__init__.py": "",
    "model/step.py": STEP,
    "model/train.py": TRAIN,
    "model/data.py": DATA,
    "main.py": MAIN,
}


def test_a_flip_between_training_batches_and_the_whole_validation_set_is_not_told(
    tmp_path: Path,
) -> None:
    """The validation call (line 26) passes floats where the sliced training calls pass ints."""
    flips = findings_in(tmp_path, FITTING, "--confidence", "all")
    assert [(f["line"], f["code"]) for f in flips if f["line"] != 25] == []
    assert not any("model/train.py:26" in d for f in flips for d in f["details"])


def test_a_flip_between_calls_fed_batches_of_one_shape_stays(tmp_path: Path) -> None:
    """The warm-up epochs pass a float where the later ones pass an int, batches alike."""
    (flip,) = findings_in(tmp_path, FITTING)
    assert (flip["path"], flip["line"], flip["code"]) == ("model/train.py", 25, "RTL402")
    assert flip["message"].startswith("'mask_step' is an int here but a float from 1e6 at line 23")
    assert (flip["severity"], flip["confidence"]) == ("warning", "high")
