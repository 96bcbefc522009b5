"""How often code runs, as the messages say it (issue 36, cause 2): a retry loop whose body returns
after its first pass runs it once, a jit built under a one-shot flag is built once, and a jit
memoised in a local of a function called per epoch stays reported."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import analyse

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _in_fixtures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)


def _copy_with_module(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fixture: str,
    name: str,
    module: str,
    text: str,
) -> tuple[Path, Result]:
    """A copy of a fixture under ``name`` with one more module, and what a default run prints."""
    folder = tmp_path / name
    shutil.copytree(FIXTURES / fixture, folder)
    monkeypatch.chdir(tmp_path)
    (folder / module).write_text(text, encoding="utf-8")
    return folder, CliRunner().invoke(main, ["check", name, "--no-cache", "--isolated"])


def _findings(folder: str) -> list[str]:
    result = CliRunner().invoke(
        main, ["check", folder, "--no-cache", "--isolated", "--confidence", "all"]
    )
    assert result.exit_code == 1, result.output
    return result.stdout.splitlines()  # the summary ("Found 1 error.") goes to stderr


def test_a_retry_loop_runs_its_body_once() -> None:
    """``for attempt in range(max_restarts): try: return fit(...) except ...: continue`` fits once:
    the jit ``fit`` makes is not reported; a loop over splits that skips a failed one repeats."""
    assert _findings("retries_that_return_after_one_pass") == [
        "retries_that_return_after_one_pass/fitting.py:27:6: RTL301 @jax.jit rebuilds score() each"
        " call of make_scorer(), so every call re-traces; build the jit once"
    ]


def test_a_flag_set_once_builds_once_and_a_local_memo_stays_reported() -> None:
    """``if ... and not switched: step_fn = jax.jit(partial(...)); switched = True`` builds the
    jit once: no finding. ``if predict is None: predict = jax.jit(...)`` in a loop of ``evaluate``
    is built again at each call, once per epoch: still reported (round 4's algoperf finding, whose
    evaluations the linker does not see repeat, rests on this)."""
    found = _findings("jits_built_once_under_a_flag")
    assert [line.split(" RTL")[0] for line in found] == [
        "jits_built_once_under_a_flag/evaluation.py:13:23:"
    ]
    assert "RTL301 jax.jit rebuilds a jitted bound method" in found[0]  # no fix: a memo already


def test_a_local_memo_is_not_hoisted_above_its_loop() -> None:
    """Hoisting the memoised jit above the batch loop would still build it at every call of
    ``evaluate``: ``--diff`` leaves the file alone and says why."""
    result = CliRunner().invoke(
        main, ["check", "jits_built_once_under_a_flag", "--no-cache", "--isolated", "--diff"]
    )
    assert result.stdout == ""
    assert (
        "evaluation.py:13:23: RTL301 not fixed: it is built once per call already"
        " (under `if predict is None:`)" in result.stderr
    )


def test_jits_kept_by_objects_made_at_setup_are_not_reported() -> None:
    """Generators made at set-up (a comprehension, an append loop, a subclass whose base jits) keep
    a jit each and call it at every step: as many traces as generators, not reported (FRESH_ROUND_7,
    policy-guided-diffusion offline_rollout.py:31). A scorer made per step, and augmenters a helper
    makes again per step, are as many as the steps: still errors."""
    found = _findings("jits_kept_by_objects_made_at_setup")
    assert found == [
        "jits_kept_by_objects_made_at_setup/generators.py:37:27: RTL301 jax.jit rebuilds a jitted"
        " nested def each call of Augmenter.__init__(), so every call re-traces; build the jit once",
        "jits_kept_by_objects_made_at_setup/scoring.py:8:23: RTL301 jax.jit rebuilds a jitted lambda"
        " each call of Scorer.__init__(), so every call re-traces; build the jit once",
    ]


_TRAINER = """
import jax


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self._jit_train_step = None

    def _pjit_train_step(self):
        return jax.jit(self._train_step)

    def _train_step(self, state, batch):
        return state + batch.sum()

    def compile_train_step(self, state, batch):
        jit_train_step = self._jit_train_step or self._pjit_train_step()
        return jit_train_step.lower(state, batch).compile()

    def prepare(self):
        self._jit_train_step = self._pjit_train_step()
"""

_LOOP = """
from trainer import Trainer


def run(cfg, loader):
    trainer = Trainer(cfg)
    trainer.prepare()
    state = 0.0
    for batch in loader:
        step = trainer.compile_train_step(state, batch)
        state = step(state, batch)
    return state
"""


def test_a_jit_kept_on_the_object_behind_or_is_built_once(tmp_path: Path) -> None:
    """``self._jit_train_step or self._pjit_train_step()`` in a method called per batch builds the
    jit only while the attribute is unset, and ``prepare`` stores what ``_pjit_train_step`` returns
    there: once per trainer, no finding. Without the store it is built per batch."""
    (tmp_path / "trainer.py").write_text(_TRAINER, encoding="utf-8")
    (tmp_path / "loop.py").write_text(_LOOP, encoding="utf-8")
    run = analyse([str(tmp_path)], Settings(cache=False))
    assert [(f.location.line, f.code) for f in run.findings] == []
    (tmp_path / "trainer.py").write_text(
        _TRAINER.replace("self._jit_train_step = self._pjit_train_step()", "pass"),
        encoding="utf-8",
    )
    run = analyse([str(tmp_path)], Settings(cache=False))
    assert [(f.location.line, f.code, f.severity) for f in run.findings] == [
        (11, "RTL301", "error")
    ]


def test_a_jit_wrapper_object_per_distribution_built_at_setup_is_not_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """jits_kept_per_distribution_negative: a picklable jit wrapper class jits what it holds once
    per object; a composite distribution builds one per component in comprehensions of its own
    ``__init__``, and the policy builds its greedy jit under ``if not hasattr(self, ...)``: each
    traced once, no finding (coax, round 8). The same wrapper made per batch around a new lambda
    re-traces at every batch, and is reported at the wrapper's jax.jit, driven by that loop."""
    folder = tmp_path / "agents_project"
    shutil.copytree(FIXTURES / "jits_kept_per_distribution_negative", folder)
    monkeypatch.chdir(tmp_path)
    clean = CliRunner().invoke(main, ["check", "agents_project", "--no-cache", "--isolated"])
    assert (clean.exit_code, clean.stdout) == (0, "")
    (folder / "scoring.py").write_text(
        "import jax.numpy as jnp\n"
        "from agents.jitting import jit\n"
        "\n"
        "\n"
        "def score_all(batches, scale):\n"
        "    out = []\n"
        "    for batch in batches:\n"
        "        scorer = jit(lambda x: jnp.sum(x) * scale)\n"
        "        out.append(scorer(batch))\n"
        "    return out\n",
        encoding="utf-8",
    )
    assert [line.split(" jax.jit")[0] for line in _findings("agents_project")] == [
        "agents_project/agents/jitting.py:29:29: RTL301"
    ]
    (finding,) = analyse([str(folder)], Settings(cache=False, confidence="all")).findings
    assert finding.details[-1].endswith(f"called in the loop at {folder / 'scoring.py'}:8)")


def test_jits_built_once_per_sweep_point_and_used_by_their_own_epochs_loop() -> None:
    """jits_built_per_sweep_point: a sweep over spelled-out frequencies, activations and rates
    trains a new network on a new problem per point; ``train`` builds the network (whose factory
    jits ``forward``) and a jitted ``update``, then runs its epochs loop with both: one trace per
    run, each a new problem (FRESH_ROUND_11 cause 1, JINNAX ``nn.py``, myriad-jax's runners). Not
    reported by default; ``--confidence all`` shows both, saying why they are doubtful: ``forward``
    calls the activation it closes over and ``update`` the problem's loss, another per point (another
    program however it is built)."""
    clean = CliRunner().invoke(
        main, ["check", "jits_built_per_sweep_point", "--no-cache", "--isolated"]
    )
    assert (clean.exit_code, clean.stdout) == (0, "")
    assert _findings("jits_built_per_sweep_point") == [
        "jits_built_per_sweep_point/networks.py:19:6: RTL301 [warning] @jax.jit rebuilds forward()"
        " each call of make_mlp(), so every call re-traces; build the jit once [low confidence:"
        " `activation` makes another computation: one trace per item, each item its own computation]",
        "jits_built_per_sweep_point/training.py:14:6: RTL301 [warning] @jax.jit rebuilds update()"
        " each call of train(), so every call re-traces; build the jit once [low confidence:"
        " `problem` makes another computation: one trace per item, each item its own computation]",
    ]


_PER_STEP = """
import jax

from networks import make_mlp
from problems import Problem


def distil(teacher_params, steps):
    problem = Problem(2, n_points=64)
    for step in range(steps):
        student = make_mlp([1, 8, 1], jax.nn.relu, jax.random.PRNGKey(step))
        print(problem.loss(student["forward"], student["params"]))
"""


def test_the_same_factory_called_per_step_stays_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The factory of the sweep fixture called at every step of a training loop builds and traces a
    new ``forward`` per step: an error, reported by default, driven by that loop. So is the
    fixture's ``train`` once the sweep's points all pass the same problem and settings: the same
    jit built again per point, which a jit built once would not re-trace."""
    folder, found = _copy_with_module(
        tmp_path, monkeypatch, "jits_built_per_sweep_point", "sweep_project", "distil.py", _PER_STEP
    )
    assert found.exit_code == 1
    assert found.stdout.splitlines() == [
        "sweep_project/networks.py:19:6: RTL301 @jax.jit rebuilds forward() each call of"
        " make_mlp(), so every call re-traces; build the jit once"
    ]
    (finding,) = analyse([str(folder)], Settings(cache=False)).findings
    assert finding.details[-1].endswith(f"called in the loop at {folder / 'distil.py'}:11")
    assert finding.assumptions == ()
    (folder / "distil.py").unlink()
    sweep = (folder / "sweep.py").read_text(encoding="utf-8")
    same = sweep.replace(
        "problem, [1, 32, 32, 1], activation, lr, epochs, key",
        "base, widths, jnp.tanh, 0.1, epochs, key0",
    ).replace(
        "    results = {}\n",
        "    results = {}\n"
        "    base, widths, key0 = Problem(1, n_points=64), [1, 8, 1], jax.random.PRNGKey(0)\n",
    )
    assert same.count("key0") == 2
    (folder / "sweep.py").write_text(same, encoding="utf-8")
    again = CliRunner().invoke(main, ["check", "sweep_project", "--no-cache", "--isolated"])
    assert [line.split(" @jax.jit")[0] for line in again.stdout.splitlines()] == [
        "sweep_project/networks.py:19:6: RTL301 [warning]",
        "sweep_project/training.py:14:6: RTL301 [warning]",
    ]


def test_jits_built_per_run_per_configuration_and_per_device_are_unproven() -> None:
    """jits_built_per_run_negative: ``fit`` builds its update (and, through a factory, its loss)
    once per configuration of a sweep and runs its epochs loop with them; a benchmark builds a
    jitted predict per device (under ``jax.default_device``), warms it up and times it in a loop.
    Each build serves a run of its own, or gets something new (a configuration, a device): the
    rate of rebuilds per use is not proven, so nothing is shown by default (JAX 0.10.2: 19 traces
    at 2 and at 6 steps). ``--confidence all`` says why each is doubtful."""
    clean = CliRunner().invoke(
        main, ["check", "jits_built_per_run_negative", "--no-cache", "--isolated"]
    )
    assert (clean.exit_code, clean.stdout) == (0, "")
    head = "jits_built_per_run_negative/"
    assert [
        line.split(" so every call re-traces; build the jit once ")[1]
        for line in _findings("jits_built_per_run_negative")
    ] == [
        '[low confidence: `config["activation"]` makes another computation: one trace per item,'
        " each item its own computation]",
        "[low confidence: used in a loop of time_predict() that does not rebuild it]",
        "[low confidence: used in a loop of fit() that does not rebuild it]",
    ]
    assert [line.split(": RTL301")[0] for line in _findings("jits_built_per_run_negative")] == [
        f"{head}models.py:15:6",
        f"{head}models.py:26:6",
        f"{head}trainer.py:12:6",
    ]


_MONITOR = """
import jax
import jax.numpy as jnp

from models import init_params, make_loss, make_predict


def monitor(x, y, steps):
    params = init_params(8, jax.random.PRNGKey(2))
    total = 0.0
    for step in range(steps):
        loss = make_loss(jnp.tanh, 0.0)
        predict = make_predict(jax.nn.relu)
        total += float(loss(params, x, y)) + float(predict(params, x).sum())
    return total


if __name__ == "__main__":
    x = jnp.ones((4, 1))
    print(monitor(x, x, 10))
"""


def test_the_per_run_factories_called_per_step_stay_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The factories of jits_built_per_run_negative called at every step of a loop, with the same
    arguments, each jit called once per build: a new trace per step that one build would save,
    an error shown by default, driven by that loop, with no assumption."""
    folder, found = _copy_with_module(
        tmp_path, monkeypatch, "jits_built_per_run_negative", "per_step", "monitor.py", _MONITOR
    )
    assert found.exit_code == 1
    assert [line.split(" rebuilds")[0] for line in found.stdout.splitlines()] == [
        "per_step/models.py:15:6: RTL301 @jax.jit",
        "per_step/models.py:26:6: RTL301 @jax.jit",
    ]
    findings = analyse([str(folder)], Settings(cache=False)).findings
    assert [(f.severity, f.assumptions) for f in findings] == [("error", ())] * 2
    assert [f.details[-1].rpartition(" called in the loop at ")[2] for f in findings] == [
        f"{folder / 'monitor.py'}:12",
        f"{folder / 'monitor.py'}:13",
    ]


def test_a_body_per_mode_or_model_family_is_shown_only_with_its_assumption() -> None:
    """Round 17 (goal-jax): a chunked eager scan over a body defined per call, called once per
    training mode or model family, traces each body once, for another computation each time: the
    default run shows only the filter scanned per draw, the relax at three rates and the flights
    whose scenarios only make the scan's commands (round 15's true finding); ``--confidence
    all`` shows the others with what they rest on. Round 17 (allen): a jit built per benchmark
    configuration likewise, and no RTL302 for the cache cleared between configurations."""
    folders = ["scan_bodies_per_mode_and_family", "jits_built_per_benchmark_configuration"]
    shown = CliRunner().invoke(main, ["check", *folders, "--no-cache", "--isolated"])
    assert [line.split(": RTL")[0] for line in shown.stdout.splitlines()] == [
        "jits_built_per_benchmark_configuration/main.py:28:9",
        "jits_built_per_benchmark_configuration/trainer.py:30:6",
        "scan_bodies_per_mode_and_family/scenarios.py:26:25",
        "scan_bodies_per_mode_and_family/smoothing.py:15:29",
        "scan_bodies_per_mode_and_family/smoothing.py:22:25",
    ]
    every = [line for folder in folders for line in _findings(folder)]
    hidden = [line for line in every if "low confidence" in line]
    assert [line.split("[low confidence: ")[1] for line in hidden] == [
        "`mode` is new at each iteration: each trace may be needed anyway]",
        "`mode` is new at each iteration: each trace may be needed anyway]",
        "`model` is new at each iteration: each trace may be needed anyway]",
        "`trainer` makes another computation: one trace per item, each item its own computation]",
    ]
    assert [line.split(": ")[0] for line in every if "RTL302" in line] == [
        "jits_built_per_benchmark_configuration/main.py:28:9"
    ]


WORKERS = {
    "agents/policy.py": """\
import jax
import jax.numpy as jnp


class Policy:
    def __init__(self, weights, gain):
        self.weights = weights
        self.gain = gain

    def act(self, obs):
        head = jax.jit(lambda o: jnp.tanh(self.gain * o @ self.weights))
        return head(obs)
""",
    "agents/__init__.py": "",
}


def _workers_run(steps: str) -> str:
    return f"""\
import jax.numpy as jnp

from agents.policy import Policy

workers = [Policy(jnp.eye(2), gain=float(g)) for g in range(3)]
{steps}
"""


@pytest.mark.parametrize(
    ("loop", "shown"),
    [
        # each worker acts once: one build per point, each may need its own trace
        ("for worker in workers:\n    worker.act(jnp.ones(2))\n", False),
        # a step loop walks the same workers again: a build per worker, made once, serves them all
        (
            "for step in range(1000):\n    for worker in workers:\n        worker.act(jnp.ones(2))\n",
            True,
        ),
    ],
)
def test_a_build_per_point_is_proven_where_steps_walk_the_points_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loop: str, shown: bool
) -> None:
    for name, text in {**WORKERS, "run.py": _workers_run(loop)}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", ".", "--no-cache", "--isolated"])
    finding = (
        "agents/policy.py:11:16: RTL301 jax.jit rebuilds a jitted lambda each call of Policy.act(),"
        " so every call re-traces; build the jit once"
    )
    assert result.stdout.splitlines() == ([finding] if shown else []), result.stdout


def test_a_jit_per_distinct_computation_is_shown_only_with_its_assumption() -> None:
    """Round 18 (tesseract-jax, cosmocnc_jax): a jit built per batching pattern (``in_axes`` from
    the loop's item, here and through a helper in another module), per kernel of a benchmark or
    per size of a size sweep traces once per point however it is built: hidden by default, shown
    with what it rests on (the size sweep's RTL105 stays shown). A jit per scale baked into a
    partial (data a jit built once could take traced) and one built per step with a fixed
    pattern stay shown."""
    folder = "jits_per_distinct_computation"
    shown = CliRunner().invoke(main, ["check", folder, "--no-cache", "--isolated"])
    assert [line.split(": RTL")[0] for line in shown.stdout.splitlines()] == [
        f"{folder}/bench.py:37:15",
        f"{folder}/bench.py:42:16",
        f"{folder}/bench.py:48:18",
    ]
    hidden = [line for line in _findings(folder) if "low confidence" in line]
    needed = ": one trace per item, each item its own computation]"
    assert [(line.split(": RTL")[0], line.split("[low confidence: ")[1]) for line in hidden] == [
        (f"{folder}/bench.py:15:18", "`axes` makes another computation" + needed),
        (f"{folder}/bench.py:23:19", "`label, kernel_fn` makes another computation" + needed),
        (f"{folder}/bench.py:33:10", "`jnp.ones(n)` takes another shape" + needed),
        (f"{folder}/kernels.py:26:12", "`axes` makes another computation" + needed),
    ]


_PER_DRAW = """
import jax.numpy as jnp

from counts import NumberCounts


def sample_reinitialised(counts, draws):
    out = []
    for lo in draws:
        counts.initialise()
        out.append(counts.get_log_lik(lo, lo + 1.0))
    return out


if __name__ == "__main__":
    nc = NumberCounts([["a"], ["a", "b"]], 16)
    print(sample_reinitialised(nc, [jnp.zeros(4)] * 100))
"""


def test_jits_built_per_set_at_initialise_and_only_read_per_sample_are_no_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 18 (cosmocnc_jax): ``initialise`` builds one jitted forward model per set of
    observables, kept in a dict on the object, and each sample only reads them: one trace per
    set, no finding. The same object initialised again at every draw rebuilds them per draw: an
    error, driven by the builder's loop."""
    clean = CliRunner().invoke(
        main, ["check", "jits_built_per_set_at_initialise", "--no-cache", "--isolated"]
    )
    assert (clean.exit_code, clean.stdout) == (0, "")
    folder, found = _copy_with_module(
        tmp_path,
        monkeypatch,
        "jits_built_per_set_at_initialise",
        "per_draw",
        "per_draw.py",
        _PER_DRAW,
    )
    assert found.exit_code == 1
    assert [line.split(" rebuilds")[0] for line in found.stdout.splitlines()] == [
        "per_draw/forward.py:10:12: RTL301 jax.jit"
    ]
    findings = analyse([str(folder)], Settings(cache=False)).findings
    assert [(f.severity, f.assumptions) for f in findings] == [("error", ())]


def test_builds_per_item_of_another_program_are_shown_only_with_their_assumption() -> None:
    """Round 19 (qpm, unitree-go2-mjx-rl): a jit per call of a helper given widths that a dict's
    constructors make (3 or 2 domains per period), an eager scan whose step closes over a table
    as long as the loop's resolution makes it, and an environment's reset and unroll built per
    experiment named on the command line, each from that experiment's configuration, are another
    program per item: hidden by default, shown with what differs. The same helpers given data
    per item (snapped widths of one length, a decay, the same terrain per seed) stay shown."""
    folder = "builds_per_computation_of_an_item"
    shown = CliRunner().invoke(main, ["check", folder, "--no-cache", "--isolated"])
    assert [line.split(": RTL")[0] for line in shown.stdout.splitlines()] == [
        f"{folder}/envs.py:58:16",
        f"{folder}/simulate.py:21:13",
        f"{folder}/simulate.py:45:21",
    ]
    hidden = [line for line in _findings(folder) if "low confidence" in line]
    needed = ": one trace per item, each item its own computation]"
    assert [(line.split(": RTL")[0], line.split("[low confidence: ")[1]) for line in hidden] == [
        (f"{folder}/envs.py:42:24", "`evaluation_env` makes another computation" + needed),
        (f"{folder}/envs.py:51:16", "`env` makes another computation" + needed),
        (f"{folder}/simulate.py:15:13", "`widths` is computed by another function" + needed),
        (f"{folder}/simulate.py:34:21", "`dx` makes another computation" + needed),
    ]


def test_a_jit_per_constraint_object_or_constructor_setting_is_another_program() -> None:
    """A jit per constraint kind whose function hands the kind's object to a method that calls it
    (a parameter declared as a class with methods), a Hessian product per side function bound in a
    partial, a rollout's step per substep count given to its constructor: each build is another
    program, traced once however it is built, hidden by default and shown with what differs. The
    same loops building a closure over a target array, or the same rollout at every repetition,
    stay shown."""
    folder = "builds_per_constraint_object"
    shown = CliRunner().invoke(main, ["check", folder, "--no-cache", "--isolated"])
    assert shown.exit_code == 1
    assert [line.split(": RTL")[0] for line in shown.stdout.splitlines()] == [
        f"{folder}/main.py:22:13",
        f"{folder}/optimizer.py:63:27",
    ]
    hidden = [line for line in _findings(folder) if "low confidence" in line]
    needed = ": one trace per item, each item its own computation]"
    assert [(line.split(": RTL")[0], line.split("[low confidence: ")[1]) for line in hidden] == [
        (f"{folder}/main.py:16:18", "`n` makes another computation" + needed),
        (f"{folder}/optimizer.py:41:23", "`constraint` makes another computation" + needed),
        (f"{folder}/optimizer.py:42:19", "`constraint` makes another computation" + needed),
        (f"{folder}/optimizer.py:52:19", "`side` makes another computation" + needed),
    ]


def test_run_files_from_the_command_line_are_another_program_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A script that plots every run file its command line names (``paths.extend(sorted(glob(raw))
    or [raw])`` per ``raw`` of an ``nargs`` option) rebuilds each file's task, and the cost helpers
    six calls down jit a lambda over its obstacles and a bound method of its object model: one
    trace per file whatever is hoisted. Shown only with that assumption; the same list filled with
    names a counter makes (as many as the run asks) stays proven, and so does the monitor that
    rebuilds the same task's jits at every step (``plots_per_training_step``)."""
    assert (
        CliRunner().invoke(main, ["check", "plots_per_run_file", "--no-cache", "--isolated"]).stdout
        == ""
    )
    assert _findings("plots_per_run_file") == [
        "plots_per_run_file/costs.py:9:23: RTL301 [warning] jax.jit rebuilds a jitted transformed"
        " function each call of _per_step(), so every call re-traces; build the jit once [low"
        " confidence: `lambda p: obstacles.hinge_cost(p, weight, margin)` makes another computation"
        ": one trace per item, each item its own computation]",
        "plots_per_run_file/costs.py:17:23: RTL301 [warning] jax.jit rebuilds a jitted transformed"
        " function each call of _world_boundary(), so every call re-traces; build the jit once [low"
        " confidence: `task.object_model` makes another computation: one trace per item, each item"
        " its own computation]",
    ]
    script = FIXTURES / "plots_per_run_file" / "scripts" / "plot_runs.py"
    counted = script.read_text(encoding="utf-8").replace(
        "paths.extend(sorted(glob.glob(raw)) or [raw])",
        'paths.extend(f"{raw}-{i}.json" for i in range(int(raw)))',
    )
    _, result = _copy_with_module(
        tmp_path, monkeypatch, "plots_per_run_file", "counted", "scripts/plot_runs.py", counted
    )
    # both per-step jits of costs.py, one cause of the loop over the run files: told once
    [told] = result.stdout.splitlines()
    assert told.startswith("counted/costs.py:17:23: RTL")
    assert told.endswith("(and 1 more of this cause: line 9)")


def _severities(folder: str) -> dict[tuple[str, int, str], str]:
    run = analyse([folder], Settings(cache=False))
    return {(Path(f.location.path).name, f.location.line, f.code): f.severity for f in run.findings}


def test_a_model_per_time_window_or_a_grid_of_checks_is_a_warning_per_epoch_or_step_an_error() -> (
    None
):
    """A model built per window of ``range(config.training.num_time_windows)`` (a count of phases,
    though its name holds "time") and trained for the run's steps re-traces once per window; 3
    axes by 6 spelled-out scales run 18 eager solves, a fixed grid. Both are warnings. A model built
    per epoch of ``range(config.training.num_epochs)`` and an eager solve per step of the rollout
    grow with the run: errors. tests/test_fixtures_dynamic.py runs it: JAX agrees."""
    assert _severities("phases_of_a_run") == {
        ("train.py", 22, "RTL204"): "warning",
        ("contact.py", 12, "RTL301"): "warning",
        ("train.py", 31, "RTL204"): "error",
        ("contact.py", 26, "RTL301"): "error",
    }


_WINDOWS = """
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def anneal(x, phase):
    return x * 0.5**phase


def run_phases(x, {count}):
    for phase in range({count}):
        x = anneal(x, phase)
    return x


def main():
    run_phases(jnp.ones(3), {count}=int(input()))
"""


@pytest.mark.parametrize(
    ("count", "severity"),
    [
        ("num_windows", "warning"),
        ("n_seeds", "warning"),
        ("numTimeWindows", "warning"),
        ("num_steps", "error"),
        ("max_iters", "error"),
        ("epochs_per_stage", "error"),
        ("n", "error"),
    ],
)
def test_a_range_over_a_count_of_phases_is_a_warning_one_over_steps_an_error(
    tmp_path: Path, count: str, severity: str
) -> None:
    """The word a count counts decides: windows, seeds (before ``per``: ``epochs_per_stage`` counts
    epochs); a bare or unnamed count may be the run's length."""
    (tmp_path / "phases.py").write_text(_WINDOWS.format(count=count), encoding="utf-8")
    assert list(_severities(str(tmp_path)).values()) == [severity]
