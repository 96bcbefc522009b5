"""What each test costs in CPU, not wall: the suite's own measure on a shared, loaded machine.

Wall times (``--durations``) grow with whatever else the machine runs; the CPU a test uses (its pytest
process plus the subprocesses it waits for: jax programs, plugin sessions, servers) barely does. With
``RETRACELINT_TEST_CPU=FOLDER`` each test process (each xdist worker) appends one line per test to
``FOLDER/<worker>.tsv``: node id, own CPU s, children's CPU s, wall s (written as each test ends, so an
interrupted run keeps what it measured). ``python tests/cpu_profile.py FOLDER`` sums them per unit of
work (tests/work_units.py) and per worker: on a quiet 2-core machine the suite takes about the larger
of the workers' totals, plus collection.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

ENV = "RETRACELINT_TEST_CPU"


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The jax runner (tests/dynamic_support.py) lives as long as this process: its CPU and its
    # children's reach RUSAGE_CHILDREN only then, so it reports them as it goes.
    support = sys.modules.get("dynamic_support")
    runner = support.runner_cpu_seconds() if support is not None else 0.0
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime + runner


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    # Setup and teardown included: a module fixture's cost lands on the test that makes it.
    wall, (own, children) = time.monotonic(), _cpu()
    yield
    wall, (own_after, children_after) = time.monotonic() - wall, _cpu()
    folder = Path(os.environ[ENV])
    folder.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with (folder / f"{worker}.tsv").open("a", encoding="utf-8") as out:
        out.write(
            f"{item.nodeid}\t{own_after - own:.3f}\t{children_after - children:.3f}\t{wall:.3f}\n"
        )


def summary(folder: Path, top: int = 30) -> str:
    """Per worker: its CPU and its units in the order it ran them; the costliest units and tests."""
    from work_units import work_unit

    units: dict[str, float] = defaultdict(float)
    tests: list[tuple[float, str]] = []
    lines = []
    for path in sorted(folder.glob("*.tsv")):
        order: list[str] = []
        total = 0.0
        for row in path.read_text(encoding="utf-8").splitlines():
            nodeid, own, children, _ = row.split("\t")
            cpu = float(own) + float(children)
            total += cpu
            units[work_unit(nodeid)] += cpu
            tests.append((cpu, nodeid))
            if not order or order[-1] != work_unit(nodeid):
                order.append(work_unit(nodeid))
        lines.append(f"{path.stem}: {total:.1f} s CPU in {len(order)} units, last: {order[-3:]}")
    lines.append(f"all: {sum(units.values()):.1f} s CPU; costliest units:")
    ranked = sorted(units.items(), key=lambda item: -item[1])[:top]
    lines += [f"{cpu:8.1f}  {unit}" for unit, cpu in ranked]
    lines.append("costliest tests:")
    lines += [f"{cpu:8.1f}  {nodeid}" for cpu, nodeid in sorted(tests, reverse=True)[:top]]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    print(summary(Path(sys.argv[1])))
