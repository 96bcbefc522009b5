"""The evidence model (issue 36): what a finding's chain assumes, how sure it is, and what a user sees by
default (proven chains) and with ``--confidence all`` (the rest, marked), in every format and through
the configuration."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from retracelint import config
from retracelint.cli import main
from retracelint.formats import render_sarif
from retracelint.model import Assumption, Finding, Location, confidence_of
from retracelint.rules import RULES

FIXTURES = Path(__file__).parent / "fixtures"
FLAGS = FIXTURES / "evidence_feature_flags"
SCHEMA = Path(__file__).parent / "data" / "sarif-2.1.0.json"
PROBE = "evidence_feature_flags/train.py:15:51: RTL101"


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args, "--no-cache", "--isolated"])
    return result.exit_code, result.output


@pytest.fixture(autouse=True)
def _in_fixtures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)  # findings named as a user in that folder sees them


def test_confidence_is_the_least_sure_assumption() -> None:
    at = Location("a.py", 3, 1)
    assert confidence_of(()) == "high"
    assert confidence_of((Assumption("guessed-callee", at, "x"),)) == "medium"
    both = (Assumption("guessed-callee", at, "x"), Assumption("entry-splice", at, "y"))
    assert confidence_of(both) == "low"


def test_default_shows_only_proven_chains_and_all_marks_the_rest() -> None:
    code, default = _check("evidence_feature_flags")
    assert code == 1
    assert PROBE not in default
    assert "evidence_feature_flags/train.py:17:55: RTL101 slice" in default  # proven: an error
    code, every = _check("evidence_feature_flags", "--confidence", "all")
    probe = next(line for line in every.splitlines() if line.startswith(PROBE))
    # Resting on an assumption, it is a warning, whatever its rule's severity.
    assert probe.startswith(f"{PROBE} [warning] slice data[: step + 1]")
    assert probe.endswith("[low confidence: `profile_shapes` is False unless set]")


def test_json_carries_confidence_and_assumptions() -> None:
    _, out = _check("evidence_feature_flags", "--confidence", "all", "--format", "json")
    by_line = {(f["path"], f["line"]): f for f in json.loads(out)}
    probe = by_line[("evidence_feature_flags/train.py", 15)]
    assert probe["confidence"] == "low"
    assert probe["assumptions"] == [
        {
            "kind": "flag-off",
            "text": "`profile_shapes` is False unless set",
            "path": "evidence_feature_flags/train.py",
            "line": 13,
            "col": 9,
            "end_line": 0,
            "end_col": 0,
        }
    ]
    proven = by_line[("evidence_feature_flags/train.py", 17)]
    assert (proven["confidence"], proven["assumptions"], proven["severity"]) == (
        "high",
        [],
        "error",
    )


def test_sarif_carries_confidence_and_stays_valid() -> None:
    at = Location("src/train.py", 15, 5)
    unproven = Finding(
        "RTL101",
        "slice x[:n] changes shape",
        at,
        severity="warning",
        assumptions=(Assumption("entry-splice", at, "no one entry point runs both a and b"),),
    )
    proven = Finding("RTL101", "slice y[:n] changes shape", Location("src/train.py", 20, 5))
    doc = json.loads(render_sarif([unproven, proven], rules=RULES, tool_version="0.1", root="."))
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert [e.message for e in validator.iter_errors(doc)] == []
    first, second = doc["runs"][0]["results"]
    assert first["properties"]["confidence"] == "low" and first["rank"] < second["rank"]
    assert first["properties"]["assumptions"][0]["kind"] == "entry-splice"
    assert second["properties"] == {"confidence": "high"}


def test_the_configuration_key_is_read_and_checked(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    for source in FLAGS.glob("*.py"):
        (project / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[tool.retracelint]\nconfidence = "all"\n', encoding="utf-8")
    assert config.load_file(pyproject).confidence == "all"
    runner = CliRunner()
    result = runner.invoke(main, ["check", str(project), "--no-cache"])
    assert "[low confidence: `profile_shapes` is False unless set]" in result.output
    pyproject.write_text('[tool.retracelint]\nconfidence = "medium"\n', encoding="utf-8")
    with pytest.raises(config.ConfigError, match="option 'confidence': expected one of high, all"):
        config.load_file(pyproject)


def test_a_script_that_runs_both_halves_proves_the_chain(tmp_path: Path) -> None:
    """The recorder filled in one test and summarised in another is unproven; a script that records
    and summarises in one loop proves it, and the finding is shown by default, an error."""
    source = FIXTURES / "evidence_entry_points"
    for name in ("recorder.py", "test_recorder.py"):
        (tmp_path / name).write_text((source / name).read_text(encoding="utf-8"), encoding="utf-8")
    append = f"{tmp_path / 'recorder.py'}:17:9: RTL102"
    _, before = _check(str(tmp_path))
    assert append not in before
    (tmp_path / "report.py").write_text(
        "import jax.numpy as jnp\n\nfrom recorder import Recorder\n\n\ndef main():\n"
        "    recorder = Recorder()\n    for step in range(100):\n"
        "        recorder.record(jnp.ones(3) * step)\n        print(recorder.summary())\n\n\n"
        'if __name__ == "__main__":\n    main()\n',
        encoding="utf-8",
    )
    code, after = _check(str(tmp_path))
    assert code == 1
    assert f"{append} self.rows.append(row) grows on each call of Recorder.record()" in after


def test_branches_their_own_arguments_switch_off() -> None:
    """A branch every construction switches off (``Langevin(..., None)`` for ``if
    self.resample_every is not None``) and one every call leaves at its False default make no
    finding; a flag whose False default switches it off while the caller passes a settings file's
    value is unproven, marked; a branch taken (``swap_every=2``) and a training loop's own test
    (``step % period == 0``) stay proven."""
    folder = "branches_switched_off_by_their_arguments"
    _, default = _check(folder)
    _, every = _check(folder, "--confidence", "all")
    assert "samplers.py:20:" not in every and "metrics.py:12:" not in every
    assert "metrics.py:19:" not in default
    unproven = next(line for line in every.splitlines() if "metrics.py:19:37: RTL301" in line)
    assert unproven.endswith("[low confidence: `with_trace` is False unless set]")
    proven = [line.split(": ")[0] for line in default.splitlines() if ": RTL301 " in line]
    assert proven == [
        f"{folder}/metrics.py:33:29",
        f"{folder}/samplers.py:38:52",  # one finding for the lax.cond, naming both branches
    ]


def test_eager_paths_beside_a_jit_are_unproven_where_the_flag_keeps_jit_on() -> None:
    """A step jitted under ``if params.use_jit:`` (``use_jit: bool = True``): the eager path the
    flag turned off would take is an assumption, marked at the ``if``, and the default run shows
    nothing; with the flag declared ``False``, or ``jit=False`` passed, the same kernels are proven
    errors (the same kinds of kernels, in a particle tracer)."""
    folder = "steps_jitted_behind_a_flag_negative"
    code, default = _check(folder)
    assert (code, default.strip()) == (0, "")
    _, out = _check(folder, "--confidence", "all", "--format", "json")
    found = {(f["path"], f["line"]): f for f in json.loads(out)}
    assert sorted(found) == [(f"{folder}/physics.py", 15), (f"{folder}/physics.py", 25)]
    for finding, at_if in zip(found.values(), (9, 21), strict=True):
        assert (finding["severity"], finding["confidence"]) == ("warning", "low")
        (assumption,) = finding["assumptions"]
        assert (assumption["kind"], assumption["path"], assumption["line"]) == (
            "jit-off",
            f"{folder}/driver.py",
            at_if,
        )
        assert assumption["text"] == "runs without the jit only if `params.use_jit` is false"
    code, eager = _check("particles_integrated_eagerly_by_default", "--format", "json")
    proven = {
        (Path(f["path"]).name, f["line"], f["severity"], f["confidence"]) for f in json.loads(eager)
    }
    assert code == 1 and proven == {
        ("kernels.py", 16, "error", "high"),  # the flag declared False: eager by default
        ("kernels.py", 28, "error", "high"),  # jit_walls=False passed
        ("kernels.py", 37, "error", "high"),  # no jit anywhere on the chain
        ("main.py", 27, "error", "high"),  # in the loop's own function: a chain of no call
    }


def test_an_eager_arm_of_a_conditional_jit_is_unproven_where_callers_keep_the_jit() -> None:
    """``solve = jax.jit(_solve) if jit else _solve`` with ``jit: bool = True`` that no call
    changes: the planner's scan runs eagerly only on the arm a debugging run takes, an assumption
    marked at the conditional expression; a replay whose ``compiled=False`` default keeps the jit
    off runs the smoother's scan eagerly at every call, a proven error."""
    folder = "solves_chosen_jitted_or_eager"
    code, out = _check(folder, "--confidence", "all", "--format", "json")
    found = {(Path(f["path"]).name, f["line"]): f for f in json.loads(out)}
    assert code == 1 and sorted(found) == [("planning.py", 33), ("planning.py", 45)]
    unproven, proven = found[("planning.py", 33)], found[("planning.py", 45)]
    assert (unproven["severity"], unproven["confidence"]) == ("warning", "low")
    (assumption,) = unproven["assumptions"]
    assert (assumption["kind"], assumption["path"], assumption["line"]) == (
        "jit-off",
        f"{folder}/runner.py",
        12,
    )
    assert assumption["text"] == "runs without the jit only if `jit` is false"
    assert (proven["severity"], proven["confidence"], proven["assumptions"]) == (
        "error",
        "high",
        [],
    )


def test_a_constant_jit_rebuilt_for_each_new_size_is_unproven() -> None:
    """``jax.jit(lambda: jnp.zeros(shape))()`` rebuilt per call: called in a loop over candidate
    lengths, one new length each time, each trace is needed anyway (marked, hidden by default);
    called at every step with one width, it is an error."""
    folder = "constant_jits_rebuilt_per_setting"
    _, default = _check(folder)
    assert [line.split(": ")[0] for line in default.splitlines() if "RTL301" in line] == [
        f"{folder}/buffers.py:17:12"
    ]
    _, every = _check(folder, "--confidence", "all")
    unproven = next(line for line in every.splitlines() if "buffers.py:12:12: RTL301" in line)
    assert unproven.endswith(
        "[low confidence: `chunk_steps` is new at each iteration: each trace may be needed anyway]"
    )


def _copy_tree(source: Path, to: Path, leave_out: str) -> None:
    for path in sorted(source.rglob("*.py")):
        if path.name != leave_out:
            target = to / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")


def test_a_debug_branch_each_script_switches_off_has_no_route(tmp_path: Path) -> None:
    """``if config.runtime_debugging:`` runs the integration eagerly under checkify, so its nested
    ``lax.cond`` branches re-trace per call; the script that builds ``SimulationConfig(
    runtime_debugging=True)`` keeps that route, the one that builds it with ``False`` (then updates
    it with a helper that leaves the field alone) has none, and a value read from the command line
    keeps the route as well."""
    folder = "debug_branches_switched_off_by_each_script"
    code, out = _check(folder, "--format", "json")
    routes = [f["call_path"][0]["path"] for f in json.loads(out) if f["code"] == "RTL301"]
    assert code == 1 and routes == [f"{folder}/scripts/debug_blast.py"]

    _copy_tree(FIXTURES / folder, tmp_path, leave_out="debug_blast.py")
    code, out = _check(str(tmp_path))
    assert "RTL301" not in out

    script = tmp_path / "scripts" / "turbulence.py"
    text = script.read_text(encoding="utf-8")
    script.write_text(
        "import sys\n" + text.replace("=False", '="--debug" in sys.argv'),
        encoding="utf-8",
    )
    code, out = _check(str(tmp_path))
    assert code == 1 and f"{tmp_path}/solver/integrate.py:20:48: RTL301" in out


def test_a_factory_below_a_branch_every_caller_switches_off_has_no_route(tmp_path: Path) -> None:
    """``sigma_of_mass`` builds its jitted kernels only ``if cached is None``; the chain's model
    stores them once (behind ``hasattr``) and passes ``self._sigma_fns``, the timing loop passes
    what ``build_sigma_fns`` returns (a tuple at its one return): no call takes the branch, so no
    rebuild is reported even with ``--confidence all`` (fresh round 18, cosmocnc ``hmf.py:431``).
    A caller that leaves ``cached`` out in a loop takes it: both jits are rebuilt per call."""
    folder = "kernels_built_once_and_passed_negative"
    assert _check(folder, "--confidence", "all") == (0, "")

    _copy_tree(FIXTURES / folder, tmp_path, leave_out="")
    script = tmp_path / "chain.py"
    text = script.read_text(encoding="utf-8")
    script.write_text(text.replace(", cached=fns)", ")"), encoding="utf-8")
    code, out = _check(str(tmp_path))
    assert code == 1
    # the two kernels the maker builds per call: one cause, told at the first (one_per_cause)
    found = [line for line in out.splitlines() if "RTL301" in line]
    assert [line.split(": RTL301")[0] for line in found] == [f"{tmp_path}/spectra/sigma.py:15:16"]
    assert found[0].endswith("(and 1 more of this cause: line 20)")


SWEEPS = FIXTURES / "resolution_sweeps_run_their_own_loop"


def test_a_resolution_sweep_whose_points_step_their_jit_is_unproven() -> None:
    """A script sweeping a few grid sizes, each a simulation stepped many times: hidden by default,
    marked with `--confidence all` (a warning naming the sweep). The growing prefix of a training
    loop stays an error, and the per-size benchmark that calls its jit once per size a warning."""
    folder = SWEEPS.name
    code, default = _check(folder)
    assert code == 1
    assert "scaling.py" not in default and "convergence.py" not in default
    assert f"{folder}/training.py:12:25: RTL101 slice data[:n]" in default
    assert f"{folder}/benchmark.py:14:19: RTL105 [warning] jnp.ones(size)" in default
    _, out = _check(folder, "--confidence", "all", "--format", "json")
    swept = [f for f in json.loads(out) if f["path"].endswith(("scaling.py", "convergence.py"))]
    # Each sweep's size reaches two jitted functions through one call (`run(num_cells, ...)`): one
    # change, told once, the other jit's finding related.
    assert {
        (f["path"].rpartition("/")[2], f["line"], tuple(r["line"] for r in f["related"]))
        for f in swept
    } == {("scaling.py", 18, (21,)), ("convergence.py", 15, (17,))}
    for finding in swept:
        assert (finding["severity"], finding["confidence"]) == ("warning", "low")
        assert [a["kind"] for a in finding["assumptions"]] == ["sweep"]
    scaling = next(f for f in swept if f["path"].endswith("scaling.py"))
    assert scaling["assumptions"][0]["line"] == 27  # the sweep's loop
    assert scaling["assumptions"][0]["text"] == (
        "a sweep over 4 fixed points, each using its jit in a loop of its own"
    )


@pytest.mark.parametrize(
    ("sizes", "loop"),
    [
        ("RESOLUTIONS = list(range(32, 2048, 32))", "for num_cells in RESOLUTIONS:"),  # 63 points
        ("RESOLUTIONS = [64, 128]", "for num_cells in RESOLUTIONS[: int(sys.argv[2])]:"),
        (
            "RESOLUTIONS = [64]\nfor _ in range(int(sys.argv[2])):\n"
            "    RESOLUTIONS.append(2 * RESOLUTIONS[-1])",
            "for num_cells in RESOLUTIONS:",
        ),
    ],
)
def test_a_sweep_the_source_does_not_fix_stays_shown(tmp_path: Path, sizes: str, loop: str) -> None:
    """Many points, a slice of them chosen at run time, or a list grown to a length given at run
    time: not a few fixed points, so the static config's re-traces are shown."""
    project = tmp_path / "proj"
    for source in SWEEPS.rglob("*.py"):
        target = project / source.relative_to(SWEEPS)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    script = project / "scaling.py"
    text = script.read_text(encoding="utf-8")
    text = text.replace("RESOLUTIONS = [64, 128, 256, 512]", sizes)
    text = text.replace("for num_cells in RESOLUTIONS:", loop)
    script.write_text(text, encoding="utf-8")
    line = text.splitlines().index("    x = cell_centres(config)  # unproven: RTL201") + 1
    _, default = _check(str(project))
    assert f"{script}:{line}:22: RTL201 static argument config changes" in default


GRID = FIXTURES / "agents_per_config_grid"


def test_a_static_agent_made_per_point_of_a_grid_is_a_proven_warning() -> None:
    """A benchmark script over three spelled-out configurations, each making its agent (a static
    `self` of the jitted update) and training it 300 episodes in a module's trainer: one trace per
    configuration, bounded by the grid (a warning), and removable (pass the settings traced), as
    the held-out programs judge it: shown by default, resting on no assumption."""
    code, out = _check(GRID.name, "--format", "json")
    assert code == 1
    (finding,) = json.loads(out)
    assert (finding["code"], finding["line"], finding["severity"]) == ("RTL204", 17, "warning")
    assert finding["assumptions"] == []


def test_agents_per_point_of_a_growing_list_are_an_error(tmp_path: Path) -> None:
    """The same agents made per item of a list grown to a length given at run time: no bound on
    the points, so each new agent's re-trace is an error. (A list filled with the command line's
    own words is as held as they are: ``test_how_often``'s files from the command line.)"""
    project = tmp_path / "proj"
    for source in GRID.rglob("*.py"):
        target = project / source.relative_to(GRID)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    script = project / "grid.py"
    grown = (
        "import sys\n\nCONFIGS = []\nfor i in range(int(sys.argv[1])):\n"
        '    CONFIGS.append({"learning_rate": 0.1 / (i + 1), "gamma": 0.99})\n'
    )
    text = script.read_text(encoding="utf-8")
    start, end = text.index("CONFIGS = ["), text.index("\n\n\ndef run")
    text = text[:start] + grown + text[end:]
    script.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "return train(agent" in row)
    _, default = _check(str(project))
    made = f"{script}:{line}:18: RTL204 static argument agent is a Agent instance made anew"
    assert made in default


def test_years_that_pick_a_codebook_are_no_size_sweep() -> None:
    """Held-out `private_marginals_domain_labels_aux`: a loop over three survey years, each loading
    a wave whose domain carries the year's codebook labels as pytree aux data. The years are ints
    that differ, but none reaches a shape or the static value as itself (they seed a generator and
    key a dict): the re-trace is removable, so it is shown by default."""
    program = (
        FIXTURES.parent.parent / "benchmarks/accuracy/heldout/private_marginals_domain_labels_aux"
    )
    code, default = _check(str(program))
    assert code == 1
    assert (
        f"{program}/main.py:27:14: RTL201 [warning] static field Factor.domain changes" in default
    )
    assert "confidence" not in default
