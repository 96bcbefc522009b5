"""Round 34's false families (issue 36), on realistic code split across modules: one element or row
of a varying array, and quantiles at fixed points (F5); a chunk after a guard that breaks before
it is short, and a None whose next line raises (F7); a count summed from lengths passed for a
parameter annotated float (F8); accumulators told again beside the loop's initial parameters (F9).
Each false shape is checked gone and a true twin of the same family kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_runs import findings_in


def _where(root: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["code"]) for f in findings_in(root, files)]


# F5: a filter updated with one observation picked by a rank-0 index, metrics of the last row of
# the beliefs, and initial rates at the quantiles of a query grid at n fixed points.
_FILTERS = """\
import jax
import jax.numpy as jnp


@jax.jit
def update(belief, observation, observation_time):
    return belief * jnp.where(observation, 0.9, 0.1) + observation_time * 0.0


@jax.jit
def score(truth, belief):
    return jnp.mean((truth - belief) ** 2)


@jax.jit
def perturb(params, scale, key):
    return params + scale * jax.random.normal(key, params.shape)


def run_filter(obs_arr, t_arr, init_time):
    first_index = jnp.argmax(init_time < t_arr)
    return update(jnp.ones(()), obs_arr[first_index], t_arr[first_index])


def report(truth, bel):
    return score(truth, bel[-1, :])


def init_rates(query_times, n, key):
    positions = jnp.linspace(0, 1, n + 2)[1:-1]
    return perturb(1 / jnp.quantile(query_times, positions), 0.1, key)
"""

_EMERGENCE = """\
import jax
import jax.numpy as jnp
import numpy as np

from filt.core import init_rates, perturb, report, run_filter, score, update

first_times = [(75, 125), (200, 300), (300, 450)]
key = jax.random.PRNGKey(0)
for c in range(3):
    times = np.arange(*first_times[c], 1)
    obs = np.random.rand(len(times)) > 0.5
    print(run_filter(obs, times, 10.0))
    grid = jnp.arange(0, times.max(), 0.5)
    print(init_rates(grid, 3, key))
    print(report(jnp.ones(40), jnp.zeros((c + 1, 40))))
    stop = jnp.argmax(times > 100)
    print(update(jnp.ones(()), times[:stop], times[stop]))
    columns = jnp.zeros((40, c + 1))
    print(score(columns[:, -1], columns))
    print(perturb(jnp.quantile(grid, jnp.linspace(0, 1, c + 2)), 0.1, key))
    print(perturb(jnp.quantile(jnp.ones((c + 2, 5)), 0.5, axis=1), 0.1, key))
"""


def test_an_element_a_row_and_quantiles_at_fixed_points_keep_their_shape(tmp_path: Path) -> None:
    files = {"filt/__init__.py": "", "filt/core.py": _FILTERS, "emergence.py": _EMERGENCE}
    assert _where(tmp_path, files) == [
        ("emergence.py", 17, "RTL101"),  # times[:stop]: as long as the stop says
        ("emergence.py", 18, "RTL105"),  # all the rows of a varying array
        ("emergence.py", 20, "RTL105"),  # quantiles at c + 2 points
        ("emergence.py", 21, "RTL105"),  # over axis 1 of c + 2 rows
    ]


# F7: the chunks of an epoch, the short one skipped by a guard before the slice.
_STEPS = """\
import jax
import jax.numpy as jnp


def make_step(lr):
    def step(params, batch):
        grads = jax.grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
        return params - lr * grads

    return jax.jit(step)
"""

_FIT = """\
import jax
import jax.numpy as jnp

from train.steps import make_step

data = jnp.ones((1000, 8))
n_samples = data.shape[0] - 7
batch_size = 64
step = make_step(1e-3)
params = jnp.zeros(8)
for epoch in range(10):
    data_perm = data[jax.random.permutation(jax.random.PRNGKey(epoch), n_samples)]
    for ii in range(0, n_samples, batch_size):
        if ii + batch_size > n_samples:
            break
        batch = data_perm[ii : ii + batch_size]
        params = step(params, batch)
    for start in range(0, n_samples, batch_size):
        end = start + batch_size
        if n_samples < end:
            continue
        params = step(params, data_perm[start:end])
    for jj in range(0, n_samples, batch_size):
        if jj + batch_size > n_samples + 1:
            break
        params = step(params, data_perm[jj : jj + batch_size])
"""


def test_a_guard_that_leaves_before_a_short_chunk_keeps_every_chunk_full(tmp_path: Path) -> None:
    files = {"train/__init__.py": "", "train/steps.py": _STEPS, "fit.py": _FIT}
    # The third guard lets a chunk one row short through.
    assert _where(tmp_path, files) == [("fit.py", 26, "RTL103")]


# F7: the aux state is None when logging is off, and the jitted step reads its loggings on the
# next line: the first trace raises there, so no call gives None back.
_TRAIN_STEP = """\
from typing import NamedTuple

import jax
import jax.numpy as jnp


class AuxState(NamedTuple):
    loggings: dict


class TrainState(NamedTuple):
    params: jax.Array
    aux_state: AuxState


def update_aux_state(train_state, grads, config):
    if not config.log_callback_data:
        return None
    loggings = {{"grads/norm": jnp.linalg.norm(grads)}}
    return train_state._replace(aux_state=AuxState(loggings))


def train_step(train_state, batch, config):
    grads = jax.grad(lambda p: jnp.mean((batch @ p) ** 2))(train_state.params)
    train_state = train_state._replace(params=train_state.params - 0.1 * grads)
    train_state = update_aux_state(train_state, grads, config)
{read}
    return log_data, train_state
"""

_TRAIN = """\
import argparse

import jax
import jax.numpy as jnp

from trainer.step import AuxState, TrainState, train_step

parser = argparse.ArgumentParser()
parser.add_argument("--log_callback_data", action="store_true")
config = parser.parse_args()

train_step_jit = jax.jit(train_step, static_argnames="config")
train_state = TrainState(jnp.zeros(8), AuxState({"grads/norm": jnp.zeros(())}))
for it in range(100):
    logs, train_state = train_step_jit(train_state, jnp.ones((32, 8)), config=config)
"""

_READS = {
    "raises": ("    log_data = train_state.aux_state.loggings", []),
    # Read only when not None, or the AttributeError caught: the None comes back.
    "tested": (
        "    log_data = train_state.aux_state.loggings if train_state is not None else {}",
        [("train.py", 13, "RTL403")],
    ),
    "caught": (
        "    try:\n        log_data = train_state.aux_state.loggings\n"
        "    except AttributeError:\n        log_data = {}",
        [("train.py", 13, "RTL403")],
    ),
}


@pytest.mark.parametrize("read", sorted(_READS))
def test_a_none_whose_next_line_raises_is_never_given_back(tmp_path: Path, read: str) -> None:
    text, expected = _READS[read]
    files = {
        "trainer/__init__.py": "",
        "trainer/step.py": _TRAIN_STEP.format(read=text),
        "train.py": _TRAIN,
    }
    assert _where(tmp_path, files) == expected


# F8: one selector annotates its count float, the other int; every caller passes an int, summed
# from lengths or counted up.
_METRICS = """\
import jax
import jax.numpy as jnp


@jax.jit
def compute_bic(n, log_likelihood, k):
    return -2 * log_likelihood + k * jnp.log(n)
"""

_SELECTOR = """\
import jax.numpy as jnp

from learn.metrics import compute_bic


def select(sequences, num_datapoints: {annotation}):
    scores = []
    for n in range(1, 4):
        evidence = jnp.sum(jnp.concatenate(sequences)) / n
        scores.append(compute_bic(num_datapoints, evidence, {params} * n))
    return scores
"""

_DATA = """\
import numpy as np


def load(n):
    return [np.random.rand(50 + 10 * i) for i in range(n)]


def count_datapoints(sequences):
    return sum({length} for s in sequences)
"""

_FIT_ALL = """\
from learn import exponential, lognormal
from learn.data import count_datapoints, load

sequences = load(5)
num_datapoints = 0
for s in sequences:
    num_datapoints += len(s)
print(exponential.select(sequences, num_datapoints))
print(lognormal.select(sequences, num_datapoints))
print(lognormal.select(sequences[:2], count_datapoints(sequences[:2])))
"""


@pytest.mark.parametrize(
    ("length", "expected"),
    [("len(s)", []), ("len(s) * 1.0", [("learn/lognormal.py", 10, "RTL402")])],
)
def test_a_count_of_lengths_is_an_int_under_a_float_annotation(
    tmp_path: Path, length: str, expected: list
) -> None:
    files = {
        "learn/__init__.py": "",
        "learn/metrics.py": _METRICS,
        "learn/exponential.py": _SELECTOR.format(annotation="int", params=2),
        "learn/lognormal.py": _SELECTOR.format(annotation="float", params=3),
        "learn/data.py": _DATA.format(length=length),
        "fit_all.py": _FIT_ALL,
    }
    assert _where(tmp_path, files) == expected


# F9: a model selection over component counts; the fit jits the filter at the initial
# parameters, and again at what the EM step makes of accumulators with a column per component.
_MIX_FILTERS = """\
import jax
import jax.numpy as jnp


@jax.jit
def create_filter(params, times):
    return jnp.exp(-params[None, :] * times[:, None])


@jax.jit
def log_evidence(resp):
    return jnp.sum(jnp.log(resp.sum(axis=1)))
"""

_SELECT = """\
import jax.numpy as jnp

from mix.filters import create_filter, log_evidence


def em_step(n_components, params, sequences):
    psi = jnp.zeros((len(sequences), n_components))
    for i, times in enumerate(sequences):
        psi = psi.at[i].set(create_filter(params, times).mean(axis=0))
{evidence}
    return jnp.sum(psi, axis=0) / jnp.sum(psi)


def fit(params_init, sequences, n_iter=10):
    n_components = len(params_init)
    params = params_init
    for _ in range(n_iter):
        create_filter(params, sequences[0])
        params_bar = em_step(n_components, params, sequences)
        create_filter(params_bar, sequences[0])
        params = params_bar
    return params


def select(sequences, max_components=4):
    best = None
    for n in range(1, max_components):
        params = jnp.linspace(0, 1, n + 2)[1:-1]
        best = fit(params, sequences)
    return best
"""

_RUN = """\
import jax.numpy as jnp

from mix.select import select

print(select([jnp.linspace(0, 10, 50) for _ in range(4)]))
"""


def _selection(root: Path, evidence: str) -> list[dict]:
    files = {
        "mix/__init__.py": "",
        "mix/filters.py": _MIX_FILTERS,
        "mix/select.py": _SELECT.format(evidence=evidence),
        "run.py": _RUN,
    }
    return findings_in(root, files)


def test_accumulators_of_the_same_jitted_argument_are_told_with_the_initial_parameters(
    tmp_path: Path,
) -> None:
    (found,) = _selection(tmp_path, "    pass")
    assert (found["path"], found["line"], found["code"]) == ("mix/select.py", 28, "RTL105")
    assert "create_filter" in found["message"]
    assert found["message"].endswith("(and 1 more of this cause: line 7)")


def test_accumulators_another_jitted_function_gets_stay_apart(tmp_path: Path) -> None:
    found = _selection(tmp_path, "    log_evidence(psi)")
    assert [(f["line"], f["code"], f["message"].split("jitted ")[1][:14]) for f in found] == [
        (7, "RTL105", "'log_evidence'"),
        (28, "RTL105", "'create_filter"),
    ]
