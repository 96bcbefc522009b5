"""Arithmetic on arrays made with another value's dtype (issue 39, sealed round 14's false alarm): a
mask cleared with ``word & ~(1 << slot.astype(word.dtype))``, ``jnp.asarray(slot, dtype=word.dtype)``
or ``jnp.ones_like(word) << ...`` is of the word's dtype whatever the index was (jax promotes a
dtype with itself or a Python int to that dtype), so a uint8 or uint16 bit word handed back by its
jitted step keeps its dtype and is not flagged; the same step shifting the index as the helper gives
it (an int32 ``argmax``) promotes the word to int32 and is found where the word starts. Projects
split over modules and classes: a NamedTuple pool carried in a ``while`` loop, a row of seats kept
on an object whose jitted attribute is a static method.

Each positive was run under jax 0.10.2 (two traces) and each negative (one trace) when written; the
lattice rows that decide them (uint with int, a shift or bitwise operator) are compared with jax in
``tests/test_promotion.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_promoted_results import _found, _write

# Eight worker slots as the bits of a uint8 word; the jitted ``take`` clears the lowest idle one.
POOL = {
    "slots.py": '''\
"""A pool of eight worker slots as bits of a uint8 word: bit i set while slot i is idle."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Pool(NamedTuple):
    idle: jax.Array
    taken: jax.Array


def lowest_idle(word):
    bits = (word >> jnp.arange(8, dtype=word.dtype)) & 1
    return jnp.argmax(bits)


def take(pool):
    slot = lowest_idle(pool.idle)
    mask = @MASK@
    return Pool(pool.idle & ~mask, pool.taken + 1)
''',
    "dispatch.py": '''\
"""Hand slots to incoming jobs until the pool is empty."""

import jax
import jax.numpy as jnp

from slots import Pool, take


def dispatch(jobs):
    step = jax.jit(take)
    pool = Pool(jnp.uint8(0xFF), jnp.zeros((), jnp.int32))
    left = jobs
    while left > 0:
        pool = step(pool)
        left -= 1
    return pool


if __name__ == "__main__":
    dispatch(4)
''',
}

# A cinema row's seats as the bits of a uint16 word kept on the row object.
SEATS = {
    "seats.py": '''\
"""A cinema row's seats as bits of a uint16 word: bit i set while seat i is taken."""

import jax
import jax.numpy as jnp


def first_free(row):
    taken = (row >> jnp.arange(16, dtype=row.dtype)) & 1
    return jnp.argmin(taken)


class Row:
    def __init__(self):
        self.bits = jnp.zeros((), jnp.uint16)
        self._book = jax.jit(self.book_first)

    @staticmethod
    def book_first(row):
        seat = first_free(row)
        mark = @MARK@
        return row | (1 << mark)

    def book(self):
        self.bits = self._book(self.bits)
''',
    "main.py": """\
from seats import Row


def main():
    row = Row()
    for _ in range(5):
        row.book()
    return row.bits


if __name__ == "__main__":
    main()
""",
}


@pytest.mark.parametrize(
    "mask",
    [
        "1 << slot.astype(pool.idle.dtype)",
        "jnp.ones_like(pool.idle) << slot.astype(pool.idle.dtype)",
        "(jnp.zeros_like(pool.idle) + 1) << jnp.asarray(slot, pool.idle.dtype)",
    ],
)
def test_a_bit_cleared_in_the_word_dtype_keeps_a_carried_uint8(tmp_path: Path, mask: str):
    assert _found(_write(tmp_path, POOL, MASK=mask)) == []


def test_an_int32_index_shifted_into_the_word_makes_it_int32(tmp_path: Path):
    found = _found(_write(tmp_path, POOL, MASK="1 << slot"))
    assert found == [("dispatch.py", 11, "RTL402")]


@pytest.mark.parametrize("mark", ["jnp.asarray(seat, dtype=row.dtype)", "seat.astype(row.dtype)"])
def test_a_seat_marked_in_the_row_dtype_keeps_the_stored_uint16(tmp_path: Path, mark: str):
    assert _found(_write(tmp_path, SEATS, MARK=mark)) == []


def test_a_seat_index_shifted_as_argmin_gives_it_flips_the_stored_row(tmp_path: Path):
    root = _write(tmp_path, SEATS, MARK="seat")
    assert _found(root) == [("seats.py", 14, "RTL402")]
