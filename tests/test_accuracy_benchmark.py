"""The accuracy benchmark (benchmarks/accuracy/): its programs do what their case files say, and its scorer
counts what it should.

JAX's proof that every program traces as its case says is ``run.py verify``, about 60 s of CPU over all of
them; it records each program it proves by the digest of its files (programs/verified.tsv). The suite
checks that record without JAX (a program edited or added since is not proved until verify is run
again), and runs under JAX only what the record cannot vouch for: the programs changed since, and a
positive and a negative that keep the verifier itself tried. A new jax release is the full verify's job.
The score itself is never asserted here (it moves as the analysis improves); only that the scorer's
classification is right and that RESULTS.md is what the script renders.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from limits import HANG_S

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "accuracy"
HAS_JAX = importlib.util.find_spec("jax") is not None


def _load_runner():
    spec = importlib.util.spec_from_file_location("accuracy_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


bench = _load_runner()
CASES = bench.load_cases()


# --------------------------------------------------------------------------------------------------
# The programs


def test_the_benchmark_has_the_programs_the_issues_ask_for() -> None:
    positives = [c for c in CASES if c.kind == "positive"]
    negatives = [c for c in CASES if c.kind == "negative"]
    flips = [c for c in positives if c.category == "signature-flip"]
    multi_module = [c for c in positives if len(list(c.folder.glob("*.py"))) > 1]
    assert len(positives) >= 55
    assert len(negatives) >= 25
    assert len(flips) >= 15
    assert len(multi_module) >= 10
    assert {c.category for c in positives} == set(bench.CATEGORIES)


def test_a_broken_case_file_is_reported_with_what_is_wrong(tmp_path: Path) -> None:
    folder = tmp_path / "some_program"
    folder.mkdir()
    (folder / "main.py").write_text("x = 1  # expect: RTL101\n", encoding="utf-8")
    (folder / "case.toml").write_text(
        'id = "other_name"\ncategory = "shape"\nkind = "negative"\nsources = ["http://x"]\n'
        "[traces]\nf = 2\n",
        encoding="utf-8",
    )
    with pytest.raises(bench.CaseError) as info:
        bench.load_cases(tmp_path)
    message = str(info.value)
    assert "some_program" in message
    assert "is not the folder name" in message
    assert "https URL" in message
    assert "every [traces] count is 1" in message
    assert "no expect and no markers" in message


def _program(root: Path, name: str, source: str) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "main.py").write_text("x = 1  # expect: RTL101\n", encoding="utf-8")
    (folder / "case.toml").write_text(
        f'id = "{name}"\ncategory = "shape"\nkind = "positive"\nexpect = ["RTL101"]\n'
        f'summary = "s"\nsources = ["{source}"]\n[traces]\nf = 2\n',
        encoding="utf-8",
    )


def test_a_held_out_program_re_creates_a_report_no_other_program_cites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held-out programs must be new to the analysis: ``check`` names the programs, held out or
    tuned, that re-create the same report."""
    held, tuned = tmp_path / "heldout", tmp_path / "programs"
    _program(held, "fresh_report", "https://github.com/o/r/issues/1")
    _program(held, "reused_report", "https://github.com/o/r/issues/2")
    _program(tuned, "tuned_report", "https://github.com/o/r/issues/2")
    monkeypatch.setattr(bench, "OWN_SOURCES", True)
    monkeypatch.setattr(bench, "OTHER_ROOTS", (tuned,))
    shared = bench.shared_sources(bench.load_cases(held))
    assert shared == [
        "reused_report: https://github.com/o/r/issues/2 is also re-created by programs/tuned_report"
    ]


# Verified under JAX on every run whatever the record says: multi-module, one re-traces, one does not.
ALWAYS_VERIFIED = ("keyword_vs_positional_eval", "keyword_consistent_across_modules")


def test_jax_proved_every_program_as_it_is_now() -> None:
    stale = [c.id for c in bench.changed(CASES, bench.verified_record())]
    assert stale == [], "run benchmarks/accuracy/run.py verify --changed (JAX proves them, records)"


def test_a_program_is_proved_again_once_any_of_its_files_changes(tmp_path: Path) -> None:
    _program(tmp_path, "one", "https://github.com/o/r/issues/1")
    _program(tmp_path, "two", "https://github.com/o/r/issues/2")
    cases = bench.load_cases(tmp_path)
    record = tmp_path / "verified.tsv"
    bench.record_verdicts([bench.Verdict(c, dict(c.traces), None) for c in cases], record)
    assert bench.changed(cases, record) == []
    (tmp_path / "two" / "helper.py").write_text("y = 2\n", encoding="utf-8")
    (tmp_path / "one" / "__pycache__").mkdir()  # what running it leaves is not the program
    main = tmp_path / "one" / "main.py"
    main.write_bytes(main.read_bytes().replace(b"\n", b"\r\n"))  # nor a checkout's line ends
    (tmp_path / "one" / "__pycache__" / "main.cpython-311.pyc").write_bytes(b"\0")
    assert [c.id for c in bench.changed(cases, record)] == ["two"]
    failed = bench.Verdict(cases[0], {"f": 1}, "JAX traced {'f': 1}, case.toml says {'f': 2}")
    bench.record_verdicts([failed], record)
    assert [c.id for c in bench.changed(cases, record)] == ["one", "two"]


@pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")
def test_programs_changed_since_their_proof_trace_as_their_case_says(tmp_path: Path) -> None:
    ids = sorted({*ALWAYS_VERIFIED, *(c.id for c in bench.changed(CASES, bench.verified_record()))})
    record = tmp_path / "verified.tsv"
    command = [sys.executable, str(BENCH / "run.py"), "verify", "--record", str(record)]
    result = subprocess.run(
        [*command, "--only", ",".join(ids)],
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert f"{len(ids)}/{len(ids)} programs do what their case.toml says" in result.stdout
    assert sorted(bench.recorded(record)) == ids


# --------------------------------------------------------------------------------------------------
# The scorer


def _case(kind: str, markers: set[tuple[str, int, str]]) -> object:
    return bench.Case(
        id="p",
        folder=BENCH,
        category="shape",
        kind=kind,
        summary="",
        sources=("https://example.org",),
        expect=tuple(sorted({code for _, _, code in markers})),
        gaps=("G7",),
        traces={"f": 2 if kind == "positive" else 1},
        markers=frozenset(bench.Marker(*m) for m in markers),
    )


POSITIVE = _case("positive", {("data.py", 12, "RTL103"), ("main.py", 30, "RTL103")})
NEGATIVE = _case("negative", set())


@pytest.mark.parametrize(
    ("findings", "outcome"),
    [
        ([("main.py", 30, "RTL103")], bench.FOUND),
        ([("main.py", 30, "RTL103"), ("data.py", 12, "RTL103")], bench.FOUND),
        ([("data.py", 12, "RTL103"), ("main.py", 8, "RTL201")], bench.FOUND_EXTRA),
        ([("main.py", 31, "RTL103")], bench.WRONG_LINE),
        ([("data.py", 12, "RTL101")], bench.WRONG_RULE),
        ([], bench.MISSED),
    ],
)
def test_a_positive_is_found_only_with_the_right_rule_at_a_marked_line(findings, outcome) -> None:
    score = bench.classify(POSITIVE, [bench.Finding(*f) for f in findings])
    assert score.outcome == outcome


def test_any_finding_on_a_negative_is_a_false_alarm() -> None:
    assert bench.classify(NEGATIVE, []).outcome == bench.CLEAN
    alarm = bench.classify(NEGATIVE, [bench.Finding("main.py", 3, "RTL105")])
    assert alarm.outcome == bench.FALSE_ALARM
    assert alarm.extra == ["main.py:3 RTL105"]


def test_the_report_counts_found_positives_and_false_alarms() -> None:
    scores = [
        bench.classify(POSITIVE, [bench.Finding("main.py", 30, "RTL103")]),
        bench.classify(
            POSITIVE, [bench.Finding("main.py", 30, "RTL103"), bench.Finding("x.py", 1, "RTL1")]
        ),
        bench.classify(POSITIVE, []),
        bench.classify(NEGATIVE, [bench.Finding("main.py", 3, "RTL105")]),
        bench.classify(NEGATIVE, []),
    ]
    text = bench.render([POSITIVE, NEGATIVE], scores, "header")
    assert "found with the right rule at the right line and no false alarm: 1 / 3 (33 %)" in text
    assert "negatives with a false alarm: 1 / 2" in text
    assert "| shape | 3 | 1 | 1 | 0 | 0 | 1 | 33 % | 2 | 1 |" in text
    assert "- **G7**: `p` (found+false-alarm), `p` (missed)" in text


def _table_rows(text: str) -> dict[str, str]:
    """Program id -> outcome, from the per-program tables of a RESULTS.md."""
    rows = re.findall(
        r"^\| `([a-z0-9_]+)` \| (?:positive|negative) \| ([^|]+?) \|", text, re.MULTILINE
    )
    return dict(rows)


def test_score_writes_results_for_the_run_it_made(tmp_path: Path) -> None:
    only = [
        "eval_remainder_batch",
        "metrics_dict_gains_key",
        "padded_last_batch_mask",
        "drop_last_loader",
    ]
    results, scores_json = tmp_path / "RESULTS.md", tmp_path / "scores.json"
    result = subprocess.run(
        [
            sys.executable,
            str(BENCH / "run.py"),
            "score",
            "--only",
            ",".join(only),
            "--results",
            str(results),
            "--json",
            str(scores_json),
        ],
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    scores = json.loads(scores_json.read_text(encoding="utf-8"))
    assert sorted(s["id"] for s in scores) == sorted(only)
    assert all(s["error"] is None for s in scores)
    outcomes = {s["id"]: s["outcome"] for s in scores}
    assert set(outcomes.values()) <= set(bench.POSITIVE_OUTCOMES + bench.NEGATIVE_OUTCOMES)
    text = results.read_text(encoding="utf-8")
    assert _table_rows(text) == outcomes
    found = sum(o == bench.FOUND for o in outcomes.values())
    assert f"no false alarm: {found} / 2 (" in text
    assert f"no false alarm): {found}/2 = " in result.stdout


def test_the_committed_results_cover_every_program_and_add_up() -> None:
    text = (BENCH / "RESULTS.md").read_text(encoding="utf-8")
    assert text.startswith("# Accuracy benchmark results\n\nGenerated by")
    rows = _table_rows(text)
    assert sorted(rows) == sorted(c.id for c in CASES), "run benchmarks/accuracy/run.py score"
    positives = [c.id for c in CASES if c.kind == "positive"]
    negatives = [c.id for c in CASES if c.kind == "negative"]
    found = sum(rows[i] == bench.FOUND for i in positives)
    alarms = sum(rows[i] == bench.FALSE_ALARM for i in negatives)
    assert f"no false alarm: {found} / {len(positives)} (" in text
    assert f"negatives with a false alarm: {alarms} / {len(negatives)}" in text


# --------------------------------------------------------------------------------------------------
# The dynamic mode on the programs (confirm.py)


def _load_confirm():
    sys.path.insert(0, str(BENCH))  # confirm.py imports run.py as its sibling
    spec = importlib.util.spec_from_file_location("accuracy_confirm", BENCH / "confirm.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


confirm = _load_confirm()


@pytest.mark.parametrize(
    ("seen", "outcome"),
    [
        ([("main.py", 30, "RTL103", "confirmed")], confirm.CONFIRMED),
        ([("main.py", 30, "RTL103", "not re-traced"), ("a.py", 2, "RTL901", "unpredicted")],
         confirm.UNPROVED),
        ([("a.py", 2, "RTL901", "unpredicted")], confirm.SEEN),
        ([("main.py", 9, "RTL201", "confirmed")], confirm.SEEN),
        ([("main.py", 9, "RTL201", "not reached")], confirm.UNSEEN),
        ([], confirm.UNSEEN),
    ],
)  # fmt: skip
def test_confirm_outcomes_of_a_positive(seen, outcome) -> None:
    case = confirm.run.Case(**{**POSITIVE.__dict__, "markers": frozenset(
        confirm.run.Marker(*m) for m in [("data.py", 12, "RTL103"), ("main.py", 30, "RTL103")]
    )})  # fmt: skip
    assert confirm.classify(case, [confirm.Seen(*s) for s in seen]) == outcome


def test_confirm_outcomes_of_a_negative() -> None:
    case = confirm.run.Case(**NEGATIVE.__dict__)
    assert (
        confirm.classify(case, [confirm.Seen("m.py", 3, "RTL105", "not re-traced")])
        == confirm.QUIET
    )
    alarm = [confirm.Seen("m.py", 3, "RTL901", "unpredicted", 1)]
    assert confirm.classify(case, alarm) == confirm.ALARM


@pytest.mark.skipif(not HAS_JAX, reason="the program runs under jax")
def test_confirm_sees_the_re_trace_of_a_program() -> None:
    [case] = confirm.run.load_cases(BENCH / "programs", ["antenna_array_field_shape"])
    [outcome] = confirm.confirm_all([case], confirm.run.default_retracelint(), 1, 120)
    assert outcome.error is None
    assert outcome.outcome in (confirm.CONFIRMED, confirm.SEEN), outcome
    assert all(not Path(s.path).is_absolute() for s in outcome.seen)
