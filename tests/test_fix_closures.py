"""RTL301's fixes for a jit rebuilt because it closes over values of the call (issue 41), as a user meets
them on a project split over modules: the nested function (or lambda, or ``partial``) jitted once at
module level with the values it closes over made its arguments, and ``jax.jit(self.method)`` built once
in ``__init__``. Both are unsafe (``--unsafe-fixes``); each is idempotent, and a shape whose meaning
the fix cannot keep is left alone with the reason. JAX's word on them is ``fix_proof.py`` (FIXES.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from retracelint.cli import main


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def codes(*paths: str) -> list[tuple[str, str]]:
    found = json.loads(lint("--output-format", "json", *paths).stdout)
    return sorted((f["path"], f["code"]) for f in found)


def proved_by_jax(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    programs: dict[str, tuple[dict[str, str], str, str, int]],
    exit_codes: tuple[int, ...] = (0,),
    by_function: bool = False,
) -> None:
    """Each program (its files, the script to run, the jitted function, how often it re-traces) copied
        twice, one copy fixed with --unsafe-fixes, and both run in one JAX process: the fixed one traces
        every function once and writes the same ``out.json`` (within float tolerance). ``exit_codes``: what
    ``--fix`` may end with (1 where a finding stays, as a bucketed shape's does). ``by_function``: the
    fixed one's traces counted per function, as fix_proof.py counts them (JAX's log calls a nested
    def's first trace inside a new jit a re-trace when a def of its line was seen: the original's)."""
    from dynamic_support import count_retraces_many

    scripts = []
    for name, (files, script, _, _) in programs.items():
        for copy in ("original", "fixed"):
            (tmp_path / name / copy).mkdir(parents=True)
            project(tmp_path / name / copy, monkeypatch, files)
        assert lint("--fix", "--unsafe-fixes", ".").exit_code in exit_codes
        scripts += [tmp_path / name / copy / script for copy in ("original", "fixed")]
    reports = iter(count_retraces_many(scripts, cwd=tmp_path))
    for name, (_, _, jitted, retraces) in programs.items():
        before, after = next(reports), next(reports)
        retraced = {function.name: n for function, n in before.retraces.items()}
        assert not before.raised and retraced[jitted] == retraces, before.summary()
        once = set(after.traces.values()) == {1} if by_function else after.total_retraces == 0
        assert not after.raised and after.traces and once, after.summary()
        printed = [
            json.loads((tmp_path / name / c / "out.json").read_text())
            for c in ("original", "fixed")
        ]
        assert printed[0] == pytest.approx(printed[1], rel=1e-5)


def fixed_once(root: Path, name: str) -> str:
    """Fix with --unsafe-fixes; a second run changes nothing and finds nothing to fix."""
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 0, result.output
    text = (root / name).read_text(encoding="utf-8")
    compile(text, name, "exec")
    again = lint("--fix", "--unsafe-fixes", ".")
    assert again.exit_code == 0 and again.stdout == "", again.output
    assert (root / name).read_text(encoding="utf-8") == text
    return text


CONTROLLERS = '''\
"""A safety filter rebuilt for every scene."""

import jax
import jax.numpy as jnp


def barrier(state, obstacle, radius):
    d = state[:2] - obstacle
    return jnp.dot(d, d) - radius**2


def make_filter(goal, obstacle, radius, gain=0.8):
    """Build the controller for the current obstacle."""

    def control(state):
        # steer to the goal, slowed near the obstacle
        h = barrier(state, obstacle, radius)
        return gain * (goal - state[:2]) * jnp.tanh(h)

    return jax.jit(control)
'''

SIM = """\
import jax.numpy as jnp

from controllers import make_filter


def run(ticks):
    state = jnp.zeros(3)
    for tick in range(ticks):
        controller = make_filter(jnp.ones(2), jnp.full(2, 0.1 * tick), 0.5)
        state = state.at[:2].add(controller(state))
    return state


print(run(3))
"""

CONTROLLERS_FIXED = '''\
"""A safety filter rebuilt for every scene."""
from functools import partial

import jax
import jax.numpy as jnp


def barrier(state, obstacle, radius):
    d = state[:2] - obstacle
    return jnp.dot(d, d) - radius**2


def control(state, *, gain, goal, obstacle, radius):
    # steer to the goal, slowed near the obstacle
    h = barrier(state, obstacle, radius)
    return gain * (goal - state[:2]) * jnp.tanh(h)


control_jit = jax.jit(control)


def make_filter(goal, obstacle, radius, gain=0.8):
    """Build the controller for the current obstacle."""

    return partial(control_jit, gain=gain, goal=goal, obstacle=obstacle, radius=radius)
'''


def test_a_factory_closing_over_its_arguments_is_jitted_once_with_them_as_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"controllers.py": CONTROLLERS, "sim.py": SIM})
    assert codes(".") == [("controllers.py", "RTL301")]
    safe = lint("--fix", ".")
    assert (root / "controllers.py").read_text() == CONTROLLERS  # unsafe: not without asking
    assert safe.stderr.splitlines()[-1] == (
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
    )
    # the values are arrays and numbers used in arithmetic (here and in barrier): traced arguments
    assert fixed_once(root, "controllers.py") == CONTROLLERS_FIXED
    assert (root / "sim.py").read_text() == SIM


INTERP = """\
import jax
import jax.numpy as jnp


def onset(trace, short, long):
    csum = jnp.cumsum(trace**2)
    return (csum[short:] - csum[:-short])[long - short :] / (csum[long:] - csum[:-long])


class Picker:
    def __init__(self, rate, method="ratio"):
        self.rate = rate
        self.method = method

    def __call__(self, trace, scale):
        short, long = int(0.5 * self.rate), int(5 * self.rate)

        def characteristic(tr):
            ratio = onset(tr, short, long) * scale
            if self.method == "log":
                return jnp.log(ratio)
            return ratio

        return jax.jit(characteristic)(trace)
"""

STATION = """\
import jax.numpy as jnp

from picker import Picker

picker = Picker(rate=4.0, method="log")
for day in range(3):
    print(picker(jnp.linspace(1.0, 2.0 + day, 64), scale=0.5))
"""


def test_values_a_use_needs_concrete_are_static_and_self_attributes_become_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"picker.py": INTERP, "station.py": STATION})
    assert codes(".") == [("picker.py", "RTL301")]
    fixed = fixed_once(root, "picker.py")
    # short and long slice the array in onset, self.method decides control flow: static; scale only
    # scales: traced. Called at once, the jitted function is called with the values.
    assert (
        "def characteristic(tr, *, long, method, scale, short):\n"
        "    ratio = onset(tr, short, long) * scale\n"
        '    if method == "log":\n'
    ) in fixed
    assert (
        '\ncharacteristic_jit = jax.jit(characteristic, static_argnames=("long", "method", "short"))\n'
        "\n\nclass Picker:"
    ) in fixed
    assert (
        "        return characteristic_jit(trace, long=long, method=self.method, scale=scale,"
        " short=short)\n"
    ) in fixed


GP = """\
from functools import partial

import jax
import jax.numpy as jnp


def posterior_mean(x, y, grid, lengthscale, steps):
    k = jnp.exp(-((x[:, None] - x[None, :]) ** 2) / lengthscale)
    for _ in range(steps):
        k = k @ k / jnp.trace(k)
    return jnp.exp(-((grid[:, None] - x[None, :]) ** 2) / lengthscale) @ jnp.linalg.solve(k, y)


def predict(x, y, grid, lengthscale):
    fn = jax.jit(partial(posterior_mean, lengthscale=lengthscale, steps=2))  # one per lengthscale
    return fn(x, y, grid)
"""

SWEEP = """\
import jax.numpy as jnp

from gp import predict

x = jnp.linspace(0.0, 1.0, 8)
for lengthscale in (0.1, 0.2, 0.4):
    print(predict(x, jnp.sin(6.0 * x), jnp.linspace(0.0, 1.0, 5), lengthscale))
"""


def test_a_jitted_partial_of_a_module_function_passes_its_keywords_to_one_jit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"gp.py": GP, "sweep.py": SWEEP})
    assert codes(".") == [("gp.py", "RTL301")]
    fixed = fixed_once(root, "gp.py")
    assert '\n\nposterior_mean_jit = jax.jit(posterior_mean, static_argnames=("steps",))\n' in fixed
    assert (
        "    fn = partial(posterior_mean_jit, lengthscale=lengthscale, steps=2)"
        "  # one per lengthscale\n"
    ) in fixed


TRAINER = '''\
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, params, lr=0.05):
        """Plain gradient descent."""
        self.params = params
        self.lr = lr

    def _loss(self, params, x, y):
        return jnp.mean((x @ params - y) ** 2)

    def step(self, x, y):
        loss_and_grad = jax.jit(jax.value_and_grad(self._loss))
        loss, grads = loss_and_grad(self.params, x, y)
        self.params = self.params - self.lr * grads
        return loss
'''

FIT = """\
import jax.numpy as jnp

from trainer import Trainer

trainer = Trainer(jnp.zeros(2))
for epoch in range(3):
    print(trainer.step(jnp.ones((4, 2)), jnp.ones(4)))
"""


def test_a_jitted_bound_method_is_built_once_in_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"trainer.py": TRAINER, "fit.py": FIT})
    assert codes(".") == [("trainer.py", "RTL301")]
    fixed = fixed_once(root, "trainer.py")
    assert fixed == TRAINER.replace(
        '        """Plain gradient descent."""\n',
        '        """Plain gradient descent."""\n'
        "        self._loss_value_and_grad_jit = jax.jit(jax.value_and_grad(self._loss))\n",
    ).replace(
        "jax.jit(jax.value_and_grad(self._loss))\n        loss, grads",
        "self._loss_value_and_grad_jit\n        loss, grads",
    )


SOLVER = '''\
"""A damped Gauss-Newton solver, configured as a dataclass."""
from dataclasses import dataclass
from typing import Callable

import jax
import jax.numpy as jnp


@dataclass
class GaussNewton:
    residual_fun: Callable
    maxiter: int = 3
    jit: bool = True

    def update(self, params, obs):
        r = self.residual_fun(params, obs)
        J = jax.jacfwd(self.residual_fun)(params, obs)
        step = jnp.linalg.solve(J.T @ J + 1e-3 * jnp.eye(params.shape[0]), J.T @ r)
        return params - step

    def run(self, params, obs):
        update = jax.jit(self.update) if self.jit else self.update  # one jit per run
        for _ in range(self.maxiter):
            params = update(params, obs)
        return params
'''

CALIBRATE = """\
import jax.numpy as jnp

from solver import GaussNewton


def residuals(params, obs):
    return params[0] * jnp.exp(-obs / params[1]) - jnp.exp(-obs / 2.0)


class Calibrator:
    def __init__(self):
        self.solver = GaussNewton(residuals)

    def calibrate(self, obs):
        return self.solver.run(jnp.array([1.5, 1.0]), obs)


calibrator = Calibrator()
for n in range(3):
    print(calibrator.calibrate(jnp.linspace(0.0, 1.0 + n, 8)))
"""


def test_a_dataclass_builds_the_jit_of_its_method_once_in_post_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a dataclass has no __init__ of its own to build the jit in: the one it generates calls
    # __post_init__, which the fix adds (or builds it in, when the class has one)
    root = project(tmp_path, monkeypatch, {"solver.py": SOLVER, "calibrate.py": CALIBRATE})
    assert codes(".") == [("solver.py", "RTL301")]
    assert fixed_once(root, "solver.py") == SOLVER.replace(
        "    jit: bool = True\n\n",
        "    jit: bool = True\n\n"
        "    def __post_init__(self):\n"
        "        self._update_jit = jax.jit(self.update)\n\n",
    ).replace("update = jax.jit(self.update) if", "update = self._update_jit if")
    posted = SOLVER.replace(
        "    def update(", "    def __post_init__(self):\n        self.calls = 0\n\n    def update("
    )
    (root / "solver.py").write_text(posted, encoding="utf-8")
    assert fixed_once(root, "solver.py") == posted.replace(
        "        self.calls = 0\n",
        "        self._update_jit = jax.jit(self.update)\n        self.calls = 0\n",
    ).replace("update = jax.jit(self.update) if", "update = self._update_jit if")


@pytest.mark.parametrize(
    ("decorator", "reason"),
    [
        ("@dataclass(frozen=True)", "the class is a dataclass(frozen=True)"),
        ("@dataclass(slots=True)", "the class is a dataclass(slots=True)"),
        ("@dataclass(init=False)", "the class is a dataclass(init=False)"),
        ("@functools.total_ordering", "the class has no __init__ to build it in"),
    ],
)
def test_a_class_that_cannot_be_given_the_jit_as_it_is_made_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, decorator: str, reason: str
) -> None:
    solver = SOLVER.replace("@dataclass\n", decorator + "\n").replace(
        "from dataclasses", "import functools\nfrom dataclasses"
    )
    root = project(tmp_path, monkeypatch, {"solver.py": solver, "calibrate.py": CALIBRATE})
    (refused,) = refusals(root, "solver.py")
    assert refused == (
        "it closes over self, which may change between calls; "
        + reason
        + (": it cannot be given an attribute" if "dataclass" in decorator else "")
    )


CALLBACKS = '''\
"""Evaluation callback: roll the current policy out once."""

import jax


def make_eval_fn(env, rollout_len=5):
    scores = []

    def eval_fn(step, params):
        jit_step = jax.jit(env.step)  # one jit per evaluation
        state = env.reset(step)
        for _ in range(rollout_len):
            state = jit_step(state, params)
        scores.append(float(state.sum()))
        return scores[-1]

    return eval_fn
'''

TRAIN = """\
import jax.numpy as jnp

from callbacks import make_eval_fn


class Env:
    def reset(self, seed):
        return jnp.full(3, float(seed))

    def step(self, state, params):
        return 0.5 * state + params


eval_fn = make_eval_fn(Env())
for step in range(3):
    print(eval_fn(step, jnp.ones(3)))
"""


def test_a_jit_rebuilt_by_the_function_a_factory_makes_is_built_once_in_the_factory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"callbacks.py": CALLBACKS, "train.py": TRAIN})
    assert codes(".") == [("callbacks.py", "RTL301")]
    assert fixed_once(root, "callbacks.py") == CALLBACKS.replace(
        "    scores = []\n\n",
        "    scores = []\n\n    step_jit = jax.jit(env.step)\n\n",
    ).replace("jit_step = jax.jit(env.step)", "jit_step = step_jit")


def test_the_editor_offers_the_factory_hoist_and_the_post_init_jit_as_quick_fixes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("lsprotocol")
    from retracelint import config
    from retracelint.engine import analyse
    from retracelint.server import fix_edit, quick_fix

    files = {"callbacks.py": CALLBACKS, "train.py": TRAIN}
    files |= {"solver.py": SOLVER, "calibrate.py": CALIBRATE}
    root = project(tmp_path, monkeypatch, files)
    settings = config.load([str(root)], isolated=True)
    found = analyse(sorted(files), settings).findings
    assert sorted(f.location.path for f in found) == ["callbacks.py", "solver.py"]
    edited = {}
    for finding in found:
        fix = quick_fix(finding, lambda path: (root / path).read_bytes(), unsafe=True)
        assert fix is not None
        workspace = fix_edit(fix, {}, document_changes=False)
        assert workspace is not None and workspace.changes is not None
        text = files[finding.location.path]
        (edits,) = workspace.changes.values()
        for edit in sorted(edits, key=lambda e: -e.range.start.line):
            lines = text.splitlines(keepends=True)
            start, end = edit.range.start.line, edit.range.end.line
            text = "".join(lines[:start]) + edit.new_text + "".join(lines[end:])
        edited[finding.location.path] = text
    # what --fix --unsafe-fixes writes
    assert lint("--fix", "--unsafe-fixes", ".").exit_code == 0
    assert edited == {name: (root / name).read_text(encoding="utf-8") for name in edited}
    assert edited["callbacks.py"] != CALLBACKS and edited["solver.py"] != SOLVER


def test_a_factory_that_binds_the_value_again_keeps_the_jit_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the factory wraps the environment after it makes the callback: built before the def, the jit
    # would step the unwrapped one
    rebinds = CALLBACKS.replace(
        "    return eval_fn\n", "    env = Monitor(env)\n    return eval_fn\n"
    )
    rebinds = rebinds.replace("import jax\n", "import jax\nfrom monitor import Monitor\n")
    monitor = "class Monitor:\n    def __init__(self, env):\n        self.step = env.step\n"
    root = project(
        tmp_path, monkeypatch, {"callbacks.py": rebinds, "train.py": TRAIN, "monitor.py": monitor}
    )
    assert refusals(root, "callbacks.py") == [
        "it closes over env, which may change between calls; the jit call is not in a method"
    ]


GEOMETRY = """\
from shapes import margin


def clearance(state, obstacle, radius):
    d = state[:2] - obstacle
    return d @ d - radius**2
"""


def test_a_closed_over_value_handed_to_a_helper_of_the_module_beside_is_made_an_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the helper computes with the radius: it can be traced, as a helper of the module itself
    controllers = CONTROLLERS.replace(
        "h = barrier(state, obstacle, radius)", "h = clearance(state, obstacle, radius)"
    ).replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\nfrom geometry import clearance\n"
    )
    root = project(
        tmp_path,
        monkeypatch,
        {"controllers.py": controllers, "sim.py": SIM, "geometry.py": GEOMETRY, "shapes.py": ""},
    )
    fixed = fixed_once(root, "controllers.py")
    assert fixed == CONTROLLERS_FIXED.replace(
        "h = barrier(state, obstacle, radius)", "h = clearance(state, obstacle, radius)"
    ).replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\nfrom geometry import clearance\n"
    )
    assert (root / "geometry.py").read_text(encoding="utf-8") == GEOMETRY


def refusals(root: Path, name: str) -> list[str]:
    before = (root / name).read_text(encoding="utf-8")
    result = lint("--diff", "--unsafe-fixes", ".")
    assert result.stdout == "" and result.exit_code == 0
    assert (root / name).read_text(encoding="utf-8") == before
    return [
        line.split(" not fixed: ", 1)[1]
        for line in result.stderr.splitlines()
        if "not fixed" in line
    ]


def test_what_the_fix_cannot_keep_is_left_alone_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the trained target changes after __init__: a jit built once would keep the first one
    staged = TRAINER.replace(
        "return jnp.mean((x @ params - y) ** 2)", "return jnp.mean((x @ params - self.target) ** 2)"
    ).replace("        self.lr = lr\n", "        self.lr = lr\n        self.target = 0.0\n")
    staged += "\n    def retarget(self, target):\n        self.target = target\n"
    # the value is handed through a function of another module to a third one, which a fix does
    # not read
    helper = CONTROLLERS.replace(
        "h = barrier(state, obstacle, radius)", "h = clearance(state, obstacle, radius)"
    )
    helper = helper.replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\nfrom geometry import clearance\n"
    )
    # the loop changes what the closure reads after the jit is built
    late = (
        "import jax\n\n\ndef run(xs, scale):\n"
        "    def step(x):\n        return x * scale\n\n"
        "    stepped = jax.jit(step)\n"
        "    for x in xs:\n        scale = scale * 0.5\n        print(stepped(x))\n"
        "\n\nfor day in range(3):\n    run([1.0, 2.0], 0.5 * day)\n"
    )
    root = project(
        tmp_path,
        monkeypatch,
        {
            "trainer.py": staged,
            "fit.py": FIT,
            "sim.py": SIM,
            "controllers.py": helper,
            "geometry.py": GEOMETRY.replace("return d @ d - radius**2", "return margin(radius)"),
            "shapes.py": "def margin(radius):\n    return radius\n",
            "late.py": late,
        },
    )
    assert sorted(refusals(root, "trainer.py")) == [
        "it closes over control, which may change between calls; it passes a value it closes over"
        " to shapes.margin, whose use of it is not known",
        "it closes over self, which may change between calls; self.target is assigned outside"
        " __init__: the jit built once would keep the value it was traced with",
        "it closes over step, which may change between calls; scale is assigned after the jit is"
        " built",
    ]


def test_the_editor_offers_the_closure_fix_as_a_quick_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("lsprotocol")
    from retracelint import config
    from retracelint.engine import analyse
    from retracelint.server import fix_edit, quick_fix

    root = project(tmp_path, monkeypatch, {"controllers.py": CONTROLLERS, "sim.py": SIM})
    settings = config.load([str(root)], isolated=True)
    (finding,) = analyse(["controllers.py", "sim.py"], settings).findings
    fix = quick_fix(finding, lambda path: (root / path).read_bytes(), unsafe=True)
    assert fix is not None
    workspace = fix_edit(fix, {}, document_changes=False)
    assert workspace is not None and workspace.changes is not None
    ((edit,),) = workspace.changes.values()
    lines = CONTROLLERS.splitlines(keepends=True)
    start, end = edit.range.start.line, edit.range.end.line
    assert "".join(lines[:start]) + edit.new_text + "".join(lines[end:]) == CONTROLLERS_FIXED


POLICY = """\
import copy

import jax
import jax.numpy as jnp


class Policy:
    def __init__(self, weights, gain):
        self.weights = weights
        self.gain = gain

    def act(self, obs):
        head = jax.jit(lambda o: jnp.tanh(self.gain * o @ self.weights))
        return head(obs)

    def recurse(self, obs, depth):
        def unroll(o):
            return o if depth == 0 else unroll(o @ self.weights)

        return jax.jit(unroll)(obs)


workers = [copy.deepcopy(Policy(jnp.eye(2), gain=float(g))) for g in range(3)]
for worker in workers:
    print(worker.act(jnp.ones(2)), worker.recurse(jnp.ones(2), 2))
"""


def test_a_lambda_reading_self_gets_the_attributes_as_arguments_and_recursion_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"policy.py": POLICY})
    # One jit per worker of a sweep over three new objects rests on rate-unproven (each point may
    # need its own trace); the rewrite is what this test is about, so it asks for every finding.
    result = lint("--fix", "--unsafe-fixes", "--confidence", "all", ".")
    fixed = (root / "policy.py").read_text()
    # each copy passes its own attributes: a deep copy changes nothing
    assert (
        "\n\nhead_jit = jax.jit(lambda o, *, gain, weights: jnp.tanh(gain * o @ weights))\n"
        in fixed
    )
    assert "        head = partial(head_jit, gain=self.gain, weights=self.weights)\n" in fixed
    assert fixed.startswith("from functools import partial\nimport copy\n")
    assert (
        "RTL301 not fixed: it closes over unroll, which may change between calls; unroll is used"
        " other than by this jit call" in result.stderr
    )
    assert "        return jax.jit(unroll)(obs)\n" in fixed


TABLES = """\
import jax
import jax.numpy as jnp


def scaled(table, x):
    def lookup(i):
        return table[i % len(table)] * x  # len of a traced array is its static length

    return jax.jit(lookup)


def gated(table, x):
    def gate(i):
        return table[i] * x if table[0] > 0 else x  # the branch needs the array concrete

    return jax.jit(gate)


for k in range(3):
    print(scaled(jnp.arange(4.0), k)(2), gated(jnp.arange(4.0) - 1, k)(2))
"""


def test_an_array_read_by_len_is_traced_and_one_a_branch_needs_concrete_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"tables.py": TABLES})
    result = lint("--fix", "--unsafe-fixes", ".")
    fixed = (root / "tables.py").read_text()
    assert "\n\nlookup_jit = jax.jit(lookup)\n" in fixed
    assert "    return partial(lookup_jit, table=table, x=x)\n" in fixed
    assert (
        "RTL301 not fixed: it closes over gate, which may change between calls; table is read as an"
        " array or a container, and decides Python control flow: a static argument must be hashable"
    ) in result.stderr
    assert "    return jax.jit(gate)\n" in fixed
