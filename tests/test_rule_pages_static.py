"""Each rule page's examples, through the analyzer: the flagged one reports exactly the `# expect:` lines
(with that page's code), the fixed one reports nothing. And the catalogue and the pages agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_pages import executable_pages, load_pages

from retracelint.checks import FAMILIES
from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.rules import RULES, RULES_BY_CODE

PAGES = executable_pages()


def _findings(path: Path) -> set[tuple[int, str]]:
    run = analyse([str(path)], Settings(cache=False, select=("RTL",)))
    return {(f.location.line, f.code) for f in run.findings}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.code)
def test_flagged_example_reports_exactly_its_markers(page, tmp_path: Path) -> None:
    flagged, _ = page.write_examples(tmp_path)
    assert _findings(flagged) == set(page.expected)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.code)
def test_fixed_example_is_clean(page, tmp_path: Path) -> None:
    _, fixed = page.write_examples(tmp_path)
    assert _findings(fixed) == set()


def test_every_rule_has_a_page_and_every_page_a_rule() -> None:
    pages = {page.code for page in load_pages()}
    assert pages == set(RULES_BY_CODE), (
        f"rules without a page: {sorted(set(RULES_BY_CODE) - pages)}; "
        f"pages without a rule: {sorted(pages - set(RULES_BY_CODE))}"
    )
    for page in load_pages():
        rule = RULES_BY_CODE[page.code]
        assert (page.name, page.summary) == (rule.name, rule.summary)
        assert page.default == rule.default
    assert len(RULES) == len(pages)


# Rules made outside the rule families: RTL000 by the engine, RTL100 by the filters, RTL901 by confirm.
_NOT_CHECKS = {"RTL000", "RTL100", "RTL901"}


def test_every_rule_of_the_catalogue_has_a_family_and_every_family_only_catalogued_rules() -> None:
    declared = {code for family in FAMILIES for code in family.CODES}
    assert declared == set(RULES_BY_CODE) - _NOT_CHECKS, (
        f"rules no family emits: {sorted(set(RULES_BY_CODE) - _NOT_CHECKS - declared)}; "
        f"codes of no rule: {sorted(declared - set(RULES_BY_CODE))}"
    )
