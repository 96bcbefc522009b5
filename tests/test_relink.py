"""Linking one module again: after an edit of a module no other imports, or one that shows the others
what it showed them (its names, jit sites, classes, what each function takes and returns), a run
links only that module's calls, from the last run's links, where that finds what linking every
module finds. Every run here is compared with a run without any cache, link by link and finding by
finding."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from run_keys import finding_keys

from retracelint.callgraph import JitTarget, Project
from retracelint.config import Settings
from retracelint.engine import Run, analyse

MODEL = """
import jax
import jax.numpy as jnp


@jax.jit
def loss(params, batch):
    return jnp.mean((batch @ params["w"]) ** 2)


def apply_each(fn, batches):
    # ``fn`` is whatever the callers pass: linking reads the callers of apply_each.
    return [fn(b) for b in batches]


def squared(batch):
    return batch**2


def same_loss():
    return loss


def some_loss():
    return loss


def get_apply():
    return apply_each


def identity(fn):
    return fn


def half(batch):
    return batch / 2


def chosen():
    # What evaluate.py calls through ``model.chosen()(...)`` is what this call passes.
    return identity(loss)


def builder():
    # What evaluate.py calls through ``model.builder()(...)`` is what this call returns.
    return same_loss()
"""

TRAIN = """
from lib import model


def fit(params, data, steps):
    for step in range(steps):
        params = {"w": params["w"] - 0.1 * model.loss(params, data)}
    return params


def score_all(batches):
    # ``scorer`` is defined by no one yet: apply_each's call of ``fn`` calls nothing known.
    return model.apply_each(scorer, batches)
"""

EVALUATE = """
import jax.numpy as jnp

from lib import model


def mean_loss(params, batches):
    return sum(model.apply_each(lambda b: model.loss(params, b), batches)) / len(batches)


def report(params, data):
    print("loss", mean_loss(params, [data, data]))


def built_loss(params, data):
    return model.builder()(params, data)


def chosen_loss(params, data):
    return model.chosen()(params, data)
"""


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for path, text in {
        "lib/__init__.py": "",
        "lib/model.py": MODEL,
        "scripts/train.py": TRAIN,
        "scripts/evaluate.py": EVALUATE,
    }.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.fixture()
def relinked(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each link tried to link one module again, and did."""
    seen: list[bool] = []
    original = Project._relinked

    def spy(self: Project, last: object) -> bool:
        seen.append(original(self, last))  # type: ignore[arg-type]
        return seen[-1]

    monkeypatch.setattr(Project, "_relinked", spy)
    return seen


def _links(project: Project | None) -> tuple[object, ...]:
    assert project is not None
    state = project.link_state()
    used = {t for ts in state.site_targets.values() for t in ts if isinstance(t, JitTarget)}
    return (
        list(state.site_targets.items()),
        list(state.callers.items()),
        list(state.jit_callers.items()),
        [
            project.target_to(site, callee)
            for callee, sites in state.callers.items()
            for site in sites
        ],
        sorted(((t, f) for t, f in state.callees.items() if t in used), key=repr),
    )


def _runs(root: Path, cache: Path) -> tuple[Run, Run]:
    cached = analyse([str(root)], Settings(cache_dir=str(cache), jobs=1))
    fresh = analyse([str(root)], Settings(cache=False, jobs=1))
    assert finding_keys(cached) == finding_keys(fresh)
    assert [f.message for f in cached.findings] == [f.message for f in fresh.findings]
    assert _links(cached.project) == _links(fresh.project)
    return cached, fresh


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + textwrap.dedent(text), encoding="utf-8")


def test_a_function_added_to_a_script_links_only_the_script(
    project: Path, tmp_path: Path, relinked: list[bool]
) -> None:
    cache = tmp_path / "cache"
    first, _ = _runs(project, cache)
    assert not [f for f in first.findings if f.code == "RTL101"]
    _append(
        project / "scripts" / "evaluate.py",
        """

        def loss_by_prefix(params, data):
            for n in range(1, 8):
                print(n, model.loss(params, data[:n]))
        """,
    )
    again, _ = _runs(project, cache)
    assert relinked == [True]
    (new,) = [f for f in again.findings if f.code == "RTL101"]
    assert new.location.path.endswith("evaluate.py") and new.location.line == 25


# An edit (in a file: the text replaced, and what replaces it) and whether the next run links only the
# edited module (True) or all of them (False).
EDITS = {
    # apply_each calls what evaluate.py passes it: model.py's call of ``fn`` must be linked again.
    "an argument read by another module": (
        "scripts/evaluate.py",
        "lambda b: model.loss(params, b)",
        "jnp.mean",
        False,
    ),
    # model.py's call of ``fn`` read what mean_loss passes: found again, the same lambda.
    "a caller edited around what it passes": (
        "scripts/evaluate.py",
        "    return sum(",
        "    print(len(batches))\n    return sum(",
        True,
    ),
    # The other modules may name what changed.
    "a function added to an imported module": (
        "lib/model.py",
        "def apply_each(",
        "def unused():\n    return loss\n\n\ndef apply_each(",
        False,
    ),
    # What the other modules may read of model.py is as it was: its names, its jit sites, what
    # each function returns and takes; only a body changed.
    "a body of an imported module, its face kept": (
        "lib/model.py",
        "[fn(b) for b in batches]",
        "[fn(b[:8]) for b in batches]",
        True,
    ),
    # evaluate.py's call of ``model.builder()`` read the targets of builder's call (in the same
    # place: what builder returns is that call's result): found again, the same jit.
    "a call of an imported module that another reads, found again": (
        "lib/model.py",
        "return same_loss()",
        "return some_loss()",
        True,
    ),
    # ... or found otherwise: evaluate.py's call now calls another function.
    "a call of an imported module that another reads, found otherwise": (
        "lib/model.py",
        "return same_loss()",
        "return get_apply()",
        False,
    ),
    # evaluate.py's call of ``model.chosen()`` read what chosen's call passes: its targets are
    # the same, what it passes is not.
    "what a call of an imported module passes, read by another": (
        "lib/model.py",
        "return identity(loss)",
        "return identity(half)",
        False,
    ),
    # A function appended to an imported module, its name nowhere else: nothing else can read it.
    "a function appended to an imported module, named nowhere else": (
        "lib/model.py",
        "    return same_loss()\n",
        "    return same_loss()\n\n\ndef _unused_helper(x):\n    return x + 1\n",
        True,
    ),
    # evaluate.py calls ``model.builder()``: gone, that call calls nothing.
    "a function of an imported module removed, named by another": (
        "lib/model.py",
        "\n\ndef builder():\n    # What evaluate.py calls through ``model.builder()(...)`` is what"
        " this call returns.\n    return same_loss()\n",
        "",
        False,
    ),
    # score_all passes ``scorer`` to apply_each, whose call of ``fn`` reads it through its callers
    # (score_all's call is as it was): defined now, it is what that call runs.
    "a function added whose name the module already passes": (
        "scripts/train.py",
        "def score_all(",
        "def scorer(batch):\n    return batch\n\n\ndef score_all(",
        False,
    ),
    # What a function of an imported module returns is read by the others as they link.
    "what a function of an imported module returns": (
        "lib/model.py",
        "def same_loss():\n    return loss",
        "def same_loss():\n    return squared",
        False,
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edit_links_again_what_it_may_change(
    edit: str, project: Path, tmp_path: Path, relinked: list[bool]
) -> None:
    path, old, new, alone = EDITS[edit]
    cache = tmp_path / "cache"
    _runs(project, cache)
    edited = project / path
    text = edited.read_text(encoding="utf-8")
    assert old in text
    edited.write_text(text.replace(old, new), encoding="utf-8")
    _runs(project, cache)
    assert relinked == [alone]


def test_a_function_added_to_a_module_another_reaches_as_an_attribute(
    project: Path, tmp_path: Path, relinked: list[bool]
) -> None:
    """``import lib`` names no module of lib, but ``lib.tools.scaled(...)`` reaches one: a function
    of that name added to lib/tools.py is what the call runs from then on, and the loop around the
    call makes its static argument change."""
    cache = tmp_path / "cache"
    tools = project / "lib" / "tools.py"
    tools.write_text(
        "from functools import partial\n\nimport jax\n\n\n"
        "@partial(jax.jit, static_argnums=1)\ndef scale(x, n):\n    return x * n\n",
        encoding="utf-8",
    )
    (project / "scripts" / "attribute.py").write_text(
        "import lib\n\n\ndef main(x):\n    for n in range(10):\n        lib.tools.scaled(x, n)\n",
        encoding="utf-8",
    )
    first, _ = _runs(project, cache)
    assert not [f for f in first.findings if f.code == "RTL201"]
    _append(tools, "\n\ndef scaled(x, n):\n    return scale(x, n)\n")
    again, _ = _runs(project, cache)
    assert relinked == [False]
    (found,) = [f for f in again.findings if f.code == "RTL201"]
    assert found.location.path.endswith("attribute.py") and found.location.line == 6


def test_edits_one_after_another_keep_linking_one_module(
    project: Path, tmp_path: Path, relinked: list[bool]
) -> None:
    cache = tmp_path / "cache"
    _runs(project, cache)
    train = project / "scripts" / "train.py"
    for n in range(3):
        _append(train, f"\n\ndef extra_{n}(params, data):\n    return fit(params, data, {n})\n")
        _runs(project, cache)
    assert relinked == [True, True, True]


def test_a_method_added_to_a_test_class_links_only_its_module(
    project: Path, tmp_path: Path, relinked: list[bool]
) -> None:
    cache = tmp_path / "cache"
    tests = project / "scripts" / "test_model.py"
    tests.write_text(
        textwrap.dedent(
            """
            import unittest

            import jax.numpy as jnp

            from lib import model


            class LossTest(unittest.TestCase):
                def test_zero(self):
                    params = {"w": jnp.zeros((3, 1))}
                    self.assertEqual(float(model.loss(params, jnp.ones((4, 3)))), 0.0)
            """
        ),
        encoding="utf-8",
    )
    _runs(project, cache)
    text = tests.read_text(encoding="utf-8")
    tests.write_text(
        text.replace(
            "    def test_zero(self):",
            "    def test_prefixes(self):\n"
            "        params = {'w': jnp.ones((3, 1))}\n"
            "        x = jnp.ones((8, 3))\n"
            "        for n in range(1, 8):\n"
            "            model.loss(params, x[:n])\n\n"
            "    def test_zero(self):",
        ),
        "utf-8",
    )
    again, _ = _runs(project, cache)
    assert relinked == [True]
    assert [f.code for f in again.findings if f.location.path.endswith("test_model.py")] == [
        "RTL101"
    ]


# A jitted def of lib/opt.py whose body's call is linked by what its callers pass, and whether an
# edit of that body links lib/opt.py alone (True) or all modules (False).
CALLERS_READ = {
    # The object's class comes from the callers: the method is found through scripts/train.py's
    # call, whose target is this very jit, found again only after the module's calls are linked.
    "a method of what the callers pass": (
        "params, grads",
        "    return params.scaled(grads)",
        "update(Params(), grads[:step])",
        False,
    ),
    # The function called is what the callers pass (static: a function passed to a jit).
    "a function the callers pass": (
        "fn, grads",
        "    return fn(grads)",
        "update(halve, grads[:step])",
        False,
    ),
    # Nothing the callers pass is read: the module is linked alone, as before.
    "what the jit computes alone": (
        "fn, grads",
        "    return grads * 2",
        "update(halve, grads[:step])",
        True,
    ),
}


@pytest.mark.parametrize("edit", ["a function appended", "the jitted body edited"])
@pytest.mark.parametrize("shape", sorted(CALLERS_READ))
def test_an_edit_beside_a_jit_linked_through_its_callers(
    shape: str, edit: str, tmp_path: Path, relinked: list[bool]
) -> None:
    """Linking the jitted ``update`` of lib/opt.py again, a call in it asks the callers what they
    pass, and scripts/train.py's call reaches ``update`` through the jit, whose function is found
    again only after the module's calls: the run links every module instead (it raised a KeyError,
    in the command line's cached runs and the language server's edits alike). A function
    appended beside it leaves ``update``'s calls as they were linked: the module is linked alone
    (its edit is a plain function's), and the links and findings are a run from scratch's."""
    params, body, call, alone = CALLERS_READ[shape]
    root = tmp_path / "proj"
    (root / "lib").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "lib" / "__init__.py").write_text("", encoding="utf-8")
    opt = root / "lib" / "opt.py"
    opt.write_text(
        "from functools import partial\n\nimport jax\n\n\n"
        f"@partial(jax.jit, static_argnums=0)\ndef update({params}):\n{body}\n",
        encoding="utf-8",
    )
    (root / "scripts" / "train.py").write_text(
        textwrap.dedent(
            f"""
            from lib.opt import update


            class Params:
                def scaled(self, grads):
                    return grads


            def halve(grads):
                return grads / 2


            def fit(grads):
                for step in range(10):
                    {call}
            """
        ),
        encoding="utf-8",
    )
    cache = tmp_path / "cache"
    first, _ = _runs(root, cache)
    if edit == "a function appended":
        _append(opt, "\n\ndef _unused(x):\n    return x + 1\n")
    else:
        opt.write_text(opt.read_text().replace("    return", "    grads = grads * 1\n    return"))
    again, _ = _runs(root, cache)
    assert relinked == [alone or edit == "a function appended"]
    kept = [(f.code, f.location.line) for f in again.findings]
    assert kept == [(f.code, f.location.line) for f in first.findings]
    assert ("RTL101", 16) in kept


# scripts/serve.py, imported by none: ``apply`` calls a method of what its callers pass (typed by
# them, so linking that call again alone could find otherwise than linking every module), and
# ``make``, a plain function, makes what ``main`` passes it.
SERVE = """
import jax


class Fast:
    def run(self, x):
        return x + 1


class Slow:
    def run(self, x):
        return jax.jit(lambda y: y * 2)(x)


def make():
    return Fast()


def apply(engine, xs):
    return [engine.run(x) for x in xs]


def main(xs):
    for i in range(10):
        apply(make(), xs[:i])
"""

# An edit of serve.py, and whether the run links serve.py alone (True) or every module (False).
SERVE_EDITS = {
    # ``apply``'s calls are kept as linked: nothing they read changed.
    "a function appended": ("", "\n\ndef unused(x):\n    return x + 1\n", True),
    # ``main`` calls ``apply`` again: its callers changed, and the kept call, asked again, finds
    # what it found.
    "main's loop edited": ("range(10)", "range(12)", True),
    # What ``main`` passes ``apply`` is of the other class: the kept call finds another method.
    "make makes the other class": ("return Fast()", "return Slow()", False),
}


@pytest.mark.parametrize("edit", sorted(SERVE_EDITS))
def test_an_edit_of_plain_functions_keeps_the_calls_of_the_others_that_read_nothing_it_changed(
    edit: str, project: Path, tmp_path: Path, relinked: list[bool]
) -> None:
    """An edit of a module's plain functions links their calls again and keeps the others'
    (``Project._linked_again``), as another module's: a call typed by its callers in a function
    the edit left no longer makes the run link every module, and where what it read changed, it
    is found again. Every run's links and findings are a run from scratch's (``_runs``)."""
    serve = project / "scripts" / "serve.py"
    serve.write_text(SERVE, encoding="utf-8")
    cache = tmp_path / "cache"
    _runs(project, cache)
    old, new, alone = SERVE_EDITS[edit]
    text = serve.read_text(encoding="utf-8")
    serve.write_text(text.replace(old, new) if old else text + new, encoding="utf-8")
    again, _ = _runs(project, cache)
    assert relinked == [alone]
    engine = again.project.site_targets if again.project is not None else {}
    ran = {t.qualname for (fn, _), ts in engine.items() if fn.endswith("apply") for t in ts}
    assert ran == ({"serve.Slow.run"} if not alone else {"serve.Fast.run"})
