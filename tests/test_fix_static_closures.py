"""RTL204's fix for a lambda or ``partial`` made at every call and passed as a static argument, closing
over values of that call (issue 41), on projects split over modules: the callable is made once at module
level and the values become keyword-only arguments of the jitted function, which binds them to the
static parameter first; traced, or static where the callable needs them concrete. Unsafe
(``--unsafe-fixes``), idempotent, and refused with a reason where the meaning cannot be kept."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_fix_closures import codes, fixed_once, lint, project, proved_by_jax

from retracelint import config
from retracelint.cli import main
from retracelint.engine import analyse_paths
from retracelint.fixes import fix_source, plan, write

CONSENSUS = '''\
"""Damped fixed-point iteration with the update function passed in as a static argument."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=(0,))
def iterate_to_fixed_point(update, x0, tol):
    def body(carry):
        i, x, _ = carry
        x_new = update(x)
        return i + 1, x_new, jnp.max(jnp.abs(x_new - x))

    init = (jnp.int32(0), x0, jnp.float32(jnp.inf))
    return lax.while_loop(lambda c: (c[0] < 500) & (c[2] > tol), body, init)[1]


def damped_update(x, trust, stubbornness, prior):
    return stubbornness * prior + (1.0 - stubbornness) * (trust @ x)


class ConsensusSolver:
    def __init__(self, stubbornness, tol=1e-5):
        self.stubbornness = stubbornness
        self.tol = jnp.float32(tol)

    def run(self, trust, prior):
        update = partial(damped_update, trust=trust, stubbornness=self.stubbornness, prior=prior)
        return iterate_to_fixed_point(update, prior, self.tol)
'''

MAIN = """\
import jax.numpy as jnp
from solver import ConsensusSolver

solver = ConsensusSolver(0.3)
for scale in (0.5, 0.9):
    print(solver.run(scale * jnp.eye(3), jnp.ones(3)))
"""


def test_partial_bound_values_become_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    root = project(tmp_path, monkeypatch, {"solver.py": CONSENSUS, "main.py": MAIN})
    assert codes(".") == [("solver.py", "RTL204")]
    assert lint("--fix", ".").exit_code == 1  # unsafe: --fix alone leaves it
    assert (root / "solver.py").read_text(encoding="utf-8") == CONSENSUS
    text = fixed_once(root, "solver.py")
    assert text == CONSENSUS.replace(
        "def iterate_to_fixed_point(update, x0, tol):\n",
        "def iterate_to_fixed_point(update, x0, tol, *, trust, stubbornness, prior):\n"
        "    update = partial(update, trust=trust, stubbornness=stubbornness, prior=prior)\n",
    ).replace(
        "        update = partial(damped_update, trust=trust, stubbornness=self.stubbornness,"
        " prior=prior)\n        return iterate_to_fixed_point(update, prior, self.tol)\n",
        "        return iterate_to_fixed_point(damped_update, prior, self.tol, trust=trust,"
        " stubbornness=self.stubbornness, prior=prior)\n",
    )
    assert (root / "main.py").read_text(encoding="utf-8") == MAIN


FILTERS = '''\
"""Channel filters: each call smooths with its own decay and keeps the first n samples."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("kernel",))
def run_filter(signal, kernel):
    """One smoothed value per sample."""
    def step(carry, x):
        new = kernel(carry, x)
        return new, new

    return jax.lax.scan(step, signal[0], signal)[1]


class Channel:
    def __init__(self, decay):
        self.decay = decay

    def filtered(self, signal, n):
        decay = self.decay
        return run_filter(signal, kernel=lambda c, x: decay * c + (1 - decay) * jnp.sum(x[:n]))
'''

SWEEP = """\
import jax.numpy as jnp
from filters import Channel

for decay in (0.5, 0.9):
    print(Channel(decay).filtered(jnp.ones((4, 3)), 2))
"""

FILTERS_FIXED = FILTERS.replace(
    '@partial(jax.jit, static_argnames=("kernel",))\ndef run_filter(signal, kernel):\n'
    '    """One smoothed value per sample."""\n',
    "def kernel_once(c, x, *, decay, n):\n"
    "    return decay * c + (1 - decay) * jnp.sum(x[:n])\n\n\n"
    '@partial(jax.jit, static_argnames=("kernel", "n"))\n'
    "def run_filter(signal, kernel, *, decay, n):\n"
    '    """One smoothed value per sample."""\n'
    "    kernel = partial(kernel, decay=decay, n=n)\n",
).replace(
    "kernel=lambda c, x: decay * c + (1 - decay) * jnp.sum(x[:n]))",
    "kernel=kernel_once, decay=decay, n=n)",
)


def test_lambda_made_once_with_traced_and_static_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """``decay`` is only multiplied: traced; ``n`` bounds a slice: static, added to static_argnames."""
    root = project(tmp_path, monkeypatch, {"filters.py": FILTERS, "sweep.py": SWEEP})
    assert codes(".") == [("filters.py", "RTL204")]
    assert fixed_once(root, "filters.py") == FILTERS_FIXED


def refusal(root: Path) -> str:
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 1, result.output
    return next(line for line in result.output.splitlines() if "not fixed" in line)


# The jitted function in its own module, imported by the module that makes the lambda: one fix, two files.
KERNELS, _CHANNELS = FILTERS.split("\n\nclass Channel:")
KERNELS += "\n"
CHANNELS = (
    '"""Channels."""\n\nfrom kernels import run_filter\n\n\nclass Channel:'
    + _CHANNELS.replace("jnp.sum(x[:n])", "x[:n].sum()")
)
KERNELS_FIXED = (
    FILTERS_FIXED.split("\n\nclass Channel:")[0].replace(
        "def kernel_once(c, x, *, decay, n):\n"
        "    return decay * c + (1 - decay) * jnp.sum(x[:n])\n\n\n",
        "",
    )
    + "\n"
)
CHANNELS_FIXED = CHANNELS.replace(
    "\n\n\nclass Channel:",
    "\n\n\ndef kernel_once(c, x, *, decay, n):\n"
    "    return decay * c + (1 - decay) * x[:n].sum()\n\n\nclass Channel:",
).replace(
    "kernel=lambda c, x: decay * c + (1 - decay) * x[:n].sum())",
    "kernel=kernel_once, decay=decay, n=n)",
)
TWO_MODULES = {"kernels.py": KERNELS, "filters.py": CHANNELS, "sweep.py": SWEEP}


def test_jitted_in_another_module_is_fixed_in_both_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The lambda becomes a def beside its caller; the jitted def, in the module it is imported
    from, takes the values. --diff shows both files, --fix writes both, the finding counts once."""
    root = project(tmp_path, monkeypatch, TWO_MODULES)
    assert codes(".") == [("filters.py", "RTL204")]
    hidden = lint(".")
    assert "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in (
        hidden.output
    )
    diff = lint("--diff", "--unsafe-fixes", ".")
    assert diff.exit_code == 1
    assert diff.stdout.count("--- a/") == 2
    assert "--- a/filters.py\n+++ b/filters.py\n" in diff.stdout
    assert "--- a/kernels.py\n+++ b/kernels.py\n" in diff.stdout
    assert "Would fix 1 error." in diff.output
    assert (root / "kernels.py").read_text(encoding="utf-8") == KERNELS  # --diff writes nothing
    fixed = lint("--fix", "--unsafe-fixes", ".")
    assert fixed.exit_code == 0 and "Found 1 error (1 fixed, 0 remaining)." in fixed.output
    assert (root / "filters.py").read_text(encoding="utf-8") == CHANNELS_FIXED
    assert (root / "kernels.py").read_text(encoding="utf-8") == KERNELS_FIXED
    assert fixed_once(root, "kernels.py") == KERNELS_FIXED  # a second run changes nothing
    assert (root / "sweep.py").read_text(encoding="utf-8") == SWEEP


def test_a_fix_of_two_files_is_made_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The jitting module calls the function too (that call would miss the new arguments): neither
    file changes. Standard input is fixed alone, so a fix that needs the other file is not made."""
    kernels = KERNELS + "\n\ndef smooth(signal):\n    return run_filter(signal, kernel=max)\n"
    root = project(tmp_path, monkeypatch, {**TWO_MODULES, "kernels.py": kernels})
    assert refusal(root).endswith(
        "RTL204 not fixed: it closes over decay, n, which may change between calls; run_filter is"
        " used elsewhere in kernels.py, where the new arguments are not passed"
    )
    assert (root / "kernels.py").read_text(encoding="utf-8") == kernels
    assert (root / "filters.py").read_text(encoding="utf-8") == CHANNELS
    (root / "kernels.py").write_text(KERNELS, encoding="utf-8")
    command = "check --isolated --no-cache --fix --unsafe-fixes --stdin-filename filters.py - kernels.py sweep.py"
    piped = CliRunner().invoke(main, command.split(), input=CHANNELS)
    assert piped.stdout == CHANNELS
    assert "the fix edits kernels.py too, which this run does not write" in (piped.output)
    assert (root / "kernels.py").read_text(encoding="utf-8") == KERNELS


ENERGY = """

@partial(jax.jit, static_argnames=("axes",))
def energy(signal, axes):
    return jnp.sum(signal * signal, axis=axes)


def total_energy(signal):
    return energy(signal, axes=[0, 1])
"""


def test_a_fix_of_two_files_waits_a_round_for_a_file_another_fix_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """kernels.py has a fix of its own (RTL203): made first, then the two-file fix from the file as it
    left it; both counted, each once."""
    sweep = SWEEP + "\nfrom kernels import total_energy\n\nprint(total_energy(jnp.ones((4, 3))))\n"
    files = {**TWO_MODULES, "kernels.py": KERNELS + ENERGY, "sweep.py": sweep}
    root = project(tmp_path, monkeypatch, files)
    assert codes(".") == [("filters.py", "RTL204"), ("kernels.py", "RTL203")]
    fixed = lint("--fix", "--unsafe-fixes", ".")
    assert fixed.exit_code == 0 and "Found 2 errors (2 fixed, 0 remaining)." in fixed.output
    assert (root / "kernels.py").read_text(encoding="utf-8") == KERNELS_FIXED + ENERGY.replace(
        "[0, 1]", "(0, 1)"
    )
    assert (root / "filters.py").read_text(encoding="utf-8") == CHANNELS_FIXED


def test_a_fix_whose_other_file_changed_meanwhile_writes_neither(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(tmp_path, monkeypatch, TWO_MODULES)
    found = analyse_paths(["."], config.load(["."], isolated=True))
    fixes = plan(found, lambda path: Path(path).read_bytes(), unsafe=True).fixes
    assert [(f.path, f.partners, len(f.fixed)) for f in fixes] == [
        ("filters.py", ("kernels.py",), 1),
        ("kernels.py", ("filters.py",), 0),
    ]
    # the editor's quick fix (one file's text) does not make it: half of it would not run
    assert fix_source(CHANNELS.encode(), found, unsafe=True) == (CHANNELS.encode(), ())
    (root / "kernels.py").write_text(KERNELS + "# edited\n", encoding="utf-8")
    assert write(fixes) == []
    assert (root / "filters.py").read_text(encoding="utf-8") == CHANNELS


def test_jitted_function_called_elsewhere_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Another call would not pass the new arguments."""
    other = FILTERS + "\n\ndef plain(signal):\n    return run_filter(signal, kernel=max)\n"
    root = project(tmp_path, monkeypatch, {"filters.py": other, "sweep.py": SWEEP})
    assert refusal(root).endswith(
        "run_filter is used elsewhere in the file, where the new arguments are not passed"
    )
    assert (root / "filters.py").read_text(encoding="utf-8") == other


def test_lambda_reading_self_and_a_value_read_by_the_jitted_body_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    reads_self = FILTERS.replace("decay * c + (1 - decay)", "self.decay * c + (1 - self.decay)")
    root = project(tmp_path, monkeypatch, {"filters.py": reads_self, "sweep.py": SWEEP})
    assert refusal(root).endswith(
        "the lambda reads self, whose fields this fix does not pass one by one"
    )
    # a module constant n read in the jitted body: a parameter n would hide it
    shadowed = FILTERS.replace("return new, new", "return new, new * n").replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\n\nn = 2\n"
    )
    (root / "filters.py").write_text(shadowed, encoding="utf-8")
    assert refusal(root).endswith("run_filter already has or reads n")
    assert (root / "filters.py").read_text(encoding="utf-8") == shadowed


def test_lambda_with_a_default_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A default is evaluated where the lambda is made: a def at module level could not read it."""
    defaulted = FILTERS.replace("lambda c, x: decay * c", "lambda c, x, d=decay: d * c")
    root = project(tmp_path, monkeypatch, {"filters.py": defaulted, "sweep.py": SWEEP})
    assert refusal(root).endswith("the lambda takes *args, keyword-only parameters or defaults")
    assert (root / "filters.py").read_text(encoding="utf-8") == defaulted


# What both copies run under JAX's cache-miss log: the sweep, its results kept for comparing.
RUN = """\
import json
from pathlib import Path

import jax.numpy as jnp
from filters import Channel

out = [v for d in (0.5, 0.9, 0.7) for v in Channel(d).filtered(jnp.ones((4, 3)), 2).ravel().tolist()]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""


# A controller made by a factory in one module, passed to a function jitted in a second, by a third.
GAINS = '''\
"""Controllers built from their gains."""

import jax.numpy as jnp


def make_controller(kp, kd):
    """A PD law for the given gains."""

    def control(error, rate):
        return -kp * error - kd * jnp.tanh(rate)

    return control
'''

PLANT = '''\
"""A damped pendulum driven by a controller, simulated under jit."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("controller", "steps"))
def simulate(theta0, controller, steps=50, dt=0.05):
    def step(state, _):
        theta, omega = state
        torque = controller(theta, omega)
        omega = omega + dt * (-jnp.sin(theta) + torque)
        return (theta + dt * omega, omega), theta

    _, path = jax.lax.scan(step, (theta0, jnp.zeros_like(theta0)), None, length=steps)
    return path
'''

TUNE = '''\
"""Grid search over the controller's gains."""

import json
from pathlib import Path

import jax.numpy as jnp

from gains import make_controller
from plant import simulate


def cost(kp, kd, theta0):
    controller = make_controller(kp, kd)
    # the same initial angle for every candidate
    path = simulate(theta0, controller=controller)
    return float(jnp.mean(path**2))


def search(theta0):
    return [cost(kp, kd, theta0) for kp in (0.5, 1.0, 2.0) for kd in (0.1, 0.4)]


if __name__ == "__main__":
    Path(__file__).with_name("out.json").write_text(json.dumps(search(jnp.float32(0.8))))
'''
TUNING = {"gains.py": GAINS, "plant.py": PLANT, "tune.py": TUNE}


def test_a_factory_passed_once_and_called_with_the_values_where_it_is_jitted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The controller made per candidate: the factory itself is the static argument (the same object
    every call), the gains go in traced and the jitted function makes the controller when traced.
    The factory's module is read, not changed."""
    root = project(tmp_path, monkeypatch, TUNING)
    assert codes(".") == [("tune.py", "RTL204")]
    assert fixed_once(root, "plant.py") == PLANT.replace(
        "def simulate(theta0, controller, steps=50, dt=0.05):\n",
        "def simulate(theta0, controller, steps=50, dt=0.05, *, kp, kd):\n"
        "    controller = controller(kp=kp, kd=kd)\n",
    )
    assert (root / "tune.py").read_text(encoding="utf-8") == TUNE.replace(
        "    controller = make_controller(kp, kd)\n", ""
    ).replace(
        "simulate(theta0, controller=controller)",
        "simulate(theta0, controller=make_controller, kp=kp, kd=kd)",
    )
    assert (root / "gains.py").read_text(encoding="utf-8") == GAINS


# Factories whose call cannot move into the trace (they do more than make the function, or what
# they are made from changes before the call): made a pytree where they are made instead.
FACTORY_EDITS = [
    ("    return control\n", "    print(kp, kd)\n    return control\n"),  # logs once per candidate
    ("    # the same initial", "    kp = kp * 2\n    # the same initial"),  # the old gain is bound
    (
        "    path = simulate(",
        "    for kd in (kd, 2 * kd):\n        path = simulate(",
    ),  # rebinds a gain
]


@pytest.mark.parametrize("edit", FACTORY_EDITS)
def test_a_factory_whose_call_cannot_move_into_the_trace_returns_a_pytree_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: tuple[str, str]
):
    files = {name: text.replace(*edit) for name, text in TUNING.items()}
    root = project(tmp_path, monkeypatch, files)
    gains = files["gains.py"]
    assert fixed_once(root, "gains.py") == gains.replace(
        '"""\n\nimport jax.numpy', '"""\nimport jax\n\nimport jax.numpy'
    ).replace(
        "\n\ndef make_controller",
        "\n\ndef control(kp, kd, error, rate):\n    return -kp * error - kd * jnp.tanh(rate)\n\n\n"
        "def make_controller",
    ).replace(
        "    def control(error, rate):\n        return -kp * error - kd * jnp.tanh(rate)\n\n", ""
    ).replace("    return control\n", "    return jax.tree_util.Partial(control, kp, kd)\n")
    assert (root / "plant.py").read_text(encoding="utf-8") == files["plant.py"].replace(
        'static_argnames=("controller", "steps")', 'static_argnames="steps"'
    )
    assert (root / "tune.py").read_text(encoding="utf-8") == files["tune.py"]


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_fixes_of_two_files_once_and_they_give_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The lambda made once (two files), the factory passed once (two of three files), and the
    factory made a pytree where what it is made from changes before the call."""
    programs = {"filters": ({**TWO_MODULES, "run.py": RUN}, "run.py", "run_filter", 2)}
    programs["tuning"] = (TUNING, "tune.py", "simulate", 5)
    rebound = {name: text.replace(*FACTORY_EDITS[1]) for name, text in TUNING.items()}
    programs["rebound"] = (rebound, "tune.py", "simulate", 5)
    proved_by_jax(tmp_path, monkeypatch, programs)


# A trajectory-length sampler made by a factory per warm-up round (jittered HMC), passed to a kernel
# jitted in another module: the closed-over mean goes into jax.random.randint's bounds, which take a
# traced value, so it becomes a traced argument (a static one would re-trace whenever tuning moves it).
STEPS = '''\
"""Random trajectory lengths for jittered HMC."""

import jax


def make_jitter_steps(avg_steps):
    """A uniform number of leapfrog steps in [1, 2 * avg_steps)."""

    def steps_fn(key):
        return jax.random.randint(key, (), 1, 2 * avg_steps)

    return steps_fn
'''

KERNEL = '''\
"""A kernel that draws how many times it moves."""

from functools import partial

import jax


@partial(jax.jit, static_argnames=("steps_fn",))
def jittered_walk(key, position, steps_fn):
    key_steps, key_move = jax.random.split(key)
    n = steps_fn(key_steps)
    return position + n * jax.random.normal(key_move, position.shape)
'''

WARMUP = '''\
"""Warm-up rounds that lengthen the trajectories."""

import jax
import jax.numpy as jnp

from kernel import jittered_walk
from steps import make_jitter_steps


class Sampler:
    def __init__(self, avg_steps=3):
        self.avg_steps = avg_steps

    def run_block(self, key, position):
        steps_fn = make_jitter_steps(self.avg_steps)
        return jittered_walk(key, position, steps_fn)

    def tune(self):
        self.avg_steps = self.avg_steps + 1


sampler = Sampler()
position = jnp.zeros(2)
for round_idx in range(3):
    position = sampler.run_block(jax.random.PRNGKey(round_idx), position)
    sampler.tune()
'''
JITTER = {"steps.py": STEPS, "kernel.py": KERNEL, "warmup.py": WARMUP}
# the factory passed itself: the kernel makes the sampler of the mean it is given
KERNEL_FIXED = KERNEL.replace(
    "def jittered_walk(key, position, steps_fn):\n",
    "def jittered_walk(key, position, steps_fn, *, avg_steps):\n"
    "    steps_fn = steps_fn(avg_steps=avg_steps)\n",
)


def test_random_bounds_closed_over_become_traced_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(tmp_path, monkeypatch, JITTER)
    assert codes(".") == [("warmup.py", "RTL204")]
    assert fixed_once(root, "kernel.py") == KERNEL_FIXED
    assert (root / "warmup.py").read_text(encoding="utf-8") == WARMUP.replace(
        "        steps_fn = make_jitter_steps(self.avg_steps)\n", ""
    ).replace(
        "jittered_walk(key, position, steps_fn)",
        "jittered_walk(key, position, make_jitter_steps, avg_steps=self.avg_steps)",
    )


def test_a_closed_over_random_shape_that_tuning_changes_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The value is the draw's shape, not a bound: the kernel needs it static, and tune() changes it,
    so a static one would re-trace as often as the fresh callable did."""
    shaped = {**JITTER, "steps.py": STEPS.replace("(), 1, 2 * avg_steps", "(avg_steps,), 1, 4")}
    root = project(tmp_path, monkeypatch, shaped)
    # passing the value static is refused; the last fix tried (a pytree of the closure) says why
    assert refusal(root).endswith(
        "RTL204 not fixed: make_jitter_steps's function needs avg_steps static: gives"
        " jax.random.randint an argument that is not known to take a traced value"
    )
    assert (root / "kernel.py").read_text(encoding="utf-8") == KERNEL


def test_a_closed_over_random_shape_that_does_not_change_stays_static(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    steady = {
        **JITTER,
        "steps.py": STEPS.replace("(), 1, 2 * avg_steps", "(avg_steps,), 1, 4"),
        "warmup.py": WARMUP.replace("self.avg_steps = self.avg_steps + 1", "pass"),
    }
    root = project(tmp_path, monkeypatch, steady)
    assert fixed_once(root, "kernel.py") == KERNEL_FIXED.replace(
        'static_argnames=("steps_fn",)', 'static_argnames=("steps_fn", "avg_steps")'
    )
