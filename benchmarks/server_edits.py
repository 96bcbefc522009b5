"""Edit-to-diagnostics of ``retracelint server`` on the speed corpus (issue 40). A benchmark, not a test.

Usage: python benchmarks/server_edits.py [--corpus DIR] [--work DIR] [--edits N] [--verify K]

1. Copies the corpus to WORK/tree, with a pyproject.toml at its root: one project, the one
   ``retracelint check TREE`` analyses.
2. ``cli-cold``: ``retracelint check TREE --cache-dir C`` with C empty, a whole process (start-up
   included), as benchmarks/run.py's cold rows.
3. ``first``: what the server does for the first file opened, in this process: ``server.analyse_open``
   with the server's ``Memory``, the cache empty (WORK/.retracelint_cache, where the server started in
   WORK keeps it), then the diagnostics of the open files built (``server.diagnostic``).
4. ``edit``: N edits, each of another file (spread evenly over the sorted files of the corpus), unsaved;
   the buffers edited before stay open and edited, as in an editor. Even ones change a digit in the
   last body that has one (what other modules read of the module is mostly kept: it is linked alone),
   odd ones append a function (a new name: the others may name it).
   Each is timed from the buffer's new text to the diagnostics of every open file, as the server runs
   it after the debounce (``server.DEBOUNCE_S`` after the last keystroke; not included); the cycle
   collection the server runs once they are out (``session.settle``) is timed apart, with the memory
   the process holds after it.
5. ``--verify K``: every Kth edit, every finding of the project as that edit's run found it is
   compared with those of a run that neither memory nor cache helps (the whole project summarised
   and linked again).

Wall and CPU seconds of this process (and of the worker processes it waited for) are printed per
step, then the median and 90th percentile of the edits, as Markdown.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from retracelint import config, engine, server  # noqa: E402
from retracelint.session import Memory, Watch, settle  # noqa: E402


@dataclass(frozen=True)
class Timed:
    name: str
    wall: float
    cpu: float
    note: str = ""
    settle: float = (
        0.0  # CPU s of the collection after it (``session.settle``), as the server runs it
    )


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def prepare(corpus: Path, work: Path) -> Path:
    tree = work / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(corpus, tree)
    (tree / "pyproject.toml").write_text('[project]\nname = "corpus"\n', encoding="utf-8")
    return tree


def cli_cold(tree: Path, work: Path) -> Timed:
    cache = work / "cli-cache"
    shutil.rmtree(cache, ignore_errors=True)
    command = [sys.executable, "-c", "from retracelint.cli import run; run()"]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")]),
    }
    start, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(
        [
            *command,
            "check",
            str(tree),
            "--cache-dir",
            str(cache),
            "--exit-zero",
            "--output-format",
            "json",
        ],
        env=env,
        capture_output=True,
        check=False,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"cli-cold failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return Timed("cli-cold", wall, _cpu() - cpu, "whole process, empty cache")


def settled() -> float:
    cpu = _cpu()
    settle()
    return _cpu() - cpu


def analysed(memory: Memory, texts: dict[str, str], edited: str) -> dict[str, list]:
    """What the server publishes after ``edited`` changed: the diagnostics of every open file."""
    found = server.analyse_open(texts, edited, Watch(memory))
    return {
        path: [server.diagnostic(f, texts[path].splitlines(), texts) for f in findings]
        for path, findings in found.items()
    }


def project_findings(tree: Path, texts: dict[str, str], memory: Memory | None) -> list:
    """Every finding of the project with the open buffers as they stand: from ``memory`` (the run
    the edit made is read back), or from a run that neither memory nor cache helps."""

    def settings_for(found: Path | None) -> config.Settings:
        settings = server.settings_for(found)
        return settings if memory is not None else replace(settings, cache=False)

    buffers = {path: text.encode("utf-8") for path, text in texts.items()}
    watch = Watch(memory, buffers=buffers)
    return engine.analyse_projects([str(tree)], settings_for, watch=watch)[1].findings


def _sorted(findings: list) -> list:
    return sorted(findings, key=lambda f: f.sort_key)


# A digit alone in an indented line (a function's or a class's body), not in a comment.
_DIGIT = re.compile(r"^([ \t]+[^#\n]*?[^\w.])([0-9])(?![\w.])", re.MULTILINE)


def edit(text: str, number: int) -> tuple[str, str]:
    """The text after edit ``number`` of a buffer, and what kind of edit it is: even ones change a
    digit in the last body that has one (``n + 1`` becomes ``n + 2``: nothing moves, what the other
    modules read of the module is mostly kept), odd ones, and files with no such digit, append a
    function (a new name: the module's face changes)."""
    found = list(_DIGIT.finditer(text)) if number % 2 == 0 else []
    if found:
        last = found[-1]
        digit = str((int(last.group(2)) + 1) % 10)
        return text[: last.start(2)] + digit + text[last.end(2) :], "body"
    return text + f"\n\ndef _retracelint_bench_{number}(x):\n    return x + {number}\n", "append"


def edited_files(tree: Path, count: int) -> list[Path]:
    files = sorted(p for p in tree.rglob("*.py") if p.stat().st_size > 500)
    step = max(len(files) // count, 1)
    return files[step // 2 :: step][:count]


def rss_mib() -> float:
    """The resident memory of this process now (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return 0.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=HERE.parent / ".bench" / "corpus")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--verify", type=int, default=0, metavar="K")
    options = parser.parse_args()
    if not options.corpus.is_dir():
        raise SystemExit(f"no corpus at {options.corpus}: run benchmarks/make_corpus.py")
    work = options.work or Path(tempfile.mkdtemp(prefix="retracelint-server-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    tree = prepare(options.corpus, work)
    rows = [cli_cold(tree, work)]

    os.chdir(work)  # the server keeps its cache in the folder it is started in
    gc.disable()  # as ``server.serve``
    shutil.rmtree(work / ".retracelint_cache", ignore_errors=True)
    memory = Memory()
    texts: dict[str, str] = {}
    files = edited_files(tree, options.edits)
    first = str(files[0])
    texts[first] = files[0].read_text(encoding="utf-8")
    start, cpu = time.perf_counter(), _cpu()
    shown = analysed(memory, texts, first)
    wall, used = time.perf_counter() - start, _cpu() - cpu
    collect = settled()
    note = f"empty cache, {rss_mib():.0f} MiB resident after"
    rows.append(Timed("first", wall, used, note, collect))

    edits: list[Timed] = []
    mismatches = 0
    for number, path in enumerate(files):
        name = str(path)
        text = texts.get(name) or path.read_text(encoding="utf-8")
        texts[name], kind = edit(text, number)
        start, cpu = time.perf_counter(), _cpu()
        shown = analysed(memory, texts, name)
        wall, used = time.perf_counter() - start, _cpu() - cpu
        collect = settled()
        lines = texts[name].count("\n")
        note = (
            f"{kind}: {path.relative_to(tree)} ({lines:,} lines),"
            f" {sum(map(len, shown.values()))} shown,"
            f" {rss_mib():.0f} MiB resident after"
        )
        if options.verify and number % options.verify == 0:
            found = project_findings(tree, texts, memory)
            same = _sorted(found) == _sorted(project_findings(tree, texts, None))
            mismatches += not same
            note += f", project's {len(found)} findings verified: " + (
                "same" if same else "DIFFERENT"
            )
        edits.append(Timed(f"edit {number + 1}", wall, used, note, collect))
        settle()  # what the verification left

    print(
        f"{len(list(tree.rglob('*.py'))):,} files; {os.cpu_count()} cores; {sys.version.split()[0]}"
    )
    print("\n| step | wall s | CPU s | then collected, CPU s | note |\n|---|---:|---:|---:|---|")
    for row in [*rows, *edits]:
        print(f"| {row.name} | {row.wall:.3f} | {row.cpu:.3f} | {row.settle:.3f} | {row.note} |")
    print("\n| edits | median | p90 | max |\n|---|---:|---:|---:|")
    for kind in ("", "body", "append"):
        chosen = [e for e in edits if e.note.startswith(kind)]
        if not chosen:
            continue
        for unit, values in (
            ("wall s", [e.wall for e in chosen]),
            ("CPU s", [e.cpu for e in chosen]),
        ):
            print(
                f"| {unit}{f' ({kind}: {len(chosen)})' if kind else ''} |"
                f" {statistics.median(values):.3f} | {percentile(values, 0.9):.3f} |"
                f" {max(values):.3f} |"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of the server's process: {peak:.0f} MiB")
    if options.verify:
        print(f"verified edits that differ from a run from scratch: {mismatches}")
    if mismatches:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
