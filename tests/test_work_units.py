"""How the suite's tests are cut into pytest-xdist units of work (tests/work_units.py)."""

from __future__ import annotations

from work_units import SLOW_FILES, first_of, unit_id, work_unit

DYNAMIC = "tests/test_fixtures_dynamic.py"


def test_a_files_tests_share_one_unit_unless_their_ids_name_a_batch() -> None:
    assert work_unit("tests/test_cli.py::test_exit_codes") == "tests/test_cli.py"
    assert work_unit("tests/test_cli.py::Formats::test_json[a-b]") == "tests/test_cli.py"
    batched = [
        f"{DYNAMIC}::test_fixture_retraces_exactly_as_its_findings_say[{unit_id('rtl101.py', '1')}]",
        f"{DYNAMIC}::test_negative_fixture_traces_each_function_once[{unit_id('pads', '1')}]",
        f"{DYNAMIC}::test_fixture_retraces_exactly_as_its_findings_say[{unit_id('carry', 'x64')}]",
    ]
    assert [work_unit(nodeid) for nodeid in batched] == [
        f"{DYNAMIC}::unit-1",
        f"{DYNAMIC}::unit-1",
        f"{DYNAMIC}::unit-x64",
    ]
    # An "@" that a parameter's value happens to hold names no batch.
    assert work_unit(f"{DYNAMIC}::test_x[user@unit-1.org-2]") == DYNAMIC


def test_slow_units_are_handed_out_first_in_their_order() -> None:
    waiting = ["tests/test_cli.py", SLOW_FILES[0], f"{DYNAMIC}::unit-2", DYNAMIC]
    assert first_of(waiting) == SLOW_FILES[0]
    assert first_of(waiting[2:]) == f"{DYNAMIC}::unit-2"
    assert first_of(["tests/test_cli.py", DYNAMIC]) is None


def test_files_that_share_runs_share_one_unit_handed_out_first() -> None:
    units = {
        work_unit(f"{file}::test_x[examples]")
        for file in (
            "tests/test_examples_dynamic.py",
            "tests/test_confirm_examples.py",
            "tests/test_confirm_identical.py",
        )
    }
    assert len(units) == 1
    (shared,) = units
    assert first_of(["tests/test_cli.py", shared]) == shared
