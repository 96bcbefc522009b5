"""The whole-file fixes, keyed by rule code (RTL203 and RTL404 rewrite one argument in place: see the
package). A rule's codemod lives in its own module, so that it can move beside its rule."""

from __future__ import annotations

from retracelint.fixes.base import Fix
from retracelint.fixes.fresh_static import make_once
from retracelint.fixes.rebuilt_jit import hoist_jit
from retracelint.fixes.static_params import make_traced
from retracelint.fixes.weak_types import float_literal, strong_scalar
from retracelint.model import Finding


def _jit_site_file(finding: Finding) -> str:
    """Making a parameter traced rewrites where the function is jitted, which may be another file."""
    return finding.jit_site.location.path if finding.jit_site else finding.location.path


CODEMODS: dict[str, Fix] = {
    "RTL201": Fix(make_traced, safe=True, target=_jit_site_file),
    "RTL202": Fix(make_traced, safe=True, target=_jit_site_file),
    "RTL204": Fix(make_once, safe=True),  # a fresh object shared instead is unsafe (``Rewrite``)
    "RTL301": Fix(hoist_jit, safe=True),
    "RTL401": Fix(strong_scalar, safe=False),
    "RTL402": Fix(float_literal, safe=True),
}
