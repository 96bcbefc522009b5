"""The wheel holds every package of retracelint: pyproject.toml names its packages one by one, and a
package left out (a stage split into a package of its own, as ``callgraph/`` and ``checks/`` were)
installs a retracelint that fails at its first import of it, though every test of a checkout passes."""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_of_the_source_is_in_the_wheel() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    shipped = set(setuptools["packages"])
    # A folder shipped as data of its package (``confirm/_boot``: put on the user program's path).
    shipped |= {
        f"{package}.{pattern.split('/')[0]}"
        for package, patterns in setuptools["package-data"].items()
        for pattern in patterns
        if "/" in pattern
    }
    source = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "retracelint").rglob("__init__.py")
    }
    assert source <= shipped, f"packages the wheel leaves out: {sorted(source - shipped)}"
