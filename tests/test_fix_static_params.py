"""RTL201's fix (issue 41) follows a static value into the module's helpers: a value the jitted body
hands to a def of its own module, iterates, unpacks or indexes is made traced when every such use works on
a traced value (``jax.random``'s seeds, folded data and bounds among them; unsafe when it is read as a
tuple), and is left static, with the reason naming the helper's line, when the helper needs it concrete.
Projects over two modules, as a user runs them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from dynamic_support import run_fixed_and_original

from retracelint.cli import main

PULSES = '''\
"""Drive envelopes and the two-level propagator."""

from functools import partial

import jax
import jax.numpy as jnp

SX = jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
EYE = jnp.eye(2, dtype=jnp.complex64)


def envelope(amplitude, windows, t):
    # on inside any (start, end) window
    on = jnp.zeros_like(t, dtype=bool)
    for start, end in windows:
        on = on | ((t >= start) & (t <= end))
    return jnp.where(on, amplitude, 0.0)


def mean_width(windows):
    return jnp.sum(jnp.asarray([end - start for start, end in windows])) / len(windows)


@partial(jax.jit, static_argnames=("windows",))
def evolve(amplitude, windows, dt=0.1):
    def step(psi, t):
        theta = envelope(amplitude, windows, t) * dt
        u = jnp.cos(theta) * EYE - 1j * jnp.sin(theta) * SX
        return u @ psi, None

    psi, _ = jax.lax.scan(step, jnp.array([1.0, 0.0], jnp.complex64), jnp.arange(40) * dt)
    return jnp.abs(psi[1]) ** 2, mean_width(windows)


def steps_of(duration, dt):
    return int(duration / dt)


@partial(jax.jit, static_argnums=(1,))
def hold(amplitude, duration):
    return jnp.cumsum(jnp.full(steps_of(duration, 0.1), amplitude))[-1]
'''

MAIN = """\
from pulses import evolve, hold


def sweep(onsets, width=0.6):
    for onset in onsets:
        windows = ((onset, onset + width), (onset + 2 * width, onset + 3 * width))
        population, mean = evolve(1.3, windows)
        print(f"onset={onset:.2f} population={float(population):.4f} width={float(mean):.2f}")
    for duration in (1.0, 2.0):
        print(f"held {float(hold(0.5, duration)):.2f}")


sweep([0.2, 0.5, 0.8])
"""


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pulses.py").write_text(PULSES, encoding="utf-8")
    (tmp_path / "main.py").write_text(MAIN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_static_tuple_its_helpers_only_iterate_is_made_traced_with_unsafe_fixes(
    project: Path,
) -> None:
    found = json.loads(lint("--output-format", "json", ".").stdout)
    assert sorted((f["path"], f["line"], f["code"]) for f in found) == [
        ("main.py", 7, "RTL201"),
        ("main.py", 10, "RTL202"),
    ]
    # iterated by the helper: a traced tuple only if every caller passes one, which a user checks
    safe = lint("--fix", ".")
    assert (project / "pulses.py").read_text() == PULSES
    assert safe.stderr.splitlines() == [
        "retracelint: main.py:10:39: RTL202 not fixed: duration must stay static: line 41 passes"
        " it to steps_of, whose line 36 passes it to int",
        "Found 2 errors (0 fixed, 2 remaining).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    assert safe.exit_code == 1

    fixed = lint("--fix", "--unsafe-fixes", ".")
    assert fixed.stderr.splitlines()[-1] == "Found 2 errors (1 fixed, 1 remaining)."
    assert fixed.exit_code == 1
    expected = PULSES.replace('@partial(jax.jit, static_argnames=("windows",))', "@jax.jit", 1)
    assert (project / "pulses.py").read_text() == expected  # the comments and the rest as they were
    assert (project / "main.py").read_text() == MAIN
    again = lint("--fix", "--unsafe-fixes", ".")
    assert (project / "pulses.py").read_text() == expected
    assert again.stderr.splitlines()[-1] == "Found 1 error (0 fixed, 1 remaining)."


def test_len_and_array_use_of_a_static_tuple_make_a_safe_fix(project: Path) -> None:
    (project / "pulses.py").write_text(
        PULSES.replace(
            "    for start, end in windows:\n        on = on | ((t >= start) & (t <= end))\n",
            "    edges = jnp.asarray(windows)\n"
            "    on = on | jnp.any((t >= edges[:, 0]) & (t <= edges[:, 1])) & (len(windows) > 0)\n",
        ).replace(
            "    return jnp.sum(jnp.asarray([end - start for start, end in windows])) / len(windows)\n",
            "    return jnp.mean(jnp.diff(jnp.asarray(windows), axis=1))\n",
        ),
        encoding="utf-8",
    )
    result = lint("--fix", "pulses.py", "main.py")
    assert result.stderr.splitlines()[-1] == "Found 2 errors (1 fixed, 1 remaining)."
    assert (
        "@jax.jit\ndef evolve(amplitude, windows, dt=0.1):" in (project / "pulses.py").read_text()
    )


def test_a_helper_that_needs_the_value_concrete_keeps_it_static(project: Path) -> None:
    # a window that starts before 0 is skipped: a Python branch on its value
    sliced = PULSES.replace(
        "        on = on | ((t >= start) & (t <= end))\n",
        "        if start >= 0:\n            on = on | ((t >= start) & (t <= end))\n",
    )
    (project / "pulses.py").write_text(sliced, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", ".")
    assert (
        "retracelint: main.py:7:40: RTL201 not fixed: windows must stay static: line 28 passes it to"
        " envelope, whose line 16 decides Python control flow"
    ) in result.stderr.splitlines()
    assert (project / "pulses.py").read_text() == sliced


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_fixed_sweep_once_and_it_prints_the_same(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    report, original = run_fixed_and_original(
        project, lambda: lint("--fix", "--unsafe-fixes", "."), tmp_path_factory.mktemp("before")
    )
    assert not report.raised, report.summary()
    traces = {function.name: n for function, n in report.traces.items()}
    assert traces["evolve"] == 1, report.summary()
    assert traces["hold"] == 2  # its duration needs a concrete value: not fixed
    assert not original.raised, original.summary()
    assert original.stdout, "the program must print what the fix has to keep"
    assert report.stdout == original.stdout


AUGMENT = '"""Random gain jitter for seismic traces, seeded per batch so a batch can be replayed."""\n\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n\n@partial(jax.jit, static_argnames=("seed", "spread"))\ndef jitter(traces, seed, spread):\n    key = jax.random.fold_in(jax.random.PRNGKey(seed), traces.shape[0])\n    lo, hi = 1.0 - spread, 1.0 + spread  # the gain\'s bounds\n    gain = jax.random.uniform(key, (traces.shape[0], 1), minval=lo, maxval=hi)\n    return jnp.mean(traces * gain)\n'

JITTER = 'import jax.numpy as jnp\n\nfrom augment import jitter\n\ntraces = jnp.ones((3, 8))\nfor batch in range(3):\n    print(f"batch {batch}: {float(jitter(traces, seed=batch, spread=0.1 * (batch + 1))):.5f}")\n'


@pytest.fixture
def seeded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "augment.py").write_text(AUGMENT, encoding="utf-8")
    (tmp_path / "main.py").write_text(JITTER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_seed_and_bounds_unpacked_in_pairs_are_made_traced(seeded: Path) -> None:
    # jax.random.PRNGKey takes a traced seed, fold_in traced data, uniform traced bounds; `lo, hi =
    # 1.0 - spread, 1.0 + spread` pairs each bound with its name
    result = lint("--fix", ".")
    assert result.stderr.splitlines() == ["Found 2 errors (2 fixed, 0 remaining)."]
    assert (seeded / "augment.py").read_text() == AUGMENT.replace(
        '@partial(jax.jit, static_argnames=("seed", "spread"))', "@jax.jit"
    )


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_seeded_jitter_once_and_it_prints_the_same(
    seeded: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    report, original = run_fixed_and_original(
        seeded, lambda: lint("--fix", "."), tmp_path_factory.mktemp("before")
    )
    assert not report.raised, report.summary()
    assert {f.name: n for f, n in report.traces.items()}["jitter"] == 1, report.summary()
    assert not original.raised, original.summary()
    assert original.stdout, "the program must print what the fix has to keep"
    assert report.stdout == original.stdout


# The windows still healthy, passed as a tuple made of a list that the monitor shortens: traced, a
# tuple of another length is another pytree structure, so the fix would leave the re-trace.
MONITOR = """\
from pulses import evolve


class Monitor:
    def __init__(self, windows):
        self.healthy = list(windows)

    def step(self):
        windows = tuple(self.healthy)
        population, mean = evolve(1.3, windows)
        print(f"{len(windows)} windows: population={float(population):.4f}")
        if population < 0.5:
            self.healthy.pop()


monitor = Monitor([(0.2, 0.8), (1.0, 1.6), (2.0, 2.6)])
for _ in range(3):
    monitor.step()
"""


def test_a_tuple_of_a_list_that_changes_length_stays_static_with_the_reason(
    project: Path,
) -> None:
    (project / "main.py").write_text(MONITOR, encoding="utf-8")
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.stderr.splitlines()[0] == (
        "retracelint: main.py:10:40: RTL201 not fixed: windows is passed tuple(self.healthy), whose"
        " length may change: traced, each length is still another trace"
    )
    assert (project / "pulses.py").read_text() == PULSES


@pytest.mark.parametrize(
    "edit",
    [
        ("tuple(self.healthy)", "(self.healthy[0], self.healthy[-1])"),  # a pair, whatever it holds
        # every window moved, none dropped: a new list as long as the old one
        ("self.healthy.pop()", "self.healthy = [(s + 0.1, e + 0.1) for s, e in self.healthy]"),
    ],
)
def test_a_tuple_of_fixed_length_made_in_the_caller_is_still_made_traced(
    project: Path, edit: tuple[str, str]
) -> None:
    (project / "main.py").write_text(MONITOR.replace(*edit), encoding="utf-8")
    lint("--fix", "--unsafe-fixes", ".")
    assert (project / "pulses.py").read_text() == PULSES.replace(
        '@partial(jax.jit, static_argnames=("windows",))', "@jax.jit", 1
    )


# A window opened at each step, the list grown by ``+=`` (no method call the fix's own test reads):
# made traced, the tuple is one leaf longer each step, so the fixed text is analysed again, reports
# the growth for the same jit and parameter, and the fix is refused with that finding.
GROWING = """\
from pulses import evolve


def scan_openings(onsets, width=0.6):
    windows = []
    for start in onsets:
        windows += [(start, start + width)]
        population, mean = evolve(1.3, tuple(windows))
        print(f"{len(windows)} windows: population={float(population):.4f}")


scan_openings([0.2, 1.0, 2.0])
"""


@pytest.mark.parametrize("mode", ["--fix", "--diff"])
def test_a_fix_that_leaves_the_re_trace_is_refused_with_the_finding_left(
    project: Path, mode: str
) -> None:
    (project / "main.py").write_text(GROWING, encoding="utf-8")
    result = lint(mode, "--unsafe-fixes", ".")
    assert result.stderr.splitlines()[0] == (
        "retracelint: main.py:8:40: RTL201 not fixed: the fix would still re-trace: main.py:7:9:"
        " windows += ... grows in the loop at line 6, so jitted 'evolve' re-traces; preallocate"
        " and mask (bounded: one per item of `onsets`)"
    )
    assert (project / "pulses.py").read_text() == PULSES
    assert "RTL201" in lint(".").output


def test_a_jit_called_from_two_loops_is_fixed_where_one_re_trace_goes(project: Path) -> None:
    # the fix leaves the growing sweep reported (RTL102), but it takes the static tuple's own
    # re-trace away: reported less often than before, the fix stands
    (project / "main.py").write_text(GROWING + MAIN, encoding="utf-8")
    before = lint(".").output
    lint("--fix", "--unsafe-fixes", ".")
    assert before.count("jitted 'evolve'") == 2
    assert (project / "pulses.py").read_text() == PULSES.replace(
        '@partial(jax.jit, static_argnames=("windows",))', "@jax.jit", 1
    )
