"""Benchmark scripts (benchmarks/...) loaded as modules, so tests call their functions directly."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def load_script(relative: str, name: str) -> ModuleType:
    """The script at benchmarks/<relative>, imported under ``name``."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """A corpus of code bases for a benchmark script: each relative path in ``files`` with its text."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root
