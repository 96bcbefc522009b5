"""What observing costs per call: a small jitted function called N times with and without it.

    python benchmarks/confirm_overhead.py [--calls 10000] [--rounds 5] [--leaves 1 64]

Both functions run in one process, in alternating rounds (median of the rounds), after a warm-up.
The guarded one is made by what `retracelint confirm` puts in place of jax.jit, with the observer
attached to JAX's trace hook: it is JAX's own object, so a call that hits the cache runs no code
of ours. `--leaves` adds runs whose argument is a dict of that many arrays. A last row times a
re-trace (a new shape each call), where the observer does its work. Target: under 60 µs added per
guarded call on CPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp

from retracelint.confirm import runtime


def _per_call_us(f, arg, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        out = f(arg)
    jax.block_until_ready(out)
    return (time.perf_counter() - start) / calls * 1e6


def measure(leaves: int, calls: int, rounds: int, guard_jit) -> tuple[float, float]:
    def plain_body(tree):
        return jax.tree.map(lambda v: v * 2.0 + 1.0, tree)

    def guarded_body(tree):
        return jax.tree.map(lambda v: v * 2.0 + 1.0, tree)

    arg = jnp.ones(8) if leaves == 1 else {f"w{i}": jnp.ones(8) for i in range(leaves)}
    plain = jax.jit(plain_body)
    guarded = guard_jit(guarded_body)
    assert type(guarded) is type(plain)
    for f in (plain, guarded):  # warm: first trace and compile, then a few fast-path calls
        for _ in range(50):
            f(arg)
    plain_us, guarded_us = [], []
    per_round = max(1, calls // rounds)
    for _ in range(rounds):
        plain_us.append(_per_call_us(plain, arg, per_round))
        guarded_us.append(_per_call_us(guarded, arg, per_round))
    return statistics.median(plain_us), statistics.median(guarded_us)


def retrace_cost(rt, shapes: int = 40) -> tuple[float, float, int]:
    """Per re-trace (a new shape each call), without and with the observer reporting; and how
    many of the observed re-traces it reported."""

    def plain_body(x):
        return x * 2.0 + 1.0

    def observed_body(x):
        return x * 2.0 + 1.0

    inputs = [jnp.ones(n) for n in range(1, shapes + 1)]
    out = []
    for body, observing in ((plain_body, False), (observed_body, True)):
        f = jax.jit(body)
        if observing:
            runtime.use(rt)
        start = time.perf_counter()
        for x in inputs:
            jax.block_until_ready(f(x))
        out.append((time.perf_counter() - start) / shapes * 1e6)
        runtime.release(rt)
    seen = sum(s.retraces for s in rt.sites.values() if s.meta["name"] == "observed_body")
    return out[0], out[1], seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=10_000, help="calls of each function")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--leaves", type=int, nargs="+", default=[1, 64])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        print(f"jax {jax.__version__}, backend {jax.default_backend()}, {args.calls} calls each")
        print(f"{'argument':<20} {'unguarded':>12} {'guarded':>12} {'added':>12} {'ratio':>7}")
        worst = 0.0
        retraces = 0
        for leaves in args.leaves:
            # A runtime per row: each row makes its jit functions at the same source line, which
            # one runtime would rightly report as a function re-made per call (RTL301).
            events = os.path.join(tmp, f"events-{leaves}.jsonl")
            rt = runtime.Runtime({"report": events, "guard": "all"})
            rt.attach(jax)
            runtime.use(rt)
            plain, guarded = measure(leaves, args.calls, args.rounds, rt.make_maker(jax.jit))
            retraces += sum(
                s.retraces for s in rt.sites.values() if s.meta["name"] == "guarded_body"
            )
            runtime.release(rt)
            label = "one f32[8] array" if leaves == 1 else f"dict of {leaves} arrays"
            added = guarded - plain
            if leaves == 1:
                worst = added
            print(
                f"{label:<20} {plain:>9.1f} µs {guarded:>9.1f} µs {added:>9.1f} µs "
                f"{guarded / plain:>6.2f}x"
            )
        rt = runtime.Runtime({"report": os.path.join(tmp, "retrace.jsonl"), "guard": "all"})
        rt.attach(jax)
        plain, guarded, seen = retrace_cost(rt)
        print(
            f"{'re-trace (new shape)':<20} {plain:>9.1f} µs {guarded:>9.1f} µs "
            f"{guarded - plain:>9.1f} µs {guarded / plain:>6.2f}x"
        )
        print(f"re-traces reported: {retraces} in steady calls (must be 0), {seen} of 39 re-traces")
        verdict = "meets" if worst < 60 else "misses"
        print(f"small function: {worst:.1f} µs added per guarded call, {verdict} the 60 µs target")
    return 0 if retraces == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
