"""The whole-file fixes, keyed by rule code (RTL203 and RTL404 rewrite one argument in place: see the
package). A rule's codemod lives in its own module, so that it can move beside its rule."""

from __future__ import annotations

from retracelint.fixes import short_batch
from retracelint.fixes.base import Fix, Refusal, Rewrite, Source
from retracelint.fixes.bound_method import jit_in_init
from retracelint.fixes.cleared_caches import clear_once
from retracelint.fixes.closure_args import pass_closed_over
from retracelint.fixes.eager_lax import jit_runner
from retracelint.fixes.fresh_static import make_once
from retracelint.fixes.keyword_calls import keyword_elsewhere
from retracelint.fixes.none_first import NOT_AT_NONE, run_first_branch
from retracelint.fixes.padded_growth import entry_file, pad_rows
from retracelint.fixes.partial_pytree import partial_as_pytree
from retracelint.fixes.per_object import make_per_object
from retracelint.fixes.program_setting import set_for_program
from retracelint.fixes.rebuilt_jit import hoist_jit
from retracelint.fixes.record_start import start_as_result
from retracelint.fixes.static_closure import pass_values
from retracelint.fixes.static_fields import make_leaf
from retracelint.fixes.static_loops import loops_as_fori
from retracelint.fixes.static_params import make_traced
from retracelint.fixes.static_self import fresh_as_pytree, static_as_pytree
from retracelint.fixes.value_eq import compare_by_value
from retracelint.fixes.weak_types import float_literal, strong_scalar
from retracelint.model import Finding


def _static_field(finding: Finding) -> bool:
    return finding.message.startswith("static field ")


def _jit_site_file(finding: Finding) -> str:
    """Making a parameter traced rewrites where the function is jitted, which may be another file; a
    static field is made a leaf where its class declares it."""
    if finding.jit_site is None or _static_field(finding):
        return finding.location.path
    return finding.jit_site.location.path


def traced(source: Source, finding: Finding) -> Rewrite | Refusal:
    """RTL201 / RTL202: the static parameter made traced, or the static field a leaf (unsafe); one the
    body needs concrete as a loop's bound, traced with the loop made ``fori_loop`` (unsafe); a static
    object the body needs partly concrete, traced with its class made a pytree (unsafe)."""
    if _static_field(finding):
        return make_leaf(source, finding)
    made = make_traced(source, finding)
    if not (isinstance(made, Refusal) and made.reason.startswith(f"{finding.parameter} must stay")):
        return made
    if " passes it to range" in made.reason:
        looped = loops_as_fori(source, finding)
        return made if looped is None else looped
    return static_as_pytree(source, finding)


_NOT_A_FUNCTION = ("what is jitted is not a function", "the finding is not at a jax.jit")


def build_once(source: Source, finding: Finding) -> Rewrite | Refusal:
    """RTL301: the jit built once where it is (``hoist_jit``); when it closes over values of the call,
    built once with those values made its arguments (``pass_closed_over``), or, a method of ``self``,
    built once in ``__init__`` (``jit_in_init``); both unsafe. At a lax loop run outside jit, the
    function that runs it jitted (``jit_runner``, unsafe)."""
    runner = jit_runner(source, finding)
    if runner is not None:
        return runner
    hoisted = hoist_jit(source, finding)
    if not (isinstance(hoisted, Refusal) and hoisted.reason.startswith("it closes over")):
        return hoisted
    passed = pass_closed_over(source, finding)
    if isinstance(passed, Rewrite):
        return passed
    built = jit_in_init(source, finding)
    if isinstance(built, Rewrite):
        return built
    # the reason of the fix made for this shape: a bound method's is jit_in_init's
    reason = built.reason if passed.reason.startswith(_NOT_A_FUNCTION) else passed.reason
    return Refusal(f"{hoisted.reason}; {reason}")


def fresh_once(source: Source, finding: Finding) -> Rewrite | Refusal:
    """RTL204: the fresh static made once where it is (``make_once``); otherwise (it closes over values
    of the call or the loop, or a factory makes it) made once at module level, or the factory passed
    itself, with those values passed to the jitted function (``pass_values``, unsafe); else an object
    of a class of the jitted module made a pytree there (``fresh_as_pytree``, unsafe); else a
    ``functools.partial`` made a ``jax.tree_util.Partial`` and the parameter traced
    (``partial_as_pytree``, unsafe); else (made by neither) the object's class compared by the values
    the jitted body reads (``compare_by_value``, unsafe); else, made by a method from the object's
    attributes, made once per object in ``__init__`` (``make_per_object``, unsafe)."""
    once = make_once(source, finding)
    if isinstance(once, Rewrite):
        return once
    passed = pass_values(source, finding)
    if isinstance(passed, Rewrite):
        return passed
    pytree = fresh_as_pytree(source, finding)
    if isinstance(pytree, Rewrite):
        return pytree
    partial = partial_as_pytree(source, finding)
    if isinstance(partial, Rewrite):
        return partial
    by_value = None if partial is not None else compare_by_value(source, finding)
    if isinstance(by_value, Rewrite):
        return by_value
    per_object = make_per_object(source, finding)
    if isinstance(per_object, Rewrite):
        return per_object
    if partial is not None:  # the reason of the fix made for a partial or a closure factory
        return partial
    if per_object is not None:  # made in a method: why not there, and why not once per object
        return Refusal(f"{once.reason}; {per_object.reason}")
    # the reason of the fix made for this shape: a value made once where it is is make_once's
    return Refusal(f"{once.reason}; {passed.reason}") if _closes_over(once) else once


def _closes_over(refusal: Refusal) -> bool:
    return refusal.reason.startswith("it closes over")


def one_structure(source: Source, finding: Finding) -> Rewrite | Refusal:
    """RTL403: a state that starts as ``None`` has the jitted function's ``None`` branch run at the call
    (``run_first_branch``); one that starts as a record the step returns as a tuple starts as that
    tuple (``start_as_result``); both unsafe."""
    first = run_first_branch(source, finding)
    if isinstance(first, Rewrite) or first.reason != NOT_AT_NONE:
        return first
    started = start_as_result(source, finding)
    return first if started is None else started


CODEMODS: dict[str, Fix] = {
    # the shapes: a changed batch or padded rows change what the program computes at the edges
    "RTL101": Fix(pad_rows, safe=False, target=entry_file),
    "RTL102": Fix(pad_rows, safe=False, target=entry_file),
    "RTL103": Fix(short_batch.drop_short_batch, safe=False, target=short_batch.target),
    "RTL104": Fix(pad_rows, safe=False, target=entry_file),  # the rows a mask keeps, padded
    "RTL105": Fix(pad_rows, safe=False, target=entry_file),
    "RTL201": Fix(traced, safe=True, target=_jit_site_file),
    "RTL202": Fix(traced, safe=True, target=_jit_site_file),
    "RTL204": Fix(fresh_once, safe=True),  # a fresh object shared instead is unsafe (``Rewrite``)
    "RTL301": Fix(build_once, safe=True),  # the values made arguments is unsafe
    # the clear run once after the loop, or taken out: the memory it freed is held longer
    "RTL302": Fix(clear_once, safe=False),
    "RTL401": Fix(strong_scalar, safe=False),
    "RTL402": Fix(float_literal, safe=True),
    # the state's None branch run at the call instead: outside jit, and the first call skipped; a
    # record's start a tuple: one left as it started prints as a tuple
    "RTL403": Fix(one_structure, safe=False),
    # the context's option set once for the program: every computation runs under it
    "RTL405": Fix(set_for_program, safe=False),
    # the finding's own argument is made a keyword in place; at a keyword, the other call is
    "RTL404": Fix(keyword_elsewhere, safe=True),
}
