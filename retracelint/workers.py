"""Summarise files in worker processes and in this one at the same time.

``-j N`` means N processes in all: N - 1 workers and this process, which would otherwise sit idle
while the workers parse. Work is handed out in chunks, largest files first; the workers take chunks
from the front of the queue and this process takes them from the back (a chunk no worker has picked
up yet can still be cancelled, and then it is done here). So the big files go to the workers early,
the two ends meet in the middle, and nobody waits long for the last chunk. Work can be added while
the workers run: the engine hands over the files that surely matter before the relevance pre-scan has
decided about the others.

A worker returns each whole summary pickled, the same bytes it writes to the cache beside the summary's
head, so a summary is pickled once. If the workers cannot start (a sandbox, a frozen app) or die (killed for memory), their chunks
are done here: a slower run, never a lost one.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from types import TracebackType

from retracelint.cache import SummaryCache, decode, encode
from retracelint.summarise import SummaryOptions, summarise
from retracelint.summary import ModuleSummary

_CHUNKS_PER_PROCESS = 40  # enough for the two ends to meet evenly; each costs ~0.3 ms to hand out


@dataclass(frozen=True)
class Task:
    """One file to summarise: where its summary goes in the engine's list, and its cache key."""

    index: int
    path: str
    module: str
    is_package: bool
    source: bytes
    key: str


Chunk = tuple[Task, ...]


def summarise_chunk(
    chunk: Chunk, options: SummaryOptions, cache: SummaryCache | None
) -> list[bytes]:
    """In a worker: summarise, store in the cache, and return the pickled summaries."""
    out = []
    for task in chunk:
        encoded = encode(summarise(task.source, task.path, task.module, task.is_package, options))
        if cache is not None:
            cache.put(task.key, encoded)
        out.append(encoded[1])
    return out


@dataclass
class Pool:
    """Summarise tasks with ``processes`` processes in all, this one included."""

    processes: int
    options: SummaryOptions
    cache: SummaryCache | None
    expected_bytes: int  # the source bytes of all tasks that will be added: sets the chunk size
    min_tasks: int = 1  # fewer tasks than this in all: starting workers costs more than it saves
    _waiting: list[Task] = field(default_factory=list)
    _executor: Executor | None = None
    _queue: list[tuple[Chunk, Future[list[bytes]] | None]] = field(default_factory=list)

    def __enter__(self) -> Pool:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)

    def add(self, tasks: list[Task]) -> None:
        """Queue ``tasks``; the workers start on them at once, once there are enough tasks in all."""
        self._waiting.extend(tasks)
        if self._queue or len(self._waiting) >= self.min_tasks:
            for chunk in _chunks(self._waiting, self._chunk_bytes()):
                self._queue.append((chunk, self._submit(chunk)))
            self._waiting.clear()

    def results(self, here: Callable[[Task], ModuleSummary]) -> dict[int, ModuleSummary]:
        """Every task's summary by its index. This process works from the back of the queue, running
        ``here`` on each task of a chunk no worker has started, until it meets the workers; between
        two chunks it unpickles what the workers have finished, so that this work, too, is done
        while they still run."""
        out = {task.index: here(task) for task in self._waiting}
        remaining = deque(self._queue)
        while remaining:
            while remaining and _finished(remaining[0][1]):
                self._collect(*remaining.popleft(), here, out)
            if not remaining:
                break
            chunk, future = remaining[-1]
            if future is not None and not future.cancel():
                break
            remaining.pop()
            for task in chunk:
                out[task.index] = here(task)
        for chunk, future in remaining:
            self._collect(chunk, future, here, out)
        self._queue.clear()
        self._waiting.clear()
        return out

    @staticmethod
    def _collect(
        chunk: Chunk,
        future: Future[list[bytes]] | None,
        here: Callable[[Task], ModuleSummary],
        out: dict[int, ModuleSummary],
    ) -> None:
        try:
            encoded = future.result() if future is not None else None
        except Exception:  # a worker died (memory, a signal): this process does its chunk
            encoded = None
        if encoded is None:
            for task in chunk:
                out[task.index] = here(task)
            return
        for task, data in zip(chunk, encoded, strict=True):
            out[task.index] = decode(data)

    def _chunk_bytes(self) -> int:
        return max(1, self.expected_bytes // (self.processes * _CHUNKS_PER_PROCESS))

    def _submit(self, chunk: Chunk) -> Future[list[bytes]] | None:
        if self.processes < 2:
            return None
        try:
            if self._executor is None:
                # Imported here: multiprocessing costs a run with nothing to parse 15 ms to import.
                from concurrent.futures import ProcessPoolExecutor

                # gc.disable: the workers allocate like this process (see engine.analyse); a forked
                # worker inherits the setting, a spawned one would not.
                self._executor = ProcessPoolExecutor(self.processes - 1, initializer=gc.disable)
            return self._executor.submit(summarise_chunk, chunk, self.options, self.cache)
        except (OSError, RuntimeError):  # no processes here: this one does everything
            self.processes = 1
            return None


def _finished(future: Future[list[bytes]] | None) -> bool:
    return future is not None and future.done()


def _chunks(tasks: list[Task], limit: int) -> list[Chunk]:
    """Largest files first, packed into chunks of about ``limit`` source bytes (a big file alone)."""
    ordered = sorted(tasks, key=lambda t: (-len(t.source), t.index))
    chunks: list[Chunk] = []
    current: list[Task] = []
    size = 0
    for task in ordered:
        if current and size + len(task.source) > limit:
            chunks.append(tuple(current))
            current, size = [], 0
        current.append(task)
        size += len(task.source)
    if current:
        chunks.append(tuple(current))
    return chunks
