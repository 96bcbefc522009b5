"""A jit built per item of a loop, where each build serves another computation or other shapes, is
no removable re-trace: a jit built once would trace once per item too (issue 36, round 36 F1).
Two shapes of it: a jit of a function that differs per item, a derivative per kind handed in by a
default (``lambda e, f=f: jax.grad(f)(e)``); and a jit a maker returns per configuration of a
benchmark, whose calls, down a timing helper's ``*args``, get a cache each configuration sizes.
Held back by default, shown under ``--confidence all`` with its ``per-item`` assumption; the same
shapes where the function is the same at every item and only array data differs, or where every
build is called with the same shapes (a cache of a fixed length), stay errors."""

from __future__ import annotations

from pathlib import Path

from test_per_item import PER_ITEM, _found, _write

# Oscillation probabilities, and a check of their derivatives, one kind at a time: each kind's
# function comes from a maker, bound by a default into the AD jit and the finite-difference jit.
PHYSICS = """\
import dataclasses

import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Params:
    theta: float = 0.5
    delta: float = 1.2
    mass: float = 2.5e-3


def probability(p, energy, zenith):
    phase = p.mass * 1.27e3 / energy * (1.0 + zenith)
    return jnp.sin(2 * p.theta) ** 2 * jnp.sin(phase + p.delta) ** 2
"""
DERIVATIVES = """\
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from osc.physics import Params, probability

P = Params()
energies = jnp.linspace(1.0, 20.0, 32)
zeniths = jnp.linspace(-1.0, -0.2, 32)


def make(kind):
    if kind in ("theta", "delta", "mass"):
        def f(x, e, c):
            return probability(dataclasses.replace(P, **{kind: x}), e, c)
        return f, jnp.asarray(getattr(P, kind))
    return (lambda x, e, c: probability(P, e, x)), None


KINDS = [("theta", 1e-6), ("delta", 1e-5), ("mass", 1e-9), ("zenith", 1e-6)]
for kind, h in KINDS:
    f, x0 = make(kind)
    ad = jax.jit(jax.vmap(lambda e, c, x0=x0, f=f: jax.grad(f)(c if x0 is None else x0, e, c)))
    grads = np.asarray(ad(energies, zeniths))

    def fd_one(e, c, f=f, x0=x0, h=h):
        x = c if x0 is None else x0
        return (f(x + h, e, c) - f(x - h, e, c)) / (2 * h)

    fd = np.asarray(jax.jit(jax.vmap(fd_one))(energies, zeniths))
    print(kind, np.abs(grads - fd).max())
"""
# The same gradient at 200 starting points: one function, only the array it starts from differs.
STARTS = """\
import jax
import jax.numpy as jnp
import numpy as np

from osc.physics import Params, probability

P = Params()
energies = jnp.linspace(1.0, 20.0, 32)
zeniths = jnp.linspace(-1.0, -0.2, 32)


def theta_probability(theta, e, c):
    return probability(Params(theta=theta, delta=P.delta, mass=P.mass), e, c)


if __name__ == "__main__":
    starts = [jnp.asarray(t) for t in np.linspace(0.1, 1.5, 200)]
    for x0 in starts:
        grad = jax.jit(jax.vmap(lambda e, c, x0=x0: jax.grad(theta_probability)(x0, e, c)))
        print(float(grad(energies, zeniths).max()))
"""

# A KV-cache decoder and a benchmark of it per (batch size, decode length): a prefill and a decode
# jit built per configuration, timed through a helper that calls them with ``*args``.
DECODE = """\
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Config(NamedTuple):
    n_layers: int = 2
    n_heads: int = 4
    head_dim: int = 16
    vocab: int = 64


class KVCache(NamedTuple):
    k: jax.Array
    v: jax.Array


def init_cache(cfg: Config, batch_size: int, max_len: int) -> KVCache:
    shape = (cfg.n_layers, batch_size, max_len, cfg.n_heads, cfg.head_dim)
    return KVCache(k=jnp.zeros(shape), v=jnp.zeros(shape))


def prefill(params, cfg, ids, cache):
    h = params["embed"][ids]
    k = cache.k.at[:, :, : ids.shape[1]].set(h[None, :, :, None, : cfg.head_dim])
    logits = h @ params["out"]
    return logits[:, -1], KVCache(k=k, v=k), ids.shape[1]


def decode_step(params, cfg, token, cache, cur_len):
    h = params["embed"][token]
    k = jax.lax.dynamic_update_slice_in_dim(cache.k, h[None, :, :, None, : cfg.head_dim], cur_len, 2)
    return (h @ params["out"])[:, -1], KVCache(k=k, v=k)


def make_jit_prefill(cfg: Config):
    def fn(params, ids, cache):
        return prefill(params, cfg, ids, cache)

    return jax.jit(fn)


def make_jit_decode(cfg: Config):
    def fn(params, token, cache, cur_len):
        return decode_step(params, cfg, token, cache, cur_len)

    return jax.jit(fn)


def make_naive(params):
    def apply(ids):
        return params["embed"][ids] @ params["out"]

    return jax.jit(apply)
"""
BENCH = """\
import time

import jax
import jax.numpy as jnp

from kvbench import decode
from kvbench.decode import Config, init_cache


def _timed(fn, *fn_args):
    start = time.perf_counter()
    out = jax.block_until_ready(fn(*fn_args))
    return out, time.perf_counter() - start


def run_kv(jit_prefill, jit_decode, params, prompt, cache, n_new):
    (logits, cache, cur_len), first = _timed(jit_prefill, params, prompt, cache)
    token = jnp.argmax(logits, axis=-1)
    total = first
    for _ in range(n_new - 1):
        (logits, cache), took = _timed(jit_decode, params, token[:, None], cache, cur_len)
        token = jnp.argmax(logits, axis=-1)
        cur_len += 1
        total += took
    return total


def run_naive(jit_apply, prompt, n_new):
    ids = prompt
    total = 0.0
    for _ in range(n_new):
        logits, took = _timed(jit_apply, ids)
        ids = jnp.concatenate([ids, jnp.argmax(logits[:, -1], axis=-1)[:, None]], axis=1)
        total += took
    return total


def main(settings):
    cfg = Config()
    params = {"embed": jnp.ones((cfg.vocab, 64)), "out": jnp.ones((64, cfg.vocab))}
    lengths = sorted(set(int(n) for n in settings.get("lengths", [8, 16, 32, 64])))
    prompt_len = 12
    for batch_size in sorted(set([1, 8, settings["batch_size"]])):
        prompt = jnp.ones((batch_size, prompt_len), dtype=jnp.int32)
        for n_new in lengths:
            naive = decode.make_naive(params)
            print("naive", run_naive(naive, prompt, n_new))
            jit_prefill = decode.make_jit_prefill(cfg)
            jit_decode = decode.make_jit_decode(cfg)
            cache = init_cache(cfg, batch_size, prompt_len + n_new)
            print("kv", run_kv(jit_prefill, jit_decode, params, prompt, cache, n_new))


if __name__ == "__main__":
    main({"batch_size": 32})
"""
# The same benchmark with a cache of one fixed length for every decode length.
BENCH_FIXED = """\
import jax.numpy as jnp

from bench import run_kv
from kvbench import decode
from kvbench.decode import Config, init_cache

MAX_LEN = 128


def main(settings):
    cfg = Config()
    params = {"embed": jnp.ones((cfg.vocab, 64)), "out": jnp.ones((64, cfg.vocab))}
    prompt = jnp.ones((settings["batch_size"], 12), dtype=jnp.int32)
    for n_new in sorted(set(settings.get("lengths", [8, 16, 32, 64]))):
        jit_prefill = decode.make_jit_prefill(cfg)
        jit_decode = decode.make_jit_decode(cfg)
        cache = init_cache(cfg, settings["batch_size"], MAX_LEN)
        print("kv", run_kv(jit_prefill, jit_decode, params, prompt, cache, n_new))


if __name__ == "__main__":
    main({"batch_size": 32})
"""


def _kinds(tmp_path: Path) -> Path:
    files = {"osc/__init__.py": "", "osc/physics.py": PHYSICS}
    return _write(
        tmp_path, {**files, "check_derivatives.py": DERIVATIVES, "scan_starts.py": STARTS}
    )


def test_a_jit_of_each_kinds_own_function_is_held_back(tmp_path: Path) -> None:
    """Each kind's AD and finite-difference jits run another function (bound by a default, and
    differentiated by ``jax.grad``), each called once: four kinds, four traces however they are
    built. The gradient rebuilt per starting point runs one function on new data an argument could
    take: 200 traces where one would do, an error."""
    project = _kinds(tmp_path)
    assert _found(project, "high") == {("scan_starts.py", 19, "RTL301"): ("error", "high", [])}
    shown = _found(project, "all")
    reason = [f"`kind, h` makes another computation: {PER_ITEM}"]
    assert shown[("check_derivatives.py", 25, "RTL301")] == ("warning", "low", reason)
    assert shown[("check_derivatives.py", 32, "RTL301")] == ("warning", "low", reason)


def _bench(tmp_path: Path, script: str, text: str) -> Path:
    files = {"kvbench/__init__.py": "", "kvbench/decode.py": DECODE, "bench.py": BENCH}
    return _write(tmp_path, {**files, script: text})


def test_a_jit_per_cache_shape_of_a_benchmark_is_held_back(tmp_path: Path) -> None:
    """Each configuration's prefill and decode jits get a cache that configuration sizes (its batch
    size and prompt plus decode length), handed down a timing helper's ``*args``: each build traces
    once, as one jit would per configuration. The naive decoder's jit gets prompts sized by the
    batch size alone: rebuilt per decode length, it traces those again, an error."""
    project = _bench(tmp_path, "run.py", "import bench\n\nbench.main({'batch_size': 4})\n")
    assert _found(project, "high") == {("kvbench/decode.py", 55, "RTL301"): ("error", "high", [])}
    shown = _found(project, "all")
    reason = [f"`cache` sets the shapes it is called with: {PER_ITEM}"]
    assert shown[("kvbench/decode.py", 41, "RTL301")] == ("warning", "low", reason)
    assert shown[("kvbench/decode.py", 48, "RTL301")] == ("warning", "low", reason)


def test_a_jit_per_decode_length_with_one_cache_length_is_an_error(tmp_path: Path) -> None:
    """A cache of one fixed length for every decode length: the prefill and decode jits rebuilt per
    length are called with the same shapes each time, so building them once removes every trace
    but the first."""
    files = {"kvbench/__init__.py": "", "kvbench/decode.py": DECODE}
    bench = BENCH[: BENCH.index("def main(settings)")]
    project = _write(tmp_path, {**files, "bench.py": bench, "bench_fixed.py": BENCH_FIXED})
    assert _found(project, "high") == {
        ("kvbench/decode.py", 41, "RTL301"): ("error", "high", []),
        ("kvbench/decode.py", 48, "RTL301"): ("error", "high", []),
    }
