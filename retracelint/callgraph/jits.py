"""Wrapper and jit-site discovery: what a call of a jit site binds to. The function a jit site wraps (the
def itself, even when it is jit-decorated too; a method of ``self`` or of an object whose class linking
finds; a partial; a jit of a jitted function), its parameters as the jitted callable sees them, and
which of them are static. ``Project.jit_binding`` keeps each binding with what finding it read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from retracelint import funcrefs
from retracelint.callgraph.targets import FuncTarget, JitBinding, JitTarget, Target
from retracelint.summary import Callee, JitSpec, ModuleSummary, Param

if TYPE_CHECKING:
    from retracelint.callgraph.project import Project


def binding(project: Project, target: JitTarget) -> JitBinding:
    """What a call of jit site ``target`` binds to (``Project.jit_binding`` keeps it, with what it read)."""
    spec = project.symbols.jit_spec(target)
    callee, skipped, keywords_bound = funcrefs.unwrapped(spec.target)
    resolved = _wrapped_function(project, spec, project.modules[target.module], callee)
    wrapped = project.functions.get(resolved.qualname) if resolved is not None else None
    if wrapped is None or resolved is None:
        return JitBinding(spec, None, (), 0, frozenset())
    params = wrapped.params[1:] if resolved.bound else wrapped.params
    if skipped or keywords_bound:  # a partial: what it binds is no longer a parameter
        positional = [p for p in params if p.kind in ("posonly", "normal")][:skipped]
        params = tuple(p for p in params if p not in positional and p.name not in keywords_bound)
    offset = 1 if target.bound and params and wrapped.kind != "staticmethod" else 0
    positions, keywords = _static_parameters(spec, params)
    static = keywords | {
        name for num in positions if (name := _positional_name(params, num)) is not None
    }
    return JitBinding(spec, wrapped, params, offset, static, positions, keywords)


def _wrapped_function(
    project: Project, spec: JitSpec, module: ModuleSummary, callee: Callee | None
) -> FuncTarget | None:
    """The function a jit site wraps: the def itself, even when it is jit-decorated too."""
    if callee is None:
        return None
    kind = callee[0]
    scope = project.functions.get(spec.function)
    if kind == "qual" and callee[1] in project.functions:
        return FuncTarget(callee[1], bound=False)
    if kind == "self":
        cls = project.symbols.class_of_method(scope) if scope else None
        return project.symbols.member_function(cls, callee[2]) if cls else None
    if kind == "method":
        cls_name = project.symbols.class_named(module, callee[1])
        return project.symbols.member_function(cls_name, callee[2]) if cls_name else None
    if kind == "name" and f"{module.module}.{callee[1]}" in project.functions:
        return FuncTarget(f"{module.module}.{callee[1]}", bound=False)
    if kind == "recv":
        method = project.method_of(module, scope, callee[1], callee[2:]) if scope else None
        return _bound_function(project, method)
    found = project.resolve_ref(scope, callee) if scope is not None else ()
    if len(found) != 1:
        return None
    target = found[0]
    if isinstance(target, FuncTarget):
        return target
    if isinstance(target, JitTarget):  # jax.jit of a jitted function: the def it wraps
        inner = project.jit_binding(target)
        if inner is not None and inner.wrapped is not None:
            return FuncTarget(inner.wrapped.qualname, bound=False)
    return None


def _bound_function(project: Project, target: Target | None) -> FuncTarget | None:
    """The function a method target runs, bound to its instance (a jitted method's own def)."""
    if isinstance(target, FuncTarget):
        return target
    if isinstance(target, JitTarget):
        spec = project.symbols.jit_spec(target)
        if spec.decorated and spec.target and spec.target[0] == "qual":
            fn = project.functions.get(spec.target[1])
            return FuncTarget(spec.target[1], bound=fn is not None and fn.kind == "method")
    return None


def _static_parameters(
    spec: JitSpec, params: tuple[Param, ...]
) -> tuple[tuple[int, ...], frozenset[str]]:
    """static_argnums and static_argnames as jax uses them. When only one of the two is given, jax
    fills in the other from the signature, for positional-or-keyword parameters only; when both are
    given, each is taken as written (jax._src.api_util.infer_argnums_and_argnames)."""
    positions, keywords = spec.static_argnums, frozenset(spec.static_argnames)
    if not spec.static_inferred:
        return positions, keywords
    either = [(i, p.name) for i, p in enumerate(params) if p.kind == "normal"]
    return (
        positions + tuple(i for i, name in either if name in keywords),
        keywords | {name for i, name in either if i in positions},
    )


def _positional_name(params: tuple[Param, ...], num: int) -> str | None:
    """The parameter at static position ``num`` when every positional parameter is passed."""
    positional = [p for p in params if p.kind in ("posonly", "normal")]
    index = num if num >= 0 else len(positional) + num
    return positional[index].name if 0 <= index < len(positional) else None
