"""Round 36's families (issue 36) on realistic code split across modules: one cause told once (F3),
a call through a parameter followed into what its own caller passed (F4), items built alike from
one configuration (F5), and a sweep spelled by constants bounded (S). Each false shape is checked
gone and a true twin of the same family kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_runs import findings_in, written


def _where(found: list[dict]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["code"]) for f in found]


# F3: a verifier that streams a grid, drops the points inside the safe set, cuts the rest into
# chunks and refines the violating points in chunks of ten.
_CHECKS = """\
import jax
import jax.numpy as jnp


@jax.jit
def check_batch(points, threshold):
    return jnp.sum(jnp.linalg.norm(points, axis=1) > threshold)


def grid_points(idx, side):
    return jnp.stack([idx % side, idx // side], axis=1) / side * 4.0 - 2.0
"""

_VERIFIER = """\
import jax.numpy as jnp
import numpy as np

from verify.checks import check_batch, grid_points


class Verifier:
    def __init__(self, side=256, batch_size=512, stream_size=4096):
        self.side = side
        self.batch_size = batch_size
        self.stream_size = stream_size

    def check_grid(self, radius):
        violations = 0
        for i in range(self.side * self.side // self.stream_size):
            idx = jnp.arange(i * self.stream_size, (i + 1) * self.stream_size)
            stream = grid_points(idx, self.side)
            stream = stream[jnp.linalg.norm(stream, axis=1) > radius]
            for start in range(0, stream.shape[0], self.batch_size):
                end = min(start + self.batch_size, stream.shape[0])
                violations += int(check_batch(stream[start:end], 2.0))
        return violations

    def refine(self, buffer):
        batch_size = 10
        found = 0
        for i in range(int(np.ceil(buffer.shape[0] / batch_size))):
            start = i * batch_size
            end = np.minimum((i + 1) * batch_size, buffer.shape[0])
            found += int(check_batch(jnp.asarray(buffer[start:end]), 2.5))
        return found
"""

_RUN_VERIFIER = """\
import numpy as np

from verify.verifier import Verifier

verifier = Verifier()
for radius in np.linspace(0.5, 1.5, 40):
    print(verifier.check_grid(radius))
    print(verifier.refine(np.random.rand(np.random.randint(1, 100), 2)))
"""


@pytest.fixture
def verifier(tmp_path: Path) -> Path:
    return written(
        tmp_path,
        {
            "verify/__init__.py": "",
            "verify/checks.py": _CHECKS,
            "verify/verifier.py": _VERIFIER,
            "run_verify.py": _RUN_VERIFIER,
        },
    )


def test_a_chunk_clamped_with_np_minimum_is_told_once_as_a_short_last_chunk(verifier: Path) -> None:
    found = findings_in(verifier, {})
    refined = [f for f in found if f["line"] == 30]
    assert [(f["code"], f["severity"]) for f in refined] == [("RTL103", "warning")]
    assert refined[0]["message"].startswith("last chunk buffer[start:end] can be shorter")


def test_a_prefix_clamped_with_np_minimum_still_changes_at_every_step(verifier: Path) -> None:
    prefix_read = _VERIFIER.replace("buffer[start:end]", "buffer[:end]")
    found = findings_in(verifier, {"verify/verifier.py": prefix_read})
    prefix = [(f["code"], f["severity"]) for f in found if f["line"] == 30]
    assert ("RTL101", "error") in prefix


def test_the_short_chunk_of_a_masked_stream_is_told_by_the_mask(verifier: Path) -> None:
    found = findings_in(verifier, {})
    streamed = [f for f in found if f["line"] in (18, 21)]
    assert _where(streamed) == [("verify/verifier.py", 18, "RTL104")]
    (mask,) = streamed
    assert mask["severity"] == "error"
    assert mask["message"].endswith("(and its cut at line 21)")
    assert [(r["line"], r["code"]) for r in mask["related"]] == [(21, "RTL103")]
    assert any(d.startswith("cut of this: line 21: RTL103") for d in mask["details"])
    # selected alone, the short chunk is shown: the fold comes after selection
    alone = findings_in(verifier, {}, "--select", "RTL103")
    assert ("verify/verifier.py", 21, "RTL103") in _where(alone)


def test_the_short_chunk_of_a_stream_no_mask_filters_stays_its_own_finding(verifier: Path) -> None:
    unmasked = _VERIFIER.replace(
        "stream = stream[jnp.linalg.norm(stream, axis=1) > radius]",
        "stream = stream * radius",
    )
    found = findings_in(verifier, {"verify/verifier.py": unmasked})
    assert [(f["code"], f["severity"]) for f in found if f["line"] in (18, 21)] == [
        ("RTL103", "warning")
    ]


# F4: two models hand their own nested `core` to one shared `_grid_eval`; a finite-difference
# check runs the standard model only, through the package's re-export and a lambda.
_LAYERS = """\
import jax
import jax.numpy as jnp


def propagate_layers(h, lengths):
    def step(carry, seg):
        return jnp.exp(h * seg) @ carry, None

    s, _ = jax.lax.scan(step, jnp.eye(3), lengths)
    return s
"""

_STANDARD = """\
import jax
import jax.numpy as jnp

from .layers import propagate_layers


def _grid_eval(core, energy, cz):
    if energy.ndim == 0 and cz.ndim == 0:
        return core(energy, cz)
    return jax.vmap(lambda c: jax.vmap(lambda e: core(e, c))(energy))(cz)


def probability_earth(energy, cos_zenith):
    lengths = jnp.linspace(0.0, 1.0, 8)

    def core(e, cz):
        return jnp.abs(propagate_layers(jnp.ones((3, 3)) / e, lengths * cz)) ** 2

    return _grid_eval(core, jnp.asarray(energy), jnp.asarray(cos_zenith))
"""

# The other model: its own scan over its own nested step, and its own `core` for `_grid_eval`.
_STERILE = (
    "from .standard import _grid_eval\n"
    + _LAYERS.replace("propagate_layers", "_propagate_mass").replace("eye(3)", "eye(4)")
    + """

def probability_earth(mixing, energy, cos_zenith):
    lengths = jnp.linspace(0.0, 1.0, 8)

    def core(e, cz):
        return jnp.abs(_propagate_mass(mixing / e, lengths * cz)) ** 2

    return _grid_eval(core, jnp.asarray(energy), jnp.asarray(cos_zenith))
"""
)

_FD_CHECK = """\
import jax.numpy as jnp
import numpy as np

from nuprob import probability_earth

CZ = jnp.linspace(-1.0, -0.1, 40)


def gsum(cz, energy):
    return probability_earth(energy, cz)[..., 1, 1].sum()


def central_fd(f, x, i, eps):
    return (f(x.at[i].add(eps)) - f(x.at[i].add(-eps))) / (2 * eps)


def check_array(label, f_scalar, x, idxs, eps):
    worst = 0.0
    for i in idxs:
        worst = max(worst, abs(float(central_fd(f_scalar, x, i, eps))))
    print(label, worst)
    return worst


check_array("d/d(cos zenith)", lambda cz: gsum(cz, 2.0), CZ, np.arange(40), eps=1e-6)
"""


@pytest.fixture
def oscillation(tmp_path: Path) -> Path:
    return written(
        tmp_path,
        {
            "nuprob/__init__.py": (
                "from . import sterile as sterile\nfrom .standard import probability_earth\n"
            ),
            "nuprob/layers.py": _LAYERS,
            "nuprob/standard.py": _STANDARD,
            "nuprob/sterile.py": _STERILE,
            "fd_check.py": _FD_CHECK,
        },
    )


def test_a_call_through_a_parameter_runs_what_this_caller_passed(oscillation: Path) -> None:
    found = findings_in(oscillation, {})
    assert _where(found) == [("nuprob/layers.py", 9, "RTL301")]
    steps = [(s["function"], s["call"]) for s in found[0]["call_path"]]
    assert ("nuprob.standard._grid_eval", "core") in steps
    assert steps[-1] == ("nuprob.standard.probability_earth.<locals>.core", "propagate_layers")


def test_the_other_models_core_runs_where_its_own_caller_repeats_it(oscillation: Path) -> None:
    both = _FD_CHECK.replace(
        "    return probability_earth(energy, cz)[..., 1, 1].sum()",
        "    standard = probability_earth(energy, cz)[..., 1, 1].sum()\n"
        "    return standard + sterile.probability_earth(jnp.ones((4, 4)), energy, cz).sum()",
    ).replace(
        "from nuprob import probability_earth", "from nuprob import probability_earth, sterile"
    )
    found = findings_in(oscillation, {"fd_check.py": both})
    assert _where(found) == [
        ("nuprob/layers.py", 9, "RTL301"),
        ("nuprob/sterile.py", 10, "RTL301"),
    ]
    last = found[1]["call_path"][-1]
    assert (last["function"], last["call"]) == (
        "nuprob.sterile.probability_earth.<locals>.core",
        "_propagate_mass",
    )


# F5: one state per chain, each built by one init from the shared data and one configuration;
# every chain gets the same one-row insert.
_STATE = """\
from typing import NamedTuple

import jax


class ChainState(NamedTuple):
    assignments: jax.Array
    n_rows: int
    max_clusters: int


def init_chain(key, data, max_clusters):
    n = data.shape[0]
    return ChainState(jax.random.randint(key, (n,), 0, max_clusters), n, max_clusters)
"""

_INSERT = """\
from functools import partial

import jax
import jax.numpy as jnp

from mix.state import ChainState


@partial(jax.jit, static_argnames=("n_old", "max_clusters"))
def _insert_jit(assignments, new_rows, n_old, max_clusters):
    counts = jnp.bincount(assignments[:n_old], length=max_clusters)
    choice = jnp.argmax(counts) * jnp.ones(new_rows.shape[0], jnp.int32)
    return assignments.at[n_old:].set(choice)


def insert_rows(state, data, new_rows):
    n_new = new_rows.shape[0]
    extended = jnp.concatenate([state.assignments, jnp.zeros((n_new,), jnp.int32)])
    assignments = _insert_jit(extended, new_rows, state.n_rows, state.max_clusters)
    return ChainState(assignments, state.n_rows + n_new, state.max_clusters), jnp.concatenate(
        [data, new_rows]
    )


def insert_per_chain(states, data, row):
    out = []
    for state in states:
        new_state, _ = insert_rows(state, data, row.reshape(1, -1))
        out.append(new_state)
    return out
"""

_RUN_CHAINS = """\
import jax
import jax.numpy as jnp

from mix.insert import insert_per_chain
from mix.state import init_chain

data = jnp.ones((100, 4))
states = [init_chain(jax.random.key(i), data, 16) for i in range(8)]
updated = insert_per_chain(states, data, jnp.ones(4))
print([s.n_rows for s in updated])
"""

# The same chains made by a test helper that appends them and returns them with the data.
_TEST_CHAINS = """\
import jax
import jax.numpy as jnp

from mix.insert import insert_per_chain
from mix.state import init_chain


def _make_chains(key, n_chains=4):
    data = jax.random.normal(key, (20, 3))
    states = []
    for i in range(n_chains):
        states.append(init_chain(jax.random.fold_in(key, i), data, 16))
    return states, data


def test_insert_per_chain():
    states, data = _make_chains(jax.random.key(0))
    updated = insert_per_chain(states, data, jnp.ones(3))
    assert all(s.n_rows == data.shape[0] + 1 for s in updated)
"""


@pytest.fixture
def chains(tmp_path: Path) -> Path:
    return written(
        tmp_path,
        {
            "mix/__init__.py": "",
            "mix/state.py": _STATE,
            "mix/insert.py": _INSERT,
            "run_chains.py": _RUN_CHAINS,
            "tests/test_chains.py": _TEST_CHAINS,
        },
    )


def test_chains_built_alike_from_one_configuration_pass_equal_statics(chains: Path) -> None:
    assert findings_in(chains, {}) == []


def test_chains_each_given_its_own_size_still_re_trace(chains: Path) -> None:
    found = findings_in(
        chains, {"run_chains.py": _RUN_CHAINS.replace("data, 16)", "data, 8 + 4 * i)")}
    )
    assert _where(found) == [("mix/insert.py", 19, "RTL201")]
    assert (
        "static argument state.max_clusters changes in the loop at line 27" in (found[0]["message"])
    )


def test_chains_a_helper_returns_built_from_their_own_data_still_re_trace(chains: Path) -> None:
    own_rows = _TEST_CHAINS.replace(
        "init_chain(jax.random.fold_in(key, i), data, 16)",
        "init_chain(jax.random.fold_in(key, i), data[: 10 + i], 16)",
    )
    found = findings_in(chains, {"tests/test_chains.py": own_rows})
    assert _where(found) == [("mix/insert.py", 19, "RTL201")]
    assert found[0]["parameter"] == "n_old"


# S: a benchmark's sweep over the number of free parameters, bounded by a module constant.
_SWEEP = """\
import sys

import jax
import jax.numpy as jnp

N_PAR = 6
N_EPS = 8


def model(theta):
    return jnp.sum(jnp.sin(theta) ** 2)


for k in range(0, N_EPS + 1):
    theta0 = jnp.concatenate([jnp.ones(N_PAR), jnp.zeros(k)])
    print(k, jax.jit(jax.grad(model))(theta0))
"""


def test_a_sweep_bounded_by_module_constants_is_a_warning(tmp_path: Path) -> None:
    found = findings_in(tmp_path, {"capability.py": _SWEEP}, "--select", "RTL105")
    assert [(f["line"], f["code"], f["severity"]) for f in found] == [(15, "RTL105", "warning")]
    assert found[0]["message"].endswith("(at most 9 traces: one per listed item)")


def test_a_sweep_the_command_line_sizes_stays_an_error(tmp_path: Path) -> None:
    found = findings_in(
        tmp_path,
        {"capability.py": _SWEEP.replace("N_EPS = 8", "N_EPS = int(sys.argv[1])")},
        "--select",
        "RTL105",
    )
    assert [(f["line"], f["code"], f["severity"]) for f in found] == [(15, "RTL105", "error")]
