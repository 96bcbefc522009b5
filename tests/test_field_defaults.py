"""A dataclass field read off an object whose construction is not known where it is read (an item of
a list of jobs walked by a loop) keeps the value every constructor call gives it: its default when no
call passes it and no code sets it. Each case is a project split over modules as users write it; what
must keep the finding is anything that may give the field another value somewhere."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import with_related

JOBS = """
    from dataclasses import dataclass, field


    @dataclass
    class Job:
        seed: int
        frames: int = 32
        voice: str = field(default="choir")


    @dataclass
    class CustomJob:
        seed: int
        frames: int = 32

        def __post_init__(self):
            self.frames = self.frames * 2
"""

RUNNER = """
    from functools import partial

    import jax
    import jax.numpy as jnp

    HARMONICS = {"choir": 3, "organ": 5}


    @partial(jax.jit, static_argnames=("frames", "harmonics"))
    def render(key, frames, harmonics):
        return jax.random.normal(key, (frames,)).sum() * harmonics


    class Runner:
        def harmonics(self, job):
            return HARMONICS[job.voice]

        def __call__(self, job):
            key = jax.random.PRNGKey(job.seed)
            return render(
                key,
                frames=job.frames,
                harmonics=self.harmonics(job),
            )
"""

FRAMES_LINE, HARMONICS_LINE = 23, 24  # in runner.py, after dedent and the leading newline


def _findings(root: Path, main: str, jobs: str = JOBS) -> set[tuple[int, str]]:
    """The RTL2xx findings in runner.py, as (line, parameter), of the project ``main`` drives (those
    one of them tells of its re-trace too: ``related``)."""
    files = {"jobs.py": jobs, "runner.py": RUNNER, "main.py": main}
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    run = analyse([str(root)], Settings(cache=False, select=("RTL2",)))
    found = with_related(run.findings)
    assert all(f.location.path.endswith("runner.py") for f in found), run.findings
    return {(f.location.line, f.parameter or "") for f in found}


def _loop(make: str, extra: str = "") -> str:
    return f"""
        from jobs import CustomJob, Job
        from runner import Runner
        {extra}

        def main(count):
            runner = Runner()
            queue = []
            for i in range(count):
                queue.append({make})
            for job in queue:
                runner(job)
    """


def test_fields_no_call_passes_keep_their_defaults(tmp_path: Path) -> None:
    assert _findings(tmp_path, _loop("Job(seed=i)")) == set()


def test_a_field_every_call_passes_the_same_literal_is_that_literal(tmp_path: Path) -> None:
    main = (
        _loop("Job(seed=i, frames=16, voice='organ')")
        + """
        def warm_up():
            for job in [Job(0, 16, "organ"), Job(1, frames=16, voice="organ")]:
                Runner()(job)
    """
    )
    assert _findings(tmp_path, main) == set()


@pytest.mark.parametrize(
    ("make", "extra", "changed"),
    [
        # A caller passes a value that changes per iteration.
        ("Job(seed=i, frames=8 * (i + 1))", "", {(FRAMES_LINE, "frames")}),
        # Two calls pass different literals: which job it is decides.
        ("Job(seed=i, frames=16 if i % 2 else 32)", "", {(FRAMES_LINE, "frames")}),
        # The field selects a table entry: the helper's result changes with it.
        (
            "Job(seed=i, voice='organ' if i % 2 else 'choir')",
            "",
            {(HARMONICS_LINE, "harmonics")},
        ),
        # Code elsewhere may set the field, by name or by replacing it.
        (
            "Job(seed=i)",
            "def resize(job, n):\n    job.frames = n",
            {(FRAMES_LINE, "frames")},
        ),
        (
            "Job(seed=i)",
            "def reset(job, key, value):\n    setattr(job, key, value)",
            {(FRAMES_LINE, "frames"), (HARMONICS_LINE, "harmonics")},
        ),
        (
            "Job(seed=i)",
            "from dataclasses import replace\ndef longer(job, n):\n    return replace(job, frames=n)",
            {(FRAMES_LINE, "frames")},
        ),
        # A class whose own code computes the field.
        ("CustomJob(seed=i)", "", {(FRAMES_LINE, "frames")}),
    ],
)
def test_a_field_that_may_get_another_value_is_still_reported(
    tmp_path: Path, make: str, extra: str, changed: set[tuple[int, str]]
) -> None:
    extra = textwrap.indent(extra, " " * 8).lstrip()
    found = _findings(tmp_path, _loop(make, extra))
    assert changed <= found


@pytest.mark.parametrize(
    ("make", "changes"), [("Job(seed=i)", False), ("Job(seed=i, frames=i + 1)", True)]
)
def test_a_buffer_sized_by_a_field_changes_shape_only_when_the_field_does(
    tmp_path: Path, make: str, changes: bool
) -> None:
    """Not only static arguments: the length of a buffer made from the field (RTL105)."""
    (tmp_path / "jobs.py").write_text(textwrap.dedent(JOBS), encoding="utf-8")
    (tmp_path / "stats.py").write_text(
        textwrap.dedent(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def total(buffer):
                return buffer.sum()


            def summarise(job):
                return total(jnp.zeros(job.frames) + job.seed)
            """
        ),
        encoding="utf-8",
    )
    main = f"""
        from jobs import Job
        from stats import summarise


        def main(count):
            queue = [{make} for i in range(count)]
            for job in queue:
                summarise(job)
    """
    (tmp_path / "main.py").write_text(textwrap.dedent(main), encoding="utf-8")
    run = analyse([str(tmp_path)], Settings(cache=False, select=("RTL",)))
    found = {(Path(f.location.path).name, f.location.line, f.code) for f in run.findings}
    assert found == ({("stats.py", 12, "RTL105")} if changes else set())
