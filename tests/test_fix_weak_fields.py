"""RTL401's fix where the weakly typed start is a dataclass field's default (issue 41): a dataclass
refuses an array as a default, so the field gets ``field(default_factory=lambda: <typed array>)``, an
array made per instance; a frozen (hashed) dataclass is left alone, with the reason."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from test_fix_closures import fixed_once, lint, project, proved_by_jax

METER = '''\
"""A running meter of accepted proposals, carried through a jitted sampler."""

from dataclasses import dataclass

import jax


@dataclass
class Meter:
    total: jax.Array
    accepted: int = 0  # counts from zero


jax.tree_util.register_dataclass(Meter, data_fields=["total", "accepted"], meta_fields=[])
'''

SAMPLER = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp

from meter import Meter


@jax.jit
def record(meter, value):
    ok = value > 0.5
    return Meter(meter.total + value, meter.accepted + ok.astype(jnp.int32))


meter = Meter(jnp.float32(0.0))
for value in jnp.linspace(0.0, 1.0, 5):
    meter = record(meter, value)
out = [float(meter.total), int(meter.accepted)]
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

FILES = {"meter.py": METER, "sampler.py": SAMPLER}


def test_a_weak_field_default_becomes_an_array_made_per_instance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, FILES)
    assert lint(".").stdout.startswith(
        "meter.py:11:21: RTL401 [warning] meter.accepted starts as a weakly"
    )
    assert fixed_once(root, "meter.py") == METER.replace(
        '"""\n\nfrom dataclasses',
        '"""\nimport dataclasses\nimport jax.numpy as jnp\n\nfrom dataclasses',
    ).replace(
        "accepted: int = 0",
        "accepted: int = dataclasses.field(default_factory=lambda: jnp.asarray(0, jnp.int32))",
    )
    assert (root / "sampler.py").read_text() == SAMPLER


def test_a_weak_default_of_a_frozen_dataclass_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {**FILES, "meter.py": METER.replace("@dataclass\n", "@dataclass(frozen=True)\n")}
    root = project(tmp_path, monkeypatch, files)
    result = lint("--diff", "--unsafe-fixes", ".")
    assert "RTL401 not fixed: it is a class field's default, which cannot be an array" in (
        result.stderr
    )
    assert (root / "meter.py").read_text() == files["meter.py"]


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_meter_once_with_its_default_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proved_by_jax(tmp_path, monkeypatch, {"meter": (FILES, "sampler.py", "record", 1)})
