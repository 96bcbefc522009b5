"""Which callables behave like ``jax.jit``, and how each one names its static arguments."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Wrapper:
    name: str  # canonical dotted name
    argnums: str | None = "static_argnums"  # keyword holding the static positions
    argnames: str | None = "static_argnames"  # keyword holding the static names
    nonarray_static: bool = False  # every non-array argument is static (equinox)


_JIT_LIKE = (
    "jax.jit",
    "jax.api.jit",
    "jax._src.api.jit",
    "jax._src.pjit.jit",
    "jax.pjit",
    "jax.experimental.pjit.pjit",
    "jax._src.pjit.pjit",
    "flax.nnx.jit",
    "flax.linen.jit",
    "flax.linen.transforms.jit",
)

BUILTIN_WRAPPERS: dict[str, Wrapper] = {
    **{name: Wrapper(name) for name in _JIT_LIKE},
    "jax.pmap": Wrapper("jax.pmap", argnums="static_broadcasted_argnums", argnames=None),
    "jax._src.api.pmap": Wrapper("jax.pmap", argnums="static_broadcasted_argnums", argnames=None),
    "equinox.filter_jit": Wrapper("equinox.filter_jit", None, None, nonarray_static=True),
    "equinox.filter_pmap": Wrapper("equinox.filter_pmap", None, None, nonarray_static=True),
}


def parse_wrapper_config(entries: list[str]) -> dict[str, Wrapper]:
    """``jit-wrappers`` config entries: ``"mylib.fast_jit"`` or ``"mylib.fast_jit:static_argnums,static_argnames"``."""
    out: dict[str, Wrapper] = {}
    for entry in entries:
        name, _, spec = entry.strip().partition(":")
        if not name:
            continue
        if spec:
            parts = [p.strip() or None for p in spec.split(",")]
            argnums = parts[0] if parts else None
            argnames = parts[1] if len(parts) > 1 else None
            out[name] = Wrapper(name, argnums, argnames)
        else:
            out[name] = Wrapper(name)
    return out
