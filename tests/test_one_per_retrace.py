"""One finding per re-trace and rule: the values that one loop changes at one call of one jitted function
are one re-trace per iteration (lop-jax, fresh round 11: a slice, four masks and three static arguments
of one per-task update were eight findings, now three: the slice, the masks, the static arguments). The
others stay reachable as ``related``, are never lost to ``--select`` or a ``# noqa`` on the line that
tells them, and ``--fix`` still fixes them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from retracelint.cli import main

PROJECT = Path(__file__).parent / "fixtures" / "classes_added_per_task"


def _json(*args: str) -> list[dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--isolated", "--format", "json", *args])
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)


def _where(found: list[dict]) -> list[tuple[int, str]]:
    return [(f["line"], f["code"]) for f in found]


def test_the_task_loop_is_one_finding_per_rule_naming_what_it_changes() -> None:
    found = _json(str(PROJECT))
    assert _where(found) == [(17, "RTL101"), (19, "RTL104"), (22, "RTL201"), (28, "RTL201")]
    slice_, masks, static, evaluate = found
    assert slice_["related"] == []
    assert masks["message"].endswith(
        "re-traces; mask it, or pass size= (bounded: one per item of `range(num_tasks)`)"
        " (and 1 more: 'labels')"
    )
    assert _where(masks["related"]) == [(20, "RTL104")]
    assert sum(d.startswith("same re-trace: line 20: RTL104") for d in masks["details"]) == 1
    assert static["message"].startswith("static argument seen changes in the loop at line 15")
    assert static["message"].endswith("(and 1 more: 'task')")
    assert [(r["line"], r["parameter"]) for r in static["related"]] == [(22, "task")]
    # Another jitted function in another loop is another re-trace: told on its own.
    assert evaluate["related"] == [] and "accuracy" in evaluate["message"]


def test_a_selection_or_a_noqa_keeps_the_findings_it_does_not_hide(tmp_path: Path) -> None:
    static = _json("--select", "RTL201", str(PROJECT))
    assert _where(static) == [(22, "RTL201"), (28, "RTL201")]
    assert _where(static[0]["related"]) == [(22, "RTL201")]
    copy = tmp_path / PROJECT.name
    shutil.copytree(PROJECT, copy)
    train = copy / "train.py"
    text = train.read_text(encoding="utf-8")
    train.write_text(
        text.replace("x = images[mask]  # expect: RTL104", "x = images[mask]  # noqa: RTL104"),
        encoding="utf-8",
    )
    shown = _json(str(copy))
    assert _where(shown) == [(17, "RTL101"), (20, "RTL104"), (22, "RTL201"), (28, "RTL201")]
    assert shown[1]["related"] == []


def test_fix_rewrites_a_finding_told_by_another(tmp_path: Path) -> None:
    """RTL201's fix (make the argument traced) is made for the static argument ``task``, which the
    finding on ``seen`` tells (``seen`` sizes a slice: it must stay static): not shown on its own,
    but found."""
    copy = tmp_path / PROJECT.name
    shutil.copytree(PROJECT, copy)
    result = CliRunner().invoke(main, ["--no-cache", "--fix", str(copy)])
    model = (copy / "model.py").read_text(encoding="utf-8")
    assert "@partial(jax.jit, static_argnums=3)" in model, result.output


def test_sarif_points_at_the_findings_a_result_tells() -> None:
    """Code scanning shows each told finding as a related location, with its own message."""
    result = CliRunner().invoke(
        main, ["--no-cache", "--isolated", "--format", "sarif", str(PROJECT)]
    )
    masks = next(
        r for r in json.loads(result.stdout)["runs"][0]["results"] if r["ruleId"] == "RTL104"
    )
    told = [
        (loc["physicalLocation"]["region"]["startLine"], loc["message"]["text"].split(" ")[2])
        for loc in masks["relatedLocations"]
        if loc["message"]["text"].startswith("same re-trace: ")
    ]
    assert told == [(20, "RTL104")]


SWEEP = Path(__file__).parent / "fixtures" / "one_change_through_a_sweep_call"


def test_one_change_passed_through_one_call_to_several_jits_is_one_finding() -> None:
    """A resolution sweep passes its size through one call (``run_resolution(num_cells)``) that
    builds a static grid for each jitted helper it calls (fresh round 12, jf1uids: 2-8 findings
    per script): one change and one fix, told once; the other helper is ``related`` and named. A
    jitted function changed by another loop stays a finding of its own."""
    found = _json(str(SWEEP))
    assert [
        (Path(f["path"]).relative_to(SWEEP).as_posix(), f["line"], f["code"]) for f in found
    ] == [
        ("scaling.py", 28, "RTL201"),
        ("sim/driver.py", 10, "RTL201"),
    ]
    smoothing, grid = found
    assert smoothing["related"] == [] and "'smoothed'" in smoothing["message"]
    assert grid["message"].endswith("(and 1 more: 'config' of 'initial_state')")
    assert [(r["line"], r["message"].split("jitted ")[1][:15]) for r in grid["related"]] == [
        (12, "'initial_state'")
    ]
    assert [d.split(": ", 1)[0] for d in grid["details"]][-1] == "same change"


def test_static_objects_made_anew_at_two_jitted_calls_are_two_findings() -> None:
    """``Sensor.read`` makes a gain table for one jitted function and an offset table for another on
    each call: two constructions, two fixes (build each once), so two findings, though one call of
    the loop's body reaches both (JAX re-traces both functions at every frame)."""
    found = _json(str(Path(__file__).parent / "fixtures" / "hashing_read_from_methods"))
    made = [(f["line"], f["related"]) for f in found if "Sensor.read()" in f["message"]]
    assert made == [(31, []), (32, [])]
