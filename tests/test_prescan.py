"""The relevance pre-scan never drops a finding: the same findings with and without it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fixture_runs import fixture_projects, fresh_run
from run_keys import finding_keys

from retracelint.config import Settings
from retracelint.discover import SourceFile
from retracelint.engine import Run, analyse
from retracelint.jitspec import BUILTIN_WRAPPERS
from retracelint.prescan import (
    Scan,
    imported_modules,
    names_wrapper,
    relevant,
    scan,
    wrapper_tokens,
)

ROOT = Path(__file__).parent.parent
CORPUS = Path(os.environ.get("RETRACELINT_CORPUS", ROOT / ".bench" / "corpus"))


def _both(paths: list[str], cache: Path) -> tuple[Run, Run]:
    full = analyse(paths, Settings(cache_dir=str(cache), prescan=False))
    scanned = analyse(paths, Settings(cache_dir=str(cache), prescan=True))
    return full, scanned


@pytest.mark.parametrize("project", fixture_projects(), ids=lambda path: path.name)
def test_same_findings_with_and_without_the_prescan(project: Path) -> None:
    """Each fixture's fresh run (the pre-scan on, as by default; shared with tests/test_reuse.py)
    against a run that summarises every file."""
    full = analyse([str(project)], Settings(cache=False, prescan=False, jobs=1))
    assert finding_keys(full) == finding_keys(fresh_run(project).run)


@pytest.mark.skipif(
    not CORPUS.is_dir(), reason="the benchmark corpus is not built (benchmarks/make_corpus.py)"
)
def test_same_findings_on_the_corpus(tmp_path: Path) -> None:
    full, scanned = _both([str(CORPUS)], tmp_path / "cache")
    assert finding_keys(full) == finding_keys(scanned)


def test_unconnected_files_are_left_out_and_linked_ones_kept(tmp_path: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/model.py": "import jax\nstep = jax.jit(lambda x: x)\n",
        "app/train.py": "from .model import step\nfrom .data import batches\n",
        "app/data.py": "import numpy as np\n\ndef batches(x):\n    yield x\n",
        "app/web.py": "import json\n\ndef view(request):\n    return json.dumps(request)\n",
        "tools/report.py": "from app.web import view\n",
    }
    sources = {}
    sourcefiles = []
    for name, text in files.items():
        module = name[:-3].replace("/", ".").removesuffix(".__init__")
        sourcefiles.append(SourceFile(name, module, name.endswith("__init__.py")))
        sources[name] = text.encode()
    keep = relevant(sourcefiles, _scans(sourcefiles, sources))
    assert keep == {"app/model.py", "app/train.py", "app/data.py"}
    # A plain `import app` reaches every module below app: the tool is linked then.
    sources["tools/report.py"] = b"import app.web\n"
    keep = relevant(sourcefiles, _scans(sourcefiles, sources))
    assert {"tools/report.py", "app/web.py", "app/model.py"} <= keep


@pytest.mark.parametrize(
    "text, names",
    [
        (b"step = jax.jit(f)", True),
        (b"from jax import lax", True),
        (b"@filter_jit\ndef f(x): ...", True),
        (b"\xc3\xa9 = 1\njit(f)", True),  # after a line of non-ASCII text
        (b"x = relax(unjit(_jit(jitter, my_filter_jit, pjitted)))", False),  # only inside words
        (b"x = unjit(y) + jit(z)", True),  # a word of its own after a word that holds it
    ],
)
def test_a_wrapper_is_named_only_by_a_word_of_its_own(text: bytes, names: bool) -> None:
    assert names_wrapper(text, wrapper_tokens(BUILTIN_WRAPPERS)) is names


def test_imports_are_read_in_every_spelling() -> None:
    source = b"""\
import jax, numpy as np
import a.b.c as d
from . import data, model as m
from .x import (
    y,  # a comment
    z,
)
from ..up import w, \\
    v
def f():
    message = "import this"; from_ = "from nowhere import nothing"
    \timport   json
"""
    expected = {
        "jax.*",
        "numpy.*",
        "a.*",
        "pkg.sub.data",
        "pkg.sub.model",
        "pkg.sub.x.y",
        "pkg.sub.x.z",
        "pkg.up.w",
        "pkg.up.v",
        "json.*",
    }
    for text in (source, source.replace(b"\n", b"\r\n")):
        found = imported_modules(text, "pkg.sub.mod", is_package=False)
        assert found >= expected
        assert not {name for name in found if "this" in name or "nowhere" in name}  # strings


def _scans(files: list[SourceFile], sources: dict[str, bytes]) -> dict[str, Scan | None]:
    tokens = wrapper_tokens(BUILTIN_WRAPPERS)
    return {f.path: scan(sources[f.path], f.module, f.is_package, tokens) for f in files}
