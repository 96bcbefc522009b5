"""RTL302's fix (issue 41): a ``jax.clear_caches()`` run between calls of a jitted function, run once
instead: after the outermost loop of its function that runs it, or, in a function the step loop calls,
taken out. Unsafe (the memory it freed is held longer), idempotent, refused with the reason where the
clear cannot simply go."""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_pages import load_pages
from test_fix_closures import codes, fixed_once, lint, project

EMULATOR = '''\
"""A surrogate refitted between sampling blocks."""

import jax
import jax.numpy as jnp


@jax.jit
def log_posterior(theta, coeffs):
    return -jnp.sum((theta - coeffs) ** 2)


class Sampler:
    def __init__(self):
        self.coeffs = jnp.zeros(2)

    def refit(self, chain):
        self.coeffs = jnp.mean(jnp.stack(chain), axis=0)
        # drop compiled code from the previous surrogate to keep memory flat
        jax.clear_caches()

    def block(self, theta):
        return [theta + 0.1 * k for k in range(3) if log_posterior(theta, self.coeffs) < 0]
'''

RUN = """\
import jax.numpy as jnp
from emulator import Sampler

sampler = Sampler()
chain = [jnp.ones(2)]
for block in range(3):
    sampler.refit(chain)
    chain += sampler.block(chain[-1])
print(len(chain))
"""

SWEEP = """\
import jax
import jax.numpy as jnp
from emulator import log_posterior


def sweep(thetas, coeffs):
    best = []
    for theta in thetas:
        for scale in (0.5, 1.0):
            best.append(float(log_posterior(scale * theta, coeffs)))
            jax.clear_caches()  # keep memory flat
    return best


print(sweep([jnp.ones(2), jnp.zeros(2)], jnp.ones(2)))
"""


def test_a_clear_in_a_method_the_step_loop_calls_is_taken_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"emulator.py": EMULATOR, "run.py": RUN})
    assert codes(".") == [("emulator.py", "RTL302")]
    assert lint("--fix", ".").exit_code == 1  # unsafe: --fix alone leaves it
    text = fixed_once(root, "emulator.py")
    dropped = (
        "        # drop compiled code from the previous surrogate to keep memory flat\n"
        "        jax.clear_caches()\n"
    )
    assert text == EMULATOR.replace(dropped, "")


def test_a_clear_in_loops_runs_once_after_the_outermost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(
        tmp_path,
        monkeypatch,
        {
            "emulator.py": EMULATOR.replace(
                "        jax.clear_caches()\n", "        self.coeffs = self.coeffs + 0.0\n"
            ),
            "sweep.py": SWEEP,
        },
    )
    assert codes(".") == [("sweep.py", "RTL302")]
    text = fixed_once(root, "sweep.py")
    assert text == SWEEP.replace(
        "            jax.clear_caches()  # keep memory flat\n", ""
    ).replace("    return best\n", "    jax.clear_caches()\n    return best\n")


def test_a_clear_alone_in_its_block_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sweep = SWEEP.replace(
        "            jax.clear_caches()  # keep memory flat\n",
        "            if scale > 0.8:\n                jax.clear_caches()\n",
    )
    root = project(tmp_path, monkeypatch, {"emulator.py": EMULATOR, "sweep.py": sweep})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert "jax.clear_caches() is the only statement of its block" in result.stderr
    assert (root / "sweep.py").read_text(encoding="utf-8") == sweep


def test_the_rule_page_s_flagged_example_is_fixed_to_trace_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fixed, the page's flagged example is its fixed example, which JAX traces once, printing what
    the flagged one printed."""
    from dynamic_support import count_retraces_many

    page = next(p for p in load_pages() if p.code == "RTL302")
    for copy in ("original", "fixed"):
        (tmp_path / copy).mkdir()
        root = project(tmp_path / copy, monkeypatch, {"example.py": page.flagged_source or ""})
    text = fixed_once(root, "example.py")
    assert text == (page.fixed_source or "").replace("  # once, after the loop", "")
    scripts = [tmp_path / copy / "example.py" for copy in ("original", "fixed")]
    before, after = count_retraces_many(scripts, cwd=tmp_path)
    assert not before.raised and before.total_retraces > 0, before.summary()
    assert not after.raised and set(after.traces.values()) == {1}, after.summary()
    assert after.stdout == before.stdout
