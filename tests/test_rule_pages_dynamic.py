"""The rule pages say what they mean: their shape, and (with jax) what their examples do at run time.

Every executable page has a flagged and a fixed program. Run for real under
``jax.explain_cache_misses``, the flagged one must re-trace for the reason the rule is about (RTL203's must
raise jax's ``Non-hashable static arguments`` error instead) and the fixed one must neither re-trace nor
raise. All programs run in one subprocess with one jax import, which keeps this file at a few seconds.
The static analysis of the same examples is tested elsewhere.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest
from dynamic_support import RetraceReport, count_retraces_many
from rule_pages import DESCRIPTIVE_SECTIONS, EXECUTABLE_SECTIONS, RulePage, load_pages

from retracelint.rules import RULES_BY_CODE

PAGE_CODES = (
    "RTL000",
    "RTL100",
    "RTL101",
    "RTL102",
    "RTL103",
    "RTL104",
    "RTL105",
    "RTL201",
    "RTL202",
    "RTL203",
    "RTL204",
    "RTL301",
    "RTL302",
    "RTL401",
    "RTL402",
    "RTL403",
    "RTL404",
    "RTL405",
    "RTL901",
)
# Pages written before their catalogue entry exists: the page's name must be this one.
NAMES_NOT_YET_IN_CATALOGUE = {
    "RTL401": "weak-type-flip",
    "RTL402": "dtype-flip",
    "RTL403": "pytree-structure-change",
    "RTL404": "arg-by-keyword-and-position",
}

# What jax's explanation of the flagged example's re-trace must contain: proof that the example re-traces
# for the reason its rule is about, not by accident.
EVIDENCE = {
    "RTL101": "different input types",
    "RTL102": "different input types",
    "RTL103": "different input types",
    "RTL104": "different input types",
    "RTL105": "different input types",
    "RTL201": "Static(val=",
    "RTL202": "Static(val=",
    "RTL204": "Static(val=",
    "RTL301": "but seen another function defined on the same line",
    # The same function (same id) as in the call before the clear, "never seen" again.
    "RTL302": "never seen function",
    "RTL401": "weak_type=",
    "RTL402": "different input types",
    "RTL403": "different input pytree",
    "RTL404": "different input pytree",
    "RTL405": "Tracing context doesn't match",
}
RAISES_INSTEAD = {"RTL203": "ValueError: Non-hashable static arguments are not supported"}

PAGES = load_pages()
EXECUTABLE = [page for page in PAGES if page.executable]
HAS_JAX = importlib.util.find_spec("jax") is not None


def _ids(page: RulePage) -> str:
    return page.code


# ---------------------------------------------------------------------------------------------------
# Shape of the pages (no jax needed).


def test_every_rule_has_a_page() -> None:
    assert tuple(page.code for page in PAGES) == PAGE_CODES
    assert set(RULES_BY_CODE) <= set(PAGE_CODES), "a catalogue entry without a page"


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_page_header_matches_file_and_catalogue(page: RulePage) -> None:
    assert page.path.name == f"{page.code}.md"
    rule = RULES_BY_CODE.get(page.code)
    if rule is None:
        assert page.name == NAMES_NOT_YET_IN_CATALOGUE[page.code]
        assert page.default is True
    else:
        assert (page.name, page.summary, page.default) == (rule.name, rule.summary, rule.default)
    assert len(page.summary) <= 110, "the summary is one short line"


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_page_has_its_sections(page: RulePage) -> None:
    required = EXECUTABLE_SECTIONS if page.executable else DESCRIPTIVE_SECTIONS
    for title in required:
        assert page.sections.get(title), f"{page.path.name}: missing or empty '## {title}'"
    assert page.executable == (page.code in EVIDENCE or page.code in RAISES_INSTEAD)


@pytest.mark.parametrize("page", EXECUTABLE, ids=_ids)
def test_examples_are_small_complete_programs(page: RulePage) -> None:
    for label, source in (("flagged", page.flagged_source), ("fixed", page.fixed_source)):
        assert source is not None
        tree = ast.parse(source, filename=f"{page.code}_{label}.py")
        text = ast.dump(tree)
        nodes = list(ast.walk(tree))
        imported = {
            alias.name for node in nodes if isinstance(node, ast.Import) for alias in node.names
        }
        assert "jax" in imported, f"{label} example must import jax"
        assert "attr='jit'" in text, f"{label} example must use jax.jit"
        assert any(isinstance(node, ast.For | ast.While) for node in nodes), (
            f"{label} example must call the jitted function in a loop"
        )
        assert len(source.splitlines()) <= 30, f"{label} example should stay a few lines"


@pytest.mark.parametrize("page", EXECUTABLE, ids=_ids)
def test_flagged_example_marks_the_line_to_change(page: RulePage) -> None:
    assert page.flagged is not None and page.fixed is not None
    lines = page.flagged.source.splitlines()
    assert page.expected, f"{page.path.name}: the flagged example has no '# expect:' marker"
    assert page.code in {code for _, code in page.expected}
    for line, _ in page.expected:
        assert 1 <= line <= len(lines)
    assert not page.fixed.expected, "the fixed example must not carry '# expect:' markers"


# ---------------------------------------------------------------------------------------------------
# What the examples do when run (jax, CPU).

needs_jax = pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], RetraceReport]:
    """Run every example once, all in one subprocess; keyed by (code, "flagged" | "fixed")."""
    folder: Path = tmp_path_factory.mktemp("rule_examples")
    keys: list[tuple[str, str]] = []
    paths: list[Path] = []
    for page in EXECUTABLE:
        flagged, fixed = page.write_examples(folder)
        keys += [(page.code, "flagged"), (page.code, "fixed")]
        paths += [flagged, fixed]
    return dict(zip(keys, count_retraces_many(paths, cwd=folder), strict=True))


@needs_jax
@pytest.mark.parametrize("page", EXECUTABLE, ids=_ids)
def test_flagged_example_really_retraces(
    page: RulePage, runs: dict[tuple[str, str], RetraceReport]
) -> None:
    report = runs[(page.code, "flagged")]
    if page.code in RAISES_INSTEAD:
        assert report.exception is not None, report.summary()
        assert report.exception.startswith(RAISES_INSTEAD[page.code]), report.summary()
        return
    assert not report.raised, report.summary()
    assert report.total_retraces >= 1, report.summary()
    reasons = [record.message for record in report.records if record.is_retrace]
    assert any(EVIDENCE[page.code] in reason for reason in reasons), report.summary()


@needs_jax
@pytest.mark.parametrize("page", EXECUTABLE, ids=_ids)
def test_fixed_example_does_not_retrace(
    page: RulePage, runs: dict[tuple[str, str], RetraceReport]
) -> None:
    report = runs[(page.code, "fixed")]
    assert not report.raised, report.summary()
    assert report.total_retraces == 0, report.summary()
    assert report.traces, "the fixed example must still call its jitted function"
