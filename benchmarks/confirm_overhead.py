"""What guarding costs per call: a small jitted function called N times guarded and unguarded.

    python benchmarks/confirm_overhead.py [--calls 10000] [--rounds 5] [--leaves 1 64]

Both functions run in one process, in alternating rounds (median of the rounds), after a warm-up.
The guarded one goes through what `retracelint confirm` puts around a flagged jit function: before
every call after the first, a probe (`Jitted.trace` under `jax.no_tracing(True)` and
`jax.explain_cache_misses(True)`), then the real call. `--leaves` adds runs whose argument is a dict
of that many arrays (the probe flattens the arguments like a real call does). Target: under 60 µs
added per guarded call on CPU.
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
    assert isinstance(guarded, runtime.GuardedJit)
    for f in (plain, guarded):  # warm: first trace and compile, then a few fast-path calls
        for _ in range(50):
            f(arg)
    plain_us, guarded_us = [], []
    per_round = max(1, calls // rounds)
    for _ in range(rounds):
        plain_us.append(_per_call_us(plain, arg, per_round))
        guarded_us.append(_per_call_us(guarded, arg, per_round))
    return statistics.median(plain_us), statistics.median(guarded_us)


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
            plain, guarded = measure(leaves, args.calls, args.rounds, rt.make_jit(jax.jit))
            retraces += sum(s.retraces for s in rt.sites.values())
            label = "one f32[8] array" if leaves == 1 else f"dict of {leaves} arrays"
            added = guarded - plain
            if leaves == 1:
                worst = added
            print(
                f"{label:<20} {plain:>9.1f} µs {guarded:>9.1f} µs {added:>9.1f} µs "
                f"{guarded / plain:>6.2f}x"
            )
        print(f"re-traces reported: {retraces} (must be 0)")
        verdict = "meets" if worst < 60 else "misses"
        print(f"small function: {worst:.1f} µs added per guarded call, {verdict} the 60 µs target")
    return 0 if retraces == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
