"""RTL204's fix (issue 41) for a fresh static object whose class cannot become a pytree: a topology the
body needs wholly concrete (a shape, a loop over its edges) made anew per decision, and a forecaster
hashed by its settings but with no ``__eq__`` (so equal-looking models still differ), which ``fit``
changes. The class gains ``__eq__`` (and ``__hash__`` where it has none that hashes only what it
compares) over the attributes the jitted body reads. A project over four modules, as a user runs it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from retracelint.cli import main

TOPOLOGY = '"""Coupling topologies for a p-bit sampler: how many nodes and which pairs are coupled."""\n\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n\nclass Topology:\n    def __init__(self, n_nodes, edges):\n        self.n_nodes = n_nodes\n        self.edges = tuple(edges)\n\n    @property\n    def n_params(self):\n        return self.n_nodes + len(self.edges)\n\n\ndef ring(n):\n    return [(i, (i + 1) % n) for i in range(n)]\n\n\n@partial(jax.jit, static_argnames=("topology",))\ndef marginals(thetas, topology):\n    n = topology.n_nodes\n    bias, couplings = thetas[:n], thetas[n:]\n    field = jnp.zeros(n) + bias\n    for k, (a, b) in enumerate(topology.edges):\n        field = field.at[a].add(couplings[k]).at[b].add(couplings[k])\n    return jax.nn.sigmoid(field)\n'

FORECASTER = '"""An AR(p) forecaster whose predict method is jitted with the model itself static."""\n\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\nclass ARForecaster:\n    def __init__(self, order, horizon):\n        self.order = order\n        self.horizon = horizon\n        self.coef = None\n\n    def __hash__(self):\n        # the compiled program only depends on the order and the horizon\n        return hash((self.order, self.horizon))\n\n    def fit(self, series):\n        x = np.lib.stride_tricks.sliding_window_view(series[:-1], self.order)\n        self.coef = jnp.asarray(np.linalg.lstsq(x, series[self.order :], rcond=None)[0])\n        return self\n\n    @partial(jax.jit, static_argnums=0)\n    def predict(self, history, coef):\n        def step(window, _):\n            nxt = window @ coef\n            return jnp.concatenate([window[1:], nxt[None]]), nxt\n\n        _, path = jax.lax.scan(step, history[-self.order :], None, length=self.horizon)\n        return path\n'

AGENT = "import jax.numpy as jnp\n\nfrom topology import Topology, marginals, ring\n\n\nclass Agent:\n    def __init__(self, n_actions, thetas):\n        self.n_actions = n_actions\n        self.thetas = thetas\n\n    def decide(self, observation):\n        topology = Topology(self.n_actions, ring(self.n_actions))\n        thetas = self.thetas.at[: self.n_actions].add(observation)\n        return int(jnp.argmax(marginals(thetas, topology)))\n"

MAIN = "import numpy as np\n\nfrom agent import Agent\nfrom forecaster import ARForecaster\n\n\ndef backtest(series, window=24, horizon=4):\n    for origin in range(window, len(series) - horizon, horizon):\n        train = series[origin - window : origin]\n        model = ARForecaster(2, horizon).fit(train)\n        print(np.round(np.asarray(model.predict(train, model.coef)), 3))\n\n\nagent = Agent(4, np.full(8, 0.1, np.float32))\nfor t in range(3):\n    print(agent.decide(np.float32(t) * np.ones(4, np.float32)))\nbacktest(np.sin(np.arange(40, dtype=np.float32) / 3.0))\n"


EQ = """
    def __eq__(self, other):
        # jax finds the trace of an equal object: one per value of what the jitted body reads
        if type(other) is not type(self):
            return NotImplemented
        return ({key}) == ({other})
"""
HASH = """
    def __hash__(self):
        return hash(({key}))
"""


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (
        ("topology.py", TOPOLOGY),
        ("forecaster.py", FORECASTER),
        ("agent.py", AGENT),
        ("main.py", MAIN),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def methods(*attributes: str, hashed: bool) -> str:
    key = ", ".join(f"self.{a}" for a in attributes)
    other = key.replace("self.", "other.")
    return EQ.format(key=key, other=other) + (HASH.format(key=key) if hashed else "")


def test_fresh_objects_compare_by_what_the_jitted_body_reads(project: Path) -> None:
    safe = lint("--fix", ".")
    assert safe.stderr.splitlines()[-1] == (
        "No fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option)."
    )
    fixed = lint("--fix", "--unsafe-fixes", ".")
    assert fixed.stderr.splitlines() == ["Found 2 errors (2 fixed, 0 remaining)."]
    assert fixed.exit_code == 0
    # n_nodes gives shapes and edges a loop: both concrete, both compared, a hash added
    anchor = "        self.edges = tuple(edges)\n"
    assert (project / "topology.py").read_text() == TOPOLOGY.replace(
        anchor, anchor + methods("n_nodes", "edges", hashed=True)
    )
    # its own __hash__ hashes only order and horizon, and keeps its comment; coef is not read
    anchor = "        self.coef = None\n"
    assert (project / "forecaster.py").read_text() == FORECASTER.replace(
        anchor, anchor + methods("order", "horizon", hashed=False)
    )
    assert (project / "agent.py").read_text() == AGENT
    assert (project / "main.py").read_text() == MAIN
    again = lint("--fix", "--unsafe-fixes", ".")
    assert (again.exit_code, again.stderr) == (0, "")
    assert "__eq__" not in (project / "agent.py").read_text()


@pytest.mark.parametrize(
    ("attribute", "use"),
    [
        # only computed with, set from an unannotated parameter: it may be an array
        ("scale", "field * topology.scale"),
        # needed concrete, but as an object whose own attributes it reads: it may compare by identity
        ("schedule", "field + topology.schedule.sweeps"),
    ],
)
def test_a_read_attribute_that_may_not_hash_by_value_is_left_alone(
    project: Path, attribute: str, use: str
) -> None:
    changed = TOPOLOGY.replace(
        "    def __init__(self, n_nodes, edges):\n",
        f"    def __init__(self, n_nodes, edges, {attribute}=None):\n"
        f"        self.{attribute} = {attribute}\n",
    ).replace("    return jax.nn.sigmoid(field)", f"    return jax.nn.sigmoid({use})")
    (project / "topology.py").write_text(changed, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", ".")
    # the forecaster's fix, and the agent's topology (made from what __init__ gave the agent) made
    # once per agent instead (per_object.py): Topology keeps its identity
    assert result.stderr.splitlines() == ["Found 2 errors (2 fixed, 0 remaining)."]
    assert result.exit_code == 0
    assert (project / "topology.py").read_text() == changed
    assert (project / "agent.py").read_text() == AGENT.replace(
        "        self.thetas = thetas\n",
        "        self.thetas = thetas\n"
        "        self._topology = Topology(self.n_actions, ring(self.n_actions))\n",
    ).replace(
        "topology = Topology(self.n_actions, ring(self.n_actions))\n        thetas",
        "topology = self._topology\n        thetas",
    )
