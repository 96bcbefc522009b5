"""The suite's pytest-xdist scheduler: a file's tests on one worker, a batch's where the file cuts its
slow module fixture into batches, slow units first (tests/work_units.py)."""

from __future__ import annotations

import os

import pytest
from work_units import first_of, work_unit


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    # Only the suite's own mode: a run that asks for another (`--dist each`) gets it.
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling  # only ever called where xdist runs

    class UnitScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node: object) -> None:
            slow = first_of(self.workqueue)
            if slow is not None:
                self.workqueue.move_to_end(slow, last=False)
            super()._assign_work_unit(node)

    return UnitScheduling(config, log)


def pytest_configure(config: pytest.Config) -> None:
    # Opt-in per-test CPU accounting (tests/cpu_profile.py): load-proof numbers on a shared machine.
    if os.environ.get("RETRACELINT_TEST_CPU"):
        import cpu_profile

        config.pluginmanager.register(cpu_profile, "retracelint-cpu-profile")
