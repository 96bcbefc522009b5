"""What a jitted body returns when it computes in another precision than the state it is handed
(issue 39), on projects split over modules and classes.

A stack of layers run through one jitted layer function that computes in float16 (its weights cast
leaf by leaf with a ``tree_map``, ``jax.nn`` activations, a reduction method, a product with a leaf
of the cast tree) and gives back the float16 stream: the first layer gets the float32 embeddings of
a ``jnp.take`` from a codebook (an attribute set in ``__init__``, or a parameter a caller passes), the
others float16, so the layer traces twice. Found where the codebook lookup decides the start's
dtype. Its twins (the layer cast back to the stream's dtype; the codebook float16 from the start)
trace once and stay clean.

Under x64, float32 moments (``jnp.zeros(p.shape, jnp.float32)`` mapped over float64 parameters)
blended with the gradients by a step a factory makes (``beta * v + (1 - beta) * g``, ``beta`` the
factory's default) come back float64; found where the moments are made. Without x64, or with the
moments made in the parameters' dtype, they trace once and stay clean.

Each positive re-traces under jax (``dynamic_support``, in a subprocess)."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _traced_as_expected, _write, needs_jax

LAYERS = {
    "layers.py": '''\
"""One mixing layer; it runs in half precision to save memory bandwidth."""

import jax
import jax.numpy as jnp

HALF = jnp.float16


def mix_layer(weights, x):
    w = jax.tree.map(lambda p: p.astype(HALF), weights)
    h = jax.nn.silu(x.astype(HALF) @ w["proj"])
    gate = jax.nn.sigmoid(h.mean(-1, keepdims=True))
    return @RETURN@


def init_layer(key, width):
    k1, k2 = jax.random.split(key)
    return {
        "proj": jax.random.normal(k1, (width, 2 * width)) / width,
        "back": jax.random.normal(k2, (2 * width, width)) / width,
    }
''',
}

_MIXED = 'x.astype(HALF) + gate * (h @ w["back"])'
_CAST_BACK = f"({_MIXED}).astype(x.dtype)"

# The codebook is an attribute of an encoder, looked up by a method; the layers run in a for loop.
ENCODER = {
    **LAYERS,
    "encoder.py": '''\
"""An encoder of discrete codes: a codebook lookup, then a stack of mixing layers."""

import jax
import jax.numpy as jnp

from layers import init_layer, mix_layer


class Encoder:
    def __init__(self, key, codes=32, width=8, depth=3):
        keys = jax.random.split(key, depth + 1)
        self.codebook = jax.random.normal(keys[0], (codes, width)) * 0.1
        self.layers = [init_layer(k, width) for k in keys[1:]]
        self._layer = jax.jit(mix_layer)

    def lookup(self, codes):
        return jnp.take(self.codebook, codes, axis=0)

    def encode(self, codes):
        x = self.lookup(codes)
        for weights in self.layers:
            x = self._layer(weights, x)
        return x

    def __call__(self, codes):
        return self.encode(codes)


if __name__ == "__main__":
    encoder = Encoder(jax.random.PRNGKey(0))
    for i in range(2):
        @CALL@
''',
}

# The codebook is a parameter of a function of another module; the layers run in a while loop.
STACK = {
    **LAYERS,
    "stack.py": '''\
"""Run a stack of mixing layers over looked-up codes."""

import jax
import jax.numpy as jnp

from layers import mix_layer

layer = jax.jit(mix_layer)


def encode(codebook, codes, stack):
    x = jnp.take(codebook, codes, axis=0)
    i = 0
    while i < len(stack):
        x = layer(stack[i], x)
        i += 1
    return x
''',
    "main.py": '''\
"""Encode a few batches of codes."""

import jax
import jax.numpy as jnp

from layers import init_layer
from stack import encode


def main():
    keys = jax.random.split(jax.random.PRNGKey(0), 3)
    stack = [init_layer(k, 8) for k in keys]
    codebook = jnp.ones((32, 8), jnp.@DTYPE@) * 0.1
    for i in range(2):
        encode(codebook, jnp.arange(4) + i, stack)


if __name__ == "__main__":
    main()
''',
}

# Moments made float32 whatever the parameters are, blended by a step a factory makes.
MOMENTS = {
    "optim.py": '''\
"""Heavy-ball momentum written out, its step made by a factory."""

import jax
import jax.numpy as jnp


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def zero_velocity(params):
    return jax.tree.map(lambda p: jnp.zeros(p.shape, @DTYPE@), params)


def make_step(lr, beta=0.9):
    def step(params, velocity, x, y):
        grads = jax.grad(loss)(params, x, y)
        velocity = jax.tree.map(lambda v, g: beta * v + (1 - beta) * g, velocity, grads)
        params = jax.tree.map(lambda p, v: p - lr * v, params, velocity)
        return params, velocity

    return jax.jit(step)
''',
    "fit.py": '''\
"""Fit a line in double precision."""

import jax
@X64@
import jax.numpy as jnp  # noqa: E402

from optim import make_step, zero_velocity  # noqa: E402


def main(steps=3):
    params = {"w": jnp.zeros((3,)), "b": jnp.zeros(())}
    velocity = zero_velocity(params)
    step = make_step(0.05)
    for i in range(steps):
        x = jnp.full((4, 3), float(i))
        params, velocity = step(params, velocity, x, jnp.ones((4,)))
    return params


if __name__ == "__main__":
    main()
''',
}

_X64 = 'jax.config.update("jax_enable_x64", True)'
_CALLED = "encoder(jnp.arange(4) + i)"
_NAMED = "encoder.encode(jnp.arange(4) + i)"


def _projects(tmp_path: Path) -> dict[str, Path]:
    return {
        # Called as a function (``__call__``), or by its method on the object the script makes.
        "encoder_half": _write(tmp_path / "encoder_half", ENCODER, RETURN=_MIXED, CALL=_CALLED),
        "encoder_named_half": _write(
            tmp_path / "encoder_named_half", ENCODER, RETURN=_MIXED, CALL=_NAMED
        ),
        "encoder_cast_fixed": _write(
            tmp_path / "encoder_cast_fixed", ENCODER, RETURN=_CAST_BACK, CALL=_NAMED
        ),
        "stack_half": _write(tmp_path / "stack_half", STACK, RETURN=_MIXED, DTYPE="float32"),
        "stack_float16_fixed": _write(
            tmp_path / "stack_float16_fixed", STACK, RETURN=_MIXED, DTYPE="float16"
        ),
        # x64 is the process's once a program turns it on: the runs without it come first.
        "moments_no_x64_fixed": _write(
            tmp_path / "moments_no_x64_fixed", MOMENTS, X64="", DTYPE="jnp.float32"
        ),
        "moments_x64": _write(tmp_path / "moments_x64", MOMENTS, X64=_X64, DTYPE="jnp.float32"),
        "moments_param_dtype_fixed": _write(
            tmp_path / "moments_param_dtype_fixed", MOMENTS, X64=_X64, DTYPE="p.dtype"
        ),
    }


# Where each positive is told: the lookup that passes the codebook's dtype on, the moments made.
EXPECTED = {
    "encoder_half": [("encoder.py", 17, "RTL402")],
    "encoder_named_half": [("encoder.py", 17, "RTL402")],
    "stack_half": [("stack.py", 12, "RTL402")],
    "moments_x64": [("optim.py", 12, "RTL402")],
}
# The script each project runs and the jitted function it calls, as jax names it.
RUNS = {
    "encoder": ("encoder.py", "mix_layer"),
    "stack": ("main.py", "mix_layer"),
    "moments": ("fit.py", "step"),
}


def test_a_lower_precision_block_fed_back_is_a_dtype_flip(tmp_path: Path) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    _traced_as_expected(_projects(tmp_path), EXPECTED, RUNS, tmp_path)
