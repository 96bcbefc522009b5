"""Summarise files in worker processes and in this one at the same time.

``-j N`` means N processes in all: N - 1 workers and this process, which would otherwise sit idle
while the workers parse. The files wait in one queue, largest first. The workers take chunks from the
front and this process takes files one at a time from the back, so the big files go to the workers
early and the two ends meet in the middle. A chunk is a share of what is still queued (guided
self-scheduling): big while much is left, small near the end, so that when this process finds the
queue empty it waits for little. Each worker holds two chunks, the one it runs and the next, fed
from the executor's thread as each finishes, so it never waits for this process. Work can be added
while the workers run: the engine hands over the files that surely matter before the relevance
pre-scan has decided about the others.

A worker returns each summary as the cache entry it writes (``cache.Entry``: the head and the rest,
pickled once); this process unpickles the head, a third of the work, and the rest only if the
propagation asks for that module. If the workers cannot start (a sandbox, a frozen app) or die (killed
for memory), their chunks are done here: a slower run, never a lost one.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING

from retracelint.cache import Encoded, Entry, SummaryCache, encode
from retracelint.summarise import SummaryOptions, summarise
from retracelint.summary import ModuleSummary

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

_SHARES = 4  # a chunk is 1 / (processes * _SHARES) of the bytes still queued
_MIN_CHUNK_BYTES = 32_768  # ~15 ms of work: handing out a chunk costs ~0.5 ms
_AHEAD = 2  # chunks given to each worker at a time: the one it runs and the next
# The executor's threads move a chunk's sources to a worker and its summaries back a pipe's worth
# (64 KiB) at a time, and need the GIL again after each. While this process summarises, a waiting
# thread gets it only once per switch interval (5 ms by default): a worker waited up to 0.4 s for
# its finished chunk to be read, 1.2 s of a cold corpus run in all. At 0.2 ms it waits 0.1 s in all;
# the interval only matters while another thread is waiting, so this process loses nothing measurable.
_SWITCH_INTERVAL = 0.0002


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


def _context() -> BaseContext | None:
    """How to start the workers: by fork (the platform's default, the fastest) unless this process
    runs other threads, as it does once jax is loaded (the flake8 plugin or ``confirm`` in a process
    that imported it, a test session): a fork copies their locks held, and the child can deadlock.
    Then from a fork server (a clean process started for the purpose), else by spawning."""
    import multiprocessing

    if "jax" not in sys.modules and threading.active_count() == 1:
        return None
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def summarise_chunk(
    chunk: Chunk, options: SummaryOptions, cache: SummaryCache | None
) -> list[Encoded]:
    """In a worker: summarise, store in the cache (the chunk as one pack), and return the pickled
    summaries."""
    out = [
        encode(summarise(task.source, task.path, task.module, task.is_package, options))
        for task in chunk
    ]
    if cache is not None:
        cache.put_many([(task.key, encoded) for task, encoded in zip(chunk, out, strict=True)])
    return out


@dataclass
class Pool:
    """Summarise tasks with ``processes`` processes in all, this one included."""

    processes: int
    options: SummaryOptions
    cache: SummaryCache | None
    min_tasks: int = 1  # fewer tasks than this in all: starting workers costs more than it saves
    _queue: deque[Task] = field(default_factory=deque)  # not handed out yet, largest first
    _queued_bytes: int = 0
    _added: int = 0
    _executor: Executor | None = None
    _given: list[tuple[Chunk, Future[list[Encoded]]]] = field(default_factory=list)
    _running: int = 0  # chunks given to the workers and not finished
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _switch_interval: float | None = None  # the process's own, while the workers run

    def __enter__(self) -> Pool:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
        if self._switch_interval is not None:
            sys.setswitchinterval(self._switch_interval)

    def add(self, tasks: list[Task]) -> None:
        """Queue ``tasks``; the workers start on them at once, once there are enough tasks in all."""
        ordered = sorted(tasks, key=lambda t: (-len(t.source), t.index))
        with self._lock:
            self._queue.extend(ordered)
            self._queued_bytes += sum(len(t.source) for t in ordered)
            self._added += len(ordered)
            start = self._executor is None and self.processes > 1 and self._added >= self.min_tasks
        if start:
            self._start()
        self._feed()

    def results(
        self, here: Callable[[Task], ModuleSummary], arrived: Callable[[Task, Entry], ModuleSummary]
    ) -> dict[int, ModuleSummary]:
        """Every task's summary by its index. This process runs ``here`` on the queued tasks from the
        back, one at a time, until the queue is empty; between two tasks it hands what the workers
        have finished to ``arrived`` (which unpickles a head), so that this work, too, is done while
        they still run."""
        out: dict[int, ModuleSummary] = {}
        while True:
            self._collect(here, arrived, out, wait=False)
            with self._lock:
                task = self._queue.pop() if self._queue else None
                if task is not None:
                    self._queued_bytes -= len(task.source)
            if task is None:
                break
            out[task.index] = here(task)
        self._collect(here, arrived, out, wait=True)
        return out

    def _collect(
        self,
        here: Callable[[Task], ModuleSummary],
        arrived: Callable[[Task, Entry], ModuleSummary],
        out: dict[int, ModuleSummary],
        wait: bool,
    ) -> None:
        ready, pending = [], []
        with self._lock:
            for given in self._given:
                # done() is asked once: a chunk that finishes meanwhile is collected next time
                (ready if wait or given[1].done() else pending).append(given)
            self._given = pending
        for chunk, future in ready:
            try:
                encoded = future.result()
            except Exception:  # a worker died (memory, a signal): this process does its chunk
                for task in chunk:
                    out[task.index] = here(task)
                continue
            for task, (head, rest) in zip(chunk, encoded, strict=True):
                out[task.index] = arrived(task, Entry(head, rest))

    def _start(self) -> None:
        try:
            # Imported here: multiprocessing costs a run with nothing to parse 15 ms to import.
            from concurrent.futures import ProcessPoolExecutor

            # gc.disable: the workers allocate like this process (see engine.analyse); a forked
            # worker inherits the setting, a started one gets it from the initializer.
            self._executor = ProcessPoolExecutor(
                self.processes - 1, mp_context=_context(), initializer=gc.disable
            )
        except (OSError, RuntimeError):  # no processes here: this one does everything
            self.processes = 1
            return
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch_interval, _SWITCH_INTERVAL))

    def _feed(self) -> None:
        """Give the workers chunks until each holds ``_AHEAD``."""
        while True:
            with self._lock:
                if (
                    self._executor is None
                    or not self._queue
                    or self._running >= _AHEAD * (self.processes - 1)
                ):
                    return
                chunk = self._take_chunk()
                try:
                    future = self._executor.submit(summarise_chunk, chunk, self.options, self.cache)
                except (OSError, RuntimeError):  # the workers are gone: this process does the rest
                    self._queue.extendleft(reversed(chunk))
                    self._queued_bytes += sum(len(t.source) for t in chunk)
                    self.processes = 1
                    return
                self._running += 1
                self._given.append((chunk, future))
            future.add_done_callback(self._done)

    def _done(self, future: Future[list[Encoded]]) -> None:
        """Called in the executor's thread when a chunk is finished: the worker gets the next one.
        A failed chunk means a dead worker: nothing more is given out (the executor may hold its
        own locks while it fails its futures, and submitting would only fail too)."""
        with self._lock:
            self._running -= 1
            if future.cancelled() or future.exception() is not None:
                self.processes = 1
                return
        self._feed()

    def _take_chunk(self) -> Chunk:
        limit = max(_MIN_CHUNK_BYTES, self._queued_bytes // (self.processes * _SHARES))
        chunk: list[Task] = []
        size = 0
        while self._queue and (not chunk or size + len(self._queue[0].source) <= limit):
            task = self._queue.popleft()
            chunk.append(task)
            size += len(task.source)
        self._queued_bytes -= size
        return tuple(chunk)
