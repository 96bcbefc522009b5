#!/usr/bin/env python3
"""A long fuzz run of the static pass, for humans (CI runs a bounded, derandomized slice in tests/test_fuzz.py).

    python scripts/fuzz.py --minutes 10 [--out /tmp/retracelint-fuzz] [--timeout 20]

Round-robin over the sources of tests/test_fuzz.py (hypothesmith grammar and CST programs, linked
generated packages, JAX-shaped projects, mutated real files), with fresh randomness each round. A failure
does not stop the run: it is recorded by signature (exception type and the innermost retracelint frame,
or the first line of a failed check), its input saved under --out, and the first input of each
signature reduced line by line when it is a single file. An example that runs past --timeout seconds is
recorded as a hang. At the end: programs run per source, and each distinct failure with a reproduction.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import hypothesmith  # noqa: E402
import test_fuzz as fuzz  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SLOW_SECONDS = 2.0


class Hang(BaseException):
    """An example ran past the per-example timeout (a BaseException, so that no `except Exception`
    in the code under test turns it into an ordinary result)."""


@dataclass
class Failure:
    signature: str
    kind: str
    count: int = 0
    first: dict[str, bytes] = field(default_factory=dict)
    detail: str = ""
    reduced: bytes | None = None


@dataclass
class Ledger:
    out: Path
    failures: dict[str, Failure] = field(default_factory=dict)
    slow: list[tuple[float, str, str]] = field(default_factory=list)  # (seconds, kind, saved file)

    def record(self, kind: str, exc: BaseException, files: dict[str, bytes]) -> None:
        signature = signature_of(exc)
        failure = self.failures.get(signature)
        if failure is None:
            detail = "".join(traceback.format_exception(exc))[-4000:]
            failure = self.failures[signature] = Failure(
                signature, kind, first=files, detail=detail
            )
            self.save(f"fail-{len(self.failures):03d}", files)
            print(f"  new failure [{kind}]: {signature}: {str(exc)[:100]}", flush=True)
        failure.count += 1

    def save(self, stem: str, files: dict[str, bytes]) -> Path:
        folder = self.out / stem
        for name, data in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return folder


def signature_of(exc: BaseException) -> str:
    if isinstance(exc, Hang):
        return "hang: an example ran past the timeout"
    if isinstance(exc, AssertionError):
        first = (str(exc).splitlines() or [""])[0]
        first = re.sub(r"/tmp/\S+", "<tmp>", first)
        return "check failed: " + re.sub(r"\d+", "N", first)[:160]
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "retracelint" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].name}" if frames else "?"
    return f"{type(exc).__name__} in {where}"  # the message varies with names; the place does not


def guarded(
    ledger: Ledger, kind: str, files: dict[str, bytes], check: Callable[[], object]
) -> None:
    started = time.monotonic()
    try:
        check()
    except (Exception, Hang) as exc:  # every failure is data here; the run goes on
        ledger.record(kind, exc, files)
    elapsed = time.monotonic() - started
    if elapsed > SLOW_SECONDS:
        saved = ledger.save(f"slow-{len(ledger.slow) + 1:03d}", files)
        ledger.slow.append((elapsed, kind, str(saved)))


def _alarm(signum, frame):
    raise Hang()


def sources(ledger: Ledger, batch: int) -> dict[str, Callable[[], None]]:
    explore = settings(
        max_examples=batch,
        deadline=None,
        database=None,
        derandomize=False,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )

    def summary(kind: str, source: bytes) -> None:
        guarded(ledger, kind, {"module.py": source}, lambda: fuzz.check_summary(source, kind))

    @explore
    @given(hypothesmith.from_grammar())
    def grammar(text: str) -> None:
        summary("grammar", fuzz.encode(text))

    @settings(explore, max_examples=max(1, batch // 10))
    @given(hypothesmith.from_node())
    def cst(text: str) -> None:
        summary("cst", fuzz.encode(text))

    @settings(explore, max_examples=max(1, batch // 4))
    @given(st.lists(hypothesmith.from_grammar(), min_size=2, max_size=4))
    def grammar_project(texts: list[str]) -> None:
        files = fuzz.linked(texts)
        guarded(
            ledger, "grammar-project", files, lambda: fuzz.check_project(files, "grammar-project")
        )

    @explore
    @given(st.integers(0, 2**64))
    def jax_project(seed: int) -> None:
        files = fuzz.jax_project(seed)
        guarded(ledger, "jax-project", files, lambda: fuzz.check_project(files, "jax-project"))

    @explore
    @given(fuzz.mutated(), st.booleans())
    def mutant(case: tuple[str, bytes], star: bool) -> None:
        name, data = case
        summary("mutant-summary", data)
        files = fuzz.mutant_project(name, data, star)
        guarded(
            ledger, "mutant-project", files, lambda: fuzz.check_project(files, "mutant-project")
        )

    @settings(explore, max_examples=max(1, batch // 10))
    @given(st.integers(0, 2**64))
    def edits(seed: int) -> None:
        files = {"seed.txt": str(seed).encode()}  # check_edit_sequence(seed, 30) replays it
        guarded(ledger, "edits", files, lambda: fuzz.check_edit_sequence(seed, rounds=30))

    return {
        "grammar": grammar,
        "cst": cst,
        "grammar-project": grammar_project,
        "jax-project": jax_project,
        "mutant": mutant,
        "edits": edits,
    }


def reduce_lines(source: bytes, signature: str) -> bytes | None:
    """Delete chunks of lines while summarising still fails with the same signature (ddmin); None when
    this file alone does not fail that way (the failure needs the whole project)."""

    def fails(lines: list[bytes]) -> bool:
        try:
            fuzz.check_summary(b"".join(lines), "reduce")
        except (Exception, Hang) as exc:
            return signature_of(exc) == signature
        return False

    lines = source.splitlines(keepends=True)
    if not fails(lines):
        return None
    parts = 2
    while len(lines) >= 2:
        size = max(1, len(lines) // parts)
        for start in range(0, len(lines), size):
            candidate = lines[:start] + lines[start + size :]
            if fails(candidate):
                lines, parts = candidate, max(parts - 1, 2)
                break
        else:
            if size == 1:
                break
            parts = min(len(lines), parts * 2)
    return b"".join(lines)


def arm(timeout: int) -> None:
    """Bound every check by an alarm, so that a hang is recorded instead of stopping the run."""
    signal.signal(signal.SIGALRM, _alarm)
    for attribute in ("check_summary", "check_project"):
        original = getattr(fuzz, attribute)

        def armed(*args, _original=original, **kwargs):
            signal.alarm(timeout)
            try:
                return _original(*args, **kwargs)
            finally:
                signal.alarm(0)

        setattr(fuzz, attribute, armed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=Path("/tmp/retracelint-fuzz"))
    parser.add_argument("--timeout", type=int, default=20, help="seconds per example before a hang")
    parser.add_argument("--batch", type=int, default=50, help="examples per source per round")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    ledger = Ledger(args.out)
    arm(args.timeout)
    deadline = time.monotonic() + args.minutes * 60
    started = time.monotonic()
    rounds = 0
    runners = sources(ledger, args.batch)

    while time.monotonic() < deadline:
        rounds += 1
        for runner in runners.values():
            if time.monotonic() >= deadline:
                break
            runner()
        counts = ", ".join(f"{k} {v}" for k, v in sorted(fuzz.COUNTS.items()))
        print(f"round {rounds} ({time.monotonic() - started:.0f} s): {counts}", flush=True)

    for failure in ledger.failures.values():
        if failure.signature.startswith("hang"):
            continue  # reducing a hang costs a timeout per step
        for data in failure.first.values():
            failure.reduced = reduce_lines(data, failure.signature)
            if failure.reduced is not None:
                break
    report(ledger, time.monotonic() - started)
    return 1 if ledger.failures else 0


def report(ledger: Ledger, seconds: float) -> None:
    total = sum(v for k, v in fuzz.COUNTS.items() if k != "reduce")
    print(f"\n{total} programs in {seconds / 60:.1f} min")
    for kind, count in sorted(fuzz.COUNTS.items()):
        if kind != "reduce":
            print(f"  {kind:<16} {count}")
    print(f"\n{len(ledger.failures)} distinct failures")
    summary = []
    for index, failure in enumerate(ledger.failures.values(), start=1):
        print(f"\n[{index}] {failure.signature}  ({failure.count}x, first in {failure.kind})")
        if failure.reduced is not None:
            print("  reduced input:\n" + _indent(failure.reduced.decode("utf-8", "replace")))
        print(_indent(failure.detail.strip().splitlines()[-1]))
        summary.append(
            {
                "signature": failure.signature,
                "count": failure.count,
                "kind": failure.kind,
                "reduced": failure.reduced.decode("utf-8", "replace") if failure.reduced else None,
                "traceback": failure.detail,
            }
        )
    if ledger.slow:
        print(f"\n{len(ledger.slow)} slow examples (> {SLOW_SECONDS:g} s), slowest first:")
        for elapsed, kind, saved in sorted(ledger.slow, reverse=True)[:10]:
            print(f"  {elapsed:6.1f} s  {kind:<16} {saved}")
    result = {
        "seconds": round(seconds),
        "programs": dict(Counter({k: v for k, v in fuzz.COUNTS.items() if k != "reduce"})),
        "failures": summary,
        "slow": [{"seconds": round(e, 2), "kind": k, "saved": s} for e, k, s in ledger.slow],
    }
    (ledger.out / "summary.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(f"\ninputs and summary.json under {ledger.out}")


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


if __name__ == "__main__":
    sys.exit(main())
