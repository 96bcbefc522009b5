"""Parse every ``.py`` file under the given paths and throw the tree away: the parse-only limit.

Usage: python benchmarks/parse_only.py {libcst,ast} [-j N] PATH...

No analyzer built on the same parser can be faster than this on the same files and processes, so
``run.py`` measures retracelint against it. Workers return only a flag, never the tree: sending
trees back between processes would add cost that a real analyzer does not pay either.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from multiprocessing import Pool
from pathlib import Path

Parser = Callable[[bytes], object]


def python_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return found


def make_parser(name: str) -> Parser:
    # Imported here so that the `ast` row does not pay for importing libcst.
    if name == "libcst":
        import libcst

        return libcst.parse_module
    import ast

    return ast.parse


_parse: Parser | None = None


def _init_worker(name: str) -> None:
    global _parse
    _parse = make_parser(name)


def parse_file(path: Path) -> bool:
    """Parse one file; bytes let both parsers honour the file's own encoding declaration."""
    assert _parse is not None
    try:
        _parse(path.read_bytes())
    except Exception as exc:  # a benchmark reports parse failures, it does not stop on them
        print(f"{path}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return False
    return True


def parse_all(name: str, files: list[Path], jobs: int) -> Iterator[bool]:
    # Import in the parent too: forked workers then inherit the parser module instead of each
    # importing it again; the initializer still covers the spawn start method.
    _init_worker(name)
    if jobs <= 1:
        yield from map(parse_file, files)
        return
    with Pool(jobs, initializer=_init_worker, initargs=(name,)) as pool:
        yield from pool.imap_unordered(parse_file, files, chunksize=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parser", choices=["libcst", "ast"])
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("paths", type=Path, nargs="+")
    args = parser.parse_args(argv)
    files = python_files(args.paths)
    start = time.perf_counter()
    ok = sum(parse_all(args.parser, files, args.jobs))
    elapsed = time.perf_counter() - start
    print(f"{args.parser} -j{args.jobs}: parsed {ok}/{len(files)} files in {elapsed:.2f} s")
    return 0 if ok == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
