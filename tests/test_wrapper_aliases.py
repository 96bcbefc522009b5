"""Aliases of jit wrappers defined in one module and used in others (``aliases``): the fixtures
``wrapper_aliases_across_modules*`` and ``pmap_aliases_across_modules_negative`` show what they find;
here, that a cached run follows an edit of the alias's own module, though the modules using it
are unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_fixtures import FIXTURES

from retracelint.config import Settings
from retracelint.engine import analyse


def _findings(project: Path, cache: Path) -> set[tuple[str, int, str]]:
    run = analyse([str(project)], Settings(cache_dir=str(cache)))
    return {(Path(f.location.path).name, f.location.line, f.code) for f in run.findings}


def test_an_edited_alias_is_followed_by_cached_runs(tmp_path: Path) -> None:
    """The sweep count is static through the alias: dropping that setting in the alias's module
    (the modules jitting with it unchanged) takes the RTL201 away, in cached runs too, and
    putting it back brings it back."""
    project = tmp_path / "solver_project"
    shutil.copytree(FIXTURES / "wrapper_aliases_across_modules", project)
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    settings = project / "solver" / "jax_utils.py"
    aliased = settings.read_text(encoding="utf-8")
    cache = tmp_path / "cache"
    static = {("main.py", 13, "RTL201")}
    assert _findings(project, cache) == static
    settings.write_text(
        aliased.replace("functools.partial(jax.jit, static_argnums=(1,))", "jax.jit")
    )
    assert _findings(project, cache) == set()
    assert _findings(project, cache) == set()  # read back from the cache
    settings.write_text(aliased, encoding="utf-8")
    assert _findings(project, cache) == static
