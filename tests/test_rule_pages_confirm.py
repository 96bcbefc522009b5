"""Every rule page's examples through `retracelint confirm --guard all`, in one run: each flagged example's
finding is confirmed by JAX's own trace records (RTL203: the call raised), and no fixed example
re-traces anywhere (no RTL901)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from limits import HANG_S
from rule_pages import executable_pages

pytest.importorskip(
    "jax", reason="retracelint confirm needs jax (pip install 'retracelint[confirm]')"
)

DRIVER = """\
import runpy, sys
for path in sys.argv[1:]:
    try:
        runpy.run_path(path, run_name="__main__")
    except Exception:  # RTL203's flagged example raises by design: end it as Python ends a
        sys.last_type, sys.last_value, sys.last_traceback = sys.exc_info()  # program with it
        sys.excepthook(*sys.exc_info())
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("pages")
    programs = []
    for page in executable_pages():
        programs.extend(page.write_examples(folder))
    (folder.parent / "driver.py").write_text(DRIVER, encoding="utf-8")
    out = folder.parent / "report.json"
    command = [sys.executable, "-m", "retracelint", "confirm", "--guard", "all", "--backend", "cpu"]
    command += ["--format", "json", "-o", str(out), ".", "--", sys.executable, "../driver.py"]
    command += [p.name for p in programs]
    subprocess.run(command, cwd=folder, capture_output=True, timeout=HANG_S, check=False)
    return json.loads(out.read_text(encoding="utf-8"))


def test_every_flagged_example_is_confirmed(report: dict) -> None:
    statuses = {(f["path"], f["code"]): f["status"] for f in report["findings"]}
    expected = {(f"{p.code}_flagged.py", p.code) for p in executable_pages()}
    assert set(statuses) == expected
    assert set(statuses.values()) == {"confirmed"}


def test_no_fixed_example_re_traces(report: dict) -> None:
    assert report["unpredicted"] == []
    assert not [f for f in report["findings"] if "_fixed.py" in f["path"]]
