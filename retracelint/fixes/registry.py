"""The whole-file fixes, keyed by rule code (RTL203 and RTL404 rewrite one argument in place: see the
package). A rule's codemod lives in its own module, so that it can move beside its rule."""

from __future__ import annotations

from retracelint.fixes.base import Fix, Refusal, Rewrite, Source
from retracelint.fixes.closure_args import pass_closed_over
from retracelint.fixes.fresh_static import make_once
from retracelint.fixes.rebuilt_jit import hoist_jit
from retracelint.fixes.static_params import make_traced
from retracelint.fixes.weak_types import float_literal, strong_scalar
from retracelint.model import Finding


def _jit_site_file(finding: Finding) -> str:
    """Making a parameter traced rewrites where the function is jitted, which may be another file."""
    return finding.jit_site.location.path if finding.jit_site else finding.location.path


def build_once(source: Source, finding: Finding) -> Rewrite | Refusal:
    """RTL301: the jit built once where it is (``hoist_jit``); when it closes over values of the call,
    built once with those values made its arguments (``pass_closed_over``, unsafe)."""
    hoisted = hoist_jit(source, finding)
    if isinstance(hoisted, Refusal) and hoisted.reason.startswith("it closes over"):
        passed = pass_closed_over(source, finding)
        return (
            passed if isinstance(passed, Rewrite) else Refusal(f"{hoisted.reason}; {passed.reason}")
        )
    return hoisted


CODEMODS: dict[str, Fix] = {
    "RTL201": Fix(make_traced, safe=True, target=_jit_site_file),
    "RTL202": Fix(make_traced, safe=True, target=_jit_site_file),
    "RTL204": Fix(make_once, safe=True),  # a fresh object shared instead is unsafe (``Rewrite``)
    "RTL301": Fix(build_once, safe=True),  # the values made arguments is unsafe
    "RTL401": Fix(strong_scalar, safe=False),
    "RTL402": Fix(float_literal, safe=True),
}
