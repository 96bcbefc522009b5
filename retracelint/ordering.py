"""Sort keys for the analysis's facts that no hash decides.

A set's order follows hashes, and hashes differ between runs: a string's with ``PYTHONHASHSEED``, and on
CPython 3.11 ``hash(None)`` (the object's address) with address-space randomisation even when the seed
is fixed, so a frozenset of dataclasses or tuples holding None (``Made(item=None)``, ``RetDep``) iterates
in a new order in each process. Sorting such a set by ``str`` or ``repr`` is not enough where an item
holds a set itself (``ChoiceSrc.fields``): its repr lists that set in the same hash order.
``stable_repr`` is ``repr`` with every set's items sorted, so a sort by it follows the content alone, and
agrees with a sort by ``repr`` wherever no set is inside.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any


def stable_repr(value: Any) -> str:
    """``repr(value)``, with the items of each set in it (at any depth) in sorted order."""
    text = repr(value)
    # Most facts hold no set with items (no brace): their repr is the answer, at C speed.
    return text if "{" not in text else _walked(value)


def _walked(value: Any) -> str:
    if isinstance(value, frozenset | set):
        items = ", ".join(sorted(map(_walked, value)))
        return f"{type(value).__name__}({{{items}}})" if items else f"{type(value).__name__}()"
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        items = ", ".join(map(_walked, value))
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, list):
        return f"[{', '.join(map(_walked, value))}]"
    if is_dataclass(value) and not isinstance(value, type):
        kind = type(value)
        shown = ", ".join(f"{name}={_walked(getattr(value, name))}" for name in _shown(kind))
        return f"{kind.__qualname__}({shown})"
    return repr(value)


@cache
def _shown(kind: type) -> tuple[str, ...]:
    """The fields a dataclass's repr shows, in its order."""
    return tuple(f.name for f in fields(kind) if f.repr)


__all__ = ["stable_repr"]
