"""Aliases of jit wrappers defined in one module and used in others (``aliases``): the fixtures
``wrapper_aliases_across_modules*`` and ``pmap_aliases_across_modules_negative`` show what they find;
here, that a cached run follows an edit of the alias's own module, though the modules using it
are unchanged, and so do the runs of a long-lived process (the language server), which keep the
aliases each module is given from one run to the next."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_fixtures import FIXTURES

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.session import Memory, Watch


@pytest.mark.parametrize("memory", [None, Memory], ids=["cached", "in memory"])
def test_an_edited_alias_is_followed_by_cached_runs(tmp_path: Path, memory: type | None) -> None:
    """The sweep count is static through the alias: dropping that setting in the alias's module
    (the modules jitting with it unchanged) takes the RTL201 away, in cached runs too, and
    putting it back brings it back."""
    project = tmp_path / "solver_project"
    shutil.copytree(FIXTURES / "wrapper_aliases_across_modules", project)
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    settings = project / "solver" / "jax_utils.py"
    aliased = settings.read_text(encoding="utf-8")
    cache = tmp_path / "cache"
    watch = Watch(memory()) if memory is not None else None

    def _findings(project: Path, cache: Path) -> set[tuple[str, int, str]]:
        run = analyse([str(project)], Settings(cache_dir=str(cache)), watch=watch)
        return {(Path(f.location.path).name, f.location.line, f.code) for f in run.findings}

    static = {("main.py", 13, "RTL201")}
    assert _findings(project, cache) == static
    settings.write_text(
        aliased.replace("functools.partial(jax.jit, static_argnums=(1,))", "jax.jit")
    )
    assert _findings(project, cache) == set()
    assert _findings(project, cache) == set()  # read back from the cache
    settings.write_text(aliased, encoding="utf-8")
    assert _findings(project, cache) == static
    # The module jitting with it edited, its imports kept: the alias still applies.
    main = project / "main.py"
    main.write_text(main.read_text(encoding="utf-8") + "\n\ndef unused():\n    pass\n")
    assert _findings(project, cache) == static
