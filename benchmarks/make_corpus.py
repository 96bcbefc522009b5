"""Build the benchmark corpus: every ``.py`` member of 12 pinned JAX-ecosystem wheels from PyPI.

Usage: python benchmarks/make_corpus.py [--corpus DIR] [--wheels DIR]

The wheels are fetched with ``pip download --no-deps --only-binary=:all: --require-hashes`` and
checked against the sha256 pinned below, so the corpus is byte-identical on every machine. Each
wheel's ``.py`` members are extracted into ``CORPUS/<dist>/<path inside the wheel>`` and the file,
line and byte totals are checked against the pinned ones. Re-running is cheap: an existing corpus
whose manifest and totals match is left alone, and downloaded wheels are kept in the wheel cache.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT / ".bench" / "corpus"
DEFAULT_WHEELS = REPO_ROOT / ".bench" / "wheels"
MANIFEST = "MANIFEST.json"


@dataclass(frozen=True)
class Pin:
    """One pinned wheel and what its ``.py`` members must add up to."""

    dist: str
    version: str
    wheel: str
    sha256: str
    files: int
    lines: int
    bytes: int


PINS: tuple[Pin, ...] = (
    Pin(
        "jax",
        "0.10.2",
        "jax-0.10.2-py3-none-any.whl",
        "724d73c4678d8b06f6a6ab4db1b8a2fea8cd4f1e2c2564f99601634ec7b8d1c6",
        617,
        305_279,
        12_550_293,
    ),
    Pin(
        "flax",
        "0.12.8",
        "flax-0.12.8-py3-none-any.whl",
        "807931d369cbc716fc447801ab39cd6c3c2614d573387a2319a028675dd34fe5",
        110,
        56_367,
        1_905_980,
    ),
    Pin(
        "optax",
        "0.2.8",
        "optax-0.2.8-py3-none-any.whl",
        "e3ca2d36c99daab1800ae9dbc0545034382d6bc780b24d969e1b0df65fa31cb4",
        129,
        38_559,
        1_389_043,
    ),
    Pin(
        "equinox",
        "0.13.8",
        "equinox-0.13.8-py3-none-any.whl",
        "ca004348533cc30a63ebe8823d7dd4bb626dce17743d40bbddb89b402ef2a240",
        72,
        15_939,
        560_033,
    ),
    Pin(
        "chex",
        "0.1.92",
        "chex-0.1.92-py3-none-any.whl",
        "f34989d9bff7954edfab09fba7757e3d62404da34577bff0d253599ec5b4f93d",
        23,
        10_071,
        354_725,
    ),
    Pin(
        "diffrax",
        "0.7.2",
        "diffrax-0.7.2-py3-none-any.whl",
        "1beee2f991cd049962fe3c89da28f933753aa66d80bef857533276c9f23301ed",
        63,
        16_473,
        589_652,
    ),
    Pin(
        "numpyro",
        "0.22.0",
        "numpyro-0.22.0-py3-none-any.whl",
        "0bbcd8e5319876306eaea595bc78c09201cbcde89bd5856f2867ab65e1dab0a5",
        92,
        46_443,
        1_745_001,
    ),
    Pin(
        "orbax-checkpoint",
        "0.12.8",
        "orbax_checkpoint-0.12.8-py3-none-any.whl",
        "6a42c005db85bf412ae39598a008c894070fd69ca94ee39e2cca02c7ccc28d1f",
        324,
        87_262,
        3_055_534,
    ),
    Pin(
        "dm-haiku",
        "0.0.17",
        "dm_haiku-0.0.17-py3-none-any.whl",
        "aa1394276adf59d695c910810ad90febb741503a83c32b022ce1162483904bbb",
        149,
        33_915,
        1_184_727,
    ),
    Pin(
        "blackjax",
        "1.7.1",
        "blackjax-1.7.1-py3-none-any.whl",
        "be2c7f982f4ab3afef2dd5f075dae271023fdec3d9c5d8b599ba7f2f281524fa",
        116,
        38_754,
        1_484_320,
    ),
    Pin(
        "lineax",
        "0.1.1",
        "lineax-0.1.1-py3-none-any.whl",
        "2e399f1674773ab2ba54d76175a618977a554f47abd0a345198d53d92c07beb2",
        23,
        6_333,
        222_274,
    ),
    Pin(
        "optimistix",
        "0.1.0",
        "optimistix-0.1.0-py3-none-any.whl",
        "c8edda7bf7fe48839c93fcd72bce750c950ed9f7033158303150b7ab395add81",
        34,
        7_563,
        285_683,
    ),
)

EXPECTED_FILES = 1_752
EXPECTED_LINES = 662_958


@dataclass(frozen=True)
class Counts:
    """Size of a set of source files; lines are newline characters, as ``wc -l`` counts them."""

    files: int = 0
    lines: int = 0
    bytes: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.files + other.files, self.lines + other.lines, self.bytes + other.bytes)


class CorpusError(RuntimeError):
    """The corpus could not be built or does not match the pins."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def missing_wheels(wheels: Path) -> list[Pin]:
    """Pins whose wheel is absent from the cache or does not match its hash."""
    return [pin for pin in PINS if not _wheel_ok(wheels / pin.wheel, pin)]


def _wheel_ok(path: Path, pin: Pin) -> bool:
    return path.is_file() and sha256_of(path) == pin.sha256


def download(pins: list[Pin], wheels: Path) -> None:
    """Fetch wheels with pip; ``--require-hashes`` makes pip itself refuse a different file."""
    wheels.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        for pin in pins:
            req.write(f"{pin.dist}=={pin.version} --hash=sha256:{pin.sha256}\n")
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--require-hashes",
        "--disable-pip-version-check",
        "-q",
        "-d",
        str(wheels),
        "-r",
        req.name,
    ]
    try:
        subprocess.run(cmd, check=True)
    except subprocess.CalledProcessError as exc:
        raise CorpusError(f"pip download failed (exit {exc.returncode})") from exc
    finally:
        os.unlink(req.name)
    still_missing = missing_wheels(wheels)
    if still_missing:
        names = ", ".join(p.wheel for p in still_missing)
        raise CorpusError(f"wheels missing or with a wrong sha256 after download: {names}")


def extract(pin: Pin, wheel: Path, dest: Path) -> Counts:
    """Write the wheel's ``.py`` members under ``dest/<dist>/`` and return their size."""
    counts = Counts()
    root = (dest / pin.dist).resolve()
    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            if info.is_dir() or not info.filename.endswith(".py"):
                continue
            target = (root / info.filename).resolve()
            if not target.is_relative_to(root):
                raise CorpusError(f"{pin.wheel}: member escapes the corpus: {info.filename}")
            data = zf.read(info)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            counts += Counts(1, data.count(b"\n"), len(data))
    return counts


def count_tree(root: Path) -> Counts:
    counts = Counts()
    for path in root.rglob("*.py"):
        data = path.read_bytes()
        counts += Counts(1, data.count(b"\n"), len(data))
    return counts


def expected(pin: Pin) -> Counts:
    return Counts(pin.files, pin.lines, pin.bytes)


def manifest_text() -> str:
    return json.dumps([[p.dist, p.version, p.sha256] for p in PINS], indent=1) + "\n"


def corpus_is_current(corpus: Path) -> bool:
    """True when the manifest names the current pins and every package has the pinned size."""
    manifest = corpus / MANIFEST
    if not manifest.is_file() or manifest.read_text() != manifest_text():
        return False
    return all(count_tree(corpus / pin.dist) == expected(pin) for pin in PINS)


def build(corpus: Path, wheels: Path) -> dict[str, Counts]:
    """Extract all pinned wheels into a scratch directory, verify, then move it into place."""
    todo = missing_wheels(wheels)
    if todo:
        print(f"downloading {len(todo)} wheel(s) into {wheels}", file=sys.stderr)
        download(todo, wheels)
    corpus.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=corpus.name + ".", dir=corpus.parent))
    try:
        counts = {pin.dist: extract(pin, wheels / pin.wheel, scratch) for pin in PINS}
        check_counts(counts)
        (scratch / MANIFEST).write_text(manifest_text())
        if corpus.exists():
            shutil.rmtree(corpus)
        scratch.rename(corpus)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch)
    return counts


def check_counts(counts: dict[str, Counts]) -> None:
    wrong = [
        f"{pin.dist}: got {counts[pin.dist]}, pinned {expected(pin)}"
        for pin in PINS
        if counts[pin.dist] != expected(pin)
    ]
    total = sum(counts.values(), Counts())
    if (total.files, total.lines) != (EXPECTED_FILES, EXPECTED_LINES):
        wrong.append(f"total: got {total}, expected {EXPECTED_FILES} files {EXPECTED_LINES} lines")
    if wrong:
        raise CorpusError("corpus does not match the pins:\n  " + "\n  ".join(wrong))


def ensure_corpus(corpus: Path, wheels: Path = DEFAULT_WHEELS) -> dict[str, Counts]:
    """Return per-package counts, building the corpus first if it is missing or stale."""
    if corpus_is_current(corpus):
        return all_pinned()
    return build(corpus, wheels)


def all_pinned() -> dict[str, Counts]:
    return {pin.dist: expected(pin) for pin in PINS}


def format_counts(counts: dict[str, Counts]) -> str:
    versions = {pin.dist: pin.version for pin in PINS}
    rows = [f"{'package':<26} {'files':>6} {'lines':>9} {'bytes':>11}"]
    for dist, c in counts.items():
        name = f"{dist} {versions[dist]}"
        rows.append(f"{name:<26} {c.files:>6,} {c.lines:>9,} {c.bytes:>11,}")
    total = sum(counts.values(), Counts())
    rows.append(f"{'total':<26} {total.files:>6,} {total.lines:>9,} {total.bytes:>11,}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus directory")
    parser.add_argument("--wheels", type=Path, default=DEFAULT_WHEELS, help="wheel cache directory")
    args = parser.parse_args(argv)
    corpus = args.corpus.resolve()
    try:
        current = corpus_is_current(corpus)
        counts = all_pinned() if current else build(corpus, args.wheels.resolve())
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(format_counts(counts))
    state = "already up to date" if current else "built and verified"
    print(f"corpus {state}: {corpus}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
