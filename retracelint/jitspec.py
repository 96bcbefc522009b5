"""Which callables behave like ``jax.jit``, and how each one names its static arguments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from retracelint.summary import TraceContext


# What a wrapper keys its cache of traces by, besides the arguments: whether a wrapper rebuilt
# around a function read anew finds the traces of the last one (measured with jax 0.10.2 and
# equinox 0.13.8 on CPU, five builds in a loop, each called once).
# ``jax.jit`` keys by the function object: a module-level def rebuilt hits (1 trace), a new bound
# method of one object misses (5 traces), as do a lambda and a ``partial`` made per build.
BY_OBJECT = "function object"
# ``jax.pmap`` keys by the function's equality: one object's bound methods are one function (1
# trace), a new object's another.
BY_EQUALITY = "equal function"
# ``equinox.filter_jit`` keys by the function as a pytree: its array leaves are traced, the rest is
# the key by equality. A bound method of an ``eqx.Module`` is a pytree of the module, so a new
# model of the same static fields and shapes is the same key (1 trace); a plain object's bound
# method is one key per object (as pmap's), a lambda or ``functools.partial`` per build a new one.
# ``equinox.filter_pmap`` alike (measured the same way).
BY_PYTREE = "function's pytree structure"


@dataclass(frozen=True)
class Wrapper:
    name: str  # canonical dotted name
    argnums: str | None = "static_argnums"  # keyword holding the static positions
    argnames: str | None = "static_argnames"  # keyword holding the static names
    nonarray_static: bool = False  # every non-array argument is static (equinox)
    keyed_by: str = BY_OBJECT  # what its cache of traces is keyed by (above)
    # Keywords an alias fixed, as source text (``jit = partial(jax.jit, static_argnums=(1,))``):
    # what a use of the alias does not give itself.
    preset: tuple[tuple[str, str], ...] = ()
    # For a function of the project that returns the wrapper (``def jit_with(static_argnames=None):
    # return partial(jax.jit, static_argnames=static_argnames)``), its positional parameters (None
    # for the wrapper itself): a call of it is the wrapper (issue 36 cause 3), and ``forwarded``
    # names the parameter each of the wrapper's keywords takes from that call.
    factory: tuple[str, ...] | None = None
    forwarded: tuple[tuple[str, str], ...] = ()

    @property
    def bound_methods_equal(self) -> bool:
        """Whether two bound methods of one object are one function to its cache."""
        return self.keyed_by != BY_OBJECT


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
    "jax.pmap": Wrapper("jax.pmap", "static_broadcasted_argnums", None, keyed_by=BY_EQUALITY),
    "jax._src.api.pmap": Wrapper(
        "jax.pmap", "static_broadcasted_argnums", None, keyed_by=BY_EQUALITY
    ),
    "equinox.filter_jit": Wrapper(
        "equinox.filter_jit", None, None, nonarray_static=True, keyed_by=BY_PYTREE
    ),
    "equinox.filter_pmap": Wrapper(
        "equinox.filter_pmap", None, None, nonarray_static=True, keyed_by=BY_PYTREE
    ),
    # haliax jits through equinox's filtering: arrays traced, everything else static.
    "haliax.named_jit": Wrapper("haliax.named_jit", None, None, nonarray_static=True),
    "haliax.partitioning.named_jit": Wrapper("haliax.named_jit", None, None, nonarray_static=True),
}


def keyed_by(name: str) -> str:
    """What the wrapper of canonical name ``name`` keys its cache by (a configured wrapper's like
    ``jax.jit``'s)."""
    wrapper = BUILTIN_WRAPPERS.get(name)
    return wrapper.keyed_by if wrapper is not None else BY_OBJECT


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


@dataclass(frozen=True)
class Traces:
    """Which arguments of a transform or ``lax`` primitive are functions it traces."""

    positions: tuple[int, ...] = (0,)
    keywords: tuple[str, ...] = ("fun",)
    # Called outside jit, it traces its functions on every call, keyed by the function object: a new
    # one each time traces anew (the lax control-flow primitives).
    caches_by_identity: bool = False


_FIRST = Traces()
# The function arguments of these run only while the call traces them (under jit, once per trace).
TRACING_APIS: dict[str, Traces] = {
    **{
        f"jax.{name}": _FIRST
        for name in (
            "grad",
            "value_and_grad",
            "vmap",
            "jacfwd",
            "jacrev",
            "hessian",
            "checkpoint",
            "remat",
            "custom_jvp",
            "custom_vjp",
            "eval_shape",
            "make_jaxpr",
            "linearize",
            "jvp",
            "vjp",
            "named_call",
            "shard_map",
            "smap",
            "ad_checkpoint.checkpoint",
            "experimental.shard_map.shard_map",
        )
    },
    "jax.lax.scan": Traces((0,), ("f",), caches_by_identity=True),
    "jax.lax.map": Traces((0,), ("f",), caches_by_identity=True),
    "jax.lax.associative_scan": Traces((0,), ("fn",)),
    "jax.lax.fori_loop": Traces((2,), ("body_fun",), caches_by_identity=True),
    "jax.lax.while_loop": Traces((0, 1), ("cond_fun", "body_fun"), caches_by_identity=True),
    "jax.lax.cond": Traces((1, 2), ("true_fun", "false_fun"), caches_by_identity=True),
    "jax.lax.switch": Traces((1,), ("branches",), caches_by_identity=True),
    "jax.lax.custom_root": Traces((0, 2, 3), ("f", "solve", "tangent_solve")),
    "jax.lax.custom_linear_solve": Traces((0, 2, 3), ("matvec", "solve", "transpose_solve")),
    "flax.linen.scan": _FIRST,
    "flax.linen.vmap": _FIRST,
    "flax.linen.remat": _FIRST,
    "flax.linen.checkpoint": _FIRST,
    "flax.nnx.grad": _FIRST,
    "flax.nnx.value_and_grad": _FIRST,
    "flax.nnx.vmap": _FIRST,
    "flax.nnx.scan": _FIRST,
    "flax.nnx.remat": _FIRST,
    "flax.nnx.fori_loop": Traces((2,), ("body_fun",)),
    "flax.nnx.while_loop": Traces((0, 1), ("cond_fun", "body_fun")),
    "flax.nnx.cond": Traces((1, 2), ("true_fun", "false_fun")),
    "equinox.filter_grad": _FIRST,
    "equinox.filter_value_and_grad": _FIRST,
    "equinox.filter_vmap": _FIRST,
    "equinox.filter_checkpoint": _FIRST,
    "haiku.transform": Traces((0,), ("f",)),
    "haiku.transform_with_state": Traces((0,), ("f",)),
    "haiku.vmap": _FIRST,
    "haiku.scan": Traces((0,), ("f",)),
    "haliax.vmap": Traces((0,), ("fn",)),
}
# Methods that hand their arguments to a trace, whatever the receiver (``f.defvjp(fwd, bwd)``).
TRACING_METHODS: dict[str, Traces] = {
    "defvjp": Traces((0, 1), ("fwd", "bwd")),
    "defjvp": Traces((0,), ("jvp",)),
}


@dataclass(frozen=True)
class TraceContextSpec:
    """A context manager whose setting is part of jit's trace cache key (jax 0.10.2, measured by
    calling a jitted function outside and inside it: ``rules/RTL405.md``)."""

    config: str  # the config option it sets, as jax's cache-miss explanation names it
    default: str  # jax's default setting: a context that sets it changes nothing
    bare: str | None = None  # the setting when called without arguments


_PRECISION = TraceContextSpec("jax_default_matmul_precision", "None")
_X64 = TraceContextSpec("jax_enable_x64", "False", "True")
_MESH = TraceContextSpec("the abstract mesh", "")
# Measured not to re-trace, so not here: debug_nans, debug_infs, log_compiles, check_tracer_leaks,
# checking_leaks, enable_checks, default_prng_impl, transfer_guard, named_scope, disable_jit.
TRACE_CONTEXTS: dict[str, TraceContextSpec] = {
    "jax.enable_x64": _X64,
    "jax.experimental.enable_x64": _X64,  # older jax
    "jax.experimental.disable_x64": TraceContextSpec("jax_enable_x64", "False", "False"),
    "jax.default_matmul_precision": _PRECISION,
    "jax.debug_key_reuse": TraceContextSpec("jax_debug_key_reuse", "False", "True"),
    "jax.numpy_rank_promotion": TraceContextSpec("jax_numpy_rank_promotion", "'allow'"),
    "jax.numpy_dtype_promotion": TraceContextSpec("jax_numpy_dtype_promotion", "'standard'"),
    "jax.default_device": TraceContextSpec("jax_default_device", "None"),
    "jax.ensure_compile_time_eval": TraceContextSpec("eager constant folding", "", "on"),
    "jax.set_mesh": _MESH,
    "jax.sharding.set_mesh": _MESH,
    "jax.sharding.use_abstract_mesh": _MESH,
}


def x64_setting(contexts: tuple[TraceContext, ...]) -> bool | None:
    """Whether x64 is on under ``contexts`` (outermost first), as the innermost that sets it says;
    None when none does."""
    for context in reversed(contexts):
        spec = TRACE_CONTEXTS.get(context.name)
        if spec is not None and spec.config == _X64.config:
            return context.setting == "True"
    return None
