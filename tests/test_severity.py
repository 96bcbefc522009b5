"""A finding's severity says how bad it is: an error re-traces on every step (unbounded), a warning adds
a few traces (a loop over values written out in the source, one flip between two signatures)."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

FIXTURES = Path(__file__).parent / "fixtures"


def _severities(project: Path, tmp: Path | None = None) -> dict[tuple[int, str], str]:
    run = analyse([str(project)], Settings(cache=False))
    return {(f.location.line, f.code): f.severity for f in run.findings}


def _unproven(project: Path) -> dict[tuple[int, str], str]:
    """The findings only ``--confidence all`` shows, with what they rest on."""
    run = analyse([str(project)], Settings(cache=False, confidence="all"))
    return {
        (f.location.line, f.code): f.assumptions[0].kind
        for f in run.findings
        if f.confidence != "high"
    }


def test_a_loop_over_a_few_literal_values_is_a_warning_an_open_loop_an_error() -> None:
    found = _severities(FIXTURES / "rtl201_loop_varying_static_args.py")
    assert found[(45, "RTL201")] == "warning"  # for depth in range(2, 12, 2): five traces
    assert found[(53, "RTL201")] == "warning"  # for d in range(1, 4)
    assert found[(38, "RTL201")] == "error"  # a step counter of an open loop


def test_a_rebuilt_jit_per_step_is_an_error() -> None:
    found = _severities(FIXTURES / "runs_once_or_traced")
    assert set(found.values()) == {"error"}


def test_a_flip_between_two_signatures_is_a_warning(tmp_path: Path) -> None:
    program = tmp_path / "flip.py"
    program.write_text(
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef scale(x, s):\n    return x * s\n\n\n"
        "def run(x):\n    for _ in range(100):\n        scale(x, 2.0)\n"
        "        scale(x, jnp.float32(2.0))\n",
        encoding="utf-8",
    )
    found = _severities(program)
    assert found == {(13, "RTL401"): "warning"}


def test_a_loop_over_configuration_or_layers_is_a_warning_a_loop_over_steps_an_error() -> None:
    """Each dataset of a configured dict and each layer of a parameter dict is one trace over the
    whole run (the same items every time round): warnings; a window that widens every step grows
    with the run: an error. JAX agrees (tests/test_fixtures_dynamic.py runs the program)."""
    project = FIXTURES / "sweeps_over_configuration_bounded"
    run = analyse([str(project)], Settings(cache=False))
    found = {(Path(f.location.path).name, f.location.line): f.severity for f in run.findings}
    assert found == {
        ("evaluation.py", 21): "warning",  # for name, ... in datasets.items()
        ("model.py", 17): "warning",  # for name, w in params.items()
        ("main.py", 23): "error",  # for step in range(steps): window = 2 + step
    }


def test_a_static_phase_flag_of_an_open_loop_is_a_warning() -> None:
    """``step < cfg.warmup_steps`` passed as a static argument in a loop over steps: True, then
    False, two traces however long it runs (tests/test_fixtures_dynamic.py runs it: two traces with
    2 steps and with 4), not one per step as a static step counter."""
    found = _severities(FIXTURES / "static_phase_flags_bounded")
    assert found == {(17, "RTL201"): "warning"}


_LOSSES = """
from functools import partial

import jax


@partial(jax.jit, static_argnums=0)
def sgd_step(loss, params, batch):
    return params - 0.1 * jax.grad(loss)(params, batch)


def squared(params, batch):
    return ((params - batch) ** 2).mean()


def absolute(params, batch):
    return abs(params - batch).mean()
"""

_EXPERIMENT = """
import jax
from losses import absolute, sgd_step, squared


def build_trainers(names):
    chosen = []
    for name in names:
        chosen.append(squared if name == "l2" else absolute)
    return tuple(chosen)


class Experiment:
    def __init__(self, names, loader):
        self.trainers = build_trainers(names)
        self.loader = loader
        self.seen = []

    def train(self, params, epochs):
        for _ in range(epochs):
            for loss in self.trainers:
                params = sgd_step(loss, params, 1.0)
            for loss in self.loader:
                params = sgd_step(loss, params, 1.0)
            for loss in self.seen:
                params = sgd_step(loss, params, 1.0)
            self.seen.append(absolute)
        return params

    def evaluator(self, loss):
        return jax.jit(lambda params: loss(params, 0.0))

    def evaluate(self, params):
        return [self.evaluator(loss)(params) for loss in self.trainers]
"""


def test_a_sweep_over_a_collection_the_object_holds_is_a_warning(tmp_path: Path) -> None:
    """Static losses taken from a tuple the experiment builds once from its configuration: one
    trace per loss over the whole run, a warning, and only if the names it was given choose
    different losses (a loop building the tuple may repeat one): shown with ``--confidence all``.
    The same loop over what the object was given (a loader, of unknown kind) or over a list a
    method grows each epoch stays an error. An evaluator jitted anew per loss of that tuple closes
    over a new loss at each: a trace per loss is needed anyway, so its rate of rebuilds is not
    proven (shown with ``--confidence all``)."""
    (tmp_path / "losses.py").write_text(_LOSSES, encoding="utf-8")
    (tmp_path / "experiment.py").write_text(_EXPERIMENT, encoding="utf-8")
    found = _severities(tmp_path)
    assert found == {
        (24, "RTL201"): "error",  # for loss in self.loader
        (26, "RTL201"): "error",  # for loss in self.seen, grown by append
    }
    assert _unproven(tmp_path) == {
        (22, "RTL201"): "items-alike",  # for loss in self.trainers
        (31, "RTL301"): "per-item",
    }


_FEWSHOT = """
from typing import Iterable, Sequence

import jax
import numpy as np


@jax.jit
def accuracy(features):
    return features.mean()


def fewshot(features: np.ndarray, shots: Sequence[int], widths: Iterable[int]):
    scores = [accuracy(features[:shot]) for shot in shots]
    for width in widths:
        scores.append(accuracy(features[:width]))
    return scores
"""

_TRAIN = """
import numpy as np
from fewshot import fewshot

SHOTS = (1, 5, 10)


def train(steps):
    for step in range(steps):
        fewshot(np.ones(64), SHOTS, range(2, step + 3))
"""


def test_a_sweep_over_a_parameter_annotated_as_a_sequence_is_a_warning(tmp_path: Path) -> None:
    """``shots: Sequence[int]`` is a collection held in memory, the same shot counts at every
    evaluation: one trace per shot over the run, a warning. ``widths: Iterable[int]`` may be a
    stream (here a range that reaches further each step): its slices stay an error."""
    (tmp_path / "fewshot.py").write_text(_FEWSHOT, encoding="utf-8")
    (tmp_path / "train.py").write_text(_TRAIN, encoding="utf-8")
    found = _severities(tmp_path)
    assert found == {(14, "RTL101"): "warning", (16, "RTL101"): "error"}


_RECYCLE = """
import jax


def fit(source, target, method):
    @jax.jit
    def step(x):
        return x * source + target
    return step(1.0)
"""

_GRID = """
import itertools

from recycle import fit


def main(config):
    methods = set(config["methods"])
    seeds = set(config["seeds"])
    for source, target in itertools.permutations(seeds, r=2):
        for method in methods:
            fit(source, target, method)
"""

_SERVE = """
from recycle import fit


def serve(requests):
    for source, target in requests:
        fit(source, target, "linear")
"""


def test_a_grid_of_configured_settings_is_a_warning_unless_a_stream_drives_it_too(
    tmp_path: Path,
) -> None:
    """A jit rebuilt per call of ``fit`` that only a grid of settings calls (permutations of a set
    of seeds, each method of a set), closing over the point's seeds: one trace per point of the
    grid, each needed anyway, so not shown by default. Called also per request of a stream, it
    grows with the run: an error."""
    (tmp_path / "recycle.py").write_text(_RECYCLE, encoding="utf-8")
    (tmp_path / "grid.py").write_text(_GRID, encoding="utf-8")
    assert _severities(tmp_path) == {}
    assert _unproven(tmp_path) == {(6, "RTL301"): "rate-unproven"}
    (tmp_path / "serve.py").write_text(_SERVE, encoding="utf-8")
    assert _severities(tmp_path) == {(6, "RTL301"): "error"}


def test_severity_is_one_rule_of_growth_and_proof() -> None:
    """An error needs the rule's claim, re-traces that grow and a proven chain; any one missing
    makes a warning."""
    from retracelint.evidence import severity
    from retracelint.model import Assumption, Bound, Finding, Location

    here = Location("train.py", 3, 1)
    guessed = (Assumption("guessed-callee", here, "`m.step` taken as the one method of that name"),)
    claims = [("error", True, ()), ("error", False, ()), ("error", True, guessed)]
    claims.append(("warning", True, ()))
    got = [
        severity(Finding("RTL201", "m", here, s, bound=None if g else Bound("a few values", 2)), a)
        for s, g, a in claims
    ]
    assert got == ["error", "warning", "warning", "warning"]


_CONTINUAL_TRAIN = """
import functools

import jax


def train_step(state, batch, train_mask):
    return state + batch.sum() * train_mask


def train_task(task_id, config, state, batches):
    step = jax.jit(functools.partial(train_step, train_mask=task_id > 0))
    for batch in batches:
        state = step(state, batch)
    return state


def evaluate(config, state, batch):
    for step in range(config.num_train_steps):
        probe = jax.jit(lambda s: s * 2)
        state = probe(state) + batch.mean()
    return state
"""

_CONTINUAL_MAIN = """
from continual_train import evaluate, train_task


def train_and_evaluate(config, state, batches):
    task_range = config.continual.num_tasks
    for task_id in range(task_range):
        state = train_task(task_id, config, state, batches)
    for seed in range(1, config["num_seeds"]):
        state = train_task(seed, config, state, batches)
    return evaluate(config, state, batches[0])
"""


def test_a_range_over_a_configured_count_of_tasks_is_a_warning_one_over_steps_an_error(
    tmp_path: Path,
) -> None:
    """A jit rebuilt per call of ``train_task`` that a loop over ``range(config.continual.num_tasks)``
    (through a local) or ``range(1, config["num_seeds"])`` calls: one trace per task or seed, the
    same few every run, a warning. One rebuilt per ``range(config.num_train_steps)`` grows with the
    run's length: an error. The task's jit serves the loop over batches inside ``train_task``, and
    each task passes a new state: a build per sweep point, shown only with ``--confidence all``."""
    (tmp_path / "continual_train.py").write_text(_CONTINUAL_TRAIN, encoding="utf-8")
    (tmp_path / "continual_main.py").write_text(_CONTINUAL_MAIN, encoding="utf-8")
    run = analyse([str(tmp_path)], Settings(cache=False, confidence="all"))
    found = {(f.location.line, f.code): (f.severity, f.confidence) for f in run.findings}
    assert found == {(12, "RTL301"): ("warning", "low"), (20, "RTL301"): ("error", "high")}
    assert _severities(tmp_path) == {(20, "RTL301"): "error"}


_REGISTRY = """
_MODEL_CFGS = {"b0": {"url": "b0.npz"}, "b1": {"url": "b1.npz"}, "tiny": {"url": ""}}


def list_models(pretrained=True):
    names = []
    for name, cfg in _MODEL_CFGS.items():
        if cfg["url"] or not pretrained:
            names.append(name)
    return names


def read_shards(path):
    shards = []
    with open(path) as lines:
        for line in lines:
            shards.append(line.strip())
    return shards
"""

_VALIDATE = """
import fnmatch
import sys

import jax
import jax.numpy as jnp
from registry import list_models, read_shards


def validate(name, batch_size):
    model = jnp.ones(len(name))
    step = jax.jit(lambda images: (images * model.sum()).mean())
    return step(jnp.ones((batch_size, 4)))


def try_validate(name, batch_size):
    res = None
    while res is None:
        try:
            res = validate(name, batch_size)
        except RuntimeError:
            batch_size = max(batch_size // 2, 1)
    return res


def main(pattern):
    models = list_models(pretrained=True)
    if pattern != "all":
        models = fnmatch.filter(models, pattern)
    results = [try_validate(m, 256) for m in models]
    for shard in read_shards(sys.argv[1]):
        results.append(score(shard))
    return results


def score(shard):
    return jax.jit(lambda x: x + len(shard))(jnp.ones(3))
"""


def test_a_sweep_over_a_list_built_from_a_registry_is_a_warning(tmp_path: Path) -> None:
    """``list_models()`` appends names while walking a dict of configurations, and
    ``fnmatch.filter`` keeps some of them: validating each (through a retry loop that runs again
    only when validation raises) builds a jit closing over a new model per name: one trace per
    model, needed anyway, so not shown by default. The same kind of jit built per line that
    ``read_shards`` reads from a file may run on with new values: an error."""
    (tmp_path / "registry.py").write_text(_REGISTRY, encoding="utf-8")
    (tmp_path / "validate.py").write_text(_VALIDATE, encoding="utf-8")
    assert _severities(tmp_path) == {(37, "RTL301"): "error"}
    assert _unproven(tmp_path) == {(12, "RTL301"): "rate-unproven"}
