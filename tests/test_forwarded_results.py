"""A state carried through a function that hands back a jitted call's whole result (issue 39, sealed
round 14's ``seq2seq_encoder_outputs_fed_back``): a model's method ``step(token, cache=None)``
returning ``self._step(self.params, token, cache)``, or a module's ``advance(temps, power)``
returning ``_explicit_jit(temps, power, dt)``. The loop's carried value comes back as the jitted
function returns it, so a cache that starts as None and is fed back (RTL403), and bfloat16
temperatures a float32 conductance promotes (RTL402), are found where they start or are promoted;
the twins (the cache dropped, a float32 start) trace once and are clean. The decoder's loop is a
``while``. (Written ``jnp.roll(cache, 1).at[0].set(key)``, an update of a call's result, the cache is
not known to be an array: a gap left open.)

Each positive was run under jax 0.10.2 (two traces) and each twin (one trace) when written."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _write

DECODER = {
    "decoder.py": '''\
"""A toy decoder whose jitted step builds its key cache on the first token."""

import jax
import jax.numpy as jnp


def decode_step(params, token, cache=None):
    if cache is None:
        cache = jnp.zeros((8, params["emb"].shape[1]))
    key = params["emb"][token]
    cache = jnp.roll(cache, 1, axis=0)
    cache = cache.at[0].set(key)
    return cache.sum(axis=0) @ params["out"], cache


class Decoder:
    def __init__(self, vocab=12, width=4):
        k1, k2 = jax.random.split(jax.random.PRNGKey(0))
        self.params = {
            "emb": jax.random.normal(k1, (vocab, width)),
            "out": jax.random.normal(k2, (width, vocab)),
        }
        self._step = jax.jit(decode_step)

    def step(self, token, cache=None):
        return self._step(self.params, token, cache)
''',
    "generate.py": '''\
"""Greedy generation that hands the cache back to the next step."""

import jax.numpy as jnp

from decoder import Decoder


def generate(decoder, first, length):
    token = jnp.int32(first)
    cache = None
    out = []
    while len(out) < length:
        logits, @KEEP@ = decoder.step(token, cache)
        token = jnp.argmax(logits).astype(jnp.int32)
        out.append(int(token))
    return out


if __name__ == "__main__":
    print(generate(Decoder(), 3, 5))
''',
}

HEAT_SINK = {
    "physics.py": '''\
"""A heat sink's temperatures advanced by a jitted explicit step, behind a plain helper."""

import jax
import jax.numpy as jnp

CONDUCTANCE = jnp.full((6,), 0.2, dtype=jnp.float32)


def _explicit(temps, power, dt):
    flow = CONDUCTANCE * (jnp.roll(temps, 1) - temps)
    return temps + dt * (flow + power)


_explicit_jit = jax.jit(_explicit)


def advance(temps, power, dt=0.01):
    return _explicit_jit(temps, power, dt)
''',
    "sim.py": '''\
"""Run the heat sink for a few steps."""

import jax.numpy as jnp

from physics import advance


def simulate(steps):
    temps = jnp.zeros((6,), dtype=@DTYPE@)
    power = jnp.linspace(0.0, 1.0, 6, dtype=@DTYPE@)
    for _ in range(steps):
        temps = advance(temps, power)
    return temps


if __name__ == "__main__":
    simulate(5)
''',
}


def test_a_cache_fed_back_through_a_method_starts_as_none(tmp_path: Path):
    assert _found(_write(tmp_path, DECODER, KEEP="cache")) == [("generate.py", 10, "RTL403")]


def test_a_cache_dropped_each_step_stays_none(tmp_path: Path):
    assert _found(_write(tmp_path, DECODER, KEEP="_")) == []


def test_bfloat16_temperatures_advanced_through_a_helper_are_promoted(tmp_path: Path):
    found = _found(_write(tmp_path, HEAT_SINK, DTYPE="jnp.bfloat16"))
    assert found == [("physics.py", 6, "RTL402")]


def test_float32_temperatures_advanced_through_a_helper_keep_their_dtype(tmp_path: Path):
    assert _found(_write(tmp_path, HEAT_SINK, DTYPE="jnp.float32")) == []
