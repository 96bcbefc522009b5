"""The call path a finding shows is a chain of calls a run makes: from the loop that drives the
change down to the jit call, never a function shown calling its own caller (round 12: BOBE's
``get_next_batch`` shown calling the test that calls it)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

GP = """
    import jax
    import jax.numpy as jnp


    @jax.jit
    def kernel(xa, xb):
        return jnp.exp(-jnp.sum((xa[:, None] - xb[None]) ** 2, -1))


    class GP:
        def __init__(self, train_x, train_y):
            self.train_x = train_x
            self.train_y = train_y

        def predict(self, x):
            return kernel(x, self.train_x) @ self.train_y

        def update(self, x, y):
            self.train_x = jnp.concatenate([self.train_x, x])
            self.train_y = jnp.concatenate([self.train_y, y])
"""
ACQUISITION = """
    import jax.numpy as jnp


    def candidates(gp):
        # One candidate half way between each training point and the last one.
        return 0.5 * (gp.train_x + gp.train_x[-1:])


    def next_batch(gp, n_batch):
        batch = []
        for _ in range(n_batch):
            x = candidates(gp)
            mu = gp.predict(x)
            best = x[jnp.argmax(mu)][None]
            gp.update(best, mu.max()[None])
            batch.append(best)
        return jnp.concatenate(batch)
"""
TEST = """
    import jax.numpy as jnp

    from surrogates.acquisition import next_batch
    from surrogates.gp import GP


    def test_next_batch_grows_the_training_set():
        gp = GP(jnp.zeros((4, 2)), jnp.zeros(4))
        batch = next_batch(gp, 3)
        assert batch.shape == (3, 2)
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_loop_that_updates_what_its_caller_passed_is_not_shown_calling_the_caller(
    tmp_path: Path,
) -> None:
    """``next_batch`` grows the GP the test passes it (``gp.update``) and predicts with it: the
    candidates it reads change at each update of the loop, one call of ``next_batch`` from the
    test. Every route starts at that loop and stays below it."""
    _write(
        tmp_path,
        {
            "pyproject.toml": "",
            "surrogates/__init__.py": "",
            "surrogates/gp.py": GP,
            "surrogates/acquisition.py": ACQUISITION,
            "tests/test_acquisition.py": TEST,
        },
    )
    findings = analyse([str(tmp_path)], Settings(cache=False, jobs=1)).findings
    assert [(Path(f.location.path).name, f.location.line, f.code) for f in findings] == [
        ("gp.py", 20, "RTL102")
    ]
    (grown,) = findings
    routes = [grown.call_path, *(r.call_path for r in grown.other_routes)]
    shown = [[(s.function.rpartition(".")[2], s.location.line) for s in path] for path in routes]
    assert shown == [
        [("next_batch", 16), ("predict", 17)],
        [("next_batch", 16), ("next_batch", 14), ("predict", 17)],
    ]


FIXTURES = Path(__file__).parent / "fixtures"


def test_a_field_of_a_loaded_object_changes_with_the_loop_around_its_own_load() -> None:
    """``evaluate`` loads one experiment per league member and plays it with that experiment's
    static ``env_name`` and ``max_steps``; ``list_runs`` loads every saved run in a loop of its
    own. The re-trace is driven by ``evaluate``'s loop: a route that climbs out of
    ``Experiment.load`` through ``list_runs``'s call is another call, not the one the
    experiment came back from (round 13: jaxrl's ``eval.py:200`` named ``runs.py``'s loop)."""
    project = FIXTURES / "runs_loaded_per_league_member"
    findings = analyse([str(project)], Settings(cache=False, jobs=1)).findings
    assert [(Path(f.location.path).name, f.location.line, f.code) for f in findings] == [
        ("evaluate.py", 24, "RTL201")
    ]
    (changed,) = findings
    assert "changes in the loop at line 20," in changed.message
    routes = [changed.call_path, *(r.call_path for r in changed.other_routes)]
    shown = {s.function.rpartition(".")[2] for path in routes for s in path}
    assert "evaluate" in shown and not shown & {"list_runs", "load_run"}
