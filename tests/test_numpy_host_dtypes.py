"""dtypes NumPy decides on the host before jax sees the array (issue 39): a classifier's jitted
``predict`` gets training frames scaled as jax arrays and evaluation frames scaled and clipped with
NumPy, by NumPy's promotion (``summarise/numpy_promotion.py``). ``uint8 / 255`` is float64 on the
host: a second signature with x64 on, none without (jax narrows it to float32). Divided by a NumPy
float32 it stays float32. ``np.clip`` computes ml_dtypes' bfloat16 in float32 where ``/ 255`` keeps
it, so bfloat16 training frames and clipped bfloat16 evaluation frames are two signatures even
without x64. Each program is run under jax too (one subprocess: the programs that turn x64 on last)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from dynamic_support import count_retraces_many

from retracelint.config import Settings
from retracelint.engine import analyse

FILES = {
    "model.py": '''\
"""A linear probe over flattened frames."""

import jax
import jax.numpy as jnp


def init(key, pixels, classes=10):
    return {"w": jax.random.normal(key, (pixels, classes)) * 0.01, "b": jnp.zeros(classes)}


@jax.jit
def predict(params, images):
    flat = images.reshape(images.shape[0], -1)
    return flat @ params["w"].astype(flat.dtype) + params["b"].astype(flat.dtype)
''',
    "pipeline.py": '''\
"""Synthetic frames as the loader delivers them (uint8), scaled to [0, 1]."""

import jax.numpy as jnp
import numpy as np


def _frames(rng, count):
    return rng.integers(0, 256, size=(count, 16, 16), dtype=np.uint8)


def training_images(rng, count):
    return jnp.asarray(_frames(rng, count), jnp.float32) / 255


def evaluation_images(rng, count):
    # the evaluation set is scaled and clipped on the host
    frames = rng.integers(0, 256, size=(count, 16, 16), dtype=np.uint8)
    return np.clip(frames / 255, 0.0, 1.0)
''',
    "main.py": '''\
"""Fit the probe, then evaluate it, with 64-bit types on for the metrics."""

import jax

jax.config.update("jax_enable_x64", True)

import numpy as np  # noqa: E402

from model import init, predict  # noqa: E402
from pipeline import evaluation_images, training_images  # noqa: E402


def main(steps=3):
    rng = np.random.default_rng(0)
    params = init(jax.random.PRNGKey(0), 16 * 16)
    for _ in range(steps):
        logits = predict(params, training_images(rng, 8))
    return logits, predict(params, evaluation_images(rng, 8))


if __name__ == "__main__":
    main()
''',
}
NO_X64 = ("main", 'jax.config.update("jax_enable_x64", True)\n', "")
BY_FLOAT32 = ("pipeline", "frames / 255", "frames / np.float32(255)")
BF16_TRAINING = ("pipeline", "jnp.float32) / 255", "jnp.bfloat16) / 255")
BF16_CLIPPED = ("pipeline", "frames / 255,", "frames.astype(jnp.bfloat16) / 255,")
BF16_SCALED = ("pipeline", "np.clip(frames / 255, 0.0, 1.0)", "frames.astype(jnp.bfloat16) / 255")
# Each program: its changes, what retracelint reports, how often jax traces ``predict``.
PROGRAMS = {
    "float64_under_x64": ((), [("pipeline.py", 18, "RTL402")], 2),
    "float64_without_x64": ((NO_X64,), [], 1),
    "divided_by_float32": ((BY_FLOAT32,), [], 1),
    "bfloat16_clipped": ((NO_X64, BF16_TRAINING, BF16_CLIPPED), [("pipeline.py", 18, "RTL402")], 2),
    "bfloat16_scaled": ((NO_X64, BF16_TRAINING, BF16_SCALED), [], 1),
}


def _write(root: Path, changes: tuple[tuple[str, str, str], ...]) -> None:
    root.mkdir()
    files = dict(FILES)
    for module, old, new in changes:
        assert old in files[f"{module}.py"]
        files[f"{module}.py"] = files[f"{module}.py"].replace(old, new)
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_what_numpy_computes_on_the_host_reaches_the_jitted_call(tmp_path: Path, program) -> None:
    changes, expected, _ = PROGRAMS[program]
    _write(tmp_path / program, changes)
    findings = analyse([str(tmp_path / program)], Settings(cache=False, select=("RTL",))).findings
    assert [(Path(f.location.path).name, f.location.line, f.code) for f in findings] == expected
    if expected:
        assert "this makes float" in findings[0].message
        assert "for 'images' but" in findings[0].message


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_each_program_as_the_table_says(tmp_path: Path) -> None:
    # x64 turned on stays on for the programs run after it in the subprocess: those run last.
    order = sorted(PROGRAMS, key=lambda p: NO_X64 not in PROGRAMS[p][0])
    for program in order:
        _write(tmp_path / program, PROGRAMS[program][0])
    reports = count_retraces_many([tmp_path / p / "main.py" for p in order], tmp_path)
    traces = {
        p: sum(r.function.name == "predict" for r in report.records)
        for p, report in zip(order, reports, strict=True)
    }
    assert traces == {p: PROGRAMS[p][2] for p in order}
