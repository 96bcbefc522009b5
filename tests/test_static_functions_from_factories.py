"""A static argument that is a module-level function a factory hands back is the same object."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from retracelint.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "static_rules_from_a_factory"
CLOSURE = """    def rule(x, y, w, c):
        return volterra_rule(x, y, w, c) * (1.0 if init == "zeros" else 0.5)

    return jnp.array(coeff), rule
"""


def _check(folder: Path) -> tuple[int, str]:
    args = ["check", str(folder), "--no-cache", "--isolated", "--confidence", "all"]
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output


def test_a_rule_a_factory_picks_from_module_functions_is_traced_once_each(tmp_path: Path) -> None:
    """``coeff, rule = synapse.init_plasticity(key, cfg, mode=...)`` in a loop over experiments,
    then ``simulate(weights, coeff, rule, xs)`` with ``rule`` static: the factory hands back
    ``volterra_rule`` or ``mlp_rule``, defined at the top of ``synapse.py``, so ``rule`` is one of
    two objects for the whole run, each traced once. A rule the factory defines anew at each call
    is a new static value each time, and stays a finding."""
    folder = tmp_path / "plasticity"
    shutil.copytree(FIXTURE, folder)
    assert _check(folder) == (0, "")

    synapse = folder / "plast" / "synapse.py"
    text = synapse.read_text(encoding="utf-8")
    synapse.write_text(
        text.replace("    return jnp.array(coeff), volterra_rule\n", CLOSURE), encoding="utf-8"
    )
    code, out = _check(folder)
    assert code == 1
    assert f"{folder}/plast/model.py:23:45: RTL201 static argument rule changes in the loop" in out
