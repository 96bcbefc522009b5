"""A long-lived process (the language server) runs the rules after an edit taking over what the
project's last run found of the whole call graph (``frequency.Found``: the runtime functions, what
repeats each, the entry points) where the edit changed none of what it was found from, and asking
again what else it read. Each edit here, of one module, changes a finding in another; after each,
the findings are those of a cold command-line run, and the spies say what was found again."""

from __future__ import annotations

import json
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_carried_results import ADVECTION as CARRIED

from retracelint import server
from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import analyse_projects
from retracelint.frequency import Frequency
from retracelint.session import Cancelled, Memory, Picked, Watch

MODEL = """
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.sum(x)


class Trainer:
    def __init__(self):
        self.widths = [1, 2, 3]

    def fit(self, x):
        # A collection the object holds: walked again, the same widths (while nothing else
        # stores there), so what ``once`` rebuilds is a few traces, a warning.
        for width in self.widths:
            self.once(x)

    def once(self, x):
        return jax.jit(lambda y: y * 2)(x)
"""

DATA = """
from lib import model


def run_one(x, n):
    return model.step(x[:n])
"""

TRAIN = """
import numpy as np

from lib import data, model


def configure(trainer):
    trainer.seen = 0


def main():
    x = np.ones(64)
    for n in range(1, 64):
        data.run_one(x, n)
    trainer = model.Trainer()
    configure(trainer)
    trainer.fit(x)


if __name__ == "__main__":
    main()
"""


RUN_EACH = """

def run_each(x):
    for k in range(2, 9):
        data.run_one(x, k)
"""


def _tree(root: Path, files: dict[str, str]) -> Path:
    for path, text in {"pyproject.toml": '[project]\nname = "proj"\n', **files}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    files = {"lib/__init__.py": "", "lib/model.py": MODEL, "lib/data.py": DATA}
    return _tree(tmp_path / "proj", {**files, "scripts/train.py": TRAIN})


@pytest.fixture()
def found_again(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which facts of the whole call graph each run found again instead of taking them over."""
    seen: list[str] = []
    for name, label in (("_reach_runtime", "runtime"), ("_drivers", "drivers")):
        original = getattr(Frequency, name)

        def spy(self: Frequency, original=original, label=label) -> object:
            seen.append(label)
            return original(self)

        monkeypatch.setattr(Frequency, name, spy)
    return seen


def _cold(root: Path) -> list[tuple]:
    done = CliRunner().invoke(
        main, ["check", "--no-cache", "--exit-zero", "--output-format", "json", str(root)]
    )
    assert done.exit_code == 0, done.output
    return [
        (f["path"], f["line"], f["code"], f["severity"], f["message"])
        for f in json.loads(done.stdout)
    ]


def _kept(root: Path, memory: Memory, cache: Path) -> list[tuple]:
    def settings_for(found: Path | None) -> Settings:
        return replace(server.settings_for(found), cache_dir=str(cache), jobs=1)

    run = analyse_projects([str(root)], settings_for, watch=Watch(memory))[1]
    return [(f.location.path, f.location.line, f.code, f.severity, f.message) for f in run.findings]


def test_edits_take_over_the_frequency_model_and_find_what_a_cold_run_finds(
    project: Path, tmp_path: Path, found_again: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    train, data = project / "scripts" / "train.py", project / "lib" / "data.py"
    rebuilt = ("RTL301", "warning")
    steps = [
        # The first run: all found.
        (train, ("", ""), ["runtime", "drivers"], [("RTL101", "error"), rebuilt]),
        # The loop passes one size: the slice in data.py no longer changes shape. The same calls.
        (train, ("data.run_one(x, n)", "data.run_one(x, 8)"), [], [rebuilt]),
        # Another module stores in what fit() walks: its loop no longer walks a collection the
        # object holds (what the drivers asked is asked again), and the rebuilt jit is an error.
        (
            train,
            ("trainer.seen = 0", "trainer.widths = sorted(np.random.rand(5))"),
            ["drivers"],
            [("RTL301", "error")],
        ),
        # A function added that calls nothing and that nothing calls: an entry point more.
        (data, ("", "\n\ndef unused():\n    return 1\n"), [], [("RTL301", "error")]),
        # A function that calls run_one in a loop (nothing calls it: a library's, which may run
        # under its caller's jit, a warning): the call graph changed, all is found again.
        (
            train,
            ("", RUN_EACH),
            ["runtime", "drivers"],
            [("RTL101", "warning"), ("RTL301", "error")],
        ),
        # main() calls it where it stored in what fit() walks: the call graph changed again.
        (
            train,
            ("trainer.widths = sorted(np.random.rand(5))", "run_each(x)"),
            ["runtime", "drivers"],
            [("RTL101", "warning"), rebuilt],
        ),
    ]
    for path, (old, new), again, shown in steps:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")
        cold = _cold(project)
        found_again.clear()
        now = _kept(project, memory, cache)
        assert now == cold, (path.name, new)
        assert found_again == again, (path.name, new)
        assert [f[2:4] for f in now] == shown, (path.name, new)


# The clock of test_carried_results's advection widens under x64.
ADVECTION = {
    "advance.py": CARRIED["advance.py"],
    "grid.py": CARRIED["grid.py"],
    # Two modules turn jax's 64-bit types on; the script imports one of them. (The other imports
    # advance.py, so that it is analysed: the project keeps x64 on whatever the script imports.)
    "precision.py": 'import jax\n\njax.config.update("jax_enable_x64", True)\n',
    "bench.py": 'import advance  # noqa: F401\nimport jax\n\njax.config.update("jax_enable_x64", True)\n',
    "main.py": """\
import precision  # noqa: F401
from advance import simulate
from grid import Grid

if __name__ == "__main__":
    print(simulate(Grid(16), 4)[1])
""",
}


def test_which_modules_run_with_x64_is_found_again_only_when_an_import_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock of ``simulate`` widens to float64 only where the script that runs it turns x64
    on: an edit of the script's imports, which changes no call, changes the finding in
    advance.py; an edit of a body keeps which modules run with x64 on."""
    from retracelint.callgraph.symbols import Symbols

    reach = Symbols.__dict__["_x64_reach"]
    counted: list[int] = []
    original = reach.func

    def spy(self: Symbols) -> object:
        counted.append(1)
        return original(self)

    monkeypatch.setattr(reach, "func", spy)
    root = _tree(tmp_path / "proj", ADVECTION)
    monkeypatch.chdir(root)
    memory, cache = Memory(), tmp_path / "cache"
    main, advance = root / "main.py", root / "advance.py"
    widened = [("RTL402", "warning")]
    # Each edit of the script adds a function, so that the rules run again (an edit of its
    # imports alone changes no fact they read but which modules run with x64 on: the last run's
    # findings are filtered, ``reuse``).
    steps = [
        (main, ("", ""), True, widened),
        # The step's default changes: what runs with x64 on is the same.
        (advance, ("1e-3, dtype", "2e-3, dtype"), False, widened),
        (main, ("import precision  # noqa: F401", "import os"), True, []),
        (main, ("import os", "import precision  # noqa: F401"), True, widened),
    ]
    for number, (path, (old, new), again, shown) in enumerate(steps):
        text = path.read_text(encoding="utf-8").replace(old, new, 1)
        if path == main:
            text += f"\n\ndef added_{number}():\n    return {number}\n"
        path.write_text(text, encoding="utf-8")
        cold = _cold(root)
        counted.clear()
        now = _kept(root, memory, cache)
        assert now == cold, (path.name, new)
        assert bool(counted) == again, (path.name, new)
        assert [f[2:4] for f in now] == shown, (path.name, new)


@pytest.fixture()
def walked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each run walked the whole project for to compare it with the last run's model:
    "graph" where it found the direct calls of every function, and the module of each traced
    root found again (by module: those of the others were taken over)."""
    seen: list[str] = []
    direct, roots = Frequency._direct_calls, Frequency._roots_of

    def direct_spy(self: Frequency) -> object:
        seen.append("graph")
        return direct(self)

    def roots_spy(self: Frequency, module: object) -> object:
        seen.append(module.module)  # type: ignore[attr-defined]
        return roots(self, module)

    monkeypatch.setattr(Frequency, "_direct_calls", direct_spy)
    monkeypatch.setattr(Frequency, "_roots_of", roots_spy)
    return seen


def test_an_edit_linked_alone_takes_the_call_graph_over_where_its_calls_run_the_same(
    project: Path,
    tmp_path: Path,
    found_again: list[str],
    walked: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After an edit of the script (no other module imports it: linked alone), the direct calls
    are the last run's but for the functions whose callers the edit changed, which are asked
    again, and only the script's traced roots are found again. A function handed to a transform,
    or a call added in a loop, changes what the model was found from: found again, and the
    findings are a cold run's."""
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    train = project / "scripts" / "train.py"
    everything = ["graph", "lib", "lib.data", "lib.model", "train"]
    steps = [
        # The first run walks it all.
        (
            ("", ""),
            everything,
            ["runtime", "drivers"],
            [("RTL101", "error"), ("RTL301", "warning")],
        ),
        # One size passed: a fact changed, the calls are the same.
        (("data.run_one(x, n)", "data.run_one(x, 8)"), ["train"], [], [("RTL301", "warning")]),
        # configure() handed to a transform at module level: a traced root more, from the script.
        (
            ("def main():", "traced = jax.vmap(configure)\n\n\ndef main():"),
            ["train"],
            ["runtime", "drivers"],
            [("RTL301", "warning")],
        ),
        # A second call of run_one in the loop: its callers changed, the graph with them.
        (
            ("data.run_one(x, 8)", "data.run_one(x, 8)\n        data.run_one(x, n)"),
            ["graph", "train"],
            ["runtime", "drivers"],
            [("RTL101", "error"), ("RTL301", "warning")],
        ),
    ]
    text = train.read_text(encoding="utf-8").replace(
        "import numpy as np", "import jax\nimport numpy as np"
    )
    train.write_text(text, encoding="utf-8")
    for (old, new), walks, again, shown in steps:
        text = train.read_text(encoding="utf-8")
        train.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")
        cold = _cold(project)
        found_again.clear()
        walked.clear()
        now = _kept(project, memory, cache)
        assert now == cold, new
        assert sorted(walked) == walks, new
        assert found_again == again, new
        assert [f[2:4] for f in now] == shown, new


def test_a_run_stopped_after_linking_one_module_again_leaves_its_link_to_no_run(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A newer edit stops a run between its stages. One stopped after it linked the edited script
    again, which takes the kept link's tables over and changes them (a function added, calling
    run_one in a loop), leaves that link to no run: the next edit of the script, another one,
    links from what the cache holds and finds what a cold run finds (it linked from the changed
    tables, and failed on the call of a function that no longer exists)."""
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    train = project / "scripts" / "train.py"
    text = train.read_text(encoding="utf-8")
    assert _kept(project, memory, cache) == _cold(project)

    def settings_for(found: Path | None) -> Settings:
        return replace(server.settings_for(found), cache_dir=str(cache), jobs=1)

    asked: list[None] = []

    def newer_edit() -> bool:
        asked.append(None)
        return len(asked) >= 2  # after summarising, then after linking

    train.write_text(text + RUN_EACH.replace("run_each", "run_more"), encoding="utf-8")
    with pytest.raises(Cancelled):
        analyse_projects([str(project)], settings_for, watch=Watch(memory, cancelled=newer_edit))
    train.write_text(text.replace("data.run_one(x, n)", "data.run_one(x, 8)"), encoding="utf-8")
    now = _kept(project, memory, cache)
    assert now == _cold(project)
    assert [f[2:4] for f in now] == [("RTL301", "warning")]


SCALE = """
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def scale(x, n):
    return x * n
"""

RUN = """
import numpy as np

from tools.helpers import scale


def main():
    x = np.ones(4)
    for n in range(10):
        scale(x, n)


if __name__ == "__main__":
    main()
"""


def test_a_file_added_is_imported_by_its_namespace_name_after_an_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import layout is the last run's while the files are the same: a module added under a
    folder without ``__init__.py`` is what ``tools.helpers`` names from then on, and removed, no
    longer, as a cold run finds."""
    project = _tree(tmp_path / "proj", {"run.py": RUN, "tools/notes.py": "N = 1\n"})
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    assert _kept(project, memory, cache) == _cold(project) == []
    helpers = project / "tools" / "helpers.py"
    helpers.write_text(textwrap.dedent(SCALE), encoding="utf-8")
    now = _kept(project, memory, cache)
    assert now == _cold(project)
    assert [(Path(f[0]).name, f[1], f[2]) for f in now] == [("run.py", 10, "RTL201")]
    helpers.unlink()
    assert _kept(project, memory, cache) == _cold(project) == []


def test_the_checks_of_the_whole_project_pick_again_from_the_edited_module_alone(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RTL302 and the carried flips look at the functions that clear jax's caches or carry a
    value: after an edit, only the edited module's are picked again (``session.Picked``), and
    a function the edit makes clear the caches is found (a cold run's findings)."""
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    picked_again: set[str] = set()
    names = Picked.names

    def spy(self: Picked, modules: dict, has) -> list[str]:
        before = dict(self._kept.get(has, {}))
        out = names(self, modules, has)
        picked_again.update(k for k, v in self._kept[has].items() if before.get(k) is not v)
        return out

    monkeypatch.setattr(Picked, "names", spy)
    _kept(project, memory, cache)
    assert {"lib.model", "lib.data", "train"} <= picked_again
    data = project / "lib" / "data.py"
    text = data.read_text(encoding="utf-8")
    clearing = "import jax\n" + text.replace(
        "    return model.step(x[:n])", "    jax.clear_caches()\n    return model.step(x[:n])"
    )
    # The clear added, then taken out again (the import left: not the text of a run before,
    # whose findings would be read back without running the rules).
    for edited, cleared in ((clearing, True), ("import jax\n" + text, False)):
        data.write_text(edited, encoding="utf-8")
        picked_again.clear()
        now = _kept(project, memory, cache)
        assert picked_again == {"lib.data"}
        assert now == _cold(project)
        assert ("RTL302" in {f[2] for f in now}) is cleared


AUDIO = """
import jax


@jax.jit
def attenuate(signal, gain):
    return signal * gain


def left(x):
    return attenuate(x, 0.5)
"""

MIXER = """
import jax.numpy as jnp

from lib import audio


def main():
    x = jnp.ones(8)
    for _ in range(10):
        audio.left(x)


if __name__ == "__main__":
    main()
"""

BOTH = """

def both(x):
    audio.attenuate(x, 0.5)
    return audio.attenuate(x, gain=0.5)
"""


def test_a_function_added_or_removed_that_calls_only_jitted_ones_keeps_the_model(
    tmp_path: Path, found_again: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A function added in another module that calls nothing but a jitted function changes none
    of the direct calls the frequency model was found from: the model is taken over, and the new
    function, which nothing calls, is an entry point that runs at run time, so its second call,
    the gain passed by keyword where its first passes it by position, is a second trace
    (RTL404). Removed again, the finding goes; each time as a cold run finds, nothing found
    again."""
    files = {"lib/__init__.py": "", "lib/audio.py": AUDIO, "scripts/mixer.py": MIXER}
    project = _tree(tmp_path / "proj", files)
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    mixer, audio = project / "scripts" / "mixer.py", project / "lib" / "audio.py"
    steps = [
        (mixer, MIXER, ["runtime", "drivers"], []),
        (mixer, MIXER + BOTH, [], [("scripts/mixer.py", "RTL404")]),
        (mixer, MIXER, [], []),  # the first run's files again: its findings
        # A fact of the jitted function's module changed: the model is the one found with
        # both() (the run before reused the first's findings), which is gone.
        (audio, AUDIO.replace("attenuate(x, 0.5)", "attenuate(x[:4], 0.5)"), [], []),
        # Again, the functions the same as the last run's.
        (audio, AUDIO.replace("attenuate(x, 0.5)", "attenuate(x[:2], 0.5)"), [], []),
    ]
    for path, text, again, shown in steps:
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        cold = _cold(project)
        found_again.clear()
        now = _kept(project, memory, cache)
        assert now == cold, text
        assert found_again == again, text
        assert [(Path(f[0]).relative_to(project).as_posix(), f[2]) for f in now] == shown, text
