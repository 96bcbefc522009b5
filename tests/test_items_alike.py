"""A shape or static value read off each item of a collection held in memory (issue 36, round 24:
bucket sizes read off each detector plane, equal for every plane) rests on the items holding
different values, which the source does not show: the finding is held back by default
(``items-alike``) and shown, marked, with ``--confidence all``. What the source does prove stays:
items written out (options a user lists too), the loop's index or key, a count that grows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_JITS = """
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("rows",))
def window(signal, rows):
    return signal[:rows].sum()


@jax.jit
def spectrum(values):
    return jnp.abs(jnp.fft.rfft(values))
"""

_READOUT = """
import argparse
import numpy as np

from jits import spectrum, window


def per_channel(channels: dict, signal):
    out = {}
    for name, channel in channels.items():
        out[name] = window(signal, rows=channel["rows"])
    return out


def per_channel_spectra(channels: dict):
    return [spectrum(np.zeros(2 * c["rows"])) for c in channels.values()]


def per_index(channels: dict, signal):
    return [window(signal, rows=i + 1) for i, _ in enumerate(channels.values())]


def running(channels: dict, signal):
    total = 0
    for channel in channels.values():
        total += channel["rows"]
        window(signal, rows=total)


def from_command_line(signal):
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, nargs="+")
    args = parser.parse_args()
    for rows in args.rows:
        window(signal, rows=rows)
"""

_MAIN = """
import numpy as np

from readout import from_command_line, per_channel, per_channel_spectra, per_index, running


def channels_from(names):
    return {name: {"rows": 8} for name in names}


def main():
    signal = np.ones(64)
    channels = channels_from(["east", "west"])
    for _ in range(100):
        per_channel(channels, signal)
        per_channel_spectra(channels)
        per_index(channels, signal)
        running(channels, signal)
        from_command_line(signal)


if __name__ == "__main__":
    main()
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name, text in (("jits.py", _JITS), ("readout.py", _READOUT), ("main.py", _MAIN)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def _findings(project: Path, *args: str) -> list[dict]:
    result = CliRunner().invoke(
        main, ["check", str(project), "--format", "json", "--no-cache", "--isolated", *args]
    )
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def _lines(findings: list[dict]) -> set[tuple[int, str]]:
    return {(f["line"], f["code"]) for f in findings if f["path"].endswith("readout.py")}


def test_values_read_off_held_items_are_held_back_and_shown_marked(project: Path) -> None:
    shown = _findings(project, "--confidence", "all")
    held = [f for f in shown if f["assumptions"]]
    assert {(f["line"], f["code"]) for f in held} == {(11, "RTL201"), (16, "RTL105")}
    for finding in held:
        assert finding["confidence"] == "medium"
        assert finding["severity"] == "warning"
        assert [a["kind"] for a in finding["assumptions"]] == ["items-alike"]
        assert "not known to differ" in finding["assumptions"][0]["text"]
    assert held[0]["assumptions"][0]["line"] == 10  # the loop over the channels


def test_what_the_source_proves_per_item_stays_reported(project: Path) -> None:
    """The index, a count that grows, options a user lists."""
    assert _lines(_findings(project)) == {
        (20, "RTL201"),  # per_index: i + 1
        (27, "RTL201"),  # running: total grows
        (35, "RTL201"),  # from_command_line: --rows 8 16 32
    }
