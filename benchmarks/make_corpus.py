"""Build a benchmark corpus: the pinned ``.py`` members of JAX-ecosystem distributions from PyPI.

Usage: python benchmarks/make_corpus.py [--set speed|precision] [--corpus DIR] [--wheels DIR]

Two sets of pins share this machinery:

- ``speed`` (the default): every ``.py`` member of 12 wheels, the corpus ``benchmarks/run.py`` times.
- ``precision``: user-level JAX code from other distributions (training scripts, examples, trainers,
  models), the corpus ``benchmarks/precision/run.py`` judges retracelint's findings on. Some of its
  pins keep only the members matching their ``include`` globs (the JAX part of a mostly-PyTorch
  package), and some are sdists, which carry examples and tests that the wheel leaves out.

The archives are fetched with ``pip download --no-deps --require-hashes`` and checked against the
sha256 pinned below, so a corpus is byte-identical on every machine. Each archive's kept ``.py``
members are extracted into ``CORPUS/<dist>/<path inside the archive>`` (an sdist's top folder
dropped) and the file, line and byte totals are checked against the pinned ones. Re-running is
cheap: an existing corpus whose manifest and totals match is left alone, and downloaded archives are
kept in the archive cache.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT / ".bench" / "corpus"
DEFAULT_WHEELS = REPO_ROOT / ".bench" / "wheels"
MANIFEST = "MANIFEST.json"


@dataclass(frozen=True)
class Pin:
    """One pinned archive and what its kept ``.py`` members must add up to."""

    dist: str
    version: str
    archive: str
    sha256: str
    files: int
    lines: int
    bytes: int
    # fnmatch globs over member paths (an sdist's without its top folder; ``*`` also matches ``/``);
    # empty: every ``.py`` member
    include: tuple[str, ...] = ()

    @property
    def is_sdist(self) -> bool:
        return self.archive.endswith(".tar.gz")

    def keeps(self, member: str) -> bool:
        if not member.endswith(".py"):
            return False
        return not self.include or any(fnmatch.fnmatchcase(member, g) for g in self.include)


SPEED_PINS: tuple[Pin, ...] = (
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

PRECISION_PINS: tuple[Pin, ...] = (
    Pin(
        "keras",
        "3.15.1",
        "keras-3.15.1-py3-none-any.whl",
        "836460e480930acbd19bb7a17e62f9ecad40e8a9af9a651fc8d0586a96d27e20",
        20,
        9_526,
        314_352,
        ("keras/src/backend/jax/*",),
    ),
    Pin(
        "transformers",
        "4.57.6",
        "transformers-4.57.6-py3-none-any.whl",
        "4c9e9de11333ddfe5114bc872c9f370509198acf0b87a832a0ab9458e2bd0550",
        45,
        50_829,
        2_110_550,
        (
            "transformers/modeling_flax_*.py",
            "transformers/models/*/modeling_flax_*.py",
            "transformers/generation/flax_*.py",
        ),
    ),
    Pin(
        "diffusers",
        "0.35.2",
        "diffusers-0.35.2-py3-none-any.whl",
        "d50d5e74fdd6dcf55e5c1d304bc52cc7c2659abd1752740d736d7b54078b4db5",
        26,
        10_006,
        421_500,
        (
            "diffusers/models/*flax*.py",
            "diffusers/pipelines/*flax*.py",
            "diffusers/schedulers/*flax*.py",
        ),
    ),
    Pin(
        "kauldron",
        "1.4.2",
        "kauldron-1.4.2-py3-none-any.whl",
        "2a113c1d69a5ad9ecb99172b50efac3e63e6052bd03a03530a462e93f64e4a71",
        263,
        44_948,
        1_476_432,
    ),
    Pin(
        "paxml",
        "1.4.0",
        "paxml-1.4.0-py3-none-any.whl",
        "1ed1d84a13a35fa7547f9ba6100f036361f379e54e16bc28e40bb854ca01cb78",
        129,
        45_876,
        1_618_794,
    ),
    Pin(
        "praxis",
        "1.4.0",
        "praxis-1.4.0-py3-none-any.whl",
        "787bbc11d65e4a60a2240cc7ae78e56b81cbd99f88fd27da474c730fc8b3b2f3",
        175,
        92_775,
        3_280_435,
    ),
    Pin(
        "evosax",
        "0.3.2",
        "evosax-0.3.2-py3-none-any.whl",
        "fdbe2a78ad77029e04d820a30d7732813d2d04852f83d9d6bec2bd68a7ccd89f",
        79,
        11_893,
        377_539,
    ),
    Pin(
        "dynamax",
        "1.0.3",
        "dynamax-1.0.3-py3-none-any.whl",
        "af9b7a119610d6debfa3e6b09f0c537623efc3625bc4cc22b03b2065db746a7d",
        73,
        15_713,
        697_243,
    ),
    Pin(
        "ott-jax",
        "0.6.0",
        "ott_jax-0.6.0-py3-none-any.whl",
        "89d7ee73ae105a56385b66a43e9acd5ae070e66d991efc56047ab47cc756f3e6",
        107,
        26_261,
        888_302,
    ),
    Pin(
        "penzai",
        "0.2.5",
        "penzai-0.2.5.tar.gz",
        "4966bdd0eb9b34564be22c6197fbb84178e4a885e04a5678f6b6816d7cbc9387",
        168,
        36_423,
        1_295_511,
        ("penzai/*", "tests/*"),
    ),
    Pin(
        "flashbax",
        "0.1.3",
        "flashbax-0.1.3-py3-none-any.whl",
        "798b0056dd0f525269ad9689a402dd0a515db7cb6976c761aa95004ff37e9697",
        27,
        7_267,
        260_635,
    ),
    Pin(
        "mctx",
        "0.0.71",
        "mctx-0.0.71-py3-none-any.whl",
        "15be68b6344ca93e3bc4ae5be3a7ced93609839909acecd896e7d17a73b9b87e",
        14,
        2_627,
        100_534,
    ),
    Pin(
        "jraph",
        "0.0.6.dev0",
        "jraph-0.0.6.dev0-py3-none-any.whl",
        "350fe37bf717f934f1f84fd3370a480b3178bfcb61dfa217c738971308c57625",
        25,
        6_954,
        272_618,
    ),
    Pin(
        "brax",
        "0.14.2",
        "brax-0.14.2-py3-none-any.whl",
        "d33b7b222ba5d85fd0fc4d4c59aa46feb978684107ad3f79de6bfef97ab06693",
        144,
        23_024,
        817_656,
    ),
    Pin(
        "rlax",
        "0.1.9",
        "rlax-0.1.9-py3-none-any.whl",
        "34f64a5873aaa9d06f7cd4bb12b3abbb1aba2f0f507a5fce9b0c42d3b23f4f80",
        48,
        10_274,
        380_749,
    ),
    Pin(
        "distrax",
        "0.1.9",
        "distrax-0.1.9-py3-none-any.whl",
        "11c93bd4dd913803f2539847cf3a688804fae5f9da224dc44e340846753f75f4",
        138,
        27_403,
        1_064_114,
    ),
    Pin(
        "jumanji",
        "1.1.2",
        "jumanji-1.1.2.tar.gz",
        "c8a9f255ac7999176a38bba4ff6b2c0aa73b2fb36ea2adb26cc6afcddb271a8f",
        296,
        40_378,
        1_496_824,
        ("jumanji/*", "examples/*"),
    ),
    Pin(
        "gymnax",
        "1.0.1",
        "gymnax-1.0.1.tar.gz",
        "f56d50e4be2f8827db6e548387bc8806d69785b637ca005c19ea95685eaacdbb",
        59,
        8_926,
        307_362,
        ("gymnax/*", "tests/*"),
    ),
    Pin(
        "evojax",
        "0.2.17",
        "evojax-0.2.17.tar.gz",
        "78ec4bd4502d3c9443e3382c767b44890c8bfe399c1a027d6fe3f0f0cab0ffb1",
        44,
        7_325,
        261_811,
        ("evojax/*", "tests/*"),
    ),
    Pin(
        "jaxopt",
        "0.8.5",
        "jaxopt-0.8.5-py3-none-any.whl",
        "ff221d1a86908ec759eb1e219ee1d12bf208a70707e961bf7401076fe7cf4d5e",
        58,
        14_637,
        529_296,
    ),
    Pin(
        "neural-tangents",
        "0.6.5",
        "neural-tangents-0.6.5.tar.gz",
        "5565190e5b20c8578b2c8fbf1498ad9d8f6881c8c702e7af55189707a10843c3",
        59,
        26_680,
        888_861,
        ("neural_tangents/*", "examples/*", "tests/*"),
    ),
    Pin(
        "objax",
        "1.8.0",
        "objax-1.8.0-py3-none-any.whl",
        "7b0e3b28751529adc1402a05cc1e71f6e01b1476352d44cbdc4094d2586d1d1c",
        49,
        5_967,
        237_582,
    ),
    Pin(
        "dopamine-rl",
        "4.1.2",
        "dopamine_rl-4.1.2-py3-none-any.whl",
        "bd03119a54caf839fb61cf22179bad0bde712bc8ccf62aebd93ebce5381e54aa",
        89,
        19_693,
        671_306,
        (
            "dopamine/jax/*",
            "dopamine/labs/*",
            "dopamine/discrete_domains/*",
            "dopamine/continuous_domains/*",
        ),
    ),
    Pin(
        "dm-acme",
        "0.4.0",
        "dm-acme-0.4.0.tar.gz",
        "4b43e7738914cdf0134935485a5d9255189e59f73d442bef057c94279d7691ff",
        116,
        15_214,
        555_366,
        ("acme/jax/*", "acme/agents/jax/*"),
    ),
    Pin(
        "fedjax",
        "0.0.17",
        "fedjax-0.0.17-py3-none-any.whl",
        "42be1d21a57843ccdf3f2af802fe6f8fcdf8530da9b2812b178d18af8ac8c0a1",
        100,
        17_543,
        649_081,
        ("fedjax/*", "examples/*", "experiments/*"),
    ),
    Pin(
        "jax-md",
        "0.2.29",
        "jax_md-0.2.29-py3-none-any.whl",
        "b4e27fe280458bc862f32c5343f47c946be68ccb863e0b3feb310e0a8524c92c",
        78,
        39_604,
        1_273_745,
    ),
    Pin(
        "levanter",
        "1.1",
        "levanter-1.1-py3-none-any.whl",
        "7a24b719a3dbc428743fc2f80df5334d36d1d02f7359e523f4664c2eddcabf76",
        51,
        11_491,
        435_757,
    ),
    Pin(
        "sbx-rl",
        "0.28.0",
        "sbx_rl-0.28.0-py3-none-any.whl",
        "1493cc24ef96ecaf267ef2563d19c87fe02a9dc0ca39df59020378f720e4a951",
        29,
        5_395,
        209_416,
    ),
    Pin(
        "rejax",
        "0.1.3",
        "rejax-0.1.3-py3-none-any.whl",
        "86c7468b5b3c9b520b813d0e89137f36e1472d14c327ae86c5328b6e0ca629c0",
        20,
        3_172,
        109_835,
    ),
    Pin(
        "dm-clrs",
        "2.0.3",
        "dm_clrs-2.0.3-py3-none-any.whl",
        "7bde6019408780cbcafc064abf32a1f4d004f1b53fab9ac8069c07ea343e57af",
        48,
        13_887,
        466_009,
    ),
    Pin(
        "kfac-jax",
        "0.0.8",
        "kfac_jax-0.0.8-py3-none-any.whl",
        "0592f5bef991f27820f05b0641f0d281be8b5eadc403ceb730f685b75f431ac6",
        28,
        16_508,
        581_930,
    ),
    Pin(
        "jaxline",
        "0.0.8",
        "jaxline-0.0.8.tar.gz",
        "475a1ab56cb556127fa99df0ab23cbccc0d345c6b1a02707f4414932cef50f76",
        9,
        2_280,
        83_066,
        ("jaxline/*",),
    ),
    Pin(
        "google-tunix",
        "0.1.7",
        "google_tunix-0.1.7-py3-none-any.whl",
        "857b893b8ba71a61cce8cb9de2301218d311f72044de94aa2b826275968033b4",
        160,
        48_479,
        1_630_153,
    ),
    Pin(
        "qdax",
        "0.5.0",
        "qdax-0.5.0-py3-none-any.whl",
        "52fc4a6b4b87f5f66e73bd02a82aab94b17ed0c0e9b84c57110b07d7741a7fa9",
        160,
        30_393,
        1_000_250,
    ),
    Pin(
        "pgx",
        "2.6.0",
        "pgx-2.6.0-py3-none-any.whl",
        "35832356f091a1df16089184bc9a72a88d1c431a02f5c5499c6f2910e8db12b1",
        103,
        24_936,
        1_367_600,
    ),
    Pin(
        "jaxmarl",
        "0.2.0",
        "jaxmarl-0.2.0-py3-none-any.whl",
        "48c7747ee9ff144404c9ca70df07cc3a6b9f3cadca0ca945385e791fecedb327",
        93,
        26_656,
        919_544,
    ),
    Pin(
        "jax-cfd",
        "0.2.1",
        "jax_cfd-0.2.1-py3-none-any.whl",
        "c0879a66f419561687d92711bd0941f8f774852933cce83313eeec310160870b",
        91,
        19_855,
        715_298,
    ),
    Pin(
        "playground",
        "0.2.0",
        "playground-0.2.0-py3-none-any.whl",
        "c0f2df426186bd681d8f536cead80d43460ea6431db09ced32251910d4eef850",
        105,
        21_296,
        710_708,
    ),
)


@dataclass(frozen=True)
class CorpusSet:
    """A named list of pins, its expected totals and where its corpus goes by default."""

    name: str
    pins: tuple[Pin, ...]
    files: int
    lines: int
    corpus: Path


SPEED = CorpusSet("speed", SPEED_PINS, 1_752, 662_958, DEFAULT_CORPUS)
PRECISION = CorpusSet(
    "precision", PRECISION_PINS, 3_326, 842_114, REPO_ROOT / ".bench" / "precision"
)
SETS = {s.name: s for s in (SPEED, PRECISION)}


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


def missing_archives(cset: CorpusSet, archives: Path) -> list[Pin]:
    """Pins whose archive is absent from the cache or does not match its hash."""
    return [pin for pin in cset.pins if not _archive_ok(archives / pin.archive, pin)]


def _archive_ok(path: Path, pin: Pin) -> bool:
    return path.is_file() and sha256_of(path) == pin.sha256


def download(pins: list[Pin], archives: Path) -> None:
    """Fetch archives with pip; ``--require-hashes`` makes pip itself refuse a different file.

    Wheels and sdists go in separate pip runs: ``--only-binary`` / ``--no-binary`` make pip pick the
    pinned kind of file, and a hash that names the other kind would be refused.
    """
    archives.mkdir(parents=True, exist_ok=True)
    for sdists, kind in ((False, "--only-binary=:all:"), (True, "--no-binary=:all:")):
        batch = [pin for pin in pins if pin.is_sdist == sdists]
        if batch:
            _pip_download(batch, kind, archives)
    still_missing = [pin for pin in pins if not _archive_ok(archives / pin.archive, pin)]
    if still_missing:
        names = ", ".join(p.archive for p in still_missing)
        raise CorpusError(f"archives missing or with a wrong sha256 after download: {names}")


def _pip_download(pins: list[Pin], kind: str, archives: Path) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        for pin in pins:
            req.write(f"{pin.dist}=={pin.version} --hash=sha256:{pin.sha256}\n")
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        kind,
        "--require-hashes",
        "--disable-pip-version-check",
        "-q",
        "-d",
        str(archives),
        "-r",
        req.name,
    ]
    try:
        subprocess.run(cmd, check=True)
    except subprocess.CalledProcessError as exc:
        raise CorpusError(f"pip download failed (exit {exc.returncode})") from exc
    finally:
        os.unlink(req.name)


def members(pin: Pin, archive: Path) -> Iterator[tuple[str, bytes]]:
    """The kept ``.py`` members of an archive: path inside it (an sdist's top folder dropped), bytes."""
    if not pin.is_sdist:
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if not info.is_dir() and pin.keeps(info.filename):
                    yield info.filename, zf.read(info)
        return
    with tarfile.open(archive) as tf:
        for entry in tf:
            name = entry.name.partition("/")[2]
            content = tf.extractfile(entry) if entry.isfile() and pin.keeps(name) else None
            if content is not None:
                yield name, content.read()


def extract(pin: Pin, archive: Path, dest: Path) -> Counts:
    """Write the archive's kept ``.py`` members under ``dest/<dist>/`` and return their size."""
    counts = Counts()
    root = (dest / pin.dist).resolve()
    for name, data in members(pin, archive):
        target = (root / name).resolve()
        if not target.is_relative_to(root):
            raise CorpusError(f"{pin.archive}: member escapes the corpus: {name}")
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


def manifest_text(cset: CorpusSet) -> str:
    return json.dumps([[p.dist, p.version, p.sha256] for p in cset.pins], indent=1) + "\n"


def corpus_is_current(corpus: Path, cset: CorpusSet = SPEED) -> bool:
    """True when the manifest names the current pins and every package has the pinned size."""
    manifest = corpus / MANIFEST
    if not manifest.is_file() or manifest.read_text() != manifest_text(cset):
        return False
    return all(count_tree(corpus / pin.dist) == expected(pin) for pin in cset.pins)


def build(corpus: Path, archives: Path, cset: CorpusSet = SPEED) -> dict[str, Counts]:
    """Extract all pinned archives into a scratch directory, verify, then move it into place."""
    todo = missing_archives(cset, archives)
    if todo:
        print(f"downloading {len(todo)} archive(s) into {archives}", file=sys.stderr)
        download(todo, archives)
    corpus.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=corpus.name + ".", dir=corpus.parent))
    try:
        counts = {pin.dist: extract(pin, archives / pin.archive, scratch) for pin in cset.pins}
        check_counts(counts, cset)
        (scratch / MANIFEST).write_text(manifest_text(cset))
        if corpus.exists():
            shutil.rmtree(corpus)
        scratch.rename(corpus)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch)
    return counts


def check_counts(counts: dict[str, Counts], cset: CorpusSet) -> None:
    wrong = [
        f"{pin.dist}: got {counts[pin.dist]}, pinned {expected(pin)}"
        for pin in cset.pins
        if counts[pin.dist] != expected(pin)
    ]
    total = sum(counts.values(), Counts())
    if (total.files, total.lines) != (cset.files, cset.lines):
        wrong.append(f"total: got {total}, expected {cset.files} files {cset.lines} lines")
    if wrong:
        raise CorpusError("corpus does not match the pins:\n  " + "\n  ".join(wrong))


def ensure_corpus(
    corpus: Path, wheels: Path = DEFAULT_WHEELS, cset: CorpusSet = SPEED
) -> dict[str, Counts]:
    """Return per-package counts, building the corpus first if it is missing or stale."""
    if corpus_is_current(corpus, cset):
        return all_pinned(cset)
    return build(corpus, wheels, cset)


def all_pinned(cset: CorpusSet) -> dict[str, Counts]:
    return {pin.dist: expected(pin) for pin in cset.pins}


def format_counts(counts: dict[str, Counts], cset: CorpusSet) -> str:
    versions = {pin.dist: pin.version for pin in cset.pins}
    rows = [f"{'package':<26} {'files':>6} {'lines':>9} {'bytes':>11}"]
    for dist, c in counts.items():
        name = f"{dist} {versions[dist]}"
        rows.append(f"{name:<26} {c.files:>6,} {c.lines:>9,} {c.bytes:>11,}")
    total = sum(counts.values(), Counts())
    rows.append(f"{'total':<26} {total.files:>6,} {total.lines:>9,} {total.bytes:>11,}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=SETS, default="speed", help="which pins (default speed)")
    parser.add_argument("--corpus", type=Path, help="corpus directory (default: the set's)")
    parser.add_argument(
        "--wheels", type=Path, default=DEFAULT_WHEELS, help="archive cache directory"
    )
    args = parser.parse_args(argv)
    cset = SETS[args.set]
    corpus = (args.corpus or cset.corpus).resolve()
    try:
        current = corpus_is_current(corpus, cset)
        counts = all_pinned(cset) if current else build(corpus, args.wheels.resolve(), cset)
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(format_counts(counts, cset))
    state = "already up to date" if current else "built and verified"
    print(f"corpus {state}: {corpus}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
